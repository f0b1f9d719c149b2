//! `tooladapter traffic --kind stream`: a model's streamed answer read from a file or stdin as
//! it comes and written in the target's stream, each target event as soon as the source allows
//! (flushed after every read, so a pipe sees events as they are made). It shares `traffic`'s
//! arguments, input checks, write-safety plan, report printing and exit codes; what differs is
//! that the output cannot wait for the end: under `--deny-loss` a denied loss exits 3 and an
//! `-o` file is not written, but what stdout was already sent stays sent.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

use tooladapter::stream::{Output as Events, StreamError, StreamTranscoder};
use tooladapter::{Options, Severity, TrafficOptions};

use crate::input::{check_named, default_limit};
use crate::output::{Output, Writes, plan};
use crate::report::{self, Failure, Origin, Pointers, Printing, ReportMode, write_entries};
use crate::traffic::{self as traffic_cli, TrafficArgs};
use crate::{io_error, names};

/// Runs `traffic --kind stream` on `input` (stdin when `None`).
pub(crate) fn run(args: &TrafficArgs, input: Option<&Path>) -> ExitCode {
    for format in [args.from, args.to] {
        if format.adapter().stream().is_none() {
            error!("usage"; "the {} format has no streams (stream formats: {})", format.name(), names::stream_formats());
            return ExitCode::from(2);
        }
    }
    if args.ids.is_some() || args.ids_out.is_some() {
        error!("usage"; "--ids and --ids-out take a payload's id map; a stream's ids are kept, rewritten or made as it goes");
        return ExitCode::from(2);
    }
    if let Some(path) = input
        && let Err(e) = check_named(path, false)
    {
        report::say(&Failure::of_input(&e, e.to_string()), None);
        return ExitCode::from(e.code());
    }
    let writes =
        Writes { output: args.output.as_deref(), report_file: None, map_out: None, force: false };
    let planned = match plan(input, None, &writes) {
        Ok(planned) => planned,
        Err(message) => {
            error!("usage"; "{message}");
            return ExitCode::from(2);
        }
    };
    let map = match args.map.as_deref().map(|p| traffic_cli::read_map(p, default_limit())) {
        Some(Ok(map)) => Some(map),
        Some(Err(code)) => return code,
        None => None,
    };
    let mut options = Options::default();
    options.deny_loss = args.deny_loss;
    let options = TrafficOptions { map: map.as_ref(), options, ..TrafficOptions::default() };
    let events = match args.events {
        traffic_cli::Events::Sse => Events::Sse,
        traffic_cli::Events::Json => Events::Json,
    };
    let mut transcoder =
        match StreamTranscoder::new(args.from.adapter(), args.to.adapter(), &options) {
            Ok(t) => t.with_output(events),
            Err(e) => {
                error!("usage"; "{e}");
                return ExitCode::from(2);
            }
        };
    let mut source: Box<dyn Read> = match input {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                error!("input"; "cannot read {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        None => Box::new(std::io::stdin().lock()),
    };
    let mut out = match Output::open(planned.output.as_ref()) {
        Ok(out) => out,
        Err(e) => return io_error(e),
    };
    let (read, failed) = pump(&mut *source, &mut transcoder, &mut out);
    if let Some(failure) = failed {
        report::say(&failure, None);
        // The output file, if any, is dropped unwritten: its temporary is removed.
        return ExitCode::from(1);
    }
    let report = transcoder.report();
    let denied = args.deny_loss.is_some_and(|rule| report.denied(rule));
    if !denied && let Err(e) = out.finish() {
        return io_error(e);
    }
    let source = input.map_or_else(|| "-".to_owned(), |p| p.display().to_string());
    let limit = Options::default().limits.output_limit(read);
    let origin = Origin { label: "", source: &source, line: None, limit };
    let printing = Printing {
        mode: args.report,
        level: Severity::Info,
        pointers: Pointers::Document,
        also: None,
    };
    let mut stderr = std::io::stderr().lock();
    let reported = write_entries(report.refs(), &origin, printing, &mut stderr).and_then(|()| {
        match args.report {
            ReportMode::Text if !report.is_empty() => {
                writeln!(stderr, "{}", traffic_cli::summary_of("stream", report))
            }
            _ => Ok(()),
        }
    });
    if let Err(e) = reported {
        return io_error(e);
    }
    // As `convert`: an error entry (a call the stream cut off) fails the run.
    if report.max_severity() == Some(Severity::Error) {
        return ExitCode::from(1);
    }
    if denied {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// Feeds `source` to `transcoder` until it ends, flushing `out` after each read; then finishes
/// the stream. The bytes read, and the failure that stopped it, if any.
fn pump(
    source: &mut dyn Read,
    transcoder: &mut StreamTranscoder<'_>,
    out: &mut Output,
) -> (usize, Option<Failure>) {
    let mut buf = vec![0u8; 64 << 10];
    let mut read = 0usize;
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return (read, Some(Failure::new("input", format!("reading the stream: {e}"))));
            }
        };
        read = read.saturating_add(n);
        let piece = buf.get(..n).unwrap_or_default();
        if let Err(e) = transcoder.push(piece, out) {
            return (read, Some(failure_of(e)));
        }
        if let Err(e) = out.flush() {
            return (read, Some(Failure::new("io", format!("cannot write: {e}"))));
        }
    }
    match transcoder.finish(out) {
        Ok(_) => (read, None),
        Err(e) => (read, Some(failure_of(e))),
    }
}

/// What the command line says of a stream's error: its kind as the library names it.
fn failure_of(e: StreamError) -> Failure {
    let message = e.to_string();
    match e {
        StreamError::Io(_) => Failure::new("io", format!("cannot write: {message}")),
        StreamError::Event { kind, .. } => Failure::new(kind.name(), message),
        StreamError::Setup(e) => Failure::new(e.kind().name(), message),
        StreamError::Limit { .. } => Failure::new("limit", message),
        _ => Failure::new("stream", message),
    }
}
