//! What an importing format made of its source document: the translated document, report
//! entries about the source, and where each translated tool's parts came from, so the report
//! and errors point into the source document. It is the converter's bookkeeping beside the
//! adapter author's contract (`adapter.rs`), which re-exports it for [`crate::Adapter::import`].

use crate::error::ConversionError;
use crate::report::{EntryKind, Note, OwnedNote, Report};

/// What an importing format ([`Adapter::import`](crate::Adapter::import)) made of a source
/// document: the document translated into the format's own tool shape, report entries about
/// the source, and where the parts of each translated tool came from. A [`crate::Converter`]
/// keeps one and reuses its buffers.
#[derive(Debug, Default)]
pub struct Imported {
    /// The translated document.
    pub(crate) document: Vec<u8>,
    notes: Vec<Noted>,
    /// Sorted by tool (tools are translated in order).
    places: Vec<Place>,
    /// The lowered tools' names (sorted, with their index) and tape positions, for ordering
    /// the notes and finding a report entry's tool.
    pub(crate) names: Vec<(String, usize)>,
    pub(crate) positions: Vec<u32>,
}

/// A report entry of the import, about tool `tool` (an index into the translated catalog,
/// and its name) or, when `None`, the whole document; its pointer into the source document.
#[derive(Debug)]
struct Noted {
    tool: Option<(usize, String)>,
    note: OwnedNote<String>,
}

/// Pointers of tool `tool` starting with `prefix` (relative to the translated tool) refer to
/// `source` in the source document.
#[derive(Debug)]
struct Place {
    tool: usize,
    prefix: String,
    source: String,
}

impl Imported {
    /// The translated document, empty when [`Adapter::import`](crate::Adapter::import) is
    /// called.
    pub fn document(&mut self) -> &mut Vec<u8> {
        &mut self.document
    }

    /// Records a report entry about the source document: about the tool at `tool` (its index
    /// in the translated catalog, and its name), or about the whole document when `None`.
    /// `pointer` points into the source document. `kind` says what the import does to the
    /// calls the source accepts, and whether the entry is about them at all (see
    /// [`crate::ReportEntry::effect`] and [`crate::ReportEntry::arguments`]); its severity
    /// follows.
    pub fn note(
        &mut self,
        tool: Option<(usize, &str)>,
        kind: EntryKind,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        let note = Note { kind, feature: feature.to_owned(), pointer, message };
        self.notes.push(Noted { tool: tool.map(|(i, n)| (i, n.to_owned())), note });
    }

    /// Says that pointers into tool `tool` of the translated catalog (relative to the tool,
    /// such as `/inputSchema/properties/id`) that start with `prefix` refer to `source` in the
    /// source document, the rest of the pointer following. The longest matching prefix wins.
    /// The empty prefix places the whole tool: a pointer no other place covers becomes
    /// `source` itself. Tools are to be placed in order.
    pub fn place(&mut self, tool: usize, prefix: &str, source: String) {
        self.places.push(Place { tool, prefix: prefix.to_owned(), source });
    }

    /// About how many bytes it keeps between imports: the translated document, which can be
    /// many times the source's size, and the lists beside it (their strings not counted).
    pub(crate) fn retained_bytes(&self) -> usize {
        self.document.capacity()
            + self.notes.capacity() * std::mem::size_of::<Noted>()
            + self.places.capacity() * std::mem::size_of::<Place>()
            + self.names.capacity() * std::mem::size_of::<(String, usize)>()
            + self.positions.capacity() * std::mem::size_of::<u32>()
    }

    pub(crate) fn clear(&mut self) {
        self.document.clear();
        self.notes.clear();
        self.places.clear();
        self.names.clear();
        self.positions.clear();
    }

