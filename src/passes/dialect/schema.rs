//! `$schema` and the dialect pass: what becomes of a `$schema` naming an older draft, once the
//! dialect pass wrote its schema's old forms in 2020-12 or the target drops it.
//!
//! The targets read 2020-12. A `$schema` naming an older draft changes how a 2020-12 reader
//! reads some keywords (the drafts' differences are in [`crate::ir::Draft`]): a draft-04
//! schema's `const` constrains nothing under draft-04 and constrains in 2020-12; up to
//! draft-07 a `$ref` voids the keywords beside it.
//!
//! - Where the dialect pass wrote old forms below a `$schema` (draft-07 tuple `items` as
//!   `prefixItems`, draft-04 boolean bounds as numbers), a `$schema` still naming the old draft
//!   would have the new forms read by that draft's rules (draft-07 ignores `prefixItems`, and
//!   its `items: false` then refuses every non-empty array). [`follow_rewrite`] rewrites it to
//!   name 2020-12 where the target keeps `$schema`, and drops it where the target does not; in
//!   both cases the entry names the keywords of the source that 2020-12 reads otherwise
//!   (`warning`), or says nothing else changed (`info`). The differences are those of the
//!   source's own keywords, not of the forms the pass wrote.
//! - Elsewhere, a `$schema` the policy drops: [`schema_dropped`].

use crate::ir::{Draft, Entry, FeatureSet, Keyword, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use crate::passes::cow::CowSlice;

use crate::passes::cx::PassCx;

use crate::error::ConversionError;
use crate::passes::node::arena_error;

/// The `$schema` of JSON Schema 2020-12, which the targets read.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// What a 2020-12 reader reads otherwise in a subtree than the draft its `$schema` names.
struct Differences {
    draft: Draft,
    /// Features 2020-12 applies and the draft ignores.
    added: FeatureSet,
    /// Features the draft applies and 2020-12 ignores.
    removed: FeatureSet,
    /// A constraint beside a `$ref` (void up to draft-07, applied in 2020-12).
    siblings: bool,
    /// Draft-03, whose keywords differ throughout.
    everywhere: bool,
}

impl Differences {
    /// The differences for a subtree of `features` (the source's), at node `s`.
    fn of(draft: Draft, features: FeatureSet, s: &Schema<'_>) -> Differences {
        let (added, removed) = draft.read_differently();
        let everywhere = draft.differs_everywhere();
        Differences {
            draft,
            added: features.intersection(added),
            removed: features.intersection(removed),
            // Draft-03's note says its keywords differ throughout, this among them.
            siblings: !everywhere && draft <= Draft::Draft07 && constrains_beside_ref(s),
            everywhere,
        }
    }

    fn none(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && !self.siblings && !self.everywhere
    }

    /// What reading the subtree as 2020-12 rather than as the draft does to what it accepts:
    /// a keyword that applies now constrains more (narrows), one ignored now constrains no
    /// more (widens); draft-03's keywords mean other things throughout (changes). `minContains`
    /// is either: `0` lets a `contains` the draft applied pass every array.
    fn effect(&self) -> Effect {
        if self.everywhere {
            return Effect::Changes;
        }
        let min_contains = self.added.contains(SchemaFeature::MinContains);
        let narrows = !self.added.is_empty() || self.siblings;
        let widens = !self.removed.is_empty() || min_contains;
        let one = |yes: bool, e: Effect| if yes { e } else { Effect::None };
        one(narrows, Effect::Narrows).and(one(widens, Effect::Widens))
    }

    /// Writes the differences as comma-separated clauses.
    fn write(&self, out: &mut String) {
        let draft = self.draft.name();
        let mut separator = "";
        let mut clause = |pieces: &[&str]| {
            out.push_str(separator);
            separator = ", ";
            pieces.iter().for_each(|p| out.push_str(p));
        };
        if self.everywhere {
            clause(&["its keywords (`required`, `type`, `extends`, …) mean other things"]);
        }
        if self.siblings {
            clause(&["the keywords beside a `$ref` apply (", draft, " ignores them)"]);
        }
        let changes = (self.added.iter().map(|f| (f, "applies", "does not define")))
            .chain(self.removed.iter().map(|f| (f, "is ignored", "defines")));
        for (f, now, then) in changes {
            clause(&["`", f.as_str(), "` ", now, " (", draft, " ", then, " it)"]);
        }
    }
}

/// Records the drop of `e`, a `$schema` of node `s`, as a warning when the draft it names
/// reads a keyword of the node's subtree otherwise than JSON Schema 2020-12 does, which is how
/// the target reads the schema once `$schema` is gone. Returns whether it recorded; the policy
/// records the plain drop (an annotation, `info`) otherwise. Where `$schema` is kept, the
/// source's reading goes with it, and nothing is recorded here.
pub(in crate::passes) fn schema_dropped(
    s: &Schema<'_>,
    e: &Entry<'_>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) -> bool {
    let Value::Str(uri) = e.value else { return false };
    let Some(draft) = Draft::from_uri(uri) else { return false };
    let d = Differences::of(draft, s.features, s);
    if d.none() {
        return false;
    }
    let target = cx.profile.name();
    let message = |out: &mut String| {
        out.push_str("`$schema` names ");
        out.push_str(draft.name());
        out.push_str("; ");
        out.push_str(target);
        out.push_str(" reads the schema as JSON Schema 2020-12, where ");
        d.write(out);
        out.push_str("; dropped");
    };
    record(e, path, tool, cx, d.effect(), Code::KeywordDropped, message);
    true
}

/// What the dialect pass does with the `$schema` of `node` (the node after the pass wrote
/// old forms below it, in 2020-12); `source_features` are those of the node's subtree as the
/// source wrote it. `None` when `node` has no `$schema` naming an older draft, or when the
/// target neither keeps nor drops `$schema` (the policy then does what it says).
pub(super) fn follow_rewrite<'a>(
    node: &Schema<'a>,
    source_features: FeatureSet,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let found = node.keywords.iter().enumerate().find(|(_, e)| e.keyword == Keyword::Schema);
    let Some((i, e)) = found else { return Ok(None) };
    let Value::Str(uri) = e.value else { return Ok(None) };
    let Some(draft) = Draft::from_uri(uri).filter(|d| *d < Draft::Draft202012) else {
        return Ok(None);
    };
    let keep = match cx.profile.action(Keyword::Schema) {
        Action::Keep => true,
        Action::Drop => false,
        _ => return Ok(None),
    };
    let d = Differences::of(draft, source_features, node);
    let target = cx.profile.name();
    let message = |out: &mut String| {
        out.push_str("`$schema` names ");
        out.push_str(draft.name());
        out.push_str(", whose forms here are written in JSON Schema 2020-12 (the dialect ");
        out.push_str(target);
        out.push_str(" reads)");
        if !d.none() {
            out.push_str("; in 2020-12 ");
            d.write(out);
        }
        out.push_str(if keep { "; it now names 2020-12" } else { "; dropped" });
    };
    let code = if keep { Code::DialectRewritten } else { Code::KeywordDropped };
    record(e, path, tool, cx, d.effect(), code, message);
    let mut out = CowSlice::new(node.keywords);
    for j in 0..node.keywords.len() {
        if j != i {
            out.same(j);
        } else if keep {
            let value = Value::Str(DRAFT_2020_12);
            out.changed(j, Entry { value, ..*e }, cx.arena).map_err(|()| arena_error(path, cx))?;
        } else {
            out.removed(j, cx.arena).map_err(|()| arena_error(path, cx))?;
        }
    }
    Ok(out.finish().map(|keywords| Schema { keywords, ..*node }))
}

