//! The one way tool traffic records a report entry: [`Notes::record`] with a [`TrafficNote`].
//! Every reader, pass and check of a traffic conversion goes through it, so moving traffic to
//! another entry builder is an edit here alone.
//!
//! A traffic entry's pointer is already document-level (the call's place in the input), so
//! entries are recorded outside any tool: the report keeps their pointers as written. The
//! severity follows from the entry's [`Kind`], never chosen by the caller: `info` for a change
//! that keeps what the model and the tools see, `warning` for one that loses something.

use crate::report::{EntryKind, Note, Recorder, Report};

/// What a traffic entry says.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrafficNote<'n> {
    /// Its code, effect and severity ([`EntryKind::content`] for content, ids and settings).
    pub kind: EntryKind,
    /// The tool concerned (the call's or the result's name), empty when none is.
    pub tool: &'n str,
    /// The member, block kind or setting concerned.
    pub feature: &'n str,
    /// RFC 6901 pointer of the place in the input document.
    pub pointer: &'n str,
    /// The record's place in reading order.
    pub at: u32,
}

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
    /// Records `note`, its message written from `pieces`.
    fn record(&mut self, note: TrafficNote<'_>, pieces: &[&str]);
}

impl Record for Notes<'_> {
    fn record(&mut self, note: TrafficNote<'_>, pieces: &[&str]) {
        let TrafficNote { kind, tool, feature, pointer, at } = note;
        let message = |out: &mut String| pieces.iter().for_each(|p| out.push_str(p));
        let note = Note { kind, feature, pointer, message };
        // Traffic entries are about places, not tools: no tool position, so the pointer is
        // kept as the document-level one it already is.
        self.recorder.record(tool, (u32::MAX, at), note, |_| false);
    }
}
