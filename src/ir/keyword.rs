//! Interned JSON Schema keywords.
//!
//! Every keyword the crate models is one `u8` variant, so the IR stores one byte per keyword and
//! passes dispatch on an integer instead of comparing strings. Anything else is kept verbatim as
//! [`Keyword::Unknown`] with its name beside it, so no keyword vanishes unseen.

use super::features::SchemaFeature;
use super::json_type::JsonType;

/// A JSON Schema keyword (2020-12, plus the draft-07 and OpenAPI ones tool catalogs still use).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Keyword {
    // Core vocabulary.
    /// `$schema`
    Schema,
    /// `$id`
    Id,
    /// `$ref`
    Ref,
    /// `$anchor`
    Anchor,
    /// `$dynamicRef`
    DynamicRef,
    /// `$dynamicAnchor`
    DynamicAnchor,
    /// `$vocabulary`
    Vocabulary,
    /// `$comment`
    Comment,
    /// `$defs`
    Defs,
    // Applicators.
    /// `prefixItems`
    PrefixItems,
    /// `items` (a schema; the draft-07 tuple form is [`Keyword::Items`] with a schema list value)
    Items,
    /// `contains`
    Contains,
    /// `additionalProperties`
    AdditionalProperties,
    /// `properties`
    Properties,
    /// `patternProperties`
    PatternProperties,
    /// `dependentSchemas`
    DependentSchemas,
    /// `propertyNames`
    PropertyNames,
    /// `if`
    If,
    /// `then`
    Then,
    /// `else`
    Else,
    /// `allOf`
    AllOf,
    /// `anyOf`
    AnyOf,
    /// `oneOf`
    OneOf,
    /// `not`
    Not,
    /// `unevaluatedItems`
    UnevaluatedItems,
    /// `unevaluatedProperties`
    UnevaluatedProperties,
    // Validation.
    /// `type`
    Type,
    /// `const`
    Const,
    /// `enum`
    Enum,
    /// `multipleOf`
    MultipleOf,
    /// `maximum`
    Maximum,
    /// `exclusiveMaximum`
    ExclusiveMaximum,
    /// `minimum`
    Minimum,
    /// `exclusiveMinimum`
    ExclusiveMinimum,
    /// `maxLength`
    MaxLength,
    /// `minLength`
    MinLength,
    /// `pattern`
    Pattern,
    /// `maxItems`
    MaxItems,
    /// `minItems`
    MinItems,
    /// `uniqueItems`
    UniqueItems,
    /// `maxContains`
    MaxContains,
    /// `minContains`
    MinContains,
    /// `maxProperties`
    MaxProperties,
    /// `minProperties`
    MinProperties,
    /// `required`
    Required,
    /// `dependentRequired`
    DependentRequired,
    // Meta-data and format.
    /// `title`
    Title,
    /// `description`
    Description,
    /// `default`
    Default,
    /// `deprecated`
    Deprecated,
    /// `readOnly`
    ReadOnly,
    /// `writeOnly`
    WriteOnly,
    /// `examples`
    Examples,
    /// `format`
    Format,
    /// `contentEncoding`
    ContentEncoding,
    /// `contentMediaType`
    ContentMediaType,
    /// `contentSchema`
    ContentSchema,
    // Older drafts.
    /// `definitions` (draft-07)
    Definitions,
    /// `dependencies` (draft-07)
    Dependencies,
    /// `additionalItems` (draft-07)
    AdditionalItems,
    /// `$recursiveRef` (2019-09)
    RecursiveRef,
    /// `$recursiveAnchor` (2019-09)
    RecursiveAnchor,
    // OpenAPI 3.0 / Gemini schema object.
    /// `nullable` (OpenAPI 3.0)
    Nullable,
    /// `example` (OpenAPI 3.0)
    Example,
    /// `propertyOrdering` (Gemini)
    PropertyOrdering,
    /// Any other key; the IR keeps its name and raw value.
    Unknown,
}

