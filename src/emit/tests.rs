//! Tests of the writer: escaping, the input fast paths, and compact against pretty output.

use super::*;
use crate::ir::{Entry, Json, JsonType, Keyword, Schema, Value};

#[test]
fn escapes_minimally() {
    let mut out = Vec::new();
    write_escaped(&mut out, "a\"b\\c\n\u{1}é\u{2028}");
    assert_eq!(
        String::from_utf8_lossy(&out),
        r#""a\"b\\c\n\u0001é\u{2028}""#.replace("\\u{2028}", "\u{2028}")
    );
}

#[test]
fn only_strings_the_input_held_unescaped_skip_the_scan() {
    let src = br#"{"a":"plain","b":"x\ny","c\"":"q"}"#;
    let mut parser = crate::parse::Parser::default();
    let doc = parser.parse(src, usize::MAX, usize::MAX).unwrap();
    let source =
        Source { base: doc.base, src, escapes: doc.escapes, escape_starts: doc.escape_starts };
    let strings: Vec<&str> = doc
        .tape
        .iter()
        .filter_map(|n| match n {
            simd_json::Node::String(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert_eq!(strings, ["a", "plain", "b", "x\ny", "c\"", "q"]);
    assert!(source.verbatim(strings[1]));
    assert!(!source.verbatim(strings[3]), "decoded from an escape");
    assert!(!source.verbatim(&strings[3][1..]), "starts inside a string");
    assert!(!source.verbatim(strings[4]));
    assert!(!source.verbatim("plain"), "not in the input");
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out, false).with_source(source);
    for s in &strings {
        w.string(s);
    }
    assert_eq!(out, br#""a""plain""b""x\ny""c\"""q""#);
}

/// Every string and key of `src`, and slices of them, written through the input fast
/// paths, must read as the plain escaper writes them.
/// Returns how many whole strings took the one-window path.
fn strings_and_keys_agree(src: &[u8], slices: bool) -> usize {
    let mut parser = crate::parse::Parser::default();
    let doc = parser.parse(src, usize::MAX, usize::MAX).unwrap();
    let source =
        Source { base: doc.base, src, escapes: doc.escapes, escape_starts: doc.escape_starts };
    let mut short = 0;
    for node in &doc.tape {
        let simd_json::Node::String(s) = *node else { continue };
        short += usize::from(source.short(s).is_some());
        let cuts = (0..=s.len()).filter(|&i| slices && s.is_char_boundary(i));
        let slices = cuts.clone().map(|i| &s[..i]).chain(cuts.map(|i| &s[i..]));
        for piece in slices.chain([s]) {
            let mut want = b",".to_vec();
            write_escaped(&mut want, piece);
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, false).with_source(source);
            w.element();
            w.element();
            w.string(piece);
            assert_eq!(out, want, "{piece:?}");
            for pretty in [false, true] {
                out.clear();
                let mut w = Writer::new(&mut out, pretty).with_source(source);
                w.begin_object();
                w.key_plain("k");
                w.bool(true);
                w.key(piece);
                w.bool(true);
                w.end_object();
                let mut want = if pretty {
                    b"{\n  \"k\": true,\n  ".to_vec()
                } else {
                    b"{\"k\":true,".to_vec()
                };
                write_escaped(&mut want, piece);
                want.extend_from_slice(if pretty { b": true\n}" } else { b":true}" });
                assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&want));
            }
        }
    }
    short
}

