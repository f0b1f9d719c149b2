//! Refs pass: local `$ref`s resolved, and inlined for targets without refs.
//!
//! Resolution is local only (`resolve`): `#`, `#/$defs/…`, `#/definitions/…` or any JSON
//! pointer into the schema (RFC 6901 `~0`/`~1` and percent-escapes decoded). Nothing is ever
//! fetched: a `$ref` to another document is reported and, for targets without refs, left out.
//!
//! For a target whose profile marks `$ref` as `rewrite` (Gemini `parameters`), in `inline`:
//! - each `$ref` is replaced by its target, the sibling keywords merged into it (or, when they
//!   do not merge, kept beside a one-branch `anyOf` holding the target: the same meaning);
//! - a definition is expanded once and shared in the arena however often it is used, and an
//!   expansion budget ([`crate::Limits::max_ref_expansion`], nodes written) turns a reference
//!   bomb into a typed error instead of exponential output;
//! - a recursive `$ref` is unrolled [`crate::Options::unroll_recursion`] times, then its
//!   innermost use accepts anything (a `warning`);
//! - `$defs` and `definitions` are removed once inlined.
//!
//! For a target that keeps refs but takes no siblings beside one (Gemini `parametersJsonSchema`)
//! the siblings stay and the `$ref` moves into a one-branch `anyOf`. When converting between
//! formats, dangling and external refs are reported for every target.
//!
//! Report pointers inside an inlined definition point at the definition in the source.

mod inline;

use crate::error::ConversionError;
use crate::ir::visit::entry_name;
use crate::ir::{Entry, FeatureSet, Keyword, Schema, SchemaFeature, Tool, Value, features_of};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, EntryKind, Note};

use crate::passes::walk::NodeRule;

use crate::passes::cx::PassCx;

use crate::passes::node::arena_error;

use crate::ir::refs::{Document, Target};
use crate::passes::walk::rewrite;
use inline::inline_all;

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let refs =
        FeatureSet::of(&[SchemaFeature::Ref, SchemaFeature::Defs, SchemaFeature::Definitions]);
    if tool.features().intersection(refs).is_empty() {
        return Ok(());
    }
    let inline = cx.profile.action(Keyword::Ref) == Action::Rewrite;
    let wrap = !cx.profile.holds_ref_siblings();
    let check = cx.route.rewrite;
    if !inline && !wrap && !check {
        return Ok(());
    }
    // Each schema is its own document: `#` is its root.
    let t = *tool;
    for (schema, pointer, input) in
        [(t.input, t.input_pointer, true), (t.output, "/outputSchema", false)]
    {
        let Some(schema) = schema else { continue };
        let base = Path::ROOT;
        let path = base.push(Seg::Raw(pointer));
        let new = if inline {
            Some(inline_all(&schema, pointer, &path, &t, cx)?)
        } else {
            let root = cx.arena.try_alloc(schema).map_err(|_| arena_error(&path, cx))?;
            let document = Document::new(root);
            rewrite(&schema, &path, &t, cx, &mut KeptRefs { wrap, check, document })?
        };
        match (new, input) {
            (Some(s), true) => tool.input = Some(s),
            (Some(s), false) => tool.output = Some(s),
            (None, _) => {}
        }
    }
    Ok(())
}

/// The `$ref` of a node and the reference it holds, when it has one.
fn ref_of<'a>(s: &Schema<'a>) -> Option<(&'a Entry<'a>, &'a str)> {
    let e = s.get(Keyword::Ref)?;
    match e.value {
        Value::Str(r) => Some((e, r)),
        _ => None,
    }
}

/// Reports a `$ref` that leads nowhere in the document; `outcome` says what the output holds
/// and what that does to the calls accepted (kept as written: none; left out: any value
/// passes where the reference constrained, so it widens).
#[cold]
fn unresolved_ref(
    target: &Target<'_>,
    reference: &str,
    entry: &Entry<'_>,
    pointer: String,
    (outcome, effect): (&str, Effect),
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) {
    let (code, why) = match target {
        Target::External => (Code::RefExternal, "names another document, which is never fetched"),
        _ => (Code::RefDangling, "does not resolve in this schema"),
    };
    let message = format!("`$ref` \"{reference}\" {why}; {outcome}");
    // A warning either way: a reference that resolves nowhere is a fault of the source.
    let kind = if effect == Effect::None {
        EntryKind::unsure(code)
    } else {
        EntryKind::arguments(code, effect)
    };
    let note = Note { kind, feature: "$ref", pointer, message };
    cx.record(tool, entry.at, note);
}

/// For targets that keep refs: siblings moved beside a one-branch `anyOf` where the target
/// takes none, and dangling or external refs reported.
struct KeptRefs<'a> {
    wrap: bool,
    check: bool,
    /// The schema document being walked (input or output schema).
    document: Document<'a>,
}

impl<'a> NodeRule<'a> for KeptRefs<'a> {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[SchemaFeature::Ref])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let Some((entry, reference)) = ref_of(s) else { return Ok(None) };
        let pointer = || path.push(Seg::Key("$ref")).to_pointer();
        if self.check {
            let target = self.document.resolve(reference);
            if !matches!(target, Target::Found(_)) {
                let outcome = ("kept as written", Effect::None);
                unresolved_ref(&target, reference, entry, pointer(), outcome, tool, cx);
            }
        }
        let movable = |e: &&Entry<'_>| !entry_name(e).starts_with('$');
        if !self.wrap || !s.keywords.iter().any(|e| movable(&e)) {
            return Ok(None);
        }
        if s.get(Keyword::AnyOf).is_some() {
            let message = format!(
                "{} takes no keywords beside `$ref`, and this node's `anyOf` leaves no place to move it; kept as written",
                cx.profile.name()
            );
            // Written as the source wrote it (the same calls accepted), but the provider's
            // rule is broken: a warning.
            cx.record(
                tool,
                entry.at,
                Note {
                    kind: EntryKind::unsure(Code::RefInlined),
                    feature: "$ref",
                    pointer: pointer(),
                    message,
                },
            );
            return Ok(None);
        }
        let only_ref =
            cx.arena.try_alloc_slice_copy(&[*entry]).map_err(|_| arena_error(path, cx))?;
        let branch =
            Schema { boolean: None, keywords: only_ref, features: features_of(only_ref), at: s.at };
        let one = cx.arena.try_alloc_slice_copy(&[branch]).map_err(|_| arena_error(path, cx))?;
        let mut all: smallvec::SmallVec<[Entry<'a>; 8]> =
            s.keywords.iter().filter(|e| e.keyword != Keyword::Ref).copied().collect();
        all.push(Entry { keyword: Keyword::AnyOf, at: entry.at, value: Value::Schemas(one) });
        let keywords = cx.arena.try_alloc_slice_copy(&all).map_err(|_| arena_error(path, cx))?;
        let message = format!(
            "{} takes no keywords beside `$ref`; the `$ref` moved into a one-branch `anyOf` (same meaning)",
            cx.profile.name()
        );
        cx.record(
            tool,
            entry.at,
            Note {
                kind: EntryKind::arguments(Code::RefInlined, Effect::None),
                feature: "$ref",
                pointer: pointer(),
                message,
            },
        );
        Ok(Some(Schema { keywords, features: features_of(keywords), ..*s }))
    }
}
