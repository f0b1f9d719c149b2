//! Emission: IR → JSON bytes in a reused buffer.
//!
//! One writer serves every back end. Key order is IR order (the author's order), numbers are
//! written as their source text and strings are re-escaped minimally, so the same input and
//! options always give the same bytes — prompt caches key on them.

use crate::ir::{Json, Schema, Value};

/// A JSON writer over a byte buffer, compact or indented.
pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
    pretty: bool,
    depth: usize,
    first: bool,
    upper_types: bool,
}

impl<'o> Writer<'o> {
    /// A writer appending to `out`.
    pub fn new(out: &'o mut Vec<u8>, pretty: bool) -> Self {
        Writer { out, pretty, depth: 0, first: true, upper_types: false }
    }

    /// Writes `type` names upper-case (`STRING`, `OBJECT`): Gemini's OpenAPI `Type` enum.
    pub fn set_upper_types(&mut self, upper: bool) {
        self.upper_types = upper;
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push(b'\n');
            for _ in 0..self.depth {
                self.out.extend_from_slice(b"  ");
            }
        }
    }

    /// Opens an object.
    pub fn begin_object(&mut self) {
        self.out.push(b'{');
        self.depth += 1;
        self.first = true;
    }

    /// Closes an object.
    pub fn end_object(&mut self) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.out.push(b'}');
        self.first = false;
    }

    /// Opens an array.
    pub fn begin_array(&mut self) {
        self.out.push(b'[');
        self.depth += 1;
        self.first = true;
    }

    /// Closes an array.
    pub fn end_array(&mut self) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.out.push(b']');
        self.first = false;
    }

    /// Writes an object key (with the separator before it when needed).
    pub fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.newline();
        self.string(key);
        self.out.push(b':');
        if self.pretty {
            self.out.push(b' ');
        }
    }

    /// Writes an object key known to need no escaping (a schema keyword, an envelope key).
    #[inline]
    pub fn key_plain(&mut self, key: &'static str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.newline();
        self.string_plain(key);
        self.out.push(b':');
        if self.pretty {
            self.out.push(b' ');
        }
    }

    /// Writes a string known to need no escaping.
    #[inline]
    pub fn string_plain(&mut self, s: &'static str) {
        debug_assert!(crate::scan::next_to_escape(s.as_bytes(), 0).is_none());
        self.out.push(b'"');
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(b'"');
    }

    /// Starts an array element.
    pub fn element(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.newline();
    }

    /// Writes a JSON string, escaping `"`, `\` and control characters.
    pub fn string(&mut self, s: &str) {
        write_escaped(self.out, s);
    }

    /// Writes literal JSON text (a number's source text, `true`, `null`, …).
    pub fn raw(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Writes a boolean.
    pub fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    /// Writes a verbatim JSON value.
    pub fn json(&mut self, v: &Json<'_>) {
        match *v {
            Json::Null => self.raw("null"),
            Json::Bool(b) => self.bool(b),
            Json::Number(n) => self.raw(n),
            Json::String(s) => self.string(s),
            Json::Array(items) => {
                self.begin_array();
                for item in items {
                    self.element();
                    self.json(item);
                }
                self.end_array();
            }
            Json::Object(members) => {
                self.begin_object();
                for m in members {
                    self.key(m.key);
                    self.json(&m.value);
                }
                self.end_object();
            }
        }
    }

    /// Writes a schema, keywords in IR order.
    pub fn schema(&mut self, s: &Schema<'_>) {
        if let Some(b) = s.boolean {
            self.bool(b);
            return;
        }
        self.begin_object();
        for e in s.keywords {
            match e.value {
                Value::Unknown(m) => {
                    self.key(m.key);
                    self.json(&m.value);
                }
                value => {
                    self.key_plain(e.keyword.as_str());
                    self.value(&value);
                }
            }
        }
        self.end_object();
    }

    /// Writes a keyword's value as the schema would hold it.
    pub(crate) fn value(&mut self, v: &Value<'_>) {
        match *v {
            Value::Schema(s) => self.schema(s),
            Value::Schemas(list) => {
                self.begin_array();
                for s in list {
                    self.element();
                    self.schema(s);
                }
                self.end_array();
            }
            Value::Props(props) => {
                self.begin_object();
                for p in props {
                    self.key(p.name);
                    self.schema(&p.schema);
                }
                self.end_object();
            }
            Value::Type(t) => {
                let upper = self.upper_types;
                let name = |ty: &crate::ir::JsonType| {
                    if upper { ty.as_upper_str() } else { ty.as_str() }
                };
                if t.array {
                    self.begin_array();
                    for ty in t.list {
                        self.element();
                        self.string_plain(name(ty));
                    }
                    self.end_array();
                } else {
                    for ty in t.list.iter().take(1) {
                        self.string_plain(name(ty));
                    }
                }
            }
            Value::Strings(list) => {
                self.begin_array();
                for s in list {
                    self.element();
                    self.string(s);
                }
                self.end_array();
            }
            Value::Str(s) => self.string(s),
            Value::Number(n) => self.raw(n),
            Value::Bool(b) => self.bool(b),
            Value::Json(j) => self.json(&j),
            Value::Unknown(m) => self.json(&m.value),
        }
    }
}

// 0: as is; b'u': \u00XX; otherwise the short escape letter.
#[allow(clippy::indexing_slicing, reason = "const table build: every index is below 256")]
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Appends `s` as a JSON string literal.
pub fn write_escaped(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    while let Some(i) = crate::scan::next_to_escape(bytes, start) {
        out.extend_from_slice(bytes.get(start..i).unwrap_or_default());
        let b = bytes.get(i).copied().unwrap_or_default();
        let esc = ESCAPE.get(usize::from(b)).copied().unwrap_or(b'u');
        if esc == b'u' {
            out.extend_from_slice(b"\\u00");
            out.push(HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'));
            out.push(HEX.get(usize::from(b & 0xf)).copied().unwrap_or(b'0'));
        } else {
            out.push(b'\\');
            out.push(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
