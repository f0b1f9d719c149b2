//! The owned tree through the public API: serde both ways, `to_value`, `deep_copy`,
//! `CanonicalTool::id` / `validate`, and owned schemas lowering back through `Registry`.

use serde_json::{Value, json};
use tooladapter::ir::{Entry, Json, Keyword, Member, Schema};
use tooladapter::{CanonicalTool, FeatureSet, JsonSchema, Registry};

fn parse(text: &str) -> JsonSchema {
    serde_json::from_str(text).expect("a schema")
}

/// Serialises `schema`, wraps it as an MCP tool, converts MCP → MCP and returns the output's
/// `inputSchema`.
fn lowered_back(schema: &JsonSchema) -> Value {
    let bytes = serde_json::to_vec(schema).expect("serialises");
    let mut tool = br#"{"name":"t","inputSchema":"#.to_vec();
    tool.extend_from_slice(&bytes);
    tool.push(b'}');
    let out = Registry::default().convert(&tool, "mcp", "mcp").expect("converts");
    let out: Value = serde_json::from_slice(out.output()).expect("output is JSON");
    out["inputSchema"].clone()
}

/// serde round trip: text → JsonSchema → text, compared as JSON values and as `JsonSchema`s.
fn round_trip(text: &str) -> JsonSchema {
    let schema = parse(text);
    let written = serde_json::to_string(&schema).expect("serialises");
    let original: Value = serde_json::from_str(text).expect("json");
    assert_eq!(serde_json::from_str::<Value>(&written).expect("json"), original, "{text}");
    assert_eq!(parse(&written), schema, "{text}");
    assert_eq!(schema.to_value(), original, "{text}");
    assert_eq!(lowered_back(&schema), original, "lowered back: {text}");
    schema
}

