//! [`JsonSchema`], the owned schema (a boolean or a [`SchemaObject`]), and the value types of
//! the keywords whose JSON takes more than one shape: `type` ([`SchemaType`]) and `items`
//! ([`Items`]).
//!
//! The schema object itself, with its typed fields, is in `object.rs`; the serde impls in
//! `serde.rs`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as JsonValue};

use super::SchemaObject;
use crate::ir::JsonType;

/// An owned JSON Schema: a boolean schema or a schema object.
///
/// Serialises to, and deserialises from, plain JSON Schema (`true`, `false`, or an object).
///
/// # Representation
///
/// A schema is [`JsonSchema::Bool`] (the boolean schemas `true` / `false`) or
/// [`JsonSchema::Object`], a boxed [`SchemaObject`] with one typed field per keyword the IR
/// models (see [`crate::ir::Keyword`]) and an [`SchemaObject::extra`] map for everything else.
/// Every field is an `Option`, so "absent" and "present but empty" (`"required": []`) stay
/// distinct, and [`JsonSchema::to_value`] writes exactly what is set.
///
/// - Named subschemas (`properties`, `patternProperties`, `dependentSchemas`, `$defs`,
///   `definitions`) are [`IndexMap`](indexmap::IndexMap)s: the author's order is kept (the IR keeps ordered slices;
///   an `IndexMap` cannot live in the arena, so it appears only here).
/// - `type` is [`SchemaType`]: a single name or an array, as written.
/// - `items` is [`Items`]: one schema, or the draft-07 tuple form (an array of schemas).
/// - Numbers are [`serde_json::Number`]. This crate builds `serde_json` without
///   `arbitrary_precision`, so the owned tree normalises number text (`1.0e-7` is written back
///   as `1e-7`, `1E3` as `1000.0`, `-0` as `-0.0`) while the bytes path keeps it exactly. A number
///   `serde_json` cannot hold (beyond the `f64` range, such as `1e400`) is kept as its source
///   text in a JSON string.
///
/// # Reading JSON leniently, like the lowering
///
/// Deserialising (and [`SchemaObject::insert`]) reads a keyword into its typed field when the
/// value has the shape the keyword takes; a value of any other shape (OpenAPI 3.0's boolean
/// `exclusiveMinimum`, BFCL's `"type": "dict"`, a `properties` member that is not a schema) is
/// kept in [`SchemaObject::extra`] under the keyword's name, exactly as written, the same rule
/// the arena lowering applies. Nothing is rejected except a schema that is neither an object nor
/// a boolean, and nothing is lost.
///
/// # Writing
///
/// Typed keywords are written first, in a fixed conventional order (`$schema`, `$id`, …,
/// `title`, `description`, `type`, …, `properties`, `required`, …, `$defs`, `definitions`),
/// then the `extra` members in their insertion order. An `extra` member whose name is a
/// modelled keyword is written only while that typed field is unset, so the output never holds
/// a key twice.
///
/// # Depth
///
/// Conversions from, to, and between owned trees recurse, and so do `Clone`, `PartialEq` and
/// `Drop`; there is no custom `Drop`. Every way untrusted bytes become an owned tree is depth
/// bounded (the lowering's limit, 128 by default, for [`crate::ir::Schema::deep_copy`];
/// `serde_json`'s recursion limit, also 128, for deserialisation), so only a tree built by hand
/// (or from a `serde_json::Value` built without that limit) tens of thousands of levels deep
/// could exhaust the stack.
///
/// # Example
///
/// ```
/// use tooladapter::JsonSchema;
///
/// let schema: JsonSchema = serde_json::from_str(
///     r#"{"type":"object","properties":{"b":{"type":"string"},"a":true},"x-vendor":1}"#,
/// )?;
/// let names: Vec<&str> = schema
///     .as_object()
///     .and_then(|o| o.properties.as_ref())
///     .map(|props| props.keys().map(String::as_str).collect())
///     .unwrap_or_default();
/// assert_eq!(names, ["b", "a"]); // author order
/// assert_eq!(schema.as_object().map(|o| o.extra.len()), Some(1)); // `x-vendor`
/// assert_eq!(
///     serde_json::to_string(&schema)?,
///     r#"{"type":"object","properties":{"b":{"type":"string"},"a":true},"x-vendor":1}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum JsonSchema {
    /// The boolean schema `true` (accepts every instance) or `false` (accepts none).
    Bool(bool),
    /// A schema object.
    Object(Box<SchemaObject>),
}