    /// The places in the order [`Imported::source_pointer`] looks them up in: by tool, then
    /// prefix, then the order they were given in.
    fn place_order(&self) -> Vec<u32> {
        let mut order: Vec<u32> =
            (0..u32::try_from(self.places.len()).unwrap_or(u32::MAX)).collect();
        let key = |i: u32| self.places.get(i as usize).map(|p| (p.tool, p.prefix.as_str()));
        order.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)).then(a.cmp(&b)));
        order
    }

    /// `pointer`, relative to tool `tool` of the translated catalog, as a pointer into the
    /// source document; `None` when no place covers it. `order` is [`Imported::place_order`]:
    /// each prefix of the pointer that ends a step, longest first, is looked up in it, so an
    /// entry costs its pointer's steps times log n, however many places the tool has (a scan
    /// of them per entry was quadratic for a body of 100,000 properties).
    fn source_pointer(&self, order: &[u32], tool: usize, pointer: &str) -> Option<String> {
        let place = |i: u32| self.places.get(i as usize);
        let ends = pointer.match_indices('/').map(|(i, _)| i).chain([pointer.len()]);
        let cuts: smallvec::SmallVec<[usize; 16]> = ends.collect();
        let found = cuts.iter().rev().find_map(|&end| {
            let prefix = pointer.get(..end)?;
            // The last place given with this prefix, as the longest match among equals.
            let past = order.partition_point(|&i| {
                place(i).is_some_and(|p| (p.tool, p.prefix.as_str()) <= (tool, prefix))
            });
            let last = place(*order.get(past.checked_sub(1)?)?)?;
            (last.tool == tool && last.prefix == prefix).then_some(last)
        })?;
        if found.prefix.is_empty() {
            // The whole tool: a part the source has no counterpart for points at it.
            return Some(found.source.clone());
        }
        let rest = pointer.get(found.prefix.len()..).unwrap_or_default();
        Some(format!("{}{rest}", found.source))
    }

    /// The index of the lowered tool called `name`.
    fn tool_index(&self, name: &str) -> Option<usize> {
        let i = self.names.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok()?;
        self.names.get(i).map(|(_, index)| *index)
    }

    /// A lowering or pass error, with its pointer moved into the source document: the
    /// translated catalog's `/tools/<i>/…`, or a pointer relative to the named tool.
    pub(crate) fn remap_error(&self, e: ConversionError) -> ConversionError {
        let pointer = e.pointer();
        let moved = match pointer.strip_prefix("/tools/") {
            Some(rest) => {
                let (index, rel) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                index.parse().ok().and_then(|i| self.source_pointer(&self.place_order(), i, rel))
            }
            None => e
                .tool()
                .and_then(|name| self.tool_index(name))
                .and_then(|i| self.source_pointer(&self.place_order(), i, pointer)),
        };
        match moved {
            Some(p) => e.with_pointer(p),
            None => e,
        }
    }

    /// Moves the pointers of the conversion's entries (relative to the translated tools) into
    /// the source document, then adds the import's own entries, each before the entries of
    /// its tool.
    pub(crate) fn report(&self, report: &mut Report, from: &str, to: &str) {
        // From the pointer in the translated tool, which the entry keeps as its tool pointer.
        let order = self.place_order();
        report.for_each_mut(|entry| {
            if let Some(i) = self.tool_index(&entry.tool)
                && let Some(p) = self.source_pointer(&order, i, &entry.tool_pointer)
            {
                entry.pointer = p;
            }
        });
        for Noted { tool, note } in &self.notes {
            let at = tool.as_ref().and_then(|(i, _)| self.positions.get(*i)).copied();
            let name = tool.as_ref().map(|(_, n)| n.clone()).unwrap_or_default();
            // The import's own entries point into the source document only; `Report::finish`
            // keeps notes at one place in the order written.
            report.push(note.clone().entry(name, from, to, (at.unwrap_or(0), 0, 0)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Imported;

    /// The plain form of `source_pointer`: every place of the tool scanned, the longest
    /// matching prefix (the last given, among equals) wins.
    fn scanned(imported: &Imported, tool: usize, pointer: &str) -> Option<String> {
        let place = imported
            .places
            .iter()
            .filter(|p| p.tool == tool)
            .filter(|p| {
                pointer
                    .strip_prefix(p.prefix.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .max_by_key(|p| p.prefix.len())?;
        let rest = pointer.get(place.prefix.len()..).unwrap_or_default();
        Some(if place.prefix.is_empty() {
            place.source.clone()
        } else {
            format!("{}{rest}", place.source)
        })
    }

    #[test]
    fn places_are_found_as_a_scan_finds_them() {
        let mut imported = Imported::default();
        let prefixes = [
            "",
            "/inputSchema",
            "/inputSchema/properties/a",
            "/inputSchema/properties/ab",
            "/inputSchema/properties/a",
        ];
        for tool in 0..3 {
            for (i, prefix) in prefixes.iter().enumerate().skip(tool % 2) {
                imported.place(tool, prefix, format!("/paths/t{tool}/{i}"));
            }
        }
        let order = imported.place_order();
        let pointers = [
            "",
            "/inputSchema",
            "/inputSchema/properties",
            "/inputSchema/properties/a",
            "/inputSchema/properties/a/type",
            "/inputSchema/properties/ab/x",
            "/inputSchema/properties/abc",
            "/description",
            "inputSchema",
        ];
        for tool in 0..4 {
            for p in pointers {
                assert_eq!(
                    imported.source_pointer(&order, tool, p),
                    scanned(&imported, tool, p),
                    "{tool} {p}"
                );
            }
        }
    }
}
