//! The `toolfoundation` profile set: the Go library's 28 × 4 support matrix (asserted against
//! the issue's list, both as `supports_feature` answers and as what a conversion keeps), its
//! drop semantics and warnings (one per place, escaped pointers, document order, the Go
//! library's own warnings as a subset), strict mode, formats without an entry, and the CLI.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::adapter::{At, EmitContext, Lowerer, Path, Writer};
use tooladapter::formats::Mcp;
use tooladapter::ir::Tool;
use tooladapter::{
    Adapter, Code, Conversion, ErrorKind, FormatInfo, Options, ProfileSet, Registry, SchemaFeature,
    Severity, Strict, toolfoundation,
};

/// The issue's matrix: feature, then whether mcp, openai, anthropic and gemini support it.
/// MCP: all. OpenAI: enum, default, additionalProperties, minimum, maximum, minLength,
/// maxLength, multipleOf, minItems, maxItems, minProperties, maxProperties, uniqueItems,
/// const. Anthropic: the same plus anyOf. Gemini: $ref, $defs, anyOf, pattern, format,
/// additionalProperties, minimum, maximum, minLength, maxLength, minItems, maxItems,
/// minProperties, maxProperties, enum, default, title, nullable.
const MATRIX: [(&str, [bool; 4]); 28] = [
    ("$ref", [true, false, false, true]),
    ("$defs", [true, false, false, true]),
    ("anyOf", [true, false, true, true]),
    ("oneOf", [true, false, false, false]),
    ("allOf", [true, false, false, false]),
    ("not", [true, false, false, false]),
    ("pattern", [true, false, false, true]),
    ("format", [true, false, false, true]),
    ("additionalProperties", [true, true, true, true]),
    ("minimum", [true, true, true, true]),
    ("maximum", [true, true, true, true]),
    ("minLength", [true, true, true, true]),
    ("maxLength", [true, true, true, true]),
    ("enum", [true, true, true, true]),
    ("const", [true, true, true, false]),
    ("default", [true, true, true, true]),
    ("title", [true, false, false, true]),
    ("examples", [true, false, false, false]),
    ("multipleOf", [true, true, true, false]),
    ("minItems", [true, true, true, true]),
    ("maxItems", [true, true, true, true]),
    ("minProperties", [true, true, true, true]),
    ("maxProperties", [true, true, true, true]),
    ("uniqueItems", [true, true, true, false]),
    ("nullable", [true, false, false, true]),
    ("deprecated", [true, false, false, false]),
    ("readOnly", [true, false, false, false]),
    ("writeOnly", [true, false, false, false]),
];

const TARGETS: [&str; 4] = ["mcp", "openai", "anthropic", "gemini"];

fn feature(name: &str) -> SchemaFeature {
    SchemaFeature::from_name(name).unwrap_or_else(|| panic!("no feature {name}"))
}

fn toolfoundation_options() -> Options {
    Options::default().profile_set(ProfileSet::ToolFoundation)
}

#[track_caller]
fn convert(input: &Value, from: &str, to: &str) -> Conversion {
    let bytes = serde_json::to_vec(input).expect("json");
    Registry::default()
        .convert_with(&bytes, from, to, &toolfoundation_options())
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

/// The input schema in a converted single tool.
fn input_schema(target: &str, out: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(out).expect("json");
    match target {
        "mcp" => v["inputSchema"].clone(),
        "openai" => v["function"]["parameters"].clone(),
        "anthropic" => v["input_schema"].clone(),
        "gemini" | "openai-responses" => v["parameters"].clone(),
        _ => panic!("{target}"),
    }
}

#[test]
fn the_matrix_is_the_go_librarys() {
    // The 28, in the Go library's `AllFeatures()` order.
    let names: Vec<String> = toolfoundation::go_features().iter().map(|f| f.to_string()).collect();
    let expected: Vec<&str> = MATRIX.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, expected);
    for (name, row) in MATRIX {
        let f = feature(name);
        for (target, want) in TARGETS.iter().zip(row) {
            assert_eq!(toolfoundation::supports_feature(target, f), Some(want), "{target} {name}");
            let profile = toolfoundation::profile(target).expect("an entry");
            assert_eq!(profile.declares(f), want, "{target} {name}");
        }
        // The formats the Go library has no adapter for follow the nearest one.
        let same_as = [("openai-responses", 1), ("gemini-json", 3), ("langchain", 0)];
        for (format, nearest) in same_as {
            assert_eq!(toolfoundation::supports_feature(format, f), Some(row[nearest]), "{format}");
        }
    }
    assert_eq!(toolfoundation::supports_feature("openapi", SchemaFeature::Ref), None);
    // The default profiles answer differently: OpenAI keeps `pattern`.
    let openai = Registry::default().get("openai").expect("openai");
    assert!(openai.info().supports_feature(SchemaFeature::Pattern));
}

