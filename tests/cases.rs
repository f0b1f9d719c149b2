//! The data-driven cases: every `tests/cases/<area>/*.json` file is one case (an input, the
//! formats and the options), converted through the public API (`Registry::convert_with`) and
//! snapshotted with insta under `tests/snapshots/cases__<area>__<case>.snap`: the output, the
//! report (one line per entry, `severity[effect] code`; `metadata`: not about the arguments; the
//! document-level pointer, and where a rewrite moved the place to as `written at`) and
//! the inverse map, or the error. A case whose `to` is `"*"` (every writable built-in format) or a
//! list gives one snapshot per target, `cases__<area>__<case>@<target>.snap`. The same file also
//! runs two of the cases through the `tooladapter` binary with `--report json` (`cases__cli__…`).
//!
//! A case file holds:
//!
//! ```json
//! {
//!   "description": "what the case shows (stored in the snapshot's header)",
//!   "from": "mcp",
//!   "to": "openai",              // a format name, a list of names, or "*"
//!   "options": {                 // optional, and so is each member
//!     "strict": "source",        // "source" | "on" | "require" | "off"
//!     "profile": "default",      // "default" | "toolfoundation"
//!     "pretty": true,            // default true: the output is snapshotted indented
//!     "policy": {"format": "drop"},   // KEYWORD: ACTION, applied in order
//!     "unroll_recursion": 0,
//!     "max_ref_expansion": 100000,
//!     "max_depth": 128
//!   },
//!   "input": {…}                 // the input document, written compact
//! }
//! ```
//!
//! `"input_text": "…"` replaces `input` for inputs that are not a JSON value (invalid JSON,
//! duplicate keys): its bytes are converted as they are. See `tests/README.md` for how to add a
//! case and review its snapshot.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};
use tooladapter::ir::Keyword;
use tooladapter::{Action, Effect, Options, ProfileSet, Registry, ReportEntry, Severity, Strict};

/// One case file, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    description: String,
    from: String,
    to: Targets,
    #[serde(default)]
    options: CaseOptions,
    input: Option<Value>,
    input_text: Option<String>,
}

/// `to`: one format name (`"*"` for every writable built-in format) or a list of names.
#[derive(Deserialize)]
#[serde(untagged)]
enum Targets {
    One(String),
    Many(Vec<String>),
}

/// `options`, each member spelled as the CLI spells its flag's value.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseOptions {
    strict: Option<String>,
    profile: Option<String>,
    pretty: Option<bool>,
    #[serde(default)]
    policy: Map<String, Value>,
    unroll_recursion: Option<u32>,
    max_ref_expansion: Option<usize>,
    max_depth: Option<usize>,
}

/// A case read and checked: what to convert, how, and where its snapshots go.
struct Case {
    /// `tests/cases/<area>/<case>.json`, as shown in failures and snapshot headers.
    path: PathBuf,
    /// `<area>/<case>`: the snapshot name, or its stem when there are several targets.
    name: String,
    description: String,
    from: String,
    /// Each target, with the snapshot name its result is stored under.
    targets: Vec<(String, String)>,
    options: Options,
    /// The options as a snapshot's first line shows them.
    options_line: String,
    /// The CLI flags that ask for the same options (`None` when one has no flag).
    cli_flags: Option<Vec<String>>,
    input: Vec<u8>,
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn snapshots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Every file under `dir`, sorted, so the cases run (and fail) in the same order everywhere.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Reads one case file; the error says what is wrong with it (the caller adds the path).
fn read_case(path: &Path) -> Result<Case, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    parse_case(path, &bytes)
}

