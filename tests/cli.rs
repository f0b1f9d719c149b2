//! End-to-end runs of the `tooladapter` binary: outputs, reports and exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // A usage error exits before reading stdin; a broken pipe here is expected then.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
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

#[test]
fn json_report_has_the_eight_fields_and_deny_loss_exits_3() {
    let args = [
        "convert",
        "--from",
        "mcp",
        "--to",
        "openai",
        "--report",
        "json",
        "--deny-loss",
        "examples/data/catalog.mcp.json",
    ];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 3);
    assert!(out.starts_with('['), "output still written");
    for line in err.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json line");
        let keys: Vec<_> = v.as_object().expect("object").keys().cloned().collect();
        assert_eq!(
            keys,
            ["tool", "severity", "code", "feature", "pointer", "from", "to", "message"]
        );
    }
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
    assert!(
        out.starts_with("formats: anthropic, gemini, gemini-json, mcp, openai, openai-responses")
    );
    let row = out.lines().find(|l| l.starts_with("oneOf")).unwrap();
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["oneOf", "keep", "rewrite", "keep", "keep", "keep", "keep"]
    );
    assert!(out.contains("$ref"));
}
