//! Schema features and the bitset that records which ones a schema uses.
//!
//! Lowering sets one bit per keyword or construct it meets, bottom-up, so a pass can ask "does
//! this subtree use anything the target lacks?" with one AND instead of a walk. The set has 128
//! bits: 65 features are defined today, more than a `u64` holds.

use std::fmt;

macro_rules! features {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// One JSON Schema keyword or construct that a target may or may not support.
        ///
        /// `Display` prints the keyword as written in a schema (constructs that are not a single
        /// keyword use a short hyphenated name, e.g. `type-array`).
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum SchemaFeature {
            $($(#[$doc])* $variant,)*
        }

        impl SchemaFeature {
            /// Every feature, in a stable order: the 28 of the Go `toolfoundation` library first,
            /// then what JSON Schema 2020-12 and the older drafts add, then constructs.
            pub const ALL: &'static [SchemaFeature] = &[$(SchemaFeature::$variant,)*];

            /// The keyword (or construct name) as printed.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(SchemaFeature::$variant => $name,)*
                }
            }
        }
    };
}

features! {
    /// `$ref`
    Ref => "$ref",
    /// `$defs`
    Defs => "$defs",
    /// `anyOf`
    AnyOf => "anyOf",
    /// `oneOf`
    OneOf => "oneOf",
    /// `allOf`
    AllOf => "allOf",
    /// `not`
    Not => "not",
    /// `pattern`
    Pattern => "pattern",
    /// `format`
    Format => "format",
    /// `additionalProperties`
    AdditionalProperties => "additionalProperties",
    /// `minimum`
    Minimum => "minimum",
    /// `maximum`
    Maximum => "maximum",
    /// `minLength`
    MinLength => "minLength",
    /// `maxLength`
    MaxLength => "maxLength",
    /// `enum`
    Enum => "enum",
    /// `const`
    Const => "const",
    /// `default`
    Default => "default",
    /// `title`
    Title => "title",
    /// `examples`
    Examples => "examples",
    /// `multipleOf`
    MultipleOf => "multipleOf",
    /// `minItems`
    MinItems => "minItems",
    /// `maxItems`
    MaxItems => "maxItems",
    /// `minProperties`
    MinProperties => "minProperties",
    /// `maxProperties`
    MaxProperties => "maxProperties",
    /// `uniqueItems`
    UniqueItems => "uniqueItems",
    /// `nullable` (OpenAPI 3.0)
    Nullable => "nullable",
    /// `deprecated`
    Deprecated => "deprecated",
    /// `readOnly`
    ReadOnly => "readOnly",
    /// `writeOnly`
    WriteOnly => "writeOnly",
    /// `exclusiveMinimum`
    ExclusiveMinimum => "exclusiveMinimum",
    /// `exclusiveMaximum`
    ExclusiveMaximum => "exclusiveMaximum",
    /// `prefixItems`
    PrefixItems => "prefixItems",
    /// `patternProperties`
    PatternProperties => "patternProperties",
    /// `propertyNames`
    PropertyNames => "propertyNames",
    /// `if`
    If => "if",
    /// `then`
    Then => "then",
    /// `else`
    Else => "else",
    /// `dependentRequired`
    DependentRequired => "dependentRequired",
    /// `dependentSchemas`
    DependentSchemas => "dependentSchemas",
    /// `contains`
    Contains => "contains",
    /// `minContains`
    MinContains => "minContains",
    /// `maxContains`
    MaxContains => "maxContains",
    /// `unevaluatedItems`
    UnevaluatedItems => "unevaluatedItems",
    /// `unevaluatedProperties`
    UnevaluatedProperties => "unevaluatedProperties",
    /// `$schema`
    Schema => "$schema",
    /// `$id`
    Id => "$id",
    /// `$comment`
    Comment => "$comment",
    /// `$anchor`
    Anchor => "$anchor",
    /// `$dynamicRef`
    DynamicRef => "$dynamicRef",
    /// `$dynamicAnchor`
    DynamicAnchor => "$dynamicAnchor",
    /// `$vocabulary`
    Vocabulary => "$vocabulary",
    /// `contentEncoding`
    ContentEncoding => "contentEncoding",
    /// `contentMediaType`
    ContentMediaType => "contentMediaType",
    /// `contentSchema`
    ContentSchema => "contentSchema",
    /// `definitions` (draft-07)
    Definitions => "definitions",
    /// `dependencies` (draft-07)
    Dependencies => "dependencies",
    /// `additionalItems` (draft-07)
    AdditionalItems => "additionalItems",
    /// `$recursiveRef` (2019-09)
    RecursiveRef => "$recursiveRef",
    /// `$recursiveAnchor` (2019-09)
    RecursiveAnchor => "$recursiveAnchor",
    /// `example` (OpenAPI 3.0)
    Example => "example",
    /// `propertyOrdering` (Gemini)
    PropertyOrdering => "propertyOrdering",
    /// A keyword the crate does not model (kept verbatim).
    UnknownKeyword => "unknown-keyword",
    /// `type` given as an array, e.g. `["string", "null"]`.
    TypeArray => "type-array",
    /// A boolean schema (`true` / `false`) in place of an object.
    BooleanSchema => "boolean-schema",
    /// Draft-07 tuple validation: `items` given as an array of schemas.
    TupleItems => "tuple-items",
    /// A `type` name JSON Schema does not define (BFCL's `dict`, `float`, `tuple`, `any`, Java
    /// type names), kept verbatim for the dialect pass to read.
    DialectType => "dialect-type",
    /// A node whose `type` admits arrays with no `items` beside it: a shape some providers
    /// refuse (OpenAI: "array schema missing items"; Gemini: "items: missing field").
    ItemlessArray => "array-without-items",
}

