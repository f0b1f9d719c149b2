//! Policy pass: apply the target profile's action (with the caller's overrides) to each keyword.
//!
//! Input: a schema whose rewrites (dialect, combinators) are done. Output: each keyword kept,
//! dropped, described (dropped, and written into the node's description as
//! `Constraints: minLength 3, format uri.` so the model still sees it) or rejected (the tool is
//! left out). Every drop, describe and reject is a report entry at the keyword's source
//! pointer. A keyword marked `rewrite` that no pass could rewrite (a non-string `const` for
//! Gemini, an `allOf` that does not merge) is described. Boolean subschemas are written as
//! object schemas for targets without them. Subtrees that use no feature the profile changes
//! are skipped by one bitset test and shared, not copied.
//!
//! Every change here makes a subschema accept more, never less; `loose` keeps that true of
//! the node too where a looser subschema would not give a looser node (`oneOf`, `not`, `if`,
//! `additionalProperties` beside `patternProperties`), and leaves out keyword values that
//! constrain nothing with an `info` entry ([`crate::ir::is_vacuous`]).

mod loose;

use smallvec::SmallVec;

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Keyword, Prop, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::{Action, Profile, keeps};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer, Shared};

use crate::passes::cow::CowSlice;

use crate::passes::walk::NodeRule;

use crate::passes::cx::PassCx;

use crate::passes::describe::append_description;

use crate::passes::describe::append_note;

use crate::passes::node::arena_error;

use crate::ir::visit::entry_name;

use crate::passes::describe::render_to;

use crate::passes::walk::rewrite_tool;
use loose::{
    Loose, PATTERNS_REFUSED, THEN_ELSE, UNSUPPORTED, WITH_PATTERNS, Why, not_monotone, patterns_go,
    vacuous, vacuous_in,
};

/// Returns whether the tool can be emitted (no keyword the policy rejects).
#[inline]
pub(super) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    let triggers = cx.profile.changed_features();
    let booleans = !cx.profile.features().contains(SchemaFeature::BooleanSchema);
    let mut policy = Policy { triggers, booleans, rejected: false, widened: 0 };
    rewrite_tool(tool, cx, &mut policy)?;
    Ok(!policy.rejected)
}

struct Policy {
    triggers: FeatureSet,
    booleans: bool,
    rejected: bool,
    /// How many changes so far made a subschema accept more (a constraint dropped or
    /// described, `false` written as `{}`): read around the subschemas of a keyword where
    /// accepting more there does not mean accepting more in the node (`loosened`).
    widened: u32,
}

/// What the policy does with `e`: most keywords are kept as they are, answered by one table
/// lookup (`action_for` and [`keeps`] refine only `rewrite`).
#[inline]
fn action(e: &Entry<'_>, profile: &Profile) -> Action {
    match profile.action(e.keyword) {
        Action::Keep => Action::Keep,
        _ => keeps(profile.action_for(e.keyword, &e.value), e.keyword, profile),
    }
}

/// What dropping or describing `keyword` does to the calls accepted: nothing for an
/// annotation, a keyword JSON Schema does not define (validators ignore it), or one that
/// names or holds schemas without applying them (`$id`, `$anchor`, `$defs`: a `$ref` left
/// pointing nowhere is reported where it is); what any other keyword refused is accepted once
/// it goes (only the model reads a description).
fn effect_of_going(keyword: Keyword) -> Effect {
    use Keyword as K;
    let applies = !matches!(
        keyword,
        K::Unknown | K::Id | K::Anchor | K::DynamicAnchor | K::Defs | K::Definitions
    );
    if keyword.is_annotation() || !applies { Effect::None } else { Effect::Widens }
}

/// The severity of dropping or describing `keyword`, whose going does `effect`: a change is
/// a warning; an annotation is `info` (unless the profile mirrors a library that warns on
/// them); a keyword the crate does not model stays a warning, since its author may have
/// given it a meaning a validator of their own applies, and so does an identifier or a
/// definition, which other keywords may point to.
fn kind(code: Code, keyword: Keyword, effect: Effect, profile: &Profile) -> EntryKind {
    match effect {
        Effect::None if !keyword.is_annotation() => EntryKind::unsure(code),
        Effect::None if profile.warns_on_annotation_drops() => EntryKind::flagged(code),
        _ => EntryKind::arguments(code, effect),
    }
}

