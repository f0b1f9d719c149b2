//! Tests of the owned tree: keyword table and write order, lenient reading, IR → owned
//! (`deep_copy`, `tool_from_ir`) and the MCP writer. They share the helpers that lower a tool
//! to the IR, which is why they sit together.

use bumpalo::Bump;
use serde_json::{Number, Value, json};

use super::slot::{SlotMut, WRITE_ORDER};
use super::{CanonicalTool, JsonSchema, SchemaObject, tool_from_ir};
use crate::adapter::Adapter;
use crate::formats::{Anthropic, Mcp, OpenAi, write_mcp_tools};
use crate::ir::{self, Json, Keyword, Tool};
use crate::lower::{Lowerer, Reading};
use crate::options::Limits;
use crate::parse::Parser;
use crate::pointer::Path;

/// Lowers `src` as one tool of `adapter` and hands the IR to `f`.
fn with_tool<R>(adapter: &dyn Adapter, src: &str, f: impl FnOnce(&Tool<'_>) -> R) -> R {
    let arena = Bump::new();
    let limits = Limits::default();
    let mut parser = Parser::default();
    let mut scratch = Vec::new();
    let doc = parser.parse(src.as_bytes(), usize::MAX, usize::MAX).expect("valid JSON");
    let mut lowerer = Lowerer::new(
        &doc,
        src.as_bytes(),
        &arena,
        &mut scratch,
        Reading::own(adapter.name(), &limits),
    );
    let tool = adapter.lower_tool(&mut lowerer, 0, &Path::ROOT).expect("lowers");
    f(&tool)
}

fn mcp_tool(schema: &Value) -> String {
    json!({"name": "t", "inputSchema": schema}).to_string()
}

/// The input schema of `schema` wrapped in an MCP tool, lowered, deep-copied.
fn deep_copy_of(schema: &Value) -> JsonSchema {
    with_tool(&Mcp, &mcp_tool(schema), |t| t.input.expect("input schema").deep_copy())
}

fn mcp_round_trip(schema: &JsonSchema) -> Value {
    let bytes = serde_json::to_vec(schema).expect("serialises");
    let tool = format!(r#"{{"name":"t","inputSchema":{}}}"#, String::from_utf8_lossy(&bytes));
    let out = crate::Registry::default().convert(tool.as_bytes(), "mcp", "mcp").expect("converts");
    let out: Value = serde_json::from_slice(out.output()).expect("output is JSON");
    out["inputSchema"].clone()
}

#[test]
fn write_order_has_every_keyword_once() {
    for kw in Keyword::ALL {
        assert_eq!(WRITE_ORDER.iter().filter(|k| **k == kw).count(), 1, "{kw}");
    }
}

/// A value of the shape each typed field takes.
fn sample(kw: Keyword) -> Value {
    let mut o = SchemaObject::default();
    match o.slot_mut(kw).expect("modelled") {
        SlotMut::Str(_) => json!("s"),
        // A count (`maxLength`) is a non-negative integer ([`ir::ValueType::Count`]).
        SlotMut::Number(_) if kw.value_type() == ir::ValueType::Count => json!(3),
        SlotMut::Number(_) => json!(2.5),
        SlotMut::Bool(_) => json!(true),
        SlotMut::Schema(_) => json!({"type": "string"}),
        SlotMut::Items(_) => json!([{"type": "string"}, false]),
        SlotMut::Schemas(_) => json!([true, {"minimum": 1}]),
        SlotMut::Props(_) => json!({"z": true, "a": {"type": "null"}}),
        SlotMut::Type(_) => json!(["string", "null"]),
        SlotMut::Strings(_) => json!(["b", "a"]),
        SlotMut::Json(_) => json!(null),
        SlotMut::Values(_) => json!([1, "x", null]),
        SlotMut::BoolMap(_) => json!({"https://x": true}),
        SlotMut::StringLists(_) => json!({"a": ["b"]}),
        SlotMut::JsonMap(_) => json!({"a": ["b"], "c": {"type": "string"}}),
    }
}

#[test]
fn every_keyword_has_a_typed_field_and_round_trips() {
    for kw in Keyword::ALL {
        let value = sample(kw);
        let mut o = SchemaObject::default();
        o.insert(kw.as_str().to_owned(), value.clone());
        assert!(o.extra.is_empty(), "{kw} landed in extra");
        assert!(o.slot(kw).is_some(), "{kw} not set");
        let expected = json!({ kw.as_str(): value });
        assert_eq!(o.to_value(), expected, "{kw}");
        assert_eq!(serde_json::to_value(&o).expect("serialises"), expected, "{kw}");
        // …and the same through the IR.
        assert_eq!(deep_copy_of(&expected).to_value(), expected, "{kw} via the IR");
    }
}

#[test]
fn wrong_shapes_go_to_extra_and_last_insert_wins() {
    let mut o = SchemaObject::default();
    o.insert("minimum".into(), json!(1));
    o.insert("minimum".into(), json!("one"));
    assert_eq!(o.minimum, None);
    assert_eq!(o.extra["minimum"], "one");
    o.insert("minimum".into(), json!(2));
    assert_eq!(o.minimum, Some(2.into()));
    assert!(o.extra.is_empty());
    // A typed field shadows an extra member of the same name when writing.
    o.extra.insert("minimum".into(), json!(true));
    assert_eq!(o.to_value(), json!({"minimum": 2}));
    assert_eq!(serde_json::to_string(&o).expect("serialises"), r#"{"minimum":2}"#);
}

#[test]
fn deep_copy_keeps_value_json_keywords_in_extra() {
    let schema = json!({
        "type": "dict",
        "properties": {
            "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
            "t": {"type": ["tuple", "null"]}
        },
        "x-vendor": {"k": [1, 2.5]}
    });
    with_tool(&Mcp, &mcp_tool(&schema), |tool| {
        let input = tool.input.expect("input");
        // The IR kept these as `Value::Json`.
        assert!(matches!(input.get(Keyword::Type).map(|e| e.value), Some(ir::Value::Json(_))));
        let copy = input.deep_copy();
        let o = copy.as_object().expect("object");
        assert_eq!(o.instance_type, None);
        assert_eq!(o.extra["type"], "dict");
        assert_eq!(o.extra["x-vendor"], json!({"k": [1, 2.5]}));
        let n = o.properties.as_ref().expect("properties")["n"].as_object().expect("object");
        assert_eq!(n.exclusive_minimum, None);
        assert_eq!(n.minimum, Some(0.into()));
        assert_eq!(n.extra["exclusiveMinimum"], true);
        assert_eq!(copy.to_value(), schema);
        assert_eq!(mcp_round_trip(&copy), schema);
    });
}

#[test]
fn deep_copy_lowers_back_to_the_same_schema() {
    let fixtures = [
        json!(true),
        json!(false),
        json!({}),
        json!({"type": "object", "properties": {}, "required": []}),
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "b": {"type": ["string", "null"], "maxLength": 10, "pattern": "^[a-z]+$"},
                "a": {"type": "array", "items": [{"type": "integer"}, true], "additionalItems": false},
                "c": {"$ref": "#/definitions/c", "description": "see c"},
                "d": {"enum": ["x", 1, null], "default": null, "const": null},
                "e": {"type": "number", "multipleOf": 0.01, "minimum": 1.0e-7,
                      "maximum": 9007199254740993_u64}
            },
            "required": ["b"],
            "additionalProperties": false,
            "definitions": {"c": {"type": "string", "format": "date-time"}},
            "dependencies": {"a": ["b"], "b": {"required": ["c"]}}
        }),
        json!({
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
            "anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}],
            "if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["v"]}, "else": false,
            "prefixItems": [{"type": "string"}], "items": {"type": "number"},
            "unevaluatedProperties": false, "patternProperties": {"^x-": true},
            "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {"required": ["c"]}},
            "nullable": true, "example": {"a": 1}, "x-order": 3,
            "propertyOrdering": ["b", "a"], "$vocabulary": {"https://v": true}
        }),
    ];
    for schema in fixtures {
        let copy = deep_copy_of(&schema);
        assert_eq!(copy.to_value(), schema);
        assert_eq!(mcp_round_trip(&copy), schema, "{schema}");
        let again: JsonSchema = serde_json::from_value(schema.clone()).expect("deserialises");
        assert_eq!(again, copy);
    }
}

