//! Semantic differential, read in place from the corpus: what each conversion does to the calls
//! a tool accepts, seen on instances, against what its report declares.
//!
//! Four sets of tools: the JSON Schema Test Suite, draft 2020-12 and draft-07 (each schema
//! wrapped as property `x` of an MCP tool's input schema, the draft-07 one under a draft-07
//! `$schema`; instances are the suite's own `{"x": data}` plus generated ones), every tool of
//! the corpus MCP catalogs and every BFCL function (read as `openai`; its source schema is
//! BFCL's type names as JSON Schema's) (instances generated from the input schema by
//! `common::instances`: values meant to be valid plus one mutation per constraint, seeded by the
//! tool's place). Each tool is converted to every target, the strict ones plain and with
//! `Strict::On`, and each instance is validated against the source schema (the `jsonschema`
//! crate, the draft its `$schema` names, 2020-12 otherwise) and the converted one.
//!
//! The target is judged through the inverse map, as the report's effects are: an instance in the
//! source's terms is written in the target's (renamed keys; in strict mode a `null` for each
//! widened member it leaves out), and the target accepts it when one such writing is valid and
//! maps back through the conversion's own `Inverse::unmap` to exactly the instance (an explicit
//! `null` the map would drop has no writing: the target cannot take it).
//!
//! Per tool: a verdict that changes while no entry declares an effect is a silent change; an
//! instance the source accepts and the target refuses needs an entry that `narrows` (or
//! `changes`), one the source refuses and the target accepts an entry that `widens` (or
//! `changes`); else the declared effect contradicts the instances. Both fail the test.
//!
//! Skipped, as the issue allows: remote refs, `$dynamicRef`/`$anchor`/`$id` (and their files),
//! and `format` (an annotation to the validator). Gemini `parameters` output is read back
//! through the crate's own `gemini` reader (into OpenAI's JSON Schema) to be validated. A2A
//! writes no input schema, so it has nothing to judge.
#![cfg(feature = "corpus")]

mod common;

use std::path::PathBuf;

use indexmap::IndexMap;
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use tooladapter::inverse::ArgNode;
use tooladapter::{Effect, Options, Registry, Severity, Strict};

/// Every target with an input schema, and whether strict mode is asked: each such built-in
/// format plain, then each with a strict mode strict (from `formats::infos()`, so a new format
/// is judged without an edit here).
fn targets() -> Vec<(&'static str, bool)> {
    let schemas: Vec<_> =
        tooladapter::formats::infos().filter(|f| f.writes && f.holds_input_schema).collect();
    let plain = schemas.iter().map(|f| (f.name, false));
    plain.chain(schemas.iter().filter(|f| f.holds_strict()).map(|f| (f.name, true))).collect()
}
const SKIP_FILES: [&str; 4] = ["refRemote.json", "dynamicRef.json", "anchor.json", "format.json"];
const SKIP_KEYS: [&str; 5] = ["$dynamicRef", "$anchor", "$id", "$dynamicAnchor", "format"];
const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";
/// Generator runs per tool (each its own seed).
const SEEDS: u64 = 4;
/// Writings of one instance tried in the target's terms (one per `anyOf` branch of the map).
const MAX_WRITINGS: usize = 16;

/// One tool to judge: its MCP form and the instances of its arguments.
struct Case {
    label: String,
    /// The source format (`mcp`, or `openai` for BFCL's functions).
    from: &'static str,
    tool: Vec<u8>,
    schema: Value,
    instances: Vec<Value>,
    /// Which of `instances` the generator meant to be valid.
    meant: std::ops::Range<usize>,
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

/// A validator for `schema` in the draft its `$schema` names (2020-12 when it names none).
fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    let draft7 =
        schema.get("$schema").and_then(Value::as_str).is_some_and(|s| s.contains("draft-07"));
    let built =
        if draft7 { jsonschema::draft7::new(schema) } else { jsonschema::validator_for(schema) };
    built.map_err(|e| e.to_string())
}

