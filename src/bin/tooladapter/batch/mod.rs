//! Batch work for the command line: NDJSON streams, folders of `.json` files and catalogs of
//! many tools, converted on several threads and written in input order.
//!
//! The library neither does I/O nor starts threads (a caller keeps one `Converter` per
//! thread), so threads, windows of input and the progress bar live here, in the binary.
//! Streams and folders go window by window: while the threads convert a window (rayon; each
//! worker keeps its own warm [`Converter`]), the main thread writes the window before in
//! input order and reads the window after. Memory is bounded by the
//! window, not by the input, and the output is the same bytes whatever the number of threads.
//!
//! A single catalog is split into contiguous chunks of tools and stitched back together only
//! when that is provably what one whole conversion would have written (see
//! [`Batch::catalog`]); otherwise it is converted whole.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::marker::PhantomData;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use tooladapter::{
    Adapter, Conversion, Converter, Inverse, Options, ProviderLimits, ReportEntry, Severity,
};

use super::{Outcome, ReportMode, named, open_input, open_output, write_report};

/// Most NDJSON lines in one window: enough to keep every thread busy between two writes.
const WINDOW_LINES: usize = 1024;

/// Bytes after which an NDJSON window is closed (a line is never cut): with the outputs and
/// reports of the window, this is what bounds memory on a stream of ordinary lines.
const WINDOW_BYTES: usize = 4 << 20;

/// Windows queued for the threads at once (see [`Batch::pipeline`]): two keep them busy
/// while this thread writes one window and reads the next.
const IN_FLIGHT: usize = 2;

/// Tasks per thread in one window: enough that a thread finishing early finds more to do.
const TASKS_PER_THREAD: usize = 4;

/// Smallest catalog, in bytes, worth splitting: smaller ones convert in well under a
/// millisecond, less than the split's own parse and stitching.
const SPLIT_MIN_BYTES: usize = 64 << 10;

/// Fewest tools a catalog must hold before splitting it pays for the stitching.
const SPLIT_MIN_TOOLS: usize = 64;

/// Chunks per thread when a catalog is split: tools differ in size, and a few chunks per
/// thread let the faster threads take up the slack.
const CHUNKS_PER_THREAD: usize = 4;

/// Fewest tools per chunk, so that a chunk's fixed costs stay small next to its work.
const MIN_CHUNK_TOOLS: usize = 16;

/// The report code a renaming pass records. Compared as text so this file does not depend on
/// the code existing in the library yet.
const TOOL_RENAMED: &str = "tool-renamed";

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

/// Whether batch work shows a progress bar: only on a terminal, and only when the converted
/// output is not written to that same terminal, where it would tear the bar.
pub(crate) fn bar_wanted(output: Option<&Path>) -> bool {
    std::io::stderr().is_terminal() && (output.is_some() || !std::io::stdout().is_terminal())
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
    mode: ReportMode,
    threads: Threads,
    /// Whether items carry their inverse map (`--map-out`): the library builds the owned map
    /// only when asked for it, so a run that writes no map should not ask.
    keep_inverse: bool,
}

/// What one chunk of a catalog converted to, with its report entries as data: the chunks'
/// reports are checked and merged before anything is printed.
struct Converted {
    output: Vec<u8>,
    report: Vec<ReportEntry>,
    inverse: Inverse,
}

/// What one item converted to, ready to write. Owned, since it outlives the worker's
/// converter; the report is printed already, on the worker, since a report can be many
/// entries of several strings each, and copying those to this thread costs more than
/// printing them.
pub(crate) struct Item {
    output: Vec<u8>,
    /// The report entries as `--report` prints them, labelled.
    report: Vec<u8>,
    /// The highest severity in the report, for the exit code.
    worst: Option<Severity>,
    /// What maps the target's tool calls back (`--map-out`), in item order like the output.
    inverse: Inverse,
}

/// How an item is named in messages.
enum Label {
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

/// One converted item, held until its turn to be written.
pub(crate) struct Done {
    label: Label,
    /// The item's own output file (a folder converted with `-o`); the shared output otherwise.
    dest: Option<PathBuf>,
    result: Result<Item, String>,
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
        mode: ReportMode,
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
        Ok(Batch { from, to, options, mode, threads, keep_inverse: true })
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