#[test]
fn boolean_schemas() {
    assert_eq!(round_trip("true"), JsonSchema::Bool(true));
    assert_eq!(round_trip("false"), JsonSchema::Bool(false));
    let s = round_trip(r#"{"properties":{"a":false,"b":true},"additionalProperties":false}"#);
    let o = s.as_object().expect("object");
    assert_eq!(o.properties.as_ref().expect("properties")["a"], JsonSchema::Bool(false));
    assert_eq!(o.additional_properties, Some(JsonSchema::Bool(false)));
    assert_eq!(serde_json::to_string(&JsonSchema::from(true)).expect("serialises"), "true");
}

#[test]
fn not_a_schema_is_an_error() {
    for text in ["1", "\"object\"", "null", "[]"] {
        let err = serde_json::from_str::<JsonSchema>(text).expect_err(text);
        assert!(err.to_string().contains("a schema must be an object or a boolean"), "{err}");
    }
    assert_eq!(JsonSchema::try_from(json!(3)), Err(json!(3)));
}

#[test]
fn type_single_and_arrays() {
    let s = round_trip(r#"{"type":"string"}"#);
    let t = s.as_object().and_then(|o| o.instance_type.as_ref()).expect("type");
    assert_eq!(serde_json::to_string(t).expect("ser"), r#""string""#);
    // A one-element array stays an array.
    let s = round_trip(r#"{"type":["string"]}"#);
    assert_eq!(s.to_value(), json!({"type": ["string"]}));
    round_trip(r#"{"type":["string","null"],"maxLength":3}"#);
    round_trip(r#"{"type":["integer","number","boolean","array","object","null"]}"#);
}

#[test]
fn tuple_items_and_schema_items() {
    let s = round_trip(
        r#"{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}"#,
    );
    let items = s.as_object().and_then(|o| o.items.as_ref()).expect("items");
    assert_eq!(
        serde_json::to_value(items).expect("ser"),
        json!([{"type":"string"},{"type":"integer"}])
    );
    round_trip(r#"{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true}"#);
    round_trip(r#"{"prefixItems":[true,{"const":1}],"items":false}"#);
    // An array that is not all schemas is not a tuple: kept verbatim.
    let s = round_trip(r#"{"items":[1,{"type":"string"}]}"#);
    let o = s.as_object().expect("object");
    assert!(o.items.is_none());
    assert_eq!(o.extra["items"], json!([1, {"type": "string"}]));
}

#[test]
fn definitions_and_defs() {
    let s = round_trip(
        r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"b":{"type":"string"},"a":{"$ref":"#/definitions/b"}},"$ref":"#/definitions/a"}"##,
    );
    let o = s.as_object().expect("object");
    let names: Vec<&str> =
        o.definitions.as_ref().expect("definitions").keys().map(String::as_str).collect();
    assert_eq!(names, ["b", "a"]);
    assert_eq!(o.reference.as_deref(), Some("#/definitions/a"));
    let s = round_trip(
        r##"{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"definitions":{"old":true},"anyOf":[{"$ref":"#/$defs/n"},{"type":"null"}]}"##,
    );
    let o = s.as_object().expect("object");
    assert!(o.defs.is_some() && o.definitions.is_some());
}

#[test]
fn unknown_keywords_are_kept_in_order() {
    let s = round_trip(
        r#"{"type":"object","x-z":1,"discriminator":{"propertyName":"kind"},"x-a":[1,2.5,"s",null,{"k":true}]}"#,
    );
    let o = s.as_object().expect("object");
    let keys: Vec<&str> = o.extra.keys().map(String::as_str).collect();
    assert_eq!(keys, ["x-z", "discriminator", "x-a"]);
    // Typed keywords first, then the extra members in order.
    assert_eq!(
        serde_json::to_string(&s).expect("ser"),
        r#"{"type":"object","x-z":1,"discriminator":{"propertyName":"kind"},"x-a":[1,2.5,"s",null,{"k":true}]}"#
    );
}

#[test]
fn modelled_keywords_of_unexpected_shape_are_kept() {
    // OpenAPI 3.0 boolean exclusiveMinimum, BFCL "dict", a string minimum.
    let s = round_trip(
        r#"{"type":"dict","properties":{"n":{"minimum":"0","exclusiveMinimum":true,"maximum":10}}}"#,
    );
    let o = s.as_object().expect("object");
    assert!(o.instance_type.is_none());
    assert_eq!(o.extra["type"], "dict");
    let n = o.properties.as_ref().expect("properties")["n"].as_object().expect("object");
    assert_eq!(n.extra["minimum"], "0");
    assert_eq!(n.extra["exclusiveMinimum"], true);
    assert_eq!(n.maximum, Some(10.into()));
}

#[test]
fn forty_properties_keep_their_order() {
    let names: Vec<String> = (0..40).map(|i| format!("p{:02}", (i * 17) % 40)).collect();
    let mut props = serde_json::Map::new();
    for (i, n) in names.iter().enumerate() {
        props.insert(n.clone(), json!({"type": if i % 2 == 0 { "string" } else { "integer" }}));
    }
    let text = json!({"type": "object", "properties": props, "required": names}).to_string();
    let s = round_trip(&text);
    let o = s.as_object().expect("object");
    let got: Vec<&String> = o.properties.as_ref().expect("properties").keys().collect();
    assert_eq!(got, names.iter().collect::<Vec<_>>());
    assert_eq!(o.required.as_ref(), Some(&names));
    // Byte-level order, not just map equality.
    assert_eq!(serde_json::to_string(&s).expect("ser"), text);
    let back = lowered_back(&s);
    let back_names: Vec<&String> = back["properties"].as_object().expect("object").keys().collect();
    assert_eq!(back_names, names.iter().collect::<Vec<_>>());
}

#[test]
fn to_value_omits_unset_fields_and_keeps_explicit_empties() {
    let s = parse("{}");
    assert_eq!(s.to_value(), json!({}));
    assert_eq!(serde_json::to_string(&s).expect("ser"), "{}");
    let s = parse(r#"{"type":"object","properties":{},"required":[],"enum":[],"description":""}"#);
    assert_eq!(
        s.to_value(),
        json!({"description": "", "type": "object", "enum": [], "properties": {}, "required": []})
    );
    // `null` values that mean something are kept.
    let s = parse(r#"{"const":null,"default":null,"examples":[null]}"#);
    let o = s.as_object().expect("object");
    assert_eq!(o.const_value, Some(Value::Null));
    assert_eq!(s.to_value(), json!({"const": null, "default": null, "examples": [null]}));
    // Edit in code: unset things stay absent.
    let mut s = parse(r#"{"type":"string","minLength":1}"#);
    let o = s.as_object_mut().expect("object");
    o.min_length = None;
    o.max_length = Some(5.into());
    o.description = Some("a name".to_owned());
    assert_eq!(s.to_value(), json!({"description": "a name", "type": "string", "maxLength": 5}));
    assert_eq!(Value::from(&s), s.to_value());
}

#[test]
fn number_formatting_is_normalised_but_values_kept() {
    let s = round_trip(r#"{"minimum":1.0e-7,"maximum":9007199254740993,"multipleOf":0.5}"#);
    assert_eq!(
        serde_json::to_string(&s).expect("ser"),
        r#"{"multipleOf":0.5,"minimum":1e-7,"maximum":9007199254740993}"#
    );
}

#[test]
fn every_modelled_keyword_lowers_back() {
    round_trip(
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://x/s","$anchor":"a",
        "$dynamicAnchor":"d","$vocabulary":{"https://v":true},"$comment":"c","title":"T","description":"D",
        "type":"object","format":"f","contentEncoding":"base64","contentMediaType":"text/plain",
        "contentSchema":{"type":"string"},"deprecated":false,"readOnly":true,"writeOnly":false,
        "examples":[{}],"default":{},"properties":{"s":{"type":"string","minLength":1,"maxLength":2,
        "pattern":"^a","const":"a","enum":["a"]},"n":{"type":"number","minimum":0,"maximum":9,
        "exclusiveMinimum":-1,"exclusiveMaximum":10,"multipleOf":3},"a":{"type":"array",
        "prefixItems":[true],"items":false,"contains":{"const":1},"minContains":1,"maxContains":2,
        "minItems":1,"maxItems":3,"uniqueItems":true,"unevaluatedItems":false}},
        "patternProperties":{"^x":true},"additionalProperties":false,"propertyNames":{"maxLength":9},
        "required":["s"],"dependentRequired":{"s":["n"]},"dependentSchemas":{"n":{"required":["a"]}},
        "minProperties":1,"maxProperties":5,"unevaluatedProperties":false,
        "allOf":[true],"anyOf":[true],"oneOf":[true],"not":false,"if":true,"then":true,"else":false,
        "$defs":{"x":{"$dynamicRef":"#d"}},"definitions":{"y":{"$recursiveRef":"#","$recursiveAnchor":true,
        "dependencies":{"a":["b"]},"additionalItems":true}},"nullable":true,"example":1,
        "propertyOrdering":["s","n","a"],"$ref":"#/$defs/x"}"##,
    );
}

#[test]
fn deep_copy_keeps_a_value_json_keyword() {
    // An IR node as the lowering builds it for OpenAPI 3.0's boolean `exclusiveMinimum` and an
    // unknown keyword.
    let vendor = Member { key: "x-vendor", value: Json::String("v") };
    let entries = [
        Entry { keyword: Keyword::Minimum, at: 1, value: tooladapter::ir::Value::Number("0") },
        Entry {
            keyword: Keyword::ExclusiveMinimum,
            at: 2,
            value: tooladapter::ir::Value::Json(Json::Bool(true)),
        },
        Entry { keyword: Keyword::Unknown, at: 3, value: tooladapter::ir::Value::Unknown(&vendor) },
    ];
    let node = Schema { boolean: None, keywords: &entries, features: FeatureSet::EMPTY, at: 0 };
    let copy = node.deep_copy();
    let o = copy.as_object().expect("object");
    assert_eq!(o.minimum, Some(0.into()));
    assert_eq!(o.exclusive_minimum, None);
    assert_eq!(o.extra["exclusiveMinimum"], true);
    assert_eq!(o.extra["x-vendor"], "v");
    assert_eq!(copy.to_value(), json!({"minimum": 0, "exclusiveMinimum": true, "x-vendor": "v"}));
    assert_eq!(Schema::bool(false, 0).deep_copy(), JsonSchema::Bool(false));
}

#[test]
fn canonical_tool_id() {
    let mut tool = CanonicalTool::new("get_weather");
    assert_eq!(tool.id(), "get_weather");
    tool.namespace = Some("weather".to_owned());
    assert_eq!(tool.id(), "weather:get_weather");
    tool.namespace = Some(String::new());
    assert_eq!(tool.id(), "get_weather");
}

#[test]
fn canonical_tool_validate() {
    let ok = CanonicalTool {
        name: "a.b-c_D9".to_owned(),
        input_schema: Some(parse(r#"{"type":["object","null"]}"#)),
        ..CanonicalTool::default()
    };
    assert_eq!(ok.validate(), Ok(()));
    // No input schema, or one without `type`, is fine.
    assert_eq!(CanonicalTool::new("x").validate(), Ok(()));
    let untyped = CanonicalTool { input_schema: Some(parse("{}")), ..CanonicalTool::new("x") };
    assert_eq!(untyped.validate(), Ok(()));
    assert_eq!(CanonicalTool::new("a".repeat(128)).validate(), Ok(()));

    let err = |tool: CanonicalTool| tool.validate().expect_err("invalid").to_string();
    assert_eq!(err(CanonicalTool::new("")), "tool name is empty");
    assert_eq!(
        err(CanonicalTool::new("a".repeat(129))),
        "tool name is 129 characters long; at most 128 are allowed"
    );
    assert_eq!(
        err(CanonicalTool::new("get weather")),
        "tool name `get weather` contains ' '; only A-Z, a-z, 0-9, `_`, `-` and `.` are allowed"
    );
    assert!(err(CanonicalTool::new("ns:tool")).contains("':'"));
    assert!(err(CanonicalTool::new("caf\u{e9}")).contains("'\u{e9}'"));
    let boolean =
        CanonicalTool { input_schema: Some(JsonSchema::Bool(true)), ..CanonicalTool::new("t") };
    assert_eq!(
        err(boolean),
        "the input schema of `t` must be an object schema, but it is the boolean schema `true`"
    );
    let string = CanonicalTool {
        input_schema: Some(parse(r#"{"type":"string"}"#)),
        ..CanonicalTool::new("t")
    };
    assert_eq!(
        err(string),
        r#"the input schema of `t` must be an object schema, but its `type` is "string""#
    );
    let array = CanonicalTool {
        input_schema: Some(parse(r#"{"type":["array","null"]}"#)),
        ..CanonicalTool::new("t")
    };
    assert!(err(array).ends_with(r#"its `type` is ["array","null"]"#));
}

#[test]
fn canonical_tool_serde() {
    let tool = CanonicalTool {
        namespace: Some("ns".into()),
        title: Some("Weather".into()),
        tags: vec!["w".into()],
        input_schema: Some(parse(r#"{"type":"object","properties":{}}"#)),
        annotations: Some(json!({"readOnlyHint": true})),
        timeout_ms: Some(5000),
        source_format: Some("mcp".into()),
        source_meta: [("_meta".to_owned(), json!({"k": 1}))].into_iter().collect(),
        ..CanonicalTool::new("get_weather")
    };
    let text = serde_json::to_string(&tool).expect("ser");
    assert_eq!(
        text,
        r#"{"namespace":"ns","name":"get_weather","title":"Weather","tags":["w"],"input_schema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":true},"timeout_ms":5000,"source_format":"mcp","source_meta":{"_meta":{"k":1}}}"#
    );
    assert_eq!(serde_json::from_str::<CanonicalTool>(&text).expect("de"), tool);
    let minimal: CanonicalTool = serde_json::from_str(r#"{"name":"x"}"#).expect("de");
    assert_eq!(minimal, CanonicalTool::new("x"));
    assert_eq!(serde_json::to_string(&minimal).expect("ser"), r#"{"name":"x"}"#);
}

#[test]
fn registry_round_trips_through_the_owned_tree() {
    let registry = tooladapter::Registry::default();
    let input = br#"{"tools":[{"name":"a","title":"A","description":"d","inputSchema":{"type":"object","properties":{"z":{"type":"string"},"b":{"type":["integer","null"]}},"required":["z"]},"annotations":{"readOnlyHint":true},"x-extra":[1,2]}]}"#;
    let tools = registry.to_canonical(input, "mcp").expect("reads");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].title.as_deref(), Some("A"));
    let back = registry.from_canonical(&tools, "mcp").expect("writes");
    let a: serde_json::Value = serde_json::from_slice(input).expect("json");
    let b: serde_json::Value = serde_json::from_slice(back.output()).expect("json");
    let (ta, tb) = (&a["tools"][0], &b["tools"][0]);
    for key in ["name", "title", "description", "inputSchema", "annotations", "x-extra"] {
        assert_eq!(ta[key], tb[key], "{key}");
    }
    let openai = registry.from_canonical(&tools, "openai").expect("writes");
    assert!(openai.output_str().starts_with(r#"[{"type":"function","function":{"name":"a""#));
    let err = registry.to_canonical(b"{", "mcp").expect_err("bad json");
    assert_eq!(err.adapter(), "mcp");
}
