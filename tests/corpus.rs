//! The corpus suite: real public catalogs and provider payloads, read in place from
//! `TOOLADAPTER_CORPUS` (default `../shared/corpus`). Run with `cargo test --features corpus`.
#![cfg(feature = "corpus")]

mod common;

use common::{catalogs, corpus, same};

use serde_json::Value;
use tooladapter::{Code, Effect, Options, Registry, Severity, Strict};

#[test]
fn every_catalog_round_trips_mcp_to_mcp() {
    let r = Registry::default();
    let all = catalogs();
    assert_eq!(all.len(), 116);
    for (name, bytes) in all {
        let out = r.convert(&bytes, "mcp", "mcp").unwrap_or_else(|e| panic!("{name}: {e}"));
        let a: Value = serde_json::from_slice(&bytes).expect("json");
        let b: Value = serde_json::from_slice(out.output()).expect("json");
        assert!(same(&a, &b), "{name} changed");
        assert!(out.report().is_empty(), "{name}: {:?}", out.report());
    }
}

#[test]
fn every_catalog_converts_keeping_every_tool() {
    let r = Registry::default();
    for (name, bytes) in catalogs() {
        let src: Value = serde_json::from_slice(&bytes).expect("json");
        let tools = src["tools"].as_array().expect("tools");
        for to in ["openai", "openai-responses", "anthropic"] {
            let out = r.convert(&bytes, "mcp", to).unwrap_or_else(|e| panic!("{name} → {to}: {e}"));
            let v: Value = serde_json::from_slice(out.output()).expect("json");
            let list = v.as_array().expect("array");
            assert_eq!(list.len(), tools.len(), "{name} → {to}");
            for (s, t) in tools.iter().zip(list) {
                let f = if to == "openai" { &t["function"] } else { t };
                // A name the provider rejects is renamed; the inverse map gives it back.
                let written = f["name"].as_str().expect("name");
                let source = out.inverse().tool(written).map_or(written, |t| &t.source_name);
                assert_eq!(source, s["name"], "{name} → {to}");
                let desc =
                    if s["description"].is_null() { Value::Null } else { s["description"].clone() };
                assert_eq!(f["description"], desc, "{name} → {to}");
                let schema = if to == "anthropic" { &f["input_schema"] } else { &f["parameters"] };
                assert_eq!(schema["type"], "object", "{name} → {to}: {}", f["name"]);
                // Valid against the 2020-12 meta-schema (bundled with the crate; nothing fetched).
                let mut as_2020 = schema.clone();
                if let Some(o) = as_2020.as_object_mut() {
                    o.remove("$schema");
                }
                if let Err(e) = jsonschema::meta::validate(&as_2020) {
                    panic!("{name} → {to}: {}: not valid 2020-12: {e}", f["name"]);
                }
            }
        }
    }
}

