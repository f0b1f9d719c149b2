//! Merging two schemas into one that accepts exactly what both accept (`allOf: [a, b]`).
//!
//! Shared by the combinators pass (`allOf` for targets without it) and the refs pass (a `$ref`
//! inlined next to sibling keywords). A merge is made only when it provably keeps the meaning:
//! keywords that read their neighbours (`additionalProperties` and `properties`, `items` and
//! `prefixItems`, `if`/`then`/`else`, `contains` and its bounds, `unevaluated*`) are merged only
//! when one side alone has that group; two values of one keyword are combined only by a rule
//! that is exact (types intersected, `required` unioned, bounds tightened, properties merged
//! by name); anything else means "does not merge" and the caller keeps or reports the original.

use bumpalo::Bump;

use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use crate::ir::{Entry, Json, JsonType, Keyword, Member, Prop, Schema, Types, Value};

use crate::ir::features_of;

use crate::passes::describe::render;

/// Why a merge was not made.
pub(crate) enum NoMerge {
    /// No single schema says the same; the caller keeps or reports the original.
    Conflict,
    /// The arena ran out.
    Arena,
}

impl From<bumpalo::AllocErr> for NoMerge {
    fn from(_: bumpalo::AllocErr) -> Self {
        NoMerge::Arena
    }
}

/// Keyword groups whose members read each other: at most one side may use a group.
const GROUPS: &[&[Keyword]] = &[
    &[
        Keyword::AdditionalProperties,
        Keyword::Properties,
        Keyword::PatternProperties,
        Keyword::UnevaluatedProperties,
    ],
    &[Keyword::Items, Keyword::PrefixItems, Keyword::AdditionalItems, Keyword::UnevaluatedItems],
    &[Keyword::Contains, Keyword::MinContains, Keyword::MaxContains],
    &[Keyword::If, Keyword::Then, Keyword::Else],
];

/// Keywords that change how pointers or identifiers resolve; a schema holding one is not
/// moved into another.
const ANCHORED: &[Keyword] = &[
    Keyword::Id,
    Keyword::Anchor,
    Keyword::DynamicAnchor,
    Keyword::DynamicRef,
    Keyword::RecursiveAnchor,
    Keyword::RecursiveRef,
    Keyword::Defs,
    Keyword::Definitions,
];

/// `base` and every schema of `parts` (an `allOf`) as one schema, in that order.
///
/// Merged pairwise as a balanced tree rather than folded left to right: each merge copies
/// both sides, so a fold over n parts copies the growing result n times (10,000 one-property
/// branches took over 512 MiB of arena), while the tree copies each part's content once per
/// level, log2 n times in all. Merging is associative (every rule above keeps the left
/// side's order and values first), so the result is the fold's; the one rule that looks at a
/// side alone, that the right side moves no anchor, is checked for every part first, as the
/// fold would have.
pub(crate) fn merge_all<'a>(
    base: &Schema<'a>,
    parts: &[Schema<'a>],
    arena: &'a Bump,
) -> Result<Schema<'a>, NoMerge> {
    let anchored = |s: &Schema<'_>| ANCHORED.iter().any(|&k| s.get(k).is_some());
    if parts.iter().any(anchored) {
        return Err(NoMerge::Conflict);
    }
    match merge_tree(parts, arena)? {
        Some(merged) => merge(base, &merged, arena),
        None => Ok(*base),
    }
}

/// `parts` merged as a balanced tree (see [`merge_all`]); `None` when there are none. The
/// recursion is log2 of the part count deep.
fn merge_tree<'a>(parts: &[Schema<'a>], arena: &'a Bump) -> Result<Option<Schema<'a>>, NoMerge> {
    if parts.len() <= 1 {
        return Ok(parts.first().copied());
    }
    let (left, right) = parts.split_at(parts.len() / 2);
    match (merge_tree(left, arena)?, merge_tree(right, arena)?) {
        (Some(a), Some(b)) => merge(&a, &b, arena).map(Some),
        (a, b) => Ok(a.or(b)),
    }
}

