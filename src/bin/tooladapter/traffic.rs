//! `tooladapter traffic`: one tool-traffic payload (a calls turn, a results turn, a
//! conversation or a whole response) from one provider's format into another's, through the
//! map `convert --map-out` wrote when one is given. The input, the output and the report go
//! through the same code as `convert`'s, and the exit codes are its: 0 converted, 1 an
//! unreadable input, map or payload, 2 a usage error, 3 a loss `--deny-loss` denies (nothing is
//! written then).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tooladapter::traffic::TrafficKind;
use tooladapter::{Converter, DenyLoss, Format, Inverse, Options, Severity, TrafficOptions};

use crate::input::{check_named, default_limit, read_path, read_stdin};
use crate::output::{Output, Writes, plan};
use crate::report::{self, Failure, Origin, Pointers, Printing, ReportMode, write_entries};
use crate::{io_error, names};

/// Arguments of `traffic`.
#[derive(clap::Args)]
pub struct TrafficArgs {
    /// Source format (any case): one that speaks tool traffic.
    #[arg(long, value_name = "FORMAT", value_parser = names::traffic())]
    pub(crate) from: Format,
    /// Target format (any case): one that speaks tool traffic.
    #[arg(long, value_name = "FORMAT", value_parser = names::traffic())]
    pub(crate) to: Format,
    /// What the input is: an assistant turn with tool `calls`, a turn of tool `results`, a
    /// conversation (`messages`: a request body or a list of messages), a model `response`, or
    /// a streamed answer (`stream`: read as it comes, each target event written as soon as the
    /// source allows). Told from the input's shape when absent (never `stream`).
    #[arg(long, value_name = "KIND", value_parser = names::traffic_kind())]
    pub(crate) kind: Option<Kind>,
    /// The map `convert --map-out` wrote for the tool definitions: calls from its target go
    /// back to the source's names and arguments, calls written to its target get the target's.
    #[arg(long, value_name = "MAP")]
    pub(crate) map: Option<PathBuf>,
    /// The id map an earlier conversion wrote with `--ids-out` (the other way): ids it
    /// rewrote or made are given back as they were, and results are named from its calls.
    #[arg(long, value_name = "FILE")]
    pub(crate) ids: Option<PathBuf>,
    /// Writes the ids this conversion wrote (each with the id it replaced and its tool) to
    /// FILE, as JSON, for `--ids` of the conversion that carries the results back.
    #[arg(long, value_name = "FILE")]
    pub(crate) ids_out: Option<PathBuf>,
    /// With `--kind stream`: `sse` writes the target's wire text (`event:` lines where the
    /// target sends them), `json` one event object a line.
    #[arg(long, value_enum, default_value_t = Events::Sse)]
    pub(crate) events: Events,
    /// How to print the report on stderr: `text` (one line an entry, then a summary line),
    /// `json` (one JSON object an entry, with its `source`) or `none`.
    #[arg(long, value_enum, default_value_t = ReportMode::Text)]
    pub(crate) report: ReportMode,
    /// Exit with 3, writing nothing, on a loss: the rules `convert --deny-loss` takes (`any`,
    /// the default: anything the output does not carry).
    #[arg(
        long,
        value_name = "RULE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "any",
        value_parser = names::deny_loss()
    )]
    pub(crate) deny_loss: Option<DenyLoss>,
    /// Output file; stdout when absent.
    #[arg(short = 'o', long)]
    pub(crate) output: Option<PathBuf>,
    /// Input file, or `-` for stdin (the default).
    pub(crate) input: Option<PathBuf>,
}

/// `--kind`: a payload, or a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One payload of the library's kinds.
    Payload(TrafficKind),
    /// A streamed answer (`crate::stream`).
    Stream,
}

impl std::str::FromStr for Kind {
    type Err = tooladapter::UnknownName;

    /// A payload kind as the library spells it, or `stream` (any ASCII case).
    fn from_str(name: &str) -> Result<Kind, Self::Err> {
        match name.eq_ignore_ascii_case("stream") {
            true => Ok(Kind::Stream),
            false => name.parse().map(Kind::Payload),
        }
    }
}

/// `--events`: how a transcoded stream is written.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Events {
    /// The target's wire text.
    Sse,
    /// One event object a line.
    Json,
}

/// Reads the map at `path`, refusing one that maps a name back two ways.
pub(crate) fn read_map(path: &Path, limit: usize) -> Result<Inverse, ExitCode> {
    let bytes = read_path(path, limit, true).map_err(|e| {
        error!("map"; "cannot read the map: {e}");
        ExitCode::from(e.code())
    })?;
    let map: Inverse = serde_json::from_slice(&bytes).map_err(|e| {
        error!("map"; "cannot read the map {}: {e}", path.display());
        ExitCode::from(1)
    })?;
    if let Some(clash) = crate::maps::clash_in(&map) {
        error!("map"; "the map {} is ambiguous: {clash}", path.display());
        return Err(ExitCode::from(1));
    }
    Ok(map)
}

