//! What the docs say a command prints or exits with, or the library does, run (issue 23, item
//! 6; issue 31, item 11). Each test names the doc and the claim; a change that makes a doc
//! wrong fails here.

use serde_json::Value;

#[path = "common/bin.rs"]
mod bin;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let (code, out, err) = bin::run(args, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// README: "2 usage (an unknown format, a format that cannot be a target, an unknown flag
/// value)"; "Format names … are read in any case".
#[test]
fn readme_usage_errors_exit_2() {
    let tool = br#"{"name":"t","inputSchema":{"type":"object"}}"#;
    for args in [
        &["convert", "--from", "gpt", "--to", "openai"][..],
        &["convert", "--from", "mcp", "--to", "openapi"],
        &["convert", "--from", "mcp", "--to", "openai", "--strict=maybe"],
        &["convert", "--from", "mcp", "--to", "openai", "--report-level", "loud"],
    ] {
        let (code, out, err) = run(args, tool);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("expected one of"), "{args:?}: {err}");
    }
    let (code, _, err) = run(&["convert", "--from", "MCP", "--to", "OpenAI"], tool);
    assert_eq!(code, 0, "{err}");
}

/// README: exit-1 messages name "the input's line and column for a parse error, the tool and
/// the pointer for a tool that cannot be converted".
#[test]
fn readme_exit_1_messages_say_where() {
    let (code, _, err) =
        run(&["convert", "--from", "mcp", "--to", "openai"], b"{\n  \"name\": tru\n}");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2") && err.contains("column"), "{err}");
    // A tool strict mode cannot hold, required strict: the tool and the pointer.
    let open = br#"{"name":"open","inputSchema":{"type":"object"}}"#;
    let args = ["convert", "--from", "mcp", "--to", "openai", "--strict=require"];
    let (code, out, err) = run(&args, open);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains(r#"tool "open""#) && err.contains("/inputSchema"), "{err}");
}

/// docs/strict.md: a tool the check of the output finds (`would-be-rejected`) "is left out".
#[test]
fn strict_md_a_would_be_rejected_tool_is_left_out() {
    // Kept by policy, `not` holds an open object strict mode does not walk: the output check
    // finds it.
    let catalog = r#"{"tools":[
        {"name":"bad","inputSchema":{"type":"object","properties":{"a":{"type":"string","not":{"type":"object"}}},"required":["a"]}},
        {"name":"good","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}"#;
    let args = [
        "convert", "--from", "mcp", "--to", "openai", "--strict", "--policy", "not=keep",
        "--report", "json",
    ];
    let (code, out, err) = run(&args, catalog.as_bytes());
    assert_eq!(code, 1, "{err}");
    let names: Vec<Value> = json(&out)
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["function"]["name"].clone())
        .collect();
    assert_eq!(names, ["good"], "{out}");
    let rejected = err.lines().map(json).find(|e| e["code"] == "would-be-rejected").expect("entry");
    assert_eq!((rejected["tool"].as_str(), rejected["index"].as_u64()), (Some("bad"), Some(0)));
}

/// docs/formats/anthropic.md: OpenAI's wrapper (`type: "function"`) "is that format's
/// envelope …: nothing is lost with it, and it has no entry".
#[test]
fn anthropic_md_the_openai_wrapper_has_no_entry() {
    let tool = br#"{"type":"function","function":{"name":"d","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}"#;
    let (code, out, err) = run(&["convert", "--from", "openai", "--to", "anthropic"], tool);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        json(&out),
        json(
            r#"{"name":"d","input_schema":{"type":"object","properties":{"x":{"type":"string"}}}}"#
        )
    );
}

