//! The conversion report: one entry per thing a conversion kept, changed or could not carry.
//!
//! Entries are ordered by their place in the source (then by the pass that wrote them), so the
//! same input always gives the same report. An empty report allocates nothing, and a warm
//! converter writes a report into the entries (and string buffers) of its last one.

use std::fmt;

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
#[derive(Default)]
pub struct Report {
    entries: Vec<ReportEntry>,
    /// Entries of earlier conversions, kept with their strings' buffers so a warm converter
    /// records a report like the last one without allocating (gateways convert similar
    /// catalogs over and over). Never visible: not compared, cloned or printed.
    spare: Vec<ReportEntry>,
}

impl Clone for Report {
    fn clone(&self) -> Report {
        Report { entries: self.entries.clone(), spare: Vec::new() }
    }
}

impl PartialEq for Report {
    fn eq(&self, other: &Report) -> bool {
        self.entries == other.entries
    }
}

impl Eq for Report {}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Report").field("entries", &self.entries).finish()
    }
}

/// What a report entry's text field is written from. A recycled entry's buffer takes the text
/// in place, so building an entry allocates only when it outgrows the entry it reuses.
pub(crate) trait Text {
    /// Appends the text to `out`.
    fn write_into(self, out: &mut String);
}

impl Text for String {
    fn write_into(self, out: &mut String) {
        if out.capacity() < self.len() && out.is_empty() {
            // Already allocated by the caller: take it rather than copy into a smaller buffer.
            *out = self;
        } else {
            out.push_str(&self);
        }
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
        out.reserve(self.iter().map(|p| p.len()).sum());
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
        &self.entries
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The highest severity recorded, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.entries.iter().map(|e| e.severity).max()
    }

    /// Whether any entry is a warning or an error: meaning or metadata was lost.
    pub fn lost_meaning(&self) -> bool {
        self.max_severity() >= Some(Severity::Warning)
    }

    /// The entries that lost something, as [`FeatureLossWarning`]s.
    pub fn warnings(&self) -> Vec<FeatureLossWarning> {
        self.entries
            .iter()
            .filter(|e| e.severity >= Severity::Warning)
            .map(|e| FeatureLossWarning {
                feature: e.feature.clone(),
                path: e.pointer.clone(),
                from: e.from.clone(),
                to: e.to.clone(),
            })
            .collect()
    }

    pub(crate) fn clear(&mut self) {
        self.spare.append(&mut self.entries);
    }

    pub(crate) fn push(&mut self, entry: ReportEntry) {
        self.entries.push(entry);
    }

    /// Appends an entry that `fill` writes, starting from empty text fields and reusing a spare
    /// entry's buffers when there is one. `fill` sets every field.
    pub(crate) fn push_recycled(&mut self, fill: impl FnOnce(&mut ReportEntry)) {
        let mut entry = self.spare.pop().unwrap_or_else(|| ReportEntry {
            tool: String::new(),
            severity: Severity::Info,
            code: Code::KeywordDropped,
            feature: String::new(),
            pointer: String::new(),
            from: String::new(),
            to: String::new(),
            message: String::new(),
            order: (0, 0, 0),
        });
        for text in [
            &mut entry.tool,
            &mut entry.feature,
            &mut entry.pointer,
            &mut entry.from,
            &mut entry.to,
            &mut entry.message,
        ] {
            text.clear();
        }
        fill(&mut entry);
        self.entries.push(entry);
    }

    pub(crate) fn extend(&mut self, entries: impl IntoIterator<Item = ReportEntry>) {
        self.entries.extend(entries);
    }

    pub(crate) fn for_each_mut(&mut self, f: impl FnMut(&mut ReportEntry)) {
        self.entries.iter_mut().for_each(f);
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.entries.len() {
            self.spare.extend(self.entries.drain(len..));
        }
    }

    pub(crate) fn finish(&mut self) {
        // Entries at one place keep the order they were written in: the last part of the key
        // becomes the position of writing, so every key is distinct and an unstable sort (which,
        // unlike the stable one, needs no scratch buffer) gives the stable order.
        for (i, e) in self.entries.iter_mut().enumerate() {
            e.order.2 = u32::try_from(i).unwrap_or(u32::MAX);
        }
        self.entries.sort_unstable_by_key(|e| e.order);
    }
}

impl<'r> IntoIterator for &'r Report {
    type Item = &'r ReportEntry;
    type IntoIter = std::slice::Iter<'r, ReportEntry>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}
