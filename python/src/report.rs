//! Report entries as Python objects: one immutable `ReportEntry` per crate entry, its fields
//! as attributes (`tool`, `severity`, `code`, `effect`, `arguments`, `feature`, `pointer`,
//! `from_format`, `to_format`, `message`).

use pyo3::prelude::*;
use pyo3::types::PyList;

/// One report entry: what changed in one tool, how much it matters, and where.
#[pyclass(module = "tooladapter", name = "ReportEntry", frozen, get_all)]
pub(crate) struct Entry {
    /// The tool's name (empty for catalog-level entries).
    tool: String,
    /// `info`, `warning` or `error`.
    severity: &'static str,
    /// The stable code (`keyword-dropped`, `metadata-dropped`, …).
    code: &'static str,
    /// What the change does to the calls the tool accepts: `none`, `narrows`, `widens`,
    /// `changes`.
    effect: &'static str,
    /// Whether the entry is about the arguments (else metadata no argument depends on).
    arguments: bool,
    /// The keyword or member concerned.
    feature: String,
    /// RFC 6901 pointer to the place in the source tool.
    pointer: String,
    /// The source format.
    from_format: String,
    /// The target format.
    to_format: String,
    /// What happened, for people.
    message: String,
}

#[pymethods]
impl Entry {
    fn __repr__(&self) -> String {
        format!(
            "<ReportEntry {}[{}] {} tool={:?} pointer={:?}>",
            self.severity, self.effect, self.code, self.tool, self.pointer
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}[{}]: [{}] tool {:?} at {:?}: {}",
            self.severity, self.effect, self.code, self.tool, self.pointer, self.message
        )
    }
}

/// The entries as a Python list.
pub(crate) fn entries<'a, 'py>(
    py: Python<'py>,
    entries: impl Iterator<Item = &'a tooladapter::ReportEntry>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for e in entries {
        let entry = Entry {
            tool: e.tool.clone(),
            severity: e.severity.as_str(),
            code: e.code.as_str(),
            effect: e.effect.as_str(),
            arguments: e.arguments,
            feature: e.feature.clone(),
            pointer: e.pointer.clone(),
            from_format: e.from.clone(),
            to_format: e.to.clone(),
            message: e.message.clone(),
        };
        list.append(Bound::new(py, entry)?)?;
    }
    Ok(list)
}
