//! The owned tree: [`JsonSchema`] and [`CanonicalTool`], for users who build, inspect or edit
//! tools in code.
//!
//! The conversion path (bytes → arena IR → bytes) never touches this module: it stays in the
//! arena and allocates nothing per tool. The owned tree is the convenient, `'static`, serde-able
//! form for everything else: [`crate::ir::Schema::deep_copy`] materialises one from the IR, and
//! serialising it with `serde_json` gives JSON that the crate's lowering reads back to the same
//! meaning.
//!
//! [`JsonSchema`]'s documentation describes the representation: typed fields per modelled
//! keyword, `IndexMap`s that keep the author's order, and an `extra` map that keeps the rest.

use std::fmt;

use indexmap::IndexMap;
use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value as JsonValue};

use crate::ir::{self, Json, JsonType, Keyword, Role};

// ---------------------------------------------------------------------------------------------
// JsonSchema
// ---------------------------------------------------------------------------------------------

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
///   `definitions`) are [`IndexMap`]s: the author's order is kept (the IR keeps ordered slices;
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
    fn from_json(value: JsonValue) -> Result<JsonSchema, JsonValue> {
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

fn not_a_schema<E: serde::de::Error>(value: JsonValue) -> E {
    E::custom(format_args!("a schema must be an object or a boolean, found {}", kind(&value)))
}

fn kind(value: &JsonValue) -> &'static str {
    match value {
        JsonValue::Null => "null",
        JsonValue::Bool(_) => "boolean",
        JsonValue::Number(_) => "number",
        JsonValue::String(_) => "string",
        JsonValue::Array(_) => "array",
        JsonValue::Object(_) => "object",
    }
}

// ---------------------------------------------------------------------------------------------
// Keyword value types
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// SchemaObject
// ---------------------------------------------------------------------------------------------

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

