//! Shape pass: every node rewritten into a shape the provider accepts, by the rules of its
//! table (`Profile::shape_rules`, the model in [`crate::shape`]). It runs after every pass that
//! adds or moves keywords, so what it leaves is what is written, and the pre-flight check holds
//! the output to the same rules through the same predicate.
//!
//! Each fix keeps the meaning where the target has a form for it (an `anyOf` with a `null`
//! branch as `nullable: true`, an `anyOf`'s siblings merged into each branch, an empty
//! `properties` or a `required` on a string left out, a `type` read off the `enum`), and says
//! so with `info`; where it cannot (a node of any type, a `required` naming no property), it
//! makes the narrowest change the provider accepts and warns.

use smallvec::SmallVec;

use crate::error::ConversionError;
use bumpalo::Bump;

use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Note, Severity};
use crate::shape::{ShapeRule, ShapeRules, broken, implied_type};

use super::merge::{NoMerge, merge};
use super::walk::{Rewrite, rewrite_keywords};
use super::{NodeRule, PassCx, append_description, arena_error, features_of, render};

type Keywords<'a> = SmallVec<[Entry<'a>; 8]>;

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let rules = cx.profile.shape_rules();
    if rules.is_empty() || tool.opaque.is_some() {
        return Ok(());
    }
    if let Some(root) = tool.input {
        let path = Path::ROOT.push(Seg::Raw(tool.input_pointer));
        let root = match no_parameters(rules, &root, &path, tool, cx) {
            Some(()) => {
                tool.input = None;
                return Ok(());
            }
            None => root,
        };
        let mut walk = ShapeWalk {
            rules,
            every: rules.every_node(),
            triggers: rules.triggers(),
            tool: &*tool,
            cx: &mut *cx,
        };
        let new = walk.rewrite_schema(&root, &path, ())?;
        let mut root = new.unwrap_or(root);
        if rules.contains(ShapeRule::RootProperties)
            && broken(ShapeRule::RootProperties, &root, true)
        {
            let at = root.at;
            let props = Entry { keyword: Keyword::Properties, at, value: Value::Props(&[]) };
            root = insert_after_type(&root, props, &path, cx)?;
            let message = format!(
                "{} requires `properties` on the root object; wrote an empty one (it constrains \
                 nothing, so the same calls are accepted)",
                cx.profile.name()
            );
            note(cx, tool, at, &path, ShapeRule::RootProperties, Severity::Info, message);
        }
        tool.input = Some(root);
    }
    Ok(())
}

/// A root object with no properties, where the target refuses one: the tool is written
/// without an input schema, the target's form for a tool that takes no arguments.
fn no_parameters(
    rules: ShapeRules,
    root: &Schema<'_>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) -> Option<()> {
    let empty = rules.contains(ShapeRule::PropertiesNonEmpty)
        && root.is_object_type()
        && root.properties().is_empty()
        && !cx.target.info().requires_input_schema;
    if !empty {
        return None;
    }
    let message = format!(
        "{} refuses an object root without properties; written without an input schema, its \
         form for a tool that takes no arguments",
        cx.profile.name()
    );
    note(cx, tool, root.at, path, ShapeRule::PropertiesNonEmpty, Severity::Info, message);
    Some(())
}

/// Before the passes that describe `enum` and `const` (Gemini's string-only `enum`): an untyped
/// node whose values share one type gets that type, which they prove (same values accepted).
pub(super) fn typed_values<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    if !cx.profile.shape_rules().contains(ShapeRule::TypeRequired) || tool.opaque.is_some() {
        return Ok(());
    }
    super::rewrite_tool(tool, cx, &mut TypedValues)
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
        let values = match s.get(Keyword::Const).or_else(|| s.get(Keyword::Enum)).map(|e| e.value)
        {
            Some(Value::Json(Json::Array(values))) if s.get(Keyword::Const).is_none() => values,
            Some(Value::Json(one)) => std::slice::from_ref(cx.arena.alloc(one)),
            _ => return Ok(None),
        };
        let Some(t) = type_of_values(values) else { return Ok(None) };
        let entry = Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) };
        let node = insert_after_type(s, entry, path, cx)?;
        let message = format!(
            "{} needs a `type` on every node; wrote \"{}\", the type of every value the node \
             allows (same values accepted)",
            cx.profile.name(),
            t.as_str()
        );
        note(cx, tool, s.at, path, ShapeRule::TypeRequired, Severity::Info, message);
        Ok(Some(node))
    }
}

