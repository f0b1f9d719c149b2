//! `--report json` is JSON throughout: every failure kind the command line meets (a broken
//! NDJSON line, a bad or unreadable file in a folder, an input that cannot be read, usage
//! errors found after the flags are parsed, a tool left out, a denied loss, a map that cannot
//! be written), for `convert` and `check`, with the report on stderr or in a file: every line
//! of stderr (and of the report file) is a JSON object, each error one of the stable shape
//! `{"severity":"error","error":<kind>,"message","source","line"?,"pointer"?,"tool"?}`, as
//! many as the text form's `error:` lines, and the exit code is the text form's.

#![cfg(unix)]

#[path = "common/bin.rs"]
mod bin;

use std::path::{Path, PathBuf};

use bin::run;
use serde_json::Value;

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tooladapter-report-json-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

const GOOD: &str =
    r#"{"name":"a","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}"#;
const WRONG: &str = r#"{"name":"b","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":"q"}}"#;
const CLOSED: &str = r#"{"name":"w","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;

/// A failure to run: its name, the arguments after the command, and stdin.
struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
}

/// Every failure kind, as arguments to `convert` or `check` (`--to` given; `--from mcp` for
/// `convert`, and `check` reads MCP with `--from mcp`).
fn cases(dir: &Path) -> Vec<Case> {
    let s = |v: &[&str]| v.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
    let ndjson = dir.join("lines.ndjson");
    std::fs::write(&ndjson, format!("{GOOD}\n{{\"name\":\n{WRONG}\n\n{GOOD}\n")).expect("write");
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(folder.join("a.json"), GOOD).expect("write");
    std::fs::write(folder.join("b.json"), "{\"name\":").expect("write");
    std::fs::write(folder.join("c.json"), WRONG).expect("write");
    std::os::unix::fs::symlink("/dev/zero", folder.join("d.json")).expect("symlink");
    let clash = dir.join("clash");
    std::fs::create_dir_all(&clash).expect("folder");
    for (file, name) in [("1.json", "same.name"), ("2.json", "same:name")] {
        let tool = GOOD.replace("\"a\"", &format!("\"{name}\""));
        std::fs::write(clash.join(file), tool).expect("write");
    }
    let single = dir.join("in.json");
    std::fs::write(&single, GOOD).expect("write");
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &GOOD[..30]).expect("write");
    let map = dir.join("map.json");
    vec![
        Case { name: "broken NDJSON line", args: s(&["--ndjson", path(&ndjson)]), stdin: vec![] },
        Case { name: "bad files in a folder", args: s(&[path(&folder)]), stdin: vec![] },
        Case { name: "no such input", args: s(&[path(&dir.join("missing.json"))]), stdin: vec![] },
        Case { name: "a device as input", args: s(&["/dev/zero"]), stdin: vec![] },
        Case { name: "cut-off input", args: s(&[path(&cut)]), stdin: vec![] },
        Case { name: "not UTF-8", args: s(&["-"]), stdin: b"{\"name\":\"\xff\"}".to_vec() },
        Case { name: "a wrong keyword value", args: s(&[]), stdin: WRONG.as_bytes().to_vec() },
        Case {
            name: "a tool left out of a catalog",
            args: s(&[]),
            stdin: format!("[{GOOD},{WRONG}]").into_bytes(),
        },
        Case { name: "strict for a target without", args: s(&["--strict"]), stdin: vec![] },
        Case {
            name: "strict under toolfoundation",
            args: s(&["--strict", "--profile", "toolfoundation"]),
            stdin: vec![],
        },
        Case {
            name: "a map that cannot be written",
            args: s(&["--map-out", path(&map), path(&clash)]),
            stdin: vec![],
        },
        Case {
            name: "output over the input",
            args: s(&["-o", path(&single), path(&single)]),
            stdin: vec![],
        },
        Case {
            name: "operations without openapi",
            args: s(&["--operations", "x*"]),
            stdin: vec![],
        },
        Case {
            name: "a denied loss",
            args: s(&["--deny-loss"]),
            stdin: CLOSED.as_bytes().to_vec(),
        },
    ]
}

/// Every line of `text` is a JSON object; the error lines among them.
#[track_caller]
fn json_lines(text: &str, what: &str) -> Vec<Value> {
    let mut errors = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{what}: not a JSON line ({e}): {line}\n{text}"));
        assert!(v.is_object() && v["severity"].is_string(), "{what}: {line}");
        if v.get("error").is_some() {
            for key in ["error", "message", "source"] {
                assert!(v[key].is_string(), "{what}: no `{key}` in {line}");
            }
            assert_eq!(v["severity"], "error", "{what}: {line}");
            errors.push(v);
        }
    }
    errors
}

