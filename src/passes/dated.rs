//! Dated-limits pass: a description cut at the target's dated limit, when the caller asks the
//! conversion to obey such limits ([`crate::Options::dated_limits`]).
//!
//! Input: a tool after every other pass (so a description the passes wrote into is cut as it
//! will be sent). Output: the same tool, its description no longer than the limit, and a
//! `dated-limit` warning saying how much was cut. Without the option nothing changes here:
//! `check` reports the limit, and the writer sends what the source wrote.

use crate::ir::Tool;
use crate::report::{Code, EntryKind, Note};

use crate::passes::cx::PassCx;

/// Cuts the tool's description at the target's dated character limit, when the options obey
/// dated limits and the description is longer.
pub(super) fn run(tool: &mut Tool<'_>, cx: &mut PassCx<'_, '_>) {
    if !cx.options().dated_limits {
        return;
    }
    let Some(limit) = cx.target().profile().provider_limits().description_chars else { return };
    let Some(description) = tool.description else { return };
    // Characters, as the provider counted them ("Expected a string with maximum length 1024").
    let Some((end, _)) = description.char_indices().nth(limit.max) else { return };
    let (Some(kept), Some(rest)) = (description.get(..end), description.get(end..)) else {
        return;
    };
    let cut = rest.chars().count();
    tool.description = Some(kept);
    let message = format!(
        "the description was cut at {}'s dated limit of {} characters (enforced {}; {}): the last {cut} characters are not sent",
        cx.target().name(),
        limit.max,
        limit.enforced,
        limit.source
    );
    // The description guides the model; no argument is accepted or refused for it.
    let note = Note {
        kind: EntryKind::guarantee_lost(Code::DatedLimit),
        feature: "description",
        pointer: format!("{}/description", tool.members_pointer),
        message,
    };
    cx.record(tool, tool.at, note);
}
