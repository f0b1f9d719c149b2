//! Emission: IR → JSON bytes in a reused buffer.
//!
//! One writer serves every back end. Key order is IR order (the author's order), numbers are
//! written as their source text and strings are re-escaped minimally, so the same input and
//! options always give the same bytes — prompt caches key on them.

mod escape;

pub use escape::write_escaped;

use crate::ir::{Entry, Json, JsonType, Keyword, Schema, Value};

/// A JSON writer over a byte buffer, compact or indented.
pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
    pretty: bool,
    depth: usize,
    first: bool,
    upper_types: bool,
    source: Source<'o>,
}

/// Where the strings of a parsed input live, so the writer can tell a string the input held
/// without any escape: JSON forbids such text to contain `"`, `\` or a control character, so
/// it is written as it is, without the escape scan. simd-json decodes every string in place in
/// its copy of the input, starting where the string's text starts (`parse` tests this).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Source<'s> {
    /// The address of the parser's input copy.
    pub base: usize,
    /// The input as given.
    pub src: &'s [u8],
    /// Where the input's escape sequences start: one bit per
    /// [`crate::parse::ESCAPE_BLOCK`] bytes.
    pub escapes: &'s [u64],
    /// Where each escape of the input starts, in order ([`crate::parse::Doc::escape_starts`]).
    pub escape_starts: &'s [usize],
}

impl<'s> Source<'s> {
    /// The input's window of [`escape::WINDOW`] bytes from the `"` that opens `s`, and the
    /// length of `"s"`, when that is all in the window and `s` is the input's own text: it
    /// starts right after an unescaped `"`, is followed by a `"`, and no `\` lies between
    /// (then no escape changed its bytes, and it holds no `"` or control character, which
    /// JSON text cannot). The commonest strings, keys and names, are told and copied with
    /// this one window.
    #[inline]
    fn short(&self, s: &str) -> Option<(&'s [u8; escape::WINDOW], usize)> {
        let quoted = s.len() + 2;
        if quoted > escape::WINDOW {
            return None;
        }
        let open = (s.as_ptr() as usize).wrapping_sub(self.base).checked_sub(1)?;
        let w = escape::window(self.src, open)?;
        // The backslash test first: told that `w[0]` is a quote, the compiler would drop
        // that byte from the test and split its vector compares.
        let plain = !escape::backslash_below(w, quoted)
            && w.first() == Some(&b'"')
            && w.get(quoted - 1) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'));
        plain.then_some((w, quoted))
    }

    /// Where `s` stands quoted in the input (`"` to `"`), if it lies in the input copy, starts
    /// right after an unescaped `"` of the input (so it starts where a string's text starts:
    /// inside a string's text there is no unescaped quote), and no escape of the input starts
    /// within its length (a string with an escape has its first one within its decoded
    /// length). Its bytes are then the input's own text, and the input's next byte is the
    /// closing quote. Anything else (arena text, a static name) is not.
    #[inline]
    fn quoted(&self, s: &str) -> Option<(usize, usize)> {
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        let end = at.checked_add(s.len()).filter(|&e| e < self.src.len())?;
        let open = at.checked_sub(1)?;
        let quoted = self.src.get(open) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'))
            && self.src.get(end) == Some(&b'"');
        (quoted && !self.escape_within(at, end)).then_some((open, end + 1))
    }

    /// Where `s` stands quoted in the input when the input spelled it with escapes, each the
    /// one [`write_escaped`] writes for its character (see [`escape::canonical_escape`]): the
    /// quoted text is then the bytes escaping `s` would give. As in [`Source::quoted`], `s`
    /// must start right after an unescaped `"` of the input, so it starts where a string's
    /// text starts, and the input's copy holds that string decoded from there; decoding to
    /// exactly `s.len()` bytes before a closing quote makes `s` the whole string.
    fn escaped(&self, s: &str) -> Option<(usize, usize)> {
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        let open = at.checked_sub(1)?;
        let opens = self.src.get(open) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'));
        if !opens {
            return None;
        }
        let (mut p, mut left) = (at, s.len());
        let first = self.escape_starts.partition_point(|&e| e < at);
        // Each escape stands for one byte of `s`; the text between is `s`'s own bytes.
        for &b in self.escape_starts.get(first..).unwrap_or_default() {
            if b >= p + left {
                break;
            }
            let len = escape::canonical_escape(self.src, b)?;
            left = left.checked_sub(b.checked_sub(p)? + 1)?;
            p = b + len;
        }
        let close = p + left;
        (self.src.get(close) == Some(&b'"')).then_some((open, close + 1))
    }

