//! The providers' shape rules (issue 20): for each rule, a tool that breaks it, the output
//! that obeys it, the report entry that says so, and `check` naming the rule on the raw input
//! and finding nothing on the output. The tables and their sources are in
//! `src/formats/<name>/rules.rs`; `tests/sdk/` holds the corpus to the same rules through the
//! providers' own SDKs.

use serde_json::{Value, json};
use tooladapter::{Code, Conversion, Converter, Options, Registry, Severity};

fn convert(input: &Value, from: &str, to: &str) -> Conversion {
    let bytes = serde_json::to_vec(input).unwrap_or_default();
    Registry::default()
        .convert_with(&bytes, from, to, &Options::default())
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

fn output(c: &Conversion) -> Value {
    serde_json::from_slice(c.output()).unwrap_or(Value::Null)
}

/// The `check` findings (`would-be-rejected` messages) for `input` read as `format`.
fn findings(input: &[u8], format: &str) -> Vec<String> {
    let r = Registry::default();
    let adapter = r.get(format).unwrap_or_else(|| panic!("{format}"));
    let mut c = Converter::new();
    let report = c
        .check(input, adapter.as_ref(), adapter.as_ref(), &Options::default())
        .unwrap_or_else(|e| panic!("check {format}: {e}"));
    report
        .entries()
        .iter()
        .filter(|e| e.code == Code::WouldBeRejected)
        .map(|e| format!("{} {}", e.pointer, e.message))
        .collect()
}

/// An MCP tool `t` whose input schema has the one property `p: schema`.
fn mcp_with(schema: Value) -> Value {
    json!({"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"p": schema}}}]})
}

/// Converts `p: schema` from MCP to `to`, asserts the output passes `check` and the report
/// has a `shape-rewritten` entry at `pointer` with `severity`; returns the written `p`.
fn fixed(schema: Value, to: &str, pointer: &str, severity: Severity) -> Value {
    let c = convert(&mcp_with(schema), "mcp", to);
    let found = findings(c.output(), to);
    assert!(found.is_empty(), "{to} output still breaks a rule: {found:?}");
    let entry = c.report().entries().iter().find(|e| e.code == Code::ShapeRewritten);
    let entry = entry.unwrap_or_else(|| panic!("no shape entry: {:?}", c.report().entries()));
    // Where the rewrite wrote: the output's place, when it is not the source's.
    let written = entry.output_pointer.as_deref().unwrap_or(&entry.tool_pointer);
    assert_eq!((written, entry.severity), (pointer, severity), "{entry}");
    let out = output(&c);
    let params = match to {
        "openai" => &out[0]["function"]["parameters"],
        _ => &out["functionDeclarations"][0]["parameters"],
    };
    params["properties"]["p"].clone()
}

#[test]
fn gemini_nullable_union_is_written_with_nullable() {
    // pydantic / FastMCP's optional: most of the corpus's Gemini refusals.
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Project Key"});
    let p = fixed(schema, "gemini", "/inputSchema/properties/p/anyOf", Severity::Info);
    assert_eq!(
        p,
        json!({"type": "STRING", "default": null, "title": "Project Key", "nullable": true})
    );
}

#[test]
fn gemini_any_of_siblings_move_into_the_branches() {
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "id"});
    let p = fixed(schema, "gemini", "/inputSchema/properties/p/anyOf", Severity::Info);
    assert_eq!(
        p,
        json!({"anyOf": [{"type": "STRING", "description": "id"}, {"type": "INTEGER", "description": "id"}]})
    );
    // A `type` beside branches that hold only a `format` types each branch.
    let schema = json!({"type": "string", "anyOf": [{"format": "date-time"}, {"maxLength": 3}]});
    let p = fixed(schema, "gemini", "/inputSchema/properties/p/anyOf", Severity::Info);
    assert_eq!(p["anyOf"][0], json!({"format": "date-time", "type": "STRING"}));
    assert_eq!(p["anyOf"][1], json!({"maxLength": 3, "type": "STRING"}));
}

#[test]
fn gemini_untyped_nodes_get_a_type() {
    let p = fixed(
        json!({"enum": ["a", "b"]}),
        "gemini",
        "/inputSchema/properties/p/type",
        Severity::Info,
    );
    assert_eq!(p, json!({"type": "STRING", "enum": ["a", "b"]}));
    // `const` gives its type before it is described.
    let p = fixed(json!({"const": 3}), "gemini", "/inputSchema/properties/p/type", Severity::Info);
    assert_eq!(p["type"], "INTEGER");
    let p = fixed(
        json!({"minLength": 2}),
        "gemini",
        "/inputSchema/properties/p/type",
        Severity::Warning,
    );
    assert_eq!(p, json!({"type": "STRING", "minLength": 2}));
    let p = fixed(
        json!({"description": "anything"}),
        "gemini",
        "/inputSchema/properties/p/type",
        Severity::Warning,
    );
    let types: Vec<&Value> =
        p["anyOf"].as_array().into_iter().flatten().map(|b| &b["type"]).collect();
    assert_eq!(types, ["STRING", "NUMBER", "BOOLEAN"]);
    assert_eq!(p["anyOf"][0]["description"], "anything");
}

#[test]
fn gemini_objects_and_arrays() {
    let p = fixed(
        json!({"type": "array"}),
        "gemini",
        "/inputSchema/properties/p/items",
        Severity::Warning,
    );
    assert_eq!(p["type"], "ARRAY");
    assert!(p["items"]["anyOf"].is_array());
    // An object listing no property has no Gemini form: JSON text in a string, and a warning.
    let p = fixed(
        json!({"type": "object", "properties": {}}),
        "gemini",
        "/inputSchema/properties/p/properties",
        Severity::Info,
    );
    assert_eq!(p["type"], "STRING");
    let c = convert(&mcp_with(json!({"type": "object"})), "mcp", "gemini");
    let warned = c.report().entries().iter().any(|e| {
        e.code == Code::ShapeRewritten
            && e.severity == Severity::Warning
            && e.message.contains("JSON text")
    });
    assert!(warned, "{:?}", c.report().entries());
    let p = fixed(
        json!({"type": "string", "required": ["x"]}),
        "gemini",
        "/inputSchema/properties/p/required",
        Severity::Info,
    );
    assert_eq!(p, json!({"type": "STRING"}));
    let schema =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "zz"]});
    let p = fixed(schema, "gemini", "/inputSchema/properties/p/required", Severity::Warning);
    assert_eq!(p["required"], json!(["a"]));
}

