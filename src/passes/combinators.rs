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
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use super::merge::{NoMerge, Values, json_hash, merge_all, same_json};
use crate::ir::features_of;
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use crate::passes::node::find;
use crate::passes::node::with_keywords;
use crate::passes::walk::NodeRule;
use crate::passes::walk::rewrite_tool;

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
    let place = path.push(Seg::Key("allOf"));
    let pointer = PathPointer(&place);
    let message = format!(
        "{} has no `allOf`; its parts were merged into one schema (same meaning)",
        cx.profile.name()
    );
    cx.record(
        tool,
        entry.at,
        Note {
            kind: EntryKind::arguments(Code::CombinatorRewritten, Effect::None),
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
    let place = path.push(Seg::Key("const"));
    let pointer = PathPointer(&place);
    let message = format!(
        "{} has no `const`; written as a one-value `enum` (same meaning)",
        cx.profile.name()
    );
    cx.record(
        tool,
        entry.at,
        Note {
            kind: EntryKind::arguments(Code::CombinatorRewritten, Effect::None),
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
    let disjoint = all_disjoint(branches);
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
    let node = replace_at(s, i, Entry { keyword: Keyword::AnyOf, ..entry }, path, cx)?;
    let place = path.push(Seg::Key("oneOf"));
    let pointer = PathPointer(&place);
    let message = format!("{} has no `oneOf`; written as `anyOf` ({why})", cx.profile.name());
    cx.record(
        tool,
        entry.at,
        Note {
            kind: EntryKind::arguments(Code::CombinatorRewritten, effect),
            feature: "oneOf",
            pointer,
            message,
        },
    );
    Ok(Some(node))
}

/// Branch lists up to this long are compared pair by pair.
const PAIRWISE: usize = 64;

/// The most pairs a longer list is compared in, when no rule below decides for all of them
/// at once: past it the branches count as overlapping, which can only say `widens` where the
/// answer was `none` (a `warning` for an `info`).
const MOST_PAIRS: usize = 1 << 16;

/// Whether no value can match two of `branches` ([`disjoint`] for every pair). A long list
/// is first tried as a whole, in n·log n, by the rules that separate most long `oneOf`s: each
/// pair told apart by its types or its values (a `oneOf` of `const`s), or every branch by the
/// values of one required property (a tagged union). Only a list those leave undecided is
/// compared pair by pair, up to [`MOST_PAIRS`].
pub(super) fn all_disjoint(branches: &[Schema<'_>]) -> bool {
    let pairwise = || {
        branches
            .iter()
            .enumerate()
            .all(|(i, a)| branches.iter().skip(i + 1).all(|b| disjoint(a, b)))
    };
    if branches.len() <= PAIRWISE {
        return pairwise();
    }
    let live: Vec<&Schema<'_>> = branches.iter().filter(|b| b.boolean != Some(false)).collect();
    if by_types_and_values(&live) || by_discriminator(&live) {
        return true;
    }
    live.len().saturating_mul(live.len().saturating_sub(1)) / 2 <= MOST_PAIRS && pairwise()
}

/// A type list as bits, `integer` and `number` on one (each overlaps the other); every bit
/// for a node without `type`, and `None` for an empty list (it overlaps nothing, but a node
/// without `type` is not told apart from it by types either: the pairs decide).
fn type_bits(s: &Schema<'_>) -> Option<u8> {
    let Some(types) = s.types() else { return Some(0x3f) };
    let bit = |t: JsonType| match t {
        JsonType::Integer | JsonType::Number => 1 << 4,
        t => 1 << (t as u8).min(5),
    };
    let bits = types.list.iter().fold(0_u8, |bits, &t| bits | bit(t));
    (bits != 0).then_some(bits)
}

/// The values of a list of branches, each with its branch's position, sorted by hash: the
/// classes of equal values are runs (a hash shared by unequal values leaves `None`: the pairs
/// decide).
fn value_classes<'v, 'a>(
    lists: impl Iterator<Item = (usize, &'v [Json<'a>])>,
) -> Option<Vec<(u64, usize, &'v Json<'a>)>>
where
    'a: 'v,
{
    let hasher = std::hash::RandomState::new();
    let mut all: Vec<(u64, usize, &Json<'_>)> = Vec::new();
    for (branch, list) in lists {
        all.extend(list.iter().map(|v| (json_hash(v, &hasher), branch, v)));
    }
    all.sort_unstable_by_key(|&(h, b, _)| (h, b));
    let same_hash_unequal = all.chunk_by(|x, y| x.0 == y.0).any(|run| {
        run.first().is_some_and(|&(_, _, first)| run.iter().any(|&(_, _, v)| !same_json(first, v)))
    });
    (!same_hash_unequal).then_some(all)
}

/// Whether every two of `live` are told apart by their types or their values (both have a
/// value list, and no value in common). Exact: a branch without values must share no type
/// with any other; branches sharing a value must share no type.
fn by_types_and_values(live: &[&Schema<'_>]) -> bool {
    let Some(bits) = live.iter().map(|b| type_bits(b)).collect::<Option<Vec<u8>>>() else {
        return false;
    };
    // How many branches have each type bit.
    let mut count = [0_usize; 6];
    for b in &bits {
        for (bit, n) in count.iter_mut().enumerate() {
            *n += usize::from(b & (1 << bit) != 0);
        }
    }
    let shared = |b: u8| count.iter().enumerate().any(|(bit, &n)| b & (1 << bit) != 0 && n > 1);
    let valued = live.iter().zip(&bits).enumerate().map(|(i, (s, &b))| (i, values(s), b));
    if valued.clone().any(|(_, v, b)| v.is_none() && shared(b)) {
        return false;
    }
    let lists = valued.filter_map(|(i, v, _)| Some((i, v?)));
    let Some(classes) = value_classes(lists) else { return false };
    // Within a class, the branches holding that value pairwise share no type.
    classes.chunk_by(|x, y| x.0 == y.0).all(|run| {
        let mut seen = 0_u8;
        let mut last = None;
        run.iter().all(|&(_, branch, _)| {
            if last == Some(branch) {
                return true;
            }
            last = Some(branch);
            let b = bits.get(branch).copied().unwrap_or(0x3f);
            let apart = seen & b == 0;
            seen |= b;
            apart
        })
    })
}

/// Whether one property, required with a value list in every branch of `live`, has values
/// no two branches share: it tells every pair apart. Tried for the first few such properties
/// of the first branch.
fn by_discriminator(live: &[&Schema<'_>]) -> bool {
    let Some(first) = live.first() else { return true };
    let required = NameSet::new(first.required());
    let candidates = first
        .properties()
        .iter()
        .filter(|p| values(&p.schema).is_some() && required.contains(p.name))
        .take(4);
    candidates.into_iter().any(|k| {
        let mut lists = Vec::with_capacity(live.len());
        for (i, b) in live.iter().enumerate() {
            let props = NameSet::new(b.properties());
            let Some(v) = props.get(k.name).and_then(|p| values(&p.schema)) else { return false };
            if !NameSet::new(b.required()).contains(k.name) {
                return false;
            }
            lists.push((i, v));
        }
        let Some(classes) = value_classes(lists.into_iter()) else { return false };
        classes
            .chunk_by(|x, y| x.0 == y.0)
            .all(|run| run.iter().all(|&(_, b, _)| Some(b) == run.first().map(|f| f.1)))
    })
}

/// Whether no value can match both schemas (conservative: `false` when unsure).
fn disjoint(a: &Schema<'_>, b: &Schema<'_>) -> bool {
    if a.boolean == Some(false) || b.boolean == Some(false) {
        return true;
    }
    if let (Some(x), Some(y)) = (a.types(), b.types())
        && !x.list.iter().any(|&t| overlaps(t, &y))
    {
        return true;
    }
    if let (Some(x), Some(y)) = (values(a), values(b))
        && Values::new(y).disjoint(x)
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
            && b_by_name
                .get(p.name)
                .is_some_and(|q| matches!(values(&q.schema), Some(y) if Values::new(y).disjoint(x)))
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
    let place = path.push(Seg::Key("type"));
    let pointer = PathPointer(&place);
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
                kind: EntryKind::arguments(Code::TypeRewritten, Effect::None),
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
            kind: EntryKind::arguments(Code::TypeRewritten, Effect::None),
            feature: "type-array",
            pointer,
            message,
        },
    );
    with_keywords(s, &keywords, path, cx).map(Some)
}

#[cfg(test)]
mod tests {
    use bumpalo::Bump;

    use super::{MOST_PAIRS, all_disjoint, by_discriminator, by_types_and_values, disjoint};
    use crate::ir::{Entry, Json, JsonType, Keyword, Prop, Schema, Types, Value, features_of};

    /// A small deterministic generator (no dependency for tests of this size).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n.max(1)
        }
    }

    fn node<'a>(arena: &'a Bump, keywords: &[Entry<'a>]) -> Schema<'a> {
        let keywords = arena.alloc_slice_copy(keywords);
        Schema { boolean: None, keywords, features: features_of(keywords), at: 0 }
    }

    /// A value among few (so lists share some), as a string or a number (`1` and `1.0` alike).
    fn value<'a>(arena: &'a Bump, rng: &mut Lcg, spread: u64) -> Json<'a> {
        let v = rng.below(spread);
        match rng.below(3) {
            0 => Json::String(arena.alloc_str(&format!("v{v}"))),
            1 => Json::Number(arena.alloc_str(&format!("{v}"))),
            _ => Json::Number(arena.alloc_str(&format!("{v}.0"))),
        }
    }

    /// A branch of one of the kinds long `oneOf`s have: typed, with a `const` or an `enum`,
    /// an object with a discriminator property, `true` or `false`.
    fn branch<'a>(arena: &'a Bump, rng: &mut Lcg, kind: u64, spread: u64) -> Schema<'a> {
        let mut keywords = Vec::new();
        if rng.below(3) > 0 {
            let t = JsonType::ALL[rng.below(7) as usize];
            keywords.push(Entry {
                keyword: Keyword::Type,
                at: 0,
                value: Value::Type(Types::one(t)),
            });
        }
        match kind {
            0 => keywords.push(Entry {
                keyword: Keyword::Const,
                at: 0,
                value: Value::Json(value(arena, rng, spread)),
            }),
            1 => {
                let n = rng.below(4) as usize;
                let list: Vec<Json<'_>> = (0..n).map(|_| value(arena, rng, spread)).collect();
                let list = arena.alloc_slice_copy(&list);
                keywords.push(Entry {
                    keyword: Keyword::Enum,
                    at: 0,
                    value: Value::Json(Json::Array(list)),
                });
            }
            2 => {
                let k = node(
                    arena,
                    &[Entry {
                        keyword: Keyword::Const,
                        at: 0,
                        value: Value::Json(value(arena, rng, spread)),
                    }],
                );
                let props = arena.alloc_slice_copy(&[Prop::new("k", 0, k)]);
                keywords.push(Entry {
                    keyword: Keyword::Properties,
                    at: 0,
                    value: Value::Props(props),
                });
                if rng.below(8) > 0 {
                    let required: &[&str] = arena.alloc_slice_copy(&["k"]);
                    keywords.push(Entry {
                        keyword: Keyword::Required,
                        at: 0,
                        value: Value::Strings(required),
                    });
                }
            }
            3 => return Schema::bool(rng.below(2) == 0, 0),
            _ => {}
        }
        node(arena, &keywords)
    }

    /// Long branch lists decided as a whole give the pairwise answer, for lists of one kind
    /// (which the whole-list rules decide) and of mixed kinds (which the pairs do).
    #[test]
    fn long_lists_are_decided_as_pairs_decide_them() {
        let arena = Bump::new();
        let mut rng = Lcg(7);
        let (mut agreed, mut disjoint_lists, mut by_rules) = (0, 0, 0);
        for round in 0..600 {
            let n = 65 + rng.below(120) as usize;
            let kinds: &[u64] = match round % 6 {
                0 => &[0],
                1 => &[0, 1],
                2 => &[2],
                3 => &[0, 3],
                4 => &[0, 1, 2, 3, 4],
                _ => &[1, 4],
            };
            // Values spread over more than the branches, so some lists are disjoint.
            let spread = if round % 2 == 0 { 4 * n as u64 } else { 100_000 };
            let list: Vec<Schema<'_>> = (0..n)
                .map(|_| {
                    let kind = kinds[rng.below(kinds.len() as u64) as usize];
                    branch(&arena, &mut rng, kind, spread)
                })
                .collect();
            let pairs = list
                .iter()
                .enumerate()
                .all(|(i, a)| list.iter().skip(i + 1).all(|b| disjoint(a, b)));
            assert!(n * (n - 1) / 2 <= MOST_PAIRS);
            assert_eq!(all_disjoint(&list), pairs, "round {round}");
            let live: Vec<&Schema<'_>> = list.iter().filter(|b| b.boolean != Some(false)).collect();
            let rules = by_types_and_values(&live) || by_discriminator(&live);
            assert!(!rules || pairs, "round {round}: a rule said disjoint where a pair is not");
            agreed += 1;
            disjoint_lists += usize::from(pairs);
            by_rules += usize::from(rules);
        }
        assert_eq!(agreed, 600);
        // Both answers come up, and the rules decide most disjoint lists alone.
        assert!(disjoint_lists > 60 && disjoint_lists < 590, "{disjoint_lists}");
        assert!(by_rules * 2 > disjoint_lists, "{by_rules} of {disjoint_lists}");
    }
}
