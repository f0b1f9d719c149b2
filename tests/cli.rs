//! End-to-end runs of the `tooladapter` binary: outputs, reports and exit codes.

#[path = "common/bin.rs"]
mod bin;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let (code, out, err) = bin::run(args, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

#[test]
fn readme_command_converts_the_example() {
    let (code, out, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "examples/data/catalog.mcp.json"], b"");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let names: Vec<_> =
        v.as_array().expect("array").iter().map(|t| t["function"]["name"].clone()).collect();
    assert_eq!(names, ["search_orders", "create_invoice", "read_path", "ping"]);
    assert!(err.contains("/title"));
}

/// Every JSON entry has the library's eleven fields (`output_pointer` only where a rewrite
/// moved the place, which this catalog's entries are not about), then where it comes from:
/// the input (`source`) and the tool's place in its catalog (`index`).
#[test]
fn json_report_has_the_eleven_fields_and_its_source() {
    let args = [
        "convert",
        "--from",
        "mcp",
        "--to",
        "openai",
        "--strict",
        "--report",
        "json",
        "examples/data/catalog.mcp.json",
    ];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with('['), "output written");
    let mut effects = std::collections::BTreeSet::new();
    for line in err.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json line");
        let keys: Vec<_> = v.as_object().expect("object").keys().cloned().collect();
        assert_eq!(
            keys,
            [
                "tool",
                "severity",
                "code",
                "effect",
                "arguments",
                "feature",
                "pointer",
                "tool_pointer",
                "from",
                "to",
                "message",
                "source",
                "index"
            ]
        );
        assert_eq!(v["source"], "examples/data/catalog.mcp.json");
        let index = v["index"].as_u64().expect("index") as usize;
        let tools = ["search_orders", "create_invoice", "read_path", "ping"];
        assert_eq!(tools.get(index), Some(&v["tool"].as_str().expect("tool")), "{line}");
        let effect = v["effect"].as_str().expect("effect");
        assert!(["none", "narrows", "widens", "changes"].contains(&effect), "{line}");
        effects.insert((effect.to_owned(), v["arguments"].as_bool().expect("arguments")));
    }
    // The catalog has metadata (not about the arguments) and objects strict mode closes.
    assert!(effects.contains(&("none".to_owned(), false)), "{effects:?}");
    assert!(effects.contains(&("narrows".to_owned(), true)), "{effects:?}");
}

/// One tool per effect, each with the target that gives it (and `--strict` where it is the
/// strict mode that narrows): the exit code of every `--deny-loss` rule, for a single tool
/// and for the same tool as an NDJSON line (the batch path).
#[test]
fn deny_loss_rules_exit_3_on_what_they_deny() {
    // Strict mode closes an object that declares a property: narrows only.
    let narrows = r#"{"name":"n","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}"#;
    // Gemini has no `additionalProperties`: the closed object opens, widens only.
    let widens = r#"{"name":"w","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;
    // Gemini takes no object without properties: it travels as JSON text, changes.
    let changes =
        r#"{"name":"c","inputSchema":{"type":"object","properties":{"o":{"type":"object"}}}}"#;
    // Metadata OpenAI has no place for: `info`, no rule denies it.
    let metadata = r#"{"name":"m","title":"M","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;
    let cases: [(&str, &[&str], [i32; 5]); 4] = [
        // Exit codes without the flag, then with `--deny-loss`, `=arguments`, `=widens`,
        // `=narrows`. Metadata dropped (`info`) is information not carried: `any` denies it,
        // `arguments` does not.
        (narrows, &["--to", "openai", "--strict"], [0, 3, 3, 0, 3]),
        (widens, &["--to", "gemini"], [0, 3, 3, 3, 0]),
        (changes, &["--to", "gemini"], [0, 3, 3, 3, 3]),
        (metadata, &["--to", "openai"], [0, 3, 0, 0, 0]),
    ];
    for (input, target, codes) in cases {
        let flags = [None, Some("--deny-loss"), Some("--deny-loss=arguments")]
            .into_iter()
            .chain([Some("--deny-loss=widens"), Some("--deny-loss=narrows")]);
        for (flag, expected) in flags.zip(codes) {
            for ndjson in [false, true] {
                let mut args = vec!["convert", "--from", "mcp", "--report", "json"];
                args.extend(target);
                args.extend(flag);
                if ndjson {
                    args.push("--ndjson");
                }
                let (code, out, err) = run(&args, format!("{input}\n").as_bytes());
                assert_eq!(code, expected, "{input} {args:?}: {err}");
                // A denied loss writes nothing (the report still says what was lost).
                assert_eq!(out.is_empty(), expected == 3, "{input} {args:?}");
            }
        }
    }
    // `--deny-loss=any` is `--deny-loss`; an unknown rule is a usage error.
    let args = ["convert", "--from", "mcp", "--to", "gemini", "--deny-loss=any"];
    assert_eq!(run(&args, widens.as_bytes()).0, 3);
    let args = ["convert", "--from", "mcp", "--to", "gemini", "--deny-loss=all"];
    let (code, _, err) = run(&args, widens.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("expected one of: any, arguments, widens, narrows"), "{err}");
}