impl JsonSchema {
    /// The schema object, unless this is a boolean schema.
    pub fn as_object(&self) -> Option<&SchemaObject> {
        match self {
            JsonSchema::Object(o) => Some(o),
            JsonSchema::Bool(_) => None,
        }
    }

    /// The schema object, mutably, unless this is a boolean schema.
    pub fn as_object_mut(&mut self) -> Option<&mut SchemaObject> {
        match self {
            JsonSchema::Object(o) => Some(o),
            JsonSchema::Bool(_) => None,
        }
    }

    /// The schema as a `serde_json::Value`. Unset keywords are omitted (never `null` or empty);
    /// a collection the schema holds, even an empty one (`"required": []`), is written.
    pub fn to_value(&self) -> JsonValue {
        match self {
            JsonSchema::Bool(b) => JsonValue::Bool(*b),
            JsonSchema::Object(o) => JsonValue::Object(o.to_map()),
        }
    }

    /// Reads a schema from JSON (see the [`JsonSchema`] documentation): an object or a
    /// boolean, else the value is given back.
    pub(super) fn from_json(value: JsonValue) -> Result<JsonSchema, JsonValue> {
        match value {
            JsonValue::Bool(b) => Ok(JsonSchema::Bool(b)),
            JsonValue::Object(map) => Ok(JsonSchema::from(map)),
            other => Err(other),
        }
    }
}

impl From<bool> for JsonSchema {
    fn from(value: bool) -> Self {
        JsonSchema::Bool(value)
    }
}

impl From<SchemaObject> for JsonSchema {
    fn from(value: SchemaObject) -> Self {
        JsonSchema::Object(Box::new(value))
    }
}

impl From<Map<String, JsonValue>> for JsonSchema {
    /// Reads a schema object from a JSON object's members, keeping unexpected shapes as the
    /// [`JsonSchema`] documentation describes.
    fn from(map: Map<String, JsonValue>) -> Self {
        let mut o = SchemaObject::default();
        for (key, value) in map {
            o.insert(key, value);
        }
        JsonSchema::Object(Box::new(o))
    }
}

impl TryFrom<JsonValue> for JsonSchema {
    /// The value, given back, when it is neither an object nor a boolean.
    type Error = JsonValue;

    /// Reads a schema from a JSON value, keeping unexpected shapes as the
    /// [`JsonSchema`] documentation describes.
    fn try_from(value: JsonValue) -> Result<Self, Self::Error> {
        JsonSchema::from_json(value)
    }
}

impl From<&JsonSchema> for JsonValue {
    fn from(schema: &JsonSchema) -> Self {
        schema.to_value()
    }
}

/// A JSON Schema primitive type name, the members of `type`: the IR's own type, which also
/// serializes as the lowercase name.
pub type InstanceType = JsonType;

/// The value of `type`: one name (`"string"`) or an array of names (`["string", "null"]`);
/// a one-element array stays an array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SchemaType {
    /// `"type": "string"`
    Single(InstanceType),
    /// `"type": ["string", "null"]`
    Multiple(Vec<InstanceType>),
}

impl SchemaType {
    /// Whether `t` is the type or one of the types.
    pub fn contains(&self, t: InstanceType) -> bool {
        match self {
            SchemaType::Single(one) => *one == t,
            SchemaType::Multiple(list) => list.contains(&t),
        }
    }
}

impl From<InstanceType> for SchemaType {
    fn from(t: InstanceType) -> Self {
        SchemaType::Single(t)
    }
}

/// The value of `items`: one schema (every element), or the draft-07 tuple form (an array of
/// schemas, one per position; 2020-12 spells that `prefixItems`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Items {
    /// `"items": {…}`
    Schema(JsonSchema),
    /// `"items": [{…}, {…}]`
    Tuple(Vec<JsonSchema>),
}
