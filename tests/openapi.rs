//! OpenAPI import (`--from openapi`): one tool per operation, on small 3.0 and 3.1 documents
//! written for these tests (`tests/data/openapi/` and inline).

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::formats::{Mcp, OpenApi};
use tooladapter::{
    Code, Conversion, Converter, ErrorKind, Options, Registry, ReportEntry, Severity, Strict,
};

const TARGETS: [&str; 7] =
    ["mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini", "gemini-json"];

fn doc(version: &str, paths: Value) -> Value {
    json!({"openapi": version, "info": {"title": "t", "version": "1"}, "paths": paths})
}

fn with_components(mut d: Value, schemas: Value) -> Value {
    d["components"] = json!({ "schemas": schemas });
    d
}

#[track_caller]
fn convert_to(d: &Value, to: &str) -> Conversion {
    let bytes = serde_json::to_vec(d).unwrap();
    match Registry::default().convert(&bytes, "openapi", to) {
        Ok(c) => c,
        Err(e) => panic!("{to}: {e}"),
    }
}

/// The MCP tools and the report.
#[track_caller]
fn import(d: &Value) -> (Vec<Value>, Conversion) {
    let c = convert_to(d, "mcp");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    (v["tools"].as_array().unwrap().clone(), c)
}

fn tool<'v>(tools: &'v [Value], name: &str) -> &'v Value {
    tools.iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no tool {name}: {tools:?}"))
}

fn entries(c: &Conversion, code: Code) -> Vec<&ReportEntry> {
    c.report().entries().iter().filter(|e| e.code == code).collect()
}

#[track_caller]
fn error(bytes: &[u8]) -> tooladapter::ConversionError {
    match Registry::default().convert(bytes, "openapi", "mcp") {
        Ok(c) => panic!("converted: {}", c.output_str()),
        Err(e) => e,
    }
}

#[test]
fn names_come_from_operation_ids_else_method_and_path_and_are_unique() {
    let d = doc(
        "3.1.0",
        json!({
            "/pets": {"get": {"operationId": "listPets"}, "post": {"operationId": "dup"}},
            "/pets/{id}": {"get": {}, "put": {"operationId": "dup"}},
            "/pets/id": {"get": {}},
            "/items": {"get": {}, "post": {"operationId": "get_items"}},
            "/": {"get": {}}
        }),
    );
    let (tools, c) = import(&d);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "listPets",
            "dup",
            "get_pets_id",
            "dup_2",
            "get_pets_id_2",
            "get_items_2",
            "get_items",
            "get"
        ]
    );
    let clashes = entries(&c, Code::NameClash);
    assert_eq!(clashes.len(), 3, "{clashes:#?}");
    let dup = clashes.iter().find(|e| e.tool == "dup_2").unwrap();
    assert_eq!(dup.severity, Severity::Warning);
    assert_eq!(dup.pointer, "/paths/~1pets~1{id}/put/operationId");
    // A derived name taken by another operation's operationId moves aside, at info.
    let derived = clashes.iter().find(|e| e.tool == "get_items_2").unwrap();
    assert_eq!(derived.severity, Severity::Info);
    assert_eq!(derived.pointer, "/paths/~1items/get");
}

#[test]
fn descriptions_join_summary_and_description() {
    let d = doc(
        "3.1.0",
        json!({
            "/a": {
                "get": {"operationId": "both", "summary": "List pets", "description": "Lists every pet."},
                "put": {"operationId": "repeats", "summary": "List pets", "description": "List pets of the store."},
                "post": {"operationId": "summary", "summary": "Only a summary"},
                "delete": {"operationId": "none"}
            },
            "/b": {"summary": "From the path item", "get": {"operationId": "item"}}
        }),
    );
    let (tools, _) = import(&d);
    assert_eq!(tool(&tools, "both")["description"], "List pets\n\nLists every pet.");
    assert_eq!(tool(&tools, "repeats")["description"], "List pets of the store.");
    assert_eq!(tool(&tools, "summary")["description"], "Only a summary");
    assert!(tool(&tools, "none").get("description").is_none(), "nothing fabricated");
    assert_eq!(tool(&tools, "item")["description"], "From the path item");
}

#[test]
fn parameters_of_every_location_become_properties_with_required() {
    let d = doc(
        "3.1.0",
        json!({"/users/{id}": {"get": {"operationId": "getUser", "parameters": [
            {"name": "session", "in": "cookie", "schema": {"type": "string"}},
            {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string"}},
            {"name": "Authorization", "in": "header", "schema": {"type": "string"}},
            {"name": "verbose", "in": "query", "required": false, "schema": {"type": "boolean"}},
            {"name": "id", "in": "path", "schema": {"type": "integer"}}
        ]}}}),
    );
    let (tools, c) = import(&d);
    let schema = &tool(&tools, "getUser")["inputSchema"];
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    // Path, query, header, cookie; Authorization is ignored, as the specification says.
    assert_eq!(keys, ["id", "verbose", "X-Trace", "session"]);
    // A path parameter is required even when it does not say so.
    assert_eq!(schema["required"], json!(["id", "X-Trace"]));
    let skipped = entries(&c, Code::ParameterSkipped);
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].pointer, "/paths/~1users~1{id}/get/parameters/2/name");
    let cookie = entries(&c, Code::ParameterStyle);
    assert_eq!(cookie.len(), 1);
    assert_eq!((cookie[0].severity, cookie[0].feature.as_str()), (Severity::Info, "in"));
    assert_eq!(cookie[0].tool, "getUser");
}

