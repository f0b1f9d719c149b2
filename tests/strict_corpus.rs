//! Strict mode and names on every real catalog, checked by a checker written here from the
//! providers' documented rules (not the crate's own pre-flight), and the argument round trip:
//! arguments valid for the source tool, sent the way a strict model sends them, come back
//! exactly through the inverse map.
#![cfg(feature = "corpus")]

mod common;

use common::catalogs;
use serde_json::{Map, Value, json};
use tooladapter::{Code, Converter, Options, Registry, Strict};

/// OpenAI Structured Outputs: the keywords a strict schema may use.
const OPENAI_STRICT_KEYS: [&str; 22] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "enum",
    "const",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

const OPENAI_FORMATS: [&str; 9] =
    ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

#[derive(Default)]
struct Tally {
    properties: usize,
    depth: usize,
    enum_values: usize,
    chars: usize,
}

/// Every strict rule `s` breaks, as `pointer: reason`.
fn strict_violations(s: &Value, at: &str, depth: usize, t: &mut Tally, out: &mut Vec<String>) {
    let Some(o) = s.as_object() else {
        out.push(format!("{at}: a boolean schema"));
        return;
    };
    for k in o.keys() {
        if !OPENAI_STRICT_KEYS.contains(&k.as_str()) {
            out.push(format!("{at}: keyword {k} is outside the strict subset"));
        }
    }
    if !["type", "anyOf", "$ref", "enum", "const"].iter().any(|k| o.contains_key(*k)) {
        out.push(format!("{at}: no type"));
    }
    if o.contains_key("$ref") && o.keys().any(|k| !k.starts_with('$')) {
        out.push(format!("{at}: $ref with siblings"));
    }
    if let Some(f) = o.get("format").and_then(Value::as_str)
        && !OPENAI_FORMATS.contains(&f)
    {
        out.push(format!("{at}: format {f}"));
    }
    let types: Vec<&str> = match o.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let object = types.contains(&"object") || (types.is_empty() && o.contains_key("properties"));
    let depth = depth + usize::from(object);
    t.depth = t.depth.max(depth);
    if types.contains(&"array") && !o.contains_key("items") {
        out.push(format!("{at}: array without items"));
    }
    if object {
        if o.get("additionalProperties") != Some(&Value::Bool(false)) {
            out.push(format!("{at}: additionalProperties is not false"));
        }
        let props = o.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for k in props.into_iter().flat_map(|p| p.keys()) {
            if !required.contains(&k.as_str()) {
                out.push(format!("{at}: property {k} is not required"));
            }
        }
    }
    if let Some(Value::Array(e)) = o.get("enum") {
        t.enum_values += e.len();
        t.chars += e.iter().filter_map(Value::as_str).map(str::len).sum::<usize>();
    }
    for (k, v) in o {
        let here = format!("{at}/{k}");
        match k.as_str() {
            "properties" | "$defs" | "definitions" => {
                for (name, sub) in v.as_object().into_iter().flatten() {
                    t.chars += name.len();
                    if k == "properties" {
                        t.properties += 1;
                    }
                    let d = if k == "properties" { depth } else { 0 };
                    strict_violations(sub, &format!("{here}/{name}"), d, t, out);
                }
            }
            "items" => strict_violations(v, &here, depth, t, out),
            "anyOf" => {
                for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                    strict_violations(sub, &format!("{here}/{i}"), depth, t, out);
                }
            }
            _ => {}
        }
    }
}

fn valid_openai_name(n: &str) -> bool {
    (1..=64).contains(&n.len()) && n.chars().all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
}

