//! How a report keeps its entries: rows of spans over one text buffer, and the public list
//! made from them on demand.
//!
//! Recording an entry copies its texts' bytes into the buffer and pushes a small row: no
//! string per field. The [`ReportEntry`] list a caller reads is made from the rows on first
//! use, into the strings of the last list made, so a warm converter allocates for neither.

use std::sync::{Mutex, PoisonError};

use super::{Code, Effect, Report, ReportEntry, Severity};

/// Strings kept back to back in one buffer, each known by its [`TextSpan`]: recording one
/// copies its bytes and nothing else, so a buffer kept from one conversion to the next records
/// without allocating (the report's rows and the recorded inverse map both live on one).
#[derive(Clone, Default)]
pub(crate) struct Texts(String);

/// Where a string lies in its [`Texts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextSpan {
    start: usize,
    end: usize,
}

impl TextSpan {
    /// The string's length in bytes.
    pub(crate) fn len(self) -> usize {
        self.end - self.start
    }

    /// The same string without its first `n` bytes (empty past its end).
    pub(crate) fn skip(self, n: usize) -> TextSpan {
        TextSpan { start: (self.start + n).min(self.end), end: self.end }
    }
}

impl Texts {
    /// Appends `text` and returns where it lies. In line: each entry writes four texts, and
    /// a call for each cost more than the copy of a short one.
    #[inline]
    pub(crate) fn push(&mut self, text: impl Text) -> TextSpan {
        let start = self.0.len();
        text.write_into(&mut self.0);
        TextSpan { start, end: self.0.len() }
    }

    /// The string at `span` (empty for a span of another buffer's).
    pub(crate) fn get(&self, span: TextSpan) -> &str {
        self.0.get(span.start..span.end).unwrap_or_default()
    }

    /// Forgets every string, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether `text` writes what `span` holds: written after the buffer's end, compared, and
    /// taken back (a debug check that a shared text is the one an entry stands for; the
    /// buffer has the room from the last conversion, so a warm one still allocates nothing).
    #[cfg(debug_assertions)]
    pub(crate) fn writes_the_same(&mut self, span: TextSpan, text: impl Text) -> bool {
        let start = self.0.len();
        text.write_into(&mut self.0);
        let same = self.0.get(start..) == self.0.get(span.start..span.end);
        self.0.truncate(start);
        same
    }

    /// The length of the buffer, for a test that counts what the sharing saves.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// What a report entry's text field is written from: written straight into the report's
/// text buffer, so recording an entry builds no string first.
pub(crate) trait Text {
    /// Appends the text to `out`.
    fn write_into(self, out: &mut String);

    /// For a text that many entries repeat, the pieces it is written from, one after the
    /// other: the report writes it once and shares the copy with every later entry whose
    /// pieces say the same. `None` for a text written anew for each entry.
    fn shared(&self) -> Option<&[&str]> {
        None
    }
}

impl Text for String {
    fn write_into(self, out: &mut String) {
        out.push_str(&self);
    }
}

impl Text for &str {
    fn write_into(self, out: &mut String) {
        out.push_str(self);
    }
}

/// Parts written one after the other (the report's messages are mostly fixed text around a
/// keyword and a format name).
impl<const N: usize> Text for [&str; N] {
    fn write_into(self, out: &mut String) {
        // No reserve for the sum first: the report's buffer is kept from one conversion to
        // the next, so it has room but for the first few.
        for p in self {
            out.push_str(p);
        }
    }
}

/// Text written by a function (a pointer built from a path, a list of names).
impl<F: FnOnce(&mut String)> Text for F {
    fn write_into(self, out: &mut String) {
        self(out);
    }
}

/// The source and target format names in a report's text (see [`Report::formats`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Formats {
    from: TextSpan,
    to: TextSpan,
}

/// What an entry is, apart from its texts: how much it matters, its code, and what it does
/// to the arguments (see [`super::effect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kind {
    pub(crate) severity: Severity,
    pub(crate) code: Code,
    pub(crate) effect: Effect,
    pub(crate) arguments: bool,
}

/// A recorded entry: [`ReportEntry`] with its text in the report's buffer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub(super) kind: Kind,
    /// Source position of the tool, of the place, then the position of writing (see
    /// [`ReportEntry::order`]).
    pub(super) order: (u32, u32, u32),
    pub(super) tool: TextSpan,
    pub(super) feature: TextSpan,
    /// The pointer relative to the tool ([`ReportEntry::tool_pointer`]).
    pub(super) pointer: TextSpan,
    /// The document-level pointer, where it is not the tool's place followed by `pointer`
    /// (an import's place in its source document, an entry about the output).
    pub(super) document: Option<TextSpan>,
    /// [`ReportEntry::output_pointer`].
    pub(super) output: Option<TextSpan>,
    pub(super) from: TextSpan,
    pub(super) to: TextSpan,
    pub(super) message: TextSpan,
}

impl Report {
    pub(super) fn str(&self, span: TextSpan) -> &str {
        self.text.get(span)
    }

    /// Writes the two format names for [`Report::record_row`]: a run of entries between the
    /// same formats (a conversion's) shares one copy.
    pub(super) fn formats(&mut self, from: &str, to: &str) -> Formats {
        Formats { from: self.text.push(from), to: self.text.push(to) }
    }

