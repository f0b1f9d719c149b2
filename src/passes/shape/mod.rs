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

mod any_of;
mod types;

pub(crate) use types::typed_values;

use bumpalo::Bump;
use smallvec::SmallVec;

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Json, JsonType, Keyword, Schema, Tool, Types, Value};
use crate::pointer::{Path, Seg};
use crate::profile::shape::{ShapeRule, ShapeRules, broken, broken_rules};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer, Text};

use super::walk::{Rewrite, rewrite_keywords};
use crate::ir::features_of;
use crate::passes::cx::PassCx;
use crate::passes::describe::append_description;
use crate::passes::describe::render;
use crate::passes::node::arena_error;
use crate::passes::node::with_keywords as alloc;
use any_of::any_of_alone;
use types::{no_items, untyped};

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
            let message = [
                cx.profile.name(),
                " requires `properties` on the root object; wrote an empty one (it constrains \
                 nothing, so the same calls are accepted)",
            ];
            note(cx, tool, at, &path, ShapeRule::RootProperties, Effect::None, message);
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
        && !cx.target().info().requires_input_schema;
    if !empty {
        return None;
    }
    // A root the source closed took no arguments either; an open one took any keys, and
    // the tool now takes none.
    let closed = root.get(Keyword::PatternProperties).is_none()
        && root
            .get(Keyword::AdditionalProperties)
            .is_some_and(|e| matches!(e.value, Value::Schema(b) if b.boolean == Some(false)));
    let (effect, what) = if closed {
        (Effect::None, " (the source's root is closed: it took none either)")
    } else {
        (
            Effect::Narrows,
            " (the source's root is open: the keys it accepted, any, are refused now)",
        )
    };
    let message = [
        cx.profile.name(),
        " refuses an object root without properties; written without an input schema, its \
         form for a tool that takes no arguments",
        what,
    ];
    // The entry is the input schema's, named by its member: it goes whole, whatever else its
    // root said (a `title`, a `description`).
    let pointer = PathPointer(path);
    let member = tool.members.iter().find(|m| m.role == crate::ir::Role::Input);
    let feature = member.map_or("inputSchema", |m| m.key);
    let kind = EntryKind::arguments(Code::ShapeRewritten, effect);
    let note = Note { kind, feature, pointer, message };
    cx.record(tool, root.at, note);
    Some(())
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

/// Rounds of [`fix`] over one node: more than the longest chain of fixes that enable another.
const ROUNDS: usize = 4;

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
    // Most nodes break no rule: one scan says so, without a round over the rules. (A node
    // that is not the root breaks no root rule.)
    if s.boolean.is_some() || broken_rules(rules, s, false).is_empty() {
        return Ok(None);
    }
    let mut node = *s;
    let mut changed = false;
    // A fix can break a rule tested before it (a `type` written for `maxProperties` makes an
    // object with no properties): the rules are applied again until none is broken. Each
    // fix removes what breaks its rule and adds nothing another undoes, so a few rounds do.
    for _ in 0..ROUNDS {
        let mut again = false;
        // What the node breaks, asked again whenever a fix changes it.
        let mut breaks = broken_rules(rules, &node, false);
        for rule in rules.iter().filter(|&r| r != ShapeRule::RootProperties) {
            if !breaks.contains(rule) {
                continue;
            }
            again = true;
            let new = match rule {
                ShapeRule::PropertiesNonEmpty => empty_properties(&node, path, tool, cx)?,
                ShapeRule::TypeRequired => untyped(&node, path, tool, cx)?,
                ShapeRule::ArrayItems => no_items(rules, &node, path, tool, cx)?,
                ShapeRule::ObjectKeywordsOnObject => object_keywords(&node, path, tool, cx)?,
                ShapeRule::RequiredDefined => undefined_required(&node, path, tool, cx)?,
                ShapeRule::EnumOnString => enum_described(&node, path, tool, cx)?,
                ShapeRule::EnumNonEmpty | ShapeRule::EnumNoNull => {
                    refused_enum_values(rule, &node, path, tool, cx)?
                }
                ShapeRule::AnyOfAlone => any_of_alone(rules, &node, path, tool, cx, Some(depth))?,
                ShapeRule::RootProperties => None,
            };
            if let Some(new) = new {
                node = Schema { features: features_of(new.keywords), ..new };
                changed = true;
                breaks = broken_rules(rules, &node, false);
            }
        }
        if !again {
            break;
        }
    }
    Ok(changed.then_some(node))
}

