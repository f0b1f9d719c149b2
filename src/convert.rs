//! The conversion pipeline and its reusable session.
//!
//! [`Converter::convert`] reads as the design does: parse → lower → passes → emit. The
//! converter owns every buffer the pipeline needs (arena, parse buffers, tape, output, report),
//! so a warm converter converts a tool without touching the heap.

use bumpalo::Bump;

use crate::adapter::{Adapter, EmitContext, Imported};
use crate::emit::{Source, Writer};
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::inverse::{Inverse, Recorded};
use crate::ir::{Json, Member, MemberKeeps, Tool};
use crate::lower::{Kind, Lowerer};
use crate::options::{Options, ProfileSet, Strict};
use crate::owned::{CanonicalTool, tool_from_ir};
use crate::parse::Parser;
use crate::passes::{self, PassCx};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Report, ReportEntry, Severity};
use crate::route::Route;
use crate::valid::{self, Finding};

/// Whether the input was one tool or a catalog; the output mirrors it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// A single tool object.
    #[default]
    Single,
    /// A list of tools (a JSON array, or an object such as `{"tools": […]}`).
    Catalog,
}

/// The result of a conversion: output bytes and the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    output: Vec<u8>,
    report: Report,
    inverse: Recorded,
    shape: Shape,
    tools: usize,
}

impl Conversion {
    /// The report, for entries added after the conversion proper (see
    /// `Registry::from_canonical`); the caller calls `Report::finish` again.
    pub(crate) fn report_mut(&mut self) -> &mut Report {
        &mut self.report
    }

    /// The converted document, UTF-8 JSON.
    pub fn output(&self) -> &[u8] {
        &self.output
    }

    /// The converted document as text.
    pub fn output_str(&self) -> &str {
        // The writer only emits valid UTF-8 (input strings were validated by the parser).
        std::str::from_utf8(&self.output).unwrap_or_default()
    }

    /// Takes the output bytes.
    pub fn into_output(self) -> Vec<u8> {
        self.output
    }

    /// Everything the conversion recorded, in source order.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// What maps a model's calls of the converted tools back to the source tools: renamed
    /// tools and keys restored, strict widening's nulls dropped. Empty when nothing changed.
    /// Made on the first call from what the conversion recorded (recording allocates nothing
    /// in a warm converter; the map itself is owned strings and hash maps).
    pub fn inverse(&self) -> &Inverse {
        self.inverse.get()
    }

    /// The report entries that lost meaning or metadata.
    pub fn warnings(&self) -> Vec<crate::report::FeatureLossWarning> {
        self.report.warnings()
    }

    /// Whether the input was a single tool or a catalog.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many tools were written.
    pub fn tools_written(&self) -> usize {
        self.tools
    }

    fn clear(&mut self) {
        self.output.clear();
        self.report.clear();
        self.shape = Shape::Single;
        self.tools = 0;
    }
}

/// A reusable conversion session: arena, parse buffers and output buffer, kept warm between
/// calls. Not `Sync`: keep one per thread.
///
/// ```
/// use tooladapter::{Converter, Options, formats::{Mcp, OpenAi}};
///
/// let mut converter = Converter::new();
/// let input = br#"{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}"#;
/// // Reuse one converter for many inputs; its buffers are reset, not reallocated.
/// for _ in 0..3 {
///     let out = converter.convert(input, &Mcp, &OpenAi, &Options::default())?;
///     assert!(out.output_str().starts_with(r#"{"type":"function","function":{"name":"echo""#));
/// }
/// # Ok::<(), tooladapter::ConversionError>(())
/// ```
pub struct Converter {
    front: Front,
    conversion: Conversion,
    /// Scratch for the catalog's name check, reused so a clean catalog allocates nothing.
    names: Vec<(u64, u32)>,
    /// Pre-flight findings of one tool, reused.
    findings: Vec<Finding>,
    /// Where the passes write a description note before copying it into the arena, reused.
    text: String,
}

/// The reading half of a session: arena, parse buffers and lowering scratch, and what an
/// importing format made of its document.
#[derive(Default)]
struct Front {
    arena: Bump,
    parser: Parser,
    scratch: Vec<(u64, u32)>,
    imported: Imported,
}

impl Default for Converter {
    fn default() -> Self {
        Converter::new()
    }
}

impl std::fmt::Debug for Converter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Converter")
            .field("arena_bytes", &self.front.arena.allocated_bytes())
            .finish()
    }
}

