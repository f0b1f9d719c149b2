//! The model's rules on [`CanonicalTool`]: what makes a tool valid ([`CanonicalTool::validate`]),
//! how tags are normalised, and the `namespace:name` id ([`ToolId`]).
//!
//! They live in their own file beside the data (the owned tree and its serde forms): the rules
//! are policy layered on that data, and this is the one place to read them.
//!
//! The name rule is MCP 2025-11-25's ("Tool names", from SEP-986): 1 to 128 characters, each one
//! of `A-Z a-z 0-9 _ - .`. The specification says SHOULD; this crate enforces it, because a
//! name outside it is what clients and providers reject.

use std::fmt;
use std::str::FromStr;

use indexmap::IndexSet;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{CanonicalTool, InstanceType, JsonSchema};

/// The longest tool name MCP allows (2025-11-25), in characters.
pub const MAX_NAME_LEN: usize = 128;

/// How much of a name an error message shows before eliding the rest: a message stays one
/// readable line whatever the input holds.
const SHOWN_CHARS: usize = 40;

// ---------------------------------------------------------------------------------------------
// validate
// ---------------------------------------------------------------------------------------------

/// Why a [`CanonicalTool`] is not a valid tool (see [`CanonicalTool::validate`]). Each variant
/// names the tool, the rule it breaks and, for a character, the character and where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolValidationError {
    /// The name is empty.
    #[error("tool name is empty; MCP requires 1 to {MAX_NAME_LEN} characters")]
    EmptyName,
    /// The name is longer than [`MAX_NAME_LEN`] characters.
    #[error(
        "tool name `{}` is {len} characters long; MCP allows at most {MAX_NAME_LEN}",
        Shown(name)
    )]
    NameTooLong {
        /// The name.
        name: String,
        /// Its length in characters.
        len: usize,
    },
    /// The name holds a character outside `[A-Za-z0-9_.-]`.
    #[error(
        "tool name `{}` has {character:?} at index {index}; MCP allows only A-Z, a-z, 0-9, `_`, `-` and `.`",
        Shown(name)
    )]
    InvalidNameCharacter {
        /// The name.
        name: String,
        /// The first character not allowed.
        character: char,
        /// Where it is: 0-based, counted in characters (not bytes).
        index: usize,
    },
    /// The namespace holds `:`, which separates namespace and name in the tool id, so the id
    /// would not read back as the same pair.
    #[error(
        "namespace `{}` of tool `{}` has ':' at index {index}; ':' separates the namespace from the name in the tool id",
        Shown(namespace),
        Shown(name)
    )]
    InvalidNamespace {
        /// The tool name.
        name: String,
        /// The namespace.
        namespace: String,
        /// Where the first `:` is: 0-based, counted in characters.
        index: usize,
    },
    /// The version is not a semantic version (SemVer 2.0.0: `MAJOR.MINOR.PATCH`, then an
    /// optional `-pre-release` and `+build`), so versions of the tool do not order.
    #[error(
        "version `{}` of tool `{}` is not a semantic version (MAJOR.MINOR.PATCH, SemVer 2.0.0): {reason}",
        Shown(version),
        Shown(name)
    )]
    InvalidVersion {
        /// The tool name.
        name: String,
        /// The version as given.
        version: String,
        /// Why the `semver` crate rejects it (`unexpected end of input while parsing minor
        /// version number`, …).
        reason: String,
    },
    /// The tool has no input schema; MCP requires `inputSchema`.
    #[error(
        "tool `{}` has no input schema; MCP requires `inputSchema` (at least {{\"type\":\"object\"}})",
        Shown(name)
    )]
    MissingInputSchema {
        /// The tool name.
        name: String,
    },
    /// The input schema's root is not an object schema.
    #[error("the input schema of `{}` must be an object schema, but {found}", Shown(name))]
    InputSchemaNotObject {
        /// The tool name.
        name: String,
        /// What the root is instead.
        found: String,
    },
}