/// `a` and `b` as one schema, `a`'s keywords first.
pub(crate) fn merge<'a>(
    a: &Schema<'a>,
    b: &Schema<'a>,
    arena: &'a Bump,
) -> Result<Schema<'a>, NoMerge> {
    match (a.boolean, b.boolean) {
        (Some(true), _) => return Ok(*b),
        (_, Some(true)) => return Ok(*a),
        (Some(false), _) | (_, Some(false)) => return Err(NoMerge::Conflict),
        _ => {}
    }
    let has = |s: &Schema<'_>, kw: Keyword| s.get(kw).is_some();
    let uses = |s: &Schema<'_>, group: &[Keyword]| group.iter().any(|&k| has(s, k));
    let unevaluated = [Keyword::UnevaluatedItems, Keyword::UnevaluatedProperties];
    if ANCHORED.iter().any(|&k| has(b, k)) || unevaluated.iter().any(|&k| has(a, k) || has(b, k)) {
        return Err(NoMerge::Conflict);
    }
    for group in GROUPS {
        // `properties` on both sides merges by name unless an `additionalProperties` or
        // `patternProperties` on either side reads them.
        let only_properties = |s: &Schema<'_>| {
            group.iter().filter(|&&k| has(s, k)).all(|&k| k == Keyword::Properties)
        };
        if uses(a, group) && uses(b, group) && !(only_properties(a) && only_properties(b)) {
            return Err(NoMerge::Conflict);
        }
    }
    let len = a.keywords.len() + b.keywords.len();
    let blank = Entry { keyword: Keyword::Unknown, at: 0, value: Value::Bool(false) };
    let slots = arena.try_alloc_slice_fill_copy(len, blank)?;
    let mut n = 0;
    let mut push = |e: Entry<'a>| {
        if let Some(slot) = slots.get_mut(n) {
            *slot = e;
            n += 1;
        }
    };
    let (a_unknown, b_unknown) = (Unknowns::new(a, arena)?, Unknowns::new(b, arena)?);
    for ea in a.keywords {
        let other = match ea.value {
            Value::Unknown(m) => b_unknown.find(b, m.key),
            _ => b.get(ea.keyword),
        };
        match other {
            None => push(*ea),
            Some(eb) => push(Entry { value: combine(ea, eb, arena)?, ..*ea }),
        }
    }
    for eb in b.keywords {
        let in_a = match eb.value {
            Value::Unknown(m) => a_unknown.find(a, m.key).is_some(),
            _ => a.get(eb.keyword).is_some(),
        };
        if !in_a {
            push(*eb);
        }
    }
    let keywords = &*slots.split_at_mut(n.min(len)).0;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), at: a.at })
}

