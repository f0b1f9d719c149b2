//! Where a looser subschema does not make a looser node, and what the policy does there
//! instead, so that no rewrite refuses what the source accepted (beyond what strict mode
//! closes): `oneOf` branches, `not` and `if` rewritten from what their subschemas became
//! ([`Policy::loosened`]); `additionalProperties` that goes with the `patternProperties`
//! beside it; and the keyword values that constrain nothing, left out with an `info` entry.

use crate::error::ConversionError;
use crate::ir::{Entry, Keyword, Schema, Tool, Value, is_vacuous};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use super::super::combinators::all_disjoint;
use super::{Policy, action};
use crate::ir::visit::entry_name;
use crate::passes::cow::CowSlice;
use crate::passes::cx::PassCx;
use crate::passes::describe::render;
use crate::passes::node::arena_error;
use crate::passes::walk::rewrite;

impl Policy {
    /// The keyword `e` of `s`, not monotone (see [`not_monotone`]), with its subschemas
    /// rewritten by the policy: kept as they became where the node accepts no less than the
    /// source did, and otherwise rewritten or described whole (the entries about its
    /// subschemas are then taken back: they describe what is no longer written).
    ///
    /// - `oneOf`: kept where no subschema accepts more, or where the branches, as they became,
    ///   are provably disjoint ("exactly one" is then "at least one", which accepts more when a
    ///   branch does); otherwise written as `anyOf` where the target keeps it (at least one of
    ///   the looser branches: every value the source accepted), else described whole.
    /// - `not`, `if`: kept where no subschema accepts more; otherwise described whole (a looser
    ///   `not` refuses more; a looser `if` sends other values to `then`), `if` with its `then`
    ///   and `else`.
    pub(super) fn loosened<'a>(
        &mut self,
        e: &Entry<'a>,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Loose<'a>, ConversionError> {
        let (mark, before) = (cx.report.len(), self.widened);
        let here = path.push(Seg::Key(entry_name(e)));
        let value = match e.value {
            Value::Schema(x) => match rewrite(x, &here, tool, cx, self)? {
                Some(new) => {
                    Some(Value::Schema(cx.arena.try_alloc(new).map_err(|_| arena_error(path, cx))?))
                }
                None => None,
            },
            Value::Schemas(list) => {
                let mut out = CowSlice::new(list);
                for (i, b) in list.iter().enumerate() {
                    match rewrite(b, &here.push(Seg::Index(i)), tool, cx, self)? {
                        Some(new) => {
                            out.changed(i, new, cx.arena).map_err(|()| arena_error(path, cx))?
                        }
                        None => out.same(i),
                    }
                }
                out.finish().map(Value::Schemas)
            }
            _ => None,
        };
        let rewritten = Entry { value: value.unwrap_or(e.value), ..*e };
        let value = self.booleans_of(&rewritten, path, tool, cx)?.or(value);
        if self.widened == before {
            return Ok(Loose::Kept(value, e.keyword));
        }
        let written = value.unwrap_or(e.value);
        let whole = match (e.keyword, written) {
            (Keyword::OneOf, Value::Schemas(list)) if all_disjoint(list) => {
                return Ok(Loose::Kept(value, e.keyword));
            }
            (Keyword::OneOf, _)
                if cx.profile.action(Keyword::AnyOf) == Action::Keep
                    && s.get(Keyword::AnyOf).is_none() =>
            {
                one_of_as_any_of(e, path, tool, cx);
                return Ok(Loose::Kept(Some(written), Keyword::AnyOf));
            }
            (Keyword::OneOf, _) => ONE_OF_WHOLE,
            (Keyword::Not, _) => NOT_WHOLE,
            _ => IF_WHOLE,
        };
        cx.report.truncate(mark);
        // What is described whole accepts more, where it is.
        self.widened = before + 1;
        Ok(Loose::Whole(whole))
    }
}

/// What becomes of a keyword that is not monotone (see [`Policy::loosened`]).
pub(super) enum Loose<'a> {
    /// Written as this keyword (`oneOf` may become `anyOf`), with this value (`None`: the
    /// keyword's own, unchanged).
    Kept(Option<Value<'a>>, Keyword),
    /// Described whole, for this reason.
    Whole(Why),
}

/// Whether accepting more in a subschema of `keyword` can make its node accept less: `oneOf`
/// (a looser branch may overlap another, and "exactly one" then refuses the values both
/// accept), `not` (refuses more), `if` (sends other values to `then`). Every other keyword
/// is monotone: a looser subschema, a looser node.
pub(super) fn not_monotone(keyword: Keyword) -> bool {
    matches!(keyword, Keyword::OneOf | Keyword::Not | Keyword::If)
}

/// [`is_vacuous`] for the keyword `e` of `s`, in `tool`'s schemas.
pub(super) fn vacuous_in(e: &Entry<'_>, s: &Schema<'_>, tool: &Tool<'_>) -> bool {
    is_vacuous(e, s, tool.features())
}