impl Keyword {
    /// The types a keyword constrains (`None`: every type, e.g. `enum`, `description`).
    pub(crate) const fn applies_to(self) -> Option<&'static [JsonType]> {
        use JsonType as T;
        use Keyword as K;
        Some(match self {
            K::MinLength
            | K::MaxLength
            | K::Pattern
            | K::Format
            | K::ContentEncoding
            | K::ContentMediaType
            | K::ContentSchema => &[T::String],
            K::Minimum | K::Maximum | K::ExclusiveMinimum | K::ExclusiveMaximum | K::MultipleOf => {
                &[T::Number, T::Integer]
            }
            K::Items
            | K::PrefixItems
            | K::AdditionalItems
            | K::MinItems
            | K::MaxItems
            | K::UniqueItems
            | K::Contains
            | K::MinContains
            | K::MaxContains
            | K::UnevaluatedItems => &[T::Array],
            K::Properties
            | K::PatternProperties
            | K::AdditionalProperties
            | K::Required
            | K::MinProperties
            | K::MaxProperties
            | K::PropertyNames
            | K::DependentRequired
            | K::DependentSchemas
            | K::Dependencies
            | K::UnevaluatedProperties
            | K::PropertyOrdering => &[T::Object],
            _ => return None,
        })
    }

    /// Whether the keyword annotates without constraining: dropping or describing it leaves
    /// what the schema accepts unchanged.
    pub const fn is_annotation(self) -> bool {
        use Keyword as K;
        matches!(
            self,
            K::Schema
                | K::Comment
                | K::Title
                | K::Description
                | K::Default
                | K::Examples
                | K::Example
                | K::Deprecated
                | K::ReadOnly
                | K::WriteOnly
                | K::ContentEncoding
                | K::ContentMediaType
                | K::ContentSchema
                | K::PropertyOrdering
                | K::Vocabulary
        )
    }

    /// Every modelled keyword, in declaration order (`Unknown` excluded).
    pub const ALL: [Keyword; 65] = [
        Keyword::Schema,
        Keyword::Id,
        Keyword::Ref,
        Keyword::Anchor,
        Keyword::DynamicRef,
        Keyword::DynamicAnchor,
        Keyword::Vocabulary,
        Keyword::Comment,
        Keyword::Defs,
        Keyword::PrefixItems,
        Keyword::Items,
        Keyword::Contains,
        Keyword::AdditionalProperties,
        Keyword::Properties,
        Keyword::PatternProperties,
        Keyword::DependentSchemas,
        Keyword::PropertyNames,
        Keyword::If,
        Keyword::Then,
        Keyword::Else,
        Keyword::AllOf,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Not,
        Keyword::UnevaluatedItems,
        Keyword::UnevaluatedProperties,
        Keyword::Type,
        Keyword::Const,
        Keyword::Enum,
        Keyword::MultipleOf,
        Keyword::Maximum,
        Keyword::ExclusiveMaximum,
        Keyword::Minimum,
        Keyword::ExclusiveMinimum,
        Keyword::MaxLength,
        Keyword::MinLength,
        Keyword::Pattern,
        Keyword::MaxItems,
        Keyword::MinItems,
        Keyword::UniqueItems,
        Keyword::MaxContains,
        Keyword::MinContains,
        Keyword::MaxProperties,
        Keyword::MinProperties,
        Keyword::Required,
        Keyword::DependentRequired,
        Keyword::Title,
        Keyword::Description,
        Keyword::Default,
        Keyword::Deprecated,
        Keyword::ReadOnly,
        Keyword::WriteOnly,
        Keyword::Examples,
        Keyword::Format,
        Keyword::ContentEncoding,
        Keyword::ContentMediaType,
        Keyword::ContentSchema,
        Keyword::Definitions,
        Keyword::Dependencies,
        Keyword::AdditionalItems,
        Keyword::RecursiveRef,
        Keyword::RecursiveAnchor,
        Keyword::Nullable,
        Keyword::Example,
        Keyword::PropertyOrdering,
    ];

    /// The keyword a policy names (`pattern`; `unknown-keyword` for the keywords the crate
    /// does not model, as the CLI's `--policy` spells them), or `None` for a name that is
    /// neither.
    pub fn from_policy_name(name: &str) -> Option<Keyword> {
        match name {
            "unknown-keyword" => Some(Keyword::Unknown),
            _ => Some(Keyword::from_key(name)).filter(|k| *k != Keyword::Unknown),
        }
    }

    /// Interns a key: one multiply picks the only keyword the key can be (a perfect hash of
    /// its length and three of its bytes), and one comparison with that keyword's name
    /// decides. Unknown keys cost no more than keywords do.
    #[inline]
    pub fn from_key(key: &str) -> Keyword {
        let b = key.as_bytes();
        if b.len() < 2 || b.len() > 21 {
            return Keyword::Unknown;
        }
        let at = slot(b);
        let kw = SLOTS.get(at).copied().unwrap_or(Keyword::Unknown);
        let name = SLOT_NAMES.get(at).copied().unwrap_or_default();
        if crate::scan::same_short(name.as_bytes(), b) { kw } else { Keyword::Unknown }
    }

    /// The keyword as written in a schema (`"<unknown>"` for [`Keyword::Unknown`], whose real
    /// name the IR stores beside it).
    pub const fn as_str(self) -> &'static str {
        match self {
            Keyword::Schema => "$schema",
            Keyword::Id => "$id",
            Keyword::Ref => "$ref",
            Keyword::Anchor => "$anchor",
            Keyword::DynamicRef => "$dynamicRef",
            Keyword::DynamicAnchor => "$dynamicAnchor",
            Keyword::Vocabulary => "$vocabulary",
            Keyword::Comment => "$comment",
            Keyword::Defs => "$defs",
            Keyword::PrefixItems => "prefixItems",
            Keyword::Items => "items",
            Keyword::Contains => "contains",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::Properties => "properties",
            Keyword::PatternProperties => "patternProperties",
            Keyword::DependentSchemas => "dependentSchemas",
            Keyword::PropertyNames => "propertyNames",
            Keyword::If => "if",
            Keyword::Then => "then",
            Keyword::Else => "else",
            Keyword::AllOf => "allOf",
            Keyword::AnyOf => "anyOf",
            Keyword::OneOf => "oneOf",
            Keyword::Not => "not",
            Keyword::UnevaluatedItems => "unevaluatedItems",
            Keyword::UnevaluatedProperties => "unevaluatedProperties",
            Keyword::Type => "type",
            Keyword::Const => "const",
            Keyword::Enum => "enum",
            Keyword::MultipleOf => "multipleOf",
            Keyword::Maximum => "maximum",
            Keyword::ExclusiveMaximum => "exclusiveMaximum",
            Keyword::Minimum => "minimum",
            Keyword::ExclusiveMinimum => "exclusiveMinimum",
            Keyword::MaxLength => "maxLength",
            Keyword::MinLength => "minLength",
            Keyword::Pattern => "pattern",
            Keyword::MaxItems => "maxItems",
            Keyword::MinItems => "minItems",
            Keyword::UniqueItems => "uniqueItems",
            Keyword::MaxContains => "maxContains",
            Keyword::MinContains => "minContains",
            Keyword::MaxProperties => "maxProperties",
            Keyword::MinProperties => "minProperties",
            Keyword::Required => "required",
            Keyword::DependentRequired => "dependentRequired",
            Keyword::Title => "title",
            Keyword::Description => "description",
            Keyword::Default => "default",
            Keyword::Deprecated => "deprecated",
            Keyword::ReadOnly => "readOnly",
            Keyword::WriteOnly => "writeOnly",
            Keyword::Examples => "examples",
            Keyword::Format => "format",
            Keyword::ContentEncoding => "contentEncoding",
            Keyword::ContentMediaType => "contentMediaType",
            Keyword::ContentSchema => "contentSchema",
            Keyword::Definitions => "definitions",
            Keyword::Dependencies => "dependencies",
            Keyword::AdditionalItems => "additionalItems",
            Keyword::RecursiveRef => "$recursiveRef",
            Keyword::RecursiveAnchor => "$recursiveAnchor",
            Keyword::Nullable => "nullable",
            Keyword::Example => "example",
            Keyword::PropertyOrdering => "propertyOrdering",
            Keyword::Unknown => "<unknown>",
        }
    }

    /// The feature bit this keyword sets when present, if it is one a target may lack.
    /// Keywords every target holds (`type`, `properties`, `required`, `description`, `items`)
    /// set none.
    #[inline]
    pub const fn feature(self) -> Option<SchemaFeature> {
        use SchemaFeature as F;
        Some(match self {
            Keyword::Schema => F::Schema,
            Keyword::Id => F::Id,
            Keyword::Ref => F::Ref,
            Keyword::Anchor => F::Anchor,
            Keyword::DynamicRef => F::DynamicRef,
            Keyword::DynamicAnchor => F::DynamicAnchor,
            Keyword::Vocabulary => F::Vocabulary,
            Keyword::Comment => F::Comment,
            Keyword::Defs => F::Defs,
            Keyword::PrefixItems => F::PrefixItems,
            Keyword::Contains => F::Contains,
            Keyword::AdditionalProperties => F::AdditionalProperties,
            Keyword::PatternProperties => F::PatternProperties,
            Keyword::DependentSchemas => F::DependentSchemas,
            Keyword::PropertyNames => F::PropertyNames,
            Keyword::If => F::If,
            Keyword::Then => F::Then,
            Keyword::Else => F::Else,
            Keyword::AllOf => F::AllOf,
            Keyword::AnyOf => F::AnyOf,
            Keyword::OneOf => F::OneOf,
            Keyword::Not => F::Not,
            Keyword::UnevaluatedItems => F::UnevaluatedItems,
            Keyword::UnevaluatedProperties => F::UnevaluatedProperties,
            Keyword::Const => F::Const,
            Keyword::Enum => F::Enum,
            Keyword::MultipleOf => F::MultipleOf,
            Keyword::Maximum => F::Maximum,
            Keyword::ExclusiveMaximum => F::ExclusiveMaximum,
            Keyword::Minimum => F::Minimum,
            Keyword::ExclusiveMinimum => F::ExclusiveMinimum,
            Keyword::MaxLength => F::MaxLength,
            Keyword::MinLength => F::MinLength,
            Keyword::Pattern => F::Pattern,
            Keyword::MaxItems => F::MaxItems,
            Keyword::MinItems => F::MinItems,
            Keyword::UniqueItems => F::UniqueItems,
            Keyword::MaxContains => F::MaxContains,
            Keyword::MinContains => F::MinContains,
            Keyword::MaxProperties => F::MaxProperties,
            Keyword::MinProperties => F::MinProperties,
            Keyword::DependentRequired => F::DependentRequired,
            Keyword::Title => F::Title,
            Keyword::Default => F::Default,
            Keyword::Deprecated => F::Deprecated,
            Keyword::ReadOnly => F::ReadOnly,
            Keyword::WriteOnly => F::WriteOnly,
            Keyword::Examples => F::Examples,
            Keyword::Format => F::Format,
            Keyword::ContentEncoding => F::ContentEncoding,
            Keyword::ContentMediaType => F::ContentMediaType,
            Keyword::ContentSchema => F::ContentSchema,
            Keyword::Definitions => F::Definitions,
            Keyword::Dependencies => F::Dependencies,
            Keyword::AdditionalItems => F::AdditionalItems,
            Keyword::RecursiveRef => F::RecursiveRef,
            Keyword::RecursiveAnchor => F::RecursiveAnchor,
            Keyword::Nullable => F::Nullable,
            Keyword::Example => F::Example,
            Keyword::PropertyOrdering => F::PropertyOrdering,
            Keyword::Unknown => F::UnknownKeyword,
            Keyword::Type
            | Keyword::Items
            | Keyword::Properties
            | Keyword::Required
            | Keyword::Description => return None,
        })
    }
}