#[test]
fn numbers_serde_json_cannot_hold_are_kept_as_text() {
    let src = r#"{"name":"t","inputSchema":{"minimum":-0,"multipleOf":1.0e-7,
        "maximum":9007199254740993}}"#;
    with_tool(&Mcp, src, |t| {
        let copy = t.input.expect("input").deep_copy();
        let o = copy.as_object().expect("object");
        assert_eq!(o.multiple_of.as_ref().and_then(Number::as_f64), Some(1e-7));
        assert_eq!(o.minimum.as_ref().and_then(Number::as_f64), Some(0.0));
        assert_eq!(o.maximum.as_ref().and_then(Number::as_u64), Some(9007199254740993));
        assert_eq!(
            copy.to_value().to_string(),
            r#"{"multipleOf":1e-7,"minimum":-0.0,"maximum":9007199254740993}"#
        );
    });
    // The parser rejects `1e400`, but an IR built otherwise may hold it.
    let big = [Json::Number("1e400")];
    let entries = [
        ir::Entry { keyword: Keyword::Maximum, at: 0, value: ir::Value::Number("1e400") },
        ir::Entry { keyword: Keyword::Default, at: 0, value: ir::Value::Json(Json::Array(&big)) },
    ];
    let schema = ir::Schema { keywords: &entries, ..ir::Schema::bool(true, 0) };
    let schema = ir::Schema { boolean: None, ..schema };
    let copy = schema.deep_copy();
    let o = copy.as_object().expect("object");
    assert_eq!(o.maximum, None);
    assert_eq!(o.extra["maximum"], "1e400");
    assert_eq!(o.default, Some(json!(["1e400"])));
}

