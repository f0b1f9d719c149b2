//! Dialect pass: other schema dialects read into JSON Schema 2020-12 for targets that read it.
//!
//! - Draft-07 tuple validation (`items: [A, B]`, `additionalItems: C`) and draft-04 boolean
//!   bounds (`minimum: 0, exclusiveMinimum: true`) become the 2020-12 forms that accept exactly
//!   the same instances (`prefixItems: [A, B], items: C`; `exclusiveMinimum: 0`), `info` each,
//!   for targets without the old forms (MCP keeps them).
//! - OpenAPI 3.0 `nullable: true` becomes a type array (`["string", "null"]`) for targets
//!   whose profile rewrites `nullable`, and for every target that holds type arrays (MCP
//!   too, whose JSON Schema gives `nullable` no meaning); the draft-04 boolean bounds of an
//!   OpenAPI 3.0 schema are rewritten for those targets as well.
//! - A schema whose `type` is spelled as Gemini's `Type` enum (`STRING`, `OBJECT`) in another
//!   format's schema member is read as the OpenAPI schema it is (`typed`): its `nullable` as
//!   above.
//! - `type` names JSON Schema does not define (the BFCL dialect: `dict`, `float`, `tuple`,
//!   `any`, Java names such as `String` or `HashMap`) are read as the JSON type they stand
//!   for when converting to another format: `info` where the meaning is the dialect's own
//!   (`dict` is an object), `warning` where it is not exact (`tuple` loses its length, `any`
//!   and `""` lose the type, Java names were source-code strings in BFCL).
//!
//! - The refs into forms moved here (tuple `items`, `additionalItems`, root `definitions`)
//!   follow them (`moved`), so they resolve as they did in the source.
//! - A `$schema` naming an older draft above forms written here in 2020-12 goes with them:
//!   it names 2020-12 where the target keeps `$schema`, and is dropped where it does not
//!   (`schema`). A `$schema` the policy drops, naming an older draft under which a keyword of
//!   its schema means something else than in 2020-12 (draft-04 has no `const`; 2020-12 has
//!   no `dependencies`; up to draft-07 a `$ref` voids a constraint beside it): `warning`,
//!   naming those keywords ([`schema_dropped`]; the drafts' differences are in
//!   [`crate::ir::Draft`]). The targets read 2020-12.
//!
//! References: JSON Schema 2020-12 release notes ("items and additionalItems were replaced by
//! prefixItems and items"); draft-06 changed `exclusiveMinimum`/`exclusiveMaximum` from
//! booleans modifying `minimum`/`maximum` to numbers; OpenAPI 3.0.3 §4.7.24 (`nullable`);
//! `corpus/bfcl/README.md` (the BFCL type names and their counts).

use crate::error::ConversionError;
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use crate::passes::cow::CowSlice;

use crate::passes::walk::NodeRule;

use crate::passes::cx::PassCx;

use crate::passes::node::arena_error;

use crate::ir::features_of;

use crate::passes::node::find;

use crate::passes::walk::rewrite;

use crate::passes::walk::rewrite_tool;

mod moved;
mod schema;
mod typed;

pub(super) use schema::schema_dropped;

use smallvec::SmallVec;

use moved::Moves;

use crate::ir::refs::Lists;

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    // An OpenAPI 3.0 schema written where JSON Schema is read (any target that can say
    // `null` in a type array, MCP included): its `nullable` and draft-04 boolean bounds mean
    // nothing there, so they are rewritten even where the profile keeps the keywords.
    // A schema typed as Gemini's `parameters` are, in any format's schema member, is one too,
    // wherever its type names are read (not into MCP's own files, which keep what they hold).
    let openapi = tool.openapi_schema
        || (cx.route.rewrite && tool.input.is_some_and(|s| typed::openapi_typed(&s)));
    let json_target = openapi && cx.profile.features().contains(SchemaFeature::TypeArray);
    let mut rule = Dialect {
        tuples: !cx.profile.features().contains(SchemaFeature::TupleItems) || json_target,
        nullable: openapi
            && (cx.profile.action(Keyword::Nullable) == Action::Rewrite || json_target),
        types: cx.route.rewrite,
        moved: 0,
        marks: SmallVec::new(),
    };
    let source = (tool.input, tool.output);
    if !rule.triggers().is_empty() {
        rewrite_tool(tool, cx, &mut rule)?;
    }
    if rule.tuples {
        follow_moves(tool, cx, source)?;
    }
    Ok(())
}