#[test]
fn input_strings_of_every_length_near_the_window_agree() {
    let specials = ["\\\"", "\\\\", "\\n", "\\u0001", "\\u00e9", "\\/", "é"];
    // Around one window, two, and the longest run copied in windows (four).
    let lengths = (0..=escape::WINDOW + 8)
        .chain(2 * escape::WINDOW - 4..=2 * escape::WINDOW + 4)
        .chain(4 * escape::WINDOW - 4..=4 * escape::WINDOW + 4);
    let mut short = 0;
    for len in lengths {
        let text: String = ('a'..='z').cycle().take(len).collect();
        // As a key with and without a space before its colon, as values, and at the end.
        let doc = format!(r#"{{"{text}":"{text}","{text}" :["{text}"],"x":"{text}"}}"#);
        short += strings_and_keys_agree(doc.as_bytes(), true);
        short += strings_and_keys_agree(format!(r#"["{text}"]"#).as_bytes(), true);
        for pos in 0..=len {
            for sp in specials {
                let (a, b) = text.split_at(pos);
                let doc = format!(r#"{{"{a}{sp}{b}":"{a}{sp}{b}","n":"{a}","m":["{b}{sp}"]}}"#);
                short += strings_and_keys_agree(doc.as_bytes(), false);
            }
        }
    }
    assert!(short > 1000, "the one-window path was taken {short} times");
}

#[test]
fn escaped_input_strings_are_copied_only_when_spelled_as_written() {
    let canonical = [r"\n", r"\\", r#"\""#, r"\t", r"\b", r"\f", r"\r", r"\u0001", r"\u001f"];
    let other = [r"\/", r"\u00e9", r"\u000a", r"\u001F", r"\u0020", r"\u0041", r"\ud83d\ude00"];
    let text: String = ('a'..='z').cycle().take(70).collect();
    for (spellings, copied) in [(&canonical[..], true), (&other[..], false)] {
        for sp in spellings {
            for pos in [0, 1, 30, 31, 32, 33, 64, 70] {
                let (a, b) = text.split_at(pos);
                // One escape, then several, some side by side.
                let quoted = if pos % 2 == 0 {
                    format!(r#""{a}{sp}{b}""#)
                } else {
                    format!(r#""{sp}{a}{sp}{sp}{b}{sp}""#)
                };
                for doc in [format!("[{quoted}]"), format!("[{quoted} ]"), quoted.clone()] {
                    strings_and_keys_agree(doc.as_bytes(), true);
                    let mut parser = crate::parse::Parser::default();
                    let d = parser.parse(doc.as_bytes(), usize::MAX, usize::MAX).unwrap();
                    let source = Source {
                        base: d.base,
                        src: doc.as_bytes(),
                        escapes: d.escapes,
                        escape_starts: d.escape_starts,
                    };
                    let s = d.tape.iter().find_map(|n| match n {
                        simd_json::Node::String(s) => Some(*s),
                        _ => None,
                    });
                    let s = s.unwrap();
                    assert_eq!(source.escaped(s).is_some(), copied, "{doc}");
                    if let Some(cut) = s.get(..s.len() - 1) {
                        assert!(source.escaped(cut).is_none(), "{doc}: a prefix");
                    }
                }
            }
        }
    }
}

#[test]
fn plain_keys_and_strings_of_every_length() {
    for len in 0..=30 {
        let text: &'static str = Box::leak("k".repeat(len).into_boxed_str());
        for pretty in [false, true] {
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, pretty);
            w.begin_object();
            w.key_plain(text);
            w.string_plain(text);
            w.key_plain(text);
            w.string_plain(text);
            w.end_object();
            let want = if pretty {
                format!("{{\n  \"{text}\": \"{text}\",\n  \"{text}\": \"{text}\"\n}}")
            } else {
                format!(r#"{{"{text}":"{text}","{text}":"{text}"}}"#)
            };
            assert_eq!(String::from_utf8_lossy(&out), want);
        }
    }
}

#[test]
fn keyword_keys_and_type_members_in_every_position() {
    use crate::ir::{FeatureSet, Types};
    for ty in JsonType::ALL {
        for array in [false, true] {
            let list = [ty];
            let entry = |keyword, value| Entry { keyword, at: 0, value };
            let types = Value::Type(Types { list: &list, array });
            let keywords = [
                entry(Keyword::Type, types),
                entry(Keyword::UnevaluatedProperties, Value::Bool(false)),
                entry(Keyword::Type, types),
                entry(Keyword::Description, Value::Str("d")),
                entry(Keyword::Type, types),
            ];
            let s =
                Schema { boolean: None, keywords: &keywords, features: FeatureSet::EMPTY, at: 0 };
            for (upper, pretty) in [(false, false), (true, false), (false, true), (true, true)] {
                let name = if upper { ty.as_upper_str() } else { ty.as_str() };
                let value = if array { format!(r#"["{name}"]"#) } else { format!(r#""{name}""#) };
                let mut out = Vec::new();
                let mut w = Writer::new(&mut out, pretty);
                w.set_upper_types(upper);
                w.schema(&s);
                let want = format!(
                    r#"{{"type":{value},"unevaluatedProperties":false,"type":{value},"description":"d","type":{value}}}"#
                );
                let got = String::from_utf8_lossy(&out);
                if pretty {
                    let squeezed: String =
                        got.split('\n').map(|l| l.trim_start().replace("\": ", "\":")).collect();
                    assert_eq!(squeezed, want);
                } else {
                    assert_eq!(got, want);
                }
            }
        }
    }
}

#[test]
fn pretty_and_compact() {
    let members =
        [crate::ir::Member { key: "a", value: Json::Array(&[Json::Number("1"), Json::Null]) }];
    let v = Json::Object(&members);
    let mut out = Vec::new();
    Writer::new(&mut out, false).json(&v);
    assert_eq!(out, br#"{"a":[1,null]}"#);
    out.clear();
    Writer::new(&mut out, true).json(&v);
    assert_eq!(String::from_utf8_lossy(&out), "{\n  \"a\": [\n    1,\n    null\n  ]\n}");
    out.clear();
    Writer::new(&mut out, true).json(&Json::Object(&[]));
    assert_eq!(out, b"{}");
}