/// A property schema using `name` (and little else), for the conversion matrix.
fn using(name: &str) -> Value {
    match name {
        "$ref" => json!({"$ref": "#/$defs/D"}),
        "$defs" => json!({"type": "string"}),
        "anyOf" | "oneOf" => json!({name: [{"type": "string"}, {"type": "integer"}]}),
        "allOf" => json!({"allOf": [{"type": "string"}]}),
        "not" => json!({"not": {"type": "null"}}),
        "pattern" => json!({"type": "string", "pattern": "^a"}),
        "format" => json!({"type": "string", "format": "email"}),
        // Objects with a property: Gemini's shape rules leave them objects.
        "additionalProperties" => json!({"type": "object", "properties": {"x": {"type": "string"}},
            "additionalProperties": false}),
        "minimum" | "maximum" | "multipleOf" => json!({"type": "number", name: 2}),
        "minLength" | "maxLength" => json!({"type": "string", name: 1}),
        "enum" => json!({"type": "string", "enum": ["a", "b"]}),
        "const" => json!({"const": "a"}),
        "default" => json!({"type": "string", "default": "a"}),
        "title" => json!({"type": "string", "title": "P"}),
        "examples" => json!({"type": "string", "examples": ["a"]}),
        "minItems" | "maxItems" => json!({"type": "array", "items": {"type": "string"}, name: 1}),
        "uniqueItems" => json!({"type": "array", "uniqueItems": true}),
        "minProperties" | "maxProperties" => {
            json!({"type": "object", "properties": {"x": {"type": "string"}}, name: 1})
        }
        "nullable" | "deprecated" | "readOnly" | "writeOnly" => {
            json!({"type": "string", name: true})
        }
        _ => panic!("{name}"),
    }
}

/// The tool whose property `p` uses the feature `name`.
fn tool_using(name: &str) -> Value {
    json!({"name": "t", "inputSchema": {
        "type": "object",
        "properties": {"p": using(name)},
        "$defs": {"D": {"type": "string"}}
    }})
}

/// Whether `target`'s provider refuses the keyword `name` as [`tool_using`] uses it: a tool
/// of the target's format holding that property schema as written, checked against the
/// provider's rules.
fn provider_refuses(target: &str, name: &str) -> bool {
    let r = Registry::default();
    let frame = json!({"name": "t", "inputSchema": {"type": "object", "properties": {}}});
    let out = r.convert(&serde_json::to_vec(&frame).unwrap(), "mcp", target).expect("converts");
    let mut tool: Value = serde_json::from_slice(out.output()).unwrap();
    let at = match target {
        "mcp" => "/inputSchema",
        "openai" => "/function/parameters",
        "anthropic" => "/input_schema",
        "gemini" => "/parameters",
        _ => panic!("{target}"),
    };
    let schema = json!({"type": "object", "properties": {"p": using(name)},
        "$defs": {"D": {"type": "string"}}});
    match tool.pointer_mut(at) {
        Some(slot) => *slot = schema,
        // Gemini leaves an empty schema unset.
        None => tool[&at[1..]] = schema,
    }
    let to = r.get(target).expect("a format");
    let mut converter = tooladapter::Converter::new();
    let bytes = serde_json::to_vec(&tool).unwrap();
    let report = converter.check(&bytes, &*to, &*to, &Options::default()).expect("checks");
    report.entries().iter().any(|e| e.feature == name)
}

