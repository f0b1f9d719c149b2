//! The library's interfaces as a caller meets them: formats as a `Format` value or a name in
//! any case, values in and out, results kept side by side, and errors that read as English.

use serde_json::{Value, json};
use tooladapter::{
    Action, Conversion, Converter, DenyLoss, ErrorKind, Format, Options, ProfileSet, Registry,
    Severity, Strict,
};

const TOOL: &[u8] = br#"{"name":"search","title":"Search","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"^a"}},"required":["q"]}}"#;

#[test]
fn a_format_parses_in_any_case_prints_its_name_and_lists_them_all() {
    let names: Vec<&str> = tooladapter::formats::builtins().iter().map(|a| a.name()).collect();
    let all: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(all, names, "Format::ALL is the builtins() list, in its order");
    for f in Format::ALL {
        assert_eq!(f.to_string().parse::<Format>(), Ok(*f));
        assert_eq!(f.name().to_ascii_uppercase().parse::<Format>(), Ok(*f));
    }
    let err = "gpt".parse::<Format>().unwrap_err();
    assert_eq!(err.known(), names.as_slice());
    assert!(err.to_string().contains("mcp, openai, openai-responses"), "{err}");
}

#[test]
fn option_enums_parse_and_print_by_name() {
    assert_eq!("REQUIRE".parse::<Strict>(), Ok(Strict::Require));
    assert_eq!("toolfoundation".parse::<ProfileSet>(), Ok(ProfileSet::ToolFoundation));
    assert_eq!("Describe".parse::<Action>(), Ok(Action::Describe));
    assert_eq!("warning".parse::<Severity>(), Ok(Severity::Warning));
    assert_eq!("narrows".parse::<DenyLoss>(), Ok(DenyLoss::Narrows));
    assert_eq!(Strict::Off.to_string(), "off");
    assert_eq!(ProfileSet::Default.to_string(), "default");
    let err = "loud".parse::<Severity>().unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown severity "loud"; expected one of: info, warning, error"#
    );
}

#[test]
fn the_registry_takes_a_format_or_a_name_in_any_case() {
    let registry = Registry::default();
    let by_format = registry.convert(TOOL, Format::MCP, Format::OPENAI).expect("converts");
    let by_name = registry.convert(TOOL, "MCP", "OpenAI").expect("converts");
    assert_eq!(by_format, by_name);
    let err = registry.convert(TOOL, "mcp", "gpt").unwrap_err();
    let ErrorKind::UnknownFormat(name) = err.kind() else { panic!("{err:?}") };
    assert_eq!(name.name(), "gpt");
    assert!(name.known().iter().any(|k| k == "gemini"), "{name}");
    // Not "gpt adapter from_canonical: …": no adapter was at work.
    assert!(err.to_string().starts_with(r#"unknown format "gpt"; expected one of: mcp"#), "{err}");
}

#[test]
fn strict_mode_asked_of_a_target_without_one_is_an_error() {
    let registry = Registry::default();
    for strict in [Strict::On, Strict::Require] {
        let options = Options::default().strict(strict);
        let err = registry.convert_with(TOOL, "mcp", Format::GEMINI, &options).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidOptions(_)), "{err}");
        assert!(err.to_string().contains("gemini format, which has no strict mode"), "{err}");
        assert!(registry.convert_with(TOOL, "mcp", Format::OPENAI, &options).is_ok());
    }
    // Off and Source ask nothing of the target.
    for strict in [Strict::Off, Strict::Source] {
        let options = Options::default().strict(strict);
        assert!(registry.convert_with(TOOL, "mcp", Format::GEMINI, &options).is_ok());
    }
}