const MCP_CATALOG: &str = r#"{"tools":[{"name":"get_weather","title":"Weather",
    "description":"Gets it","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}},
    "outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
    "_meta":{"k":1},"icons":[{"src":"https://i"}],"execution":{"taskSupport":"optional"}}]}"#;

#[test]
fn tool_from_ir_fills_typed_fields_and_keeps_the_rest() {
    let src = r#"{"name":"get_weather","title":"Weather","description":"Gets it",
        "inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
        "_meta":{"k":1.50},"icons":[]}"#;
    let tool = with_tool(&Mcp, src, |t| tool_from_ir(t, Mcp.info()));
    assert_eq!(tool.name, "get_weather");
    assert_eq!(tool.title.as_deref(), Some("Weather"));
    assert_eq!(tool.description.as_deref(), Some("Gets it"));
    assert_eq!(tool.annotations, Some(json!({"readOnlyHint": true})));
    assert_eq!(tool.input_schema, Some(deep_copy_of(&json!({"type": "object"}))));
    assert_eq!(tool.output_schema, None);
    assert_eq!(tool.source_format.as_deref(), Some("mcp"));
    let keys: Vec<&str> = tool.source_meta.keys().map(String::as_str).collect();
    assert_eq!(keys, ["_meta", "icons"]);
    assert_eq!(tool.source_meta["_meta"], json!({"k": 1.5}));
    // Nothing fabricated.
    assert_eq!((tool.namespace, tool.version, tool.timeout_ms), (None, None, None));
    assert!(tool.tags.is_empty() && tool.required_scopes.is_empty());

    // A null `annotations` is not a value: kept verbatim in source_meta.
    let tool =
        with_tool(&Mcp, r#"{"name":"x","annotations":null}"#, |t| tool_from_ir(t, Mcp.info()));
    assert_eq!(tool.annotations, None);
    assert_eq!(tool.source_meta["annotations"], Value::Null);
    assert_eq!(tool.input_schema, None);
}

#[test]
fn tool_from_ir_other_formats() {
    let src = r#"{"type":"function","function":{"name":"f","title":"not MCP",
        "parameters":{"type":"object"},"strict":true},"x-outer":1}"#;
    let tool = with_tool(&OpenAi, src, |t| tool_from_ir(t, OpenAi.info()));
    assert_eq!(tool.strict, Some(true));
    assert_eq!(tool.title, None);
    assert_eq!(tool.source_meta["x-outer"], 1);
    assert_eq!(tool.source_meta["title"], "not MCP");
    assert_eq!(tool.source_format.as_deref(), Some("openai"));

    let src = r#"{"type":"web_search_20250305","name":"web_search","max_uses":5}"#;
    let tool = with_tool(&Anthropic, src, |t| tool_from_ir(t, Anthropic.info()));
    assert_eq!(tool.name, "web_search");
    assert_eq!(tool.source_meta["opaque"], serde_json::from_str::<Value>(src).expect("json"));
}

#[test]
fn write_mcp_tools_round_trips_an_mcp_catalog() {
    let source: Value = serde_json::from_str(MCP_CATALOG).expect("json");
    let tool_src = source["tools"][0].to_string();
    let tool = with_tool(&Mcp, &tool_src, |t| tool_from_ir(t, Mcp.info()));
    let mut out = b"prefix".to_vec();
    write_mcp_tools(std::slice::from_ref(&tool), &mut out);
    let written: Value = serde_json::from_slice(&out[6..]).expect("JSON");
    assert_eq!(written, source);
    // The crate reads what it wrote.
    let again = crate::Registry::default().convert(&out[6..], "mcp", "mcp").expect("reads");
    assert_eq!(serde_json::from_slice::<Value>(again.output()).expect("JSON"), source);
}

#[test]
fn write_mcp_tools_defaults_and_foreign_meta() {
    let mut tool = CanonicalTool::new("bare");
    tool.source_meta.insert("cache_control".into(), json!({"type": "ephemeral"}));
    tool.source_format = Some("anthropic".into());
    let mut mcp = CanonicalTool::new("m");
    mcp.source_format = Some("mcp".into());
    mcp.source_meta.insert("name".into(), json!("shadowed"));
    mcp.source_meta.insert("title".into(), json!(7));
    let mut out = Vec::new();
    write_mcp_tools(&[tool, mcp], &mut out);
    assert_eq!(
        String::from_utf8(out).expect("utf-8"),
        r#"{"tools":[{"name":"bare","inputSchema":{"type":"object","properties":{}}},{"name":"m","inputSchema":{"type":"object","properties":{}},"title":7}]}"#
    );
}
