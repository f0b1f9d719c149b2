//! How a report keeps its entries: small fixed-size rows over one text buffer, each text
//! written once, and the public list made from them on demand.
//!
//! A report's memory follows what it says, not how often it says it. Recording an entry
//! pushes a 52-byte row; its texts go into the buffer only where they are new: the tool's
//! name and the feature are the last row's when they repeat, a pointer is kept as the part
//! it shares with the pointer recorded before it (a [`Link`]: the shared part is the earlier
//! pointer's) and its own tail, and a message as its own head and the tail it shares with
//! the message before it. So a tool with a long name, or a long key above many entries,
//! costs its text once, not once per entry. The [`ReportEntry`] list a caller may ask for is
//! made from the rows on first use, into the strings of the last list made, so a warm
//! converter allocates for neither.

use std::sync::{Mutex, PoisonError};

use super::links::{EMPTY, Link, NONE, pieces};
pub(super) use super::row::{Extra, Formats, Row};
use super::text::Written;
pub(crate) use super::text::{Span, Text, TextSpan, Texts};
use super::{Code, Effect, EntryKind, More, Report, ReportEntry};

/// An entry's parts, its texts written, for [`Report::record_row`].
pub(super) struct Parts<'t> {
    pub(super) kind: EntryKind,
    /// The source positions of the tool and of the place.
    pub(super) order: (u32, u32),
    /// The tool's name and the feature, to write unless the last rows have them.
    pub(super) names: [&'t str; 2],
    pub(super) formats: Formats,
    /// The pointer in the tool: a link.
    pub(super) pointer: u32,
    pub(super) message: [Span; 2],
    pub(super) extra: Extra,
    /// Whether the tool's name is the conversion's own text (see [`Report::record_row`]).
    pub(super) stable: bool,
}

/// What the next row may share with the rows before it.
#[derive(Clone, Copy)]
pub(super) struct Last {
    /// The last row's tool: its source position and the address of the name it was given
    /// (0 for a name that is not the conversion's), and its name in the text.
    tool: Option<((u32, usize), Span)>,
    /// The last features written, newest first.
    features: [Span; 4],
    /// The last messages, newest first.
    messages: [[Span; 2]; 4],
    /// The last pointers made, newest first: a pointer equal to one of them is that link (an
    /// entry at a tool's member, then one at the tool, then the next tool's member…).
    pub(super) links: [u32; 4],
    /// Their lengths.
    pub(super) lens: [u32; 4],
    /// The link the next pointer shares its beginning with.
    pub(super) link: Option<u32>,
}

impl Default for Last {
    fn default() -> Self {
        let messages = [[Span::default(); 2]; 4];
        // An empty span stands for no feature: it says what an empty feature would.
        let (links, lens, link) = ([NONE; 4], [0; 4], None);
        Last { tool: None, features: [Span::default(); 4], messages, links, lens, link }
    }
}

/// How many bytes `a` and `b` end with alike: eight at a time, then one at a time.
fn common_end(a: &[u8], b: &[u8]) -> usize {
    let words = a.rchunks_exact(8).zip(b.rchunks_exact(8)).take_while(|(x, y)| x == y).count();
    let n = words * 8;
    let a = a.get(..a.len() - n).unwrap_or_default();
    let b = b.get(..b.len() - n).unwrap_or_default();
    n + a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count()
}

/// The text `t` as a [`Text`] to write.
fn text_of(t: super::ReportText<'_>) -> impl FnOnce(&mut String) + '_ {
    move |out: &mut String| t.pieces(|p| out.push_str(p))
}

/// The names of an entry given whole.
struct Whole<'t> {
    tool: &'t str,
    feature: &'t str,
    from: &'t str,
    to: &'t str,
}

impl Report {
    /// The most bytes a report holds: spans are 32-bit.
    pub(crate) const MAX_BYTES: usize = (u32::MAX / 2) as usize;

    pub(super) fn str(&self, span: Span) -> &str {
        self.text.at(span)
    }

