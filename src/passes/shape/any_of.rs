//! The `anyOf`-alone rule of the shape pass: an `anyOf` of one type and `null` as that type
//! with `nullable: true`, an `anyOf`'s other siblings merged into each branch (or, where a
//! branch has its own value for one, written into its description).

use smallvec::SmallVec;

use crate::error::ConversionError;
use crate::ir::{Entry, Json, JsonType, Keyword, Schema, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::shape::{ShapeRule, ShapeRules};
use crate::report::Effect;

use super::{Keywords, MAX_REFIX, alloc, fix, note};
use crate::passes::cx::PassCx;
use crate::passes::describe::append_description;
use crate::passes::describe::render;
use crate::passes::merge::{NoMerge, merge};
use crate::passes::node::arena_error;

/// Whether `b` is a branch that accepts `null` only.
fn null_only(b: &Schema<'_>) -> bool {
    b.types().is_some_and(|t| t.list == [JsonType::Null])
        && b.keywords
            .iter()
            .all(|e| matches!(e.keyword, Keyword::Type | Keyword::Title | Keyword::Description))
}

/// `refix`: the depth at which branches are fixed again, or `None` where the walk visits
/// them after.
pub(super) fn any_of_alone<'a>(
    rules: ShapeRules,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
    refix_at: Option<usize>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some(any) = s.get(Keyword::AnyOf) else { return Ok(None) };
    let Value::Schemas(branches) = any.value else { return Ok(None) };
    let target = cx.profile.name();
    let siblings: Keywords<'a> =
        s.keywords.iter().filter(|e| e.keyword != Keyword::AnyOf).copied().collect();
    let nullable = cx.profile.action(Keyword::Nullable) == crate::profile::Action::Keep;
    let others: SmallVec<[Schema<'a>; 4]> =
        branches.iter().filter(|b| !null_only(b)).copied().collect();
    let idiom = nullable && others.len() < branches.len() && !others.is_empty();
    let mut rest = alloc(s, &siblings, path, cx)?;
    if idiom {
        // `anyOf: [T, {"type": "null"}]`: the target's own form is `T` with `nullable: true`.
        let flag = Entry { keyword: Keyword::Nullable, at: any.at, value: Value::Bool(true) };
        if s.get(Keyword::Nullable).is_none() {
            let mut k: Keywords<'a> = siblings.clone();
            k.push(flag);
            rest = alloc(s, &k, path, cx)?;
        }
        if let [only] = others.as_slice()
            && let Ok(merged) = merge(only, &rest, cx.arena)
        {
            // OpenAPI 3.0.3 (§4.7.24) reads `nullable: true` as adding `null` to `type` only: an
            // `enum` or `const` that does not list `null` still refuses it, and the target's
            // readers (this crate's among them) may read it so. Said as the narrowing it can be.
            let (effect, how) = if refuses_null(only) {
                (
                    Effect::Narrows,
                    " (`null` may now be refused: its `enum`/`const` does not list it, and \
                     OpenAPI 3.0.3 does not add it there)",
                )
            } else {
                (Effect::None, " (same values accepted)")
            };
            let message = [
                target,
                " takes `anyOf` only alone in its node; the `anyOf` of one type and \
                 `null` was written as that type with `nullable: true`",
                how,
            ];
            note(cx, tool, any.at, path, ShapeRule::AnyOfAlone, effect, message);
            let merged = Schema { at: s.at, ..merged };
            let again = match refix_at {
                Some(depth) => refix(rules, &merged, path, tool, cx, depth)?,
                None => None,
            };
            return Ok(Some(again.unwrap_or(merged)));
        }
    }
    let branches: &[Schema<'a>] = if idiom { &others } else { branches };
    let mut out: SmallVec<[Schema<'a>; 4]> = SmallVec::new();
    let mut described = false;
    let here = path.push(Seg::Key("anyOf"));
    for (i, b) in branches.iter().enumerate() {
        let at = here.push(Seg::Index(i));
        let branch = match merge(b, &rest, cx.arena) {
            Ok(m) => Schema { at: b.at, ..m },
            Err(NoMerge::Arena) => return Err(arena_error(path, cx)),
            Err(NoMerge::Conflict) => {
                described = true;
                describe_into(&rest, b, &at, cx)?
            }
        };
        let again = match refix_at {
            Some(depth) => refix(rules, &branch, &at, tool, cx, depth)?,
            None => None,
        };
        out.push(again.unwrap_or(branch));
    }
    let list = cx.arena.try_alloc_slice_copy(&out).map_err(|_| arena_error(path, cx))?;
    let entry = Entry { value: Value::Schemas(list), ..*any };
    let node = alloc(s, &[entry], path, cx)?;
    let (effect, how) = if described {
        (
            Effect::Widens,
            "where a branch has its own value for one, the sibling went into the branch's \
             description (what that sibling refused may now be accepted)",
        )
    } else {
        (Effect::None, "same values accepted")
    };
    let null = if idiom { " (its `null` branch as `nullable: true`)" } else { "" };
    let message = [
        target,
        " takes `anyOf` only alone in its node; its siblings were moved into each branch",
        null,
        " (",
        how,
        ")",
    ];
    note(cx, tool, any.at, path, ShapeRule::AnyOfAlone, effect, message);
    Ok(Some(node))
}

/// A branch given its `anyOf`'s siblings may break a rule the branch alone did not (a
/// `properties` beside a string branch): it is fixed again, to a bounded depth.
fn refix<'a>(
    rules: ShapeRules,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
    depth: usize,
) -> Result<Option<Schema<'a>>, ConversionError> {
    if depth >= MAX_REFIX {
        return Ok(None);
    }
    fix(rules, s, path, tool, cx, depth + 1)
}

/// `branch` with the keywords of `rest` it lacks, and the others (which it has with another
/// value) written into its description.
fn describe_into<'a>(
    rest: &Schema<'a>,
    branch: &Schema<'a>,
    path: &Path<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let mut keywords: Keywords<'a> = rest
        .keywords
        .iter()
        .filter(|e| e.keyword != Keyword::Description && branch.get(e.keyword).is_none())
        .copied()
        .collect();
    keywords.extend(branch.keywords.iter().copied());
    let mut node = alloc(branch, &keywords, path, cx)?;
    let mut text = String::new();
    for e in rest.keywords {
        let theirs = branch.get(e.keyword);
        if e.keyword == Keyword::Description || theirs.is_none() {
            continue;
        }
        text.push_str(if text.is_empty() { "Also: " } else { ", " });
        text.push_str(crate::ir::visit::entry_name(e));
        text.push(' ');
        text.push_str(&render(&e.value));
    }
    if let Some(d) = rest.description() {
        let d = if text.is_empty() { d.to_owned() } else { format!("{d} ") };
        text.insert_str(0, &d);
    }
    if !text.is_empty() {
        if !text.ends_with('.') {
            text.push('.');
        }
        node = append_description(&node, &text, cx.arena, cx.text)
            .map_err(|()| arena_error(path, cx))?;
    }
    Ok(node)
}

/// Whether `s` holds an `enum` or `const` whose values do not include `null`.
fn refuses_null(s: &Schema<'_>) -> bool {
    let listed = |v: &Value<'_>| match v {
        Value::Json(Json::Array(values)) => values.iter().any(|j| matches!(j, Json::Null)),
        _ => false,
    };
    let enum_refuses = s.get(Keyword::Enum).is_some_and(|e| !listed(&e.value));
    let const_refuses =
        s.get(Keyword::Const).is_some_and(|e| !matches!(e.value, Value::Json(Json::Null)));
    enum_refuses || const_refuses
}
