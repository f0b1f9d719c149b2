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

/// Copy-on-write over an arena slice: walking an unchanged slice allocates nothing; the first
/// change copies what came before it once, and later elements are appended as they go.
pub(crate) struct CowSlice<'a, T: Copy> {
    src: &'a [T],
    out: Option<(&'a mut [T], usize)>,
}

impl<'a, T: Copy> CowSlice<'a, T> {
    pub fn new(src: &'a [T]) -> Self {
        CowSlice { src, out: None }
    }

    /// Element `i` of the source is kept as it is.
    pub fn same(&mut self, i: usize) {
        if let (Some((slots, n)), Some(v)) = (self.out.as_mut(), self.src.get(i))
            && let Some(slot) = slots.get_mut(*n)
        {
            *slot = *v;
            *n += 1;
        }
    }

    /// Element `i` of the source becomes `new`.
    pub fn changed(&mut self, i: usize, new: T, arena: &'a Bump) -> Result<(), ()> {
        let (slots, n) = self.start(i, arena)?;
        if let Some(slot) = slots.get_mut(*n) {
            *slot = new;
            *n += 1;
        }
        Ok(())
    }

    /// Element `i` of the source is left out.
    pub fn removed(&mut self, i: usize, arena: &'a Bump) -> Result<(), ()> {
        self.start(i, arena).map(|_| ())
    }

    fn start(&mut self, i: usize, arena: &'a Bump) -> Result<&mut (&'a mut [T], usize), ()> {
        if self.out.is_none() {
            let slots = arena.try_alloc_slice_copy(self.src).map_err(|_| ())?;
            self.out = Some((slots, i.min(self.src.len())));
        }
        self.out.as_mut().ok_or(())
    }

    /// The new slice, or `None` when nothing changed.
    pub fn finish(self) -> Option<&'a [T]> {
        self.out.map(|(slots, n)| &*slots.split_at_mut(n.min(slots.len())).0)
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
