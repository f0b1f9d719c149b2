//! The `langchain` format: LangChain's JSON-schema-as-tool dict (`title` = name), read and
//! written against the other formats, its round trip, its errors, the collision of the input
//! schema's own root `title`/`description` with the envelope, `$defs`, catalogs and the CLI.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::{Code, Conversion, ConversionError, ErrorKind, Registry, Severity};

#[track_caller]
fn convert(input: &str, from: &str, to: &str) -> Conversion {
    Registry::default()
        .convert(input.as_bytes(), from, to)
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

#[track_caller]
fn fails(input: &str, from: &str, to: &str) -> ConversionError {
    match Registry::default().convert(input.as_bytes(), from, to) {
        Ok(c) => panic!("{from} → {to} converted: {}", c.output_str()),
        Err(e) => e,
    }
}

fn json_of(c: &Conversion) -> Value {
    serde_json::from_slice(c.output()).expect("json output")
}

/// A Pydantic-style dict: nested titles, `$defs` with a `$ref`, `required` before `$defs`.
const WEATHER: &str = r##"{"title":"get_weather","description":"Current weather for a city.","type":"object","properties":{"city":{"title":"City","type":"string"},"unit":{"$ref":"#/$defs/Unit"}},"required":["city"],"$defs":{"Unit":{"title":"Unit","enum":["c","f"],"type":"string"}}}"##;

/// WEATHER's input schema: the dict without `title` and `description`, order kept.
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"title": "City", "type": "string"},
            "unit": {"$ref": "#/$defs/Unit"}
        },
        "required": ["city"],
        "$defs": {"Unit": {"title": "Unit", "enum": ["c", "f"], "type": "string"}}
    })
}

#[test]
fn reads_into_each_format() {
    let description = "Current weather for a city.";
    let mcp = convert(WEATHER, "langchain", "mcp");
    assert!(mcp.report().is_empty(), "{:?}", mcp.report());
    assert_eq!(
        json_of(&mcp),
        json!({"name": "get_weather", "description": description, "inputSchema": weather_schema()})
    );
    let openai = convert(WEATHER, "langchain", "openai");
    assert!(openai.report().is_empty(), "{:?}", openai.report());
    assert_eq!(
        json_of(&openai),
        json!({"type": "function", "function": {
            "name": "get_weather", "description": description, "parameters": weather_schema()}})
    );
    let anthropic = convert(WEATHER, "langchain", "anthropic");
    assert!(anthropic.report().is_empty(), "{:?}", anthropic.report());
    assert_eq!(
        json_of(&anthropic),
        json!({"name": "get_weather", "description": description, "input_schema": weather_schema()})
    );
    // Gemini's `parameters` has no refs: the definition is inlined where it is used.
    let gemini = convert(WEATHER, "langchain", "gemini");
    assert_eq!(
        json_of(&gemini),
        json!({"name": "get_weather", "description": description, "parameters": {
            "type": "OBJECT",
            "properties": {
                "city": {"title": "City", "type": "STRING"},
                "unit": {"title": "Unit", "enum": ["c", "f"], "type": "STRING"}
            },
            "required": ["city"]
        }})
    );
    let codes: Vec<Code> = gemini.report().entries().iter().map(|e| e.code).collect();
    assert!(codes.iter().all(|c| *c == Code::RefInlined), "{:?}", gemini.report());
    assert!(!codes.is_empty());
}