/// A lowered document: its shape, its tools, and the catalog wrapper's other members.
struct Lowered<'a> {
    /// Where the input's strings live, for the writer.
    source: Source<'a>,
    shape: Shape,
    /// The catalog was a bare JSON array (same-format output keeps it one).
    array: bool,
    tools: &'a mut [Tool<'a>],
    wrapper: &'a [Member<'a>],
}

impl Front {
    /// parse and lower `input`, then hand the lowered document and its arena to `then`. An
    /// importing format first translates the document (see [`Adapter::import`]); the
    /// translation is then read like any input, and errors point into the source document.
    fn lower<R>(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        route: Option<&Route<'_>>,
        options: &Options,
        then: impl for<'a> FnOnce(Lowered<'a>, &'a Bump) -> Result<R, ConversionError>,
    ) -> Result<R, ConversionError> {
        if !from.info().reads {
            return Err(unsupported(from, Direction::ToCanonical));
        }
        let Front { arena, parser, scratch, imported } = self;
        let mut session = Session { arena, parser, scratch, from, route, options };
        if !from.info().imports {
            return session.read(input, |lw, arena, source| {
                let mut lowered = lower_document(lw, from)?;
                lowered.source = source;
                then(lowered, arena)
            });
        }
        imported.clear();
        session
            .read(input, |lw, _, _| from.import(lw, imported))
            .map_err(|e| json_only(e, from, input))?;
        let Imported { document, names, positions, .. } = imported;
        let result = session.read(document, |lw, arena, source| {
            let mut lowered = lower_document(lw, from)?;
            lowered.source = source;
            for (i, tool) in lowered.tools.iter().enumerate() {
                names.push((tool.name.to_owned(), i));
                positions.push(tool.at);
            }
            names.sort_unstable();
            then(lowered, arena)
        });
        result.map_err(|e| imported.remap_error(e))
    }
}

/// What reading one document needs.
struct Session<'s> {
    arena: &'s mut Bump,
    parser: &'s mut Parser,
    scratch: &'s mut Vec<(u64, u32)>,
    from: &'s dyn Adapter,
    /// The conversion's route, if there is a target: lowering tests property keys against its
    /// key rule and leaves unread what it drops whole.
    route: Option<&'s Route<'s>>,
    options: &'s Options,
}

impl Session<'_> {
    /// Parses `input` into a fresh arena and hands a lowerer over it to `f`. The tape's
    /// allocation is taken back whatever `f` returns.
    fn read<R>(
        &mut self,
        input: &[u8],
        f: impl for<'a> FnOnce(&mut Lowerer<'a, '_>, &'a Bump, Source<'a>) -> Result<R, ConversionError>,
    ) -> Result<R, ConversionError> {
        let limits = &self.options.limits;
        self.arena.reset();
        self.arena.set_allocation_limit(Some(limits.max_arena_bytes));
        let name = self.from.name();
        let doc = self
            .parser
            .parse(input, limits.max_input_bytes)
            .map_err(|kind| ConversionError::new(name, Direction::ToCanonical, "", kind))?;
        let arena: &Bump = self.arena;
        let source = Source {
            base: doc.base,
            src: input,
            escapes: doc.escapes,
            escape_starts: doc.escape_starts,
        };
        let result = {
            let mut lw = Lowerer::new(&doc, input, arena, limits, name, self.scratch);
            lw.check_keys(self.route.and_then(|r| r.target.profile().key_rule()));
            lw.set_keeps(self.route.map_or(MemberKeeps::ALL, |r| r.keeps));
            f(&mut lw, arena, source)
        };
        let tape = crate::parse::recycle(doc.tape);
        self.parser.put_back(tape);
        result
    }
}

/// An importing format's parse error on input that does not start like JSON says that only
/// JSON is read (a YAML OpenAPI document is the usual case).
#[cold]
fn json_only(e: ConversionError, from: &dyn Adapter, input: &[u8]) -> ConversionError {
    let first = input.iter().find(|b| !b.is_ascii_whitespace());
    match e.kind() {
        ErrorKind::Json { offset, message } if !matches!(first, Some(b'{' | b'[')) => {
            ConversionError::new(
                from.name(),
                Direction::ToCanonical,
                e.pointer(),
                ErrorKind::Json {
                    offset: *offset,
                    message: format!(
                        "{message}; the {} format reads JSON documents only (YAML is not supported: convert the document to JSON first)",
                        from.name()
                    ),
                },
            )
        }
        _ => e,
    }
}

#[cold]
fn unsupported(adapter: &dyn Adapter, direction: Direction) -> ConversionError {
    ConversionError::new(adapter.name(), direction, "", ErrorKind::Unsupported)
}