/// docs/formats/openai.md: "A missing `parameters` stays missing for Chat Completions;
/// `openai-responses` requires one and gets the empty object schema (a warning, `widens`…)".
#[test]
fn openai_md_a_missing_parameters() {
    let tool = br#"{"name":"p","description":"No arguments"}"#;
    let (code, out, err) = run(&["convert", "--from", "gemini", "--to", "openai"], tool);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(json(&out)["function"].get("parameters").is_none(), "{out}");
    let args = ["convert", "--from", "gemini", "--to", "openai-responses", "--report", "json"];
    let (code, out, err) = run(&args, tool);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["parameters"], json(r#"{"type":"object","properties":{}}"#), "{out}");
    let entry = json(err.lines().next().expect("an entry"));
    assert_eq!(
        (entry["code"].as_str(), entry["severity"].as_str()),
        (Some("input-schema-added"), Some("warning"))
    );
    assert_eq!(entry["effect"], "widens");
}

/// docs/formats/README.md: "Each target's tool-name rule is applied, the same format too (an
/// OpenAI tool named `a b` converted OpenAI → OpenAI is written `a_b`)".
#[test]
fn formats_readme_names_are_ruled_in_same_format_runs() {
    let tool = br#"{"type":"function","function":{"name":"a b","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}"#;
    let args = ["convert", "--from", "openai", "--to", "openai", "--report", "json"];
    let (code, out, err) = run(&args, tool);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["function"]["name"], "a_b");
    assert_eq!(json(err.lines().next().expect("an entry"))["code"], "tool-renamed");
}

/// docs/formats/openapi.md: the `--operations` example over `listItems`, `createItem`,
/// `getItem` (the fixture tests/data/openapi/store.json has exactly those).
#[test]
fn openapi_md_operations_globs() {
    let names = |globs: &[&str]| -> Vec<String> {
        let mut args = vec!["convert", "--from", "openapi", "--to", "openai"];
        for g in globs {
            args.extend(["--operations", g]);
        }
        args.push("tests/data/openapi/store.json");
        let (code, out, err) = run(&args, b"");
        if code != 0 {
            return vec![err];
        }
        let tools = json(&out);
        let names = tools.as_array().expect("array").iter();
        names.map(|t| t["function"]["name"].as_str().unwrap_or_default().to_owned()).collect()
    };
    assert_eq!(names(&["list*", "get*"]), ["listItems", "getItem"]);
    assert_eq!(names(&["*Item"]), ["createItem", "getItem"]);
    // A pattern that matches nothing is an error naming it and the operations.
    let refused = names(&["Item*"]).join("");
    let said = "invalid options: the operations filter `Item*` matches no operation; its operations: `listItems`, `createItem`, `getItem`";
    assert!(refused.contains(said), "{refused}");
    // `.` is literal: the regular-expression reading of `list.*` matches nothing.
    assert!(names(&["list.*"]).join("").contains("`list.*` matches no operation"));
}

