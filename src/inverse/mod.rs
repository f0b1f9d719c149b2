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

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as JsonValue};

use crate::ir::refs::{Document, Target};
use crate::ir::{Entry, Keyword, Schema, Tool, Value};
use crate::report::{TextSpan, Texts};
use lookup::Lookup;

mod lookup;

/// What undoes a conversion's renames and strict widening.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inverse {
    /// The source format.
    pub from: String,
    /// The target format.
    pub to: String,
    /// The tools whose calls need mapping back, in catalog order. A call finds its tool
    /// through an index of these names made on the first lookup ([`Inverse::tool`]): edit
    /// the list before a map is first used, or use a clone of it after (a clone makes its
    /// own index; [`Inverse::extend`] renews it).
    pub tools: Vec<ToolInverse>,
    /// The index of [`Inverse::tools`] by name, made on the first lookup.
    #[serde(skip)]
    lookup: Lookup,
}

/// One tool's inverse.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInverse {
    /// The tool's name in the target (what the model calls).
    pub name: String,
    /// The tool's name in the source.
    pub source_name: String,
    /// The tool's place among the source document's tools (0-based, in document order, the
    /// tools left out counted), when an earlier tool there has the same source name (the tool
    /// was renamed for that): `source_name` alone does not tell the two apart. `None`
    /// otherwise. In a batch (NDJSON lines, a folder's files) it is the place in the tool's
    /// own document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_index: Option<usize>,
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
    /// The source tool's place in its catalog, when the name alone does not say which tool it
    /// is ([`ToolInverse::source_index`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_index: Option<usize>,
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

    /// The inverse of the tool the model knows as `name` (the first, where several are).
    /// The names are indexed on the first call, so each later one costs a hash, however
    /// many tools the map has; a call allocates nothing.
    pub fn tool(&self, name: &str) -> Option<&ToolInverse> {
        self.lookup.find(&self.tools, name)
    }

    /// Appends another conversion's inverse (an NDJSON line, a file of a folder).
    pub fn extend(&mut self, other: Inverse) {
        if self.from.is_empty() {
            self.from = other.from;
            self.to = other.to;
        }
        self.tools.extend(other.tools);
        self.lookup = Lookup::default();
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
        self.unmap_call_with(call, |text| {
            serde_json::from_str::<JsonValue>(text).map_err(|e| e.to_string())
        })
    }

    /// [`Inverse::unmap_call`], with `parse` reading arguments given as a JSON string (OpenAI
    /// Chat's `tool_calls[].function.arguments`): a caller that keeps numbers exactly in
    /// `call` (the CLI's `unmap`) reads the string the same way, so those numbers are not
    /// rounded through `f64` either.
    ///
    /// # Errors
    /// As [`Inverse::unmap_call`]; `parse`'s error becomes [`UnmapError::Arguments`].
    pub fn unmap_call_with(
        &self,
        call: &JsonValue,
        parse: impl FnOnce(&str) -> Result<JsonValue, String>,
    ) -> Result<ToolCall, UnmapError> {
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
            Some(JsonValue::String(text)) => parse(text).map_err(UnmapError::Arguments)?,
            Some(v) => v.clone(),
        };
        if !arguments.is_object() {
            return Err(UnmapError::Arguments(format!("found {arguments}")));
        }
        let source_index = self.tool(name).and_then(|t| t.source_index);
        let (name, arguments) = self.unmap(name, arguments);
        Ok(ToolCall { id, name, source_index, arguments })
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

