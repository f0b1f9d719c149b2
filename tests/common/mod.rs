//! Helpers shared by the integration suites.
#![allow(dead_code)]

pub mod instances;
pub mod traffic;

use std::path::PathBuf;

use serde_json::Value;

/// Equality that also compares object key order (serde_json here keeps insertion order).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Number(x), Value::Number(y)) => x.to_string() == y.to_string(),
        _ => a == b,
    }
}

/// The corpus folder: `TOOLADAPTER_CORPUS`, default `../shared/corpus`.
pub fn corpus() -> PathBuf {
    let dir = std::env::var_os("TOOLADAPTER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    assert!(dir.is_dir(), "corpus folder {} is missing", dir.display());
    dir
}

/// Every MCP catalog of the corpus, by path, in name order.
pub fn catalogs() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus().join("mcp-catalogs"))
        .expect("mcp-catalogs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).expect("read"))).collect()
}

/// Every BFCL data file of the corpus (`bfcl/data`, its subfolders too), in path order.
#[allow(dead_code, reason = "not every suite reads BFCL")]
pub fn bfcl_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![corpus().join("bfcl/data")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("bfcl").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Keywords Gemini's `parameters` (its OpenAPI 3.0 `Schema` subset) takes.
const GEMINI_KEYS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "example",
    "default",
    "anyOf",
    "propertyOrdering",
];

const GEMINI_TYPES: [&str; 7] =
    ["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];

/// Where `schema` (a Gemini `parameters` value) leaves the subset, as pointers and reasons.
pub fn gemini_violations(schema: &Value, at: &str, out: &mut Vec<String>) {
    let Some(o) = schema.as_object() else {
        out.push(format!("{at}: not an object schema"));
        return;
    };
    for (k, v) in o {
        let here = format!("{at}/{k}");
        if !GEMINI_KEYS.contains(&k.as_str()) {
            out.push(format!("{here}: keyword outside the subset"));
            continue;
        }
        match k.as_str() {
            "type" if !v.as_str().is_some_and(|t| GEMINI_TYPES.contains(&t)) => {
                out.push(format!("{here}: not one Gemini type: {v}"))
            }
            "enum" if !v.as_array().is_some_and(|a| a.iter().all(Value::is_string)) => {
                out.push(format!("{here}: enum of non-strings"))
            }
            "format" if !matches!(v.as_str(), Some("enum" | "date-time")) => {
                out.push(format!("{here}: format {v}"))
            }
            "items" => gemini_violations(v, &here, out),
            "anyOf" => {
                for (i, s) in v.as_array().into_iter().flatten().enumerate() {
                    gemini_violations(s, &format!("{here}/{i}"), out);
                }
            }
            "properties" => {
                for (name, s) in v.as_object().into_iter().flatten() {
                    gemini_violations(s, &format!("{here}/{name}"), out);
                }
            }
            _ => {}
        }
    }
}

/// The input schema of a converted tool (`out`, the target's single-tool output) as JSON
/// Schema. Gemini `parameters` is read back through the crate's own `gemini` reader into
/// OpenAI's form, which keeps every keyword and turns OpenAPI `nullable` into a type array.
pub fn converted_schema(r: &tooladapter::Registry, target: &str, out: &[u8]) -> Option<Value> {
    let v: Value = serde_json::from_slice(out).ok()?;
    // A format sharing another's shape keeps its schema where that one does.
    let shape = r.get(target).and_then(|a| a.info().wire_of).unwrap_or(target);
    let schema = match shape {
        "mcp" => v.get("inputSchema"),
        "openai" => v.get("function").and_then(|f| f.get("parameters")),
        "openai-responses" => v.get("parameters"),
        "anthropic" => v.get("input_schema"),
        "gemini-json" => v.get("parametersJsonSchema"),
        "bedrock" => {
            v.get("toolSpec").and_then(|t| t.get("inputSchema")).and_then(|i| i.get("json"))
        }
        // The tool is its schema: everything but the name (`title`) and the description.
        "langchain" => {
            let mut dict = v.as_object()?.clone();
            dict.remove("title");
            dict.remove("description");
            return Some(Value::Object(dict));
        }
        "gemini" => {
            let back = r.convert(out, target, "openai").ok()?;
            let v: Value = serde_json::from_slice(back.output()).ok()?;
            return v.get("function").and_then(|f| f.get("parameters")).cloned();
        }
        _ => None,
    };
    schema.cloned()
}
