//! How the passes record report entries: one call, [`Recorder::record`], with a [`Note`].
//!
//! A conversion writes the same texts over and over (the note on a member every tool of a
//! catalog carries, the pointer of every tool's input schema, the two format names). The
//! recorder writes each such text once and lets the entries that repeat it share that copy,
//! so a catalog's report grows by its rows, not by its repeated notes. A text to share is
//! given as [`Shared`] pieces and found again by what they say, so a caller keeps no record
//! of what it wrote.

use super::links::NONE;
use super::store::{Formats, Parts, Text, TextSpan, Texts};
use super::text::Written;
use super::{Effect, Note, Report, ReportEntry};
use crate::scan::same_short;

/// Pieces of text written one after the other that many entries of a conversion repeat (one
/// note about many tools): written once, and shared by every later entry whose pieces say
/// the same.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'p, const N: usize> {
    pieces: [&'p str; N],
    share: bool,
}

impl<'p, const N: usize> Shared<'p, N> {
    /// `pieces`, shared.
    pub fn new(pieces: [&'p str; N]) -> Self {
        Shared { pieces, share: true }
    }

    /// `pieces`, shared only when `share` (written anew for this entry otherwise).
    pub fn when(share: bool, pieces: [&'p str; N]) -> Self {
        Shared { pieces, share }
    }

    /// The text `write` writes, which is the pieces' where they are shared: a pointer that
    /// only some entries repeat (at a schema's root) and others write from their path. In
    /// debug builds the pieces are checked against what `write` writes.
    pub fn or<T: Text>(self, write: T) -> SharedOr<'p, N, T> {
        SharedOr { shared: self, write }
    }
}

impl<const N: usize> Text for Shared<'_, N> {
    fn write_into(self, out: &mut String) {
        self.pieces.write_into(out);
    }

    fn shared(&self) -> Option<&[&str]> {
        self.share.then_some(self.pieces.as_slice())
    }
}

/// [`Shared`] pieces, or the text a function writes where they are not shared
/// ([`Shared::or`]).
pub(crate) struct SharedOr<'p, const N: usize, T> {
    shared: Shared<'p, N>,
    write: T,
}

impl<const N: usize, T: Text> Text for SharedOr<'_, N, T> {
    fn write_into(self, out: &mut String) {
        if !self.shared.share {
            return self.write.write_into(out);
        }
        #[cfg(debug_assertions)]
        {
            let start = out.len();
            self.write.write_into(out);
            let written = out.get(start..).unwrap_or_default();
            debug_assert!(is_pieces(written, &self.shared.pieces), "{written:?} is not the pieces");
            out.truncate(start);
        }
        self.shared.write_into(out);
    }

    fn shared(&self) -> Option<&[&str]> {
        self.shared.shared()
    }

    fn path(&self) -> Option<&crate::pointer::Path<'_>> {
        if self.shared.share { None } else { self.write.path() }
    }
}

/// Whether `text` is `pieces` one after the other. Piece by piece, without `memcmp` for the
/// short ones (most are: a key, a keyword, a format name, a few fixed words).
fn is_pieces(text: &str, pieces: &[&str]) -> bool {
    let mut rest = text.as_bytes();
    for p in pieces {
        let Some((head, tail)) = rest.split_at_checked(p.len()) else { return false };
        if !same_short(head, p.as_bytes()) {
            return false;
        }
        rest = tail;
    }
    rest.is_empty()
}

/// Where the shared texts of a conversion lie in the report's text. Held inline up to
/// [`SharedTexts::MOST`], the most it keeps (the first ones written: a catalog's tools repeat
/// the same few texts from the first tool on), so it never goes to the heap.
#[derive(Default)]
struct SharedTexts {
    kept: smallvec::SmallVec<[TextSpan; SharedTexts::MOST]>,
}

impl SharedTexts {
    const MOST: usize = 64;

    /// The text written before that `pieces` say, in `text`. Most texts are told apart by
    /// their length alone.
    #[inline]
    fn find(&self, text: &Texts, pieces: &[&str]) -> Option<TextSpan> {
        let len: usize = pieces.iter().map(|p| p.len()).sum();
        self.kept.iter().copied().find(|&k| k.len() == len && is_pieces(text.get(k), pieces))
    }

    /// Keeps the place of a shared text, while there is room.
    fn keep(&mut self, span: TextSpan) {
        if self.kept.len() < Self::MOST {
            self.kept.push(span);
        }
    }
}

/// A report being written by one conversion's passes: the entries' texts that repeat are
/// written once ([`Shared`]), and the two format names once for every entry. The report is
/// not cleared while the recorder holds it, so the shared texts stay where they were written.
pub(crate) struct Recorder<'f, 'r> {
    report: &'r mut Report,
    /// The source and target format names.
    from: &'f str,
    to: &'f str,
    /// The format names in the report's text, written at the first entry.
    formats: Option<Formats>,
    shared: SharedTexts,
    /// The most bytes the report may hold ([`Recorder::budget`]).
    budget: usize,
    /// The most bytes its pointers may have past [`super::links::LONG`], summed
    /// ([`Recorder::long_pointers`]).
    long_limit: usize,
}

