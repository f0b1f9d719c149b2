//! Python values in. Input is `bytes`, `bytearray`, `memoryview` or `str` (JSON text; `bytes`
//! and `str` borrowed, the others copied once, since they may change while the conversion runs
//! without the GIL), or Python data (dicts, lists, strings, numbers, booleans, `None`, and
//! pydantic models, read through their `model_dump`), which is written out here as compact JSON
//! text once, under the GIL, by one walk over the objects (no `json` module, no object made
//! per string or key), so the conversion itself runs without it. Numbers stay exact: an `int`
//! of any size is written as its digits, a `float` as Python's own shortest repr.
//!
//! With `share=True` the walk also notes where each of the caller's dicts and lists lies in the
//! text ([`Spans`]), so the output can hold the caller's own object wherever the conversion
//! wrote that text unchanged (see `build.rs`).

use std::fmt::Write as _;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMemoryView, PyString, PyTuple,
};

/// Input the conversion reads with the GIL released.
pub(crate) enum Input {
    Bytes(PyBackedBytes),
    Text(PyBackedStr),
    Written(Written),
}

/// Python data written as JSON text, with what the output build may take from it.
pub(crate) struct Written {
    pub(crate) text: Vec<u8>,
    /// The caller's plain dicts and lists (`share=True` only).
    pub(crate) spans: Spans,
    /// The caller's strings (values, not keys), in the order written: immutable, so the
    /// output holds the same `str` where it holds the same text, as a deep copy does.
    pub(crate) strings: Vec<Span>,
}

/// One of the caller's containers and the bytes of the written text it became.
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) object: Py<PyAny>,
}

/// The caller's dicts and lists, in the order their text begins (`share=True`).
pub(crate) type Spans = Vec<Span>;

impl Input {
    /// Reads `tools`: `bytes`, `bytearray`, `memoryview` and `str` as JSON text; dicts, lists
    /// and pydantic models as data, nested no deeper than `max_depth`. With `share`, notes
    /// where each plain dict and list was written.
    pub(crate) fn read(tools: &Bound<'_, PyAny>, max_depth: usize, share: bool) -> PyResult<Input> {
        if tools.is_instance_of::<PyBytes>() || tools.is_instance_of::<PyByteArray>() {
            return Ok(Input::Bytes(tools.extract()?));
        }
        if tools.is_instance_of::<PyMemoryView>() {
            // The limited API has no buffer protocol before 3.11: the view's bytes, copied.
            let bytes = tools.call_method0("tobytes")?;
            return Ok(Input::Bytes(bytes.extract()?));
        }
        if tools.is_instance_of::<PyString>() {
            return Ok(Input::Text(tools.extract()?));
        }
        if tools.is_instance_of::<PyDict>() || tools.is_instance_of::<PyList>() || is_model(tools) {
            let mut w = Writer::new(max_depth, share, true);
            w.run(tools)?;
            let (spans, strings) = (w.spans.unwrap_or_default(), w.strings.unwrap_or_default());
            return Ok(Input::Written(Written { text: w.out, spans, strings }));
        }
        Err(PyTypeError::new_err(format!(
            "tools must be bytes, bytearray, memoryview, str, a dict, a list or a pydantic model, not {}",
            type_name(tools)
        )))
    }

    /// The JSON text.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b,
            Input::Text(s) => s.as_bytes(),
            Input::Written(w) => &w.text,
        }
    }
}

/// Whether `v` is a model [`model_dump`] reads (without calling it).
pub(crate) fn is_model(v: &Bound<'_, PyAny>) -> bool {
    !v.is_instance_of::<pyo3::types::PyType>()
        && v.getattr(pyo3::intern!(v.py(), "model_dump")).is_ok_and(|d| d.is_callable())
}

/// A pydantic model's data, as its own serializer gives it for the wire
/// (`model_dump(by_alias=True, exclude_none=True)`: `inputSchema`, not `input_schema`; unset
/// optional members left out); `None` for anything without a `model_dump` method. Duck-typed:
/// the package does not depend on pydantic.
pub(crate) fn model_dump<'py>(v: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = v.py();
    // A class has the method too, unbound: only instances are data.
    if !is_model(v) {
        return Ok(None);
    }
    let dump = v.getattr(pyo3::intern!(py, "model_dump"))?;
    let kwargs = PyDict::new(py);
    kwargs.set_item(pyo3::intern!(py, "by_alias"), true)?;
    kwargs.set_item(pyo3::intern!(py, "exclude_none"), true)?;
    Ok(Some(dump.call((), Some(&kwargs))?))
}

/// Python data (or its JSON text) as a `serde_json::Value`, for the inverse map.
pub(crate) fn to_value(data: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: Vec<u8> = if let Ok(s) = data.extract::<PyBackedStr>() {
        s.as_bytes().to_vec()
    } else {
        let mut w = Writer::new(tooladapter::Limits::default().max_depth, false, false);
        w.run(data)?;
        w.out
    };
    serde_json::from_slice(&text).map_err(|e| PyValueError::new_err(format!("arguments: {e}")))
}

fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// What stopped the walk, and where: the path is gathered on the way out, so a walk that
/// succeeds never builds one.
struct Bad {
    fault: Fault,
    /// From the bad value up to the top.
    path: Vec<Step>,
}

enum Fault {
    Python(PyErr),
    Deep,
    Key(String),
    NotData(String),
    NotFinite(f64),
}

enum Step {
    Key(String),
    Index(usize),
}

impl From<PyErr> for Bad {
    fn from(e: PyErr) -> Bad {
        Bad { fault: Fault::Python(e), path: Vec::new() }
    }
}

impl Bad {
    fn new(fault: Fault) -> Bad {
        Bad { fault, path: Vec::new() }
    }

    fn at(mut self, step: Step) -> Bad {
        self.path.push(step);
        self
    }

    /// The Python exception, the path written as `[0]["inputSchema"]`.
    fn into_err(self, py: Python<'_>, max_depth: usize) -> PyErr {
        let mut path = String::new();
        for step in self.path.iter().rev() {
            let _ = match step {
                Step::Key(k) => write!(path, "[{k:?}]"),
                Step::Index(i) => write!(path, "[{i}]"),
            };
        }
        let place = if path.is_empty() { "the top".to_owned() } else { path };
        match self.fault {
            Fault::Python(e) => e,
            Fault::Deep => crate::errors::limit(
                py,
                "depth-limit",
                format!("data nested deeper than the limit of {max_depth} at {place}"),
            ),
            Fault::Key(t) => PyTypeError::new_err(format!("keys must be str, not {t} at {place}")),
            Fault::NotData(t) => PyTypeError::new_err(format!(
                "{t} at {place} is not JSON data (dict, list, str, int, float, bool, None or a pydantic model)"
            )),
            Fault::NotFinite(x) => {
                PyValueError::new_err(format!("{x} at {place} is not a JSON number"))
            }
        }
    }
}

struct Writer {
    out: Vec<u8>,
    max_depth: usize,
    spans: Option<Spans>,
    strings: Option<Vec<Span>>,
    /// Whether the container being written holds a value that is not plain JSON data of the
    /// exact built-in types (a tuple, a model, a subclass): such a container is not the
    /// output's to share, since `json.loads` would not give it back so.
    foreign: bool,
}

impl Writer {
    fn new(max_depth: usize, share: bool, strings: bool) -> Writer {
        Writer {
            out: Vec::new(),
            max_depth,
            spans: share.then(Vec::new),
            strings: strings.then(Vec::new),
            foreign: false,
        }
    }

    /// Writes `data`, the error's path made on the way out.
    fn run(&mut self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.write(data, 0).map_err(|bad| bad.into_err(data.py(), self.max_depth))
    }

