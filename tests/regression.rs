//! Findings of the fuzzers, kept as tests (each also lives in `fuzz/seeds/` for replay).

use tooladapter::{ErrorKind, Registry};

/// `lower`, 2026-11-23: simd-json 0.17 accepted `78901234567890123456-891` inside an array (its
/// big-integer fallback stopped at the `-`), and the number text went out verbatim: invalid JSON
/// in, invalid JSON out. Numbers are checked against the JSON grammar in lowering; simd-json 0.19
/// now rejects this one itself, at the `-` (byte 86).
#[test]
fn malformed_big_number_is_rejected() {
    let input = br#"{"name":"n","inputSchema":{"type":"object","examples":[1E+2,12,45,78901234567890123456-891]}}"#;
    let e = Registry::default().convert(input, "mcp", "mcp").expect_err("not JSON");
    assert!(matches!(e.kind(), ErrorKind::Json { offset: 86, .. }), "{e}");
}

/// `roundtrip`, 2026-11-23: MCP → MCP of a bare array catalog came back as `{"tools":[]}`.
/// Same-format output now mirrors the source's shape.
#[test]
fn same_format_keeps_a_bare_array() {
    let r = Registry::default();
    assert_eq!(r.convert(b"[]", "mcp", "mcp").expect("ok").output_str(), "[]");
    let one = br#"[{"name":"a","inputSchema":{"type":"object"}}]"#;
    assert_eq!(r.convert(one, "mcp", "mcp").expect("ok").output(), one);
    // Another target still gets its own catalog shape.
    let openai = r.convert(one, "mcp", "openai").expect("ok");
    let back = r.convert(openai.output(), "openai", "mcp").expect("ok");
    assert!(back.output_str().starts_with(r#"{"tools":[{"name":"a""#), "{}", back.output_str());
}

/// `roundtrip`, 2026-11-23: simd-json accepted NUL bytes after a literal (`false\0\0\0\0,`),
/// treating them as padding, so invalid JSON converted. NUL is now rejected anywhere. It
/// accepts one after a number too, and reads `1<NUL>2` as `1`, dropping the rest.
#[test]
fn nul_bytes_are_rejected() {
    let r = Registry::default();
    let schema = |s: &str| {
        format!(r#"{{"name":"a","inputSchema":{{"type":"object","maxProperties":{s}}}}}"#)
    };
    for input in [
        b"[false\0]".to_vec(),
        b"{\"name\":\"a\",\"x\":true\0,\"inputSchema\":{}}".to_vec(),
        b"{\"a\":null\0}".to_vec(),
        schema("1\u{0}2").into_bytes(),
        schema("1\u{0}").into_bytes(),
        b"[1\0,2]".to_vec(),
    ] {
        let input = input.as_slice();
        let e = r.convert(input, "mcp", "mcp").expect_err("NUL");
        assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{e}");
    }
}

/// `lower`, 2026-11-23: a false finding of the oracle, not of the library. serde_json's
/// `raw_value` (turned on by a dev-dependency) makes `Value` read a member named
/// `$serde_json::private::RawValue` as a raw value, so valid output with one failed the
/// "output is JSON" check; the fuzz targets now check with `IgnoredAny`. The member is plain
/// data here and passes through.
#[test]
fn serde_magic_member_names_are_plain_keys() {
    let input = br#"{"name":"t","inputSchema":{"type":"object","properties":{"x":{"not":{"$serde_json::private::RawValue":"ntll"}}}}}"#;
    let out = Registry::default().convert(input, "mcp", "mcp").expect("converts");
    assert_eq!(out.output(), input);
}
