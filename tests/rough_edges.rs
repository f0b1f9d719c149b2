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

/// A cut-off input is placed at its end (it was "line 1, column 1"), whichever way it is cut:
/// inside a string, after a key, inside an array; a control character inside a string at
/// itself. Every place is in the input as given (a byte order mark counted in the offset).
#[test]
fn a_cut_off_input_is_placed_at_its_end() {
    use tooladapter::{ErrorKind, Registry};
    let registry = Registry::default();
    let full = TOOL.as_bytes();
    for cut in 1..full.len() {
        let input = full.get(..cut).expect("prefix");
        let e = registry.convert(input, "mcp", "openai").expect_err("cut off");
        let ErrorKind::Json { offset, message, .. } = e.kind() else { panic!("{e}") };
        let end = input.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
        // Either the end of the input, or an earlier place the parser names itself (a key
        // without its colon, a number cut short), never the start of a document that opens.
        assert!(*offset == end || *offset > 0, "{cut}: {e}");
        if message.starts_with("unexpected end of input") {
            assert_eq!(*offset, end, "{cut}: {e}");
        }
    }
    let e = registry.convert(b"\xEF\xBB\xBF[{\"name\":\"a\"", "mcp", "openai").expect_err("cut");
    let ErrorKind::Json { offset, line, column, message } = e.kind() else { panic!("{e}") };
    assert_eq!((*offset, *line, *column), (15, 1, 13), "{e}");
    assert_eq!(message, "unexpected end of input: an object is not closed (2 open)");
    let e = registry.convert(b"{\"name\":\"a\tb\"}", "mcp", "openai").expect_err("tab");
    assert!(matches!(e.kind(), ErrorKind::Json { offset: 10, .. }), "{e}");
    let (code, _, err) = run(&["convert", "--from", "mcp", "--to", "openai"], b"{\"name\":\"ab");
    assert_eq!(code, 1);
    assert!(err.contains("line 1, column 12 (byte 11): unexpected end of input"), "{err}");
}

/// A byte that is not UTF-8 is placed: its offset, line and column.
#[test]
fn invalid_utf8_has_its_position() {
    use tooladapter::{ErrorKind, Registry};
    let input = b"{\"name\":\"a\",\n \"description\":\"caf\xe9\"}";
    let e = Registry::default().convert(input, "mcp", "openai").expect_err("latin-1");
    assert_eq!(e.kind(), &ErrorKind::InvalidUtf8 { offset: 32, line: 2, column: 20 }, "{e}");
    assert!(e.to_string().contains("invalid UTF-8 at line 2, column 20 (byte 32)"), "{e}");
}

/// Objects of a wrong shape say where and what they miss (they said only "missing required
/// member `name`", with no pointer): tools by name under a catalog key, a catalog one level
/// down, a list of tools under another name, an empty or unrelated object. None of them
/// suggests another `--from`.
#[test]
fn wrong_shapes_say_where_and_what() {
    use tooladapter::{ErrorKind, Registry};
    let registry = Registry::default();
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            r#"{"tools":{"get_weather":{"inputSchema":{}}}}"#,
            "/tools",
            "wrong-type",
            "an array of tools",
        ),
        (
            r#"{"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#,
            "/result",
            "missing-member",
            "`result` holds a `mcp` catalog",
        ),
        (
            r#"{"functions":[{"name":"a","parameters":{}}]}"#,
            "/functions",
            "missing-member",
            "`functions` holds a list of `openai`",
        ),
        ("{}", "", "missing-member", "tool names itself at `/name`; this object is empty"),
        (r#"{"foo":1,"bar":2}"#, "", "missing-member", "this object has `foo`, `bar`"),
    ];
    for from in ["mcp", "anthropic"] {
        for (input, pointer, kind, says) in cases {
            let e = registry.convert(input.as_bytes(), from, "openai").expect_err("refused");
            assert_eq!((e.pointer(), e.kind().name()), (pointer, kind), "{from} {input}: {e}");
            assert!(e.to_string().contains(says), "{from} {input}: {e}");
            assert!(!e.suggests_other_format(), "{from} {input}: {e}");
            assert!(!matches!(e.kind(), ErrorKind::MissingMember { hint, .. } if hint.is_empty()));
        }
    }
}

/// `Converter` takes a format as `Registry` does (a `Format` or a name), and an adapter as
/// before: every built-in pair gives the same bytes each way; an unknown name is the same
/// error from both, listing the names there are.
#[test]
#[allow(
    clippy::needless_borrows_for_generic_args,
    reason = "a format by reference is one of the ways tried"
)]
fn converter_and_registry_take_formats_alike() {
    use tooladapter::formats::builtins;
    use tooladapter::{Converter, ErrorKind, Format, Options, Registry};
    let registry = Registry::default();
    let options = Options::default();
    let mut converter = Converter::new();
    let input = TOOL.as_bytes();
    for to in Format::ALL.iter().copied().filter(|f| f.info().writes) {
        let adapter = builtins().iter().copied().find(|a| a.name() == to.name()).expect("built in");
        let upper = to.name().to_ascii_uppercase();
        let outputs = [
            converter
                .convert(input, "mcp", to.name(), &options)
                .expect("by name")
                .output()
                .to_vec(),
            converter
                .convert(input, "MCP", &upper, &options)
                .expect("by any case")
                .output()
                .to_vec(),
            converter
                .convert(input, Format::MCP, to, &options)
                .expect("by value")
                .output()
                .to_vec(),
            converter
                .convert(input, &Format::MCP, &to, &options)
                .expect("by ref")
                .output()
                .to_vec(),
            converter
                .convert(input, &tooladapter::formats::Mcp, adapter, &options)
                .expect("dyn")
                .output()
                .to_vec(),
            registry.convert(input, "mcp", to).expect("registry").output().to_vec(),
        ];
        assert!(outputs.iter().all(|o| *o == outputs[0]), "{to}");
        let check = converter.check(input, "mcp", to.name(), &options).expect("check").clone();
        assert_eq!(check, checked_with_adapters(input, to));
    }
    let from_converter = converter.convert(input, "gpt", "openai", &options).expect_err("unknown");
    let from_registry = registry.convert(input, "gpt", "openai").expect_err("unknown");
    assert!(matches!(from_converter.kind(), ErrorKind::UnknownFormat(_)), "{from_converter}");
    assert_eq!(from_converter.to_string(), from_registry.to_string());
    assert!(
        from_converter.to_string().contains("expected one of: mcp, openai"),
        "{from_converter}"
    );
}

/// `check` of `input` (MCP) against `to`, the formats given as adapters.
#[allow(
    clippy::needless_borrows_for_generic_args,
    reason = "a format by reference is one of the ways tried"
)]
fn checked_with_adapters(input: &[u8], to: tooladapter::Format) -> tooladapter::Report {
    let mut c = tooladapter::Converter::new();
    c.check(input, &tooladapter::formats::Mcp, &to, &tooladapter::Options::default())
        .expect("check")
        .clone()
}
