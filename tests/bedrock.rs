//! The `bedrock` format: Amazon Bedrock Converse tools (`{"toolSpec": {name, description,
//! inputSchema: {json}}}`), read and written against the other formats; `toolConfig` catalogs
//! with `cachePoint` entries and `toolChoice`; the same-format round trip; Bedrock's name and
//! key rules; strict tools; `check`; its errors, each with its pointer; and the CLI.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::formats::Bedrock;
use tooladapter::{
    Code, Conversion, ConversionError, Converter, Effect, ErrorKind, ModelFamily, Options,
    Registry, Severity, Strict,
};

#[track_caller]
fn convert(input: &str, from: &str, to: &str) -> Conversion {
    Registry::default()
        .convert(input.as_bytes(), from, to)
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

#[track_caller]
fn fails(input: &str) -> ConversionError {
    match Registry::default().convert(input.as_bytes(), "bedrock", "mcp") {
        Ok(c) => panic!("bedrock → mcp converted: {}", c.output_str()),
        Err(e) => e,
    }
}

fn json_of(c: &Conversion) -> Value {
    serde_json::from_slice(c.output()).expect("json output")
}

fn codes(c: &Conversion) -> Vec<Code> {
    c.report().entries().iter().map(|e| e.code).collect()
}

fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name"},
            "days": {"type": "integer", "minimum": 1, "maximum": 7}
        },
        "required": ["city"]
    })
}

/// One Converse tool.
fn weather_tool() -> Value {
    json!({"toolSpec": {
        "name": "get_weather",
        "description": "Weather forecast for a city.",
        "inputSchema": {"json": weather_schema()}
    }})
}

/// A `toolConfig`: a tool, a cache point after it, a strict tool, and `toolChoice`.
const TOOL_CONFIG: &str = r#"{"tools":[{"toolSpec":{"name":"get_weather","description":"Weather forecast for a city.","inputSchema":{"json":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","minimum":1,"maximum":7}},"required":["city"]}}}},{"cachePoint":{"type":"default"}},{"toolSpec":{"name":"ping","inputSchema":{"json":{"type":"object","properties":{},"additionalProperties":false}},"strict":true}}],"toolChoice":{"auto":{}}}"#;

#[test]
fn reads_a_tool() {
    let input = weather_tool().to_string();
    let mcp = convert(&input, "bedrock", "mcp");
    assert!(mcp.report().is_empty(), "{:?}", mcp.report());
    assert_eq!(
        json_of(&mcp),
        json!({"name": "get_weather", "description": "Weather forecast for a city.",
               "inputSchema": weather_schema()})
    );
    let canonical = Registry::default().to_canonical(input.as_bytes(), "bedrock").expect("reads");
    assert_eq!(canonical.len(), 1);
    assert_eq!(canonical[0].name, "get_weather");
}

#[test]
fn reads_into_the_owned_model() {
    let tools = Registry::default().to_canonical(TOOL_CONFIG.as_bytes(), "bedrock").expect("reads");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get_weather", "cachePoint", "ping"]);
    assert_eq!(tools[0].source_format.as_deref(), Some("bedrock"));
    assert_eq!(tools[1].source_meta["opaque"], json!({"cachePoint": {"type": "default"}}));
    assert_eq!(tools[2].strict, Some(true));
}

#[test]
fn tool_config_round_trips_byte_identical() {
    let c = convert(TOOL_CONFIG, "bedrock", "bedrock");
    assert_eq!(c.output_str(), TOOL_CONFIG);
    assert!(c.report().is_empty(), "{:?}", c.report());
    // A single tool and a bare array too, members in their source order.
    let single = r#"{"toolSpec":{"description":"d","name":"a","x-team":{"n":1.50},"inputSchema":{"json":{"type":"object","properties":{"n":{"type":"number","multipleOf":0.10}}}}}}"#;
    assert_eq!(convert(single, "bedrock", "bedrock").output_str(), single);
    let array = format!("[{single},{{\"cachePoint\":{{\"type\":\"default\"}}}}]");
    assert_eq!(convert(&array, "bedrock", "bedrock").output_str(), array);
}