/// The slot of a key (two bytes or more) in [`SLOTS`]: a multiplicative hash of its length and
/// three of its bytes. The third byte is the one at 5/8 of the length, found with two shifts
/// (a division by three cost a multiply on the path every key waits on), and far enough along
/// to tell `exclusiveMinimum` from `exclusiveMaximum`. The multiplier was searched for so that
/// the 65 keywords land in distinct slots; `SLOTS` fails to compile if a keyword is added that
/// collides.
#[inline]
#[allow(clippy::indexing_slicing, reason = "callers pass at least two bytes; n/2 + n/8 < n")]
const fn slot(b: &[u8]) -> usize {
    let n = b.len();
    let third = b[(n >> 1) + (n >> 3)] as u32;
    let key = (n as u32) | (b[0] as u32) << 8 | (b[1] as u32) << 16 | third << 24;
    (key.wrapping_mul(0x5db4_9269) >> 24) as usize
}

/// Keyword by [`slot`]; `Unknown` where no keyword lands.
#[allow(clippy::indexing_slicing, reason = "const table build: slots are below 256")]
static SLOTS: [Keyword; 256] = {
    let mut table = [Keyword::Unknown; 256];
    let mut i = 0;
    while i < Keyword::ALL.len() {
        let kw = Keyword::ALL[i];
        let at = slot(kw.as_str().as_bytes());
        assert!(matches!(table[at], Keyword::Unknown), "two keywords share a slot");
        table[at] = kw;
        i += 1;
    }
    table
};

/// The name of the keyword in each [`SLOTS`] slot (empty where none lands): a load, where
/// [`Keyword::as_str`] is a call through a jump table on the hottest path of lowering.
#[allow(clippy::indexing_slicing, reason = "const table build: slots are below 256")]
static SLOT_NAMES: [&str; 256] = {
    let mut names = [""; 256];
    let mut i = 0;
    while i < 256 {
        if !matches!(SLOTS[i], Keyword::Unknown) {
            names[i] = SLOTS[i].as_str();
        }
        i += 1;
    }
    names
};

impl std::fmt::Display for Keyword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_round_trips_through_its_name() {
        for kw in Keyword::ALL {
            assert_eq!(Keyword::from_key(kw.as_str()), kw, "{kw}");
        }
        assert_eq!(Keyword::from_key("x-vendor"), Keyword::Unknown);
        assert_eq!(Keyword::from_key(""), Keyword::Unknown);
    }

    #[test]
    fn keyword_is_one_byte() {
        assert_eq!(std::mem::size_of::<Keyword>(), 1);
    }
}
