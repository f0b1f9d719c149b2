//! Python arguments into the crate's types: format names, `strict`, `policy`, `profile`,
//! `deny_loss`, the limits and `errors`. Names are read by the crate's own parsers (any case;
//! an unknown one's error lists the known), so a name the crate adds works here unchanged.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyDict};
use tooladapter::formats::OpenApi;
use tooladapter::{Action, Adapter, DenyLoss, Format, Options, ProfileSet, Strict, ir::Keyword};

use crate::errors::usage;

/// The built-in format called `name`.
pub(crate) fn format(py: Python<'_>, name: &str) -> PyResult<Format> {
    name.parse::<Format>().map_err(|e| usage(py, "unknown-format", e.to_string()))
}

/// What to do with a tool that cannot be written (`errors=`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    /// Raise when nothing could be written (a single tool, or every tool of a catalog, left
    /// out); a tool `strict="require"` could not make strict raises too. Otherwise as
    /// `Report`.
    Default,
    /// Raise on any tool left out (and any other `error` entry), a catalog's too.
    Raise,
    /// Leave the tool out with its `error` entry, and say so with a Python warning.
    Report,
    /// Leave the tool out with its `error` entry, silently.
    Skip,
}

impl Errors {
    fn parse(name: Option<&str>) -> Result<Errors, String> {
        match name {
            None => Ok(Errors::Default),
            Some("raise") => Ok(Errors::Raise),
            Some("report") => Ok(Errors::Report),
            Some("skip") => Ok(Errors::Skip),
            Some(other) => {
                Err(format!("unknown errors mode {other:?}; expected one of: raise, report, skip"))
            }
        }
    }

    /// Whether a tool left out is returned as an entry rather than raised.
    pub(crate) fn leaves_out(self) -> bool {
        matches!(self, Errors::Report | Errors::Skip)
    }
}

/// A conversion's or a check's keyword arguments, as Python gave them.
#[derive(Default)]
pub(crate) struct Keywords<'a, 'py> {
    pub(crate) strict: Option<&'a Bound<'py, PyAny>>,
    pub(crate) policy: Option<&'a Bound<'py, PyDict>>,
    pub(crate) profile: Option<&'a str>,
    pub(crate) dated_limits: bool,
    pub(crate) errors: Option<&'a str>,
    pub(crate) deny_loss: Option<&'a str>,
    pub(crate) max_depth: Option<usize>,
    pub(crate) max_ref_expansion: Option<usize>,
    pub(crate) unroll_recursion: u32,
    pub(crate) operations: Option<Vec<String>>,
}

/// The source format: a built-in one, or OpenAPI importing only some operations.
pub(crate) enum Source {
    Builtin(Format),
    OpenApi(OpenApi),
}

impl Source {
    pub(crate) fn adapter(&self) -> &dyn Adapter {
        match self {
            Source::Builtin(f) => f,
            Source::OpenApi(api) => api,
        }
    }

    /// The built-in format, unless operations were selected (a custom adapter).
    pub(crate) fn builtin(&self) -> Option<Format> {
        match self {
            Source::Builtin(f) => Some(*f),
            Source::OpenApi(_) => None,
        }
    }
}

/// Everything a conversion's keywords decide.
pub(crate) struct Settings {
    pub(crate) source: Source,
    pub(crate) options: Options,
    pub(crate) errors: Errors,
}

impl Keywords<'_, '_> {
    /// The source (with `operations`), the options and the error mode.
    pub(crate) fn settle(&self, py: Python<'_>, from: Format) -> PyResult<Settings> {
        let bad = |kind: &'static str, message: String| usage(py, kind, message);
        let mut options = Options::default()
            .dated_limits(self.dated_limits)
            .unroll_recursion(self.unroll_recursion);
        if let Some(strict) = self.strict.filter(|s| !s.is_none()) {
            let mode = if let Ok(b) = strict.cast::<PyBool>() {
                if b.is_true() { Strict::On } else { Strict::Off }
            } else if let Ok(name) = strict.extract::<PyBackedStr>() {
                name.parse::<Strict>().map_err(|e| bad("invalid-options", e.to_string()))?
            } else {
                return Err(PyTypeError::new_err("strict must be None, a bool or a mode's name"));
            };
            options = options.strict(mode);
        }
        if let Some(profile) = self.profile {
            let set =
                profile.parse::<ProfileSet>().map_err(|e| bad("invalid-options", e.to_string()))?;
            options = options.profile_set(set);
        }
        for (keyword, action) in self.policy.into_iter().flat_map(|p| p.iter()) {
            let (keyword, action): (PyBackedStr, PyBackedStr) =
                (keyword.extract()?, action.extract()?);
            let (keyword, action) = (&*keyword, &*action);
            let k = Keyword::from_policy_name(keyword).ok_or_else(|| {
                bad("invalid-options", format!("`{keyword}` is not a keyword this crate models"))
            })?;
            let a = action.parse::<Action>().map_err(|e| bad("invalid-options", e.to_string()))?;
            options = options.policy(k, a);
        }
        // The crate's parser: a rule it adds is a name Python takes.
        if let Some(rule) = self.deny_loss {
            let rule =
                rule.parse::<DenyLoss>().map_err(|e| bad("invalid-options", e.to_string()))?;
            options = options.deny_loss(rule);
        }
        if let Some(depth) = self.max_depth {
            options = options.max_depth(depth);
        }
        if let Some(nodes) = self.max_ref_expansion {
            options = options.max_ref_expansion(nodes);
        }
        let errors = Errors::parse(self.errors).map_err(|m| bad("invalid-options", m))?;
        let source = match &self.operations {
            None => Source::Builtin(from),
            Some(globs) => {
                if from != Format::OPENAPI {
                    let message = format!(
                        "operations selects OpenAPI operations; it needs from_=\"openapi\", not {:?}",
                        from.name()
                    );
                    return Err(bad("invalid-options", message));
                }
                Source::OpenApi(globs.iter().fold(OpenApi::new(), |api, g| api.operations(g)))
            }
        };
        Ok(Settings { source, options, errors })
    }
}