#[test]
fn conversions_keep_exactly_the_supported_features() {
    for (name, row) in MATRIX {
        let tool = tool_using(name);
        for (target, declared) in TARGETS.iter().zip(row) {
            // What the provider refuses is dropped though the matrix supports it, so that
            // the output passes the provider's check.
            let supported = declared && !provider_refuses(target, name);
            let c = convert(&tool, "mcp", target);
            let schema = input_schema(target, c.output());
            // `$defs` sits at the root; every other feature in `p`.
            let (holder, pointer) = if name == "$defs" {
                (&schema, "/inputSchema/$defs".to_owned())
            } else {
                (&schema["properties"]["p"], format!("/inputSchema/properties/p/{}", name))
            };
            assert_eq!(holder.get(name).is_some(), supported, "{target} {name}: {schema}");
            let lost: Vec<_> = c.warnings().into_iter().filter(|w| w.feature == name).collect();
            if supported {
                assert!(lost.is_empty(), "{target} {name}: {lost:?}");
            } else {
                assert_eq!(lost.len(), 1, "{target} {name}: {:?}", c.report());
                assert_eq!(lost[0].path, pointer);
                assert_eq!(
                    lost[0].to_string(),
                    format!(
                        "feature {name} lost converting from mcp to {target} at {pointer} in tool \"t\""
                    )
                );
                let entry = c.report().entries().iter().find(|e| e.feature == name).unwrap();
                // Dropped, a warning even for annotations: never described, never rewritten.
                assert_eq!((entry.code, entry.severity), (Code::KeywordDropped, Severity::Warning));
                assert!(!schema.to_string().contains("Constraints"), "{target} {name}: {schema}");
            }
        }
    }
}

/// The Go library's `detectSchemaFeatureLoss`: one warning per unsupported feature used, per
/// node, walking `properties`, `items`, `$defs`, `anyOf`, `oneOf`, `allOf` and `not` (and
/// nothing else). Paths are escaped here (the Go library leaves `/` and `~` in keys as is).
fn go_warnings(s: &Value, target: usize, path: &str, out: &mut Vec<String>) {
    let Some(o) = s.as_object() else { return };
    for (name, row) in MATRIX {
        if o.contains_key(name) && !row[target] {
            out.push(format!("{path}/{name}"));
        }
    }
    let esc = |k: &str| k.replace('~', "~0").replace('/', "~1");
    for key in ["properties", "$defs"] {
        for (k, v) in o.get(key).and_then(Value::as_object).into_iter().flatten() {
            go_warnings(v, target, &format!("{path}/{key}/{}", esc(k)), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (i, v) in o.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            go_warnings(v, target, &format!("{path}/{key}/{i}"), out);
        }
    }
    for key in ["items", "not"] {
        if let Some(v) = o.get(key) {
            go_warnings(v, target, &format!("{path}/{key}"), out);
        }
    }
}

#[test]
fn warnings_are_the_go_librarys_ordered_escaped_and_complete() {
    // Unsupported keywords whose subschemas use only what every target keeps, so the Go
    // library's walk into them finds nothing more; keys that need escaping.
    let schema = json!({
        "type": "object",
        "title": "Args",
        "properties": {
            "a/b": {"type": "string", "pattern": "^x", "format": "uri", "minLength": 1},
            "m~n": {"oneOf": [{"type": "string"}, {"type": "integer"}], "deprecated": true},
            "list": {"type": "array", "items": {"type": "string", "format": "date", "examples": ["2026-01-01"]}},
            "neg": {"not": {"type": "null"}, "readOnly": true, "title": "Neg"},
            "ref": {"$ref": "#/$defs/Item", "writeOnly": true},
            "n": {"type": "integer", "multipleOf": 3, "const": 3, "uniqueItems": false, "nullable": true}
        },
        "$defs": {"Item": {"type": "string", "minLength": 2}},
        "allOf": [{"required": ["a/b"]}],
        "anyOf": [{"required": ["list"]}, {"required": ["n"]}],
        "required": []
    });
    let tool = json!({"name": "t", "inputSchema": schema});
    for (target, column) in [("openai", 1), ("anthropic", 2), ("gemini", 3)] {
        let c = convert(&tool, "mcp", target);
        let mut go = Vec::new();
        go_warnings(&schema, column, "/inputSchema", &mut go);
        // The matrix's drops. The format's own rules add their entries besides (Anthropic
        // renames the keys `a/b` and `m~n` and describes a root `anyOf`), as by default.
        let ours: Vec<String> = c
            .report()
            .entries()
            .iter()
            .filter(|e| e.code == Code::KeywordDropped)
            .inspect(|e| assert_eq!(e.severity, Severity::Warning))
            .map(|e| e.pointer.clone())
            .collect();
        // Every Go warning is ours, with the same feature (the pointer's last segment).
        for g in &go {
            assert!(ours.contains(g), "{target}: Go warns at {g}, we do not: {ours:?}");
        }
        // Once per place.
        let mut unique = ours.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ours.len(), "{target}: {ours:?}");
        // In document order: the pointers appear in the source in this order.
        let text = serde_json::to_string(&schema).unwrap();
        let at = |p: &str| {
            // Locate the last key of the pointer after its parent's position.
            let mut from = 0;
            for seg in p.trim_start_matches("/inputSchema").split('/').skip(1) {
                let key = seg.replace("~1", "/").replace("~0", "~");
                let quoted = format!("\"{key}\"");
                from += text[from..].find(&quoted).unwrap_or_else(|| panic!("{p} in {text}"));
            }
            from
        };
        let positions: Vec<usize> = ours.iter().map(|p| at(p)).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{target}: {ours:?}");
        // And nothing more: the schema uses none of the keywords outside the Go library's 28
        // (which we report and it drops silently), so ours are the Go library's and those the
        // provider refuses, which its default profile does not keep either.
        let default = Registry::default()
            .convert(&serde_json::to_vec(&tool).unwrap(), "mcp", target)
            .expect("converts");
        for extra in ours.iter().filter(|p| !go.contains(p)) {
            let changed = default.report().entries().iter().any(|e| &e.pointer == extra);
            assert!(changed, "{target}: {extra} dropped, but the provider takes it");
        }
        // Nothing the profile dropped is left in the output.
        let out = input_schema(target, c.output()).to_string();
        for p in &ours {
            let keyword = p.rsplit('/').next().unwrap();
            let parent = p.rsplit_once('/').unwrap().0.to_owned();
            let node = out_node(&input_schema(target, c.output()), &parent);
            assert!(node.get(keyword).is_none(), "{target}: {keyword} still at {parent} in {out}");
        }
    }
}