#[test]
fn every_catalog_converted_strict_obeys_the_strict_rules_or_says_why_not() {
    let mut converter = Converter::new();
    let registry = Registry::default();
    let (mcp, openai) = (registry.get("mcp").expect("mcp"), registry.get("openai").expect("oa"));
    let options = Options::default().strict(Strict::On);
    let (mut strict, mut fallback) = (0, 0);
    for (file, bytes) in catalogs() {
        let c = converter.convert(&bytes, &*mcp, &*openai, &options).expect("converts");
        let out: Value = serde_json::from_slice(c.output()).expect("json");
        let src: Value = serde_json::from_slice(&bytes).expect("json");
        let tools = out.as_array().expect("array");
        assert_eq!(tools.len(), src["tools"].as_array().expect("tools").len(), "{file}");
        let mut names: Vec<&str> = Vec::new();
        for t in tools {
            let f = &t["function"];
            let name = f["name"].as_str().expect("name");
            assert!(valid_openai_name(name), "{file}: {name}");
            assert!(!names.contains(&name), "{file}: {name} twice");
            names.push(name);
            let source = c.inverse().tool(name).map_or(name, |i| &i.source_name);
            match f["strict"].as_bool() {
                Some(true) => {
                    strict += 1;
                    let p = &f["parameters"];
                    assert_eq!(p["type"], "object", "{file}: {name}");
                    assert!(p.get("anyOf").is_none(), "{file}: {name}: root anyOf");
                    let (mut tally, mut bad) = (Tally::default(), Vec::new());
                    strict_violations(p, "", 0, &mut tally, &mut bad);
                    assert!(bad.is_empty(), "{file}: {name}: {bad:?}");
                    assert!(tally.properties <= 5_000 && tally.depth <= 10, "{file}: {name}");
                    assert!(tally.enum_values <= 1_000 && tally.chars <= 120_000, "{file}: {name}");
                }
                Some(false) => {
                    fallback += 1;
                    let why = c.report().entries().iter().find(|e| {
                        e.code == Code::StrictFallback && e.tool == source && !e.message.is_empty()
                    });
                    assert!(why.is_some(), "{file}: {name} is not strict and no entry says why");
                }
                None => panic!("{file}: {name}: strict not stated"),
            }
        }
    }
    eprintln!("strict: {strict} tools strict, {fallback} fell back with a reason");
    assert!(strict > 1_000, "{strict}");
}

/// A value valid for `s` (resolving refs against `root`); optional members are left out or
/// put in by `coin`, so both sides of the widening are exercised.
fn generate(s: &Value, root: &Value, coin: &mut u32, depth: usize) -> Value {
    *coin = coin.wrapping_mul(1_103_515_245).wrapping_add(12_345);
    let flip = (*coin >> 16) & 1 == 1;
    let Some(o) = s.as_object() else { return json!("x") };
    if depth > 6 {
        return Value::Null;
    }
    if let Some(r) = o.get("$ref").and_then(Value::as_str) {
        let target = r.strip_prefix('#').and_then(|p| root.pointer(p)).cloned();
        return generate(&target.unwrap_or(Value::Null), root, coin, depth + 1);
    }
    if let Some(v) = o.get("const") {
        return v.clone();
    }
    if let Some(Value::Array(e)) = o.get("enum")
        && let Some(v) = e.first()
    {
        return v.clone();
    }
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(b)) = o.get(k)
            && let Some(first) = b.first()
        {
            return generate(first, root, coin, depth + 1);
        }
    }
    let t = match o.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(a)) => {
            a.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null")
        }
        _ if o.contains_key("properties") => "object",
        _ => "string",
    };
    match t {
        "object" => {
            let required: Vec<&str> = o
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut m = Map::new();
            for (k, sub) in o.get("properties").and_then(Value::as_object).into_iter().flatten() {
                *coin = coin.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if required.contains(&k.as_str()) || (*coin >> 16) & 1 == 1 {
                    m.insert(k.clone(), generate(sub, root, coin, depth + 1));
                }
            }
            Value::Object(m)
        }
        "array" => match o.get("items") {
            Some(item) if flip => json!([generate(item, root, coin, depth + 1)]),
            _ => json!([]),
        },
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => json!("x"),
    }
}

