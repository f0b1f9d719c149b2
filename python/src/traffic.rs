//! Tool traffic from Python: `convert_traffic` (a model's calls, the tools' results, a
//! conversation or a response, between providers, through a definitions conversion's map)
//! and `StreamTranscoder` (a streamed answer, chunk by chunk, the GIL released in `push`).
//! Both are the crate's (`Converter::convert_traffic`, `stream::StreamTranscoder`); the
//! payload is read as the definitions' input is (`data`), and output built as theirs (`build`).

use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyList, PyString};
use tooladapter::TrafficOptions;
use tooladapter::stream::{Output, StreamError};
use tooladapter::traffic::{Ids, MapDirection, TrafficKind};
use tooladapter::{ConversionError, DenyLoss, Direction, ErrorKind, Options};

use crate::data::Input;
use crate::errors::{to_py_err, usage, with_report};
use crate::report::entries;

thread_local! {
    /// Each thread's warm converter for `convert_traffic` (its buffers kept between calls).
    static CONVERTER: RefCell<tooladapter::Converter> = RefCell::new(tooladapter::Converter::new());
}

/// The result of a traffic conversion: the payload in the target's shape, the report, and the
/// ids it wrote.
#[pyclass(module = "tooladapter", frozen)]
pub(crate) struct TrafficConversion {
    inner: tooladapter::TrafficConversion,
    payload: OnceLock<Py<PyAny>>,
}

#[pymethods]
impl TrafficConversion {
    /// The converted payload, UTF-8 JSON.
    #[getter]
    fn output<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.inner.output())
    }

    /// The converted payload as Python data (built on first access, then kept).
    #[getter]
    fn payload(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(p) = self.payload.get() {
            return Ok(p.clone_ref(py));
        }
        let value = crate::build::build(py, self.inner.output(), None, false)?.unbind();
        Ok(self.payload.get_or_init(|| value).clone_ref(py))
    }

    /// Every report entry.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        entries(py, self.inner.report(), false, |_| true)
    }

    /// The payload's kind: `calls`, `results`, `messages` or `response`.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        self.inner.kind().map(TrafficKind::as_str)
    }

    /// The ids written for the calls: dicts of `original`, `written` and `name` (the tool
    /// called), to pass as `ids=` to a later conversion of the same calls or their results.
    #[getter]
    fn ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_vec(&self.inner.ids().pairs)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        crate::build::build(py, &text, None, false)
    }

    fn __repr__(&self) -> String {
        format!(
            "<TrafficConversion: {}, {} bytes, {} report entries>",
            self.kind().unwrap_or("payload"),
            self.inner.output().len(),
            self.inner.report().len()
        )
    }
}

/// The payload kind called `name` (the CLI's `--kind` names).
fn kind(py: Python<'_>, name: &str) -> PyResult<TrafficKind> {
    TrafficKind::ALL.into_iter().find(|k| k.as_str().eq_ignore_ascii_case(name)).ok_or_else(|| {
        let known: Vec<&str> = TrafficKind::ALL.iter().map(|k| k.as_str()).collect();
        let message =
            format!("unknown traffic kind {name:?}; expected one of: {}", known.join(", "));
        usage(py, "invalid-options", message)
    })
}

/// The map's direction called `name` (`back` or `forward`).
fn map_direction(py: Python<'_>, name: Option<&str>) -> PyResult<Option<MapDirection>> {
    match name {
        None => Ok(None),
        Some("back") => Ok(Some(MapDirection::Back)),
        Some("forward") => Ok(Some(MapDirection::Forward)),
        Some(other) => {
            let message = format!("unknown direction {other:?}; expected one of: back, forward");
            Err(usage(py, "invalid-options", message))
        }
    }
}

/// The loss rule called `name`, by the crate's parser.
fn deny_rule(py: Python<'_>, name: Option<&str>) -> PyResult<Option<DenyLoss>> {
    name.map(|n| n.parse::<DenyLoss>().map_err(|e| usage(py, "invalid-options", e.to_string())))
        .transpose()
}