#[test]
fn path_level_parameters_are_overridden_by_name_and_location() {
    let d = doc(
        "3.1.0",
        json!({"/things/{id}": {
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                {"name": "limit", "in": "header", "schema": {"type": "integer"}}
            ],
            "get": {"operationId": "getThing", "parameters": [
                {"name": "limit", "in": "query", "required": true, "schema": {"type": "string", "maxLength": 3}},
                {"name": "q", "in": "query", "schema": {"type": "string"}}
            ]}
        }}),
    );
    let (tools, c) = import(&d);
    let schema = &tool(&tools, "getThing")["inputSchema"];
    assert_eq!(
        schema["properties"],
        json!({
            "id": {"type": "string"},
            "limit": {"type": "string", "maxLength": 3},
            "q": {"type": "string"},
            "limit_header": {"type": "integer"}
        })
    );
    assert_eq!(schema["required"], json!(["id", "limit"]));
    // The header `limit` clashes with the query one, which came first: renamed, reported.
    let clash = entries(&c, Code::NameClash);
    assert_eq!(clash.len(), 1);
    assert_eq!(clash[0].pointer, "/paths/~1things~1{id}/parameters/2/name");
    assert!(clash[0].message.contains("limit_header"), "{}", clash[0].message);
}

#[test]
fn parameter_refs_resolve_and_bad_ones_are_reported() {
    let mut d = doc(
        "3.1.0",
        json!({"/a": {"get": {"operationId": "op", "parameters": [
            {"$ref": "#/components/parameters/Limit"},
            {"$ref": "#/components/parameters/Missing"},
            {"$ref": "common.json#/parameters/Page"},
            {"$ref": "#/components/parameters/LoopA"},
            {"$ref": "#/components/parameters/Alias", "description": "Overrides the description"}
        ]}}}),
    );
    d["components"] = json!({"parameters": {
        "Limit": {"name": "limit", "in": "query", "description": "Most items", "schema": {"type": "integer"}},
        "LoopA": {"$ref": "#/components/parameters/LoopB"},
        "LoopB": {"$ref": "#/components/parameters/LoopA"},
        "Alias": {"$ref": "#/components/parameters/Sort"},
        "Sort": {"name": "sort", "in": "query", "description": "Sort order", "schema": {"type": "string"}}
    }});
    let (tools, c) = import(&d);
    let props = &tool(&tools, "op")["inputSchema"]["properties"];
    assert_eq!(props["limit"], json!({"type": "integer", "description": "Most items"}));
    assert_eq!(props["sort"]["description"], "Overrides the description");
    assert_eq!(props.as_object().unwrap().len(), 2);
    let skipped = entries(&c, Code::ParameterSkipped);
    let pointers: Vec<&str> = skipped.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/paths/~1a/get/parameters/1/$ref",
            "/paths/~1a/get/parameters/2/$ref",
            // The cycle is cut where the chain gave up.
            "/components/parameters/LoopB/$ref",
        ]
    );
    assert!(skipped[1].message.contains("never fetched"), "{}", skipped[1].message);
    assert!(skipped[2].message.contains("does not end"), "{}", skipped[2].message);
}

fn body_doc(body: Value, params: Value) -> Value {
    with_components(
        doc(
            "3.1.0",
            json!({"/pets/{id}": {"post": {"operationId": "op", "parameters": params, "requestBody": body}}}),
        ),
        json!({"Pet": {"type": "object", "description": "A pet",
            "properties": {"name": {"type": "string"}, "tag": {"type": "string"}}, "required": ["name"]}}),
    )
}

fn id_param() -> Value {
    json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}])
}

#[test]
fn an_object_body_is_merged_when_nothing_clashes() {
    let body = json!({"required": true, "description": "The new pet",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}});
    let (tools, c) = import(&body_doc(body, id_param()));
    let schema = &tool(&tools, "op")["inputSchema"];
    assert_eq!(
        schema,
        &json!({
            "type": "object",
            "description": "The new pet\n\nA pet",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tag": {"type": "string"}},
            "required": ["id", "name"]
        })
    );
    assert!(c.report().is_empty(), "{:#?}", c.report());
}

