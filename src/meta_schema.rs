//! Checking a schema document against its dialect's meta-schema (feature `validate`):
//! [`JsonSchema::validate_schema`] and [`CanonicalTool::validate_schemas`].
//!
//! This answers "is this a well-formed JSON Schema?", not "does this value match the schema?":
//! the schema is the instance, the 2020-12 or draft-07 meta-schema is the schema. The
//! meta-schemas are the ones the `jsonschema` crate bundles. That crate is built without its
//! default features, so no HTTP or file retriever is compiled in, and the dialect is chosen
//! here from `$schema` rather than resolved: a `$ref`, `$id` or `$schema` naming a remote
//! document is a string to check, never an address to fetch.

use std::fmt;

use crate::owned::{CanonicalTool, JsonSchema};

/// The most errors one check returns; the rest are counted as truncated. A broken schema
/// as large as the input limit could otherwise produce one owned error per node.
pub const MAX_SCHEMA_ERRORS: usize = 100;

/// A JSON Schema dialect whose meta-schema this crate checks against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Draft 7, `http://json-schema.org/draft-07/schema#`.
    Draft07,
    /// Draft 2020-12, `https://json-schema.org/draft/2020-12/schema`: MCP's default when a
    /// schema has no `$schema`, and this crate's.
    Draft202012,
}

impl Dialect {
    /// The dialect's canonical meta-schema URI.
    pub const fn uri(self) -> &'static str {
        match self {
            Dialect::Draft07 => "http://json-schema.org/draft-07/schema#",
            Dialect::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The dialect a `$schema` value names. The scheme may be `http` or `https` and an empty
    /// fragment (`#`) is ignored, as published schemas spell both ways.
    pub fn from_uri(uri: &str) -> Option<Dialect> {
        match crate::ir::Draft::from_uri(uri)? {
            crate::ir::Draft::Draft07 => Some(Dialect::Draft07),
            crate::ir::Draft::Draft202012 => Some(Dialect::Draft202012),
            _ => None,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Draft07 => "draft-07",
            Dialect::Draft202012 => "2020-12",
        })
    }
}

/// One way a schema document is not valid under its meta-schema.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// `$schema` names a dialect this crate does not check. It is not fetched.
    #[error(
        "at {pointer:?}: `$schema` {uri:?} is not a dialect checked here (draft-07, 2020-12); it is never fetched"
    )]
    UnsupportedDialect {
        /// RFC 6901 pointer to the `$schema` member.
        pointer: String,
        /// Its value.
        uri: String,
    },
    /// A place in the schema breaks a rule of the meta-schema.
    #[error("at {pointer:?}: {message} ({dialect} meta-schema keyword `{keyword}`)")]
    Invalid {
        /// RFC 6901 pointer to the bad place in the checked document.
        pointer: String,
        /// The meta-schema keyword that failed (`type`, `minimum`, `anyOf`, …).
        keyword: String,
        /// What is wrong, without the offending value (so the message stays short).
        message: String,
        /// The meta-schema checked against.
        dialect: Dialect,
    },
}

impl SchemaError {
    /// RFC 6901 pointer to the bad place.
    pub fn pointer(&self) -> &str {
        match self {
            SchemaError::UnsupportedDialect { pointer, .. }
            | SchemaError::Invalid { pointer, .. } => pointer,
        }
    }
}

/// Every problem one check found (never empty), at most [`MAX_SCHEMA_ERRORS`] of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaErrors {
    errors: Vec<SchemaError>,
    truncated: bool,
}

impl SchemaErrors {
    /// The problems, in the order the meta-schema check met them.
    pub fn errors(&self) -> &[SchemaError] {
        &self.errors
    }

