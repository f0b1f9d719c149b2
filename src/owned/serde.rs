//! `Serialize` and `Deserialize` for the owned schema: a [`JsonSchema`] is written and read as
//! plain JSON Schema, a [`SchemaObject`] as its members in the write order (`object.rs`).
//!
//! Reading goes through `serde_json::Value` and the same lenient rule as
//! [`SchemaObject::insert`], so a value of an unexpected shape is kept, never rejected.

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as JsonValue;

use super::object::SchemaObject;
use super::schema::JsonSchema;
use super::slot::SlotRef;

impl Serialize for JsonSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonSchema::Bool(b) => serializer.serialize_bool(*b),
            JsonSchema::Object(o) => o.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for JsonSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonSchema::from_json(JsonValue::deserialize(deserializer)?).map_err(not_a_schema)
    }
}

/// The error for a value that is neither an object nor a boolean, naming what it is.
fn not_a_schema<E: serde::de::Error>(value: JsonValue) -> E {
    E::custom(format_args!(
        "a schema must be an object or a boolean, found {}",
        json_type_name(&value)
    ))
}

/// The JSON type of `value`, as an error message names it.
fn json_type_name(value: &JsonValue) -> &'static str {
    match value {
        JsonValue::Null => "null",
        JsonValue::Bool(_) => "boolean",
        JsonValue::Number(_) => "number",
        JsonValue::String(_) => "string",
        JsonValue::Array(_) => "array",
        JsonValue::Object(_) => "object",
    }
}

impl Serialize for SlotRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            SlotRef::Str(v) => v.serialize(serializer),
            SlotRef::Number(v) => v.serialize(serializer),
            SlotRef::Bool(v) => v.serialize(serializer),
            SlotRef::Schema(v) => v.serialize(serializer),
            SlotRef::Items(v) => v.serialize(serializer),
            SlotRef::Schemas(v) => v.serialize(serializer),
            SlotRef::Props(v) => v.serialize(serializer),
            SlotRef::Type(v) => v.serialize(serializer),
            SlotRef::Strings(v) => v.serialize(serializer),
            SlotRef::Json(v) => v.serialize(serializer),
            SlotRef::Values(v) => v.serialize(serializer),
            SlotRef::BoolMap(v) => v.serialize(serializer),
            SlotRef::StringLists(v) => v.serialize(serializer),
            SlotRef::JsonMap(v) => v.serialize(serializer),
        }
    }
}

impl Serialize for SchemaObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let mut result = Ok(());
        self.for_each(|key, slot| {
            if result.is_ok() {
                result = map.serialize_entry(key, &slot);
            }
        });
        result?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for SchemaObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match JsonSchema::from_json(JsonValue::deserialize(deserializer)?) {
            Ok(JsonSchema::Object(o)) => Ok(*o),
            Ok(JsonSchema::Bool(_)) => {
                Err(D::Error::custom("expected a schema object, found boolean"))
            }
            Err(other) => Err(not_a_schema(other)),
        }
    }
}