    /// Whether `s` is the input's own text (see [`Source::quoted`]).
    #[cfg(test)]
    fn verbatim(&self, s: &str) -> bool {
        self.quoted(s).is_some()
    }

    /// Whether an escape may start in `at..end` (a block holding one overlaps it).
    #[inline]
    fn escape_within(&self, at: usize, end: usize) -> bool {
        crate::parse::escape_within(self.escapes, at, end)
    }
}

impl<'o> Writer<'o> {
    /// A writer appending to `out`.
    pub fn new(out: &'o mut Vec<u8>, pretty: bool) -> Self {
        Writer { out, pretty, depth: 0, first: true, upper_types: false, source: Source::default() }
    }

    /// The same writer, told where the strings of the parsed input live.
    pub(crate) fn with_source(mut self, source: Source<'o>) -> Self {
        self.source = source;
        self
    }

    /// Writes `type` names upper-case (`STRING`, `OBJECT`): Gemini's OpenAPI `Type` enum.
    pub fn set_upper_types(&mut self, upper: bool) {
        self.upper_types = upper;
    }

    /// Starts a new line at the current depth, in pretty output. `P` is `self.pretty`: the
    /// writing methods come in a compact and a pretty build, so the compact one carries no
    /// test of it.
    #[inline]
    fn newline<const P: bool>(&mut self) {
        if P {
            self.indent();
        }
    }

    /// The line break and indentation of pretty output, kept out of the compact path.
    #[cold]
    #[inline(never)]
    fn indent(&mut self) {
        self.out.push(b'\n');
        for _ in 0..self.depth {
            self.out.extend_from_slice(b"  ");
        }
    }

    /// What comes before a member or an element: a comma unless it is the first, then the
    /// line break of pretty output.
    #[inline]
    fn separate<const P: bool>(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.newline::<P>();
    }

    /// What follows a key.
    #[inline]
    fn colon<const P: bool>(&mut self) {
        if P {
            self.out.extend_from_slice(b": ");
        } else {
            self.out.push(b':');
        }
    }

    /// Opens an object.
    #[inline]
    pub fn begin_object(&mut self) {
        if self.pretty { self.open::<true, b'{'>() } else { self.open::<false, b'{'>() }
    }

    /// Closes an object.
    #[inline]
    pub fn end_object(&mut self) {
        if self.pretty { self.close::<true, b'}'>() } else { self.close::<false, b'}'>() }
    }

    /// Opens an array.
    #[inline]
    pub fn begin_array(&mut self) {
        if self.pretty { self.open::<true, b'['>() } else { self.open::<false, b'['>() }
    }

    /// Closes an array.
    #[inline]
    pub fn end_array(&mut self) {
        if self.pretty { self.close::<true, b']'>() } else { self.close::<false, b']'>() }
    }

    /// Opens an object or array (`B` is its bracket). Only pretty output counts the depth (a
    /// writer's `pretty` never changes, so the two builds are never mixed).
    #[inline]
    fn open<const P: bool, const B: u8>(&mut self) {
        self.out.push(B);
        if P {
            self.depth += 1;
        }
        self.first = true;
    }

    /// Closes an object or array (`B` is its bracket).
    #[inline]
    fn close<const P: bool, const B: u8>(&mut self) {
        if P {
            self.depth -= 1;
        }
        if P && !self.first {
            self.newline::<P>();
        }
        self.out.push(B);
        self.first = false;
    }

    /// Writes an object key (with the separator before it when needed).
    #[inline]
    pub fn key(&mut self, key: &str) {
        if self.pretty { self.key_inline::<true>(key) } else { self.key_inline::<false>(key) }
    }

