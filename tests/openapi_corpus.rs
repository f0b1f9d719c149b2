//! OpenAPI import on the real documents of `corpus/openapi/` (read in place, never copied):
//! every document imports, one tool per operation (operations counted here from the document
//! itself), and every tool converts to every writable target, strict modes included, with no
//! error; the output is JSON, schemas are valid for their target, and names obey each
//! provider's documented rule (checked here, not by the crate's own pre-flight).
//! Run with `cargo test --features corpus --test openapi_corpus -- --nocapture` for the counts.
#![cfg(feature = "corpus")]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tooladapter::{Code, Options, Registry, Severity, Strict};

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Every `.json` document under `dir`, by path, in name order.
fn documents(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("openapi folder").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            documents(&path, out);
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push((path.display().to_string(), std::fs::read(&path).expect("read")));
        }
    }
}

/// The operations of `paths`, counted independently of the crate: (operationId, method, path).
fn operations(doc: &Value) -> Vec<(Option<String>, String, String)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            if METHODS.contains(&method.as_str()) {
                let id = op["operationId"].as_str().map(str::to_owned);
                ops.push((id, method.clone(), path.clone()));
            }
        }
    }
    ops
}

/// The provider's documented tool-name rule: OpenAI `^[a-zA-Z0-9_-]{1,64}$`, Anthropic
/// `^[a-zA-Z0-9_-]{1,128}$`, Gemini `^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$`; MCP names any
/// non-empty string.
fn name_ok(target: &str, name: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    match target {
        "openai" | "openai-responses" => (1..=64).contains(&name.len()) && name.chars().all(plain),
        "anthropic" => (1..=128).contains(&name.len()) && name.chars().all(plain),
        "gemini" | "gemini-json" => {
            let mut chars = name.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.len() <= 128
                && chars.all(|c| plain(c) || c == '.' || c == ':')
        }
        _ => !name.is_empty(),
    }
}

/// The written tools of a target's catalog output.
fn listed<'v>(target: &str, out: &'v Value) -> &'v Vec<Value> {
    match target {
        "mcp" => out["tools"].as_array(),
        "gemini" | "gemini-json" => out["functionDeclarations"].as_array(),
        _ => out.as_array(),
    }
    .expect("a catalog")
}

/// A written tool's name and input schema.
fn parts<'v>(target: &str, tool: &'v Value) -> (&'v str, Option<&'v Value>) {
    let (f, key) = match target {
        "mcp" => (tool, "inputSchema"),
        "openai" => (&tool["function"], "parameters"),
        "openai-responses" => (tool, "parameters"),
        "anthropic" => (tool, "input_schema"),
        "gemini" => (tool, "parameters"),
        _ => (tool, "parametersJsonSchema"),
    };
    (f["name"].as_str().expect("name"), f.get(key))
}