#[test]
fn a_clashing_or_optional_object_body_is_one_body_property() {
    // `name` is a parameter too: the body stays whole, under `body`.
    let params = json!([
        {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
        {"name": "name", "in": "query", "schema": {"type": "string"}}
    ]);
    let body = json!({"required": true,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}});
    let (tools, _) = import(&body_doc(body, params));
    let schema = &tool(&tools, "op")["inputSchema"];
    assert_eq!(schema["properties"]["body"], json!({"$ref": "#/$defs/Pet"}));
    assert_eq!(schema["required"], json!(["id", "body"]));
    assert!(schema["$defs"]["Pet"].is_object());
    // An optional body whose object requires `name`: merging would make `name` required
    // even when no body is sent, so it stays whole, and optional.
    let body =
        json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}});
    let (tools, _) = import(&body_doc(body, id_param()));
    let schema = &tool(&tools, "op")["inputSchema"];
    assert_eq!(schema["properties"]["body"], json!({"$ref": "#/$defs/Pet"}));
    assert_eq!(schema["required"], json!(["id"]));
    // A parameter called `body` moves the body aside.
    let params = json!([{"name": "body", "in": "query", "schema": {"type": "string"}}]);
    let body = json!({"content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}});
    let (tools, c) = import(&body_doc(body, params));
    let props = &tool(&tools, "op")["inputSchema"]["properties"];
    assert_eq!(props["body_2"], json!({"type": "array", "items": {"type": "string"}}));
    assert_eq!(entries(&c, Code::NameClash).len(), 1);
}

#[test]
fn path_item_and_request_body_refs_are_followed_or_reported() {
    let mut d = doc(
        "3.1.0",
        json!({
            "/local": {"$ref": "#/components/pathItems/Local"},
            "/remote": {"$ref": "https://example.com/api.json#/paths/~1remote"}
        }),
    );
    d["components"] = json!({
        "pathItems": {"Local": {"post": {"operationId": "post", "requestBody": {"$ref": "#/components/requestBodies/Note"}}}},
        "requestBodies": {"Note": {"required": true, "content": {"application/json": {"schema": {"type": "string", "format": "uri"}}}}}
    });
    let (tools, c) = import(&d);
    assert_eq!(tools.len(), 1);
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["properties"]["body"], json!({"type": "string", "format": "uri"}));
    assert_eq!(schema["required"], json!(["body"]));
    let skipped = entries(&c, Code::OperationSkipped);
    assert_eq!(skipped.len(), 1);
    assert_eq!(
        (skipped[0].severity, skipped[0].pointer.as_str()),
        (Severity::Warning, "/paths/~1remote/$ref")
    );
    // The report of a target points through the references, into the components.
    let c = convert_to(&d, "gemini");
    let format = c.report().entries().iter().find(|e| e.feature == "format").unwrap();
    assert_eq!(format.tool, "post");
    assert_eq!(
        format.pointer,
        "/components/requestBodies/Note/content/application~1json/schema/format"
    );
}

#[test]
fn a_non_object_body_is_the_body_property() {
    let body = json!({"required": true, "description": "Tags to set",
        "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}});
    let (tools, _) = import(&body_doc(body, id_param()));
    let schema = &tool(&tools, "op")["inputSchema"];
    assert_eq!(
        schema["properties"]["body"],
        json!({"type": "array", "items": {"type": "string"}, "description": "Tags to set"})
    );
    assert_eq!(schema["required"], json!(["id", "body"]));
}

#[test]
fn json_suffix_media_types_are_json() {
    for media in ["application/merge-patch+json", "application/json; charset=utf-8"] {
        let body = json!({"required": true, "content": {
            "text/plain": {"schema": {"type": "string"}},
            (media): {"schema": {"type": "object", "properties": {"nick": {"type": "string"}}}}
        }});
        let (tools, c) = import(&body_doc(body, id_param()));
        assert_eq!(
            tool(&tools, "op")["inputSchema"]["properties"]["nick"],
            json!({"type": "string"}),
            "{media}"
        );
        let notes = entries(&c, Code::BodyNotJson);
        assert_eq!(notes.len(), 1, "{notes:#?}");
        assert_eq!(notes[0].severity, Severity::Info);
        assert!(notes[0].message.contains("`text/plain`"), "{}", notes[0].message);
    }
}

#[test]
fn form_and_multipart_bodies_are_used_and_reported() {
    let body = json!({"content": {"multipart/form-data": {
        "schema": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}},
        "encoding": {"file": {"contentType": "image/png"}}
    }}});
    let (tools, c) = import(&body_doc(body, id_param()));
    assert_eq!(
        tool(&tools, "op")["inputSchema"]["properties"]["file"],
        json!({"type": "string", "format": "binary"})
    );
    let notes = entries(&c, Code::BodyNotJson);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].severity, Severity::Warning);
    assert_eq!(
        notes[0].pointer,
        "/paths/~1pets~1{id}/post/requestBody/content/multipart~1form-data"
    );
    assert!(notes[0].message.contains("encoding"), "{}", notes[0].message);
    let body = json!({"required": true, "content": {"application/x-www-form-urlencoded": {
        "schema": {"type": "object", "properties": {"Body": {"type": "string"}}, "required": ["Body"]}}}});
    let (tools, c) = import(&body_doc(body, id_param()));
    assert_eq!(tool(&tools, "op")["inputSchema"]["required"], json!(["id", "Body"]));
    assert_eq!(entries(&c, Code::BodyNotJson)[0].feature, "application/x-www-form-urlencoded");
}