/// A typed field, by what it holds (mutable, possibly unset).
enum SlotMut<'s> {
    Str(&'s mut Option<String>),
    Number(&'s mut Option<Number>),
    Bool(&'s mut Option<bool>),
    Schema(&'s mut Option<JsonSchema>),
    Items(&'s mut Option<Items>),
    Schemas(&'s mut Option<Vec<JsonSchema>>),
    Props(&'s mut Option<IndexMap<String, JsonSchema>>),
    Type(&'s mut Option<SchemaType>),
    Strings(&'s mut Option<Vec<String>>),
    Json(&'s mut Option<JsonValue>),
    Values(&'s mut Option<Vec<JsonValue>>),
    BoolMap(&'s mut Option<IndexMap<String, bool>>),
    StringLists(&'s mut Option<IndexMap<String, Vec<String>>>),
    JsonMap(&'s mut Option<IndexMap<String, JsonValue>>),
}

/// A set typed field, by what it holds.
#[derive(Clone, Copy)]
enum SlotRef<'s> {
    Str(&'s String),
    Number(&'s Number),
    Bool(&'s bool),
    Schema(&'s JsonSchema),
    Items(&'s Items),
    Schemas(&'s Vec<JsonSchema>),
    Props(&'s IndexMap<String, JsonSchema>),
    Type(&'s SchemaType),
    Strings(&'s Vec<String>),
    Json(&'s JsonValue),
    Values(&'s Vec<JsonValue>),
    BoolMap(&'s IndexMap<String, bool>),
    StringLists(&'s IndexMap<String, Vec<String>>),
    JsonMap(&'s IndexMap<String, JsonValue>),
}

/// The one table of keyword → field. The match is exhaustive over [`Keyword`], so a keyword
/// added to the IR fails the build here until it has a field.
macro_rules! keyword_fields {
    ($($kw:ident => $field:ident: $slot:ident,)*) => {
        impl SchemaObject {
            fn slot_mut(&mut self, kw: Keyword) -> Option<SlotMut<'_>> {
                Some(match kw {
                    $(Keyword::$kw => SlotMut::$slot(&mut self.$field),)*
                    Keyword::Unknown => return None,
                })
            }

            fn slot(&self, kw: Keyword) -> Option<SlotRef<'_>> {
                match kw {
                    $(Keyword::$kw => self.$field.as_ref().map(SlotRef::$slot),)*
                    Keyword::Unknown => None,
                }
            }
        }
    };
}

keyword_fields! {
    Schema => meta_schema: Str,
    Id => id: Str,
    Ref => reference: Str,
    Anchor => anchor: Str,
    DynamicRef => dynamic_reference: Str,
    DynamicAnchor => dynamic_anchor: Str,
    Vocabulary => vocabulary: BoolMap,
    Comment => comment: Str,
    Defs => defs: Props,
    PrefixItems => prefix_items: Schemas,
    Items => items: Items,
    Contains => contains: Schema,
    AdditionalProperties => additional_properties: Schema,
    Properties => properties: Props,
    PatternProperties => pattern_properties: Props,
    DependentSchemas => dependent_schemas: Props,
    PropertyNames => property_names: Schema,
    If => if_schema: Schema,
    Then => then_schema: Schema,
    Else => else_schema: Schema,
    AllOf => all_of: Schemas,
    AnyOf => any_of: Schemas,
    OneOf => one_of: Schemas,
    Not => not: Schema,
    UnevaluatedItems => unevaluated_items: Schema,
    UnevaluatedProperties => unevaluated_properties: Schema,
    Type => instance_type: Type,
    Const => const_value: Json,
    Enum => enum_values: Values,
    MultipleOf => multiple_of: Number,
    Maximum => maximum: Number,
    ExclusiveMaximum => exclusive_maximum: Number,
    Minimum => minimum: Number,
    ExclusiveMinimum => exclusive_minimum: Number,
    MaxLength => max_length: Number,
    MinLength => min_length: Number,
    Pattern => pattern: Str,
    MaxItems => max_items: Number,
    MinItems => min_items: Number,
    UniqueItems => unique_items: Bool,
    MaxContains => max_contains: Number,
    MinContains => min_contains: Number,
    MaxProperties => max_properties: Number,
    MinProperties => min_properties: Number,
    Required => required: Strings,
    DependentRequired => dependent_required: StringLists,
    Title => title: Str,
    Description => description: Str,
    Default => default: Json,
    Deprecated => deprecated: Bool,
    ReadOnly => read_only: Bool,
    WriteOnly => write_only: Bool,
    Examples => examples: Values,
    Format => format: Str,
    ContentEncoding => content_encoding: Str,
    ContentMediaType => content_media_type: Str,
    ContentSchema => content_schema: Schema,
    Definitions => definitions: Props,
    Dependencies => dependencies: JsonMap,
    AdditionalItems => additional_items: Schema,
    RecursiveRef => recursive_reference: Str,
    RecursiveAnchor => recursive_anchor: Bool,
    Nullable => nullable: Bool,
    Example => example: Json,
    PropertyOrdering => property_ordering: Strings,
}

/// The order typed keywords are written in: identity, references, annotations, then the
/// validation keywords grouped by the instance type they apply to, then applicators and
/// definitions. Every modelled keyword appears once (checked by a test).
const WRITE_ORDER: [Keyword; 65] = {
    use Keyword as K;
    [
        K::Schema,
        K::Id,
        K::Anchor,
        K::DynamicAnchor,
        K::RecursiveAnchor,
        K::Vocabulary,
        K::Comment,
        K::Ref,
        K::DynamicRef,
        K::RecursiveRef,
        K::Title,
        K::Description,
        K::Type,
        K::Nullable,
        K::Format,
        K::ContentEncoding,
        K::ContentMediaType,
        K::ContentSchema,
        K::Const,
        K::Enum,
        K::Default,
        K::Examples,
        K::Example,
        K::Deprecated,
        K::ReadOnly,
        K::WriteOnly,
        K::MultipleOf,
        K::Minimum,
        K::ExclusiveMinimum,
        K::Maximum,
        K::ExclusiveMaximum,
        K::MinLength,
        K::MaxLength,
        K::Pattern,
        K::Properties,
        K::PatternProperties,
        K::AdditionalProperties,
        K::PropertyNames,
        K::Required,
        K::DependentRequired,
        K::DependentSchemas,
        K::Dependencies,
        K::MinProperties,
        K::MaxProperties,
        K::UnevaluatedProperties,
        K::PropertyOrdering,
        K::PrefixItems,
        K::Items,
        K::AdditionalItems,
        K::Contains,
        K::MinContains,
        K::MaxContains,
        K::MinItems,
        K::MaxItems,
        K::UniqueItems,
        K::UnevaluatedItems,
        K::AllOf,
        K::AnyOf,
        K::OneOf,
        K::Not,
        K::If,
        K::Then,
        K::Else,
        K::Defs,
        K::Definitions,
    ]
};

const _: () = assert!(WRITE_ORDER.len() == Keyword::ALL.len());

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

    fn to_map(&self) -> Map<String, JsonValue> {
        let mut map = Map::new();
        self.for_each(|key, slot| {
            map.insert(key.to_owned(), slot.to_value());
        });
        map
    }

    /// Visits what is written: the set typed fields in [`WRITE_ORDER`], then the `extra`
    /// members a set typed field does not shadow.
    fn for_each<'s>(&'s self, mut f: impl FnMut(&'s str, SlotRef<'s>)) {
        for kw in WRITE_ORDER {
            if let Some(slot) = self.slot(kw) {
                f(kw.as_str(), slot);
            }
        }
        for (key, value) in &self.extra {
            if self.slot(Keyword::from_key(key)).is_none() {
                f(key, SlotRef::Json(value));
            }
        }
    }

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

impl SlotMut<'_> {
    fn clear(self) {
        match self {
            SlotMut::Str(f) => *f = None,
            SlotMut::Number(f) => *f = None,
            SlotMut::Bool(f) => *f = None,
            SlotMut::Schema(f) => *f = None,
            SlotMut::Items(f) => *f = None,
            SlotMut::Schemas(f) => *f = None,
            SlotMut::Props(f) => *f = None,
            SlotMut::Type(f) => *f = None,
            SlotMut::Strings(f) => *f = None,
            SlotMut::Json(f) => *f = None,
            SlotMut::Values(f) => *f = None,
            SlotMut::BoolMap(f) => *f = None,
            SlotMut::StringLists(f) => *f = None,
            SlotMut::JsonMap(f) => *f = None,
        }
    }

    /// Sets the field when `value` has its shape; otherwise gives `value` back untouched.
    fn set_json(self, value: JsonValue) -> Result<(), JsonValue> {
        use JsonValue as J;
        let is_schema = |v: &J| matches!(v, J::Bool(_) | J::Object(_));
        let is_str = |v: &J| v.is_string();
        match (self, value) {
            (SlotMut::Str(f), J::String(s)) => *f = Some(s),
            (SlotMut::Number(f), J::Number(n)) => *f = Some(n),
            (SlotMut::Bool(f), J::Bool(b)) => *f = Some(b),
            (SlotMut::Json(f), v) => *f = Some(v),
            (SlotMut::Schema(f), v) if is_schema(&v) => *f = Some(schema_from(v)),
            (SlotMut::Items(f), v) if is_schema(&v) => *f = Some(Items::Schema(schema_from(v))),
            (SlotMut::Items(f), J::Array(list)) if list.iter().all(is_schema) => {
                *f = Some(Items::Tuple(list.into_iter().map(schema_from).collect()));
            }
            (SlotMut::Schemas(f), J::Array(list)) if list.iter().all(is_schema) => {
                *f = Some(list.into_iter().map(schema_from).collect());
            }
            (SlotMut::Props(f), J::Object(map)) if map.values().all(is_schema) => {
                *f = Some(map.into_iter().map(|(k, v)| (k, schema_from(v))).collect());
            }
            (SlotMut::Type(f), v) => match SchemaType::deserialize(&v) {
                Ok(t) => *f = Some(t),
                Err(_) => return Err(v),
            },
            (SlotMut::Strings(f), J::Array(list)) if list.iter().all(is_str) => {
                *f = Some(list.into_iter().filter_map(into_string).collect());
            }
            (SlotMut::Values(f), J::Array(list)) => *f = Some(list),
            (SlotMut::BoolMap(f), J::Object(map)) if map.values().all(J::is_boolean) => {
                *f = Some(
                    map.into_iter().filter_map(|(k, v)| v.as_bool().map(|b| (k, b))).collect(),
                );
            }
            (SlotMut::StringLists(f), J::Object(map))
                if map.values().all(|v| v.as_array().is_some_and(|l| l.iter().all(is_str))) =>
            {
                *f = Some(
                    map.into_iter()
                        .map(|(k, v)| {
                            let list = match v {
                                J::Array(list) => {
                                    list.into_iter().filter_map(into_string).collect()
                                }
                                _ => Vec::new(),
                            };
                            (k, list)
                        })
                        .collect(),
                );
            }
            (SlotMut::JsonMap(f), J::Object(map)) => *f = Some(map.into_iter().collect()),
            (_, v) => return Err(v),
        }
        Ok(())
    }
}

/// A schema from a value already known to be an object or a boolean.
fn schema_from(value: JsonValue) -> JsonSchema {
    JsonSchema::from_json(value).unwrap_or(JsonSchema::Bool(true))
}

fn into_string(value: JsonValue) -> Option<String> {
    match value {
        JsonValue::String(s) => Some(s),
        _ => None,
    }
}

impl SlotRef<'_> {
    fn to_value(self) -> JsonValue {
        fn schemas<'x>(list: impl Iterator<Item = &'x JsonSchema>) -> JsonValue {
            JsonValue::Array(list.map(JsonSchema::to_value).collect())
        }
        fn strings(list: &[String]) -> JsonValue {
            JsonValue::Array(list.iter().cloned().map(JsonValue::String).collect())
        }
        match self {
            SlotRef::Str(s) => JsonValue::String(s.clone()),
            SlotRef::Number(n) => JsonValue::Number(n.clone()),
            SlotRef::Bool(b) => JsonValue::Bool(*b),
            SlotRef::Schema(s) => s.to_value(),
            SlotRef::Items(Items::Schema(s)) => s.to_value(),
            SlotRef::Items(Items::Tuple(list)) | SlotRef::Schemas(list) => schemas(list.iter()),
            SlotRef::Props(map) => {
                JsonValue::Object(map.iter().map(|(k, s)| (k.clone(), s.to_value())).collect())
            }
            SlotRef::Type(SchemaType::Single(t)) => type_name(*t),
            SlotRef::Type(SchemaType::Multiple(list)) => {
                JsonValue::Array(list.iter().copied().map(type_name).collect())
            }
            SlotRef::Strings(list) => strings(list),
            SlotRef::Json(v) => v.clone(),
            SlotRef::Values(list) => JsonValue::Array(list.clone()),
            SlotRef::BoolMap(map) => JsonValue::Object(
                map.iter().map(|(k, b)| (k.clone(), JsonValue::Bool(*b))).collect(),
            ),
            SlotRef::StringLists(map) => {
                JsonValue::Object(map.iter().map(|(k, l)| (k.clone(), strings(l))).collect())
            }
            SlotRef::JsonMap(map) => {
                JsonValue::Object(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            }
        }
    }
}

fn type_name(t: InstanceType) -> JsonValue {
    JsonValue::String(t.as_str().to_owned())
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

impl fmt::Debug for SlotRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SlotRef::Str(v) => v.fmt(f),
            SlotRef::Number(v) => v.fmt(f),
            SlotRef::Bool(v) => v.fmt(f),
            SlotRef::Schema(v) => v.fmt(f),
            SlotRef::Items(v) => v.fmt(f),
            SlotRef::Schemas(v) => v.fmt(f),
            SlotRef::Props(v) => v.fmt(f),
            SlotRef::Type(v) => v.fmt(f),
            SlotRef::Strings(v) => v.fmt(f),
            SlotRef::Json(v) => v.fmt(f),
            SlotRef::Values(v) => v.fmt(f),
            SlotRef::BoolMap(v) => v.fmt(f),
            SlotRef::StringLists(v) => v.fmt(f),
            SlotRef::JsonMap(v) => v.fmt(f),
        }
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

// ---------------------------------------------------------------------------------------------
// IR → owned
// ---------------------------------------------------------------------------------------------

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
pub(crate) fn json_to_value(json: &Json<'_>) -> JsonValue {
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

// ---------------------------------------------------------------------------------------------
// CanonicalTool
// ---------------------------------------------------------------------------------------------

/// An owned tool in the crate's canonical form: the fields formats share, typed, plus every
/// other envelope member of the source kept verbatim in [`CanonicalTool::source_meta`].
///
/// Nothing is fabricated: a field is set only when the source stated it (no `title` taken from
/// annotations, no default hints). Serde uses the Rust field names; unset fields are omitted.
///
/// The model's rules: [`CanonicalTool::validate`] (MCP's name rule, an input schema whose root
/// is an object), tags normalised ([`CanonicalTool::normalize_tags`]), and `namespace:name` ids
/// ([`CanonicalTool::id`], [`crate::ToolId`]). `docs/canonical.md` lists them with examples.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CanonicalTool {
    /// A namespace grouping tools (a server or toolkit name); see [`CanonicalTool::id`]. It
    /// may not hold `:`, which separates it from the name in the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The tool name the model calls.
    pub name: String,
    /// A human-readable display name (MCP `title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool's version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the tool does, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A category for catalogs and UIs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Tags for catalogs and search: trimmed, lower-case, without empties or duplicates, in
    /// first-occurrence order. Deserialising and [`CanonicalTool::with_tags`] /
    /// [`CanonicalTool::add_tag`] normalise them; after writing the field directly, call
    /// [`CanonicalTool::normalize_tags`].
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::model::deserialize_tags"
    )]
    pub tags: Vec<String>,
    /// The arguments schema (MCP `inputSchema`, OpenAI `parameters`, Anthropic `input_schema`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<JsonSchema>,
    /// The result schema (MCP `outputSchema`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<JsonSchema>,
    /// Behaviour hints (MCP `annotations`: `readOnlyHint`, `destructiveHint`, …), verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<JsonValue>,
    /// How long a call may take, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Authorization scopes a caller needs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_scopes: Vec<String>,
    /// OpenAI / Anthropic `strict`, when the source stated it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// The format the tool was read from (`mcp`, `openai`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_format: Option<String>,
    /// Every envelope member of the source tool without a typed field here, verbatim and in
    /// source order (MCP `_meta`, `icons`, `execution`; Anthropic `cache_control`; the flat
    /// OpenAI Responses tool's `type`; members beside `function` in an OpenAI Chat wrapper; …). A provider built-in tool the crate keeps opaque (OpenAI
    /// `web_search`, Anthropic server tools) has its whole source object under `"opaque"`.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub source_meta: IndexMap<String, JsonValue>,
}

/// An owned [`CanonicalTool`] from an IR tool read from `source_format`.
///
/// The typed fields come from the IR's (name, description, schemas, `strict`). Of the
/// metadata members (roles [`Role::Meta`] and [`Role::Outer`]), an MCP string `title` becomes
/// [`CanonicalTool::title`] and a non-null MCP `annotations` [`CanonicalTool::annotations`];
/// every other one goes to [`CanonicalTool::source_meta`] verbatim, in source order. An opaque
/// tool keeps its whole source object under `source_meta["opaque"]`.
pub(crate) fn tool_from_ir(tool: &ir::Tool<'_>, source_format: &str) -> CanonicalTool {
    let mut out = CanonicalTool {
        name: tool.name.to_owned(),
        description: tool.description.map(str::to_owned),
        input_schema: tool.input.as_ref().map(ir::Schema::deep_copy),
        output_schema: tool.output.as_ref().map(ir::Schema::deep_copy),
        strict: tool.strict,
        source_format: Some(source_format.to_owned()),
        ..CanonicalTool::default()
    };
    if let Some(raw) = &tool.opaque {
        out.source_meta.insert("opaque".to_owned(), json_to_value(raw));
    }
    let mcp = source_format == "mcp";
    for member in tool.members.iter().filter(|m| matches!(m.role, Role::Meta | Role::Outer)) {
        match (member.key, member.value) {
            ("title", Json::String(s)) if mcp && out.title.is_none() => {
                out.title = Some(s.to_owned());
            }
            ("annotations", v) if mcp && v != Json::Null && out.annotations.is_none() => {
                out.annotations = Some(json_to_value(&v));
            }
            (key, v) => {
                out.source_meta.entry(key.to_owned()).or_insert_with(|| json_to_value(&v));
            }
        }
    }
    out
}

/// Writes `tools` as an MCP catalog, `{"tools":[…]}`: per tool `name`, `title`,
/// `description`, `inputSchema` (`{"type":"object","properties":{}}` when there is none),
/// `outputSchema`, `annotations`, then, for a tool read from MCP, its `source_meta` members
/// (a member named like one already written is skipped).
pub(crate) fn write_mcp_tools(tools: &[CanonicalTool], out: &mut Vec<u8>) {
    let start = out.len();
    // Serialising owned values into a `Vec` cannot fail (no I/O, string keys, finite numbers);
    // should it ever, nothing half-written is left behind.
    if serde_json::to_writer(&mut *out, &McpCatalog(tools)).is_err() {
        out.truncate(start);
    }
}

/// Reports what [`write_mcp_tools`] leaves out of `tool` (the `index`-th written): every
/// field the MCP form has no member for, and the `source_meta` of a tool read from another
/// format, one warning each.
pub(crate) fn report_unwritten(
    tool: &CanonicalTool,
    index: usize,
    to: &str,
    report: &mut crate::report::Report,
) {
    let mut fields: Vec<(String, &str)> = Vec::new();
    let set = |present: bool, field: &'static str, fields: &mut Vec<(String, &str)>| {
        if present {
            fields.push((format!("/{field}"), field));
        }
    };
    set(tool.namespace.as_deref().is_some_and(|n| !n.is_empty()), "namespace", &mut fields);
    set(tool.version.is_some(), "version", &mut fields);
    set(tool.category.is_some(), "category", &mut fields);
    set(!tool.tags.is_empty(), "tags", &mut fields);
    set(tool.timeout_ms.is_some(), "timeout_ms", &mut fields);
    set(!tool.required_scopes.is_empty(), "required_scopes", &mut fields);
    set(tool.strict.is_some(), "strict", &mut fields);
    if tool.source_format.as_deref() != Some("mcp") {
        for key in tool.source_meta.keys() {
            let mut pointer = String::from("/source_meta");
            crate::pointer::write_seg(&mut pointer, crate::pointer::Seg::Key(key));
            fields.push((pointer, key));
        }
    }
    for (pointer, field) in fields {
        report.push(crate::report::ReportEntry {
            tool: tool.name.clone(),
            severity: crate::report::Severity::Warning,
            code: crate::report::Code::MetadataDropped,
            feature: field.to_owned(),
            message: format!(
                "`{field}` has no place in the MCP form owned tools are written through; dropped"
            ),
            pointer,
            from: "canonical".to_owned(),
            to: to.to_owned(),
            // After the conversion's own entries, tool by tool.
            order: (u32::MAX, u32::try_from(index).unwrap_or(u32::MAX), 0),
        });
    }
}

struct McpCatalog<'t>(&'t [CanonicalTool]);

struct McpTool<'t>(&'t CanonicalTool);

impl Serialize for McpCatalog<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        let tools: Vec<McpTool<'_>> = self.0.iter().map(McpTool).collect();
        map.serialize_entry("tools", &tools)?;
        map.end()
    }
}

impl Serialize for McpTool<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let mut map = serializer.serialize_map(None)?;
        let mut written: [&str; 6] = ["name", "inputSchema", "", "", "", ""];
        map.serialize_entry("name", &t.name)?;
        if let Some(title) = &t.title {
            map.serialize_entry("title", title)?;
            written[2] = "title";
        }
        if let Some(description) = &t.description {
            map.serialize_entry("description", description)?;
            written[3] = "description";
        }
        match &t.input_schema {
            Some(schema) => map.serialize_entry("inputSchema", schema)?,
            None => map.serialize_entry(
                "inputSchema",
                &serde_json::json!({"type": "object", "properties": {}}),
            )?,
        }
        if let Some(schema) = &t.output_schema {
            map.serialize_entry("outputSchema", schema)?;
            written[4] = "outputSchema";
        }
        if let Some(annotations) = &t.annotations {
            map.serialize_entry("annotations", annotations)?;
            written[5] = "annotations";
        }
        if t.source_format.as_deref() == Some("mcp") {
            for (key, value) in &t.source_meta {
                if !written.contains(&key.as_str()) {
                    map.serialize_entry(key, value)?;
                }
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use bumpalo::Bump;
    use serde_json::{Value, json};

    use super::*;
    use crate::adapter::Adapter;
    use crate::formats::{Anthropic, Mcp, OpenAi};
    use crate::ir::Tool;
    use crate::lower::Lowerer;
    use crate::options::Limits;
    use crate::parse::Parser;
    use crate::pointer::Path;

    /// Lowers `src` as one tool of `adapter` and hands the IR to `f`.
    fn with_tool<R>(adapter: &dyn Adapter, src: &str, f: impl FnOnce(&Tool<'_>) -> R) -> R {
        let arena = Bump::new();
        let limits = Limits::default();
        let mut parser = Parser::default();
        let mut scratch = Vec::new();
        let doc = parser.parse(src.as_bytes(), usize::MAX).expect("valid JSON");
        let mut lw =
            Lowerer::new(&doc, src.as_bytes(), &arena, &limits, adapter.name(), &mut scratch);
        let tool = adapter.lower_tool(&mut lw, 0, &Path::ROOT).expect("lowers");
        f(&tool)
    }

    fn mcp_tool(schema: &Value) -> String {
        json!({"name": "t", "inputSchema": schema}).to_string()
    }

    /// The input schema of `schema` wrapped in an MCP tool, lowered, deep-copied.
    fn deep_copy_of(schema: &Value) -> JsonSchema {
        with_tool(&Mcp, &mcp_tool(schema), |t| t.input.expect("input schema").deep_copy())
    }

    fn mcp_round_trip(schema: &JsonSchema) -> Value {
        let bytes = serde_json::to_vec(schema).expect("serialises");
        let tool = format!(r#"{{"name":"t","inputSchema":{}}}"#, String::from_utf8_lossy(&bytes));
        let out =
            crate::Registry::default().convert(tool.as_bytes(), "mcp", "mcp").expect("converts");
        let out: Value = serde_json::from_slice(out.output()).expect("output is JSON");
        out["inputSchema"].clone()
    }

    #[test]
    fn write_order_has_every_keyword_once() {
        for kw in Keyword::ALL {
            assert_eq!(WRITE_ORDER.iter().filter(|k| **k == kw).count(), 1, "{kw}");
        }
    }

    /// A value of the shape each typed field takes.
    fn sample(kw: Keyword) -> Value {
        let mut o = SchemaObject::default();
        match o.slot_mut(kw).expect("modelled") {
            SlotMut::Str(_) => json!("s"),
            SlotMut::Number(_) => json!(2.5),
            SlotMut::Bool(_) => json!(true),
            SlotMut::Schema(_) => json!({"type": "string"}),
            SlotMut::Items(_) => json!([{"type": "string"}, false]),
            SlotMut::Schemas(_) => json!([true, {"minimum": 1}]),
            SlotMut::Props(_) => json!({"z": true, "a": {"type": "null"}}),
            SlotMut::Type(_) => json!(["string", "null"]),
            SlotMut::Strings(_) => json!(["b", "a"]),
            SlotMut::Json(_) => json!(null),
            SlotMut::Values(_) => json!([1, "x", null]),
            SlotMut::BoolMap(_) => json!({"https://x": true}),
            SlotMut::StringLists(_) => json!({"a": ["b"]}),
            SlotMut::JsonMap(_) => json!({"a": ["b"], "c": {"type": "string"}}),
        }
    }

    #[test]
    fn every_keyword_has_a_typed_field_and_round_trips() {
        for kw in Keyword::ALL {
            let value = sample(kw);
            let mut o = SchemaObject::default();
            o.insert(kw.as_str().to_owned(), value.clone());
            assert!(o.extra.is_empty(), "{kw} landed in extra");
            assert!(o.slot(kw).is_some(), "{kw} not set");
            let expected = json!({ kw.as_str(): value });
            assert_eq!(o.to_value(), expected, "{kw}");
            assert_eq!(serde_json::to_value(&o).expect("serialises"), expected, "{kw}");
            // …and the same through the IR.
            assert_eq!(deep_copy_of(&expected).to_value(), expected, "{kw} via the IR");
        }
    }

    #[test]
    fn wrong_shapes_go_to_extra_and_last_insert_wins() {
        let mut o = SchemaObject::default();
        o.insert("minimum".into(), json!(1));
        o.insert("minimum".into(), json!("one"));
        assert_eq!(o.minimum, None);
        assert_eq!(o.extra["minimum"], "one");
        o.insert("minimum".into(), json!(2));
        assert_eq!(o.minimum, Some(2.into()));
        assert!(o.extra.is_empty());
        // A typed field shadows an extra member of the same name when writing.
        o.extra.insert("minimum".into(), json!(true));
        assert_eq!(o.to_value(), json!({"minimum": 2}));
        assert_eq!(serde_json::to_string(&o).expect("serialises"), r#"{"minimum":2}"#);
    }

    #[test]
    fn deep_copy_keeps_value_json_keywords_in_extra() {
        let schema = json!({
            "type": "dict",
            "properties": {
                "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
                "t": {"items": [1, 2]}
            },
            "x-vendor": {"k": [1, 2.5]}
        });
        with_tool(&Mcp, &mcp_tool(&schema), |tool| {
            let input = tool.input.expect("input");
            // The IR kept these as `Value::Json`.
            assert!(matches!(input.get(Keyword::Type).map(|e| e.value), Some(ir::Value::Json(_))));
            let copy = input.deep_copy();
            let o = copy.as_object().expect("object");
            assert_eq!(o.instance_type, None);
            assert_eq!(o.extra["type"], "dict");
            assert_eq!(o.extra["x-vendor"], json!({"k": [1, 2.5]}));
            let n = o.properties.as_ref().expect("properties")["n"].as_object().expect("object");
            assert_eq!(n.exclusive_minimum, None);
            assert_eq!(n.minimum, Some(0.into()));
            assert_eq!(n.extra["exclusiveMinimum"], true);
            assert_eq!(copy.to_value(), schema);
            assert_eq!(mcp_round_trip(&copy), schema);
        });
    }

    #[test]
    fn deep_copy_lowers_back_to_the_same_schema() {
        let fixtures = [
            json!(true),
            json!(false),
            json!({}),
            json!({"type": "object", "properties": {}, "required": []}),
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "b": {"type": ["string", "null"], "maxLength": 10, "pattern": "^[a-z]+$"},
                    "a": {"type": "array", "items": [{"type": "integer"}, true], "additionalItems": false},
                    "c": {"$ref": "#/definitions/c", "description": "see c"},
                    "d": {"enum": ["x", 1, null], "default": null, "const": null},
                    "e": {"type": "number", "multipleOf": 0.01, "minimum": 1.0e-7,
                          "maximum": 9007199254740993_u64}
                },
                "required": ["b"],
                "additionalProperties": false,
                "definitions": {"c": {"type": "string", "format": "date-time"}},
                "dependencies": {"a": ["b"], "b": {"required": ["c"]}}
            }),
            json!({
                "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
                "anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}],
                "if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["v"]}, "else": false,
                "prefixItems": [{"type": "string"}], "items": {"type": "number"},
                "unevaluatedProperties": false, "patternProperties": {"^x-": true},
                "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {"required": ["c"]}},
                "nullable": true, "example": {"a": 1}, "x-order": 3,
                "propertyOrdering": ["b", "a"], "$vocabulary": {"https://v": true}
            }),
        ];
        for schema in fixtures {
            let copy = deep_copy_of(&schema);
            assert_eq!(copy.to_value(), schema);
            assert_eq!(mcp_round_trip(&copy), schema, "{schema}");
            let again: JsonSchema = serde_json::from_value(schema.clone()).expect("deserialises");
            assert_eq!(again, copy);
        }
    }

    #[test]
    fn numbers_serde_json_cannot_hold_are_kept_as_text() {
        let src = r#"{"name":"t","inputSchema":{"minimum":-0,"multipleOf":1.0e-7,
            "maximum":9007199254740993}}"#;
        with_tool(&Mcp, src, |t| {
            let copy = t.input.expect("input").deep_copy();
            let o = copy.as_object().expect("object");
            assert_eq!(o.multiple_of.as_ref().and_then(Number::as_f64), Some(1e-7));
            assert_eq!(o.minimum.as_ref().and_then(Number::as_f64), Some(0.0));
            assert_eq!(o.maximum.as_ref().and_then(Number::as_u64), Some(9007199254740993));
            assert_eq!(
                copy.to_value().to_string(),
                r#"{"multipleOf":1e-7,"minimum":-0.0,"maximum":9007199254740993}"#
            );
        });
        // The parser rejects `1e400`, but an IR built otherwise may hold it.
        let big = [Json::Number("1e400")];
        let entries = [
            ir::Entry { keyword: Keyword::Maximum, at: 0, value: ir::Value::Number("1e400") },
            ir::Entry {
                keyword: Keyword::Default,
                at: 0,
                value: ir::Value::Json(Json::Array(&big)),
            },
        ];
        let schema = ir::Schema { keywords: &entries, ..ir::Schema::bool(true, 0) };
        let schema = ir::Schema { boolean: None, ..schema };
        let copy = schema.deep_copy();
        let o = copy.as_object().expect("object");
        assert_eq!(o.maximum, None);
        assert_eq!(o.extra["maximum"], "1e400");
        assert_eq!(o.default, Some(json!(["1e400"])));
    }

    const MCP_CATALOG: &str = r#"{"tools":[{"name":"get_weather","title":"Weather",
        "description":"Gets it","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}},
        "outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
        "_meta":{"k":1},"icons":[{"src":"https://i"}],"execution":{"taskSupport":"optional"}}]}"#;

    #[test]
    fn tool_from_ir_fills_typed_fields_and_keeps_the_rest() {
        let src = r#"{"name":"get_weather","title":"Weather","description":"Gets it",
            "inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
            "_meta":{"k":1.50},"icons":[]}"#;
        let tool = with_tool(&Mcp, src, |t| tool_from_ir(t, "mcp"));
        assert_eq!(tool.name, "get_weather");
        assert_eq!(tool.title.as_deref(), Some("Weather"));
        assert_eq!(tool.description.as_deref(), Some("Gets it"));
        assert_eq!(tool.annotations, Some(json!({"readOnlyHint": true})));
        assert_eq!(tool.input_schema, Some(deep_copy_of(&json!({"type": "object"}))));
        assert_eq!(tool.output_schema, None);
        assert_eq!(tool.source_format.as_deref(), Some("mcp"));
        let keys: Vec<&str> = tool.source_meta.keys().map(String::as_str).collect();
        assert_eq!(keys, ["_meta", "icons"]);
        assert_eq!(tool.source_meta["_meta"], json!({"k": 1.5}));
        // Nothing fabricated.
        assert_eq!((tool.namespace, tool.version, tool.timeout_ms), (None, None, None));
        assert!(tool.tags.is_empty() && tool.required_scopes.is_empty());

        // A null `annotations` is not a value: kept verbatim in source_meta.
        let tool =
            with_tool(&Mcp, r#"{"name":"x","annotations":null}"#, |t| tool_from_ir(t, "mcp"));
        assert_eq!(tool.annotations, None);
        assert_eq!(tool.source_meta["annotations"], Value::Null);
        assert_eq!(tool.input_schema, None);
    }

    #[test]
    fn tool_from_ir_other_formats() {
        let src = r#"{"type":"function","function":{"name":"f","title":"not MCP",
            "parameters":{"type":"object"},"strict":true},"x-outer":1}"#;
        let tool = with_tool(&OpenAi, src, |t| tool_from_ir(t, "openai"));
        assert_eq!(tool.strict, Some(true));
        assert_eq!(tool.title, None);
        assert_eq!(tool.source_meta["x-outer"], 1);
        assert_eq!(tool.source_meta["title"], "not MCP");
        assert_eq!(tool.source_format.as_deref(), Some("openai"));

        let src = r#"{"type":"web_search_20250305","name":"web_search","max_uses":5}"#;
        let tool = with_tool(&Anthropic, src, |t| tool_from_ir(t, "anthropic"));
        assert_eq!(tool.name, "web_search");
        assert_eq!(tool.source_meta["opaque"], serde_json::from_str::<Value>(src).expect("json"));
    }

    #[test]
    fn write_mcp_tools_round_trips_an_mcp_catalog() {
        let source: Value = serde_json::from_str(MCP_CATALOG).expect("json");
        let tool_src = source["tools"][0].to_string();
        let tool = with_tool(&Mcp, &tool_src, |t| tool_from_ir(t, "mcp"));
        let mut out = b"prefix".to_vec();
        write_mcp_tools(std::slice::from_ref(&tool), &mut out);
        let written: Value = serde_json::from_slice(&out[6..]).expect("JSON");
        assert_eq!(written, source);
        // The crate reads what it wrote.
        let again = crate::Registry::default().convert(&out[6..], "mcp", "mcp").expect("reads");
        assert_eq!(serde_json::from_slice::<Value>(again.output()).expect("JSON"), source);
    }

    #[test]
    fn write_mcp_tools_defaults_and_foreign_meta() {
        let mut tool = CanonicalTool::new("bare");
        tool.source_meta.insert("cache_control".into(), json!({"type": "ephemeral"}));
        tool.source_format = Some("anthropic".into());
        let mut mcp = CanonicalTool::new("m");
        mcp.source_format = Some("mcp".into());
        mcp.source_meta.insert("name".into(), json!("shadowed"));
        mcp.source_meta.insert("title".into(), json!(7));
        let mut out = Vec::new();
        write_mcp_tools(&[tool, mcp], &mut out);
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            r#"{"tools":[{"name":"bare","inputSchema":{"type":"object","properties":{}}},{"name":"m","inputSchema":{"type":"object","properties":{}},"title":7}]}"#
        );
    }
}