/// The text of `path` (from the repository root).
fn doc(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fenced code blocks of `text` after the line holding `marker`, each block's lines.
fn blocks_after(text: &str, marker: &str) -> Vec<Vec<String>> {
    let start = text.find(marker).unwrap_or_else(|| panic!("{marker:?} not found"));
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.get(start..).unwrap_or_default().lines() {
        match (line.starts_with("```"), current.as_mut()) {
            (true, None) => current = Some(Vec::new()),
            (true, Some(_)) => blocks.extend(current.take()),
            (false, Some(lines)) => lines.push(line.to_owned()),
            (false, None) => {}
        }
    }
    blocks
}

/// docs/strict.md, "Names": each row is its formats' name rule (tool names and property
/// keys), and Gemini's names are cut at 64 characters (the API's limit; the table said 128).
#[test]
fn strict_md_names_table_is_each_formats_rule() {
    let text = doc("docs/strict.md");
    let table = text.get(text.find("## Names").expect("names")..).expect("names");
    let mut rows = 0;
    for line in table.lines().skip(4).take_while(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").map(|c| c.trim_matches(['|', ' '])).collect();
        let [targets, names, keys] = cells.as_slice() else { panic!("{line}") };
        let unquote = |c: &str| c.trim_matches('`').to_owned();
        for target in targets.split(", ").map(unquote) {
            let format: tooladapter::Format = target.parse().expect("a format");
            let profile = format.info().profile;
            let rule = profile.name_rule().map(|r| r.pattern);
            assert_eq!(rule, Some(unquote(names).as_str()), "{target}: {line}");
            let key = profile.key_rule().map(|r| r.pattern.to_owned());
            let documented = (*keys != "—").then(|| unquote(keys));
            assert_eq!(key, documented, "{target} keys: {line}");
            rows += 1;
        }
    }
    assert!(rows >= 6, "{rows}");
    let registry = tooladapter::Registry::default();
    for (len, kept) in [(64, true), (65, false)] {
        let name = "a".repeat(len);
        let tool = format!(r#"{{"name":"{name}","inputSchema":{{"type":"object"}}}}"#);
        let c = registry.convert(tool.as_bytes(), "mcp", "gemini").expect("converts");
        let out = json(c.output_str());
        let written = out["name"].as_str().expect("name");
        assert_eq!(written == name, kept, "{len}: {written}");
        assert!(written.len() <= 64, "{written}");
    }
}

/// docs/strict.md, "Pre-flight": under the default profile set the check runs on the output
/// of every conversion (the output of an object without `properties` for OpenAI checks
/// clean); under `--profile toolfoundation` the output is checked against that profile's
/// tables, which are built on the provider's shape rules, so `check` passes it too.
#[test]
fn strict_md_the_output_check_and_the_toolfoundation_profile() {
    let tool = br#"{"name":"ping","inputSchema":{"type":"object"}}"#;
    let base = ["convert", "--from", "mcp", "--to", "openai"];
    let (code, out, err) = run(&base, tool);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["check", "--to", "openai"], out.as_bytes());
    assert_eq!(code, 0, "default: {out}: {err}");
    let (code, out, err) = run(&[&base[..], &["--profile", "toolfoundation"]].concat(), tool);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("shape-rewritten"), "toolfoundation: {err}");
    let (code, report, _) = run(&["check", "--to", "openai"], out.as_bytes());
    assert_eq!(code, 0, "toolfoundation: {out}: {report}");
}

