//! Where a report's entries are in the document they are about ([`Report::locate`]): the
//! place of each tool with entries, put in front of an entry's pointer in the tool to make it
//! document-level, and the source's place of an entry whose pass wrote a path a rewrite had
//! moved. The document is asked through [`Places`], so the report needs no parser of its own.

use super::Report;
use super::links::NONE;
use super::store::{Span, TextSpan};
use super::text::Written;

/// What [`Report::locate`] asks of the input document a report's entries are about, by
/// source position (a value's place on the parsed document, or a member's key's).
pub(crate) trait Places {
    /// Appends the RFC 6901 pointer of the value at `at` (of the member, at a key's
    /// position).
    fn locate(&mut self, at: u32, out: &mut String);
    /// Whether `pointer` names a place under the value at `at`.
    fn holds(&mut self, at: u32, pointer: &str) -> bool;
}

impl Report {
    /// Places the entries in the input document, while it is at hand (at the end of a
    /// conversion; nothing is done for an empty report): finds where each tool with entries
    /// is ([`More::places`]), and gives an entry whose pointer names a place the source does
    /// not have (a pass writes the path it walked, and a rewrite before it may have moved
    /// the place: `anyOf/0` where the source has `oneOf/0`, an `items` a dialect rewrite
    /// made `prefixItems`) the source's place of what it is about, its source position,
    /// keeping what was written as the output's place ([`ReportEntry::output_pointer`](super::ReportEntry::output_pointer)).
    pub(crate) fn locate(&mut self, places: &mut impl Places) {
        if self.rows.is_empty() {
            return;
        }
        self.keep_list_as_spares();
        let Some(more) = self.more.get_mut() else { return };
        more.places.clear();
        more.place_text.clear();
        // A place for each tool at most: room made once rather than by doublings.
        more.places.reserve(more.tools.len());
        // The pointer in the tool is read whole into this buffer, kept for the next report.
        let mut scratch = std::mem::take(&mut more.scratch);
        // Rows are recorded tool by tool: a tool's run of rows asks once (the sort below
        // takes out what a later run asks again).
        let mut last: Option<(u32, Span)> = None;
        for i in 0..self.rows.len() {
            let Some(&row) = self.rows.get(i) else { continue };
            let [document, output] = self.extra(&row);
            if document != NONE {
                continue;
            }
            let tool = row.order.0;
            let Some(more) = self.more.get_mut() else { return };
            let place = match last {
                Some((at, place)) if at == tool => place,
                // Not a tool's: an entry about the catalog, its pointer in the document.
                _ if more.tools.binary_search_by_key(&tool, |(t, _)| *t).is_err() => continue,
                _ => {
                    let place = more.place_text.push(|out: &mut String| places.locate(tool, out));
                    let place = Span::of(place);
                    more.places.push((tool, place));
                    last = Some((tool, place));
                    place
                }
            };
            scratch.clear();
            self.write_pointer(row.pointer, &mut scratch);
            if places.holds(tool, &scratch) {
                continue;
            }
            let start = self.text.len();
            let located = self.text.push(|out: &mut String| places.locate(row.order.1, out));
            let Some(more) = self.more.get() else { return };
            let place = more.place_text.at(place);
            let found = self.text.get(located);
            // A place outside the tool (a node the passes made, at no source position) is
            // told as the tool's own.
            let in_tool =
                found.strip_prefix(place).is_some_and(|r| r.is_empty() || r.starts_with('/'));
            let cut = if in_tool { place.len() } else { found.len() };
            self.text.cut(start, cut);
            let written = Written { span: TextSpan::new(start, self.text.len()), fresh: true };
            let pointer = self.link(written);
            // The place written becomes the output's (no row placed here has one yet).
            debug_assert_eq!(output, NONE);
            let Some(more) = self.more.get_mut() else { return };
            more.extras.push([NONE, row.pointer]);
            let extra = u32::try_from(more.extras.len() - 1).unwrap_or(NONE);
            if let Some(r) = self.rows.get_mut(i) {
                r.extra = extra;
                r.pointer = pointer;
            }
        }
        if let Some(more) = self.more.get_mut() {
            more.scratch = scratch;
            if !more.places.is_sorted_by_key(|(at, _)| *at) {
                more.places.sort_unstable_by_key(|(at, _)| *at);
            }
            more.places.dedup_by_key(|(at, _)| *at);
        }
    }

    /// The place in the input document of the tool at source position `at` (empty for a
    /// single tool, for a tool not located and for the catalog as a whole).
    pub(super) fn place(&self, at: u32) -> &str {
        let Some(more) = self.more.get() else { return "" };
        match more.places.binary_search_by_key(&at, |(t, _)| *t) {
            Ok(i) => more.places.get(i).map_or("", |(_, span)| more.place_text.at(*span)),
            Err(_) => "",
        }
    }
}
