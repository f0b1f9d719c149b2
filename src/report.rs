//! The conversion report: one entry per thing a conversion kept, changed or could not carry.
//!
//! Entries are ordered by their place in the source (then by the pass that wrote them), so the
//! same input always gives the same report. An empty report allocates nothing, and a warm
//! converter records a report into the buffers of its last one (see [`Report`]).

use std::fmt;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::{Deserialize, Serialize};

/// How much an entry matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Meaning kept (a rewrite that accepts exactly the same arguments, a non-semantic drop).
    Info,
    /// What the schema accepts changed, a constraint moved into prose, or metadata was dropped.
    Warning,
    /// The tool could not be converted; it is left out of the output.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// Stable machine-readable entry codes. New codes are added; existing ones never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Code {
    /// A schema keyword the target does not hold was dropped.
    KeywordDropped,
    /// Envelope metadata (MCP `annotations`, Anthropic `cache_control`, …) the target cannot hold.
    MetadataDropped,
    /// The output schema (MCP `outputSchema`) has no place in the target.
    OutputSchemaDropped,
    /// The input schema has no place in the target (an A2A skill takes its input as
    /// messages): the tool's arguments are no longer described.
    InputSchemaDropped,
    /// The target requires an input schema the source did not give; an empty object schema
    /// was written.
    InputSchemaAdded,
    /// A member of the catalog wrapper (e.g. `nextCursor`) has no place in the target.
    CatalogMemberDropped,
    /// A tool that is not a function tool (a provider's built-in tool) cannot be converted.
    NotAFunctionTool,
    /// The input schema root was given `"type": "object"` (same arguments accepted).
    RootTypeSet,
    /// The input schema root does not accept an object; the target requires one.
    RootNotObject,
    /// An older JSON Schema form was written in its 2020-12 equivalent (same meaning).
    DialectRewritten,
    /// A keyword the target does not hold was dropped and written into the description.
    KeywordDescribed,
    /// A keyword the caller's policy rejects: the tool is left out.
    KeywordRejected,
    /// A combinator or `const` was rewritten into a form the target holds.
    CombinatorRewritten,
    /// `allOf` could not be merged into one schema for a target without `allOf`.
    AllOfNotMerged,
    /// A `$ref` was inlined (or its siblings moved) for a target without refs.
    RefInlined,
    /// A recursive `$ref` cannot be inlined; the innermost use accepts anything.
    RefRecursive,
    /// A `$ref` that does not resolve in the document.
    RefDangling,
    /// A `$ref` to another document: never fetched.
    RefExternal,
    /// A type array or a nullable type written in the target's form.
    TypeRewritten,
    /// A boolean schema written as an object schema.
    BooleanSchemaRewritten,
    /// A tool name the target's rule rejects (or one that clashes in the catalog) was
    /// rewritten; the inverse map restores it.
    ToolRenamed,
    /// A property key the target's key rule rejects was rewritten; the inverse map restores it.
    KeyRenamed,
    /// Strict mode made optional properties required and nullable; the inverse map drops the
    /// nulls the model sends for them.
    StrictWidened,
    /// Strict mode closed objects that admitted undeclared keys (`additionalProperties: false`).
    ObjectClosed,
    /// A tool asked to be strict cannot be without changing what it accepts (or would break a
    /// per-request limit); it is written with `strict: false`.
    StrictFallback,
    /// A tool required to be strict cannot be; it is left out.
    StrictImpossible,
    /// The provider would reject the tool (or the request) as written: a name, the root, a
    /// strict rule or a size limit.
    WouldBeRejected,
    /// How an imported argument travels (OpenAPI `style`, `explode`, `allowReserved`, a
    /// cookie, a `content` media type) has no place in a tool definition.
    ParameterStyle,
    /// An imported request body is not JSON (`multipart/form-data`, a form, …): its schema
    /// describes the arguments, but not how they are encoded; or other media types were
    /// left aside.
    BodyNotJson,
    /// Something the import does not turn into a tool (a callback, a webhook, a path item it
    /// cannot reach), or an import that found no operation.
    OperationSkipped,
    /// An imported parameter left out (a header the OpenAPI specification says to ignore, a
    /// reference that does not resolve).
    ParameterSkipped,
    /// Two imported operations or two arguments of one operation would have had the same
    /// name; the later one was given another.
    NameClash,
}

