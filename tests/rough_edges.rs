//! The smaller findings of issue 31, one test each: a folder's `F.JSON` is read; a cut-off
//! input and a byte that is not UTF-8 are placed where they are; an object of a wrong shape
//! says where and what it misses; `Converter` and `Registry` take their formats alike.

#![cfg(unix)]

#[path = "common/bin.rs"]
mod bin;

use bin::run;

const TOOL: &str =
    r#"{"name":"a","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}"#;

/// A folder's files are those ending in `.json` in any case: `F.JSON` is converted, as its
/// lower-case twin is, and a file of another extension is not.
#[test]
fn a_folders_upper_case_json_files_are_read() {
    let dir = std::env::temp_dir().join(format!("tooladapter-rough-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("F.JSON"), TOOL).expect("write");
    std::fs::write(dir.join("g.Json"), TOOL.replace("\"a\"", "\"b\"")).expect("write");
    std::fs::write(dir.join("h.txt"), TOOL).expect("write");
    let folder = dir.to_str().expect("utf-8");
    let (code, out, err) = run(&["convert", "--from", "mcp", "--to", "openai", folder], b"");
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8_lossy(&out);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains(r#""name":"a""#) && out.contains(r#""name":"b""#), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
