//! Bridges between [`CanonicalTool`] and other crates' tool types, each behind a cargo feature
//! named after the crate: `rmcp` (the official MCP SDK's `Tool`), `async-openai` (its Chat
//! Completions function tool) and `schemars` (an input schema from a Rust type).
//!
//! They are field mappings, not conversions through a provider profile: a schema crosses
//! verbatim (a boolean schema is written in its object form where the other type needs an
//! object), and no name or strict rule is applied. For what a provider accepts, go through
//! [`crate::Registry::from_canonical`] instead.
//!
//! Into a [`CanonicalTool`] nothing is lost: what has no typed field goes to
//! [`CanonicalTool::source_meta`]. Out of one, the other type may have no place for a field
//! (tags, a version, MCP metadata in an OpenAI tool, …). Each bridge then has two forms: a
//! method that keeps what fits and returns a [`Report`] listing the rest (one entry per
//! field, with its pointer), and a `TryFrom` that fails with a [`BridgeError`] when that report
//! lost anything. Rewrites that keep the meaning (a boolean schema in object form, a member
//! whose value is `null`, which an optional member reads as absent, left out) are `info`
//! entries and do not fail the `TryFrom`.

#[cfg(any(feature = "rmcp", feature = "async-openai"))]
use {
    crate::owned::{CanonicalTool, JsonSchema},
    crate::pointer::escape_into,
    crate::report::{Code, Effect, EntryKind, Note, Report, Severity},
    serde_json::{Map, Value as JsonValue},
    std::fmt,
};

#[cfg(feature = "async-openai")]
mod async_openai;
#[cfg(feature = "rmcp")]
mod rmcp;
#[cfg(feature = "schemars")]
mod schemars;

/// A tool could not be written as another crate's type without losing something. The report
/// says what, field by field; the lossy method of the same bridge (`CanonicalTool::to_rmcp`,
/// `CanonicalTool::to_chat_completion_tool`) returns the value anyway.
#[cfg(any(feature = "rmcp", feature = "async-openai"))]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct BridgeError {
    target: &'static str,
    tool: String,
    report: Report,
}

#[cfg(any(feature = "rmcp", feature = "async-openai"))]
impl BridgeError {
    /// The type the tool was to become, e.g. `rmcp::model::Tool`.
    pub fn target(&self) -> &'static str {
        self.target
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What could not be kept (warning entries) and what was rewritten (info entries).
    pub fn report(&self) -> &Report {
        &self.report
    }
}

#[cfg(any(feature = "rmcp", feature = "async-openai"))]
impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool {:?} cannot become {} without loss:", self.tool, self.target)?;
        let lost = self.report.entries().iter().filter(|e| e.severity >= Severity::Warning);
        for (i, e) in lost.enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{} at {:?}", e.feature, e.pointer)?;
        }
        Ok(())
    }
}

/// The report of one bridge conversion, in the order the bridge meets the fields.
#[cfg(any(feature = "rmcp", feature = "async-openai"))]
pub(crate) struct Losses {
    tool: String,
    to: &'static str,
    report: Report,
}

/// The `from` of every bridge report entry: the tool's serde form, whose field names the
/// pointers use.
#[cfg(any(feature = "rmcp", feature = "async-openai"))]
const FROM: &str = "canonical";

#[cfg(any(feature = "rmcp", feature = "async-openai"))]
impl Losses {
    pub(crate) fn new(tool: &CanonicalTool, to: &'static str) -> Losses {
        Losses { tool: tool.name.clone(), to, report: Report::default() }
    }

    /// Records an entry. Every bridge entry leaves the calls accepted as they were: a field no
    /// argument depends on left out (`arguments: false`), or a schema written in a form that
    /// accepts the same.
    fn push(&mut self, kind: EntryKind, feature: &str, pointer: String, message: String) {
        // Entries stay in the order they are written (nothing sorts this report).
        let note = Note { kind, feature, pointer, message };
        self.report.push(note.entry(self.tool.clone(), FROM, self.to, (0, 0, 0)));
    }

    /// A field the target has no place for: a warning (the owned tool is the caller's only
    /// copy of it), though no argument depends on it.
    pub(crate) fn dropped(&mut self, code: Code, feature: &str, pointer: String, message: String) {
        self.push(EntryKind::metadata_lost(code), feature, pointer, message);
    }

    /// A rewrite that keeps the meaning: of the input schema (`arguments`), or of a field
    /// no argument depends on.
    pub(crate) fn rewritten(
        &mut self,
        code: Code,
        arguments: bool,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        let kind = if arguments {
            EntryKind::arguments(code, Effect::None)
        } else {
            EntryKind::metadata(code)
        };
        self.push(kind, feature, pointer, message);
    }

    /// Reports the [`CanonicalTool`] fields no target holds that `tool` sets
    /// ([`CanonicalTool::catalog_only_fields`]), one warning each.
    pub(crate) fn catalog_only_dropped(&mut self, tool: &CanonicalTool) {
        for field in tool.catalog_only_fields() {
            let message = format!("{} has no place for the tool's `{field}`", self.to);
            self.dropped(Code::MetadataDropped, field, format!("/{field}"), message);
        }
    }

    /// Reports one `source_meta` member the target has no place for.
    pub(crate) fn meta_dropped(&mut self, key: &str, value: &JsonValue, why: &str) {
        let mut pointer = String::from("/source_meta/");
        escape_into(&mut pointer, key);
        self.left_out(key, pointer, value, &format!("has no place for `{key}`{why}"));
    }

