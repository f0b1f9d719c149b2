//! `tooladapter check`: what a provider would reject in a catalog, per tool, without
//! converting. A pre-flight for gateways: one bad tool fails a whole request.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use tooladapter::{Code, Format, ModelFamily, ProfileSet, Severity, Strict};

use crate::batch::{Batch, Emit, Work};
use crate::report::{Pointers, Printing, ReportMode};
use crate::{Outcome, run};

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The provider format to check against (any case).
    #[arg(long, value_name = "FORMAT", value_parser = crate::names::target())]
    to: Format,
    /// The input's format, when it is not already in the `--to` format: it is converted first
    /// and the output is checked.
    #[arg(long, value_name = "FORMAT", value_parser = crate::names::source())]
    from: Option<Format>,
    /// With `--from`: convert with strict mode (`--strict` or `--strict=require`).
    #[arg(
        long,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        value_parser = crate::names::strict()
    )]
    strict: Option<Strict>,
    /// Which rules the conversion (with `--from`) and the check hold the target to: `default`
    /// or `toolfoundation` (the Go toolfoundation library's support matrix; no strict mode).
    #[arg(long, value_parser = crate::names::profile(), default_value_t = ProfileSet::Default)]
    profile: ProfileSet,
    /// With `--to bedrock`: the model family behind the request (as `convert --model-family`),
    /// whose facts the tools are checked against.
    #[arg(long, value_name = "FAMILY", value_parser = crate::names::model_family())]
    model_family: Option<ModelFamily>,
    /// How to print the findings on stdout.
    #[arg(long, value_enum, default_value_t = ReportMode::Text)]
    report: ReportMode,
    /// Which pointer each finding shows: `document` (the place in the input document) or
    /// `tool` (the place in the tool), as `convert --report-pointers`.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = Pointers::Document)]
    report_pointers: Pointers,
    /// Input is newline-delimited JSON: one tool or catalog per line, each checked alone.
    #[arg(long)]
    ndjson: bool,
    /// Threads for an NDJSON stream or a folder (as `convert --jobs`).
    #[arg(long, value_name = "N", value_parser = crate::batch::parse_jobs)]
    jobs: Option<usize>,
    /// A folder with no `.json` file to check is not an error (it is without this flag).
    #[arg(long)]
    allow_empty: bool,
    /// Input file, folder of `.json` files, or `-` for stdin (the default).
    input: Option<PathBuf>,
}

/// Runs `check`: exit 0 when the provider would accept everything, 1 when anything would be
/// rejected (or an input is invalid), 2 on usage errors. A stream or a folder is checked as
/// `convert` converts one (the same batch code), each line or file on its own.
pub fn run(args: &CheckArgs) -> ExitCode {
    let (from, to) = (args.from.unwrap_or(args.to), args.to);
    let input = run::named_input(args.input.as_deref());
    let started = run::begin(args.report, input, args.profile, args.strict);
    if let Err(code) = started.and_then(|()| run::input_usable(input)) {
        return code;
    }
    let to = match crate::model::target(to, args.model_family, args.strict) {
        Ok(to) => to,
        Err(code) => return code,
    };
    let options = run::options(args.profile, args.strict).record_inverse(false);
    // Only what the provider would reject is a finding; a dated limit is told as a warning.
    let printing = Printing {
        mode: args.report,
        level: Severity::Error,
        pointers: args.report_pointers,
        also: Some(Code::DatedLimit),
    };
    let batch = match Batch::new(&from, to, &options, printing, args.jobs) {
        Ok(batch) => batch.work(Work::Check).keep_inverse(false).input(input),
        Err(e) => return crate::io_error(e),
    };
    let mut outcome = Outcome::default();
    let mut stdout = std::io::stdout();
    let result = {
        let mut emit = Emit::new(&mut stdout, false, &mut outcome, false);
        match input {
            Some(dir) if dir.is_dir() => crate::batch::json_files(dir, args.allow_empty)
                .and_then(|files| batch.dir(&files, None, &mut emit)),
            _ if args.ndjson => batch.ndjson(input, None, &mut emit),
            _ => match run::read_one(input, options.limits.max_input_bytes) {
                Ok(bytes) => emit.write(&mut batch.single(&bytes), &mut std::io::sink()),
                Err(e) => {
                    crate::report::say(&crate::report::Failure::of_input(&e, e.to_string()), None);
                    return ExitCode::from(e.code());
                }
            },
        }
    };
    if let Err(e) = result.and_then(|()| stdout.flush()) {
        return outcome.ended_by(&e);
    }
    let [.., errors] = outcome.tally.entries;
    if errors == 0 && !outcome.failed && args.report == ReportMode::Text {
        return crate::write_stdout(
            format!("ok: {} would accept every tool\n", to.name()).as_bytes(),
        );
    }
    outcome.code()
}