    /// [`Writer::key`], inlined where keys are most of the work (property names).
    #[inline(always)]
    fn key_inline<const P: bool>(&mut self, key: &str) {
        self.separate::<P>();
        match self.source.short(key) {
            // The input's own `"key":`, when its colon follows the closing quote.
            Some((w, quoted)) if !P && w.get(quoted) == Some(&b':') => {
                escape::append_window(self.out, w, quoted + 1);
            }
            _ => self.key_long(key),
        }
    }

    /// [`Writer::key`] past its inlined common case, once the separator is written.
    #[inline(never)]
    fn key_long(&mut self, key: &str) {
        let src = self.source.src;
        match self.source.quoted(key) {
            Some((open, close)) if !self.pretty && src.get(close) == Some(&b':') => {
                escape::append_run(self.out, src, open, close + 1);
            }
            Some((open, close)) => {
                escape::append_run(self.out, src, open, close);
                self.colon_dyn();
            }
            None => {
                write_escaped(self.out, key);
                self.colon_dyn();
            }
        }
    }

    /// Writes an object key known to need no escaping (a schema keyword, an envelope key).
    /// Inlined so that a literal key's length is a constant and its copy a few moves.
    #[inline(always)]
    pub fn key_plain(&mut self, key: &'static str) {
        match Padded::fit(key, b":") {
            Some(quoted) if !self.pretty => {
                if !self.first {
                    self.out.push(b',');
                }
                self.first = false;
                quoted.write(self.out);
            }
            _ => {
                self.separate_dyn();
                self.string_plain(key);
                self.colon_dyn();
            }
        }
    }

    /// Writes `text`, constant JSON that opens objects and stops where a member or a member's
    /// value starts, after `{`, `,` or `:` (`{"type":"function","function":{`), in one
    /// fixed-size write; `false`, writing nothing, in pretty output (which indents each line),
    /// so the caller writes it piece by piece. Inlined so that `text` is a constant.
    #[inline(always)]
    pub(crate) fn open_fixed(&mut self, text: &'static str) -> bool {
        match Padded::fit_raw(text) {
            Some(fixed) if !self.pretty => {
                debug_assert!(text.ends_with(['{', ',', ':']));
                fixed.write(self.out);
                // After `{` or `,` the next member needs no comma; after `:`, the one after
                // the value does.
                self.first = !text.ends_with(':');
                true
            }
            _ => false,
        }
    }

    /// Writes a keyword's key: compact output copies `"keyword":` from a table in one
    /// fixed-size write.
    #[inline(always)]
    fn keyword_key<const P: bool>(&mut self, kw: Keyword) {
        match KEYWORD_KEYS.get(kw as usize) {
            Some([bare, after]) if !P => {
                let quoted = if self.first { bare } else { after };
                self.first = false;
                quoted.write(self.out);
            }
            _ => self.keyword_key_pretty(kw),
        }
    }

    /// [`Writer::keyword_key`] for pretty output, out of the compact path.
    #[inline(never)]
    fn keyword_key_pretty(&mut self, kw: Keyword) {
        self.separate_dyn();
        self.out.push(b'"');
        self.out.extend_from_slice(kw.as_str().as_bytes());
        self.out.push(b'"');
        self.colon_dyn();
    }

    /// [`Writer::separate`] for a caller built for both kinds of output.
    #[inline]
    fn separate_dyn(&mut self) {
        if self.pretty { self.separate::<true>() } else { self.separate::<false>() }
    }

    /// [`Writer::colon`] for a caller built for both kinds of output.
    #[inline]
    fn colon_dyn(&mut self) {
        if self.pretty { self.colon::<true>() } else { self.colon::<false>() }
    }

    /// Writes a type name, from a table of quoted names.
    #[inline]
    fn type_name(&mut self, ty: JsonType) {
        let table = if self.upper_types { &UPPER_TYPE_NAMES } else { &TYPE_NAMES };
        match table.get(ty as usize) {
            Some(quoted) => quoted.write(self.out),
            None => self.string(if self.upper_types { ty.as_upper_str() } else { ty.as_str() }),
        }
    }

