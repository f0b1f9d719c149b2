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
//! - `type` names JSON Schema does not define (the BFCL dialect: `dict`, `float`, `tuple`,
//!   `any`, Java names such as `String` or `HashMap`) are read as the JSON type they stand
//!   for when converting to another format: `info` where the meaning is the dialect's own
//!   (`dict` is an object), `warning` where it is not exact (`tuple` loses its length, `any`
//!   and `""` lose the type, Java names were source-code strings in BFCL).
//!
//! - A `$schema` the policy drops, naming an older draft under which a keyword of its schema
//!   means something else than in 2020-12 (draft-04 has no `const`; 2020-12 has no
//!   `dependencies`; up to draft-07 a `$ref` voids a constraint beside it): `warning`,
//!   naming those keywords ([`schema_dropped`]; the drafts' differences are in
//!   [`crate::ir::Draft`]). The targets read 2020-12.
//!
//! References: JSON Schema 2020-12 release notes ("items and additionalItems were replaced by
//! prefixItems and items"); draft-06 changed `exclusiveMinimum`/`exclusiveMaximum` from
//! booleans modifying `minimum`/`maximum` to numbers; OpenAPI 3.0.3 §4.7.24 (`nullable`);
//! `corpus/bfcl/README.md` (the BFCL type names and their counts).

use crate::error::ConversionError;
use crate::ir::{
    Draft, Entry, FeatureSet, Json, JsonType, Keyword, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Note, Severity};

use super::{CowSlice, NodeRule, PassCx, arena_error, features_of, find, rewrite, rewrite_tool};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    // An OpenAPI 3.0 schema written where JSON Schema is read (any target that can say
    // `null` in a type array, MCP included): its `nullable` and draft-04 boolean bounds mean
    // nothing there, so they are rewritten even where the profile keeps the keywords.
    let json_target =
        tool.openapi_schema && cx.profile.features().contains(SchemaFeature::TypeArray);
    let mut rule = Dialect {
        tuples: !cx.profile.features().contains(SchemaFeature::TupleItems) || json_target,
        nullable: tool.openapi_schema
            && (cx.profile.action(Keyword::Nullable) == Action::Rewrite || json_target),
        types: cx.route.rewrite,
    };
    if !rule.triggers().is_empty() {
        rewrite_tool(tool, cx, &mut rule)?;
    }
    if rule.tuples {
        definitions(tool, cx)?;
    }
    Ok(())
}

/// Draft-07 `definitions` at the input schema's root becomes `$defs`, and every
/// `#/definitions/…` reference follows it (2020-12 targets look for `$defs`). Nested
/// `definitions`, rare, stay: a pointer into them still resolves.
fn definitions<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let Some(root) = tool.input else { return Ok(()) };
    if root.get(Keyword::Definitions).is_none() || root.get(Keyword::Defs).is_some() {
        return Ok(());
    }
    let mut rule = Definitions;
    let path = Path::ROOT;
    let path = path.push(Seg::Raw(tool.input_pointer));
    let t = *tool;
    let root = rewrite(&root, &path, &t, cx, &mut rule)?.unwrap_or(root);
    let mut out = CowSlice::new(root.keywords);
    for (i, e) in root.keywords.iter().enumerate() {
        if e.keyword == Keyword::Definitions {
            note(
                &t,
                e,
                &path,
                cx,
                "definitions",
                "draft-07 `definitions` written as `$defs`, and the refs into it follow",
            );
            out.changed(i, Entry { keyword: Keyword::Defs, ..*e }, cx.arena)
                .map_err(|()| arena_error(&path, cx))?;
        } else {
            out.same(i);
        }
    }
    if let Some(keywords) = out.finish() {
        tool.input = Some(Schema { keywords, features: features_of(keywords), ..root });
    }
    Ok(())
}

struct Definitions;

impl<'a> NodeRule<'a> for Definitions {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[SchemaFeature::Ref])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        _tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let rest = match (e.keyword, e.value) {
                (Keyword::Ref, Value::Str(r)) => r.strip_prefix("#/definitions"),
                _ => None,
            };
            match rest {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                    let moved = format!("#/$defs{rest}");
                    let moved =
                        cx.arena.try_alloc_str(&moved).map_err(|_| arena_error(path, cx))?;
                    out.changed(i, Entry { value: Value::Str(moved), ..*e }, cx.arena)
                        .map_err(|()| arena_error(path, cx))?;
                }
                _ => out.same(i),
            }
        }
        Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
    }
}

