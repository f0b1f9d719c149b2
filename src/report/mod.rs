//! The conversion report: one entry per thing a conversion kept, changed or could not carry.
//!
//! The public model lives here: [`Severity`], [`Code`], [`ReportEntry`], [`Report`] and what a
//! caller asks of it. Entries are ordered by their place in the source (then by the pass that
//! wrote them), so the same input always gives the same report. An empty report allocates
//! nothing, and a warm converter records a report into the buffers of its last one: how the
//! entries are stored is [`store`]'s job, how they are put in order [`order`]'s, and how the
//! passes record them (texts that repeat written once) [`recorder`]'s.

mod code;
mod effect;
mod entry_kind;
mod links;
mod note;
mod order;
mod places;
mod recorder;
mod row;
mod store;
mod text;
mod view;

pub use code::Code;
pub use effect::{DenyLoss, Effect};
pub use entry_kind::EntryKind;
pub(crate) use note::{Note, OwnedNote};
pub(crate) use places::Places;
pub(crate) use recorder::{Recorder, Shared};
pub(crate) use store::{Text, TextSpan, Texts};
pub(crate) use text::PathPointer;
pub use view::{EntryRef, ReportText};

use std::fmt;
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use links::Link;
use store::{Last, Row, Span};
/// How much an entry matters. It follows the entry's [`Effect`]: `info` only where the same
/// calls are accepted ([`Effect::None`]); at least `warning` where they are not; `error` where
/// the tool is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The same calls are accepted: a rewrite into an equivalent form, an annotation dropped,
    /// or metadata the target has no place for (`arguments: false`).
    Info,
    /// What the tool accepts changed (effect `narrows`, `widens` or `changes`), or something
    /// the caller relies on beyond the schema is not carried (a `strict` guarantee, a field
    /// an owned-type bridge cannot hold).
    Warning,
    /// The tool could not be converted, or the provider would refuse it; it is left out of
    /// the output (effect `narrows`: every call of the tool is refused).
    Error,
}

crate::named::named!(Severity, "severity", display);

impl Severity {
    /// Every severity, least first.
    pub const ALL: [Severity; 3] = [Severity::Info, Severity::Warning, Severity::Error];

    /// The severity's name (`info`, `warning`, `error`), as reports spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One report entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportEntry {
    /// The tool's name (empty for catalog-level entries).
    pub tool: String,
    /// How much it matters.
    pub severity: Severity,
    /// Stable code.
    pub code: Code,
    /// What the change does to the calls the tool accepts.
    #[serde(default)]
    pub effect: Effect,
    /// Whether the entry is about the tool's arguments (its input schema, or the tool as a
    /// whole when it is left out); `false` for metadata no argument depends on (annotations,
    /// icons, the title, the output schema, the `strict` flag, a tool name the inverse map
    /// restores), whose effect is always [`Effect::None`].
    #[serde(default = "about_arguments")]
    pub arguments: bool,
    /// The keyword or metadata member concerned (e.g. `format`, `annotations`).
    pub feature: String,
    /// RFC 6901 pointer to the place the entry is about in the input document, as the
    /// source wrote it: `/tools/3/inputSchema/properties/a~1b/format` for the fourth tool of an
    /// MCP catalog, `/3/…` in a bare array, `/result/tools/3/…` in a JSON-RPC response, the
    /// tool's own pointer ([`ReportEntry::tool_pointer`]) for a single tool, and a place in the
    /// source document for an importing format (an OpenAPI operation's parameter). After a
    /// rewrite it still names the source's place (the `oneOf` a rewrite made an `anyOf`);
    /// [`ReportEntry::output_pointer`] says where that went. An entry about the catalog as a
    /// whole points at the catalog's member (`/nextCursor`).
    pub pointer: String,
    /// The same place relative to the tool's own object (`/inputSchema/properties/a~1b/format`),
    /// whatever the tool's place in its document: [`ReportEntry::pointer`] without the tool's
    /// place in front. The same as `pointer` for a single tool and for an entry about the
    /// catalog as a whole (or made outside a conversion: a bridge's, an owned tool's). For an
    /// importing format, the place in the tool as the import translated it (an OpenAPI
    /// operation as an MCP tool), and the import's own entries the source document's place.
    #[serde(default)]
    pub tool_pointer: String,
    /// Where the place went in the converted schema, when the source has no such place: a
    /// rewrite moved it (`/inputSchema/anyOf/0/additionalProperties` where the source has
    /// `oneOf/0`), or the conversion added it (`/inputSchema/required`, `/inputSchema/type`,
    /// while `pointer` names the node or tool it was added to). Relative to the tool as the
    /// source shapes it (its input schema's member, `/inputSchema` for MCP, even when the
    /// target calls it `parameters`). `None` where the source's path is the output's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_pointer: Option<String>,
    /// Source format.
    pub from: String,
    /// Target format.
    pub to: String,
    /// What happened, for people.
    pub message: String,
    /// Sort key: source position of the tool, of the place, then the pass sequence.
    #[serde(skip)]
    pub(crate) order: (u32, u32, u32),
}