/// A catalog large enough to be split across threads (64 tools, 64 KiB) gives the exit code
/// of the whole: each rule judged over every chunk's entries.
#[test]
fn deny_loss_rules_hold_for_a_split_catalog() {
    let pad = "x".repeat(1200);
    let tools: Vec<String> = (0..80)
        .map(|i| {
            format!(
                r#"{{"name":"t{i}","description":"{pad}","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string"}}}},"required":["a"]}}}}"#
            )
        })
        .collect();
    let catalog = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    assert!(catalog.len() > 64 << 10);
    for (rule, expected) in
        [("--deny-loss=widens", 0), ("--deny-loss=narrows", 3), ("--deny-loss", 3)]
    {
        let args = ["convert", "--from", "mcp", "--to", "openai", "--strict", "--jobs", "2", rule];
        let (code, out, err) = run(&args, catalog.as_bytes());
        assert_eq!(code, expected, "{rule}: {err}");
        let written = if expected == 3 { 0 } else { 80 };
        assert_eq!(out.matches(r#""strict":true"#).count(), written, "{rule}");
    }
}

/// The text report shows each entry's effect after its severity, `metadata` for an entry that
/// is not about the arguments.
#[test]
fn text_report_shows_the_effect() {
    let input = r#"{"name":"t","title":"T","inputSchema":{"type":"object","properties":{"a":{"type":"string","minLength":2}}}}"#;
    let args = ["convert", "--from", "mcp", "--to", "openai", "--strict"];
    let (code, _, err) = run(&args, input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("info[metadata]: [metadata-dropped] tool \"t\"")),
        "{err}"
    );
    assert!(lines.iter().any(|l| l.starts_with("warning[narrows]: [object-closed]")), "{err}");
    assert!(lines.iter().any(|l| l.starts_with("warning[widens]: [keyword-described]")), "{err}");
    assert!(lines.iter().any(|l| l.starts_with("info[none]: [strict-widened]")), "{err}");
}

#[test]
fn exit_codes_for_usage_and_bad_input() {
    assert_eq!(run(&["convert", "--from", "nope", "--to", "openai"], b"{}").0, 2);
    assert_eq!(run(&["convert", "--to", "openai"], b"{}").0, 2);
    for bad in
        [&b"{"[..], b"", b"null", b"{\"name\":1}", b"\"\xff\"", b"{\"name\":\"a\",\"name\":\"b\"}"]
    {
        let (code, _, err) = run(&["convert", "--from", "mcp", "--to", "openai", "-"], bad);
        assert_eq!(code, 1, "{bad:?}");
        assert!(err.starts_with("error: mcp adapter to_canonical"), "{err}");
    }
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert_eq!(run(&["convert", "--from", "mcp", "--to", "openai"], deep.as_bytes()).0, 1);
}

#[test]
fn ndjson_converts_line_by_line_and_names_bad_lines() {
    let input = b"{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}}\n\n{\"name\":\n{\"name\":\"c\",\"inputSchema\":{}}\n";
    let (code, out, err) =
        run(&["convert", "--from", "mcp", "--to", "anthropic", "--ndjson"], input);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2);
    assert!(err.contains("line 3"), "{err}");
}

#[test]
fn formats_lists_the_formats() {
    let (code, out, _) = run(&["formats"], b"");
    assert_eq!(code, 0);
    assert!(out.starts_with(
        "formats: a2a, anthropic, bedrock, cohere, gemini, gemini-json, langchain, mcp, mistral, \
         ollama, openai, openai-responses, openapi (import only), vertex, xai\n"
    ));
    let row = out.lines().find(|l| l.starts_with("oneOf")).unwrap();
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        [
            "oneOf", "drop", "keep", "keep", "keep", "rewrite", "keep", "keep", "keep", "keep",
            "describe", "keep", "keep", "rewrite", "keep"
        ]
    );
    assert!(out.contains("$ref"));
    // A legend says what each cell means.
    for action in ["keep", "rewrite", "describe", "drop", "reject"] {
        assert!(out.lines().any(|l| l.starts_with(&format!("{action:<10}"))), "{action}: {out}");
    }
}