#[test]
fn every_line_is_json_under_report_json() {
    let dir = temp_dir("matrix");
    let mut errors_seen = 0;
    let cases = cases(&dir);
    for command in ["convert", "check"] {
        for case in &cases {
            // `check` has no output flags, no `--operations` and no denial.
            let convert_only = ["-o", "--map-out", "--operations", "--deny-loss"];
            if command == "check" && case.args.iter().any(|a| convert_only.contains(&a.as_str())) {
                continue;
            }
            let gemini = ["strict for a target without", "a denied loss"].contains(&case.name);
            let target = if gemini { "gemini" } else { "openai" };
            let base = [command, "--from", "mcp", "--to", target];
            let what = format!("{command} {}", case.name);
            let text_args: Vec<&str> =
                base.iter().copied().chain(case.args.iter().map(String::as_str)).collect();
            let (text_code, _, text_err) = run(&text_args, &case.stdin);
            let text_errors = text_err.lines().filter(|l| l.starts_with("error: ")).count();
            assert!(text_code != 0, "{what}: the case fails: {text_err}");
            let mut json_args = text_args.clone();
            json_args.extend(["--report", "json"]);
            let (code, stdout, err) = run(&json_args, &case.stdin);
            assert_eq!(code, text_code, "{what}: {err}");
            let errors = json_lines(&err, &what);
            assert_eq!(errors.len(), text_errors, "{what}: {err} against {text_err}");
            errors_seen += errors.len();
            if command == "check" {
                json_lines(&String::from_utf8_lossy(&stdout), &what);
            }
            if command == "convert" {
                // The report in a file: every line of it JSON too, and stderr too.
                let report = dir.join("report.jsonl");
                let _ = std::fs::remove_file(&report);
                let mut args = json_args.clone();
                args.extend(["--report-file", path(&report)]);
                let (code, _, err) = run(&args, &case.stdin);
                assert_eq!(code, text_code, "{what} --report-file: {err}");
                assert_eq!(json_lines(&err, &what).len(), text_errors, "{what}: {err}");
                if let Ok(text) = std::fs::read_to_string(&report) {
                    assert!(json_lines(&text, &what).is_empty(), "{what}: {text}");
                }
            }
        }
    }
    assert!(errors_seen >= 20, "{errors_seen}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The error lines say where: the NDJSON line and the folder's file as `source`/`line`, the
/// library's error kind, pointer and tool.
#[test]
fn error_lines_name_their_place() {
    let dir = temp_dir("places");
    let cases = cases(&dir);
    let ndjson = cases.first().expect("ndjson case");
    let mut args = vec!["convert", "--from", "mcp", "--to", "openai", "--report", "json"];
    args.extend(ndjson.args.iter().map(String::as_str));
    let (_, _, err) = run(&args, b"");
    let errors = json_lines(&err, "ndjson");
    let places: Vec<(Value, Value, Value)> = errors
        .iter()
        .map(|e| (e["error"].clone(), e["line"].clone(), e["pointer"].clone()))
        .collect();
    assert_eq!(
        places,
        [
            ("json".into(), 2.into(), "".into()),
            ("keyword-value".into(), 3.into(), "/inputSchema/required".into())
        ]
    );
    assert!(
        errors.iter().all(|e| e["source"].as_str().is_some_and(|s| s.ends_with("lines.ndjson")))
    );
    assert_eq!(errors.get(1).map(|e| e["tool"].clone()), Some("b".into()));
    let folder = cases.get(1).expect("folder case");
    let mut args = vec!["convert", "--from", "mcp", "--to", "openai", "--report", "json"];
    args.extend(folder.args.iter().map(String::as_str));
    let (_, _, err) = run(&args, b"");
    let files: Vec<String> = json_lines(&err, "folder")
        .iter()
        .map(|e| {
            let source = e["source"].as_str().unwrap_or_default();
            format!(
                "{} {}",
                Path::new(source).file_name().and_then(|n| n.to_str()).unwrap_or_default(),
                e["error"]
            )
        })
        .collect();
    assert_eq!(files, ["b.json \"json\"", "c.json \"keyword-value\"", "d.json \"input\""]);
    let _ = std::fs::remove_dir_all(&dir);
}
