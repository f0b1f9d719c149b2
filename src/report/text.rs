//! Strings back to back in one buffer, each known by a small span: what the report and the
//! recorded inverse map keep their texts in, so recording a text copies its bytes and
//! nothing else, and a buffer kept from one conversion to the next records without
//! allocating. [`Text`] is what a text to record is written from.

use crate::pointer::Path;

/// Strings kept back to back in one buffer, each known by its [`TextSpan`]: recording one
/// copies its bytes and nothing else, so a buffer kept from one conversion to the next records
/// without allocating (the report's rows and the recorded inverse map both live on one).
#[derive(Clone, Default)]
pub(crate) struct Texts(String);

/// Where a string lies in its [`Texts`], in eight bytes: a buffer never reaches 4 GiB (the
/// report holds itself to `Report::MAX_BYTES`, and the inverse map's names come from an
/// input simd-json parses, whose offsets are 32-bit). A span past 4 GiB would read as empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextSpan {
    start: u32,
    end: u32,
}

impl TextSpan {
    /// The bytes `start..end` of a buffer.
    pub(crate) fn new(start: usize, end: usize) -> TextSpan {
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(start), Ok(end)) => TextSpan { start, end },
            _ => TextSpan { start: u32::MAX, end: u32::MAX },
        }
    }

    /// Where the string starts.
    pub(crate) fn start(self) -> usize {
        self.start as usize
    }

    /// Where the string ends.
    pub(crate) fn end(self) -> usize {
        self.end as usize
    }

    /// The string's length in bytes.
    pub(crate) fn len(self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }
}

impl Texts {
    /// Appends `text` and returns where it lies. In line: each entry writes four texts, and
    /// a call for each cost more than the copy of a short one.
    #[inline]
    pub(crate) fn push(&mut self, text: impl Text) -> TextSpan {
        let start = self.0.len();
        text.write_into(&mut self.0);
        TextSpan::new(start, self.0.len())
    }

    /// The string at `span` (empty for a span of another buffer's).
    pub(crate) fn get(&self, span: TextSpan) -> &str {
        self.0.get(span.start()..span.end()).unwrap_or_default()
    }

    /// The string at `span` of this buffer.
    pub(crate) fn at(&self, span: Span) -> &str {
        let start = span.start as usize;
        self.0.get(start..start + span.len as usize).unwrap_or_default()
    }

    /// Forgets every string, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// The length of the buffer: where the next string starts.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Takes out `n` bytes from `start` (a char boundary, as is `start + n`), moving what
    /// follows down.
    pub(crate) fn cut(&mut self, start: usize, n: usize) {
        if n > 0 && self.0.is_char_boundary(start) && self.0.is_char_boundary(start + n) {
            self.0.replace_range(start..start + n, "");
        }
    }

    /// Keeps the first `len` bytes (a char boundary).
    pub(crate) fn truncate(&mut self, len: usize) {
        if self.0.is_char_boundary(len) {
            self.0.truncate(len);
        }
    }

    /// Whether `text` writes what `span` holds: written after the buffer's end, compared, and
    /// taken back (a debug check that a shared text is the one an entry stands for; the
    /// buffer has the room from the last conversion, so a warm one still allocates nothing).
    #[cfg(debug_assertions)]
    pub(crate) fn writes_the_same(&mut self, span: TextSpan, text: impl Text) -> bool {
        let start = self.0.len();
        text.write_into(&mut self.0);
        let same = self.0.get(start..) == self.0.get(span.start()..span.end());
        self.0.truncate(start);
        same
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

    /// For a pointer written from a walk's path ([`PathPointer`]): the path, so the report
    /// writes only the steps that differ from the pointer recorded before it, and a long key
    /// above many entries is read once rather than once an entry. `None` for other texts.
    fn path(&self) -> Option<&Path<'_>> {
        None
    }
}

/// A pointer written from a walk's [`Path`]: the text of [`Path::write_pointer`], with the
/// path kept for [`Text::path`].
#[derive(Clone, Copy)]
pub(crate) struct PathPointer<'p>(pub &'p Path<'p>);

impl Text for PathPointer<'_> {
    fn write_into(self, out: &mut String) {
        self.0.write_pointer(out);
    }

    fn path(&self) -> Option<&Path<'_>> {
        Some(self.0)
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

/// A string of the report's text, in eight bytes: the report's text is held under 4 GiB by
/// its budget (`Report::MAX_BYTES`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    /// `span`, in the report's text (which its budget keeps under 4 GiB).
    pub(crate) fn of(span: TextSpan) -> Span {
        Span { start: span.start, len: span.end.saturating_sub(span.start) }
    }

    /// Its length in bytes.
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }

    /// Its first `n` bytes.
    pub(crate) fn head(self, n: usize) -> Span {
        Span { start: self.start, len: (n as u32).min(self.len) }
    }

    /// Its last `n` bytes.
    pub(crate) fn last(self, n: usize) -> Span {
        let n = (n as u32).min(self.len);
        Span { start: self.start + (self.len - n), len: n }
    }
}

/// A text written for a row, and whether it is a shared one written before (not at the
/// buffer's end, so not to be cut).
#[derive(Clone, Copy)]
pub(super) struct Written {
    pub(super) span: TextSpan,
    pub(super) fresh: bool,
}