    /// Reports a member left out at `pointer`: a warning, or an info entry when its value is
    /// `null`, which an optional member reads as absent (so no meaning is lost).
    pub(crate) fn left_out(
        &mut self,
        feature: &str,
        pointer: String,
        value: &JsonValue,
        what: &str,
    ) {
        if value.is_null() {
            let message = format!("{} {what}; its value was `null`, read as absent", self.to);
            self.rewritten(Code::MetadataDropped, false, feature, pointer, message);
        } else {
            let message = format!("{} {what}", self.to);
            self.dropped(Code::MetadataDropped, feature, pointer, message);
        }
    }

    /// The report.
    pub(crate) fn finish(self) -> Report {
        self.report
    }

    /// `value` when nothing was lost, else the error holding the report.
    pub(crate) fn into_result<T>(self, value: T, target: &'static str) -> Result<T, BridgeError> {
        if self.report.lost_meaning() {
            Err(BridgeError { target, tool: self.tool, report: self.report })
        } else {
            Ok(value)
        }
    }
}

/// A schema as a JSON object, for a type that holds only object schemas: `true` is written
/// `{}` and `false` `{"not": {}}` (each accepts exactly what the boolean does), with an info
/// entry at `pointer`; `arguments`: whether it is the input schema.
#[cfg(any(feature = "rmcp", feature = "async-openai"))]
pub(crate) fn object_schema(
    schema: &JsonSchema,
    (pointer, arguments): (&str, bool),
    losses: &mut Losses,
) -> Map<String, JsonValue> {
    match schema.to_value() {
        JsonValue::Object(map) => map,
        other => {
            let accepts = other.as_bool().unwrap_or(true);
            let mut map = Map::new();
            if !accepts {
                map.insert("not".to_owned(), JsonValue::Object(Map::new()));
            }
            let feature = pointer.trim_start_matches('/');
            let message = format!(
                "the boolean schema `{accepts}` is written `{}` ({} holds object schemas only)",
                JsonValue::Object(map.clone()),
                losses.to
            );
            let (code, pointer) = (Code::BooleanSchemaRewritten, pointer.to_owned());
            losses.rewritten(code, arguments, feature, pointer, message);
            map
        }
    }
}

#[cfg(all(test, any(feature = "rmcp", feature = "async-openai")))]
mod tests {
    use serde_json::json;

    use crate::owned::{CanonicalTool, JsonSchema};
    use crate::report::{Report, Severity};

    /// The pointers of the warnings (what was dropped), in report order.
    fn dropped(report: &Report) -> Vec<&str> {
        let lost = report.entries().iter().filter(|e| e.severity == Severity::Warning);
        lost.map(|e| e.pointer.as_str()).collect()
    }

    /// A tool every writer holds whole but for its catalog-only fields, which are all set.
    fn catalog_tool(namespace: &str) -> CanonicalTool {
        let mut tool = CanonicalTool::new("t").with_tags(["a"]);
        tool.input_schema = JsonSchema::try_from(json!({"type": "object"})).ok();
        tool.namespace = Some(namespace.to_owned());
        tool.version = Some("1".to_owned());
        tool.category = Some("c".to_owned());
        tool.timeout_ms = Some(5);
        tool.required_scopes = vec!["s".to_owned()];
        tool
    }

    /// Every writer of another form reports the same catalog-only fields, from one list. An
    /// empty namespace is none (`CanonicalTool::id` reads it so): leaving it out loses nothing,
    /// so it is not reported. The bridges used to report it, unlike `Registry::from_canonical`.
    #[test]
    fn every_writer_drops_the_same_catalog_only_fields() {
        let registry = crate::Registry::default();
        for (namespace, expected) in [
            (
                "web",
                &[
                    "/namespace",
                    "/version",
                    "/category",
                    "/tags",
                    "/timeout_ms",
                    "/required_scopes",
                ][..],
            ),
            ("", &["/version", "/category", "/tags", "/timeout_ms", "/required_scopes"][..]),
        ] {
            let tool = catalog_tool(namespace);
            let conversion = registry.from_canonical(std::slice::from_ref(&tool), "mcp");
            let conversion = conversion.expect("converts");
            assert_eq!(dropped(conversion.report()), expected, "registry, {namespace:?}");
            #[cfg(feature = "rmcp")]
            assert_eq!(dropped(&tool.to_rmcp().1), expected, "rmcp, {namespace:?}");
            #[cfg(feature = "async-openai")]
            assert_eq!(
                dropped(&tool.to_chat_completion_tool().1),
                expected,
                "async-openai, {namespace:?}"
            );
        }
    }

    /// A tool whose only catalog-only field is an empty namespace crosses every bridge without
    /// loss.
    #[test]
    fn an_empty_namespace_is_no_loss() {
        let mut tool = CanonicalTool::new("t");
        tool.input_schema = JsonSchema::try_from(json!({"type": "object"})).ok();
        tool.namespace = Some(String::new());
        #[cfg(feature = "rmcp")]
        {
            assert!(tool.to_rmcp().1.is_empty());
            assert!(rmcp::model::Tool::try_from(&tool).is_ok());
        }
        #[cfg(feature = "async-openai")]
        {
            use async_openai::types::chat::FunctionObject;
            assert!(tool.to_chat_completion_tool().1.is_empty());
            assert!(FunctionObject::try_from(&tool).is_ok());
        }
    }
}