/// The JSON Schema Test Suite's groups of one draft, as cases.
fn suite(draft: &str) -> Vec<Case> {
    let dir = common::corpus().join("json-schema-test-suite/tests").join(draft);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the JSON Schema Test Suite in the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| !SKIP_FILES.iter().any(|s| p.ends_with(s)))
        .collect();
    files.sort();
    assert!(files.len() > 30, "{draft}: suite files: {}", files.len());
    let mut cases = Vec::new();
    for file in &files {
        let groups: Value =
            serde_json::from_slice(&std::fs::read(file).expect("read")).expect("json");
        for group in groups.as_array().expect("groups") {
            let schema = &group["schema"];
            if skipped(schema) {
                continue;
            }
            let mut input =
                json!({"type": "object", "properties": {"x": relocate(schema)}, "required": ["x"]});
            if draft == "draft7" {
                input = json!({"$schema": DRAFT7, "type": "object",
                    "properties": {"x": relocate(schema)}, "required": ["x"]});
            }
            let label = format!(
                "{draft}/{} / {}",
                file.file_name().and_then(|n| n.to_str()).unwrap_or_default(),
                group["description"].as_str().unwrap_or_default()
            );
            let mut instances: Vec<Value> = group["tests"]
                .as_array()
                .expect("tests")
                .iter()
                .map(|t| json!({"x": t["data"]}))
                .collect();
            let made = common::instances::instances_from(&input, cases.len() as u64, SEEDS);
            let meant = instances.len()..instances.len() + made.valid.len();
            instances.extend(made.all().cloned());
            let tool =
                serde_json::to_vec(&json!({"name": "t", "inputSchema": input})).expect("json");
            cases.push(Case { label, from: "mcp", tool, schema: input, instances, meant });
        }
    }
    cases
}

/// Every tool of every corpus MCP catalog, as cases.
fn corpus_tools() -> Vec<Case> {
    let mut cases = Vec::new();
    for (path, bytes) in common::catalogs() {
        let doc: Value = serde_json::from_slice(&bytes).expect("json");
        let file = path.rsplit('/').next().unwrap_or_default().to_owned();
        for tool in doc["tools"].as_array().expect("tools") {
            let schema = tool.get("inputSchema").cloned().unwrap_or_else(|| json!({}));
            let (instances, meant) = argument_instances(&schema, cases.len() as u64);
            cases.push(Case {
                label: format!("{file} / {}", tool["name"].as_str().unwrap_or_default()),
                from: "mcp",
                tool: serde_json::to_vec(tool).expect("json"),
                schema,
                instances,
                meant,
            });
        }
    }
    cases
}

/// The instances of a tool whose input schema is `schema`: `{}` and one undeclared member (an
/// open root taking any key is what strict mode closes), then the generated objects (arguments
/// are an object); and which of them the generator meant to be valid.
fn argument_instances(schema: &Value, seed: u64) -> (Vec<Value>, std::ops::Range<usize>) {
    let made = common::instances::instances_from(schema, seed, SEEDS);
    let mut instances = vec![json!({}), json!({"zz_extra": "extra"})];
    let mut meant = instances.len()..instances.len();
    for v in made.all() {
        if v.is_object() && !instances.contains(v) {
            instances.push(v.clone());
            meant.end += usize::from(made.valid.contains(v));
        }
    }
    (instances, meant)
}

/// BFCL's type names as JSON Schema (`dict`, `float`, `tuple`; `any` is no type), or `None`
/// for a name of another language (Java, JavaScript), which the differential does not judge.
fn bfcl_schema(v: &Value) -> Option<Value> {
    Some(match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                if k == "type" {
                    match x.as_str() {
                        Some("dict") => out.insert(k.clone(), json!("object")),
                        Some("float") => out.insert(k.clone(), json!("number")),
                        Some("tuple") => out.insert(k.clone(), json!("array")),
                        Some("any") => None,
                        Some(
                            "string" | "integer" | "number" | "boolean" | "array" | "object"
                            | "null",
                        ) => out.insert(k.clone(), x.clone()),
                        _ => return None,
                    };
                } else if k == "properties" {
                    let mut props = Map::new();
                    for (name, p) in x.as_object()? {
                        props.insert(name.clone(), bfcl_schema(p)?);
                    }
                    out.insert(k.clone(), Value::Object(props));
                } else {
                    out.insert(
                        k.clone(),
                        if matches!(k.as_str(), "items" | "additionalProperties") {
                            bfcl_schema(x)?
                        } else {
                            x.clone()
                        },
                    );
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    })
}

