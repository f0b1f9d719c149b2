//! The `tooladapter` command line: the only place in the crate that does I/O.
//!
//! Exit codes: 0 ok, 1 invalid input or conversion error (or a tool left out), 2 usage,
//! 3 a loss `--deny-loss[=any|arguments|widens|narrows]` denies.

#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// Says an error of the run on stderr (`error!("usage"; "…")`: its kind, then its message):
/// an `error: …` line, or a JSON line under `--report json` (see [`report::say`]).
macro_rules! error {
    ($kind:literal; $($arg:tt)*) => {
        crate::report::say(&crate::report::Failure::new($kind, format!($($arg)*)), None)
    };
}

mod batch;
mod check;
mod convert;
mod exact;
mod input;
mod maps;
mod model;
mod names;
mod output;
mod report;
mod run;
mod stream;
mod traffic;
mod unmap;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tooladapter::ir::Keyword;
use tooladapter::{Action, Adapter, DenyLoss, Format, ProfileSet, SchemaFeature, Severity, Strict};

use report::{Pointers, ReportMode};

/// Parses `KEYWORD=ACTION` for `--policy`.
fn parse_policy(s: &str) -> Result<(Keyword, Action), String> {
    let (name, action) = s.split_once('=').ok_or("expected KEYWORD=ACTION")?;
    let keyword = Keyword::from_policy_name(name)
        .ok_or_else(|| format!("`{name}` is not a keyword this crate models"))?;
    let action = action.parse::<Action>().map_err(|e| e.to_string())?;
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
    /// Convert tool traffic (calls, results, a conversation, a response or a stream) between providers.
    Traffic(traffic::TrafficArgs),
}

#[derive(clap::Args)]
struct FormatsArgs {
    /// Whose keyword tables to print: the providers' (`default`) or the Go toolfoundation
    /// library's support matrix (`toolfoundation`).
    #[arg(long, value_parser = names::profile(), default_value_t = ProfileSet::Default)]
    profile: ProfileSet,
}

/// `convert --strict`'s help: the formats with a strict mode, from the built-in list, so a
/// format given one is named without an edit here.
fn strict_help() -> String {
    format!(
        "Make every tool strict for targets with a strict mode ({}): every object closed, \
         (OpenAI) every property required with optional ones nullable. A tool that cannot be \
         strict is written with `\"strict\": false` and a `strict-fallback` warning saying \
         why; `--strict=require` makes it an error instead. \
         Without the flag, a source tool marked strict is kept strict",
        strict_formats()
    )
}

/// The formats with a strict mode, as a list for people ("openai, openai-responses and …").
fn strict_formats() -> String {
    let strict: Vec<&str> =
        tooladapter::formats::infos().filter(|f| f.holds_strict()).map(|f| f.name).collect();
    and_list(&strict)
}

