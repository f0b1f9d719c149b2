//! Strict pass: a tool schema the provider's strict mode accepts (OpenAI Structured Outputs,
//! Anthropic strict tool use), or the reason it cannot be one.
//!
//! Input: a tool after the other passes, run with the target's strict profile (so keywords
//! outside the strict subset are already described or dropped). Output: every object closed
//! with `additionalProperties: false`; for OpenAI every property required, an optional one made
//! nullable (a type array, or `anyOf` with `null` for refs, enums and consts) and marked on its
//! [`Prop`](crate::ir::Prop) so the inverse map drops the nulls the model sends for it. A
//! schema that would accept something different once strict (an open object, a map, an untyped
//! or item-less array, a recursive ref where the provider has none) or that breaks a size limit
//! is not changed: the pass returns why, and the caller emits the tool non-strict or leaves it
//! out.
//!
//! Sources: see `profile.rs` (the strict profiles and their limits).
//!
//! Here: the pass's entry, its limits and its report note. The rewrite of the schema is in
//! `rewrite`, closing objects and widening optional properties in `widen`; recursion is looked
//! for with the refs pass's resolution (`refs::first_recursive_ref`), and sizes are counted by
//! [`crate::ir::measure`], as the pre-flight check counts them.

mod rewrite;
mod widen;

#[cfg(test)]
mod tests;

use crate::error::ConversionError;
use crate::ir::measure::{self, SchemaCounts};
use crate::ir::{Entry, JsonType, Keyword, Schema, SchemaFeature, Tool, Types, Value, features_of};
use crate::pointer::{Path, Seg};
use crate::profile::{Limit, StrictRules};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer, Shared};

use crate::ir::refs::RECURSIVE;

use crate::ir::refs::first_recursive_ref;
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use rewrite::{StrictRewrite, WantedParams};

/// Why a tool cannot be strict: the place (RFC 6901 pointer into the source tool) and the
/// reason, for the report.
#[derive(Debug)]
pub(crate) struct NotStrict {
    pub pointer: String,
    pub reason: String,
    /// Position in the source, for report order.
    pub at: u32,
}

impl NotStrict {
    /// The schema at `path` is recursive, at the `$ref` at `at`, and the provider's strict
    /// mode has no recursion.
    fn recursive(path: &Path<'_>, at: u32) -> NotStrict {
        NotStrict { pointer: path.to_pointer(), reason: RECURSIVE.into(), at }
    }
}

/// Why the strict rewrite of a schema stops: the schema cannot be strict, or the conversion
/// failed (the arena is full).
enum StrictError {
    NotStrict(NotStrict),
    Conversion(ConversionError),
}

impl From<ConversionError> for StrictError {
    fn from(e: ConversionError) -> Self {
        StrictError::Conversion(e)
    }
}

/// Makes `tool` strict under `rules`; `Ok(Err(_))` says why it cannot be.
pub(super) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
    rules: StrictRules,
) -> Result<Result<(), NotStrict>, ConversionError> {
    let base = Path::ROOT;
    let path = base.push(Seg::Raw(tool.input_pointer));
    let input = match tool.input {
        Some(s) => s,
        // A function without parameters takes no arguments: the empty closed object says
        // exactly that (it is not an open object being closed).
        None => closed_empty_object(tool.at, &path, cx)?,
    };
    // Without a `$ref` anywhere (the feature bits hold the children's) there is no cycle to
    // look for, nor a copy of the root in the arena for the search to resolve refs in.
    if !rules.recursion && input.features.contains(SchemaFeature::Ref) {
        let root = cx.arena.try_alloc(input).map_err(|_| arena_error(&path, cx))?;
        if let Some(at) = first_recursive_ref(root) {
            return Ok(Err(NotStrict::recursive(&path, at)));
        }
    }
    debug_assert!(
        rules.recursion
            || input.features.contains(SchemaFeature::Ref)
            || first_recursive_ref(&input).is_none()
    );
    let root = &input;
    // Only the per-request limits read the optional and union-typed parameters, and those
    // are the costly counts (a `required` lookup and a keyword scan per property).
    let limits = cx.profile.provider_limits();
    let wanted = WantedParams {
        optional: limits.optional_params.is_some(),
        unions: limits.union_params.is_some(),
    };
    let mut closed_at = std::mem::take(cx.text);
    closed_at.clear();
    let mut strict = StrictRewrite {
        cx,
        tool: &*tool,
        rules,
        widened: false,
        closed: 0,
        closed_at,
        wanted,
        counts: SchemaCounts::default(),
        closes_all: true,
    };
    let done = strict.schema(root, &path, true, 0);
    let closed_at = std::mem::take(&mut strict.closed_at);
    let (widened, closed, counts, closes_all) =
        (strict.widened, strict.closed, strict.counts, strict.closes_all);
    let new = match done {
        Ok(s) => s,
        Err(e) => {
            *cx.text = closed_at;
            return match e {
                StrictError::NotStrict(n) => Ok(Err(n)),
                StrictError::Conversion(e) => Err(e),
            };
        }
    };
    debug_assert_eq!(counts, wanted.of(measure::measure(&new)), "the strict rewrite's counts");
    if let Some(n) = over_limits(&counts, tool, &path, cx) {
        *cx.text = closed_at;
        return Ok(Err(n));
    }
    if closed > 0 {
        // One entry for the tool, however many objects were closed: their count and
        // pointers. The same pointer and note for many tools (the root alone closed, as a
        // rule): shared. Every object closed declares properties (one without falls back):
        // the keys it does not declare were accepted and are refused now.
        let pointer = Shared::new([tool.input_pointer]).or(PathPointer(&path));
        let root_only = closed == 1 && closed_at == tool.input_pointer;
        let pieces = [CLOSED_NOTE.0, "1", CLOSED_NOTE.1, tool.input_pointer];
        let message = Shared::when(root_only, pieces)
            .or(|out: &mut String| closed_note(out, closed, &closed_at));
        let note = Note {
            kind: EntryKind::arguments(Code::ObjectClosed, Effect::Narrows),
            feature: "additionalProperties",
            pointer,
            message,
        };
        cx.record(tool, root.at, note);
    }
    *cx.text = closed_at;
    cx.catalog.strict_tools += 1;
    cx.catalog.optional += counts.optional;
    cx.catalog.unions += counts.unions;
    tool.input = Some(new);
    tool.strict = Some(true);
    tool.strict_closed = closes_all;
    tool.remapped |= widened;
    Ok(Ok(()))
}