#[test]
fn formats_prints_the_toolfoundation_matrix() {
    let (code, out, _) = run(&["formats", "--profile", "toolfoundation"], b"");
    assert_eq!(code, 0);
    let row = |name: &str| -> Vec<String> {
        let line = out.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap();
        line.split_whitespace().skip(1).map(str::to_owned).collect()
    };
    // a2a, anthropic, bedrock and cohere (no toolfoundation entry), gemini, gemini-json,
    // langchain, mcp, mistral and ollama (none), openai, openai-responses, vertex (Gemini's
    // matrix), xai (none)
    let none = "-";
    let pattern = [
        "drop", "drop", none, none, "keep", "keep", "keep", "keep", none, none, "drop", "drop",
        "keep", none,
    ];
    assert_eq!(row("pattern"), pattern);
    let any_of = [
        "drop", "keep", none, none, "keep", "keep", "keep", "keep", none, none, "drop", "drop",
        "keep", none,
    ];
    assert_eq!(row("anyOf"), any_of);
    let minimum = [
        "drop", "keep", none, none, "keep", "keep", "keep", "keep", none, none, "keep", "keep",
        "keep", none,
    ];
    assert_eq!(row("minimum"), minimum);
    let (code, _, err) = run(&["formats", "--profile", "nope"], b"");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn strict_conversion_writes_a_map_that_unmap_applies() {
    let dir = std::env::temp_dir().join(format!("tooladapter-cli-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("map.json");
    let map_arg = map.to_str().unwrap();
    let tool = br#"{"tools":[{"name":"files.read","inputSchema":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}}]}"#;
    let (code, out, err) = run(
        &["convert", "--from", "mcp", "--to", "openai", "--strict", "--map-out", map_arg],
        tool,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["function"]["name"], "files_read");
    assert_eq!(v[0]["function"]["strict"], true);
    assert!(err.contains("tool-renamed") && err.contains("strict-widened"), "{err}");
    // One call as JSON, then the same as NDJSON with a Responses-style call.
    let call = br#"{"id":"call_1","type":"function","function":{"name":"files_read","arguments":"{\"path\":\"/a\",\"limit\":null}"}}"#;
    let (code, out, err) = run(&["unmap", "--map", map_arg], call);
    assert_eq!(code, 0, "{err}");
    let back: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        back,
        serde_json::json!({"id":"call_1","name":"files.read","arguments":{"path":"/a"}})
    );
    let ndjson = b"{\"type\":\"function_call\",\"call_id\":\"c2\",\"name\":\"files_read\",\"arguments\":\"{\\\"path\\\":\\\"/b\\\",\\\"limit\\\":3}\"}\n{\"name\":\"other\",\"arguments\":{}}\nnot json\n";
    let (code, out, err) = run(&["unmap", "--map", map_arg], ndjson);
    assert_eq!(code, 1, "the bad line fails the run");
    assert!(err.contains("line 3"), "{err}");
    let lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["arguments"], serde_json::json!({"path":"/b","limit":3}));
    assert_eq!(lines[1]["name"], "other");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strict_flags_and_check_exit_codes() {
    let open =
        br#"{"name":"t","inputSchema":{"type":"object","properties":{"m":{"type":"object"}}}}"#;
    let (code, out, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "--strict=require"], open);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("strict"), "{err}");
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openai", "--strict"], open);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""strict":false"#) && err.contains("strict-fallback"), "{err}");
    assert_eq!(run(&["convert", "--from", "mcp", "--to", "gemini", "--strict"], open).0, 2);

    let bad = br#"[{"type":"function","function":{"name":"a b","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]"#;
    let (code, out, _) = run(&["check", "--to", "openai", "--report", "json"], bad);
    assert_eq!(code, 1);
    let features: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["feature"].to_string())
        .collect();
    assert!(features.iter().any(|f| f == "\"name\""), "{out}");
    assert!(features.iter().any(|f| f == "\"additionalProperties\""), "{out}");
    // The same tools converted with --strict pass the check.
    let (code, out, err) = run(&["check", "--from", "openai", "--to", "openai", "-"], bad);
    assert_eq!(code, 1, "{out}{err}");
    let (code, out, err) = run(&["check", "--from", "mcp", "--to", "openai", "--strict"], open);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("ok:"), "{out}");
}

