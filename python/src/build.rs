//! Python values out: the output's JSON text made into Python objects here, not through the
//! `json` module, in two steps. The first, [`plan`], runs without the GIL: it reads the text
//! once into a flat list of [`Op`]s (containers with their sizes, keys numbered per distinct
//! text, strings located and unescaped, numbers parsed, the caller's own strings and
//! containers found), so the second, [`Plan::build`], holding the GIL, only makes objects:
//! lists made at their size, each key made once per document and interned (the envelope's
//! `type`, `function`, `parameters`, … are the same objects in every tool, and compare by
//! identity in the caller's dicts), numbers exactly as `json.loads` reads them (an integer of
//! any size, a float correctly rounded). Threads converting at once then wait on each other
//! only while objects are made.
//!
//! With the caller's objects at hand (`share=True`, [`crate::data::Spans`]), a dict or list of
//! the output whose text is byte for byte the text a caller's container was written as *is*
//! that container: the conversion left it as it was. Where the containers of the output begin
//! and end is found first, in the same GIL-free step ([`Outline`]).

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

/// The output length from which its text is read without the GIL.
const DETACH_FROM: usize = 4096;

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
                        match memchr::memchr2(b'"', b'\\', rest) {
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

    /// The number of the caller's container written as `out[start..]`, the next container of
    /// the output, and where it ends; `None` when no container of the caller's was written so.
    fn find(&mut self, out: &[u8], start: usize) -> (Option<usize>, usize, usize) {
        let Some(&(end, inside)) = self.outline.ends.get(self.next) else {
            return (None, 0, 0);
        };
        let mine = out.get(start..end).unwrap_or_default();
        let key = fingerprint(out, start, end);
        let from = self.sorted.partition_point(|(f, _)| *f < key);
        let found =
            self.sorted.iter().skip(from).map_while(|(f, i)| {
                if *f == key { self.spans.get(*i).map(|s| (*i, s)) } else { None }
            });
        let mut best: Option<(usize, &'s crate::data::Span)> = None;
        for (i, s) in found {
            if s.start >= self.cursor
                && best.is_none_or(|(_, b)| s.start < b.start)
                && self.text.get(s.start..s.end) == Some(mine)
            {
                best = Some((i, s));
            }
        }
        match best {
            Some((i, s)) => {
                self.cursor = s.end;
                (Some(i), end, inside)
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

/// One step of making the output's objects, in the order of the text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// A dict of this many members, each a [`Op::Key`] followed by its value's steps.
    Dict(usize),
    /// A list of this many elements.
    List(usize),
    /// A member's key: its number among the document's keys ([`Plan::keys`]).
    Key(usize),
    /// A string without escapes, `text[start..end]`.
    Str(usize, usize),
    /// A string with escapes, unescaped into `Plan::unescaped[start..end]`.
    Unescaped(usize, usize),
    /// The caller's own string: `Written::strings[i]`.
    Caller(usize),
    /// The caller's own container: `Written::spans[i]` (`share=True`).
    Shared(usize),
    /// An integer within 64 bits.
    Int(i64),
    /// An integer beyond 64 bits: its digits, `text[start..end]`.
    BigInt(usize, usize),
    /// A number with a fraction or an exponent.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// Where a key's text is: in the output text, or (escaped there) in `Plan::unescaped`.
#[derive(Clone, Copy, Debug)]
struct KeyText {
    unescaped: bool,
    start: usize,
    end: usize,
}

thread_local! {
    /// Each thread's steps buffer, kept between documents (a plan takes it and gives it back).
    static OPS: std::cell::Cell<Vec<Op>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Steps a buffer may hold and still be kept for the next document.
const OPS_KEPT: usize = 1 << 20;

/// The output read and ready to be made into objects ([`plan`], then [`Plan::build`]).
pub(crate) struct Plan<'t> {
    text: &'t str,
    ops: Vec<Op>,
    keys: Vec<KeyText>,
    unescaped: String,
}

/// Reads the JSON `text` (the crate's output) into the steps that make its objects, without
/// the GIL: the caller's strings of `input` are taken where the output holds the same text,
/// and with `share`, the caller's plain containers where the output holds one's text.
pub(crate) fn plan<'t>(
    text: &'t [u8],
    input: Option<&Written>,
    share: bool,
) -> Result<Plan<'t>, String> {
    let whole = std::str::from_utf8(text).map_err(|e| format!("invalid UTF-8: {e}"))?;
    let strings = input.map(|w| Strings { strings: &w.strings, text: &w.text, cursor: 0 });
    let share = match (share, input) {
        (true, Some(w)) => Some(Share::new(&w.spans, &w.text, Outline::of(text))),
        _ => None,
    };
    let mut p = Planner {
        text,
        pos: 0,
        ops: OPS.take(),
        keys: Vec::new(),
        slots: vec![None; KEY_SLOTS],
        unescaped: String::new(),
        share,
        strings,
    };
    p.value(0)?;
    p.skip_ws();
    if p.pos != text.len() {
        return Err(p.bad("text after the value"));
    }
    Ok(Plan { text: whole, ops: p.ops, keys: p.keys, unescaped: p.unescaped })
}

/// Builds Python objects from the JSON `text` (the crate's output), taking the strings of
/// `input` (the caller's data as written) where the output holds the same text, and with
/// `share` its plain containers too: [`plan`] without the GIL, then [`Plan::build`].
pub(crate) fn build<'py>(
    py: Python<'py>,
    text: &[u8],
    input: Option<&Written>,
    share: bool,
) -> PyResult<Bound<'py, PyAny>> {
    // A small text (a call's arguments, a single tool) is read in less time than giving the
    // GIL away and waiting for it back can take when other threads want it.
    let plan = if text.len() < DETACH_FROM {
        plan(text, input, share)
    } else {
        py.detach(|| plan(text, input, share))
    };
    plan.map_err(|e| PyValueError::new_err(format!("output JSON: {e}")))?.build(py, input)
}

impl Drop for Plan<'_> {
    fn drop(&mut self) {
        let mut ops = std::mem::take(&mut self.ops);
        if ops.capacity() <= OPS_KEPT {
            ops.clear();
            OPS.set(ops);
        }
    }
}