/// The walk of the shape pass: an `anyOf`'s siblings move into its branches before the
/// branches are visited (a sibling `type` is what types a branch holding only a `format`);
/// every other rule is fixed after the node's subschemas.
struct ShapeWalk<'r, 'a, 'c> {
    rules: ShapeRules,
    every: bool,
    triggers: FeatureSet,
    tool: &'r Tool<'a>,
    cx: &'r mut PassCx<'a, 'c>,
}

impl<'a> Rewrite<'a> for ShapeWalk<'_, 'a, '_> {
    type Scope = ();
    type Error = ConversionError;

    fn arena(&self) -> &'a Bump {
        self.cx.arena
    }

    fn arena_error(&self, path: &Path<'_>) -> ConversionError {
        arena_error(path, self.cx)
    }

    #[inline]
    fn enters(&self, s: &Schema<'a>) -> bool {
        s.boolean.is_none() && (self.every || !s.features.intersection(self.triggers).is_empty())
    }

    fn rewrite_schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        (): (),
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        if !self.enters(s) {
            return Ok(None);
        }
        let (rules, tool) = (self.rules, self.tool);
        let mut node = *s;
        let mut changed = false;
        if rules.contains(ShapeRule::AnyOfAlone)
            && broken(ShapeRule::AnyOfAlone, &node, false)
            && let Some(new) = any_of_alone(rules, &node, path, tool, self.cx, None)?
        {
            node = new;
            changed = true;
        }
        if let Some(keywords) = rewrite_keywords(self, &node, path, ())? {
            node = Schema { keywords, features: features_of(keywords), ..node };
            changed = true;
        }
        if let Some(new) = fix(rules, &node, path, tool, self.cx, 0)? {
            node = new;
            changed = true;
        }
        Ok(changed.then_some(node))
    }
}

/// How deep branches given an `anyOf`'s siblings are fixed again: each level moves the
/// siblings one level down, and a schema's nesting is bounded by the lowering's depth limit.
const MAX_REFIX: usize = 64;

/// `s` with every rule of `rules` it breaks fixed, in [`ShapeRule::ALL`]'s order; `None` when
/// it breaks none.
fn fix<'a>(
    rules: ShapeRules,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
    depth: usize,
) -> Result<Option<Schema<'a>>, ConversionError> {
    if s.boolean.is_some() {
        return Ok(None);
    }
    let mut node = *s;
    let mut changed = false;
    for rule in rules.iter().filter(|&r| r != ShapeRule::RootProperties) {
        if !broken(rule, &node, false) {
            continue;
        }
        let new = match rule {
            ShapeRule::PropertiesNonEmpty => empty_properties(&node, path, tool, cx)?,
            ShapeRule::TypeRequired => untyped(&node, path, tool, cx)?,
            ShapeRule::ArrayItems => no_items(rules, &node, path, tool, cx)?,
            ShapeRule::ObjectKeywordsOnObject => object_keywords(&node, path, tool, cx)?,
            ShapeRule::RequiredDefined => undefined_required(&node, path, tool, cx)?,
            ShapeRule::EnumOnString => enum_described(&node, path, tool, cx)?,
            ShapeRule::EnumNonEmpty => empty_enum_values(&node, path, tool, cx)?,
            ShapeRule::AnyOfAlone => any_of_alone(rules, &node, path, tool, cx, Some(depth))?,
            ShapeRule::RootProperties => None,
        };
        if let Some(new) = new {
            node = Schema { features: features_of(new.keywords), ..new };
            changed = true;
        }
    }
    Ok(changed.then_some(node))
}