/// Every BFCL function (OpenAI's legacy bare function objects in BFCL's type dialect) whose
/// types all have a JSON Schema name, as cases; and how many were left aside.
fn bfcl_functions() -> (Vec<Case>, usize) {
    let files = common::bfcl_files();
    let (mut cases, mut aside) = (Vec::new(), 0);
    for p in files {
        let text = std::fs::read_to_string(&p).expect("read");
        let file = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        for (line, text) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(text).expect("json line");
            let functions = match v.get("function").and_then(Value::as_array) {
                Some(list) => list.clone(),
                None => vec![v],
            };
            for f in functions {
                let Some(schema) = f.get("parameters").map_or(Some(json!({})), bfcl_schema) else {
                    aside += 1;
                    continue;
                };
                let (instances, meant) = argument_instances(&schema, cases.len() as u64);
                cases.push(Case {
                    label: format!(
                        "{file}:{} / {}",
                        line + 1,
                        f["name"].as_str().unwrap_or_default()
                    ),
                    from: "openai",
                    tool: serde_json::to_vec(&f).expect("json"),
                    schema,
                    instances,
                    meant,
                });
            }
        }
    }
    (cases, aside)
}

/// `v`, a value in the source's terms, written in the target's, every way the map allows: keys
/// renamed as the target renamed them, and in strict mode a `null` for each widened member left
/// out. The caller keeps the writings the inverse map takes back to `v`.
fn forward(
    v: &Value,
    node: &ArgNode,
    defs: &IndexMap<String, ArgNode>,
    depth: usize,
) -> Vec<Value> {
    if depth > 32 {
        return vec![v.clone()];
    }
    let mut writings = vec![v.clone()];
    if let Some(d) = node.reference.as_ref().and_then(|r| defs.get(r)) {
        writings = writings.iter().flat_map(|w| forward(w, d, defs, depth + 1)).collect();
    }
    if !node.any_of.is_empty() {
        writings = writings
            .iter()
            .flat_map(|w| {
                std::iter::once(w.clone())
                    .chain(node.any_of.iter().flat_map(|b| forward(w, b, defs, depth + 1)))
            })
            .take(MAX_WRITINGS)
            .collect();
    }
    writings.iter().flat_map(|w| members(w, node, defs, depth)).take(MAX_WRITINGS).collect()
}

/// [`forward`] of `node`'s own members and items.
fn members(
    v: &Value,
    node: &ArgNode,
    defs: &IndexMap<String, ArgNode>,
    depth: usize,
) -> Vec<Value> {
    match v {
        Value::Object(m) if !node.properties.is_empty() => {
            let mut outs = vec![Map::new()];
            for (k, val) in m {
                let prop = node
                    .properties
                    .iter()
                    .find(|(_, p)| p.source.as_deref() == Some(k.as_str()))
                    .or_else(|| {
                        node.properties
                            .get_key_value(k.as_str())
                            .filter(|(_, p)| p.source.is_none())
                    });
                let (name, values) = match prop {
                    Some((target, p)) => (
                        target.clone(),
                        p.value.as_ref().map_or_else(
                            || vec![val.clone()],
                            |n| forward(val, n, defs, depth + 1),
                        ),
                    ),
                    None => (k.clone(), vec![val.clone()]),
                };
                outs = outs
                    .iter()
                    .flat_map(|o| {
                        values.iter().map(|x| {
                            let mut o = o.clone();
                            o.insert(name.clone(), x.clone());
                            o
                        })
                    })
                    .take(MAX_WRITINGS)
                    .collect();
            }
            for (target, p) in &node.properties {
                let source = p.source.as_deref().unwrap_or(target);
                if p.drop_null && !m.contains_key(source) {
                    for o in &mut outs {
                        o.insert(target.clone(), Value::Null);
                    }
                }
            }
            outs.into_iter().map(Value::Object).collect()
        }
        Value::Array(a) => match &node.items {
            Some(items) => {
                let mut outs = vec![Vec::new()];
                for x in a {
                    let values = forward(x, items, defs, depth + 1);
                    outs = outs
                        .iter()
                        .flat_map(|o| {
                            values.iter().map(|x| {
                                let mut o = o.clone();
                                o.push(x.clone());
                                o
                            })
                        })
                        .take(MAX_WRITINGS)
                        .collect();
                }
                outs.into_iter().map(Value::Array).collect()
            }
            None => vec![v.clone()],
        },
        other => vec![other.clone()],
    }
}

