//! Passes over the IR, between lowering and emission.
//!
//! The order is fixed here, once, in [`run`]. Each pass is one file with one concern; a pass
//! returns nodes unchanged when nothing applies, so the common path allocates nothing. A pass
//! that changes or drops anything records a report entry with the source pointer, through
//! [`PassCx::record`].

mod combinators;
mod cow;
mod dated;
mod describe;
mod dialect;
mod envelope;
mod merge;
pub(crate) mod names;
mod policy;
mod refs;
mod root;
mod shape;
mod strict;
mod turning;
mod walk;

pub(crate) use crate::ir::features_of;
pub(crate) use crate::ir::visit::entry_name;
pub(crate) use cow::CowSlice;
pub(crate) use describe::{append_description, append_note, render, render_to};
pub(crate) use policy::keeps;
#[cfg(test)]
pub(crate) use refs::resolve;
pub(crate) use refs::{Document, RECURSIVE, Target, first_recursive_ref, percent_decode};
pub(crate) use walk::{NodeRule, rewrite, rewrite_tool};

use bumpalo::Bump;

use crate::adapter::Adapter;
use crate::context::Context;
use crate::error::ConversionError;
use crate::ir::measure::CatalogCounts;
use crate::ir::{Entry, Keyword, Schema, Tool};
use crate::options::Options;
use crate::pointer::Path;
use crate::profile::Profile;
use crate::report::{Code, EntryKind, Note, Recorder, Report, Text};
use crate::route::Route;

/// What the passes share: the arena, the route (the two formats and what is decided about
/// them), the profile in force, the options and the report.
pub(crate) struct PassCx<'a, 'c> {
    pub arena: &'a Bump,
    /// The conversion's context, borrowed: its route (what was decided about the conversion
    /// at entry) and the caller's options.
    context: &'c Context<'c>,
    /// What was decided about the conversion at entry (the context's).
    pub route: &'c Route<'c>,
    /// The profile the passes follow: the route's base one, or the strict one while a tool is
    /// made strict. Outside [`run`] it is whichever the last tool used ([`PassCx::base_profile`]
    /// is the base one).
    pub profile: Profile,
    /// The report, written through [`PassCx::record`]: the texts entries repeat (a note on a
    /// member every tool carries, a root pointer) are written once.
    pub report: Recorder<'c, 'c>,
    /// The strict tools of the catalog so far, for per-request limits.
    pub catalog: CatalogCounts,
    /// Where a description note is written before it is copied into the arena at its final
    /// size; the converter's, so a warm conversion writes notes without allocating.
    pub text: &'c mut String,
    /// Whether `profile` holds the strict profile. It is switched only when a tool needs the
    /// other one: the tools of a strict conversion mostly all are strict, and a profile is a
    /// few hundred bytes to copy into place and back for every tool.
    strict_on: bool,
    /// Whether `profile` holds the profile of the format's other schema field
    /// ([`Route::other_field`]).
    other_on: bool,
    /// Which definitions of the current tool a `$ref` may bring under a `oneOf`, `not` or
    /// `if`, worked out when first asked.
    turning: turning::Turning,
    /// The `type` keywords of the scalar branches the shape pass gives a node of any value,
    /// made once per conversion and shared by every such node (see `shape::types`).
    pub(crate) scalar_types: Option<&'a [Entry<'a>; 3]>,
}

impl<'a, 'c> PassCx<'a, 'c> {
    pub fn new(
        arena: &'a Bump,
        context: &'c Context<'c>,
        report: &'c mut Report,
        text: &'c mut String,
        input_len: usize,
    ) -> Self {
        let (route, limits) = (&context.route, context.limits());
        PassCx {
            arena,
            context,
            route,
            profile: route.profile,
            report: Recorder::new(report, route.source.name(), route.target.name())
                .budget(limits.max_arena_bytes)
                .long_pointers(limits.output_limit(input_len)),
            catalog: CatalogCounts::default(),
            text,
            strict_on: false,
            other_on: false,
            turning: turning::Turning::default(),
            scalar_types: None,
        }
    }

    /// The format read.
    #[inline]
    pub fn source(&self) -> &'c dyn Adapter {
        self.context.source()
    }

    /// The format written.
    #[inline]
    pub fn target(&self) -> &'c dyn Adapter {
        self.context.target()
    }

    /// Whether the source and the target are one format ([`Route::same_format`]).
    #[inline]
    pub fn same_format(&self) -> bool {
        self.context.same_format()
    }

    /// The caller's options.
    #[inline]
    pub fn options(&self) -> &'c Options {
        self.context.options
    }

    /// The target's strict profile with the caller's overrides, when it has one.
    pub fn strict_profile(&self) -> Option<Profile> {
        self.route.strict_profile
    }

    /// The target profile with the caller's overrides, for `tool` when it is not strict (a
    /// tool in the format's other schema field has that field's: [`Route::base_profile`]).
    pub fn base_profile(&self, tool: &Tool<'_>) -> &Profile {
        self.route.base_profile(tool)
    }

    /// Puts the strict profile (`strict`, where the target has one) or `tool`'s base one in
    /// `profile`, unless it is there already.
    #[inline]
    fn use_strict(&mut self, tool: &Tool<'_>, strict: bool) {
        let other = !strict && self.route.other_field.is_some_and(|(_, f)| f.holds(tool));
        if self.strict_on != strict || self.other_on != other {
            self.profile = match self.route.strict_profile {
                Some(p) if strict => p,
                _ => *self.route.base_profile(tool),
            };
            self.strict_on = strict;
            self.other_on = other;
        }
    }

    /// Records `note` about `tool` at source position `at`.
    ///
    /// A change inside a definition acts wherever a `$ref` brings the definition: under a
    /// `oneOf`, a `not` or an `if`, a subschema that accepts more can make the node accept
    /// less and the other way round. So a widening or a narrowing recorded in a definition
    /// that a `$ref` may bring under one of those says `changes` ([`turning`]).
    #[inline]
    pub fn record<P: Text, M: Text>(
        &mut self,
        tool: &Tool<'_>,
        at: u32,
        mut note: Note<&str, P, M>,
    ) {
        // Into its own format, whatever a pass changes is a change to the file the caller
        // wrote for that provider, which it would otherwise take back as it gave it: a
        // warning, whatever it does to the calls.
        if self.same_format() {
            note.kind = note.kind.in_own_format();
        }
        let name = tool.source_name.unwrap_or(tool.name);
        let turning = &mut self.turning;
        self.report.record(name, (tool.at, at), note, |pointer| turning.turns(tool, pointer));
    }
}

/// The position and the entry of `keyword` in a node, when it has one.
pub(crate) fn find<'a>(s: &Schema<'a>, keyword: Keyword) -> Option<(usize, Entry<'a>)> {
    s.keywords.iter().copied().enumerate().find(|(_, e)| e.keyword == keyword)
}

/// `s` (at `path`) with these keywords instead of its own, copied into the arena.
pub(crate) fn with_keywords<'a>(
    s: &Schema<'a>,
    keywords: &[Entry<'a>],
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let keywords = cx.arena.try_alloc_slice_copy(keywords).map_err(|_| arena_error(path, cx))?;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), ..*s })
}

/// The arena ran out while a pass rewrote the node at `path`.
#[cold]
pub(crate) fn arena_error(path: &Path<'_>, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target().name(),
        crate::error::Direction::FromCanonical,
        path.to_pointer(),
        crate::error::ErrorKind::ArenaLimit { limit: cx.options().limits.max_arena_bytes },
    )
}

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
