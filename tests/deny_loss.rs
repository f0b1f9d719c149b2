//! `--deny-loss` levels × report entry kinds: every case input of `tests/cases` converted to
//! every writable format (plain, and strict where the target has a strict mode), every entry
//! judged by every level against the rules docs/formats/README.md states ("Denying losses"),
//! and the conversion denied exactly when an entry is; then the binary, which exits 3 and
//! writes nothing for a denied input.

#[path = "common/bin.rs"]
mod bin;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use tooladapter::formats::builtins;
use tooladapter::ir::Keyword;
use tooladapter::{
    Code, Converter, DenyLoss, Effect, Options, ReportEntry, Severity, Strict, formats,
};

/// What docs/formats/README.md says each level denies, written from its tables (not from the
/// crate's code): `any` every warning and error and the `info` entries that drop something of
/// the tools; `arguments` an effect other than `none`; `widens`/`narrows` their effects. An
/// error is denied by all.
fn documented(level: DenyLoss, e: &ReportEntry) -> bool {
    if e.severity == Severity::Error {
        return true;
    }
    match level {
        DenyLoss::Any => e.severity == Severity::Warning || info_not_carried(e),
        DenyLoss::Arguments => e.effect != Effect::None,
        DenyLoss::Widens => matches!(e.effect, Effect::Widens | Effect::Changes),
        DenyLoss::Narrows => matches!(e.effect, Effect::Narrows | Effect::Changes),
        other => panic!("a level the docs do not describe: {other}"),
    }
}

/// The documented table of `info` entries `any` counts.
fn info_not_carried(e: &ReportEntry) -> bool {
    match e.code {
        Code::MetadataDropped | Code::OutputSchemaDropped | Code::Superseded => true,
        Code::KeywordDropped => {
            let kw = Keyword::from_key(&e.feature);
            kw == Keyword::Unknown || kw.is_annotation()
        }
        _ => false,
    }
}

/// Every case input (`tests/cases/**/*.json` with an `input`), with its source format.
fn case_inputs() -> Vec<(String, String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut out = Vec::new();
    let mut areas: Vec<_> = std::fs::read_dir(&root).expect("cases").flatten().collect();
    areas.sort_by_key(|e| e.path());
    for area in areas {
        let mut files: Vec<_> = std::fs::read_dir(area.path()).expect("area").flatten().collect();
        files.sort_by_key(|e| e.path());
        for f in files {
            let case: Value =
                serde_json::from_slice(&std::fs::read(f.path()).expect("read")).expect("case json");
            let (Some(input), Some(from)) = (case.get("input"), case["from"].as_str()) else {
                continue;
            };
            let name = f.path().display().to_string();
            out.push((name, from.to_owned(), serde_json::to_vec(input).expect("json")));
        }
    }
    assert!(out.len() > 50, "{}", out.len());
    out
}

/// (severity, code, whether `info` and `any` differ) kinds a matrix must meet, so the levels
/// are tried on each kind the table names.
fn kind(e: &ReportEntry) -> String {
    match e.severity {
        Severity::Info => format!("info {} {}", e.code, info_not_carried(e)),
        s => format!("{s} {}", e.effect),
    }
}

#[test]
fn every_level_denies_what_the_docs_say_for_every_entry_kind() {
    let mut converter = Converter::new();
    let mut seen = BTreeSet::new();
    let mut conversions = 0;
    for (name, from, input) in case_inputs() {
        let source = builtins().iter().copied().find(|a| a.name() == from).expect("format");
        for target in builtins().iter().copied().filter(|a| a.info().writes) {
            let mut runs = vec![Options::default()];
            if target.info().holds_strict() {
                runs.push(Options::default().strict(Strict::On));
            }
            for options in runs {
                let Ok(c) = converter.convert(&input, source, target, &options) else {
                    continue;
                };
                let report = c.report().clone();
                let entries = report.entries().to_vec();
                conversions += 1;
                for level in DenyLoss::ALL {
                    let what = format!("{name}: {from} → {} under {level}", target.name());
                    for e in &entries {
                        assert_eq!(level.denies(e), documented(level, e), "{what}: {e}");
                        assert_eq!(e.not_carried(), documented(DenyLoss::Any, e), "{what}: {e}");
                    }
                    let any = entries.iter().any(|e| documented(level, e));
                    assert_eq!(report.denied(level), any, "{what}");
                    let denying = options.clone().deny_loss(level);
                    let again = converter.convert(&input, source, target, &denying).expect("same");
                    assert_eq!(again.loss_denied(), any, "{what}");
                }
                // The levels nest: what `arguments` denies `any` does; `widens` and
                // `narrows` are parts of `arguments`.
                for e in &entries {
                    seen.insert(kind(e));
                    let denied = |l: DenyLoss| l.denies(e);
                    assert!(!denied(DenyLoss::Arguments) || denied(DenyLoss::Any), "{e}");
                    assert!(!denied(DenyLoss::Widens) || denied(DenyLoss::Arguments), "{e}");
                    assert!(!denied(DenyLoss::Narrows) || denied(DenyLoss::Arguments), "{e}");
                }
            }
        }
    }
    assert!(conversions > 500, "{conversions}");
    // Every kind the documented table names was met.
    for wanted in [
        "info metadata-dropped true",
        "info output-schema-dropped true",
        "info keyword-dropped true",
        "info keyword-dropped false",
        "info keyword-described false",
        "info combinator-rewritten false",
        "info tool-renamed false",
        "info catalog-member-dropped false",
        "warning none",
        "warning narrows",
        "warning widens",
        "warning changes",
        "error narrows",
    ] {
        assert!(seen.contains(wanted), "no entry of kind {wanted:?}: {seen:?}");
    }
}

/// The issue's case: an MCP tool's `outputSchema` has no place in OpenAI (an `info` entry).
/// `--deny-loss` (`any`) refuses it, `arguments`, `widens` and `narrows` let it through; a
/// denied run writes nothing and its summary says so.
#[test]
fn an_output_schema_dropped_is_a_loss_for_any_and_not_for_arguments() {
    let tool = br#"{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{}},"outputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object","properties":{}}}]}"#;
    let c = Converter::new()
        .convert(tool, &formats::Mcp, &formats::OpenAi, &Options::default())
        .expect("converts")
        .clone();
    let dropped: Vec<_> = c.report().entries().iter().map(|e| (e.severity, e.code)).collect();
    assert_eq!(dropped, [(Severity::Info, Code::OutputSchemaDropped)]);
    for (flag, code) in [
        ("--deny-loss", 3),
        ("--deny-loss=any", 3),
        ("--deny-loss=arguments", 0),
        ("--deny-loss=widens", 0),
        ("--deny-loss=narrows", 0),
    ] {
        let (got, out, err) = bin::run(&["convert", "--from", "mcp", "--to", "openai", flag], tool);
        assert_eq!(got, code, "{flag}: {err}");
        assert_eq!(out.is_empty(), code == 3, "{flag}");
        let summary = err.lines().last().unwrap_or_default();
        if code == 3 {
            assert!(summary.starts_with("summary: 0 tools written"), "{flag}: {summary}");
            assert!(summary.contains("2 not written"), "{flag}: {summary}");
        } else {
            assert!(summary.starts_with("summary: 2 tools written"), "{flag}: {summary}");
        }
    }
    let (_, _, help) = bin::run(&["convert", "--help"], b"");
    assert!(help.is_empty());
    let (_, help, _) = bin::run(&["convert", "--help"], b"");
    let help = String::from_utf8_lossy(&help);
    assert!(help.contains("possible values: any, arguments, widens, narrows"), "{help}");
}
