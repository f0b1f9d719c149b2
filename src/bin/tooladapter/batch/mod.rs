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
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

use rayon::prelude::*;
use tooladapter::{Adapter, Conversion, Converter, Inverse, Options, Report, Severity};

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
/// several strings each, and copying those to this thread costs more than printing them. A
/// large item is not copied at all: its conversion is taken from the converter and written
/// from there ([`Held`]).
pub(crate) struct Item {
    /// The converted document and its newline, in [`Converted::output`]; `None` for a check,
    /// which writes none, and for a held item.
    output: Option<Range<usize>>,
    /// The report entries as `--report` prints them, labelled, in [`Converted::report`].
    report: Range<usize>,
    /// A large item's output and report, written from the conversion itself.
    held: Option<Box<Held>>,
    /// The highest severity in the report, for the exit code.
    worst: Option<Severity>,
    /// Whether the report has an entry `--deny-loss` denies, for the exit code.
    denied: bool,
    /// What maps the target's tool calls back (`--map-out`), in item order like the output.
    inverse: Inverse,
    /// What it counts for the summary line.
    tally: Tally,
}

/// A large item, taken from the converter: a report of more than [`Held::ENTRIES`] entries,
/// or an output over [`Held::BYTES`]. Copied into the task's buffers, or printed into them,
/// such an item would take several times the memory of the conversion itself.
pub(crate) struct Held {
    kept: Kept,
    /// Whether its output is written (a check writes none).
    output: bool,
    label: String,
    source: String,
    line: Option<usize>,
    limit: usize,
    printing: Printing,
}

impl Held {
    /// Reports with more entries than this are held.
    const ENTRIES: usize = 1024;

    /// Outputs longer than this are held.
    const BYTES: usize = 1 << 20;

    /// The output to write, followed by its newline.
    fn output(&self) -> Option<[&[u8]; 2]> {
        match &self.kept {
            Kept::Conversion(c) if self.output => Some([c.output(), b"\n".as_slice()]),
            _ => None,
        }
    }

    /// Prints the report to `sink`, through a buffer (the sink may be stderr, which has none).
    fn write_report(&self, sink: &mut dyn Write) -> std::io::Result<()> {
        let origin =
            Origin { label: &self.label, source: &self.source, line: self.line, limit: self.limit };
        let mut sink = std::io::BufWriter::with_capacity(64 << 10, sink);
        write_entries(self.kept.report().refs(), &origin, self.printing, &mut sink)?;
        sink.flush()
    }
}

/// What a held item keeps: the conversion taken from the converter, or (a split catalog) the
/// stitched report, its output in the task's buffer.
pub(crate) enum Kept {
    Conversion(Box<Conversion>),
    Report(Report),
}

impl Kept {
    fn report(&self) -> &Report {
        match self {
            Kept::Conversion(c) => c.report(),
            Kept::Report(report) => report,
        }
    }
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
            let limit = self.options.limits.output_limit(input.len());
            match self.work {
                Work::Convert => {
                    let c = converter
                        .convert(input, self.from, self.to, self.options)
                        .map_err(failed)?;
                    let severities = c.report().refs().map(|e| e.severity());
                    let tally = Tally::of(c.tools_read(), c.tools_written(), severities);
                    let inverse = self.inverse_of(c);
                    if !self.holds(c.report(), c.output().len()) {
                        let output = Some(into.push_output(c.output()));
                        let made = Made { output, inverse, tally, limit };
                        return self.item(made, Entries::Borrowed(c.report()), label, into);
                    }
                    let made = Made { output: None, inverse, tally, limit };
                    let kept = Kept::Conversion(Box::new(converter.take()));
                    self.item(made, Entries::Taken(kept, true), label, into)
                }
                Work::Check => {
                    let report =
                        converter.check(input, self.from, self.to, self.options).map_err(failed)?;
                    let tally = Tally::of(0, 0, report.refs().map(|e| e.severity()));
                    let made = Made { output: None, inverse: Inverse::default(), tally, limit };
                    if !self.holds(report, 0) {
                        return self.item(made, Entries::Borrowed(report), label, into);
                    }
                    let kept = Kept::Conversion(Box::new(converter.take()));
                    self.item(made, Entries::Taken(kept, false), label, into)
                }
            }
        })
    }

    /// Whether an item whose report is `report` and output `output` bytes is held ([`Held`]).
    fn holds(&self, report: &Report, output: usize) -> bool {
        output > Held::BYTES
            || (report.len() > Held::ENTRIES && self.printing.mode != ReportMode::None)
    }

    /// Converts (or checks) a single input, the whole run.
    pub(crate) fn single(&self, input: &[u8]) -> Converted {
        let mut converted = Converted::default();
        converted.push(Label::None, None, |c| self.convert_item(input, &Label::None, c));
        converted
    }

    /// An item with its report printed into `into`, or held (its output, if any, is in `into`
    /// already).
    fn item(
        &self,
        made: Made,
        entries: Entries<'_>,
        label: &Label,
        into: &mut Converted,
    ) -> Result<Item, Failure> {
        let Made { output, inverse, tally, limit } = made;
        let report = match &entries {
            Entries::Borrowed(report) => *report,
            Entries::Taken(kept, _) => kept.report(),
        };
        let worst = report.max_severity();
        let denied = self.options.deny_loss.is_some_and(|rule| report.denied(rule));
        let start = into.report.len();
        let printed = self.printing.mode != ReportMode::None && !report.is_empty();
        // The label and source are text only where an entry is printed: most NDJSON lines
        // have none, and a run with `--report none` prints none.
        let (text, source, line) = match printed {
            true => {
                let (source, line) = match label {
                    Label::File(p) => (p.display().to_string(), None),
                    Label::Line(n) => (self.input.clone(), Some(*n)),
                    Label::None => (self.input.clone(), None),
                };
                (label.to_string(), source, line)
            }
            false => Default::default(),
        };
        let held = match entries {
            Entries::Borrowed(report) => {
                if printed {
                    let origin = Origin { label: &text, source: &source, line, limit };
                    write_entries(report.refs(), &origin, self.printing, &mut into.report)
                        .map_err(|e| Failure::new("io", format!("cannot print the report: {e}")))?;
                }
                None
            }
            Entries::Taken(kept, output) => {
                let printing = match printed {
                    true => self.printing,
                    false => Printing { mode: ReportMode::None, ..self.printing },
                };
                let held = Held { kept, output, label: text, source, line, limit, printing };
                Some(Box::new(held))
            }
        };
        let report = start..into.report.len();
        Ok(Item { output, report, held, worst, denied, inverse, tally })
    }
}

/// What an item made, apart from its report: its output in the task's buffer, its inverse
/// map, its tally, and the output limit of its input (which its JSON report is held to).
pub(crate) struct Made {
    pub(crate) output: Option<Range<usize>>,
    pub(crate) inverse: Inverse,
    pub(crate) tally: Tally,
    pub(crate) limit: usize,
}

/// The report of an item: the converter's, read where it is, or kept to be held (with
/// whether the conversion's output is to be written from there).
pub(crate) enum Entries<'r> {
    Borrowed(&'r Report),
    Taken(Kept, bool),
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
