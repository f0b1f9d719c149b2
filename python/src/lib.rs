//! The Python extension `tooladapter._tooladapter`: the crate's conversion, check and inverse
//! map behind a small Python API (see `python/README.md`). Input is read under the GIL (bytes
//! and text borrowed, Python data written out as JSON text once), the conversion runs with the
//! GIL released, and output becomes Python data only when asked for.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod data;
mod errors;
mod options;
mod report;

use std::sync::{Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tooladapter::{Format, Registry};

use data::Input;
use errors::to_py_err;
use report::{Entry, entries};

/// The built-in formats, shared by every thread (each thread converts on its own warm
/// converter inside it).
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::default)
}

/// The result of a conversion: the output as bytes, as Python data on demand, the report and
/// the inverse map.
#[pyclass(module = "tooladapter", frozen)]
struct Conversion {
    inner: tooladapter::Conversion,
    tools: OnceLock<Py<PyAny>>,
}

#[pymethods]
impl Conversion {
    /// The converted document, UTF-8 JSON.
    #[getter]
    fn output<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.inner.output())
    }

    /// The converted document as Python data (built on first access, then kept).
    #[getter]
    fn tools(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(tools) = self.tools.get() {
            return Ok(tools.clone_ref(py));
        }
        let loads = py.import("json")?.getattr("loads")?;
        let value = loads.call1((PyBytes::new(py, self.inner.output()),))?.unbind();
        Ok(self.tools.get_or_init(|| value).clone_ref(py))
    }

    /// Every report entry, in source order.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        entries(py, self.inner.report().entries().iter())
    }

    /// The entries at warning or above: what changed in what a tool accepts, or was lost.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let lost = self
            .inner
            .report()
            .entries()
            .iter()
            .filter(|e| e.severity >= tooladapter::Severity::Warning);
        entries(py, lost)
    }

    /// The map from a model's calls of the converted tools back to the source tools.
    #[getter]
    fn inverse(&self) -> Inverse {
        Inverse { inner: self.inner.inverse().clone() }
    }

    /// How many tools were written.
    #[getter]
    fn tools_written(&self) -> usize {
        self.inner.tools_written()
    }

    /// Whether the input was a catalog (else a single tool).
    #[getter]
    fn is_catalog(&self) -> bool {
        self.inner.shape() == tooladapter::Shape::Catalog
    }

    fn __repr__(&self) -> String {
        format!(
            "<Conversion: {} tools written, {} bytes, {} report entries>",
            self.inner.tools_written(),
            self.inner.output().len(),
            self.inner.report().len()
        )
    }
}

/// Maps a model's tool calls of converted tools back to the source tools: renamed tools and
/// keys restored, strict mode's added nulls dropped.
#[pyclass(module = "tooladapter", frozen)]
struct Inverse {
    inner: tooladapter::Inverse,
}

#[pymethods]
impl Inverse {
    /// `(source_name, source_arguments)` for a call of the converted tool `name`; `arguments`
    /// is Python data (a dict) or its JSON text.
    fn unmap<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        arguments: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let value = data::to_value(arguments)?;
        let (source, arguments) = self.inner.unmap(name, value);
        let arguments = data::from_value(py, &arguments)?;
        PyTuple::new(py, [source.into_pyobject(py)?.into_any(), arguments])
    }

    /// Whether nothing needs mapping back (no tool or key was renamed, nothing widened).
    fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The map as JSON text, the file `tooladapter unmap --map` reads.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Inverse: {}>",
            if self.inner.is_empty() { "empty" } else { "renames or widenings" }
        )
    }
}

/// A reusable converter for hot paths: its parse buffers, arena and output buffer are kept
/// between calls. Safe to share between threads (calls on one converter take turns); give
/// each thread its own for parallel work.
#[pyclass(module = "tooladapter", frozen)]
struct Converter {
    inner: Mutex<tooladapter::Converter>,
}

#[pymethods]
impl Converter {
    #[new]
    fn new() -> Converter {
        Converter { inner: Mutex::new(tooladapter::Converter::new()) }
    }