/// Whether `s` has a `patternProperties` that admits keys and that the policy takes out.
pub(super) fn patterns_go(s: &Schema<'_>, tool: &Tool<'_>, cx: &PassCx<'_, '_>) -> bool {
    s.keywords.iter().any(|e| {
        e.keyword == Keyword::PatternProperties
            && matches!(action(e, &cx.profile), Action::Drop | Action::Describe)
            && !vacuous_in(e, s, tool)
    }) && s.get(Keyword::AdditionalProperties).is_some_and(|e| !vacuous_in(e, s, tool))
}

/// Records that the `oneOf` `e`, whose branches now accept more, is written as `anyOf`.
fn one_of_as_any_of(e: &Entry<'_>, path: &Path<'_>, tool: &Tool<'_>, cx: &mut PassCx<'_, '_>) {
    let message = format!(
        "the branches of `oneOf` lost constraints {} lacks (described in them), and as `oneOf` looser branches that overlap would refuse the values they share, which the source accepted; written as `anyOf`, which accepts every value the source did (and a value matching several branches too)",
        cx.profile.name()
    );
    // "At least one" of branches that may overlap accepts what "exactly one" refused.
    let place = path.push(Seg::Key("oneOf"));
    let note = Note {
        kind: EntryKind::arguments(Code::CombinatorRewritten, Effect::Widens),
        feature: "oneOf",
        pointer: PathPointer(&place),
        message,
    };
    cx.record(tool, e.at, note);
}

/// Why a keyword is described: the pieces of its entry's message around the target's name,
/// and after the described value.
#[derive(Clone, Copy)]
pub(super) struct Why {
    pub lead: &'static str,
    pub tail: &'static str,
    pub after: &'static str,
    /// The keyword goes whole, with every subschema as the source wrote it.
    pub whole: bool,
    /// What its going does to the calls accepted, where the reason decides it (`None`: the
    /// keyword does, see `effect_of_going`).
    pub effect: Option<Effect>,
}

/// The target has no such keyword.
pub(super) const UNSUPPORTED: Why =
    Why { lead: "is not supported by ", tail: "", after: "", whole: false, effect: None };

/// `patternProperties` beside a strict object's `additionalProperties: false`.
pub(super) const PATTERNS_REFUSED: Why = Why {
    lead: "is not supported by ",
    tail: "",
    after: "; the object stays closed (`additionalProperties: false`), so the keys these patterns admitted are refused now (fewer calls are accepted)",
    whole: false,
    effect: Some(Effect::Narrows),
};

/// A kept `additionalProperties` beside `patternProperties` that goes.
pub(super) const WITH_PATTERNS: Why = Why {
    lead: "left alone would refuse the keys `patternProperties` admitted (",
    tail: " lacks `patternProperties`); it goes with the patterns, so the object accepts more, never less",
    after: "",
    whole: false,
    effect: Some(Effect::Widens),
};

/// A `oneOf` whose branches accept more, and may overlap.
pub(super) const ONE_OF_WHOLE: Why = Why {
    lead: "branches lost constraints ",
    tail: " lacks, and looser branches that overlap would refuse the values they share (\"exactly one\")",
    after: "",
    whole: true,
    effect: Some(Effect::Widens),
};

/// A `not` whose subschema accepts more.
pub(super) const NOT_WHOLE: Why = Why {
    lead: "holds constraints ",
    tail: " lacks, and a looser `not` refuses more",
    after: "",
    whole: true,
    effect: Some(Effect::Widens),
};

/// An `if` whose subschema accepts more.
pub(super) const IF_WHOLE: Why = Why {
    lead: "holds constraints ",
    tail: " lacks, and a looser `if` sends other values to `then` (its `then` and `else` go with it)",
    after: "",
    whole: true,
    effect: Some(Effect::Widens),
};

/// The `then` or `else` of an `if` described whole.
pub(super) const THEN_ELSE: Why = Why {
    lead: "goes with its `if`, which holds constraints ",
    tail: " lacks",
    after: "",
    whole: true,
    effect: Some(Effect::Widens),
};

/// Records that `e`, whose value constrains nothing, is left out.
#[cold]
pub(super) fn vacuous(e: &Entry<'_>, path: &Path<'_>, tool: &Tool<'_>, cx: &mut PassCx<'_, '_>) {
    let name = entry_name(e);
    let value = match e.value {
        Value::Str(s) => format!("\"{s}\""),
        v => render(&v),
    };
    let message =
        format!("`{name}: {value}` constrains nothing; left out (the same values are accepted)");
    let place = path.push(Seg::Key(name));
    let note = Note {
        kind: EntryKind::arguments(Code::KeywordDropped, Effect::None),
        feature: name,
        pointer: PathPointer(&place),
        message,
    };
    cx.record(tool, e.at, note);
}
