//! IR → owned: [`crate::ir::Schema::deep_copy`] and [`tool_from_ir`], the only way arena data
//! becomes an owned tree (the conversion path itself never makes one).
//!
//! A value whose IR shape does not fit its typed field goes through [`SchemaObject::insert`],
//! so the lenient rule that keeps unexpected shapes in `extra` is written once.

use indexmap::IndexMap;
use serde_json::{Number, Value as JsonValue};

use super::object::SchemaObject;
use super::schema::{Items, JsonSchema, SchemaType};
use super::slot::{SlotMut, SlotRef};
use super::tool::CanonicalTool;
use crate::format::FormatInfo;
use crate::ir::{self, Json, Role};

impl<'a> ir::Schema<'a> {
    /// An owned copy of this schema and everything below it.
    ///
    /// Every keyword survives: a modelled keyword whose IR value had an unexpected shape
    /// ([`ir::Value::Json`], such as OpenAPI 3.0's boolean `exclusiveMinimum` or BFCL's
    /// `"type": "dict"`) and every unknown keyword are kept in [`SchemaObject::extra`] under
    /// their names. Recursion is bounded by the lowering's depth limit.
    pub fn deep_copy(&self) -> JsonSchema {
        if let Some(b) = self.boolean {
            return JsonSchema::Bool(b);
        }
        let mut o = SchemaObject::default();
        for entry in self.keywords {
            o.set_ir(entry);
        }
        JsonSchema::Object(Box::new(o))
    }
}