/// [`ReportEntry::arguments`] of an entry that does not say (a report written before it).
fn about_arguments() -> bool {
    true
}

impl ReportEntry {
    /// An entry of `kind` (its severity, code, effect and whether it is about the
    /// arguments), its texts empty: the crate builds every whole entry from one, so no entry
    /// picks its severity by hand.
    pub(crate) fn of(kind: EntryKind) -> ReportEntry {
        ReportEntry {
            tool: String::new(),
            severity: kind.severity,
            code: kind.code,
            effect: kind.effect,
            arguments: kind.arguments,
            feature: String::new(),
            pointer: String::new(),
            tool_pointer: String::new(),
            output_pointer: None,
            from: String::new(),
            to: String::new(),
            message: String::new(),
            order: (0, 0, 0),
        }
    }

    /// The effect as the text report shows it: the [`Effect`], or `metadata` for an entry
    /// that is not about the arguments.
    pub fn effect_label(&self) -> &'static str {
        if self.arguments { self.effect.as_str() } else { "metadata" }
    }
}

/// `warning[narrows]: [object-closed] tool "t" at "/inputSchema": …` (`[metadata]` for an
/// entry that is not about the arguments).
impl fmt::Display for ReportEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = view::Line {
            severity: self.severity,
            effect: self.effect_label(),
            code: self.code,
            tool: &self.tool,
            pointer: &self.pointer,
            message: &self.message,
        };
        line.fmt(f)
    }
}

/// A feature lost in a conversion (the entries of a report at warning or error severity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureLossWarning {
    /// The tool it was lost from.
    pub tool: String,
    /// The keyword or member lost.
    pub feature: String,
    /// What losing it does to the calls the tool accepts ([`ReportEntry::effect`]).
    pub effect: Effect,
    /// Whether it was about the arguments ([`ReportEntry::arguments`]).
    pub arguments: bool,
    /// RFC 6901 pointer to where it was in the source tool, relative to the tool
    /// ([`ReportEntry::tool_pointer`]).
    pub path: String,
    /// Source format.
    pub from: String,
    /// Target format.
    pub to: String,
}

impl fmt::Display for FeatureLossWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As the Go toolfoundation library's `FeatureLossWarning.String()` prints it, then
        // the tool, which a catalog's warnings need to be told apart (the effect is in the
        // fields).
        write!(
            f,
            "feature {} lost converting from {} to {} at {} in tool {:?}",
            self.feature, self.from, self.to, self.path, self.tool
        )
    }
}

/// Everything a conversion recorded, in source order.
///
/// Entries are recorded as rows over one text buffer (no string per field, nothing moved
/// but a small row), and the public [`ReportEntry`] list is made on the first call that
/// needs it ([`Report::entries`], iteration, comparison, printing), into the entries and
/// string buffers of the last list made, so a warm converter allocates for neither.
#[derive(Default)]
pub struct Report {
    rows: Vec<Row>,
    /// Every field of every row.
    text: Texts,
    /// What only a report with entries needs, boxed so the report stays small (it travels
    /// in errors) and made at the first entry sorted or read.
    more: OnceLock<Box<More>>,
}

