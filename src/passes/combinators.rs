//! Combinators pass: forms a target lacks, rewritten into forms it holds.
//!
//! Each rewrite runs only where the target profile marks the keyword `rewrite` (so a caller's
//! `--policy oneOf=keep` turns it off):
//! - `allOf` merged into its parent when the parts merge exactly (see `merge`); otherwise left
//!   for the policy pass, which describes it;
//! - `const` → a one-value `enum` (for Gemini `parameters`, string values only);
//! - `oneOf` → `anyOf`: `info` when the branches are provably disjoint (distinct types,
//!   disjoint `const`/`enum` values, or a required discriminator property with disjoint
//!   values), since "exactly one" and "at least one" then accept the same; `warning` otherwise;
//! - type arrays, for targets with one type per node: `["T","null"]` → `T` + `nullable: true`,
//!   several types → one `anyOf` branch per type holding the keywords that apply to it.

use crate::error::ConversionError;
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, NameSet, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, Note, Severity};

use super::merge::{NoMerge, merge_all, same_json};
use super::{NodeRule, PassCx, arena_error, features_of, find, rewrite_tool, with_keywords};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let p = &cx.profile;
    let mut triggers = FeatureSet::EMPTY;
    for (kw, f) in [
        (Keyword::AllOf, SchemaFeature::AllOf),
        (Keyword::Const, SchemaFeature::Const),
        (Keyword::OneOf, SchemaFeature::OneOf),
    ] {
        if p.action(kw) == Action::Rewrite {
            triggers.insert(f);
        }
    }
    if !p.features().contains(SchemaFeature::TypeArray) {
        triggers.insert(SchemaFeature::TypeArray);
    }
    if triggers.is_empty() {
        return Ok(());
    }
    rewrite_tool(tool, cx, &mut Combinators { triggers })
}

struct Combinators {
    triggers: FeatureSet,
}

impl<'a> NodeRule<'a> for Combinators {
    fn triggers(&self) -> FeatureSet {
        self.triggers
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
        for step in [all_of, const_to_enum, one_of, type_array] {
            if let Some(new) = step(&node, path, tool, cx)? {
                node = Schema { features: features_of(new.keywords), ..new };
                changed = true;
            }
        }
        Ok(changed.then_some(node))
    }
}

type Step<'a> = Result<Option<Schema<'a>>, ConversionError>;

/// `s` with keyword `i` replaced by `entry`.
fn replace_at<'a>(
    s: &Schema<'a>,
    i: usize,
    entry: Entry<'a>,
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let keywords = cx.arena.try_alloc_slice_copy(s.keywords).map_err(|_| arena_error(path, cx))?;
    if let Some(slot) = keywords.get_mut(i) {
        *slot = entry;
    }
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), ..*s })
}

fn all_of<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Step<'a> {
    if cx.profile.action(Keyword::AllOf) != Action::Rewrite {
        return Ok(None);
    }
    let Some(entry) = s.get(Keyword::AllOf) else { return Ok(None) };
    let Value::Schemas(parts) = entry.value else { return Ok(None) };
    let rest: smallvec::SmallVec<[Entry<'a>; 8]> =
        s.keywords.iter().filter(|e| e.keyword != Keyword::AllOf).copied().collect();
    let base = with_keywords(s, &rest, path, cx)?;
    let merged = match merge_all(&base, parts, cx.arena) {
        Ok(m) => m,
        Err(NoMerge::Arena) => return Err(arena_error(path, cx)),
        Err(NoMerge::Conflict) => return Ok(None),
    };
    let pointer = path.push(Seg::Key("allOf")).to_pointer();
    let message = format!(
        "{} has no `allOf`; its parts were merged into one schema (same meaning)",
        cx.profile.name()
    );
    cx.record(
        tool,
        entry.at,
        Note {
            severity: Severity::Info,
            code: Code::CombinatorRewritten,
            effect: Effect::None,
            arguments: true,
            feature: "allOf",
            pointer,
            message,
        },
    );
    Ok(Some(Schema { at: s.at, ..merged }))
}

