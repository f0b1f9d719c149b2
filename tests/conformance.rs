//! Self-contained conformance tests: exactness, order, determinism, errors and their pointers.

use tooladapter::{ErrorKind, Options, Registry, Severity};

#[track_caller]
fn convert(input: &str, from: &str, to: &str) -> String {
    Registry::default()
        .convert(input.as_bytes(), from, to)
        .expect("converts")
        .output_str()
        .to_owned()
}

#[track_caller]
fn error(input: &[u8], from: &str) -> tooladapter::ConversionError {
    Registry::default().convert(input, from, "openai").expect_err("must fail")
}

#[test]
fn mcp_to_mcp_is_byte_identical_for_compact_input() {
    let input = r#"{"name":"t","displayName":"T","description":null,"inputSchema":{"type":["string","null"],"x-vendor":{"k":[1,2]},"items":[{"type":"string"},true],"definitions":{"a":false},"additionalProperties":{"type":"integer"},"maximum":9007199254740993,"minimum":1.0e-7,"multipleOf":0.10,"default":-0,"examples":[1E+2]},"annotations":null}"#;
    assert_eq!(convert(input, "mcp", "mcp"), input);
}

/// Number text is read two ways (straight after a string without escapes, or through the
/// structural index); whitespace, escaped keys, numbers in arrays after strings, nested
/// containers and long runs of numbers must all come out as written, in order.
#[test]
fn number_text_survives_every_neighbour() {
    let input = "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\\\"b\":{\"type\":\"number\",\"minimum\" : 1.50, \"maximum\":\n  2e3},\"c\":{\"enum\":[\"x\\n\", 7.0, \"y\", -0.0, [1, 2.50], {\"k\\u0041\": 3.10}, 4.00, \"z\"  ,\n   5E-1]}, \"d\": {\"default\": 10.0, \"examples\": [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]}, \"e\\\\\": {\"maximum\": 8.25}}}}";
    let expected = r#"{"name":"t","inputSchema":{"type":"object","properties":{"a\"b":{"type":"number","minimum":1.50,"maximum":2e3},"c":{"enum":["x\n",7.0,"y",-0.0,[1,2.50],{"kA":3.10},4.00,"z",5E-1]},"d":{"default":10.0,"examples":[1.5,2.5,3.5,4.5,5.5,6.5]},"e\\":{"maximum":8.25}}}}"#;
    assert_eq!(convert(input, "mcp", "mcp"), expected);
}

#[test]
fn property_order_survives_more_than_32_properties() {
    let props: Vec<String> =
        (0..40).rev().map(|i| format!(r#""p{i}":{{"type":"string"}}"#)).collect();
    let input = format!(
        r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{{}}}}}}}"#,
        props.join(",")
    );
    let out = convert(&input, "mcp", "openai");
    let expected = format!(r#""properties":{{{}}}"#, props.join(","));
    assert!(out.contains(&expected), "{out}");
}