/// A name in a message: escaped (one line whatever it holds) and cut after [`SHOWN_CHARS`].
struct Shown<'s>(&'s str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(SHOWN_CHARS) {
            fmt::Display::fmt(&c.escape_debug(), f)?;
        }
        if chars.next().is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl CanonicalTool {
    /// A tool with this name and nothing else.
    pub fn new(name: impl Into<String>) -> CanonicalTool {
        CanonicalTool { name: name.into(), ..CanonicalTool::default() }
    }

    /// Checks the tool against MCP's rules (2025-11-25) and returns the first one broken:
    ///
    /// 1. the name has 1 to 128 characters, each from `[A-Za-z0-9_.-]`;
    /// 2. the namespace, when there is one, holds no `:` (so [`CanonicalTool::id`] reads back);
    /// 3. the version, when there is one, is a semantic version (SemVer 2.0.0, read by the
    ///    `semver` crate: `1.2.0`, `2.0.0-rc.1+build.5`; not `1.2`, `v1.2.0` or `01.2.0`);
    /// 4. there is an input schema, and its root is an object schema: not a boolean schema and no
    ///    `type` that leaves out `"object"` (a root without `type` is accepted, as are
    ///    `["object", "null"]`).
    ///
    /// `validate` stops at the first problem, in that order, so it fits `?` and costs nothing
    /// more on a valid tool; [`CanonicalTool::validation_errors`] lists every problem, for
    /// linting a catalog in one pass. Both look at the first bad character only, so the work
    /// and the output stay small whatever the name holds. Schemas are not checked against a
    /// meta-schema here: that is `validate_schemas` (feature `validate`).
    ///
    /// ```
    /// use tooladapter::{CanonicalTool, ToolValidationError};
    ///
    /// let tool = CanonicalTool::new("get weather");
    /// let err = tool.validate().unwrap_err();
    /// assert!(matches!(err, ToolValidationError::InvalidNameCharacter { character: ' ', index: 3, .. }));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "tool name `get weather` has ' ' at index 3; MCP allows only A-Z, a-z, 0-9, `_`, `-` and `.`"
    /// );
    /// // …and it has no input schema either:
    /// assert_eq!(tool.validation_errors().len(), 2);
    /// ```
    ///
    /// # Errors
    /// The first rule broken, as a [`ToolValidationError`].
    pub fn validate(&self) -> Result<(), ToolValidationError> {
        let mut first = None;
        self.check(|e| {
            first = Some(e);
            false
        });
        first.map_or(Ok(()), Err)
    }

    /// Every rule the tool breaks (see [`CanonicalTool::validate`] for the rules and their
    /// order); empty when it is valid. At most one entry per rule.
    pub fn validation_errors(&self) -> Vec<ToolValidationError> {
        let mut all = Vec::new();
        self.check(|e| {
            all.push(e);
            true
        });
        all
    }

    /// Runs the rules in order, handing each problem to `found`; stops when it returns false.
    fn check(&self, mut found: impl FnMut(ToolValidationError) -> bool) {
        let name = &self.name;
        if name.is_empty() {
            if !found(ToolValidationError::EmptyName) {
                return;
            }
        } else {
            let mut len = 0;
            let mut bad = None;
            for (index, character) in name.chars().enumerate() {
                len += 1;
                if bad.is_none() && !is_name_char(character) {
                    bad = Some((index, character));
                }
            }
            if let Some((index, character)) = bad {
                let e = ToolValidationError::InvalidNameCharacter {
                    name: name.clone(),
                    character,
                    index,
                };
                if !found(e) {
                    return;
                }
            }
            if len > MAX_NAME_LEN
                && !found(ToolValidationError::NameTooLong { name: name.clone(), len })
            {
                return;
            }
        }
        if let Some(ns) = self.namespace.as_deref()
            && let Some(index) = ns.chars().position(|c| c == ':')
        {
            let e = ToolValidationError::InvalidNamespace {
                name: name.clone(),
                namespace: ns.to_owned(),
                index,
            };
            if !found(e) {
                return;
            }
        }
        if let Some(version) = self.version.as_deref()
            && let Err(e) = semver::Version::parse(version)
        {
            let e = ToolValidationError::InvalidVersion {
                name: name.clone(),
                version: version.to_owned(),
                reason: e.to_string(),
            };
            if !found(e) {
                return;
            }
        }
        let e = match &self.input_schema {
            None => ToolValidationError::MissingInputSchema { name: name.clone() },
            Some(schema) => match root_not_object(schema) {
                Some(found) => {
                    ToolValidationError::InputSchemaNotObject { name: name.clone(), found }
                }
                None => return,
            },
        };
        found(e);
    }
}