/// A conversion's inverse as the conversion records it: flat arrays over one text buffer,
/// kept from one conversion to the next, so recording a warm conversion allocates nothing
/// (an [`Inverse`] is a tree of `String`s and hash maps, one allocation per renamed or widened
/// member). The [`Inverse`] is made from it on first use, and most callers never ask.
#[derive(Clone, Default)]
pub(crate) struct Recorded {
    from: String,
    to: String,
    /// Every name and reference recorded.
    text: Texts,
    tools: Vec<RecTool>,
    nodes: Vec<RecNode>,
    props: Vec<RecProp>,
    /// `anyOf` branches, as node indices.
    branches: Vec<u32>,
    /// Definitions in the order the plain builder inserts them; each tool owns a range.
    defs: Vec<RecDef>,
    /// [`Recorded::defs`] by the hash of their reference (a document may have 100,000):
    /// entries below the current tool's range are stale, and a hash that meets another
    /// reference's is looked up in the range instead.
    defs_by_hash: HashMap<u64, usize>,
    hasher: RandomState,
    /// A node's members and branches while its children are recorded (the children's own go
    /// on top and leave before the node ends), so each node's land in one contiguous range.
    pending_props: Vec<RecProp>,
    pending_branches: Vec<u32>,
    /// References being recorded (a ref back into one is kept; its map is filled on return).
    open: Vec<TextSpan>,
    made: OnceLock<Inverse>,
}

/// No node: nothing to undo there.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct RecTool {
    name: TextSpan,
    source_name: TextSpan,
    /// [`ToolInverse::source_index`].
    source_index: Option<u32>,
    /// The root of the argument map, [`NONE`] when the arguments are unchanged.
    root: u32,
    /// This tool's range of [`Recorded::defs`].
    defs: (usize, usize),
}

#[derive(Clone, Copy)]
struct RecNode {
    props: (usize, usize),
    items: u32,
    branches: (usize, usize),
    reference: Option<TextSpan>,
}

#[derive(Clone, Copy)]
struct RecProp {
    name: TextSpan,
    source: Option<TextSpan>,
    drop_null: bool,
    value: u32,
}

#[derive(Clone, Copy)]
struct RecDef {
    reference: TextSpan,
    node: u32,
}

impl Recorded {
    /// Starts a conversion: the last one's records are forgotten, their buffers kept.
    pub(crate) fn reset(&mut self, from: &str, to: &str) {
        self.from.clear();
        self.from.push_str(from);
        self.to.clear();
        self.to.push_str(to);
        self.text.clear();
        self.tools.clear();
        self.nodes.clear();
        self.props.clear();
        self.branches.clear();
        self.defs.clear();
        self.defs_by_hash.clear();
        self.made.take();
    }

    /// Records `tool` when a pass renamed it or changed its arguments; nothing otherwise.
    pub(crate) fn record(&mut self, tool: &Tool<'_>) {
        if tool.source_name.is_none() && !tool.remapped {
            return;
        }
        let name = self.text.push(tool.name);
        let source_name = match tool.source_name {
            Some(s) => self.text.push(s),
            None => name,
        };
        let first_def = self.defs.len();
        // What is left over from a node cut short (none today) must not leak into this tool.
        self.pending_props.clear();
        self.pending_branches.clear();
        self.open.clear();
        let root = match (&tool.input, tool.remapped) {
            (Some(input), true) => self.node(&Document::new(input), input, first_def, 0),
            _ => NONE,
        };
        let source_index = tool.name_repeated.then_some(tool.index);
        let defs = (first_def, self.defs.len());
        self.tools.push(RecTool { name, source_name, source_index, root, defs });
        #[cfg(test)]
        {
            let plain = ToolInverse {
                name: tool.name.to_owned(),
                source_name: tool.source_name.unwrap_or(tool.name).to_owned(),
                source_index: tool.name_repeated.then_some(tool.index as usize),
                arguments: if tool.remapped {
                    tool.input.as_ref().and_then(tests::arg_map)
                } else {
                    None
                },
            };
            assert_eq!(self.make().tools.last(), Some(&plain), "recorded inverse differs");
        }
    }

    /// The inverse, made on the first call.
    pub(crate) fn get(&self) -> &Inverse {
        self.made.get_or_init(|| self.make())
    }

    fn index(&self, len: usize) -> u32 {
        u32::try_from(len).unwrap_or(NONE)
    }

