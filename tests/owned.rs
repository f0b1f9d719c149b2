//! The owned tree through the public API: serde both ways, `to_value`, `deep_copy`, the
//! model's rules on `CanonicalTool` (`validate`, tags, `ToolId`), and owned schemas lowering
//! back through `Registry`.

use serde_json::{Value, json};
use tooladapter::ir::{Entry, Json, Keyword, Member, Schema};
use tooladapter::{
    CanonicalTool, Code, ErrorKind, FeatureSet, JsonSchema, Registry, Severity, ToolId,
    ToolIdError, ToolValidationError,
};

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
    // An array that is not all schemas is no tuple and no schema: an error at the element.
    let tool = r#"{"name":"t","inputSchema":{"items":[1,{"type":"string"}]}}"#;
    let e = Registry::default().to_canonical(tool.as_bytes(), "mcp").expect_err("refused");
    assert!(matches!(e.kind(), ErrorKind::KeywordValue { keyword: "items", .. }), "{e}");
    assert_eq!(e.pointer(), "/inputSchema/items/0");
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
    // OpenAPI 3.0 boolean exclusiveMinimum, BFCL "dict": dialects a pass reads.
    let s = round_trip(
        r#"{"type":"dict","properties":{"n":{"minimum":0,"exclusiveMinimum":true,"maximum":10}}}"#,
    );
    let o = s.as_object().expect("object");
    assert!(o.instance_type.is_none());
    assert_eq!(o.extra["type"], "dict");
    let n = o.properties.as_ref().expect("properties")["n"].as_object().expect("object");
    assert_eq!(n.extra["exclusiveMinimum"], true);
    assert_eq!(n.maximum, Some(10.into()));
    // A value no dialect gives its keyword (a string `minimum`) is an error at its pointer.
    let tool = r#"{"name":"t","inputSchema":{"properties":{"n":{"minimum":"0"}}}}"#;
    let e = Registry::default().to_canonical(tool.as_bytes(), "mcp").expect_err("refused");
    assert!(matches!(e.kind(), ErrorKind::KeywordValue { keyword: "minimum", .. }), "{e}");
    assert_eq!(e.pointer(), "/inputSchema/properties/n/minimum");
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
    assert_eq!(tool.id(), ToolId::new("get_weather"));
    tool.namespace = Some("weather".to_owned());
    assert_eq!(tool.id(), "weather:get_weather");
    assert_eq!(tool.id().to_string(), "weather:get_weather");
    assert_ne!(tool.id(), "weather:get");
    assert_ne!(tool.id(), "get_weather");
    assert_ne!(tool.id(), "weathe:get_weather");
    tool.namespace = Some(String::new());
    assert_eq!(tool.id(), "get_weather");
    assert_eq!(tool.id().namespace, None);

    tool.set_id("maps:route".parse().expect("an id"));
    assert_eq!((tool.namespace.as_deref(), tool.name.as_str()), (Some("maps"), "route"));
    tool.set_id(ToolId::new("plain"));
    assert_eq!((tool.namespace.as_deref(), tool.name.as_str()), (None, "plain"));
}

