//! The report's entries read in place: [`EntryRef`] borrows a row and its texts, and writes
//! itself (as text, or as JSON through serde) exactly as the owned [`ReportEntry`] does, with
//! no string made first. A report of many entries about a tool with a long name, or under a
//! long key, holds that text once; reading it through [`Report::refs`] keeps it so, where the
//! owned list ([`Report::entries`]) makes one string per field of every entry.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::links::NONE;
use super::row::Row;
use super::{Code, Effect, Report, ReportEntry, Severity};

/// One entry of a [`Report`], read in place: the fields of [`ReportEntry`], borrowed.
///
/// `Display` writes the line [`ReportEntry`]'s does and `Serialize` the same JSON object, so
/// a caller printing a report (the command line does) writes each entry straight from the
/// report's texts into its output.
#[derive(Clone, Copy)]
pub struct EntryRef<'r> {
    report: &'r Report,
    row: &'r Row,
    /// The row's place in the report.
    index: u32,
    /// Whether [`EntryRef::pointer`] is the place in the tool ([`EntryRef::in_tool`]).
    in_tool: bool,
}

/// A text of a report entry (its message, or a pointer), kept in pieces the report shares
/// between entries: read it by writing it (`Display`, [`ReportText::pieces`]) or compare it
/// with a string. `Debug` quotes and escapes it as a `str` is.
#[derive(Clone, Copy)]
pub struct ReportText<'r>(pub(super) Inner<'r>);

#[derive(Clone, Copy)]
pub(super) enum Inner<'r> {
    /// Pieces one after the other.
    Parts([&'r str; 2]),
    /// `place` (a tool's place in its document), then the text of a pointer link.
    Pointer { report: &'r Report, place: &'r str, link: u32 },
}

impl Report {
    /// The entries, in order (source order once the conversion is done), read in place:
    /// nothing is copied, where [`Report::entries`] makes a list of owned entries. What a
    /// caller printing or scanning a large report should use.
    pub fn refs(&self) -> impl ExactSizeIterator<Item = EntryRef<'_>> + Clone {
        let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        let refs = self.rows.iter().enumerate();
        refs.map(move |(i, row)| EntryRef { report: self, row, index: index(i), in_tool: false })
    }
}

