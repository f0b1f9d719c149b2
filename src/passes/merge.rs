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

use crate::ir::{Entry, Json, JsonType, Keyword, Prop, Schema, Types, Value};

use super::{features_of, render};

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
    for ea in a.keywords {
        let other = match ea.value {
            Value::Unknown(m) => {
                b.keywords.iter().find(|e| matches!(e.value, Value::Unknown(o) if o.key == m.key))
            }
            _ => b.get(ea.keyword),
        };
        match other {
            None => push(*ea),
            Some(eb) => push(Entry { value: combine(ea, eb, arena)?, ..*ea }),
        }
    }
    for eb in b.keywords {
        let in_a = match eb.value {
            Value::Unknown(m) => {
                a.keywords.iter().any(|e| matches!(e.value, Value::Unknown(o) if o.key == m.key))
            }
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
            let keep = x.iter().filter(|v| y.iter().any(|w| same_json(v, w))).count();
            if keep == 0 {
                return Err(NoMerge::Conflict);
            }
            let list = arena.try_alloc_slice_fill_copy(keep, Json::Null)?;
            for (slot, v) in
                list.iter_mut().zip(x.iter().filter(|v| y.iter().any(|w| same_json(v, w))))
            {
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
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|m| y.iter().any(|n| n.key == m.key && same_json(&m.value, &n.value)))
        }
        _ => a == b,
    }
}