    /// Converts `input` with this thread's converter and hands the conversion to `then`.
    fn with_conversion<R>(
        &self,
        input: &[u8],
        then: impl FnOnce(&Conversion) -> Result<R, String>,
    ) -> Result<R, String> {
        let run = |converter: &mut Converter| match converter.convert(
            input,
            self.from,
            self.to,
            self.options,
        ) {
            Ok(conversion) => then(conversion),
            Err(e) => Err(e.to_string()),
        };
        CONVERTER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut converter) => run(&mut converter),
            // Only reachable if a conversion ever re-entered this thread's pool work; a fresh
            // converter is slower but just as correct.
            Err(_) => run(&mut Converter::new()),
        })
    }

    /// Converts one input labelled `label` into an item ready to write.
    fn convert_item(&self, input: &[u8], label: &Label) -> Result<Item, String> {
        self.with_conversion(input, |c| {
            self.item(c.output().to_vec(), c.report().entries(), self.inverse_of(c), label)
        })
    }

    /// Converts one chunk of a catalog, its report kept as data.
    fn convert_chunk(&self, input: &[u8]) -> Result<Converted, String> {
        self.with_conversion(input, |c| {
            Ok(Converted {
                output: c.output().to_vec(),
                report: c.report().entries().to_vec(),
                inverse: self.inverse_of(c),
            })
        })
    }

    /// An item with its report printed.
    fn item(
        &self,
        output: Vec<u8>,
        entries: &[ReportEntry],
        inverse: Inverse,
        label: &Label,
    ) -> Result<Item, String> {
        let mut report = Vec::new();
        if !entries.is_empty() {
            write_report(entries, &label.to_string(), self.mode, &mut report)
                .map_err(|e| format!("cannot print the report: {e}"))?;
        }
        let worst = entries.iter().map(|e| e.severity).max();
        Ok(Item { output, report, worst, inverse })
    }

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
    fn pipeline<W: Send, R: Send>(
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
    fn tasks_per_window(&self) -> usize {
        self.jobs().saturating_mul(TASKS_PER_THREAD)
    }

    /// Converts some lines of an NDJSON window, results in line order.
    fn convert_lines(&self, window: &Window, lines: Range<usize>) -> Vec<Done> {
        let lines = window.lines.get(lines).unwrap_or_default();
        lines
            .iter()
            .map(|line| {
                let label = Label::Line(line.number);
                let result = match &line.span {
                    Span::Text(range) => self
                        .convert_item(window.bytes.get(range.clone()).unwrap_or_default(), &label),
                    Span::TooLong(len) => Err(format!(
                        "line of {len} bytes exceeds the input limit of {} bytes; skipped",
                        self.options.limits.max_input_bytes
                    )),
                };
                Done { label, dest: None, result }
            })
            .collect()
    }

    /// Converts an NDJSON stream (`input`: a file, or stdin when `None`) window by window,
    /// one output line per input line, in order. At most [`IN_FLIGHT`] windows, one being
    /// read and one task's results are held at a time.
    ///
    /// # Errors
    /// Reading the input or writing the output failed; conversion errors are reported per
    /// line and do not stop the stream.
    pub(crate) fn ndjson(
        &self,
        input: Option<&Path>,
        output: Option<&Path>,
        emit: &mut Emit<'_>,
    ) -> std::io::Result<()> {
        let size =
            input.and_then(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len());
        let mut lines = Lines::new(
            BufReader::with_capacity(256 << 10, open_input(input)?),
            self.options.limits.max_input_bytes,
        );
        let mut out = open_output(output)?;
        let bar = emit.start(match size {
            Some(len) => Progress::Bytes(len),
            None => Progress::Lines,
        });
        // A window comes back from the workers once its last task is done and is refilled,
        // so buffers are allocated (and their pages faulted in) once per run, not per window.
        let (recycle, recycled) = mpsc::channel::<Window>();
        let tasks = self.tasks_per_window();
        self.pipeline(
            || {
                let mut window = recycled.try_recv().unwrap_or_default();
                lines.fill(&mut window)?;
                if let Some(bar) = &bar {
                    bar.set_position(if size.is_some() {
                        lines.consumed
                    } else {
                        lines.number as u64
                    });
                }
                // A window is empty only at the end of the input.
                if window.lines.is_empty() {
                    return Ok(None);
                }
                let len = window.lines.len();
                let per_task = len.div_ceil(tasks).max(1);
                let window = Arc::new(window);
                Ok(Some(
                    (0..len)
                        .step_by(per_task)
                        .map(|start| (Arc::clone(&window), start..len.min(start + per_task)))
                        .collect(),
                ))
            },
            |(window, range)| {
                let done = self.convert_lines(&window, range);
                // The last task of a window hands it back, unless one very long line grew it.
                if let Ok(window) = Arc::try_unwrap(window)
                    && window.bytes.capacity() <= 2 * WINDOW_BYTES
                {
                    let _ = recycle.send(window);
                }
                done
            },
            |done| emit.write(done, &mut *out),
        )?;
        emit.finish();
        out.flush()
    }

    /// Converts every `.json` file of `dir` (sorted by name), each whole, a window of files at
    /// a time: into `output/<name>` when an output folder is given, else to stdout in order.
    /// At most [`IN_FLIGHT`] windows of files are held at a time.
    ///
    /// # Errors
    /// The folder cannot be listed, the output folder cannot be created, or stdout fails; a
    /// file that cannot be read, converted or written is reported by name and skipped.
    pub(crate) fn dir(
        &self,
        dir: &Path,
        output: Option<&Path>,
        emit: &mut Emit<'_>,
    ) -> std::io::Result<()> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| named(e, dir))? {
            let path = entry.map_err(|e| named(e, dir))?.path();
            if path.extension().is_some_and(|x| x == "json") {
                files.push(path);
            }
        }
        files.sort();
        if let Some(out_dir) = output {
            std::fs::create_dir_all(out_dir).map_err(|e| named(e, out_dir))?;
        }
        let bar = emit.start(Progress::Files(files.len() as u64));
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        // One task per file: files are read whole, in the workers, so a window of files is
        // what bounds memory.
        let mut windows = files.chunks(self.tasks_per_window());
        self.pipeline(
            || Ok(windows.next().map(|window| window.iter().collect())),
            |path: &PathBuf| {
                let label = Label::File(path.clone());
                let result = std::fs::read(path)
                    .map_err(|e| format!("cannot read: {e}"))
                    .and_then(|bytes| self.convert_item(&bytes, &label));
                Done {
                    label,
                    dest: output.zip(path.file_name()).map(|(dir, name)| dir.join(name)),
                    result,
                }
            },
            |done| {
                emit.write(vec![done], &mut stdout)?;
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                Ok(())
            },
        )?;
        emit.finish();
        stdout.flush()
    }

    /// Converts one catalog split into contiguous chunks of tools on the batch's threads, or
    /// returns `None` when it must be converted whole by the caller.
    ///
    /// Splitting is only kept when it provably gives what one whole conversion writes: the
    /// target has no per-request limits (see [`limits_span_catalog`]); the catalog is a JSON
    /// array or an object whose catalog member is an array, with at least
    /// [`SPLIT_MIN_TOOLS`] tools; no chunk fails (a whole conversion's error names the tool's
    /// index in the whole catalog); no tool was renamed and no two output names collide
    /// (renaming for uniqueness spans the catalog); catalog-level report entries are the same
    /// in every chunk (they are reported once); and each chunk's output is exactly the
    /// target's list framing around its tools, so the framing around all of them is what the
    /// writer would have written. Anything else falls back to the whole conversion.
    pub(crate) fn catalog(&self, input: &[u8], show_bar: bool) -> Option<Done> {
        // Cheapest first: most single inputs are small, and asking for the thread count
        // starts the global pool.
        if !(SPLIT_MIN_BYTES..=self.options.limits.max_input_bytes).contains(&input.len()) {
            return None;
        }
        // An imported document (OpenAPI) is one whole: its operations only become a catalog
        // inside the library.
        if self.from.info().imports {
            return None;
        }
        let profiles = [Some(self.to.profile()), self.to.info().strict_profile()];
        if profiles.into_iter().flatten().any(|p| limits_span_catalog(p.provider_limits()))
            || self.jobs() < 2
        {
            return None;
        }
        let source = SourceCatalog::parse(input, self.from)?;
        if !source.array && self.from.name() == self.to.name() {
            // Same format keeps the wrapper's other members around the list: not worth a
            // second framing rule for a case that is rarely large.
            return None;
        }
        let count = source.elements.len();
        if count < SPLIT_MIN_TOOLS {
            return None;
        }
        let per_chunk =
            count.div_ceil(self.jobs().saturating_mul(CHUNKS_PER_THREAD)).max(MIN_CHUNK_TOOLS);
        let chunks: Vec<&[&RawValue]> = source.elements.chunks(per_chunk).collect();
        let bar = show_bar.then(|| new_bar(Progress::Tools(count as u64)));
        let pretty = self.options.pretty;
        // Once one chunk shows the split cannot stand, the chunks not yet started are skipped:
        // the whole conversion follows anyway.
        let given_up = AtomicBool::new(false);
        let outs = self.map(&chunks, |tools| {
            if given_up.load(Ordering::Relaxed) {
                return None;
            }
            let framed = self
                .convert_chunk(&source.chunk(tools))
                .ok()
                .and_then(|out| Framed::parse(out, pretty))
                .filter(|f| !f.report.iter().any(|e| e.code.as_str() == TOOL_RENAMED));
            if framed.is_none() {
                given_up.store(true, Ordering::Relaxed);
            }
            if let Some(bar) = &bar {
                bar.inc(tools.len() as u64);
            }
            framed
        });
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let outs: Vec<Framed> = outs.into_iter().collect::<Option<_>>()?;
        let Converted { output, report, inverse } = stitch(outs, pretty)?;
        let result = self.item(output, &report, inverse, &Label::None);
        Some(Done { label: Label::None, dest: None, result })
    }
}

