//! Python values out: the output's JSON text made into Python objects by one walk here, not
//! through the `json` module (no `bytes` object made of the text first). Keys are made once
//! per document and interned (the envelope's `type`, `function`, `parameters`, … are the same
//! objects in every tool, and compare by identity in the caller's dicts), numbers exactly as
//! `json.loads` reads them (an integer of any size, a float correctly rounded).
//!
//! With the caller's objects at hand (`share=True`, [`crate::data::Spans`]), a dict or list of
//! the output whose text is byte for byte the text a caller's container was written as *is*
//! that container: the conversion left it as it was. Where the containers of the output begin
//! and end is found first, in one pass without the GIL ([`Outline`]).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString};

use crate::data::{Span, Spans, Written};

/// How many of the caller's strings past the last one taken the build compares an output
/// string with: the output keeps its input's order, with a few strings left out or added.
const STRING_WINDOW: usize = 8;

/// The caller's strings, taken in order ([`Written::strings`]).
struct Strings<'s> {
    strings: &'s [Span],
    text: &'s [u8],
    cursor: usize,
}

/// How deep the output may nest here: the crate's limits keep it far shallower.
const MAX_DEPTH: usize = 4096;

/// Keys kept per document (a direct-mapped cache: a key that collides is made again).
const KEY_SLOTS: usize = 256;

/// The containers of a JSON text, in the order they begin: where each ends and how many
/// containers it holds.
pub(crate) struct Outline {
    ends: Vec<(usize, usize)>,
}

impl Outline {
    /// Finds every container of `text` (well-formed JSON: the crate's output).
    pub(crate) fn of(text: &[u8]) -> Outline {
        let mut ends: Vec<(usize, usize)> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut i = 0;
        while let Some(&b) = text.get(i) {
            match b {
                // A string is passed by searching for its end: most of the text is strings.
                b'"' => {
                    i += 1;
                    loop {
                        let rest = text.get(i..).unwrap_or_default();
                        match rest.iter().position(|&c| c == b'"' || c == b'\\') {
                            Some(at) if rest.get(at) == Some(&b'\\') => i += at + 2,
                            Some(at) => {
                                i += at;
                                break;
                            }
                            None => {
                                i = text.len();
                                break;
                            }
                        }
                    }
                }
                b'{' | b'[' => {
                    open.push(ends.len());
                    ends.push((i, 0));
                }
                b'}' | b']' => {
                    if let Some(at) = open.pop() {
                        let inside = ends.len() - at - 1;
                        if let Some(slot) = ends.get_mut(at) {
                            *slot = (i + 1, inside);
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Outline { ends }
    }
}

/// The caller's containers by their text, for `share=True`.
pub(crate) struct Share<'s> {
    spans: &'s Spans,
    text: &'s [u8],
    outline: Outline,
    /// Each span's fingerprint and index, sorted: the candidates for a text are a run.
    sorted: Vec<(Fingerprint, usize)>,
    /// Spans starting before this were passed: the output follows the input's order, so a
    /// later container is looked for after the last one shared.
    cursor: usize,
    /// The next container of the outline.
    next: usize,
}

impl<'s> Share<'s> {
    /// Ready to share `spans` (in the written `text`) into the output `outline` is of.
    pub(crate) fn new(spans: &'s Spans, text: &'s [u8], outline: Outline) -> Share<'s> {
        let mut sorted: Vec<(Fingerprint, usize)> =
            spans.iter().enumerate().map(|(i, s)| (fingerprint(text, s.start, s.end), i)).collect();
        sorted.sort_unstable();
        Share { spans, text, outline, sorted, cursor: 0, next: 0 }
    }

    /// The caller's container written as `out[start..]`, the next container of the output,
    /// and where it ends; `None` when no container of the caller's was written so.
    fn find(&mut self, out: &[u8], start: usize) -> (Option<&'s Py<PyAny>>, usize, usize) {
        let Some(&(end, inside)) = self.outline.ends.get(self.next) else {
            return (None, 0, 0);
        };
        let mine = out.get(start..end).unwrap_or_default();
        let key = fingerprint(out, start, end);
        let from = self.sorted.partition_point(|(f, _)| *f < key);
        let found = self
            .sorted
            .iter()
            .skip(from)
            .map_while(|(f, i)| if *f == key { self.spans.get(*i) } else { None });
        let mut best: Option<&'s crate::data::Span> = None;
        for s in found {
            if s.start >= self.cursor
                && best.is_none_or(|b| s.start < b.start)
                && self.text.get(s.start..s.end) == Some(mine)
            {
                best = Some(s);
            }
        }
        match best {
            Some(s) => {
                self.cursor = s.end;
                (Some(&s.object), end, inside)
            }
            None => (None, end, inside),
        }
    }
}

/// What a span's text is sorted and looked up by.
type Fingerprint = (usize, u64, usize);

/// A span's fingerprint: its length, its first eight bytes and the sum of its last eight.
fn fingerprint(text: &[u8], start: usize, end: usize) -> Fingerprint {
    let len = end.saturating_sub(start);
    let mut head = [0u8; 8];
    for (slot, b) in head.iter_mut().zip(text.get(start..end).unwrap_or_default()) {
        *slot = *b;
    }
    // The last bytes too, through their sum: cheap, and tells most same-length texts apart.
    let tail = text.get(end.saturating_sub(8)..end).unwrap_or_default();
    (len, u64::from_be_bytes(head), tail.iter().map(|&b| b as usize).sum())
}

/// Builds Python objects from the JSON `text` (the crate's output), sharing the caller's
/// containers where `share` has them, and taking the strings of `input` (the caller's data
/// as written) where the output holds the same text.
pub(crate) fn build<'py>(
    py: Python<'py>,
    text: &[u8],
    share: Option<Share<'_>>,
    input: Option<&Written>,
) -> PyResult<Bound<'py, PyAny>> {
    let strings = input.map(|w| Strings { strings: &w.strings, text: &w.text, cursor: 0 });
    let mut b = Builder {
        py,
        text,
        pos: 0,
        keys: (0..KEY_SLOTS).map(|_| None).collect(),
        scratch: String::new(),
        share,
        strings,
    };
    // The objects built are a tree, with no cycle for the cyclic collector to find: it is held
    // off while they are made (it would walk the young ones every few hundred objects) and
    // runs, when it was on, as the caller's next allocations ask. The GIL is held throughout,
    // so no other thread's code runs while it is off.
    let gc = py.import(pyo3::intern!(py, "gc"))?;
    let was_on = gc.call_method0(pyo3::intern!(py, "isenabled"))?.is_truthy()?;
    if was_on {
        gc.call_method0(pyo3::intern!(py, "disable"))?;
    }
    let value = b.value(0).and_then(|v| {
        b.skip_ws();
        if b.pos == text.len() { Ok(v) } else { Err(b.bad("text after the value")) }
    });
    if was_on {
        gc.call_method0(pyo3::intern!(py, "enable"))?;
    }
    value
}

struct Builder<'py, 't, 's> {
    py: Python<'py>,
    text: &'t [u8],
    pos: usize,
    keys: Vec<Option<(&'t [u8], Bound<'py, PyString>)>>,
    scratch: String,
    share: Option<Share<'s>>,
    strings: Option<Strings<'s>>,
}