impl Code {
    /// The code as printed, e.g. `keyword-dropped`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::KeywordDropped => "keyword-dropped",
            Code::MetadataDropped => "metadata-dropped",
            Code::OutputSchemaDropped => "output-schema-dropped",
            Code::InputSchemaDropped => "input-schema-dropped",
            Code::InputSchemaAdded => "input-schema-added",
            Code::CatalogMemberDropped => "catalog-member-dropped",
            Code::NotAFunctionTool => "not-a-function-tool",
            Code::RootTypeSet => "root-type-set",
            Code::RootNotObject => "root-not-object",
            Code::DialectRewritten => "dialect-rewritten",
            Code::KeywordDescribed => "keyword-described",
            Code::KeywordRejected => "keyword-rejected",
            Code::CombinatorRewritten => "combinator-rewritten",
            Code::AllOfNotMerged => "all-of-not-merged",
            Code::RefInlined => "ref-inlined",
            Code::RefRecursive => "ref-recursive",
            Code::RefDangling => "ref-dangling",
            Code::RefExternal => "ref-external",
            Code::TypeRewritten => "type-rewritten",
            Code::BooleanSchemaRewritten => "boolean-schema-rewritten",
            Code::ToolRenamed => "tool-renamed",
            Code::KeyRenamed => "key-renamed",
            Code::StrictWidened => "strict-widened",
            Code::ObjectClosed => "object-closed",
            Code::StrictFallback => "strict-fallback",
            Code::StrictImpossible => "strict-impossible",
            Code::WouldBeRejected => "would-be-rejected",
            Code::ParameterStyle => "parameter-style",
            Code::BodyNotJson => "body-not-json",
            Code::OperationSkipped => "operation-skipped",
            Code::ParameterSkipped => "parameter-skipped",
            Code::NameClash => "name-clash",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
    /// The keyword or metadata member concerned (e.g. `format`, `annotations`).
    pub feature: String,
    /// RFC 6901 pointer to the place in the source tool (`/inputSchema/properties/a~1b/format`).
    pub pointer: String,
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

impl fmt::Display for ReportEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: [{}] ", self.severity, self.code)?;
        if !self.tool.is_empty() {
            write!(f, "tool {:?} ", self.tool)?;
        }
        write!(f, "at {:?}: {}", self.pointer, self.message)
    }
}

/// A feature lost in a conversion (the entries of a report at warning or error severity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureLossWarning {
    /// The keyword or member lost.
    pub feature: String,
    /// RFC 6901 pointer to where it was in the source tool.
    pub path: String,
    /// Source format.
    pub from: String,
    /// Target format.
    pub to: String,
}

impl fmt::Display for FeatureLossWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "feature {} lost converting from {} to {} at {}",
            self.feature, self.from, self.to, self.path
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
    /// Sort scratch, kept.
    keys: Vec<u128>,
    sorted: Vec<Row>,
    /// How many rows the report had when it was last finished: those are in order, each at
    /// its place in the recording from then on (the rows after it were recorded since).
    finished: usize,
}

/// Strings kept back to back in one buffer, each known by its [`Span`]: recording one copies
/// its bytes and nothing else, so a buffer kept from one conversion to the next records
/// without allocating (the report's rows and the recorded inverse map both live on one).
#[derive(Clone, Default)]
pub(crate) struct Texts(String);

/// Where a string lies in its [`Texts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    start: usize,
    end: usize,
}

impl Texts {
    /// Appends `text` and returns where it lies. In line: each entry writes four texts, and
    /// a call for each cost more than the copy of a short one.
    #[inline]
    pub(crate) fn push(&mut self, text: impl Text) -> Span {
        if let Some(span) = text.written() {
            return span;
        }
        let start = self.0.len();
        text.write_into(&mut self.0);
        Span { start, end: self.0.len() }
    }

    /// The string at `span` (empty for a span of another buffer's).
    pub(crate) fn get(&self, span: Span) -> &str {
        self.0.get(span.start..span.end).unwrap_or_default()
    }