impl Plan<'_> {
    /// Makes the objects, `input` being the caller's data the plan was made with.
    pub(crate) fn build<'py>(
        &self,
        py: Python<'py>,
        input: Option<&Written>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut m = Maker {
            py,
            plan: self,
            at: 0,
            keys: (0..self.keys.len()).map(|_| None).collect(),
            stack: Vec::new(),
            input,
        };
        // The objects built are a tree, with no cycle for the cyclic collector to find: it is
        // held off while they are made (it would walk the young ones every few hundred
        // objects) and runs, when it was on, as the caller's next allocations ask. The GIL is
        // held throughout, so no other thread's code runs while it is off.
        let gc = py.import(pyo3::intern!(py, "gc"))?;
        let was_on = gc.call_method0(pyo3::intern!(py, "isenabled"))?.is_truthy()?;
        if was_on {
            gc.call_method0(pyo3::intern!(py, "disable"))?;
        }
        let value = m.value();
        if was_on {
            gc.call_method0(pyo3::intern!(py, "enable"))?;
        }
        value
    }
}

/// The GIL-free reader of the output text.
struct Planner<'t, 's> {
    text: &'t [u8],
    pos: usize,
    ops: Vec<Op>,
    keys: Vec<KeyText>,
    /// A direct-mapped cache of key texts to their numbers: a key that collides is numbered
    /// again (and made again).
    slots: Vec<Option<(&'t [u8], usize)>>,
    unescaped: String,
    share: Option<Share<'s>>,
    strings: Option<Strings<'s>>,
}

impl<'t> Planner<'t, '_> {
    fn bad(&self, what: &str) -> String {
        format!("{what} at byte {}", self.pos)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, word: &[u8]) -> Result<(), String> {
        if self.text.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.bad("unexpected text"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.bad("nesting too deep"));
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{' | b'[') => {
                if let Some(share) = self.share.as_mut() {
                    let (found, end, inside) = share.find(self.text, self.pos);
                    if let Some(i) = found {
                        share.next += 1 + inside;
                        self.pos = end;
                        self.ops.push(Op::Shared(i));
                        return Ok(());
                    }
                    share.next += 1;
                }
                if self.peek() == Some(b'{') { self.object(depth) } else { self.array(depth) }
            }
            Some(b'"') => {
                if !self.callers_string() {
                    let op = self.string()?;
                    self.ops.push(op);
                }
                Ok(())
            }
            Some(b't') => self.expect(b"true").map(|()| self.ops.push(Op::Bool(true))),
            Some(b'f') => self.expect(b"false").map(|()| self.ops.push(Op::Bool(false))),
            Some(b'n') => self.expect(b"null").map(|()| self.ops.push(Op::Null)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.bad("expected a value")),
        }
    }

    /// Sets the size of the container whose step is at `at`.
    fn close(&mut self, at: usize, n: usize) {
        if let Some(Op::Dict(size) | Op::List(size)) = self.ops.get_mut(at) {
            *size = n;
        }
    }

