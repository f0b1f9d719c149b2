//! The `tooladapter` command line: the only place in the crate that does I/O.
//!
//! Exit codes: 0 ok, 1 invalid input or conversion error (or a tool left out), 2 usage,
//! 3 a loss `--deny-loss[=any|widens|narrows]` denies.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// Writes one `error: …` line to stderr. A failed write is ignored: stderr is where errors are
/// said, so there is nowhere left to say that it failed, and the exit code still tells.
macro_rules! error {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), "error: {}", format_args!($($arg)*));
    }};
}

mod batch;
mod check;
mod exact;
mod input;
mod output;
mod unmap;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use tooladapter::formats::OpenApi;
use tooladapter::ir::Keyword;
use tooladapter::{
    Action, Converter, DenyLoss, Inverse, Options, ProfileSet, Registry, ReportEntry,
    SchemaFeature, Severity, Strict,
};

/// Parses the rule of `--deny-loss=RULE`.
fn parse_deny_loss(s: &str) -> Result<DenyLoss, String> {
    DenyLoss::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = DenyLoss::ALL.iter().map(|d| d.as_str()).collect();
        format!("unknown rule `{s}` (expected {})", names.join(", "))
    })
}

/// Parses `KEYWORD=ACTION` for `--policy`.
fn parse_policy(s: &str) -> Result<(Keyword, Action), String> {
    let (name, action) = s.split_once('=').ok_or("expected KEYWORD=ACTION")?;
    let keyword = match name {
        "unknown-keyword" => Keyword::Unknown,
        _ => match Keyword::from_key(name) {
            Keyword::Unknown => return Err(format!("`{name}` is not a keyword this crate models")),
            k => k,
        },
    };
    let action = Action::from_name(action).ok_or_else(|| {
        format!("unknown action `{action}` (expected keep, rewrite, describe, drop or reject)")
    })?;
    Ok((keyword, action))
}

#[derive(Parser)]
#[command(name = "tooladapter", version, about = "Convert LLM tool definitions between formats")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once per process; boxing the arguments buys nothing"
)]
enum Command {
    /// Convert a tool, a catalog, an NDJSON stream or a folder of .json files.
    Convert(ConvertArgs),
    /// List the formats and the feature matrix.
    Formats(FormatsArgs),
    /// List what a provider would reject, per tool, without converting (exit 1 if anything).
    Check(check::CheckArgs),
    /// Map a model's tool calls (JSON, an array, or NDJSON on stdin) back to the source tools.
    Unmap(unmap::UnmapArgs),
}

#[derive(clap::Args)]
struct FormatsArgs {
    /// Whose keyword tables to print: the providers' (default) or the Go toolfoundation
    /// library's support matrix.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    profile: ProfileArg,
}

/// `--strict` / `--strict=require`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum StrictArg {
    /// Make every tool strict; one that cannot be is written with `strict: false`.
    On,
    /// Make every tool strict; one that cannot be is an error.
    Require,
}

impl From<StrictArg> for Strict {
    fn from(s: StrictArg) -> Strict {
        match s {
            StrictArg::On => Strict::On,
            StrictArg::Require => Strict::Require,
        }
    }
}

/// `--profile`: which keyword tables the targets are held to.
#[derive(Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
enum ProfileArg {
    /// Each provider's documented rules: rewrite or describe what it lacks, keep the meaning.
    #[default]
    Default,
    /// The Go toolfoundation library's support matrix: drop what it does not support, with a
    /// warning each (no strict mode).
    Toolfoundation,
}

impl From<ProfileArg> for ProfileSet {
    fn from(p: ProfileArg) -> ProfileSet {
        match p {
            ProfileArg::Default => ProfileSet::Default,
            ProfileArg::Toolfoundation => ProfileSet::ToolFoundation,
        }
    }
}