/// Whether MCP's name rule allows `c`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// What the root of an input schema is instead of an object schema, if it is not one.
fn root_not_object(schema: &JsonSchema) -> Option<String> {
    match schema {
        JsonSchema::Bool(b) => Some(format!("it is the boolean schema `{b}`")),
        JsonSchema::Object(o) => match &o.instance_type {
            Some(t) if !t.contains(InstanceType::Object) => {
                // A `SchemaType` is names only: serialising it cannot fail.
                let t = serde_json::to_string(t).unwrap_or_default();
                Some(format!("its `type` is {t}"))
            }
            _ => None,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/// One tag as the model keeps it: trimmed and lower-case (Unicode rules, so `Météo` is
/// `météo`); `None` when nothing is left.
fn normalize_tag(tag: &str) -> Option<String> {
    let tag = tag.trim();
    (!tag.is_empty()).then(|| tag.to_lowercase())
}

/// Tags normalised: each one trimmed and lower-cased, empties dropped, duplicates dropped after
/// their first occurrence (whose place is kept). Linear in the number of tags.
fn normalized<I, S>(tags: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let set: IndexSet<String> =
        tags.into_iter().filter_map(|t| normalize_tag(t.as_ref())).collect();
    set.into_iter().collect()
}

/// Reads `tags`, normalised (the model's rule holds for every deserialised tool).
pub(crate) fn deserialize_tags<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(normalized(Vec::<String>::deserialize(d)?))
}

impl CanonicalTool {
    /// Normalises [`CanonicalTool::tags`] in place: each tag trimmed and lower-cased, empty
    /// ones dropped, and a tag seen before dropped, so the first occurrence keeps its place.
    ///
    /// Deserialising a tool and [`CanonicalTool::with_tags`] / [`CanonicalTool::add_tag`]
    /// apply it already; call it after writing `tags` directly.
    ///
    /// ```
    /// use tooladapter::CanonicalTool;
    ///
    /// let mut tool = CanonicalTool::new("t");
    /// tool.tags = vec![" Weather ".into(), "".into(), "API".into(), "weather".into()];
    /// tool.normalize_tags();
    /// assert_eq!(tool.tags, ["weather", "api"]);
    /// ```
    pub fn normalize_tags(&mut self) {
        self.tags = normalized(std::mem::take(&mut self.tags));
    }

    /// The tool with these tags, normalised (see [`CanonicalTool::normalize_tags`]); they
    /// replace any it had.
    #[must_use]
    pub fn with_tags<I, S>(mut self, tags: I) -> CanonicalTool
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.tags = normalized(tags);
        self
    }

    /// Adds one tag, normalised; returns whether it was added (false when it is empty after
    /// trimming or the tool has it already). Assumes the existing tags are normalised.
    pub fn add_tag(&mut self, tag: impl AsRef<str>) -> bool {
        match normalize_tag(tag.as_ref()) {
            Some(tag) if !self.tags.contains(&tag) => {
                self.tags.push(tag);
                true
            }
            _ => false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ToolId
// ---------------------------------------------------------------------------------------------

/// A tool's id: `namespace:name`, or `name` alone.
///
/// Parsing splits at the **first** `:`, so a namespace never holds one (the name may, though
/// MCP's name rule then rejects the tool). Printing writes `namespace:name`, or the name
/// alone without a namespace; a parsed id prints back to the same text. Serde reads and writes
/// the printed form.
///
/// ```
/// use tooladapter::{CanonicalTool, ToolId, ToolIdError};
///
/// let id: ToolId = "weather:get_forecast".parse()?;
/// assert_eq!(id.namespace.as_deref(), Some("weather"));
/// assert_eq!(id.name, "get_forecast");
///
/// let mut tool = CanonicalTool::new("placeholder");
/// tool.set_id(id);
/// assert_eq!(tool.id().to_string(), "weather:get_forecast");
///
/// assert_eq!("weather:".parse::<ToolId>(), Err(ToolIdError::EmptyName { id: "weather:".into() }));
/// # Ok::<(), ToolIdError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolId {
    /// The namespace (a server or toolkit name), if any. Never empty in a parsed id.
    pub namespace: Option<String>,
    /// The tool name.
    pub name: String,
}

/// Why a string is not a [`ToolId`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolIdError {
    /// The string is empty.
    #[error("tool id is empty; expected `name` or `namespace:name`")]
    Empty,
    /// Nothing before the `:`.
    #[error("tool id `{}` has an empty namespace before ':'", Shown(id))]
    EmptyNamespace {
        /// The id as given.
        id: String,
    },
    /// Nothing after the `:`.
    #[error("tool id `{}` has an empty name after ':'", Shown(id))]
    EmptyName {
        /// The id as given.
        id: String,
    },
}

impl ToolId {
    /// An id without a namespace.
    pub fn new(name: impl Into<String>) -> ToolId {
        ToolId { namespace: None, name: name.into() }
    }

    /// An id in a namespace.
    pub fn namespaced(namespace: impl Into<String>, name: impl Into<String>) -> ToolId {
        ToolId { namespace: Some(namespace.into()), name: name.into() }
    }
}

impl FromStr for ToolId {
    type Err = ToolIdError;

    fn from_str(id: &str) -> Result<ToolId, ToolIdError> {
        match id.split_once(':') {
            _ if id.is_empty() => Err(ToolIdError::Empty),
            None => Ok(ToolId::new(id)),
            Some(("", _)) => Err(ToolIdError::EmptyNamespace { id: id.to_owned() }),
            Some((_, "")) => Err(ToolIdError::EmptyName { id: id.to_owned() }),
            Some((namespace, name)) => Ok(ToolId::namespaced(namespace, name)),
        }
    }
}

impl fmt::Display for ToolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(ns) = &self.namespace {
            f.write_str(ns)?;
            f.write_str(":")?;
        }
        f.write_str(&self.name)
    }
}