struct Dialect {
    tuples: bool,
    nullable: bool,
    types: bool,
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
            && let Some(new) = old_drafts(&node, path, tool, cx)?
        {
            node = new;
            changed = true;
        }
        Ok(changed.then_some(node))
    }
}

/// Draft-07 tuples and draft-04 boolean bounds.
fn old_drafts<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
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
        Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
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
    let (severity, why) = if exact {
        (Severity::Info, "the same type under its JSON Schema name")
    } else {
        (Severity::Warning, "the nearest JSON Schema type; what it accepts may differ")
    };
    let pointer = path.push(Seg::Key("type")).to_pointer();
    let message = format!("type \"{name}\" is not a JSON Schema type; read as {written} ({why})");
    cx.record(
        tool,
        entry.at,
        Note { severity, code: Code::DialectRewritten, feature: "type", pointer, message },
    );
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
    let pointer = path.push(Seg::Key(feature)).to_pointer();
    let message = format!("{message} (same meaning in JSON Schema 2020-12)");
    cx.record(
        tool,
        e.at,
        Note { severity: Severity::Info, code: Code::DialectRewritten, feature, pointer, message },
    );
}

/// Records the drop of `e`, a `$schema` of node `s`, as a warning when the draft it names
/// reads a keyword of the node's subtree otherwise than JSON Schema 2020-12 does, which is how
/// the target reads the schema once `$schema` is gone: a draft-04 schema's `const` constrains
/// nothing there, and constrains in 2020-12. Returns whether it recorded; the policy records
/// the plain drop (an annotation, `info`) otherwise. Where `$schema` is kept, the source's
/// reading goes with it, and nothing is recorded here.
pub(super) fn schema_dropped(
    s: &Schema<'_>,
    e: &Entry<'_>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) -> bool {
    let Value::Str(uri) = e.value else { return false };
    let Some(draft) = Draft::from_uri(uri) else { return false };
    let (added, removed) = draft.read_differently();
    let (added, removed) = (s.features.intersection(added), s.features.intersection(removed));
    let draft_03 = draft.differs_everywhere();
    // Up to draft-07 a `$ref` makes its object's other keywords void; 2019-09 applies them.
    // (Draft-03's note says its keywords differ throughout, this among them.)
    let siblings = !draft_03 && draft <= Draft::Draft07 && constrains_beside_ref(s);
    if added.is_empty() && removed.is_empty() && !siblings && !draft_03 {
        return false;
    }
    let target = cx.profile.name();
    let (name, draft) = ("$schema", draft.name());
    let message = |out: &mut String| {
        out.push_str("`$schema` names ");
        out.push_str(draft);
        out.push_str("; ");
        out.push_str(target);
        out.push_str(" reads the schema as JSON Schema 2020-12, where ");
        // Each change a clause, comma-separated.
        let mut separator = "";
        let mut clause = |pieces: &[&str]| {
            out.push_str(separator);
            separator = ", ";
            pieces.iter().for_each(|p| out.push_str(p));
        };
        if draft_03 {
            clause(&["its keywords (`required`, `type`, `extends`, …) mean other things"]);
        }
        if siblings {
            clause(&["the keywords beside a `$ref` apply (", draft, " ignores them)"]);
        }
        let changes = (added.iter().map(|f| (f, "applies", "does not define")))
            .chain(removed.iter().map(|f| (f, "is ignored", "defines")));
        for (f, now, then) in changes {
            clause(&["`", f.as_str(), "` ", now, " (", draft, " ", then, " it)"]);
        }
        out.push_str("; dropped");
    };
    let pointer = |out: &mut String| path.push(Seg::Key(name)).write_pointer(out);
    cx.record(
        tool,
        e.at,
        Note {
            severity: Severity::Warning,
            code: Code::KeywordDropped,
            feature: name,
            pointer,
            message,
        },
    );
    true
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