#[derive(Default)]
struct More {
    /// The entries, made from the rows on first use; past the rows' count are spares.
    made: OnceLock<Vec<ReportEntry>>,
    /// The last list made, kept with its strings' buffers for the next one (gateways
    /// convert similar catalogs over and over). Never visible: not compared, cloned or
    /// printed. Behind a lock only because the list is made through `&self`; never contended.
    spare: Mutex<Vec<ReportEntry>>,
    /// Each tool of the converted document: its source position (what an entry's order
    /// starts with) and its place among the document's tools, by position. What
    /// [`Report::tool_index`] reads; kept between conversions, like the rows.
    tools: Vec<(u32, u32)>,
    /// The place in the input document of each tool that has entries (`/tools/3`), by source
    /// position: what [`ReportEntry::pointer`] puts in front of the pointer in the tool. Made
    /// by [`Report::locate`]; kept between conversions, like the rows.
    places: Vec<(u32, Span)>,
    /// The text of [`More::places`].
    place_text: Texts,
    /// The rows' pointers, as links over the text ([`links`]).
    links: Vec<Link>,
    /// The rows' format names, each pair once.
    formats: Vec<[Span; 2]>,
    /// What few rows have beyond the others' fields ([`store::Extra`]).
    extras: Vec<store::Extra>,
    /// What the next row may share with the rows before it.
    last: Last,
    /// The text of [`Last::link`], whole: what the next pointer is compared with.
    last_text: String,
    /// When [`More::last_text`] was written from a walk's path: its steps, root first, each
    /// with where it ends in that text ([`links::Step`]); empty otherwise.
    last_steps: Vec<links::Step>,
    /// The bytes past [`links::LONG`] of every pointer linked, summed: what a JSON report
    /// would print beyond its usual lines, and what placing the entries reads. Held to a
    /// limit by the recorder ([`Recorder::long_pointers`]), so a long key above many
    /// entries is an error rather than work that grows as its square.
    long: usize,
    /// Whether a recording passed the report's budget ([`Recorder::budget`]) and left
    /// entries out: the conversion fails with [`crate::ErrorKind::ReportTooLarge`].
    over: bool,
    /// Where a pointer is written whole, to be read (placing the entries).
    scratch: String,
}

impl Clone for Report {
    fn clone(&self) -> Report {
        let more = OnceLock::new();
        if let Some(m) = self.more.get() {
            // The list made from the rows is made again when asked for.
            let copy = More {
                tools: m.tools.clone(),
                places: m.places.clone(),
                place_text: m.place_text.clone(),
                links: m.links.clone(),
                formats: m.formats.clone(),
                extras: m.extras.clone(),
                over: m.over,
                ..More::default()
            };
            let _ = more.set(Box::new(copy));
        }
        Report { rows: self.rows.clone(), text: self.text.clone(), more }
    }
}

impl PartialEq for Report {
    fn eq(&self, other: &Report) -> bool {
        self.entries() == other.entries()
    }
}

impl Eq for Report {}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Report").field("entries", &self.entries()).finish()
    }
}

impl Report {
    /// The entries, in source order.
    pub fn entries(&self) -> &[ReportEntry] {
        if self.rows.is_empty() {
            return &[];
        }
        let more = self.more.get_or_init(Box::default);
        let made = more.made.get_or_init(|| self.make(&more.spare));
        made.get(..self.rows.len()).unwrap_or_default()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The highest severity recorded, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.rows.iter().map(|r| r.kind().severity).max()
    }

    /// Whether an entry is a loss `rule` denies ([`DenyLoss::denies`]). Reads the rows: no
    /// list is made.
    pub fn denied(&self, rule: DenyLoss) -> bool {
        self.rows.iter().any(|r| {
            let kind = r.kind();
            rule.denies_parts(kind.severity, kind.code, kind.effect, self.str(r.feature))
        })
    }

    /// Whether any entry is a warning or an error: meaning or metadata was lost.
    pub fn lost_meaning(&self) -> bool {
        self.max_severity() >= Some(Severity::Warning)
    }

    /// The entries that lost something, as [`FeatureLossWarning`]s.
    pub fn warnings(&self) -> Vec<FeatureLossWarning> {
        self.rows
            .iter()
            .filter(|r| r.kind().severity >= Severity::Warning)
            .map(|r| {
                let [from, to] = self.format_names(r.formats);
                let mut path = String::new();
                self.write_pointer(r.pointer, &mut path);
                FeatureLossWarning {
                    tool: self.str(r.tool).to_owned(),
                    feature: self.str(r.feature).to_owned(),
                    effect: r.kind().effect,
                    arguments: r.kind().arguments,
                    path,
                    from: from.to_owned(),
                    to: to.to_owned(),
                }
            })
            .collect()
    }

    /// The message of the first error entry (why a tool was left out), else of the first
    /// entry: the first recorded before [`Report::finish`], the first in order after.
    pub(crate) fn first_message(&self) -> Option<String> {
        self.first_row().map(|r| {
            let [head, tail] = r.message;
            [self.str(head), self.str(tail)].concat()
        })
    }

    /// The pointer (in the tool) of the entry [`Report::first_message`] reads.
    pub(crate) fn first_pointer(&self) -> Option<String> {
        self.first_row().map(|r| {
            let mut pointer = String::new();
            self.write_pointer(r.pointer, &mut pointer);
            pointer
        })
    }