/// Compares the printed form: `tool.id() == "weather:get_forecast"`.
impl PartialEq<str> for ToolId {
    fn eq(&self, other: &str) -> bool {
        match &self.namespace {
            None => self.name == other,
            Some(ns) => other
                .strip_prefix(ns.as_str())
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|name| name == self.name),
        }
    }
}

/// Compares the printed form: `tool.id() == "weather:get_forecast"`.
impl PartialEq<&str> for ToolId {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl Serialize for ToolId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ToolId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl CanonicalTool {
    /// The tool's id: `namespace:name`, or the name alone when there is no (or an empty)
    /// namespace. `tool.id().to_string()` is the printed form.
    pub fn id(&self) -> ToolId {
        ToolId {
            namespace: self.namespace.clone().filter(|ns| !ns.is_empty()),
            name: self.name.clone(),
        }
    }

    /// Sets namespace and name from an id (a `None` namespace clears the tool's).
    pub fn set_id(&mut self, id: ToolId) {
        self.namespace = id.namespace;
        self.name = id.name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_names_are_escaped_and_cut() {
        assert_eq!(Shown("a\nb").to_string(), "a\\nb");
        assert_eq!(Shown(&"x".repeat(SHOWN_CHARS)).to_string(), "x".repeat(SHOWN_CHARS));
        assert_eq!(Shown(&"é".repeat(SHOWN_CHARS + 1)).to_string(), "é".repeat(SHOWN_CHARS) + "…");
    }

    #[test]
    fn versions_are_semantic_versions() {
        let tool = |version: &str| CanonicalTool {
            version: Some(version.to_owned()),
            input_schema: Some(JsonSchema::Bool(true)),
            ..CanonicalTool::new("t")
        };
        // A root `true` is not an object schema: keep the input schema out of the answers.
        let version_error = |version: &str| {
            tool(version)
                .validation_errors()
                .into_iter()
                .find(|e| matches!(e, ToolValidationError::InvalidVersion { .. }))
        };
        for ok in
            ["0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha.1", "2.0.0-rc.1+build.5", "1.0.0+20261125"]
        {
            assert_eq!(version_error(ok), None, "{ok}");
        }
        for bad in ["", "1", "1.2", "v1.2.3", "01.2.3", "1.2.3.4", "1.2.x", " 1.2.3", "latest"] {
            let Some(ToolValidationError::InvalidVersion { name, version, reason }) =
                version_error(bad)
            else {
                panic!("{bad:?} accepted");
            };
            assert_eq!((name.as_str(), version.as_str()), ("t", bad));
            assert!(!reason.is_empty(), "{bad:?}");
        }
        // The rule's place: after the namespace, before the input schema; no version, no rule.
        let mut both = tool("1.2");
        both.namespace = Some("a:b".to_owned());
        both.input_schema = None;
        let errors = both.validation_errors();
        assert!(
            matches!(
                errors.as_slice(),
                [
                    ToolValidationError::InvalidNamespace { .. },
                    ToolValidationError::InvalidVersion { .. },
                    ToolValidationError::MissingInputSchema { .. },
                ]
            ),
            "{errors:?}"
        );
        both.namespace = None;
        let e = both.validate().expect_err("invalid version");
        assert_eq!(
            e.to_string(),
            "version `1.2` of tool `t` is not a semantic version (MAJOR.MINOR.PATCH, SemVer 2.0.0): unexpected end of input while parsing minor version number"
        );
        both.version = None;
        assert!(matches!(both.validate(), Err(ToolValidationError::MissingInputSchema { .. })));
    }

    #[test]
    fn name_chars() {
        for c in ['a', 'Z', '0', '9', '_', '-', '.'] {
            assert!(is_name_char(c), "{c}");
        }
        for c in [' ', ':', '/', ',', '@', 'é', '\0', 'ａ'] {
            assert!(!is_name_char(c), "{c}");
        }
    }
}