fn const_to_enum<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Step<'a> {
    if cx.profile.action(Keyword::Const) != Action::Rewrite || s.get(Keyword::Enum).is_some() {
        return Ok(None);
    }
    let Some((i, entry)) = find(s, Keyword::Const) else { return Ok(None) };
    let value = match entry.value {
        Value::Json(j) => j,
        Value::Unknown(m) => m.value,
        _ => return Ok(None),
    };
    if cx.profile.holds_string_enums_only() && !matches!(value, Json::String(_)) {
        return Ok(None);
    }
    let one = cx.arena.try_alloc_slice_copy(&[value]).map_err(|_| arena_error(path, cx))?;
    let enum_ =
        Entry { keyword: Keyword::Enum, at: entry.at, value: Value::Json(Json::Array(one)) };
    let node = replace_at(s, i, enum_, path, cx)?;
    let pointer = path.push(Seg::Key("const")).to_pointer();
    let message = format!(
        "{} has no `const`; written as a one-value `enum` (same meaning)",
        cx.profile.name()
    );
    cx.record(
        tool,
        entry.at,
        Note {
            severity: Severity::Info,
            code: Code::CombinatorRewritten,
            effect: Effect::None,
            arguments: true,
            feature: "const",
            pointer,
            message,
        },
    );
    Ok(Some(node))
}

fn one_of<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Step<'a> {
    if cx.profile.action(Keyword::OneOf) != Action::Rewrite || s.get(Keyword::AnyOf).is_some() {
        return Ok(None);
    }
    let Some((i, entry)) = find(s, Keyword::OneOf) else { return Ok(None) };
    let Value::Schemas(branches) = entry.value else { return Ok(None) };
    let disjoint = branches
        .iter()
        .enumerate()
        .all(|(i, a)| branches.iter().skip(i + 1).all(|b| disjoint(a, b)));
    let (effect, why) = if disjoint {
        (Effect::None, "the branches are disjoint, so the same values are accepted")
    } else if path.under(&["oneOf", "not"]) {
        // Inside a `oneOf` branch or a `not`, what a node newly accepts can make the
        // enclosing schema refuse a value it took (a second `oneOf` branch now matches).
        (
            Effect::Changes,
            "the branches may overlap, so a value matching several is now accepted here, and \
             the enclosing `oneOf` or `not` may refuse what it accepted",
        )
    } else {
        (Effect::Widens, "the branches may overlap, so a value matching several is now accepted")
    };
    let severity = effect.least_severity();
    let node = replace_at(s, i, Entry { keyword: Keyword::AnyOf, ..entry }, path, cx)?;
    let pointer = path.push(Seg::Key("oneOf")).to_pointer();
    let message = format!("{} has no `oneOf`; written as `anyOf` ({why})", cx.profile.name());
    cx.record(
        tool,
        entry.at,
        Note {
            severity,
            code: Code::CombinatorRewritten,
            effect,
            arguments: true,
            feature: "oneOf",
            pointer,
            message,
        },
    );
    Ok(Some(node))
}

/// Whether no value can match both schemas (conservative: `false` when unsure).
pub(super) fn disjoint(a: &Schema<'_>, b: &Schema<'_>) -> bool {
    if a.boolean == Some(false) || b.boolean == Some(false) {
        return true;
    }
    if let (Some(x), Some(y)) = (a.types(), b.types())
        && !x.list.iter().any(|&t| overlaps(t, &y))
    {
        return true;
    }
    if let (Some(x), Some(y)) = (values(a), values(b))
        && !x.iter().any(|v| y.iter().any(|w| same_json(v, w)))
    {
        return true;
    }
    // A discriminator: a property both require, with disjoint values. Only a property with
    // a value list can be one, so the sets are built only when `a` has such a property.
    let a_props = a.properties();
    if !a_props.iter().any(|p| values(&p.schema).is_some()) {
        return false;
    }
    let (a_required, b_required) = (NameSet::new(a.required()), NameSet::new(b.required()));
    let b_props = b.properties();
    let b_by_name = NameSet::new(b_props);
    a_props.iter().any(|p| {
        let Some(x) = values(&p.schema) else { return false };
        a_required.contains(p.name)
            && b_required.contains(p.name)
            && b_by_name.get(p.name).is_some_and(|q| {
                matches!(values(&q.schema), Some(y)
                        if !x.iter().any(|v| y.iter().any(|w| same_json(v, w))))
            })
    })
}

fn overlaps(t: JsonType, other: &Types<'_>) -> bool {
    other.contains(t)
        || (t == JsonType::Integer && other.contains(JsonType::Number))
        || (t == JsonType::Number && other.contains(JsonType::Integer))
}