    /// Writes a string known to need no escaping. Inlined like [`Writer::key_plain`].
    #[inline(always)]
    pub fn string_plain(&mut self, s: &'static str) {
        debug_assert!(crate::scan::next_to_escape(s.as_bytes(), 0).is_none());
        match Padded::fit(s, b"") {
            Some(quoted) => quoted.write(self.out),
            None => {
                self.out.reserve(s.len() + 2);
                self.out.push(b'"');
                self.out.extend_from_slice(s.as_bytes());
                self.out.push(b'"');
            }
        }
    }

    /// Starts an array element.
    #[inline]
    pub fn element(&mut self) {
        self.separate_dyn();
    }

    /// Writes a JSON string, escaping `"`, `\` and control characters.
    #[inline]
    pub fn string(&mut self, s: &str) {
        match self.source.short(s) {
            Some((w, quoted)) => escape::append_window(self.out, w, quoted),
            None => self.string_long(s),
        }
    }

    /// [`Writer::string`] past its inlined short case: a long string of the input, or one
    /// from elsewhere.
    #[inline(never)]
    fn string_long(&mut self, s: &str) {
        match self.source.quoted(s).or_else(|| self.source.escaped(s)) {
            Some((open, close)) => escape::append_run(self.out, self.source.src, open, close),
            None => write_escaped(self.out, s),
        }
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
        if self.pretty { self.json_in::<true>(v) } else { self.json_in::<false>(v) }
    }

    /// [`Writer::json`], built for compact or pretty output (`P`).
    fn json_in<const P: bool>(&mut self, v: &Json<'_>) {
        match *v {
            Json::Null => self.raw("null"),
            Json::Bool(b) => self.bool(b),
            Json::Number(n) => self.raw(n),
            Json::String(s) => self.string(s),
            Json::Array(items) => {
                self.open::<P, b'['>();
                for item in items {
                    self.separate::<P>();
                    // Most arrays are `enum`s of strings: no call per element for those.
                    match item {
                        Json::String(s) => self.string(s),
                        item => self.json_in::<P>(item),
                    }
                }
                self.close::<P, b']'>();
            }
            Json::Object(members) => {
                self.open::<P, b'{'>();
                for m in members {
                    self.key_inline::<P>(m.key);
                    self.json_in::<P>(&m.value);
                }
                self.close::<P, b'}'>();
            }
        }
    }

    /// Writes a schema, keywords in IR order.
    pub fn schema(&mut self, s: &Schema<'_>) {
        if self.pretty { self.schema_in::<true>(s) } else { self.schema_in::<false>(s) }
    }

    /// [`Writer::schema`], built for compact or pretty output (`P`).
    fn schema_in<const P: bool>(&mut self, s: &Schema<'_>) {
        if let Some(b) = s.boolean {
            self.bool(b);
            return;
        }
        self.open::<P, b'{'>();
        for e in s.keywords {
            self.entry_in::<P>(e);
        }
        self.close::<P, b'}'>();
    }

    /// Writes one keyword of a schema (key and value) into the open object: for a format whose
    /// tool object is a schema with envelope members among its keywords (LangChain).
    #[inline]
    pub fn entry(&mut self, e: &Entry<'_>) {
        if self.pretty { self.entry_in::<true>(e) } else { self.entry_in::<false>(e) }
    }

    /// [`Writer::entry`], built for compact or pretty output (`P`).
    #[inline]
    fn entry_in<const P: bool>(&mut self, e: &Entry<'_>) {
        match &e.value {
            Value::Unknown(m) => {
                self.key_inline::<P>(m.key);
                self.json_in::<P>(&m.value);
            }
            // The two commonest values, written here rather than through `value`, whose
            // prologue costs more than writing them.
            Value::Type(t) if !t.array => {
                let member = match (e.keyword, t.list.first()) {
                    (Keyword::Type, Some(&ty)) if !P => TYPE_MEMBERS
                        .get(usize::from(self.upper_types))
                        .and_then(|names| names.get(ty as usize)),
                    _ => None,
                };
                match member {
                    // `"type":"string"` in one write.
                    Some([bare, after]) => {
                        let quoted = if self.first { bare } else { after };
                        self.first = false;
                        quoted.write(self.out);
                    }
                    None => {
                        self.keyword_key::<P>(e.keyword);
                        for &ty in t.list.iter().take(1) {
                            self.type_name(ty);
                        }
                    }
                }
            }
            Value::Str(s) => {
                self.keyword_key::<P>(e.keyword);
                self.string(s);
            }
            value => {
                self.keyword_key::<P>(e.keyword);
                self.value_in::<P>(value);
            }
        }
    }