    /// Forgets every string, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

/// The source and target format names in a report's text (see [`Report::formats`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Formats {
    from: Span,
    to: Span,
}

/// A recorded entry: [`ReportEntry`] with its text in the report's buffer.
#[derive(Clone, Copy, Debug)]
struct Row {
    severity: Severity,
    code: Code,
    order: (u32, u32, u32),
    tool: Span,
    feature: Span,
    pointer: Span,
    from: Span,
    to: Span,
    message: Span,
}

impl Clone for Report {
    fn clone(&self) -> Report {
        let more = OnceLock::new();
        // What was finished in the original is so in the copy.
        let finished = self.finished();
        if finished > 0 {
            let _ = more.set(Box::new(More { finished, ..More::default() }));
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

/// What a report entry's text field is written from: written straight into the report's
/// text buffer, so recording an entry builds no string first.
pub(crate) trait Text {
    /// Appends the text to `out`.
    fn write_into(self, out: &mut String);

    /// Where the text lies in the buffer already, when it was written there before: nothing
    /// is written again.
    fn written(&self) -> Option<Span> {
        None
    }
}

/// Text written in the report before (its [`Span`], as [`Report::record_in`] returned it), or
/// text to write: entries that say the same thing (one note about many tools) share one copy.
pub(crate) enum Reuse<T> {
    Written(Span),
    New(T),
}

impl<T: Text> Text for Reuse<T> {
    fn write_into(self, out: &mut String) {
        // `Written` text is not written: `Texts::push` takes its span as it is.
        if let Reuse::New(text) = self {
            text.write_into(out);
        }
    }

    fn written(&self) -> Option<Span> {
        match self {
            Reuse::Written(span) => Some(*span),
            Reuse::New(_) => None,
        }
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

/// Text written by a function (a pointer built from a path, say).
pub(crate) struct With<F>(pub F);

impl<F: FnOnce(&mut String)> Text for With<F> {
    fn write_into(self, out: &mut String) {
        (self.0)(out);
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
        self.rows.iter().map(|r| r.severity).max()
    }

    /// Whether any entry is a warning or an error: meaning or metadata was lost.
    pub fn lost_meaning(&self) -> bool {
        self.max_severity() >= Some(Severity::Warning)
    }

    /// The entries that lost something, as [`FeatureLossWarning`]s.
    pub fn warnings(&self) -> Vec<FeatureLossWarning> {
        self.rows
            .iter()
            .filter(|r| r.severity >= Severity::Warning)
            .map(|r| FeatureLossWarning {
                feature: self.str(r.feature).to_owned(),
                path: self.str(r.pointer).to_owned(),
                from: self.str(r.from).to_owned(),
                to: self.str(r.to).to_owned(),
            })
            .collect()
    }

    /// The message of the first entry, without making the list: the first recorded until
    /// [`Report::finish`] (rows may be recorded in source order rather than at the end, see
    /// [`Report::record_in`]; the last part of a row's order is its place in the recording),
    /// the first in order after.
    pub(crate) fn first_message(&self) -> Option<&str> {
        let first = if self.finished() > 0 {
            self.rows.first()
        } else {
            self.rows.iter().min_by_key(|r| r.order.2)
        };
        first.map(|r| self.str(r.message))
    }

    /// [`More::finished`] (none where nothing was ever finished).
    fn finished(&self) -> usize {
        self.more.get().map_or(0, |more| more.finished)
    }

    fn set_finished(&mut self, len: usize) {
        if let Some(more) = self.more.get_mut() {
            more.finished = len;
        }
    }

    fn str(&self, span: Span) -> &str {
        self.text.get(span)
    }

    /// The text at `span` (one [`Report::record_in`] returned), for a check that a
    /// shared text is the one it stands for.
    #[cfg(debug_assertions)]
    pub(crate) fn text_at(&self, span: Span) -> &str {
        self.str(span)
    }

    /// The list made from the rows, in the last list's entries where there are some.
    fn make(&self, spare: &Mutex<Vec<ReportEntry>>) -> Vec<ReportEntry> {
        let mut list = std::mem::take(&mut *spare.lock().unwrap_or_else(PoisonError::into_inner));
        for (i, row) in self.rows.iter().enumerate() {
            let fill = |e: &mut ReportEntry| {
                e.severity = row.severity;
                e.code = row.code;
                e.order = row.order;
                for (out, span) in [
                    (&mut e.tool, row.tool),
                    (&mut e.feature, row.feature),
                    (&mut e.pointer, row.pointer),
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
                        feature: String::new(),
                        pointer: String::new(),
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
    fn unmake(&mut self) {
        if self.more.get().is_some_and(|more| more.made.get().is_some()) {
            self.unmake_list();
        }
    }

    #[cold]
    fn unmake_list(&mut self) {
        if let Some(more) = self.more.get_mut()
            && let Some(list) = more.made.take()
        {
            let spare = more.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
            if list.len() >= spare.len() {
                *spare = list;
            }
        }
    }

    fn span(&mut self, text: impl Text) -> Span {
        self.text.push(text)
    }

    pub(crate) fn clear(&mut self) {
        self.unmake();
        self.rows.clear();
        self.text.clear();
        self.set_finished(0);
    }

    pub(crate) fn push(&mut self, entry: ReportEntry) {
        let ReportEntry { tool, severity, code, feature, pointer, from, to, message, order } =
            entry;
        self.record(
            severity,
            code,
            order,
            [tool.as_str(), feature.as_str(), from.as_str(), to.as_str()],
            pointer.as_str(),
            message.as_str(),
        );
    }

    /// Appends an entry: its tool, feature, source and target format as text, its pointer
    /// and message as whatever writes them (no string is built first).
    pub(crate) fn record(
        &mut self,
        severity: Severity,
        code: Code,
        order: (u32, u32, u32),
        [tool, feature, from, to]: [&str; 4],
        pointer: impl Text,
        message: impl Text,
    ) {
        let formats = self.formats(from, to);
        let names = [tool, feature];
        self.record_in(severity, code, order, names, formats, pointer, message, usize::MAX);
    }

    /// Writes the two format names for [`Report::record_in`]: a run of entries between the
    /// same formats (a conversion's) shares one copy.
    pub(crate) fn formats(&mut self, from: &str, to: &str) -> Formats {
        Formats { from: self.span(from), to: self.span(to) }
    }

    /// [`Report::record`] with the format names written before, by [`Report::formats`] on
    /// this report since it was last cleared. Returns where the pointer and the message lie
    /// in the report's text, for later entries that repeat them ([`Reuse`]).
    ///
    /// The row goes in source order (after the rows at the same place) among the rows from
    /// `floor` on, rather than last: the passes write a tool's entries in their own order
    /// (the strict pass's after the policy's, at places before them), and a report left in
    /// order is not sorted by [`Report::finish`]. The rows before `floor` are never moved
    /// (a caller that truncates back to a length puts its floor there). The order
    /// [`Report::finish`] makes is the same either way: it sorts by place, and rows at one
    /// place keep the order they were written in.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_in(
        &mut self,
        severity: Severity,
        code: Code,
        order: (u32, u32, u32),
        [tool, feature]: [&str; 2],
        Formats { from, to }: Formats,
        pointer: impl Text,
        message: impl Text,
        floor: usize,
    ) -> (Span, Span) {
        self.unmake();
        let tool = self.span(tool);
        let feature = self.span(feature);
        let pointer = self.span(pointer);
        let message = self.span(message);
        // Until `finish`, the last part of the order is the row's place in the recording.
        let len = self.rows.len();
        let order = (order.0, order.1, u32::try_from(len).unwrap_or(u32::MAX));
        let row = Row { severity, code, order, tool, feature, pointer, from, to, message };
        let place = (order.0, order.1);
        let before = |r: Option<&Row>| r.is_some_and(|r| (r.order.0, r.order.1) > place);
        if floor >= len || !before(self.rows.last()) {
            self.rows.push(row);
            return (pointer, message);
        }
        let mut at = len - 1;
        while at > floor && before(self.rows.get(at - 1)) {
            at -= 1;
        }
        self.rows.insert(at, row);
        (pointer, message)
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
            self.unmake();
            self.rows.truncate(len);
            let finished = self.finished().min(len);
            self.set_finished(finished);
        }
    }

    pub(crate) fn finish(&mut self) {
        self.unmake();
        // Entries at one place keep the order they were written in: the last part of the key
        // is the position of writing, recorded with the row (those finished before were
        // written before, in the order they are in now). The sort moves small keys, not rows;
        // the rows are then copied once into their order.
        if self.rows.is_empty() {
            self.set_finished(0);
            return;
        }
        if self.more.get().is_none() {
            let _ = self.more.set(Box::default());
        }
        let Some(more) = self.more.get_mut() else { return };
        let finished = std::mem::replace(&mut more.finished, self.rows.len());
        let mut sorted = true;
        let mut last = (0, 0, 0);
        for (i, r) in self.rows.iter_mut().enumerate() {
            if i < finished {
                r.order.2 = u32::try_from(i).unwrap_or(u32::MAX);
            }
            sorted &= r.order >= last;
            last = r.order;
        }
        if sorted {
            return;
        }
        more.keys.clear();
        // One integer: tool, place, position of writing, and the row's position now (distinct
        // keys), most significant first.
        more.keys.extend(self.rows.iter().enumerate().map(|(i, r)| {
            let (tool, at, written) = r.order;
            let now = u32::try_from(i).unwrap_or(u32::MAX);
            (u128::from(tool) << 96)
                | (u128::from(at) << 64)
                | (u128::from(written) << 32)
                | u128::from(now)
        }));
        sort_keys(&mut more.keys);
        more.sorted.clear();
        more.sorted.reserve(self.rows.len());
        for &k in &more.keys {
            // The low 32 bits of a key are the row's position.
            if let Some(row) = self.rows.get(k as u32 as usize) {
                more.sorted.push(*row);
            }
        }
        std::mem::swap(&mut self.rows, &mut more.sorted);
    }
}

/// Sorts distinct keys. A report is nearly in order (tool by tool; within a tool, a run per
/// pass), so an insertion sort does little work; past a budget of moves (a report in no
/// useful order), the general sort finishes the job. The keys being distinct, both give the
/// same order.
fn sort_keys(keys: &mut [u128]) {
    let mut budget = keys.len().saturating_mul(4);
    for i in 1..keys.len() {
        let mut j = i;
        while j > 0 && keys.get(j - 1) > keys.get(j) {
            keys.swap(j - 1, j);
            j -= 1;
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => {
                    keys.sort_unstable();
                    return;
                }
            };
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
mod tests {
    use super::*;

    /// A report travels inside errors (`BridgeError`): what only a report with entries needs
    /// is boxed.
    #[test]
    fn a_report_stays_small() {
        assert!(std::mem::size_of::<Report>() <= 64, "{}", std::mem::size_of::<Report>());
    }

    #[test]
    fn keys_sort_as_the_general_sort_sorts_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [0_u32, 1, 2, 7, 40, 300, 5000] {
            let ascending: Vec<u128> = (0..n).map(u128::from).collect();
            let descending: Vec<u128> = ascending.iter().rev().copied().collect();
            let random: Vec<u128> =
                (0..n).map(|i| u128::from(next() % 97) << 32 | u128::from(i)).collect();
            // Nearly in order, with a few late keys that belong at the start (catalog entries).
            let mut late = ascending.iter().map(|k| k + 10).collect::<Vec<_>>();
            late.extend([3, 1, 2].into_iter().take(n as usize));
            for keys in [ascending.clone(), descending, random, late] {
                let mut expected = keys.clone();
                expected.sort_unstable();
                let mut got = keys;
                sort_keys(&mut got);
                assert_eq!(got, expected);
            }
        }
    }

    /// Rows recorded in source order from a floor on give the report rows recorded last
    /// give: the same entries, in the same order, once finished; the first recorded is still
    /// the first message until then, and a truncation back to the floor takes out only what
    /// was recorded after it.
    #[test]
    fn rows_kept_in_order_finish_as_rows_recorded_last() {
        let places = [(1, 50), (2, 9), (2, 30), (2, 4), (2, 30), (2, 2), (3, 1), (2, 30), (0, 7)];
        let record = |report: &mut Report, floor: usize, (i, (tool, at)): (usize, (u32, u32))| {
            let formats = report.formats("mcp", "openai");
            let message = format!("entry {i}");
            let names = [["a", "b", "c", "d"][tool as usize], "format"];
            report.record_in(
                Severity::Info,
                Code::KeywordDropped,
                (tool, at, 0),
                names,
                formats,
                "/p",
                message.as_str(),
                floor,
            );
        };
        let mut last = Report::default();
        let mut kept = Report::default();
        for (i, place) in places.into_iter().enumerate() {
            record(&mut last, usize::MAX, (i, place));
            // The floor moves up at each tool, as the passes move it.
            record(&mut kept, if i < 1 { 0 } else { 1 }, (i, place));
        }
        assert_eq!(kept.first_message(), Some("entry 0"));
        let mark = kept.len();
        record(&mut kept, mark, (99, (2, 1)));
        kept.truncate(mark);
        last.finish();
        kept.finish();
        assert_eq!(kept, last);
        assert_eq!(kept.first_message(), last.first_message());
        // Recorded after a finish, in a copy or not, and finished again.
        let (mut kept_copy, mut last_copy) = (kept.clone(), last.clone());
        for report in [&mut kept, &mut last, &mut kept_copy, &mut last_copy] {
            for (i, place) in [(1, 50), (0, 3), (2, 4)].into_iter().enumerate() {
                record(report, usize::MAX, (i + 20, place));
            }
            report.finish();
        }
        assert_eq!(kept, last);
        assert_eq!(kept_copy, last_copy);
        assert_eq!(kept_copy, kept);
        assert_eq!(kept.first_message(), last.first_message());
    }

    fn entry(tool: &str, pointer: &str, order: (u32, u32, u32)) -> ReportEntry {
        ReportEntry {
            tool: tool.to_owned(),
            severity: Severity::Warning,
            code: Code::KeywordDropped,
            feature: "format".to_owned(),
            pointer: pointer.to_owned(),
            from: "mcp".to_owned(),
            to: "openai".to_owned(),
            message: format!("{tool} at {pointer}"),
            order,
        }
    }

    /// The rows and the list made from them agree through every change: the list is made
    /// again after each one, in the last list's entries, never showing its spares.
    #[test]
    fn the_list_follows_the_rows() {
        let mut report = Report::default();
        let plain =
            [entry("b", "/x", (2, 5, 0)), entry("a", "/y", (1, 9, 0)), entry("b", "/z", (2, 1, 0))];
        report.extend(plain.iter().cloned());
        report.record(
            Severity::Info,
            Code::TypeRewritten,
            (1, 9, 0),
            ["a", "type", "mcp", "openai"],
            With(|out: &mut String| out.push_str("/y")),
            ["part ", "and ", "part"],
        );
        assert_eq!(report.len(), 4);
        assert_eq!(report.entries().get(3).map(|e| e.message.as_str()), Some("part and part"));
        report.finish();
        let order: Vec<(&str, &str)> =
            report.entries().iter().map(|e| (e.tool.as_str(), e.pointer.as_str())).collect();
        // By tool, then place; the two entries at one place in the order written.
        assert_eq!(order, [("a", "/y"), ("a", "/y"), ("b", "/z"), ("b", "/x")]);
        assert_eq!(report.entries().first().map(|e| e.order), Some((1, 9, 1)));
        assert_eq!(report.first_message(), Some("a at /y"));
        assert_eq!(report.warnings().len(), 3);
        assert_eq!(report.max_severity(), Some(Severity::Warning));
        let copy = report.clone();
        assert_eq!(copy, report);

        report.for_each_mut(|e| e.pointer.push_str("/0"));
        assert!(report.entries().iter().all(|e| e.pointer.ends_with("/0")));
        assert_ne!(copy, report);
        report.truncate(1);
        assert_eq!(report.entries().len(), 1);
        report.clear();
        assert!(report.entries().is_empty());
        report.push(entry("c", "/w", (0, 0, 0)));
        report.finish();
        assert_eq!(
            report.entries(),
            [ReportEntry { order: (0, 0, 0), ..entry("c", "/w", (0, 0, 0)) }]
        );
        assert_eq!((&report).into_iter().count(), 1);
    }
}
