//! Where a report's entries are in the document they are about ([`Report::locate`]): the
//! place of each tool with entries, put in front of an entry's pointer in the tool to make it
//! document-level, and the source's place of an entry whose pass wrote a path a rewrite had
//! moved. The document is asked through [`Places`], so the report needs no parser of its own.

use super::Report;
use super::store::TextSpan;

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
        let Report { rows, text, more } = self;
        let Some(more) = more.get_mut() else { return };
        more.places.clear();
        more.place_text.clear();
        // Rows are recorded tool by tool: a tool's run of rows asks once (the sort below
        // takes out what a later run asks again).
        let mut last: Option<(u32, TextSpan)> = None;
        for row in rows.iter_mut().filter(|r| r.document.is_none()) {
            let tool = row.order.0;
            let place = match last {
                Some((at, place)) if at == tool => place,
                // Not a tool's: an entry about the catalog, its pointer in the document.
                _ if more.tools.binary_search_by_key(&tool, |(t, _)| *t).is_err() => continue,
                _ => {
                    let place = more.place_text.push(|out: &mut String| places.locate(tool, out));
                    more.places.push((tool, place));
                    last = Some((tool, place));
                    place
                }
            };
            if places.holds(tool, text.get(row.pointer)) {
                continue;
            }
            let located = text.push(|out: &mut String| places.locate(row.order.1, out));
            let (place, found) = (more.place_text.get(place), text.get(located));
            let in_tool =
                found.strip_prefix(place).is_some_and(|r| r.is_empty() || r.starts_with('/'));
            row.output = Some(row.pointer);
            // A place outside the tool (a node the passes made, at no source position) is
            // told as the tool's own.
            row.pointer =
                if in_tool { located.skip(place.len()) } else { located.skip(found.len()) };
        }
        if !more.places.is_sorted_by_key(|(at, _)| *at) {
            more.places.sort_unstable_by_key(|(at, _)| *at);
        }
        more.places.dedup_by_key(|(at, _)| *at);
    }

    /// The place in the input document of the tool at source position `at` (empty for a
    /// single tool, for a tool not located and for the catalog as a whole).
    pub(super) fn place(&self, at: u32) -> &str {
        let Some(more) = self.more.get() else { return "" };
        match more.places.binary_search_by_key(&at, |(t, _)| *t) {
            Ok(i) => more.places.get(i).map_or("", |(_, span)| more.place_text.get(*span)),
            Err(_) => "",
        }
    }
}
