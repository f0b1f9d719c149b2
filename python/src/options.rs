//! Python arguments into the crate's types: format names, `strict`, `policy`, `profile`. Names
//! are read by the crate's own parsers (any case; an unknown one's error lists the known).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyDict};
use tooladapter::{Action, Format, Options, ProfileSet, Strict, ir::Keyword};

use crate::errors::usage;

/// The built-in format called `name`.
pub(crate) fn format(py: Python<'_>, name: &str) -> PyResult<Format> {
    name.parse::<Format>().map_err(|e| usage(py, "unknown-format", e.to_string()))
}

/// The options: `strict` is `None` (follow each source tool), a bool (`True` makes every tool
/// strict, `False` none) or a mode's name (`"require"`); `policy` maps keyword names to
/// action names; `profile` is `"default"` or `"toolfoundation"`.
pub(crate) fn build(
    py: Python<'_>,
    strict: Option<&Bound<'_, PyAny>>,
    policy: Option<&Bound<'_, PyDict>>,
    profile: Option<&str>,
) -> PyResult<Options> {
    let bad = |kind: &'static str, message: String| usage(py, kind, message);
    let mut options = Options::default();
    if let Some(strict) = strict.filter(|s| !s.is_none()) {
        let mode = if let Ok(b) = strict.cast::<PyBool>() {
            if b.is_true() { Strict::On } else { Strict::Off }
        } else if let Ok(name) = strict.extract::<PyBackedStr>() {
            name.parse::<Strict>().map_err(|e| bad("invalid-options", e.to_string()))?
        } else {
            return Err(PyTypeError::new_err("strict must be None, a bool or a mode's name"));
        };
        options = options.strict(mode);
    }
    if let Some(profile) = profile {
        let set =
            profile.parse::<ProfileSet>().map_err(|e| bad("invalid-options", e.to_string()))?;
        options = options.profile_set(set);
    }
    for (keyword, action) in policy.into_iter().flat_map(|p| p.iter()) {
        let (keyword, action): (PyBackedStr, PyBackedStr) = (keyword.extract()?, action.extract()?);
        let (keyword, action) = (&*keyword, &*action);
        let k = Keyword::from_policy_name(keyword).ok_or_else(|| {
            bad("invalid-options", format!("`{keyword}` is not a keyword this crate models"))
        })?;
        let a = action.parse::<Action>().map_err(|e| bad("invalid-options", e.to_string()))?;
        options = options.policy(k, a);
    }
    Ok(options)
}
