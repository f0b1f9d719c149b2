//! Root pass: the input schema's root must be an object schema where the target says so.
//!
//! Input: a tool whose input schema root may lack `type`, be a boolean, or list several types.
//! Output: a root that declares `"type": "object"` when the arguments it accepts are unchanged
//! (tool arguments are always a JSON object, so `{}` and `true` accept exactly the same calls
//! as `{"type":"object"}`; `["object","null"]` likewise), with an `info` entry. A root that
//! cannot accept an object (`false`, `"type": "string"`) makes the tool not convertible.
//!
//! References: OpenAI function calling ("parameters" must be an object schema); Anthropic tool
//! use (`input_schema` "type": "object").

use crate::ir::{Entry, JsonType, Keyword, Schema, Tool, Types, Value};
use crate::report::{Code, Severity};

use super::PassCx;

const OBJECT: &[JsonType] = &[JsonType::Object];

/// Returns whether the tool can be emitted.
pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> bool {
    // The same format held the tool as written; it is not second-guessed.
    if !cx.target.requires_object_root() || cx.source.name() == cx.target.name() {
        return true;
    }
    let Some(root) = tool.input else { return true };
    let object = Entry {
        keyword: Keyword::Type,
        at: root.at,
        value: Value::Type(Types { list: OBJECT, array: false }),
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
        (None, Some(t)) if t.list == OBJECT && !t.array => return true,
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
            cx.record(
                tool,
                root.at,
                Severity::Info,
                Code::RootTypeSet,
                "type",
                format!("{pointer}/type"),
                format!(
                    "{} requires an object schema at the root; set \"type\": \"object\" (tool arguments are always an object, so the same calls are accepted)",
                    cx.target.name()
                ),
            );
            true
        }
        None => {
            cx.record(
                tool,
                root.at,
                Severity::Error,
                Code::RootNotObject,
                "type",
                pointer.to_owned(),
                format!(
                    "the input schema does not accept an object, and {} requires one; the tool is left out",
                    cx.target.name()
                ),
            );
            false
        }
    }
}