/// Every entry of every catalog converted to every target (the strict ones plain and strict)
/// declares an effect its severity follows: `info` only for none, metadata (not about the
/// arguments) changing none, an error narrowing. Strict mode's closed objects narrow, one
/// entry per tool; metadata dropped is `info`, not about the arguments.
#[test]
fn every_entry_declares_an_effect_its_severity_follows() {
    let r = Registry::default();
    let targets = [
        ("openai", false),
        ("openai-responses", false),
        ("anthropic", false),
        ("gemini", false),
        ("gemini-json", false),
        ("bedrock", false),
        ("langchain", false),
        ("a2a", false),
        ("openai", true),
        ("anthropic", true),
    ];
    let mut effects = std::collections::HashMap::new();
    for (name, bytes) in catalogs() {
        for (to, strict) in targets {
            let options =
                if strict { Options::default().strict(Strict::On) } else { Options::default() };
            let out = r
                .convert_with(&bytes, "mcp", to, &options)
                .unwrap_or_else(|e| panic!("{name} → {to}: {e}"));
            let mut closed = std::collections::BTreeSet::new();
            for e in out.report() {
                let by_severity = match e.severity {
                    Severity::Info => e.effect == Effect::None,
                    Severity::Warning => true,
                    Severity::Error => e.effect == Effect::Narrows && e.arguments,
                };
                assert!(
                    by_severity && (e.arguments || e.effect == Effect::None),
                    "{name} → {to}: {e}"
                );
                match e.code {
                    Code::ObjectClosed => {
                        assert_eq!(
                            (e.severity, e.effect),
                            (Severity::Warning, Effect::Narrows),
                            "{e}"
                        );
                        assert!(
                            closed.insert(e.tool.clone()),
                            "{name} → {to}: two object-closed entries for {}",
                            e.tool
                        );
                    }
                    Code::MetadataDropped | Code::OutputSchemaDropped if e.feature != "strict" => {
                        assert_eq!((e.severity, e.arguments), (Severity::Info, false), "{e}");
                    }
                    _ => {}
                }
                *effects.entry((e.effect, e.arguments)).or_insert(0_usize) += 1;
            }
        }
    }
    // The corpus has entries of every kind but `changes` (which Gemini's JSON text gives).
    for kind in [
        (Effect::None, true),
        (Effect::None, false),
        (Effect::Narrows, true),
        (Effect::Widens, true),
    ] {
        assert!(effects.contains_key(&kind), "{kind:?}: {effects:?}");
    }
}

/// Every catalog written as a Bedrock `toolConfig` keeps every tool (names through the inverse
/// map, descriptions, an object root valid against 2020-12); Bedrock to Bedrock writes it
/// unchanged, and read back into MCP it gives the same schemas.
#[test]
fn every_catalog_round_trips_through_bedrock() {
    let r = Registry::default();
    for (name, bytes) in catalogs() {
        let src: Value = serde_json::from_slice(&bytes).expect("json");
        let tools = src["tools"].as_array().expect("tools");
        let out =
            r.convert(&bytes, "mcp", "bedrock").unwrap_or_else(|e| panic!("{name} → bedrock: {e}"));
        let v: Value = serde_json::from_slice(out.output()).expect("json");
        let list = v["tools"].as_array().expect("tools");
        assert_eq!(list.len(), tools.len(), "{name} → bedrock");
        for (s, t) in tools.iter().zip(list) {
            let spec = &t["toolSpec"];
            let written = spec["name"].as_str().expect("name");
            let source = out.inverse().tool(written).map_or(written, |t| &t.source_name);
            assert_eq!(source, s["name"], "{name} → bedrock");
            // An empty description is left out (Bedrock's minimum length is 1).
            let desc = s["description"].as_str().filter(|d| !d.is_empty());
            assert_eq!(spec["description"].as_str(), desc, "{name} → bedrock: {written}");
            let schema = &spec["inputSchema"]["json"];
            assert_eq!(schema["type"], "object", "{name} → bedrock: {written}");
            let mut as_2020 = schema.clone();
            if let Some(o) = as_2020.as_object_mut() {
                o.remove("$schema");
            }
            if let Err(e) = jsonschema::meta::validate(&as_2020) {
                panic!("{name} → bedrock: {written}: not valid 2020-12: {e}");
            }
        }
        let again = r.convert(out.output(), "bedrock", "bedrock").expect("reads its output");
        assert_eq!(again.output(), out.output(), "{name}: bedrock → bedrock changed it");
        assert!(again.report().is_empty(), "{name}: {:?}", again.report());
        let back = r.convert(out.output(), "bedrock", "mcp").expect("reads its output");
        let back: Value = serde_json::from_slice(back.output()).expect("json");
        let back = back["tools"].as_array().expect("tools");
        assert_eq!(back.len(), list.len(), "{name}: bedrock → mcp");
        for (t, m) in list.iter().zip(back) {
            assert!(same(&t["toolSpec"]["inputSchema"]["json"], &m["inputSchema"]), "{name}");
        }
    }
}