impl SchemaFeature {
    /// Finds a feature by its printed name.
    pub fn from_name(name: &str) -> Option<SchemaFeature> {
        Self::ALL.iter().copied().find(|f| f.as_str() == name)
    }

    const fn bit(self) -> u128 {
        1u128 << (self as u8)
    }
}

impl fmt::Display for SchemaFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of [`SchemaFeature`]s as a bitset: union, intersection and membership are an
/// instruction or two each, so feature checks cost nothing on the hot path. Two 64-bit words
/// rather than a `u128`: the same operations, at the alignment of a pointer, so every schema
/// node holding a set is 8 bytes smaller (a `u128` is 16-aligned).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FeatureSet([u64; 2]);

impl FeatureSet {
    /// The empty set.
    pub const EMPTY: FeatureSet = FeatureSet([0; 2]);

    /// Every feature.
    pub const fn all() -> FeatureSet {
        FeatureSet::of(SchemaFeature::ALL)
    }

    /// A set holding the given features.
    #[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
    pub const fn of(features: &[SchemaFeature]) -> FeatureSet {
        let mut set = FeatureSet::EMPTY;
        let mut i = 0;
        while i < features.len() {
            set = set.union(FeatureSet::one(features[i]));
            i += 1;
        }
        set
    }

    /// The set of `feature` alone.
    const fn one(feature: SchemaFeature) -> FeatureSet {
        let bit = feature.bit();
        FeatureSet([bit as u64, (bit >> 64) as u64])
    }

    /// Whether `feature` is in the set.
    #[inline]
    pub const fn contains(self, feature: SchemaFeature) -> bool {
        !self.intersection(FeatureSet::one(feature)).is_empty()
    }

    /// Adds `feature`.
    #[inline]
    pub fn insert(&mut self, feature: SchemaFeature) {
        *self = self.union(FeatureSet::one(feature));
    }

    /// Removes `feature`.
    #[inline]
    pub fn remove(&mut self, feature: SchemaFeature) {
        *self = self.difference(FeatureSet::one(feature));
    }

    /// Features in either set.
    #[inline]
    #[must_use]
    pub const fn union(self, other: FeatureSet) -> FeatureSet {
        let ([a, b], [c, d]) = (self.0, other.0);
        FeatureSet([a | c, b | d])
    }

    /// Features in both sets.
    #[inline]
    #[must_use]
    pub const fn intersection(self, other: FeatureSet) -> FeatureSet {
        let ([a, b], [c, d]) = (self.0, other.0);
        FeatureSet([a & c, b & d])
    }

    /// Features in `self` but not in `other`.
    #[inline]
    #[must_use]
    pub const fn difference(self, other: FeatureSet) -> FeatureSet {
        let ([a, b], [c, d]) = (self.0, other.0);
        FeatureSet([a & !c, b & !d])
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        let [a, b] = self.0;
        a | b == 0
    }

    /// Number of features in the set.
    pub const fn len(self) -> usize {
        let [a, b] = self.0;
        (a.count_ones() + b.count_ones()) as usize
    }

    /// The features in the set, in [`SchemaFeature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = SchemaFeature> {
        SchemaFeature::ALL.iter().copied().filter(move |f| self.contains(*f))
    }
}

impl fmt::Debug for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(SchemaFeature::as_str)).finish()
    }
}

impl fmt::Display for FeatureSet {
    /// Comma-separated feature names, e.g. `$ref, anyOf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, feature) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(feature.as_str())?;
        }
        Ok(())
    }
}

impl FromIterator<SchemaFeature> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = SchemaFeature>>(iter: I) -> Self {
        let mut set = FeatureSet::EMPTY;
        for f in iter {
            set.insert(f);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_complete_and_fits() {
        assert!(SchemaFeature::ALL.len() <= 128);
        for (i, f) in SchemaFeature::ALL.iter().enumerate() {
            assert_eq!(*f as usize, i, "ALL is in declaration order");
            assert_eq!(SchemaFeature::from_name(f.as_str()), Some(*f));
        }
        assert_eq!(FeatureSet::all().len(), SchemaFeature::ALL.len());
    }

    #[test]
    fn the_go_librarys_28_come_first() {
        let go = [
            "$ref",
            "$defs",
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "pattern",
            "format",
            "additionalProperties",
            "minimum",
            "maximum",
            "minLength",
            "maxLength",
            "enum",
            "const",
            "default",
            "title",
            "examples",
            "multipleOf",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "uniqueItems",
            "nullable",
            "deprecated",
            "readOnly",
            "writeOnly",
        ];
        let names: Vec<_> = SchemaFeature::ALL[..28].iter().map(|f| f.to_string()).collect();
        assert_eq!(names, go);
    }

    #[test]
    fn set_operations() {
        let a = FeatureSet::of(&[SchemaFeature::Ref, SchemaFeature::AnyOf]);
        let b = FeatureSet::of(&[SchemaFeature::AnyOf]);
        assert!(a.contains(SchemaFeature::Ref));
        assert_eq!(a.difference(b), FeatureSet::of(&[SchemaFeature::Ref]));
        assert_eq!(a.intersection(b), b);
        assert_eq!(a.to_string(), "$ref, anyOf");
    }
}