/// Converts tool traffic (calls, results, a conversation or a response) from one provider's
/// format to another's.
#[pyfunction]
#[allow(clippy::too_many_arguments, reason = "the Python signature, keywords and all")]
#[pyo3(signature = (payload, from_, to, *, kind = None, map = None, direction = None, ids = None, deny_loss = None, max_depth = None))]
pub(crate) fn convert_traffic(
    py: Python<'_>,
    payload: &Bound<'_, PyAny>,
    from_: &str,
    to: &str,
    kind: Option<&str>,
    map: Option<&Bound<'_, crate::Inverse>>,
    direction: Option<&str>,
    ids: Option<&Bound<'_, PyAny>>,
    deny_loss: Option<&str>,
    max_depth: Option<usize>,
) -> PyResult<TrafficConversion> {
    let (from, to) = (crate::options::format(py, from_)?, crate::options::format(py, to)?);
    let kind = kind.map(|k| self::kind(py, k)).transpose()?;
    let direction = map_direction(py, direction)?;
    let ids: Option<Ids> = match ids {
        None => None,
        Some(list) => {
            let pairs = crate::data::to_value(list)?;
            let pairs = serde_json::from_value(pairs).map_err(|e| {
                usage(py, "invalid-options", format!("ids: {e} (expected what `ids` gave)"))
            })?;
            Some(Ids { pairs })
        }
    };
    let mut options = Options::default();
    options.deny_loss = deny_rule(py, deny_loss)?;
    if let Some(depth) = max_depth {
        options = options.max_depth(depth);
    }
    let input = Input::read(payload, options.limits.max_depth, false)?;
    let map = map.map(|m| &m.get().inner);
    let traffic =
        TrafficOptions { kind, map, direction, ids: ids.as_ref(), options, ..Default::default() };
    let result = py.detach(|| {
        CONVERTER
            .with_borrow_mut(|c| c.convert_traffic(input.bytes(), &from, &to, &traffic).cloned())
    });
    let inner = result.map_err(|e| to_py_err(py, &e))?;
    if inner.loss_denied() {
        let lost = inner
            .report()
            .entries()
            .iter()
            .filter(|e| e.severity >= tooladapter::Severity::Warning);
        let e = ConversionError::new(
            to.name(),
            Direction::FromCanonical,
            "",
            ErrorKind::LossDenied(lost.count()),
        );
        let all = entries(py, inner.report(), false, |_| true)?;
        return Err(with_report(py, &e, Some(all)));
    }
    Ok(TrafficConversion { inner, payload: OnceLock::new() })
}

/// Transcodes one streamed model answer from one provider's stream to another's: give it the
/// source's bytes as they arrive (`push`, split anywhere), take the target's bytes it gives
/// back, and `finish` at the end.
#[pyclass(module = "tooladapter", frozen)]
pub(crate) struct StreamTranscoder {
    inner: Mutex<tooladapter::stream::StreamTranscoder<'static>>,
}

/// The Python exception for a stream's error.
fn stream_err(py: Python<'_>, e: StreamError) -> PyErr {
    match e {
        StreamError::Setup(e) => to_py_err(py, &e),
        StreamError::Limit { .. } => crate::errors::limit(py, "stream-limit", e.to_string()),
        other => usage(py, "stream", other.to_string()),
    }
}

#[pymethods]
impl StreamTranscoder {
    /// A transcoder from `from_`'s stream to `to`'s: `events="sse"` writes the target's wire
    /// text, `"json"` one event object per line; with `map` (a definitions conversion's
    /// `inverse`), calls are mapped through it (`direction` as `convert_traffic`'s).
    #[new]
    #[pyo3(signature = (from_, to, *, events = "sse", map = None, direction = None))]
    fn new(
        py: Python<'_>,
        from_: &str,
        to: &str,
        events: &str,
        map: Option<&Bound<'_, crate::Inverse>>,
        direction: Option<&str>,
    ) -> PyResult<StreamTranscoder> {
        let (from, to) = (crate::options::format(py, from_)?, crate::options::format(py, to)?);
        let output = match events {
            "sse" => Output::Sse,
            "json" => Output::Json,
            other => {
                let message = format!("unknown events {other:?}; expected one of: sse, json");
                return Err(usage(py, "invalid-options", message));
            }
        };
        let options =
            TrafficOptions { direction: map_direction(py, direction)?, ..Default::default() };
        let made = match map {
            Some(map) => {
                let map = std::sync::Arc::new(map.get().inner.clone());
                tooladapter::stream::StreamTranscoder::with_shared_map(&from, &to, &options, map)
            }
            None => tooladapter::stream::StreamTranscoder::new(&from, &to, &options),
        };
        let inner = made.map_err(|e| stream_err(py, e))?.with_output(output);
        Ok(StreamTranscoder { inner: Mutex::new(inner) })
    }

    /// Reads `chunk` (bytes or str: any piece of the stream) and returns the target's bytes
    /// it completes (often empty). Runs without the GIL.
    fn push<'py>(
        &self,
        py: Python<'py>,
        chunk: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes: PyBackedBytes = if let Ok(s) = chunk.cast::<PyString>() {
            PyBytes::new(py, s.to_str()?.as_bytes()).extract()?
        } else {
            chunk.extract()?
        };
        let out = py.detach(|| {
            let mut t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let mut out = Vec::new();
            t.push(&bytes, &mut out).map(|()| out)
        });
        out.map(|o| PyBytes::new(py, &o)).map_err(|e| stream_err(py, e))
    }

    /// Ends the stream: returns the rest of the target's bytes (calls the source left open
    /// are reported incomplete, not ended).
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let out = py.detach(|| {
            let mut t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let mut out = Vec::new();
            t.finish(&mut out).map(|_| out)
        });
        out.map(|o| PyBytes::new(py, &o)).map_err(|e| stream_err(py, e))
    }

    /// What the stream has recorded so far.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let t = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        entries(py, t.report(), false, |_| true)
    }
}
