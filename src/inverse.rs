//! The inverse of a conversion: what turns a model's tool call on the target side back into
//! the source tool's name and arguments.
//!
//! A conversion may rename a tool (the target's name rule, a clash in the catalog), rename a
//! property key (Anthropic's key rule) and, in OpenAI strict mode, make an optional property
//! required and nullable, so the model sends `null` where it would have left the key out.
//! [`Inverse`] records exactly those changes, per tool, as a small tree that mirrors the
//! argument object; tools with nothing to undo are not listed and pass through unchanged. It
//! is plain data (serde), so a gateway can store it beside the converted catalog
//! (`tooladapter convert --map-out`) and apply it later (`tooladapter unmap`).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as JsonValue};

use crate::ir::{Keyword, Schema, Tool, Value};
use crate::passes::{Target, resolve};

/// What undoes a conversion's renames and strict widening.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inverse {
    /// The source format.
    pub from: String,
    /// The target format.
    pub to: String,
    /// The tools whose calls need mapping back, in catalog order.
    pub tools: Vec<ToolInverse>,
}

/// One tool's inverse.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInverse {
    /// The tool's name in the target (what the model calls).
    pub name: String,
    /// The tool's name in the source.
    pub source_name: String,
    /// How the arguments map back; `None` when they are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgMap>,
}

/// How a tool's arguments map back: a tree over the argument object, plus the trees of the
/// definitions that `$ref`s lead to (so a recursive schema has a finite map).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgMap {
    /// The argument object.
    pub root: ArgNode,
    /// Definitions by the `$ref` that names them.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub defs: IndexMap<String, ArgNode>,
}

/// What to undo at one place of the arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgNode {
    /// Object members by their name in the target.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub properties: IndexMap<String, ArgProp>,
    /// Every element of an array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<ArgNode>>,
    /// Alternatives (`anyOf`, `oneOf`, `allOf` branches), each applied where it matches.
    #[serde(default, rename = "anyOf", skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<ArgNode>,
    /// The definition this place refers to (a key of [`ArgMap::defs`]).
    #[serde(default, rename = "$ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// What to undo for one object member.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgProp {
    /// The member's name in the source, when it was renamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Strict mode made the member required and nullable: a `null` means "left out".
    #[serde(default, rename = "dropNull", skip_serializing_if = "std::ops::Not::not")]
    pub drop_null: bool,
    /// What to undo inside the member's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ArgNode>,
}

/// A tool call in the source's terms: `{"name", "arguments"}` (MCP `tools/call` params).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id, when the provider's call had one (`id`, `call_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The source tool's name.
    pub name: String,
    /// The arguments, as the source tool's schema expects them.
    pub arguments: JsonValue,
}

/// A value that is not a tool call this crate can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UnmapError {
    /// Not one of the call shapes (`{"name","arguments"}`, OpenAI Chat `tool_calls[]`, Responses
    /// `function_call`, Anthropic `tool_use`, Gemini `functionCall`).
    #[error("not a tool call: {0}")]
    NotACall(&'static str),
    /// `arguments` is a string that does not hold a JSON object.
    #[error("the call's arguments are not a JSON object: {0}")]
    Arguments(String),
}

impl Inverse {
    /// Whether nothing needs mapping back.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The inverse of the tool the model knows as `name`.
    pub fn tool(&self, name: &str) -> Option<&ToolInverse> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Appends another conversion's inverse (an NDJSON line, a file of a folder).
    pub fn extend(&mut self, other: Inverse) {
        if self.from.is_empty() {
            self.from = other.from;
            self.to = other.to;
        }
        self.tools.extend(other.tools);
    }

    /// Maps a call of the target tool `name` back: the source name, and `arguments` with
    /// renamed keys restored and widening nulls dropped. A tool not listed is unchanged.
    pub fn unmap(&self, name: &str, mut arguments: JsonValue) -> (String, JsonValue) {
        match self.tool(name) {
            Some(t) => {
                if let Some(map) = &t.arguments {
                    apply(&map.root, &mut arguments, &map.defs, 0);
                }
                (t.source_name.clone(), arguments)
            }
            None => (name.to_owned(), arguments),
        }
    }

    /// Reads a provider's tool call (`{"name","arguments"}`, OpenAI Chat `tool_calls[]` with
    /// JSON-string arguments, Responses `function_call`, Anthropic `tool_use`, Gemini
    /// `functionCall`) and maps it back to the source tool.
    ///
    /// # Errors
    /// [`UnmapError`] when `call` has none of those shapes or its arguments are not an object.
    pub fn unmap_call(&self, call: &JsonValue) -> Result<ToolCall, UnmapError> {
        let obj = call.as_object().ok_or(UnmapError::NotACall("expected a JSON object"))?;
        let id = ["id", "call_id", "tool_use_id"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(JsonValue::as_str))
            .map(str::to_owned);
        let inner = obj
            .get("function")
            .or_else(|| obj.get("functionCall"))
            .and_then(JsonValue::as_object)
            .unwrap_or(obj);
        let name = inner
            .get("name")
            .and_then(JsonValue::as_str)
            .ok_or(UnmapError::NotACall("no string `name`"))?;
        let raw = ["arguments", "input", "args"].iter().find_map(|k| inner.get(*k));
        let arguments = match raw {
            None | Some(JsonValue::Null) => JsonValue::Object(Map::new()),
            Some(JsonValue::String(text)) if text.trim().is_empty() => {
                JsonValue::Object(Map::new())
            }
            Some(JsonValue::String(text)) => serde_json::from_str::<JsonValue>(text)
                .map_err(|e| UnmapError::Arguments(e.to_string()))?,
            Some(v) => v.clone(),
        };
        if !arguments.is_object() {
            return Err(UnmapError::Arguments(format!("found {arguments}")));
        }
        let (name, arguments) = self.unmap(name, arguments);
        Ok(ToolCall { id, name, arguments })
    }