impl<'a> NodeRule<'a> for Policy {
    fn triggers(&self) -> FeatureSet {
        self.triggers
    }

    fn descend(&self, e: &Entry<'a>, cx: &PassCx<'a, '_>) -> bool {
        // The subschemas of a keyword that is not monotone are rewritten by the node itself,
        // which decides from what they became (`loosened`).
        action(e, &cx.profile) == Action::Keep && !not_monotone(e.keyword)
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        // The note (`Constraints: minLength 3, format uri.`) is written in the converter's
        // buffer as the keywords are described, each value rendered once for both the note
        // and the report; the buffer is out of `cx` meanwhile, for the entries to be recorded.
        let mut note = None;
        let keywords = self.keywords(s, path, tool, cx, &mut note);
        let Some(mut note) = note else {
            return keywords.map(|k| k.map(|keywords| Schema { keywords, ..*s }));
        };
        let node = match keywords {
            Ok(Some(keywords)) => {
                note.push('.');
                append_note(&Schema { keywords, ..*s }, cx.arena, &mut note).map(Some)
            }
            Ok(None) => Ok(None),
            Err(e) => {
                *cx.text = note;
                return Err(e);
            }
        };
        *cx.text = note;
        node.map_err(|()| arena_error(path, cx))
    }
}

impl Policy {
    /// The node's keywords with the policy applied (`None` when none changed), every
    /// described keyword written into `note`: the converter's buffer, taken at the first.
    fn keywords<'a>(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
        note: &mut Option<String>,
    ) -> Result<Option<&'a [Entry<'a>]>, ConversionError> {
        // First the keywords whose subschemas the walk left to the node (see `loosened`),
        // before a note takes the converter's buffer: their subschemas' own notes use it.
        let mut loose: SmallVec<[(usize, Loose<'a>); 2]> = SmallVec::new();
        if s.keywords.iter().any(|e| not_monotone(e.keyword)) {
            for (i, e) in s.keywords.iter().enumerate() {
                if not_monotone(e.keyword) && action(e, &cx.profile) == Action::Keep {
                    loose.push((i, self.loosened(e, s, path, tool, cx)?));
                }
            }
        }
        let conditional = loose.iter().any(|(i, l)| {
            matches!(l, Loose::Whole(_))
                && s.keywords.get(*i).is_some_and(|e| e.keyword == Keyword::If)
        });
        // `patternProperties` that goes (described or dropped) takes a kept
        // `additionalProperties` with it where the target is not strict: left alone, it would
        // refuse the keys the patterns admitted. A strict object ends closed anyway: the
        // patterns' entry says those keys are refused now.
        let strict = cx.profile.strict_rules().is_some();
        let patterns = patterns_go(s, tool, cx);
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let action = action(e, &cx.profile);
            let whole = match e.keyword {
                Keyword::Then | Keyword::Else if conditional && action == Action::Keep => {
                    Some(THEN_ELSE)
                }
                Keyword::AdditionalProperties
                    if patterns && !strict && action == Action::Keep && !vacuous_in(e, s, tool) =>
                {
                    Some(WITH_PATTERNS)
                }
                _ => None,
            };
            let whole = whole.or_else(|| match loose.iter().find(|(j, _)| *j == i) {
                Some((_, Loose::Whole(why))) => Some(*why),
                _ => None,
            });
            if let Some(why) = whole {
                self.record(e, Action::Describe, why, path, tool, cx, note);
                out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
                continue;
            }
            if let Some((_, Loose::Kept(value, keyword))) = loose.iter().find(|(j, _)| *j == i) {
                match value {
                    Some(value) => {
                        let entry = Entry { keyword: *keyword, value: *value, ..*e };
                        out.changed(i, entry, cx.arena).map_err(|()| arena_error(path, cx))?;
                    }
                    None => out.same(i),
                }
                continue;
            }
            // A kept leaf (most keywords) holds no boolean subschema either.
            if action == Action::Keep
                && !(self.booleans
                    && matches!(e.value, Value::Schema(_) | Value::Schemas(_) | Value::Props(_)))
            {
                out.same(i);
                continue;
            }
            match action {
                Action::Keep | Action::Rewrite => match self.booleans_of(e, path, tool, cx)? {
                    Some(v) => out
                        .changed(i, Entry { value: v, ..*e }, cx.arena)
                        .map_err(|()| arena_error(path, cx))?,
                    None => out.same(i),
                },
                // A value that constrains nothing (`uniqueItems: false`, `not: false`) is
                // left out, not described: the same arguments are accepted, and prose would
                // read as a constraint. (A profile that mirrors another library's warnings
                // keeps them.)
                Action::Drop | Action::Describe
                    if !cx.profile.warns_on_annotation_drops() && vacuous_in(e, s, tool) =>
                {
                    vacuous(e, path, tool, cx);
                    out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
                }
                Action::Drop | Action::Describe => {
                    // A `$schema` naming an older draft can change how the rest is read.
                    let dialect = action == Action::Drop
                        && e.keyword == Keyword::Schema
                        && super::dialect::schema_dropped(s, e, path, tool, cx);
                    if !dialect {
                        // Beside a strict object's `additionalProperties: false`, the keys the
                        // patterns admitted are refused now.
                        let why = if e.keyword == Keyword::PatternProperties && patterns && strict {
                            PATTERNS_REFUSED
                        } else {
                            UNSUPPORTED
                        };
                        self.record(e, action, why, path, tool, cx, note);
                    }
                    out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
                }
                Action::Reject => {
                    self.rejected = true;
                    self.record(e, action, UNSUPPORTED, path, tool, cx, note);
                    out.same(i);
                }
            }
        }
        Ok(out.finish())
    }

    /// Records the entry about `e` at `path` that `action` (drop, describe or reject) makes;
    /// a described keyword is written into `note` too. Out of line: the loop over a node's
    /// keywords, most of them kept, stays small.
    #[inline(never)]
    #[allow(clippy::too_many_arguments, reason = "the walk's context, passed through")]
    fn record(
        &mut self,
        e: &Entry<'_>,
        action: Action,
        why: Why,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'_, '_>,
        note: &mut Option<String>,
    ) {
        let target = cx.profile.name();
        let name = entry_name(e);
        // The texts about a modelled keyword repeat from tool to tool: its pointer at a schema
        // root (a `$schema` in every tool) and the note on dropping it are shared. An unknown
        // keyword's (an extension, one tool's own as a rule) are not: they would take the room
        // of texts that repeat.
        let modelled = e.keyword != Keyword::Unknown;
        let at_root = modelled && path.is_raw_root(tool.input_pointer);
        let place = path.push(Seg::Key(name));
        let pointer =
            Shared::when(at_root, [tool.input_pointer, "/", name]).or(PathPointer(&place));
        // What the going does to the calls accepted: the keyword's (`effect_of_going`), or the
        // reason's where it decides (`why.effect`).
        let effect = why.effect.unwrap_or(effect_of_going(e.keyword));
        // What constrains (not an annotation, nor a keyword JSON Schema does not define) no
        // longer does: the subschema accepts more. (Counted conservatively: an identifier or a
        // definition counts, as a `$ref` may lead through it.)
        if matches!(action, Action::Drop | Action::Describe)
            && !e.keyword.is_annotation()
            && modelled
        {
            self.widened += 1;
        }
        match action {
            Action::Drop => {
                let pieces = ["`", name, "` is not supported by ", target, "; dropped"];
                let message = Shared::when(modelled, pieces);
                let kind = kind(Code::KeywordDropped, e.keyword, effect, &cx.profile);
                let note = Note { kind, feature: name, pointer, message };
                cx.record(tool, e.at, note);
            }
            Action::Describe => {
                let note = match note {
                    Some(note) => {
                        note.push_str(", ");
                        note
                    }
                    None => {
                        let taken = note.insert(std::mem::take(cx.text));
                        taken.clear();
                        taken.push_str("Constraints: ");
                        taken
                    }
                };
                note.push_str(name);
                note.push(' ');
                let at = note.len();
                render_to(&e.value, &mut |piece| note.push_str(piece));
                let value = note.get(at..).unwrap_or_default();
                let message = [
                    "`",
                    name,
                    "` ",
                    why.lead,
                    target,
                    why.tail,
                    "; moved into the description",
                    if why.whole { " whole" } else { "" },
                    " (\"",
                    name,
                    " ",
                    value,
                    "\")",
                    why.after,
                ];
                let kind = kind(Code::KeywordDescribed, e.keyword, effect, &cx.profile);
                let note = Note { kind, feature: name, pointer, message };
                cx.record(tool, e.at, note);
            }
            _ => {
                let message = ["the policy rejects `", name, "`; the tool is left out"];
                // Left out: every call of the tool is refused.
                let kind = EntryKind::left_out(Code::KeywordRejected);
                let note = Note { kind, feature: name, pointer, message };
                cx.record(tool, e.at, note);
            }
        }
    }

    /// The entry's value with boolean subschemas written as object schemas, for targets
    /// without boolean schemas; `None` when there are none.
    fn booleans_of<'a>(
        &mut self,
        e: &Entry<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Value<'a>>, ConversionError> {
        if !self.booleans {
            return Ok(None);
        }
        // `false` written as `{}` accepts more.
        let refuse_all = |b: &Schema<'_>| b.boolean == Some(false);
        let falses = match e.value {
            Value::Schema(b) => usize::from(refuse_all(b)),
            Value::Schemas(list) => list.iter().filter(|b| refuse_all(b)).count(),
            Value::Props(props) => props.iter().filter(|p| refuse_all(&p.schema)).count(),
            _ => 0,
        };
        self.widened += u32::try_from(falses).unwrap_or(u32::MAX);
        let here = path.push(Seg::Key(entry_name(e)));
        Ok(match e.value {
            Value::Schema(b) if b.boolean.is_some() => {
                let new = object_form(b, &here, tool, cx)?;
                Some(Value::Schema(cx.arena.try_alloc(new).map_err(|_| arena_error(path, cx))?))
            }
            Value::Schemas(list) if list.iter().any(|b| b.boolean.is_some()) => {
                let mut out = CowSlice::new(list);
                for (i, b) in list.iter().enumerate() {
                    if b.boolean.is_some() {
                        let new = object_form(b, &here.push(Seg::Index(i)), tool, cx)?;
                        out.changed(i, new, cx.arena).map_err(|()| arena_error(path, cx))?;
                    } else {
                        out.same(i);
                    }
                }
                out.finish().map(Value::Schemas)
            }
            Value::Props(props) if props.iter().any(|p| p.schema.boolean.is_some()) => {
                let mut out = CowSlice::new(props);
                for (i, p) in props.iter().enumerate() {
                    if p.schema.boolean.is_some() {
                        let new = object_form(&p.schema, &here.push(Seg::Key(p.name)), tool, cx)?;
                        out.changed(i, Prop { schema: new, ..*p }, cx.arena)
                            .map_err(|()| arena_error(path, cx))?;
                    } else {
                        out.same(i);
                    }
                }
                out.finish().map(Value::Props)
            }
            _ => None,
        })
    }
}

/// `true` as `{}` (same meaning); `false` as `{}` with the rule in its description (wider).
fn object_form<'a>(
    b: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let empty = Schema { boolean: None, keywords: &[], features: FeatureSet::EMPTY, at: b.at };
    let target = cx.profile.name();
    if b.boolean == Some(true) {
        let message =
            format!("{target} has no boolean schemas; `true` written as `{{}}` (same meaning)");
        cx.record(
            tool,
            b.at,
            Note {
                kind: EntryKind::arguments(Code::BooleanSchemaRewritten, Effect::None),
                feature: "boolean-schema",
                pointer: path.to_pointer(),
                message,
            },
        );
        return Ok(empty);
    }
    let message = format!(
        "{target} has no boolean schemas and no way to reject every value; `false` written as `{{}}` with the rule in its description"
    );
    cx.record(
        tool,
        b.at,
        // `{}` accepts every value `false` refused (the rule is only in the description).
        Note {
            kind: EntryKind::arguments(Code::BooleanSchemaRewritten, Effect::Widens),
            feature: "boolean-schema",
            pointer: path.to_pointer(),
            message,
        },
    );
    append_description(&empty, "Constraints: no value is allowed.", cx.arena, cx.text)
        .map_err(|()| arena_error(path, cx))
}
