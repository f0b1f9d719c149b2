//! A recorded entry as the report keeps it: a small fixed-size row of codes, packed flags and
//! spans into the report's text buffer. The store writes rows, the views read them; both
//! import the row from here rather than from each other.

use super::text::Span;
use super::{Code, Effect, EntryKind, Severity};

/// The source and target format names of a row: an index into the report's table (a
/// conversion's entries are all between the same two).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Formats(pub(super) u16);

/// A recorded entry: [`ReportEntry`](super::ReportEntry) with its texts in the report's
/// buffer, in 52 bytes.
/// Rows at one place keep the order they were recorded in (the sort is stable), so no
/// position of writing is kept.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub(super) code: Code,
    /// The severity, the effect and whether it is about the arguments, packed.
    pub(super) flags: u8,
    pub(super) formats: Formats,
    /// Source position of the tool, then of the place (see
    /// [`ReportEntry::order`](super::ReportEntry::order)).
    pub(super) order: (u32, u32),
    pub(super) tool: Span,
    pub(super) feature: Span,
    /// The pointer relative to the tool
    /// ([`ReportEntry::tool_pointer`](super::ReportEntry::tool_pointer)): a link.
    pub(super) pointer: u32,
    /// The row's [`Extra`] in [`More::extras`](super::More::extras), or
    /// [`NONE`](super::links::NONE) (most rows).
    pub(super) extra: u32,
    /// The message: its own head, then the tail it shares with an earlier message.
    pub(super) message: [Span; 2],
}

/// What few rows have: the document-level pointer, where it is not the tool's place followed
/// by the pointer in the tool (an import's place in its source document, a whole entry
/// given), and [`ReportEntry::output_pointer`](super::ReportEntry::output_pointer): links, or
/// [`NONE`](super::links::NONE).
pub(super) type Extra = [u32; 2];

impl Row {
    /// What the entry is.
    pub(super) fn kind(&self) -> EntryKind {
        let index = |bits: u8| usize::from(bits & 3);
        EntryKind {
            severity: Severity::ALL.get(index(self.flags)).copied().unwrap_or(Severity::Error),
            code: self.code,
            effect: Effect::ALL.get(index(self.flags >> 2)).copied().unwrap_or(Effect::Changes),
            arguments: self.flags & 16 != 0,
        }
    }

    /// The packed flags of `kind`.
    pub(super) fn flags(kind: EntryKind) -> u8 {
        let index = |x: Option<usize>| x.unwrap_or(0) as u8;
        index(Severity::ALL.iter().position(|s| *s == kind.severity))
            | index(Effect::ALL.iter().position(|e| *e == kind.effect)) << 2
            | u8::from(kind.arguments) << 4
    }
}