    /// Appends a row: its tool and feature written here, its format names by
    /// [`Report::formats`] and its pointer and message (`[pointer, message]`) into this
    /// report's text since it was last cleared.
    ///
    /// The row goes last: [`Report::finish`] puts the rows in source order once, in
    /// n·log n, so recording is constant time whatever order the passes write in (a row
    /// placed among the others as it came was a shift of the rows after it, quadratic for a
    /// pass writing 100,000 entries before another pass's). Rows are never moved before
    /// [`Report::finish`], so a caller that truncates back to a length takes exactly the rows
    /// written since.
    ///
    /// In debug builds every row is checked against the rule tying severity to effect
    /// ([`super::effect::consistent`]).
    #[inline(always)]
    pub(super) fn record_row(
        &mut self,
        kind: Kind,
        order: (u32, u32, u32),
        [tool, feature]: [&str; 2],
        Formats { from, to }: Formats,
        [pointer, message]: [TextSpan; 2],
        [document, output]: [Option<TextSpan>; 2],
    ) {
        debug_assert!(
            super::effect::consistent(kind.severity, kind.effect, kind.arguments),
            "{kind:?} for tool {tool:?} at {feature:?}: the severity does not follow the effect"
        );
        self.keep_list_as_spares();
        let tool = self.text.push(tool);
        let feature = self.text.push(feature);
        // Until `finish`, the last part of the order is the row's place in the recording.
        let len = self.rows.len();
        let order = (order.0, order.1, u32::try_from(len).unwrap_or(u32::MAX));
        let row = Row { kind, order, tool, feature, pointer, document, output, from, to, message };
        self.rows.push(row);
    }

    /// Appends a whole entry (one made outside the passes: an import's, a bridge's), its
    /// three pointers as they are.
    pub(crate) fn push(&mut self, entry: ReportEntry) {
        let ReportEntry {
            tool,
            severity,
            code,
            effect,
            arguments,
            feature,
            pointer,
            tool_pointer,
            output_pointer,
            from,
            to,
            message,
            order,
        } = entry;
        let formats = self.formats(&from, &to);
        let document = Some(self.text.push(pointer.as_str()));
        let output = output_pointer.map(|p| self.text.push(p.as_str()));
        let pointer = self.text.push(tool_pointer.as_str());
        let message = self.text.push(message.as_str());
        let names = [tool.as_str(), feature.as_str()];
        let kind = Kind { severity, code, effect, arguments };
        self.record_row(kind, order, names, formats, [pointer, message], [document, output]);
    }

    /// The list made from the rows, in the last list's entries where there are some.
    pub(super) fn make(&self, spare: &Mutex<Vec<ReportEntry>>) -> Vec<ReportEntry> {
        let mut list = std::mem::take(&mut *spare.lock().unwrap_or_else(PoisonError::into_inner));
        for (i, row) in self.rows.iter().enumerate() {
            let fill = |e: &mut ReportEntry| {
                // The document-level pointer: the tool's place, then the pointer in the tool.
                e.pointer.clear();
                match row.document {
                    Some(span) => e.pointer.push_str(self.str(span)),
                    None => {
                        e.pointer.push_str(self.place(row.order.0));
                        e.pointer.push_str(self.str(row.pointer));
                    }
                }
                match (row.output, &mut e.output_pointer) {
                    (None, out) => *out = None,
                    (Some(span), Some(out)) => {
                        out.clear();
                        out.push_str(self.str(span));
                    }
                    (Some(span), out) => *out = Some(self.str(span).to_owned()),
                }
                e.severity = row.kind.severity;
                e.code = row.kind.code;
                e.effect = row.kind.effect;
                e.arguments = row.kind.arguments;
                e.order = row.order;
                for (out, span) in [
                    (&mut e.tool, row.tool),
                    (&mut e.feature, row.feature),
                    (&mut e.tool_pointer, row.pointer),
                    (&mut e.from, row.from),
                    (&mut e.to, row.to),
                    (&mut e.message, row.message),
                ] {
                    out.clear();
                    out.push_str(self.str(span));
                }
            };
            match list.get_mut(i) {
                Some(e) => fill(e),
                None => {
                    let mut e = ReportEntry {
                        tool: String::new(),
                        severity: Severity::Info,
                        code: Code::KeywordDropped,
                        effect: Effect::None,
                        arguments: true,
                        feature: String::new(),
                        pointer: String::new(),
                        tool_pointer: String::new(),
                        output_pointer: None,
                        from: String::new(),
                        to: String::new(),
                        message: String::new(),
                        order: (0, 0, 0),
                    };
                    fill(&mut e);
                    list.push(e);
                }
            }
        }
        list
    }

    /// Called before the rows change: a list made from them is kept as the next one's spares.
    /// Inlined for the common case, no list made since the last change.
    #[inline]
    pub(super) fn keep_list_as_spares(&mut self) {
        if self.more.get().is_some_and(|more| more.made.get().is_some()) {
            self.move_list_to_spares();
        }
    }

    #[cold]
    fn move_list_to_spares(&mut self) {
        if let Some(more) = self.more.get_mut()
            && let Some(list) = more.made.take()
        {
            let spare = more.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
            if list.len() >= spare.len() {
                *spare = list;
            }
        }
    }
}