impl Converter {
    /// A converter with empty buffers.
    pub fn new() -> Converter {
        Converter {
            front: Front::default(),
            conversion: Conversion::default(),
            names: Vec::new(),
            findings: Vec::new(),
            text: String::new(),
        }
    }

    /// Converts `input` from one format to another.
    ///
    /// # Errors
    /// A [`ConversionError`] when the input is not valid JSON of the source format, breaks a
    /// limit, or (for a single tool) cannot be written in the target at all. In a catalog, a
    /// tool the target cannot hold is left out with an error entry in the report instead.
    pub fn convert(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &Options,
    ) -> Result<&Conversion, ConversionError> {
        if !to.info().writes {
            return Err(unsupported(to, Direction::FromCanonical));
        }
        options.check_target(to.info())?;
        let route = Route::new(from, to, options);
        let conversion = &mut self.conversion;
        conversion.clear();
        // Output is about the input's size: one allocation up front rather than doublings.
        conversion.output.reserve(input.len());
        conversion.inverse.reset(from.name(), to.name());
        let scratch =
            Scratch { names: &mut self.names, findings: &mut self.findings, text: &mut self.text };
        // parse → lower, then passes → emit.
        self.front.lower(input, from, Some(&route), options, |mut lowered, arena| {
            let kept =
                run_passes(&mut lowered, &route, arena, options, &mut conversion.report, scratch)?;
            for tool in lowered.tools.get(..kept).unwrap_or_default() {
                conversion.inverse.record(tool);
            }
            emit_document(&lowered, kept, &route, options, conversion)
        })?;
        if from.info().imports {
            self.front.imported.report(&mut conversion.report, from.name(), to.name());
        }
        conversion.report.finish();
        Ok(&*conversion)
    }

    /// Checks `input`, read as `from`, the way the `to` provider would read it once written in
    /// its format, without converting: names, the root, strict rules and size limits. Every
    /// finding is an `error` entry ([`Code::WouldBeRejected`]) naming the tool, the pointer and
    /// the rule. When `from` is `to`, the tools are checked exactly as written; otherwise they
    /// are converted first (with `options`) and the output is checked. The check itself always
    /// holds the tools to the provider's own rules: [`Options::profile_set`] only chooses how
    /// the conversion before it goes.
    ///
    /// # Errors
    /// As [`Converter::convert`] for reading.
    pub fn check(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &Options,
    ) -> Result<&Report, ConversionError> {
        let route = Route::new(from, to, options);
        if !route.same_format {
            let conversion = self.convert(input, from, to, options)?;
            let output = conversion.output.clone();
            let mut report = conversion.report.clone();
            let mut check_options = options.clone();
            check_options.strict = Strict::Source;
            self.check(&output, to, to, &check_options)?;
            report.extend(self.conversion.report.entries().iter().cloned());
            report.finish();
            self.conversion.report = report;
            return Ok(&self.conversion.report);
        }
        // What the provider rejects does not change with the profile set a conversion
        // follows (the toolfoundation set keeps `$ref` for Gemini; Gemini still rejects it).
        if options.profile_set != ProfileSet::Default {
            let provider = options.clone().profile_set(ProfileSet::Default);
            return self.check(input, from, to, &provider);
        }
        let conversion = &mut self.conversion;
        conversion.clear();
        let (findings, names, text) = (&mut self.findings, &mut self.names, &mut self.text);
        self.front.lower(input, from, Some(&route), options, |lowered, arena| {
            let mut cx = PassCx::new(arena, &route, options, &mut conversion.report, text);
            let strict = cx.strict_profile();
            for tool in lowered.tools.iter() {
                findings.clear();
                valid::check_tool(tool, to, cx.base_profile(), strict.as_ref(), false, findings);
                record_findings(tool, &[], findings, &mut cx);
            }
            findings.clear();
            valid::check_catalog(lowered.tools, to, strict.as_ref(), None, false, names, findings);
            record_findings(&crate::formats::EMPTY_TOOL, lowered.tools, findings, &mut cx);
            Ok(())
        })?;
        conversion.report.finish();
        Ok(&conversion.report)
    }

    /// Reads `input` into owned [`CanonicalTool`]s (parse → lower → `deep_copy`), for callers
    /// who want to inspect or edit tools in code. Every envelope member without a typed field
    /// is kept in [`CanonicalTool::source_meta`].
    ///
    /// # Errors
    /// As [`Converter::convert`] for reading.
    pub fn to_canonical(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        options: &Options,
    ) -> Result<Vec<CanonicalTool>, ConversionError> {
        self.front.lower(input, from, None, options, |lowered, _| {
            Ok(lowered.tools.iter().map(|t| tool_from_ir(t, from.name())).collect())
        })
    }
}