/// The branch of a target schema that is not the `null` one strict widening added.
fn unwrap_nullable<'v>(s: &'v Value, root: &'v Value) -> &'v Value {
    let s = match s.get("$ref").and_then(Value::as_str) {
        Some(r) => r.strip_prefix('#').and_then(|p| root.pointer(p)).unwrap_or(s),
        None => s,
    };
    match s.get("anyOf").and_then(Value::as_array) {
        Some(b) if b.len() == 2 && b[1] == json!({"type":"null"}) => unwrap_nullable(&b[0], root),
        Some(b) if b.len() == 1 => unwrap_nullable(&b[0], root),
        _ => s,
    }
}

/// What a strict model sends for the source `value`: members in the target's names (matched
/// by position: conversion keeps property order), and `null` for every required member the
/// source left out.
fn as_model_sends(
    value: &Value,
    src: &Value,
    src_root: &Value,
    dst: &Value,
    dst_root: &Value,
) -> Option<Value> {
    let src = match src.get("$ref").and_then(Value::as_str) {
        Some(r) => r.strip_prefix('#').and_then(|p| src_root.pointer(p))?,
        None => src,
    };
    let src = match src.get("anyOf").or_else(|| src.get("oneOf")).and_then(Value::as_array) {
        Some(b) => b.first()?,
        None => src,
    };
    let dst = unwrap_nullable(dst, dst_root);
    match value {
        Value::Object(m) => {
            let sp = src.get("properties").and_then(Value::as_object)?;
            let dp = dst.get("properties").and_then(Value::as_object)?;
            if sp.len() != dp.len() {
                return None;
            }
            let required: Vec<&str> = dst
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            for ((sk, ss), (dk, ds)) in sp.iter().zip(dp) {
                match m.get(sk) {
                    Some(v) => {
                        out.insert(dk.clone(), as_model_sends(v, ss, src_root, ds, dst_root)?);
                    }
                    None if required.contains(&dk.as_str()) => {
                        out.insert(dk.clone(), Value::Null);
                    }
                    None => {}
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => {
            let (si, di) = (src.get("items")?, dst.get("items")?);
            items.iter().map(|v| as_model_sends(v, si, src_root, di, dst_root)).collect()
        }
        v => Some(v.clone()),
    }
}

#[test]
fn strict_widening_and_renames_map_back_to_exactly_the_source_arguments() {
    let registry = Registry::default();
    let mcp = registry.get("mcp").expect("mcp");
    let mut converter = Converter::new();
    let (mut checked, mut widened_nulls) = (0, 0);
    for to in ["openai", "anthropic"] {
        let target = registry.get(to).expect("target");
        let options = Options::default().strict(Strict::On);
        for (file, bytes) in catalogs() {
            let src: Value = serde_json::from_slice(&bytes).expect("json");
            let c = converter.convert(&bytes, &*mcp, &*target, &options).expect("converts");
            let out: Value = serde_json::from_slice(c.output()).expect("json");
            for (s, t) in
                src["tools"].as_array().expect("tools").iter().zip(out.as_array().expect("array"))
            {
                let (f, key) = if to == "openai" {
                    (&t["function"], "parameters")
                } else {
                    (t, "input_schema")
                };
                let (ss, ds) = (&s["inputSchema"], &f[key]);
                if ds.is_null() || ss.is_null() {
                    continue;
                }
                let mut coin = checked as u32 + 7;
                for _ in 0..4 {
                    let args = generate(ss, ss, &mut coin, 0);
                    let Some(sent) = as_model_sends(&args, ss, ss, ds, ds) else { continue };
                    widened_nulls += usize::from(
                        sent.to_string().matches("null").count()
                            > args.to_string().matches("null").count(),
                    );
                    let name = f["name"].as_str().expect("name");
                    let (back_name, back) = c.inverse().unmap(name, sent);
                    assert_eq!(back_name, s["name"].as_str().expect("name"), "{file}");
                    assert_eq!(back, args, "{file}: {name} → {to}");
                    checked += 1;
                }
            }
        }
    }
    eprintln!("argument round trips: {checked}, {widened_nulls} with widening nulls");
    assert!(checked > 4_000, "{checked}");
    assert!(widened_nulls > 500, "{widened_nulls}");
}
