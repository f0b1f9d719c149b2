//! `tooladapter convert`: one input (a file, stdin, an NDJSON stream or a folder) converted,
//! its outputs, report and inverse map written where the flags say. Each step is a function:
//! the source format (with `--operations`), the options, the run itself, its summary, the map.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tooladapter::formats::OpenApi;
use tooladapter::{Adapter, Inverse, Options, Strict};

use crate::report::{Printing, ReportMode};
use crate::{ConvertArgs, Outcome, batch, io_error, output, run};

/// Runs `convert`.
pub(crate) fn run(args: &ConvertArgs) -> ExitCode {
    let input = run::named_input(args.input.as_deref());
    if let Err(code) = run::begin(args.report, input, args.profile, args.strict) {
        return code;
    }
    let to = match crate::model::target(args.to, args.model_family, args.strict) {
        Ok(to) => to,
        Err(code) => return code,
    };
    let filtered = match operations(args) {
        Ok(filtered) => filtered,
        Err(code) => return code,
    };
    let from: &dyn Adapter = match &filtered {
        Some(api) => api,
        None => &args.from,
    };
    let options = match options(args, to) {
        Ok(options) => options,
        Err(code) => return code,
    };
    if let Err(code) = run::input_usable(input) {
        return code;
    }
    // A folder's files are listed once: the files the write-safety rule checks are the files
    // converted.
    let files = match input.filter(|p| p.is_dir()) {
        Some(dir) => match batch::json_files(dir, args.allow_empty) {
            Ok(files) => Some(files),
            Err(e) => return io_error(e),
        },
        None => None,
    };
    let writes = output::Writes {
        output: args.output.as_deref(),
        report_file: args.report_file.as_deref(),
        map_out: args.map_out.as_deref(),
        force: args.force,
    };
    let planned = match output::plan(input, files.as_deref(), &writes) {
        Ok(planned) => planned,
        Err(message) => {
            error!("usage"; "{message}");
            return ExitCode::from(2);
        }
    };
    let mut report_file = match &planned.report_file {
        Some(dest) => match output::OutFile::create(dest) {
            Ok(f) => Some(f),
            Err(e) => return io_error(e),
        },
        None => None,
    };
    let mut stderr = std::io::stderr();
    let report_sink: &mut dyn Write = match report_file.as_mut() {
        Some(f) => f,
        None => &mut stderr,
    };
    let mut outcome = Outcome::default();
    let printing = Printing {
        mode: args.report,
        level: args.report_level,
        pointers: args.report_pointers,
        also: None,
    };
    let batch = match batch::Batch::new(from, to, &options, printing, args.jobs) {
        Ok(batch) => batch.keep_inverse(args.map_out.is_some()).input(input),
        Err(e) => return io_error(e),
    };
    let show_bar = batch::bar_wanted(args.output.as_deref());
    let to_stderr = args.report_file.is_none();
    let mut inverse = Ok(Inverse::default());
    // Whether a single input gave output: when it did not, no file is replaced.
    let mut produced = true;
    let single = !(args.ndjson || files.is_some());
    let io_result = if single {
        let mut out = match output::Output::open(planned.output.as_ref()) {
            Ok(out) => out,
            Err(e) => return io_error(e),
        };
        let limit = options.limits.max_input_bytes;
        let result = match run::read_one(input, limit).map_err(std::io::Error::from) {
            Ok(bytes) => {
                // A catalog of many tools is split across the threads when that gives the
                // same bytes as converting it whole; otherwise it is converted whole.
                let mut done =
                    batch.catalog(&bytes, show_bar).unwrap_or_else(|| batch.single(&bytes));
                let mut emit = batch::Emit::new(&mut *report_sink, to_stderr, &mut outcome, false);
                let result = emit.write(&mut done, &mut out);
                inverse = emit.into_inverse();
                result
            }
            Err(e) => Err(e),
        };
        produced = outcome.tally.failed == 0;
        // A single input that gave no output, or one whose loss `--deny-loss` denies,
        // replaces no file.
        result.and_then(|()| if produced && !outcome.lost { out.finish() } else { Ok(()) })
    } else {
        let mut emit = batch::Emit::new(&mut *report_sink, to_stderr, &mut outcome, show_bar);
        let result = match &files {
            Some(files) => batch.dir(files, planned.folder.as_deref(), &mut emit),
            None => batch.ndjson(input, planned.output.as_ref(), &mut emit),
        };
        inverse = emit.into_inverse();
        result
    };
    let summary = summary(args.report, &outcome, single);
    let summarized =
        io_result.and_then(|()| summary.map_or(Ok(()), |line| writeln!(report_sink, "{line}")));
    let flushed = summarized.and_then(|()| report_sink.flush());
    let finished = flushed.and_then(|()| match report_file {
        Some(file) if produced => file.commit(),
        _ => Ok(()),
    });
    if let Err(e) = finished {
        return outcome.ended_by(&e);
    }
    // A map is written only for a run whose output was: not after a denied loss.
    let map_out = args.map_out.as_deref().zip(planned.map_out.as_ref());
    if let Some((path, dest)) = map_out.filter(|_| produced && !outcome.lost)
        && let Err(code) = write_map(path, dest, inverse, from, to)
    {
        return code;
    }
    outcome.code()
}

