//! What the readers said about the tools ([`crate::lower::ReadNote`]), put in the report before the passes
//! run; the tools a note leaves out are taken out of the catalog first, so no pass, check or
//! writer sees them.

use crate::report::{Note, Recorder, Report};
use crate::route::Route;

use super::document::Lowered;

/// Records `lowered`'s notes about its tools in `report` and takes the tools they leave out
/// out of `lowered.tools` (the others keep their order). Nothing to do, and nothing
/// allocated, when the readers said nothing.
pub(super) fn apply(lowered: &mut Lowered<'_>, route: &Route<'_>, report: &mut Report) {
    if lowered.notes.is_empty() {
        return;
    }
    let notes = std::mem::take(&mut lowered.notes);
    let mut recorder = Recorder::new(report, route.source.name(), route.target.name());
    for n in &notes {
        let name = lowered.tools.iter().find(|t| t.at == n.tool_at).map_or("", |t| t.name);
        let Note { kind, feature, ref pointer, ref message } = n.note;
        let note = Note { kind, feature, pointer: pointer.as_str(), message: message.as_str() };
        recorder.record(name, (n.tool_at, n.at), note, |_| false);
    }
    let left_out = |at: u32| notes.iter().any(|n| n.leave_out && n.tool_at == at);
    let tools = std::mem::take(&mut lowered.tools);
    let mut kept = 0;
    for i in 0..tools.len() {
        if tools.get(i).is_some_and(|t| !left_out(t.at)) {
            tools.swap(kept, i);
            kept += 1;
        }
    }
    lowered.tools = tools.split_at_mut(kept).0;
}
