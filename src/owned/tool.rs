//! [`CanonicalTool`], the owned tool: the fields formats share, typed, and the source's other
//! members kept verbatim; and the one list of its fields no target format holds.
//!
//! Its rules (validation, tags, ids) are in `model.rs`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value as JsonValue;

use super::schema::JsonSchema;

/// An owned tool in the crate's canonical form: the fields formats share, typed, plus every
/// other envelope member of the source kept verbatim in [`CanonicalTool::source_meta`].
///
/// Nothing is fabricated: a field is set only when the source stated it (no `title` taken from
/// annotations, no default hints). Serde uses the Rust field names; unset fields are omitted.
///
/// The model's rules: [`CanonicalTool::validate`] (MCP's name rule, an input schema whose root
/// is an object), tags normalised ([`CanonicalTool::normalize_tags`]), and `namespace:name` ids
/// ([`CanonicalTool::id`], [`crate::ToolId`]). `docs/canonical.md` lists them with examples.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CanonicalTool {
    /// A namespace grouping tools (a server or toolkit name); see [`CanonicalTool::id`]. It
    /// may not hold `:`, which separates it from the name in the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The tool name the model calls.
    pub name: String,
    /// A human-readable display name (MCP `title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool's version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the tool does, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A category for catalogs and UIs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Tags for catalogs and search: trimmed, lower-case, without empties or duplicates, in
    /// first-occurrence order. Deserialising and [`CanonicalTool::with_tags`] /
    /// [`CanonicalTool::add_tag`] normalise them; after writing the field directly, call
    /// [`CanonicalTool::normalize_tags`].
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::owned::rules::deserialize_tags"
    )]
    pub tags: Vec<String>,
    /// The arguments schema (MCP `inputSchema`, OpenAI `parameters`, Anthropic `input_schema`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<JsonSchema>,
    /// The result schema (MCP `outputSchema`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<JsonSchema>,
    /// Behaviour hints (MCP `annotations`: `readOnlyHint`, `destructiveHint`, …), verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<JsonValue>,
    /// How long a call may take, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Authorization scopes a caller needs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_scopes: Vec<String>,
    /// OpenAI / Anthropic `strict`, when the source stated it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// The format the tool was read from (`mcp`, `openai`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_format: Option<String>,
    /// Every envelope member of the source tool without a typed field here, verbatim and in
    /// source order (MCP `_meta`, `icons`, `execution`; Anthropic `cache_control`; the flat
    /// OpenAI Responses tool's `type`; members beside `function` in an OpenAI Chat wrapper; …). A provider built-in tool the crate keeps opaque (OpenAI
    /// `web_search`, Anthropic server tools) has its whole source object under `"opaque"`.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub source_meta: IndexMap<String, JsonValue>,
}

impl CanonicalTool {
    /// The fields no target format holds that this tool sets, by their serde names, in
    /// declaration order: `namespace`, `version`, `category`, `tags`, `timeout_ms`,
    /// `required_scopes`. They describe the tool in a catalog; no tool envelope has a member
    /// for them.
    ///
    /// This is the one list: every writer into another form reports these as dropped (the MCP
    /// form `Registry::from_canonical` goes through, and each bridge), adding what its own
    /// form lacks besides (`strict`, for MCP). An empty namespace counts as unset, because
    /// [`CanonicalTool::id`] reads it as no namespace: leaving it out loses nothing.
    pub(crate) fn catalog_only_fields(&self) -> impl Iterator<Item = &'static str> {
        [
            ("namespace", self.namespace.as_deref().is_some_and(|ns| !ns.is_empty())),
            ("version", self.version.is_some()),
            ("category", self.category.is_some()),
            ("tags", !self.tags.is_empty()),
            ("timeout_ms", self.timeout_ms.is_some()),
            ("required_scopes", !self.required_scopes.is_empty()),
        ]
        .into_iter()
        .filter_map(|(field, set)| set.then_some(field))
    }
}
