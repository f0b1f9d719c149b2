//! The one report-entry type the crate writes: [`Note`], what an entry says (its
//! [`EntryKind`], built by one of its constructors so the severity follows the effect, the
//! feature, the pointer and the message). Readers, the OpenAPI import, the passes, the check,
//! left-out tools, traffic and streams all say what they have to say as a `Note`; where one is
//! kept before the report is written, the keeper holds a `Note` beside where it is about.

use super::{EntryKind, ReportEntry};

/// What a report entry says: its kind ([`EntryKind`], whose constructors derive the severity
/// from the effect: no writer picks one), the keyword or member concerned, the pointer and the
/// message. Written straight into the report by the [`super::Recorder`] (its pointer and
/// message any [`super::Text`]), or, owned, kept and made a whole entry ([`Note::entry`]).
#[derive(Clone, Debug)]
pub(crate) struct Note<F, P, M> {
    /// Its code, effect and severity.
    pub kind: EntryKind,
    /// The keyword or member concerned.
    pub feature: F,
    /// RFC 6901 pointer to the place (relative to the tool, or in the document, as the
    /// keeper says).
    pub pointer: P,
    /// What happened, for people.
    pub message: M,
}

/// A note kept until the report is written (a reader's, the import's, the check's).
pub(crate) type OwnedNote<F = &'static str> = Note<F, String, String>;

impl<F: AsRef<str>, P: Into<String>, M: Into<String>> Note<F, P, M> {
    /// The whole entry this note makes about the tool called `tool`, of a conversion from
    /// `from` to `to`, placed at `order` in the report; its pointer is both the document's
    /// and the tool's (an entry about the document as a whole, or made outside a conversion).
    pub(crate) fn entry(
        self,
        tool: String,
        from: &str,
        to: &str,
        order: (u32, u32, u32),
    ) -> ReportEntry {
        let pointer: String = self.pointer.into();
        ReportEntry {
            tool,
            feature: self.feature.as_ref().to_owned(),
            tool_pointer: pointer.clone(),
            pointer,
            output_pointer: None,
            from: from.to_owned(),
            to: to.to_owned(),
            message: self.message.into(),
            order,
            ..ReportEntry::of(self.kind)
        }
    }
}
