//! The binary never destroys what it reads, never reads more than the input limit, and says
//! every write error (issue 22, defects 8–12): outputs that name an input are refused, outputs
//! are replaced only by a run that succeeded, devices and streams are capped or refused, and
//! `unmap` writes numbers back as they came.

#![cfg(unix)]

#[path = "common/bin.rs"]
mod bin;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bin::run;

/// A tool with report entries for OpenAI strict mode, and a number no `f64` holds.
const TOOL: &str = r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"integer","maximum":123456789012345678901234567890}}}}"#;

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tooladapter-safety-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The names in `dir`, sorted: what a run left behind (no temporary files).
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn convert(extra: &[&str]) -> (i32, Vec<u8>, String) {
    let args = [&["convert", "--from", "mcp", "--to", "openai"][..], extra].concat();
    run(&args, b"")
}

/// Defect 8: an output naming the input (the same file, through a link, the input folder, a
/// `.json` inside it, stdout appended to it) is refused with exit 2 and the input is intact.
#[test]
fn an_output_over_the_input_is_refused() {
    let dir = scratch("over");
    let f = dir.join("f.json");
    std::fs::write(&f, TOOL).expect("write");
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&f, &link).expect("symlink");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--ndjson", "-o", s(&f), s(&f)],
        vec!["-o", s(&f), s(&f)],
        vec!["--report-file", s(&f), s(&f)],
        vec!["--strict", "--map-out", s(&f), s(&f)],
        vec!["-o", s(&link), s(&f)],
        vec!["-o", s(&dir), s(&dir)],
        vec!["--report-file", s(&link), s(&dir)],
    ];
    for args in cases {
        let (code, _, err) = convert(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("would destroy the input") || err.contains("read as input"), "{err}");
        assert_eq!(std::fs::read_to_string(&f).expect("input"), TOOL, "{args:?}");
    }
    // A new .json file at the input folder's top level would be read as input.
    let (code, _, err) = convert(&["--report-file", s(&dir.join("r.json")), s(&dir)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("inside the input folder"), "{err}");
    // Stdout appended to the input file (`>> f`), which a stream would read back forever.
    let out = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["convert", "--from", "mcp", "--to", "openai", "--ndjson", s(&f)])
        .stdout(std::fs::OpenOptions::new().append(true).open(&f).expect("append"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&f).expect("input"), TOOL);
    assert_eq!(listing(&dir), ["f.json", "link.json"]);
    // An output beside the input, or in a folder below the input folder, is fine.
    let (code, _, err) = convert(&["-o", s(&dir.join("out")), s(&dir)]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("out/f.json").is_file());
}

/// Outputs are replaced only by a run that wrote them whole: a failed run leaves the previous
/// file as it was, and no temporary file behind.
#[test]
fn a_failed_run_leaves_the_previous_output() {
    let dir = scratch("atomic");
    let input = dir.join("in.json");
    let out = dir.join("out.json");
    let report = dir.join("report.txt");
    std::fs::write(&input, "{not json").expect("write");
    std::fs::write(&out, "previous").expect("write");
    std::fs::write(&report, "previous report").expect("write");
    let (code, _, err) =
        convert(&["-o", s(&out), "--report-file", s(&report), "--strict", s(&input)]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out).expect("out"), "previous");
    assert_eq!(std::fs::read_to_string(&report).expect("report"), "previous report");
    assert_eq!(listing(&dir), ["in.json", "out.json", "report.txt"]);
    // A run that succeeds replaces both, keeping the old file's permissions.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    std::fs::write(&input, TOOL).expect("write");
    let (code, _, err) =
        convert(&["-o", s(&out), "--report-file", s(&report), "--strict", s(&input)]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).expect("out").contains("\"strict\":true"));
    assert!(std::fs::read_to_string(&report).expect("report").contains("object-closed"));
    let mode = std::fs::metadata(&out).expect("out").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(listing(&dir), ["in.json", "out.json", "report.txt"]);
}

