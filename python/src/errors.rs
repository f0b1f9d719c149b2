//! The Python exceptions: `ConversionError` (a `ValueError`) with the crate error's fields as
//! attributes, and its subclasses `ParseError` (not well-formed JSON) and `LimitError` (a
//! safety limit stopped the conversion).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    tooladapter,
    ConversionError,
    PyValueError,
    "A conversion failed: `adapter`, `direction`, `pointer`, `tool` and `kind` say where and why."
);
create_exception!(tooladapter, ParseError, ConversionError, "The input is not well-formed JSON.");
create_exception!(
    tooladapter,
    LimitError,
    ConversionError,
    "A safety limit (input size, nesting depth, memory, `$ref` expansion, output size) stopped the conversion."
);

/// The Python exception for a crate error, its fields set as attributes.
pub(crate) fn to_py_err(py: Python<'_>, e: &tooladapter::ConversionError) -> PyErr {
    let kind = e.kind();
    let err = if kind.is_syntax() {
        ParseError::new_err(e.to_string())
    } else if kind.is_limit() {
        LimitError::new_err(e.to_string())
    } else {
        ConversionError::new_err(e.to_string())
    };
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("adapter", e.adapter())?;
        value.setattr("direction", e.direction().to_string())?;
        value.setattr("pointer", e.pointer())?;
        value.setattr("tool", e.tool())?;
        value.setattr("kind", kind.name())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(set_failed) => set_failed,
    }
}

/// A `ConversionError` the binding raises itself (an unknown format or option name), with the
/// same attributes as one from a conversion.
pub(crate) fn usage(py: Python<'_>, kind: &'static str, message: String) -> PyErr {
    own(py, ConversionError::new_err(message), kind)
}

/// A `LimitError` the binding raises itself (Python data nested past the depth limit).
pub(crate) fn limit(py: Python<'_>, kind: &'static str, message: String) -> PyErr {
    own(py, LimitError::new_err(message), kind)
}

fn own(py: Python<'_>, err: PyErr, kind: &'static str) -> PyErr {
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("adapter", py.None())?;
        value.setattr("direction", py.None())?;
        value.setattr("pointer", "")?;
        value.setattr("tool", py.None())?;
        value.setattr("kind", kind)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(set_failed) => set_failed,
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ConversionError", py.get_type::<ConversionError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    Ok(())
}