/// What one conversion of one tool showed.
enum Outcome {
    /// The conversion failed, or left the tool out (an `error` entry, effect `narrows`).
    Refused,
    /// The converted schema could not be read or built: a defect of its own.
    Broken(String),
    Judged(Judged),
}

#[derive(Default)]
struct Judged {
    instances: usize,
    source_valid: usize,
    meant: usize,
    meant_valid: usize,
    /// Whether the target refused a generated valid value the source accepts (no undeclared
    /// member in it: strict mode's closing does not explain it, a missing `null` would).
    meant_refused: bool,
    /// The first instance the source accepts and the target refuses.
    narrowed: Option<Value>,
    /// The first instance the source refuses and the target accepts.
    widened: Option<Value>,
    declared: Effect,
    warned: bool,
    /// The report's entries about the arguments with an effect, as `code effect pointer`.
    entries: Vec<String>,
}

fn judge(
    r: &Registry,
    case: &Case,
    source: &jsonschema::Validator,
    to: &str,
    strict: bool,
) -> Outcome {
    let options = if strict { Options::default().strict(Strict::On) } else { Options::default() };
    let Ok(conversion) = r.convert_with(&case.tool, case.from, to, &options) else {
        return Outcome::Refused;
    };
    let entries = conversion.report().entries();
    if entries.iter().any(|e| e.severity == Severity::Error) {
        return Outcome::Refused;
    }
    let converted = match common::converted_schema(r, to, conversion.output()) {
        Some(c) => c,
        // A Gemini declaration (Vertex AI's too) without `parameters` is a function that takes
        // no arguments.
        None if matches!(to, "gemini" | "vertex")
            && !conversion.output_str().contains("\"parameters\"") =>
        {
            json!({"type": "object", "additionalProperties": false})
        }
        None => {
            return Outcome::Broken(format!("no input schema in {}", conversion.output_str()));
        }
    };
    let target = match validator(&converted) {
        Ok(v) => v,
        Err(e) => {
            return Outcome::Broken(format!("output schema does not build: {e}: {converted}"));
        }
    };
    let mut j = Judged {
        declared: entries.iter().filter(|e| e.arguments).fold(Effect::None, |a, e| a.and(e.effect)),
        warned: entries.iter().any(|e| e.arguments && e.severity >= Severity::Warning),
        entries: entries
            .iter()
            .filter(|e| e.arguments && e.effect != Effect::None)
            .map(|e| format!("{} {} {}", e.code, e.effect, e.pointer))
            .collect(),
        ..Judged::default()
    };
    let inverse = conversion.inverse();
    let map = inverse.tools.first();
    for (i, s) in case.instances.iter().enumerate() {
        let by_source = source.is_valid(s);
        let by_target = match map {
            None => target.is_valid(s),
            Some(t) => {
                let writings = match &t.arguments {
                    Some(a) => forward(s, &a.root, &a.defs, 0),
                    None => vec![s.clone()],
                };
                writings
                    .into_iter()
                    .any(|w| target.is_valid(&w) && inverse.unmap(&t.name, w).1 == *s)
            }
        };
        j.instances += 1;
        j.source_valid += usize::from(by_source);
        if case.meant.contains(&i) {
            j.meant += 1;
            j.meant_valid += usize::from(by_source);
        }
        if by_source && !by_target && j.narrowed.is_none() {
            j.narrowed = Some(s.clone());
        }
        j.meant_refused |= by_source && !by_target && case.meant.contains(&i);
        if !by_source && by_target && j.widened.is_none() {
            j.widened = Some(s.clone());
        }
    }
    Outcome::Judged(j)
}

