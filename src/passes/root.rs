//! Root pass: the input schema's root must be an object schema where the target says so.
//!
//! Input: a tool whose input schema root may lack `type`, be a boolean, or list several types.
//! Output: a root that declares `"type": "object"` when the arguments it accepts are unchanged
//! (tool arguments are always a JSON object, so `{}` and `true` accept exactly the same calls
//! as `{"type":"object"}`; `["object","null"]` likewise), with an `info` entry. A root that
//! cannot accept an object (`false`, `"type": "string"`) makes the tool not convertible.
//!
//! A combinator the target forbids at the root (Anthropic: `anyOf`, `oneOf`, `allOf`; OpenAI
//! strict: the same, with `allOf` merged where it merges) is moved into the root's description
//! with a warning: it constrained which argument combinations are valid, and the model still
//! reads it there.
//!
//! References: OpenAI function calling ("parameters" must be an object schema); Anthropic tool
//! use (`input_schema` "type": "object").

use crate::error::ConversionError;
use crate::ir::{Entry, JsonType, Keyword, Schema, Tool, Types, Value};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use crate::passes::cow::CowSlice;

use crate::passes::cx::PassCx;

use crate::passes::describe::append_description;

use crate::passes::node::arena_error;

use crate::passes::describe::render;

/// Returns whether the tool can be emitted.
pub(super) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    if !object_root(tool, cx) {
        return Ok(false);
    }
    root_combinators(tool, cx)?;
    Ok(true)
}

/// Describes the combinators the target forbids at the root.
fn root_combinators<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    let forbidden = cx.profile.root_forbidden();
    let Some(root) = tool.input else { return Ok(()) };
    let same = !cx.route.rewrite;
    if same || root.features.intersection(forbidden).is_empty() {
        return Ok(());
    }
    let merged = cx.profile.action(Keyword::AllOf) == Action::Rewrite;
    // A combinator the profile drops anyway (the toolfoundation matrix, a caller's policy) is
    // left to the policy pass: dropped, not described.
    let profile = cx.profile;
    let moved = |e: &Entry<'_>| {
        e.keyword.feature().is_some_and(|f| forbidden.contains(f))
            && !(e.keyword == Keyword::AllOf && merged)
            && profile.action(e.keyword) != Action::Drop
    };
    if !root.keywords.iter().any(moved) {
        return Ok(());
    }
    let base = Path::ROOT;
    let path = base.push(Seg::Raw(tool.input_pointer));
    let mut out = CowSlice::new(root.keywords);
    let mut prose: Vec<String> = Vec::new();
    let t = *tool;
    for (i, e) in root.keywords.iter().enumerate() {
        if !moved(e) {
            out.same(i);
            continue;
        }
        let name = e.keyword.as_str();
        let text = format!("{name} {}", render(&e.value));
        let place = path.push(Seg::Key(name));
        let pointer = PathPointer(&place);
        let message = format!(
            "{} does not take `{name}` at the root of the input schema; moved into the description (\"{text}\")",
            cx.profile.name()
        );
        cx.record(
            &t,
            e.at,
            // Only the model reads the description: what the combinator refused is accepted.
            Note {
                kind: EntryKind::arguments(Code::KeywordDescribed, Effect::Widens),
                feature: name,
                pointer,
                message,
            },
        );
        prose.push(text);
        out.removed(i, cx.arena).map_err(|()| arena_error(&path, cx))?;
    }
    let Some(keywords) = out.finish() else { return Ok(()) };
    let node = Schema { keywords, ..root };
    let note = format!("Constraints: {}.", prose.join(", "));
    let new =
        append_description(&node, &note, cx.arena, cx.text).map_err(|()| arena_error(&path, cx))?;
    tool.input = Some(new);
    Ok(())
}

/// The object-type rule; returns whether the tool can be emitted.
fn object_root<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> bool {
    // A format no provider reads held the tool as written; it is not second-guessed.
    if !cx.target().info().requires_object_root || !cx.route.rewrite {
        return true;
    }
    let Some(root) = tool.input else { return true };
    let object = Entry {
        keyword: Keyword::Type,
        at: root.at,
        value: Value::Type(Types::one(JsonType::Object)),
    };
    let pointer = tool.input_pointer;
    let replaced: Option<Schema<'a>> = match (root.boolean, root.types()) {
        (Some(true), _) => {
            let Ok(keywords) = cx.arena.try_alloc_slice_copy(&[object]) else { return true };
            Some(Schema { boolean: None, keywords, ..root })
        }
        (Some(false), _) => None,
        (None, None) if root.get(Keyword::Type).is_none() => {
            let Ok(slots) = cx.arena.try_alloc_slice_fill_copy(root.keywords.len() + 1, object)
            else {
                return true;
            };
            for (slot, e) in slots.iter_mut().skip(1).zip(root.keywords) {
                *slot = *e;
            }
            Some(Schema { keywords: slots, ..root })
        }
        (None, Some(t)) if t == Types::one(JsonType::Object) => return true,
        (None, Some(t)) if t.contains(JsonType::Object) => {
            let Ok(slots) = cx.arena.try_alloc_slice_copy(root.keywords) else { return true };
            for e in slots.iter_mut().filter(|e| e.keyword == Keyword::Type) {
                e.value = object.value;
            }
            Some(Schema { keywords: slots, ..root })
        }
        _ => None,
    };
    match replaced {
        Some(s) => {
            tool.input = Some(s);
            let pointer = format!("{pointer}/type");
            let message = format!(
                "{} requires an object schema at the root; set \"type\": \"object\" (tool arguments are always an object, so the same calls are accepted)",
                cx.target().name()
            );
            cx.record(
                tool,
                root.at,
                Note {
                    kind: EntryKind::arguments(Code::RootTypeSet, Effect::None),
                    feature: "type",
                    pointer,
                    message,
                },
            );
            true
        }
        None => {
            let message = format!(
                "the input schema does not accept an object, and {} requires one; the tool is left out",
                cx.target().name()
            );
            cx.record(
                tool,
                root.at,
                Note {
                    kind: EntryKind::left_out(Code::RootNotObject),
                    feature: "type",
                    pointer: pointer.to_owned(),
                    message,
                },
            );
            false
        }
    }
}
