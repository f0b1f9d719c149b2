//! The one way tool traffic records a report entry: [`Notes::record`] with a [`TrafficNote`]
//! (a [`Note`], the crate's one entry type).
//! Every reader, pass and check of a traffic conversion goes through it, so moving traffic to
//! another entry builder is an edit here alone.
//!
//! A traffic entry's pointer is already document-level (the call's place in the input), so
//! entries are recorded outside any tool: the report keeps their pointers as written. The
//! severity follows from the entry's [`Kind`], never chosen by the caller: `info` for a change
//! that keeps what the model and the tools see, `warning` for one that loses something.

#[cfg(doc)]
use crate::report::EntryKind;
use crate::report::{Note, Recorder, Report};

/// What a traffic entry says: a [`Note`] whose kind is [`EntryKind::content`] for content,
/// ids and settings, its pointer the place in the input document, its message written from
/// pieces.
pub(crate) type TrafficNote<'n> = Note<&'n str, &'n str, &'n [&'n str]>;

/// A conversion's report, being written by its traffic stages.
pub(crate) struct Notes<'n> {
    recorder: Recorder<'n, 'n>,
}

impl<'n> Notes<'n> {
    /// Notes appended to `report`, of a conversion from `from` to `to`.
    pub(crate) fn new(report: &'n mut Report, from: &'n str, to: &'n str) -> Self {
        Notes { recorder: Recorder::new(report, from, to) }
    }
}

/// Where traffic entries go: [`Notes`], seen by a reader without its lifetimes.
pub(crate) trait Record {
    /// Records `note` about the tool called `tool` (the call's or the result's name, empty
    /// when none is), at the record's place `at` in reading order.
    fn record(&mut self, about: (&str, u32), note: TrafficNote<'_>);
}

impl Record for Notes<'_> {
    fn record(&mut self, (tool, at): (&str, u32), note: TrafficNote<'_>) {
        let Note { kind, feature, pointer, message: pieces } = note;
        let message = |out: &mut String| pieces.iter().for_each(|p| out.push_str(p));
        let note = Note { kind, feature, pointer, message };
        // Traffic entries are about places, not tools: no tool position, so the pointer is
        // kept as the document-level one it already is.
        self.recorder.record(tool, (u32::MAX, at), note, |_| false);
    }
}