/// The node at `pointer` (rooted at `/inputSchema`) in a converted input schema.
fn out_node(schema: &Value, pointer: &str) -> Value {
    let rest = pointer.trim_start_matches("/inputSchema");
    schema.pointer(rest).cloned().unwrap_or(Value::Null)
}

#[test]
fn keywords_outside_the_28_are_dropped_and_reported_except_for_keep_all_formats() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {
        "n": {"type": "integer", "exclusiveMinimum": 0},
        "s": {"type": "string", "contentMediaType": "text/plain", "x-vendor": 1}
    }}});
    let c = convert(&tool, "mcp", "openai");
    let lost: Vec<(String, String)> =
        c.warnings().into_iter().map(|w| (w.feature, w.path)).collect();
    assert_eq!(
        lost,
        [
            (
                "exclusiveMinimum".to_owned(),
                "/inputSchema/properties/n/exclusiveMinimum".to_owned()
            ),
            (
                "contentMediaType".to_owned(),
                "/inputSchema/properties/s/contentMediaType".to_owned()
            ),
            ("x-vendor".to_owned(), "/inputSchema/properties/s/x-vendor".to_owned()),
        ]
    );
    // MCP and LangChain keep everything, as the Go MCP adapter's `SupportsFeature` says.
    for to in ["mcp", "langchain"] {
        let c = convert(&tool, "mcp", to);
        assert!(c.report().is_empty(), "{to}: {:?}", c.report());
        assert!(c.output_str().contains("exclusiveMinimum") && c.output_str().contains("x-vendor"));
    }
}

#[test]
fn the_default_profiles_keep_meaning_where_toolfoundation_drops() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {
        "q": {"type": "string", "pattern": "^a"},
        "m": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    }}});
    let bytes = serde_json::to_vec(&tool).unwrap();
    let r = Registry::default();
    let default = r.convert(&bytes, "mcp", "gemini").expect("converts");
    let go = convert(&tool, "mcp", "gemini");
    // Default: `oneOf` written as `anyOf` (same meaning). Toolfoundation: dropped, and what
    // is left is written as Gemini's own rules write an empty schema (its shape rules hold
    // under every profile).
    let d = input_schema("gemini", default.output());
    assert!(d["properties"]["m"].get("anyOf").is_some(), "{d}");
    let g = input_schema("gemini", go.output());
    let empty = json!({"name": "t", "inputSchema": {"type": "object", "properties": {"m": {}}}});
    let empty = r.convert(&serde_json::to_vec(&empty).unwrap(), "mcp", "gemini").unwrap();
    assert_eq!(g["properties"]["m"], input_schema("gemini", empty.output())["properties"]["m"]);
    assert!(default.warnings().is_empty(), "{:?}", default.warnings());
    let dropped: Vec<_> = go.warnings().into_iter().filter(|w| w.feature == "oneOf").collect();
    assert_eq!(dropped.len(), 1);
}

