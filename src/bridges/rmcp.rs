//! `rmcp::model::Tool` (the official Rust MCP SDK) ⇄ [`CanonicalTool`] (feature `rmcp`).
//!
//! Both directions go through the tool's MCP JSON form, so whatever rmcp adds to its `Tool`
//! later lands in [`CanonicalTool::source_meta`] on the way in, and whatever rmcp's types do not
//! keep on the way out (an unknown annotation, an icon member, MCP 2025-11-25's `execution`,
//! which rmcp's `Tool` has no field for) is found by comparing what was sent with what the
//! `Tool` serialises back, rather than by a list here that would go stale.

use rmcp::model::Tool;
use serde_json::{Map, Value as JsonValue};

use super::{BridgeError, Losses, object_schema};
use crate::adapter::Adapter as _;
use crate::owned::{CanonicalTool, JsonSchema};
use crate::pointer::escape_into;
use crate::report::{Code, Report};

/// The type name in reports and errors.
const TARGET: &str = "rmcp::model::Tool";

/// The input schema written for a tool without one (MCP requires one), as the registry writes
/// it.
const EMPTY_INPUT: &str = r#"{"type":"object","properties":{}}"#;

/// MCP tool members with a typed [`CanonicalTool`] field, and that field's name.
const TYPED: [(&str, &str); 6] = [
    ("name", "name"),
    ("title", "title"),
    ("description", "description"),
    ("inputSchema", "input_schema"),
    ("outputSchema", "output_schema"),
    ("annotations", "annotations"),
];

/// Reads an rmcp tool: `title`, `description`, the schemas and `annotations` into their
/// fields, `icons`, `_meta` and anything else rmcp serialises into `source_meta`, in rmcp's
/// order. `source_format` is `mcp`. Nothing is lost.
impl From<&Tool> for CanonicalTool {
    fn from(tool: &Tool) -> CanonicalTool {
        let members = match serde_json::to_value(tool) {
            Ok(JsonValue::Object(map)) => map,
            // A struct of strings, maps and options serialises to an object; should that ever
            // change, the name is still kept.
            _ => Map::new(),
        };
        let mut out = CanonicalTool::new(tool.name.as_ref());
        out.source_format = Some(crate::formats::Mcp.name().to_owned());
        for (key, value) in members {
            match (key.as_str(), value) {
                ("name", JsonValue::String(_)) => {}
                ("title", JsonValue::String(s)) => out.title = Some(s),
                ("description", JsonValue::String(s)) => out.description = Some(s),
                ("inputSchema", JsonValue::Object(map)) => out.input_schema = Some(map.into()),
                ("outputSchema", JsonValue::Object(map)) => {
                    out.output_schema = Some(JsonSchema::from(map));
                }
                ("annotations", v) if !v.is_null() => out.annotations = Some(v),
                (_, v) => {
                    out.source_meta.insert(key, v);
                }
            }
        }
        out
    }
}

/// See `From<&Tool>`.
impl From<Tool> for CanonicalTool {
    fn from(tool: Tool) -> CanonicalTool {
        CanonicalTool::from(&tool)
    }
}

impl CanonicalTool {
    /// The tool as an `rmcp::model::Tool`, keeping what fits, with a report of the rest.
    ///
    /// Kept: name, title, description, input and output schemas, annotations (the members
    /// rmcp's `ToolAnnotations` has), and `icons` and `_meta` from `source_meta`. A missing
    /// input schema is written `{"type":"object","properties":{}}` (MCP requires one) and a
    /// boolean schema in its object form; both are info entries. Reported as dropped (warning
    /// entries, pointers into the tool's serde form): namespace, version, category, tags,
    /// timeout, scopes, `strict`, every other `source_meta` member, a `source_meta` member named
    /// like a typed one, and any part of annotations or icons rmcp's types do not hold.
    ///
    /// ```
    /// use tooladapter::CanonicalTool;
    ///
    /// let mut tool = CanonicalTool::new("get_weather").with_tags(["weather"]);
    /// tool.title = Some("Weather".into());
    /// let (rmcp_tool, report) = tool.to_rmcp();
    /// assert_eq!(rmcp_tool.title.as_deref(), Some("Weather"));
    /// let lost: Vec<&str> = report.entries().iter().map(|e| e.pointer.as_str()).collect();
    /// assert_eq!(lost, ["/tags", "/input_schema"]); // the tags, and the schema MCP requires
    /// assert!(rmcp::model::Tool::try_from(&tool).is_err()); // the tags have no place
    /// ```
    pub fn to_rmcp(&self) -> (Tool, Report) {
        let (tool, losses) = self.rmcp_with_losses();
        (tool, losses.finish())
    }

    fn rmcp_with_losses(&self) -> (Tool, Losses) {
        let mut losses = Losses::new(self, TARGET);
        losses.catalog_only_dropped(self);
        if self.strict.is_some() {
            let message = format!("{TARGET} has no place for `strict` (MCP has no strict mode)");
            losses.dropped(Code::MetadataDropped, "strict", "/strict".to_owned(), message);
        }
        let sent = self.mcp_members(&mut losses);
        let tool = deserialize(&sent).unwrap_or_else(|| base_tool(self));
        let back = match serde_json::to_value(&tool) {
            Ok(JsonValue::Object(map)) => map,
            _ => Map::new(),
        };
        for (key, value) in &sent {
            let mut at = canonical_pointer(key);
            let mut lost = Vec::new();
            unkept(value, back.get(key), &mut at, &mut lost);
            for (pointer, value) in lost {
                let what = format!("does not keep this part of `{key}`");
                losses.left_out(key, pointer, value, &what);
            }
        }
        (tool, losses)
    }

