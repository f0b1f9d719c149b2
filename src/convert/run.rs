//! Passes and emission over a lowered document: every tool through the fixed pass order and
//! the pre-flight check, then the target's back end writing the kept tools in the source's
//! shape.

use bumpalo::Bump;

use crate::check::{self, Dated, Finding};
use crate::context::Context;
use crate::emit::Writer;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Member, Tool};
use crate::lower::Locator;
use crate::options::Options;
use crate::passes::{self, cx::PassCx};
use crate::report::{Code, EntryKind, Note, Report};

use super::document::Lowered;
use super::layout::write_catalog;
use super::left_out::LeftOut;
use super::{Conversion, DocumentKind};

/// Buffers the passes reuse between conversions.
pub(super) struct Scratch<'s> {
    pub(super) names: &'s mut Vec<(u64, u32)>,
    pub(super) findings: &'s mut Vec<Finding>,
    pub(super) text: &'s mut String,
}

/// Records the check's findings about `tool` or, for a request-level finding that names one,
/// that tool of `catalog`.
#[cold]
pub(super) fn record_findings(
    tool: &Tool<'_>,
    catalog: &[Tool<'_>],
    findings: &mut Vec<Finding>,
    cx: &mut PassCx<'_, '_>,
) {
    for f in findings.drain(..) {
        let about = f.tool.and_then(|i| catalog.get(i)).unwrap_or(tool);
        cx.record(about, f.at, f.note);
    }
}

/// passes: tool names for the whole catalog, then every tool through the fixed pass order,
/// then the pre-flight check of what was written; returns how many tools are kept (moved to
/// the front of the slice, order preserved).
pub(super) fn run_passes<'a>(
    lowered: &mut Lowered<'a>,
    context: &Context<'_>,
    arena: &'a Bump,
    report: &mut Report,
    scratch: Scratch<'_>,
) -> Result<usize, ConversionError> {
    let (route, options, to) = (&context.route, context.options, context.target());
    let input_len = lowered.source.src.len();
    let mut cx = PassCx::new(arena, context, report, scratch.text, input_len);
    let rewrite = route.rewrite;
    // The names pass runs for every pair, the same format too: a repeated name is renamed
    // wherever it is written (the check tests the names again, as it tests every rule).
    passes::names::tool_names(lowered.tools, &mut cx, scratch.names)?;
    let strict = cx.strict_profile();
    let mut locator = Locator::default();
    let mut kept = 0;
    for i in 0..lowered.tools.len() {
        // The passes work on the tool where it lies: a tool is a few hundred bytes, and
        // copying it out and back cost two `memcpy` calls per tool.
        let Some(tool) = lowered.tools.get_mut(i) else { break };
        let catalog = cx.catalog;
        let mark = cx.report.len();
        match passes::run(tool, &mut cx) {
            Ok(true) => {}
            Ok(false) => continue,
            // In a catalog, a tool the passes cannot convert (its `$ref` expansion past the
            // budget or the depth limit) is left out with what it recorded so far; running
            // out of arena ends the conversion, whose later tools would need it too.
            Err(e)
                if lowered.shape == DocumentKind::Catalog
                    && !matches!(e.kind(), ErrorKind::ArenaLimit { .. }) =>
            {
                cx.report.truncate(mark);
                cx.catalog = catalog;
                let left = LeftOut::in_passes(tool, lowered.tape, &mut locator, e);
                lowered.left_out.push(left);
                continue;
            }
            Err(e) => return Err(e.with_tool(tool.source_name.unwrap_or(tool.name))),
        }
        // Past its budget the report leaves entries out: the conversion cannot go on.
        if cx.report.over_budget() {
            let e = report_too_large(options, to.name());
            return Err(e.with_tool(tool.source_name.unwrap_or(tool.name)));
        }
        if rewrite {
            scratch.findings.clear();
            check::check_tool(tool, to, cx.base_profile(tool), strict.as_ref(), scratch.findings);
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
        check::check_catalog(tools, to, strict.as_ref(), scratch.names, scratch.findings);
        if options.dated_limits {
            // Descriptions were cut by the passes; the tool count is the caller's to mend.
            check::dated_tools(tools, to, Dated::Enforced, scratch.findings);
        }
        record_findings(&crate::formats::EMPTY_TOOL, tools, scratch.findings, &mut cx);
    }
    if lowered.shape == DocumentKind::Catalog && !route.same_family() {
        super::layout::report_dropped(&lowered.layout, route, &mut cx.report);
    }
    if lowered.shape == DocumentKind::Catalog && route.same_family() {
        drop_refused_choice(lowered, arena, &mut cx, scratch.findings);
    }
    Ok(kept)
}

/// Into the same format, a catalog's tool choice the target's models do not take
/// ([`check::tool_choice`]) is left out of the catalog object, which the provider would
/// refuse whole: a warning (the file the caller wrote changes; a call it forced is no longer
/// forced).
#[cold]
fn drop_refused_choice<'a>(
    lowered: &mut Lowered<'a>,
    arena: &'a Bump,
    cx: &mut PassCx<'_, '_>,
    findings: &mut Vec<Finding>,
) {
    findings.clear();
    let wrapper = lowered.layout.wrapper;
    let Some(index) = check::tool_choice(wrapper, cx.target(), findings) else { return };
    let kept: Vec<Member<'a>> =
        wrapper.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, m)| *m).collect();
    lowered.layout.wrapper = arena.alloc_slice_copy(&kept);
    for f in findings.drain(..) {
        let kind = EntryKind::metadata_lost(Code::CatalogMemberDropped);
        let message = format!("{}; dropped", f.note.message);
        let note = Note { kind, feature: f.note.feature, pointer: f.note.pointer, message };
        cx.record(&crate::formats::EMPTY_TOOL, f.at, note);
    }
}