/// Records the entry about a fix of `rule` at the node at `path`, which does `effect` to the
/// values the node accepts (`info` for none, a warning for a change).
/// The message is given in pieces where it can be, and the pointer written from the path, so
/// that a warm conversion records the entry without allocating.
fn note(
    cx: &mut PassCx<'_, '_>,
    tool: &Tool<'_>,
    at: u32,
    path: &Path<'_>,
    rule: ShapeRule,
    effect: Effect,
    message: impl Text,
) {
    let place = path.push(Seg::Key(rule.keyword()));
    let pointer = PathPointer(&place);
    let (kind, feature) = (EntryKind::arguments(Code::ShapeRewritten, effect), rule.keyword());
    let note = Note { kind, feature, pointer, message };
    cx.record(tool, at, note);
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
        let message = [
            target,
            " refuses an empty `properties`; left out (it constrains nothing, so the \
             same values are accepted)",
        ];
        note(cx, tool, s.at, path, ShapeRule::PropertiesNonEmpty, Effect::None, message);
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
    let message = [
        target,
        " takes an object only with the properties it lists, and this one lists none; \
         written as a string holding the object as JSON text (the argument arrives as a string, \
         not an object)",
    ];
    // Objects are refused now, and strings holding them accepted.
    note(cx, tool, s.at, path, ShapeRule::PropertiesNonEmpty, Effect::Changes, message);
    Ok(Some(text))
}

/// What a model reads about an object given as JSON text.
const JSON_TEXT: &str = "A JSON object, given as JSON text.";

fn object_keywords<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let node = without(s, &[Keyword::Properties, Keyword::Required], path, cx)?;
    let message = [
        cx.profile.name(),
        " takes `properties` and `required` only on an object; the node accepts no object, \
         so they constrained nothing and were left out (same values accepted)",
    ];
    note(cx, tool, s.at, path, ShapeRule::ObjectKeywordsOnObject, Effect::None, message);
    Ok(Some(node))
}

fn undefined_required<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let props = crate::ir::NameSet::new(s.properties());
    let (kept, gone): (SmallVec<[&'a str; 8]>, SmallVec<[&'a str; 8]>) =
        s.required().iter().copied().partition(|r| props.contains(r));
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
    note(cx, tool, s.at, path, ShapeRule::RequiredDefined, Effect::Widens, message);
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
    note(cx, tool, e.at, path, ShapeRule::EnumOnString, Effect::Widens, message);
    Ok(Some(node))
}

/// The `enum` values the provider refuses by `rule` (the empty string for
/// [`ShapeRule::EnumNonEmpty`], `null` for [`ShapeRule::EnumNoNull`]) left out of the node's
/// `enum`, or the `enum` itself where it held nothing else.
fn refused_enum_values<'a>(
    rule: ShapeRule,
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let Some(e) = s.get(Keyword::Enum) else { return Ok(None) };
    let Value::Json(Json::Array(values)) = e.value else { return Ok(None) };
    let null = rule == ShapeRule::EnumNoNull;
    let refused = |v: &Json<'_>| if null { *v == Json::Null } else { *v == Json::String("") };
    let kept: SmallVec<[Json<'a>; 8]> = values.iter().filter(|v| !refused(v)).copied().collect();
    let (value, the) =
        if null { ("`null`", "`null`") } else { ("an empty string", "the empty string") };
    let target = cx.profile.name();
    let (node, effect, message) = if kept.is_empty() {
        (
            without(s, &[Keyword::Enum], path, cx)?,
            Effect::Widens,
            [
                target,
                " refuses ",
                value,
                " in `enum`, its only value; the `enum` was left out (",
                the,
                " is no longer the one value accepted: any other is)",
            ],
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
            Effect::Narrows,
            [
                target,
                " refuses ",
                value,
                " in `enum`; left out (",
                the,
                ", which the node accepted, no longer is)",
            ],
        )
    };
    note(cx, tool, e.at, path, rule, effect, message);
    Ok(Some(node))
}
