//! The typed field of each keyword (a "slot"): the one keyword → field table, the order fields
//! are written in, and reading or writing one field as JSON.
//!
//! The table is a `match` exhaustive over [`Keyword`], so a keyword added to the IR fails the
//! build here until [`SchemaObject`] has a field for it.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{Number, Value as JsonValue};

use super::object::SchemaObject;
use super::schema::{InstanceType, Items, JsonSchema, SchemaType};
use crate::ir::Keyword;

/// A typed field, by what it holds (mutable, possibly unset).
pub(super) enum SlotMut<'s> {
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
pub(super) enum SlotRef<'s> {
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
            pub(super) fn slot_mut(&mut self, kw: Keyword) -> Option<SlotMut<'_>> {
                Some(match kw {
                    $(Keyword::$kw => SlotMut::$slot(&mut self.$field),)*
                    Keyword::Unknown => return None,
                })
            }

            pub(super) fn slot(&self, kw: Keyword) -> Option<SlotRef<'_>> {
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
pub(super) const WRITE_ORDER: [Keyword; 65] = {
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

impl SlotMut<'_> {
    pub(super) fn clear(self) {
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
    pub(super) fn set_json(self, value: JsonValue) -> Result<(), JsonValue> {
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
    pub(super) fn to_value(self) -> JsonValue {
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

impl SchemaObject {
    /// Visits what is written: the set typed fields in [`WRITE_ORDER`], then the `extra`
    /// members a set typed field does not shadow.
    pub(super) fn for_each<'s>(&'s self, mut f: impl FnMut(&'s str, SlotRef<'s>)) {
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
}
