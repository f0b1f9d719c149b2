//! The conversion pipeline and its reusable session.
//!
//! [`Converter::convert`] reads as the design does: parse → lower → passes → emit. The
//! converter owns every buffer the pipeline needs (arena, parse buffers, tape, output, report),
//! so a warm converter converts a tool without touching the heap.

mod document;
mod layout;
mod left_out;
mod notes;
mod places;
mod read;
mod run;
mod stream;
mod traffic;
mod value;

use crate::adapter::Adapter;
use crate::check::{self, Dated, Finding};
use crate::context::Context;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::formats::{IntoFormat, adapters};
use crate::inverse::{Inverse, Recorded};
use crate::lower::Reading;
use crate::options::{Options, ProfileSet, Strict};
use crate::owned::{CanonicalTool, tool_from_ir};
use crate::passes::cx::PassCx;
use crate::report::{DenyLoss, Report, ReportEntry};

pub(crate) use layout::{Layout, write_catalog};
use read::Front;
use run::{Scratch, emit_document, record_findings, report_too_large, run_passes};
pub use traffic::TrafficOptions;
use traffic::map_direction;

/// The input document's kind: one tool or a catalog; the output mirrors it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DocumentKind {
    /// A single tool object.
    #[default]
    Single,
    /// A list of tools (a JSON array, or an object such as `{"tools": […]}`).
    Catalog,
}

/// The former name of [`DocumentKind`]: "shape" now names only what a provider accepts of a
/// schema node (the shape pass, `ShapeRule`).
#[deprecated(since = "0.1.0", note = "renamed DocumentKind")]
pub type Shape = DocumentKind;

/// The result of a conversion: output bytes and the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    output: Vec<u8>,
    report: Report,
    inverse: Recorded,
    shape: DocumentKind,
    tools: usize,
    /// The losses the options denied ([`Options::deny_loss`]).
    deny: Option<DenyLoss>,
    /// The place in the source document of each tool written, in output order (a check of
    /// the output traces its findings back to the source tools with it).
    written: Vec<u32>,
    /// Whether each tool written is written strict, in output order.
    strict: Vec<bool>,
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

    /// Whether the report has an entry the rule of [`Options::deny_loss`] denies (always
    /// `false` without one): the CLI's `--deny-loss` exits 3 on it.
    pub fn loss_denied(&self) -> bool {
        self.deny.is_some_and(|rule| self.report.denied(rule))
    }

    /// Whether the input was a single tool or a catalog.
    pub fn shape(&self) -> DocumentKind {
        self.shape
    }

    /// How many tools were written.
    pub fn tools_written(&self) -> usize {
        self.tools
    }

    /// For each tool written, in output order, whether it is written strict (`"strict": true`:
    /// the provider holds the model's arguments to its schema). A caller that asked for strict
    /// mode ([`Options::strict`]) sees here which tools fell back to `"strict": false` (each
    /// with a `strict-fallback` warning saying why).
    pub fn strict_written(&self) -> &[bool] {
        &self.strict
    }

    /// How many tools the source document held, those left out counted (what
    /// [`Report::tool_index`] numbers).
    pub fn tools_read(&self) -> usize {
        self.report.tools_len()
    }

    fn clear(&mut self) {
        self.output.clear();
        self.report.clear();
        self.shape = DocumentKind::Single;
        self.tools = 0;
        self.deny = None;
        self.written.clear();
        self.strict.clear();
    }
}

/// A reusable conversion session: arena, parse buffers and output buffer, kept warm between
/// calls. Not `Sync`: keep one per thread.
///
/// **Retention cap.** Its buffers grow to the largest input seen; after any conversion that
/// leaves it holding more than its cap ([`Converter::RETAIN`], 64 MiB, or
/// [`Converter::set_retention`]), it gives its reading buffers back at once and the output and
/// report (which the caller is still reading) at the start of its next call. So a converter
/// that once converted a 20 MB catalog (about 300 MB of arena, tape and output) keeps at most
/// the cap, while one converting typical catalogs (a few MiB of buffers) keeps them warm and
/// allocates nothing. Buffers take up to about 17 bytes per input byte, so inputs up to about
/// 4 MB stay warm; a steady stream of larger ones re-allocates per call (raise the cap for
/// that). [`Converter::shrink`] gives everything back on demand.
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
    /// Where [`Converter::convert_value`] writes its input value as JSON text, reused.
    value_bytes: Vec<u8>,
    /// The retention cap, in bytes.
    retain: usize,
    /// The last conversion left more than the cap: its output and report go at the next call.
    drop_conversion: bool,
    /// What tool traffic conversions keep ([`Converter::convert_traffic`]).
    traffic: traffic::TrafficState,
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