/// Records the entry about a fix of `rule` at the node at `path`.
fn note(
    cx: &mut PassCx<'_, '_>,
    tool: &Tool<'_>,
    at: u32,
    path: &Path<'_>,
    rule: ShapeRule,
    severity: Severity,
    message: String,
) {
    let pointer = path.push(Seg::Key(rule.keyword())).to_pointer();
    let code = Code::ShapeRewritten;
    cx.record(tool, at, Note { severity, code, feature: rule.keyword(), pointer, message });
}

fn alloc<'a>(
    s: &Schema<'a>,
    keywords: &[Entry<'a>],
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let keywords = cx.arena.try_alloc_slice_copy(keywords).map_err(|_| arena_error(path, cx))?;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), ..*s })
}

/// `s` without its `keyword` entries.
fn without<'a>(
    s: &Schema<'a>,
    drop: &[Keyword],
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let kept: Keywords<'a> =
        s.keywords.iter().filter(|e| !drop.contains(&e.keyword)).copied().collect();
    alloc(s, &kept, path, cx)
}

/// `s` with `entry` placed after its `type` (first when it has none).
fn insert_after_type<'a>(
    s: &Schema<'a>,
    entry: Entry<'a>,
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let at = s.keywords.iter().position(|e| e.keyword == Keyword::Type).map_or(0, |i| i + 1);
    let mut keywords: Keywords<'a> = s.keywords.iter().copied().collect();
    keywords.insert(at.min(keywords.len()), entry);
    alloc(s, &keywords, path, cx)
}

/// An empty `properties` constrains nothing and is left out; an object node left with none
/// has no form in the target (it cannot take keys it does not list), so it is given as JSON
/// text in a string, its annotations kept.
fn empty_properties<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let target = cx.profile.name();
    let node = if s.get(Keyword::Properties).is_some() {
        let node = without(s, &[Keyword::Properties], path, cx)?;
        let message = format!(
            "{target} refuses an empty `properties`; left out (it constrains nothing, so the \
             same values are accepted)"
        );
        note(cx, tool, s.at, path, ShapeRule::PropertiesNonEmpty, Severity::Info, message);
        node
    } else {
        *s
    };
    if !broken(ShapeRule::PropertiesNonEmpty, &node, false) {
        return Ok(Some(node));
    }
    let string = Entry {
        keyword: Keyword::Type,
        at: s.at,
        value: Value::Type(Types::one(JsonType::String)),
    };
    let mut keywords: Keywords<'a> = SmallVec::new();
    keywords.push(string);
    keywords.extend(node.keywords.iter().copied().filter(|e| {
        matches!(e.keyword, Keyword::Title | Keyword::Description | Keyword::Nullable)
    }));
    let text = alloc(&node, &keywords, path, cx)?;
    let text = append_description(&text, JSON_TEXT, cx.arena, cx.text)
        .map_err(|()| arena_error(path, cx))?;
    let message = format!(
        "{target} takes an object only with the properties it lists, and this one lists none; \
         written as a string holding the object as JSON text (the argument arrives as a string, \
         not an object)"
    );
    note(cx, tool, s.at, path, ShapeRule::PropertiesNonEmpty, Severity::Warning, message);
    Ok(Some(text))
}

/// What a model reads about an object given as JSON text.
const JSON_TEXT: &str = "A JSON object, given as JSON text.";

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

/// An `anyOf` of one branch per type of [`ANY_SCALAR`].
fn any_scalar<'a>(
    at: u32,
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Entry<'a>, ConversionError> {
    let mut branches: SmallVec<[Schema<'a>; 3]> = SmallVec::new();
    for t in ANY_SCALAR {
        let ty = Entry { keyword: Keyword::Type, at, value: Value::Type(Types::one(t)) };
        let s = Schema { boolean: None, keywords: &[], features: FeatureSet::EMPTY, at };
        branches.push(alloc(&s, &[ty], path, cx)?);
    }
    let branches = cx.arena.try_alloc_slice_copy(&branches).map_err(|_| arena_error(path, cx))?;
    Ok(Entry { keyword: Keyword::AnyOf, at, value: Value::Schemas(branches) })
}