/// One value meaning both `a` and `b` (same keyword), when an exact rule exists.
fn combine<'a>(a: &Entry<'a>, b: &Entry<'a>, arena: &'a Bump) -> Result<Value<'a>, NoMerge> {
    use Keyword as K;
    if same(&a.value, &b.value) {
        return Ok(a.value);
    }
    Ok(match (a.keyword, a.value, b.value) {
        (K::Type, Value::Type(x), Value::Type(y)) => intersect_types(x, y, arena)?,
        (K::Required, Value::Strings(x), Value::Strings(y)) => {
            let in_x = ByName::new(x.iter().copied(), arena)?;
            let new = |n: &&&str| in_x.find(n, x.iter().copied()).is_none();
            let extra = y.iter().filter(new).count();
            let list = arena.try_alloc_slice_fill_copy(x.len() + extra, "")?;
            for (slot, name) in list.iter_mut().zip(x.iter().chain(y.iter().filter(new))) {
                *slot = name;
            }
            Value::Strings(list)
        }
        (K::Properties, Value::Props(x), Value::Props(y)) => {
            let (in_x, in_y) = (
                ByName::new(x.iter().map(|p| p.name), arena)?,
                ByName::new(y.iter().map(|q| q.name), arena)?,
            );
            let new = |q: &&Prop<'_>| in_x.find(q.name, x.iter().map(|p| p.name)).is_none();
            let extra = y.iter().filter(new).count();
            let blank = Prop::new("", 0, Schema::bool(true, 0));
            let list = arena.try_alloc_slice_fill_copy(x.len() + extra, blank)?;
            let mut slots = list.iter_mut();
            for p in x {
                let same = in_y.find(p.name, y.iter().map(|q| q.name)).and_then(|i| y.get(i));
                let schema = match same {
                    Some(q) => merge(&p.schema, &q.schema, arena)?,
                    None => p.schema,
                };
                if let Some(slot) = slots.next() {
                    *slot = Prop { schema, ..*p };
                }
            }
            for q in y.iter().filter(new) {
                if let Some(slot) = slots.next() {
                    *slot = *q;
                }
            }
            Value::Props(list)
        }
        (
            K::Minimum
            | K::ExclusiveMinimum
            | K::MinLength
            | K::MinItems
            | K::MinProperties
            | K::MinContains,
            Value::Number(x),
            Value::Number(y),
        ) => Value::Number(pick(x, y, |p, q| p >= q)?),
        (
            K::Maximum
            | K::ExclusiveMaximum
            | K::MaxLength
            | K::MaxItems
            | K::MaxProperties
            | K::MaxContains,
            Value::Number(x),
            Value::Number(y),
        ) => Value::Number(pick(x, y, |p, q| p <= q)?),
        (K::Description, Value::Str(x), Value::Str(y)) => {
            Value::Str(arena.try_alloc_str(&format!("{x} {y}"))?)
        }
        // Annotations: the first side's value stands (what is accepted is unchanged).
        (K::Title | K::Default | K::Examples | K::Example | K::Deprecated | K::Comment, v, _) => v,
        (K::Enum, Value::Json(Json::Array(x)), Value::Json(Json::Array(y))) => {
            let in_y = Values::new(y);
            let keep = in_y.held(x).count();
            if keep == 0 {
                return Err(NoMerge::Conflict);
            }
            let list = arena.try_alloc_slice_fill_copy(keep, Json::Null)?;
            for (slot, v) in list.iter_mut().zip(in_y.held(x)) {
                *slot = *v;
            }
            Value::Json(Json::Array(list))
        }
        _ => return Err(NoMerge::Conflict),
    })
}

/// Lists up to this long are scanned for a name; longer ones are sorted once per merge, so
/// that merging two long lists (`required`, `properties` of 10,000 names) is not quadratic.
const SCAN: usize = 16;

/// Where each name of a list is, for finding names in it: nothing for a short list (scanned),
/// the names sorted with their positions, in the arena, for a long one.
struct ByName<'a>(Option<&'a [(&'a str, usize)]>);

impl<'a> ByName<'a> {
    fn new(
        names: impl ExactSizeIterator<Item = &'a str>,
        arena: &'a Bump,
    ) -> Result<Self, NoMerge> {
        if names.len() <= SCAN {
            return Ok(ByName(None));
        }
        let sorted = arena.try_alloc_slice_fill_iter(names.enumerate().map(|(i, n)| (n, i)))?;
        sorted.sort_unstable();
        Ok(ByName(Some(sorted)))
    }

    /// The position of the first `name` in the list, whose names `names` yields in order.
    fn find<'n>(&self, name: &str, mut names: impl Iterator<Item = &'n str>) -> Option<usize> {
        match self.0 {
            Some(sorted) => {
                let at = sorted.partition_point(|&(n, _)| n < name);
                sorted.get(at).filter(|&&(n, _)| n == name).map(|&(_, i)| i)
            }
            None => names.position(|n| n == name),
        }
    }
}

/// A node's keywords unknown to this crate (kept by their key), found by key: scanned in a
/// node of few keywords, through a [`ByName`] index of their keys in a node of many (two
/// `allOf` parts of 100,000 unknown keywords each looked each key up in the other's list).
struct Unknowns<'a> {
    /// The unknown keywords, when indexed.
    list: &'a [Entry<'a>],
    by_key: ByName<'a>,
}