#[test]
fn gemini_keeps_what_the_go_adapter_keeps_and_gemini_takes() {
    let tool = json!({"name": "t", "inputSchema": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"type": ["string", "null"]}},
        "$defs": {"A": {"type": "string", "title": "A"}},
        "additionalProperties": false
    }});
    let c = convert(&tool, "mcp", "gemini");
    let s = input_schema("gemini", c.output());
    assert_eq!(s["properties"]["a"], json!({"$ref": "#/$defs/A"}));
    assert_eq!(s["$defs"]["A"], json!({"type": "STRING", "title": "A"}));
    // The Go adapter keeps `additionalProperties`; Gemini refuses it: dropped, a warning.
    assert_eq!(s.get("additionalProperties"), None);
    let lost: Vec<String> = c.warnings().into_iter().map(|w| w.path).collect();
    assert_eq!(lost, ["/inputSchema/additionalProperties"]);
    // The format's own rule stays: one type per node, the null as `nullable` (same meaning).
    assert_eq!(s["properties"]["b"], json!({"type": "STRING", "nullable": true}));
    // So the provider's own check finds nothing in that output.
    let bytes = serde_json::to_vec(&tool).unwrap();
    let mut converter = tooladapter::Converter::new();
    let report = converter
        .check(&bytes, &Mcp, &tooladapter::formats::Gemini, &toolfoundation_options())
        .expect("checks");
    let rejected: Vec<&str> = report
        .entries()
        .iter()
        .filter(|e| e.code == Code::WouldBeRejected)
        .map(|e| e.pointer.as_str())
        .collect();
    assert!(rejected.is_empty(), "{rejected:?}");
}

#[test]
fn anthropic_root_rules_stay_but_dropped_combinators_are_dropped() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {},
        "anyOf": [{"required": []}], "oneOf": [{"required": []}]}});
    let c = convert(&tool, "mcp", "anthropic");
    let entries: Vec<(Code, &str)> =
        c.report().entries().iter().map(|e| (e.code, e.feature.as_str())).collect();
    // `anyOf` is supported but Anthropic rejects it at the root: described there, as by
    // default. `oneOf` is not supported: dropped, not described.
    assert_eq!(entries, [(Code::KeywordDescribed, "anyOf"), (Code::KeywordDropped, "oneOf")]);
    let s = input_schema("anthropic", c.output());
    assert_eq!(s["description"], "Constraints: anyOf [{\"required\":[]}].");
}

#[test]
fn there_is_no_strict_mode() {
    let r = Registry::default();
    let tool = br#"{"type":"function","function":{"name":"f","strict":true,"parameters":{"type":"object","properties":{"a":{"type":"string","format":"email"}},"required":["a"],"additionalProperties":false}}}"#;
    for strict in [Strict::On, Strict::Require] {
        let options = toolfoundation_options().strict(strict);
        let e = r.convert_with(tool, "openai", "anthropic", &options).expect_err("refused");
        assert!(matches!(e.kind(), ErrorKind::InvalidOptions(_)), "{e}");
        // A target without a strict mode refuses it too, as it does with the default profile.
        let e = r.convert_with(tool, "openai", "mcp", &options).expect_err("no strict mode");
        assert!(matches!(e.kind(), ErrorKind::InvalidOptions(_)), "{e}");
    }
    // A tool the source marks strict is not made strict for another format: written with
    // `strict: false`, and the report says why.
    let c = r.convert_with(tool, "openai", "anthropic", &toolfoundation_options()).unwrap();
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(v["strict"], json!(false));
    let e = c.report().entries().iter().find(|e| e.code == Code::StrictFallback).unwrap();
    assert_eq!(e.pointer, "/function/strict");
    assert!(e.message.contains("no strict mode"), "{}", e.message);
    assert!(v["input_schema"]["properties"]["a"].get("format").is_none());
    // The default profile makes it strict instead.
    let c = r.convert(tool, "openai", "anthropic").unwrap();
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(v["strict"], json!(true));
    // The same format keeps the flag as written, as it keeps every other member.
    let c = r.convert_with(tool, "openai", "openai", &toolfoundation_options()).unwrap();
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(v["function"]["strict"], json!(true));
}