impl<'py, 't> Builder<'py, 't, '_> {
    fn bad(&self, what: &str) -> PyErr {
        PyValueError::new_err(format!("output JSON: {what} at byte {}", self.pos))
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, word: &[u8]) -> PyResult<()> {
        if self.text.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.bad("unexpected text"))
        }
    }

    fn value(&mut self, depth: usize) -> PyResult<Bound<'py, PyAny>> {
        if depth > MAX_DEPTH {
            return Err(self.bad("nesting too deep"));
        }
        self.skip_ws();
        let py = self.py;
        match self.peek() {
            Some(b'{' | b'[') => {
                if let Some(share) = self.share.as_mut() {
                    let (found, end, inside) = share.find(self.text, self.pos);
                    if let Some(object) = found {
                        share.next += 1 + inside;
                        self.pos = end;
                        return Ok(object.bind(py).clone());
                    }
                    share.next += 1;
                }
                if self.peek() == Some(b'{') {
                    self.object(depth).map(Bound::into_any)
                } else {
                    self.array(depth).map(Bound::into_any)
                }
            }
            Some(b'"') => {
                if let Some(same) = self.callers_string() {
                    return Ok(same);
                }
                let s = self.string()?;
                Ok(PyString::new(py, s).into_any())
            }
            Some(b't') => self
                .expect(b"true")
                .map(|()| pyo3::types::PyBool::new(py, true).to_owned().into_any()),
            Some(b'f') => self
                .expect(b"false")
                .map(|()| pyo3::types::PyBool::new(py, false).to_owned().into_any()),
            Some(b'n') => self.expect(b"null").map(|()| py.None().into_bound(py)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.bad("expected a value")),
        }
    }

    fn object(&mut self, depth: usize) -> PyResult<Bound<'py, PyDict>> {
        self.pos += 1;
        let dict = PyDict::new(self.py);
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(dict);
        }
        loop {
            self.skip_ws();
            let key = self.key()?;
            self.skip_ws();
            self.expect(b":")?;
            let value = self.value(depth + 1)?;
            dict.set_item(key, value)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(dict);
                }
                _ => return Err(self.bad("expected , or }")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> PyResult<Bound<'py, PyList>> {
        self.pos += 1;
        let list = PyList::empty(self.py);
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(list);
        }
        loop {
            list.append(self.value(depth + 1)?)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(list);
                }
                _ => return Err(self.bad("expected , or ]")),
            }
        }
    }

    /// The caller's own `str` when the string at `pos` (one without escapes) has the text of
    /// one of the next few strings the caller gave; `pos` then past it.
    fn callers_string(&mut self) -> Option<Bound<'py, PyAny>> {
        let strings = self.strings.as_mut()?;
        let rest = self.text.get(self.pos + 1..)?;
        let len = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        let raw = rest.get(..len)?;
        let window = strings.strings.get(strings.cursor..)?.iter().take(STRING_WINDOW);
        for (i, s) in window.enumerate() {
            if strings.text.get(s.start..s.end) == Some(raw) {
                strings.cursor += i + 1;
                self.pos += len + 2;
                return Some(s.object.bind(self.py).clone());
            }
        }
        None
    }

    /// A key: the same object for the same key text within the document, interned.
    fn key(&mut self) -> PyResult<Bound<'py, PyString>> {
        if self.peek() != Some(b'"') {
            return Err(self.bad("expected a key"));
        }
        let start = self.pos;
        let raw_end = self.text.get(start + 1..).and_then(|rest| {
            rest.iter()
                .position(|&b| b == b'"' || b == b'\\')
                .filter(|&i| rest.get(i) == Some(&b'"'))
        });
        let Some(len) = raw_end else {
            // Escapes in the key: made each time (rare).
            let py = self.py;
            let s = self.string()?;
            return Ok(PyString::new(py, s));
        };
        let raw = self.text.get(start + 1..start + 1 + len).unwrap_or_default();
        self.pos = start + len + 2;
        let slot = slot_of(raw);
        if let Some(Some((k, obj))) = self.keys.get(slot)
            && *k == raw
        {
            return Ok(obj.clone());
        }
        let s = std::str::from_utf8(raw).map_err(|_| self.bad("invalid UTF-8"))?;
        let obj = PyString::intern(self.py, s);
        if let Some(entry) = self.keys.get_mut(slot) {
            *entry = Some((raw, obj.clone()));
        }
        Ok(obj)
    }

    /// A string's text, unescaped (borrowed from the text when it has no escape).
    fn string(&mut self) -> PyResult<&str> {
        self.pos += 1;
        let start = self.pos;
        let rest = self.text.get(start..).unwrap_or_default();
        let Some(stop) = rest.iter().position(|&b| b == b'"' || b == b'\\') else {
            return Err(self.bad("unterminated string"));
        };
        if rest.get(stop) == Some(&b'"') {
            self.pos = start + stop + 1;
            let raw = rest.get(..stop).unwrap_or_default();
            return std::str::from_utf8(raw).map_err(|_| self.bad("invalid UTF-8"));
        }
        self.scratch.clear();
        let mut run = start;
        loop {
            let rest = self.text.get(self.pos..).unwrap_or_default();
            let Some(stop) = rest.iter().position(|&b| b == b'"' || b == b'\\') else {
                return Err(self.bad("unterminated string"));
            };
            self.pos += stop;
            let piece = self.text.get(run..self.pos).unwrap_or_default();
            self.scratch
                .push_str(std::str::from_utf8(piece).map_err(|_| self.bad("invalid UTF-8"))?);
            if self.peek() == Some(b'"') {
                self.pos += 1;
                return Ok(&self.scratch);
            }
            self.pos += 1;
            let c = match self.peek() {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    let hi = self.hex4()?;
                    let code = if (0xD800..0xDC00).contains(&hi) {
                        self.pos += 1;
                        self.expect(b"\\u")?;
                        self.pos -= 1;
                        let lo = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&lo) {
                            return Err(self.bad("lone surrogate"));
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    } else {
                        hi
                    };
                    char::from_u32(code).ok_or_else(|| self.bad("lone surrogate"))?
                }
                _ => return Err(self.bad("bad escape")),
            };
            // `\uXXXX` left `pos` on its last digit, the others on their letter.
            self.pos += 1;
            self.scratch.push(c);
            run = self.pos;
        }
    }

    /// The four hex digits after a `u` (`pos` on the `u`); `pos` left on the last digit.
    fn hex4(&mut self) -> PyResult<u32> {
        let digits =
            self.text.get(self.pos + 1..self.pos + 5).ok_or_else(|| self.bad("short escape"))?;
        let s = std::str::from_utf8(digits).map_err(|_| self.bad("bad escape"))?;
        let code = u32::from_str_radix(s, 16).map_err(|_| self.bad("bad escape"))?;
        self.pos += 4;
        Ok(code)
    }

    /// A number as `json.loads` reads it: an `int` when it has no fraction or exponent (of
    /// any size), else a `float`.
    fn number(&mut self) -> PyResult<Bound<'py, PyAny>> {
        let start = self.pos;
        let mut float = false;
        while let Some(b) = self.peek() {
            match b {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => float = true,
                _ => break,
            }
            self.pos += 1;
        }
        let raw = self.text.get(start..self.pos).unwrap_or_default();
        let s = std::str::from_utf8(raw).map_err(|_| self.bad("bad number"))?;
        if float {
            let x: f64 = s.parse().map_err(|_| self.bad("bad number"))?;
            return Ok(PyFloat::new(self.py, x).into_any());
        }
        match s.parse::<i64>() {
            Ok(n) => Ok(n.into_pyobject(self.py)?.into_any()),
            Err(_) => self.py.get_type::<PyInt>().call1((s,)),
        }
    }
}

/// The cache slot of a key's text.
fn slot_of(raw: &[u8]) -> usize {
    let mut h: u32 = 2_166_136_261;
    for &b in raw {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h as usize % KEY_SLOTS
}