#[test]
fn openapi_30_nullable_becomes_each_targets_form() {
    let d = doc(
        "3.0.3",
        json!({"/a": {"get": {"operationId": "op", "parameters": [
            {"name": "note", "in": "query", "schema": {"type": "string", "nullable": true}},
            {"name": "n", "in": "query", "schema": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}
        ]}}}),
    );
    let note = |to: &str| {
        let c = convert_to(&d, to);
        let v: Value = serde_json::from_slice(c.output()).unwrap();
        let t = if v.is_array() {
            v[0].clone()
        } else if v.get("tools").is_some() {
            v["tools"][0].clone()
        } else {
            v["functionDeclarations"][0].clone()
        };
        let schema = ["inputSchema", "parameters", "input_schema", "parametersJsonSchema"]
            .iter()
            .find_map(|k| t.get(k).or_else(|| t.get("function").and_then(|f| f.get(k))))
            .unwrap()
            .clone();
        (schema["properties"]["note"].clone(), schema["properties"]["n"].clone())
    };
    for to in ["mcp", "openai", "openai-responses", "anthropic", "gemini-json"] {
        let (note, n) = note(to);
        assert_eq!(note, json!({"type": ["string", "null"]}), "{to}");
        // The draft-04 boolean bound of 3.0 becomes the number form (Gemini's JSON Schema
        // field then describes it).
        let bound = if to == "gemini-json" {
            json!({"type": "integer", "description": "Constraints: exclusiveMinimum 0."})
        } else {
            json!({"type": "integer", "exclusiveMinimum": 0})
        };
        assert_eq!(n, bound, "{to}");
    }
    assert_eq!(note("gemini").0, json!({"type": "STRING", "nullable": true}));
    // In 3.1, `nullable` is no keyword: it stays what the author wrote.
    let mut d31 = d.clone();
    d31["openapi"] = json!("3.1.0");
    let (tools, _) = import(&d31);
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["note"],
        json!({"type": "string", "nullable": true})
    );
}

fn refs_doc() -> Value {
    with_components(
        doc(
            "3.1.0",
            json!({"/pets": {"post": {"operationId": "addPet", "requestBody": {"required": true,
            "content": {"application/json": {"schema": {"type": "object", "properties": {
                "pet": {"$ref": "#/components/schemas/Pet"},
                "owner": {"$ref": "#/components/schemas/Pet/properties/owner"}
            }}}}}}}}),
        ),
        json!({
            "Pet": {"type": "object", "properties": {
                "category": {"$ref": "#/components/schemas/Category"},
                "owner": {"type": "string", "format": "email"}
            }},
            "Category": {"type": "object", "properties": {"name": {"type": "string"}}},
            "Unused": {"type": "string"}
        }),
    )
}

#[test]
fn component_refs_become_defs_and_gemini_inlines_them() {
    let (tools, c) = import(&refs_doc());
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["properties"]["pet"], json!({"$ref": "#/$defs/Pet"}));
    assert_eq!(schema["properties"]["owner"], json!({"$ref": "#/$defs/Pet/properties/owner"}));
    let defs: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["Pet", "Category"], "only what the tool uses, transitively");
    assert_eq!(
        schema["$defs"]["Pet"]["properties"]["category"],
        json!({"$ref": "#/$defs/Category"})
    );
    assert!(c.report().is_empty(), "{:#?}", c.report());
    // Gemini has no refs: inlined, and the report points into the OpenAPI document.
    let c = convert_to(&refs_doc(), "gemini");
    let out = c.output_str();
    assert!(!out.contains("$ref") && !out.contains("$defs"), "{out}");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    let pet = &v["functionDeclarations"][0]["parameters"]["properties"]["pet"];
    assert_eq!(pet["properties"]["category"]["properties"]["name"]["type"], "STRING");
    let format = c.report().entries().iter().find(|e| e.feature == "format").unwrap();
    assert_eq!(format.pointer, "/components/schemas/Pet/properties/owner/format");
    let inlined = entries(&c, Code::RefInlined);
    assert!(
        inlined.iter().any(|e| e.pointer == "/paths/~1pets/post/requestBody/content/application~1json/schema/properties/pet/$ref"),
        "{inlined:#?}"
    );
}