/// docs/user-journey.md: the catalog it shows, converted as it says, prints exactly the report
/// it shows, exits 1, writes the two tools, and `--map-out` maps `search_orders_2` back to
/// `search_orders` with `"source_index": 2`.
#[test]
fn user_journey_sample_output() {
    let text = doc("docs/user-journey.md");
    let blocks = blocks_after(&text, "What the user sees for this catalog");
    let [input, report, ..] = blocks.as_slice() else { panic!("{blocks:?}") };
    let input = input.join("\n");
    let dir = std::env::temp_dir().join(format!("tooladapter-journey-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let map = dir.join("map.json");
    let map_arg = map.to_str().expect("utf-8");
    let args = ["convert", "--from", "mcp", "--to", "openai", "--map-out", map_arg];
    let (code, out, err) = run(&args, input.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().collect::<Vec<_>>(), *report, "{err}");
    let written = json(&out);
    let names: Vec<&str> = written
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert_eq!(names, ["search_orders", "search_orders_2"]);
    let map = json(&std::fs::read_to_string(&map).expect("map"));
    assert_eq!(map["tools"][0]["name"], "search_orders_2");
    assert_eq!(map["tools"][0]["source_name"], "search_orders");
    assert_eq!(map["tools"][0]["source_index"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// python/README.md: a `ReportEntry`'s `pointer` is the place in the input document (the
/// binding copies `ReportEntry::pointer`); `check` with `from_` left out lists only errors and
/// `dated-limit` warnings, and with another `from_` the conversion's own entries too.
#[test]
fn python_readme_pointer_and_check() {
    use tooladapter::{Code, Converter, Format, Options, Severity};
    let catalog =
        br#"{"tools":[{"name":"a","title":"A","inputSchema":{"type":"object","properties":{}}}]}"#;
    let c = tooladapter::Registry::default().convert(catalog, "mcp", "openai").expect("converts");
    let entry = c.report().entries().first().expect("title dropped").clone();
    assert_eq!((entry.pointer.as_str(), entry.tool_pointer.as_str()), ("/tools/0/title", "/title"));
    let mut converter = Converter::new();
    let options = Options::default();
    let checked = converter.check(catalog, Format::MCP, Format::OPENAI, &options).expect("check");
    assert!(checked.entries().iter().any(|e| e.code == Code::MetadataDropped), "{checked:?}");
    // The same tools in the provider's format, checked as it: only what it would refuse.
    let written = c.output().to_vec();
    let same = converter.check(&written, Format::OPENAI, Format::OPENAI, &options).expect("check");
    assert!(
        same.entries().iter().all(|e| e.severity == Severity::Error || e.code == Code::DatedLimit),
        "{same:?}"
    );
    let text = doc("python/README.md");
    assert!(text.contains("the place in the input document"), "the doc says what pointer is");
}

/// docs/errors.md: a JSON-RPC error response is `ErrorResponse` at `/error` read as any
/// format and by `check`; a response without a `result` object, or whose result holds no
/// `tools` list, is `Shape`.
#[test]
fn errors_md_json_rpc_input() {
    use tooladapter::{Converter, ErrorKind, Format, Options};
    let error = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
    let mut converter = Converter::new();
    let options = Options::default();
    for from in Format::ALL.iter().copied().filter(|f| f.info().reads && !f.info().imports) {
        let e = converter.convert(error, from, Format::MCP, &options).expect_err("an error");
        let expected =
            ErrorKind::ErrorResponse { code: "-32601".into(), message: "Method not found".into() };
        assert_eq!((e.kind(), e.pointer()), (&expected, "/error"), "{from}: {e}");
        let e = converter.check(error, from, from, &options).expect_err("check");
        assert!(matches!(e.kind(), ErrorKind::ErrorResponse { .. }), "{from}: {e}");
    }
    for (input, pointer) in [
        (&br#"{"jsonrpc":"2.0","id":1}"#[..], ""),
        (br#"{"jsonrpc":"2.0","id":1,"result":[]}"#, ""),
        (br#"{"jsonrpc":"2.0","id":1,"result":{"foo":1}}"#, "/result"),
    ] {
        let e = converter.convert(input, Format::MCP, Format::OPENAI, &options).expect_err("shape");
        assert!(matches!(e.kind(), ErrorKind::Shape(_)), "{e}");
        assert_eq!(e.pointer(), pointer, "{e}");
    }
}

/// `convert --help`: `--strict` names every format with a strict mode (it left Bedrock out).
#[test]
fn convert_help_names_every_strict_format() {
    let (_, help, _) = run(&["convert", "--help"], b"");
    let strict = help.get(help.find("--strict[").expect("--strict")..).expect("--strict");
    let paragraph = strict.split("\n\n").next().unwrap_or_default();
    let strict_formats: Vec<&str> =
        tooladapter::formats::infos().filter(|f| f.holds_strict()).map(|f| f.name).collect();
    assert!(strict_formats.contains(&"bedrock"), "{strict_formats:?}");
    for name in strict_formats {
        assert!(paragraph.contains(name), "{name} missing from: {paragraph}");
    }
}

/// src/lib.rs, README, Cargo.toml, docs/index.md and python/README.md open with the formats:
/// every built-in format is named in each (they left Bedrock and A2A out).
#[test]
fn the_opening_lines_name_every_format() {
    // How the prose names each built-in format; a format added to `builtins()` without a
    // name here fails the test, so its name gets into the opening lines too.
    let prose = |format: &str| -> &'static str {
        match format {
            "mcp" => "MCP",
            "openai" | "openai-responses" => "OpenAI",
            "anthropic" => "Anthropic",
            "bedrock" => "Bedrock",
            "gemini" | "gemini-json" => "Gemini",
            "langchain" => "LangChain",
            "openapi" => "OpenAPI",
            "a2a" => "A2A",
            "mistral" => "Mistral",
            "ollama" => "Ollama",
            "xai" => "xAI",
            "cohere" => "Cohere",
            "vertex" => "Vertex AI",
            other => panic!("no prose name for the format {other}: add it here and to the docs"),
        }
    };
    let first_paragraph = |text: &str, start: &str| -> String {
        let at = text.find(start).unwrap_or_else(|| panic!("{start:?}"));
        text.get(at..).unwrap_or_default().split("\n\n").next().unwrap_or_default().to_owned()
    };
    let places = [
        ("src/lib.rs", first_paragraph(&doc("src/lib.rs"), "//! tooladapter converts")),
        ("README.md", first_paragraph(&doc("README.md"), "Convert LLM tool definitions")),
        ("Cargo.toml", first_paragraph(&doc("Cargo.toml"), "description =")),
        ("docs/index.md", first_paragraph(&doc("docs/index.md"), "- [Formats]")),
        ("python/README.md", first_paragraph(&doc("python/README.md"), "Convert LLM tool")),
    ];
    for a in tooladapter::formats::builtins() {
        for (place, text) in &places {
            let name = prose(a.name());
            assert!(text.contains(name), "{place} does not name {name} ({}): {text}", a.name());
        }
    }
}

/// README: "the writer obeys the table, so what it writes is valid by construction, and
/// `tooladapter check --to T INPUT` verifies against the same table"; "every profile set's
/// output passes it". Run on one tool using what the tables change, to every target, both
/// profile sets.
#[test]
fn readme_what_the_writer_writes_passes_check() {
    let tool = br#"{"name":"find","description":"Find.","inputSchema":{"type":"object","properties":{"q":{"type":"string","format":"email","pattern":"^a"},"n":{"type":["integer","null"],"exclusiveMinimum":0},"o":{"type":"object"},"u":{"anyOf":[{"type":"string"},{"type":"integer"}],"description":"U"}},"additionalProperties":false}}"#;
    let targets = tooladapter::formats::builtins().iter().filter(|f| f.info().writes);
    for to in targets.map(|f| f.name()) {
        for profile in ["default", "toolfoundation"] {
            let args =
                ["convert", "--from", "mcp", "--to", to, "--profile", profile, "--report", "none"];
            let (code, out, err) = run(&args, tool);
            if err.contains("has no entry for the format") {
                // A profile set with no entry for the format: refused, nothing written.
                assert!(code != 0 && out.is_empty(), "{to} {profile}: {err}");
                continue;
            }
            assert_eq!(code, 0, "{to} {profile}: {err}");
            let (code, found, err) = run(&["check", "--to", to], out.as_bytes());
            assert_eq!(code, 0, "{to} {profile}: {found}{err}");
        }
    }
}

/// README: "A conversion into a provider's format from that same format changes only what the
/// provider refuses … (input the provider accepts comes out byte-identical: a request body, a
/// Responses `defer_loading`, a Gemini `parametersJsonSchema` declaration are kept as they
/// came)". Keys in the alphabetical order recorded requests have.
#[test]
fn readme_accepted_input_comes_out_byte_identical() {
    let cases: [(&str, &str); 3] = [
        (
            "openai-responses",
            r#"{"input":"hi","model":"gpt","tools":[{"defer_loading":true,"description":"Look up a rate.","name":"rate","parameters":{"additionalProperties":false,"properties":{"pair":{"type":"string"}},"required":["pair"],"type":"object"},"strict":true,"type":"function"},{"type":"tool_search"}]}"#,
        ),
        (
            "gemini",
            r##"{"contents":[],"tools":[{"functionDeclarations":[{"description":"d","name":"f","parametersJsonSchema":{"$defs":{"P":{"properties":{"c":{"type":"string"}},"type":"object"}},"additionalProperties":false,"properties":{"p":{"$ref":"#/$defs/P"},"u":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"U"}},"type":"object"}}]},{"googleSearch":{}}]}"##,
        ),
        (
            "anthropic",
            r#"{"max_tokens":64,"messages":[],"model":"claude","tools":[{"cache_control":{"type":"ephemeral"},"defer_loading":true,"description":"d","input_schema":{"properties":{"a":{"type":"string"}},"type":"object"},"name":"t"}]}"#,
        ),
    ];
    for (format, input) in cases {
        let (code, found, err) = run(&["check", "--to", format], input.as_bytes());
        assert_eq!(code, 0, "{format}: accepted: {found}{err}");
        let args = ["convert", "--from", format, "--to", format, "--deny-loss"];
        let (code, out, err) = run(&args, input.as_bytes());
        assert_eq!((code, out.trim_end(), err.as_str()), (0, input, ""), "{format}");
    }
}