    fn object(&mut self, depth: usize) -> Result<(), String> {
        self.pos += 1;
        let at = self.ops.len();
        self.ops.push(Op::Dict(0));
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        let mut n = 0;
        loop {
            self.skip_ws();
            let key = self.key()?;
            self.ops.push(Op::Key(key));
            self.skip_ws();
            self.expect(b":")?;
            self.value(depth + 1)?;
            n += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.close(at, n);
                    return Ok(());
                }
                _ => return Err(self.bad("expected , or }")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<(), String> {
        self.pos += 1;
        let at = self.ops.len();
        self.ops.push(Op::List(0));
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        let mut n = 0;
        loop {
            self.value(depth + 1)?;
            n += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.close(at, n);
                    return Ok(());
                }
                _ => return Err(self.bad("expected , or ]")),
            }
        }
    }

    /// Whether the string at `pos` (one without escapes) has the text of one of the next few
    /// strings the caller gave: its step is then the caller's `str`, and `pos` past it.
    fn callers_string(&mut self) -> bool {
        let Some(strings) = self.strings.as_mut() else { return false };
        let Some(rest) = self.text.get(self.pos + 1..) else { return false };
        let Some(len) = memchr::memchr2(b'"', b'\\', rest) else { return false };
        if rest.get(len) != Some(&b'"') {
            return false;
        }
        let raw = rest.get(..len).unwrap_or_default();
        let window = strings.strings.get(strings.cursor..).unwrap_or_default();
        for (i, s) in window.iter().take(STRING_WINDOW).enumerate() {
            if strings.text.get(s.start..s.end) == Some(raw) {
                self.ops.push(Op::Caller(strings.cursor + i));
                strings.cursor += i + 1;
                self.pos += len + 2;
                return true;
            }
        }
        false
    }

    /// A key's number: the same for the same key text within the document (as long as the
    /// cache keeps it).
    fn key(&mut self) -> Result<usize, String> {
        if self.peek() != Some(b'"') {
            return Err(self.bad("expected a key"));
        }
        let start = self.pos;
        let raw_end = self.text.get(start + 1..).and_then(|rest| {
            memchr::memchr2(b'"', b'\\', rest).filter(|&i| rest.get(i) == Some(&b'"'))
        });
        let Some(len) = raw_end else {
            // Escapes in the key: numbered each time (rare).
            let Op::Unescaped(start, end) = self.string()? else {
                return Err(self.bad("bad key"));
            };
            self.keys.push(KeyText { unescaped: true, start, end });
            return Ok(self.keys.len() - 1);
        };
        let text = self.text;
        let raw = text.get(start + 1..start + 1 + len).unwrap_or_default();
        self.pos = start + len + 2;
        let slot = slot_of(raw);
        if let Some(Some((k, n))) = self.slots.get(slot)
            && *k == raw
        {
            return Ok(*n);
        }
        let n = self.keys.len();
        self.keys.push(KeyText { unescaped: false, start: start + 1, end: start + 1 + len });
        if let Some(entry) = self.slots.get_mut(slot) {
            *entry = Some((raw, n));
        }
        Ok(n)
    }

    /// A string's step: its place in the text when it has no escape, else its text unescaped.
    fn string(&mut self) -> Result<Op, String> {
        self.pos += 1;
        let start = self.pos;
        let rest = self.text.get(start..).unwrap_or_default();
        let Some(stop) = memchr::memchr2(b'"', b'\\', rest) else {
            return Err(self.bad("unterminated string"));
        };
        if rest.get(stop) == Some(&b'"') {
            self.pos = start + stop + 1;
            return Ok(Op::Str(start, start + stop));
        }
        let from = self.unescaped.len();
        let mut run = start;
        loop {
            let rest = self.text.get(self.pos..).unwrap_or_default();
            let Some(stop) = memchr::memchr2(b'"', b'\\', rest) else {
                return Err(self.bad("unterminated string"));
            };
            self.pos += stop;
            let piece = self.text.get(run..self.pos).unwrap_or_default();
            let piece = std::str::from_utf8(piece).map_err(|_| self.bad("invalid UTF-8"))?;
            self.unescaped.push_str(piece);
            if self.peek() == Some(b'"') {
                self.pos += 1;
                return Ok(Op::Unescaped(from, self.unescaped.len()));
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
            self.unescaped.push(c);
            run = self.pos;
        }
    }

    /// The four hex digits after a `u` (`pos` on the `u`); `pos` left on the last digit.
    fn hex4(&mut self) -> Result<u32, String> {
        let digits =
            self.text.get(self.pos + 1..self.pos + 5).ok_or_else(|| self.bad("short escape"))?;
        let s = std::str::from_utf8(digits).map_err(|_| self.bad("bad escape"))?;
        let code = u32::from_str_radix(s, 16).map_err(|_| self.bad("bad escape"))?;
        self.pos += 4;
        Ok(code)
    }

    /// A number as `json.loads` reads it: an `int` when it has no fraction or exponent (of
    /// any size), else a `float`.
    fn number(&mut self) -> Result<(), String> {
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
        let op = if float {
            Op::Float(s.parse().map_err(|_| self.bad("bad number"))?)
        } else {
            match s.parse::<i64>() {
                Ok(n) => Op::Int(n),
                Err(_) => Op::BigInt(start, self.pos),
            }
        };
        self.ops.push(op);
        Ok(())
    }
}

/// The maker of a plan's objects, under the GIL.
struct Maker<'py, 'p, 'w> {
    py: Python<'py>,
    plan: &'p Plan<'p>,
    at: usize,
    /// Each key's object, made on its first use.
    keys: Vec<Option<Bound<'py, PyString>>>,
    /// The elements of the lists being made, so each list is made at its size.
    stack: Vec<Bound<'py, PyAny>>,
    input: Option<&'w Written>,
}