#[test]
fn recursive_component_schemas_stay_refs_or_are_reported() {
    let d = with_components(
        doc(
            "3.1.0",
            json!({"/tree": {"put": {"operationId": "putTree", "requestBody": {"required": true,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}),
        ),
        json!({"Node": {"type": "object", "properties": {
            "value": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
        }}}),
    );
    let (tools, _) = import(&d);
    let schema = &tools[0]["inputSchema"];
    // Merged: the root takes Node's properties, and Node itself stays for the recursion.
    assert_eq!(schema["properties"]["children"]["items"], json!({"$ref": "#/$defs/Node"}));
    assert_eq!(
        schema["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    let c = convert_to(&d, "gemini");
    let recursive = entries(&c, Code::RefRecursive);
    assert!(!recursive.is_empty(), "{:#?}", c.report());
    assert!(
        recursive.iter().all(|e| e.pointer.starts_with("/components/schemas/Node/")),
        "{recursive:#?}"
    );
}

#[test]
fn external_and_dangling_schema_refs_are_reported_and_left_out() {
    let d = with_components(
        doc(
            "3.1.0",
            json!({"/a": {"get": {"operationId": "op", "parameters": [
                {"name": "ext", "in": "query", "schema": {"$ref": "https://example.com/schemas.json#/Thing"}},
                {"name": "gone", "in": "query", "description": "Gone", "schema": {"$ref": "#/components/schemas/Nope"}}
            ]}}}),
        ),
        json!({}),
    );
    let (tools, c) = import(&d);
    let props = &tools[0]["inputSchema"]["properties"];
    let ext = props["ext"]["description"].as_str().unwrap();
    assert!(
        ext.contains("https://example.com/schemas.json#/Thing") && ext.contains("never fetched"),
        "{ext}"
    );
    assert!(props["ext"].get("$ref").is_none());
    assert!(
        props["gone"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Gone (schema `#/components/schemas/Nope`")
    );
    let external = entries(&c, Code::RefExternal);
    assert_eq!(external.len(), 1);
    assert_eq!(external[0].pointer, "/paths/~1a/get/parameters/0/schema/$ref");
    assert_eq!(external[0].severity, Severity::Warning);
    assert_eq!(
        entries(&c, Code::RefDangling)[0].pointer,
        "/paths/~1a/get/parameters/1/schema/$ref"
    );
}

#[test]
fn parameter_style_and_explode_are_reported() {
    let d = doc(
        "3.1.0",
        json!({"/a/{ids}": {"get": {"operationId": "op", "parameters": [
            {"name": "ids", "in": "path", "required": true, "style": "label", "explode": true,
                "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "filter", "in": "query", "style": "deepObject",
                "schema": {"type": "object", "properties": {"a": {"type": "string"}}}},
            {"name": "tags", "in": "query", "style": "form", "explode": true, "allowReserved": true,
                "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "raw", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}}
        ]}}}),
    );
    let (tools, c) = import(&d);
    assert_eq!(tools[0]["inputSchema"]["properties"]["raw"], json!({"type": "object"}));
    let found: Vec<(String, Severity, String)> = entries(&c, Code::ParameterStyle)
        .iter()
        .map(|e| (e.pointer.clone(), e.severity, e.feature.clone()))
        .collect();
    let p = |s: &str| format!("/paths/~1a~1{{ids}}/get/parameters/{s}");
    assert_eq!(
        found,
        [
            (p("0/style"), Severity::Warning, "style".to_owned()),
            (p("0/explode"), Severity::Warning, "explode".to_owned()),
            (p("1/style"), Severity::Warning, "style".to_owned()),
            // `form` with `explode: true` is the query default: said, at info.
            (p("2/style"), Severity::Info, "style".to_owned()),
            (p("2/explode"), Severity::Info, "explode".to_owned()),
            (p("2/allowReserved"), Severity::Warning, "allowReserved".to_owned()),
            (p("3/content/application~1json"), Severity::Info, "content".to_owned()),
        ]
    );
}

#[test]
fn parameter_description_deprecated_and_examples_reach_the_property() {
    let d = doc(
        "3.1.0",
        json!({"/a": {"get": {"operationId": "op", "parameters": [
            {"name": "q", "in": "query", "description": "Search text", "deprecated": true, "example": "cats",
                "schema": {"type": "string", "description": "Free text"}},
            {"name": "page", "in": "query", "examples": {"first": {"value": 1}, "far": {"value": 99}},
                "schema": {"type": "integer"}},
            {"name": "own", "in": "query", "example": 5, "schema": {"type": "integer", "examples": [7]}}
        ]}}}),
    );
    let (tools, _) = import(&d);
    let props = &tools[0]["inputSchema"]["properties"];
    assert_eq!(
        props["q"],
        json!({"type": "string", "description": "Search text\n\nFree text", "deprecated": true, "examples": ["cats"]})
    );
    assert_eq!(props["page"], json!({"type": "integer", "examples": [1, 99]}));
    // The schema's own examples win.
    assert_eq!(props["own"], json!({"type": "integer", "examples": [7]}));
}

#[test]
fn a_document_without_operations_is_an_empty_catalog_and_webhooks_are_reported() {
    let d = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "webhooks": {"newPet": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}}}}});
    let c = convert_to(&d, "openai");
    assert_eq!(c.output_str(), "[]");
    assert_eq!(c.tools_written(), 0);
    let skipped = entries(&c, Code::OperationSkipped);
    let pointers: Vec<&str> = skipped.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(pointers, ["/webhooks/newPet", ""]);
    assert!(skipped.iter().all(|e| e.tool.is_empty() && e.severity == Severity::Info));
    // Callbacks of an operation are requests the API makes: reported with the tool.
    let d = doc(
        "3.0.3",
        json!({"/subscribe": {"post": {"operationId": "subscribe", "callbacks": {"onEvent": {}}}}}),
    );
    let (tools, c) = import(&d);
    assert_eq!(tools.len(), 1);
    let cb = entries(&c, Code::OperationSkipped);
    assert_eq!(
        (cb[0].tool.as_str(), cb[0].pointer.as_str()),
        ("subscribe", "/paths/~1subscribe/post/callbacks/onEvent")
    );
}

#[test]
fn the_operations_filter_selects_by_glob_without_renaming() {
    let bytes = std::fs::read("tests/data/openapi/store.json").unwrap();
    let run = |api: OpenApi| {
        let c = Converter::new().convert(&bytes, &api, &Mcp, &Options::default()).unwrap().clone();
        let v: Value = serde_json::from_slice(c.output()).unwrap();
        let names: Vec<String> = v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect();
        (names, c)
    };
    assert_eq!(
        run(OpenApi::new()).0,
        ["listItems", "createItem", "getItem", "delete_items_itemId"]
    );
    assert_eq!(run(OpenApi::new().operations("*Item")).0, ["createItem", "getItem"]);
    assert_eq!(
        run(OpenApi::new().operations("list*").operations("delete_*")).0,
        ["listItems", "delete_items_itemId"]
    );
    assert_eq!(run(OpenApi::new().operations("?etItem")).0, ["getItem"]);
    // A pattern that matches nothing is an error naming it and the first operations.
    for api in [
        OpenApi::new().operations("nothing*"),
        OpenApi::new().operations("get*").operations("nothing*"),
    ] {
        let e = Converter::new().convert(&bytes, &api, &Mcp, &Options::default()).unwrap_err();
        assert!(matches!(e.kind(), tooladapter::ErrorKind::InvalidOptions(_)), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("`nothing*`") && text.contains("`listItems`, `createItem`"),
            "{text}"
        );
    }
}

#[test]
fn malformed_documents_are_errors_with_pointers() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"openapi": "3.1.0", "paths": []}), "/paths", "`paths` must be an object"),
        (
            doc("3.1.0", json!({"/a": {"get": {"parameters": [{"in": "query", "schema": {}}]}}})),
            "/paths/~1a/get/parameters/0",
            "missing required member `name`",
        ),
        (
            doc(
                "3.1.0",
                json!({"/a": {"get": {"parameters": [{"name": "x", "in": "body", "schema": {}}]}}}),
            ),
            "/paths/~1a/get/parameters/0/in",
            "must be path, query, header or cookie",
        ),
        (
            doc("3.1.0", json!({"/a": {"get": {"parameters": [{"name": "x", "in": "query"}]}}})),
            "/paths/~1a/get/parameters/0",
            "missing required member `schema`",
        ),
        (
            doc("3.1.0", json!({"/a": {"get": {"parameters": {"name": "x"}}}})),
            "/paths/~1a/get/parameters",
            "must be an array",
        ),
        (
            doc("3.1.0", json!({"/a": {"post": {"requestBody": {"required": true}}}})),
            "/paths/~1a/post/requestBody",
            "missing required member `content`",
        ),
        (doc("3.1.0", json!({"/a": {"get": "nope"}})), "/paths/~1a/get", "must be an object"),
        (
            doc("3.1.0", json!({"/a": {"get": {"operationId": 7}}})),
            "/paths/~1a/get/operationId",
            "must be a string",
        ),
        (doc("4.0.0", json!({})), "/openapi", "3.0.x and 3.1.x"),
        (json!({"swagger": "2.0", "paths": {}}), "/swagger", "Swagger 2.0"),
        (json!({"info": {}}), "", "missing required member `openapi`"),
        (json!([1]), "", "OpenAPI document"),
    ];
    for (d, pointer, text) in cases {
        let e = error(&serde_json::to_vec(&d).unwrap());
        assert_eq!(e.adapter(), "openapi", "{d}");
        assert_eq!(e.pointer(), pointer, "{d}: {e}");
        assert!(e.to_string().contains(text), "{d}: {e}");
    }
    // The whole document is checked like any input: a repeated key is an error.
    let e = error(br#"{"openapi":"3.1.0","paths":{"/a":{"get":{},"get":{}}}}"#);
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
    assert_eq!(e.pointer(), "/paths/~1a/get");
    // YAML is not read, and the error says so.
    let e = error(b"openapi: 3.1.0\ninfo:\n  title: t\n");
    assert!(matches!(e.kind(), ErrorKind::Json { .. }));
    assert!(e.to_string().contains("JSON documents only (YAML is not supported"), "{e}");
    // An error of the translated catalog's lowering points into the document: a component
    // schema nested just deep enough to pass in the document, but not once in `$defs`.
    let deep_doc = |levels: usize| {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            schema = json!({"type": "array", "items": schema});
        }
        let params =
            json!([{"name": "x", "in": "query", "schema": {"$ref": "#/components/schemas/Deep"}}]);
        serde_json::to_vec(&with_components(
            doc("3.1.0", json!({"/a": {"get": {"parameters": params}}})),
            json!({"Deep": schema}),
        ))
        .unwrap()
    };
    let options = Options::default().max_depth(24);
    let failing = (1..24)
        .map(|levels| {
            Converter::new().convert(&deep_doc(levels), &OpenApi::new(), &Mcp, &options).err()
        })
        .find_map(|e| e)
        .expect("some depth fails");
    assert!(matches!(failing.kind(), ErrorKind::DepthLimit { .. }), "{failing}");
    assert!(failing.pointer().starts_with("/components/schemas/Deep/items"), "{failing}");
    assert_eq!(failing.tool(), Some("get_a"));
    // Deep nesting stays a typed error.
    let deep = format!(
        r#"{{"openapi":"3.1.0","paths":{{"/a":{{"get":{{"x-deep":{}1{}}}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    assert!(matches!(error(deep.as_bytes()).kind(), ErrorKind::DepthLimit { .. }));
}