#[test]
fn tool_id_parse_and_print() {
    let parse = |s: &str| s.parse::<ToolId>();
    assert_eq!(parse("name"), Ok(ToolId::new("name")));
    assert_eq!(parse("ns:name"), Ok(ToolId::namespaced("ns", "name")));
    // Split at the first ':': the namespace never holds one.
    assert_eq!(parse("a:b:c"), Ok(ToolId::namespaced("a", "b:c")));
    assert_eq!(parse(""), Err(ToolIdError::Empty));
    assert_eq!(parse(":name"), Err(ToolIdError::EmptyNamespace { id: ":name".into() }));
    assert_eq!(parse(":"), Err(ToolIdError::EmptyNamespace { id: ":".into() }));
    assert_eq!(parse("ns:"), Err(ToolIdError::EmptyName { id: "ns:".into() }));
    assert_eq!(
        parse("ns:").expect_err("empty name").to_string(),
        "tool id `ns:` has an empty name after ':'"
    );
    assert_eq!(
        parse("").expect_err("empty").to_string(),
        "tool id is empty; expected `name` or `namespace:name`"
    );
    // Printing gives back the parsed text.
    for text in ["name", "ns:name", "a:b:c", "x.y:get-it", "é:ü"] {
        let id = parse(text).expect("an id");
        assert_eq!(id.to_string(), text);
        assert_eq!(id, text);
        assert_eq!(parse(&id.to_string()), Ok(id));
    }
    // Serde uses the printed form and the parser's errors.
    let id = ToolId::namespaced("ns", "t");
    assert_eq!(serde_json::to_string(&id).expect("ser"), r#""ns:t""#);
    assert_eq!(serde_json::from_str::<ToolId>(r#""ns:t""#).expect("de"), id);
    let err = serde_json::from_str::<ToolId>(r#"":t""#).expect_err("empty namespace");
    assert!(err.to_string().contains("empty namespace"), "{err}");
}

/// A tool that passes every rule.
fn valid(name: &str) -> CanonicalTool {
    CanonicalTool { input_schema: Some(parse(r#"{"type":"object"}"#)), ..CanonicalTool::new(name) }
}

#[test]
fn canonical_tool_validate() {
    let ok = CanonicalTool {
        name: "a.b-c_D9".to_owned(),
        input_schema: Some(parse(r#"{"type":["object","null"]}"#)),
        ..CanonicalTool::default()
    };
    assert_eq!(ok.validate(), Ok(()));
    assert!(ok.validation_errors().is_empty());
    // A root without `type` is accepted.
    let untyped = CanonicalTool { input_schema: Some(parse("{}")), ..CanonicalTool::new("x") };
    assert_eq!(untyped.validate(), Ok(()));
    assert_eq!(valid(&"a".repeat(128)).validate(), Ok(()));
    assert_eq!(valid("x").validate(), Ok(()));

    let err = |tool: CanonicalTool| tool.validate().expect_err("invalid").to_string();
    assert_eq!(err(valid("")), "tool name is empty; MCP requires 1 to 128 characters");
    assert_eq!(
        err(valid(&"a".repeat(129))),
        format!("tool name `{}…` is 129 characters long; MCP allows at most 128", "a".repeat(40))
    );
    assert_eq!(
        err(valid("get weather")),
        "tool name `get weather` has ' ' at index 3; MCP allows only A-Z, a-z, 0-9, `_`, `-` and `.`"
    );
    assert_eq!(
        valid("ns:tool").validate(),
        Err(ToolValidationError::InvalidNameCharacter {
            name: "ns:tool".into(),
            character: ':',
            index: 2
        })
    );
    // The index counts characters, not bytes.
    assert_eq!(
        valid("caf\u{e9}s\u{e9}").validate(),
        Err(ToolValidationError::InvalidNameCharacter {
            name: "caf\u{e9}s\u{e9}".into(),
            character: '\u{e9}',
            index: 3
        })
    );
    // A control character is escaped in the message.
    assert!(err(valid("a\nb")).starts_with("tool name `a\\nb` has '\\n' at index 1"));
    // 128 multi-byte characters are 128 characters: only the character rule fails.
    let wide = valid(&"\u{e9}".repeat(128)).validation_errors();
    assert_eq!(wide.len(), 1);
    assert!(matches!(wide[0], ToolValidationError::InvalidNameCharacter { index: 0, .. }));

    assert_eq!(
        err(CanonicalTool::new("t")),
        "tool `t` has no input schema; MCP requires `inputSchema` (at least {\"type\":\"object\"})"
    );
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

    let mut namespaced = valid("t");
    namespaced.namespace = Some("a:b".into());
    assert_eq!(
        err(namespaced),
        "namespace `a:b` of tool `t` has ':' at index 1; ':' separates the namespace from the name in the tool id"
    );
}

#[test]
fn validation_errors_lists_every_rule_broken_in_order() {
    let mut tool = CanonicalTool::new(format!("bad name{}", "x".repeat(200)));
    tool.namespace = Some("ns:1".into());
    let errors = tool.validation_errors();
    let long = tool.name.clone();
    assert_eq!(
        errors,
        [
            ToolValidationError::InvalidNameCharacter {
                name: long.clone(),
                character: ' ',
                index: 3
            },
            ToolValidationError::NameTooLong { name: long.clone(), len: 208 },
            ToolValidationError::InvalidNamespace {
                name: long.clone(),
                namespace: "ns:1".into(),
                index: 2
            },
            ToolValidationError::MissingInputSchema { name: long },
        ]
    );
    // `validate` gives the first of them.
    assert_eq!(tool.validate(), Err(errors[0].clone()));
    // An empty name is one problem, not also a length or character one.
    let empty = CanonicalTool { input_schema: Some(JsonSchema::Bool(false)), ..valid("") };
    let errors = empty.validation_errors();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0], ToolValidationError::EmptyName);
    assert!(matches!(&errors[1], ToolValidationError::InputSchemaNotObject { found, .. }
        if found == "it is the boolean schema `false`"));
    // A name made only of bad characters reports the first one, once.
    let errors = valid(&" ".repeat(10_000)).validation_errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[1].to_string().contains("is 10000 characters long"));
}

#[test]
fn tags_are_normalized() {
    let tool = CanonicalTool::new("t").with_tags([
        "  Weather ",
        "API",
        "",
        "   ",
        "weather",
        "M\u{e9}T\u{c9}O",
        "api",
        "a b",
    ]);
    assert_eq!(tool.tags, ["weather", "api", "m\u{e9}t\u{e9}o", "a b"]);

    let mut tool = tool;
    assert!(tool.add_tag(" Maps"));
    assert!(!tool.add_tag("MAPS "));
    assert!(!tool.add_tag(" \t"));
    assert_eq!(tool.tags, ["weather", "api", "m\u{e9}t\u{e9}o", "a b", "maps"]);
    // `with_tags` replaces.
    assert_eq!(tool.clone().with_tags(["X"]).tags, ["x"]);

    tool.tags = vec!["B".into(), " a".into(), "b ".into(), String::new()];
    tool.normalize_tags();
    assert_eq!(tool.tags, ["b", "a"]);
    tool.normalize_tags();
    assert_eq!(tool.tags, ["b", "a"], "idempotent");

    // Deserialising normalises; serialising writes what the tool holds.
    let read: CanonicalTool =
        serde_json::from_str(r#"{"name":"t","tags":["Z"," z ","Y",""]}"#).expect("de");
    assert_eq!(read.tags, ["z", "y"]);
    assert_eq!(serde_json::to_string(&read).expect("ser"), r#"{"name":"t","tags":["z","y"]}"#);
    let none: CanonicalTool = serde_json::from_str(r#"{"name":"t"}"#).expect("de");
    assert!(none.tags.is_empty());
    assert!(serde_json::from_str::<CanonicalTool>(r#"{"name":"t","tags":[1]}"#).is_err());
}

#[test]
fn many_duplicate_tags_take_linear_time() {
    // 200,000 tags, half of them repeats: a quadratic de-duplication would take minutes.
    let tags: Vec<String> = (0..200_000).map(|i| format!("T{}", i % 100_000)).collect();
    let tool = CanonicalTool::new("t").with_tags(&tags);
    assert_eq!(tool.tags.len(), 100_000);
    assert_eq!(tool.tags[0], "t0");
    assert_eq!(tool.tags[99_999], "t99999");
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

/// `validate_schema`: meta-schema checks of schema documents, never fetching anything.
#[cfg(feature = "validate")]
mod meta_schema {
    use std::io::ErrorKind;
    use std::net::TcpListener;

    use tooladapter::{CanonicalTool, Dialect, JsonSchema, MAX_SCHEMA_ERRORS, SchemaError};

    use super::parse;

    /// (pointer, keyword) of each problem, or the whole error for an unsupported dialect.
    fn problems(result: Result<(), tooladapter::SchemaErrors>) -> Vec<(String, String)> {
        let errors = result.expect_err("invalid");
        errors
            .errors()
            .iter()
            .map(|e| match e {
                SchemaError::Invalid { pointer, keyword, .. } => (pointer.clone(), keyword.clone()),
                SchemaError::UnsupportedDialect { pointer, uri } => (pointer.clone(), uri.clone()),
                other => panic!("unexpected {other:?}"),
            })
            .collect()
    }

    fn pair(p: &str, k: &str) -> (String, String) {
        (p.to_owned(), k.to_owned())
    }

    #[test]
    fn valid_schemas_pass() {
        for text in [
            "true",
            "false",
            "{}",
            r#"{"type":"object","properties":{"a":{"type":["string","null"],"maxLength":3}},"required":["a"]}"#,
            r##"{"$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}},"x-vendor":[1]}"##,
            r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":true},"items":[true,{"type":"string"}]}"##,
        ] {
            assert_eq!(parse(text).validate_schema(), Ok(()), "{text}");
        }
    }

    #[test]
    fn bad_places_have_pointers() {
        let schema = parse(
            r#"{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"},"a/b":{"type":"strin"}},"required":[1]}"#,
        );
        let found = problems(schema.validate_schema());
        assert!(found.contains(&pair("/properties/n/minimum", "type")), "{found:?}");
        assert!(found.contains(&pair("/properties/a~1b/type", "anyOf")), "{found:?}");
        assert!(found.contains(&pair("/required/0", "type")), "{found:?}");
        assert_eq!(found.len(), 3, "{found:?}");
        // Members the lenient reader kept verbatim are checked too.
        let kept = parse(r#"{"properties":{"a":5}}"#);
        assert_eq!(problems(kept.validate_schema()), [pair("/properties/a", "type")]);
        // Messages leave the value out and say which meta-schema.
        let err = parse(r#"{"minLength":-1}"#).validate_schema().expect_err("negative");
        let text = err.to_string();
        assert!(text.starts_with("schema is not valid (1 problem); at \"/minLength\": "), "{text}");
        assert!(text.ends_with("(2020-12 meta-schema keyword `minimum`)"), "{text}");
    }

    #[test]
    fn the_dialect_comes_from_dollar_schema_or_the_caller() {
        let tuple = r#"{"items":[{"type":"string"}]}"#;
        // 2020-12 (the default) wants one schema in `items`; draft-07 takes a tuple.
        assert_eq!(problems(parse(tuple).validate_schema()), [pair("/items", "type")]);
        assert_eq!(parse(tuple).validate_schema_as(Dialect::Draft07), Ok(()));
        let draft7 = parse(&format!(
            r#"{{"$schema":"http://json-schema.org/draft-07/schema#",{}"#,
            &tuple[1..]
        ));
        assert_eq!(draft7.dialect(), Ok(Dialect::Draft07));
        assert_eq!(draft7.validate_schema(), Ok(()));
        let err = draft7.validate_schema_as(Dialect::Draft202012).expect_err("2020-12");
        assert!(matches!(&err.errors()[0],
            SchemaError::Invalid { dialect: Dialect::Draft202012, pointer, .. } if pointer == "/items"));
        // Another dialect is named, not fetched.
        let draft4 = parse(r#"{"$schema":"http://json-schema.org/draft-04/schema#"}"#);
        assert_eq!(
            problems(draft4.validate_schema()),
            [pair("/$schema", "http://json-schema.org/draft-04/schema#")]
        );
        assert!(draft4.dialect().is_err());
        assert_eq!(parse("{}").dialect(), Ok(Dialect::Draft202012));
        assert_eq!(JsonSchema::Bool(true).dialect(), Ok(Dialect::Draft202012));
    }

    #[test]
    fn remote_refs_are_never_fetched() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let with_refs = parse(&format!(
            r#"{{"$id":"{base}/root.json","type":"object","properties":{{"a":{{"$ref":"{base}/a.json"}},"b":{{"$dynamicRef":"{base}/b.json#x"}}}},"allOf":[{{"$ref":"{base}/c.json"}}]}}"#
        ));
        assert_eq!(with_refs.validate_schema(), Ok(()));
        assert_eq!(with_refs.validate_schema_as(Dialect::Draft07), Ok(()));
        let remote_meta = parse(&format!(r#"{{"$schema":"{base}/meta.json","type":"object"}}"#));
        assert_eq!(
            problems(remote_meta.validate_schema()),
            [pair("/$schema", &format!("{base}/meta.json"))]
        );
        // A fetch would have connected (synchronously) before the calls returned.
        match listener.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => panic!("accept failed: {e}"),
            Ok((_, peer)) => panic!("the check connected to {peer}"),
        }
    }

    #[test]
    fn many_problems_are_capped() {
        let props: Vec<String> = (0..150).map(|i| format!(r#""p{i}":{{"minItems":-1}}"#)).collect();
        let schema = parse(&format!(r#"{{"properties":{{{}}}}}"#, props.join(",")));
        let err = schema.validate_schema().expect_err("invalid");
        assert_eq!(err.errors().len(), MAX_SCHEMA_ERRORS);
        assert!(err.truncated());
        assert!(err.to_string().starts_with("schema is not valid (100+ problems); "));
        assert_eq!(err.errors()[0].pointer(), "/properties/p0/minItems");
        // Just under the cap: nothing cut.
        let props: Vec<String> = (0..100).map(|i| format!(r#""p{i}":{{"minItems":-1}}"#)).collect();
        let schema = parse(&format!(r#"{{"properties":{{{}}}}}"#, props.join(",")));
        let err = schema.validate_schema().expect_err("invalid");
        assert_eq!((err.errors().len(), err.truncated()), (100, false));
    }

    #[test]
    fn canonical_tool_schemas() {
        let tool = CanonicalTool {
            input_schema: Some(parse(r#"{"type":"object","properties":{"q":{"type":7}}}"#)),
            output_schema: Some(parse(
                r#"{"$schema":"http://json-schema.org/draft-07/schema","required":"all"}"#,
            )),
            ..CanonicalTool::new("t")
        };
        let found = problems(tool.validate_schemas());
        assert_eq!(
            found,
            [
                pair("/input_schema/properties/q/type", "anyOf"),
                pair("/output_schema/required", "type")
            ]
        );
        let tool = CanonicalTool { input_schema: Some(parse(r#"{"type":"object"}"#)), ..tool };
        assert_eq!(problems(tool.validate_schemas()), [pair("/output_schema/required", "type")]);
        assert_eq!(CanonicalTool::new("no schemas").validate_schemas(), Ok(()));
    }
}

#[test]
fn from_canonical_reports_what_the_mcp_form_cannot_carry() {
    let registry = tooladapter::Registry::default();
    let anthropic = br#"[{"name":"a","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"},"strict":true}]"#;
    let mut tools = registry.to_canonical(anthropic, "anthropic").expect("reads");
    tools[0].namespace = Some("ns".into());
    tools[0].tags = vec!["x".into()];
    tools[0].timeout_ms = Some(10);
    tools.push(CanonicalTool {
        input_schema: Some(JsonSchema::Bool(true)),
        ..CanonicalTool::new("b")
    });
    let out = registry.from_canonical(&tools, "openai").expect("writes");
    let lost: Vec<(&str, &str, &str)> = out
        .report()
        .entries()
        .iter()
        .filter(|e| e.from == "canonical")
        .map(|e| (e.tool.as_str(), e.feature.as_str(), e.pointer.as_str()))
        .collect();
    assert_eq!(
        lost,
        [
            ("a", "namespace", "/namespace"),
            ("a", "tags", "/tags"),
            ("a", "timeout_ms", "/timeout_ms"),
            ("a", "strict", "/strict"),
            ("a", "cache_control", "/source_meta/cache_control"),
        ]
    );
    assert!(out.report().entries().iter().all(|e| e.from != "canonical"
        || (e.severity == Severity::Warning
            && e.code == Code::MetadataDropped
            && e.to == "openai")));
    // The entries of the conversion itself come first.
    let first_canonical =
        out.report().entries().iter().position(|e| e.from == "canonical").expect("entries");
    assert!(out.report().entries()[..first_canonical].iter().all(|e| e.from == "mcp"));

    // A tool read from MCP and written back loses nothing the report would have to name.
    let mcp = br#"{"tools":[{"name":"c","inputSchema":{"type":"object"},"_meta":{"k":1}}]}"#;
    let tools = registry.to_canonical(mcp, "mcp").expect("reads");
    let back = registry.from_canonical(&tools, "mcp").expect("writes");
    assert!(back.report().is_empty(), "{:?}", back.report());
}
