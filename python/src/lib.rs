//! The Python extension `tooladapter._tooladapter`: the crate's conversion, check and inverse
//! map behind a small Python API (see `python/README.md`). Input is read under the GIL (bytes
//! and text borrowed, Python data written out as JSON text once, `data`), the conversion runs
//! with the GIL released, the error model (`errors=`) decides what a tool left out becomes, and
//! output becomes Python data only when asked for (`build`), or at once with `share=True`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod build;
mod data;
mod errors;
mod options;
mod outcome;
mod report;
mod traffic;

use std::sync::{Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tooladapter::{Code, Format, Options, Registry, Severity, Strict};

use data::Input;
use errors::to_py_err;
use options::{Keywords, Settings, Source};
use outcome::{Mode, Outcome, settle};
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
    outcome: Outcome,
    tools: OnceLock<Py<PyAny>>,
    /// The source format (the one `from_="auto"` found).
    from_format: &'static str,
    /// The caller's data as written, whose strings `tools` takes; dropped once it is built.
    input: Mutex<Option<data::Written>>,
}

#[pymethods]
impl Conversion {
    /// The converted document, UTF-8 JSON (empty when a lone tool was left out).
    #[getter]
    fn output<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let output = if self.outcome.left_out { &[][..] } else { self.outcome.inner.output() };
        PyBytes::new(py, output)
    }

    /// The converted document as Python data (built on first access, then kept); `None` when
    /// a lone tool was left out.
    #[getter]
    fn tools(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if self.outcome.left_out {
            return Ok(py.None());
        }
        if let Some(tools) = self.tools.get() {
            return Ok(tools.clone_ref(py));
        }
        let input = self.input.lock().unwrap_or_else(|e| e.into_inner()).take();
        let value = build::build(py, self.outcome.inner.output(), input.as_ref(), false)?.unbind();
        Ok(self.tools.get_or_init(|| value).clone_ref(py))
    }

    /// Every report entry, in source order.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        entries(py, self.outcome.inner.report(), self.outcome.left_out, |_| true)
    }

    /// The entries at warning or above: what changed in what a tool accepts, or was lost.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let lost = |e: &tooladapter::ReportEntry| e.severity >= Severity::Warning;
        entries(py, self.outcome.inner.report(), self.outcome.left_out, lost)
    }

    /// The map from a model's calls of the converted tools back to the source tools.
    #[getter]
    fn inverse(&self) -> Inverse {
        Inverse { inner: self.outcome.inner.inverse().clone() }
    }

    /// How many tools were written.
    #[getter]
    fn tools_written(&self) -> usize {
        self.outcome.inner.tools_written()
    }

    /// For each tool written, in output order, whether it is written strict (the provider
    /// holds the model's arguments to its schema).
    #[getter]
    fn strict_applied(&self) -> Vec<bool> {
        self.outcome.inner.strict_written().to_vec()
    }

    /// The source format's name: as given, or the one `from_="auto"` found.
    #[getter(from_format)]
    fn source_format(&self) -> &'static str {
        self.from_format
    }

    /// Whether the input was a catalog (else a single tool).
    #[getter]
    fn is_catalog(&self) -> bool {
        !self.outcome.left_out && self.outcome.inner.shape() == tooladapter::DocumentKind::Catalog
    }

    fn __repr__(&self) -> String {
        format!(
            "<Conversion: {} tools written, {} bytes, {} report entries>",
            self.outcome.inner.tools_written(),
            if self.outcome.left_out { 0 } else { self.outcome.inner.output().len() },
            self.outcome.inner.report().len()
        )
    }
}