#[test]
fn tool_config_to_another_format_reports_cache_point_and_tool_choice() {
    let c = convert(TOOL_CONFIG, "bedrock", "mcp");
    let out = json_of(&c);
    let names: Vec<&str> =
        out["tools"].as_array().expect("tools").iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["get_weather", "ping"]);
    assert!(out.get("toolChoice").is_none());
    let entries = c.report().entries();
    let cache = entries.iter().find(|e| e.code == Code::NotAFunctionTool).expect("cachePoint");
    assert_eq!(cache.severity, Severity::Error);
    assert_eq!(cache.tool, "cachePoint");
    assert_eq!(cache.feature, "cachePoint");
    assert!(cache.message.contains("not a function tool"), "{}", cache.message);
    assert!(cache.message.contains("left out"), "{}", cache.message);
    let choice = entries.iter().find(|e| e.code == Code::CatalogMemberDropped).expect("choice");
    assert_eq!((choice.feature.as_str(), choice.pointer.as_str()), ("toolChoice", "/toolChoice"));
    // No argument depends on the tool choice (not about the arguments), but it said how the
    // tools are called: a warning.
    assert_eq!(
        (choice.severity, choice.effect, choice.arguments),
        (Severity::Warning, Effect::None, false)
    );
    // MCP has no `strict`: dropped and said so, with the pointer into the Bedrock tool.
    let strict = entries.iter().find(|e| e.code == Code::MetadataDropped).expect("strict");
    assert_eq!((strict.tool.as_str(), strict.tool_pointer.as_str()), ("ping", "/toolSpec/strict"));
    assert_eq!(strict.pointer, "/tools/2/toolSpec/strict");
    // A target with `strict` keeps it.
    let openai = json_of(&convert(TOOL_CONFIG, "bedrock", "openai"));
    assert_eq!(openai[1]["function"]["strict"], json!(true));
    let anthropic = json_of(&convert(TOOL_CONFIG, "bedrock", "anthropic"));
    assert_eq!(anthropic[1]["strict"], json!(true));
}

#[test]
fn a_lone_system_tool_cannot_be_converted_elsewhere() {
    let input = r#"{"systemTool":{"name":"nova_grounding"}}"#;
    assert_eq!(convert(input, "bedrock", "bedrock").output_str(), input);
    let e = Registry::default().convert(input.as_bytes(), "bedrock", "openai").expect_err("left");
    assert!(matches!(e.kind(), ErrorKind::NotConvertible(_)), "{e}");
    assert_eq!(e.tool(), Some("systemTool"));
}

#[test]
fn bare_array_is_a_catalog() {
    let input = json!([weather_tool(), {"cachePoint": {"type": "default"}}]).to_string();
    let mcp = convert(&input, "bedrock", "mcp");
    assert_eq!(json_of(&mcp)["tools"][0]["name"], "get_weather");
    assert_eq!(codes(&mcp), [Code::NotAFunctionTool]);
    // From another format's bare array, Bedrock writes a `toolConfig`.
    let openai =
        json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]);
    let bedrock = convert(&openai.to_string(), "openai", "bedrock");
    assert_eq!(
        json_of(&bedrock),
        json!({"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]})
    );
}

#[test]
fn writes_from_each_format_and_back() {
    let schema = weather_schema();
    let expected = weather_tool();
    let sources = [
        (
            "mcp",
            json!({"name": "get_weather", "description": "Weather forecast for a city.", "inputSchema": schema}),
        ),
        (
            "openai",
            json!({"type": "function", "function": {"name": "get_weather", "description": "Weather forecast for a city.", "parameters": schema}}),
        ),
        (
            "openai-responses",
            json!({"type": "function", "name": "get_weather", "description": "Weather forecast for a city.", "parameters": schema, "strict": false}),
        ),
        (
            "anthropic",
            json!({"name": "get_weather", "description": "Weather forecast for a city.", "input_schema": schema}),
        ),
        (
            "gemini-json",
            json!({"name": "get_weather", "description": "Weather forecast for a city.", "parametersJsonSchema": schema}),
        ),
    ];
    for (from, tool) in sources {
        let c = convert(&tool.to_string(), from, "bedrock");
        let out = json_of(&c);
        if from == "openai-responses" {
            // `strict: false` has a place in Bedrock's tool and is kept.
            assert_eq!(out["toolSpec"]["strict"], json!(false), "{from}");
            assert_eq!(out["toolSpec"]["inputSchema"], expected["toolSpec"]["inputSchema"]);
        } else {
            assert_eq!(out, expected, "{from}: {:?}", c.report());
            assert!(c.report().is_empty(), "{from}: {:?}", c.report());
        }
        // And back: the same tool in the source's format.
        let back = json_of(&convert(c.output_str(), "bedrock", from));
        assert_eq!(back, tool, "bedrock → {from}");
    }
    // Gemini's OpenAPI `parameters`: upper-case types and `nullable` become JSON Schema.
    let gemini = r#"{"name":"f","parameters":{"type":"OBJECT","properties":{"n":{"type":"INTEGER","nullable":true}}}}"#;
    let c = convert(gemini, "gemini", "bedrock");
    assert_eq!(
        json_of(&c)["toolSpec"]["inputSchema"]["json"],
        json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}})
    );
    assert_eq!(codes(&c), [Code::DialectRewritten]);
}

