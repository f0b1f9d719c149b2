//! Inputs read for what they are: a byte order mark skipped; a member that is another
//! format's schema field refused with the likely `--from`; Gemini's snake_case spellings and
//! request `tools` arrays; MCP `tools/list` results and their JSON-RPC envelopes; MCP
//! 2026-07-28's `x-mcp-header` and 2025-11-25's `execution.taskSupport`.

use tooladapter::{Code, ConversionError, ErrorKind, Registry, Severity};

fn convert(input: &[u8], from: &str, to: &str) -> Result<(String, Vec<String>), ConversionError> {
    let r = Registry::default();
    let c = r.convert(input, from, to)?;
    let report = c.report().entries().iter().map(ToString::to_string).collect();
    Ok((c.output_str().to_owned(), report))
}

fn error(input: &[u8], from: &str, to: &str) -> ConversionError {
    match convert(input, from, to) {
        Ok((out, _)) => panic!("{from} → {to}: converted to {out}"),
        Err(e) => e,
    }
}

const MCP_TOOL: &str =
    r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;

#[test]
fn a_byte_order_mark_is_skipped() {
    let plain = convert(MCP_TOOL.as_bytes(), "mcp", "openai").expect("plain");
    let bom = [b"\xEF\xBB\xBF", MCP_TOOL.as_bytes()].concat();
    assert_eq!(convert(&bom, "mcp", "openai").expect("with a BOM"), plain);
    // Same format, compact: still the input's bytes, the mark aside.
    assert_eq!(convert(&bom, "mcp", "mcp").expect("mcp").0, MCP_TOOL);
    // A parse error says its offset in the input as given, the mark counted.
    let e = error(b"\xEF\xBB\xBF{\"name\":}", "mcp", "openai");
    assert!(matches!(e.kind(), ErrorKind::Json { offset: 11, .. }), "{e}");
    // Only one, only at the start: a second one is not JSON.
    let e = error(&[b"\xEF\xBB\xBF", &bom[..]].concat(), "mcp", "openai");
    assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{e}");
    // An importing format reads past it too.
    let openapi = br#"{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"ok"}}}}}}"#;
    let with = [b"\xEF\xBB\xBF", &openapi[..]].concat();
    assert_eq!(
        convert(&with, "openapi", "mcp").expect("bom"),
        convert(openapi, "openapi", "mcp").expect("plain")
    );
}

/// Formats read tool by tool (not imported).
fn readers() -> impl Iterator<Item = &'static str> {
    tooladapter::formats::builtins()
        .iter()
        .filter(|a| a.info().reads && !a.info().imports)
        .map(|a| a.name())
}