    /// About how many bytes the report holds: its rows, text and pointer links (what its
    /// budget is held to).
    pub(crate) fn bytes(&self) -> usize {
        let links = self.more.get().map_or(0, |m| m.links.len());
        self.text.len()
            + self.rows.len() * std::mem::size_of::<Row>()
            + links * std::mem::size_of::<Link>()
    }

    /// Writes the two format names for [`Report::record_row`]: a run of entries between the
    /// same formats (a conversion's) shares one copy.
    pub(super) fn formats(&mut self, from: &str, to: &str) -> Formats {
        let Report { text, more, .. } = self;
        let Some(more) = more_of(more) else { return Formats(0) };
        let last = more.formats.len().checked_sub(1);
        if let Some(i) = last
            && let Some([f, t]) = more.formats.get(i)
            && text.at(*f) == from
            && text.at(*t) == to
        {
            return Formats(i as u16);
        }
        let pair = [Span::of(text.push(from)), Span::of(text.push(to))];
        more.formats.push(pair);
        Formats(u16::try_from(more.formats.len() - 1).unwrap_or(u16::MAX))
    }

    /// The document-level and output pointers of `row` (see [`Extra`]).
    pub(super) fn extra(&self, row: &Row) -> Extra {
        let extras = self.more.get().map(|m| m.extras.as_slice()).unwrap_or_default();
        extras.get(row.extra as usize).copied().unwrap_or([NONE, NONE])
    }

    /// The format names of a row.
    pub(super) fn format_names(&self, formats: Formats) -> [&str; 2] {
        let pair = self.more.get().and_then(|m| m.formats.get(formats.0 as usize));
        pair.map_or(["", ""], |[f, t]| [self.str(*f), self.str(*t)])
    }

    /// Keeps a pointer just written (`written`) as a link: the part it shares with the last
    /// pointer is that pointer's, and only its own tail stays in the text.
    pub(super) fn link(&mut self, written: Written) -> u32 {
        let Report { text, more, .. } = self;
        more_of(more).map_or(EMPTY, |more| more.link(text, written))
    }

    /// Keeps the pointer `path` writes as a link, writing only the steps it does not share
    /// with the last pointer ([`More::link_path`](super::links)).
    pub(super) fn link_path(&mut self, path: &crate::pointer::Path<'_>) -> u32 {
        let Report { text, more, .. } = self;
        more_of(more).map_or(EMPTY, |more| more.link_path(text, path))
    }

    /// The bytes past [`super::links::LONG`] of every pointer linked, summed.
    pub(super) fn long_pointers(&self) -> usize {
        self.more.get().map_or(0, |m| m.long)
    }

    /// The text of the last pointer linked, whole.
    pub(super) fn last_pointer(&self) -> &str {
        self.more.get().map_or("", |m| m.last_text.as_str())
    }

    /// Forgets the steps of the last pointer written from a path (a new conversion's arena
    /// may hold other keys at their addresses); its text still links.
    pub(super) fn forget_last_steps(&mut self) {
        if let Some(more) = self.more.get_mut() {
            more.last_steps.clear();
        }
    }

    /// Keeps a message just written: the tail it shares with one of the last messages is
    /// that message's, and only its own head stays in the text. The last few are looked at,
    /// not only the last one: a catalog's tools each repeat the same few entries in turn (a
    /// rename, then an input schema added, then the next tool's rename…).
    pub(super) fn message(&mut self, written: Written) -> [Span; 2] {
        let Report { text, more, .. } = self;
        let span = Span::of(written.span);
        let Some(more) = more_of(more) else { return [span, Span::default()] };
        let recent = &mut more.last.messages;
        if !written.fresh {
            recent.rotate_right(1);
            recent[0] = [span, Span::default()];
            return recent[0];
        }
        // The message the new one shares the longest end with, and how long that end is.
        let (mut n, [head, tail]) = {
            let new = text.get(written.span).as_bytes();
            let common = |[head, tail]: [Span; 2]| {
                let (t, h) = (text.at(tail).as_bytes(), text.at(head).as_bytes());
                let mut n = common_end(new, t);
                if n == t.len() {
                    n += common_end(new.get(..new.len() - n).unwrap_or_default(), h);
                }
                // At a char boundary of the new message (so of the old one: the bytes are
                // the same).
                while n > 0 && new.get(new.len() - n).is_some_and(|b| b & 0xC0 == 0x80) {
                    n -= 1;
                }
                n
            };
            recent.iter().map(|&m| (common(m), m)).max_by_key(|(n, _)| *n).unwrap_or_default()
        };
        let tail_len = tail.len();
        let shared = if n <= tail_len {
            tail.last(n)
        } else if tail_len == 0 {
            head.last(n)
        } else {
            // Beyond that message's tail: the tail only, the rest is this message's own.
            n = tail_len;
            tail
        };
        text.truncate(written.span.end() - n);
        let own = span.head(written.span.len() - n);
        recent.rotate_right(1);
        recent[0] = [own, shared];
        recent[0]
    }

