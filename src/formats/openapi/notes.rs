//! What the import tells the report: its notes (what a tool cannot say, with a pointer into
//! the OpenAPI document) and its places (which part of the document each part of a translated
//! tool came from, so the conversion's own entries point into the document too).

use std::collections::BTreeSet;

use crate::adapter::Imported;
use crate::pointer::escape_into;
use crate::report::EntryKind;

/// The import's notes and places, and the tool they are about.
pub(super) struct Notes<'o> {
    out: &'o mut Imported,
    /// The tool being written: its index in the catalog and its name.
    tool: usize,
    name: String,
    /// The tool's notes so far (code, pointer): a schema written twice in one tool (a merged
    /// body whose component is also in `$defs`) is noted once.
    noted: BTreeSet<(&'static str, String)>,
}

impl<'o> Notes<'o> {
    /// Notes into `out`, about no tool yet.
    pub(super) fn new(out: &'o mut Imported) -> Notes<'o> {
        Notes { out, tool: 0, name: String::new(), noted: BTreeSet::new() }
    }

    /// Makes tool `tool` of the catalog, called `name`, the one the notes are about.
    pub(super) fn start_tool(&mut self, tool: usize, name: &str) {
        self.tool = tool;
        self.name.clear();
        self.name.push_str(name);
        self.noted.clear();
    }

    /// A note about the tool being written, unless it has one with this code and pointer.
    /// Its [`Kind`] says what the import does to the calls the operation accepts, and whether
    /// the note is about them at all (not when about how they travel, or a name).
    pub(super) fn note(
        &mut self,
        kind: EntryKind,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        if self.noted.insert((kind.code().as_str(), pointer.clone())) {
            let tool = Some((self.tool, self.name.as_str()));
            let out = &mut *self.out;
            out.note(tool, kind, feature, pointer, message);
        }
    }

    /// A note about the document as a whole, not one of its tools.
    pub(super) fn note_document(
        &mut self,
        kind: EntryKind,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        self.out.note(None, kind, feature, pointer, message);
    }

    /// Records that the part of the tool being written at `prefix` (a pointer into the
    /// translated tool) came from `source` (a pointer into the document).
    pub(super) fn place(&mut self, prefix: &str, source: String) {
        self.out.place(self.tool, prefix, source);
    }
}

/// The translated tool's pointer to property `key` of its input schema.
pub(super) fn property_prefix(key: &str) -> String {
    let mut p = String::from("/inputSchema/properties/");
    escape_into(&mut p, key);
    p
}