#[test]
fn mcp_round_trip_keeps_name_description_and_schema() {
    let catalog = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/catalog.mcp.json"
    ))
    .expect("example catalog");
    let source: Value = serde_json::from_str(&catalog).expect("json");
    let there = convert(&catalog, "mcp", "bedrock");
    let back = convert(there.output_str(), "bedrock", "mcp");
    let back = json_of(&back);
    for (a, b) in source["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .zip(back["tools"].as_array().expect("tools"))
    {
        // Renamed property keys are Bedrock's rule at work (the inverse map restores them).
        if there
            .report()
            .entries()
            .iter()
            .any(|e| e.code == Code::KeyRenamed && e.tool == a["name"])
        {
            continue;
        }
        assert_eq!(b["name"], a["name"]);
        assert_eq!(b["description"], a["description"]);
        assert_eq!(b["inputSchema"], a["inputSchema"], "{}", a["name"]);
    }
}

#[test]
fn name_rule_renames_and_the_inverse_map_restores() {
    let mcp = json!({"name": "get weather/now", "description": "", "inputSchema": {"type": "object", "properties": {"a b": {"type": "string"}}}});
    let c = convert(&mcp.to_string(), "mcp", "bedrock");
    let out = json_of(&c);
    assert_eq!(out["toolSpec"]["name"], "get_weather_now");
    // Bedrock rejects an empty description; an empty one says nothing, so none is written.
    assert!(out["toolSpec"].get("description").is_none(), "{out}");
    assert_eq!(
        out["toolSpec"]["inputSchema"]["json"]["properties"],
        json!({"a_b": {"type": "string"}})
    );
    let renamed = c.report().entries().iter().find(|e| e.code == Code::ToolRenamed).expect("name");
    // The inverse map restores the name: the same calls (`info`), not about the arguments.
    assert_eq!(
        (renamed.severity, renamed.effect, renamed.arguments),
        (Severity::Info, Effect::None, false)
    );
    assert!(renamed.message.contains("^[a-zA-Z0-9_-]{1,64}$"), "{}", renamed.message);
    let key = c.report().entries().iter().find(|e| e.code == Code::KeyRenamed).expect("key");
    assert_eq!((key.severity, key.effect, key.arguments), (Severity::Info, Effect::None, true));
    // The inverse map gives the model's call back its source names.
    let call = json!({"name": "get_weather_now", "arguments": {"a_b": "x"}});
    let back = c.inverse().unmap_call(&call).expect("unmaps");
    assert_eq!(back.name, "get weather/now");
    assert_eq!(back.arguments, json!({"a b": "x"}));
    // 64 bytes at most.
    let long = "a".repeat(65);
    let c = convert(
        &json!({"name": long, "inputSchema": {"type": "object"}}).to_string(),
        "mcp",
        "bedrock",
    );
    assert_eq!(json_of(&c)["toolSpec"]["name"].as_str().map(str::len), Some(64));
}

