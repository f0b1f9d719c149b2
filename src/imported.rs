//! What an importing format made of its source document: the translated document, report
//! entries about the source, and where each translated tool's parts came from, so the report
//! and errors point into the source document. It is the converter's bookkeeping beside the
//! adapter author's contract (`adapter.rs`), which re-exports it for [`crate::Adapter::import`].

use crate::error::ConversionError;
use crate::report::{Code, Effect, Report, ReportEntry, Severity};

/// What an importing format ([`Adapter::import`](crate::Adapter::import)) made of a source
/// document: the document translated into the format's own tool shape, report entries about
/// the source, and where the parts of each translated tool came from. A [`crate::Converter`]
/// keeps one and reuses its buffers.
#[derive(Debug, Default)]
pub struct Imported {
    /// The translated document.
    pub(crate) document: Vec<u8>,
    notes: Vec<Note>,
    /// Sorted by tool (tools are translated in order).
    places: Vec<Place>,
    /// The lowered tools' names (sorted, with their index) and tape positions, for ordering
    /// the notes and finding a report entry's tool.
    pub(crate) names: Vec<(String, usize)>,
    pub(crate) positions: Vec<u32>,
}

/// A report entry of the import, about tool `tool` (an index into the translated catalog)
/// or, when `None`, the whole document.
#[derive(Debug)]
struct Note {
    tool: Option<usize>,
    name: String,
    severity: Severity,
    code: Code,
    effect: Effect,
    arguments: bool,
    feature: String,
    pointer: String,
    message: String,
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
    /// `pointer` points into the source document. `effect` is what the import does to the
    /// calls the source accepts, and `arguments` whether the entry is about them at all (see
    /// [`ReportEntry::effect`] and [`ReportEntry::arguments`]); the severity follows the
    /// effect (`info` only for [`Effect::None`], checked in debug builds).
    #[allow(clippy::too_many_arguments, reason = "one entry's fields")]
    pub fn note(
        &mut self,
        tool: Option<(usize, &str)>,
        severity: Severity,
        code: Code,
        effect: Effect,
        arguments: bool,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        self.notes.push(Note {
            tool: tool.map(|(i, _)| i),
            name: tool.map(|(_, n)| n.to_owned()).unwrap_or_default(),
            severity,
            code,
            effect,
            arguments,
            feature: feature.to_owned(),
            pointer,
            message,
        });
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
            + self.notes.capacity() * std::mem::size_of::<Note>()
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

    /// `pointer`, relative to tool `tool` of the translated catalog, as a pointer into the
    /// source document; `None` when no place covers it.
    pub(crate) fn source_pointer(&self, tool: usize, pointer: &str) -> Option<String> {
        let from = self.places.partition_point(|p| p.tool < tool);
        let to = self.places.partition_point(|p| p.tool <= tool);
        let place = self
            .places
            .get(from..to)?
            .iter()
            .filter(|p| {
                pointer
                    .strip_prefix(p.prefix.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .max_by_key(|p| p.prefix.len())?;
        if place.prefix.is_empty() {
            // The whole tool: a part the source has no counterpart for points at it.
            return Some(place.source.clone());
        }
        let rest = pointer.get(place.prefix.len()..).unwrap_or_default();
        Some(format!("{}{rest}", place.source))
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
                index.parse().ok().and_then(|i| self.source_pointer(i, rel))
            }
            None => e
                .tool()
                .and_then(|name| self.tool_index(name))
                .and_then(|i| self.source_pointer(i, pointer)),
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
        report.for_each_mut(|entry| {
            if let Some(i) = self.tool_index(&entry.tool)
                && let Some(p) = self.source_pointer(i, &entry.tool_pointer)
            {
                entry.pointer = p;
            }
        });
        for n in &self.notes {
            let at = n.tool.and_then(|i| self.positions.get(i)).copied().unwrap_or(0);
            report.push(ReportEntry {
                tool: n.name.clone(),
                severity: n.severity,
                code: n.code,
                effect: n.effect,
                arguments: n.arguments,
                feature: n.feature.clone(),
                pointer: n.pointer.clone(),
                // The import's own entries point into the source document only.
                tool_pointer: n.pointer.clone(),
                output_pointer: None,
                from: from.to_owned(),
                to: to.to_owned(),
                message: n.message.clone(),
                // `Report::finish` keeps notes at one place in the order written.
                order: (at, 0, 0),
            });
        }
    }
}