/// A format the toolfoundation set has no entry for: MCP under another name.
struct Custom;

/// MCP's facts under another name: a custom format builds its own from the defaults.
const CUSTOM: FormatInfo = FormatInfo::new("custom", &tooladapter::formats::rules::mcp::PROFILE);

impl Adapter for Custom {
    fn info(&self) -> &FormatInfo {
        &CUSTOM
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, tooladapter::ConversionError> {
        Mcp.lower_tool(lw, at, path)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        Mcp.write_tool(tool, cx, w);
    }
}

#[test]
fn a_format_without_an_entry_is_refused() {
    let r = Registry::default();
    r.register(Custom).expect("registers");
    let tool = br#"{"name":"t","inputSchema":{"type":"object"}}"#;
    let e = r.convert_with(tool, "mcp", "custom", &toolfoundation_options()).expect_err("refused");
    assert!(matches!(e.kind(), ErrorKind::InvalidOptions(_)), "{e}");
    assert!(e.to_string().contains("\"custom\""), "{e}");
    // As a source it is fine: the profile set concerns targets.
    assert!(r.convert_with(tool, "custom", "openai", &toolfoundation_options()).is_ok());
    assert!(r.convert(tool, "mcp", "custom").is_ok());
}

#[test]
fn profile_set_names_round_trip() {
    for set in ProfileSet::ALL {
        assert_eq!(ProfileSet::from_name(set.as_str()), Some(set));
    }
    assert_eq!(ProfileSet::from_name("go"), None);
    assert_eq!(Options::default().profile_set, ProfileSet::Default);
}

#[test]
fn cli_profile_flag() {
    let tool = br#"{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"^a","minLength":1}}}}"#;
    let args = ["convert", "--from", "mcp", "--to", "openai", "--profile", "toolfoundation"];
    let mut json_args = args.to_vec();
    json_args.extend(["--report", "json"]);
    let denied = [&json_args[..], &["--deny-loss"]].concat();
    let (code, out, err) = bin::run(&denied, tool);
    assert_eq!(code, 3, "a warning with --deny-loss: {err}");
    assert!(out.is_empty(), "a denied loss writes nothing");
    let (code, out, err) = bin::run(&json_args, tool);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(
        v["function"]["parameters"]["properties"]["q"],
        json!({"type": "string", "minLength": 1})
    );
    let lines: Vec<Value> = err.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["code"], "keyword-dropped");
    assert_eq!(lines[0]["pointer"], "/inputSchema/properties/q/pattern");
    // The default keeps `pattern`.
    let (code, out, _) = bin::run(&["convert", "--from", "mcp", "--to", "openai"], tool);
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&out).contains("pattern"));
    // No strict mode: a usage error.
    let mut strict = args.to_vec();
    strict.push("--strict");
    let (code, _, err) = bin::run(&strict, tool);
    assert_eq!(code, 2);
    assert!(err.contains("no strict mode"), "{err}");
    let (code, _, err) =
        bin::run(&["convert", "--from", "mcp", "--to", "openai", "--profile", "go"], tool);
    assert_eq!(code, 2, "{err}");
    // `check` converts with the profile, then holds the output to the provider's rules,
    // which the profile obeys as the default does.
    let gemini = br#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;
    let check = ["check", "--from", "mcp", "--to", "gemini", "--profile", "toolfoundation"];
    let (code, out, err) = bin::run(&check, gemini);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&out).starts_with("ok"));
    let (code, _, err) = bin::run(&["check", "--from", "mcp", "--to", "gemini"], gemini);
    assert_eq!(code, 0, "the default drops it: {err}");
    let (code, _, _) =
        bin::run(&["check", "--to", "openai", "--profile", "toolfoundation", "--strict"], tool);
    assert_eq!(code, 2);
}