/// Refuses `--strict` with a profile set that has no strict mode (exit 2, a usage error).
fn strict_usable(set: ProfileSet, strict: Option<Strict>) -> Result<(), ExitCode> {
    if strict.is_some() && set.strict_refused(None).is_some() {
        error!(
            "usage";
            "--strict cannot be used with --profile {set}: that profile has no strict mode"
        );
        return Err(ExitCode::from(2));
    }
    Ok(())
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// Source format (any case).
    #[arg(long, value_name = "FORMAT", value_parser = names::source())]
    from: Format,
    /// Target format (any case); an import-only format cannot be one.
    #[arg(long, value_name = "FORMAT", value_parser = names::target())]
    to: Format,
    /// Input is newline-delimited JSON: one tool or catalog per line.
    #[arg(long)]
    ndjson: bool,
    /// Indent the output.
    #[arg(long, conflicts_with = "ndjson")]
    pretty: bool,
    /// How to print the report on stderr: `text` (one line an entry, then a summary line),
    /// `json` (one JSON object an entry, with its `source` and the tool's `index`) or `none`.
    #[arg(long, value_enum, default_value_t = ReportMode::Text)]
    report: ReportMode,
    /// Print only the report entries at this severity or above (`info` prints all). The exit
    /// code and the summary line count every entry.
    #[arg(long, value_name = "LEVEL", value_parser = names::severity(), default_value_t = Severity::Info)]
    report_level: Severity,
    /// Which pointer each report entry shows as its `pointer`: `document` (the place in the
    /// input document, `/tools/3/inputSchema/…` in a catalog) or `tool` (the place in the
    /// tool, `/inputSchema/…`). A JSON line carries the tool's as `tool_pointer` either way.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = Pointers::Document)]
    report_pointers: Pointers,
    /// Write the report to this file instead of stderr.
    #[arg(long)]
    report_file: Option<PathBuf>,
    /// Exit with 3 on a loss, and write nothing: `any` (the default) is any information the
    /// output does not carry, metadata included (every warning and error, and an `info` entry
    /// that drops something: an `outputSchema`, annotations, a schema's `title`); `arguments`
    /// any change to what a tool accepts (an entry whose effect narrows, widens or changes
    /// it); `widens` an entry whose effect widens or changes it (calls the source refused are
    /// accepted); `narrows` one whose effect narrows or changes it. A tool left out is a loss
    /// under every rule.
    #[arg(
        long,
        value_name = "RULE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "any",
        value_parser = names::deny_loss()
    )]
    deny_loss: Option<DenyLoss>,
    /// Override the target's action for one keyword: `KEYWORD=ACTION` with ACTION one of keep,
    /// describe, drop, reject, rewrite (`unknown-keyword=…` for keywords the crate does not
    /// model). Repeatable; later ones win.
    #[arg(long = "policy", value_name = "KEYWORD=ACTION", value_parser = parse_policy)]
    policy: Vec<(Keyword, Action)>,
    /// Make every tool strict for targets with a strict mode (the list: `strict_help`).
    #[arg(
        long,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "on",
        value_parser = names::strict(),
        help = strict_help(),
        long_help = strict_help()
    )]
    strict: Option<Strict>,
    /// Write every tool with `"strict": false`.
    #[arg(long, conflicts_with = "strict")]
    no_strict: bool,
    /// Which rules the target is held to: `default` (each provider's documented rules, with
    /// rewrites that keep the meaning) or `toolfoundation` (the Go toolfoundation library's
    /// support matrix: unsupported keywords dropped, a warning each; no strict mode).
    #[arg(long, value_parser = names::profile(), default_value_t = ProfileSet::Default)]
    profile: ProfileSet,
    /// With `--to bedrock`: the model family behind the request, whose facts the tools are
    /// held to (only `anthropic` has a strict mode; without a family, Claude's rules hold).
    #[arg(long, value_name = "FAMILY", value_parser = names::model_family())]
    model_family: Option<tooladapter::ModelFamily>,
    /// Write the inverse map (renamed tools and keys, strict widening) as JSON to this file,
    /// for `tooladapter unmap --map`.
    #[arg(long, value_name = "PATH")]
    map_out: Option<PathBuf>,
    /// With `--from openapi`: import only the operations whose operationId (or, without one,
    /// the derived `<method>_<path>` name) matches GLOB (`*` any run of characters, `?` one).
    /// Repeatable; an operation matching any is kept. A GLOB that matches no operation is an
    /// error naming it and the document's first operations.
    #[arg(long, value_name = "GLOB")]
    operations: Vec<String>,
    /// Obey the target's dated limits (OpenAI: a 1,024-character description, enforced until
    /// 2025 and since lifted; 128 tools a request): longer descriptions are cut, with a
    /// warning each, and a catalog over the tool limit is an error (every tool still written).
    /// Without it, `check` reports them and the conversion writes what the source wrote.
    #[arg(long)]
    dated_limits: bool,
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
    /// Output file (a folder when the input is a folder); stdout when absent. A link is
    /// followed to the file it names (one naming no file is refused), and that file is replaced
    /// by a new one renamed over it; a link inside an output folder is replaced, not followed.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// A folder with no `.json` file to convert is not an error (it is without this flag).
    #[arg(long)]
    allow_empty: bool,
    /// Replace an output file you could not write in place: a read-only file, or another
    /// user's file in a shared folder. An output is written beside its destination and renamed
    /// over it, which needs only the folder's write permission, so such a file is refused
    /// (exit 2) without this flag. It never lets an output replace an input.
    #[arg(long)]
    force: bool,
    /// Input file, folder, or `-` for stdin (the default).
    input: Option<PathBuf>,
}

/// What a run found, folded into the exit code at the end.
#[derive(Default)]
struct Outcome {
    failed: bool,
    /// A loss `--deny-loss` denies (never set without it).
    lost: bool,
    /// What was written and reported, for the summary line.
    tally: report::Tally,
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
        error!("io"; "{e}");
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
        Command::Convert(args) => convert::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Unmap(args) => unmap::run(&args),
        Command::Traffic(args) => traffic::run(&args),
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
            error!("io"; "cannot write to stdout: {e}");
            ExitCode::from(1)
        }
    }
}

/// What the cells of the `formats` table mean: the target's action on a keyword it lacks.
const LEGEND: &str = "\
keep      the target holds the keyword: written as it is
rewrite   written in an equivalent form the target holds (same calls accepted)
describe  dropped from the schema and written into the description (warning)
drop      dropped (warning)
reject    the tool is left out (error)
-         no table for this target under this profile
";

fn print_formats(profile: ProfileSet) -> ExitCode {
    let mut all = Format::ALL.to_vec();
    all.sort_by_key(|f| Format::name(*f));
    let listed: Vec<String> = all
        .iter()
        .map(|f| match f.info().writes {
            false => format!("{f} (import only)"),
            true => f.to_string(),
        })
        .collect();
    // The table is what each target does with a keyword: import-only formats have no column.
    let targets: Vec<Format> = all.iter().copied().filter(|f| f.info().writes).collect();
    let mut out = String::from("formats: ");
    out.push_str(&listed.join(", "));
    out.push_str("\n\nfeature");
    let width = 24;
    out.push_str(&" ".repeat(width - "feature".len()));
    for f in &targets {
        out.push_str(&format!("{:>18}", f.name()));
    }
    out.push('\n');
    for f in SchemaFeature::ALL {
        let name = f.to_string();
        out.push_str(&name);
        out.push_str(&" ".repeat(width.saturating_sub(name.len()).max(1)));
        let keyword =
            Keyword::ALL.iter().chain([&Keyword::Unknown]).find(|k| k.feature() == Some(*f));
        for target in &targets {
            let table = match profile {
                ProfileSet::ToolFoundation => tooladapter::toolfoundation::profile(target.name()),
                _ => Some(target.profile()),
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
    out.push('\n');
    out.push_str(LEGEND);
    write_stdout(out.as_bytes())
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