/// The error of a report past its budget ([`crate::report::Recorder::budget`]).
#[cold]
pub(super) fn report_too_large(options: &Options, to: &str) -> ConversionError {
    let kind = ErrorKind::ReportTooLarge { limit: options.limits.max_arena_bytes };
    ConversionError::new(to, Direction::FromCanonical, "", kind)
}

/// The output limit's error: the pointer of the schema first left unwritten, in the tool that
/// holds it (the last tool that starts before it).
#[cold]
fn output_too_large(
    lowered: &Lowered<'_>,
    tools: &[Tool<'_>],
    over: Option<u32>,
    limit: usize,
    input: usize,
    to: &str,
) -> ConversionError {
    let kind = ErrorKind::OutputTooLarge { limit, input };
    let Some(at) = over else {
        return ConversionError::new(to, Direction::FromCanonical, "", kind);
    };
    let pointer = Locator::default().pointer(lowered.tape, at as usize);
    let e = ConversionError::new(to, Direction::FromCanonical, pointer, kind);
    match tools.iter().take_while(|t| t.at <= at).last() {
        Some(tool) => e.with_tool(tool.source_name.unwrap_or(tool.name)),
        None => e,
    }
}

/// emit: the target's back end writes the kept tools in the source's shape, within the
/// output limit for an input of `input_len` bytes.
pub(super) fn emit_document(
    input_len: usize,
    lowered: &Lowered<'_>,
    kept: usize,
    context: &Context<'_>,
    conversion: &mut Conversion,
) -> Result<(), ConversionError> {
    let (cx, to, options) = (context.route.emit(), context.target(), context.options);
    let tools = lowered.tools.get(..kept).unwrap_or_default();
    let limit = options.limits.output_limit(input_len);
    let mut w = Writer::new(&mut conversion.output, options.pretty)
        .with_source(lowered.source)
        .with_limit(limit);
    match lowered.shape {
        DocumentKind::Single => {
            let Some(tool) = tools.first() else {
                let msg = conversion.report.first_message().unwrap_or_default().to_owned();
                // Where in the tool it failed, as the entry that says why names it.
                let pointer = conversion.report.first_pointer().unwrap_or_default().to_owned();
                let name = lowered.tools.first().map(|t| t.name).unwrap_or_default();
                return Err(ConversionError::new(
                    to.name(),
                    Direction::FromCanonical,
                    pointer,
                    ErrorKind::NotConvertible(msg),
                )
                .with_tool(name));
            };
            to.write_tool(tool, cx, &mut w);
        }
        DocumentKind::Catalog => write_catalog(to, tools, &lowered.layout, cx, &mut w),
    }
    let over = w.over();
    if over.is_some() || conversion.output.len() > limit {
        conversion.output.clear();
        return Err(output_too_large(lowered, tools, over, limit, input_len, to.name()));
    }
    conversion.shape = lowered.shape;
    conversion.tools = kept;
    Ok(())
}