#[test]
fn strings_are_escaped_exactly() {
    let input = r#"{"name":"t","description":"a\"b\\c\n\u0001 \u00e9 \ud83d\ude00 x/y","inputSchema":{"type":"object","properties":{"a/b~c":{"type":"string"}}}}"#;
    let out = convert(input, "mcp", "anthropic");
    assert!(out.contains(r#""description":"a\"b\\c\n\u0001 é 😀 x/y""#), "{out}");
    // Anthropic's key rule renames `a/b~c`; OpenAI keeps any key, escaped exactly.
    assert!(out.contains(r#""a_b_c""#), "{out}");
    let out = convert(input, "mcp", "openai");
    assert!(out.contains(r#""a/b~c""#), "{out}");
}

#[test]
fn same_input_gives_same_bytes_and_report() {
    let input = std::fs::read("examples/data/catalog.mcp.json").expect("example");
    let r = Registry::default();
    let a = r.convert(&input, "mcp", "openai").expect("a");
    let b = r.convert(&input, "mcp", "openai").expect("b");
    assert_eq!(a.output(), b.output());
    assert_eq!(a.report(), b.report());
    let order: Vec<_> =
        a.report().entries().iter().map(|e| (e.tool.clone(), e.pointer.clone())).collect();
    assert_eq!(order[0], ("search_orders".to_owned(), "/tools/0/title".to_owned()));
    assert_eq!(order[1].1, "/tools/0/annotations");
}

#[test]
fn report_pointers_are_rooted_at_the_source_tool_and_escaped() {
    let input =
        r#"{"name":"t","inputSchema":{"type":"object","properties":{"a/b":{"$comment":"x"}}}}"#;
    let c = Registry::default().convert(input.as_bytes(), "mcp", "openai").expect("ok");
    let e = &c.report().entries()[0];
    assert_eq!(e.pointer, "/inputSchema/properties/a~1b/$comment");
    assert_eq!(e.severity, Severity::Info);
    assert_eq!(e.code.as_str(), "keyword-dropped");
    // A member the API refuses, in Chat's `function` wrapper.
    let chat = r#"{"type":"function","function":{"name":"t","x-a/b":1,"parameters":{"type":"object","properties":{}}}}"#;
    let c = Registry::default().convert(chat.as_bytes(), "openai", "openai").expect("ok");
    assert_eq!(c.report().entries()[0].pointer, "/function/x-a~1b");
}

#[test]
fn warnings_display() {
    // The title is metadata (`info`); the closed object Gemini cannot say is a loss that
    // widens what the tool accepts.
    let input = br#"{"name":"t","title":"T","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;
    let c = Registry::default().convert(input, "mcp", "gemini").expect("ok");
    let lost = c.warnings();
    let shown: Vec<String> = lost.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "feature additionalProperties lost converting from mcp to gemini at /inputSchema/additionalProperties in tool \"t\""
        ]
    );
    assert_eq!((lost[0].effect, lost[0].arguments), (tooladapter::Effect::Widens, true));
}

#[test]
fn strict_is_carried_both_ways() {
    let chat = r#"{"type":"function","function":{"name":"t","parameters":{"type":"object","properties":{},"additionalProperties":false},"strict":true}}"#;
    let a = convert(chat, "openai", "anthropic");
    assert!(a.ends_with(r#""strict":true}"#), "{a}");
    // An open root (any keys) is not closed into "no arguments": it falls back.
    let open = chat.replace(r#","properties":{},"additionalProperties":false"#, "");
    assert!(convert(&open, "openai", "anthropic").ends_with(r#""strict":false}"#));
    assert!(convert(&a, "anthropic", "openai").contains(r#""strict":true"#));
    let off = chat.replace("true", "false");
    assert!(convert(&off, "openai", "openai-responses").contains(r#""strict":false"#));
    let none = r#"{"name":"t","inputSchema":{"type":"object"}}"#;
    assert!(convert(none, "mcp", "openai-responses").contains(r#""strict":false"#));
}

#[test]
fn builtin_tools_round_trip_and_are_reported_elsewhere() {
    let input = r#"[{"type":"web_search","search_context_size":"low"},{"type":"function","name":"f","parameters":{"type":"object","properties":{},"additionalProperties":false},"strict":true}]"#;
    assert_eq!(convert(input, "openai-responses", "openai-responses"), input);
    let c =
        Registry::default().convert(input.as_bytes(), "openai-responses", "anthropic").expect("ok");
    assert_eq!(c.tools_written(), 1);
    assert_eq!(c.report().entries()[0].severity, Severity::Error);
    assert_eq!(c.report().entries()[0].code.as_str(), "not-a-function-tool");
}

#[test]
fn tools_left_out_keep_the_others_in_order() {
    let f = |name: &str| {
        format!(r#"{{"type":"function","name":"{name}","parameters":{{"type":"object"}}}}"#)
    };
    let search = r#"{"type":"web_search"}"#;
    let input = format!("[{search},{},{search},{},{}]", f("a"), f("b"), f("c"));
    let out = convert(&input, "openai-responses", "anthropic");
    let tools: serde_json::Value = serde_json::from_str(&out).expect("json");
    let names: Vec<&str> =
        tools.as_array().expect("a list").iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["a", "b", "c"], "{out}");
}

#[test]
fn errors_carry_kind_and_pointer() {
    let e = error(
        br#"{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{},"x":{}}}}]}"#,
        "mcp",
    );
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }));
    assert_eq!(e.pointer(), "/tools/0/inputSchema/properties/x");
    assert_eq!(e.tool(), Some("a"));
    assert!(e.to_string().starts_with("mcp adapter to_canonical: duplicate key"));
    assert!(std::error::Error::source(&e).is_some());

    let keys: Vec<String> = (0..20).map(|i| format!(r#""k{i}":1"#)).collect();
    let big = format!(r#"{{"name":"a","inputSchema":{{"enum":[{{{},"k3":2}}]}}}}"#, keys.join(","));
    let e = error(big.as_bytes(), "mcp");
    assert_eq!(e.pointer(), "/inputSchema/enum/0/k3");

    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert!(matches!(error(deep.as_bytes(), "mcp").kind(), ErrorKind::WrongType { .. }));
    let deep = format!(
        r#"{{"name":"a","inputSchema":{}true{}}}"#,
        r#"{"not":"#.repeat(100_000),
        "}".repeat(100_000)
    );
    let e = error(deep.as_bytes(), "mcp");
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 128 }), "{e}");
    assert!(e.pointer().starts_with("/inputSchema/not/not/"));
    let nested =
        r#"{"name":"a","inputSchema":{"type":"object","properties":{"b":{"type":"object"}}}}"#;
    let e = Registry::default()
        .convert_with(nested.as_bytes(), "mcp", "mcp", &Options::default().max_depth(3))
        .expect_err("depth");
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 3 }));

    assert!(matches!(error(b"", "mcp").kind(), ErrorKind::EmptyInput));
    assert!(matches!(error(b"  \n", "mcp").kind(), ErrorKind::EmptyInput));
    assert!(matches!(error(b"null", "mcp").kind(), ErrorKind::Shape(_)));
    assert!(matches!(error(b"{\"name\":", "mcp").kind(), ErrorKind::Json { .. }));
    assert!(matches!(error(b"\"\xff\"", "mcp").kind(), ErrorKind::InvalidUtf8 { offset: 1, .. }));
    assert!(matches!(
        error(br#"{"name":"\ud800"}"#, "mcp").kind(),
        ErrorKind::LoneSurrogate { .. }
    ));
    assert!(matches!(error(b"{\"name\":\"a\x01\"}", "mcp").kind(), ErrorKind::Json { .. }));
    assert!(matches!(error(b"[1e400]", "mcp").kind(), ErrorKind::Json { .. }));
    assert!(matches!(error(br#"{"name":5}"#, "mcp").kind(), ErrorKind::WrongType { .. }));
    let e = error(br#"{"type":"function","function":{"name":"f"}}"#, "mcp");
    assert!(matches!(e.kind(), ErrorKind::ForeignMember { .. }), "{e}");
    assert!(e.to_string().contains("the input looks like `openai`"), "{e}");
    let e = Registry::default()
        .convert_with(br#"{"name":"a"}"#, "mcp", "mcp", &Options::default().max_input_bytes(4))
        .expect_err("size");
    assert!(matches!(e.kind(), ErrorKind::InputTooLarge { .. }));
    let props: Vec<String> = (0..5000).map(|i| format!(r#""p{i}":{{"type":"string"}}"#)).collect();
    let wide = format!(r#"{{"name":"a","inputSchema":{{"properties":{{{}}}}}}}"#, props.join(","));
    let e = Registry::default()
        .convert_with(wide.as_bytes(), "mcp", "mcp", &Options::default().max_arena_bytes(64 << 10))
        .expect_err("arena");
    assert!(matches!(e.kind(), ErrorKind::ArenaLimit { .. }));
}

#[test]
fn registry_api() {
    let r = Registry::default();
    assert_eq!(
        r.list(),
        [
            "a2a",
            "anthropic",
            "bedrock",
            "cohere",
            "gemini",
            "gemini-json",
            "langchain",
            "mcp",
            "mistral",
            "ollama",
            "openai",
            "openai-responses",
            "openapi",
            "vertex",
            "xai"
        ]
    );
    assert!(r.register(tooladapter::formats::Mcp).is_err());
    assert!(r.unregister("mcp").is_some());
    assert!(r.get("mcp").is_none());
    assert!(r.register(tooladapter::formats::Mcp).is_ok());
    assert!(matches!(
        r.convert(b"{}", "nope", "mcp").expect_err("unknown").kind(),
        ErrorKind::UnknownFormat(_)
    ));
    assert!(Registry::new().list().is_empty());
}

#[test]
fn older_forms_become_2020_12_for_openai_and_anthropic_only() {
    let input = r#"{"name":"t","inputSchema":{"type":"object","properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false},"n":{"type":"integer","minimum":0,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false}}}}"#;
    let out = convert(input, "mcp", "anthropic");
    assert!(out.contains(r#""pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}"#), "{out}");
    assert!(out.contains(r#""n":{"type":"integer","exclusiveMinimum":0,"maximum":9}"#), "{out}");
    let c = Registry::default().convert(input.as_bytes(), "mcp", "openai").expect("ok");
    let codes: Vec<_> = c
        .report()
        .entries()
        .iter()
        .map(|e| (e.code.as_str(), e.pointer.as_str(), e.severity))
        .collect();
    assert_eq!(
        codes,
        [
            ("dialect-rewritten", "/inputSchema/properties/pair/items", Severity::Info),
            ("dialect-rewritten", "/inputSchema/properties/pair/additionalItems", Severity::Info),
            ("dialect-rewritten", "/inputSchema/properties/n/exclusiveMinimum", Severity::Info),
            ("dialect-rewritten", "/inputSchema/properties/n/exclusiveMaximum", Severity::Info),
        ]
    );
    assert_eq!(convert(input, "mcp", "mcp"), input, "MCP keeps the source's dialect");
}

/// `Options::deny_loss` and `Conversion::loss_denied`: each rule denies what it says, the
/// conversion is made and reported all the same, and without a rule nothing is denied.
#[test]
fn deny_loss_in_the_library() {
    use tooladapter::{Converter, DenyLoss, Options, Strict, formats};
    // Strict mode closes the object (narrows); Gemini drops a closed object's
    // `additionalProperties` (widens).
    let narrows = br#"{"name":"n","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}"#;
    let widens = br#"{"name":"w","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;
    let mut converter = Converter::new();
    let strict = Options::default().strict(Strict::On);
    // Input, target, options, then whether no rule, `Any`, `Arguments`, `Widens`, `Narrows`
    // deny it.
    type Case<'a> = (&'a [u8], &'a dyn tooladapter::Adapter, Options, [bool; 5]);
    let cases: [Case<'_>; 2] = [
        (narrows, &formats::OpenAi, strict, [false, true, true, false, true]),
        (widens, &formats::Gemini, Options::default(), [false, true, true, true, false]),
    ];
    for (input, to, options, expected) in cases {
        let rules = [None, Some(DenyLoss::Any), Some(DenyLoss::Arguments)]
            .into_iter()
            .chain([Some(DenyLoss::Widens), Some(DenyLoss::Narrows)]);
        for (rule, denied) in rules.into_iter().zip(expected) {
            let options = match rule {
                Some(r) => options.clone().deny_loss(r),
                None => options.clone(),
            };
            let c = converter.convert(input, &formats::Mcp, to, &options).expect("converts");
            assert_eq!(c.loss_denied(), denied, "{rule:?}: {:?}", c.report());
            assert_eq!(c.tools_written(), 1);
            if let Some(r) = rule {
                assert_eq!(c.report().denied(r), denied);
            }
        }
    }
}