    /// Whether a recording passed the report's budget and left entries out
    /// ([`Recorder::budget`]).
    pub(crate) fn over_budget(&self) -> bool {
        self.more.get().is_some_and(|more| more.over)
    }

    /// Says that a recording passed the budget (see [`Report::over_budget`]).
    fn set_over_budget(&mut self) {
        if self.more.get().is_none() {
            let _ = self.more.set(Box::default());
        }
        if let Some(more) = self.more.get_mut() {
            more.over = true;
        }
    }

    fn first_row(&self) -> Option<&Row> {
        // The first error says why a tool was left out; other entries only if there is none.
        // Rows are in the order recorded until the report is finished, in source order after.
        let mut errors = self.rows.iter().filter(|r| r.kind().severity == Severity::Error);
        errors.next().or(self.rows.first())
    }

    /// The place of `entry`'s tool among the tools of the document it was converted from
    /// (0-based, in document order, the tools left out counted; 0 for a single tool), so an
    /// entry can be traced to `/tools/<index>` of a catalog whatever the tool's name. `None`
    /// for an entry about the catalog as a whole, or one this report did not record.
    pub fn tool_index(&self, entry: &ReportEntry) -> Option<usize> {
        self.index_of_tool(entry.order.0)
    }

    /// The place among the document's tools of the tool at source position `at`.
    fn index_of_tool(&self, at: u32) -> Option<usize> {
        let tools = self.tools();
        let i = tools.binary_search_by_key(&at, |(t, _)| *t).ok()?;
        tools.get(i).map(|(_, index)| *index as usize)
    }

    /// [`More::tools`] (none before the first tool is added).
    fn tools(&self) -> &[(u32, u32)] {
        self.more.get().map_or(&[], |more| &more.tools)
    }

    /// How many tools the document held ([`Report::tool_index`] numbers them).
    pub(crate) fn tools_len(&self) -> usize {
        self.tools().len()
    }

    /// The source position of the tool at `index` among the document's tools.
    pub(crate) fn tool_at(&self, index: u32) -> Option<u32> {
        self.tools().iter().find(|(_, i)| *i == index).map(|(at, _)| *at)
    }

    /// Records where the document's tools are (see [`Report::tool_index`]): `(source
    /// position, place)` pairs, in any order; a tool recorded before counts once (one the
    /// passes leave out after it was read is added again with its error entry). The first
    /// call of a report boxes [`More`], which the report keeps from then on.
    pub(crate) fn add_tools(&mut self, tools: impl IntoIterator<Item = (u32, u32)>) {
        let mut tools = tools.into_iter().peekable();
        if tools.peek().is_none() {
            return;
        }
        if self.more.get().is_none() {
            let _ = self.more.set(Box::default());
        }
        let Some(more) = self.more.get_mut() else { return };
        let before = more.tools.len();
        more.tools.extend(tools);
        let added = more.tools.get(before.saturating_sub(1)..).unwrap_or_default();
        // Tools are read in document order: a sort is needed only when left-out ones are added.
        if !added.windows(2).all(|w| w.first() < w.get(1)) {
            more.tools.sort_unstable();
            more.tools.dedup();
        }
    }

    pub(crate) fn clear(&mut self) {
        self.keep_list_as_spares();
        if let Some(more) = self.more.get_mut() {
            more.tools.clear();
            more.places.clear();
            more.place_text.clear();
            more.links.clear();
            more.formats.clear();
            more.extras.clear();
            more.last = Last::default();
            more.last_text.clear();
            more.last_steps.clear();
            more.long = 0;
            more.over = false;
        }
        self.rows.clear();
        self.text.clear();
    }

    pub(crate) fn extend(&mut self, entries: impl IntoIterator<Item = ReportEntry>) {
        for e in entries {
            self.push(e);
        }
    }

    /// Lets `f` edit every entry (rare: the OpenAPI import moves pointers), then records
    /// the edited entries again.
    pub(crate) fn for_each_mut(&mut self, f: impl FnMut(&mut ReportEntry)) {
        let mut list = self.entries().to_vec();
        list.iter_mut().for_each(f);
        self.clear();
        self.extend(list);
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.rows.len() {
            self.keep_list_as_spares();
            self.rows.truncate(len);
        }
    }
}

impl<'r> IntoIterator for &'r Report {
    type Item = &'r ReportEntry;
    type IntoIter = std::slice::Iter<'r, ReportEntry>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries().iter()
    }
}

#[cfg(test)]
mod tests;