/// Defect 9: a report that cannot be written is an error (exit 1) with a message, not lost.
#[test]
fn a_report_file_that_cannot_be_written_is_an_error() {
    let dir = scratch("full");
    let f = dir.join("t.json");
    std::fs::write(&f, TOOL).expect("write");
    let (code, out, err) = convert(&["--strict", "--report-file", "/dev/full", s(&f)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("/dev/full") && err.contains("No space left"), "{err}");
    assert!(!out.is_empty(), "the conversion itself went to stdout");
    // The same through a folder batch and a stream.
    let (code, _, err) = convert(&["--strict", "--report-file", "/dev/full", s(&dir)]);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = convert(&["--ndjson", "--strict", "--report-file", "/dev/full", s(&f)]);
    assert_eq!(code, 1, "{err}");
}

fn full() -> std::fs::File {
    std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full")
}

/// Defect 10: a full stdout or stderr is a write error (exit 1), never a panic (101); a closed
/// pipe ends the run quietly with exit 0.
#[test]
fn write_errors_exit_1_and_a_closed_pipe_exits_0() {
    let dir = scratch("writes");
    let f = dir.join("t.json");
    std::fs::write(&f, TOOL).expect("write");
    let status = |args: &[&str], stdout: Stdio, stderr: Stdio| {
        Command::new(env!("CARGO_BIN_EXE_tooladapter"))
            .args(args)
            .stdout(stdout)
            .stderr(stderr)
            .status()
            .expect("runs")
            .code()
    };
    let convert = ["convert", "--from", "mcp", "--to", "openai", "--strict", s(&f)];
    assert_eq!(status(&convert, Stdio::null(), full().into()), Some(1), "report to a full stderr");
    assert_eq!(status(&convert, full().into(), Stdio::null()), Some(1), "output to a full stdout");
    let unmap_map = dir.join("map.json");
    let (code, _, err) = run(
        &[
            "convert",
            "--from",
            "mcp",
            "--to",
            "openai",
            "--strict",
            "--map-out",
            s(&unmap_map),
            s(&f),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let mut unmap = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["unmap", "--map", s(&unmap_map)])
        .stdin(Stdio::piped())
        .stdout(full())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    unmap.stdin.take().expect("stdin").write_all(br#"{"name":"t","arguments":{}}"#).expect("call");
    assert_eq!(unmap.wait().expect("wait").code(), Some(1), "unmap to a full stdout");
    // A reader that stops early (`| head -1`) ends the run quietly: exit 0, nothing said.
    let lines = format!("{TOOL}\n").repeat(20_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["convert", "--from", "mcp", "--to", "openai", "--ndjson", "--jobs", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(lines.as_bytes());
    });
    let mut first = [0u8; 64];
    child.stdout.take().expect("stdout").read_exact(&mut first).expect("some output");
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// Defect 11: `unmap` writes numbers back exactly as the calls held them, in arguments given
/// as an object or as a JSON string.
#[test]
fn unmap_keeps_numbers_exactly() {
    let dir = scratch("numbers");
    let map = dir.join("map.json");
    let f = dir.join("t.json");
    std::fs::write(&f, TOOL).expect("write");
    let (code, _, err) = run(
        &["convert", "--from", "mcp", "--to", "openai", "--strict", "--map-out", s(&map), s(&f)],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let args =
        r#"{"a":123456789012345678901234567890,"b":1.0000000000000000001,"c":[1E5,-0,2.50,7]}"#;
    let object = format!(r#"{{"name":"t","arguments":{args}}}"#);
    let string = format!(
        r#"{{"id":"c1","function":{{"name":"t","arguments":{}}}}}"#,
        serde_json::to_string(args).expect("string")
    );
    for (input, want) in [
        (object.clone(), format!("{{\"name\":\"t\",\"arguments\":{args}}}\n")),
        (string, format!("{{\"id\":\"c1\",\"name\":\"t\",\"arguments\":{args}}}\n")),
        (format!("[{object}]"), format!("[{{\"name\":\"t\",\"arguments\":{args}}}]\n")),
        (
            format!("{object}\n{object}\n"),
            format!("{{\"name\":\"t\",\"arguments\":{args}}}\n").repeat(2),
        ),
    ] {
        let (code, out, err) = run(&["unmap", "--map", s(&map)], input.as_bytes());
        assert_eq!(code, 0, "{input}: {err}");
        assert_eq!(String::from_utf8_lossy(&out), want, "{input}");
    }
    // The strict widening is still undone: the null `a` is dropped.
    let (code, out, err) =
        run(&["unmap", "--map", s(&map)], br#"{"name":"t","arguments":{"a":null,"b":1.50}}"#);
    assert_eq!(code, 0, "{err}");
    assert_eq!(String::from_utf8_lossy(&out), "{\"name\":\"t\",\"arguments\":{\"b\":1.50}}\n");
}

/// Defect 12: a folder with nothing to convert is an error naming it, unless `--allow-empty`.
#[test]
fn an_empty_folder_is_an_error_unless_allowed() {
    let dir = scratch("empty");
    std::fs::write(dir.join("notes.txt"), "not a tool").expect("write");
    let (code, out, err) = convert(&[s(&dir)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(s(&dir)) && err.contains("no .json file"), "{err}");
    assert!(out.is_empty());
    let (code, _, err) = convert(&["--allow-empty", s(&dir)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
}

/// Devices are refused before reading (named on the command line: exit 2; a folder entry
/// linking to one: named and skipped, exit 1), for `convert`, `check` and `unmap`'s map.
#[test]
fn devices_are_refused_before_reading() {
    let start = std::time::Instant::now();
    for args in [
        &["convert", "--from", "mcp", "--to", "openai", "/dev/zero"][..],
        &["convert", "--from", "mcp", "--to", "openai", "--ndjson", "/dev/zero"],
        &["check", "--to", "openai", "/dev/zero"],
        &["unmap", "--map", "/dev/zero"],
    ] {
        let (code, _, err) = run(args, b"");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("/dev/zero: not a regular file (a character device)"), "{err}");
    }
    let dir = scratch("devices");
    std::fs::write(dir.join("a.json"), TOOL).expect("write");
    std::os::unix::fs::symlink("/dev/zero", dir.join("z.json")).expect("symlink");
    let (code, out, err) = convert(&[s(&dir)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("z.json: cannot read: not a regular file"), "{err}");
    assert!(String::from_utf8_lossy(&out).contains("\"name\":\"t\""), "a.json is converted");
    assert!(start.elapsed().as_secs() < 20, "refused without reading");
}

/// Stdin past the input limit is refused after the limit, not read to its end: the writer
/// offers twice the limit and is cut off.
#[test]
fn stdin_past_the_limit_is_refused() {
    let limit = tooladapter::Limits::default().max_input_bytes;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["convert", "--from", "mcp", "--to", "openai"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        let mut sent = 0;
        while sent < 2 * limit {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().expect("wait");
    let sent = writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("stdin: input too large: more than the limit of {limit} bytes")),
        "{err}"
    );
    assert!(sent < 2 * limit, "the run stopped reading at the limit ({sent} bytes sent)");
}
