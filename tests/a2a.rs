//! The `a2a` format: A2A AgentCard skills, read (a skill, a card, an array) and written from
//! the other formats (the input schema reported lost, at its pointer), the same-format round
//! trip, the card wrapper, ids, errors and the CLI.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::{Code, Conversion, ConversionError, Effect, ErrorKind, Registry, Severity};

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

/// Each entry as (severity, code, feature, pointer).
fn entries(c: &Conversion) -> Vec<(Severity, Code, String, String)> {
    c.report()
        .entries()
        .iter()
        .map(|e| (e.severity, e.code, e.feature.clone(), e.tool_pointer.clone()))
        .collect()
}

fn entry(
    severity: Severity,
    code: Code,
    feature: &str,
    pointer: &str,
) -> (Severity, Code, String, String) {
    (severity, code, feature.to_owned(), pointer.to_owned())
}

const SKILL: &str = r#"{"id":"find_recipe","name":"Find recipe","description":"Finds a recipe.","tags":["cooking"],"examples":["bread"],"inputModes":["text/plain"],"outputModes":["application/json"],"security":[{"oauth":["read"]}]}"#;

const CARD: &str = r#"{"name":"Recipe Agent","description":"Recipes.","url":"https://agent.example.com/a2a","version":"1.0.0","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"find_recipe","name":"Find recipe","description":"Finds a recipe.","tags":["cooking"]},{"id":"convert_units","name":"Convert units","description":"Converts measures.","tags":[]}]}"#;

/// An MCP tool with arguments, and what each other format calls it.
const MCP_TOOL: &str = r#"{"name":"get_weather","description":"Current weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#;

#[test]
fn a_skill_reads_as_a_tool_without_parameters() {
    let c = convert(SKILL, "a2a", "mcp");
    assert_eq!(
        json_of(&c),
        json!({"name": "find_recipe", "description": "Finds a recipe.",
               "inputSchema": {"type": "object", "properties": {}}})
    );
    // The skill's title, tags, examples, modes and security are metadata MCP has no place for
    // (`info`: no argument depends on them); the empty input schema MCP requires is written
    // and said: open, it accepts keys where the skill took no arguments (a warning, widens).
    assert_eq!(
        entries(&c),
        [
            entry(Severity::Warning, Code::InputSchemaAdded, "inputSchema", ""),
            entry(Severity::Info, Code::MetadataDropped, "name", "/name"),
            entry(Severity::Info, Code::MetadataDropped, "tags", "/tags"),
            entry(Severity::Info, Code::MetadataDropped, "examples", "/examples"),
            entry(Severity::Info, Code::MetadataDropped, "inputModes", "/inputModes"),
            entry(Severity::Info, Code::MetadataDropped, "outputModes", "/outputModes"),
            entry(Severity::Info, Code::MetadataDropped, "security", "/security"),
        ]
    );
    let effects: Vec<(Effect, bool)> =
        c.report().entries().iter().map(|e| (e.effect, e.arguments)).collect();
    assert_eq!(effects[0], (Effect::Widens, true));
    assert!(effects[1..].iter().all(|&e| e == (Effect::None, false)), "{effects:?}");
    // A target that does not require a schema writes none.
    let openai = convert(SKILL, "a2a", "openai");
    assert_eq!(
        json_of(&openai),
        json!({"type": "function", "function": {"name": "find_recipe", "description": "Finds a recipe."}})
    );
    let langchain = convert(SKILL, "a2a", "langchain");
    assert_eq!(
        json_of(&langchain),
        json!({"title": "find_recipe", "description": "Finds a recipe."})
    );
}