/// Whether `limits` holds a limit on a whole request (strict tools, optional or union
/// parameters across tools, cache breakpoints): the library then decides per tool from running
/// totals over the catalog, and checks the totals, which a chunk of the catalog cannot see.
/// Every limit but the per-schema ones counts, so that one added later keeps catalogs whole
/// until it is known not to span them.
fn limits_span_catalog(limits: &ProviderLimits) -> bool {
    let per_request = ProviderLimits {
        properties: None,
        depth: None,
        enum_values: None,
        schema_chars: None,
        ..*limits
    };
    per_request != ProviderLimits::default()
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

/// A source catalog's tools, as text slices of the input, and the text around them.
struct SourceCatalog<'i> {
    /// The catalog is a bare JSON array (else an object with the catalog member).
    array: bool,
    /// Text of a chunk before its tools: `[`, or the wrapper object up to the list's `[`.
    head: String,
    /// Text of a chunk after its tools.
    tail: String,
    elements: Vec<&'i RawValue>,
}

impl<'i> SourceCatalog<'i> {
    /// Finds the tools of `input` the way the library's catalog reading does; `None` when the
    /// input is not a catalog, or is one the library would refuse (that error is the whole
    /// conversion's to give).
    fn parse(input: &'i [u8], from: &dyn Adapter) -> Option<SourceCatalog<'i>> {
        let text = std::str::from_utf8(input).ok()?;
        match text.trim_start().as_bytes().first()? {
            b'[' => {
                let elements: Vec<&RawValue> = serde_json::from_str(text).ok()?;
                Some(SourceCatalog { array: true, head: "[".into(), tail: "]".into(), elements })
            }
            b'{' => {
                let Members(members) = serde_json::from_str(text).ok()?;
                let mut seen = HashSet::new();
                if !members.iter().all(|(k, _)| seen.insert(k.as_str())) {
                    return None;
                }
                let key = from.info().catalog_key;
                let (_, list) = members.iter().find(|(k, _)| k == key)?;
                let elements: Vec<&RawValue> = serde_json::from_str(list.get()).ok()?;
                let (mut head, mut tail) = (String::from("{"), String::new());
                let mut before = true;
                for (i, (k, v)) in members.iter().enumerate() {
                    let part = if before { &mut head } else { &mut tail };
                    if i > 0 {
                        part.push(',');
                    }
                    part.push_str(&serde_json::to_string(k).ok()?);
                    part.push(':');
                    if k == key {
                        head.push('[');
                        tail.push(']');
                        before = false;
                    } else {
                        part.push_str(v.get());
                    }
                }
                tail.push('}');
                Some(SourceCatalog { array: false, head, tail, elements })
            }
            _ => None,
        }
    }

    /// The input for one chunk: the catalog with only `tools` in its list.
    fn chunk(&self, tools: &[&RawValue]) -> Vec<u8> {
        let len: usize = tools.iter().map(|t| t.get().len() + 1).sum();
        let mut out = Vec::with_capacity(self.head.len() + len + self.tail.len());
        out.extend_from_slice(self.head.as_bytes());
        for (i, tool) in tools.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(tool.get().as_bytes());
        }
        out.extend_from_slice(self.tail.as_bytes());
        out
    }
}