impl<'r> EntryRef<'r> {
    /// [`ReportEntry::tool`].
    pub fn tool(&self) -> &'r str {
        self.report.str(self.row.tool)
    }

    /// [`ReportEntry::severity`].
    pub fn severity(&self) -> Severity {
        self.row.kind().severity
    }

    /// [`ReportEntry::code`].
    pub fn code(&self) -> Code {
        self.row.kind().code
    }

    /// [`ReportEntry::effect`].
    pub fn effect(&self) -> Effect {
        self.row.kind().effect
    }

    /// [`ReportEntry::arguments`].
    pub fn arguments(&self) -> bool {
        self.row.kind().arguments
    }

    /// [`ReportEntry::effect_label`].
    pub fn effect_label(&self) -> &'static str {
        if self.arguments() { self.effect().as_str() } else { "metadata" }
    }

    /// [`ReportEntry::feature`].
    pub fn feature(&self) -> &'r str {
        self.report.str(self.row.feature)
    }

    /// [`ReportEntry::pointer`]: the place in the input document (in the tool after
    /// [`EntryRef::in_tool`]).
    pub fn pointer(&self) -> ReportText<'r> {
        let report = self.report;
        ReportText(match report.extra(self.row)[0] {
            _ if self.in_tool => return self.tool_pointer(),
            NONE => Inner::Pointer {
                report,
                place: report.place(self.row.order.0),
                link: self.row.pointer,
            },
            link => Inner::Pointer { report, place: "", link },
        })
    }

    /// [`ReportEntry::tool_pointer`]: the place in the tool.
    pub fn tool_pointer(&self) -> ReportText<'r> {
        ReportText(Inner::Pointer { report: self.report, place: "", link: self.row.pointer })
    }

    /// [`ReportEntry::output_pointer`].
    pub fn output_pointer(&self) -> Option<ReportText<'r>> {
        let link = self.report.extra(self.row)[1];
        (link != NONE).then_some(ReportText(Inner::Pointer {
            report: self.report,
            place: "",
            link,
        }))
    }

    /// [`ReportEntry::from`].
    pub fn from(&self) -> &'r str {
        self.report.format_names(self.row.formats)[0]
    }

    /// [`ReportEntry::to`].
    pub fn to(&self) -> &'r str {
        self.report.format_names(self.row.formats)[1]
    }

    /// [`ReportEntry::message`].
    pub fn message(&self) -> ReportText<'r> {
        let [head, tail] = self.row.message;
        ReportText(Inner::Parts([self.report.str(head), self.report.str(tail)]))
    }

    /// [`Report::tool_index`] of this entry: its tool's place among the document's tools.
    pub fn tool_index(&self) -> Option<usize> {
        self.report.index_of_tool(self.row.order.0)
    }

    /// The same entry with [`EntryRef::pointer`] the place in the tool
    /// ([`EntryRef::tool_pointer`]), whatever the tool's place in its document: what it prints
    /// and serializes as `pointer` (the command line's `--report-pointers tool`).
    pub fn in_tool(self) -> EntryRef<'r> {
        EntryRef { in_tool: true, ..self }
    }

    /// The entry's line (its `Display`), with every text too long to read cut short: a tool
    /// name, or a step of the pointer, longer than [`EntryRef::LONG`] bytes is written as its
    /// first [`EntryRef::KEPT`] characters, `…`, and its length (`…(1048576 bytes)`). So the
    /// line of an entry is at most a few KiB however long the names and keys it is about,
    /// for a report that repeats a tool's name or a pointer's key on many lines (the command
    /// line's text report writes each tool's first line whole, the others this way).
    pub fn brief(&self) -> impl fmt::Display + 'r {
        let (tool, pointer) = (self.tool(), self.pointer());
        let tool = match tool.len() > Self::LONG {
            true => Cow::Owned(cut(tool)),
            false => Cow::Borrowed(tool),
        };
        let pointer = match pointer.len() > Self::LONG {
            true => Brief::Cut(cut_steps(&pointer.to_string())),
            false => Brief::Whole(pointer),
        };
        let message = self.message();
        Line {
            severity: self.severity(),
            effect: self.effect_label(),
            code: self.code(),
            tool,
            pointer,
            message,
        }
    }

    /// Texts longer than this many bytes [`EntryRef::brief`] cuts.
    pub const LONG: usize = 256;

    /// The characters [`EntryRef::brief`] keeps of a text it cuts.
    pub const KEPT: usize = 64;

    /// The sort key the entry keeps inside the crate ([`ReportEntry::order`]).
    pub(crate) fn order(&self) -> (u32, u32, u32) {
        (self.row.order.0, self.row.order.1, self.index)
    }

    /// The entry as an owned [`ReportEntry`] (a string per field).
    pub fn to_entry(&self) -> ReportEntry {
        ReportEntry {
            tool: self.tool().to_owned(),
            severity: self.severity(),
            code: self.code(),
            effect: self.effect(),
            arguments: self.arguments(),
            feature: self.feature().to_owned(),
            pointer: self.pointer().to_string(),
            tool_pointer: self.tool_pointer().to_string(),
            output_pointer: self.output_pointer().map(|p| p.to_string()),
            from: self.from().to_owned(),
            to: self.to().to_owned(),
            message: self.message().to_string(),
            order: self.order(),
        }
    }
}

impl<'r> ReportText<'r> {
    /// `text`, as one piece.
    pub(crate) fn plain(text: &'r str) -> ReportText<'r> {
        ReportText(Inner::Parts([text, ""]))
    }

    /// Gives the text's pieces to `f`, in order.
    pub fn pieces(&self, mut f: impl FnMut(&'r str)) {
        match self.0 {
            Inner::Parts(parts) => parts.into_iter().for_each(f),
            Inner::Pointer { report, place, link } => {
                f(place);
                report.pointer_pieces(link, f);
            }
        }
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        let mut n = 0;
        self.pieces(|p| n += p.len());
        n
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for ReportText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut result = Ok(());
        self.pieces(|p| {
            if result.is_ok() {
                result = f.write_str(p);
            }
        });
        result
    }
}

/// As `str`'s: quoted, each char escaped as `str` escapes it (a `'` is not).
impl fmt::Debug for ReportText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char('"')?;
        let mut result = Ok(());
        self.pieces(|p| {
            for c in p.chars() {
                if result.is_err() {
                    return;
                }
                result = match c {
                    '\'' => f.write_char(c),
                    c => c.escape_debug().try_for_each(|e| f.write_char(e)),
                };
            }
        });
        result?;
        f.write_char('"')
    }
}