/// The source when `--operations` selects some of an OpenAPI document's operations: the
/// importer keeping those; `None` without the flag. The flag with a source that imports no
/// documents is a usage error.
fn operations(args: &ConvertArgs) -> Result<Option<OpenApi>, ExitCode> {
    if args.operations.is_empty() {
        return Ok(None);
    }
    if !args.from.info().imports {
        error!("usage"; "--operations selects OpenAPI operations; it needs --from openapi");
        return Err(ExitCode::from(2));
    }
    Ok(Some(args.operations.iter().fold(OpenApi::new(), |api, g| api.operations(g))))
}

/// The conversion's options from the flags; `--strict` to a target without a strict mode is
/// a usage error.
fn options(args: &ConvertArgs, to: &dyn Adapter) -> Result<Options, ExitCode> {
    let strict = args.strict.or(args.no_strict.then_some(Strict::Off));
    let mut options = run::options(args.profile, strict)
        .pretty(args.pretty)
        .unroll_recursion(args.unroll_recursion)
        .dated_limits(args.dated_limits);
    options.policy = args.policy.clone();
    options.deny_loss = args.deny_loss;
    // Only `--map-out` writes the inverse map.
    options.record_inverse = args.map_out.is_some();
    // A report printed nowhere reads no pointers: its entries are not placed in the document.
    options.document_pointers = args.report != ReportMode::None;
    let refused = args.profile.strict_refused(Some(to.info()));
    if args.strict.is_some() && refused == Some(tooladapter::StrictRefused::Target) {
        error!("usage"; "{} has no strict mode ({} do)", to.name(), crate::strict_formats());
        return Err(ExitCode::from(2));
    }
    if let Some(n) = args.max_ref_expansion {
        options = options.max_ref_expansion(n);
    }
    if let Some(n) = args.max_output_ratio {
        options = options.max_output_ratio(n);
    }
    if let Some(n) = args.max_output_bytes {
        options = options.max_output_bytes(n);
    }
    if let Some(n) = args.max_import_ratio {
        options = options.max_import_ratio(n);
    }
    Ok(options)
}

/// The summary line, when there is something to sum up: entries, tools left out, or (in a
/// batch) inputs that failed; a single input's failure is its error message alone.
fn summary(mode: ReportMode, outcome: &Outcome, single: bool) -> Option<String> {
    match mode {
        ReportMode::Text => {
            let t = &outcome.tally;
            let failed = t.failed > 0 && !single;
            let said = failed || t.left_out > 0 || t.entries.iter().any(|n| *n > 0);
            said.then(|| outcome.tally.line())
        }
        _ => None,
    }
}

/// Writes the inverse map to `dest` (`--map-out path`); names two inputs map back differently
/// are an error, and nothing is written.
fn write_map(
    path: &Path,
    dest: &output::Dest,
    inverse: Result<Inverse, impl std::fmt::Display>,
    from: &dyn Adapter,
    to: &dyn Adapter,
) -> Result<(), ExitCode> {
    let mut inverse = match inverse {
        Ok(inverse) => inverse,
        Err(clash) => {
            error!("map"; "--map-out {}: not written: {clash}", path.display());
            return Err(ExitCode::from(1));
        }
    };
    if inverse.from.is_empty() {
        inverse.from = from.name().to_owned();
        inverse.to = to.name().to_owned();
    }
    let written = serde_json::to_vec_pretty(&inverse)
        .map_err(std::io::Error::other)
        .and_then(|bytes| output::write_file(dest, &[&bytes]));
    written.map_err(io_error)
}