/// lower: the document's shape, then each tool through the source format's front end.
fn lower_document<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
) -> Result<Lowered<'a>, ConversionError> {
    let root = Path::ROOT;
    let tool_name = |lw: &Lowerer<'a, '_>, at| lw.find(at, "name").and_then(|n| lw.str(n));
    match lw.kind(0) {
        Kind::Array => {
            let tools = lower_tools(lw, from, 0, &root)?;
            Ok(Lowered {
                source: Source::default(),
                shape: Shape::Catalog,
                array: true,
                tools,
                wrapper: &[],
            })
        }
        Kind::Object => {
            // An empty key: the format has no catalog object, so any object is one tool.
            let key = from.info().catalog_key;
            let list = lw.find(0, key).filter(|l| !key.is_empty() && lw.kind(*l) == Kind::Array);
            let Some(list) = list else {
                let tool = from.lower_tool(lw, 0, &root).map_err(|e| match tool_name(lw, 0) {
                    Some(n) => e.with_tool(n),
                    None => e,
                })?;
                let tools = lw.alloc_slice(1, tool, &root)?;
                return Ok(Lowered {
                    source: Source::default(),
                    shape: Shape::Single,
                    array: false,
                    tools,
                    wrapper: &[],
                });
            };
            lw.check_duplicates(0, &root)?;
            let len = lw.object_len(0);
            let wrapper = lw.alloc_slice(len, Member { key: "", value: Json::Null }, &root)?;
            let mut tools: &'a mut [Tool<'a>] = &mut [];
            for (slot, (k, _, v)) in wrapper.iter_mut().zip(lw.members(0)) {
                let path = root.push(Seg::Key(k));
                *slot = if v == list {
                    tools = lower_tools(lw, from, v, &path)?;
                    Member { key: k, value: Json::Null }
                } else {
                    Member { key: k, value: lw.json(v, &path, 1)? }
                };
            }
            Ok(Lowered {
                source: Source::default(),
                shape: Shape::Catalog,
                array: false,
                tools,
                wrapper,
            })
        }
        other => Err(lw.error(
            &root,
            ErrorKind::Shape(match from.info().catalog_key {
                "" => format!(
                    "expected a tool object or a JSON array of tools, found {}",
                    other.as_str()
                ),
                key => format!(
                    "expected a tool object, a JSON array of tools or {{\"{key}\": […]}}, found {}",
                    other.as_str()
                ),
            }),
        )),
    }
}

fn lower_tools<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    list: usize,
    path: &Path<'_>,
) -> Result<&'a mut [Tool<'a>], ConversionError> {
    lw.check_depth(path.depth() + 1, path)?;
    let len = lw.array_len(list);
    let tools = lw.alloc_slice(len, crate::formats::EMPTY_TOOL, path)?;
    for (i, (slot, at)) in tools.iter_mut().zip(lw.elements(list)).enumerate() {
        let p = path.push(Seg::Index(i));
        *slot = from.lower_tool(lw, at, &p).map_err(|e| {
            match lw.find(at, "name").and_then(|n| lw.str(n)) {
                Some(n) => e.with_tool(n),
                None => e,
            }
        })?;
    }
    Ok(tools)
}

/// Buffers the passes reuse between conversions.
struct Scratch<'s> {
    names: &'s mut Vec<(u64, u32)>,
    findings: &'s mut Vec<Finding>,
    text: &'s mut String,
}

