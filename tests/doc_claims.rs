//! What the docs say a command prints or exits with, run (issue 23, item 6). Each test names
//! the doc and the claim; a change that makes a doc wrong fails here.

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
