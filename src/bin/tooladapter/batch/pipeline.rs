//! The ordered pipeline streams and folders run on: this thread reads windows of input and
//! writes results in input order ([`Emit`]) while the batch's threads convert (rayon; each
//! worker keeps its own warm converter). Memory is bounded by the windows in flight, not by
//! the input, and the output is the same bytes whatever the number of threads.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc;

use indicatif::ProgressBar;
use tooladapter::{Inverse, Severity};

use super::progress::{Progress, new_bar};
use super::{Batch, Converted, Label, Threads};
use crate::Outcome;
use crate::maps::Maps;
use crate::report::{Failure, Origin};

/// Windows queued for the threads at once (see [`Batch::pipeline`]): two keep them busy
/// while this thread writes one window and reads the next.
pub(super) const IN_FLIGHT: usize = 2;

/// Tasks per thread in one window: enough that a thread finishing early finds more to do.
const TASKS_PER_THREAD: usize = 4;

impl Batch<'_> {
    /// Runs a batch window by window: `next` reads a window on this thread and splits it into
    /// tasks (`None` at the end), `work` converts a task on one of the batch's threads,
    /// `write` writes a task's results on this thread, in input order.
    ///
    /// The tasks of up to [`IN_FLIGHT`] windows are queued at once, so that the threads go on
    /// to the next window while this thread writes one and reads another (a pool left without
    /// work falls asleep, and waking it costs more than a window's I/O). Tasks are spawned
    /// one by one rather than as a parallel iterator per window: a thread waiting inside one
    /// window's iterator would steal the next window's work and hold back the first one's
    /// results, leaving this thread with two windows to write while the pool idles.
    pub(super) fn pipeline<W: Send, R: Send>(
        &self,
        mut next: impl FnMut() -> std::io::Result<Option<Vec<W>>>,
        work: impl Fn(W) -> R + Sync,
        mut write: impl FnMut(R) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        match &self.threads {
            Threads::Inline => {
                while let Some(tasks) = next()? {
                    for task in tasks {
                        write(work(task))?;
                    }
                }
                Ok(())
            }
            Threads::Global => rayon::in_place_scope_fifo(|s| queue(s, next, &work, write)),
            Threads::Pool(pool) => pool.in_place_scope_fifo(|s| queue(s, next, &work, write)),
        }
    }

    /// How many tasks a window is split into: a few per thread, so that threads finishing
    /// early find more to do.
    pub(super) fn tasks_per_window(&self) -> usize {
        self.jobs().saturating_mul(TASKS_PER_THREAD)
    }
}

/// [`Batch::pipeline`] on threads: a window's tasks are spawned on `scope` as it is read,
/// at most [`IN_FLIGHT`] windows ahead of the one being written.
fn queue<'s, W: Send + 's, R: Send + 's>(
    scope: &rayon::ScopeFifo<'s>,
    mut next: impl FnMut() -> std::io::Result<Option<Vec<W>>>,
    work: &'s (impl Fn(W) -> R + Sync),
    mut write: impl FnMut(R) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut in_flight: VecDeque<Vec<mpsc::Receiver<R>>> = VecDeque::with_capacity(IN_FLIGHT);
    let mut end = false;
    // A read error ends the input, but what was read before it is still written first, as a
    // one-thread run would have.
    let mut read_error = None;
    loop {
        if !end && in_flight.len() < IN_FLIGHT {
            match next() {
                Err(e) => {
                    read_error = Some(e);
                    end = true;
                }
                Ok(None) => end = true,
                Ok(Some(tasks)) => {
                    let receivers = tasks
                        .into_iter()
                        .map(|task| {
                            let (sender, receiver) = mpsc::sync_channel(1);
                            scope.spawn_fifo(move |_| {
                                // The receiver is gone only when writing failed: the run is
                                // ending, and these results are not wanted.
                                let _ = sender.send(work(task));
                            });
                            receiver
                        })
                        .collect();
                    in_flight.push_back(receivers);
                    continue;
                }
            }
        }
        let Some(receivers) = in_flight.pop_front() else {
            return read_error.map_or(Ok(()), Err);
        };
        for receiver in receivers {
            match receiver.recv() {
                Ok(results) => write(results)?,
                Err(_) => return Err(std::io::Error::other("a conversion thread stopped")),
            }
        }
    }
}

/// Writes converted items in order: outputs, report entries and error messages, and folds
/// them into the run's [`Outcome`]. Owns the progress bar, so that what it prints on stderr
/// does not tear the bar.
pub(crate) struct Emit<'s> {
    sink: &'s mut dyn Write,
    /// The report goes to stderr, where the bar is drawn.
    sink_is_stderr: bool,
    outcome: &'s mut Outcome,
    /// The written items' inverse maps, appended in order.
    inverse: Inverse,
    /// What the items' maps write each target name back to, for clashes between items.
    maps: Maps,
    show_bar: bool,
    bar: Option<ProgressBar>,
}