    /// Writes a keyword's value as the schema would hold it.
    #[inline]
    pub(crate) fn value(&mut self, v: &Value<'_>) {
        if self.pretty { self.value_in::<true>(v) } else { self.value_in::<false>(v) }
    }

    /// [`Writer::value`], built for compact or pretty output (`P`).
    #[inline]
    fn value_in<const P: bool>(&mut self, v: &Value<'_>) {
        match *v {
            Value::Schema(s) => self.schema_in::<P>(s),
            Value::Schemas(list) => {
                self.open::<P, b'['>();
                for s in list {
                    self.separate::<P>();
                    self.schema_in::<P>(s);
                }
                self.close::<P, b']'>();
            }
            Value::Props(props) => {
                self.open::<P, b'{'>();
                for p in props {
                    self.key_inline::<P>(p.name);
                    self.schema_in::<P>(&p.schema);
                }
                self.close::<P, b'}'>();
            }
            Value::Type(t) => {
                if t.array {
                    self.open::<P, b'['>();
                    for &ty in t.list {
                        self.separate::<P>();
                        self.type_name(ty);
                    }
                    self.close::<P, b']'>();
                } else {
                    for &ty in t.list.iter().take(1) {
                        self.type_name(ty);
                    }
                }
            }
            Value::Strings(list) => {
                self.open::<P, b'['>();
                for s in list {
                    self.separate::<P>();
                    self.string(s);
                }
                self.close::<P, b']'>();
            }
            Value::Str(s) => self.string(s),
            Value::Number(n) => self.raw(n),
            Value::Bool(b) => self.bool(b),
            Value::Json(j) => self.json_in::<P>(&j),
            Value::Unknown(m) => self.json_in::<P>(&m.value),
        }
    }
}

/// Text known at compile time, padded to a fixed width: writing it is a copy of the whole
/// array and a truncate, which compiles to a few moves instead of a `memcpy` call.
struct Padded {
    /// The text, then zeros.
    bytes: [u8; PADDED],
    /// How many bytes of `bytes` are text.
    len: usize,
}

/// The width of [`Padded`] text: `,"unevaluatedProperties":` fits.
const PADDED: usize = 32;

impl Padded {
    /// Nothing.
    const EMPTY: Padded = Padded { bytes: [0; PADDED], len: 0 };

    /// `prefix"text"suffix` (a `,` before a member that is not the first, a `:` after a key).
    const fn quoted(prefix: &[u8], text: &str, suffix: &[u8]) -> Padded {
        Padded::EMPTY.then(prefix).then(b"\"").then(text.as_bytes()).then(b"\"").then(suffix)
    }

    /// The text followed by `more`.
    #[allow(clippy::indexing_slicing, reason = "const build; the longest keyword fits")]
    const fn then(mut self, more: &[u8]) -> Padded {
        let mut i = 0;
        while i < more.len() {
            self.bytes[self.len + i] = more[i];
            i += 1;
        }
        self.len += more.len();
        self
    }

    /// `"text"` plus `suffix`, if it fits. Inlined with a literal `text`, this folds to a
    /// constant.
    #[inline(always)]
    fn fit(text: &str, suffix: &[u8]) -> Option<Padded> {
        let mut bytes = [0u8; PADDED];
        let len = text.len() + 2 + suffix.len();
        let (open, rest) = bytes.get_mut(..len)?.split_first_mut()?;
        *open = b'"';
        let (body, rest) = rest.split_at_mut(text.len());
        body.copy_from_slice(text.as_bytes());
        let (close, tail) = rest.split_first_mut()?;
        *close = b'"';
        tail.copy_from_slice(suffix);
        Some(Padded { bytes, len })
    }

    /// `text` as it is, if it fits. Inlined with a literal `text`, this folds to a constant.
    #[inline(always)]
    fn fit_raw(text: &str) -> Option<Padded> {
        let mut bytes = [0u8; PADDED];
        bytes.get_mut(..text.len())?.copy_from_slice(text.as_bytes());
        Some(Padded { bytes, len: text.len() })
    }