/// Every tool of `bytes` (a source-format catalog) converts to both Gemini targets, keeping
/// every tool; `gemini` output stays inside the `parameters` subset.
fn converts_to_gemini(r: &Registry, name: &str, from: &str, bytes: &[u8], tools: usize) {
    for to in ["gemini", "gemini-json"] {
        let out = r.convert(bytes, from, to).unwrap_or_else(|e| panic!("{name} → {to}: {e}"));
        assert!(
            !out.report().entries().iter().any(|e| e.severity == Severity::Error),
            "{name} → {to}: {:?}",
            out.report()
        );
        let v: Value = serde_json::from_slice(out.output()).expect("json");
        let list = v["functionDeclarations"].as_array().expect("functionDeclarations");
        assert_eq!(list.len(), tools, "{name} → {to}");
        for d in list {
            if to == "gemini" {
                let mut bad = Vec::new();
                if let Some(p) = d.get("parameters") {
                    common::gemini_violations(p, "/parameters", &mut bad);
                }
                assert!(bad.is_empty(), "{name} → gemini: {}: {bad:?}", d["name"]);
            } else if let Some(p) = d.get("parametersJsonSchema")
                && let Err(e) = jsonschema::meta::validate(p)
            {
                panic!("{name} → gemini-json: {}: not valid 2020-12: {e}", d["name"]);
            }
        }
    }
}

#[test]
fn every_catalog_converts_to_gemini() {
    let r = Registry::default();
    for (name, bytes) in catalogs() {
        let src: Value = serde_json::from_slice(&bytes).expect("json");
        let n = src["tools"].as_array().expect("tools").len();
        converts_to_gemini(&r, &name, "mcp", &bytes, n);
    }
}

/// BFCL function definitions (OpenAI's legacy bare function objects in BFCL's type dialect),
/// one catalog per file: JSON Lines with a `function` list per record, or one function per
/// line in `multi_turn_func_doc`.
fn bfcl() -> Vec<(String, Vec<Value>)> {
    let files = common::bfcl_files();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            let mut functions = Vec::new();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: Value = serde_json::from_str(line).expect("json line");
                match v.get("function").and_then(Value::as_array) {
                    Some(list) => functions.extend(list.iter().cloned()),
                    None => functions.push(v),
                }
            }
            (p.display().to_string(), functions)
        })
        .collect()
}