/// Refuses `--strict` with a profile set that has no strict mode (exit 2, a usage error).
fn strict_usable(profile: ProfileArg, strict: Option<StrictArg>) -> Result<(), ExitCode> {
    let set = ProfileSet::from(profile);
    if strict.is_some() && !set.has_strict_mode() {
        error!(
            "--strict cannot be used with --profile {}: that profile has no strict mode",
            set.as_str()
        );
        return Err(ExitCode::from(2));
    }
    Ok(())
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// Source format.
    #[arg(long)]
    from: String,
    /// Target format.
    #[arg(long)]
    to: String,
    /// Input is newline-delimited JSON: one tool or catalog per line.
    #[arg(long)]
    ndjson: bool,
    /// Indent the output.
    #[arg(long, conflicts_with = "ndjson")]
    pretty: bool,
    /// How to print the report on stderr.
    #[arg(long, value_enum, default_value_t = ReportMode::Text)]
    report: ReportMode,
    /// Write the report to this file instead of stderr.
    #[arg(long)]
    report_file: Option<PathBuf>,
    /// Exit with 3 on a loss: `any` (the default) is a report entry at warning or above;
    /// `widens` an entry whose effect widens or changes what the tool accepts (calls the
    /// source refused are accepted); `narrows` one whose effect narrows or changes it.
    #[arg(
        long,
        value_name = "RULE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "any",
        value_parser = parse_deny_loss
    )]
    deny_loss: Option<DenyLoss>,
    /// Override the target's action for one keyword: `KEYWORD=ACTION` with ACTION one of keep,
    /// describe, drop, reject, rewrite (`unknown-keyword=…` for keywords the crate does not
    /// model). Repeatable; later ones win.
    #[arg(long = "policy", value_name = "KEYWORD=ACTION", value_parser = parse_policy)]
    policy: Vec<(Keyword, Action)>,
    /// Make every tool strict for targets with a strict mode (OpenAI, Anthropic): every object
    /// closed, (OpenAI) every property required with optional ones nullable. A tool that cannot
    /// be strict is written with `"strict": false` and a `strict-fallback` entry (a warning when
    /// the source tool was strict); `--strict=require` makes it an error instead. Without the flag, a source tool marked strict is kept strict.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "on")]
    strict: Option<StrictArg>,
    /// Write every tool with `"strict": false`.
    #[arg(long, conflicts_with = "strict")]
    no_strict: bool,
    /// Which rules the target is held to: `default` (each provider's documented rules, with
    /// rewrites that keep the meaning) or `toolfoundation` (the Go toolfoundation library's
    /// support matrix: unsupported keywords dropped, a warning each; no strict mode).
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    profile: ProfileArg,
    /// Write the inverse map (renamed tools and keys, strict widening) as JSON to this file,
    /// for `tooladapter unmap --map`.
    #[arg(long, value_name = "PATH")]
    map_out: Option<PathBuf>,
    /// With `--from openapi`: import only the operations whose operationId (or, without one,
    /// the derived `<method>_<path>` name) matches GLOB (`*` any run of characters, `?` one).
    /// Repeatable; an operation matching any is kept.
    #[arg(long, value_name = "GLOB")]
    operations: Vec<String>,
    /// Unroll recursive `$ref`s this many times for targets without refs (default 0).
    #[arg(long, default_value_t = 0)]
    unroll_recursion: u32,
    /// Most schema nodes `$ref` inlining may write per tool.
    #[arg(long)]
    max_ref_expansion: Option<usize>,
    /// Most bytes a conversion may write per input byte (default 16). The output may always
    /// reach 16 MiB.
    #[arg(long, value_name = "N")]
    max_output_ratio: Option<usize>,
    /// Most bytes a conversion may write, whatever the input (default 1 GiB).
    #[arg(long, value_name = "BYTES")]
    max_output_bytes: Option<usize>,
    /// With `--from openapi`: most bytes of tools per document byte (default 4; each tool
    /// copies the schemas it uses). The tools may always reach 4 MiB.
    #[arg(long, value_name = "N")]
    max_import_ratio: Option<usize>,
    /// Threads for batch work (an NDJSON stream, a folder, a catalog of many tools); 1 converts
    /// on one thread. Default: one per core. The output is the same whatever the count.
    #[arg(long, value_name = "N", value_parser = batch::parse_jobs)]
    jobs: Option<usize>,
    /// Output file (a folder when the input is a folder); stdout when absent.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// A folder with no `.json` file to convert is not an error (it is without this flag).
    #[arg(long)]
    allow_empty: bool,
    /// Input file, folder, or `-` for stdin (the default).
    input: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReportMode {
    Text,
    Json,
    None,
}

/// What a run found, folded into the exit code at the end.
#[derive(Default)]
struct Outcome {
    failed: bool,
    /// A loss `--deny-loss` denies (never set without it).
    lost: bool,
}

impl Outcome {
    /// The exit code of a run that ended with this outcome.
    fn code(&self) -> ExitCode {
        if self.failed {
            ExitCode::from(1)
        } else if self.lost {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        }
    }

    /// The exit code of a run an I/O error ended: a closed pipe (`| head`) ends it quietly
    /// with what was found until then; any other error is said, and the run exits 1.
    fn ended_by(&self, e: &std::io::Error) -> ExitCode {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return self.code();
        }
        error!("{e}");
        ExitCode::from(1)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Formats(args) => print_formats(args.profile),
        Command::Convert(args) => convert(&args),
        Command::Check(args) => check::run(&args),
        Command::Unmap(args) => unmap::run(&args),
    }
}

/// `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Writes `text` to stdout. A closed pipe (`| head`) ends quietly, as other tools do; any
/// other write error is said, and the run exits 1.
fn write_stdout(text: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            error!("cannot write to stdout: {e}");
            ExitCode::from(1)
        }
    }
}