/// Every format's tool (and catalog) read as any other format either fails or keeps the
/// schema: never a conversion that quietly writes `{"type":"object","properties":{}}`.
#[test]
fn no_tool_read_as_another_format_loses_its_schema_quietly() {
    let catalog = format!(r#"{{"tools":[{MCP_TOOL}]}}"#);
    let mut refused = 0;
    for x in tooladapter::formats::builtins().iter().filter(|a| a.info().writes) {
        if !x.info().holds_input_schema {
            continue;
        }
        for input in [MCP_TOOL, catalog.as_str()] {
            let (written, _) = convert(input.as_bytes(), "mcp", x.name()).expect("written");
            for y in readers().filter(|y| *y != x.name()) {
                let pair = format!("{} read as {y}: {written}", x.name());
                match convert(written.as_bytes(), y, "mcp") {
                    Err(e) => {
                        refused += 1;
                        assert!(
                            matches!(
                                e.kind(),
                                ErrorKind::ForeignMember { .. }
                                    | ErrorKind::MissingMember { .. }
                                    | ErrorKind::LooksLike { .. }
                            ),
                            "{pair}: {e}"
                        );
                    }
                    Ok((out, _)) => {
                        assert!(out.contains(r#""a":{"type":"string"}"#), "{pair}: {out}")
                    }
                }
            }
        }
    }
    assert!(refused > 80, "{refused}");
}

#[test]
fn another_formats_schema_member_is_an_error_naming_the_format_and_the_member() {
    let cases: [(&str, &str, &str, &str, &[&str]); 6] = [
        // An MCP catalog given as OpenAI: it converted, every schema replaced by `{}`.
        (
            r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#,
            "openai",
            "/tools/0/inputSchema",
            "inputSchema",
            &["mcp"],
        ),
        (
            r#"{"name":"t","parameters":{"type":"object"}}"#,
            "mcp",
            "/parameters",
            "parameters",
            &["openai", "openai-responses", "gemini"],
        ),
        (
            r#"[{"name":"t","input_schema":{"type":"object"}}]"#,
            "gemini",
            "/0/input_schema",
            "input_schema",
            &["anthropic"],
        ),
        (
            r#"{"toolSpec":{"name":"t","inputSchema":{"json":{}}}}"#,
            "anthropic",
            "/toolSpec",
            "toolSpec",
            &["bedrock"],
        ),
        (
            r#"{"type":"function","function":{"name":"t"}}"#,
            "anthropic",
            "/function",
            "function",
            &["openai"],
        ),
        (
            r#"{"name":"t","parametersJsonSchema":{"type":"object"}}"#,
            "openai-responses",
            "/parametersJsonSchema",
            "parametersJsonSchema",
            &["gemini"],
        ),
    ];
    for (input, from, pointer, member, formats) in cases {
        let e = error(input.as_bytes(), from, "openai-responses");
        let kind = ErrorKind::ForeignMember { member: member.into(), formats: formats.to_vec() };
        assert_eq!((e.kind(), e.pointer()), (&kind, pointer), "{from}: {e}");
        // Named where the reader finds a name: not inside another format's wrapper.
        let named = !["toolSpec", "function"].contains(&member);
        assert_eq!(e.tool(), named.then_some("t"), "{e}");
        // The likely fix is the caller's (the CLI says `--from`); the library says what the
        // input looks like, not which flag to change.
        assert!(e.suggests_other_format() && !e.to_string().contains("--from"), "{e}");
    }
    // A provider built-in of another format (an Anthropic custom tool, an OpenAI function
    // read by Anthropic) is not taken for a built-in of this one.
    let e = error(br#"{"type":"custom","name":"t","input_schema":{}}"#, "openai-responses", "mcp");
    assert!(matches!(e.kind(), ErrorKind::ForeignMember { .. }), "{e}");
    let e = error(br#"{"type":"function","name":"t","parameters":{}}"#, "anthropic", "mcp");
    assert!(matches!(e.kind(), ErrorKind::ForeignMember { .. }), "{e}");
    // Nor is a LangChain dict, whose `type` is `object`.
    let dict = br#"{"title":"t","type":"object","properties":{"a":{"type":"string"}}}"#;
    for from in ["openai", "openai-responses", "anthropic"] {
        let e = error(dict, from, "mcp");
        assert!(e.to_string().contains("looks like a `langchain` tool"), "{from}: {e}");
    }
    // A tool with its own schema keeps another's member as metadata: reported when dropped.
    let both = br#"{"name":"t","inputSchema":{"type":"object"},"parameters":{"type":"object"}}"#;
    let (_, report) = convert(both, "mcp", "openai").expect("own schema");
    assert!(
        report.iter().any(|e| e.contains("metadata-dropped") && e.contains("/parameters")),
        "{report:?}"
    );
    // A hint without a schema member names the catalog the object is.
    let e = error(br#"{"functionDeclarations":[]}"#, "mcp", "openai");
    assert!(e.to_string().contains("looks like a `gemini` or `gemini-json` catalog"), "{e}");
}

/// `check` reads its input as the `--to` format (or `--from`): input in another format is an
/// error, not "ok" for tools whose schemas were not read.
#[test]
fn check_refuses_input_in_another_format() {
    let mut c = tooladapter::Converter::new();
    let r = Registry::default();
    let mcp = format!(r#"{{"tools":[{MCP_TOOL}]}}"#);
    let (openai, mcp_format) = (r.get("openai").expect("openai"), r.get("mcp").expect("mcp"));
    let options = tooladapter::Options::default();
    let e = c.check(mcp.as_bytes(), &*openai, &*openai, &options).expect_err("not openai");
    assert!(matches!(e.kind(), ErrorKind::ForeignMember { .. }), "{e}");
    assert!(c.check(mcp.as_bytes(), &*mcp_format, &*openai, &options).is_ok());
}

/// What the Python SDK and pydantic-ai send: the proto field names.
const SNAKE: &str = r#"{"name":"get_capital","description":"Get the capital.","parameters_json_schema":{"type":"object","properties":{"country":{"type":"string","format":"uri"}},"required":["country"]},"response_json_schema":{"type":"string"}}"#;

#[test]
fn gemini_snake_case_spellings_are_read() {
    for from in ["gemini", "gemini-json"] {
        let (mcp, report) = convert(SNAKE.as_bytes(), from, "mcp").expect("read");
        assert!(mcp.contains(r#""inputSchema":{"type":"object","properties":{"country""#), "{mcp}");
        // The response schema rides along as the camelCase one does: reported when dropped.
        assert!(report.iter().any(|e| e.contains("/response_json_schema")), "{report:?}");
    }
    // Same format: the source's spelling, byte for byte.
    assert_eq!(convert(SNAKE.as_bytes(), "gemini-json", "gemini-json").expect("same").0, SNAKE);
    // To the OpenAPI field: written as `parameters`, and report pointers name the source's.
    let (gemini, report) = convert(SNAKE.as_bytes(), "gemini-json", "gemini").expect("gemini");
    assert!(gemini.contains(r#""parameters":{"type":"OBJECT""#), "{gemini}");
    assert!(!gemini.contains("parameters_json_schema"), "{gemini}");
    assert!(
        report.iter().any(|e| e.contains("\"/parameters_json_schema/properties/country/format\"")),
        "{report:?}"
    );
    // A catalog under the proto name reads as a catalog, and keeps its spelling.
    let catalog = format!(r#"{{"function_declarations":[{SNAKE}],"x":1}}"#);
    let (mcp, _) = convert(catalog.as_bytes(), "gemini", "mcp").expect("catalog");
    assert!(mcp.starts_with(r#"{"tools":[{"name":"get_capital""#), "{mcp}");
    assert_eq!(convert(catalog.as_bytes(), "gemini-json", "gemini-json").expect("same").0, catalog);
    // Read as another format, the spelling names Gemini.
    let e = error(SNAKE.as_bytes(), "openai", "mcp");
    let kind = ErrorKind::ForeignMember {
        member: "parameters_json_schema".into(),
        formats: vec!["gemini"],
    };
    assert_eq!(e.kind(), &kind);
}

#[test]
fn gemini_schema_fields_are_one_union() {
    let two = |a: &str, b: &str| format!(r#"{{"name":"f","{a}":{{}},"{b}":{{}}}}"#);
    let e = error(two("parameters", "parameters_json_schema").as_bytes(), "gemini", "mcp");
    assert_eq!(e.pointer(), "/parameters_json_schema");
    assert!(e.to_string().contains("mutually exclusive"), "{e}");
    let e =
        error(two("parametersJsonSchema", "parameters_json_schema").as_bytes(), "gemini", "mcp");
    assert!(e.to_string().contains("one field spelled twice"), "{e}");
    let e = error(br#"{"functionDeclarations":[],"function_declarations":[]}"#, "gemini", "mcp");
    assert_eq!(e.pointer(), "/function_declarations");
    assert!(e.to_string().contains("one member spelled twice"), "{e}");
}

fn entries(input: &[u8], from: &str, to: &str) -> Vec<(Severity, Code, String, String)> {
    let r = Registry::default();
    let c = r.convert(input, from, to).unwrap_or_else(|e| panic!("{from} → {to}: {e}"));
    c.report()
        .entries()
        .iter()
        .map(|e| (e.severity, e.code, e.feature.clone(), e.pointer.clone()))
        .collect()
}

const DECL_A: &str =
    r#"{"name":"a","parameters":{"type":"OBJECT","properties":{"q":{"type":"STRING"}}}}"#;
const DECL_B: &str = r#"{"name":"b","description":"B."}"#;

#[test]
fn a_gemini_request_tools_array_reads_its_declarations_and_keeps_built_ins() {
    let tools = format!(
        r#"[{{"functionDeclarations":[{DECL_A},{DECL_B}]}},{{"googleSearch":{{}}}},{{"code_execution":{{}}}}]"#
    );
    // Same format: as it came, byte for byte.
    assert_eq!(convert(tools.as_bytes(), "gemini", "gemini").expect("same").0, tools);
    // Elsewhere: the declarations, in order; each built-in left out with an error entry.
    let (mcp, _) = convert(tools.as_bytes(), "gemini", "mcp").expect("mcp");
    let v: serde_json::Value = serde_json::from_str(&mcp).expect("json");
    let names: Vec<&str> = v["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(v["tools"][0]["inputSchema"]["properties"]["q"]["type"], "string");
    let left_out: Vec<_> = entries(tools.as_bytes(), "gemini", "openai")
        .into_iter()
        .filter(|e| e.1 == Code::NotAFunctionTool)
        .map(|(s, _, f, _)| (s, f))
        .collect();
    assert_eq!(
        left_out,
        [(Severity::Error, "googleSearch".into()), (Severity::Error, "code_execution".into())]
    );
    // A built-in alone, or a declaration, is read as before.
    assert_eq!(
        convert(br#"{"googleSearch":{}}"#, "gemini", "gemini").expect("alone").0,
        r#"{"googleSearch":{}}"#
    );
    let e = error(br#"{"googleSearch":{}}"#, "gemini", "mcp");
    assert!(e.to_string().contains("`googleSearch` is a built-in gemini tool"), "{e}");
}

#[test]
fn a_whole_gemini_request_is_read_for_its_tools() {
    let request = format!(
        r#"{{"contents":[{{"role":"user","parts":[{{"text":"hi"}}]}}],"tools":[{{"function_declarations":[{DECL_A}],"codeExecution":{{}}}},{{"functionDeclarations":[{DECL_B}]}}],"toolConfig":{{"functionCallingConfig":{{"mode":"ANY"}}}}}}"#
    );
    assert_eq!(convert(request.as_bytes(), "gemini", "gemini").expect("same").0, request);
    let (openai, _) = convert(request.as_bytes(), "gemini", "openai").expect("openai");
    assert!(openai.starts_with(r#"[{"type":"function","function":{"name":"a""#), "{openai}");
    assert!(openai.contains(r#""name":"b""#), "{openai}");
    let catalog_level: Vec<_> = entries(request.as_bytes(), "gemini", "openai")
        .into_iter()
        .filter(|e| matches!(e.1, Code::CatalogMemberDropped | Code::NotAFunctionTool))
        .collect();
    assert_eq!(
        catalog_level,
        [
            (Severity::Warning, Code::CatalogMemberDropped, "contents".into(), "/contents".into()),
            (
                Severity::Warning,
                Code::CatalogMemberDropped,
                "toolConfig".into(),
                "/toolConfig".into()
            ),
            (
                Severity::Error,
                Code::NotAFunctionTool,
                "codeExecution".into(),
                "/tools/0/codeExecution".into()
            ),
        ]
    );
    // A declaration at fault is left out, its entry pointing into the request; the others
    // are written.
    let bad = request.replace(r#""name":"b""#, r#""name":7"#);
    let (mcp, _) = convert(bad.as_bytes(), "gemini", "mcp").expect("the others");
    assert!(mcp.starts_with(r#"{"tools":[{"name":"a""#) && !mcp.contains(r#""b""#), "{mcp}");
    let left: Vec<_> = entries(bad.as_bytes(), "gemini", "mcp")
        .into_iter()
        .filter(|e| e.1 == Code::ToolNotConverted)
        .collect();
    let at = "/tools/1/functionDeclarations/0/name";
    assert_eq!(left, [(Severity::Error, Code::ToolNotConverted, "name".into(), at.into())]);
    // The other Gemini format is the same API (one family): the request and its built-in
    // are kept, the declarations written with its own schema field.
    let (json, report) = convert(request.as_bytes(), "gemini", "gemini-json").expect("gemini-json");
    let expected = request.replace(
        r#""parameters":{"type":"OBJECT","properties":{"q":{"type":"STRING"}}}"#,
        r#""parametersJsonSchema":{"type":"object","properties":{"q":{"type":"string"}}}"#,
    );
    assert_eq!((json, report.len()), (expected, 0), "{report:?}");
}

const MCP_RESPONSE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}],"nextCursor":"c2","ttlMs":300000,"cacheScope":"public"}}"#;

#[test]
fn an_mcp_tools_list_response_is_read_as_its_catalog() {
    // MCP → MCP: the response as it came, its envelope and the result's members kept.
    assert_eq!(convert(MCP_RESPONSE.as_bytes(), "mcp", "mcp").expect("same").0, MCP_RESPONSE);
    let (openai, _) = convert(MCP_RESPONSE.as_bytes(), "mcp", "openai").expect("openai");
    assert!(
        openai.starts_with(r#"[{"type":"function","function":{"name":"get_weather""#),
        "{openai}"
    );
    let dropped: Vec<_> = entries(MCP_RESPONSE.as_bytes(), "mcp", "openai")
        .into_iter()
        .filter(|e| e.1 == Code::CatalogMemberDropped)
        .map(|(s, _, f, p)| (s, f, p))
        .collect();
    let info = Severity::Info;
    assert_eq!(
        dropped,
        [
            (info, "jsonrpc".into(), "/jsonrpc".into()),
            (info, "id".into(), "/id".into()),
            (info, "resultType".into(), "/result/resultType".into()),
            // More tools follow: that changes what the catalog is.
            (Severity::Warning, "nextCursor".into(), "/result/nextCursor".into()),
            (info, "ttlMs".into(), "/result/ttlMs".into()),
            (info, "cacheScope".into(), "/result/cacheScope".into()),
        ]
    );
    // The result alone, as a gateway may hold it, reads the same; its hints are kept MCP → MCP.
    let result =
        &MCP_RESPONSE[r#"{"jsonrpc":"2.0","id":1,"result":"#.len()..MCP_RESPONSE.len() - 1];
    assert_eq!(convert(result.as_bytes(), "mcp", "mcp").expect("result").0, result);
    assert_eq!(convert(result.as_bytes(), "mcp", "openai").expect("result").0, openai);
    // An error inside points into the response.
    let bad = MCP_RESPONSE.replace(r#""name":"get_weather""#, r#""name":1"#);
    assert_eq!(error(bad.as_bytes(), "mcp", "openai").pointer(), "/result/tools/0/name");
}

#[test]
fn a_json_rpc_error_response_is_an_error() {
    let response =
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
    let e = error(response, "mcp", "openai");
    let kind =
        ErrorKind::ErrorResponse { code: "-32601".into(), message: "Method not found".into() };
    assert_eq!((e.kind(), e.pointer()), (&kind, "/error"));
    assert!(
        e.to_string().contains(r#"not a list of tools: "Method not found" (code -32601)"#),
        "{e}"
    );
    // Another method's result is not a list of tools either.
    let prompts = br#"{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}}"#;
    let e = error(prompts, "mcp", "openai");
    assert_eq!(e.pointer(), "/result");
    assert!(e.to_string().contains("holds no `tools` list"), "{e}");
    let e = error(br#"{"jsonrpc":"2.0","id":2}"#, "mcp", "openai");
    assert!(matches!(e.kind(), ErrorKind::Shape(_)), "{e}");
}

/// An MCP tool whose `region` property carries `x-mcp-header` with `annotation`, and whose
/// `region` schema is `region`.
fn with_header(region: &str) -> String {
    format!(
        r#"{{"name":"execute_sql","inputSchema":{{"type":"object","properties":{{"region":{region},"query":{{"type":"string"}}}},"required":["region","query"]}}}}"#
    )
}

#[test]
fn a_valid_x_mcp_header_is_kept_for_mcp_and_dropped_with_info_elsewhere() {
    let tool = with_header(r#"{"type":"string","description":"Region.","x-mcp-header":"Region"}"#);
    let (same, report) = convert(tool.as_bytes(), "mcp", "mcp").expect("mcp");
    assert_eq!((same.as_str(), report.len()), (tool.as_str(), 0));
    for to in ["openai", "anthropic", "gemini", "gemini-json", "bedrock", "langchain"] {
        let (out, _) = convert(tool.as_bytes(), "mcp", to).expect(to);
        assert!(!out.contains("x-mcp-header") && out.contains("Region."), "{to}: {out}");
        let dropped = entries(tool.as_bytes(), "mcp", to)
            .into_iter()
            .filter(|e| e.2 == "x-mcp-header")
            .collect::<Vec<_>>();
        let pointer = "/inputSchema/properties/region/x-mcp-header".to_owned();
        assert_eq!(
            dropped,
            [(Severity::Info, Code::KeywordDropped, "x-mcp-header".into(), pointer)],
            "{to}"
        );
    }
    // Nested properties are reached through `properties` alone too; a nullable one is fine.
    let nested = with_header(
        r#"{"type":"object","properties":{"zone":{"type":["integer","null"],"x-mcp-header":"Zone"}}}"#,
    );
    assert_eq!(convert(nested.as_bytes(), "mcp", "mcp").expect("nested").0, nested);
}

#[test]
fn a_tool_with_an_invalid_x_mcp_header_is_left_out_with_an_error() {
    let cases = [
        (
            r#"{"type":"number","x-mcp-header":"Region"}"#,
            "/inputSchema/properties/region/x-mcp-header",
            "not one of string, integer and boolean",
        ),
        (
            r#"{"x-mcp-header":"Region"}"#,
            "/inputSchema/properties/region/x-mcp-header",
            "not one of string",
        ),
        (
            r#"{"type":"string","x-mcp-header":""}"#,
            "/inputSchema/properties/region/x-mcp-header",
            "empty",
        ),
        (
            r#"{"type":"string","x-mcp-header":"Re gion"}"#,
            "/inputSchema/properties/region/x-mcp-header",
            "field-name token",
        ),
        (
            r#"{"type":"string","x-mcp-header":7}"#,
            "/inputSchema/properties/region/x-mcp-header",
            "not a string",
        ),
        (
            r#"{"type":"array","items":{"type":"string","x-mcp-header":"Region"}}"#,
            "/inputSchema/properties/region/items/x-mcp-header",
            "`properties` alone",
        ),
        (
            r#"{"anyOf":[{"type":"string","x-mcp-header":"Region"}]}"#,
            "/inputSchema/properties/region/anyOf/0/x-mcp-header",
            "`properties` alone",
        ),
        (
            r#"{"type":"string","x-mcp-header":"Region"},"other":{"type":"string","x-mcp-header":"REGION"}"#,
            "/inputSchema/properties/other/x-mcp-header",
            "repeats",
        ),
    ];
    for (region, pointer, why) in cases {
        let tool = with_header(region);
        let catalog = format!(r#"{{"tools":[{tool},{MCP_TOOL}]}}"#);
        for to in ["mcp", "openai"] {
            let r = Registry::default();
            let c = r
                .convert(catalog.as_bytes(), "mcp", to)
                .unwrap_or_else(|e| panic!("{region}: {e}"));
            // The other tool is written; this one is not.
            assert_eq!(c.tools_written(), 1, "{region} → {to}");
            assert!(!c.output_str().contains("execute_sql"), "{region} → {to}");
            let e =
                c.report().entries().iter().find(|e| e.code == Code::InvalidTool).expect("entry");
            assert_eq!(
                (e.severity, e.tool.as_str(), e.tool_pointer.as_str()),
                (Severity::Error, "execute_sql", pointer),
                "{region}"
            );
            assert!(e.message.contains(why), "{region}: {}", e.message);
        }
        // Alone, it is an error: there is nothing to write.
        let e = error(tool.as_bytes(), "mcp", "openai");
        assert!(e.to_string().contains("invalid `x-mcp-header`"), "{e}");
    }
    // On the root, or in `$defs`, it is on no property at all.
    let root = r#"{"name":"t","inputSchema":{"type":"object","x-mcp-header":"T","$defs":{"a":{"type":"string","x-mcp-header":"A"}}}}"#;
    let e = error(root.as_bytes(), "mcp", "mcp");
    assert!(e.to_string().contains("`properties` alone"), "{e}");
    // In the output schema, it is not an argument's: not checked.
    let output = r#"{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","x-mcp-header":"T"}}"#;
    assert_eq!(convert(output.as_bytes(), "mcp", "mcp").expect("output").0, output);
}

#[test]
fn execution_task_support_is_read_and_reported() {
    let tool = |v: &str| {
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object"}},"execution":{{"taskSupport":{v}}}}}"#
        )
    };
    let superseded = |input: &str, to: &str| {
        entries(input.as_bytes(), "mcp", to)
            .into_iter()
            .filter(|e| e.1 == Code::Superseded)
            .map(|(s, _, f, p)| (s, f, p))
            .collect::<Vec<_>>()
    };
    let at = |s| vec![(s, "execution.taskSupport".to_owned(), "/execution/taskSupport".to_owned())];
    // MCP → MCP: kept, and lossless: nothing to report.
    let required = tool(r#""required""#);
    assert_eq!(
        convert(required.as_bytes(), "mcp", "mcp").expect("same"),
        (required.clone(), vec![])
    );
    // Elsewhere: a tool that must run as a task is a warning; one that may run directly is not.
    assert_eq!(superseded(&required, "openai"), at(Severity::Warning));
    assert_eq!(superseded(&tool(r#""optional""#), "openai"), at(Severity::Info));
    assert_eq!(superseded(&tool(r#""forbidden""#), "anthropic"), at(Severity::Info));
    assert_eq!(superseded(&tool("true"), "mcp"), at(Severity::Warning));
    // The member itself is reported dropped as any metadata is.
    let dropped = entries(required.as_bytes(), "mcp", "openai");
    assert!(
        dropped.iter().any(|e| e.1 == Code::MetadataDropped && e.3 == "/execution"),
        "{dropped:?}"
    );
}