impl<'a> Unknowns<'a> {
    fn new(s: &Schema<'a>, arena: &'a Bump) -> Result<Self, NoMerge> {
        let unknown = |e: &&Entry<'a>| matches!(e.value, Value::Unknown(_));
        if s.keywords.len() <= SCAN {
            return Ok(Unknowns { list: &[], by_key: ByName(None) });
        }
        let n = s.keywords.iter().filter(unknown).count();
        let blank = Entry { keyword: Keyword::Unknown, at: 0, value: Value::Bool(false) };
        let list = arena.try_alloc_slice_fill_copy(n, blank)?;
        for (slot, e) in list.iter_mut().zip(s.keywords.iter().filter(unknown)) {
            *slot = *e;
        }
        let by_key = ByName::new(list.iter().map(unknown_key), arena)?;
        Ok(Unknowns { list, by_key })
    }

    /// The first keyword of `s` (the node this was made for) unknown to this crate, with the
    /// key `key`.
    fn find(&self, s: &Schema<'a>, key: &str) -> Option<&'a Entry<'a>> {
        if self.by_key.0.is_none() {
            return s
                .keywords
                .iter()
                .find(|e| matches!(e.value, Value::Unknown(o) if o.key == key));
        }
        let i = self.by_key.find(key, self.list.iter().map(unknown_key))?;
        self.list.get(i)
    }
}

/// The key of a keyword unknown to this crate (empty for any other).
fn unknown_key<'a>(e: &Entry<'a>) -> &'a str {
    match e.value {
        Value::Unknown(m) => m.key,
        _ => "",
    }
}

/// The number text for which `keep(chosen, other)` holds; numbers compare by value.
fn pick<'a>(x: &'a str, y: &'a str, keep: impl Fn(f64, f64) -> bool) -> Result<&'a str, NoMerge> {
    match (x.parse::<f64>(), y.parse::<f64>()) {
        (Ok(p), Ok(q)) if p.is_finite() && q.is_finite() => Ok(if keep(p, q) { x } else { y }),
        _ => Err(NoMerge::Conflict),
    }
}

fn intersect_types<'a>(x: Types<'a>, y: Types<'a>, arena: &'a Bump) -> Result<Value<'a>, NoMerge> {
    // `integer` is a subset of `number`.
    let meet = |t: JsonType, other: &Types<'_>| -> Option<JsonType> {
        if other.contains(t) {
            Some(t)
        } else if (t == JsonType::Integer && other.contains(JsonType::Number))
            || (t == JsonType::Number && other.contains(JsonType::Integer))
        {
            Some(JsonType::Integer)
        } else {
            None
        }
    };
    let mut list: smallvec::SmallVec<[JsonType; 7]> = smallvec::SmallVec::new();
    for t in x.list.iter().filter_map(|&t| meet(t, &y)) {
        if !list.contains(&t) {
            list.push(t);
        }
    }
    if list.is_empty() {
        return Err(NoMerge::Conflict);
    }
    let array = list.len() > 1 || (x.array && y.array);
    Ok(Value::Type(Types { list: arena.try_alloc_slice_copy(&list)?, array }))
}

/// Whether two keyword values are the same JSON (numbers by text, which is exact for the
/// values keywords hold in practice; a false "different" only means no merge).
pub(crate) fn same(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Json(x), Value::Json(y)) => same_json(x, y),
        _ => render(a) == render(b),
    }
}