/// The strict pass's note on closed objects, around their count, before their pointers.
const CLOSED_NOTE: (&str, &str) = (
    "strict mode closes every object with \"additionalProperties\": false: the keys an object does not declare, which it accepted, are refused now (fewer calls are accepted; the model only sends declared keys); objects closed: ",
    ", at ",
);

/// The strict pass's note on the `closed` objects of a tool, at `pointers`.
fn closed_note(out: &mut String, closed: usize, pointers: &str) {
    out.push_str(CLOSED_NOTE.0);
    push_count(out, closed);
    out.push_str(CLOSED_NOTE.1);
    out.push_str(pointers);
}

/// Appends `n` in decimal, as `{n}` formats it, without the formatting machinery (one
/// report entry per closed tool).
fn push_count(out: &mut String, n: usize) {
    // One digit, as most counts here are: one push, no buffer.
    if let Ok(d) = u8::try_from(n)
        && d < 10
    {
        out.push(char::from(b'0' + d));
        return;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            // A digit: `n % 10` is below 10.
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    // ASCII digits: each byte is its own `char`, so no UTF-8 check is needed.
    out.extend(digits.get(at..).unwrap_or_default().iter().map(|&d| char::from(d)));
}

/// The first per-tool or per-request limit `counts` breaks.
fn over_limits(
    counts: &SchemaCounts,
    tool: &Tool<'_>,
    path: &Path<'_>,
    cx: &PassCx<'_, '_>,
) -> Option<NotStrict> {
    let limits = cx.profile.provider_limits();
    let catalog = cx.catalog;
    // Every count against its limit first, with nothing else: a tool rarely breaks one.
    let within = |limit: &Option<Limit>, n: usize| limit.as_ref().is_none_or(|l| n <= l.max);
    if within(&limits.properties, counts.properties)
        && within(&limits.depth, counts.depth)
        && within(&limits.enum_values, counts.enum_values)
        && within(&limits.schema_chars, counts.chars)
        && within(&limits.strict_tools, catalog.strict_tools + 1)
        && within(&limits.optional_params, catalog.optional + counts.optional)
        && within(&limits.union_params, catalog.unions + counts.unions)
    {
        return None;
    }
    // Checked one after the other, not gathered first: most targets have few of these limits.
    let over = |limit: Option<Limit>, n: usize, what: &str| {
        let limit = limit?;
        (n > limit.max).then(|| {
            // Written by hand: past a per-request limit, every further tool of the catalog
            // falls back here.
            let mut reason = String::with_capacity(what.len() + limit.source.len() + 48);
            push_count(&mut reason, n);
            reason.push(' ');
            reason.push_str(what);
            reason.push_str(" is over the limit of ");
            push_count(&mut reason, limit.max);
            reason.push_str(" (");
            reason.push_str(limit.source);
            reason.push(')');
            NotStrict { pointer: path.to_pointer(), reason, at: tool.at }
        })
    };
    over(limits.properties, counts.properties, "object properties in one strict schema")
        .or_else(|| over(limits.depth, counts.depth, "levels of object nesting"))
        .or_else(|| {
            over(limits.enum_values, counts.enum_values, "enum values in one strict schema")
        })
        .or_else(|| {
            over(limits.schema_chars, counts.chars, "characters of names and enum/const values")
        })
        .or_else(|| {
            over(limits.strict_tools, catalog.strict_tools + 1, "strict tools in one request")
        })
        .or_else(|| {
            over(
                limits.optional_params,
                catalog.optional + counts.optional,
                "optional parameters across the strict tools of one request",
            )
        })
        .or_else(|| {
            over(
                limits.union_params,
                catalog.unions + counts.unions,
                "union-typed parameters across the strict tools of one request",
            )
        })
}

/// `{"type": "object", "properties": {}, "additionalProperties": false}`: no arguments.
fn closed_empty_object<'a>(
    at: u32,
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let arena = cx.arena;
    let err = || arena_error(path, cx);
    let closed = arena.try_alloc(Schema::bool(false, at)).map_err(|_| err())?;
    let all = [
        Entry { keyword: Keyword::Type, at, value: Value::Type(Types::one(JsonType::Object)) },
        Entry { keyword: Keyword::Properties, at, value: Value::Props(&[]) },
        Entry { keyword: Keyword::AdditionalProperties, at, value: Value::Schema(closed) },
    ];
    let keywords = arena.try_alloc_slice_copy(&all).map_err(|_| err())?;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), at })
}