/// Maps a model's tool calls of converted tools back to the source tools: renamed tools and
/// keys restored, strict mode's added nulls dropped.
#[pyclass(module = "tooladapter", frozen)]
struct Inverse {
    pub(crate) inner: tooladapter::Inverse,
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
        let text = serde_json::to_vec(&arguments)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let arguments = build::build(py, &text, None, false)?;
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
    #[pyo3(signature = (tools, from_ = "mcp", to = "openai", *, strict = None, policy = None, profile = None, dated_limits = false, errors = None, deny_loss = None, max_depth = None, max_ref_expansion = None, unroll_recursion = 0, operations = None, share = false))]
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
        errors: Option<&str>,
        deny_loss: Option<&str>,
        max_depth: Option<usize>,
        max_ref_expansion: Option<usize>,
        unroll_recursion: u32,
        operations: Option<Vec<String>>,
        share: bool,
    ) -> PyResult<Conversion> {
        let keywords = Keywords {
            strict,
            policy,
            profile,
            dated_limits,
            errors,
            deny_loss,
            max_depth,
            max_ref_expansion,
            unroll_recursion,
            operations,
        };
        run(py, tools, from_, to, &keywords, share, |input, source, to, options| {
            let mut converter = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            converter.convert(input, source.adapter(), to, options).cloned()
        })
    }
}

/// Converts `tools` as `keywords` say with `convert` (the module's or a `Converter`'s), the
/// conversion itself without the GIL, and settles the outcome under the error model.
fn run(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    from_: &str,
    to: &str,
    keywords: &Keywords<'_, '_>,
    share: bool,
    convert: impl Fn(
        &[u8],
        &Source,
        Format,
        &Options,
    ) -> Result<tooladapter::Conversion, tooladapter::ConversionError>
    + Sync,
) -> PyResult<Conversion> {
    let to = options::format(py, to)?;
    let (from, auto) = provisional(py, from_, keywords)?;
    let Settings { mut source, options, errors } = keywords.settle(py, from)?;
    let input = Input::read(tools, options.limits.max_depth, share)?;
    if auto {
        source = keywords.settle(py, detected(py, &input, &options)?)?.source;
    }
    let mode = Mode {
        errors,
        strict_required: options.strict == Strict::Require,
        denies: options.deny_loss.is_some(),
        target: to.name(),
    };
    let result = py.detach(|| convert(input.bytes(), &source, to, &options));
    // A lone tool left out, converted again as a catalog of that tool (only then: the cold
    // path), for the entries a catalog records.
    let as_catalog = || {
        let bytes = input.bytes();
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut wrapped = Vec::with_capacity(bytes.len() + 2);
        wrapped.push(b'[');
        wrapped.extend_from_slice(bytes);
        wrapped.push(b']');
        py.detach(|| convert(&wrapped, &source, to, &options)).ok()
    };
    let outcome = settle(py, result, as_catalog, &mode)?;
    let from_format = source.adapter().info().name;
    let conversion =
        Conversion { outcome, tools: OnceLock::new(), from_format, input: Mutex::new(None) };
    let Input::Written(written) = input else { return Ok(conversion) };
    if conversion.outcome.left_out {
        return Ok(conversion);
    }
    // Shared objects are taken as they are now, not when `tools` is first read: built at once.
    if share {
        let value = build::build(py, conversion.outcome.inner.output(), Some(&written), true)?;
        let value = value.unbind();
        let _ = conversion.tools.set(value);
        return Ok(conversion);
    }
    // Else kept (the text and the caller's strings) until `tools` is read.
    *conversion.input.lock().unwrap_or_else(|e| e.into_inner()) = Some(written);
    Ok(conversion)
}

/// The source format `from_` names, and whether it is `auto`: then the keywords are settled
/// for a provisional source (OpenAPI when `operations` are given, else MCP) until the input,
/// read, tells its format ([`detected`]).
fn provisional(
    py: Python<'_>,
    from_: &str,
    keywords: &Keywords<'_, '_>,
) -> PyResult<(Format, bool)> {
    if !from_.eq_ignore_ascii_case("auto") {
        return Ok((options::format(py, from_)?, false));
    }
    Ok((if keywords.operations.is_some() { Format::OPENAPI } else { Format::MCP }, true))
}

/// The format `input` is in, by the crate's fit (`tooladapter::formats::detect`, the one its
/// readers refuse another format's input with); ambiguous or unfitting input is a
/// `ConversionError` naming the candidates.
fn detected(py: Python<'_>, input: &Input, options: &Options) -> PyResult<Format> {
    let found = py.detach(|| tooladapter::formats::detect(input.bytes(), &options.limits));
    let info = found.map_err(|e| to_py_err(py, &e))?;
    options::format(py, info.name)
}