#[test]
fn every_document_imports_and_converts_to_every_target() {
    let mut docs = Vec::new();
    documents(&common::corpus().join("openapi"), &mut docs);
    assert_eq!(docs.len(), 13, "the corpus README lists 13 documents");
    let targets: [(&str, Strict); 8] = [
        ("mcp", Strict::Source),
        ("openai", Strict::Source),
        ("openai-responses", Strict::Source),
        ("anthropic", Strict::Source),
        ("gemini", Strict::Source),
        ("gemini-json", Strict::Source),
        ("openai", Strict::On),
        ("anthropic", Strict::On),
    ];
    let r = Registry::default();
    let (mut total_ops, mut total_tools, mut conversions) = (0, 0, 0);
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    for (name, bytes) in &docs {
        let doc: Value = serde_json::from_slice(bytes).expect("json");
        let ops = operations(&doc);
        let imported = r.convert(bytes, "openapi", "mcp").unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every operation is a tool, unless the report says why not (a path item it cannot
        // reach); callbacks and webhooks are reported too, but are not operations of `paths`.
        let skipped: Vec<_> = imported
            .report()
            .entries()
            .iter()
            .filter(|e| e.code == Code::OperationSkipped && e.pointer.starts_with("/paths/"))
            .filter(|e| !e.pointer.contains("/callbacks/"))
            .collect();
        let skipped_ops: usize = skipped
            .iter()
            .map(|e| {
                let path = e.pointer.trim_start_matches("/paths/").split('/').next().unwrap_or("");
                let path = path.replace("~1", "/").replace("~0", "~");
                ops.iter().filter(|(_, _, p)| *p == path).count()
            })
            .sum();
        let tools = imported.tools_written();
        assert_eq!(tools, ops.len() - skipped_ops, "{name}: {skipped:#?}");
        for e in imported.report() {
            if is_import(e.code) {
                *codes.entry(format!("{} {}", e.code, e.severity)).or_default() += 1;
            }
            if e.code == Code::OperationSkipped {
                println!("  {name}: skipped: {e}");
            }
        }
        // The MCP names are the operationIds, where there are (unique) ones.
        let out: Value = serde_json::from_slice(imported.output()).expect("json");
        let names: Vec<&str> = listed("mcp", &out).iter().map(|t| parts("mcp", t).0).collect();
        for ((id, _, _), written) in ops.iter().zip(&names) {
            if let Some(id) = id
                && ops.iter().filter(|(other, _, _)| other.as_ref() == Some(id)).count() == 1
            {
                assert_eq!(id, written, "{name}");
            }
        }
        println!(
            "{name}: OpenAPI {}: {} operations, {tools} tools, {} import entries",
            doc["openapi"].as_str().unwrap_or("?"),
            ops.len(),
            imported.report().entries().iter().filter(|e| is_import(e.code)).count()
        );
        total_ops += ops.len();
        total_tools += tools;
        for (to, strict) in targets {
            let options = Options::default().strict(strict);
            let c = r
                .convert_with(bytes, "openapi", to, &options)
                .unwrap_or_else(|e| panic!("{name} → {to}: {e}"));
            let errors: Vec<_> =
                c.report().entries().iter().filter(|e| e.severity == Severity::Error).collect();
            assert!(errors.is_empty(), "{name} → {to}: {errors:#?}");
            assert_eq!(c.tools_written(), tools, "{name} → {to}");
            let v: Value = serde_json::from_slice(c.output()).expect("output is JSON");
            let list = listed(to, &v);
            assert_eq!(list.len(), tools, "{name} → {to}");
            for (t, source) in list.iter().zip(&names) {
                let (written, schema) = parts(to, t);
                assert!(name_ok(to, written), "{name} → {to}: name {written:?}");
                // A renamed tool maps back to its imported name.
                let back = c.inverse().tool(written).map_or(written, |t| &t.source_name);
                assert_eq!(back, *source, "{name} → {to}");
                match (to, schema) {
                    ("gemini", Some(p)) => {
                        let mut bad = Vec::new();
                        common::gemini_violations(p, "/parameters", &mut bad);
                        assert!(bad.is_empty(), "{name} → gemini: {written}: {bad:?}");
                    }
                    ("gemini", None) => {}
                    (_, Some(s)) => {
                        if let Err(e) = jsonschema::meta::validate(s) {
                            panic!("{name} → {to}: {written}: not valid 2020-12: {e}");
                        }
                    }
                    (_, None) => panic!("{name} → {to}: {written} has no input schema"),
                }
                if strict == Strict::On {
                    let f = if to == "openai" { &t["function"] } else { t };
                    assert!(f["strict"].is_boolean(), "{name} → {to}: {written}: strict stated");
                }
            }
            conversions += 1;
        }
    }
    println!(
        "total: {} documents, {total_ops} operations, {total_tools} tools, {conversions} conversions",
        docs.len()
    );
    for (code, n) in &codes {
        println!("  {code}: {n}");
    }
    assert_eq!(total_ops, 550, "the corpus README counts 550 operations");
    assert_eq!(total_tools, total_ops);
}

/// The codes only the import writes.
fn is_import(code: Code) -> bool {
    matches!(
        code,
        Code::ParameterStyle
            | Code::BodyNotJson
            | Code::OperationSkipped
            | Code::ParameterSkipped
            | Code::NameClash
    )
}