/// The values a schema allows by `const` or `enum`, when it limits them.
fn values<'a>(s: &Schema<'a>) -> Option<&'a [Json<'a>]> {
    if let Some(e) = s.get(Keyword::Const)
        && let Value::Json(_) = e.value
    {
        return match &e.value {
            Value::Json(j) => Some(std::slice::from_ref(j)),
            _ => None,
        };
    }
    match s.get(Keyword::Enum)?.value {
        Value::Json(Json::Array(items)) => Some(items),
        _ => None,
    }
}

fn type_array<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Step<'a> {
    if cx.profile.features().contains(SchemaFeature::TypeArray) {
        return Ok(None);
    }
    let Some((i, entry)) = find(s, Keyword::Type) else { return Ok(None) };
    let Value::Type(types) = entry.value else { return Ok(None) };
    if !types.array {
        return Ok(None);
    }
    let nullable = types.contains(JsonType::Null);
    let others: smallvec::SmallVec<[JsonType; 7]> =
        types.list.iter().copied().filter(|&t| t != JsonType::Null).collect();
    let keeps_nullable = cx.profile.action(Keyword::Nullable) == Action::Keep;
    let pointer = path.push(Seg::Key("type")).to_pointer();
    let target = cx.profile.name();
    let alloc_types = |list: &[JsonType], cx: &PassCx<'a, '_>| {
        cx.arena.try_alloc_slice_copy(list).map_err(|_| arena_error(path, cx))
    };
    let mut keywords: smallvec::SmallVec<[Entry<'a>; 8]> = smallvec::SmallVec::new();
    let single = match (others.as_slice(), nullable) {
        ([t], false) => Some(*t),
        ([t], true) if keeps_nullable => Some(*t),
        ([], _) => Some(JsonType::Null),
        _ => None,
    };
    if let Some(t) = single {
        let list = alloc_types(&[t], cx)?;
        for (j, e) in s.keywords.iter().enumerate() {
            if j == i {
                keywords.push(Entry { value: Value::Type(Types { list, array: false }), ..*e });
                if nullable && t != JsonType::Null && s.get(Keyword::Nullable).is_none() {
                    keywords.push(Entry {
                        keyword: Keyword::Nullable,
                        at: e.at,
                        value: Value::Bool(true),
                    });
                }
            } else {
                keywords.push(*e);
            }
        }
        let message = format!(
            "{target} takes one type per node; the type array was written as one type{} (same meaning)",
            if nullable && t != JsonType::Null { " with `nullable: true`" } else { "" }
        );
        cx.record(
            tool,
            entry.at,
            Note {
                severity: Severity::Info,
                code: Code::TypeRewritten,
                effect: Effect::None,
                arguments: true,
                feature: "type-array",
                pointer,
                message,
            },
        );
        return with_keywords(s, &keywords, path, cx).map(Some);
    }
    if s.get(Keyword::AnyOf).is_some() {
        // No second `anyOf` to hold the types: the policy pass describes the type array.
        return Ok(None);
    }
    // One `anyOf` branch per type, each with the keywords that constrain that type.
    let mut branch_types: smallvec::SmallVec<[JsonType; 7]> = others.clone();
    if nullable {
        branch_types.push(JsonType::Null);
    }
    let mut branches = Vec::with_capacity(branch_types.len());
    for &t in &branch_types {
        let mut b: smallvec::SmallVec<[Entry<'a>; 8]> = smallvec::SmallVec::new();
        b.push(Entry { keyword: Keyword::Type, at: entry.at, value: Value::Type(Types::one(t)) });
        for e in s.keywords {
            if let Some(ts) = e.keyword.applies_to()
                && ts.contains(&t)
            {
                b.push(*e);
            }
        }
        branches.push(with_keywords(s, &b, path, cx)?);
    }
    let branches = cx.arena.try_alloc_slice_copy(&branches).map_err(|_| arena_error(path, cx))?;
    for (j, e) in s.keywords.iter().enumerate() {
        if j == i {
            keywords.push(Entry {
                keyword: Keyword::AnyOf,
                at: e.at,
                value: Value::Schemas(branches),
            });
        } else if e.keyword.applies_to().is_none() {
            keywords.push(*e);
        }
    }
    let message = format!(
        "{target} takes one type per node; the type array was written as `anyOf` with one branch per type (same meaning)"
    );
    cx.record(
        tool,
        entry.at,
        Note {
            severity: Severity::Info,
            code: Code::TypeRewritten,
            effect: Effect::None,
            arguments: true,
            feature: "type-array",
            pointer,
            message,
        },
    );
    with_keywords(s, &keywords, path, cx).map(Some)
}