#[test]
fn writes_from_each_format() {
    let want = json!({
        "title": "lookup",
        "description": "Find a record.",
        "type": "object",
        "properties": {"id": {"type": "integer", "minimum": 1}},
        "required": ["id"]
    });
    let schema =
        r#"{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}"#;
    let sources = [
        ("mcp", format!(r#"{{"name":"lookup","description":"Find a record.","inputSchema":{schema}}}"#)),
        (
            "openai",
            format!(
                r#"{{"type":"function","function":{{"name":"lookup","description":"Find a record.","parameters":{schema}}}}}"#
            ),
        ),
        (
            "anthropic",
            format!(r#"{{"name":"lookup","description":"Find a record.","input_schema":{schema}}}"#),
        ),
        (
            "gemini",
            r#"{"name":"lookup","description":"Find a record.","parameters":{"type":"OBJECT","properties":{"id":{"type":"INTEGER","minimum":1}},"required":["id"]}}"#.to_owned(),
        ),
    ];
    for (from, input) in sources {
        let c = convert(&input, from, "langchain");
        assert_eq!(json_of(&c), want, "{from}");
        assert!(c.report().is_empty(), "{from}: {:?}", c.report());
        // The keys come in the shape LangChain documents: name and description first.
        let keys: Vec<String> = json_of(&c).as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["title", "description", "type", "properties", "required"], "{from}");
    }
}

#[test]
fn round_trip_is_byte_identical() {
    let inputs = [
        WEATHER,
        // `title` and `description` anywhere among the keywords; a null description; an
        // unknown keyword; an escape, non-ASCII text and a number kept as written.
        r#"{"type":"object","description":null,"properties":{"a\"b":{"type":"number","maximum":1.50}},"title":"té","x-extra":[1,{"k":true}]}"#,
        r#"{"properties":{},"title":"no_type"}"#,
        r#"{"title":"bare"}"#,
        r#"[{"title":"a","description":"first"},{"description":"second","title":"b","type":"object","properties":{"n":{"type":"integer"}}}]"#,
    ];
    for input in inputs {
        let c = convert(input, "langchain", "langchain");
        assert_eq!(c.output_str(), input);
        assert!(c.report().is_empty(), "{input}: {:?}", c.report());
    }
}

#[test]
fn other_formats_round_trip_through_langchain() {
    let mcp = r#"{"name":"lookup","description":"Find a record.","inputSchema":{"type":"object","properties":{"id":{"type":"integer","title":"Id"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"],"additionalProperties":false}}"#;
    let there = convert(mcp, "mcp", "langchain");
    let back = convert(there.output_str(), "langchain", "mcp");
    assert_eq!(back.output_str(), mcp);
    assert!(there.report().is_empty() && back.report().is_empty());
    let anthropic = r#"{"name":"noop","input_schema":{"type":"object","properties":{}}}"#;
    let there = convert(anthropic, "anthropic", "langchain");
    assert_eq!(there.output_str(), r#"{"title":"noop","type":"object","properties":{}}"#);
    assert_eq!(convert(there.output_str(), "langchain", "anthropic").output_str(), anthropic);
}

#[test]
fn a_missing_title_is_an_error_with_a_pointer() {
    let e = fails(r#"{"type":"object","properties":{"q":{"type":"string"}}}"#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "title", .. }), "{e}");
    assert_eq!(e.pointer(), "");
    assert!(e.to_string().contains("top-level `title`"), "{e}");
    // In a catalog, the tool is left out and its entry's pointer names the element.
    let c = convert(r#"[{"title":"ok"},{"description":"no name"}]"#, "langchain", "openai");
    assert_eq!(c.tools_written(), 1);
    let e = c.report().entries().iter().find(|e| e.severity == Severity::Error).unwrap();
    assert_eq!(
        (e.code, e.feature.as_str(), e.pointer.as_str()),
        (Code::ToolNotConverted, "title", "/1")
    );
    // A catalog none of whose tools can be read is an error.
    let e = fails(r#"[{"description":"no name"}]"#, "langchain", "openai");
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "title", .. }), "{e}");
    assert_eq!(e.pointer(), "/0");
    // Another format's tool read as LangChain says which format it looks like, at the
    // member that holds its schema; with a `title` (MCP 2025-06-18 has one) too, where it
    // would otherwise read as a dict with two unknown keywords and no arguments.
    for mcp in [
        r#"{"name":"x","inputSchema":{"type":"object"}}"#,
        r#"{"name":"x","title":"X","inputSchema":{"type":"object"}}"#,
    ] {
        let e = fails(mcp, "langchain", "mcp");
        assert!(matches!(e.kind(), ErrorKind::ForeignMember { .. }), "{e}");
        assert_eq!(e.pointer(), "/inputSchema");
        assert!(e.to_string().contains("the input looks like `mcp`"), "{e}");
    }
    // And a LangChain dict read as MCP says so too.
    let e = fails(WEATHER, "mcp", "openai");
    assert!(e.to_string().contains("looks like a `langchain` tool"), "{e}");
}

#[test]
fn a_bad_title_or_description_is_an_error_with_a_pointer() {
    let e = fails(r#"{"title":7,"type":"object"}"#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "number", .. }), "{e}");
    assert_eq!(e.pointer(), "/title");
    let e = fails(r#"[{"title":"a","description":["x"]}]"#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "array", .. }), "{e}");
    assert_eq!(e.pointer(), "/0/description");
    assert_eq!(e.tool(), Some("a"));
    let e = fails(r#""get_weather""#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::Shape(_)), "{e}");
    let e = fails(r#"[true]"#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "boolean", .. }), "{e}");
    assert_eq!(e.pointer(), "/0");
    // A duplicate key anywhere in the dict is refused like in any schema.
    let e = fails(r#"{"title":"a","title":"b"}"#, "langchain", "mcp");
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
    assert_eq!(e.pointer(), "/title");
}

#[test]
fn the_schemas_own_root_title_and_description_give_way_to_the_tools() {
    // Both differ from the tool's: the title is dropped, the description appended.
    let mcp = r#"{"name":"lookup","description":"Find a record.","inputSchema":{"title":"LookupArgs","description":"Arguments of lookup.","type":"object","properties":{"id":{"type":"integer","description":"Record id."}}}}"#;
    let c = convert(mcp, "mcp", "langchain");
    assert_eq!(
        c.output_str(),
        r#"{"title":"lookup","description":"Find a record.\n\nArguments of lookup.","type":"object","properties":{"id":{"type":"integer","description":"Record id."}}}"#
    );
    let entries = c.report().entries();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert_eq!(
        (entries[0].code, entries[0].severity, entries[0].pointer.as_str()),
        (Code::KeywordDropped, Severity::Info, "/inputSchema/title")
    );
    assert!(entries[0].message.contains("LookupArgs"), "{}", entries[0].message);
    assert_eq!(
        (entries[1].code, entries[1].severity, entries[1].pointer.as_str()),
        (Code::KeywordDescribed, Severity::Info, "/inputSchema/description")
    );
    // Nothing meaning anything was lost: no warning.
    assert!(c.warnings().is_empty());

    // A tool without a description takes the schema's.
    let anthropic = r#"{"name":"lookup","input_schema":{"type":"object","description":"Arguments of lookup.","properties":{}}}"#;
    let c = convert(anthropic, "anthropic", "langchain");
    assert_eq!(
        c.output_str(),
        r#"{"title":"lookup","description":"Arguments of lookup.","type":"object","properties":{}}"#
    );
    assert_eq!(c.report().entries()[0].pointer, "/input_schema/description");
    assert!(c.report().entries()[0].message.contains("becomes the tool's description"));

    // The same text twice is written once.
    let same = r#"{"name":"x","description":"Same.","inputSchema":{"type":"object","description":"Same."}}"#;
    let c = convert(same, "mcp", "langchain");
    assert_eq!(c.output_str(), r#"{"title":"x","description":"Same.","type":"object"}"#);
    assert_eq!(c.report().len(), 1);

    // A description that is not text breaks JSON Schema's meta-schema, which the providers
    // hold schemas to: an error at its pointer, not a warning.
    let odd = r#"{"name":"x","inputSchema":{"type":"object","description":42}}"#;
    let e = fails(odd, "mcp", "langchain");
    assert!(matches!(e.kind(), ErrorKind::KeywordValue { keyword: "description", .. }), "{e}");
    assert_eq!(e.pointer(), "/inputSchema/description");

    // A constraint the target describes at the root lands in the tool's description too, not
    // in a second `description` key (a caller's policy on the same format).
    let lc = r#"{"title":"x","description":"Does x.","type":"object","minProperties":1,"properties":{}}"#;
    let options = tooladapter::Options::default()
        .policy(tooladapter::ir::Keyword::MinProperties, tooladapter::Action::Describe);
    let c = Registry::default().convert_with(lc.as_bytes(), "langchain", "langchain", &options);
    let c = c.expect("converts");
    assert_eq!(
        c.output_str(),
        r#"{"title":"x","description":"Does x.\n\nConstraints: minProperties 1.","type":"object","properties":{}}"#
    );
}

#[test]
fn defs_and_refs_stay_at_the_root() {
    // `definitions` (Pydantic 1) and `$defs` (Pydantic 2) are part of the parameters, where
    // LangChain leaves them; refs into them still resolve after the envelope is taken out.
    let v1 = r##"{"title":"f","type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{"A":{"type":"string"}}}"##;
    let mcp = convert(v1, "langchain", "mcp");
    assert_eq!(
        json_of(&mcp)["inputSchema"],
        json!({"type": "object", "properties": {"a": {"$ref": "#/definitions/A"}},
               "definitions": {"A": {"type": "string"}}})
    );
    // OpenAI reads 2020-12: `definitions` becomes `$defs` and the ref follows (info).
    let openai = convert(v1, "langchain", "openai");
    assert_eq!(
        json_of(&openai)["function"]["parameters"],
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"type": "string"}}})
    );
    // A dangling ref is reported against the dict's own pointers (the schema is the tool).
    let dangling = r##"{"title":"f","type":"object","properties":{"a":{"$ref":"#/$defs/Nope"}}}"##;
    let c = convert(dangling, "langchain", "gemini");
    let e = c.report().entries().iter().find(|e| e.code == Code::RefDangling).expect("dangling");
    assert_eq!(e.pointer, "/properties/a/$ref");
}

#[test]
fn catalogs_are_arrays() {
    let catalog =
        r#"[{"title":"a","type":"object","properties":{}},{"title":"b","description":"B."}]"#;
    let mcp = convert(catalog, "langchain", "mcp");
    assert_eq!(
        json_of(&mcp),
        json!({"tools": [
            {"name": "a", "inputSchema": {"type": "object", "properties": {}}},
            {"name": "b", "description": "B.", "inputSchema": {"type": "object", "properties": {}}}
        ]})
    );
    // The second tool had no parameters; MCP requires an input schema (info, not a loss).
    assert_eq!(mcp.report().len(), 1);
    assert_eq!(mcp.report().entries()[0].code, Code::InputSchemaAdded);
    // Back: an MCP catalog object becomes a JSON array; its other members are reported.
    let object = r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"2"}"#;
    let lc = convert(object, "mcp", "langchain");
    assert_eq!(lc.output_str(), r#"[{"title":"a","type":"object"}]"#);
    assert_eq!(lc.report().entries()[0].code, Code::CatalogMemberDropped);
    // A dict with a top-level `tools` array is one tool (LangChain has no catalog object):
    // `tools` is a keyword of its schema, passed on like any unknown keyword.
    let one = r#"{"title":"t","type":"object","properties":{},"tools":[{"title":"u"}]}"#;
    let c = convert(one, "langchain", "mcp");
    assert_eq!(c.tools_written(), 1);
    assert_eq!(c.shape(), tooladapter::DocumentKind::Single);
    assert_eq!(
        json_of(&c),
        json!({"name": "t", "inputSchema": {"type": "object", "properties": {},
               "tools": [{"title": "u"}]}})
    );
}

#[test]
fn what_langchain_has_no_place_for_is_reported() {
    let mcp = r#"{"name":"x","title":"X","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}"#;
    let c = convert(mcp, "mcp", "langchain");
    assert_eq!(c.output_str(), r#"{"title":"x","type":"object"}"#);
    // Each is reported, `info` and not about the arguments: no argument depends on them.
    let dropped: Vec<(&str, &str, Severity, bool)> = c
        .report()
        .entries()
        .iter()
        .map(|e| (e.feature.as_str(), e.pointer.as_str(), e.severity, e.arguments))
        .collect();
    assert_eq!(
        dropped,
        [
            ("title", "/title", Severity::Info, false),
            ("outputSchema", "/outputSchema", Severity::Info, false),
            ("annotations", "/annotations", Severity::Info, false),
        ]
    );
    assert!(c.warnings().is_empty());
    let strict = r#"{"type":"function","function":{"name":"x","strict":true,"parameters":{"type":"object","properties":{},"additionalProperties":false}}}"#;
    let c = convert(strict, "openai", "langchain");
    assert_eq!(c.warnings().len(), 1);
    assert_eq!(c.warnings()[0].path, "/function/strict");
    // A root that accepts no object cannot be a LangChain dict.
    let e = fails(r#"{"name":"x","inputSchema":{"type":"string"}}"#, "mcp", "langchain");
    assert!(matches!(e.kind(), ErrorKind::NotConvertible(_)), "{e}");
    // One without `type` gets it (the same calls are accepted).
    let c = convert(r#"{"name":"x","inputSchema":{"properties":{}}}"#, "mcp", "langchain");
    assert_eq!(c.output_str(), r#"{"title":"x","type":"object","properties":{}}"#);
    assert_eq!(c.report().entries()[0].code, Code::RootTypeSet);
}

#[test]
fn a_rename_points_at_the_title() {
    let c = convert(
        r#"{"title":"get weather","type":"object","properties":{}}"#,
        "langchain",
        "openai",
    );
    let e = &c.report().entries()[0];
    assert_eq!((e.code, e.pointer.as_str()), (Code::ToolRenamed, "/title"));
    assert_eq!(json_of(&c)["function"]["name"], "get_weather");
}

#[test]
fn langchain_is_a_registered_keep_all_format() {
    let r = Registry::default();
    let adapter = r.get("langchain").expect("registered");
    assert!(tooladapter::SchemaFeature::ALL.iter().all(|f| adapter.info().supports_feature(*f)));
    assert_eq!(adapter.info().catalog_key, None);
    assert!(adapter.info().tool_is_schema);
}

#[test]
fn cli_reads_and_writes_langchain() {
    let (code, out, err) =
        bin::run(&["convert", "--from", "langchain", "--to", "mcp"], WEATHER.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(v["inputSchema"], weather_schema());
    let mcp = String::from_utf8(out).expect("utf-8");
    let (code, out, err) =
        bin::run(&["convert", "--from", "mcp", "--to", "langchain"], mcp.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(String::from_utf8(out).expect("utf-8").trim_end(), WEATHER);
    // A missing title: exit 1, the entry names the pointer, and the other tool is written.
    let (code, out, err) =
        bin::run(&["convert", "--from", "langchain", "--to", "openai"], br#"[{"title":"a"},{}]"#);
    assert_eq!(code, 1);
    assert!(err.contains("`title`") && err.contains(r#"at "/1""#), "{err}");
    let v: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(v[0]["function"]["name"], "a");
    assert_eq!(v.as_array().map(Vec::len), Some(1));
}