    /// The tool's MCP members as rmcp reads them: the typed fields, then the `source_meta`
    /// members (those rmcp's `Tool` cannot read are left out and reported).
    fn mcp_members(&self, losses: &mut Losses) -> Map<String, JsonValue> {
        let mut m = Map::new();
        m.insert("name".to_owned(), JsonValue::String(self.name.clone()));
        if let Some(title) = &self.title {
            m.insert("title".to_owned(), JsonValue::String(title.clone()));
        }
        if let Some(description) = &self.description {
            m.insert("description".to_owned(), JsonValue::String(description.clone()));
        }
        let input = match &self.input_schema {
            Some(schema) => object_schema(schema, ("/input_schema", true), losses),
            None => {
                let message = format!("MCP requires an input schema; `{EMPTY_INPUT}` was written");
                losses.rewritten(
                    Code::InputSchemaAdded,
                    true,
                    "input_schema",
                    "/input_schema".to_owned(),
                    message,
                );
                let mut empty = Map::new();
                empty.insert("type".to_owned(), JsonValue::String("object".to_owned()));
                empty.insert("properties".to_owned(), JsonValue::Object(Map::new()));
                empty
            }
        };
        m.insert("inputSchema".to_owned(), JsonValue::Object(input));
        if let Some(schema) = &self.output_schema {
            let output = object_schema(schema, ("/output_schema", false), losses);
            m.insert("outputSchema".to_owned(), JsonValue::Object(output));
        }
        if let Some(annotations) = &self.annotations {
            if readable("annotations", annotations) {
                m.insert("annotations".to_owned(), annotations.clone());
            } else {
                let what = "cannot read these annotations (not `ToolAnnotations`)";
                losses.left_out("annotations", "/annotations".to_owned(), annotations, what);
            }
        }
        for (key, value) in &self.source_meta {
            if TYPED.iter().any(|(k, _)| k == key) {
                losses.meta_dropped(key, value, " beside the typed field of that name");
            } else if !readable(key, value) {
                losses.meta_dropped(key, value, " in this shape");
            } else {
                m.insert(key.clone(), value.clone());
            }
        }
        m
    }
}

/// Whether rmcp's `Tool` reads `value` as its member `key` (members it does not know always
/// read: it ignores them, and the comparison afterwards reports them). Checked on a minimal
/// tool, so a bad member costs no copy of the schemas.
fn readable(key: &str, value: &JsonValue) -> bool {
    let mut probe = Map::new();
    probe.insert("name".to_owned(), JsonValue::String(String::new()));
    probe.insert("inputSchema".to_owned(), JsonValue::Object(Map::new()));
    probe.insert(key.to_owned(), value.clone());
    serde_json::from_value::<Tool>(JsonValue::Object(probe)).is_ok()
}

/// The rmcp tool for `members`, each of which reads on its own.
fn deserialize(members: &Map<String, JsonValue>) -> Option<Tool> {
    serde_json::from_value(JsonValue::Object(members.clone())).ok()
}

/// A last resort should the members not read together: the tool's name and description; the
/// comparison then reports everything else.
fn base_tool(tool: &CanonicalTool) -> Tool {
    let mut t = Tool::default();
    t.name = tool.name.clone().into();
    t.description = tool.description.clone().map(Into::into);
    t
}

/// Where an MCP member lives in the [`CanonicalTool`]'s serde form.
fn canonical_pointer(key: &str) -> String {
    let mut at = String::from("/");
    match TYPED.iter().find(|(k, _)| *k == key) {
        Some((_, field)) => at.push_str(field),
        None => {
            at.push_str("source_meta/");
            escape_into(&mut at, key);
        }
    }
    at
}

/// Pushes onto `lost` the pointer and value of each place in `sent` that `back` does not hold
/// unchanged, as deep as both sides are objects (or equally long arrays). Members `back` adds
/// (defaults) are not losses.
fn unkept<'s>(
    sent: &'s JsonValue,
    back: Option<&JsonValue>,
    at: &mut String,
    lost: &mut Vec<(String, &'s JsonValue)>,
) {
    match (sent, back) {
        (_, Some(b)) if b == sent => {}
        (JsonValue::Object(s), Some(JsonValue::Object(b))) => {
            for (key, value) in s {
                let len = at.len();
                at.push('/');
                escape_into(at, key);
                unkept(value, b.get(key), at, lost);
                at.truncate(len);
            }
        }
        (JsonValue::Array(s), Some(JsonValue::Array(b))) if s.len() == b.len() => {
            for (i, (value, kept)) in s.iter().zip(b).enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                unkept(value, Some(kept), at, lost);
                at.truncate(len);
            }
        }
        _ => lost.push((at.clone(), sent)),
    }
}

/// Fails when anything would be lost (see [`CanonicalTool::to_rmcp`]); the error's report
/// says what.
impl TryFrom<&CanonicalTool> for Tool {
    type Error = BridgeError;

    fn try_from(tool: &CanonicalTool) -> Result<Tool, BridgeError> {
        let (out, losses) = tool.rmcp_with_losses();
        losses.into_result(out, TARGET)
    }
}

/// See `TryFrom<&CanonicalTool>`.
impl TryFrom<CanonicalTool> for Tool {
    type Error = BridgeError;

    fn try_from(tool: CanonicalTool) -> Result<Tool, BridgeError> {
        Tool::try_from(&tool)
    }
}