    /// Writes `v` as JSON text. Stops at `max_depth` (the conversion's depth limit, which
    /// would refuse deeper input anyway), which keeps the recursion off the end of the stack
    /// for data built deeper still.
    fn write(&mut self, v: &Bound<'_, PyAny>, depth: usize) -> Result<(), Bad> {
        if depth > self.max_depth {
            return Err(Bad::new(Fault::Deep));
        }
        // The exact types first, the common case, each told by one pointer comparison.
        if let Ok(s) = v.cast_exact::<PyString>() {
            let start = self.out.len() + 1;
            write_str(s.to_str()?, &mut self.out);
            if let Some(strings) = self.strings.as_mut() {
                let end = self.out.len() - 1;
                strings.push(Span { start, end, object: v.clone().unbind() });
            }
        } else if let Ok(d) = v.cast_exact::<PyDict>() {
            let (start, outer) = (self.out.len(), std::mem::replace(&mut self.foreign, false));
            self.dict(d, depth)?;
            self.note(start, v, outer);
        } else if let Ok(l) = v.cast_exact::<PyList>() {
            let (start, outer) = (self.out.len(), std::mem::replace(&mut self.foreign, false));
            self.list(l.iter(), depth)?;
            self.note(start, v, outer);
        } else if v.is_none() {
            self.out.extend_from_slice(b"null");
        } else if let Ok(b) = v.cast::<PyBool>() {
            self.out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
        } else if v.is_instance_of::<PyInt>() {
            self.foreign |= !v.is_exact_instance_of::<PyInt>();
            self.int(v)?;
        } else if v.is_instance_of::<PyFloat>() {
            self.foreign |= !v.is_exact_instance_of::<PyFloat>();
            let x: f64 = v.extract()?;
            if !x.is_finite() {
                return Err(Bad::new(Fault::NotFinite(x)));
            }
            float_repr(x, &mut self.out);
        } else if let Ok(s) = v.cast::<PyString>() {
            self.foreign = true;
            write_str(s.to_str()?, &mut self.out);
        } else if let Ok(d) = v.cast::<PyDict>() {
            self.foreign = true;
            self.dict(d, depth)?;
        } else if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
            self.foreign = true;
            let items: PyResult<Vec<Bound<'_, PyAny>>> = v.try_iter()?.collect();
            self.list(items?.into_iter(), depth)?;
        } else if let Some(data) = model_dump(v)? {
            // The model's data stands where the model does; counted as a level, so a
            // `model_dump` that returns a model again cannot recurse without end.
            self.foreign = true;
            self.write(&data, depth + 1)?;
        } else {
            return Err(Bad::new(Fault::NotData(type_name(v))));
        }
        Ok(())
    }

    /// Notes that the container `v`'s text began at `start` and ends here, when it holds
    /// plain data only; `outer` is whether its own container held other data before it.
    fn note(&mut self, start: usize, v: &Bound<'_, PyAny>, outer: bool) {
        if let Some(spans) = self.spans.as_mut()
            && !self.foreign
        {
            spans.push(Span { start, end: self.out.len(), object: v.clone().unbind() });
        }
        self.foreign |= outer;
    }

    fn dict(&mut self, d: &Bound<'_, PyDict>, depth: usize) -> Result<(), Bad> {
        self.out.push(b'{');
        for (i, (k, item)) in d.iter().enumerate() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(Bad::new(Fault::Key(type_name(&k))));
            };
            if i > 0 {
                self.out.push(b',');
            }
            let key = key.to_str()?;
            write_str(key, &mut self.out);
            self.out.push(b':');
            self.write(&item, depth + 1).map_err(|b| b.at(Step::Key(key.to_owned())))?;
        }
        self.out.push(b'}');
        Ok(())
    }

    fn list<'py>(
        &mut self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        depth: usize,
    ) -> Result<(), Bad> {
        self.out.push(b'[');
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.write(&item, depth + 1).map_err(|b| b.at(Step::Index(i)))?;
        }
        self.out.push(b']');
        Ok(())
    }

    fn int(&mut self, v: &Bound<'_, PyAny>) -> Result<(), Bad> {
        match v.extract::<i64>() {
            Ok(n) => {
                let _ = write!(Text(&mut self.out), "{n}");
            }
            // Beyond 64 bits: the integer's own digits (`int.__repr__`, not a subclass's).
            Err(_) => {
                let digits = v.py().get_type::<PyInt>().call_method1("__repr__", (v,))?;
                self.out.extend_from_slice(digits.extract::<PyBackedStr>()?.as_bytes());
            }
        }
        Ok(())
    }
}

/// A byte buffer as a `fmt::Write` target.
struct Text<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Writes the finite `x` as Python's `repr(x)` does (and so `json.dumps`): the shortest digits
/// that read back as the same float, in positional notation when the decimal point falls
/// within 16 digits of them (with `.0` on a whole number), else as `d.ddde±XX`.
pub(crate) fn float_repr(x: f64, out: &mut Vec<u8>) {
    if x == 0.0 {
        out.extend_from_slice(if x.is_sign_negative() { b"-0.0" } else { b"0.0" });
        return;
    }
    // Rust's `{:e}` gives the same shortest round-trip digits: `-1.2345e-7`.
    let mut sci = String::new();
    let _ = write!(sci, "{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    if negative {
        out.push(b'-');
    }
    // Where the decimal point falls: the value is 0.DIGITS × 10^point.
    let point = exp + 1;
    let n = digits.len() as i32;
    if !(-4 < point && point <= 16) {
        let (first, rest) = digits.split_first().map_or((b'0', &[][..]), |(f, r)| (*f, r));
        out.push(first);
        if !rest.is_empty() {
            out.push(b'.');
            out.extend_from_slice(rest);
        }
        let _ = write!(Text(out), "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    } else if point <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', point.unsigned_abs() as usize));
        out.extend_from_slice(&digits);
    } else if point >= n {
        out.extend_from_slice(&digits);
        out.extend(std::iter::repeat_n(b'0', (point - n) as usize));
        out.extend_from_slice(b".0");
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        out.extend_from_slice(whole);
        out.push(b'.');
        out.extend_from_slice(fraction);
    }
}

/// `s` as a JSON string: quotes, backslashes and control characters escaped.
fn write_str(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Eight bytes at a time while none needs an escape: most text is plain.
        if let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok())
            && !needs_escape(u64::from_le_bytes(word))
        {
            i += 8;
            continue;
        }
        i += 1;
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        out.extend_from_slice(bytes.get(start..i - 1).unwrap_or_default());
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                let _ = write!(Text(out), "\\u{b:04x}");
            }
        }
        start = i;
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

/// Whether any of the eight bytes of `w` is a control character, `"` or `\` (the bytes JSON
/// text escapes): each test is the classic "has a byte below n" on the word, exact for the
/// word as a whole.
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    (below(w, 0x20)
        | below(w ^ (ONES * u64::from(b'"')), 1)
        | below(w ^ (ONES * u64::from(b'\\')), 1))
        != 0
}
