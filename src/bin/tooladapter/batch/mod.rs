//! Batch work for the command line: NDJSON streams, folders of `.json` files and catalogs of
//! many tools, converted on several threads and written in input order.
//!
//! The library neither does I/O nor starts threads (a caller keeps one `Converter` per
//! thread), so threads, windows of input and the progress bar live here, in the binary, one
//! file per job: the ordered pipeline that streams and folders run on ([`pipeline`]), NDJSON
//! windows ([`ndjson`]), folders ([`folder`]), a large catalog split across the threads
//! ([`catalog`]; the library says how it splits and stitches) and the progress bar
//! ([`progress`]). This file holds what they share: the batch's threads and how one item is
//! converted and labelled.

mod catalog;
mod folder;
mod ndjson;
mod pipeline;
mod progress;

use std::cell::RefCell;
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

use rayon::prelude::*;
use tooladapter::{Adapter, Conversion, Converter, Inverse, Options, ReportEntry, Severity};

pub(crate) use folder::json_files;
pub(crate) use pipeline::Emit;
pub(crate) use progress::bar_wanted;

use crate::output::Dest;
use crate::report::{Failure, Origin, Printing, ReportMode, Tally, write_entries};

thread_local! {
    /// Each worker thread keeps one converter warm for every item it takes, as the library
    /// asks (a `Converter` is not `Sync`).
    static CONVERTER: RefCell<Converter> = RefCell::new(Converter::new());
}

/// Parses `--jobs`: a thread count of at least one.
pub(crate) fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// Where the threads come from.
enum Threads {
    /// `--jobs 1`: everything on the calling thread.
    Inline,
    /// No `--jobs`: rayon's global pool, one thread per core (or `RAYON_NUM_THREADS`).
    Global,
    /// `--jobs N` with N > 1.
    Pool(rayon::ThreadPool),
}

/// The conversion every item of a batch goes through, and the threads that run it.
pub(crate) struct Batch<'a> {
    from: &'a dyn Adapter,
    to: &'a dyn Adapter,
    options: &'a Options,
    /// How report entries are printed; they are printed on the worker that made them.
    printing: Printing,
    threads: Threads,
    /// The input as JSON reports name it: its path, or `-` for stdin (a folder's files are
    /// named by their own paths).
    input: String,
    /// What is done to each item: converted, or (`check`) only checked.
    work: Work,
    /// Whether items carry their inverse map (`--map-out`): the library builds the owned map
    /// only when asked for it, so a run that writes no map should not ask.
    keep_inverse: bool,
}

/// What a batch does to each item.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Work {
    /// Convert it (`convert`).
    Convert,
    /// Check it against the target's rules, writing no output (`check`).
    Check,
}

/// What one item converted to, ready to write: its output and printed report are ranges of
/// the buffers of the [`Converted`] it belongs to, since they outlive the worker's converter.
/// The report is printed already, on the worker, since a report can be many entries of
/// several strings each, and copying those to this thread costs more than printing them.
pub(crate) struct Item {
    /// The converted document and its newline, in [`Converted::output`]; `None` for a check,
    /// which writes none.
    output: Option<Range<usize>>,
    /// The report entries as `--report` prints them, labelled, in [`Converted::report`].
    report: Range<usize>,
    /// The highest severity in the report, for the exit code.
    worst: Option<Severity>,
    /// Whether the report has an entry `--deny-loss` denies, for the exit code.
    denied: bool,
    /// What maps the target's tool calls back (`--map-out`), in item order like the output.
    inverse: Inverse,
    /// What it counts for the summary line.
    tally: Tally,
}

/// How an item is named in messages.
pub(crate) enum Label {
    /// A single input: it is the whole run, so messages need no label.
    None,
    /// An NDJSON line, counted from 1 (blank lines count).
    Line(usize),
    /// A file of a folder.
    File(PathBuf),
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::None => Ok(()),
            Label::Line(n) => write!(f, "line {n}"),
            Label::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// Items converted together (the lines of an NDJSON task, a file, a catalog), in order, with
/// the two buffers their outputs and printed reports are written into. One buffer for all the
/// items of a task, reused from task to task, rather than one per item: a buffer made on a
/// worker and freed on the writing thread is an allocation crossing threads for every line,
/// and the writing thread, which every worker waits on, then writes a task's output at once.
#[derive(Default)]
pub(crate) struct Converted {
    done: Vec<Done>,
    /// The items' outputs back to back, each followed by a newline.
    output: Vec<u8>,
    /// The items' printed reports back to back.
    report: Vec<u8>,
}

impl Converted {
    /// Empties it for the next task, keeping its buffers.
    fn clear(&mut self) {
        self.done.clear();
        self.output.clear();
        self.report.clear();
    }