/// A case from the bytes of its file at `path`.
fn parse_case(path: &Path, bytes: &[u8]) -> Result<Case, String> {
    let rel = path.strip_prefix(cases_dir()).map_err(|e| e.to_string())?;
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    let [area, file] = parts[..] else {
        return Err("a case lives at tests/cases/<area>/<case>.json, one folder deep".into());
    };
    let Some(stem) = file.strip_suffix(".json") else {
        return Err("only .json files belong under tests/cases/".into());
    };
    let name = format!("{area}/{stem}");
    let file: CaseFile = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    if file.description.trim().is_empty() {
        return Err("`description` is empty: say what the case shows".into());
    }
    let builtin = |name: &str| -> Result<(), String> {
        match tooladapter::formats::builtin(name) {
            Some(_) => Ok(()),
            None => {
                let names: Vec<&str> =
                    tooladapter::formats::builtins().iter().map(|a| a.name()).collect();
                Err(format!("{name:?} is not a built-in format ({})", names.join(", ")))
            }
        }
    };
    builtin(&file.from)?;
    let target_names: Vec<String> = match file.to {
        Targets::One(all) if all == "*" => tooladapter::formats::builtins()
            .iter()
            .filter(|a| a.info().writes)
            .map(|a| a.name().to_owned())
            .collect(),
        Targets::One(one) => vec![one],
        Targets::Many(many) if many.is_empty() => return Err("`to` is an empty list".into()),
        Targets::Many(many) => many,
    };
    for to in &target_names {
        builtin(to)?;
    }
    let several = target_names.len() > 1;
    let targets = target_names
        .into_iter()
        .map(|to| {
            let snapshot = if several { format!("{name}@{to}") } else { name.clone() };
            (to, snapshot)
        })
        .collect();
    let input = match (file.input, file.input_text) {
        (Some(value), None) => serde_json::to_vec(&value).map_err(|e| e.to_string())?,
        (None, Some(text)) => text.into_bytes(),
        _ => return Err("give exactly one of `input` (JSON) and `input_text` (raw text)".into()),
    };
    let (options, options_line, cli_flags) = read_options(&file.options)?;
    Ok(Case {
        path: path.to_owned(),
        name,
        description: file.description,
        from: file.from,
        targets,
        options,
        options_line,
        cli_flags,
        input,
    })
}

/// The options of a case file as library `Options`, as the snapshot's line shows them, and as
/// CLI flags (`None` when one of them has no flag).
fn read_options(o: &CaseOptions) -> Result<(Options, String, Option<Vec<String>>), String> {
    let mut options = Options::default().pretty(o.pretty.unwrap_or(true));
    let mut shown = Vec::new();
    let mut flags = Some(Vec::new());
    let mut flag = |f: String| {
        if let Some(flags) = &mut flags {
            flags.push(f);
        }
    };
    if let Some(strict) = &o.strict {
        let (value, flag_name) = match strict.as_str() {
            "source" => (Strict::Source, None),
            "on" => (Strict::On, Some("--strict")),
            "require" => (Strict::Require, Some("--strict=require")),
            "off" => (Strict::Off, Some("--no-strict")),
            other => return Err(format!("options.strict {other:?}: source, on, require or off")),
        };
        options = options.strict(value);
        shown.push(format!("strict {strict}"));
        if let Some(f) = flag_name {
            flag(f.to_owned());
        }
    }
    if let Some(profile) = &o.profile {
        let set = ProfileSet::from_name(profile)
            .ok_or_else(|| format!("options.profile {profile:?}: default or toolfoundation"))?;
        options = options.profile_set(set);
        shown.push(format!("profile {profile}"));
        flag(format!("--profile={profile}"));
    }
    if o.pretty == Some(false) {
        shown.push("compact".to_owned());
    } else {
        flag("--pretty".to_owned());
    }
    for (name, action) in &o.policy {
        // Spelled as the CLI's `--policy` spells it: `unknown-keyword` stands for every
        // keyword the crate does not model.
        let keyword = match name.as_str() {
            "unknown-keyword" => Keyword::Unknown,
            _ => match Keyword::from_key(name) {
                Keyword::Unknown => return Err(format!("options.policy: {name:?} is no keyword")),
                k => k,
            },
        };
        let action_name = action.as_str().unwrap_or_default();
        let action = Action::from_name(action_name).ok_or_else(|| {
            format!("options.policy.{name}: {action} is no action (keep, rewrite, describe, drop, reject)")
        })?;
        options = options.policy(keyword, action);
        shown.push(format!("policy {name}={action_name}"));
        flag(format!("--policy={name}={action_name}"));
    }
    if let Some(n) = o.unroll_recursion {
        options = options.unroll_recursion(n);
        shown.push(format!("unroll_recursion {n}"));
        flag(format!("--unroll-recursion={n}"));
    }
    if let Some(n) = o.max_ref_expansion {
        options = options.max_ref_expansion(n);
        shown.push(format!("max_ref_expansion {n}"));
        flag(format!("--max-ref-expansion={n}"));
    }
    if let Some(n) = o.max_depth {
        options = options.max_depth(n);
        shown.push(format!("max_depth {n}"));
        // The CLI has no flag for it: such a case cannot run through the binary.
        flags = None;
    }
    let line = if shown.is_empty() { "default options".to_owned() } else { shown.join(", ") };
    Ok((options, line, flags))
}