#[test]
fn the_translation_is_held_to_the_input_size_limit() {
    // Every tool copies the component schemas it uses: 60 operations sharing one 200-property
    // component translate to far more than the document. The limit that bounds the document
    // bounds the translation too, as an error at the operation that crossed it.
    let props: serde_json::Map<String, Value> =
        (0..200).map(|i| (format!("field{i}"), json!({"type": "string"}))).collect();
    let paths: serde_json::Map<String, Value> = (0..60)
        .map(|i| {
            let params = json!([{"name": "x", "in": "query", "schema": {"$ref": "#/components/schemas/Big"}}]);
            (format!("/op{i}"), json!({"get": {"operationId": format!("op{i}"), "parameters": params}}))
        })
        .collect();
    let d = with_components(
        doc("3.1.0", Value::Object(paths)),
        json!({"Big": {"type": "object", "properties": props}}),
    );
    let bytes = serde_json::to_vec(&d).unwrap();
    let limit = 64 << 10;
    assert!(bytes.len() < limit);
    let options = Options::default().max_input_bytes(limit);
    let e = Converter::new().convert(&bytes, &OpenApi::new(), &Mcp, &options).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::ImportTooLarge { limit: l, document, operations: 60, .. }
            if *l == limit && *document == bytes.len()),
        "{e}"
    );
    assert!(e.pointer().starts_with("/paths/~1op") && e.pointer().ends_with("/get"), "{e}");
    // With room, every tool carries the component.
    let c = Converter::new()
        .convert(&bytes, &OpenApi::new(), &Mcp, &Options::default())
        .unwrap()
        .clone();
    assert_eq!(c.tools_written(), 60);
    assert!(c.output().len() > limit);
}

