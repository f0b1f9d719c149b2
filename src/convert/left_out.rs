//! The tools of a catalog left out because reading or converting them failed: one bad tool
//! costs that tool, not the catalog. Each is told in the report with an `error` entry whose
//! pointer is the fault's in the input document and whose message names the tool's place.

use simd_json::Node;

use crate::error::{ConversionError, ErrorKind};
use crate::imported::Imported;
use crate::ir::Tool;
use crate::lower::Locator;
use crate::report::{Code, EntryKind, Note, Report, ReportEntry};

/// A tool of a catalog that is left out, and why.
#[derive(Debug)]
pub(crate) struct LeftOut {
    /// Its pointer in the input document (`/tools/3`).
    pub(crate) place: String,
    /// Its source position, for the report's order.
    pub(crate) at: u32,
    /// Its place among the document's tools ([`crate::Report::tool_index`]).
    pub(crate) index: u32,
    /// What failed, its pointer into the input document.
    pub(crate) error: ConversionError,
}

impl LeftOut {
    /// `tool`, whose passes failed with `error` (its pointer relative to the tool): the tool's
    /// place is found on `tape`, and the pointer moved into the document under it.
    #[cold]
    pub(crate) fn in_passes(
        tool: &Tool<'_>,
        tape: &[Node<'_>],
        locator: &mut Locator,
        error: ConversionError,
    ) -> LeftOut {
        let place = locator.pointer(tape, tool.at as usize);
        let pointer = format!("{place}{}", error.pointer());
        let name = tool.source_name.unwrap_or(tool.name);
        LeftOut {
            place,
            at: tool.at,
            index: tool.index,
            error: error.with_pointer(pointer).with_tool(name),
        }
    }
}

/// Records an `error` entry for every tool of `left_out` (after the import's pointers are
/// moved, when `imported`: these are moved here, from the translated catalog's).
#[cold]
pub(crate) fn record(
    report: &mut Report,
    left_out: Vec<LeftOut>,
    from: &str,
    to: &str,
    imported: Option<&Imported>,
) {
    report.add_tools(left_out.iter().map(|l| (l.at, l.index)));
    for LeftOut { place, at, error, .. } in left_out {
        // In the tool: the error's pointer past the tool's place (before an import moves it).
        let tool_pointer = error.pointer().strip_prefix(place.as_str()).unwrap_or_default();
        let tool_pointer = tool_pointer.to_owned();
        let error = match imported {
            Some(imported) => imported.remap_error(error),
            None => error,
        };
        let feature = match error.kind() {
            ErrorKind::MissingMember { member, .. } => member,
            ErrorKind::WrongType { member, .. } => member.as_str(),
            ErrorKind::DuplicateKey { key } => key.as_str(),
            ErrorKind::RefExpansion { .. } | ErrorKind::DepthLimit { .. } => "$ref",
            _ => "tool",
        };
        // Left out: every call of the tool is refused.
        let kind = EntryKind::left_out(Code::ToolNotConverted);
        let message = format!("{}; the tool at {place} is left out", error.kind());
        let note = Note { kind, feature, pointer: error.pointer(), message };
        let tool = error.tool().unwrap_or_default().to_owned();
        report.push(ReportEntry { tool_pointer, ..note.entry(tool, from, to, (at, 0, 0)) });
    }
}