#[cold]
pub(super) fn unsupported(adapter: &dyn Adapter, direction: Direction) -> ConversionError {
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
            value_bytes: Vec::new(),
            retain: Converter::RETAIN,
            drop_conversion: false,
            traffic: traffic::TrafficState::default(),
        }
    }

    /// The default retention cap: 64 MiB of buffers, what a 4 MB input keeps warm and many
    /// times what the largest real catalog we know of (230 KB, 1.75 MB of buffers) does.
    pub const RETAIN: usize = 64 << 20;

    /// Sets the retention cap (see the type's documentation); `usize::MAX` keeps every buffer.
    pub fn set_retention(&mut self, bytes: usize) {
        self.retain = bytes;
    }

    /// About how many bytes of buffers the converter holds now (arena chunks, parse buffers,
    /// tape, output, scratch lists; report strings and simd-json's exact capacities are
    /// estimated or left out), the measure the retention cap is held to.
    #[doc(hidden)]
    pub fn retained_bytes(&self) -> usize {
        self.front.retained_bytes()
            + self.conversion.output.capacity()
            + self.names.capacity() * std::mem::size_of::<(u64, u32)>()
            + self.findings.capacity() * std::mem::size_of::<Finding>()
            + self.text.capacity()
            + self.value_bytes.capacity()
            + self.traffic.retained_bytes()
    }

    /// Gives every buffer back, the last conversion's output and report too: the next call
    /// starts cold.
    pub fn shrink(&mut self) {
        self.release_reading();
        self.conversion = Conversion::default();
        self.traffic = traffic::TrafficState::default();
        self.drop_conversion = false;
    }

    /// Drops the buffers no caller can still be reading: arena, parse buffers, scratch.
    fn release_reading(&mut self) {
        self.front = Front::default();
        self.names = Vec::new();
        self.findings = Vec::new();
        self.text = String::new();
        self.value_bytes = Vec::new();
        self.traffic.release();
    }

    /// Holds the converter to its retention cap after a call: the reading buffers go now,
    /// the output and report (which the caller reads until its next call) at the next call.
    pub(super) fn retain(&mut self) {
        if self.retained_bytes() > self.retain {
            self.release_reading();
            self.drop_conversion = self.conversion.output.capacity() > 0
                || self.traffic.conversion.retained_bytes() > 0;
        }
    }

    /// Takes the last conversion (or check) out of the converter rather than borrowing it:
    /// its output and report go with it, and the next call writes into new buffers. For a
    /// caller that keeps a large conversion past the next one (to write it later, on another
    /// thread) without a copy.
    pub fn take(&mut self) -> Conversion {
        self.drop_conversion = false;
        std::mem::take(&mut self.conversion)
    }

    /// Gives back, now, the output and report of a conversion that left the converter over
    /// its cap, for a caller that has copied them out (the registry's per-thread converter).
    pub(crate) fn settle(&mut self) {
        self.start();
    }

    /// At the start of a call: the conversion a previous call left over the cap goes.
    fn start(&mut self) {
        if std::mem::take(&mut self.drop_conversion) {
            self.conversion = Conversion::default();
            self.traffic.conversion = crate::traffic::TrafficConversion::default();
        }
    }

    /// Converts `input` from one format to another.
    ///
    /// # Errors
    /// A [`ConversionError`] when the input is not valid JSON of the source format, breaks a
    /// limit, or (for a single tool) cannot be read or written in the target at all. In a
    /// catalog, one bad tool costs that tool only: a tool that cannot be read (no name, a
    /// repeated key, a schema that is not one), that the `$ref` expansion budget stops, or that
    /// the target cannot hold is left out with an `error` entry in the report (for the first
    /// kinds [`crate::Code::ToolNotConverted`], naming the tool's place), and the others are
    /// written. A catalog none of whose tools can be read is an error.
    ///
    /// `from` and `to` are each a [`crate::Format`], a built-in format's name or an adapter
    /// ([`IntoFormat`]), as [`crate::Registry::convert`] takes a format or a name.
    pub fn convert<'f, 't>(
        &mut self,
        input: &[u8],
        from: impl IntoFormat<'f>,
        to: impl IntoFormat<'t>,
        options: &Options,
    ) -> Result<&Conversion, ConversionError> {
        let (from, to) = adapters(from, to)?;
        self.convert_dyn(input, from, to, options)
    }

    /// [`Converter::convert`] between two adapters.
    fn convert_dyn(
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
        self.start();
        let result = self.convert_in(input, from, to, options);
        self.retain();
        result.map(|()| &self.conversion)
    }

    /// [`Converter::convert`] once the target is known to be writable.
    fn convert_in(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &Options,
    ) -> Result<(), ConversionError> {
        let context = Context::new(from, to, options);
        let conversion = &mut self.conversion;
        conversion.clear();
        conversion.deny = options.deny_loss;
        // Output is about the input's size: one allocation up front rather than doublings.
        conversion.output.reserve(input.len());
        conversion.inverse.reset(from.name(), to.name());
        let scratch =
            Scratch { names: &mut self.names, findings: &mut self.findings, text: &mut self.text };
        // parse → lower, then passes → emit.
        let left_out = self.front.lower(input, from, context.reading(), |mut lowered, arena| {
            // Every tool read, those a reader's note leaves out too: their entries are
            // traced to their place.
            conversion.report.add_tools(lowered.tools.iter().map(|t| (t.at, t.index)));
            notes::apply(&mut lowered, &context.route, &mut conversion.report);
            let kept = run_passes(&mut lowered, &context, arena, &mut conversion.report, scratch)?;
            if options.document_pointers {
                places::locate(&mut conversion.report, lowered.tape);
            }
            for tool in lowered.tools.get(..kept).unwrap_or_default() {
                if options.record_inverse {
                    conversion.inverse.record(tool);
                }
                conversion.written.push(tool.index);
                // A target without a strict flag writes none, whatever the source said.
                let strict = tool.strict == Some(true) && to.info().holds_strict();
                conversion.strict.push(strict);
            }
            emit_document(input.len(), &lowered, kept, &context, conversion)?;
            Ok(lowered.left_out)
        })?;
        let imported = from.info().imports.then_some(&self.front.imported);
        if let Some(imported) = imported {
            imported.report(&mut conversion.report, from.name(), to.name());
        }
        if !left_out.is_empty() {
            left_out::record(&mut conversion.report, left_out, from.name(), to.name(), imported);
        }
        conversion.report.finish();
        if conversion.report.over_budget() {
            return Err(report_too_large(options, to.name()));
        }
        Ok(())
    }

    /// Checks `input`, read as `from`, the way the `to` provider would read it once written in
    /// its format, without converting: names, the root, strict rules and size limits. Every
    /// finding is an `error` entry ([`crate::Code::WouldBeRejected`]) naming the tool, the pointer and
    /// the rule. When `from` is `to`, the tools are checked exactly as written; otherwise they
    /// are converted first (with `options`) and the output is checked. The check itself always
    /// holds the tools to the provider's own rules: [`Options::profile_set`] only chooses how
    /// the conversion before it goes.
    ///
    /// # Errors
    /// As [`Converter::convert`] for reading.
    pub fn check<'f, 't>(
        &mut self,
        input: &[u8],
        from: impl IntoFormat<'f>,
        to: impl IntoFormat<'t>,
        options: &Options,
    ) -> Result<&Report, ConversionError> {
        let (from, to) = adapters(from, to)?;
        self.check_dyn(input, from, to, options)
    }

    /// [`Converter::check`] between two adapters.
    fn check_dyn(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &Options,
    ) -> Result<&Report, ConversionError> {
        let context = Context::new(from, to, options);
        if !context.same_format() {
            let conversion = self.convert_dyn(input, from, to, options)?;
            let output = conversion.output.clone();
            let written = conversion.written.clone();
            let mut report = conversion.report.clone();
            let mut check_options = options.clone();
            check_options.strict = Strict::Source;
            self.check_dyn(&output, to, to, &check_options)?;
            let found = &self.conversion.report;
            // A finding about a tool of the output is placed at its source tool, so that it is
            // traced (and ordered) by the source's places.
            let placed: Vec<ReportEntry> = found
                .entries()
                .iter()
                .map(|e| {
                    let at = found.tool_index(e).and_then(|k| written.get(k));
                    let mut e = e.clone();
                    if let Some(at) = at.and_then(|i| report.tool_at(*i)) {
                        e.order.0 = at;
                    }
                    e
                })
                .collect();
            report.extend(placed);
            report.finish();
            self.conversion.report = report;
            return Ok(&self.conversion.report);
        }
        // What the provider rejects does not change with the profile set a conversion
        // follows (the toolfoundation set keeps `$ref` for Gemini; Gemini still rejects it).
        if options.profile_set != ProfileSet::Default {
            let provider = options.clone().profile_set(ProfileSet::Default);
            return self.check_dyn(input, from, to, &provider);
        }
        self.start();
        let result = self.check_in(input, &context);
        self.retain();
        result.map(|()| &self.conversion.report)
    }

    /// [`Converter::check`] of tools already in the target's format.
    fn check_in(&mut self, input: &[u8], context: &Context<'_>) -> Result<(), ConversionError> {
        let (from, to, options) = (context.source(), context.target(), context.options);
        let conversion = &mut self.conversion;
        conversion.clear();
        let (findings, names, text) = (&mut self.findings, &mut self.names, &mut self.text);
        let left_out = self.front.lower(input, from, context.reading(), |mut lowered, arena| {
            // Every tool read, those a reader's note leaves out too: their entries are
            // traced to their place.
            conversion.report.add_tools(lowered.tools.iter().map(|t| (t.at, t.index)));
            notes::apply(&mut lowered, &context.route, &mut conversion.report);
            let mut cx = PassCx::new(arena, context, &mut conversion.report, text, input.len());
            let strict = cx.strict_profile();
            for tool in lowered.tools.iter() {
                findings.clear();
                check::check_tool(tool, to, cx.base_profile(tool), strict.as_ref(), findings);
                record_findings(tool, &[], findings, &mut cx);
            }
            findings.clear();
            check::check_catalog(lowered.tools, to, strict.as_ref(), names, findings);
            check::tool_choice(lowered.layout.wrapper, to, findings);
            let request = &crate::formats::EMPTY_TOOL;
            record_findings(request, lowered.tools, findings, &mut cx);
            findings.clear();
            check::dated_descriptions(lowered.tools, to, Dated::Told, findings);
            check::dated_tools(lowered.tools, to, Dated::Told, findings);
            record_findings(request, lowered.tools, findings, &mut cx);
            if options.document_pointers {
                places::locate(&mut conversion.report, lowered.tape);
            }
            Ok(lowered.left_out)
        })?;
        if !left_out.is_empty() {
            left_out::record(&mut conversion.report, left_out, from.name(), to.name(), None);
        }
        conversion.report.finish();
        if conversion.report.over_budget() {
            return Err(report_too_large(options, to.name()));
        }
        Ok(())
    }

    /// Reads `input` into owned [`CanonicalTool`]s (parse → lower → `deep_copy`), for callers
    /// who want to inspect or edit tools in code. Every envelope member without a typed field
    /// is kept in [`CanonicalTool::source_meta`]. Every tool is read as written: one that a
    /// conversion leaves out for breaking its own format's rules (an MCP tool with an invalid
    /// `x-mcp-header`) is here too, since nothing is written for a client yet.
    ///
    /// # Errors
    /// As [`Converter::convert`] for reading; with no report to tell of a tool left out, a
    /// catalog with a tool that cannot be read is an error too (the first such tool's).
    pub fn to_canonical<'f>(
        &mut self,
        input: &[u8],
        from: impl IntoFormat<'f>,
        options: &Options,
    ) -> Result<Vec<CanonicalTool>, ConversionError> {
        let from = from.into_adapter(Direction::ToCanonical)?;
        let reading = Reading::own(from.name(), &options.limits);
        let tools = self.front.lower(input, from, reading, |lowered, _| {
            if let Some(first) = lowered.left_out.into_iter().next() {
                return Err(first.error);
            }
            Ok(lowered.tools.iter().map(|t| tool_from_ir(t, from.info())).collect())
        });
        self.retain();
        tools
    }
}
