//! [`SchemaObject`]: the schema object's typed fields, and how a member is set
//! ([`SchemaObject::insert`]) and how the written members are visited, in the one order every
//! writer (JSON value, serde, `Debug`) uses.
//!
//! Which field holds which keyword is `slot.rs`'s table.

use std::fmt;

use indexmap::IndexMap;
use serde_json::{Map, Number, Value as JsonValue};

use super::schema::{Items, JsonSchema, SchemaType};
use crate::ir::Keyword;

/// A schema object: one typed field per keyword the crate models, plus [`SchemaObject::extra`]
/// for everything else. Every field is optional; `None` means the keyword is absent.
///
/// Build one with struct-update syntax, e.g. `SchemaObject { instance_type:
/// Some(InstanceType::Object.into()), properties: Some(props), ..SchemaObject::default() }`,
/// and wrap it with `JsonSchema::from`.
#[derive(Clone, Default, PartialEq)]
pub struct SchemaObject {
    // Core vocabulary.
    /// `$schema`: the dialect's meta-schema URI.
    pub meta_schema: Option<String>,
    /// `$id`
    pub id: Option<String>,
    /// `$ref`
    pub reference: Option<String>,
    /// `$anchor`
    pub anchor: Option<String>,
    /// `$dynamicRef`
    pub dynamic_reference: Option<String>,
    /// `$dynamicAnchor`
    pub dynamic_anchor: Option<String>,
    /// `$vocabulary`: vocabulary URI → required.
    pub vocabulary: Option<IndexMap<String, bool>>,
    /// `$comment`
    pub comment: Option<String>,
    /// `$defs`, in source order.
    pub defs: Option<IndexMap<String, JsonSchema>>,
    // Applicators.
    /// `prefixItems`
    pub prefix_items: Option<Vec<JsonSchema>>,
    /// `items`: a schema, or the draft-07 tuple form.
    pub items: Option<Items>,
    /// `contains`
    pub contains: Option<JsonSchema>,
    /// `additionalProperties`
    pub additional_properties: Option<JsonSchema>,
    /// `properties`, in source order.
    pub properties: Option<IndexMap<String, JsonSchema>>,
    /// `patternProperties`, in source order.
    pub pattern_properties: Option<IndexMap<String, JsonSchema>>,
    /// `dependentSchemas`, in source order.
    pub dependent_schemas: Option<IndexMap<String, JsonSchema>>,
    /// `propertyNames`
    pub property_names: Option<JsonSchema>,
    /// `if`
    pub if_schema: Option<JsonSchema>,
    /// `then`
    pub then_schema: Option<JsonSchema>,
    /// `else`
    pub else_schema: Option<JsonSchema>,
    /// `allOf`
    pub all_of: Option<Vec<JsonSchema>>,
    /// `anyOf`
    pub any_of: Option<Vec<JsonSchema>>,
    /// `oneOf`
    pub one_of: Option<Vec<JsonSchema>>,
    /// `not`
    pub not: Option<JsonSchema>,
    /// `unevaluatedItems`
    pub unevaluated_items: Option<JsonSchema>,
    /// `unevaluatedProperties`
    pub unevaluated_properties: Option<JsonSchema>,
    // Validation.
    /// `type`
    pub instance_type: Option<SchemaType>,
    /// `const` (`Some(Value::Null)` is `"const": null`).
    pub const_value: Option<JsonValue>,
    /// `enum`
    pub enum_values: Option<Vec<JsonValue>>,
    /// `multipleOf`
    pub multiple_of: Option<Number>,
    /// `maximum`
    pub maximum: Option<Number>,
    /// `exclusiveMaximum` (the 2020-12 number form; OpenAPI 3.0's boolean lands in `extra`).
    pub exclusive_maximum: Option<Number>,
    /// `minimum`
    pub minimum: Option<Number>,
    /// `exclusiveMinimum` (the 2020-12 number form; OpenAPI 3.0's boolean lands in `extra`).
    pub exclusive_minimum: Option<Number>,
    /// `maxLength`
    pub max_length: Option<Number>,
    /// `minLength`
    pub min_length: Option<Number>,
    /// `pattern`
    pub pattern: Option<String>,
    /// `maxItems`
    pub max_items: Option<Number>,
    /// `minItems`
    pub min_items: Option<Number>,
    /// `uniqueItems`
    pub unique_items: Option<bool>,
    /// `maxContains`
    pub max_contains: Option<Number>,
    /// `minContains`
    pub min_contains: Option<Number>,
    /// `maxProperties`
    pub max_properties: Option<Number>,
    /// `minProperties`
    pub min_properties: Option<Number>,
    /// `required`
    pub required: Option<Vec<String>>,
    /// `dependentRequired`: property → the properties it requires.
    pub dependent_required: Option<IndexMap<String, Vec<String>>>,
    // Meta-data and format.
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `default` (`Some(Value::Null)` is `"default": null`).
    pub default: Option<JsonValue>,
    /// `deprecated`
    pub deprecated: Option<bool>,
    /// `readOnly`
    pub read_only: Option<bool>,
    /// `writeOnly`
    pub write_only: Option<bool>,
    /// `examples`
    pub examples: Option<Vec<JsonValue>>,
    /// `format`
    pub format: Option<String>,
    /// `contentEncoding`
    pub content_encoding: Option<String>,
    /// `contentMediaType`
    pub content_media_type: Option<String>,
    /// `contentSchema`
    pub content_schema: Option<JsonSchema>,
    // Older drafts.
    /// `definitions` (draft-07), in source order.
    pub definitions: Option<IndexMap<String, JsonSchema>>,
    /// `dependencies` (draft-07): property → a schema or a list of property names, verbatim.
    pub dependencies: Option<IndexMap<String, JsonValue>>,
    /// `additionalItems` (draft-07)
    pub additional_items: Option<JsonSchema>,
    /// `$recursiveRef` (2019-09)
    pub recursive_reference: Option<String>,
    /// `$recursiveAnchor` (2019-09)
    pub recursive_anchor: Option<bool>,
    // OpenAPI 3.0 / Gemini.
    /// `nullable` (OpenAPI 3.0)
    pub nullable: Option<bool>,
    /// `example` (OpenAPI 3.0; `Some(Value::Null)` is `"example": null`).
    pub example: Option<JsonValue>,
    /// `propertyOrdering` (Gemini)
    pub property_ordering: Option<Vec<String>>,
    /// Every other member, verbatim and in order: keywords the crate does not model
    /// (`x-…`, `discriminator`, …) and modelled keywords whose value had an unexpected shape
    /// (kept under the keyword's name). Written after the typed fields (flattened).
    pub extra: IndexMap<String, JsonValue>,
}