/// JSON equality as JSON Schema reads it: numbers by value, objects regardless of order.
pub(crate) fn same_json(a: &Json<'_>, b: &Json<'_>) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(p), Ok(q)) if p == q)
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_json(p, q))
        }
        (Json::Object(x), Json::Object(y)) if x.len() > SCAN && x.len() == y.len() => {
            // Long objects: `y`'s members sorted by key once, not scanned for each of `x`'s.
            let mut by_key: Vec<&Member<'_>> = y.iter().collect();
            by_key.sort_unstable_by(|m, n| m.key.cmp(n.key));
            x.iter().all(|m| {
                let from = by_key.partition_point(|n| n.key < m.key);
                let run = by_key.get(from..).unwrap_or_default();
                run.iter().take_while(|n| n.key == m.key).any(|n| same_json(&m.value, &n.value))
            })
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|m| y.iter().any(|n| n.key == m.key && same_json(&m.value, &n.value)))
        }
        _ => a == b,
    }
}

/// Which values of one list another holds ([`same_json`]), for `enum` lists: compared value
/// by value when one list is short; when both are long, through their values' hashes
/// ([`json_hash`]), each list's sorted once and the two walked side by side, so two enums of
/// 50,000 values cost n·log n rather than n² (and no lookup jumps about memory).
pub(crate) struct Values<'v, 'a> {
    list: &'v [Json<'a>],
}

/// Lists up to this long are compared value by value.
const SHORT_VALUES: usize = 16;

impl<'v, 'a> Values<'v, 'a> {
    pub(crate) fn new(list: &'v [Json<'a>]) -> Self {
        Values { list }
    }

    /// Whether the list holds no value of `other`.
    pub(crate) fn disjoint(&self, other: &[Json<'_>]) -> bool {
        if self.list.len().min(other.len()) <= SHORT_VALUES {
            return !other.iter().any(|v| self.list.iter().any(|w| same_json(v, w)));
        }
        let mut any = false;
        self.walk(other, |_| any = true);
        !any
    }

    /// The values of `other` the list holds, in `other`'s order.
    pub(crate) fn held<'o, 'b>(&self, other: &'o [Json<'b>]) -> impl Iterator<Item = &'o Json<'b>> {
        let mut marks = Vec::new();
        let long = self.list.len().min(other.len()) > SHORT_VALUES;
        if long {
            marks.resize(other.len(), false);
            self.walk(other, |i| {
                if let Some(m) = marks.get_mut(i) {
                    *m = true;
                }
            });
        }
        other.iter().enumerate().filter_map(move |(i, v)| {
            let held = if long {
                marks.get(i).copied().unwrap_or(false)
            } else {
                self.list.iter().any(|w| same_json(v, w))
            };
            held.then_some(v)
        })
    }

    /// Calls `found` with the position of each value of `other` the list holds: both lists'
    /// hashes sorted, walked side by side, equal hashes confirmed by [`same_json`].
    fn walk(&self, other: &[Json<'_>], mut found: impl FnMut(usize)) {
        let hasher = RandomState::new();
        let hashes = |list: &[Json<'_>]| {
            let mut h: Vec<(u64, usize)> =
                list.iter().enumerate().map(|(i, v)| (json_hash(v, &hasher), i)).collect();
            h.sort_unstable();
            h
        };
        let (mine, theirs) = (hashes(self.list), hashes(other));
        let mut from = 0;
        for &(hash, i) in &theirs {
            while mine.get(from).is_some_and(|&(h, _)| h < hash) {
                from += 1;
            }
            let run = mine.get(from..).unwrap_or_default().iter().take_while(|&&(h, _)| h == hash);
            let v = other.get(i);
            if run.into_iter().any(
                |&(_, j)| matches!((v, self.list.get(j)), (Some(v), Some(w)) if same_json(v, w)),
            ) {
                found(i);
            }
        }
    }
}