/// What a snapshot shows of one conversion: the output, the report, the inverse map, or the
/// error's `Display`.
fn shown(case: &Case, to: &str) -> String {
    let mut s = format!("{} -> {} ({})\n", case.from, to, case.options_line);
    match Registry::default().convert_with(&case.input, &case.from, to, &case.options) {
        Ok(c) => {
            s.push_str(&format!("--- output (tools written: {})\n", c.tools_written()));
            s.push_str(c.output_str());
            let entries = c.report().entries();
            s.push_str(&format!("\n--- report ({} entries)\n", entries.len()));
            for e in entries {
                assert!(follows(e), "{}: {e}: the severity does not follow the effect", case.name);
                s.push_str(&format!("{}[{}] {}", e.severity, e.effect_label(), e.code));
                if !e.tool.is_empty() {
                    s.push_str(&format!(" tool={}", e.tool));
                }
                s.push_str(&format!(" feature={} at {:?}", e.feature, e.pointer));
                // Where a rewrite moved the place to, in the written tool.
                if let Some(output) = &e.output_pointer {
                    s.push_str(&format!(" (written at {output:?})"));
                }
                s.push_str(&format!(": {}\n", e.message));
            }
            let inverse = c.inverse();
            if !inverse.is_empty() {
                s.push_str("--- inverse\n");
                s.push_str(&serde_json::to_string_pretty(inverse).expect("inverse as JSON"));
                s.push('\n');
            }
        }
        Err(e) => {
            s.push_str("--- error\n");
            s.push_str(&e.to_string());
            s.push('\n');
        }
    }
    s
}

/// Asserts one snapshot, the case's path and description in its header, returning whether it
/// matched: a mismatch is collected, not raised, so one run writes every `.snap.new`.
fn check_snapshot(case: &Case, snapshot: &str, value: &str) -> bool {
    let mut settings = insta::Settings::clone_current();
    settings.set_input_file(&case.path);
    settings.set_description(&case.description);
    settings.set_omit_expression(true);
    catch_unwind(AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(snapshot.to_owned(), value));
    }))
    .is_ok()
}

/// The file name, without `.snap`, insta gives the snapshot `name` of this test binary.
fn snapshot_stem(name: &str) -> String {
    format!("cases__{}", name.replace('/', "__"))
}

/// The file insta keeps the snapshot `name` of this test binary in.
fn snapshot_file(name: &str) -> String {
    format!("{}.snap", snapshot_stem(name))
}

/// Every case file, read; malformed ones are returned as `path: what is wrong`.
fn all_cases() -> (Vec<Case>, Vec<String>) {
    let (cases, malformed) = read_all_cases();
    (cases, malformed.into_iter().map(|(_, message)| message).collect())
}

/// Every case file, read; malformed ones as (their snapshot stem, `path: what is wrong`).
fn read_all_cases() -> (Vec<Case>, Vec<(String, String)>) {
    let mut files = Vec::new();
    files_under(&cases_dir(), &mut files);
    let mut cases = Vec::new();
    let mut malformed = Vec::new();
    for path in files {
        match read_case(&path) {
            Ok(case) => cases.push(case),
            Err(e) => {
                let rel = path.strip_prefix(cases_dir()).unwrap_or(&path).with_extension("");
                let stem = snapshot_stem(&rel.to_string_lossy());
                malformed.push((stem, format!("{}: {e}", shown_path(&path))));
            }
        }
    }
    (cases, malformed)
}

/// The report's rule: `info` only where the same calls are accepted; an entry not about the
/// arguments changes none; an error (a tool left out) narrows.
fn follows(e: &ReportEntry) -> bool {
    let by_severity = match e.severity {
        Severity::Info => e.effect == Effect::None,
        Severity::Warning => true,
        Severity::Error => e.effect == Effect::Narrows && e.arguments,
    };
    by_severity && (e.arguments || e.effect == Effect::None)
}

fn shown_path(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string()
}

/// The cases that also run through the binary, each with one of its targets (see
/// [`cli_report_json`]).
const CLI_CASES: [(&str, &str); 2] =
    [("targets/shipment", "openai"), ("strict/fallback-require", "anthropic")];

/// The snapshot name of a case run through the binary.
fn cli_snapshot_name(case: &str, to: &str) -> String {
    format!("cli/{case}@{to}")
}