/// What moved in the old forms' wake: the refs into them follow (see `moved`), and draft-07
/// `definitions` at the input schema's root becomes `$defs` (2020-12 targets look for
/// `$defs`). Nested `definitions`, rare, stay: a pointer into them still resolves. `source`:
/// the input and output schemas as the source wrote them.
fn follow_moves<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
    source: (Option<Schema<'a>>, Option<Schema<'a>>),
) -> Result<(), ConversionError> {
    let t = *tool;
    for (schema, before, pointer, input) in
        [(t.input, source.0, t.input_pointer, true), (t.output, source.1, "/outputSchema", false)]
    {
        let (Some(root), Some(before)) = (schema, before) else { continue };
        let definitions =
            input && root.get(Keyword::Definitions).is_some() && root.get(Keyword::Defs).is_none();
        let tuples = before.features.contains(SchemaFeature::TupleItems);
        if !definitions && !tuples {
            continue;
        }
        let base = Path::ROOT;
        let path = base.push(Seg::Raw(pointer));
        let mut rule = Moves { source: before, tuples, definitions, lists: Lists::default() };
        let mut root = rewrite(&root, &path, &t, cx, &mut rule)?.unwrap_or(root);
        if definitions {
            root = defs(&root, &path, &t, cx)?;
        }
        if input {
            tool.input = Some(root);
        } else {
            tool.output = Some(root);
        }
    }
    Ok(())
}

/// The root `root` with its `definitions` written as `$defs`.
fn defs<'a>(
    root: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let mut out = CowSlice::new(root.keywords);
    for (i, e) in root.keywords.iter().enumerate() {
        if e.keyword == Keyword::Definitions {
            note(
                tool,
                e,
                path,
                cx,
                "definitions",
                "draft-07 `definitions` written as `$defs`, and the refs into it follow",
            );
            out.changed(i, Entry { keyword: Keyword::Defs, ..*e }, cx.arena)
                .map_err(|()| arena_error(path, cx))?;
        } else {
            out.same(i);
        }
    }
    Ok(match out.finish() {
        Some(keywords) => Schema { keywords, features: features_of(keywords), ..*root },
        None => *root,
    })
}

struct Dialect {
    tuples: bool,
    nullable: bool,
    types: bool,
    /// How many old-draft forms (tuples, boolean bounds) were written in 2020-12 so far.
    moved: u32,
    /// For each entered node with a `$schema`, innermost last: `moved` when it was entered,
    /// and the features of its subtree as the source wrote it.
    marks: SmallVec<[(u32, FeatureSet); 4]>,
}

impl<'a> NodeRule<'a> for Dialect {
    fn triggers(&self) -> FeatureSet {
        let mut set = FeatureSet::EMPTY;
        if self.tuples {
            set = set.union(FeatureSet::of(&[
                SchemaFeature::TupleItems,
                SchemaFeature::ExclusiveMinimum,
                SchemaFeature::ExclusiveMaximum,
            ]));
        }
        if self.nullable {
            set.insert(SchemaFeature::Nullable);
        }
        if self.types {
            set.insert(SchemaFeature::DialectType);
        }
        set
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let mut node = *s;
        let mut changed = false;
        if self.types
            && let Some(new) = dialect_type(&node, path, tool, cx)?
        {
            node = new;
            changed = true;
        }
        if self.nullable
            && let Some(new) = nullable(&node, path, tool, cx)?
        {
            node = new;
            changed = true;
        }
        if self.tuples
            && let Some(new) = old_drafts(&node, path, tool, cx, &mut self.moved)?
        {
            node = new;
            changed = true;
        }
        // A `$schema` above forms the pass wrote in 2020-12 goes with them.
        if node.get(Keyword::Schema).is_some()
            && let Some((before, features)) = self.marks.pop()
            && self.moved > before
            && let Some(new) = schema::follow_rewrite(&node, features, path, tool, cx)?
        {
            node = new;
            changed = true;
        }
        Ok(changed.then_some(node))
    }