#[test]
fn a_card_reads_as_a_catalog_and_its_other_members_are_reported_elsewhere() {
    let c = convert(CARD, "a2a", "mcp");
    let out = json_of(&c);
    let names: Vec<&str> =
        out["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["find_recipe", "convert_units"]);
    assert_eq!(c.tools_written(), 2);
    let wrapper: Vec<(String, String)> = c
        .report()
        .entries()
        .iter()
        .filter(|e| e.code == Code::CatalogMemberDropped)
        .map(|e| (e.feature.clone(), e.pointer.clone()))
        .collect();
    let keys = [
        "name",
        "description",
        "url",
        "version",
        "capabilities",
        "defaultInputModes",
        "defaultOutputModes",
    ];
    assert_eq!(wrapper, keys.map(|k| (k.to_owned(), format!("/{k}"))));
    // The skills' entries name their tool; `convert_units` has `"tags": []`, which carries
    // nothing and is left out without an entry.
    let tagged: Vec<&str> = c
        .report()
        .entries()
        .iter()
        .filter(|e| e.feature == "tags")
        .map(|e| e.tool.as_str())
        .collect();
    assert_eq!(tagged, ["find_recipe"]);
}

#[test]
fn a_bare_array_of_skills_is_a_catalog() {
    let other = SKILL.replace(r#""id":"find_recipe""#, r#""id":"find_wine""#);
    let input = format!("[{SKILL},{other}]");
    let c = convert(&input, "a2a", "mcp");
    assert_eq!(c.tools_written(), 2);
    assert_eq!(json_of(&c)["tools"][1]["name"], "find_wine");
    // Written back as A2A, the array stays an array.
    let same = convert(&input, "a2a", "a2a");
    assert_eq!(same.output_str(), input);
    // A skill id given twice is numbered, A2A to A2A too: a client could not call the two
    // apart.
    let twice = convert(&format!("[{SKILL},{SKILL}]"), "a2a", "a2a");
    assert_eq!(json_of(&twice)[1]["id"], "find_recipe_2");
    assert_eq!(twice.inverse().unmap("find_recipe_2", json!({})).0, "find_recipe");
}

#[test]
fn a2a_to_a2a_is_byte_identical_for_compact_input() {
    for input in [SKILL, CARD, &format!("[{SKILL}]")] {
        let c = convert(input, "a2a", "a2a");
        assert_eq!(c.output_str(), input);
        assert!(c.report().is_empty(), "{:?}", c.report());
    }
    // Members A2A does not name are kept too, in place.
    let odd = r#"{"x-team":"kitchen","id":"a","name":"A","description":"d","tags":[],"inputSchema":{"type":"object"}}"#;
    assert_eq!(convert(odd, "a2a", "a2a").output_str(), odd);
}

#[test]
fn every_format_written_as_a2a_reports_the_input_schema_lost_at_its_pointer() {
    let mcp = convert(MCP_TOOL, "mcp", "mcp");
    let openai = convert(MCP_TOOL, "mcp", "openai");
    let responses = convert(MCP_TOOL, "mcp", "openai-responses");
    let anthropic = convert(MCP_TOOL, "mcp", "anthropic");
    let gemini = convert(MCP_TOOL, "mcp", "gemini");
    let gemini_json = convert(MCP_TOOL, "mcp", "gemini-json");
    let langchain = convert(MCP_TOOL, "mcp", "langchain");
    let sources = [
        ("mcp", &mcp, "inputSchema", "/inputSchema"),
        ("openai", &openai, "parameters", "/function/parameters"),
        ("openai-responses", &responses, "parameters", "/parameters"),
        ("anthropic", &anthropic, "input_schema", "/input_schema"),
        ("gemini", &gemini, "parameters", "/parameters"),
        ("gemini-json", &gemini_json, "parametersJsonSchema", "/parametersJsonSchema"),
        // The LangChain tool is its schema: the pointer is the tool itself.
        ("langchain", &langchain, "inputSchema", ""),
    ];
    let skill = json!({"id": "get_weather", "name": "get_weather",
                       "description": "Current weather.", "tags": []});
    for (from, source, feature, pointer) in sources {
        let c = convert(source.output_str(), from, "a2a");
        assert_eq!(json_of(&c), skill, "{from}");
        let lost: Vec<_> =
            entries(&c).into_iter().filter(|e| e.1 == Code::InputSchemaDropped).collect();
        assert_eq!(
            lost,
            [entry(Severity::Warning, Code::InputSchemaDropped, feature, pointer)],
            "{from}"
        );
        let e = c.report().entries().iter().find(|e| e.code == Code::InputSchemaDropped).unwrap();
        assert_eq!((e.tool.as_str(), e.from.as_str(), e.to.as_str()), ("get_weather", from, "a2a"));
        assert!(e.message.contains("no input schema"), "{}", e.message);
        assert!(c.report().lost_meaning(), "{from}");
    }
}

#[test]
fn a_tool_catalog_becomes_a_skill_list_and_each_schema_is_reported() {
    let catalog = format!(
        r#"{{"tools":[{MCP_TOOL},{{"name":"ping","inputSchema":{{"type":"object"}}}}],"nextCursor":"2"}}"#
    );
    let c = convert(&catalog, "mcp", "a2a");
    // No description: the required member is written empty, as proto3 JSON reads an omitted one.
    assert_eq!(
        json_of(&c),
        json!({"skills": [
            {"id": "get_weather", "name": "get_weather", "description": "Current weather.", "tags": []},
            {"id": "ping", "name": "ping", "description": "", "tags": []}
        ]})
    );
    assert_eq!(
        entries(&c),
        [
            entry(Severity::Warning, Code::CatalogMemberDropped, "nextCursor", "/nextCursor"),
            entry(Severity::Warning, Code::InputSchemaDropped, "inputSchema", "/inputSchema"),
            entry(Severity::Warning, Code::InputSchemaDropped, "inputSchema", "/inputSchema"),
        ]
    );
    // No argument depends on the catalog's cursor (though it said more tools follow: a
    // warning); without an input schema, any argument is accepted.
    let effects: Vec<(Effect, bool)> =
        c.report().entries().iter().map(|e| (e.effect, e.arguments)).collect();
    assert_eq!(effects, [(Effect::None, false), (Effect::Widens, true), (Effect::Widens, true)]);
    let tools: Vec<&str> = c.report().entries().iter().skip(1).map(|e| e.tool.as_str()).collect();
    assert_eq!(tools, ["get_weather", "ping"]);
}

#[test]
fn what_else_a_skill_has_no_place_for_is_reported() {
    // An OpenAI tool's `strict`, an MCP output schema and annotations.
    // `strict: true` dropped: a warning (the provider no longer holds the model's arguments
    // to the schema), though no argument changes; `strict: false` promised nothing (`info`).
    let openai = r#"{"type":"function","function":{"name":"f","parameters":{"type":"object"},"strict":true}}"#;
    let c = convert(openai, "openai", "a2a");
    assert!(entries(&c).contains(&entry(
        Severity::Warning,
        Code::MetadataDropped,
        "strict",
        "/function/strict"
    )));
    let strict = c.report().entries().iter().find(|e| e.feature == "strict").unwrap();
    assert_eq!((strict.effect, strict.arguments), (Effect::None, false));
    let c = convert(&openai.replace("true", "false"), "openai", "a2a");
    assert!(entries(&c).contains(&entry(
        Severity::Info,
        Code::MetadataDropped,
        "strict",
        "/function/strict"
    )));
    let mcp = r#"{"name":"f","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}"#;
    let c = convert(mcp, "mcp", "a2a");
    assert_eq!(
        entries(&c),
        [
            entry(Severity::Warning, Code::InputSchemaDropped, "inputSchema", "/inputSchema"),
            entry(Severity::Info, Code::OutputSchemaDropped, "outputSchema", "/outputSchema"),
            entry(Severity::Info, Code::MetadataDropped, "annotations", "/annotations"),
        ]
    );
    // A provider's built-in tool is not a skill.
    let builtin =
        r#"[{"type":"custom","custom":{"name":"c"}},{"type":"function","function":{"name":"f"}}]"#;
    let c = convert(builtin, "openai", "a2a");
    assert_eq!(c.tools_written(), 1);
    assert_eq!(c.report().entries()[0].code, Code::NotAFunctionTool);
}

#[test]
fn ids_are_tool_names_whole() {
    // A `namespace:name:version` id is one name: kept by MCP and A2A, renamed where a target's
    // name rule rejects `:`, and restored by the inverse map.
    let skill =
        r#"{"id":"kitchen:convert_units:1.0.0","name":"Convert","description":"d","tags":[]}"#;
    assert_eq!(json_of(&convert(skill, "a2a", "mcp"))["name"], "kitchen:convert_units:1.0.0");
    let c = convert(skill, "a2a", "anthropic");
    assert_eq!(json_of(&c)["name"], "kitchen_convert_units_1_0_0");
    let renamed = c.report().entries().iter().find(|e| e.code == Code::ToolRenamed).unwrap();
    assert_eq!(renamed.pointer, "/id");
    let (name, _) = c.inverse().unmap("kitchen_convert_units_1_0_0", json!({}));
    assert_eq!(name, "kitchen:convert_units:1.0.0");
    // The way back: the skill's id is the tool's name.
    let mcp = r#"{"name":"kitchen:convert_units:1.0.0","inputSchema":{"type":"object"}}"#;
    assert_eq!(json_of(&convert(mcp, "mcp", "a2a"))["id"], "kitchen:convert_units:1.0.0");
}

#[test]
fn wrong_shapes_are_typed_errors_with_pointers() {
    let e = fails(r#"{"name":"Find recipe","description":"d","tags":[]}"#, "a2a", "mcp");
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "id", .. }), "{e}");
    assert_eq!(e.pointer(), "");
    // In a catalog, the bad skill is left out and the others are written.
    let c = convert(r#"{"skills":[{"id":"a"},{"name":"b"}]}"#, "a2a", "mcp");
    assert_eq!(
        c.output_str(),
        r#"{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{}}}]}"#
    );
    let left: Vec<_> = entries(&c).into_iter().filter(|e| e.0 == Severity::Error).collect();
    let missing = (Severity::Error, Code::ToolNotConverted, "id".to_owned(), String::new());
    assert_eq!(left, [missing]);
    let left = c.report().entries().iter().find(|e| e.code == Code::ToolNotConverted);
    assert_eq!(left.map(|e| e.pointer.as_str()), Some("/skills/1"));
    let e = fails(r#"{"skills":[{"id":7,"name":"Seven"}]}"#, "a2a", "mcp");
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "number", .. }), "{e}");
    assert_eq!(e.pointer(), "/skills/0/id");
    let e = fails(r#"[{"id":"a","description":["d"]}]"#, "a2a", "mcp");
    assert!(matches!(e.kind(), ErrorKind::WrongType { found: "array", .. }), "{e}");
    assert_eq!(e.pointer(), "/0/description");
    let c = convert(r#"{"skills":[{"id":"a"},"b"]}"#, "a2a", "mcp");
    assert_eq!(c.tools_written(), 1);
    let e = c.report().entries().iter().find(|e| e.severity == Severity::Error).unwrap();
    assert_eq!((e.code, e.pointer.as_str()), (Code::ToolNotConverted, "/skills/1"));
    assert!(e.message.contains("found string; the tool at /skills/1 is left out"), "{e}");
    // A card whose `skills` is not an array is not read as one skill missing its id.
    let e = fails(r#"{"name":"Agent","skills":{"id":"a"}}"#, "a2a", "mcp");
    assert!(
        matches!(e.kind(), ErrorKind::WrongType { member, found: "object", .. } if member == "skills"),
        "{e}"
    );
    assert_eq!(e.pointer(), "/skills");
    let e = fails("42", "a2a", "mcp");
    assert!(matches!(e.kind(), ErrorKind::Shape(_)), "{e}");
    assert!(e.to_string().contains(r#"{"skills": […]}"#), "{e}");
    let e = fails(r#"{"id":"a","id":"b"}"#, "a2a", "mcp");
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
}

#[test]
fn the_toolfoundation_profile_has_an_a2a_entry() {
    let options =
        tooladapter::Options::default().profile_set(tooladapter::ProfileSet::ToolFoundation);
    let c = Registry::default()
        .convert_with(MCP_TOOL.as_bytes(), "mcp", "a2a", &options)
        .expect("converts");
    assert_eq!(
        entries(&c),
        [entry(Severity::Warning, Code::InputSchemaDropped, "inputSchema", "/inputSchema")]
    );
    assert_eq!(
        tooladapter::toolfoundation::supports_feature("a2a", tooladapter::SchemaFeature::Ref),
        Some(false)
    );
}

#[test]
fn the_cli_converts_and_checks() {
    let catalog =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/catalog.mcp.json"))
            .expect("example catalog");
    let (code, out, err) = bin::run(&["convert", "--from", "mcp", "--to", "a2a"], &catalog);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(out["skills"][0]["id"], "search_orders");
    assert!(err.contains("[input-schema-dropped]"), "{err}");
    let (code, _, err) = bin::run(&["check", "--to", "a2a"], CARD.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = bin::run(&["formats"], b"");
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&out).starts_with("formats: a2a, "));
}

#[test]
fn an_owned_tool_is_written_as_a_skill_named_by_its_name() {
    // `Registry::from_canonical` writes owned tools through MCP, whose tool has no place for
    // a namespace or a version: the skill's id is the tool's name, and both are reported
    // (the Go library's `namespace:name:version` id is not built; see docs/formats/a2a.md).
    // MCP's required input schema, written empty for a tool without one, is then dropped.
    let mut tool = tooladapter::CanonicalTool::new("convert_units");
    tool.namespace = Some("kitchen".into());
    tool.version = Some("1.0.0".into());
    tool.description = Some("Converts measures.".into());
    let c = Registry::default().from_canonical(&[tool], "a2a").expect("converts");
    assert_eq!(
        json_of(&c),
        json!({"skills": [{"id": "convert_units", "name": "convert_units",
                           "description": "Converts measures.", "tags": []}]})
    );
    let dropped: Vec<(&str, &str)> =
        c.report().entries().iter().map(|e| (e.code.as_str(), e.tool_pointer.as_str())).collect();
    assert_eq!(
        dropped,
        [
            ("input-schema-dropped", "/inputSchema"),
            ("metadata-dropped", "/namespace"),
            ("metadata-dropped", "/version"),
        ]
    );
}