    /// Appends a row: its tool and feature written here unless they repeat the last row's,
    /// its format names by [`Report::formats`], its pointer by [`Report::link`] and its
    /// message by [`Report::message`], since this report was last cleared.
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
    pub(super) fn record_row(&mut self, parts: Parts<'_>) {
        let Parts { kind, order, names: [tool, feature], formats, pointer, message, extra, stable } =
            parts;
        debug_assert!(
            super::effect::consistent(kind.severity, kind.effect, kind.arguments),
            "{kind:?} for tool {tool:?} at {feature:?}: the severity does not follow the effect"
        );
        self.keep_list_as_spares();
        let Report { rows, text, more } = self;
        let Some(more) = more_of(more) else { return };
        let last = &mut more.last;
        // A tool's entries come one after the other: its name is written once. The same tool
        // names itself by the same text of the conversion (`stable`: the input's or the
        // arena's, which outlive the recording), so the same address is the same name; another
        // is compared, at the same length only.
        let key = (order.0, if stable { tool.as_ptr() as usize } else { 0 });
        let name = match last.tool {
            Some((k, span))
                if span.len() == tool.len() && ((stable && k == key) || text.at(span) == tool) =>
            {
                span
            }
            _ => Span::of(text.push(tool)),
        };
        last.tool = Some((key, name));
        let tool = name;
        // The features of a tool's entries come back in turn (a catalog's tools each repeat
        // the same few): the last few are looked at.
        let feature = match last.features.iter().find(|&&span| text.at(span) == feature) {
            Some(&span) => span,
            None => {
                let span = Span::of(text.push(feature));
                last.features.rotate_right(1);
                last.features[0] = span;
                span
            }
        };
        let extra = match extra {
            [NONE, NONE] => NONE,
            extra => {
                more.extras.push(extra);
                u32::try_from(more.extras.len() - 1).unwrap_or(NONE)
            }
        };
        let (code, flags) = (kind.code, Row::flags(kind));
        let row = Row { code, flags, formats, order, tool, feature, pointer, extra, message };
        rows.push(row);
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
        let kind = EntryKind { severity, code, effect, arguments };
        let texts = Whole { tool: &tool, feature: &feature, from: &from, to: &to };
        let output = output_pointer.as_deref();
        let order = (order.0, order.1);
        self.push_texts(
            kind,
            order,
            texts,
            [pointer.as_str(), tool_pointer.as_str()],
            output,
            message.as_str(),
        );
    }

    /// Appends `entry`, an entry of another report, at the sort key `(tool, at)`, with
    /// `pointer` its document-level pointer (a split catalog's chunk's entry, its tool moved
    /// to its place in the whole catalog).
    pub(crate) fn push_moved(
        &mut self,
        e: super::EntryRef<'_>,
        pointer: &str,
        (tool, at): (u32, u32),
    ) {
        let kind = EntryKind {
            severity: e.severity(),
            code: e.code(),
            effect: e.effect(),
            arguments: e.arguments(),
        };
        let texts = Whole { tool: e.tool(), feature: e.feature(), from: e.from(), to: e.to() };
        let output = e.output_pointer().map(text_of);
        let pointers = [text_of(super::ReportText::plain(pointer)), text_of(e.tool_pointer())];
        self.push_texts(kind, (tool, at), texts, pointers, output, text_of(e.message()));
    }