/// An object's members in source order with their values unparsed. Unlike a map it keeps
/// duplicate keys, so that a catalog the library would refuse for them is left to it.
struct Members<'i>(Vec<(String, &'i RawValue)>);

impl<'de: 'i, 'i> Deserialize<'de> for Members<'i> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Collects the members as they come.
        struct MembersVisitor<'i>(PhantomData<&'i ()>);

        impl<'de: 'i, 'i> Visitor<'de> for MembersVisitor<'i> {
            type Value = Members<'i>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'i>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'i RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }

        deserializer.deserialize_map(MembersVisitor(PhantomData))
    }
}

/// How a target writes a catalog around its tools.
#[derive(Clone, PartialEq, Eq)]
enum Frame {
    /// A JSON array of tools.
    Array,
    /// An object whose one member, under this key (as JSON text), is the array of tools.
    Object(String),
}

impl Frame {
    /// The text before the first tool, between two tools, after the last, and of an empty
    /// list, as the library's writer lays them out (two-space indent when pretty).
    fn parts(&self, pretty: bool) -> (String, &'static str, &'static str, String) {
        match (self, pretty) {
            (Frame::Array, false) => ("[".into(), ",", "]", "[]".into()),
            (Frame::Array, true) => ("[\n  ".into(), ",\n  ", "\n]", "[]".into()),
            (Frame::Object(key), false) => {
                (format!("{{{key}:["), ",", "]}", format!("{{{key}:[]}}"))
            }
            (Frame::Object(key), true) => (
                format!("{{\n  {key}: [\n    "),
                ",\n    ",
                "\n  ]\n}",
                format!("{{\n  {key}: []\n}}"),
            ),
        }
    }
}

/// One chunk's converted catalog, checked to be exactly its frame around its tools.
struct Framed {
    frame: Frame,
    output: Vec<u8>,
    /// Where the tools (with their separators) are in `output`; empty when none was written.
    tools: Range<usize>,
    /// The written tools' names, for the uniqueness check across chunks.
    names: Vec<String>,
    report: Vec<ReportEntry>,
    inverse: Inverse,
}

/// The part of an output tool that holds its name (`function.name` for OpenAI Chat).
#[derive(Deserialize)]
struct Named {
    name: Option<String>,
    function: Option<NamedFunction>,
}

/// OpenAI Chat's nested function object.
#[derive(Deserialize)]
struct NamedFunction {
    name: Option<String>,
}

