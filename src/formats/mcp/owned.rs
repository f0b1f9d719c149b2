//! Owned tools ([`CanonicalTool`]) written as MCP, the form `Registry::from_canonical`
//! converts them through (the richest one), and the report of what that form leaves out.
//!
//! It lives in the MCP folder because what an MCP tool holds is MCP's fact: the IR writer
//! (`mod.rs`) and this one write the same members. Owned tools are not arena tools, so this
//! one serializes them directly rather than building an IR first; the bytes are then read
//! back by the MCP reader like any input. Writer and report sit together because the report
//! is defined by the writer: a field is reported exactly when [`write_mcp_tools`] has no
//! member for it.

use crate::report::{Code, EntryKind, Note};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::INPUT;
use crate::owned::CanonicalTool;

/// The MCP format's name, which `source_format` holds for a tool read from MCP.
const MCP: &str = super::rules::INFO.name;

/// Writes `tools` as an MCP catalog, `{"tools":[…]}`: per tool `name`, `title`,
/// `description`, `inputSchema` (`{"type":"object","properties":{}}` when there is none),
/// `outputSchema`, `annotations`, then, for a tool read from MCP, its `source_meta` members
/// (a member named like one already written is skipped).
pub(crate) fn write_mcp_tools(tools: &[CanonicalTool], out: &mut Vec<u8>) {
    let start = out.len();
    // Serialising owned values into a `Vec` cannot fail (no I/O, string keys, finite numbers);
    // should it ever, nothing half-written is left behind.
    if serde_json::to_writer(&mut *out, &McpCatalog(tools)).is_err() {
        out.truncate(start);
    }
}

/// Reports what [`write_mcp_tools`] leaves out of `tool` (the `index`-th written): every
/// field the MCP form has no member for (the catalog-only fields and `strict`), and the
/// `source_meta` of a tool read from another format, one warning each. No argument depends on
/// them (effect none, not about the arguments); they are warnings because the owned tool is
/// the caller's only copy, as the bridges report them (`crate::bridges`).
pub(crate) fn report_unwritten(
    tool: &CanonicalTool,
    index: usize,
    to: &str,
    report: &mut crate::report::Report,
) {
    let mut fields: Vec<(String, &str)> =
        tool.catalog_only_fields().map(|field| (format!("/{field}"), field)).collect();
    // MCP has no strict mode.
    if tool.strict.is_some() {
        fields.push(("/strict".to_owned(), "strict"));
    }
    if tool.source_format.as_deref() != Some(MCP) {
        for key in tool.source_meta.keys() {
            let mut pointer = String::from("/source_meta");
            crate::pointer::write_seg(&mut pointer, crate::pointer::Seg::Key(key));
            fields.push((pointer, key));
        }
    }
    for (pointer, field) in fields {
        let message = format!(
            "`{field}` has no place in the MCP form owned tools are written through; dropped"
        );
        let kind = EntryKind::metadata_lost(Code::MetadataDropped);
        let note = Note { kind, feature: field, pointer, message };
        // After the conversion's own entries, tool by tool.
        let order = (u32::MAX, u32::try_from(index).unwrap_or(u32::MAX), 0);
        report.push(note.entry(tool.name.clone(), "canonical", to, order));
    }
}

struct McpCatalog<'t>(&'t [CanonicalTool]);

struct McpTool<'t>(&'t CanonicalTool);

impl Serialize for McpCatalog<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        let tools: Vec<McpTool<'_>> = self.0.iter().map(McpTool).collect();
        map.serialize_entry("tools", &tools)?;
        map.end()
    }
}

impl Serialize for McpTool<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let mut map = serializer.serialize_map(None)?;
        let mut written: [&str; 6] = ["name", INPUT, "", "", "", ""];
        map.serialize_entry("name", &t.name)?;
        if let Some(title) = &t.title {
            map.serialize_entry("title", title)?;
            written[2] = "title";
        }
        if let Some(description) = &t.description {
            map.serialize_entry("description", description)?;
            written[3] = "description";
        }
        match &t.input_schema {
            Some(schema) => map.serialize_entry(INPUT, schema)?,
            None => map
                .serialize_entry(INPUT, &serde_json::json!({"type": "object", "properties": {}}))?,
        }
        if let Some(schema) = &t.output_schema {
            map.serialize_entry("outputSchema", schema)?;
            written[4] = "outputSchema";
        }
        if let Some(annotations) = &t.annotations {
            map.serialize_entry("annotations", annotations)?;
            written[5] = "annotations";
        }
        if t.source_format.as_deref() == Some(MCP) {
            for (key, value) in &t.source_meta {
                if !written.contains(&key.as_str()) {
                    map.serialize_entry(key, value)?;
                }
            }
        }
        map.end()
    }
}
