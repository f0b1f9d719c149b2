//! Semantic differential over the JSON Schema Test Suite (draft 2020-12), read in place from
//! the corpus: every schema, wrapped as property `x` of an MCP tool's input schema, is
//! converted to every target; each test instance `{"x": data}` is validated against the
//! source and the converted schema (the `jsonschema` crate), the instance written in the
//! target's names first (the keys the inverse map restores, renamed as the target renamed
//! them: the report's effects are judged through the inverse map). A verdict that changes
//! while the tool's report holds no warning or error is a silent change, and fails the test.
//!
//! Skipped, as the issue allows: remote refs, `$dynamicRef`/`$anchor`/`$id` (and their files),
//! and `format`. Gemini `parameters` output is read back through the crate's own `gemini`
//! reader (into OpenAI's JSON Schema, which keeps every keyword) to be validated.
#![cfg(feature = "corpus")]

mod common;

use std::path::PathBuf;

use serde_json::{Value, json};
use tooladapter::inverse::ArgNode;
use tooladapter::{Registry, Severity};

const TARGETS: [&str; 7] =
    ["mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini", "gemini-json"];
const SKIP_FILES: [&str; 4] = ["refRemote.json", "dynamicRef.json", "anchor.json", "format.json"];
const SKIP_KEYS: [&str; 5] = ["$dynamicRef", "$anchor", "$id", "$dynamicAnchor", "format"];

fn suite() -> PathBuf {
    let dir = std::env::var_os("TOOLADAPTER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    dir.join("json-schema-test-suite/tests/draft2020-12")
}

/// Whether the schema uses a key the differential skips, or a remote `$ref`.
fn skipped(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| {
            SKIP_KEYS.contains(&k.as_str())
                || (k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#')))
                || skipped(v)
        }),
        Value::Array(a) => a.iter().any(skipped),
        _ => false,
    }
}

/// The schema moved under `/properties/x`: its local refs follow it.
fn relocate(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| match (k.as_str(), v.as_str()) {
                    ("$ref", Some(r)) if r.starts_with('#') => {
                        (k.clone(), Value::String(format!("#/properties/x{}", &r[1..])))
                    }
                    _ => (k.clone(), relocate(v)),
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(relocate).collect()),
        other => other.clone(),
    }
}

/// `v`, a value in the source's names, in the target's: every key `node` says was renamed
/// takes its target name (the inverse map read forwards), in objects and array items.
fn forward(v: &Value, node: &ArgNode) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let renamed = node
                        .properties
                        .iter()
                        .find(|(_, p)| p.source.as_deref() == Some(k.as_str()))
                        .or_else(|| node.properties.get_key_value(k.as_str()));
                    match renamed {
                        Some((target, p)) => {
                            let value =
                                p.value.as_ref().map_or_else(|| v.clone(), |n| forward(v, n));
                            (target.clone(), value)
                        }
                        None => (k.clone(), v.clone()),
                    }
                })
                .collect(),
        ),
        Value::Array(a) => match &node.items {
            Some(items) => Value::Array(a.iter().map(|v| forward(v, items)).collect()),
            None => v.clone(),
        },
        other => other.clone(),
    }
}

#[derive(Default, Debug)]
struct Tally {
    schemas: usize,
    refused: usize,
    verdicts: usize,
    kept: usize,
    changed_reported: usize,
    silent: Vec<String>,
}

#[test]
fn no_verdict_changes_without_a_report_entry() {
    let r = Registry::default();
    let mut files: Vec<_> = std::fs::read_dir(suite())
        .expect("the JSON Schema Test Suite in the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| !SKIP_FILES.iter().any(|s| p.ends_with(s)))
        .collect();
    files.sort();
    assert!(files.len() > 30, "suite files: {}", files.len());
    let mut tallies: Vec<(&str, Tally)> = TARGETS.iter().map(|t| (*t, Tally::default())).collect();
    let mut skipped_groups = 0;
    for file in &files {
        let groups: Value =
            serde_json::from_slice(&std::fs::read(file).expect("read")).expect("json");
        for group in groups.as_array().expect("groups") {
            let schema = &group["schema"];
            if skipped(schema) {
                skipped_groups += 1;
                continue;
            }
            let input =
                json!({"type": "object", "properties": {"x": relocate(schema)}, "required": ["x"]});
            let Ok(source) = jsonschema::draft202012::new(&input) else {
                skipped_groups += 1;
                continue;
            };
            let tool = json!({"name": "t", "inputSchema": input});
            let bytes = serde_json::to_vec(&tool).expect("json");
            let label = format!(
                "{} / {}",
                file.file_name().and_then(|n| n.to_str()).unwrap_or_default(),
                group["description"].as_str().unwrap_or_default()
            );
            for (target, tally) in &mut tallies {
                tally.schemas += 1;
                let conversion = match r.convert(&bytes, "mcp", *target) {
                    Ok(c) => c,
                    Err(_) => {
                        tally.refused += 1;
                        continue;
                    }
                };
                let reported =
                    conversion.report().entries().iter().any(|e| e.severity >= Severity::Warning);
                let converted = common::converted_schema(&r, target, conversion.output())
                    .unwrap_or_else(|| panic!("{target}: {label}: no input schema in the output"));
                let validator = jsonschema::draft202012::new(&converted).unwrap_or_else(|e| {
                    panic!("{target}: {label}: output schema does not build: {e}\n{converted}")
                });
                let names = conversion.inverse().tools.first().and_then(|t| t.arguments.as_ref());
                for test in group["tests"].as_array().expect("tests") {
                    let instance = json!({"x": test["data"]});
                    let written =
                        names.map_or_else(|| instance.clone(), |m| forward(&instance, &m.root));
                    tally.verdicts += 1;
                    if source.is_valid(&instance) == validator.is_valid(&written) {
                        tally.kept += 1;
                    } else if reported {
                        tally.changed_reported += 1;
                    } else {
                        tally.silent.push(format!(
                            "{label} / {}: {}",
                            test["description"].as_str().unwrap_or_default(),
                            converted
                        ));
                    }
                }
            }
        }
    }
    eprintln!("skipped groups: {skipped_groups}");
    eprintln!(
        "{:<18}{:>9}{:>9}{:>10}{:>8}{:>10}{:>8}",
        "target", "schemas", "refused", "verdicts", "kept", "reported", "silent"
    );
    for (t, y) in &tallies {
        eprintln!(
            "{t:<18}{:>9}{:>9}{:>10}{:>7.1}%{:>10}{:>8}",
            y.schemas,
            y.refused,
            y.verdicts,
            100.0 * y.kept as f64 / y.verdicts.max(1) as f64,
            y.changed_reported,
            y.silent.len()
        );
    }
    for (t, y) in &tallies {
        assert!(
            y.silent.is_empty(),
            "{t}: {} silent changes, e.g.\n{}",
            y.silent.len(),
            y.silent.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
        );
    }
    let (_, mcp) = &tallies[0];
    assert_eq!(mcp.kept, mcp.verdicts, "MCP → MCP keeps every verdict");
    assert_eq!(mcp.refused, 0);
}
