//! JSON read and written with every number exactly as it was written, for `unmap`.
//!
//! serde_json's `Value` holds a number as `u64`, `i64` or `f64`, so
//! `123456789012345678901234567890` would come back as `1.2345678901234568e+29` and
//! `1.0000000000000000001` as `1.0`, while the converter keeps numbers as their source text.
//! Two other ways were set aside: serde_json's `arbitrary_precision` feature is one switch for
//! the whole build (the library's readers and every dependency's `Value` would change with it),
//! and a `RawValue` per node re-scans each container's text once per level of nesting.
//!
//! Here the text is parsed once into a `Value` and scanned once for its number tokens, in
//! document order, which is `Value`'s order (objects keep theirs, and a duplicate key, the one
//! way the two orders could differ, is refused). A number whose `Value` does not print back as
//! written is replaced by a string holding [`MARK`] and its text: the inverse map only renames
//! keys and drops nulls, so it passes such a string through untouched, and [`write`] prints it
//! back bare. A string of the input that starts with [`MARK`] gets a second one, which
//! [`write`] takes off again, so no input string is ever read as a number.

use serde_json::Value;

/// What starts a string that stands for a number's text (a character no number starts with).
const MARK: char = '\u{0}';

/// Why a text was not read.
pub(crate) enum ParseError {
    /// Not JSON: serde_json's message.
    Syntax(String),
    /// An object had a key twice (refused, as the converter refuses it).
    DuplicateKey,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Syntax(e) => write!(f, "not JSON: {e}"),
            ParseError::DuplicateKey => f.write_str("an object has the same key twice"),
        }
    }
}

/// Parses `text`, numbers that `Value` would change kept as marked strings (see the module).
///
/// # Errors
/// The text is not JSON, or an object has a key twice.
pub(crate) fn parse(text: &[u8]) -> Result<Value, ParseError> {
    let mut value: Value =
        serde_json::from_slice(text).map_err(|e| ParseError::Syntax(e.to_string()))?;
    let tokens = scan(text);
    let mut numbers = tokens.numbers.iter();
    let mut members = 0;
    mark(&mut value, &mut numbers, &mut members);
    // A repeated key leaves one member fewer in the `Value` than in the text.
    if members != tokens.members || numbers.next().is_some() {
        return Err(ParseError::DuplicateKey);
    }
    Ok(value)
}

/// The number tokens of a JSON text, in order, and how many object members it has.
struct Tokens<'t> {
    numbers: Vec<&'t str>,
    members: usize,
}

/// Scans valid JSON `text` once: outside strings, a `:` is one object member and a run
/// starting with `-` or a digit is a number.
fn scan(text: &[u8]) -> Tokens<'_> {
    let mut tokens = Tokens { numbers: Vec::new(), members: 0 };
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => {
                i += 1;
                while let Some(&c) = text.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                continue;
            }
            b':' => tokens.members += 1,
            b'-' | b'0'..=b'9' => {
                let start = i;
                while text
                    .get(i)
                    .is_some_and(|c| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                {
                    i += 1;
                }
                // Number tokens are ASCII, so the slice is always UTF-8.
                if let Some(n) = text.get(start..i).and_then(|t| std::str::from_utf8(t).ok()) {
                    tokens.numbers.push(n);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    tokens
}

/// Marks `value`'s numbers from `numbers` (document order) and counts object members.
/// Recursion is bounded by serde_json's nesting limit (128), which `value` was parsed under.
fn mark<'t>(
    value: &mut Value,
    numbers: &mut impl Iterator<Item = &'t &'t str>,
    members: &mut usize,
) {
    match value {
        Value::Number(n) => {
            if let Some(text) = numbers.next()
                && n.to_string() != *text
            {
                *value = Value::String(format!("{MARK}{text}"));
            }
        }
        Value::String(s) if s.starts_with(MARK) => s.insert(0, MARK),
        Value::Array(items) => items.iter_mut().for_each(|v| mark(v, numbers, members)),
        Value::Object(map) => {
            *members += map.len();
            map.values_mut().for_each(|v| mark(v, numbers, members));
        }
        _ => {}
    }
}

/// Writes `value` as compact JSON, marked strings back as the numbers they hold.
pub(crate) fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::String(s) => match s.strip_prefix(MARK) {
            Some(rest) if rest.starts_with(MARK) => string(rest, out),
            Some(number) => out.extend_from_slice(number.as_bytes()),
            None => string(s, out),
        },
        Value::Array(items) => {
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(v, out);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                string(k, out);
                out.push(b':');
                write(v, out);
            }
            out.push(b'}');
        }
        // Writing a scalar into a `Vec` cannot fail.
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

/// Writes `s` as a JSON string.
fn string(s: &str, out: &mut Vec<u8>) {
    let _ = serde_json::to_writer(&mut *out, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        let value = parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut out = Vec::new();
        write(&value, &mut out);
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn numbers_come_back_as_written() {
        let text = r#"{"a":123456789012345678901234567890,"b":[1.0000000000000000001,-0,1E5,2.50],"c":7,"d":-3,"e":0.5}"#;
        assert_eq!(round_trip(text), text);
        // Numbers that `Value` keeps stay numbers in the tree.
        let v = parse(br#"{"c":7,"e":0.5}"#).ok().expect("JSON");
        assert!(v["c"].is_u64() && v["e"].is_f64());
    }

    #[test]
    fn strings_are_never_read_as_numbers() {
        let text =
            "{\"k:1\":\"\\u00001\",\"n\":\"\\u0000\\u0000x\",\"s\":\"a\\\"1:\",\"t\":1e400000}";
        // `1e400000` is out of range for serde_json: refused, as before.
        assert!(matches!(parse(text.as_bytes()), Err(ParseError::Syntax(_))));
        let text = "{\"k:1\":\"\\u00001\",\"n\":\"\\u0000\\u0000x\",\"s\":\"a\\\"1:\",\"t\":1.50}";
        let value = parse(text.as_bytes()).ok().expect("JSON");
        let mut out = Vec::new();
        write(&value, &mut out);
        let back: Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(back["k:1"], "\u{0}1");
        assert_eq!(back["n"], "\u{0}\u{0}x");
        assert_eq!(back["s"], "a\"1:");
        assert!(String::from_utf8_lossy(&out).ends_with("\"t\":1.50}"), "{out:?}");
    }

    #[test]
    fn a_repeated_key_is_refused() {
        // Without the check, `2` and `1` would trade places: the `Value` keeps the first
        // key's place and the second one's number.
        assert!(matches!(parse(br#"{"a":"x","b":1,"a":2}"#), Err(ParseError::DuplicateKey)));
        assert!(matches!(parse(br#"[{"a":{}},{"a":{},"a":{}}]"#), Err(ParseError::DuplicateKey)));
    }
}