#[test]
fn many_clashes_and_references_are_handled_in_one_pass_each() {
    // Hostile shapes that a scan per name or per reference would make quadratic: 5,000
    // operations with one operationId, 5,000 query parameters called `id` in one operation,
    // and 5,000 parameter references into a `components` map of 5,000.
    let n = 5_000;
    let mut paths = serde_json::Map::new();
    for i in 0..n {
        paths.insert(format!("/p{i}"), json!({"get": {"operationId": "same"}}));
    }
    let many: Vec<Value> = (0..n)
        .map(|_| json!({"name": "id", "in": "query", "schema": {"type": "string"}}))
        .collect();
    let refs: Vec<Value> =
        (0..n).map(|i| json!({"$ref": format!("#/components/parameters/P{i}")})).collect();
    paths.insert("/many".to_owned(), json!({"get": {"operationId": "many", "parameters": many}}));
    paths.insert("/refs".to_owned(), json!({"get": {"operationId": "refs", "parameters": refs}}));
    let mut d = doc("3.1.0", Value::Object(paths));
    let params: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("P{i}"), json!({"name": format!("p{i}"), "in": "query", "schema": {}})))
        .collect();
    d["components"] = json!({"parameters": params});
    let started = std::time::Instant::now();
    let (tools, c) = import(&d);
    println!("{} tools in {:?}", tools.len(), started.elapsed());
    assert_eq!(tools.len(), n + 2);
    assert_eq!(tools[n - 1]["name"], format!("same_{n}"));
    let many = tool(&tools, "many")["inputSchema"]["properties"].as_object().unwrap().clone();
    assert_eq!(many.len(), n);
    assert!(many.contains_key("id_query") && many.contains_key(&format!("id_query_{}", n - 1)));
    assert_eq!(tool(&tools, "refs")["inputSchema"]["properties"].as_object().unwrap().len(), n);
    assert_eq!(entries(&c, Code::NameClash).len(), 2 * (n - 1));
}

#[test]
fn openapi_is_import_only_and_every_target_takes_the_tools() {
    let r = Registry::default();
    let openapi = r.get("openapi").unwrap();
    assert!(openapi.info().reads && !openapi.info().writes && openapi.info().imports);
    let bytes = std::fs::read("tests/data/openapi/store.json").unwrap();
    let e = r.convert(&bytes, "mcp", "openapi").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported));
    for to in TARGETS {
        let c = r.convert(&bytes, "openapi", to).unwrap();
        assert_eq!(c.tools_written(), 4, "{to}");
        serde_json::from_slice::<Value>(c.output()).unwrap();
        assert!(
            c.report().entries().iter().all(|e| e.severity < Severity::Error),
            "{to}: {:#?}",
            c.report()
        );
    }
    for to in ["openai", "anthropic"] {
        let options = Options::default().strict(Strict::On);
        let c = r.convert_with(&bytes, "openapi", to, &options).unwrap();
        assert_eq!(c.tools_written(), 4, "{to}");
    }
    // The owned tools read the same document.
    let owned = r.to_canonical(&bytes, "openapi").unwrap();
    assert_eq!(owned.len(), 4);
    assert_eq!(owned[0].source_format.as_deref(), Some("openapi"));
}