fn untyped<'a>(
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
    let (entry, severity, message) = match (from_enum, implied) {
        (Some(t), _) => (
            Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) },
            Severity::Info,
            format!(
                "{target} needs a `type` on every node; wrote \"{}\", the type of every `enum` \
                 value (same values accepted)",
                t.as_str()
            ),
        ),
        (None, Some((t, e))) => (
            Entry { keyword: Keyword::Type, at: s.at, value: Value::Type(Types::one(t)) },
            Severity::Warning,
            format!(
                "{target} needs a `type` on every node; wrote \"{}\", the type `{}` constrains \
                 (values of other types, which the node accepted, no longer are)",
                t.as_str(),
                super::entry_name(e)
            ),
        ),
        (None, None) => (
            any_scalar(s.at, path, cx)?,
            Severity::Warning,
            format!(
                "{target} needs a `type` on every node and has none for any value; wrote an \
                 `anyOf` of string, number and boolean (objects, arrays and null, which the \
                 node accepted, no longer are)"
            ),
        ),
    };
    let node = insert_after_type(s, entry, path, cx)?;
    note(cx, tool, s.at, path, ShapeRule::TypeRequired, severity, message);
    Ok(Some(node))
}

fn no_items<'a>(
    rules: ShapeRules,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let target = cx.profile.name();
    let empty = Schema { boolean: None, keywords: &[], features: FeatureSet::EMPTY, at: s.at };
    // Where every node needs a type, the items of any value get the scalar types.
    let (items, severity, message) = if rules.contains(ShapeRule::TypeRequired) {
        let any = any_scalar(s.at, path, cx)?;
        (
            alloc(&empty, &[any], path, cx)?,
            Severity::Warning,
            format!(
                "{target} requires `items` on an array, with a type; wrote an `anyOf` of string, \
                 number and boolean (arrays holding objects, arrays or null, which the node \
                 accepted, no longer are)"
            ),
        )
    } else {
        (
            empty,
            Severity::Info,
            format!(
                "{target} requires `items` on an array; wrote `{{}}` (it constrains nothing, so \
                 the same values are accepted)"
            ),
        )
    };
    let items = cx.arena.try_alloc(items).map_err(|_| arena_error(path, cx))?;
    let entry = Entry { keyword: Keyword::Items, at: s.at, value: Value::Schema(items) };
    let mut keywords: Keywords<'a> = s.keywords.iter().copied().collect();
    keywords.push(entry);
    let node = alloc(s, &keywords, path, cx)?;
    note(cx, tool, s.at, path, ShapeRule::ArrayItems, severity, message);
    Ok(Some(node))
}

fn object_keywords<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let node = without(s, &[Keyword::Properties, Keyword::Required], path, cx)?;
    let message = format!(
        "{} takes `properties` and `required` only on an object; the node accepts no object, \
         so they constrained nothing and were left out (same values accepted)",
        cx.profile.name()
    );
    note(cx, tool, s.at, path, ShapeRule::ObjectKeywordsOnObject, Severity::Info, message);
    Ok(Some(node))
}

fn undefined_required<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let props = s.properties();
    let (kept, gone): (SmallVec<[&'a str; 8]>, SmallVec<[&'a str; 8]>) =
        s.required().iter().copied().partition(|r| props.iter().any(|p| p.name == *r));
    let node = if kept.is_empty() {
        without(s, &[Keyword::Required], path, cx)?
    } else {
        let list = cx.arena.try_alloc_slice_copy(&kept).map_err(|_| arena_error(path, cx))?;
        let keywords: Keywords<'a> = s
            .keywords
            .iter()
            .map(|e| match e.keyword {
                Keyword::Required => Entry { value: Value::Strings(list), ..*e },
                _ => *e,
            })
            .collect();
        alloc(s, &keywords, path, cx)?
    };
    let message = format!(
        "{} refuses a `required` name with no property; left out {:?} (an object without it, \
         which the node refused, is now accepted)",
        cx.profile.name(),
        gone.as_slice()
    );
    note(cx, tool, s.at, path, ShapeRule::RequiredDefined, Severity::Warning, message);
    Ok(Some(node))
}

