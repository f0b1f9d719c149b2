//! The byte-level JSON writer: brackets, separators, keys, strings and verbatim JSON values,
//! compact or indented.
//!
//! Each writing method comes in a compact and a pretty build (a `const P: bool`), so the
//! compact path carries no test of the output kind; a writer's kind never changes.

use super::escape;
use super::padded::Padded;
use super::source::Source;
use super::write_escaped;
use crate::ir::Json;

/// A JSON writer over a byte buffer, compact or indented.
pub struct Writer<'o> {
    pub(super) out: &'o mut Vec<u8>,
    pub(super) pretty: bool,
    depth: usize,
    pub(super) first: bool,
    pub(super) upper_types: bool,
    source: Source<'o>,
    /// Output length past which schemas are no longer written (see [`Writer::over`]).
    limit: usize,
    /// Where the first schema not written for the limit was in the input.
    over: Option<u32>,
}

impl<'o> Writer<'o> {
    /// A writer appending to `out`.
    pub fn new(out: &'o mut Vec<u8>, pretty: bool) -> Self {
        Writer {
            out,
            pretty,
            depth: 0,
            first: true,
            upper_types: false,
            source: Source::default(),
            limit: usize::MAX,
            over: None,
        }
    }

    /// The same writer, writing no schema once its output is past `limit` bytes: checked
    /// once per schema node, so the output stays within `limit` and one node's own members
    /// (whose text is the input's), however many times `$ref` inlining repeats a node.
    pub(crate) fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The input position (`Schema::at`) of the first schema left unwritten for the limit,
    /// if the output passed it: the output is then incomplete.
    pub(crate) fn over(&self) -> Option<u32> {
        self.over
    }

    /// Whether the output is past the limit, noting the first schema left unwritten.
    #[inline]
    pub(super) fn past_limit(&mut self, at: u32) -> bool {
        if self.out.len() <= self.limit {
            return false;
        }
        self.over.get_or_insert(at);
        true
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
    pub(super) fn separate<const P: bool>(&mut self) {
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
    pub(super) fn open<const P: bool, const B: u8>(&mut self) {
        self.out.push(B);
        if P {
            self.depth += 1;
        }
        self.first = true;
    }

    /// Closes an object or array (`B` is its bracket).
    #[inline]
    pub(super) fn close<const P: bool, const B: u8>(&mut self) {
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
    pub(super) fn key_inline<const P: bool>(&mut self, key: &str) {
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

    /// [`Writer::separate`] for a caller built for both kinds of output.
    #[inline]
    pub(super) fn separate_dyn(&mut self) {
        if self.pretty { self.separate::<true>() } else { self.separate::<false>() }
    }

    /// [`Writer::colon`] for a caller built for both kinds of output.
    #[inline]
    pub(super) fn colon_dyn(&mut self) {
        if self.pretty { self.colon::<true>() } else { self.colon::<false>() }
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
    pub(super) fn json_in<const P: bool>(&mut self, v: &Json<'_>) {
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
}
