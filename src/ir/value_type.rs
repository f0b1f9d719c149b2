//! What each keyword's value must be, as data: the one table lowering checks a value against
//! ([`Keyword::value_type`]), with the words an error says of it.
//!
//! The table is JSON Schema 2020-12's meta-schema, which the providers validate tool schemas
//! against, widened only where this crate reads an older dialect on purpose: draft-04 and
//! OpenAPI 3.0's boolean `exclusiveMinimum` / `exclusiveMaximum`, draft-07's tuple `items` and
//! `dependencies`, and `type` names outside JSON Schema's (BFCL's `"dict"`), which a dialect
//! pass rewrites. A value outside its type is an error with its pointer, never carried through:
//! - OpenAI validates `parameters` against the meta-schema ("Invalid schema for function
//!   '…': [] is not of type 'object', 'boolean'.", FoundationAgents/OpenManus#1162,
//!   2025-06-11; read 2026-11-28);
//! - Anthropic too ("tools.118.custom.input_schema: JSON schema is invalid. It must match JSON
//!   Schema draft 2020-12", anthropics/claude-code#7365, 2025-09-09; read 2026-11-28);
//! - Gemini's `Schema` is a protobuf message whose fields are typed (`ref` a string,
//!   `minLength` an int64: <https://ai.google.dev/api/caching#Schema>, read 2026-11-28).

use super::keyword::Keyword;

/// What a keyword's value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// A schema: an object or a boolean (`not`, `additionalProperties`, …).
    Schema,
    /// A schema or, as draft-07's tuple form, a non-empty array of schemas (`items`).
    SchemaOrSchemas,
    /// A non-empty array of schemas (`anyOf`, `prefixItems`, …).
    Schemas,
    /// An object whose members are schemas (`properties`, `$defs`, …).
    SchemaMap,
    /// A type name or a non-empty array of them (`type`); names outside JSON Schema's are
    /// kept for a dialect pass to read.
    Type,
    /// An array of strings (`required`, `propertyOrdering`).
    Strings,
    /// A string (`$ref`, `pattern`, `title`, …).
    String,
    /// A number (`minimum`, …).
    Number,
    /// A number, or (draft-04, OpenAPI 3.0) a boolean saying the bound beside it is exclusive.
    NumberOrBool,
    /// A non-negative integer (`minLength`, `maxItems`, …).
    Count,
    /// A number greater than 0 (`multipleOf`).
    Positive,
    /// A boolean (`uniqueItems`, `nullable`, …).
    Bool,
    /// An array of any values (`enum`, `examples`).
    Array,
    /// An object whose members are booleans (`$vocabulary`).
    BoolMap,
    /// An object whose members are arrays of strings (`dependentRequired`).
    StringsMap,
    /// An object whose members are schemas or arrays of strings (draft-07 `dependencies`).
    SchemaOrStringsMap,
    /// Any value (`const`, `default`, `example`, a keyword the crate does not model).
    Any,
}

impl ValueType {
    /// What the value must be, in words, for an error (`an array of strings`).
    pub const fn expected(self) -> &'static str {
        match self {
            ValueType::Schema => "a schema (an object or a boolean)",
            ValueType::SchemaOrSchemas => "a schema or a non-empty array of schemas",
            ValueType::Schemas => "a non-empty array of schemas",
            ValueType::SchemaMap => "an object whose members are schemas",
            ValueType::Type => "a type name or a non-empty array of type names",
            ValueType::Strings => "an array of strings",
            ValueType::String => "a string",
            ValueType::Number => "a number",
            ValueType::NumberOrBool => "a number (or, in draft-04, a boolean)",
            ValueType::Count => "a non-negative integer",
            ValueType::Positive => "a number greater than 0",
            ValueType::Bool => "a boolean",
            ValueType::Array => "an array",
            ValueType::BoolMap => "an object whose members are booleans",
            ValueType::StringsMap => "an object whose members are arrays of strings",
            ValueType::SchemaOrStringsMap => {
                "an object whose members are schemas or arrays of strings"
            }
            ValueType::Any => "any value",
        }
    }
}

