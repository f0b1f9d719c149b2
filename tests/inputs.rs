//! Inputs read for what they are: a byte order mark skipped; a member that is another
//! format's schema field refused with the likely `--from`; Gemini's snake_case spellings and
//! request `tools` arrays; MCP `tools/list` results and their JSON-RPC envelopes; MCP
//! 2026-07-28's `x-mcp-header` and 2025-11-25's `execution.taskSupport`.

use tooladapter::{ConversionError, ErrorKind, Registry};

fn convert(input: &[u8], from: &str, to: &str) -> Result<(String, Vec<String>), ConversionError> {
    let r = Registry::default();
    let c = r.convert(input, from, to)?;
    let report = c.report().entries().iter().map(ToString::to_string).collect();
    Ok((c.output_str().to_owned(), report))
}

fn error(input: &[u8], from: &str, to: &str) -> ConversionError {
    match convert(input, from, to) {
        Ok((out, _)) => panic!("{from} → {to}: converted to {out}"),
        Err(e) => e,
    }
}

const MCP_TOOL: &str =
    r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;

#[test]
fn a_byte_order_mark_is_skipped() {
    let plain = convert(MCP_TOOL.as_bytes(), "mcp", "openai").expect("plain");
    let bom = [b"\xEF\xBB\xBF", MCP_TOOL.as_bytes()].concat();
    assert_eq!(convert(&bom, "mcp", "openai").expect("with a BOM"), plain);
    // Same format, compact: still the input's bytes, the mark aside.
    assert_eq!(convert(&bom, "mcp", "mcp").expect("mcp").0, MCP_TOOL);
    // A parse error says its offset in the input as given, the mark counted.
    let e = error(b"\xEF\xBB\xBF{\"name\":}", "mcp", "openai");
    assert!(matches!(e.kind(), ErrorKind::Json { offset: 11, .. }), "{e}");
    // Only one, only at the start: a second one is not JSON.
    let e = error(&[b"\xEF\xBB\xBF", &bom[..]].concat(), "mcp", "openai");
    assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{e}");
    // An importing format reads past it too.
    let openapi = br#"{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"ok"}}}}}}"#;
    let with = [b"\xEF\xBB\xBF", &openapi[..]].concat();
    assert_eq!(
        convert(&with, "openapi", "mcp").expect("bom"),
        convert(openapi, "openapi", "mcp").expect("plain")
    );
}