impl PartialEq<str> for ReportText<'_> {
    fn eq(&self, other: &str) -> bool {
        let mut rest = other.as_bytes();
        let mut same = true;
        self.pieces(|p| {
            same = same
                && match rest.split_at_checked(p.len()) {
                    Some((head, tail)) if head == p.as_bytes() => {
                        rest = tail;
                        true
                    }
                    _ => false,
                };
        });
        same && rest.is_empty()
    }
}

impl PartialEq<&str> for ReportText<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// As a string.
impl Serialize for ReportText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The line [`ReportEntry`]'s `Display` writes.
impl fmt::Display for EntryRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = Line {
            severity: self.severity(),
            effect: self.effect_label(),
            code: self.code(),
            tool: self.tool(),
            pointer: self.pointer(),
            message: self.message(),
        };
        line.fmt(f)
    }
}

impl fmt::Debug for EntryRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_entry(), f)
    }
}

/// The JSON object [`ReportEntry`] serializes to, field for field.
impl Serialize for EntryRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let output = self.output_pointer();
        let mut s =
            serializer.serialize_struct("ReportEntry", 11 + usize::from(output.is_some()))?;
        s.serialize_field("tool", self.tool())?;
        s.serialize_field("severity", &self.severity())?;
        s.serialize_field("code", &self.code())?;
        s.serialize_field("effect", &self.effect())?;
        s.serialize_field("arguments", &self.arguments())?;
        s.serialize_field("feature", self.feature())?;
        s.serialize_field("pointer", &self.pointer())?;
        s.serialize_field("tool_pointer", &self.tool_pointer())?;
        match output {
            Some(p) => s.serialize_field("output_pointer", &p)?,
            None => s.skip_field("output_pointer")?,
        }
        s.serialize_field("from", self.from())?;
        s.serialize_field("to", self.to())?;
        s.serialize_field("message", &self.message())?;
        s.end()
    }
}

/// A text [`EntryRef::brief`] cut, or one it did not.
enum Brief<'r> {
    Whole(ReportText<'r>),
    Cut(String),
}

impl fmt::Debug for Brief<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Brief::Whole(text) => text.fmt(f),
            Brief::Cut(text) => text.fmt(f),
        }
    }
}

/// `text` cut to its first [`EntryRef::KEPT`] characters, `…` and its length.
fn cut(text: &str) -> String {
    let end = text.char_indices().nth(EntryRef::KEPT).map_or(text.len(), |(i, _)| i);
    format!("{}…({} bytes)", text.get(..end).unwrap_or_default(), text.len())
}

/// `pointer` with each step longer than [`EntryRef::LONG`] bytes [`cut`].
fn cut_steps(pointer: &str) -> String {
    let mut out = String::new();
    for (i, step) in pointer.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        match step.len() > EntryRef::LONG {
            true => out.push_str(&cut(step)),
            false => out.push_str(step),
        }
    }
    out
}

/// An entry's text line: `warning[narrows]: [object-closed] tool "t" at "/inputSchema": …`
/// (`[metadata]` for an entry that is not about the arguments; no tool for a catalog's).
pub(super) struct Line<T, P, M> {
    pub(super) severity: Severity,
    pub(super) effect: &'static str,
    pub(super) code: Code,
    pub(super) tool: T,
    pub(super) pointer: P,
    pub(super) message: M,
}

impl<T: AsRef<str>, P: fmt::Debug, M: fmt::Display> fmt::Display for Line<T, P, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: [{}] ", self.severity, self.effect, self.code)?;
        let tool = self.tool.as_ref();
        if !tool.is_empty() {
            write!(f, "tool {tool:?} ")?;
        }
        write!(f, "at {:?}: {}", self.pointer, self.message)
    }
}
