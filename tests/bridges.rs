//! The bridges to other crates' tool types, one module per cargo feature: `rmcp`,
//! `async-openai` and `schemars`. Run with
//! `cargo test --features rmcp,async-openai,schemars --test bridges`.

use serde_json::Value;
use tooladapter::{CanonicalTool, Registry};

/// The one tool an MCP document holds, read by the crate's own MCP reader.
#[allow(dead_code)]
fn read_mcp(tool: &Value) -> CanonicalTool {
    let bytes = serde_json::to_vec(tool).expect("json");
    let mut tools = Registry::default().to_canonical(&bytes, "mcp").expect("reads");
    assert_eq!(tools.len(), 1);
    tools.remove(0)
}

/// (severity, code, pointer) of each report entry.
#[allow(dead_code)]
fn entries(report: &tooladapter::Report) -> Vec<(String, String, String)> {
    report
        .entries()
        .iter()
        .map(|e| (e.severity.to_string(), e.code.to_string(), e.pointer.clone()))
        .collect()
}

#[allow(dead_code)]
fn entry(severity: &str, code: &str, pointer: &str) -> (String, String, String) {
    (severity.to_owned(), code.to_owned(), pointer.to_owned())
}

mod rmcp_bridge {
    #![cfg(feature = "rmcp")]

    use rmcp::model::{Icon, MetaObject, Tool, ToolAnnotations};
    use serde_json::json;
    use tooladapter::{BridgeError, JsonSchema};

    use super::*;

    fn object(v: Value) -> serde_json::Map<String, Value> {
        match v {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    /// An rmcp tool using every field.
    fn full_tool() -> Tool {
        let mut meta = serde_json::Map::new();
        meta.insert("com.example/owner".into(), json!({"team": "maps", "n": 1.5}));
        Tool::new(
            "get_weather",
            "Current weather",
            object(json!({
                "type": "object",
                "properties": {"z": {"type": "string"}, "a": {"type": ["integer", "null"]}},
                "required": ["z"],
                "x-vendor": true
            })),
        )
        .with_title("Weather")
        .with_raw_output_schema(
            object(json!({"type": "object", "properties": {"t": {"type": "number"}}})).into(),
        )
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
        .with_icons(vec![Icon::new("https://example.com/i.png").with_mime_type("image/png")])
        .with_meta(MetaObject(meta))
    }

    #[test]
    fn rmcp_tool_to_canonical_keeps_every_field() {
        let tool = full_tool();
        let canonical = CanonicalTool::from(&tool);
        assert_eq!(canonical.name, "get_weather");
        assert_eq!(canonical.title.as_deref(), Some("Weather"));
        assert_eq!(canonical.description.as_deref(), Some("Current weather"));
        assert_eq!(canonical.source_format.as_deref(), Some("mcp"));
        let input = canonical.input_schema.as_ref().expect("input schema").to_value();
        assert_eq!(Value::Object((*tool.input_schema).clone()), input);
        let keys: Vec<&String> = input["properties"].as_object().expect("props").keys().collect();
        assert_eq!(keys, ["z", "a"], "property order kept");
        assert_eq!(
            canonical.output_schema.as_ref().map(JsonSchema::to_value),
            Some(json!({"type": "object", "properties": {"t": {"type": "number"}}}))
        );
        assert_eq!(
            canonical.annotations,
            Some(json!({"readOnlyHint": true, "openWorldHint": false}))
        );
        let meta: Vec<&str> = canonical.source_meta.keys().map(String::as_str).collect();
        assert_eq!(meta, ["icons", "_meta"]);
        assert_eq!(
            canonical.source_meta["icons"],
            json!([{"src": "https://example.com/i.png", "mimeType": "image/png"}])
        );
        assert_eq!(canonical.source_meta["_meta"]["com.example/owner"]["n"], 1.5);
        assert_eq!(canonical.validate(), Ok(()));

        // The crate's MCP reader sees the same tool in rmcp's JSON.
        assert_eq!(read_mcp(&serde_json::to_value(&tool).expect("json")), canonical);

        // …and it goes back unchanged, with nothing to report.
        let (back, report) = canonical.to_rmcp();
        assert!(report.is_empty(), "{report:?}");
        assert_eq!(back, tool);
        assert_eq!(Tool::try_from(canonical).expect("lossless"), tool);
    }

    #[test]
    fn what_rmcp_cannot_hold_is_reported() {
        // MCP 2025-11-25 JSON with members rmcp's types lack.
        let mut tool = read_mcp(&json!({
            "name": "search",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "x-cost": "high"},
            "icons": [{"src": "https://i", "sizes": ["48x48"], "x-dark": true}],
            "execution": {"taskSupport": "optional"}
        }));
        tool.namespace = Some("web".into());
        tool.version = Some("2".into());
        tool.strict = Some(true);
        tool = tool.with_tags(["Search"]);
        let (out, report) = tool.to_rmcp();
        assert_eq!(
            entries(&report),
            [
                entry("warning", "metadata-dropped", "/namespace"),
                entry("warning", "metadata-dropped", "/version"),
                entry("warning", "metadata-dropped", "/tags"),
                entry("warning", "metadata-dropped", "/strict"),
                entry("warning", "metadata-dropped", "/annotations/x-cost"),
                entry("warning", "metadata-dropped", "/source_meta/icons/0/x-dark"),
                entry("warning", "metadata-dropped", "/source_meta/execution"),
            ]
        );
        assert!(report.entries().iter().all(|e| e.tool == "search" && e.from == "canonical"));
        assert_eq!(report.entries()[6].feature, "execution");
        // What fits is kept.
        assert_eq!(out.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));
        assert_eq!(
            out.icons.as_ref().map(|i| i[0].sizes.clone()),
            Some(Some(vec!["48x48".to_owned()]))
        );

        let err: BridgeError = Tool::try_from(&tool).expect_err("lossy");
        assert_eq!(err.target(), "rmcp::model::Tool");
        assert_eq!(err.tool(), "search");
        assert_eq!(err.report(), &report);
        assert_eq!(
            err.to_string(),
            r#"tool "search" cannot become rmcp::model::Tool without loss: namespace at "/namespace", version at "/version", tags at "/tags", strict at "/strict", annotations at "/annotations/x-cost", icons at "/source_meta/icons/0/x-dark", execution at "/source_meta/execution""#
        );
    }