    /// Appends `output` and its newline; where it lies.
    fn push_output(&mut self, output: &[u8]) -> Range<usize> {
        let start = self.output.len();
        self.output.reserve(output.len() + 1);
        self.output.extend_from_slice(output);
        self.output.push(b'\n');
        start..self.output.len()
    }

    /// Buffers retained for reuse hold at most this many bytes each, so that one very long
    /// line does not keep its buffers for the rest of the run.
    const RETAIN: usize = 16 << 20;

    /// Whether its buffers are small enough to be kept for the next task.
    fn reusable(&self) -> bool {
        self.output.capacity() <= Self::RETAIN && self.report.capacity() <= Self::RETAIN
    }
}

/// [`Converted`]s written and kept for the next tasks: a pool the workers take from and the
/// writing thread gives back to, so that a run's buffers are allocated (and their pages
/// faulted in) once, not once per task.
#[derive(Default)]
pub(crate) struct Spare(std::sync::Mutex<Vec<Converted>>);

impl Spare {
    /// An empty `Converted`, kept from an earlier task when there is one.
    fn take(&self) -> Converted {
        self.0.lock().ok().and_then(|mut spare| spare.pop()).unwrap_or_default()
    }

    /// Keeps `converted`, written and so empty, for a later task, unless its buffers grew
    /// past [`Converted::RETAIN`].
    fn give(&self, converted: Converted) {
        if converted.reusable()
            && let Ok(mut spare) = self.0.lock()
        {
            spare.push(converted);
        }
    }
}

/// One converted item, held until its turn to be written.
pub(crate) struct Done {
    label: Label,
    /// The item's own output file (a folder converted with `-o`); the shared output otherwise.
    dest: Option<Dest>,
    result: Result<Item, Failure>,
}

impl<'a> Batch<'a> {
    /// A batch converting `from` → `to`, printing reports in `mode`; `jobs` is `--jobs`
    /// (`None`: one thread per core).
    ///
    /// # Errors
    /// When the threads asked for cannot be started.
    pub(crate) fn new(
        from: &'a dyn Adapter,
        to: &'a dyn Adapter,
        options: &'a Options,
        printing: Printing,
        jobs: Option<usize>,
    ) -> std::io::Result<Self> {
        let threads = match jobs {
            None => Threads::Global,
            Some(0 | 1) => Threads::Inline,
            Some(n) => Threads::Pool(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("tooladapter-{i}"))
                    .build()
                    .map_err(|e| std::io::Error::other(format!("cannot start {n} threads: {e}")))?,
            ),
        };
        let (input, work) = ("-".to_owned(), Work::Convert);
        Ok(Batch { from, to, options, printing, threads, input, work, keep_inverse: true })
    }

    /// Names the input in JSON reports: `path`, or stdin (`-`) when `None`.
    pub(crate) fn input(self, path: Option<&std::path::Path>) -> Self {
        let input = path.map_or_else(|| "-".to_owned(), |p| p.display().to_string());
        Batch { input, ..self }
    }

    /// Sets what is done to each item.
    pub(crate) fn work(self, work: Work) -> Self {
        Batch { work, ..self }
    }

    /// Whether items carry their inverse map (on unless turned off).
    pub(crate) fn keep_inverse(self, keep: bool) -> Self {
        Batch { keep_inverse: keep, ..self }
    }

    /// The inverse map of `c`, or an empty one when it is not kept.
    fn inverse_of(&self, c: &Conversion) -> Inverse {
        if self.keep_inverse { c.inverse().clone() } else { Inverse::default() }
    }

    /// How many threads convert at once.
    fn jobs(&self) -> usize {
        match &self.threads {
            Threads::Inline => 1,
            Threads::Global => rayon::current_num_threads(),
            Threads::Pool(pool) => pool.current_num_threads(),
        }
    }

    /// `f` over `items`, on the batch's threads, results in the order of `items`.
    fn map<T: Sync, R: Send>(&self, items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
        match &self.threads {
            Threads::Inline => items.iter().map(f).collect(),
            Threads::Global => items.par_iter().map(f).collect(),
            Threads::Pool(pool) => pool.install(|| items.par_iter().map(f).collect()),
        }
    }