impl SchemaObject {
    /// Sets the member `key` from JSON, as the lowering reads it: a modelled keyword whose value
    /// has the expected shape goes to its typed field, anything else to [`SchemaObject::extra`]
    /// (under `key`). The last value set for a key wins, whichever place it lands in.
    pub fn insert(&mut self, key: String, value: JsonValue) {
        let kw = Keyword::from_key(&key);
        let value = match self.slot_mut(kw) {
            Some(slot) => match slot.set_json(value) {
                Ok(()) => {
                    self.extra.shift_remove(&key);
                    return;
                }
                Err(value) => value,
            },
            None => value,
        };
        if let Some(slot) = self.slot_mut(kw) {
            slot.clear();
        }
        self.extra.insert(key, value);
    }

    /// The schema object as a JSON object (see [`JsonSchema::to_value`]).
    pub fn to_value(&self) -> JsonValue {
        JsonValue::Object(self.to_map())
    }

    /// The members written, in write order (see [`SchemaObject::for_each`]).
    pub(super) fn to_map(&self) -> Map<String, JsonValue> {
        let mut map = Map::new();
        self.for_each(|key, slot| {
            map.insert(key.to_owned(), slot.to_value());
        });
        map
    }
}

/// Shows the keywords that are set, as JSON Schema names them (not 65 `None`s).
impl fmt::Debug for SchemaObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        self.for_each(|key, slot| {
            map.entry(&key, &slot);
        });
        map.finish()
    }
}
