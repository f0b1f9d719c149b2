//! The JSON Schema drafts a `$schema` can name, and the keywords a JSON Schema 2020-12 reader
//! gives another meaning than each draft does.
//!
//! The targets read a schema as 2020-12. Where a source declares an older draft and the
//! target drops `$schema`, the keywords listed here change what the schema accepts. The list
//! comes from the drafts' release notes:
//! - draft-06 added `const`, `contains` and `propertyNames`;
//! - draft-07 added `if`, `then` and `else`;
//! - 2019-09 added `dependentRequired`, `dependentSchemas`, `minContains`, `maxContains`,
//!   `unevaluatedItems` and `unevaluatedProperties`, and split `dependencies` into the first
//!   two;
//! - 2020-12 added `prefixItems` and `$dynamicRef` and dropped `$recursiveRef`.
//!
//! Draft-04's boolean bounds and draft-07's tuple `items` are not listed: the dialect pass
//! rewrites them into their 2020-12 forms whatever `$schema` says. Nor is the rule up to
//! draft-07 that a `$ref` voids the keywords beside it: no feature bit says where that
//! happens, so the dialect pass looks for it.

use super::{FeatureSet, SchemaFeature as F};

/// A JSON Schema draft, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Draft {
    Draft03,
    Draft04,
    Draft06,
    Draft07,
    Draft201909,
    Draft202012,
}

impl Draft {
    /// The draft a `$schema` value names. The scheme may be `http` or `https`, and an empty
    /// fragment (`#`) is ignored, as published schemas spell both ways.
    pub(crate) fn from_uri(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://"))?;
        Some(match rest {
            "json-schema.org/draft-03/schema" => Draft::Draft03,
            "json-schema.org/draft-04/schema" => Draft::Draft04,
            "json-schema.org/draft-06/schema" => Draft::Draft06,
            "json-schema.org/draft-07/schema" => Draft::Draft07,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
            "json-schema.org/draft/2020-12/schema" => Draft::Draft202012,
            _ => return None,
        })
    }

    /// The draft's usual name.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Draft::Draft03 => "draft-03",
            Draft::Draft04 => "draft-04",
            Draft::Draft06 => "draft-06",
            Draft::Draft07 => "draft-07",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// The keywords 2020-12 defines and this draft does not (a validator of this draft
    /// ignores them, a 2020-12 one applies them), and those this draft defines and 2020-12
    /// does not (the other way round). Draft-03, whose core keywords differ (`required`,
    /// `type: "any"`, `extends`, `divisibleBy`), is read differently in any schema: see
    /// [`Draft::differs_everywhere`].
    pub(crate) const fn read_differently(self) -> (FeatureSet, FeatureSet) {
        const SINCE_06: FeatureSet = FeatureSet::of(&[F::Const, F::Contains, F::PropertyNames]);
        const SINCE_07: FeatureSet = FeatureSet::of(&[F::If, F::Then, F::Else]);
        const SINCE_2019: FeatureSet = FeatureSet::of(&[
            F::DependentRequired,
            F::DependentSchemas,
            F::MinContains,
            F::MaxContains,
            F::UnevaluatedItems,
            F::UnevaluatedProperties,
        ]);
        const SINCE_2020: FeatureSet = FeatureSet::of(&[F::PrefixItems, F::DynamicRef]);
        const UNTIL_07: FeatureSet = FeatureSet::of(&[F::Dependencies]);
        const ONLY_2019: FeatureSet = FeatureSet::of(&[F::RecursiveRef]);
        let from_2019 = SINCE_2019.union(SINCE_2020);
        match self {
            Draft::Draft03 | Draft::Draft04 => {
                (SINCE_06.union(SINCE_07).union(from_2019), UNTIL_07)
            }
            Draft::Draft06 => (SINCE_07.union(from_2019), UNTIL_07),
            Draft::Draft07 => (from_2019, UNTIL_07),
            Draft::Draft201909 => (SINCE_2020, ONLY_2019),
            Draft::Draft202012 => (FeatureSet::EMPTY, FeatureSet::EMPTY),
        }
    }

    /// Whether every schema of this draft reads differently in 2020-12, whatever keywords it
    /// uses.
    pub(crate) const fn differs_everywhere(self) -> bool {
        matches!(self, Draft::Draft03)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(
            Draft::from_uri("http://json-schema.org/draft-04/schema#"),
            Some(Draft::Draft04)
        );
        assert_eq!(
            Draft::from_uri("https://json-schema.org/draft-06/schema"),
            Some(Draft::Draft06)
        );
        assert_eq!(
            Draft::from_uri("https://json-schema.org/draft/2019-09/schema"),
            Some(Draft::Draft201909)
        );
        for other in [
            "",
            "json-schema.org/draft-04/schema",
            "https://json-schema.org/draft-05/schema",
            "https://json-schema.org/draft-07/schema##",
            "https://example.com/json-schema.org/draft-07/schema",
        ] {
            assert_eq!(Draft::from_uri(other), None, "{other}");
        }
    }

    #[test]
    fn newer_drafts_differ_less() {
        let drafts = [
            Draft::Draft04,
            Draft::Draft06,
            Draft::Draft07,
            Draft::Draft201909,
            Draft::Draft202012,
        ];
        for pair in drafts.windows(2) {
            let (older, newer) = (pair[0].read_differently().0, pair[1].read_differently().0);
            assert!(newer.difference(older).is_empty(), "{pair:?}");
            assert!(newer.len() < older.len(), "{pair:?}");
        }
        assert!(Draft::Draft04.read_differently().0.contains(F::Const));
        assert!(!Draft::Draft06.read_differently().0.contains(F::Const));
        assert!(Draft::Draft07.read_differently().1.contains(F::Dependencies));
        assert_eq!(Draft::Draft202012.read_differently(), (FeatureSet::EMPTY, FeatureSet::EMPTY));
    }
}