fn enum_described<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some(e) = s.get(Keyword::Enum) else { return Ok(None) };
    let value = render(&e.value);
    let node = without(s, &[Keyword::Enum], path, cx)?;
    let text = format!("Constraints: enum {value}.");
    let node =
        append_description(&node, &text, cx.arena, cx.text).map_err(|()| arena_error(path, cx))?;
    let message = format!(
        "{} takes `enum` only on a string; moved into the description (\"enum {value}\"; other \
         values of the node's type, which it refused, are now accepted)",
        cx.profile.name()
    );
    note(cx, tool, e.at, path, ShapeRule::EnumOnString, Severity::Warning, message);
    Ok(Some(node))
}

fn empty_enum_values<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some(e) = s.get(Keyword::Enum) else { return Ok(None) };
    let Value::Json(Json::Array(values)) = e.value else { return Ok(None) };
    let kept: SmallVec<[Json<'a>; 8]> =
        values.iter().filter(|v| !matches!(v, Json::String(""))).copied().collect();
    let target = cx.profile.name();
    let (node, message) = if kept.is_empty() {
        (
            without(s, &[Keyword::Enum], path, cx)?,
            format!(
                "{target} refuses an empty string in `enum`, its only value; the `enum` was left \
                 out (the empty string is no longer the one value accepted: any other is)"
            ),
        )
    } else {
        let list = cx.arena.try_alloc_slice_copy(&kept).map_err(|_| arena_error(path, cx))?;
        let keywords: Keywords<'a> = s
            .keywords
            .iter()
            .map(|k| match k.keyword {
                Keyword::Enum => Entry { value: Value::Json(Json::Array(list)), ..*k },
                _ => *k,
            })
            .collect();
        (
            alloc(s, &keywords, path, cx)?,
            format!(
                "{target} refuses an empty string in `enum`; left out (the empty string, which \
                 the node accepted, no longer is)"
            ),
        )
    };
    note(cx, tool, e.at, path, ShapeRule::EnumNonEmpty, Severity::Warning, message);
    Ok(Some(node))
}

/// Whether `b` is a branch that accepts `null` only.
fn null_only(b: &Schema<'_>) -> bool {
    b.types().is_some_and(|t| t.list == [JsonType::Null])
        && b.keywords.iter().all(|e| {
            matches!(e.keyword, Keyword::Type | Keyword::Title | Keyword::Description)
        })
}

/// `refix`: the depth at which branches are fixed again, or `None` where the walk visits
/// them after.
fn any_of_alone<'a>(
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
            let message = format!(
                "{target} takes `anyOf` only alone in its node; the `anyOf` of one type and \
                 `null` was written as that type with `nullable: true` (same values accepted)"
            );
            note(cx, tool, any.at, path, ShapeRule::AnyOfAlone, Severity::Info, message);
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
    let (severity, how) = if described {
        (
            Severity::Warning,
            "where a branch has its own value for one, the sibling went into the branch's \
             description (what that sibling refused may now be accepted)",
        )
    } else {
        (Severity::Info, "same values accepted")
    };
    let null = if idiom { " (its `null` branch as `nullable: true`)" } else { "" };
    let message = format!(
        "{target} takes `anyOf` only alone in its node; its siblings were moved into each \
         branch{null} ({how})"
    );
    note(cx, tool, any.at, path, ShapeRule::AnyOfAlone, severity, message);
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
        text.push_str(super::entry_name(e));
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