#[test]
fn every_report_entry_points_into_the_document() {
    let bytes = std::fs::read("tests/data/openapi/store.json").unwrap();
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    for to in TARGETS {
        let c = Registry::default().convert(&bytes, "openapi", to).unwrap();
        assert!(!c.report().is_empty(), "{to}");
        for e in c.report() {
            // The nearest existing ancestor of the pointer is in the document.
            let mut p = e.pointer.as_str();
            while doc.pointer(p).is_none() {
                p = &p[..p.rfind('/').unwrap()];
            }
            assert!(p.starts_with("/paths/") || p.starts_with("/components/"), "{to}: {e}");
        }
    }
    let c = Registry::default().convert(&bytes, "openapi", "openai-responses").unwrap();
    let style = entries(&c, Code::ParameterStyle);
    assert_eq!(style[0].pointer, "/paths/~1items/get/parameters/1/style");
    assert_eq!(style[0].tool, "listItems");
    assert_eq!(style[0].from, "openapi");
    assert_eq!(style[0].to, "openai-responses");
    // The conversion's own entry for the 3.0 `nullable`, moved to the component.
    let nullable = c.report().entries().iter().find(|e| e.feature == "nullable").unwrap();
    assert_eq!(nullable.pointer, "/components/schemas/NewItem/properties/note/nullable");
    assert_eq!(nullable.tool, "createItem");
}

#[test]
fn cli_imports_with_an_operations_filter() {
    let (code, out, err) = bin::run(
        &[
            "convert",
            "--from",
            "openapi",
            "--to",
            "openai",
            "--operations",
            "*Item",
            "tests/data/openapi/store.json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).unwrap();
    let names: Vec<&str> =
        v.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["createItem", "getItem"]);
    assert_eq!(
        v[0]["function"]["parameters"]["properties"]["note"],
        json!({"type": ["string", "null"], "format": "markdown"})
    );
    // The filter only means something for OpenAPI.
    let (code, _, err) =
        bin::run(&["convert", "--from", "mcp", "--to", "openai", "--operations", "x"], b"{}");
    assert_eq!(code, 2);
    assert!(err.contains("--from openapi"), "{err}");
    // YAML input: exit 1, and the message says JSON only.
    let (code, _, err) =
        bin::run(&["convert", "--from", "openapi", "--to", "openai", "-"], b"openapi: 3.1.0\n");
    assert_eq!(code, 1);
    assert!(err.contains("YAML is not supported"), "{err}");
}

#[test]
fn cli_converts_a_large_document_whole_on_any_thread_count() {
    // Many operations and a root `tools` array the batch splitter would otherwise take for a
    // catalog: the document must be imported whole, the same with one thread or four.
    let mut paths = serde_json::Map::new();
    for i in 0..400 {
        paths.insert(
            format!("/things{i}/{{id}}"),
            json!({"get": {"operationId": format!("getThing{i}"), "description": "x".repeat(200),
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]}}),
        );
    }
    let mut d = doc("3.1.0", Value::Object(paths));
    d["tools"] = json!((0..100).map(|i| json!({"name": format!("t{i}")})).collect::<Vec<_>>());
    let bytes = serde_json::to_vec(&d).unwrap();
    assert!(bytes.len() > 64 << 10);
    let mut outs = Vec::new();
    for jobs in ["1", "4"] {
        let (code, out, err) = bin::run(
            &["convert", "--from", "openapi", "--to", "anthropic", "--jobs", jobs, "-"],
            &bytes,
        );
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 400);
        outs.push(out);
    }
    assert_eq!(outs[0], outs[1]);
}

/// 200 operations sharing one 100 KB component schema: 20 MB of tools from a 100 KB
/// document (over the 4 MiB floor). The import limit is stated in the document's terms (its size, its operations,
/// the largest tool), not the translated catalog's, and holds whatever the `$ref` budget.
#[test]
fn operations_sharing_a_large_schema_hit_the_import_limit_in_the_documents_terms() {
    let props: serde_json::Map<String, Value> = (0..1_200)
        .map(|i| {
            (
                format!("field{i}"),
                json!({"type": "string", "description": "a field of the shared schema"}),
            )
        })
        .collect();
    let paths: serde_json::Map<String, Value> = (0..200)
        .map(|i| {
            let body = json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Big"}}}});
            (format!("/op{i}"), json!({"post": {"operationId": format!("op{i}"), "requestBody": body}}))
        })
        .collect();
    let d = with_components(
        doc("3.1.0", Value::Object(paths)),
        json!({"Big": {"type": "object", "properties": props}}),
    );
    let bytes = serde_json::to_vec(&d).unwrap();
    for options in [Options::default(), Options::default().max_ref_expansion(usize::MAX)] {
        let e = Converter::new().convert(&bytes, &OpenApi::new(), &Mcp, &options).unwrap_err();
        let ErrorKind::ImportTooLarge { document, limit, operations, written, largest, .. } =
            *e.kind()
        else {
            panic!("{e}");
        };
        assert_eq!((document, limit, operations), (bytes.len(), 4 << 20, 200));
        assert!(written < 200 && largest > 60_000, "{e}");
        let message = e.to_string();
        assert!(message.contains(&format!("the document ({} bytes)", bytes.len())), "{message}");
        assert_eq!(e.pointer(), format!("/paths/~1op{}/post", written - 1));
    }
    // The limit follows the document's size: a higher ratio imports every operation.
    let options = Options::default().max_import_ratio(1_000).max_output_ratio(1_000);
    let c = Converter::new().convert(&bytes, &OpenApi::new(), &Mcp, &options).unwrap().clone();
    assert_eq!(c.tools_written(), 200);
}