#[test]
fn parse_errors_give_line_column_and_words() {
    let registry = Registry::default();
    let cases: [(&[u8], usize, usize, &str); 7] = [
        (b"tools: []", 1, 1, "not a JSON value (expected `true`; text needs double quotes)"),
        (b"{\"name\":\"a\",\n  \"inputSchema\" {}}", 2, 17, "expected `:` after the object key"),
        (b"{\"name\":\"a\",}", 1, 13, "expected a double-quoted string as the object's key"),
        (b"[1 2]", 1, 4, "expected `,` or `]` in the array"),
        (b"[1,2,]", 1, 6, "a `]` or `}` that does not match, or a misplaced `,`"),
        (
            b"{\"name\":\"\xc3\xa9\xc3\xa9\" x}",
            1,
            14,
            "expected `,` or `}` (or a key after `{`) in the object",
        ),
        // The column does not count a byte order mark, the offset does. A cut-off input is
        // placed at its end.
        (
            b"\xEF\xBB\xBF{\"name\":",
            1,
            9,
            "unexpected end of input: an object is not closed (1 open)",
        ),
    ];
    for (input, line, column, words) in cases {
        let err = registry.convert(input, "mcp", "openai").unwrap_err();
        let ErrorKind::Json { line: l, column: c, message, .. } = err.kind() else {
            panic!("{err:?}")
        };
        let shown = String::from_utf8_lossy(input);
        assert_eq!((*l, *c, message.as_str()), (line, column, words), "{shown}: {err}");
        assert!(err.to_string().contains(&format!("line {line}, column {column}")), "{err}");
    }
}

#[test]
fn library_errors_name_no_command_line_flag() {
    let mcp = br#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#;
    let err = Registry::default().convert(mcp, "openai", "anthropic").unwrap_err();
    assert!(err.suggests_other_format(), "{err}");
    assert!(!err.to_string().contains("--"), "{err}");
    assert!(err.to_string().contains("the input looks like `mcp`"), "{err}");
}

#[test]
fn values_in_and_out_match_the_bytes_path() {
    let registry = Registry::default();
    let input: Value = serde_json::from_slice(TOOL).expect("json");
    for to in Format::ALL.iter().filter(|f| f.info().writes) {
        let bytes = registry.convert(TOOL, Format::MCP, *to).expect("converts");
        let (value, report) = registry.convert_value(&input, Format::MCP, *to).expect("converts");
        let expected: Value = serde_json::from_slice(bytes.output()).expect("json");
        assert_eq!(value, expected, "{to}");
        assert_eq!(&report, bytes.report(), "{to}");
    }
    // Errors are the bytes path's, pointer and all.
    let bad = json!({"name": 5, "inputSchema": {}});
    let err = registry.convert_value(&bad, "mcp", "openai").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::WrongType { .. }), "{err}");
    // A value as deep as the depth limit allows comes back whole, envelope and all.
    let mut schema = json!({"type": "string"});
    for _ in 0..120 {
        schema = json!({"type": "array", "items": schema});
    }
    let deep = json!({"name": "d", "inputSchema": {"type": "object", "properties": {"a": schema}}});
    let (out, _) = registry.convert_value(&deep, "mcp", "openai").expect("converts");
    assert!(out["function"]["parameters"]["properties"]["a"]["items"]["items"].is_object());
}

#[test]
fn two_conversions_live_side_by_side_without_cloning_the_converter() {
    let mut converter = Converter::new();
    let options = Options::default();
    let (mut a, mut b) = (Conversion::default(), Conversion::default());
    converter.convert_into(TOOL, Format::MCP, Format::OPENAI, &options, &mut a).expect("a");
    converter.convert_into(TOOL, Format::MCP, Format::GEMINI, &options, &mut b).expect("b");
    let registry = Registry::default();
    assert_eq!(a, registry.convert(TOOL, "mcp", "openai").expect("converts"));
    assert_eq!(b, registry.convert(TOOL, "mcp", "gemini").expect("converts"));
    // A failed conversion leaves no stale result behind.
    let err = converter.convert_into(b"{", Format::MCP, Format::OPENAI, &options, &mut a);
    assert!(err.is_err());
    assert!(a.output().is_empty() && a.report().is_empty());
}
