//! Envelope pass: what the target's tool object has no place for.
//!
//! Input: a lowered tool. Output: the same tool; report entries for each metadata member,
//! output schema or `strict` the target drops, and for a missing input schema the target
//! requires. A provider built-in tool (opaque) is left out when converting to another format.

use crate::adapter::EmitContext;
use crate::ir::{Role, Tool};
use crate::report::{Code, Severity, With};

use super::PassCx;

/// Returns whether the tool is emitted.
pub(super) fn run(tool: &mut Tool<'_>, cx: &mut PassCx<'_, '_>) -> bool {
    let ecx = EmitContext { source: cx.source.name(), target: cx.target.name() };
    if tool.opaque.is_some() {
        if ecx.same_format() {
            return true;
        }
        let kind = tool.opaque.and_then(|raw| raw.get("type").and_then(|t| t.as_str()));
        cx.record(
            tool,
            tool.at,
            Severity::Error,
            Code::NotAFunctionTool,
            kind.unwrap_or("type"),
            String::new(),
            format!(
                "`{}` is a built-in {} tool, not a function tool; {} has no equivalent, so it is left out",
                kind.unwrap_or("?"),
                cx.source.name(),
                cx.target.name()
            ),
        );
        return false;
    }
    for m in tool.members {
        match m.role {
            Role::Meta | Role::Outer if !cx.target.holds_member(m, &ecx) => {
                cx.record(
                    tool,
                    m.at,
                    Severity::Warning,
                    Code::MetadataDropped,
                    m.key,
                    With(|out: &mut String| tool.write_member_pointer(m, out)),
                    ["`", m.key, "` has no place in ", cx.target.name(), " tools; dropped"],
                );
            }
            Role::Output if tool.output.is_some() && !cx.target.holds_output_schema() => {
                cx.record(
                    tool,
                    m.at,
                    Severity::Warning,
                    Code::OutputSchemaDropped,
                    m.key,
                    With(|out: &mut String| tool.write_member_pointer(m, out)),
                    [cx.target.name(), " tools have no output schema; dropped"],
                );
            }
            Role::Strict if tool.strict.is_some() && !cx.target.holds_strict() => {
                cx.record(
                    tool,
                    m.at,
                    Severity::Warning,
                    Code::MetadataDropped,
                    m.key,
                    With(|out: &mut String| tool.write_member_pointer(m, out)),
                    [cx.target.name(), " tools have no `strict` flag; dropped"],
                );
            }
            _ => {}
        }
    }
    if tool.input.is_none() && cx.target.requires_input_schema() {
        cx.record(
            tool,
            tool.at,
            Severity::Info,
            Code::InputSchemaAdded,
            "inputSchema",
            tool.input_pointer.to_owned(),
            format!(
                "the source has no input schema and {} requires one; wrote {}",
                cx.target.name(),
                crate::formats::EMPTY_OBJECT_SCHEMA
            ),
        );
    }
    true
}