#[test]
fn gemini_enums() {
    let p = fixed(
        json!({"type": "string", "enum": ["a", ""]}),
        "gemini",
        "/inputSchema/properties/p/enum",
        Severity::Warning,
    );
    assert_eq!(p["enum"], json!(["a"]));
    let p = fixed(
        json!({"type": "integer", "enum": ["1", "2"]}),
        "gemini",
        "/inputSchema/properties/p/enum",
        Severity::Warning,
    );
    assert!(p.get("enum").is_none());
    assert!(p["description"].as_str().is_some_and(|d| d.contains("enum")), "{p}");
}

#[test]
fn gemini_root_without_properties_is_no_parameters() {
    let input =
        json!({"tools": [{"name": "t", "inputSchema": {"type": "object", "description": "x"}}]});
    let c = convert(&input, "mcp", "gemini");
    assert_eq!(output(&c), json!({"functionDeclarations": [{"name": "t"}]}));
    assert!(c.report().entries().iter().any(|e| e.code == Code::ShapeRewritten));
}

#[test]
fn gemini_names_are_at_most_64_characters() {
    let name = "n".repeat(70);
    let input = json!({"tools": [{"name": name, "inputSchema": {"type": "object"}}]});
    let c = convert(&input, "mcp", "gemini");
    let written = output(&c)["functionDeclarations"][0]["name"].as_str().map(str::len);
    assert!(written.is_some_and(|n| n <= 64), "{written:?}");
    assert!(c.report().entries().iter().any(|e| e.code == Code::ToolRenamed));
}

