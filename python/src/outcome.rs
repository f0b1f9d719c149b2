//! One error model for a tool and a catalog (`errors=`): what becomes of a conversion whose
//! tools could not all be written. The crate leaves a catalog's bad tool out with an `error`
//! entry and raises for a lone one; here both shapes follow the mode the caller chose, and a
//! loss `deny_loss` denies raises.

use std::ffi::CString;

use pyo3::prelude::*;
use tooladapter::{ConversionError, Direction, ErrorKind, Severity};

use crate::errors::{LeftOutWarning, to_py_err, with_report};
use crate::options::Errors;
use crate::report::entries;

/// A finished conversion, as the Python `Conversion` holds it.
pub(crate) struct Outcome {
    pub(crate) inner: tooladapter::Conversion,
    /// A lone tool left out (`errors="report"` or `"skip"`): `inner` is the conversion of a
    /// catalog of that one tool, which wrote nothing.
    pub(crate) left_out: bool,
}

/// What the error model needs to know of the request.
pub(crate) struct Mode {
    pub(crate) errors: Errors,
    /// `strict="require"`: a tool that cannot be strict raises under the default mode.
    pub(crate) strict_required: bool,
    /// `deny_loss` was given.
    pub(crate) denies: bool,
    /// The target format's name.
    pub(crate) target: &'static str,
}

/// Whether `e`, raised for a lone tool, is one a catalog would have left that tool out for
/// after reading it (the passes or the check refused it). A tool that cannot be read raises
/// in every mode, as a catalog none of whose tools can be read does.
fn refused_after_reading(e: &ConversionError) -> bool {
    e.direction() == Direction::FromCanonical
        && matches!(
            e.kind(),
            ErrorKind::NotConvertible(_)
                | ErrorKind::RefExpansion { .. }
                | ErrorKind::DepthLimit { .. }
        )
}

/// The conversion `result` under `mode`; `as_catalog` converts the input as a catalog of its
/// one tool, for a lone tool left out under `errors="report"` or `"skip"`.
pub(crate) fn settle(
    py: Python<'_>,
    result: Result<tooladapter::Conversion, ConversionError>,
    as_catalog: impl FnOnce() -> Option<tooladapter::Conversion>,
    mode: &Mode,
) -> PyResult<Outcome> {
    let outcome = match result {
        Ok(inner) => Outcome { inner, left_out: false },
        Err(e) if mode.errors.leaves_out() && refused_after_reading(&e) => {
            // Its entries, as a catalog of one tool records them (the same codes and
            // pointers in the tool). Anything else from the retry: the lone tool's error.
            match as_catalog() {
                Some(inner)
                    if inner.tools_written() == 0
                        && inner.report().max_severity() == Some(Severity::Error) =>
                {
                    Outcome { inner, left_out: true }
                }
                _ => return Err(to_py_err(py, &e)),
            }
        }
        Err(e) => return Err(to_py_err(py, &e)),
    };
    let (inner, single) = (&outcome.inner, outcome.left_out);
    let report = inner.report();
    let at_least = |s: Severity| move |e: &tooladapter::ReportEntry| e.severity >= s;
    if mode.denies && inner.loss_denied() {
        // As the CLI's `--deny-loss`: nothing is handed on.
        let lost = report.entries().iter().filter(|e| at_least(Severity::Warning)(e)).count();
        let kind = ErrorKind::LossDenied(lost);
        let e = ConversionError::new(mode.target, Direction::FromCanonical, "", kind);
        let all = entries(py, report, single, |_| true)?;
        return Err(with_report(py, &e, Some(all)));
    }
    // Read off the rows: a conversion without an error makes no entry list here.
    if report.max_severity() != Some(Severity::Error) {
        return Ok(outcome);
    }
    let errors = report.entries().iter().filter(|e| e.severity == Severity::Error);
    let Some(first) = errors.clone().next() else {
        return Ok(outcome);
    };
    let raise = match mode.errors {
        Errors::Raise => true,
        Errors::Default => inner.tools_written() == 0 || mode.strict_required,
        Errors::Report | Errors::Skip => false,
    };
    if raise {
        let pointer = if single { &first.tool_pointer } else { &first.pointer };
        let kind = ErrorKind::NotConvertible(first.message.clone());
        let mut e = ConversionError::new(&first.to, Direction::FromCanonical, pointer, kind);
        if !first.tool.is_empty() {
            e = e.with_tool(&first.tool);
        }
        let all = entries(py, report, single, |_| true)?;
        return Err(with_report(py, &e, Some(all)));
    }
    if mode.errors == Errors::Report {
        // The tools the error entries are about (an entry about the request has no tool).
        let mut left_out: Vec<usize> =
            errors.clone().filter_map(|e| report.tool_index(e)).collect();
        left_out.dedup();
        let message = format!(
            "{} of {} tools left out ({} error entries); the first: {}",
            left_out.len(),
            left_out.len() + inner.tools_written(),
            errors.count(),
            first.message
        );
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        let category = py.get_type::<LeftOutWarning>();
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(outcome)
}