    #[test]
    fn members_rmcp_cannot_read_are_dropped_one_by_one() {
        let mut tool = CanonicalTool::new("t");
        tool.input_schema = Some(JsonSchema::Bool(false));
        tool.annotations = Some(json!({"readOnlyHint": "yes"}));
        tool.source_meta.insert("icons".into(), json!("not a list"));
        tool.source_meta.insert("_meta".into(), json!({"k": [1, 2]}));
        tool.source_meta.insert("title".into(), json!("shadow"));
        let (out, report) = tool.to_rmcp();
        assert_eq!(
            entries(&report),
            [
                entry("info", "boolean-schema-rewritten", "/input_schema"),
                entry("warning", "metadata-dropped", "/annotations"),
                entry("warning", "metadata-dropped", "/source_meta/icons"),
                entry("warning", "metadata-dropped", "/source_meta/title"),
            ]
        );
        // `false` in object form rejects everything too.
        assert_eq!(Value::Object((*out.input_schema).clone()), json!({"not": {}}));
        assert_eq!(out.meta.as_ref().map(|m| m.0.clone()), Some(object(json!({"k": [1, 2]}))));
        assert_eq!((out.annotations, out.icons, out.title), (None, None, None));
    }

    #[test]
    fn nulls_are_left_out_as_info() {
        // `"annotations": null` (which the MCP reader keeps in source_meta) and a null hint
        // mean "absent": rmcp leaves them out, and nothing is lost.
        let tool = read_mcp(&json!({
            "name": "t", "inputSchema": {"type": "object"}, "annotations": null
        }));
        assert_eq!(tool.source_meta.get("annotations"), Some(&Value::Null));
        let (_, report) = tool.to_rmcp();
        assert_eq!(
            entries(&report),
            [entry("info", "metadata-dropped", "/source_meta/annotations")]
        );
        assert!(report.entries()[0].message.ends_with("its value was `null`, read as absent"));
        assert!(Tool::try_from(&tool).is_ok());

        let tool = read_mcp(&json!({
            "name": "t", "inputSchema": {"type": "object"},
            "annotations": {"title": null, "readOnlyHint": true}
        }));
        let (out, report) = tool.to_rmcp();
        assert_eq!(entries(&report), [entry("info", "metadata-dropped", "/annotations/title")]);
        assert_eq!(out.annotations.and_then(|a| a.read_only_hint), Some(true));
    }

