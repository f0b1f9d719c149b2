//! Report entries as Python objects: one immutable `ReportEntry` per crate entry, its fields
//! as attributes (`tool`, `severity`, `code`, `effect`, `arguments`, `feature`, `pointer`,
//! `tool_pointer`, `output_pointer`, `index`, `from_format`, `to_format`, `message`), equal
//! when their fields are, hashable, picklable and `to_dict()`-able.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use tooladapter::{Effect, Report, ReportEntry, Severity};

/// One report entry: what changed in one tool, how much it matters, and where.
#[pyclass(module = "tooladapter", name = "ReportEntry", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Entry {
    /// The tool's name (empty for catalog-level entries).
    tool: String,
    /// `info`, `warning` or `error`.
    severity: String,
    /// The stable code (`keyword-dropped`, `metadata-dropped`, …).
    code: String,
    /// What the change does to the calls the tool accepts: `none`, `narrows`, `widens`,
    /// `changes`.
    effect: String,
    /// Whether the entry is about the arguments (else metadata no argument depends on).
    arguments: bool,
    /// The keyword or member concerned.
    feature: String,
    /// RFC 6901 pointer to the place in the input document (`/tools/3/inputSchema/…`).
    pointer: String,
    /// The same place in the tool (`/inputSchema/…`), whatever the tool's place.
    tool_pointer: String,
    /// Where the place went in the converted schema, when the source has no such place.
    output_pointer: Option<String>,
    /// The tool's place among the document's tools (0-based, the tools left out counted; 0
    /// for a single tool); `None` for an entry about the catalog as a whole.
    index: Option<usize>,
    /// The source format.
    from_format: String,
    /// The target format.
    to_format: String,
    /// What happened, for people.
    message: String,
}

/// The constructor's and `__reduce__`'s argument order.
const FIELDS: [&str; 13] = [
    "tool",
    "severity",
    "code",
    "effect",
    "arguments",
    "feature",
    "pointer",
    "tool_pointer",
    "output_pointer",
    "index",
    "from_format",
    "to_format",
    "message",
];

#[pymethods]
impl Entry {
    /// An entry from its fields (what `to_dict()` gives and pickling passes).
    #[new]
    #[allow(clippy::too_many_arguments, reason = "the entry's fields, as Python names them")]
    #[pyo3(signature = (tool, severity, code, effect, arguments, feature, pointer, tool_pointer, output_pointer, index, from_format, to_format, message))]
    fn new(
        tool: String,
        severity: String,
        code: String,
        effect: String,
        arguments: bool,
        feature: String,
        pointer: String,
        tool_pointer: String,
        output_pointer: Option<String>,
        index: Option<usize>,
        from_format: String,
        to_format: String,
        message: String,
    ) -> PyResult<Entry> {
        // The crate's own names: a severity or effect it adds is accepted here unchanged.
        let severity = severity
            .parse::<Severity>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .as_str()
            .to_owned();
        let Some(known) = Effect::ALL.iter().find(|e| e.as_str() == effect) else {
            let names: Vec<&str> = Effect::ALL.iter().map(|e| e.as_str()).collect();
            let message =
                format!("unknown effect {effect:?}; expected one of: {}", names.join(", "));
            return Err(PyValueError::new_err(message));
        };
        let effect = known.as_str().to_owned();
        Ok(Entry {
            tool,
            severity,
            code,
            effect,
            arguments,
            feature,
            pointer,
            tool_pointer,
            output_pointer,
            index,
            from_format,
            to_format,
            message,
        })
    }

    /// The fields as a dict (the constructor's keyword arguments).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (key, value) in FIELDS.iter().zip(self.values(py)?) {
            d.set_item(key, value)?;
        }
        Ok(d)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        Ok((slf.get_type(), PyTuple::new(py, slf.get().values(py)?)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<ReportEntry {}[{}] {} tool={:?} pointer={:?} index={:?}>",
            self.severity, self.effect, self.code, self.tool, self.pointer, self.index
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}[{}]: [{}] tool {:?} at {:?}: {}",
            self.severity, self.effect, self.code, self.tool, self.pointer, self.message
        )
    }
}

impl Entry {
    /// The fields in [`FIELDS`] order, as Python objects.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        Ok(vec![
            self.tool.clone().into_pyobject(py)?.into_any(),
            self.severity.clone().into_pyobject(py)?.into_any(),
            self.code.clone().into_pyobject(py)?.into_any(),
            self.effect.clone().into_pyobject(py)?.into_any(),
            pyo3::types::PyBool::new(py, self.arguments).to_owned().into_any(),
            self.feature.clone().into_pyobject(py)?.into_any(),
            self.pointer.clone().into_pyobject(py)?.into_any(),
            self.tool_pointer.clone().into_pyobject(py)?.into_any(),
            self.output_pointer.clone().into_pyobject(py)?.into_any(),
            self.index.into_pyobject(py)?.into_any(),
            self.from_format.clone().into_pyobject(py)?.into_any(),
            self.to_format.clone().into_pyobject(py)?.into_any(),
            self.message.clone().into_pyobject(py)?.into_any(),
        ])
    }

    /// `e` of `report`; `single` when the entries were made converting a lone tool as a
    /// catalog of one, whose document-level pointer is then the tool's own.
    fn of(e: &ReportEntry, report: &Report, single: bool) -> Entry {
        let index = report.tool_index(e);
        Entry {
            tool: e.tool.clone(),
            severity: e.severity.as_str().to_owned(),
            code: e.code.as_str().to_owned(),
            effect: e.effect.as_str().to_owned(),
            arguments: e.arguments,
            feature: e.feature.clone(),
            pointer: if single && index.is_some() { &e.tool_pointer } else { &e.pointer }.clone(),
            tool_pointer: e.tool_pointer.clone(),
            output_pointer: e.output_pointer.clone(),
            index,
            from_format: e.from.clone(),
            to_format: e.to.clone(),
            message: e.message.clone(),
        }
    }
}

/// The entries of `report` that `keep` keeps, as a Python list (see [`Entry::of`] for
/// `single`).
pub(crate) fn entries<'py>(
    py: Python<'py>,
    report: &Report,
    single: bool,
    keep: impl Fn(&ReportEntry) -> bool,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for e in report.entries().iter().filter(|e| keep(e)) {
        list.append(Bound::new(py, Entry::of(e, report, single))?)?;
    }
    Ok(list)
}
