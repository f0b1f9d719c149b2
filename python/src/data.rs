//! Python values in and out. Input is `bytes`, `bytearray`, `memoryview` or `str` (JSON text;
//! `bytes` and `str` borrowed, the others copied once, since they may change while the
//! conversion runs without the GIL), or Python data (dicts, lists, strings, numbers, booleans,
//! `None`, and pydantic models, read through their `model_dump`), which is written out as JSON
//! text once, under the GIL, so the conversion itself runs without it. Output becomes Python
//! data through the `json` module's C parser, which builds objects faster than code here could.

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
    Written(Vec<u8>),
}

impl Input {
    /// Reads `tools`: `bytes`, `bytearray`, `memoryview` and `str` as JSON text; dicts, lists
    /// and pydantic models as data, nested no deeper than `max_depth`.
    pub(crate) fn read(tools: &Bound<'_, PyAny>, max_depth: usize) -> PyResult<Input> {
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
            let mut out = Vec::new();
            write(tools, &mut out, 0, max_depth, &mut String::new())?;
            return Ok(Input::Written(out));
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
            Input::Written(v) => v,
        }
    }
}

/// Whether `v` is a model [`model_dump`] reads (without calling it).
fn is_model(v: &Bound<'_, PyAny>) -> bool {
    !v.is_instance_of::<pyo3::types::PyType>()
        && v.getattr(pyo3::intern!(v.py(), "model_dump")).is_ok_and(|d| d.is_callable())
}

/// A pydantic model's data, as its own serializer gives it for the wire
/// (`model_dump(by_alias=True, exclude_none=True)`: `inputSchema`, not `input_schema`; unset
/// optional members left out); `None` for anything without a `model_dump` method. Duck-typed:
/// the package does not depend on pydantic.
fn model_dump<'py>(v: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
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
        let mut out = Vec::new();
        let depth = tooladapter::Limits::default().max_depth;
        write(data, &mut out, 0, depth, &mut String::new())?;
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
/// Stops at `max_depth` (the conversion's depth limit, which would refuse deeper input
/// anyway), which keeps the recursion off the end of the stack for data built deeper still.
fn write(
    v: &Bound<'_, PyAny>,
    out: &mut Vec<u8>,
    depth: usize,
    max_depth: usize,
    path: &mut String,
) -> PyResult<()> {
    if depth > max_depth {
        let message = format!("data nested deeper than the limit of {max_depth} at {path}");
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
            write(&item, out, depth + 1, max_depth, path)?;
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
            write(&item?, out, depth + 1, max_depth, path)?;
            path.truncate(len);
        }
        out.push(b']');
    } else if let Some(data) = model_dump(v)? {
        // The model's data stands where the model does; counted as a level, so a
        // `model_dump` that returns a model again cannot recurse without end.
        write(&data, out, depth + 1, max_depth, path)?;
    } else {
        return Err(PyTypeError::new_err(format!(
            "{} at {} is not JSON data (dict, list, str, int, float, bool, None or a pydantic model)",
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