    #[test]
    fn rewrites_that_keep_meaning_do_not_fail_try_from() {
        // No input schema (MCP requires one) and a `true` output schema.
        let tool = CanonicalTool {
            output_schema: Some(JsonSchema::Bool(true)),
            ..CanonicalTool::new("t")
        };
        let (_, report) = tool.to_rmcp();
        assert_eq!(
            entries(&report),
            [
                entry("info", "input-schema-added", "/input_schema"),
                entry("info", "boolean-schema-rewritten", "/output_schema"),
            ]
        );
        assert_eq!(
            report.entries()[0].message,
            r#"MCP requires an input schema; `{"type":"object","properties":{}}` was written"#
        );
        let out = Tool::try_from(&tool).expect("nothing lost");
        assert_eq!(
            Value::Object((*out.input_schema).clone()),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(out.output_schema.map(|s| Value::Object((*s).clone())), Some(json!({})));
    }
}

mod async_openai_bridge {
    #![cfg(feature = "async-openai")]

    use async_openai::types::chat::{
        ChatCompletionTool, ChatCompletionTools, CustomToolChatCompletions, CustomToolProperties,
        FunctionObject,
    };
    use serde_json::json;
    use tooladapter::JsonSchema;

    use super::*;

    fn function() -> FunctionObject {
        FunctionObject {
            name: "get_weather".into(),
            description: Some("Current weather".into()),
            parameters: Some(json!({
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
                "required": ["city"],
                "additionalProperties": false
            })),
            strict: Some(true),
        }
    }

    #[test]
    fn function_tools_round_trip() {
        let tool = ChatCompletionTool { function: function() };
        let canonical = CanonicalTool::from(tool.clone());
        assert_eq!(canonical.name, "get_weather");
        assert_eq!(canonical.strict, Some(true));
        assert_eq!(canonical.source_format.as_deref(), Some("openai"));
        assert_eq!(
            canonical.input_schema.as_ref().map(JsonSchema::to_value),
            function().parameters
        );
        assert!(canonical.source_meta.is_empty());
        let (back, report) = canonical.to_chat_completion_tool();
        assert!(report.is_empty(), "{report:?}");
        assert_eq!(back, tool);
        assert_eq!(ChatCompletionTool::try_from(&canonical).expect("lossless"), tool);
        assert_eq!(FunctionObject::try_from(&canonical).expect("lossless"), function());

        // No parameters stays no parameters (OpenAI reads it as "no arguments").
        let bare = FunctionObject { name: "ping".into(), ..FunctionObject::default() };
        let canonical = CanonicalTool::from(bare.clone());
        assert_eq!(canonical.input_schema, None);
        assert_eq!(FunctionObject::try_from(&canonical).expect("lossless"), bare);

        // Parameters that are not a schema are kept verbatim and written back.
        let odd = FunctionObject { parameters: Some(json!("free text")), ..bare };
        let canonical = CanonicalTool::from(odd.clone());
        assert_eq!(canonical.source_meta["parameters"], "free text");
        assert_eq!(FunctionObject::try_from(&canonical).expect("lossless"), odd);
    }