fn props_copy(props: &[ir::Prop<'_>]) -> IndexMap<String, JsonSchema> {
    props.iter().map(|p| (p.name.to_owned(), p.schema.deep_copy())).collect()
}

fn types_copy(t: ir::Types<'_>) -> SchemaType {
    match (t.array, t.list) {
        (false, [one]) => SchemaType::Single(*one),
        (_, list) => SchemaType::Multiple(list.to_vec()),
    }
}

/// A number from its source text; `None` when `serde_json` cannot hold it (beyond `f64`).
fn parse_number(text: &str) -> Option<Number> {
    serde_json::from_str::<Number>(text).ok()
}

/// An IR JSON value as a `serde_json::Value`. A number `serde_json` cannot hold (beyond the
/// `f64` range) becomes its source text as a string.
fn json_to_value(json: &Json<'_>) -> JsonValue {
    match *json {
        Json::Null => JsonValue::Null,
        Json::Bool(b) => JsonValue::Bool(b),
        Json::Number(text) => number_value(text),
        Json::String(s) => JsonValue::String(s.to_owned()),
        Json::Array(list) => JsonValue::Array(list.iter().map(json_to_value).collect()),
        Json::Object(members) => JsonValue::Object(
            members.iter().map(|m| (m.key.to_owned(), json_to_value(&m.value))).collect(),
        ),
    }
}

fn number_value(text: &str) -> JsonValue {
    match parse_number(text) {
        Some(n) => JsonValue::Number(n),
        None => JsonValue::String(text.to_owned()),
    }
}

/// Any IR keyword value as JSON, for the rare keyword whose value does not fit its field.
fn ir_value_to_json(value: &ir::Value<'_>) -> JsonValue {
    use ir::Value as V;
    match *value {
        V::Schema(s) => s.deep_copy().to_value(),
        V::Schemas(list) => {
            JsonValue::Array(list.iter().map(|s| s.deep_copy().to_value()).collect())
        }
        V::Props(props) => JsonValue::Object(
            props.iter().map(|p| (p.name.to_owned(), p.schema.deep_copy().to_value())).collect(),
        ),
        V::Type(t) => SlotRef::Type(&types_copy(t)).to_value(),
        V::Strings(list) => {
            JsonValue::Array(list.iter().map(|s| JsonValue::String((*s).to_owned())).collect())
        }
        V::Str(s) => JsonValue::String(s.to_owned()),
        V::Number(text) => number_value(text),
        V::Bool(b) => JsonValue::Bool(b),
        V::Json(j) => json_to_value(&j),
        V::Unknown(m) => json_to_value(&m.value),
    }
}

impl SchemaObject {
    /// Fills the field for one IR keyword: directly when the IR value has the field's shape,
    /// else through [`SchemaObject::insert`] (so an unexpected shape lands in `extra`).
    fn set_ir(&mut self, entry: &ir::Entry<'_>) {
        use ir::Value as V;
        let kw = entry.keyword;
        if let V::Unknown(member) = entry.value {
            self.insert(member.key.to_owned(), json_to_value(&member.value));
            return;
        }
        let fits = match (self.slot_mut(kw), entry.value) {
            (Some(SlotMut::Str(f)), V::Str(s)) => {
                *f = Some(s.to_owned());
                true
            }
            (Some(SlotMut::Number(f)), V::Number(text)) => match parse_number(text) {
                Some(n) => {
                    *f = Some(n);
                    true
                }
                None => false,
            },
            (Some(SlotMut::Bool(f)), V::Bool(b)) => {
                *f = Some(b);
                true
            }
            (Some(SlotMut::Schema(f)), V::Schema(s)) => {
                *f = Some(s.deep_copy());
                true
            }
            (Some(SlotMut::Items(f)), V::Schema(s)) => {
                *f = Some(Items::Schema(s.deep_copy()));
                true
            }
            (Some(SlotMut::Items(f)), V::Schemas(list)) => {
                *f = Some(Items::Tuple(list.iter().map(ir::Schema::deep_copy).collect()));
                true
            }
            (Some(SlotMut::Schemas(f)), V::Schemas(list)) => {
                *f = Some(list.iter().map(ir::Schema::deep_copy).collect());
                true
            }
            (Some(SlotMut::Props(f)), V::Props(props)) => {
                *f = Some(props_copy(props));
                true
            }
            (Some(SlotMut::Type(f)), V::Type(t)) => {
                *f = Some(types_copy(t));
                true
            }
            (Some(SlotMut::Strings(f)), V::Strings(list)) => {
                *f = Some(list.iter().map(|s| (*s).to_owned()).collect());
                true
            }
            _ => false,
        };
        if !fits {
            self.insert(kw.as_str().to_owned(), ir_value_to_json(&entry.value));
        }
    }
}

/// An owned [`CanonicalTool`] from an IR tool read from the format `source`.
///
/// The typed fields come from the IR's (name, description, schemas, `strict`). Of the
/// metadata members (roles [`Role::Meta`] and [`Role::Outer`]), an MCP string `title` becomes
/// [`CanonicalTool::title`] and a non-null MCP `annotations` [`CanonicalTool::annotations`];
/// every other one goes to [`CanonicalTool::source_meta`] verbatim, in source order. An opaque
/// tool keeps its whole source object under `source_meta["opaque"]`.
pub(crate) fn tool_from_ir(tool: &ir::Tool<'_>, source: &FormatInfo) -> CanonicalTool {
    let mut out = CanonicalTool {
        name: tool.name.to_owned(),
        description: tool.description.map(str::to_owned),
        input_schema: tool.input.as_ref().map(ir::Schema::deep_copy),
        output_schema: tool.output.as_ref().map(ir::Schema::deep_copy),
        strict: tool.strict,
        source_format: Some(source.name.to_owned()),
        ..CanonicalTool::default()
    };
    if let Some(raw) = &tool.opaque {
        out.source_meta.insert("opaque".to_owned(), json_to_value(raw));
    }
    let typed = |key: &str| source.canonical_members.contains(&key);
    for member in tool.members.iter().filter(|m| matches!(m.role, Role::Meta | Role::Outer)) {
        match (member.key, member.value) {
            ("title", Json::String(s)) if typed("title") && out.title.is_none() => {
                out.title = Some(s.to_owned());
            }
            ("annotations", v)
                if typed("annotations") && v != Json::Null && out.annotations.is_none() =>
            {
                out.annotations = Some(json_to_value(&v));
            }
            (key, v) => {
                out.source_meta.entry(key.to_owned()).or_insert_with(|| json_to_value(&v));
            }
        }
    }
    out
}