impl<'s> Emit<'s> {
    /// Writes reports to `sink`; `show_bar` as [`bar_wanted`](super::bar_wanted) says.
    pub(crate) fn new(
        sink: &'s mut dyn Write,
        sink_is_stderr: bool,
        outcome: &'s mut Outcome,
        show_bar: bool,
    ) -> Self {
        Emit {
            sink,
            sink_is_stderr,
            outcome,
            inverse: Inverse::default(),
            maps: Maps::default(),
            show_bar,
            bar: None,
        }
    }

    /// Starts the bar for a batch, if one is shown; the caller advances it.
    pub(super) fn start(&mut self, what: Progress) -> Option<ProgressBar> {
        self.bar = self.show_bar.then(|| new_bar(what));
        self.bar.clone()
    }

    /// Clears the bar at the end of a batch.
    pub(super) fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// The inverse maps of every item written, in order: what `--map-out` writes.
    ///
    /// # Errors
    /// Two items write a tool under one name that maps back differently (see [`Maps`]).
    pub(crate) fn into_inverse(self) -> Result<Inverse, String> {
        match self.maps.clash() {
            Some(clash) => Err(clash.to_owned()),
            None => Ok(self.inverse),
        }
    }

    /// Writes the items of `converted` in order, the main output to `out`, and leaves it
    /// empty, its buffers kept for reuse.
    ///
    /// # Errors
    /// Writing `out` or the report failed (the run cannot go on); an item's own output file
    /// that cannot be written is reported and counted as a failure instead.
    pub(crate) fn write(
        &mut self,
        converted: &mut Converted,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let to_stderr = converted.done.iter().any(|d| match &d.result {
            Ok(item) => self.sink_is_stderr && !item.report.is_empty(),
            Err(_) => true,
        });
        let result = match self.bar.clone() {
            // Only suspend when something goes to stderr: each suspension redraws the bar.
            Some(bar) if to_stderr => bar.suspend(|| self.write_items(converted, out)),
            _ => self.write_items(converted, out),
        };
        converted.clear();
        result
    }

    fn write_items(
        &mut self,
        converted: &mut Converted,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let Converted { done, output: bytes, report } = converted;
        // Outputs that follow each other in `bytes` and go to `out` are written as one run:
        // on an NDJSON task, all of its lines at once.
        let mut run = 0..0;
        for done in done.drain(..) {
            let item = match done.result {
                Ok(item) => item,
                Err(message) => {
                    self.error(&done.label, &message);
                    continue;
                }
            };
            // An item with a loss `--deny-loss` denies is not written: the run exits 3, and
            // what it denies must not reach a file or a pipe.
            let output = item.output.clone().filter(|_| !item.denied);
            match (&done.dest, output) {
                (_, None) => {}
                (Some(path), Some(output)) => {
                    let output = bytes.get(output).unwrap_or_default();
                    if let Err(e) = crate::output::write_file(path, &[output]) {
                        let failure = Failure::new("io", format!("cannot write: {e}"));
                        self.error(&done.label, &failure);
                    }
                }
                (None, Some(output)) if output.start == run.end => run.end = output.end,
                (None, Some(output)) => {
                    out.write_all(bytes.get(run).unwrap_or_default())?;
                    run = output;
                }
            }
            if !item.report.is_empty() {
                self.sink.write_all(report.get(item.report).unwrap_or_default())?;
            }
            self.outcome.failed |= item.worst == Some(Severity::Error);
            self.outcome.lost |= item.denied;
            let mut tally = item.tally;
            if item.denied {
                tally.withhold();
            }
            self.outcome.tally.add(tally);
            // The label is text only for a map to check: most items carry none.
            if !item.inverse.tools.is_empty() {
                self.maps.add(&done.label.to_string(), &item.inverse);
            }
            self.inverse.extend(item.inverse);
        }
        out.write_all(bytes.get(run).unwrap_or_default())
    }

    /// Whether an item so far had a loss `--deny-loss` denies.
    pub(crate) fn lost(&self) -> bool {
        self.outcome.lost
    }

    /// The tools written so far are not written after all: their output (a file) is left as
    /// it was (see [`crate::report::Tally::withhold`]).
    pub(crate) fn withhold(&mut self) {
        self.outcome.tally.withhold();
    }

    /// Reports an item that produced no output; the run will exit 1.
    fn error(&mut self, label: &Label, failure: &Failure) {
        self.outcome.failed = true;
        self.outcome.tally.failed += 1;
        let text = label.to_string();
        let (source, line) = match label {
            Label::File(p) => (p.display().to_string(), None),
            Label::Line(n) => (crate::report::input_source().to_owned(), Some(*n)),
            Label::None => (crate::report::input_source().to_owned(), None),
        };
        crate::report::say(failure, Some(&Origin { label: &text, source: &source, line }));
    }
}