    /// Runs `f` with this thread's converter.
    fn with_converter<R>(&self, f: impl FnOnce(&mut Converter) -> R) -> R {
        CONVERTER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut converter) => f(&mut converter),
            // Only reachable if a conversion ever re-entered this thread's pool work; a fresh
            // converter is slower but just as correct.
            Err(_) => f(&mut Converter::new()),
        })
    }

    /// Converts (or checks) `input` with this thread's converter into an item ready to
    /// write, labelled `label`, its output and report written into `into`.
    pub(crate) fn convert_item(
        &self,
        input: &[u8],
        label: &Label,
        into: &mut Converted,
    ) -> Result<Item, Failure> {
        self.with_converter(|converter| {
            let failed = |e: tooladapter::ConversionError| {
                // A file of a folder may be NDJSON (an NDJSON line cannot hold two documents).
                let what_to_do = match (label, self.work) {
                    (Label::None, _) => "add --ndjson",
                    (_, Work::Convert) => "convert the file alone with --ndjson",
                    (_, Work::Check) => "check the file alone with --ndjson",
                };
                let hint = crate::ndjson_hint(input, &e, what_to_do);
                Failure::of(&e, &hint)
            };
            match self.work {
                Work::Convert => {
                    let c = converter
                        .convert(input, self.from, self.to, self.options)
                        .map_err(failed)?;
                    let report = c.report();
                    let entries = report.entries().iter().map(|e| (e, report.tool_index(e)));
                    let tally = Tally::of(c.tools_read(), c.tools_written(), report.entries());
                    let output = into.push_output(c.output());
                    self.item(Some(output), entries, self.inverse_of(c), label, tally, into)
                }
                Work::Check => {
                    let report =
                        converter.check(input, self.from, self.to, self.options).map_err(failed)?;
                    let entries = report.entries().iter().map(|e| (e, report.tool_index(e)));
                    let tally = Tally::of(0, 0, report.entries());
                    self.item(None, entries, Inverse::default(), label, tally, into)
                }
            }
        })
    }

    /// Converts (or checks) a single input, the whole run.
    pub(crate) fn single(&self, input: &[u8]) -> Converted {
        let mut converted = Converted::default();
        converted.push(Label::None, None, |c| self.convert_item(input, &Label::None, c));
        converted
    }

    /// An item with its report printed into `into` (its output, if any, is there already).
    fn item<'e>(
        &self,
        output: Option<Range<usize>>,
        entries: impl Iterator<Item = (&'e ReportEntry, Option<usize>)> + Clone,
        inverse: Inverse,
        label: &Label,
        tally: Tally,
        into: &mut Converted,
    ) -> Result<Item, Failure> {
        let start = into.report.len();
        // The label and source are text only where an entry is printed: most NDJSON lines
        // have none, and a run with `--report none` prints none.
        if self.printing.mode != ReportMode::None && entries.clone().next().is_some() {
            let text = label.to_string();
            let (source, line) = match label {
                Label::File(p) => (p.display().to_string(), None),
                Label::Line(n) => (self.input.clone(), Some(*n)),
                Label::None => (self.input.clone(), None),
            };
            let origin = Origin { label: &text, source: &source, line };
            write_entries(entries.clone(), &origin, self.printing, &mut into.report)
                .map_err(|e| Failure::new("io", format!("cannot print the report: {e}")))?;
        }
        let report = start..into.report.len();
        let worst = entries.clone().map(|(e, _)| e.severity).max();
        let denied =
            self.options.deny_loss.is_some_and(|rule| entries.clone().any(|(e, _)| rule.denies(e)));
        Ok(Item { output, report, worst, denied, inverse, tally })
    }
}

impl Converted {
    /// Converts one item with `convert`, which writes its output and report into `self`, and
    /// adds it labelled `label`, for `dest` (see [`Done::dest`]).
    fn push(
        &mut self,
        label: Label,
        dest: Option<Dest>,
        convert: impl FnOnce(&mut Self) -> Result<Item, Failure>,
    ) {
        let result = convert(self);
        self.done.push(Done { label, dest, result });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_must_be_positive() {
        assert!(parse_jobs("0").is_err());
        assert!(parse_jobs("x").is_err());
        assert_eq!(parse_jobs("3"), Ok(3));
    }
}