#[test]
fn openai_root_properties_and_items() {
    let input = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
    let c = convert(&input, "mcp", "openai");
    assert_eq!(
        output(&c)[0]["function"]["parameters"],
        json!({"type": "object", "properties": {}})
    );
    assert!(findings(c.output(), "openai").is_empty());
    let p = fixed(
        json!({"type": "array"}),
        "openai",
        "/inputSchema/properties/p/items",
        Severity::Info,
    );
    assert_eq!(p, json!({"type": "array", "items": {}}));
}

#[test]
fn check_names_each_rule_on_raw_input() {
    let gemini = json!({"functionDeclarations": [{"name": "x", "parameters": {"type": "OBJECT",
        "properties": {
            "a": {"anyOf": [{"type": "STRING"}, {"type": "NULL"}], "title": "A"},
            "b": {"type": "ARRAY"},
            "c": {"type": "OBJECT", "properties": {}},
            "d": {"enum": ["p", "q"]},
            "e": {"type": "STRING", "required": ["q"]},
            "f": {"type": "INTEGER", "enum": ["1"]},
            "g": {"type": "STRING", "enum": ["a", ""]}
        },
        "required": ["a", "zz"]}}]});
    let found = findings(&serde_json::to_vec(&gemini).unwrap_or_default(), "gemini");
    for error in [
        "When using any_of, it must be the only field set",
        "items: missing field",
        "properties: should be non-empty for OBJECT type",
        "type: must be specified",
        "required: only allowed for OBJECT type",
        "enum: only allowed for STRING type",
        "enum[1]: cannot be empty",
        "required[0]: property is not defined",
    ] {
        assert!(found.iter().any(|f| f.contains(error)), "{error} not in {found:#?}");
    }
    let openai = json!([{"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "b", "parameters": {"type": "object", "properties": {"x": {"type": "array"}}}}}]);
    let found = findings(&serde_json::to_vec(&openai).unwrap_or_default(), "openai");
    assert!(found.iter().any(|f| f.contains("object schema missing properties")), "{found:?}");
    assert!(found.iter().any(|f| f.contains("array schema missing items")), "{found:?}");
}

#[test]
fn same_format_normalizes_and_keeps_valid_input_byte_identical() {
    let valid = br#"[{"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"array","items":{"type":"string"}}}}}}]"#;
    let r = Registry::default();
    let c = r.convert(valid, "openai", "openai").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.output(), valid);
    assert!(c.report().entries().is_empty());
    // BFCL's dialect read as `openai`: written as OpenAI accepts it.
    let bfcl = json!([{"name": "math.sum", "parameters": {"type": "dict", "properties": {"n": {"type": "float"}}}}]);
    let c = convert(&bfcl, "openai", "openai");
    let out = output(&c);
    assert_eq!(out[0]["function"]["parameters"]["type"], "object");
    assert_eq!(out[0]["function"]["parameters"]["properties"]["n"]["type"], "number");
    assert!(!out[0]["function"]["name"].as_str().unwrap_or(".").contains('.'));
    assert!(c.report().entries().iter().any(|e| e.code == Code::ToolRenamed));
}

#[test]
fn a_fix_that_breaks_an_earlier_rule_is_fixed_too() {
    // `maxProperties` makes the node an object, which then lists no properties: both rules
    // are obeyed, and the tool is written (a single tool left out was an error).
    let schema =
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "maxProperties": 2});
    let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {"p": schema}}});
    let c = convert(&tool, "mcp", "gemini");
    assert!(findings(c.output(), "gemini").is_empty());
    assert_eq!(output(&c)["parameters"]["properties"]["p"]["type"], "STRING");
}

