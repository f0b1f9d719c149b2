//! Passes over the IR, between lowering and emission.
//!
//! The order is fixed here, once, in [`run`]. Each pass is one file with one concern; a pass
//! returns nodes unchanged when nothing applies, so the common path allocates nothing. A pass
//! that changes or drops anything records a report entry with the source pointer.

mod envelope;
mod policy;
mod root;

use bumpalo::Bump;

use crate::adapter::Adapter;
use crate::error::ConversionError;
use crate::ir::Tool;
use crate::options::Options;
use crate::report::{Code, Report, ReportEntry, Severity};

/// What the passes share: the arena, the two formats, the options and the report.
pub(crate) struct PassCx<'a, 'c> {
    pub arena: &'a Bump,
    pub source: &'c dyn Adapter,
    pub target: &'c dyn Adapter,
    pub options: &'c Options,
    pub report: &'c mut Report,
    seq: u32,
}

impl<'a, 'c> PassCx<'a, 'c> {
    pub fn new(
        arena: &'a Bump,
        source: &'c dyn Adapter,
        target: &'c dyn Adapter,
        options: &'c Options,
        report: &'c mut Report,
    ) -> Self {
        PassCx { arena, source, target, options, report, seq: 0 }
    }

    /// Records a report entry about `tool` at source position `at`.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        tool: &Tool<'_>,
        at: u32,
        severity: Severity,
        code: Code,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        self.seq += 1;
        self.report.push(ReportEntry {
            tool: tool.name.to_owned(),
            severity,
            code,
            feature: feature.to_owned(),
            pointer,
            from: self.source.name().to_owned(),
            to: self.target.name().to_owned(),
            message,
            order: (tool.at, at, self.seq),
        });
    }
}

/// Runs every pass on one tool, in the one fixed order. Returns whether the tool is emitted
/// (a tool the target cannot hold at all is left out, with an error entry).
pub(crate) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    // 1. envelope: metadata, output schema and `strict` the target cannot hold; built-in tools.
    if !envelope::run(tool, cx) {
        return Ok(false);
    }
    // 2. root: an object schema at the root where the target requires one.
    if !root::run(tool, cx) {
        return Ok(false);
    }
    // 3. policy: each keyword's action from the target profile (keep / drop).
    policy::run(tool, cx)?;
    Ok(true)
}
