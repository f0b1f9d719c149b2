//! Keyword values of the wrong type: every keyword the IR models × values of every JSON type
//! (and the numbers a count or `multipleOf` refuses), read in every format that holds a
//! schema, through `convert` and `check`, alone and in a catalog. What is refused is judged
//! against JSON Schema's own meta-schemas (the `jsonschema` crate's, an oracle independent of
//! the crate's table), widened only by the older dialects the crate reads on purpose.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::formats::builtins;
use tooladapter::ir::Keyword;
use tooladapter::{Code, ConversionError, Converter, ErrorKind, Options, Registry, Severity};

/// One value of each JSON type, and the shapes keywords take (lists and maps of each).
fn candidates() -> Vec<Value> {
    vec![
        json!("a"),
        json!(5),
        json!(-3),
        json!(1.5),
        json!(0),
        json!(true),
        json!(null),
        json!([]),
        json!([1]),
        json!(["a"]),
        json!(["a", "b"]),
        json!([{"type": "string"}]),
        json!([true, 1]),
        json!({}),
        json!({"a": 5}),
        json!({"a": "x"}),
        json!({"a": ["b"]}),
        json!({"a": true}),
        json!({"type": "string"}),
        json!({"a": {"type": "string"}}),
    ]
}

/// Whether `{kw: v}` is a schema some dialect the crate reads allows: JSON Schema 2020-12's
/// meta-schema, or the older draft's that gave the keyword the form the crate reads
/// (draft-04's boolean `exclusiveMinimum`, draft-07's tuple `items`, `dependencies` and
/// `additionalItems`, 2019-09's `$recursiveRef`/`$recursiveAnchor`); OpenAPI 3.0's `nullable`
/// (a boolean) and `example` (any value), and Gemini's `propertyOrdering` (a list of
/// strings, <https://ai.google.dev/api/caching#Schema>) have no meta-schema; a `type` name
/// outside JSON Schema's (BFCL's `"dict"`) is kept for a dialect pass.
fn allowed(kw: Keyword, v: &Value) -> bool {
    let schema = json!({ kw.as_str(): v });
    let strings = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
    match kw.as_str() {
        "nullable" => return v.is_boolean(),
        "example" => return true,
        "propertyOrdering" => return strings(v),
        "type" => {
            return v.is_string() || (strings(v) && v.as_array().is_some_and(|a| !a.is_empty()));
        }
        _ => {}
    }
    let modern = jsonschema::draft202012::meta::is_valid(&schema);
    match kw.as_str() {
        // Draft-04 wants the bound beside the flag; the crate reads a flag alone too.
        "exclusiveMinimum" => {
            modern
                || jsonschema::draft4::meta::is_valid(&json!({"exclusiveMinimum": v, "minimum": 0}))
        }
        "exclusiveMaximum" => {
            modern
                || jsonschema::draft4::meta::is_valid(&json!({"exclusiveMaximum": v, "maximum": 0}))
        }
        "items" | "dependencies" | "definitions" => {
            modern || jsonschema::draft7::meta::is_valid(&schema)
        }
        // Keywords 2020-12 dropped (`additionalItems`) or replaced: the draft that defined
        // them (2020-12's meta-schema gives `$recursiveAnchor` an anchor string by mistake;
        // 2019-09, which defined it, a boolean).
        "additionalItems" | "$recursiveAnchor" | "$recursiveRef" => {
            jsonschema::draft201909::meta::is_valid(&schema)
        }
        _ => modern,
    }
}

/// The `properties` of a schema with the keyword under test in its one property (so root
/// rules play no part).
fn properties_with(kw: Keyword, v: &Value) -> Value {
    json!({"p": { kw.as_str(): v }})
}