    #[test]
    fn the_registry_and_the_bridge_agree() {
        // Read by the crate's OpenAI Chat reader, the same tool as the bridge reads.
        let chat = json!({"type": "function", "function": serde_json::to_value(function()).expect("json")});
        let bytes = serde_json::to_vec(&chat).expect("json");
        let read = Registry::default().to_canonical(&bytes, "openai").expect("reads").remove(0);
        let tools = ChatCompletionTools::try_from(&read).expect("lossless");
        assert_eq!(serde_json::to_value(&tools).expect("json"), chat);
        assert_eq!(CanonicalTool::from(tools), read);
        // The flat tool's `"type": "function"` is the Responses format's own member (issue 31
        // item 1): the reader takes it as the tool's kind, so nothing is left in source_meta.
        let flat = json!({"type": "function", "name": "f", "parameters": {"type": "object"}});
        let bytes = serde_json::to_vec(&flat).expect("json");
        let read =
            Registry::default().to_canonical(&bytes, "openai-responses").expect("reads").remove(0);
        assert_eq!(read.source_meta.get("type"), None);
        let function = FunctionObject::try_from(&read).expect("lossless");
        assert_eq!(function.parameters, Some(json!({"type": "object"})));

        // An MCP tool written by the registry as OpenAI and by the bridge: the same tool.
        let mcp = read_mcp(&json!({
            "name": "add", "description": "Adds",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}}
        }));
        let registry = Registry::default()
            .from_canonical(std::slice::from_ref(&mcp), "openai")
            .expect("writes");
        let registry: Value = serde_json::from_slice(registry.output()).expect("json");
        let bridged = ChatCompletionTools::try_from(&mcp).expect("lossless");
        assert_eq!(json!([serde_json::to_value(bridged).expect("json")]), registry);
    }

    #[test]
    fn what_a_function_cannot_hold_is_reported() {
        let mut tool = read_mcp(&json!({
            "name": "get_weather", "title": "Weather",
            "inputSchema": true,
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true},
            "_meta": {"k": 1}
        }));
        tool.category = Some("weather".into());
        tool.timeout_ms = Some(500);
        tool.required_scopes = vec!["read".into()];
        tool.source_meta.insert("type".into(), json!("custom"));
        let (out, report) = tool.to_chat_completion_tool();
        assert_eq!(
            entries(&report),
            [
                entry("warning", "metadata-dropped", "/title"),
                entry("info", "boolean-schema-rewritten", "/input_schema"),
                entry("warning", "output-schema-dropped", "/output_schema"),
                entry("warning", "metadata-dropped", "/annotations"),
                entry("warning", "metadata-dropped", "/category"),
                entry("warning", "metadata-dropped", "/timeout_ms"),
                entry("warning", "metadata-dropped", "/required_scopes"),
                entry("warning", "metadata-dropped", "/source_meta/_meta"),
                entry("warning", "metadata-dropped", "/source_meta/type"),
            ]
        );
        assert!(
            report.entries().iter().all(|e| e.to == "async_openai::types::chat::FunctionObject")
        );
        assert_eq!(out.function.parameters, Some(json!({})));
        let err = FunctionObject::try_from(&tool).expect_err("lossy");
        assert_eq!(err.report(), &report);
        assert!(err.to_string().starts_with(
            r#"tool "get_weather" cannot become async_openai::types::chat::FunctionObject without loss: title at "/title", output_schema at "/output_schema""#
        ), "{err}");
    }

    #[test]
    fn null_members_are_info() {
        let tool =
            read_mcp(&json!({"name": "t", "inputSchema": {"type": "object"}, "annotations": null}));
        let (_, report) = tool.to_chat_completion_tool();
        assert_eq!(
            entries(&report),
            [entry("info", "metadata-dropped", "/source_meta/annotations")]
        );
        assert!(FunctionObject::try_from(&tool).is_ok());
    }

    #[test]
    fn custom_tools_are_kept_opaque() {
        let custom = ChatCompletionTools::Custom(CustomToolChatCompletions {
            custom: CustomToolProperties {
                name: "sql".into(),
                description: Some("Runs SQL".into()),
                format: Default::default(),
            },
        });
        let canonical = CanonicalTool::from(custom.clone());
        assert_eq!(canonical.name, "sql");
        assert_eq!(canonical.description.as_deref(), Some("Runs SQL"));
        assert_eq!(canonical.source_meta["opaque"], serde_json::to_value(&custom).expect("json"));
        assert_eq!(canonical.source_meta["opaque"]["type"], "custom");
        // A function tool cannot stand for it.
        let err = ChatCompletionTools::try_from(&canonical).expect_err("opaque");
        assert_eq!(err.report().entries()[0].pointer, "/source_meta/opaque");
    }
}

mod schemars_bridge {
    #![cfg(feature = "schemars")]
    #![allow(dead_code)]

    use schemars::JsonSchema as Derive;
    use serde_json::json;
    use tooladapter::{JsonSchema, ToolValidationError};