impl Keyword {
    /// What the keyword's value must be ([`ValueType`]); the table lowering checks.
    pub const fn value_type(self) -> ValueType {
        use Keyword as K;
        use ValueType as V;
        match self {
            K::Contains
            | K::AdditionalProperties
            | K::PropertyNames
            | K::If
            | K::Then
            | K::Else
            | K::Not
            | K::UnevaluatedItems
            | K::UnevaluatedProperties
            | K::ContentSchema
            | K::AdditionalItems => V::Schema,
            K::Items => V::SchemaOrSchemas,
            K::AllOf | K::AnyOf | K::OneOf | K::PrefixItems => V::Schemas,
            K::Properties
            | K::PatternProperties
            | K::Defs
            | K::Definitions
            | K::DependentSchemas => V::SchemaMap,
            K::Type => V::Type,
            K::Required | K::PropertyOrdering => V::Strings,
            K::Schema
            | K::Id
            | K::Ref
            | K::Anchor
            | K::DynamicRef
            | K::DynamicAnchor
            | K::Comment
            | K::Pattern
            | K::Format
            | K::Title
            | K::Description
            | K::ContentEncoding
            | K::ContentMediaType
            | K::RecursiveRef => V::String,
            K::Maximum | K::Minimum => V::Number,
            K::ExclusiveMaximum | K::ExclusiveMinimum => V::NumberOrBool,
            K::MaxLength
            | K::MinLength
            | K::MaxItems
            | K::MinItems
            | K::MaxContains
            | K::MinContains
            | K::MaxProperties
            | K::MinProperties => V::Count,
            K::MultipleOf => V::Positive,
            K::UniqueItems
            | K::Deprecated
            | K::ReadOnly
            | K::WriteOnly
            | K::Nullable
            | K::RecursiveAnchor => V::Bool,
            K::Enum | K::Examples => V::Array,
            K::Vocabulary => V::BoolMap,
            K::DependentRequired => V::StringsMap,
            K::Dependencies => V::SchemaOrStringsMap,
            K::Const | K::Default | K::Example | K::Unknown => V::Any,
        }
    }
}

/// Whether the JSON number `text` is a non-negative integer (`3`, `3.0`, `3e2`, `-0`): JSON
/// Schema counts a number with a zero fractional part as an integer. Read from the text, so a
/// number too large or too precise for a float is judged exactly.
pub(crate) fn is_count(text: &str) -> bool {
    // The common case, digits alone (`0`, `10`), without taking the text apart.
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return !text.is_empty();
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(i) => (digits.get(..i).unwrap_or_default(), digits.get(i + 1..).unwrap_or_default()),
        None => (digits, ""),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let nonzero = |s: &str| s.bytes().any(|b| b != b'0');
    if !nonzero(int) && !nonzero(frac) {
        return true; // zero, whatever its sign or exponent
    }
    if negative {
        return false;
    }
    // The exponent shifts the point: digits past it must all be zero. An exponent too large
    // to read leaves every digit before the point (positive) or after it (negative).
    let shift: i64 = if exponent.is_empty() {
        0
    } else {
        let huge = if exponent.starts_with('-') { i64::MIN } else { i64::MAX };
        exponent.trim_start_matches('+').parse().unwrap_or(huge)
    };
    let point = i64::try_from(int.len()).unwrap_or(i64::MAX).saturating_add(shift);
    let past = usize::try_from(point.max(0)).unwrap_or(usize::MAX);
    int.bytes().chain(frac.bytes()).skip(past).all(|b| b == b'0')
}

/// Whether the JSON number `text` is greater than 0.
pub(crate) fn is_positive(text: &str) -> bool {
    let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
    !text.starts_with('-') && mantissa.bytes().any(|b| b.is_ascii_digit() && b != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_positives_are_read_from_the_text() {
        for yes in ["0", "-0", "3", "3.0", "3e2", "1.5e1", "30e-1", "1e400", "0.0e-5", "12E+1"] {
            assert!(is_count(yes), "{yes}");
        }
        for no in ["-3", "1.5", "3e-1", "-1e400", "0.5", "1.00000000000000000001"] {
            assert!(!is_count(no), "{no}");
        }
        for yes in ["1", "0.5", "1e-400", "2E3"] {
            assert!(is_positive(yes), "{yes}");
        }
        for no in ["0", "-1", "0.0", "-0.5", "0e5"] {
            assert!(!is_positive(no), "{no}");
        }
    }

    #[test]
    fn every_keyword_has_a_value_type_with_words() {
        for kw in Keyword::ALL {
            assert!(!kw.value_type().expected().is_empty(), "{kw}");
        }
    }
}