/// Output to a full device is a write error the binary reports (exit 1), not a panic (101).
#[test]
fn a_full_stdout_is_an_error_not_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .arg("formats")
        .stdout(full())
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(1));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["check", "--to", "openai", "--from", "mcp", "examples/data/catalog.mcp.json"])
        .stdout(full())
        .output()
        .expect("runs");
    assert_ne!(out.status.code(), Some(101), "{}", String::from_utf8_lossy(&out.stderr));
    // An error said to a full stderr is lost, but the run still ends with its exit code.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["convert", "--from", "nope", "--to", "openai"])
        .stderr(full())
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(2));
}

/// A UTF-8 byte order mark at the start of the input (a file saved by a Windows editor) is
/// skipped: a document, a file, each NDJSON line's stream start, and `check`.
#[test]
fn a_byte_order_mark_is_skipped() {
    let tool =
        br#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;
    let bom = [&b"\xEF\xBB\xBF"[..], tool].concat();
    let plain = run(&["convert", "--from", "mcp", "--to", "openai"], tool);
    assert_eq!(plain.0, 0, "{}", plain.2);
    assert_eq!(run(&["convert", "--from", "mcp", "--to", "openai"], &bom), plain);
    let dir = std::env::temp_dir().join(format!("tooladapter-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("tool.json");
    std::fs::write(&file, &bom).expect("write");
    let path = file.to_str().expect("utf-8 path");
    assert_eq!(run(&["convert", "--from", "mcp", "--to", "openai", path], b""), plain);
    let stream = [&bom[..], b"\n", tool, b"\n"].concat();
    let (code, out, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "--ndjson"], &stream);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{}{}", plain.1, plain.1));
    let (code, out, err) = run(&["check", "--to", "mcp", path], b"");
    assert_eq!((code, out.as_str()), (0, "ok: mcp would accept every tool\n"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Input in another format than `--from` says (or, for `check`, than `--to` without `--from`)
/// is an error naming the format it looks like and the member: exit 1, nothing written.
#[test]
fn input_in_another_format_is_refused_with_the_likely_from() {
    let mcp = br#"{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}"#;
    let (code, out, err) = run(&["convert", "--from", "openai", "--to", "anthropic"], mcp);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.starts_with("error: openai adapter to_canonical: `inputSchema`"), "{err}");
    assert!(
        err.contains(
            "the input looks like `mcp` at /tools/0/inputSchema (tool \"t\") (check --from)"
        ),
        "{err}"
    );
    // `check` without `--from` reads the input as the `--to` format: not "ok".
    let (code, out, err) = run(&["check", "--to", "openai"], mcp);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("the input looks like `mcp`"), "{err}");
    let (code, out, err) = run(&["check", "--from", "mcp", "--to", "openai"], mcp);
    assert_eq!(code, 0, "{out}{err}");
}

/// A `tools/list` JSON-RPC response converts as its catalog (exit 0: its envelope and cache
/// hints are `info`); an error response is an error (exit 1, nothing written). A Gemini
/// request's built-ins are left out elsewhere, with an error entry each (exit 1), and its
/// declarations written.
#[test]
fn responses_and_requests_are_read_for_their_tools() {
    let response = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"ttlMs":1000,"cacheScope":"private"}}"#;
    let (code, out, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "--deny-loss"], response);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(r#"[{"type":"function","function":{"name":"t""#), "{out}");
    let (code, out, _) = run(&["convert", "--from", "mcp", "--to", "mcp"], response);
    assert_eq!((code, out.trim_end().as_bytes()), (0, &response[..]));
    let failed = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#;
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openai"], failed);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains(r#"error response, not a list of tools: "boom" (code -32603) at /error"#),
        "{err}"
    );
    let request = br#"{"tools":[{"functionDeclarations":[{"name":"t"}]},{"googleSearch":{}}]}"#;
    let (code, out, err) = run(&["convert", "--from", "gemini", "--to", "anthropic"], request);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with(r#"[{"name":"t""#), "{out}");
    assert!(err.contains("not-a-function-tool") && err.contains("googleSearch"), "{err}");
    let (code, out, err) = run(&["check", "--to", "gemini"], request);
    assert_eq!((code, out.as_str()), (0, "ok: gemini would accept every tool\n"), "{err}");
}