/// The formats that read tools holding an input schema, each with a tool of its own written
/// around `{"type":"object","properties":{"q":…}}` and the pointer of that schema in it.
fn readers() -> Vec<(&'static str, Value, String)> {
    let mcp = json!({"name": "t", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
    let bytes = serde_json::to_vec(&mcp).expect("json");
    let mut out = Vec::new();
    for a in builtins().iter().filter(|a| a.info().reads && a.info().writes) {
        if !a.info().holds_input_schema {
            continue;
        }
        let c = Registry::default().convert(&bytes, "mcp", a.name()).expect("written");
        let tool: Value = serde_json::from_slice(c.output()).expect("json");
        let pointer = find_schema(&tool, "").expect("the schema is in the tool");
        out.push((a.name(), tool, pointer));
    }
    assert!(out.len() >= 7, "{out:?}");
    out
}

/// The pointer of the object holding `properties.q` in `v`.
fn find_schema(v: &Value, at: &str) -> Option<String> {
    match v {
        Value::Object(m) => {
            if m.get("properties").and_then(|p| p.get("q")).is_some() {
                return Some(at.to_owned());
            }
            m.iter().find_map(|(k, v)| find_schema(v, &format!("{at}/{k}")))
        }
        Value::Array(l) => {
            l.iter().enumerate().find_map(|(i, v)| find_schema(v, &format!("{at}/{i}")))
        }
        _ => None,
    }
}

fn with_properties(tool: &Value, pointer: &str, properties: Value) -> Value {
    let mut tool = tool.clone();
    *tool.pointer_mut(&format!("{pointer}/properties")).expect("pointer") = properties;
    tool
}

#[track_caller]
fn assert_refused(e: &ConversionError, kw: Keyword, at: &str, what: &str) {
    assert!(
        matches!(e.kind(), ErrorKind::KeywordValue { keyword, .. } if *keyword == kw.as_str()),
        "{what}: {e}"
    );
    assert!(e.pointer().starts_with(at), "{what}: {} is not under {at}", e.pointer());
}

/// Every (reader, keyword, value): `convert` and `check` refuse exactly the values no dialect
/// allows, at the value's pointer, with [`ErrorKind::KeywordValue`]; what they keep they
/// convert. In a catalog the bad tool is left out with an error entry at the same place and
/// the good one is written.
#[test]
fn wrong_keyword_values_are_refused_in_convert_and_check() {
    let mut converter = Converter::new();
    let options = Options::default();
    let good = json!({"name": "ok", "inputSchema": {"type": "object"}});
    let (mut refused, mut kept) = (0, 0);
    for (format, tool, pointer) in readers() {
        let adapter = builtins().iter().copied().find(|a| a.name() == format).expect("format");
        for kw in Keyword::ALL {
            for v in candidates() {
                let input = with_properties(&tool, &pointer, properties_with(kw, &v));
                let bytes = serde_json::to_vec(&input).expect("json");
                let what = format!("{format} {kw}: {v}");
                let at = format!("{pointer}/properties/p/{}", kw.as_str());
                let converted = converter.convert(&bytes, adapter, adapter, &options).map(|_| ());
                let checked = converter.check(&bytes, adapter, adapter, &options).map(|_| ());
                if allowed(kw, &v) {
                    kept += 1;
                    assert!(converted.is_ok(), "{what}: {converted:?}");
                    assert!(checked.is_ok(), "{what}: {checked:?}");
                    continue;
                }
                refused += 1;
                let (Err(converted), Err(checked)) = (converted, checked) else {
                    panic!("{what}: kept, where no dialect allows it");
                };
                assert_refused(&converted, kw, &at, &what);
                assert_refused(&checked, kw, &at, &what);
                if format != "mcp" {
                    continue;
                }
                // In a catalog: one bad tool costs that tool only.
                let catalog = json!({"tools": [input, good]});
                let bytes = serde_json::to_vec(&catalog).expect("json");
                for target in ["openai", "gemini"] {
                    let c = Registry::default().convert(&bytes, "mcp", target).expect("catalog");
                    assert_eq!(c.tools_written(), 1, "{what}");
                    let at = format!("/tools/0{at}");
                    let errors: Vec<_> = c
                        .report()
                        .entries()
                        .iter()
                        .filter(|e| e.severity == Severity::Error)
                        .map(|e| (e.code, e.pointer.starts_with(&at)))
                        .collect();
                    assert_eq!(errors, [(Code::ToolNotConverted, true)], "{what} → {target}");
                }
            }
        }
    }
    assert!(refused > 5_000 && kept > 2_000, "{refused} refused, {kept} kept");
}

/// The values issue 31 named, through the binary: `check` says what is wrong (exit 1), not
/// "ok", and `convert` writes no Gemini schema holding `"$ref":5`.
#[test]
fn the_cli_refuses_the_named_wrong_values() {
    for (kw, v) in [
        ("properties", json!([1, 2])),
        ("required", json!("a")),
        ("$ref", json!(5)),
        ("minimum", json!("zero")),
        ("maxLength", json!(-3)),
        ("enum", json!("abc")),
    ] {
        let tool =
            json!({"name": "t", "inputSchema": {"type": "object", "properties": {"p": { kw: v }}}});
        let input = serde_json::to_vec(&tool).expect("json");
        let (code, out, err) = bin::run(&["check", "--from", "mcp", "--to", "gemini"], &input);
        assert_eq!(code, 1, "{kw}: {err}");
        assert!(!err.contains("ok:") && err.contains(&format!("`{kw}` must be")), "{kw}: {err}");
        assert!(err.contains("/inputSchema/properties/p/"), "{kw}: {err}");
        let (code, out2, err) = bin::run(&["convert", "--from", "mcp", "--to", "gemini"], &input);
        assert_eq!(code, 1, "{kw}: {err}");
        assert!(out.is_empty() && out2.is_empty(), "{kw}");
    }
}