/// A hash of a JSON value under `hasher` that agrees with [`same_json`]: values it calls the
/// same hash alike (numbers by value, objects whatever their members' order).
pub(crate) fn json_hash(v: &Json<'_>, hasher: &RandomState) -> u64 {
    let mut h = hasher.build_hasher();
    match *v {
        Json::Null => 0_u8.hash(&mut h),
        Json::Bool(b) => (1_u8, b).hash(&mut h),
        Json::Number(text) => match text.parse::<f64>() {
            // `-0` is `0`; no JSON number parses to NaN.
            Ok(x) => (2_u8, if x == 0.0 { 0 } else { x.to_bits() }).hash(&mut h),
            Err(_) => (3_u8, text).hash(&mut h),
        },
        Json::String(s) => (4_u8, s).hash(&mut h),
        Json::Array(items) => {
            (5_u8, items.len()).hash(&mut h);
            for item in items {
                json_hash(item, hasher).hash(&mut h);
            }
        }
        Json::Object(members) => {
            // Summed: the members' order does not count.
            let sum = members.iter().fold(0_u64, |sum, m| {
                sum.wrapping_add(hasher.hash_one((m.key, json_hash(&m.value, hasher))))
            });
            (6_u8, members.len(), sum).hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use std::hash::RandomState;

    use bumpalo::Bump;

    use super::{Values, json_hash, same_json};
    use crate::ir::{Json, Member};

    /// Values built from a seed: numbers in several spellings, strings, arrays and objects
    /// (short and long, members in either order), so equal values come in many forms.
    fn value<'a>(arena: &'a Bump, seed: u64, depth: u32) -> Json<'a> {
        let pick = seed % 7;
        let v = seed / 7 % 5;
        match (pick, depth) {
            (0, _) => Json::Number(arena.alloc_str(&format!("{v}"))),
            (1, _) => Json::Number(arena.alloc_str(&format!("{v}.0"))),
            (2, _) => Json::Number(arena.alloc_str(&format!("{v}e0"))),
            (3, _) => Json::String(arena.alloc_str(&format!("{v}"))),
            (4, 0..2) => {
                let items: Vec<Json<'_>> =
                    (0..v).map(|i| value(arena, seed / 5 + i, depth + 1)).collect();
                Json::Array(arena.alloc_slice_copy(&items))
            }
            (5 | 6, 0..2) => {
                // Long (over the scan length) or short; reversed on odd seeds.
                let n = if pick == 5 { 20 } else { v };
                let mut members: Vec<Member<'_>> = (0..n)
                    .map(|i| Member {
                        key: arena.alloc_str(&format!("k{i}")),
                        value: value(arena, (seed / 35 + i) % 3 * 7, depth + 1),
                    })
                    .collect();
                if seed % 2 == 1 {
                    members.reverse();
                }
                Json::Object(arena.alloc_slice_copy(&members))
            }
            _ => Json::Null,
        }
    }

    /// Values that are the same JSON hash alike, and a long list answers as a scan does.
    #[test]
    fn hashes_and_value_lists_agree_with_same_json() {
        let arena = Bump::new();
        let values: Vec<Json<'_>> =
            (0..400).map(|s| value(&arena, s * 2_654_435_761 % 10_007, 0)).collect();
        let hasher = RandomState::new();
        let mut same = 0;
        for a in &values {
            for b in &values {
                if same_json(a, b) {
                    same += 1;
                    assert_eq!(json_hash(a, &hasher), json_hash(b, &hasher), "{a:?} {b:?}");
                }
            }
        }
        // Equal values in other spellings were met, not only each value with itself.
        assert!(same > values.len() * 2, "{same}");
        for split in [5, 17, 100, 399] {
            let (list, probes) = values.split_at(split);
            let set = Values::new(list);
            for other in [probes, list, &values[..3], &probes[..probes.len().min(40)]] {
                let held: Vec<&Json<'_>> = set.held(other).collect();
                let scanned: Vec<&Json<'_>> =
                    other.iter().filter(|v| list.iter().any(|w| same_json(v, w))).collect();
                assert_eq!(held.len(), scanned.len());
                assert!(held.iter().zip(&scanned).all(|(a, b)| std::ptr::eq(*a, *b)));
                assert_eq!(set.disjoint(other), scanned.is_empty());
            }
        }
    }
}
