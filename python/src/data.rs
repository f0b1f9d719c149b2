//! Python values in and out. Input is `bytes` or `str` (borrowed, not copied) or plain Python
//! data (dicts, lists, strings, numbers, booleans, `None`), which is written out as JSON text
//! once, under the GIL, so the conversion itself runs without it. Output becomes Python data
//! through the `json` module's C parser, which builds objects faster than code here could.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Deepest nesting of Python data written out: the crate's default depth limit, which would
/// refuse deeper input anyway; stopping here keeps the writer's recursion off the end of the
/// stack for data built deeper still.
fn max_depth() -> usize {
    tooladapter::Limits::default().max_depth
}

/// Input the conversion reads with the GIL released.
pub(crate) enum Input {
    Bytes(PyBackedBytes),
    Text(PyBackedStr),
    Written(Vec<u8>),
}

impl Input {
    /// Reads `tools`: `bytes`/`bytearray`-like objects and `str` as JSON text, dicts and lists
    /// as data.
    pub(crate) fn read(tools: &Bound<'_, PyAny>) -> PyResult<Input> {
        if tools.is_instance_of::<PyBytes>() {
            return Ok(Input::Bytes(tools.extract()?));
        }
        if tools.is_instance_of::<PyString>() {
            return Ok(Input::Text(tools.extract()?));
        }
        if tools.is_instance_of::<PyDict>() || tools.is_instance_of::<PyList>() {
            let mut out = Vec::new();
            write(tools, &mut out, 0, &mut String::new())?;
            return Ok(Input::Written(out));
        }
        Err(PyTypeError::new_err(format!(
            "tools must be bytes, str, a dict or a list, not {}",
            type_name(tools)
        )))
    }

    /// The JSON text.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b,
            Input::Text(s) => s.as_bytes(),
            Input::Written(v) => v,
        }
    }
}

/// Python data (or its JSON text) as a `serde_json::Value`, for the inverse map.
pub(crate) fn to_value(data: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: Vec<u8> = if let Ok(s) = data.extract::<PyBackedStr>() {
        s.as_bytes().to_vec()
    } else {
        let mut out = Vec::new();
        write(data, &mut out, 0, &mut String::new())?;
        out
    };
    serde_json::from_slice(&text).map_err(|e| PyValueError::new_err(format!("arguments: {e}")))
}

/// A `serde_json::Value` as Python data.
pub(crate) fn from_value<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_vec(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.getattr("loads")?.call1((PyBytes::new(py, &text),))
}

fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// Writes `v` as JSON text; `path` is where in the data it is, for errors (`[0]["inputSchema"]`).
fn write(v: &Bound<'_, PyAny>, out: &mut Vec<u8>, depth: usize, path: &mut String) -> PyResult<()> {
    if depth > max_depth() {
        let message = format!("data nested deeper than the limit of {} at {path}", max_depth());
        return Err(crate::errors::limit(v.py(), "depth-limit", message));
    }
    if v.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(b) = v.cast::<PyBool>() {
        out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
    } else if let Ok(s) = v.cast::<PyString>() {
        write_str(&s.to_cow()?, out);
    } else if v.is_instance_of::<PyInt>() {
        match v.extract::<i64>() {
            Ok(n) => out.extend_from_slice(n.to_string().as_bytes()),
            // Beyond 64 bits: the integer's own digits (`int.__repr__`, not a subclass's).
            Err(_) => {
                let digits = v.py().get_type::<PyInt>().call_method1("__repr__", (v,))?;
                out.extend_from_slice(digits.extract::<PyBackedStr>()?.as_bytes());
            }
        }
    } else if v.is_instance_of::<PyFloat>() {
        let x: f64 = v.extract()?;
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!("{x} at {path} is not a JSON number")));
        }
        // `float.__repr__` is the shortest text that reads back as the same float, as
        // `json.dumps` writes it.
        let text = v.py().get_type::<PyFloat>().call_method1("__repr__", (v,))?;
        out.extend_from_slice(text.extract::<PyBackedStr>()?.as_bytes());
    } else if let Ok(d) = v.cast::<PyDict>() {
        out.push(b'{');
        for (i, (k, item)) in d.iter().enumerate() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "keys must be str, not {} at {path}",
                    type_name(&k)
                )));
            };
            if i > 0 {
                out.push(b',');
            }
            let key = key.to_cow()?;
            write_str(&key, out);
            out.push(b':');
            let len = path.len();
            path.push_str(&format!("[{key:?}]"));
            write(&item, out, depth + 1, path)?;
            path.truncate(len);
        }
        out.push(b'}');
    } else if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        out.push(b'[');
        for (i, item) in v.try_iter()?.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            write(&item?, out, depth + 1, path)?;
            path.truncate(len);
        }
        out.push(b']');
    } else {
        return Err(PyTypeError::new_err(format!(
            "{} at {} is not JSON data (dict, list, str, int, float, bool or None)",
            type_name(v),
            if path.is_empty() { "the top" } else { path.as_str() }
        )));
    }
    Ok(())
}

/// `s` as a JSON string: quotes, backslashes and control characters escaped.
fn write_str(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&s.as_bytes()[start..i]);
        if esc.is_empty() {
            out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&s.as_bytes()[start..]);
    out.push(b'"');
}