impl<'py> Maker<'py, '_, '_> {
    fn bad(&self, what: &str) -> PyErr {
        bad_step(self.at, what)
    }

    fn text(&self, start: usize, end: usize) -> PyResult<&str> {
        self.plan.text.get(start..end).ok_or_else(|| self.bad("bad string"))
    }

    fn value(&mut self) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let op = self.plan.ops.get(self.at).copied().ok_or_else(|| self.bad("no value"))?;
        self.at += 1;
        Ok(match op {
            Op::Dict(n) => {
                let dict = PyDict::new(py);
                for _ in 0..n {
                    let Some(Op::Key(k)) = self.plan.ops.get(self.at).copied() else {
                        return Err(self.bad("expected a key"));
                    };
                    self.at += 1;
                    let value = self.value()?;
                    dict.set_item(self.key(k)?, value)?;
                }
                dict.into_any()
            }
            Op::List(n) => {
                let base = self.stack.len();
                for _ in 0..n {
                    let value = self.value()?;
                    self.stack.push(value);
                }
                PyList::new(py, self.stack.drain(base..))?.into_any()
            }
            Op::Str(start, end) => PyString::new(py, self.text(start, end)?).into_any(),
            Op::Unescaped(start, end) => {
                let s =
                    self.plan.unescaped.get(start..end).ok_or_else(|| self.bad("bad string"))?;
                PyString::new(py, s).into_any()
            }
            Op::Caller(i) => {
                let s = self.input.and_then(|w| w.strings.get(i));
                s.ok_or_else(|| self.bad("no such string"))?.object.bind(py).clone()
            }
            Op::Shared(i) => {
                let s = self.input.and_then(|w| w.spans.get(i));
                s.ok_or_else(|| self.bad("no such container"))?.object.bind(py).clone()
            }
            Op::Int(n) => n.into_pyobject(py)?.into_any(),
            Op::BigInt(start, end) => py.get_type::<PyInt>().call1((self.text(start, end)?,))?,
            Op::Float(x) => PyFloat::new(py, x).into_any(),
            Op::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            Op::Null => py.None().into_bound(py),
            Op::Key(_) => return Err(self.bad("a key where a value is")),
        })
    }

    /// Key `k`'s object: made and interned on its first use.
    fn key(&mut self, k: usize) -> PyResult<&Bound<'py, PyString>> {
        let KeyText { unescaped, start, end } =
            self.plan.keys.get(k).copied().ok_or_else(|| self.bad("no such key"))?;
        let text = if unescaped { &self.plan.unescaped } else { self.plan.text };
        let text = text.get(start..end).ok_or_else(|| self.bad("bad key"))?;
        let (py, at) = (self.py, self.at);
        let slot = self.keys.get_mut(k).ok_or_else(|| bad_step(at, "no such key"))?;
        Ok(slot.get_or_insert_with(|| PyString::intern(py, text)))
    }
}

/// The error of a plan that does not make a value (never, for a plan [`plan`] made).
fn bad_step(at: usize, what: &str) -> PyErr {
    PyValueError::new_err(format!("output JSON: {what} at step {at}"))
}

/// The cache slot of a key's text.
fn slot_of(raw: &[u8]) -> usize {
    let mut h: u32 = 2_166_136_261;
    for &b in raw {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h as usize % KEY_SLOTS
}