/// Reads the id map at `path` (what `--ids-out` wrote).
fn read_ids(path: &Path, limit: usize) -> Result<tooladapter::traffic::Ids, ExitCode> {
    let bytes = read_path(path, limit, true).map_err(|e| {
        error!("ids"; "cannot read the id map: {e}");
        ExitCode::from(e.code())
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        error!("ids"; "cannot read the id map {}: {e}", path.display());
        ExitCode::from(1)
    })
}

/// `summary: calls; 0 errors, 1 warning, 2 info`: the kind converted and the entries.
fn summary(kind: Option<TrafficKind>, report: &tooladapter::Report) -> String {
    summary_of(kind.map_or("payload", TrafficKind::as_str), report)
}

/// The summary line of a `what` converted with `report`.
pub(crate) fn summary_of(what: &str, report: &tooladapter::Report) -> String {
    let count = |s: Severity| report.refs().filter(|e| e.severity() == s).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "summary: {what} converted; {}, {}, {} info",
        plural(count(Severity::Error), "error", "errors"),
        plural(count(Severity::Warning), "warning", "warnings"),
        count(Severity::Info)
    )
}

/// Converts the input and writes it, then its report.
pub fn run(args: &TrafficArgs) -> ExitCode {
    let input = args.input.as_deref().filter(|p| p.as_os_str() != "-");
    report::say_errors_as(args.report, input);
    let kind = match args.kind {
        Some(Kind::Stream) => return crate::stream::run(args, input),
        Some(Kind::Payload(kind)) => Some(kind),
        None => None,
    };
    if let Some(path) = input
        && let Err(e) = check_named(path, false)
    {
        report::say(&Failure::of_input(&e, e.to_string()), None);
        return ExitCode::from(e.code());
    }
    // The id map is a side file of its own, checked by the same rule as `convert`'s map.
    let writes = Writes {
        output: args.output.as_deref(),
        report_file: None,
        map_out: args.ids_out.as_deref(),
        force: false,
    };
    let planned = match plan(input, None, &writes) {
        Ok(planned) => planned,
        Err(message) => {
            error!("usage"; "{message}");
            return ExitCode::from(2);
        }
    };
    let limit = default_limit();
    let map = match args.map.as_deref().map(|p| read_map(p, limit)).transpose() {
        Ok(map) => map,
        Err(code) => return code,
    };
    let ids = match args.ids.as_deref().map(|p| read_ids(p, limit)).transpose() {
        Ok(ids) => ids,
        Err(code) => return code,
    };
    let read = match input {
        Some(path) => read_path(path, limit, true),
        None => read_stdin(limit),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(e) => {
            report::say(&Failure::of_input(&e, e.to_string()), None);
            return ExitCode::from(e.code());
        }
    };
    let mut options = Options::default();
    options.deny_loss = args.deny_loss;
    let options = TrafficOptions {
        kind,
        map: map.as_ref(),
        ids: ids.as_ref(),
        options,
        ..TrafficOptions::default()
    };
    let mut converter = Converter::new();
    let converted = match converter.convert_traffic(&bytes, &args.from, &args.to, &options) {
        Ok(c) => c,
        Err(e) => {
            let hint = if e.suggests_other_format() { " (check --from)" } else { "" };
            report::say(&Failure::of(&e, hint), None);
            return ExitCode::from(1);
        }
    };
    let denied = converted.loss_denied();
    // What `--deny-loss` denies reaches no file and no pipe.
    if !denied {
        let written = Output::open(planned.output.as_ref()).and_then(|mut out| {
            out.write_all(converted.output())?;
            out.write_all(b"\n")?;
            out.finish()
        });
        if let Err(e) = written {
            return io_error(e);
        }
        if let Some(dest) = planned.map_out.as_ref() {
            let written = serde_json::to_vec_pretty(converted.ids())
                .map_err(std::io::Error::other)
                .and_then(|bytes| crate::output::write_file(dest, &[&bytes, b"\n"]));
            if let Err(e) = written {
                return io_error(e);
            }
        }
    }
    let report = converted.report();
    let source = input.map_or_else(|| "-".to_owned(), |p| p.display().to_string());
    let limit = Options::default().limits.output_limit(bytes.len());
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
                writeln!(stderr, "{}", summary(converted.kind(), report))
            }
            _ => Ok(()),
        }
    });
    if let Err(e) = reported {
        return io_error(e);
    }
    // As `convert`: an error entry (a request's tool definition left out) fails the run.
    if report.max_severity() == Some(Severity::Error) {
        return ExitCode::from(1);
    }
    // As `convert`: the report said what was lost; nothing was written.
    if denied {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}