    /// Appends the text to `out`.
    #[inline]
    fn write(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len;
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
    }
}

/// `"keyword":` by `Keyword as usize`, then with a comma before it (the `Unknown` slot is
/// never read: unknown keywords are written under their own names).
#[allow(clippy::indexing_slicing, reason = "const build: `ALL` is in declaration order")]
static KEYWORD_KEYS: [[Padded; 2]; Keyword::ALL.len()] = {
    let mut table = [const { [Padded::EMPTY, Padded::EMPTY] }; Keyword::ALL.len()];
    let mut i = 0;
    while i < Keyword::ALL.len() {
        let kw = Keyword::ALL[i];
        table[kw as usize] =
            [Padded::quoted(b"", kw.as_str(), b":"), Padded::quoted(b",", kw.as_str(), b":")];
        i += 1;
    }
    table
};

/// The seven type names, quoted, by `JsonType as usize`.
static TYPE_NAMES: [Padded; 7] = type_names(false, b"");
/// The same, as Gemini's OpenAPI `Type` enum spells them.
static UPPER_TYPE_NAMES: [Padded; 7] = type_names(true, b"");

/// Whole `"type":"name"` members, by upper-case, `JsonType as usize`, and comma before.
static TYPE_MEMBERS: [[[Padded; 2]; 7]; 2] = [type_members(false), type_members(true)];

/// The `"type":"name"` members of the seven types, without and with a comma before.
#[allow(clippy::indexing_slicing, reason = "const build over the seven types")]
const fn type_members(upper: bool) -> [[Padded; 2]; 7] {
    let [mut first, mut other] =
        [type_names(upper, b"\"type\":"), type_names(upper, b",\"type\":")];
    let mut table = [const { [Padded::EMPTY, Padded::EMPTY] }; 7];
    let mut ty = 0;
    while ty < 7 {
        table[ty] = [
            std::mem::replace(&mut first[ty], Padded::EMPTY),
            std::mem::replace(&mut other[ty], Padded::EMPTY),
        ];
        ty += 1;
    }
    table
}

/// The quoted type names by `JsonType as usize`, upper-case with `upper`, after `prefix`.
#[allow(clippy::indexing_slicing, reason = "const build over the seven types")]
const fn type_names(upper: bool, prefix: &[u8]) -> [Padded; 7] {
    const ALL: [JsonType; 7] = JsonType::ALL;
    let mut table = [Padded::EMPTY; 7];
    let mut i = 0;
    while i < ALL.len() {
        let ty = ALL[i];
        let name = if upper { ty.as_upper_str() } else { ty.as_str() };
        table[ty as usize] = Padded::quoted(prefix, name, b"");
        i += 1;
    }
    table
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
    fn only_strings_the_input_held_unescaped_skip_the_scan() {
        let src = br#"{"a":"plain","b":"x\ny","c\"":"q"}"#;
        let mut parser = crate::parse::Parser::default();
        let doc = parser.parse(src, usize::MAX).unwrap();
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
        let doc = parser.parse(src, usize::MAX).unwrap();
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
                        let d = parser.parse(doc.as_bytes(), usize::MAX).unwrap();
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
                let s = Schema {
                    boolean: None,
                    keywords: &keywords,
                    features: FeatureSet::EMPTY,
                    at: 0,
                };
                for (upper, pretty) in [(false, false), (true, false), (false, true), (true, true)]
                {
                    let name = if upper { ty.as_upper_str() } else { ty.as_str() };
                    let value =
                        if array { format!(r#"["{name}"]"#) } else { format!(r#""{name}""#) };
                    let mut out = Vec::new();
                    let mut w = Writer::new(&mut out, pretty);
                    w.set_upper_types(upper);
                    w.schema(&s);
                    let want = format!(
                        r#"{{"type":{value},"unevaluatedProperties":false,"type":{value},"description":"d","type":{value}}}"#
                    );
                    let got = String::from_utf8_lossy(&out);
                    if pretty {
                        let squeezed: String = got
                            .split('\n')
                            .map(|l| l.trim_start().replace("\": ", "\":"))
                            .collect();
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
}