    fn enter(&mut self, source: &Schema<'a>) {
        if source.get(Keyword::Schema).is_some() {
            self.marks.push((self.moved, source.features));
        }
    }
}

/// Draft-07 tuples and draft-04 boolean bounds.
fn old_drafts<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
    moved: &mut u32,
) -> Result<Option<Schema<'a>>, ConversionError> {
    {
        let tuple = matches!(s.get(Keyword::Items).map(|e| e.value), Some(Value::Schemas(_)));
        let flag = |kw| match s.get(kw).map(|e| e.value) {
            Some(Value::Json(Json::Bool(b))) => Some(b),
            _ => None,
        };
        let (bool_min, bool_max) =
            (flag(Keyword::ExclusiveMinimum), flag(Keyword::ExclusiveMaximum));
        if !tuple && bool_min.is_none() && bool_max.is_none() {
            return Ok(None);
        }
        let number = |kw| match s.get(kw).map(|e| e.value) {
            Some(Value::Number(n)) => Some(n),
            _ => None,
        };
        let (min, max) = (number(Keyword::Minimum), number(Keyword::Maximum));
        // `exclusiveMinimum: true` absorbs a numeric `minimum` (likewise for the maximum).
        let min_absorbed = bool_min == Some(true) && min.is_some();
        let max_absorbed = bool_max == Some(true) && max.is_some();
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let new = match (e.keyword, e.value) {
                (Keyword::Items, Value::Schemas(_)) if tuple => {
                    note(tool, e, path, cx, "items", "tuple `items` written as `prefixItems`");
                    Some(Entry { keyword: Keyword::PrefixItems, ..*e })
                }
                (Keyword::AdditionalItems, v @ Value::Schema(_)) if tuple => {
                    note(
                        tool,
                        e,
                        path,
                        cx,
                        "additionalItems",
                        "`additionalItems` written as `items`",
                    );
                    Some(Entry { keyword: Keyword::Items, value: v, ..*e })
                }
                (Keyword::ExclusiveMinimum, Value::Json(Json::Bool(b))) => {
                    bound(tool, e, path, cx, b, min, Keyword::Minimum)
                }
                (Keyword::ExclusiveMaximum, Value::Json(Json::Bool(b))) => {
                    bound(tool, e, path, cx, b, max, Keyword::Maximum)
                }
                (Keyword::Minimum, Value::Number(_)) if min_absorbed => None,
                (Keyword::Maximum, Value::Number(_)) if max_absorbed => None,
                _ => {
                    out.same(i);
                    continue;
                }
            };
            match new {
                Some(entry) => out.changed(i, entry, cx.arena),
                None => out.removed(i, cx.arena),
            }
            .map_err(|()| arena_error(path, cx))?;
        }
        let new = out.finish();
        *moved += u32::from(new.is_some());
        Ok(new.map(|keywords| Schema { keywords, ..*s }))
    }
}

/// OpenAPI `nullable` as a type array.
fn nullable<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some((_, entry)) = find(s, Keyword::Nullable) else { return Ok(None) };
    let Value::Bool(on) = entry.value else { return Ok(None) };
    let mut out = CowSlice::new(s.keywords);
    let mut message = "`nullable: false` is the default; removed";
    for (i, e) in s.keywords.iter().enumerate() {
        match (e.keyword, e.value) {
            (Keyword::Nullable, _) => out.removed(i, cx.arena),
            (Keyword::Type, Value::Type(t)) if on && !t.contains(JsonType::Null) => {
                let list = cx
                    .arena
                    .try_alloc_slice_fill_copy(t.list.len() + 1, JsonType::Null)
                    .map_err(|_| arena_error(path, cx))?;
                for (slot, ty) in list.iter_mut().zip(t.list) {
                    *slot = *ty;
                }
                message = "`nullable: true` written as `null` in a type array";
                out.changed(
                    i,
                    Entry { value: Value::Type(Types { list, array: true }), ..*e },
                    cx.arena,
                )
            }
            _ => {
                out.same(i);
                Ok(())
            }
        }
        .map_err(|()| arena_error(path, cx))?;
    }
    if on && message.starts_with("`nullable: false") {
        message = "`nullable: true` without a `type` adds nothing in OpenAPI 3.0; removed";
    }
    note(tool, &entry, path, cx, "nullable", message);
    Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
}

