//! The providers that serve another format's tool shape under rules of their own (issue 36
//! item 1): `mistral`, `ollama`, `xai` and `cohere` (OpenAI's Chat shape) and `vertex`
//! (Gemini's declarations). Each finding of the issue is a test here; the generated matrix
//! (`tests/matrix.rs`) and the corpus suites run the formats through every loop over
//! `builtins()`, and this suite adds what is particular to a shared shape: the rules are the
//! target's own, the shape owner is named where an input is matched to a format, and the
//! family decides what stays between formats.

use serde_json::{Value, json};
use tooladapter::{Code, Conversion, Converter, Effect, Format, Options, Registry, Severity};

/// The formats this suite is about, and the format whose shape each shares.
const SHARED: [(&str, &str); 5] = [
    ("mistral", "openai"),
    ("ollama", "openai"),
    ("xai", "openai"),
    ("cohere", "openai"),
    ("vertex", "gemini"),
];

#[track_caller]
fn convert(input: &Value, from: &str, to: &str) -> Conversion {
    let bytes = serde_json::to_vec(input).expect("json");
    Registry::default().convert(&bytes, from, to).unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

fn out(c: &Conversion) -> Value {
    serde_json::from_slice(c.output()).expect("json output")
}

/// What `check --to to` finds in `bytes` read as `to`: (code, pointer, message).
fn check(bytes: &[u8], to: &str) -> Vec<(Code, String, String)> {
    let f: Format = to.parse().expect("format");
    let mut converter = Converter::new();
    let report = converter.check(bytes, f, f, &Options::default()).expect("reads");
    report.entries().iter().map(|e| (e.code, e.pointer.clone(), e.message.clone())).collect()
}

/// A tool holding what one provider or another refuses: a name with a dot, `null` in an
/// `enum`, a `oneOf`, a boolean schema, a type list, a `$ref`, `strict`.
fn hard_tool() -> Value {
    json!({
        "name": "files.search",
        "description": "Search files.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "mode": {"enum": ["content", "files_with_matches", "count", null]},
                "limit": {"type": ["integer", "null"], "minimum": 1},
                "class": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                "any": true,
                "where": {"$ref": "#/$defs/place"}
            },
            "required": ["mode"],
            "$defs": {"place": {"type": "object", "properties": {"dir": {"type": "string"}}}}
        }
    })
}

#[test]
fn every_shared_shape_format_is_built_in_and_names_its_shape() {
    for (name, wire) in SHARED {
        let f: Format = name.parse().expect(name);
        let info = f.info();
        assert_eq!(info.wire_of, Some(wire), "{name}");
        assert!(info.reads && info.writes && info.provider, "{name}");
        assert!(!info.own_shape());
        let owner: Format = wire.parse().expect(wire);
        assert!(owner.info().own_shape());
    }
}

#[test]
fn what_each_writes_passes_its_own_check_from_every_source_format() {
    let sources = ["mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini-json"];
    let tool = hard_tool();
    for (to, _) in SHARED {
        for from in sources {
            // The hard tool in the source's format, then into the target.
            let there =
                if from == "mcp" { tool.clone() } else { out(&convert(&tool, "mcp", from)) };
            let c = convert(&there, from, to);
            let found = check(c.output(), to);
            assert!(found.is_empty(), "{from} → {to}: check finds {found:?} in {}", c.output_str());
        }
    }
}