/// Records pre-flight findings as `error` entries, about `tool` or, for a request-level
/// finding that names one, that tool of `catalog`.
#[cold]
fn record_findings(
    tool: &Tool<'_>,
    catalog: &[Tool<'_>],
    findings: &mut Vec<Finding>,
    cx: &mut PassCx<'_, '_>,
) {
    for f in findings.drain(..) {
        let about = f.tool.and_then(|i| catalog.get(i)).unwrap_or(tool);
        cx.record(
            about,
            f.at,
            Severity::Error,
            Code::WouldBeRejected,
            f.feature,
            f.pointer,
            f.message,
        );
    }
}

/// passes: tool names for the whole catalog, then every tool through the fixed pass order,
/// then the pre-flight check of what was written; returns how many tools are kept (moved to
/// the front of the slice, order preserved).
fn run_passes<'a>(
    lowered: &mut Lowered<'a>,
    route: &Route<'_>,
    arena: &'a Bump,
    options: &Options,
    report: &mut Report,
    scratch: Scratch<'_>,
) -> Result<usize, ConversionError> {
    let (from, to) = (route.source, route.target);
    let mut cx = PassCx::new(arena, route, options, report, scratch.text);
    let rewrite = route.rewrite;
    // Tools are only ever renamed by the names pass, so names it made unique stay so in
    // every subset of the catalog the later passes keep.
    let names_unique = rewrite && passes::names::tool_names(lowered.tools, &mut cx, scratch.names)?;
    let strict = cx.strict_profile();
    let mut kept = 0;
    for i in 0..lowered.tools.len() {
        // The passes work on the tool where it lies: a tool is a few hundred bytes, and
        // copying it out and back cost two `memcpy` calls per tool.
        let Some(tool) = lowered.tools.get_mut(i) else { break };
        let catalog = cx.catalog;
        if !passes::run(tool, &mut cx).map_err(|e| e.with_tool(tool.name))? {
            continue;
        }
        if rewrite {
            scratch.findings.clear();
            valid::check_tool(tool, to, cx.base_profile(), strict.as_ref(), true, scratch.findings);
            if !scratch.findings.is_empty() {
                record_findings(tool, &[], scratch.findings, &mut cx);
                // The strict totals count the kept tools only.
                cx.catalog = catalog;
                continue;
            }
        }
        // A tool left out before this one leaves a gap to close.
        if kept != i {
            lowered.tools.copy_within(i..=i, kept);
        }
        kept += 1;
    }
    if rewrite && let Some(tools) = lowered.tools.get(..kept) {
        scratch.findings.clear();
        valid::check_catalog(
            tools,
            to,
            strict.as_ref(),
            Some(cx.catalog),
            names_unique,
            scratch.names,
            scratch.findings,
        );
        record_findings(&crate::formats::EMPTY_TOOL, tools, scratch.findings, &mut cx);
    }
    if lowered.shape == Shape::Catalog && !route.same_format {
        for m in lowered.wrapper.iter().filter(|m| m.key != from.info().catalog_key) {
            cx.report.push(ReportEntry {
                tool: String::new(),
                severity: Severity::Warning,
                code: Code::CatalogMemberDropped,
                feature: m.key.to_owned(),
                pointer: {
                    let mut p = String::new();
                    crate::pointer::write_seg(&mut p, Seg::Key(m.key));
                    p
                },
                from: from.name().to_owned(),
                to: to.name().to_owned(),
                message: format!(
                    "catalog member `{}` has no place in a `{}` catalog; dropped",
                    m.key,
                    to.name()
                ),
                order: (0, 0, 0),
            });
        }
    }
    Ok(kept)
}

/// emit: the target's back end writes the kept tools in the source's shape.
fn emit_document(
    lowered: &Lowered<'_>,
    kept: usize,
    route: &Route<'_>,
    options: &Options,
    conversion: &mut Conversion,
) -> Result<(), ConversionError> {
    let (cx, to) = (route.emit(), route.target);
    let tools = lowered.tools.get(..kept).unwrap_or_default();
    let mut w = Writer::new(&mut conversion.output, options.pretty).with_source(lowered.source);
    match lowered.shape {
        Shape::Single => {
            let Some(tool) = tools.first() else {
                let msg = conversion.report.first_message().unwrap_or_default().to_owned();
                let name = lowered.tools.first().map(|t| t.name).unwrap_or_default();
                return Err(ConversionError::new(
                    to.name(),
                    Direction::FromCanonical,
                    "",
                    ErrorKind::NotConvertible(msg),
                )
                .with_tool(name));
            };
            to.write_tool(tool, cx, &mut w);
        }
        Shape::Catalog => write_catalog(to, tools, lowered.wrapper, lowered.array, cx, &mut w),
    }
    conversion.shape = lowered.shape;
    conversion.tools = kept;
    Ok(())
}

/// Writes `tools` as a catalog: the target's catalog shape, or, for the same format, the
/// source's shape (`array`: a bare JSON array; else its catalog object, `wrapper`'s members
/// kept). The catalog splitter writes its probe through here too, so that the framing it
/// stitches chunks into is the one a whole conversion writes.
pub(crate) fn write_catalog(
    to: &dyn Adapter,
    tools: &[Tool<'_>],
    wrapper: &[Member<'_>],
    array: bool,
    cx: &EmitContext<'_>,
    w: &mut Writer<'_>,
) {
    if cx.same_format() && array {
        // Same format: mirror the source's bare array rather than the format's catalog shape.
        w.begin_array();
        for tool in tools {
            w.element();
            to.write_tool(tool, cx, w);
        }
        w.end_array();
    } else {
        let wrapper = if cx.same_format() { wrapper } else { &[] };
        to.write_catalog(tools, wrapper, cx, w);
    }
}
