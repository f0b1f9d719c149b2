//! Passes over the IR, between lowering and emission: this file is the stage's seam, the
//! order the passes run in ([`run`]) and nothing else.
//!
//! Each pass is one file with one concern; a pass returns nodes unchanged when nothing
//! applies, so the common path allocates nothing. A pass that changes or drops anything
//! records a report entry with the source pointer, through [`PassCx::record`] (`cx.rs`, what
//! the passes share); the node helpers they share are in `node.rs`, the copy-on-write walk in
//! `walk.rs`. The schema helpers other stages read too (`$ref` resolution, names) are in
//! `crate::ir`.

mod combinators;
mod cow;
pub(crate) mod cx;
mod dated;
mod describe;
mod dialect;
mod envelope;
mod merge;
pub(crate) mod names;
mod node;
mod policy;
mod refs;
mod root;
mod shape;
mod strict;
mod turning;
mod walk;

use crate::error::ConversionError;
use crate::ir::Tool;
use crate::report::{Code, EntryKind, Note};

use cx::PassCx;

/// Runs every pass on one tool, in the one fixed order. Returns whether the tool is emitted
/// (a tool the target cannot hold at all is left out, with an error entry).
///
/// A tool to be made strict runs the passes with the target's strict profile, then the strict
/// pass. When that finds the schema cannot be strict, the tool and the report are put back and
/// the passes run again with the ordinary profile, so a non-strict tool loses no more than any
/// other conversion would; or, when strict is required, the tool is left out.
pub(crate) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    let kept = run_tool(tool, cx)?;
    // Whatever skips a subtree by its features (the check, the walks) relies on this.
    debug_assert!(
        tool.input.as_ref().is_none_or(crate::ir::covers),
        "a pass left a node's features short of its subtree's"
    );
    Ok(kept)
}

/// [`run`] of one tool, before its output is asserted.
fn run_tool<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<bool, ConversionError> {
    let route = cx.route;
    let (Some(required), Some(strict_profile)) =
        (route.strict_wanted(tool), route.strict_profile.as_ref())
    else {
        cx.use_strict(tool, false);
        let kept = run_all(tool, cx)?;
        if route.states_not_strict(tool.strict) && tool.opaque.is_none() {
            tool.strict = Some(false);
        }
        if kept && !route.makes_strict {
            no_strict_mode(tool, cx);
        }
        return Ok(kept);
    };
    let Some(rules) = strict_profile.strict_rules() else {
        cx.use_strict(tool, false);
        return run_all(tool, cx);
    };
    let (saved, mark) = (*tool, cx.report.len());
    cx.use_strict(tool, true);
    let kept = run_all(tool, cx);
    let outcome = match &kept {
        Ok(true) => strict::run(tool, cx, rules),
        _ => Ok(Ok(())),
    };
    let not_strict = match (kept?, outcome?) {
        (false, _) => return Ok(false),
        (true, Ok(())) => return Ok(true),
        (true, Err(n)) => n,
    };
    cx.report.truncate(mark);
    *tool = saved;
    cx.use_strict(tool, false);
    if required {
        let message = [
            "strict mode is required, and the tool cannot be strict for ",
            cx.target().name(),
            ": ",
            &not_strict.reason,
            "; the tool is left out",
        ];
        // Left out: every call of the tool is refused.
        let note = Note {
            kind: EntryKind::left_out(Code::StrictImpossible),
            feature: "strict",
            pointer: not_strict.pointer,
            message,
        };
        cx.record(tool, not_strict.at, note);
        return Ok(false);
    }
    let kept = run_all(tool, cx)?;
    let message = [
        "the tool cannot be strict for ",
        cx.target().name(),
        ": ",
        &not_strict.reason,
        "; written with \"strict\": false",
    ];
    // Written as a plain conversion writes it: the same calls are accepted (effect none), but
    // the provider does not hold the model's arguments to the schema. The strict guarantee the
    // source or the caller asked for is lost, which a caller must see: one of the few entries
    // of effect none that is a warning (`Strict::Require` refuses the tool instead).
    let note = Note {
        kind: EntryKind::guarantee_lost(Code::StrictFallback),
        feature: "strict",
        pointer: not_strict.pointer,
        message,
    };
    cx.record(tool, not_strict.at, note);
    tool.strict = Some(false);
    Ok(kept)
}