#[test]
fn every_bfcl_function_converts_to_every_target() {
    let r = Registry::default();
    let all = bfcl();
    let total: usize = all.iter().map(|(_, f)| f.len()).sum();
    assert_eq!(total, 9476, "BFCL function count (corpus README)");
    for (name, functions) in all {
        let bytes = serde_json::to_vec(&functions).expect("json");
        for to in ["mcp", "openai", "openai-responses", "anthropic"] {
            let out =
                r.convert(&bytes, "openai", to).unwrap_or_else(|e| panic!("{name} → {to}: {e}"));
            let v: Value = serde_json::from_slice(out.output()).expect("json");
            let n =
                if to == "mcp" { v["tools"].as_array() } else { v.as_array() }.map_or(0, Vec::len);
            assert_eq!(n, functions.len(), "{name} → {to}");
            // Another format reads BFCL's `dict` as an object (the same format keeps it).
            if to != "openai" {
                assert!(!out.output_str().contains(r#""type":"dict""#), "{name} → {to}");
            }
        }
        converts_to_gemini(&r, &name, "openai", &bytes, functions.len());
    }
}

/// Removes `key` everywhere below `v`, returning how many it removed.
fn strip(v: &mut Value, key: &str) -> usize {
    match v {
        Value::Object(o) => {
            let here = usize::from(o.shift_remove(key).is_some());
            here + o.values_mut().map(|c| strip(c, key)).sum::<usize>()
        }
        Value::Array(a) => a.iter_mut().map(|c| strip(c, key)).sum(),
        _ => 0,
    }
}

#[test]
fn provider_payloads_round_trip_in_their_own_format() {
    let r = Registry::default();
    let root = corpus().join("provider-payloads");
    for (file, format) in [
        ("pydantic-ai/openai-chat-completions.tools.json", "openai"),
        ("pydantic-ai/openai-compatible-chat-completions.tools.json", "openai"),
        ("pydantic-ai/openai-responses.tools.json", "openai-responses"),
        ("pydantic-ai/openai-responses-compatible.tools.json", "openai-responses"),
        ("vercel-ai/openai-responses-echoed.tools.json", "openai-responses"),
        ("pydantic-ai/anthropic-messages.tools.json", "anthropic"),
    ] {
        // Each file gathers the tools of many requests (one name recurs from request to
        // request): each tool is converted as the one-tool request it was part of.
        let all: Value = serde_json::from_slice(&std::fs::read(root.join(file)).expect("payload"))
            .expect("json");
        for tool in all.as_array().expect("array") {
            let bytes = serde_json::to_vec(&[tool]).expect("json");
            let out = r.convert(&bytes, format, format).unwrap_or_else(|e| panic!("{file}: {e}"));
            let mut a: Value = serde_json::from_slice(&bytes).expect("json");
            let b: Value = serde_json::from_slice(out.output()).expect("json");
            // The OpenAI profile drops `$schema`, `$id` and `$comment` (design §4); each drop
            // must be in the report, and nothing else may differ.
            let mut dropped = 0;
            if format.starts_with("openai") {
                for tool in a.as_array_mut().expect("array") {
                    let params = if format == "openai" {
                        tool.pointer_mut("/function/parameters")
                    } else {
                        tool.pointer_mut("/parameters")
                    };
                    if let Some(p) = params {
                        dropped += strip(p, "$schema") + strip(p, "$id") + strip(p, "$comment");
                    }
                }
            }
            let entries = out.report().entries();
            let reported = entries
                .iter()
                .filter(|e| e.code.as_str() == "keyword-dropped")
                .filter(|e| ["$schema", "$id", "$comment"].contains(&e.feature.as_str()))
                .count();
            assert_eq!(reported, dropped, "{file}: {entries:?}");
            // A tool the provider would refuse as written (marked strict, with open objects)
            // is normalized as any conversion into the format is: never without an entry.
            let explained = entries.iter().any(|e| e.code.as_str() != "keyword-dropped");
            assert!(explained || same(&a, &b), "{file} changed without an entry: {tool}");
        }
    }
    // `mcp_list_tools` items relay MCP tools as OpenAI sees them ({name, description,
    // input_schema, annotations}): that is Anthropic's field name, and the anthropic reader
    // keeps the other members as metadata, so each `tools` list round-trips there.
    let items: Value = serde_json::from_slice(
        &std::fs::read(root.join("vercel-ai/openai-mcp-list-tools.items.json")).expect("items"),
    )
    .expect("json");
    for item in items.as_array().expect("array") {
        let tools = serde_json::to_vec(&item["tools"]).expect("json");
        let out = r.convert(&tools, "anthropic", "anthropic").expect("reads");
        let back: Value = serde_json::from_slice(out.output()).expect("json");
        assert!(same(&item["tools"], &back));
    }
}

/// pydantic-ai's recorded Gemini requests: 49 `Tool`s holding 65 declarations, 52 of them
/// with `parameters_json_schema`, and 7 built-ins. Every declaration is read with its schema;
/// the built-ins are kept for Gemini and left out, with an entry each, elsewhere.
#[test]
fn gemini_request_tools_read_every_declaration_with_its_schema() {
    let r = Registry::default();
    let path = corpus().join("provider-payloads/pydantic-ai/gemini-generate-content.tools.json");
    let bytes = std::fs::read(path).expect("payload");
    let source: Value = serde_json::from_slice(&bytes).expect("json");
    let declarations: Vec<&Value> = source
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|t| t.get("functionDeclarations").or_else(|| t.get("function_declarations")))
        .flat_map(|d| d.as_array().expect("declarations"))
        .collect();
    assert_eq!(declarations.len(), 65);
    // Gemini → Gemini keeps every `Tool` in place: the built-ins as they were, each group's
    // declarations in order (their schemas written in `parameters`, the format's field; a name
    // another `Tool` of this file also uses renamed by the catalog's one policy, and restored
    // by the inverse map).
    let same_format = r.convert(&bytes, "gemini", "gemini").expect("gemini");
    let back: Value = serde_json::from_slice(same_format.output()).expect("json");
    let shape = |v: &Value| -> Vec<Result<Vec<String>, Value>> {
        let tools = v.as_array().expect("array").iter();
        tools
            .map(|t| {
                match t.get("functionDeclarations").or_else(|| t.get("function_declarations")) {
                    Some(d) => Ok(d
                        .as_array()
                        .expect("list")
                        .iter()
                        .map(|d| d["name"].as_str().expect("name").to_owned())
                        .collect()),
                    None => Err(t.clone()),
                }
            })
            .collect()
    };
    let inverse = same_format.inverse();
    let source_name = |n: &str| {
        inverse.tools.iter().find(|t| t.name == n).map_or(n.to_owned(), |t| t.source_name.clone())
    };
    let restored: Vec<_> = shape(&back)
        .into_iter()
        .map(|g| g.map(|names| names.iter().map(|n| source_name(n)).collect::<Vec<_>>()))
        .collect();
    assert_eq!(shape(&source), restored);
    let out = r.convert(&bytes, "gemini", "mcp").expect("mcp");
    let mcp: Value = serde_json::from_slice(out.output()).expect("json");
    let tools = mcp["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 65);
    for (tool, declaration) in tools.iter().zip(&declarations) {
        let schema = ["parameters", "parametersJsonSchema", "parameters_json_schema"]
            .iter()
            .find_map(|k| declaration.get(*k));
        let properties = schema.and_then(|s| s.get("properties")).and_then(Value::as_object);
        let written = tool["inputSchema"]["properties"].as_object();
        assert_eq!(
            written.map(|p| p.keys().collect::<Vec<_>>()),
            properties.map(|p| p.keys().collect::<Vec<_>>()),
            "{}",
            tool["name"]
        );
    }
    let built_ins =
        out.report().entries().iter().filter(|e| e.code.as_str() == "not-a-function-tool").count();
    assert_eq!(built_ins, 7);
}

/// The MCP specification's own `tools/list` result and JSON-RPC response examples
/// (2026-07-28) read as catalogs: kept whole MCP → MCP, their tools converted elsewhere.
#[test]
fn mcp_spec_list_results_and_responses_read_as_catalogs() {
    let r = Registry::default();
    let examples = corpus().join("spec/schema/2026-07-28/examples");
    for folder in ["ListToolsResult", "ListToolsResultResponse"] {
        let mut files: Vec<_> = std::fs::read_dir(examples.join(folder))
            .expect("examples")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{folder}");
        for file in files {
            let bytes = std::fs::read(&file).expect("example");
            let name = file.display();
            let out = r.convert(&bytes, "mcp", "mcp").unwrap_or_else(|e| panic!("{name}: {e}"));
            let (a, b): (Value, Value) = (
                serde_json::from_slice(&bytes).expect("json"),
                serde_json::from_slice(out.output()).expect("json"),
            );
            assert!(same(&a, &b), "{name} changed");
            let tools = a.pointer("/result/tools").or_else(|| a.get("tools")).expect("tools");
            let out = r.convert(&bytes, "mcp", "openai").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out.tools_written(), tools.as_array().expect("tools").len(), "{name}");
        }
    }
}
