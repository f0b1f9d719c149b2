//! The Python exceptions and warning: `ConversionError` (a `ValueError`) with the crate error's
//! fields as attributes, its subclasses `ParseError` (not well-formed JSON) and `LimitError` (a
//! safety limit stopped the conversion), and `LeftOutWarning`, which `errors="report"` issues
//! for the tools a conversion left out.

use pyo3::create_exception;
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

create_exception!(
    tooladapter,
    ConversionError,
    PyValueError,
    "A conversion failed: `adapter`, `direction`, `pointer`, `tool` and `kind` say where and why; `report` holds the conversion's entries when it ran to the end (a tool left out, a loss denied), else None."
);
create_exception!(tooladapter, ParseError, ConversionError, "The input is not well-formed JSON.");
create_exception!(
    tooladapter,
    LimitError,
    ConversionError,
    "A safety limit (input size, nesting depth, memory, `$ref` expansion, output size) stopped the conversion."
);
create_exception!(
    tooladapter,
    LeftOutWarning,
    PyUserWarning,
    "A conversion with errors=\"report\" left tools out: the conversion's report has an `error` entry for each."
);

/// The Python exception for a crate error, its fields set as attributes (`report` None).
pub(crate) fn to_py_err(py: Python<'_>, e: &tooladapter::ConversionError) -> PyErr {
    with_report(py, e, None)
}

/// As [`to_py_err`], with the entries of the conversion the error ends as `report`.
pub(crate) fn with_report(
    py: Python<'_>,
    e: &tooladapter::ConversionError,
    report: Option<Bound<'_, PyList>>,
) -> PyErr {
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
        value.setattr("report", report)?;
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
        value.setattr("report", py.None())?;
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
    m.add("LeftOutWarning", py.get_type::<LeftOutWarning>())?;
    Ok(())
}