    /// Appends an entry given whole: its document-level, tool and output pointers and its
    /// message as texts to write.
    fn push_texts(
        &mut self,
        kind: EntryKind,
        order: (u32, u32),
        names: Whole<'_>,
        [document, tool_pointer]: [impl Text; 2],
        output: Option<impl Text>,
        message: impl Text,
    ) {
        let formats = self.formats(names.from, names.to);
        let fresh = |span| Written { span, fresh: true };
        let written = self.text.push(document);
        let document = self.link(fresh(written));
        let output = match output {
            Some(p) => {
                let written = self.text.push(p);
                self.link(fresh(written))
            }
            None => NONE,
        };
        let written = self.text.push(tool_pointer);
        let pointer = self.link(fresh(written));
        let written = self.text.push(message);
        let message = self.message(fresh(written));
        let names = [names.tool, names.feature];
        let extra = [document, output];
        let parts = Parts { kind, order, names, formats, pointer, message, extra, stable: false };
        self.record_row(parts);
    }

    /// The text of the link `id` (a pointer), in pieces, each given to `f` in order.
    pub(super) fn pointer_pieces<'r>(&'r self, id: u32, f: impl FnMut(&'r str)) {
        if let Some(more) = self.more.get() {
            pieces(&more.links, &self.text, id, f);
        }
    }

    /// Appends the text of the link `id` to `out`.
    pub(super) fn write_pointer(&self, id: u32, out: &mut String) {
        self.pointer_pieces(id, |p| out.push_str(p));
    }

    /// The list made from the rows, in the last list's entries where there are some.
    pub(super) fn make(&self, spare: &Mutex<Vec<ReportEntry>>) -> Vec<ReportEntry> {
        let mut list = std::mem::take(&mut *spare.lock().unwrap_or_else(PoisonError::into_inner));
        for (i, row) in self.rows.iter().enumerate() {
            let fill = |e: &mut ReportEntry| {
                // The document-level pointer: the tool's place, then the pointer in the tool.
                let [document, output] = self.extra(row);
                e.pointer.clear();
                if document == NONE {
                    e.pointer.push_str(self.place(row.order.0));
                    self.write_pointer(row.pointer, &mut e.pointer);
                } else {
                    self.write_pointer(document, &mut e.pointer);
                }
                match (output, &mut e.output_pointer) {
                    (NONE, out) => *out = None,
                    (id, Some(out)) => {
                        out.clear();
                        self.write_pointer(id, out);
                    }
                    (id, out) => {
                        let mut s = String::new();
                        self.write_pointer(id, &mut s);
                        *out = Some(s);
                    }
                }
                e.tool_pointer.clear();
                self.write_pointer(row.pointer, &mut e.tool_pointer);
                let kind = row.kind();
                e.severity = kind.severity;
                e.code = kind.code;
                e.effect = kind.effect;
                e.arguments = kind.arguments;
                e.order = (row.order.0, row.order.1, u32::try_from(i).unwrap_or(u32::MAX));
                let [from, to] = self.format_names(row.formats);
                let [head, tail] = row.message;
                for (out, texts) in [
                    (&mut e.tool, [self.str(row.tool), ""]),
                    (&mut e.feature, [self.str(row.feature), ""]),
                    (&mut e.from, [from, ""]),
                    (&mut e.to, [to, ""]),
                    (&mut e.message, [self.str(head), self.str(tail)]),
                ] {
                    out.clear();
                    out.push_str(texts[0]);
                    out.push_str(texts[1]);
                }
            };
            match list.get_mut(i) {
                Some(e) => fill(e),
                None => {
                    // `fill` writes every field; the kind is a placeholder.
                    let kind = EntryKind::arguments(Code::KeywordDropped, Effect::None);
                    let mut e = ReportEntry::of(kind);
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

/// `more`, made if it is not yet (so always `Some`).
fn more_of(more: &mut std::sync::OnceLock<Box<More>>) -> Option<&mut More> {
    if more.get().is_none() {
        let _ = more.set(Box::default());
    }
    more.get_mut().map(|m| &mut **m)
}