    /// Whether more problems were found than [`MAX_SCHEMA_ERRORS`] and the rest left out.
    pub fn truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(f, "schema is not valid ({n}{} problem", if self.truncated { "+" } else { "" })?;
        f.write_str(if n == 1 && !self.truncated { ")" } else { "s)" })?;
        for e in &self.errors {
            write!(f, "; {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}

/// Collects errors up to the cap.
#[derive(Default)]
struct Collector {
    errors: Vec<SchemaError>,
    truncated: bool,
}

impl Collector {
    fn full(&self) -> bool {
        self.errors.len() >= MAX_SCHEMA_ERRORS
    }

    /// Adds a problem not seen before (the 2020-12 meta-schema reaches one place through
    /// several vocabularies and reports it once per path).
    fn push(&mut self, e: SchemaError) {
        if self.errors.contains(&e) {
            return;
        }
        if self.full() {
            self.truncated = true;
        } else {
            self.errors.push(e);
        }
    }

    /// Checks `schema` (rooted at `prefix` in the pointers) against `dialect`, or the one its
    /// `$schema` names.
    fn check(&mut self, schema: &JsonSchema, dialect: Option<Dialect>, prefix: &str) {
        let dialect = match dialect {
            Some(d) => d,
            None => match declared(schema) {
                Ok(d) => d,
                Err(uri) => {
                    let pointer = format!("{prefix}/$schema");
                    self.push(SchemaError::UnsupportedDialect { pointer, uri: uri.to_owned() });
                    return;
                }
            },
        };
        let document = schema.to_value();
        let validator = match dialect {
            Dialect::Draft07 => jsonschema::draft7::meta::validator(),
            Dialect::Draft202012 => jsonschema::draft202012::meta::validator(),
        };
        for e in validator.iter_errors(&document) {
            if self.truncated {
                break;
            }
            let mut pointer = String::from(prefix);
            pointer.push_str(e.instance_path().as_str());
            self.push(SchemaError::Invalid {
                pointer,
                keyword: e.kind().keyword().to_owned(),
                message: e.masked().to_string(),
                dialect,
            });
        }
    }

    fn finish(self) -> Result<(), SchemaErrors> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(SchemaErrors { errors: self.errors, truncated: self.truncated })
        }
    }
}

/// The dialect the root's `$schema` names: 2020-12 when there is none (or it is not a string,
/// which the 2020-12 meta-schema then reports); the unknown URI otherwise.
fn declared(schema: &JsonSchema) -> Result<Dialect, &str> {
    match schema.as_object().and_then(|o| o.meta_schema.as_deref()) {
        None => Ok(Dialect::Draft202012),
        Some(uri) => Dialect::from_uri(uri).ok_or(uri),
    }
}

impl JsonSchema {
    /// The dialect this schema declares with `$schema`: 2020-12 when it has none.
    ///
    /// # Errors
    /// [`SchemaError::UnsupportedDialect`] for a `$schema` naming another dialect.
    pub fn dialect(&self) -> Result<Dialect, SchemaError> {
        declared(self).map_err(|uri| SchemaError::UnsupportedDialect {
            pointer: "/$schema".to_owned(),
            uri: uri.to_owned(),
        })
    }

    /// Checks the schema document against its dialect's meta-schema: the one `$schema` names
    /// (draft-07 or 2020-12), else 2020-12. Nothing is fetched: a `$schema` naming another
    /// dialect is an error, and `$ref`s are strings to check, not documents to load.
    ///
    /// ```
    /// use tooladapter::{JsonSchema, SchemaError};
    ///
    /// let schema: JsonSchema = serde_json::from_str(
    ///     r#"{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}"#,
    /// )?;
    /// let errors = schema.validate_schema().unwrap_err();
    /// let SchemaError::Invalid { pointer, keyword, .. } = &errors.errors()[0] else { panic!() };
    /// assert_eq!((pointer.as_str(), keyword.as_str()), ("/properties/n/minimum", "type"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    ///
    /// # Errors
    /// Every problem found, up to [`MAX_SCHEMA_ERRORS`], each with the JSON pointer of its
    /// place in the schema.
    pub fn validate_schema(&self) -> Result<(), SchemaErrors> {
        let mut c = Collector::default();
        c.check(self, None, "");
        c.finish()
    }

    /// Checks the schema document against `dialect`'s meta-schema, whatever its `$schema` says.
    ///
    /// # Errors
    /// As [`JsonSchema::validate_schema`].
    pub fn validate_schema_as(&self, dialect: Dialect) -> Result<(), SchemaErrors> {
        let mut c = Collector::default();
        c.check(self, Some(dialect), "");
        c.finish()
    }
}

impl CanonicalTool {
    /// Checks the input and output schemas (those the tool has) with
    /// [`JsonSchema::validate_schema`]. Pointers are rooted at the tool's serde form:
    /// `/input_schema/…` and `/output_schema/…`. The tool-level rules (name, an object root)
    /// are [`CanonicalTool::validate`].
    ///
    /// # Errors
    /// Every problem in either schema, input first, up to [`MAX_SCHEMA_ERRORS`] in all.
    pub fn validate_schemas(&self) -> Result<(), SchemaErrors> {
        let mut c = Collector::default();
        for (prefix, schema) in
            [("/input_schema", &self.input_schema), ("/output_schema", &self.output_schema)]
        {
            if let Some(schema) = schema {
                c.check(schema, None, prefix);
            }
        }
        c.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_uris() {
        for d in [Dialect::Draft07, Dialect::Draft202012] {
            assert_eq!(Dialect::from_uri(d.uri()), Some(d));
        }
        assert_eq!(
            Dialect::from_uri("http://json-schema.org/draft-07/schema"),
            Some(Dialect::Draft07)
        );
        assert_eq!(
            Dialect::from_uri("http://json-schema.org/draft/2020-12/schema#"),
            Some(Dialect::Draft202012)
        );
        // Drafts read elsewhere but not checked here; how a URI is read is `ir::Draft`'s test.
        for other in [
            "http://json-schema.org/draft-04/schema#",
            "https://json-schema.org/draft/2019-09/schema",
        ] {
            assert_eq!(Dialect::from_uri(other), None, "{other}");
        }
    }
}