/// OpenAI refuses members it does not define ("Unknown parameter"): BFCL's `response` and an
/// extra wrapper member are dropped, with an entry each, even converting OpenAI to OpenAI,
/// and `check` lists them; a tool without them is written as read.
#[test]
fn openai_drops_and_check_lists_members_it_does_not_define() {
    let tool = br#"{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{}},"response":{"type":"dict"}},"x-extra":1}"#;
    let clean = br#"{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}}"#;
    let registry = tooladapter::Registry::default();
    for to in ["openai", "openai-responses"] {
        let c = registry.convert(tool, "openai", to).expect("converts");
        let out = c.output_str();
        assert!(!out.contains("response") && !out.contains("x-extra"), "{to}: {out}");
        let dropped: Vec<(&str, &str)> =
            c.report().entries().iter().map(|e| (e.code.as_str(), e.pointer.as_str())).collect();
        assert_eq!(
            dropped,
            [("metadata-dropped", "/function/response"), ("metadata-dropped", "/x-extra")],
            "{to}"
        );
    }
    assert_eq!(registry.convert(clean, "openai", "openai").expect("converts").output(), clean);
    let mut converter = tooladapter::Converter::new();
    let options = tooladapter::Options::default();
    let openai = tooladapter::Format::OPENAI;
    let found = converter.check(tool, openai, openai, &options).expect("checks").clone();
    let pointers: Vec<&str> = found.entries().iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(pointers, ["/function/response", "/x-extra"]);
    assert!(found.entries().iter().all(|e| e.message.contains("Unknown parameter")));
    let none = converter.check(clean, openai, openai, &options).expect("checks");
    assert!(none.is_empty(), "{none:?}");
}

/// OpenAI's dated limits (a 1,024-character description, lifted in 2025; 128 tools a
/// request): `check` reports them as `dated-limit` warnings, a conversion writes what the
/// source wrote and says nothing, and one told to obey them cuts a description at 1,024
/// characters (counted as characters: `é` is one) with a warning, and says the request has too
/// many tools, writing every tool all the same.
#[test]
fn openai_dated_limits_are_reported_by_check_and_obeyed_only_when_asked() {
    let long = "é".repeat(1_000) + &"x".repeat(100);
    let tools: Vec<Value> = (0..130)
        .map(|i| {
            let description = if i == 3 { long.clone() } else { format!("tool {i}") };
            json!({"name": format!("t{i}"), "description": description,
                   "inputSchema": {"type": "object", "properties": {}}})
        })
        .collect();
    let catalog = serde_json::to_vec(&json!({ "tools": tools })).unwrap_or_default();
    let r = Registry::default();
    let dated = |entries: &[tooladapter::ReportEntry]| -> Vec<(String, Severity, String)> {
        entries
            .iter()
            .filter(|e| e.code == Code::DatedLimit || e.code == Code::WouldBeRejected)
            .map(|e| (e.code.as_str().to_owned(), e.severity, e.pointer.clone()))
            .collect()
    };

    // Not obeyed: nothing cut, nothing said.
    let plain = r.convert_with(&catalog, "mcp", "openai", &Options::default());
    let plain = plain.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dated(plain.report().entries()), vec![]);
    let out = output(&plain);
    assert_eq!(out[3]["function"]["description"], json!(long));
    assert_eq!(out.as_array().map(Vec::len), Some(130));

    // `check` on the written tools: one warning per limit, nothing refused.
    let openai = r.get("openai").unwrap_or_else(|| panic!("openai"));
    let mut c = Converter::new();
    let report = c.check(plain.output(), openai.as_ref(), openai.as_ref(), &Options::default());
    let report = report.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        dated(report.entries()),
        vec![
            ("dated-limit".to_owned(), Severity::Warning, String::new()),
            ("dated-limit".to_owned(), Severity::Warning, "/3/function/description".to_owned()),
        ]
    );
    assert!(report.entries().iter().any(|e| e.message.contains("130 tools in one request")));

    // Obeyed: the description cut at 1,024 characters, the request over the tool limit an
    // error, every tool written.
    let obey = Options::default().dated_limits(true);
    let cut = r.convert_with(&catalog, "mcp", "openai", &obey).unwrap_or_else(|e| panic!("{e}"));
    let out = output(&cut);
    let written = out[3]["function"]["description"].as_str().unwrap_or_default();
    assert_eq!(written.chars().count(), 1_024);
    assert!(long.starts_with(written));
    assert_eq!(out.as_array().map(Vec::len), Some(130));
    assert_eq!(
        dated(cut.report().entries()),
        vec![
            ("would-be-rejected".to_owned(), Severity::Error, String::new()),
            ("dated-limit".to_owned(), Severity::Warning, "/tools/3/description".to_owned()),
        ]
    );
    let entry = cut.report().entries().iter().find(|e| e.code == Code::DatedLimit);
    assert!(entry.is_some_and(|e| !e.arguments && e.message.contains("the last 76 characters")));
}