/// What a non-standard type name stands for, and whether that reading is exact.
fn dialect_name(name: &str) -> Option<(Option<JsonType>, bool)> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "dict" | "object" => (Some(JsonType::Object), true),
        "float" | "number" => (Some(JsonType::Number), true),
        "string" | "null" | "boolean" | "array" | "integer" if lower != name => {
            (JsonType::from_name(&lower), true)
        }
        "double" => (Some(JsonType::Number), false),
        "tuple" | "list" | "arraylist" => (Some(JsonType::Array), false),
        "hashmap" | "map" => (Some(JsonType::Object), false),
        "char" | "str" => (Some(JsonType::String), false),
        "long" | "int" | "short" | "byte" => (Some(JsonType::Integer), false),
        "bool" => (Some(JsonType::Boolean), false),
        "any" | "" => (None, false),
        _ => return None,
    })
}

/// BFCL and other non-standard `type` names read as JSON Schema types.
fn dialect_type<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some((i, entry)) = find(s, Keyword::Type) else { return Ok(None) };
    let Value::Json(Json::String(name)) = entry.value else { return Ok(None) };
    let Some((ty, exact)) = dialect_name(name) else { return Ok(None) };
    let mut out = CowSlice::new(s.keywords);
    for j in 0..i {
        out.same(j);
    }
    let written = match ty {
        Some(t) => {
            let list = cx.arena.try_alloc_slice_copy(&[t]).map_err(|_| arena_error(path, cx))?;
            let value = Value::Type(Types { list, array: false });
            out.changed(i, Entry { value, ..entry }, cx.arena)
                .map_err(|()| arena_error(path, cx))?;
            format!("\"{}\"", t.as_str())
        }
        None => {
            out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
            "no type (any value)".to_owned()
        }
    };
    for j in i + 1..s.keywords.len() {
        out.same(j);
    }
    // The nearest type may accept what the name did not (a `tuple` of any length) and refuse
    // what it did (BFCL's Java names stood for source-code strings): either way.
    let (effect, why) = if exact {
        (Effect::None, "the same type under its JSON Schema name")
    } else {
        (Effect::Changes, "the nearest JSON Schema type; what it accepts may differ")
    };
    let place = path.push(Seg::Key("type"));
    let pointer = PathPointer(&place);
    let message = format!("type \"{name}\" is not a JSON Schema type; read as {written} ({why})");
    let kind = EntryKind::arguments(Code::DialectRewritten, effect);
    cx.record(tool, entry.at, Note { kind, feature: "type", pointer, message });
    Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
}

/// `exclusiveMinimum: true` with `minimum: n` becomes `exclusiveMinimum: n`; `false`, or `true`
/// without a bound to modify, constrains nothing and goes.
fn bound<'a>(
    tool: &Tool<'_>,
    e: &Entry<'a>,
    path: &Path<'_>,
    cx: &mut PassCx<'_, '_>,
    exclusive: bool,
    limit: Option<&'a str>,
    base: Keyword,
) -> Option<Entry<'a>> {
    let name = e.keyword.as_str();
    match (exclusive, limit) {
        (true, Some(n)) => {
            let msg =
                format!("draft-04 `{name}: true` with `{base}: {n}` written as `{name}: {n}`");
            note(tool, e, path, cx, name, &msg);
            Some(Entry { value: Value::Number(n), ..*e })
        }
        _ => {
            let msg = format!("draft-04 `{name}: {exclusive}` modifies no bound here; removed");
            note(tool, e, path, cx, name, &msg);
            None
        }
    }
}

fn note(
    tool: &Tool<'_>,
    e: &Entry<'_>,
    path: &Path<'_>,
    cx: &mut PassCx<'_, '_>,
    feature: &str,
    message: &str,
) {
    let place = path.push(Seg::Key(feature));
    let pointer = PathPointer(&place);
    let message = format!("{message} (same meaning in JSON Schema 2020-12)");
    let kind = EntryKind::arguments(Code::DialectRewritten, Effect::None);
    let note = Note { kind, feature, pointer, message };
    cx.record(tool, e.at, note);
}