    /// Records the map of `s` (as the plain builder does) and returns its node, [`NONE`] when
    /// nothing under `s` changed.
    #[inline(always)]
    fn node(&mut self, root: &Document<'_>, s: &Schema<'_>, first_def: usize, depth: usize) -> u32 {
        // Most nodes are leaves: a test here spares them the call and its bookkeeping.
        let maps = |e: &Entry<'_>| {
            matches!(
                e.keyword,
                Keyword::Properties
                    | Keyword::Items
                    | Keyword::AnyOf
                    | Keyword::OneOf
                    | Keyword::AllOf
                    | Keyword::Ref
            )
        };
        if depth > 256 || !s.keywords.iter().any(maps) {
            return NONE;
        }
        self.inner(root, s, first_def, depth)
    }

    /// [`Recorded::node`] of a node with a keyword that may lead to something to undo.
    #[inline(never)]
    fn inner(
        &mut self,
        root: &Document<'_>,
        s: &Schema<'_>,
        first_def: usize,
        depth: usize,
    ) -> u32 {
        let (props_mark, branches_mark) = (self.pending_props.len(), self.pending_branches.len());
        let mut items = NONE;
        let mut reference = None;
        for e in s.keywords {
            match (e.keyword, e.value) {
                (Keyword::Properties, Value::Props(props)) => {
                    for p in props {
                        let value = self.node(root, &p.schema, first_def, depth + 1);
                        if p.source_name.is_some() || p.widened || value != NONE {
                            let name = self.text.push(p.name);
                            let source = p.source_name.map(|s| self.text.push(s));
                            self.pending_props.push(RecProp {
                                name,
                                source,
                                drop_null: p.widened,
                                value,
                            });
                        }
                    }
                }
                (Keyword::Items, Value::Schema(item)) => {
                    items = self.node(root, item, first_def, depth + 1);
                }
                (Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf, Value::Schemas(list)) => {
                    for b in list {
                        let branch = self.node(root, b, first_def, depth + 1);
                        if branch != NONE {
                            self.pending_branches.push(branch);
                        }
                    }
                }
                (Keyword::Ref, Value::Str(r)) => {
                    reference = self.reference(root, r, first_def, depth);
                }
                _ => {}
            }
        }
        if self.pending_props.len() == props_mark
            && items == NONE
            && self.pending_branches.len() == branches_mark
            && reference.is_none()
        {
            return NONE;
        }
        let props = (self.props.len(), self.props.len() + self.pending_props.len() - props_mark);
        self.props.extend(self.pending_props.drain(props_mark..));
        let branches = (
            self.branches.len(),
            self.branches.len() + self.pending_branches.len() - branches_mark,
        );
        self.branches.extend(self.pending_branches.drain(branches_mark..));
        let at = self.index(self.nodes.len());
        self.nodes.push(RecNode { props, items, branches, reference });
        at
    }

    /// The reference to keep at a `$ref` to `r`, as the plain builder's.
    fn reference(
        &mut self,
        root: &Document<'_>,
        r: &str,
        first_def: usize,
        depth: usize,
    ) -> Option<TextSpan> {
        if let Some(open) = self.open.iter().find(|o| self.text.get(**o) == r) {
            return Some(*open);
        }
        let hash = self.hasher.hash_one(r);
        let known = self.defs_by_hash.get(&hash).copied().filter(|&i| i >= first_def);
        let done = match known.and_then(|i| self.defs.get(i)) {
            Some(d) if self.text.get(d.reference) == r => Some(*d),
            // Another reference with the same hash (never seen in practice): the range.
            Some(_) => {
                let mut range = self.defs.get(first_def..).unwrap_or_default().iter();
                range.find(|d| self.text.get(d.reference) == r).copied()
            }
            None => None,
        };
        if let Some(done) = done {
            return (done.node != NONE).then_some(done.reference);
        }
        let Target::Found(target) = root.resolve(r) else { return None };
        let span = self.text.push(r);
        self.open.push(span);
        let node = self.node(root, target, first_def, depth + 1);
        self.open.pop();
        let len = self.defs.len();
        let slot = self.defs_by_hash.entry(hash).or_insert(len);
        if *slot < first_def {
            *slot = len;
        }
        self.defs.push(RecDef { reference: span, node });
        (node != NONE).then_some(span)
    }

    fn make(&self) -> Inverse {
        let tools = self
            .tools
            .iter()
            .map(|t| ToolInverse {
                name: self.text.get(t.name).to_owned(),
                source_name: self.text.get(t.source_name).to_owned(),
                source_index: t.source_index.map(|i| i as usize),
                arguments: (t.root != NONE).then(|| ArgMap {
                    root: self.make_node(t.root),
                    defs: self
                        .defs
                        .get(t.defs.0..t.defs.1)
                        .unwrap_or_default()
                        .iter()
                        .filter(|d| d.node != NONE)
                        .map(|d| (self.text.get(d.reference).to_owned(), self.make_node(d.node)))
                        .collect(),
                }),
            })
            .collect();
        Inverse { from: self.from.clone(), to: self.to.clone(), tools, lookup: Lookup::default() }
    }

    /// The node `at`. Recursion is bounded: a node's children were recorded before it, at a
    /// depth the recorder capped.
    fn make_node(&self, at: u32) -> ArgNode {
        let Some(n) = usize::try_from(at).ok().and_then(|i| self.nodes.get(i)) else {
            return ArgNode::default();
        };
        let props = self.props.get(n.props.0..n.props.1).unwrap_or_default();
        let branches = self.branches.get(n.branches.0..n.branches.1).unwrap_or_default();
        ArgNode {
            properties: props
                .iter()
                .map(|p| {
                    let prop = ArgProp {
                        source: p.source.map(|s| self.text.get(s).to_owned()),
                        drop_null: p.drop_null,
                        value: (p.value != NONE).then(|| self.make_node(p.value)),
                    };
                    (self.text.get(p.name).to_owned(), prop)
                })
                .collect(),
            items: (n.items != NONE).then(|| Box::new(self.make_node(n.items))),
            any_of: branches.iter().map(|b| self.make_node(*b)).collect(),
            reference: n.reference.map(|r| self.text.get(r).to_owned()),
        }
    }
}