impl Framed {
    /// Checks that `converted`'s output is a catalog laid out exactly as [`Frame::parts`]
    /// says, and finds its tools and their names; `None` when it is anything else.
    fn parse(converted: Converted, pretty: bool) -> Option<Framed> {
        let text = std::str::from_utf8(&converted.output).ok()?;
        let (frame, elements): (Frame, Vec<&RawValue>) = match text.as_bytes().first()? {
            b'[' => (Frame::Array, serde_json::from_str(text).ok()?),
            b'{' => {
                let Members(members) = serde_json::from_str(text).ok()?;
                let [(key, list)] = members.as_slice() else { return None };
                let key = serde_json::to_string(key).ok()?;
                (Frame::Object(key), serde_json::from_str(list.get()).ok()?)
            }
            _ => return None,
        };
        let (head, sep, tail, empty) = frame.parts(pretty);
        let mut names = Vec::with_capacity(elements.len());
        let tools = if elements.is_empty() {
            if text != empty {
                return None;
            }
            0..0
        } else {
            let mut at = head.len();
            if !text.starts_with(&head) {
                return None;
            }
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    if !text.get(at..)?.starts_with(sep) {
                        return None;
                    }
                    at += sep.len();
                }
                let end = at.checked_add(element.get().len())?;
                if text.get(at..end)? != element.get() {
                    return None;
                }
                at = end;
                let named: Named = serde_json::from_str(element.get()).ok()?;
                names.push(named.name.or(named.function.and_then(|f| f.name))?);
            }
            if text.get(at..)? != tail {
                return None;
            }
            head.len()..at
        };
        let Converted { output, report, inverse } = converted;
        Some(Framed { frame, output, tools, names, report, inverse })
    }
}

/// Joins the chunks' tools into one catalog in their common frame, with one report; `None`
/// when the chunks cannot stand for one whole conversion (see [`Batch::catalog`]).
fn stitch(chunks: Vec<Framed>, pretty: bool) -> Option<Converted> {
    let first = chunks.first()?;
    let frame = first.frame.clone();
    let shared = catalog_level(&first.report)?;
    let mut seen = HashSet::new();
    let mut report = shared.to_vec();
    let mut inverse = Inverse::default();
    for chunk in &chunks {
        if chunk.frame != frame || catalog_level(&chunk.report)? != shared {
            return None;
        }
        let tool_entries = chunk.report.get(shared.len()..)?;
        if tool_entries.iter().any(|e| e.code.as_str() == TOOL_RENAMED) {
            return None;
        }
        // Case-folded: whatever rule a renaming pass applies, names equal up to case are
        // the most it could treat as one.
        if !chunk.names.iter().all(|n| seen.insert(n.to_ascii_lowercase())) {
            return None;
        }
        report.extend_from_slice(tool_entries);
        // Per tool, in catalog order, as the whole conversion records it (no chunk renamed).
        inverse.extend(chunk.inverse.clone());
    }
    let (head, sep, tail, empty) = frame.parts(pretty);
    let len: usize = chunks.iter().map(|c| c.tools.len() + sep.len()).sum();
    let mut output = Vec::with_capacity(head.len() + len + tail.len());
    for chunk in chunks.iter().filter(|c| !c.tools.is_empty()) {
        output.extend_from_slice(if output.is_empty() { head.as_bytes() } else { sep.as_bytes() });
        output.extend_from_slice(chunk.output.get(chunk.tools.clone())?);
    }
    if output.is_empty() {
        output.extend_from_slice(empty.as_bytes());
    } else {
        output.extend_from_slice(tail.as_bytes());
    }
    Some(Converted { output, report, inverse })
}

/// The catalog-level entries (no tool) of a chunk's report. They must lead it, as they lead
/// a whole conversion's; one further on would have no known place in the merged report.
fn catalog_level(report: &[ReportEntry]) -> Option<&[ReportEntry]> {
    let lead = report.iter().take_while(|e| e.tool.is_empty()).count();
    let (lead, rest) = report.split_at_checked(lead)?;
    (!rest.iter().any(|e| e.tool.is_empty())).then_some(lead)
}

/// What a progress bar counts.
#[derive(Clone, Copy)]
enum Progress {
    /// Bytes of an input file of this size.
    Bytes(u64),
    /// Lines of a stream of unknown size.
    Lines,
    /// Files of a folder.
    Files(u64),
    /// Tools of a split catalog.
    Tools(u64),
}

/// A progress bar on stderr for `what`. indicatif's stderr target also hides itself when
/// stderr is not a terminal; callers only ask for one when it is.
fn new_bar(what: Progress) -> ProgressBar {
    let (len, template) = match what {
        Progress::Bytes(n) => {
            (Some(n), "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {elapsed} (eta {eta})")
        }
        Progress::Lines => (None, "{spinner} {human_pos} lines {per_sec} {elapsed}"),
        Progress::Files(n) => (Some(n), "{bar:30} {human_pos}/{human_len} files {elapsed}"),
        Progress::Tools(n) => (Some(n), "{bar:30} {human_pos}/{human_len} tools {elapsed}"),
    };
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
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
    show_bar: bool,
    bar: Option<ProgressBar>,
}

