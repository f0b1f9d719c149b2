//! `tooladapter check`: what a provider would reject in a catalog, per tool, without
//! converting. A pre-flight for gateways: one bad tool fails a whole request.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use tooladapter::{Converter, Options, Registry, Severity};

use crate::{Outcome, ProfileArg, ReportMode, StrictArg, strict_usable, write_report};

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The provider format to check against.
    #[arg(long)]
    to: String,
    /// The input's format, when it is not already in the `--to` format: it is converted first
    /// and the output is checked.
    #[arg(long)]
    from: Option<String>,
    /// With `--from`: convert with strict mode (`--strict` or `--strict=require`).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "on")]
    strict: Option<StrictArg>,
    /// Which rules the conversion (with `--from`) and the check hold the target to: `default`
    /// or `toolfoundation` (the Go toolfoundation library's support matrix; no strict mode).
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    profile: ProfileArg,
    /// How to print the findings on stdout.
    #[arg(long, value_enum, default_value_t = ReportMode::Text)]
    report: ReportMode,
    /// Input file, or `-` for stdin (the default).
    input: Option<PathBuf>,
}

/// Runs `check`: exit 0 when the provider would accept everything, 1 when anything would be
/// rejected (or the input is invalid), 2 on usage errors.
pub fn run(args: &CheckArgs) -> ExitCode {
    let registry = Registry::default();
    let from_name = args.from.as_deref().unwrap_or(&args.to);
    let (Some(from), Some(to)) = (registry.get(from_name), registry.get(&args.to)) else {
        let bad = if registry.get(from_name).is_none() { from_name } else { &args.to };
        error!("unknown format {bad:?}; known formats: {}", registry.list().join(", "));
        return ExitCode::from(2);
    };
    if let Err(code) = strict_usable(args.profile, args.strict) {
        return code;
    }
    let input = args.input.as_deref().filter(|p| p.as_os_str() != "-");
    let limit = crate::input::default_limit();
    let read = match input {
        Some(path) => crate::input::read_path(path, limit, true),
        None => crate::input::read_stdin(limit),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(e) => {
            error!("{e}");
            return ExitCode::from(e.code());
        }
    };
    let mut options = Options::default().profile_set(args.profile.into());
    if let Some(s) = args.strict {
        options = options.strict(s.into());
    }
    let mut converter = Converter::new();
    let report = match converter.check(&bytes, &*from, &*to, &options) {
        Ok(report) => report,
        Err(e) => {
            let hint = crate::ndjson_hint(&bytes, &e, "check reads one document or catalog");
            error!("{e}{hint}");
            return ExitCode::from(1);
        }
    };
    let findings: Vec<_> =
        report.entries().iter().filter(|e| e.severity == Severity::Error).cloned().collect();
    let mut stdout = std::io::stdout().lock();
    if let Err(e) =
        write_report(&findings, "", args.report, &mut stdout).and_then(|()| stdout.flush())
    {
        let found = Outcome { failed: !findings.is_empty(), lost: false };
        return found.ended_by(&e);
    }
    if findings.is_empty() {
        if args.report == ReportMode::Text {
            drop(stdout);
            return crate::write_stdout(
                format!("ok: {} would accept every tool\n", to.name()).as_bytes(),
            );
        }
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