/// Per target: what the differential saw.
#[derive(Default)]
struct Tally {
    tools: usize,
    refused: usize,
    judged: usize,
    instances: usize,
    source_valid: usize,
    changed: usize,
    narrowed: usize,
    widened: usize,
    warned_unchanged: usize,
    /// Generated values meant to be valid, and how many the source accepts.
    meant: usize,
    meant_valid: usize,
    /// Tools whose target refused a generated valid value.
    meant_refused: usize,
    /// (tool, what the instances and entries show), per kind of failure.
    silent: Vec<(String, String)>,
    contradicts: Vec<(String, String)>,
    broken: Vec<String>,
}

/// Converts every case to every target and tallies per target; prints the table.
fn run(title: &str, cases: &[Case]) -> Vec<Tally> {
    let r = Registry::default();
    let targets = targets();
    let results: Vec<Result<Vec<Outcome>, String>> = cases
        .par_iter()
        .map(|case| {
            let source = validator(&case.schema)?;
            Ok(targets.iter().map(|(to, strict)| judge(&r, case, &source, to, *strict)).collect())
        })
        .collect();
    let mut tallies: Vec<Tally> = targets.iter().map(|_| Tally::default()).collect();
    let mut unbuilt = 0;
    for (case, outcomes) in cases.iter().zip(results) {
        let outcomes = match outcomes {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{}: the source schema does not build: {e}", case.label);
                unbuilt += 1;
                continue;
            }
        };
        for ((to, strict), (t, o)) in targets.iter().zip(tallies.iter_mut().zip(outcomes)) {
            t.tools += 1;
            let j = match o {
                Outcome::Refused => {
                    t.refused += 1;
                    continue;
                }
                Outcome::Broken(why) => {
                    t.broken.push(format!("{}: {why}", case.label));
                    continue;
                }
                Outcome::Judged(j) => j,
            };
            t.judged += 1;
            t.instances += j.instances;
            t.meant += j.meant;
            t.meant_valid += j.meant_valid;
            t.meant_refused += usize::from(j.meant_refused);
            t.source_valid += j.source_valid;
            let changed = j.narrowed.is_some() || j.widened.is_some();
            t.changed += usize::from(changed);
            t.narrowed += usize::from(j.narrowed.is_some());
            t.widened += usize::from(j.widened.is_some());
            t.warned_unchanged += usize::from(j.warned && !changed);
            let at = format!(
                "{} → {to}{}: narrowed by {} widened by {}; entries [{}]",
                case.label,
                if *strict { " --strict" } else { "" },
                j.narrowed.as_ref().map_or_else(|| "-".to_owned(), Value::to_string),
                j.widened.as_ref().map_or_else(|| "-".to_owned(), Value::to_string),
                j.entries.join("; ")
            );
            if changed && j.declared == Effect::None {
                t.silent.push((case.label.clone(), at));
            } else if (j.narrowed.is_some() && !j.declared.narrows())
                || (j.widened.is_some() && !j.declared.widens())
            {
                t.contradicts.push((case.label.clone(), at));
            }
        }
    }
    eprintln!(
        "\n{title}: {} tools ({unbuilt} whose source schema does not build, not judged)",
        cases.len()
    );
    let t = &tallies[0];
    eprintln!(
        "generated values meant to be valid: {} of {} valid for the source",
        t.meant_valid, t.meant
    );
    eprintln!(
        "{:<26}{:>7}{:>8}{:>8}{:>10}{:>8}{:>8}{:>8}{:>8}{:>9}{:>8}{:>8}{:>8}",
        "target",
        "tools",
        "refused",
        "judged",
        "instances",
        "valid",
        "changed",
        "narrow",
        "widen",
        "valid-x",
        "warned=",
        "silent",
        "contra"
    );
    for ((to, strict), t) in targets.iter().zip(&tallies) {
        let name = format!("{to}{}", if *strict { " --strict" } else { "" });
        eprintln!(
            "{name:<26}{:>7}{:>8}{:>8}{:>10}{:>7.1}%{:>8}{:>8}{:>8}{:>8}{:>9}{:>8}{:>8}",
            t.tools,
            t.refused,
            t.judged,
            t.instances,
            100.0 * t.source_valid as f64 / t.instances.max(1) as f64,
            t.changed,
            t.narrowed,
            t.widened,
            t.meant_refused,
            t.warned_unchanged,
            t.silent.len(),
            t.contradicts.len()
        );
    }
    tallies
}