impl<'f, 'r> Recorder<'f, 'r> {
    /// A recorder appending to `report` the entries of a conversion from `from` to `to`.
    pub fn new(report: &'r mut Report, from: &'f str, to: &'f str) -> Self {
        // The last path's steps are known by their addresses, which another conversion's
        // arena may reuse for other keys.
        report.forget_last_steps();
        let shared = SharedTexts::default();
        let budget = Report::MAX_BYTES;
        Recorder { report, from, to, formats: None, shared, budget, long_limit: usize::MAX }
    }

    /// Holds the bytes past [`super::links::LONG`] of the entries' pointers, summed, to
    /// `bytes` (the conversion's output limit): past it, as past the budget, entries are left
    /// out and the conversion fails. Reports are linked and placed pointer by pointer, so a
    /// long key above many entries would otherwise cost its length once an entry.
    pub fn long_pointers(mut self, bytes: usize) -> Self {
        self.long_limit = bytes;
        self
    }

    /// Holds the report to `bytes` (at most [`Report::MAX_BYTES`]): past it, entries are
    /// left out and the report says so ([`Report::over_budget`]), so the conversion can fail
    /// with a typed error rather than grow without bound.
    pub fn budget(mut self, bytes: usize) -> Self {
        self.budget = bytes.min(Report::MAX_BYTES);
        self
    }

    /// Records `note` about the tool named `tool`, at `(tool, place)`: the source positions
    /// of the tool and of the place the note is about. `turns` tells, from the entry's pointer,
    /// whether a widening or a narrowing there is recorded as `changes` (a definition a `$ref`
    /// may bring under a `oneOf`, `not` or `if`: see `PassCx::record`).
    ///
    /// Not marked cold: a strict conversion records several entries for most tools.
    #[inline]
    pub fn record<F: AsRef<str>, P: Text, M: Text>(
        &mut self,
        tool: &str,
        (at_tool, at): (u32, u32),
        note: Note<F, P, M>,
        turns: impl FnOnce(&str) -> bool,
    ) {
        let Note { mut kind, feature, pointer, message } = note;
        if self.report.bytes() > self.budget || self.report.long_pointers() > self.long_limit {
            self.report.set_over_budget();
            return;
        }
        let formats = match self.formats {
            Some(f) => f,
            None => *self.formats.insert(self.report.formats(self.from, self.to)),
        };
        let pointer = match pointer.path() {
            // Only the steps that differ from the last pointer are written.
            Some(path) => {
                let id = self.report.link_path(path);
                if matches!(kind.effect, Effect::Widens | Effect::Narrows)
                    && turns(self.report.last_pointer())
                {
                    kind = kind.with_effect(Effect::Changes);
                }
                id
            }
            None => {
                let pointer = self.write(pointer);
                if matches!(kind.effect, Effect::Widens | Effect::Narrows)
                    && turns(self.report.text.get(pointer.span))
                {
                    kind = kind.with_effect(Effect::Changes);
                }
                self.report.link(pointer)
            }
        };
        let message = self.write(message);
        let message = self.report.message(message);
        let (names, order, extra) = ([tool, feature.as_ref()], (at_tool, at), [NONE, NONE]);
        let parts = Parts { kind, order, names, formats, pointer, message, extra, stable: true };
        self.report.record_row(parts);
    }

    /// Writes `text` in the report, or finds it there when it is shared and written before.
    #[inline(always)]
    fn write(&mut self, text: impl Text) -> Written {
        let Some(pieces) = text.shared() else {
            return Written { span: self.report.text.push(text), fresh: true };
        };
        if let Some(span) = self.shared.find(&self.report.text, pieces) {
            #[cfg(debug_assertions)]
            debug_assert!(self.report.text.writes_the_same(span, text), "a shared text");
            return Written { span, fresh: false };
        }
        let span = self.report.text.push(text);
        self.shared.keep(span);
        Written { span, fresh: false }
    }

    /// Appends a whole entry, after the others (a catalog's, made outside the passes).
    pub fn push(&mut self, entry: ReportEntry) {
        self.report.push(entry);
    }

    /// Whether the report passed its budget ([`Recorder::budget`]) and left entries out.
    pub fn over_budget(&self) -> bool {
        self.report.over_budget()
    }

    /// How many entries the report holds.
    pub fn len(&self) -> usize {
        self.report.len()
    }

    /// The length of the report's text, for a test that counts what the sharing saves.
    #[cfg(test)]
    pub(super) fn text_len(&self) -> usize {
        self.report.text.len()
    }

    /// Takes the entries past the first `len` out (a tool whose strict attempt is undone).
    /// Their texts stay in the buffer, so the shared ones stay good.
    pub fn truncate(&mut self, len: usize) {
        self.report.truncate(len);
    }
}