fn print_formats(profile: ProfileArg) -> ExitCode {
    let registry = Registry::default();
    let all = registry.list();
    let listed: Vec<String> = all
        .iter()
        .map(|n| match registry.get(n) {
            Some(a) if !a.info().writes => format!("{n} (import only)"),
            _ => n.clone(),
        })
        .collect();
    // The table is what each target does with a keyword: import-only formats have no column.
    let names: Vec<String> =
        all.into_iter().filter(|n| registry.get(n).is_some_and(|a| a.info().writes)).collect();
    let mut out = String::from("formats: ");
    out.push_str(&listed.join(", "));
    out.push_str("\n\nfeature");
    let width = 24;
    out.push_str(&" ".repeat(width - "feature".len()));
    for n in &names {
        out.push_str(&format!("{n:>18}"));
    }
    out.push('\n');
    for f in SchemaFeature::ALL {
        let name = f.to_string();
        out.push_str(&name);
        out.push_str(&" ".repeat(width.saturating_sub(name.len()).max(1)));
        let keyword =
            Keyword::ALL.iter().chain([&Keyword::Unknown]).find(|k| k.feature() == Some(*f));
        for n in &names {
            let Some(adapter) = registry.get(n) else { continue };
            let table = match profile {
                ProfileArg::Default => Some(adapter.profile()),
                ProfileArg::Toolfoundation => tooladapter::toolfoundation::profile(n),
            };
            let cell = match (table, keyword) {
                (None, _) => "-",
                (Some(p), Some(k)) => p.action(*k).as_str(),
                (Some(p), None) if p.supports_feature(*f) => "keep",
                (Some(_), None) => "rewrite",
            };
            out.push_str(&format!("{cell:>18}"));
        }
        out.push('\n');
    }
    write_stdout(out.as_bytes())
}

