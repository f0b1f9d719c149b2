//! The command line's interfaces (issue 23): flags read the library's named types (help lists
//! their values, any case, an import-only target is a usage error), JSON report entries are
//! traced to their source and their tool's place, the text report ends with a summary and
//! `--report-level` filters it, `--deny-loss` writes nothing when it exits 3, `check` reads
//! NDJSON and folders, and a merged `--map-out` refuses names two inputs map back differently.
//! Every fixture is written here.

use std::path::PathBuf;

#[path = "common/bin.rs"]
mod bin;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let (code, out, err) = bin::run(args, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// A folder under the system temp dir, empty, unique to this test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tooladapter-if-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// A tool with a title (metadata OpenAI drops: info) and a `format` (kept by OpenAI).
const TITLED: &str = r#"{"name":"t","title":"T","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;

/// Closed object with a property: Gemini opens it (a warning that widens).
const CLOSED: &str = r#"{"name":"w","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}"#;

#[test]
fn help_lists_the_values_of_every_named_flag() {
    let (code, out, _) = run(&["convert", "--help"], b"");
    assert_eq!(code, 0);
    let line = |flag: &str| {
        // The flag's own paragraph (not the usage line).
        let at = out.find(&format!("\n      {flag}")).unwrap_or_else(|| panic!("{flag} in {out}"));
        out.get(at + 1..).and_then(|rest| rest.split("\n      --").next()).unwrap_or_default()
    };
    assert!(line("--from <FORMAT>").contains("possible values: mcp, openai"), "{out}");
    assert!(line("--from <FORMAT>").contains("openapi"), "{out}");
    assert!(!line("--to <FORMAT>").contains("openapi"), "an import-only format is no target");
    assert!(line("--strict").contains("possible values: on, require"), "{out}");
    assert!(line("--profile").contains("possible values: default, toolfoundation"), "{out}");
    assert!(
        line("--deny-loss").contains("possible values: any, arguments, widens, narrows"),
        "{out}"
    );
    assert!(line("--report-level").contains("possible values: info, warning, error"), "{out}");
    let (_, out, _) = run(&["check", "--help"], b"");
    assert!(out.contains("--ndjson"), "{out}");
}

#[test]
fn formats_are_read_in_any_case_and_unknown_or_import_only_targets_are_usage_errors() {
    let (code, out, err) = run(&["convert", "--from", "MCP", "--to", "OpenAI"], TITLED.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(r#"{"type":"function""#), "{out}");
    let (code, _, err) =
        run(&["check", "--from", "Mcp", "--to", "OPENAI", "--strict=REQUIRE"], TITLED.as_bytes());
    assert_eq!(code, 0, "{err}");
    // An import-only format as a target: exit 2, saying why and listing the targets.
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openapi"], TITLED.as_bytes());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("import only"), "{err}");
    assert!(err.contains("expected one of: mcp, openai"), "{err}");
    assert!(
        !err.contains(
            "openai-responses, anthropic, bedrock, gemini, gemini-json, langchain, openapi"
        )
    );
    let (code, _, err) = run(&["check", "--to", "openapi"], TITLED.as_bytes());
    assert_eq!(code, 2, "{err}");
    // An unknown one: exit 2 with the names.
    let (code, _, err) = run(&["convert", "--from", "gpt", "--to", "openai"], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r#"unknown format "gpt"; expected one of: mcp, openai"#), "{err}");
}

/// The JSON lines of a report, parsed.
fn json_lines(err: &str) -> Vec<serde_json::Value> {
    err.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn json_entries_name_their_source_line_and_tool_index() {
    // stdin, one catalog: `source` is `-`, `index` the tool's place (a tool left out counts).
    let catalog =
        format!(r#"[{TITLED},{{"inputSchema":{{}}}},{}]"#, TITLED.replace(r#""t""#, r#""u""#));
    let args = ["convert", "--from", "mcp", "--to", "openai", "--report", "json"];
    let (code, _, err) = run(&args, catalog.as_bytes());
    assert_eq!(code, 1, "the nameless tool is left out: {err}");
    let entries = json_lines(&err);
    let placed: Vec<(&str, u64)> = entries
        .iter()
        .map(|e| (e["tool"].as_str().unwrap_or(""), e["index"].as_u64().expect("index")))
        .collect();
    assert!(placed.contains(&("t", 0)) && placed.contains(&("u", 2)), "{err}");
    assert!(placed.iter().any(|(_, i)| *i == 1), "the tool left out is placed: {err}");
    assert!(entries.iter().all(|e| e["source"] == "-" && e.get("line").is_none()), "{err}");

    // NDJSON: the stream and the line, each line's tools numbered from 0.
    let dir = temp_dir("ndjson");
    let stream = dir.join("tools.ndjson");
    std::fs::write(&stream, format!("{TITLED}\n\n[{TITLED},{CLOSED}]\n")).expect("write");
    let args = [
        "convert",
        "--from",
        "mcp",
        "--to",
        "gemini",
        "--report",
        "json",
        "--ndjson",
        path(&stream),
    ];
    let (code, _, err) = run(&args, b"");
    assert_eq!(code, 0, "{err}");
    let traced: Vec<(u64, Option<u64>, &str)> = json_lines(&err)
        .iter()
        .map(|e| {
            assert_eq!(e["source"], path(&stream));
            (
                e["line"].as_u64().expect("line"),
                e["index"].as_u64(),
                e["code"].as_str().unwrap_or(""),
            )
        })
        .map(|(l, i, c)| (l, i, if c.is_empty() { "" } else { "x" }))
        .collect();
    assert!(traced.contains(&(1, Some(0), "x")), "{err}");
    assert!(traced.contains(&(3, Some(1), "x")), "the second tool of line 3: {err}");

    // A folder: each file by its path.
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).expect("dir");
    std::fs::write(folder.join("a.json"), TITLED).expect("write");
    let out = dir.join("out");
    let args = ["convert", "--from", "mcp", "--to", "openai", "--report", "json", "-o", path(&out)];
    let (code, _, err) = run(&[&args[..], &[path(&folder)]].concat(), b"");
    assert_eq!(code, 0, "{err}");
    let entries = json_lines(&err);
    assert!(!entries.is_empty());
    let file = folder.join("a.json");
    assert!(entries.iter().all(|e| e["source"] == path(&file) && e["index"] == 0), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_text_report_ends_with_a_summary_and_report_level_filters_it() {
    let catalog = format!(r#"[{TITLED},{CLOSED},{{"inputSchema":{{}}}}]"#);
    let args = ["convert", "--from", "mcp", "--to", "gemini"];
    let (code, _, err) = run(&args, catalog.as_bytes());
    assert_eq!(code, 1, "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert_eq!(last, "summary: 2 tools written, 1 left out; 1 error, 1 warning, 1 info", "{err}");
    assert!(err.lines().any(|l| l.starts_with("info[")), "{err}");
    // `--report-level warning` hides the info entry; the summary and exit code still count it.
    let (code, _, err) =
        run(&[&args[..], &["--report-level", "WARNING"]].concat(), catalog.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(!err.lines().any(|l| l.starts_with("info[")), "{err}");
    assert!(err.lines().any(|l| l.starts_with("warning[")), "{err}");
    assert!(err.ends_with("1 error, 1 warning, 1 info\n"), "{err}");
    let (_, _, err) = run(&[&args[..], &["--report-level", "error"]].concat(), catalog.as_bytes());
    assert!(!err.lines().any(|l| l.starts_with("warning[")), "{err}");
    assert!(err.lines().any(|l| l.starts_with("error[")), "{err}");
    // A run that reports nothing prints nothing.
    let clean =
        r#"{"name":"c","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;
    let (code, _, err) = run(&["convert", "--from", "mcp", "--to", "mcp"], clean.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, _, err) = run(&["convert", "--from", "mcp", "--to", "x", "--report-level", "all"], b"");
    assert!(err.contains("expected one of"), "{err}");
}

#[test]
fn a_denied_loss_writes_no_output_file() {
    let dir = temp_dir("deny");
    let out = dir.join("out.json");
    std::fs::write(&out, "previous").expect("write");
    let map = dir.join("map.json");
    let report = dir.join("report.txt");
    let args = [
        "convert",
        "--from",
        "mcp",
        "--to",
        "gemini",
        "--deny-loss",
        "-o",
        path(&out),
        "--map-out",
        path(&map),
        "--report-file",
        path(&report),
    ];
    let (code, stdout, err) = run(&args, CLOSED.as_bytes());
    assert_eq!(code, 3, "{err}");
    assert_eq!(stdout, "");
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), "previous");
    assert!(!map.exists(), "no map for a denied run");
    // The report says what was denied.
    assert!(std::fs::read_to_string(&report).expect("report").contains("warning[widens]"));
    // NDJSON to a file: the file is left as it was, though other lines converted (a line
    // that lost nothing: a `title` Gemini drops is a loss `--deny-loss` denies too).
    let clean =
        r#"{"name":"c","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;
    let stream = format!("{clean}\n{CLOSED}\n");
    let ndjson = [&args[..6], &["--ndjson", "-o", path(&out)]].concat();
    let (code, _, err) = run(&ndjson, stream.as_bytes());
    assert_eq!(code, 3, "{err}");
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), "previous");
    // NDJSON to stdout: the denied line is not printed, the others are.
    let (code, stdout, _) = run(&args[..6], CLOSED.as_bytes());
    assert_eq!((code, stdout.lines().count()), (3, 0), "a single input");
    let (code, stdout, _) = run(&[&args[..6], &["--ndjson"]].concat(), stream.as_bytes());
    assert_eq!((code, stdout.lines().count()), (3, 1), "{stdout}");
    // No temporary file is left beside the output.
    let left: Vec<_> =
        std::fs::read_dir(&dir).expect("dir").flatten().map(|e| e.file_name()).collect();
    assert_eq!(left.len(), 2, "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_reads_ndjson_and_folders() {
    // A name OpenAI refuses (a space): a finding; a clean tool: none.
    let bad = r#"{"type":"function","function":{"name":"bad name","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}}"#;
    let good = r#"{"type":"function","function":{"name":"good","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}}"#;
    let args = ["check", "--to", "openai", "--ndjson"];
    let (code, out, err) = run(&args, format!("{good}\n{bad}\n").as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("line 2: error["), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let (code, out, _) = run(&args, format!("{good}\n{good}\n").as_bytes());
    assert_eq!((code, out.as_str()), (0, "ok: openai would accept every tool\n"));
    let (code, out, _) =
        run(&[&args[..], &["--report", "json"]].concat(), format!("{bad}\n").as_bytes());
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(
        (v["source"].as_str(), v["line"].as_u64(), v["index"].as_u64()),
        (Some("-"), Some(1), Some(0))
    );
    // Without --ndjson, a stream gets the hint.
    let (code, _, err) = run(&args[..3], format!("{good}\n{bad}\n").as_bytes());
    assert_eq!(code, 1);
    assert!(err.contains("add --ndjson"), "{err}");

    // A folder: each file checked alone, findings named by file.
    let dir = temp_dir("check");
    std::fs::write(dir.join("a.json"), good).expect("write");
    std::fs::write(dir.join("b.json"), bad).expect("write");
    let (code, out, err) = run(&["check", "--to", "openai", path(&dir)], b"");
    assert_eq!(code, 1, "{err}");
    let b = dir.join("b.json");
    assert!(out.starts_with(&format!("{}: error[", b.display())), "{out}");
    std::fs::remove_file(&b).expect("rm");
    let (code, out, err) = run(&["check", "--to", "openai", path(&dir)], b"");
    assert_eq!((code, out.as_str()), (0, "ok: openai would accept every tool\n"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merged_map_refuses_one_name_mapped_back_two_ways() {
    let dir = temp_dir("maps");
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).expect("dir");
    let tool = |name: &str| {
        format!(
            r#"{{"name":"{name}","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string"}}}}}}}}"#
        )
    };
    std::fs::write(folder.join("1.json"), tool("same.name")).expect("write");
    std::fs::write(folder.join("2.json"), tool("same:name")).expect("write");
    let out = dir.join("out");
    let map = dir.join("map.json");
    let args =
        ["convert", "--from", "mcp", "--to", "openai", "-o", path(&out), "--map-out", path(&map)];
    let (code, _, err) = run(&[&args[..], &[path(&folder)]].concat(), b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("same_name") && err.contains("same.name") && err.contains("same:name"),
        "{err}"
    );
    assert!(err.contains("1.json") && err.contains("2.json"), "{err}");
    assert!(!map.exists(), "no ambiguous map is written");
    // Two inputs renaming alike the same way share a map.
    std::fs::write(folder.join("2.json"), tool("same.name")).expect("write");
    let (code, _, err) = run(&[&args[..], &[path(&folder)]].concat(), b"");
    assert_eq!(code, 0, "{err}");
    assert!(map.exists());
    // A map merged by hand with the clash: `unmap` refuses it rather than pick one.
    let ambiguous = r#"{"from":"mcp","to":"openai","tools":[{"name":"same_name","source_name":"same.name"},{"name":"same_name","source_name":"same:name"}]}"#;
    std::fs::write(&map, ambiguous).expect("write");
    let (code, out, err) =
        run(&["unmap", "--map", path(&map)], br#"{"name":"same_name","arguments":{}}"#);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("ambiguous"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