    pub(crate) fn reset(&mut self, from: &str, to: &str) {
        self.tools.clear();
        self.from.clear();
        self.from.push_str(from);
        self.to.clear();
        self.to.push_str(to);
    }

    /// Records `tool` when a pass renamed it or changed its arguments; allocates nothing
    /// otherwise.
    pub(crate) fn record(&mut self, tool: &Tool<'_>) {
        if tool.source_name.is_none() && !tool.remapped {
            return;
        }
        let arguments = if tool.remapped { tool.input.as_ref().and_then(arg_map) } else { None };
        self.tools.push(ToolInverse {
            name: tool.name.to_owned(),
            source_name: tool.source_name.unwrap_or(tool.name).to_owned(),
            arguments,
        });
    }
}

/// Undoes `node` on `value`. Depth is bounded because a recursive map follows the value, whose
/// nesting the caller's JSON parser bounded; the explicit cap keeps a hostile map finite too.
fn apply(node: &ArgNode, value: &mut JsonValue, defs: &IndexMap<String, ArgNode>, depth: usize) {
    if depth > 256 {
        return;
    }
    if let Some(d) = node.reference.as_ref().and_then(|r| defs.get(r)) {
        apply(d, value, defs, depth + 1);
    }
    for branch in &node.any_of {
        apply(branch, value, defs, depth + 1);
    }
    match value {
        JsonValue::Object(map) if !node.properties.is_empty() => {
            let old = std::mem::take(map);
            for (key, mut v) in old {
                let Some(prop) = node.properties.get(&key) else {
                    map.insert(key, v);
                    continue;
                };
                if prop.drop_null && v.is_null() {
                    continue;
                }
                if let Some(child) = &prop.value {
                    apply(child, &mut v, defs, depth + 1);
                }
                map.insert(prop.source.clone().unwrap_or(key), v);
            }
        }
        JsonValue::Array(items) => {
            if let Some(item) = &node.items {
                for v in items {
                    apply(item, v, defs, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// The argument map of an input schema, `None` when nothing in it was renamed or widened.
fn arg_map(root: &Schema<'_>) -> Option<ArgMap> {
    let mut b = Builder { root, defs: IndexMap::new(), open: Vec::new() };
    let node = b.node(root, 0);
    b.defs.retain(|_, n| !n.is_empty());
    node.map(|root| ArgMap { root, defs: b.defs })
}

impl ArgNode {
    fn is_empty(&self) -> bool {
        self.properties.is_empty()
            && self.items.is_none()
            && self.any_of.is_empty()
            && self.reference.is_none()
    }
}

struct Builder<'s> {
    root: &'s Schema<'s>,
    defs: IndexMap<String, ArgNode>,
    /// Definitions being built (a ref back into one is kept; its map is filled on return).
    open: Vec<String>,
}

impl<'s> Builder<'s> {
    fn node(&mut self, s: &Schema<'s>, depth: usize) -> Option<ArgNode> {
        if depth > 256 {
            return None;
        }
        // Made on the first thing to undo: most nodes have none, and an empty map still costs
        // a hasher and a drop.
        let mut n: Option<ArgNode> = None;
        for e in s.keywords {
            match (e.keyword, e.value) {
                (Keyword::Properties, Value::Props(props)) => {
                    for (i, p) in props.iter().enumerate() {
                        let value = self.node(&p.schema, depth + 1);
                        if p.source_name.is_some() || p.widened || value.is_some() {
                            let prop = ArgProp {
                                source: p.source_name.map(str::to_owned),
                                drop_null: p.widened,
                                value,
                            };
                            let n = n.get_or_insert_with(ArgNode::default);
                            // Widening often takes most members: sized once, not doubled.
                            if n.properties.is_empty() {
                                n.properties.reserve(props.len() - i);
                            }
                            n.properties.insert(p.name.to_owned(), prop);
                        }
                    }
                }
                (Keyword::Items, Value::Schema(item)) => {
                    let item = self.node(item, depth + 1).map(Box::new);
                    if item.is_some() || n.is_some() {
                        n.get_or_insert_with(ArgNode::default).items = item;
                    }
                }
                (Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf, Value::Schemas(list)) => {
                    for b in list {
                        if let Some(branch) = self.node(b, depth + 1) {
                            n.get_or_insert_with(ArgNode::default).any_of.push(branch);
                        }
                    }
                }
                (Keyword::Ref, Value::Str(reference)) => {
                    let reference = self.reference(reference, depth);
                    if reference.is_some() || n.is_some() {
                        n.get_or_insert_with(ArgNode::default).reference = reference;
                    }
                }
                _ => {}
            }
        }
        n.filter(|n| !n.is_empty())
    }

    fn reference(&mut self, reference: &str, depth: usize) -> Option<String> {
        if self.open.iter().any(|r| r == reference) {
            return Some(reference.to_owned());
        }
        if let Some(done) = self.defs.get(reference) {
            return (!done.is_empty()).then(|| reference.to_owned());
        }
        let Target::Found(target) = resolve(self.root, reference) else { return None };
        self.open.push(reference.to_owned());
        let node = self.node(target, depth + 1);
        self.open.pop();
        let found = node.is_some();
        self.defs.insert(reference.to_owned(), node.unwrap_or_default());
        found.then(|| reference.to_owned())
    }
}