#[test]
fn the_same_format_keeps_a_tool_its_provider_accepts_byte_for_byte() {
    let tools = [
        (
            "mistral",
            json!({"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object","properties":{"q":{"type":"string","minLength":1}}}}}),
        ),
        (
            "ollama",
            json!({"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"q":{"type":"string","enum":["x","y"]}},"required":["q"]}}}),
        ),
        (
            "xai",
            json!({"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"q":{"enum":["x",1]}}}}}),
        ),
        (
            "cohere",
            json!({"type":"function","function":{"name":"a_b","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}),
        ),
        (
            "vertex",
            json!({"name":"a","parameters":{"type":"OBJECT","properties":{"q":{"type":"STRING"}}}}),
        ),
    ];
    for (f, tool) in tools {
        let bytes = serde_json::to_vec(&tool).expect("json");
        assert!(check(&bytes, f).is_empty(), "{f}: {:?}", check(&bytes, f));
        let c = Registry::default().convert(&bytes, f, f).expect(f);
        assert_eq!(c.output(), &bytes[..], "{f}");
        assert!(c.report().entries().is_empty(), "{f}: {:?}", c.report().entries());
    }
}

/// Mistral: "Function name was … but must be a-z, A-Z, 0-9, or contain underscores and
/// dashes, with a maximum length of 64" (Kochava-Studios/witsy#164).
#[test]
fn mistral_renames_what_its_name_rule_refuses_and_the_inverse_map_gives_it_back() {
    let long = format!("server_{}", "x".repeat(70));
    for name in ["files.search", long.as_str(), "a b"] {
        let tool = json!({"name": name, "inputSchema": {"type": "object"}});
        let c = convert(&tool, "mcp", "mistral");
        let written = out(&c)["function"]["name"].as_str().expect("name").to_owned();
        assert!(written.len() <= 64, "{written}");
        assert!(written.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
        assert!(c.report().entries().iter().any(|e| e.code == Code::ToolRenamed), "{name}");
        let (back, _) = c.inverse().unmap(&written, json!({}));
        assert_eq!(back, name, "{name}");
        let bytes = serde_json::to_vec(
            &json!({"type":"function","function":{"name": name, "parameters": {"type":"object"}}}),
        )
        .expect("json");
        assert!(
            check(&bytes, "mistral")
                .iter()
                .any(|(code, p, _)| *code == Code::WouldBeRejected && p == "/function/name"),
            "{name}"
        );
    }
}

/// xAI refuses `null` among an `enum`'s values (tailcallhq/forgecode#2809): left out, a
/// `narrows` warning; an `enum` of `null` alone is left out, `widens`.
#[test]
fn xai_leaves_null_out_of_an_enum_and_says_what_it_changes() {
    let c = convert(&hard_tool(), "mcp", "xai");
    let o = out(&c);
    assert_eq!(
        o["function"]["parameters"]["properties"]["mode"]["enum"],
        json!(["content", "files_with_matches", "count"])
    );
    let e = c.report().entries().iter().find(|e| e.code == Code::ShapeRewritten).expect("entry");
    assert_eq!(e.pointer, "/inputSchema/properties/mode/enum");
    assert_eq!((e.severity, e.effect), (Severity::Warning, Effect::Narrows));
    let only_null =
        json!({"name":"t","inputSchema":{"type":"object","properties":{"n":{"enum":[null]}}}});
    let c = convert(&only_null, "mcp", "xai");
    assert_eq!(out(&c)["function"]["parameters"]["properties"]["n"], json!({}));
    let e = c.report().entries().iter().find(|e| e.code == Code::ShapeRewritten).expect("entry");
    assert_eq!(e.effect, Effect::Widens);
    // `check` says what the API says, where; other targets keep the value.
    let bytes = serde_json::to_vec(&json!({"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{"m":{"enum":["a",null]}}}}})).expect("json");
    let found = check(&bytes, "xai");
    assert!(
        found.iter().any(|(_, p, m)| p.starts_with("/function/parameters/properties/m")
            && m.contains("Client specified an invalid argument")),
        "{found:?}"
    );
    assert!(check(&bytes, "openai").is_empty());
    let o = out(&convert(&hard_tool(), "mcp", "mistral"));
    assert_eq!(o["function"]["parameters"]["properties"]["mode"]["enum"][3], Value::Null);
}

/// Cohere: "unknown field: parameter 'strict' is not a valid field"
/// (OpenRouterTeam/openrouter-examples#71): `strict` never written, other members refused.
#[test]
fn cohere_never_writes_strict_and_refuses_members_it_does_not_define() {
    let strict = json!({"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{}},"strict":true}});
    let c = convert(&strict, "openai", "cohere");
    assert!(out(&c)["function"].get("strict").is_none(), "{}", c.output_str());
    let e = c.report().entries().iter().find(|e| e.pointer == "/function/strict").expect("entry");
    assert_eq!(e.severity, Severity::Warning);
    // Cohere → Cohere: the member the API refuses goes, with its words.
    let bytes = serde_json::to_vec(&strict).expect("json");
    let found = check(&bytes, "cohere");
    assert!(found.iter().any(|(_, _, m)| m.contains("unknown field")), "{found:?}");
    let c = Registry::default().convert(&bytes, "cohere", "cohere").expect("cohere");
    assert!(out(&c)["function"].get("strict").is_none());
    assert!(check(c.output(), "cohere").is_empty());
    // Cohere's name rule: letters, digits and `_`, not a digit first.
    let c = convert(&json!({"name":"9-lives","inputSchema":{"type":"object"}}), "mcp", "cohere");
    let name = out(&c)["function"]["name"].as_str().expect("name").to_owned();
    assert!(!name.starts_with(|c: char| c.is_ascii_digit()) && !name.contains('-'), "{name}");
}

/// Ollama reads a fixed set of fields: a boolean schema is refused (can1357/oh-my-pi#4488),
/// `oneOf` too on its cloud (ollama/ollama#13967); every other constraint is described.
#[test]
fn ollama_keeps_its_fields_and_describes_the_rest() {
    let c = convert(&hard_tool(), "mcp", "ollama");
    let o = out(&c);
    let props = &o["function"]["parameters"]["properties"];
    assert_eq!(props["any"], json!({}));
    assert!(props["class"].get("oneOf").is_none());
    assert!(props["class"]["description"].as_str().is_some_and(|d| d.contains("oneOf")));
    assert!(props["limit"].get("minimum").is_none());
    assert_eq!(props["limit"]["type"], json!(["integer", "null"]));
    assert_eq!(props["where"]["properties"]["dir"]["type"], "string", "refs inlined");
    assert!(o["function"]["parameters"].get("$defs").is_none());
    for p in ["/inputSchema/properties/class/oneOf", "/inputSchema/properties/limit/minimum"] {
        let e = c.report().entries().iter().find(|e| e.pointer == p).expect(p);
        assert_eq!(e.effect, Effect::Widens, "{p}");
    }
    // A boolean schema is refused in a file made for Ollama too; a `oneOf` only by the cloud
    // endpoint, so such a file keeps it (the conversion describes it, for both).
    let bytes = serde_json::to_vec(&json!({"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{"b":true,"o":{"oneOf":[{"type":"string"}]}}}}})).expect("json");
    let found = check(&bytes, "ollama");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.starts_with("/function/parameters/properties/b"), "{found:?}");
}

/// Vertex AI is one provider with the Gemini API: a built-in tool stays between the Gemini
/// formats and Vertex, and is left out, named, elsewhere.
#[test]
fn vertex_keeps_the_gemini_familys_built_ins_and_nobody_else_does() {
    let request = json!({"tools": [{"googleSearch": {}}, {"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}}]}]});
    for from in ["gemini", "gemini-json", "vertex"] {
        for to in ["gemini", "gemini-json", "vertex"] {
            let c = convert(&request, from, to);
            assert_eq!(out(&c)["tools"][0], json!({"googleSearch": {}}), "{from} → {to}");
        }
    }
    for to in ["mistral", "ollama", "xai", "cohere"] {
        let c = convert(&request, "vertex", to);
        assert!(!c.output_str().contains("googleSearch"), "{to}");
        assert!(
            c.report()
                .entries()
                .iter()
                .any(|e| e.severity == Severity::Error && e.message.contains("googleSearch")),
            "{to}"
        );
    }
}

/// An OpenAI built-in is OpenAI's: the providers serving its Chat shape do not have it.
#[test]
fn an_openai_built_in_is_left_out_of_the_chat_shaped_providers() {
    let catalog = json!([{"type": "web_search"}, {"type":"function","name":"f","parameters":{"type":"object","properties":{}}}]);
    for to in ["mistral", "ollama", "xai", "cohere"] {
        let c = convert(&catalog, "openai-responses", to);
        let o = out(&c);
        assert_eq!(o.as_array().map(Vec::len), Some(1), "{to}: {o}");
        assert!(
            c.report()
                .entries()
                .iter()
                .any(|e| e.severity == Severity::Error && e.message.contains("web_search")),
            "{to}"
        );
    }
}

/// A format sharing another's shape is never named where an input is matched to the format
/// it looks like: the shape's owner is, as before the formats were added.
#[test]
fn the_shape_owner_alone_is_named_for_an_input_read_as_another_format() {
    let chat = json!({"type":"function","function":{"name":"f","parameters":{"type":"object"}}});
    let bytes = serde_json::to_vec(&chat).expect("json");
    let e = Registry::default().convert(&bytes, "mcp", "openai").expect_err("looks like openai");
    let text = e.to_string();
    assert!(text.contains("openai"), "{text}");
    for (name, _) in SHARED {
        assert!(!text.contains(name), "{text}");
    }
    // Each reads the shape it shares as its own.
    for (name, wire) in SHARED {
        let tool = if wire == "openai" {
            chat.clone()
        } else {
            json!({"name":"f","parameters":{"type":"OBJECT","properties":{"q":{"type":"STRING"}}}})
        };
        let c = convert(&tool, name, "mcp");
        assert_eq!(out(&c)["name"], "f", "{name}");
        let c = convert(&json!([tool]), name, "mcp");
        assert_eq!(out(&c)["tools"][0]["name"], "f", "{name}");
        let c = convert(
            &json!({"tools": [chat.clone()]}),
            if wire == "openai" { name } else { "openai" },
            "mcp",
        );
        assert_eq!(out(&c)["tools"][0]["name"], "f", "{name}");
    }
}

/// A schema written for Gemini's `parameters` (upper-case `type`, OpenAPI's `nullable`) in
/// any format's JSON Schema member is read as what it means (google/adk-python#1389): the
/// type names as JSON Schema's, `nullable: true` as `null` among the types, each reported.
#[test]
fn a_gemini_typed_schema_is_read_as_what_it_means_in_every_format() {
    let schema = json!({
        "type": "OBJECT",
        "properties": {
            "flag": {"type": "BOOLEAN"},
            "note": {"type": "STRING", "nullable": true}
        },
        "required": ["flag"]
    });
    let tool = json!({"name": "t", "inputSchema": schema});
    // The schema as written, in each format's JSON Schema member.
    let sources = [
        ("mcp", tool.clone()),
        ("openai", json!({"type": "function", "function": {"name": "t", "parameters": schema}})),
        ("openai-responses", json!({"type": "function", "name": "t", "parameters": schema})),
        ("anthropic", json!({"name": "t", "input_schema": schema})),
        ("bedrock", json!({"toolSpec": {"name": "t", "inputSchema": {"json": schema}}})),
        ("mistral", json!({"type": "function", "function": {"name": "t", "parameters": schema}})),
    ];
    // Targets whose schemas hold type arrays: `nullable` becomes `null` among the types.
    let targets = ["mcp", "openai", "openai-responses", "anthropic", "bedrock", "mistral", "xai"];
    let registry = Registry::default();
    for (from, there) in sources {
        for to in targets.into_iter().filter(|&to| !(from == "mcp" && to == "mcp")) {
            let c = convert(&there, from, to);
            let written = common_schema(&registry, to, c.output());
            let note = &written["properties"]["note"];
            assert_eq!(note["type"], json!(["string", "null"]), "{from} → {to}: {written}");
            assert!(note.get("nullable").is_none(), "{from} → {to}: {written}");
            assert_eq!(written["properties"]["flag"]["type"], "boolean", "{from} → {to}");
            let nullable =
                c.report().entries().iter().any(|e| e.pointer.ends_with("/note/nullable"));
            assert!(nullable, "{from} → {to}: {:?}", c.report().entries());
        }
    }
    // MCP's own files keep what they hold; a lower-case schema's `nullable` is its author's
    // annotation, kept where the target keeps it.
    let c = convert(&tool, "mcp", "mcp");
    assert_eq!(out(&c), tool);
    let plain = json!({"name":"t","inputSchema":{"type":"object","properties":{"n":{"type":"string","nullable":true}}}});
    let c = convert(&plain, "mcp", "mcp");
    assert_eq!(out(&c)["inputSchema"]["properties"]["n"]["nullable"], true);
}

/// The input schema of a tool `out` written in format `to`.
fn common_schema(r: &Registry, to: &str, out: &[u8]) -> Value {
    let back = r.convert(out, to, "mcp").expect("reads back");
    serde_json::from_slice::<Value>(back.output()).expect("json")["inputSchema"].clone()
}