#[test]
fn cases() {
    let (cases, malformed) = read_all_cases();
    let mut failures: Vec<String> = malformed.iter().map(|(_, m)| m.clone()).collect();
    assert!(!cases.is_empty(), "no case under {}", cases_dir().display());
    let mut expected: Vec<String> =
        CLI_CASES.iter().map(|(c, to)| cli_snapshot_name(c, to)).collect();
    for case in &cases {
        for (to, snapshot) in &case.targets {
            expected.push(snapshot.clone());
            if !check_snapshot(case, snapshot, &shown(case, to)) {
                failures.push(format!(
                    "{} (to {to}): snapshot {} differs",
                    shown_path(&case.path),
                    snapshot_file(snapshot)
                ));
            }
        }
    }
    // A snapshot no case writes any more is left over from a renamed or removed case.
    let expected: Vec<String> = expected.iter().map(|n| snapshot_file(n)).collect();
    for entry in std::fs::read_dir(snapshots_dir()).expect("tests/snapshots") {
        let file = entry.expect("snapshot entry").file_name().to_string_lossy().into_owned();
        // A malformed case's snapshots are not stale: the case is, and is named above.
        let of_malformed = malformed.iter().any(|(stem, _)| {
            file.strip_prefix(stem.as_str()).is_some_and(|rest| rest.starts_with(['.', '@']))
        });
        if file.starts_with("cases__")
            && file.ends_with(".snap")
            && !expected.contains(&file)
            && !of_malformed
        {
            failures.push(format!("tests/snapshots/{file}: no case writes it; delete it"));
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// A malformed case file fails the suite with its path and what is wrong.
#[test]
fn a_malformed_case_is_named_with_its_path() {
    // Read as if it were a file of the `errors` folder; nothing is written to disk.
    let path = cases_dir().join("errors/not-a-case.json");
    let check = |text: &str, says: &str| {
        let err = parse_case(&path, text.as_bytes()).err().unwrap_or_default();
        assert!(err.contains(says), "{text} -> {err:?}");
    };
    check(r#"{"from":"mcp","to":"openai","input":{}}"#, "missing field `description`");
    check(r#"{"description":"d","from":"mcp","to":"openai","inptu":{}}"#, "unknown field `inptu`");
    check(r#"{"description":"d","from":"mcp","to":"open-ai","input":{}}"#, "not a built-in");
    check(r#"{"description":"d","from":"mcp","to":"openai"}"#, "exactly one of");
    check(
        r#"{"description":"d","from":"mcp","to":"openai","options":{"strict":"yes"},"input":{}}"#,
        "options.strict",
    );
    check(
        r#"{"description":"d","from":"mcp","to":"openai","options":{"policy":{"format":"toss"}},"input":{}}"#,
        "no action",
    );
    check("{", "EOF");
    let outside = cases_dir().join("loose.json");
    let err = parse_case(&outside, b"{}").err().unwrap_or_default();
    assert!(err.contains("one folder deep"), "{err}");
    // And every case of the tree reads (the `cases` test reports them too, with their paths).
    let (_, malformed) = all_cases();
    assert!(malformed.is_empty(), "malformed case files:\n{}", malformed.join("\n"));
}

/// Two cases through the binary with `--report json`: the output on stdout, the report as JSON
/// lines on stderr, and the exit code.
#[cfg(feature = "cli")]
#[test]
fn cli_report_json() {
    let (cases, _) = all_cases();
    let mut failures = Vec::new();
    for (name, to) in CLI_CASES {
        let case =
            cases.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no case {name}"));
        assert!(case.targets.iter().any(|(t, _)| t == to), "{name} does not convert to {to}");
        let input = std::env::temp_dir().join(format!(
            "tooladapter-cases-{}-{}.json",
            std::process::id(),
            name.replace('/', "-")
        ));
        std::fs::write(&input, &case.input).expect("temp input");
        let mut args: Vec<String> =
            ["convert", "--from", &case.from, "--to", to, "--report", "json"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect();
        let flags = case.cli_flags.as_ref();
        args.extend(flags.unwrap_or_else(|| panic!("{name}: an option has no CLI flag")).clone());
        args.push(input.display().to_string());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooladapter"))
            .args(&args)
            .output()
            .expect("run tooladapter");
        let _ = std::fs::remove_file(&input);
        args.pop();
        // JSON entries name their input file: the temporary path is shown as `<input>`.
        let stderr =
            String::from_utf8_lossy(&out.stderr).replace(&input.display().to_string(), "<input>");
        let shown = format!(
            "tooladapter {} <{}>\n--- exit code {}\n--- stdout\n{}--- stderr\n{}",
            args.join(" "),
            shown_path(&case.path),
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout),
            stderr,
        );
        let snapshot = cli_snapshot_name(name, to);
        if !check_snapshot(case, &snapshot, &shown) {
            failures.push(format!(
                "{}: snapshot {} differs",
                shown_path(&case.path),
                snapshot_file(&snapshot)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