/// Records `message` about the `$schema` entry `e` of the node at `path`, whose going does
/// `effect` (the severity follows it).
fn record(
    e: &Entry<'_>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
    effect: Effect,
    code: Code,
    message: impl FnOnce(&mut String),
) {
    let name = "$schema";
    let place = path.push(Seg::Key(name));
    let pointer = PathPointer(&place);
    let note = Note { kind: EntryKind::arguments(code, effect), feature: name, pointer, message };
    cx.record(tool, e.at, note);
}

/// Whether a node of `s`'s subtree holds a `$ref` beside a keyword that constrains (an
/// annotation, a definition or an identifier constrains nothing).
fn constrains_beside_ref(s: &Schema<'_>) -> bool {
    let voided = |e: &Entry<'_>| {
        !e.keyword.is_annotation()
            && !matches!(
                e.keyword,
                Keyword::Ref
                    | Keyword::Defs
                    | Keyword::Definitions
                    | Keyword::Id
                    | Keyword::Anchor
                    | Keyword::Comment
            )
    };
    if !s.features.contains(SchemaFeature::Ref) {
        return false;
    }
    if s.get(Keyword::Ref).is_some() && s.keywords.iter().any(voided) {
        return true;
    }
    s.keywords.iter().any(|e| match e.value {
        Value::Schema(c) => constrains_beside_ref(c),
        Value::Schemas(list) => list.iter().any(constrains_beside_ref),
        Value::Props(props) => props.iter().any(|p| constrains_beside_ref(&p.schema)),
        _ => false,
    })
}