/// A profile set without a strict mode (toolfoundation) does not make a tool strict; one the
/// source marks strict is written with `strict: false` for another format, with a warning,
/// rather than claiming a strictness its schema was never made to meet. The same format keeps
/// the flag as written, as it keeps everything else.
fn no_strict_mode(tool: &mut Tool<'_>, cx: &mut PassCx<'_, '_>) {
    let crosses = !cx.same_format();
    let holds = cx.route.strict_profile.is_some();
    if !(crosses && tool.strict == Some(true) && holds && tool.opaque.is_none()) {
        return;
    }
    let at = tool.member("strict").map_or(tool.at, |m| m.at);
    let pointer = tool.member("strict").map(|m| tool.member_pointer(m)).unwrap_or_default();
    let message = format!(
        "the {} profile has no strict mode, so the tool is not made strict for {}; written with \"strict\": false",
        cx.options().profile_set.as_str(),
        cx.target().name()
    );
    // The schema is unchanged; the guarantee the source's `strict: true` gave is lost.
    let note = Note {
        kind: EntryKind::guarantee_lost(Code::StrictFallback),
        feature: "strict",
        pointer,
        message,
    };
    cx.record(tool, at, note);
    tool.strict = Some(false);
}

/// The passes every tool runs, strict or not.
fn run_all<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<bool, ConversionError> {
    // 1. envelope: metadata, output schema and `strict` the target cannot hold; built-in tools.
    if !envelope::run(tool, cx)? {
        return Ok(false);
    }
    // 2. dialect: draft-07 tuples, draft-04 boolean bounds, OpenAPI `nullable` and BFCL
    //    type names into 2020-12, where the target reads 2020-12.
    dialect::run(tool, cx)?;
    // 3. root: an object schema at the root where the target requires one (after the
    //    dialect pass, which reads BFCL's `"type": "dict"` root as an object); root
    //    combinators the target forbids described.
    if !root::run(tool, cx)? {
        return Ok(false);
    }
    // 4. shape, first part: an untyped node whose `enum`/`const` values share a type gets
    //    it, before those keywords are rewritten or described (Gemini).
    shape::typed_values(tool, cx)?;
    // 5. combinators: `oneOf` → `anyOf`, `allOf` merged, `const` → `enum`, type arrays →
    //    `nullable` / `anyOf`, where the target lacks the source form.
    combinators::run(tool, cx)?;
    // 6. policy: each remaining keyword's action from the profile (keep / describe / drop /
    //    reject); boolean subschemas for targets without them.
    if !policy::run(tool, cx)? {
        return Ok(false);
    }
    // 7. refs: local `$ref`s inlined for targets without refs (late, so every report above
    //    points into the source as written), siblings moved for targets that take none,
    //    dangling and external refs reported.
    refs::run(tool, cx)?;
    // 8. shape, second part: every node in a shape the provider accepts (its table's rules: an `anyOf`
    //    alone, a `type` everywhere, `items` on arrays, …), last among the schema passes so
    //    nothing after it adds a node that breaks one.
    shape::run(tool, cx)?;
    // 9. names: property keys the target's key rule rejects renamed (tool names are decided
    //    per catalog, before the tools run their passes).
    names::property_keys(tool, cx)?;
    // 10. envelope, again: where the tool object is its input schema (LangChain), the schema's
    //    own root `title` and `description` (the source's, or a description the passes above
    //    wrote) give way to the tool's name and description.
    envelope::schema_root(tool, cx)?;
    // 11. dated limits, when the caller obeys them: the description, as the passes above left
    //    it, cut at the target's dated limit.
    dated::run(tool, cx);
    Ok(true)
}