impl<'s> Emit<'s> {
    /// Writes reports to `sink`; `show_bar` as [`bar_wanted`] says.
    pub(crate) fn new(
        sink: &'s mut dyn Write,
        sink_is_stderr: bool,
        outcome: &'s mut Outcome,
        show_bar: bool,
    ) -> Self {
        Emit { sink, sink_is_stderr, outcome, inverse: Inverse::default(), show_bar, bar: None }
    }

    /// Starts the bar for a batch, if one is shown; the caller advances it.
    fn start(&mut self, what: Progress) -> Option<ProgressBar> {
        self.bar = self.show_bar.then(|| new_bar(what));
        self.bar.clone()
    }

    /// Clears the bar at the end of a batch.
    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// The inverse maps of every item written, in order: what `--map-out` writes for a
    /// batch, whose items never pass through the single-input path.
    pub(crate) fn into_inverse(self) -> Inverse {
        self.inverse
    }

    /// Writes `items` in order, the main output to `out`.
    ///
    /// # Errors
    /// Writing `out` or the report failed (the run cannot go on); an item's own output file
    /// that cannot be written is reported and counted as a failure instead.
    pub(crate) fn write(&mut self, items: Vec<Done>, out: &mut dyn Write) -> std::io::Result<()> {
        let to_stderr = items.iter().any(|d| match &d.result {
            Ok(item) => self.sink_is_stderr && !item.report.is_empty(),
            Err(_) => true,
        });
        match self.bar.clone() {
            // Only suspend when something goes to stderr: each suspension redraws the bar.
            Some(bar) if to_stderr => bar.suspend(|| self.write_items(items, out)),
            _ => self.write_items(items, out),
        }
    }

    fn write_items(&mut self, items: Vec<Done>, out: &mut dyn Write) -> std::io::Result<()> {
        for done in items {
            let item = match done.result {
                Ok(item) => item,
                Err(message) => {
                    self.error(&done.label, &message);
                    continue;
                }
            };
            match &done.dest {
                Some(path) => {
                    if let Err(e) = write_file(path, &item.output) {
                        self.error(&done.label, &format!("cannot write {}: {e}", path.display()));
                    }
                }
                None => {
                    out.write_all(&item.output)?;
                    out.write_all(b"\n")?;
                }
            }
            self.sink.write_all(&item.report)?;
            self.outcome.failed |= item.worst == Some(Severity::Error);
            self.outcome.lost |= item.worst >= Some(Severity::Warning);
            self.inverse.extend(item.inverse);
        }
        Ok(())
    }

    /// Reports an item that produced no output; the run will exit 1.
    fn error(&mut self, label: &Label, message: &str) {
        self.outcome.failed = true;
        match label {
            Label::None => eprintln!("error: {message}"),
            label => eprintln!("error: {label}: {message}"),
        }
    }
}

/// Writes one output file: the output and a final newline, as on stdout.
fn write_file(path: &Path, output: &[u8]) -> std::io::Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    file.write_all(output)?;
    file.write_all(b"\n")?;
    file.flush()
}

/// A window of NDJSON lines: their bytes back to back, and where each line is.
#[derive(Default)]
struct Window {
    bytes: Vec<u8>,
    lines: Vec<Line>,
}

/// One non-blank line of a window.
struct Line {
    /// Counted from 1, blank lines included, as editors count.
    number: usize,
    span: Span,
}

/// Where a line's text is.
enum Span {
    /// These bytes of the window (the newline included, as the line was read).
    Text(Range<usize>),
    /// The line was longer than the input limit: skipped, not buffered. Its length in bytes.
    TooLong(u64),
}