fn convert(args: &ConvertArgs) -> ExitCode {
    let registry = Registry::default();
    let (Some(mut from), Some(to)) = (registry.get(&args.from), registry.get(&args.to)) else {
        let bad = if registry.get(&args.from).is_none() { &args.from } else { &args.to };
        error!("unknown format {bad:?}; known formats: {}", registry.list().join(", "));
        return ExitCode::from(2);
    };
    if let Err(code) = strict_usable(args.profile, args.strict) {
        return code;
    }
    if !args.operations.is_empty() {
        if from.name() != tooladapter::formats::rules::openapi::INFO.name {
            error!("--operations selects OpenAPI operations; it needs --from openapi");
            return ExitCode::from(2);
        }
        let filtered = args.operations.iter().fold(OpenApi::new(), |api, g| api.operations(g));
        from = std::sync::Arc::new(filtered);
    }
    let mut options = Options::default()
        .pretty(args.pretty)
        .unroll_recursion(args.unroll_recursion)
        .profile_set(args.profile.into());
    options.policy = args.policy.clone();
    options.deny_loss = args.deny_loss;
    if let Some(s) = args.strict {
        options = options.strict(s.into());
    } else if args.no_strict {
        options = options.strict(Strict::Off);
    }
    if args.strict.is_some() && !to.info().holds_strict() {
        let strict: Vec<&str> =
            tooladapter::formats::infos().filter(|f| f.holds_strict()).map(|f| f.name).collect();
        error!("{} has no strict mode ({} do)", to.name(), and_list(&strict));
        return ExitCode::from(2);
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
    let input = args.input.as_deref().filter(|p| p.as_os_str() != "-");
    if let Some(path) = input
        && let Err(e) = input::check_named(path, true)
    {
        error!("{e}");
        return ExitCode::from(e.code());
    }
    let outputs: Vec<(&str, &Path)> =
        [("-o", &args.output), ("--report-file", &args.report_file), ("--map-out", &args.map_out)]
            .into_iter()
            .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
            .collect();
    if let Err(message) = output::refuse_overwrite(input, &outputs, args.output.is_none()) {
        error!("{message}");
        return ExitCode::from(2);
    }
    let mut report_file = match &args.report_file {
        Some(path) => match output::OutFile::create(path) {
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
    let mut converter = Converter::new();
    let mut outcome = Outcome::default();
    let mut inverse = Inverse::default();
    // Whether a single input gave output: when it did not, no file is replaced.
    let mut produced = true;
    let mut run = |input: &[u8], label: &str, out: &mut dyn Write| -> std::io::Result<()> {
        match converter.convert(input, &*from, &*to, &options) {
            Ok(conversion) => {
                if args.map_out.is_some() {
                    inverse.extend(conversion.inverse().clone());
                }
                out.write_all(conversion.output())?;
                out.write_all(b"\n")?;
                write_report(conversion.report().entries(), label, args.report, &mut *report_sink)?;
                outcome.failed |= conversion.report().max_severity() == Some(Severity::Error);
                outcome.lost |= conversion.loss_denied();
            }
            Err(e) => {
                outcome.failed = true;
                produced = false;
                let hint = ndjson_hint(input, &e, "add --ndjson");
                if label.is_empty() {
                    error!("{e}{hint}");
                } else {
                    error!("{label}: {e}{hint}");
                }
            }
        }
        Ok(())
    };

    let batch = match batch::Batch::new(&*from, &*to, &options, args.report, args.jobs) {
        Ok(batch) => batch.keep_inverse(args.map_out.is_some()),
        Err(e) => return io_error(e),
    };
    let show_bar = batch::bar_wanted(args.output.as_deref());
    let limit = options.limits.max_input_bytes;
    let io_result = if args.ndjson || input.is_some_and(Path::is_dir) {
        let mut emit =
            batch::Emit::new(&mut *report_sink, args.report_file.is_none(), &mut outcome, show_bar);
        let result = match input {
            Some(dir) if dir.is_dir() => {
                batch.dir(dir, args.output.as_deref(), args.allow_empty, &mut emit)
            }
            _ => batch.ndjson(input, args.output.as_deref(), &mut emit),
        };
        inverse.extend(emit.into_inverse());
        result
    } else {
        let mut out = match output::Output::open(args.output.as_deref()) {
            Ok(out) => out,
            Err(e) => return io_error(e),
        };
        let read = match input {
            Some(path) => input::read_path(path, limit, true),
            None => input::read_stdin(limit),
        };
        let result = match read.map_err(std::io::Error::from) {
            // A catalog of many tools is split across the threads when that gives the same
            // bytes as converting it whole; otherwise it is converted whole.
            Ok(bytes) => match batch.catalog(&bytes, show_bar) {
                Some(done) => {
                    let mut emit = batch::Emit::new(
                        &mut *report_sink,
                        args.report_file.is_none(),
                        &mut outcome,
                        false,
                    );
                    let result = emit.write(vec![done], &mut out);
                    inverse.extend(emit.into_inverse());
                    result
                }
                None => run(&bytes, "", &mut out),
            },
            Err(e) => Err(e),
        };
        // A single input that gave no output replaces no file: the error is all there is.
        result.and_then(|()| if produced { out.finish() } else { Ok(()) })
    };
    let flushed = io_result.and_then(|()| report_sink.flush());
    let finished = flushed.and_then(|()| match report_file {
        Some(file) if produced => file.commit(),
        _ => Ok(()),
    });
    if let Err(e) = finished {
        return outcome.ended_by(&e);
    }
    if let Some(path) = args.map_out.as_deref().filter(|_| produced) {
        if inverse.from.is_empty() {
            inverse.from = from.name().to_owned();
            inverse.to = to.name().to_owned();
        }
        let written = serde_json::to_vec_pretty(&inverse)
            .map_err(std::io::Error::other)
            .and_then(|bytes| output::write_file(path, &[&bytes]));
        if let Err(e) = written {
            return io_error(e);
        }
    }
    outcome.code()
}

/// The command line's advice on an error reading `input`: `--from` when the input looks like
/// another format's (the library says what it looks like; the flag is the CLI's), and for a
/// parse error of NDJSON (one JSON document per line) read as one document, `what_to_do`.
/// Empty otherwise; worked out only once a document failed to read.
fn ndjson_hint(input: &[u8], e: &tooladapter::ConversionError, what_to_do: &str) -> String {
    if e.suggests_other_format() {
        return " (check --from)".to_owned();
    }
    if !matches!(e.kind(), tooladapter::ErrorKind::Json { .. }) {
        return String::new();
    }
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let mut lines = input.split(|b| *b == b'\n').filter(|l| !l.trim_ascii().is_empty());
    let first_is_a_document =
        lines.next().is_some_and(|l| serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok());
    if first_is_a_document && lines.next().is_some() {
        format!(" (the input looks like NDJSON, one JSON document per line: {what_to_do})")
    } else {
        String::new()
    }
}

/// `e` with `path` in front of its message.
fn named(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The exit code of a run an I/O error ended before anything was found: 0 for a closed pipe,
/// said and 1 otherwise.
fn io_error(e: std::io::Error) -> ExitCode {
    Outcome::default().ended_by(&e)
}

fn write_report(
    report: &[ReportEntry],
    label: &str,
    mode: ReportMode,
    sink: &mut dyn Write,
) -> std::io::Result<()> {
    for entry in report {
        match mode {
            ReportMode::None => {}
            ReportMode::Text if label.is_empty() => writeln!(sink, "{entry}")?,
            ReportMode::Text => writeln!(sink, "{label}: {entry}")?,
            ReportMode::Json => {
                let line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
                writeln!(sink, "{line}")?;
            }
        }
    }
    Ok(())
}