impl PartialEq for Recorded {
    fn eq(&self, other: &Recorded) -> bool {
        self.get() == other.get()
    }
}

impl Eq for Recorded {}

impl fmt::Debug for Recorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use indexmap::IndexMap;

    use super::{ArgMap, ArgNode, ArgProp};
    use crate::formats::{Anthropic, Mcp, OpenAi};
    use crate::ir::refs::{Target, resolve};
    use crate::ir::{Keyword, Schema, Value};
    use crate::{Adapter, Converter, Options, Strict};

    /// The argument map of an input schema, `None` when nothing in it was renamed or widened:
    /// the plain builder, which tests hold the compact [`Recorded`] to.
    pub(super) fn arg_map(root: &Schema<'_>) -> Option<ArgMap> {
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
            let mut n = ArgNode::default();
            for e in s.keywords {
                match (e.keyword, e.value) {
                    (Keyword::Properties, Value::Props(props)) => {
                        for p in props {
                            let value = self.node(&p.schema, depth + 1);
                            if p.source_name.is_some() || p.widened || value.is_some() {
                                let prop = ArgProp {
                                    source: p.source_name.map(str::to_owned),
                                    drop_null: p.widened,
                                    value,
                                };
                                n.properties.insert(p.name.to_owned(), prop);
                            }
                        }
                    }
                    (Keyword::Items, Value::Schema(item)) => {
                        n.items = self.node(item, depth + 1).map(Box::new);
                    }
                    (Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf, Value::Schemas(list)) => {
                        n.any_of.extend(list.iter().filter_map(|b| self.node(b, depth + 1)));
                    }
                    (Keyword::Ref, Value::Str(reference)) => {
                        n.reference = self.reference(reference, depth);
                    }
                    _ => {}
                }
            }
            (!n.is_empty()).then_some(n)
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

    /// A map's tools are found by name as a scan finds them (the first of a repeated name),
    /// through its index once it is long, after `extend`, and after the list was changed.
    #[test]
    fn tools_are_found_as_a_scan_finds_them() {
        let tool = |name: String, source: String| super::ToolInverse {
            name,
            source_name: source,
            ..super::ToolInverse::default()
        };
        for n in [0, 3, super::lookup::SCAN, super::lookup::SCAN + 1, 200] {
            let mut map = super::Inverse::default();
            map.tools.extend((0..n).map(|i| tool(format!("t{}", i % 150), format!("s{i}"))));
            let scan = |map: &super::Inverse, name: &str| {
                map.tools.iter().find(|t| t.name == name).map(|t| t.source_name.clone())
            };
            let probe = |map: &super::Inverse| {
                for i in 0..260 {
                    let name = format!("t{i}");
                    assert_eq!(map.tool(&name).map(|t| t.source_name.clone()), scan(map, &name));
                }
            };
            probe(&map);
            let mut more = super::Inverse::default();
            more.tools.push(tool("t250".to_owned(), "late".to_owned()));
            map.extend(more);
            probe(&map);
            // Changed after its first use: a clone finds what the list now holds.
            map.tools.push(tool("t255".to_owned(), "pushed".to_owned()));
            probe(&map);
            probe(&map.clone());
        }
    }

    /// Each conversion's `record` also builds the plain tree and asserts the compact record
    /// makes the same (see `Recorded::record`); these inputs reach every branch of it.
    #[test]
    fn the_compact_record_makes_what_the_plain_builder_makes() {
        let inputs = [
            r#"{"tools":[{"name":"a b","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}},{"name":"a_b","inputSchema":{"type":"object"}}]}"#,
            r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"object","properties":{"c":{"type":"string"},"d":{"type":"array","items":{"type":"object","properties":{"e":{"type":"string"}}}}}}},"required":["a"]}}"#,
            r##"{"name":"r","inputSchema":{"type":"object","$defs":{"n":{"type":"object","properties":{"v":{"type":"string"},"next":{"$ref":"#/$defs/n"}}},"m":{"type":"object","properties":{"w":{"type":"string"}},"required":["w"]}},"properties":{"head":{"$ref":"#/$defs/n"},"again":{"$ref":"#/$defs/n"},"m":{"$ref":"#/$defs/m"},"root":{"$ref":"#"},"gone":{"$ref":"#/$defs/x"}}}}"##,
            r#"{"name":"u","inputSchema":{"type":"object","properties":{"p":{"anyOf":[{"type":"object","properties":{"q":{"type":"string"}}},{"type":"string"}]},"o":{"oneOf":[{"type":"object","properties":{"r":{"type":"string"}}},{"type":"object","properties":{"s":{"type":"number"}},"required":["s"]}]}}}}"#,
            r#"{"name":"k","inputSchema":{"type":"object","properties":{"bad key!":{"type":"object","properties":{"x/y":{"type":"string"},"ok":{"type":"string"}}},"fine":{"type":"string"}}}}"#,
        ];
        let targets: [(&dyn Adapter, Strict); 4] = [
            (&OpenAi, Strict::On),
            (&OpenAi, Strict::Source),
            (&Anthropic, Strict::On),
            (&Anthropic, Strict::Source),
        ];
        let mut converter = Converter::new();
        for (to, strict) in targets {
            for input in inputs {
                let options = Options::default().strict(strict);
                if let Ok(c) = converter.convert(input.as_bytes(), &Mcp, to, &options) {
                    // Made once, then the same value on every call.
                    assert_eq!(c.inverse(), c.inverse());
                }
            }
        }
        // The corpus, when it is there, reaches what the inputs above do not.
        let dir = std::env::var("TOOLADAPTER_CORPUS").unwrap_or_else(|_| "../shared/corpus".into());
        let files = std::fs::read_dir(std::path::Path::new(&dir).join("mcp-catalogs"));
        for file in files.into_iter().flatten().flatten() {
            let Ok(input) = std::fs::read(file.path()) else { continue };
            for (to, strict) in targets {
                let _ = converter.convert(&input, &Mcp, to, &Options::default().strict(strict));
            }
        }
    }
}