/// Reads NDJSON lines into windows, never holding more of a line than the input limit.
struct Lines<R> {
    reader: R,
    /// Longest line (newline included) converted; longer ones are skipped and reported.
    cap: usize,
    /// Lines read so far.
    number: usize,
    /// Bytes read so far.
    consumed: u64,
    eof: bool,
    /// A read error, held until the lines read before it are converted.
    error: Option<std::io::Error>,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R, cap: usize) -> Self {
        Lines { reader, cap, number: 0, consumed: 0, eof: false, error: None }
    }

    /// Refills `window` with the next lines: up to [`WINDOW_LINES`] lines, or until it holds
    /// [`WINDOW_BYTES`], or to the end of the input. A read error ends the input; the window
    /// keeps the lines before it, and the error is returned by the next call.
    fn fill(&mut self, window: &mut Window) -> std::io::Result<()> {
        window.bytes.clear();
        window.lines.clear();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        // Room for a whole window up front: growing by doubling would copy it.
        window.bytes.reserve(WINDOW_BYTES);
        while !self.eof && window.lines.len() < WINDOW_LINES && window.bytes.len() < WINDOW_BYTES {
            if let Err(e) = self.read_line(window) {
                let line = self.number + 1;
                self.error =
                    Some(std::io::Error::new(e.kind(), format!("reading line {line}: {e}")));
                self.eof = true;
            }
        }
        Ok(())
    }

    /// Reads one line onto the end of `window` (blank lines are counted, not kept). The
    /// newline search is std's (`read_until`, `skip_until`), which is word-at-a-time: on a
    /// fast stream this thread's scanning is what the workers wait for.
    fn read_line(&mut self, window: &mut Window) -> std::io::Result<()> {
        let start = window.bytes.len();
        let cap = self.cap as u64;
        let read = (&mut self.reader).take(cap).read_until(b'\n', &mut window.bytes)? as u64;
        if read == 0 {
            self.eof = true;
            return Ok(());
        }
        self.number += 1;
        self.consumed += read;
        let ended = window.bytes.last() == Some(&b'\n');
        let span = if !ended && read == cap && !self.reader.fill_buf()?.is_empty() {
            // The cap was reached inside the line: drop what was kept and skip the rest
            // unbuffered, however long it is.
            window.bytes.truncate(start);
            let rest = self.reader.skip_until(b'\n')? as u64;
            self.consumed += rest;
            Span::TooLong(read + rest)
        } else if window.bytes.get(start..).unwrap_or_default().iter().all(u8::is_ascii_whitespace)
        {
            window.bytes.truncate(start);
            return Ok(());
        } else {
            Span::Text(start..window.bytes.len())
        };
        window.lines.push(Line { number: self.number, span });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads every window of `input` with line cap `cap`: (number, text or length) per line.
    fn windows(input: &[u8], cap: usize) -> Vec<(usize, Result<String, u64>)> {
        let mut lines = Lines::new(BufReader::with_capacity(4, input), cap);
        let mut window = Window::default();
        let mut all = Vec::new();
        loop {
            lines.fill(&mut window).expect("in-memory read");
            if window.lines.is_empty() && lines.eof {
                break;
            }
            for line in &window.lines {
                all.push((
                    line.number,
                    match &line.span {
                        Span::Text(r) => Ok(String::from_utf8_lossy(
                            window.bytes.get(r.clone()).expect("span in window"),
                        )
                        .into_owned()),
                        Span::TooLong(n) => Err(*n),
                    },
                ));
            }
        }
        all
    }

    #[test]
    fn over_long_lines_are_skipped_whole_and_numbered() {
        let input = b"{\"a\":1}\n\n0123456789abcdef\n  \n{}\nxxxxxxxxxxxxxxxxxxxxxxxx";
        assert_eq!(
            windows(input, 10),
            [
                (1, Ok("{\"a\":1}\n".to_owned())),
                (3, Err(17)),
                (5, Ok("{}\n".to_owned())),
                (6, Err(24)),
            ]
        );
        // Exactly the cap, with or without its newline, is still converted.
        assert_eq!(windows(b"0123456789", 10), [(1, Ok("0123456789".to_owned()))]);
        assert_eq!(windows(b"012345678\n", 10), [(1, Ok("012345678\n".to_owned()))]);
        assert_eq!(windows(b"0123456789\n", 10), [(1, Err(11))]);
    }

    #[test]
    fn a_read_error_comes_after_the_lines_read_before_it() {
        /// Two lines, then a failing read.
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => (&b"{}\n{\"a\":1}\n"[..]).read(buf),
                    _ => Err(std::io::Error::other("disk on fire")),
                }
            }
        }
        let mut lines = Lines::new(BufReader::new(Failing(0)), usize::MAX);
        let mut window = Window::default();
        lines.fill(&mut window).expect("the lines before the error");
        assert_eq!(window.lines.len(), 2);
        let e = lines.fill(&mut window).expect_err("then the error");
        assert_eq!(e.to_string(), "reading line 3: disk on fire");
        assert!(window.lines.is_empty());
    }

    #[test]
    fn windows_close_at_the_line_count() {
        let input = "{}\n".repeat(WINDOW_LINES * 2 + 3);
        let mut lines = Lines::new(input.as_bytes(), usize::MAX);
        let mut window = Window::default();
        let mut sizes = Vec::new();
        loop {
            lines.fill(&mut window).expect("in-memory read");
            if window.lines.is_empty() && lines.eof {
                break;
            }
            sizes.push(window.lines.len());
        }
        assert_eq!(sizes, [WINDOW_LINES, WINDOW_LINES, 3]);
    }

    /// A catalog of `n` MCP tools with report entries for every other target; `{"tools":[…]}`
    /// with a catalog member the targets drop when `object`, a bare array otherwise.
    fn catalog(n: usize, object: bool) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name":"t{i}","title":"T","inputSchema":{{"type":"object","properties":{{"u":{{"type":"string","format":"uri","maxLength":{i}}}}}}}}}"#
                )
            })
            .collect();
        match object {
            true => format!(r#"{{"tools":[{}],"nextCursor":"c"}}"#, tools.join(",")),
            false => format!("[{}]", tools.join(",\n")),
        }
    }

    /// Every target, by name.
    fn targets() -> Vec<&'static dyn Adapter> {
        use tooladapter::formats::{Anthropic, Gemini, GeminiJson, Mcp, OpenAi, OpenAiResponses};
        vec![&Mcp, &OpenAi, &OpenAiResponses, &Anthropic, &Gemini, &GeminiJson]
    }

    #[test]
    fn a_split_catalog_is_what_the_whole_conversion_writes() {
        use tooladapter::formats::Mcp;
        for object in [false, true] {
            let input = catalog(1000, object);
            for to in targets() {
                if object && to.name() == "mcp" || to.name() == "anthropic" {
                    continue; // converted whole, tested below
                }
                for pretty in [false, true] {
                    let options = Options::default().pretty(pretty);
                    let batch =
                        Batch::new(&Mcp, to, &options, ReportMode::Json, Some(2)).expect("threads");
                    let split = batch
                        .catalog(input.as_bytes(), false)
                        .unwrap_or_else(|| panic!("{} split (object {object})", to.name()));
                    let split = split.result.expect("converted");
                    let mut converter = Converter::new();
                    let whole =
                        converter.convert(input.as_bytes(), &Mcp, to, &options).expect("whole");
                    assert_eq!(
                        String::from_utf8_lossy(&split.output),
                        whole.output_str(),
                        "{} pretty {pretty} object {object}",
                        to.name()
                    );
                    // As printed: the sort key each conversion keeps is not part of an entry.
                    let mut printed = Vec::new();
                    write_report(whole.report().entries(), "", ReportMode::Json, &mut printed)
                        .expect("print");
                    assert!(split.report == printed, "{} report", to.name());
                    assert_eq!(split.worst, whole.report().max_severity());
                    assert_eq!(&split.inverse, whole.inverse(), "{} inverse", to.name());
                    let catalog_level = String::from_utf8_lossy(&split.report)
                        .lines()
                        .filter(|l| l.starts_with(r#"{"tool":"","#))
                        .count();
                    assert_eq!(catalog_level, usize::from(object && to.name() != "mcp"));
                }
            }
        }
    }

    #[test]
    fn a_split_strict_catalog_has_the_whole_conversions_inverse_map() {
        use tooladapter::Strict;
        use tooladapter::formats::{Mcp, OpenAi};
        // Optional properties made required and nullable: every tool has an inverse entry.
        let input = catalog(1000, false);
        let options = Options::default().strict(Strict::On);
        let batch =
            Batch::new(&Mcp, &OpenAi, &options, ReportMode::Json, Some(2)).expect("threads");
        let split = batch.catalog(input.as_bytes(), false).expect("split").result.expect("ok");
        let mut converter = Converter::new();
        let whole = converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("whole");
        assert_eq!(whole.inverse().tools.len(), 1000);
        assert_eq!(&split.inverse, whole.inverse());
        assert_eq!(split.output, whole.output());
    }

    #[test]
    fn catalogs_that_cannot_be_split_are_left_whole() {
        use tooladapter::formats::{Anthropic, Mcp, OpenAi};
        let options = Options::default();
        let two = Batch::new(&Mcp, &OpenAi, &options, ReportMode::Json, Some(2)).expect("threads");
        let one = Batch::new(&Mcp, &OpenAi, &options, ReportMode::Json, Some(1)).expect("threads");
        let same = Batch::new(&Mcp, &Mcp, &options, ReportMode::Json, Some(2)).expect("threads");
        // Anthropic caps strict tools and cache breakpoints per request: running totals.
        let limited =
            Batch::new(&Mcp, &Anthropic, &options, ReportMode::Json, Some(2)).expect("threads");
        assert!(limited.catalog(catalog(1000, false).as_bytes(), false).is_none(), "limits");
        assert!(one.catalog(catalog(1000, false).as_bytes(), false).is_none(), "one thread");
        let few = catalog(20, false).replace(
            r#""title":"T""#,
            &format!(r#""title":"T","description":"{}""#, "x".repeat(4000)),
        );
        assert!(few.len() > SPLIT_MIN_BYTES);
        assert!(two.catalog(few.as_bytes(), false).is_none(), "few tools");
        assert!(two.catalog(catalog(300, false).as_bytes(), false).is_none(), "few bytes");
        assert!(same.catalog(catalog(1000, true).as_bytes(), false).is_none(), "same format");
        // Two tools named alike in different chunks: renaming spans the catalog.
        let duplicate = catalog(1000, false).replace(r#""name":"t990""#, r#""name":"T1""#);
        assert!(two.catalog(duplicate.as_bytes(), false).is_none(), "duplicate name");
        // A failing chunk: the whole conversion's error names the tool's place in the catalog.
        let bad = catalog(1000, false).replace(r#""name":"t990""#, r#""name":990"#);
        assert!(two.catalog(bad.as_bytes(), false).is_none(), "bad tool");
        let dup_key = catalog(1000, true).replace(r#""nextCursor""#, r#""tools""#);
        assert!(two.catalog(dup_key.as_bytes(), false).is_none(), "duplicate key");
        assert!(two.catalog(b"{\"tools\":[]} x", false).is_none(), "not JSON");
    }

    #[test]
    fn jobs_must_be_positive() {
        assert!(parse_jobs("0").is_err());
        assert!(parse_jobs("x").is_err());
        assert_eq!(parse_jobs("3"), Ok(3));
    }
}