/// A tool with an invalid MCP `x-mcp-header` is left out, the others written (exit 1).
#[test]
fn a_tool_with_an_invalid_header_annotation_is_left_out() {
    let catalog = br#"{"tools":[{"name":"bad","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}},{"name":"good","inputSchema":{"type":"object"}}]}"#;
    for to in ["mcp", "anthropic"] {
        let (code, out, err) =
            run(&["convert", "--from", "mcp", "--to", to, "--report", "json"], catalog);
        assert_eq!(code, 1, "{err}");
        assert!(out.contains(r#""name":"good""#) && !out.contains(r#""name":"bad""#), "{out}");
        let entry: serde_json::Value =
            serde_json::from_str(err.lines().next().expect("entry")).expect("json");
        assert_eq!(entry["code"], "invalid-tool");
        assert_eq!(entry["pointer"], "/tools/0/inputSchema/properties/n/x-mcp-header");
        assert_eq!(entry["tool_pointer"], "/inputSchema/properties/n/x-mcp-header");
    }
}

/// `--report-pointers tool` shows each entry's place in its tool, in the text report and as
/// a JSON line's `pointer`; the default is the place in the document.
#[test]
fn report_pointers_choose_the_document_or_the_tool() {
    let catalog = br#"{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object","properties":{"u":{"type":"string","format":"uri"}}}}]}"#;
    let convert = |extra: &[&str]| {
        let mut args = vec!["convert", "--from", "mcp", "--to", "gemini"];
        args.extend_from_slice(extra);
        let (code, _, err) = run(&args, catalog);
        assert_eq!(code, 0, "{err}");
        err
    };
    let text = convert(&[]);
    assert!(text.contains(r#"at "/tools/1/inputSchema/properties/u/format""#), "{text}");
    let text = convert(&["--report-pointers", "tool"]);
    assert!(text.contains(r#"at "/inputSchema/properties/u/format""#), "{text}");
    assert!(!text.contains("/tools/1/"), "{text}");
    for (form, pointer) in [
        ("document", "/tools/1/inputSchema/properties/u/format"),
        ("tool", "/inputSchema/properties/u/format"),
    ] {
        let json = convert(&["--report", "json", "--report-pointers", form]);
        let line = json.lines().find(|l| l.contains(r#""feature":"format""#)).expect("entry");
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(
            (v["pointer"].as_str(), v["index"].as_u64()),
            (Some(pointer), Some(1)),
            "{form}"
        );
        assert_eq!(v["tool_pointer"], "/inputSchema/properties/u/format");
    }
}

/// NDJSON given as one document fails to parse, with a hint to say `--ndjson`; a document
/// that is merely broken gets no such hint.
#[test]
fn ndjson_without_the_flag_gets_a_hint() {
    let lines = b"{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}}\n\n{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"}}\n";
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openai"], lines);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("the input looks like NDJSON, one JSON document per line: add --ndjson"),
        "{err}"
    );
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openai", "--ndjson"], lines);
    assert_eq!((code, out.lines().count()), (0, 2), "{err}");
    let (code, _, err) = run(&["check", "--to", "mcp"], lines);
    assert_eq!(code, 1);
    assert!(err.contains("looks like NDJSON"), "{err}");
    // A file of a folder too.
    let dir = std::env::temp_dir().join(format!("tooladapter-ndjson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("lines.json"), lines).expect("write");
    let (code, _, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", dir.to_str().expect("path")], b"");
    assert_eq!(code, 1);
    assert!(err.contains("looks like NDJSON") && err.contains("--ndjson"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    for broken in
        [&b"{\"name\":\"a\",}\n{}\n"[..], b"{\n  \"name\": \"a\",\n}\n", b"{\"name\":\"a\"} x"]
    {
        let (code, _, err) = run(&["convert", "--from", "mcp", "--to", "openai"], broken);
        assert_eq!(code, 1);
        assert!(err.contains("invalid JSON") && !err.contains("NDJSON"), "{err}");
    }
}

/// `check` reports a dated limit as a warning and exits 0 on it alone; `convert` leaves the
/// description whole, and `--dated-limits` cuts it with a warning.
#[test]
fn dated_limits_warn_in_check_and_cut_only_with_the_flag() {
    let long = "d".repeat(1_100);
    let tool = format!(
        r#"[{{"type":"function","function":{{"name":"t","description":"{long}","parameters":{{"type":"object","properties":{{}}}}}}}}]"#
    );
    let (code, out, err) = run(&["check", "--to", "openai", "-"], tool.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("warning") && out.contains("dated-limit"), "{out}");
    assert!(out.contains("/0/function/description"), "{out}");

    let (code, out, err) =
        run(&["convert", "--from", "openai", "--to", "openai", "-"], tool.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&long) && !err.contains("dated-limit"), "{err}");

    let args = ["convert", "--from", "openai", "--to", "openai", "--dated-limits", "-"];
    let (code, out, err) = run(&args, tool.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let written = v[0]["function"]["description"].as_str().unwrap_or_default();
    assert_eq!(written.len(), 1_024);
    assert!(err.contains("dated-limit") && err.contains("the last 76 characters"), "{err}");
}