#[test]
fn root_must_be_an_object_schema() {
    let c = convert(r#"{"name":"x","inputSchema":{"properties":{}}}"#, "mcp", "bedrock");
    assert_eq!(json_of(&c)["toolSpec"]["inputSchema"]["json"]["type"], "object");
    assert_eq!(codes(&c), [Code::RootTypeSet]);
    let e = Registry::default()
        .convert(br#"{"name":"x","inputSchema":{"type":"string"}}"#, "mcp", "bedrock")
        .expect_err("not an object");
    assert!(matches!(e.kind(), ErrorKind::NotConvertible(_)), "{e}");
    // A tool without a schema gets the empty object schema Bedrock requires.
    let c = convert(r#"{"name":"x"}"#, "mcp", "bedrock");
    assert_eq!(
        json_of(&c)["toolSpec"]["inputSchema"],
        json!({"json": {"type": "object", "properties": {}}})
    );
    assert_eq!(codes(&c), [Code::InputSchemaAdded]);
}

#[test]
fn strict_mode_follows_claude_on_bedrock() {
    let mcp = r#"{"name":"f","inputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":3}}}}"#;
    let options = Options::default().strict(tooladapter::Strict::On);
    let c =
        Registry::default().convert_with(mcp.as_bytes(), "mcp", "bedrock", &options).expect("ok");
    let out = json_of(&c);
    assert_eq!(out["toolSpec"]["strict"], json!(true));
    assert_eq!(out["toolSpec"]["inputSchema"]["json"]["additionalProperties"], json!(false));
    // Numeric bounds are not part of Claude's strict subset: described.
    assert!(codes(&c).contains(&Code::KeywordDescribed), "{:?}", c.report());
}

#[test]
fn check_lists_what_bedrock_would_reject() {
    let catalog = json!({"tools": [
        {"toolSpec": {"name": "bad name", "inputSchema": {"json": {"type": "object", "properties": {"a b": {"type": "string"}}}}}},
        {"cachePoint": {"type": "default"}},
        {"toolSpec": {"name": "s", "strict": true, "inputSchema": {"json": {"type": "object", "properties": {"n": {"type": "integer"}}}}}},
        {"toolSpec": {"name": "r", "inputSchema": {"json": {"anyOf": [{"type": "object"}]}}}}
    ]});
    let bytes = serde_json::to_vec(&catalog).expect("json");
    let mut converter = Converter::new();
    let report = converter.check(&bytes, &Bedrock, &Bedrock, &Options::default()).expect("reads");
    let found: Vec<(&str, &str)> =
        report.entries().iter().map(|e| (e.tool.as_str(), e.tool_pointer.as_str())).collect();
    let expected = [
        ("bad name", "/toolSpec/name"),
        ("bad name", "/toolSpec/inputSchema/json/properties/a b"),
        ("s", "/toolSpec/inputSchema/json"),
        ("r", "/toolSpec/inputSchema/json"),
        ("r", "/toolSpec/inputSchema/json/anyOf"),
    ];
    for e in expected {
        assert!(found.contains(&e), "{e:?} not in {found:?}");
    }
    assert!(report.entries().iter().all(|e| e.code == Code::WouldBeRejected));
    // The cache point is not a tool to check.
    assert!(found.iter().all(|(t, _)| *t != "cachePoint"), "{found:?}");
    // A clean catalog passes.
    let clean = json!({"tools": [weather_tool()]}).to_string();
    let report =
        converter.check(clean.as_bytes(), &Bedrock, &Bedrock, &Options::default()).expect("reads");
    assert!(report.is_empty(), "{report:?}");
}

#[test]
fn wrong_shapes_are_errors_with_pointers() {
    let cases: [(&str, &str); 10] = [
        (r#"{"toolSpec":{"name":"x","inputSchema":{"yaml":{}}}}"#, "/toolSpec/inputSchema/yaml"),
        (r#"{"toolSpec":{"name":"x","inputSchema":{"json":{},"x":1}}}"#, "/toolSpec/inputSchema/x"),
        (r#"{"toolSpec":{"name":"x","inputSchema":{}}}"#, "/toolSpec/inputSchema"),
        (r#"{"toolSpec":{"name":"x","inputSchema":"s"}}"#, "/toolSpec/inputSchema"),
        (r#"{"toolSpec":{"name":"x","inputSchema":{"json":[]}}}"#, "/toolSpec/inputSchema/json"),
        (r#"{"toolSpec":{"inputSchema":{"json":{}}}}"#, "/toolSpec"),
        (r#"{"toolSpec":[]}"#, "/toolSpec"),
        (r#"{"toolSpec":{"name":"x","inputSchema":{"json":{}}},"cachePoint":{}}"#, "/cachePoint"),
        (
            r#"[{"toolSpec":{"name":"a","description":7,"inputSchema":{"json":{}}}}]"#,
            "/0/toolSpec/description",
        ),
        (
            r#"{"toolSpec":{"name":"x","inputSchema":{"json":{},"json":{}}}}"#,
            "/toolSpec/inputSchema/json",
        ),
    ];
    for (input, pointer) in cases {
        let e = fails(input);
        assert_eq!(e.pointer(), pointer, "{input}: {e}");
    }
    // In a catalog with good tools, the bad one is left out with an entry at its pointer.
    let input = r#"{"tools":[{"toolSpec":{"name":"a","inputSchema":{"json":{}}}},{"toolSpec":{"name":5}}]}"#;
    let c = convert(input, "bedrock", "mcp");
    assert_eq!(c.output_str(), r#"{"tools":[{"name":"a","inputSchema":{}}]}"#);
    let left = c.report().entries().iter().find(|e| e.severity == Severity::Error).unwrap();
    assert_eq!(
        (left.code, left.pointer.as_str()),
        (Code::ToolNotConverted, "/tools/1/toolSpec/name")
    );
    let e = fails(r#"{"toolSpec":{"name":"x","inputSchema":{}}}"#);
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "json", .. }), "{e}");
    assert_eq!(e.tool(), Some("x"));
    let e = fails(r#"{"toolSpec":{"name":"x","inputSchema":"s"}}"#);
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "string", .. }), "{e}");
    // Another format's tool read as Bedrock: the error names it, at its schema member.
    let e = fails(r#"{"name":"x","inputSchema":{"type":"object"}}"#);
    let mcp = ErrorKind::ForeignMember { member: "inputSchema".into(), formats: vec!["mcp"] };
    assert_eq!((e.kind(), e.pointer()), (&mcp, "/inputSchema"), "{e}");
    assert!(e.to_string().contains("`mcp`"), "{e}");
    // Without a schema member, the hint still names it.
    let e = fails(r#"{"name":"x","title":"X"}"#);
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "toolSpec", .. }), "{e}");
    // And a Bedrock tool read as another format.
    let e = Registry::default()
        .convert(weather_tool().to_string().as_bytes(), "mcp", "openai")
        .expect_err("not mcp");
    assert!(e.to_string().contains("`bedrock`"), "{e}");
}

#[test]
fn cli_lists_and_converts() {
    let (code, out, err) = bin::run(&["formats"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&out).contains("bedrock"));
    let catalog =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/catalog.mcp.json"))
            .expect("example catalog");
    let (code, out, err) =
        bin::run(&["convert", "--from", "mcp", "--to", "bedrock", "-"], &catalog);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_slice(&out).expect("json");
    assert!(out["tools"][0]["toolSpec"]["inputSchema"]["json"].is_object(), "{out}");
    let (code, _, err) = bin::run(&["check", "--to", "bedrock", "-"], TOOL_CONFIG.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        bin::run(&["convert", "--from", "bedrock", "--to", "mcp", "-"], TOOL_CONFIG.as_bytes());
    assert_eq!(code, 1, "the left-out cache point is an error entry: {err}");
    assert!(err.contains("not-a-function-tool"), "{err}");
}

/// A strict tool in each format that has a place for `strict`, and one in MCP (no `strict`).
fn strict_sources() -> [(&'static str, Value); 4] {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false});
    [
        (
            "bedrock",
            json!({"toolSpec": {"name": "f", "inputSchema": {"json": schema}, "strict": true}}),
        ),
        (
            "openai",
            json!({"type": "function", "function": {"name": "f", "parameters": schema, "strict": true}}),
        ),
        ("anthropic", json!({"name": "f", "input_schema": schema, "strict": true})),
        ("mcp", json!({"name": "f", "inputSchema": schema})),
    ]
}

/// Every model family × every source, plain and with `--strict`: a family with a strict mode
/// (Claude) keeps a strict source strict and makes tools strict on request; the others refuse
/// `--strict` as an invalid option, and drop a source's `strict: true` with a warning that
/// the guarantee is lost; either way the output passes `check` for the family.
#[test]
fn model_families_hold_their_strict_mode() {
    let mut converter = Converter::new();
    for family in ModelFamily::ALL {
        let to = family.adapter();
        assert_eq!(to.name(), "bedrock", "{family}");
        for (from, tool) in strict_sources() {
            let input = tool.to_string();
            for asked in [None, Some(Strict::On)] {
                let mut options = Options::default();
                if let Some(s) = asked {
                    options = options.strict(s);
                }
                let result = converter.convert(input.as_bytes(), from, to, &options);
                if asked.is_some() && family.strict().is_none() {
                    let e = result
                        .err()
                        .unwrap_or_else(|| panic!("{family} {from}: --strict converted"));
                    assert!(
                        matches!(e.kind(), ErrorKind::InvalidOptions(_)),
                        "{family} {from}: {e}"
                    );
                    continue;
                }
                let c = result.unwrap_or_else(|e| panic!("{family} {from}: {e}")).clone();
                let out = json_of(&c);
                let source_strict = tool
                    .pointer("/strict")
                    .or_else(|| tool.pointer("/function/strict"))
                    .or_else(|| tool.pointer("/toolSpec/strict"))
                    .is_some();
                let written = out.pointer("/toolSpec/strict").cloned();
                match family.strict() {
                    Some(_) if source_strict || asked.is_some() => {
                        assert_eq!(written, Some(json!(true)), "{family} {from}: {out}");
                    }
                    Some(_) => assert_eq!(written, None, "{family} {from}: {out}"),
                    None => {
                        assert_eq!(written, None, "{family} {from}: {out}");
                        let lost = c.report().entries().iter().find(|e| e.feature == "strict");
                        if source_strict {
                            let e =
                                lost.unwrap_or_else(|| panic!("{family} {from}: {:?}", c.report()));
                            assert_eq!(e.code, Code::MetadataDropped, "{family} {from}");
                            assert_eq!(e.severity, Severity::Warning, "{family} {from}");
                        }
                    }
                }
                let report =
                    converter.check(c.output(), &Bedrock, to, &Options::default()).expect("reads");
                assert!(report.is_empty(), "{family} {from}: {report:?}");
            }
        }
    }
}

/// Without a family, `bedrock` is what it was: Claude's facts (the `anthropic` family's).
#[test]
fn no_family_is_claude() {
    for (from, tool) in strict_sources() {
        let input = tool.to_string();
        let plain = Registry::default().convert(input.as_bytes(), from, "bedrock").expect("ok");
        let mut converter = Converter::new();
        let claude = converter
            .convert(input.as_bytes(), from, ModelFamily::Anthropic.adapter(), &Options::default())
            .expect("ok");
        assert_eq!(plain.output(), claude.output(), "{from}");
    }
}

/// `toolChoice` support as data: every family takes a subset of Converse's `ToolChoice`
/// members, Claude all of them, and none takes a member Converse does not define.
#[test]
fn tool_choice_support_is_a_subset_of_converse() {
    for family in ModelFamily::ALL {
        assert!(
            family.tool_choice().iter().all(|m| ["auto", "any", "tool"].contains(m)),
            "{family}"
        );
        assert!(!family.tool_choice_source().is_empty());
    }
    assert_eq!(ModelFamily::Anthropic.tool_choice(), ["auto", "any", "tool"]);
}

#[test]
fn cli_model_family() {
    let strict_tool = r#"{"toolSpec":{"name":"f","inputSchema":{"json":{"type":"object","properties":{}}},"strict":true}}"#;
    for family in ModelFamily::ALL {
        let name = family.as_str();
        let (code, out, err) = bin::run(
            &["convert", "--from", "bedrock", "--to", "bedrock", "--model-family", name, "-"],
            strict_tool.as_bytes(),
        );
        assert_eq!(code, 0, "{name}: {err}");
        let out: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(
            out.pointer("/toolSpec/strict").is_some(),
            family.strict().is_some(),
            "{name}: {out}"
        );
        let (code, _, err) = bin::run(
            &[
                "convert",
                "--from",
                "mcp",
                "--to",
                "bedrock",
                "--model-family",
                name,
                "--strict",
                "-",
            ],
            br#"{"name":"f","inputSchema":{"type":"object"}}"#,
        );
        assert_eq!(code, if family.strict().is_some() { 0 } else { 2 }, "{name}: {err}");
        let (code, _, err) = bin::run(
            &["check", "--to", "bedrock", "--model-family", name, "-"],
            strict_tool.as_bytes(),
        );
        assert_eq!(code, 0, "{name}: {err}");
    }
    // A family needs --to bedrock; an unknown one is a usage error naming the known ones.
    let (code, _, err) = bin::run(
        &["convert", "--from", "mcp", "--to", "openai", "--model-family", "nova", "-"],
        br#"{"name":"f"}"#,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--to bedrock"), "{err}");
    let (code, _, err) = bin::run(
        &["convert", "--from", "mcp", "--to", "bedrock", "--model-family", "gpt", "-"],
        br#"{"name":"f"}"#,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nova"), "{err}");
}

/// Every model family × every Converse `toolChoice` member, converted Bedrock → Bedrock and
/// checked: a choice the family takes comes out byte-identical and `check` finds nothing; one
/// it does not take is left out of the `toolConfig` with a warning at its pointer, and
/// `check` finds it as an error there. Without a family every choice is kept, as before.
#[test]
fn model_families_hold_their_tool_choice() {
    let mut converter = Converter::new();
    for member in ["auto", "any", "tool"] {
        let choice = if member == "tool" {
            json!({"tool": {"name": "get_weather"}})
        } else {
            json!({member: {}})
        };
        let input = json!({"tools": [weather_tool()], "toolChoice": choice}).to_string();
        let plain =
            Registry::default().convert(input.as_bytes(), "bedrock", "bedrock").expect("ok");
        assert_eq!(plain.output_str(), input, "{member}");
        let pointer = format!("/toolChoice/{member}");
        for family in ModelFamily::ALL {
            let to = family.adapter();
            let c = converter
                .convert(input.as_bytes(), &Bedrock, to, &Options::default())
                .unwrap_or_else(|e| panic!("{family} {member}: {e}"))
                .clone();
            let report = converter
                .check(input.as_bytes(), &Bedrock, to, &Options::default())
                .expect("reads")
                .clone();
            if family.tool_choice().contains(&member) {
                assert_eq!(c.output_str(), input, "{family} {member}");
                assert!(c.report().is_empty(), "{family} {member}: {:?}", c.report());
                assert!(report.is_empty(), "{family} {member}: {report:?}");
                continue;
            }
            let out = json_of(&c);
            assert_eq!(out.get("toolChoice"), None, "{family} {member}: {out}");
            assert_eq!(out["tools"], json!([weather_tool()]), "{family} {member}");
            let dropped: Vec<_> = c
                .report()
                .entries()
                .iter()
                .map(|e| (e.code, e.severity, e.pointer.as_str()))
                .collect();
            assert_eq!(
                dropped,
                [(Code::CatalogMemberDropped, Severity::Warning, pointer.as_str())],
                "{family} {member}"
            );
            let found: Vec<_> =
                report.entries().iter().map(|e| (e.code, e.severity, e.pointer.as_str())).collect();
            assert_eq!(
                found,
                [(Code::WouldBeRejected, Severity::Error, pointer.as_str())],
                "{family} {member}"
            );
            let again =
                converter.check(c.output(), &Bedrock, to, &Options::default()).expect("reads");
            assert!(again.is_empty(), "{family} {member}: {again:?}");
        }
    }
}