/// Fails on any silent change, contradiction or broken output, listing a few of each.
fn assert_clean(title: &str, tallies: &[Tally], from_mcp: bool) {
    let mut failures = Vec::new();
    for ((to, strict), t) in targets().iter().zip(tallies) {
        let name = format!("{to}{}", if *strict { " --strict" } else { "" });
        for (kind, list) in [("silent", &t.silent), ("contradicts", &t.contradicts)] {
            let new: Vec<&String> = list.iter().map(|(_, at)| at).collect();
            if !new.is_empty() {
                failures.push(format!(
                    "{title} {name}: {} {kind}, e.g.\n  {}",
                    new.len(),
                    new.iter().take(6).map(|s| s.as_str()).collect::<Vec<_>>().join("\n  ")
                ));
            }
        }
        if !t.broken.is_empty() {
            failures.push(format!(
                "{title} {name}: {} broken outputs, e.g.\n  {}",
                t.broken.len(),
                t.broken.iter().take(6).cloned().collect::<Vec<_>>().join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let mcp = &tallies[0];
    assert!(!from_mcp || mcp.changed == 0, "{title}: MCP → MCP keeps every verdict");
    assert_eq!(mcp.refused, 0, "{title}: MCP → MCP refuses nothing");
}

#[test]
fn suite_draft2020_12() {
    let cases = suite("draft2020-12");
    let tallies = run("JSON Schema Test Suite, draft 2020-12", &cases);
    assert_clean("draft2020-12", &tallies, true);
}

#[test]
fn suite_draft7() {
    let cases = suite("draft7");
    let tallies = run("JSON Schema Test Suite, draft-07", &cases);
    assert_clean("draft7", &tallies, true);
}

#[test]
fn corpus_mcp_tools() {
    let cases = corpus_tools();
    assert!(cases.len() > 1000, "corpus tools: {}", cases.len());
    let tallies = run("corpus MCP tools", &cases);
    // The instances reach the constraints: the generator's valid values are valid, and strict
    // mode's closing of objects (an `object-closed` entry per tool) shows on most tools.
    let t = &tallies[0];
    assert!(t.meant_valid * 100 >= t.meant * 95, "{} of {}", t.meant_valid, t.meant);
    let at = targets().iter().position(|t| *t == ("openai", true)).expect("openai --strict");
    let strict = &tallies[at];
    assert!(strict.narrowed * 2 > strict.judged, "{} of {}", strict.narrowed, strict.judged);
    assert_clean("corpus", &tallies, true);
}

#[test]
fn bfcl_functions_from_openai() {
    let (cases, aside) = bfcl_functions();
    eprintln!("BFCL: {aside} functions with a Java or JavaScript type name not judged");
    assert!(cases.len() > 8000, "BFCL functions: {}", cases.len());
    let tallies = run("BFCL functions (from openai)", &cases);
    let t = &tallies[0];
    assert!(t.meant_valid * 100 >= t.meant * 95, "{} of {}", t.meant_valid, t.meant);
    assert_clean("bfcl", &tallies, false);
}
