//! The typing rules of the shape pass: a `type` for every node (read off its `enum`/`const`
//! values, before those are rewritten, else off the keywords it uses, else the scalar types),
//! and `items` for every array.

use crate::error::ConversionError;
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::Path;
use crate::profile::shape::{ShapeRule, ShapeRules, broken, implied_type};
use crate::report::Effect;

use super::{Keywords, alloc, insert_after_type, note};
use crate::ir::features_of;
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use crate::passes::walk::NodeRule;
use crate::passes::walk::rewrite_tool;

/// Before the passes that describe `enum` and `const` (Gemini's string-only `enum`): an untyped
/// node whose values share one type gets that type, which they prove (same values accepted).
pub(crate) fn typed_values<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    if !cx.profile.shape_rules().contains(ShapeRule::TypeRequired) || tool.opaque.is_some() {
        return Ok(());
    }
    rewrite_tool(tool, cx, &mut TypedValues)
}

struct TypedValues;

impl<'a> NodeRule<'a> for TypedValues {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[SchemaFeature::Enum, SchemaFeature::Const])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        if !broken(ShapeRule::TypeRequired, s, false) {
            return Ok(None);
        }
        let values = match s.get(Keyword::Const).or_else(|| s.get(Keyword::Enum)).map(|e| e.value) {
            Some(Value::Json(Json::Array(values))) if s.get(Keyword::Const).is_none() => values,
            Some(Value::Json(one)) => {
                std::slice::from_ref(cx.arena.try_alloc(one).map_err(|_| arena_error(path, cx))?)
            }
            _ => return Ok(None),
        };
        let Some(t) = type_of_values(values) else { return Ok(None) };
        let entry = Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) };
        let node = insert_after_type(s, entry, path, cx)?;
        let message = [
            cx.profile.name(),
            " needs a `type` on every node; wrote \"",
            t.as_str(),
            "\", the type of every value the node allows (same values accepted)",
        ];
        note(cx, tool, s.at, path, ShapeRule::TypeRequired, Effect::None, message);
        Ok(Some(node))
    }
}

/// The one type all of `values` have, when they share one.
fn type_of_values(values: &[Json<'_>]) -> Option<JsonType> {
    let kind = |v: &Json<'_>| match v {
        Json::String(_) => Some(JsonType::String),
        Json::Bool(_) => Some(JsonType::Boolean),
        Json::Null => Some(JsonType::Null),
        Json::Number(n) if !n.contains(['.', 'e', 'E']) => Some(JsonType::Integer),
        Json::Number(_) => Some(JsonType::Number),
        _ => None,
    };
    let first = kind(values.first()?)?;
    let mut t = first;
    for v in values {
        match (t, kind(v)?) {
            (a, b) if a == b => {}
            (JsonType::Integer | JsonType::Number, JsonType::Integer | JsonType::Number) => {
                t = JsonType::Number;
            }
            _ => return None,
        }
    }
    Some(t)
}

/// The scalar types a node that accepts any value is given where every node needs one.
const ANY_SCALAR: [JsonType; 3] = [JsonType::String, JsonType::Number, JsonType::Boolean];

/// An `anyOf` of one branch per type of [`ANY_SCALAR`]. Each branch is a node of its own at
/// `at` (where the output limit says a node was left unwritten); their `type` keywords are
/// the same for every such node of the conversion and made once ([`PassCx::scalar_types`]):
/// a schema of many untyped properties would otherwise take three of them per property.
/// Keywords the passes write have no source position of their own: the first node's stands.
fn any_scalar<'a>(
    at: u32,
    path: &Path<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Entry<'a>, ConversionError> {
    let types = match cx.scalar_types {
        Some(types) => types,
        None => {
            let entry = |t| Entry { keyword: Keyword::Type, at, value: Value::Type(Types::one(t)) };
            let types =
                cx.arena.try_alloc(ANY_SCALAR.map(entry)).map_err(|_| arena_error(path, cx))?;
            *cx.scalar_types.insert(types)
        }
    };
    let branch = |ty: &'a Entry<'a>| {
        let keywords = std::slice::from_ref(ty);
        Schema { boolean: None, keywords, features: features_of(keywords), at }
    };
    let [a, b, c] = types;
    let branches = [branch(a), branch(b), branch(c)];
    let branches = cx.arena.try_alloc_slice_copy(&branches).map_err(|_| arena_error(path, cx))?;
    Ok(Entry { keyword: Keyword::AnyOf, at, value: Value::Schemas(branches) })
}

pub(super) fn untyped<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let target = cx.profile.name();
    let from_enum = match s.get(Keyword::Enum).map(|e| e.value) {
        Some(Value::Json(Json::Array(values))) => type_of_values(values),
        _ => None,
    };
    let implied = s.keywords.iter().find_map(|e| implied_type(e.keyword).map(|t| (t, e)));
    // A type read off the `enum` accepts the same values; any other refuses the values of the
    // types it leaves out.
    let (entry, effect, message) = match (from_enum, implied) {
        (Some(t), _) => (
            Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) },
            Effect::None,
            [
                target,
                " needs a `type` on every node; wrote \"",
                t.as_str(),
                "\", the type of every `enum` value (same values accepted)",
                "",
            ],
        ),
        (None, Some((t, e))) => (
            Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) },
            Effect::Narrows,
            [
                target,
                " needs a `type` on every node; wrote \"",
                t.as_str(),
                "\", the type this node's `",
                e.keyword.as_str(),
            ],
        ),
        (None, None) => (
            any_scalar(s.at, path, cx)?,
            Effect::Narrows,
            [
                target,
                " needs a `type` on every node and has none for any value; wrote an `anyOf` of \
                 string, number and boolean (objects, arrays and null, which the node accepted, \
                 no longer are)",
                "",
                "",
                "",
            ],
        ),
    };
    let node = insert_after_type(s, entry, path, cx)?;
    let tail = if effect != Effect::None && implied.is_some() && from_enum.is_none() {
        "` constrains (values of other types, which the node accepted, no longer are)"
    } else {
        ""
    };
    let [a, b, c, d, e] = message;
    note(cx, tool, s.at, path, ShapeRule::TypeRequired, effect, [a, b, c, d, e, tail]);
    Ok(Some(node))
}

pub(super) fn no_items<'a>(
    rules: ShapeRules,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let target = cx.profile.name();
    let empty = Schema { boolean: None, keywords: &[], features: FeatureSet::EMPTY, at: s.at };
    // Where every node needs a type, the items of any value get the scalar types.
    let (items, effect, message) = if rules.contains(ShapeRule::TypeRequired) {
        let any = any_scalar(s.at, path, cx)?;
        (
            alloc(&empty, &[any], path, cx)?,
            Effect::Narrows,
            [
                target,
                " requires `items` on an array, with a type; wrote an `anyOf` of string, \
                 number and boolean (arrays holding objects, arrays or null, which the node \
                 accepted, no longer are)",
            ],
        )
    } else {
        (
            empty,
            Effect::None,
            [
                target,
                " requires `items` on an array; wrote `{}` (it constrains nothing, so \
                 the same values are accepted)",
            ],
        )
    };
    let items = cx.arena.try_alloc(items).map_err(|_| arena_error(path, cx))?;
    let entry = Entry { keyword: Keyword::Items, at: s.at, value: Value::Schema(items) };
    let mut keywords: Keywords<'a> = s.keywords.iter().copied().collect();
    keywords.push(entry);
    let node = alloc(s, &keywords, path, cx)?;
    note(cx, tool, s.at, path, ShapeRule::ArrayItems, effect, message);
    Ok(Some(node))
}