    use super::*;

    /// Units the forecast is given in.
    #[derive(Derive)]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        Celsius,
        Fahrenheit,
    }

    /// A place on Earth.
    #[derive(Derive)]
    struct Place {
        lat: f64,
        lon: f64,
    }

    /// Arguments of the forecast tool.
    #[derive(Derive)]
    struct Forecast {
        /// Where.
        place: Place,
        /// How many days ahead.
        days: Option<u8>,
        unit: Unit,
        tags: Vec<String>,
    }

    #[derive(Derive)]
    #[schemars(title = "Search request")]
    struct Search {
        query: String,
    }

    #[test]
    fn a_tool_from_a_rust_type() {
        let tool = CanonicalTool::from_schemars::<Forecast>("get_forecast");
        assert_eq!(tool.name, "get_forecast");
        assert_eq!(tool.validate(), Ok(()));
        let schema = tool.input_schema.as_ref().expect("schema").to_value();
        // The type's name is not a title; its doc comment stays the description.
        assert_eq!(schema.get("title"), None);
        assert_eq!(schema["description"], "Arguments of the forecast tool.");
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let props: Vec<&String> = schema["properties"].as_object().expect("props").keys().collect();
        assert_eq!(props, ["place", "days", "unit", "tags"], "field order");
        assert_eq!(schema["required"], json!(["place", "unit", "tags"]));
        assert_eq!(schema["properties"]["place"]["$ref"], "#/$defs/Place");
        assert_eq!(schema["properties"]["unit"]["$ref"], "#/$defs/Unit");
        assert_eq!(schema["properties"]["days"]["type"], json!(["integer", "null"]));
        // Referenced types are kept under `$defs`, their titles with them.
        let defs = tool
            .input_schema
            .as_ref()
            .and_then(JsonSchema::as_object)
            .and_then(|o| o.defs.as_ref())
            .expect("$defs");
        let names: Vec<&String> = defs.keys().collect();
        assert_eq!(names, ["Place", "Unit"]);
        assert_eq!(defs["Place"].to_value()["required"], json!(["lat", "lon"]));
        assert_eq!(defs["Unit"].to_value()["enum"], json!(["celsius", "fahrenheit"]));

        // The crate converts it; for a target without refs they are inlined.
        let gemini = Registry::default()
            .from_canonical(std::slice::from_ref(&tool), "gemini")
            .expect("converts");
        let gemini: Value = serde_json::from_slice(gemini.output()).expect("json");
        let place = &gemini["functionDeclarations"][0]["parameters"]["properties"]["place"];
        assert_eq!(place["properties"]["lat"]["type"], "NUMBER", "{gemini}");
    }

    #[test]
    fn a_title_the_type_sets_stays() {
        let schema = JsonSchema::from_schemars::<Search>();
        assert_eq!(schema.as_object().and_then(|o| o.title.as_deref()), Some("Search request"));
        // A type named like a title it does not set loses only that generated title.
        let plain = JsonSchema::from_schemars::<Place>();
        assert_eq!(plain.as_object().and_then(|o| o.title.as_deref()), None);
        // `From<schemars::Schema>` keeps everything as generated.
        let raw = JsonSchema::from(schemars::schema_for!(Place));
        assert_eq!(raw.as_object().and_then(|o| o.title.as_deref()), Some("Place"));
        assert_eq!(JsonSchema::from(schemars::json_schema!(false)), JsonSchema::Bool(false));
    }

    #[test]
    fn a_type_that_is_not_an_object_fails_validation() {
        let tool = CanonicalTool::from_schemars::<String>("echo");
        assert!(matches!(tool.validate(), Err(ToolValidationError::InputSchemaNotObject { .. })));
        let tool = CanonicalTool::from_schemars::<Unit>("unit");
        assert!(tool.validate().is_err());
    }

    #[cfg(feature = "validate")]
    #[test]
    fn generated_schemas_pass_the_meta_schema() {
        for schema in [
            JsonSchema::from_schemars::<Forecast>(),
            JsonSchema::from_schemars::<Search>(),
            JsonSchema::from_schemars::<Unit>(),
        ] {
            assert_eq!(schema.validate_schema(), Ok(()));
        }
    }
}