/// Converts tools from one format to another.
#[pyfunction]
#[allow(clippy::too_many_arguments, reason = "the Python signature, keywords and all")]
#[pyo3(signature = (tools, from_ = "mcp", to = "openai", *, strict = None, policy = None, profile = None, dated_limits = false, errors = None, deny_loss = None, max_depth = None, max_ref_expansion = None, unroll_recursion = 0, operations = None, share = false))]
fn convert(
    py: Python<'_>,
    tools: &Bound<'_, PyAny>,
    from_: &str,
    to: &str,
    strict: Option<&Bound<'_, PyAny>>,
    policy: Option<&Bound<'_, PyDict>>,
    profile: Option<&str>,
    dated_limits: bool,
    errors: Option<&str>,
    deny_loss: Option<&str>,
    max_depth: Option<usize>,
    max_ref_expansion: Option<usize>,
    unroll_recursion: u32,
    operations: Option<Vec<String>>,
    share: bool,
) -> PyResult<Conversion> {
    let keywords = Keywords {
        strict,
        policy,
        profile,
        dated_limits,
        errors,
        deny_loss,
        max_depth,
        max_ref_expansion,
        unroll_recursion,
        operations,
    };
    run(py, tools, from_, to, &keywords, share, |input, source, to, options| {
        match source.builtin() {
            Some(from) => registry().convert_with(input, from, to, options),
            // OpenAPI with only some operations: an adapter the registry does not hold.
            None => {
                tooladapter::Converter::new().convert(input, source.adapter(), to, options).cloned()
            }
        }
    })
}

/// What the provider would reject, per tool, without converting (`from_` and `to` in
/// `convert`'s order; either defaults to the other): the entries the CLI's `check` prints,
/// those at `error` and the dated limits' warnings. Empty when the provider accepts every
/// tool. `from_="auto"` tells the source as `convert` does; alone, the tools are checked as
/// they are in the format found.
#[pyfunction]
#[allow(clippy::too_many_arguments, reason = "the Python signature, keywords and all")]
#[pyo3(signature = (tools, from_ = None, to = None, *, strict = None, profile = None, max_depth = None, max_ref_expansion = None, unroll_recursion = 0, operations = None))]
fn check<'py>(
    py: Python<'py>,
    tools: &Bound<'py, PyAny>,
    from_: Option<&str>,
    to: Option<&str>,
    strict: Option<&Bound<'py, PyAny>>,
    profile: Option<&str>,
    max_depth: Option<usize>,
    max_ref_expansion: Option<usize>,
    unroll_recursion: u32,
    operations: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyList>> {
    let (from, to) = match (from_, to) {
        (Some(from), Some(to)) => (from, to),
        (Some(one), None) | (None, Some(one)) => (one, one),
        (None, None) => {
            let message = "check needs the format: from_, to or both";
            return Err(pyo3::exceptions::PyTypeError::new_err(message));
        }
    };
    let keywords = Keywords {
        strict,
        profile,
        max_depth,
        max_ref_expansion,
        unroll_recursion,
        operations,
        ..Keywords::default()
    };
    let (provisional_from, auto) = provisional(py, from, &keywords)?;
    let Settings { mut source, options, .. } = keywords.settle(py, provisional_from)?;
    let input = Input::read(tools, options.limits.max_depth, false)?;
    let from = match auto {
        true => {
            let found = detected(py, &input, &options)?;
            source = keywords.settle(py, found)?.source;
            found
        }
        false => provisional_from,
    };
    // `auto` as the target too (or the only format given): the tools checked as they are.
    let to = if to.eq_ignore_ascii_case("auto") { from } else { options::format(py, to)? };
    let report = py.detach(|| {
        let mut converter = tooladapter::Converter::new();
        converter.check(input.bytes(), source.adapter(), to, &options).cloned()
    });
    let report = report.map_err(|e| to_py_err(py, &e))?;
    // What the CLI's `check` prints: what the provider would reject, and the dated limits
    // it would hold the tools to.
    let found =
        |e: &tooladapter::ReportEntry| e.severity >= Severity::Error || e.code == Code::DatedLimit;
    entries(py, &report, false, found)
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
    m.add_function(wrap_pyfunction!(traffic::convert_traffic, m)?)?;
    m.add_class::<traffic::TrafficConversion>()?;
    m.add_class::<traffic::StreamTranscoder>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    Ok(())
}