    /// As `tooladapter.convert`, on this converter's buffers.
    #[allow(clippy::too_many_arguments, reason = "the Python signature, keywords and all")]
    #[pyo3(signature = (tools, from_ = "mcp", to = "openai", *, strict = None, policy = None, profile = None, dated_limits = false))]
    fn convert(
        &self,
        py: Python<'_>,
        tools: &Bound<'_, PyAny>,
        from_: &str,
        to: &str,
        strict: Option<&Bound<'_, PyAny>>,
        policy: Option<&Bound<'_, PyDict>>,
        profile: Option<&str>,
        dated_limits: bool,
    ) -> PyResult<Conversion> {
        let keywords = Keywords { strict, policy, profile, dated_limits };
        let (from, to, options, input) = request(py, tools, from_, to, keywords)?;
        let result = py.detach(|| {
            let mut converter = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            converter.convert(input.bytes(), &from, &to, &options).cloned()
        });
        Ok(Conversion { inner: result.map_err(|e| to_py_err(py, &e))?, tools: OnceLock::new() })
    }
}

/// A conversion's keyword arguments, as Python gave them.
struct Keywords<'a, 'py> {
    strict: Option<&'a Bound<'py, PyAny>>,
    policy: Option<&'a Bound<'py, PyDict>>,
    profile: Option<&'a str>,
    dated_limits: bool,
}

/// A conversion's arguments read under the GIL: the formats, the options and the input.
fn request(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    from_: &str,
    to: &str,
    keywords: Keywords<'_, '_>,
) -> PyResult<(Format, Format, tooladapter::Options, Input)> {
    let (from, to) = (options::format(py, from_)?, options::format(py, to)?);
    let Keywords { strict, policy, profile, dated_limits } = keywords;
    let options = options::build(py, strict, policy, profile)?.dated_limits(dated_limits);
    Ok((from, to, options, Input::read(tools)?))
}

/// Converts tools from one format to another.
#[pyfunction]
#[allow(clippy::too_many_arguments, reason = "the Python signature, keywords and all")]
#[pyo3(signature = (tools, from_ = "mcp", to = "openai", *, strict = None, policy = None, profile = None, dated_limits = false))]
fn convert(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    from_: &str,
    to: &str,
    strict: Option<&Bound<'_, PyAny>>,
    policy: Option<&Bound<'_, PyDict>>,
    profile: Option<&str>,
    dated_limits: bool,
) -> PyResult<Conversion> {
    let keywords = Keywords { strict, policy, profile, dated_limits };
    let (from, to, options, input) = request(py, tools, from_, to, keywords)?;
    let result = py.detach(|| registry().convert_with(input.bytes(), from, to, &options));
    Ok(Conversion { inner: result.map_err(|e| to_py_err(py, &e))?, tools: OnceLock::new() })
}

/// What the `to` provider would reject, per tool, without converting: a list of report
/// entries (empty when the provider accepts every tool). `from_` defaults to `to`.
#[pyfunction]
#[pyo3(signature = (tools, to, from_ = None, *, strict = None, profile = None))]
fn check<'py>(
    py: Python<'py>,
    tools: &Bound<'py, PyAny>,
    to: &str,
    from_: Option<&str>,
    strict: Option<&Bound<'py, PyAny>>,
    profile: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let to = options::format(py, to)?;
    let from = from_.map(|f| options::format(py, f)).transpose()?.unwrap_or(to);
    let options = options::build(py, strict, None, profile)?;
    let input = Input::read(tools)?;
    let report = py.detach(|| {
        let mut converter = tooladapter::Converter::new();
        converter.check(input.bytes(), &from, &to, &options).cloned()
    });
    let report = report.map_err(|e| to_py_err(py, &e))?;
    entries(py, report.entries().iter())
}

/// The built-in formats: a list of dicts with `name`, `reads`, `writes` and `strict` (whether
/// the format has a strict mode).
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for f in Format::ALL {
        let d = PyDict::new(py);
        d.set_item("name", f.name())?;
        d.set_item("reads", f.info().reads)?;
        d.set_item("writes", f.info().writes)?;
        d.set_item("strict", f.info().strict.is_some())?;
        list.append(d)?;
    }
    Ok(list)
}

#[pymodule]
fn _tooladapter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_class::<Conversion>()?;
    m.add_class::<Converter>()?;
    m.add_class::<Inverse>()?;
    m.add_class::<Entry>()?;
    errors::register(m)?;
    Ok(())
}
