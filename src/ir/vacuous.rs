//! Keyword values that constrain nothing, in one table: a keyword with such a value accepts
//! every instance its node accepts without it (`uniqueItems: false`, `minLength: 0`,
//! `not: false`, `required: []`, …). The passes read it where they drop or describe a keyword,
//! so that leaving one out is reported as what it is (the same arguments are accepted) rather
//! than as a loss, and not written into prose the model would read as a constraint.
//!
//! Each row is a JSON Schema 2020-12 fact (Validation §6, Core §10), with the draft-07
//! keywords the crate reads (`additionalItems`, `dependencies`) and OpenAPI 3.0's `nullable`
//! and draft-04's boolean bounds, which have their `false` as default. `not: false` accepts
//! everything; `not: {}` accepts nothing and is no such value.

use super::{Entry, FeatureSet, Json, Keyword, Schema, SchemaFeature, Value};

/// The value of a keyword that constrains nothing, for the keyword of its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inert {
    /// A subschema that accepts every value: `true`, `{}`, or one with annotations only.
    AcceptsAll,
    /// A subschema that accepts no value (`not: false`).
    AcceptsNothing,
    /// `false`.
    False,
    /// The number 0.
    Zero,
    /// An empty array.
    NoItems,
    /// An empty object (no names, no subschemas).
    NoMembers,
    /// The empty string (`pattern: ""` matches every string).
    NoText,
    /// Any value, where the keyword it qualifies is absent from its node: `additionalItems`
    /// without tuple `items` (draft-07 ignores it; 2020-12 has no such keyword), `then` and
    /// `else` without `if`, `minContains` and `maxContains` without `contains`.
    Unqualified(Keyword),
}

/// The table: a keyword and the value at which it constrains nothing (a keyword may have
/// several rows).
const TABLE: &[(Keyword, Inert)] = &[
    (Keyword::AdditionalProperties, Inert::AcceptsAll),
    (Keyword::UnevaluatedProperties, Inert::AcceptsAll),
    (Keyword::UnevaluatedItems, Inert::AcceptsAll),
    (Keyword::Items, Inert::AcceptsAll),
    (Keyword::AdditionalItems, Inert::AcceptsAll),
    (Keyword::AdditionalItems, Inert::Unqualified(Keyword::Items)),
    (Keyword::PropertyNames, Inert::AcceptsAll),
    (Keyword::Then, Inert::AcceptsAll),
    (Keyword::Then, Inert::Unqualified(Keyword::If)),
    (Keyword::Else, Inert::AcceptsAll),
    (Keyword::Else, Inert::Unqualified(Keyword::If)),
    (Keyword::MinContains, Inert::Unqualified(Keyword::Contains)),
    (Keyword::MaxContains, Inert::Unqualified(Keyword::Contains)),
    (Keyword::Not, Inert::AcceptsNothing),
    (Keyword::UniqueItems, Inert::False),
    (Keyword::Nullable, Inert::False),
    (Keyword::ExclusiveMinimum, Inert::False),
    (Keyword::ExclusiveMaximum, Inert::False),
    (Keyword::MinItems, Inert::Zero),
    (Keyword::MinLength, Inert::Zero),
    (Keyword::MinProperties, Inert::Zero),
    (Keyword::Required, Inert::NoItems),
    (Keyword::DependentRequired, Inert::NoMembers),
    (Keyword::DependentSchemas, Inert::NoMembers),
    (Keyword::Dependencies, Inert::NoMembers),
    (Keyword::PatternProperties, Inert::NoMembers),
    (Keyword::Properties, Inert::NoMembers),
    (Keyword::Pattern, Inert::NoText),
];

/// Keywords whose subschema, accepting everything, still marks properties or items as
/// evaluated: where an `unevaluatedProperties` or `unevaluatedItems` reads those marks,
/// leaving one out changes what is accepted.
const EVALUATES: [Keyword; 5] = [
    Keyword::AdditionalProperties,
    Keyword::UnevaluatedProperties,
    Keyword::UnevaluatedItems,
    Keyword::Items,
    Keyword::AdditionalItems,
];

/// Whether the keyword `e` of `node` constrains nothing: `node` accepts the same instances
/// with it and without it. `document` is the features of the schema document `node` belongs
/// to: where it holds an `unevaluatedProperties` or `unevaluatedItems` anywhere, a subschema
/// that marks keys or items as evaluated is not taken as empty, whatever it accepts.
pub(crate) fn is_vacuous(e: &Entry<'_>, node: &Schema<'_>, document: FeatureSet) -> bool {
    let rows = TABLE.iter().filter(|(k, _)| *k == e.keyword);
    let mut rows = rows.map(|(_, empty)| *empty).peekable();
    if rows.peek().is_none() {
        return false;
    }
    let unevaluated = document.contains(SchemaFeature::UnevaluatedProperties)
        || document.contains(SchemaFeature::UnevaluatedItems);
    if unevaluated && EVALUATES.contains(&e.keyword) {
        return false;
    }
    rows.any(|empty| holds(empty, &e.value, node))
}

/// Whether `value` is the `empty` value, in `node`.
fn holds(empty: Inert, value: &Value<'_>, node: &Schema<'_>) -> bool {
    match (empty, value) {
        (Inert::AcceptsAll, Value::Schema(s)) => accepts_all(s),
        (Inert::AcceptsNothing, Value::Schema(s)) => s.boolean == Some(false),
        (Inert::False, Value::Bool(b) | Value::Json(Json::Bool(b))) => !b,
        (Inert::Zero, Value::Number(n)) => n.parse::<f64>().is_ok_and(|n| n == 0.0),
        (Inert::NoItems, Value::Strings(l)) => l.is_empty(),
        (Inert::NoItems, Value::Json(Json::Array(l))) => l.is_empty(),
        (Inert::NoMembers, Value::Props(p)) => p.is_empty(),
        (Inert::NoMembers, Value::Json(Json::Object(m))) => m.is_empty(),
        (Inert::NoText, Value::Str(s)) => s.is_empty(),
        // Tuple `items` is a list of schemas; `items` holding one schema qualifies nothing.
        (Inert::Unqualified(Keyword::Items), _) => !node
            .keywords
            .iter()
            .any(|k| k.keyword == Keyword::Items && matches!(k.value, Value::Schemas(_))),
        (Inert::Unqualified(k), _) => node.get(k).is_none(),
        _ => false,
    }
}

/// Whether a subschema accepts every value: `true`, or only annotations (`{}`, a lone
/// `description`).
fn accepts_all(s: &Schema<'_>) -> bool {
    match s.boolean {
        Some(b) => b,
        None => s.keywords.iter().all(|k| k.keyword.is_annotation()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(keyword: Keyword, value: Value<'static>) -> Entry<'static> {
        Entry { keyword, at: 0, value }
    }

    fn node(keywords: &'static [Entry<'static>]) -> Schema<'static> {
        Schema { boolean: None, keywords, features: crate::ir::features_of(keywords), at: 0 }
    }

    static TRUE: Schema<'static> = Schema::bool(true, 0);
    static FALSE: Schema<'static> = Schema::bool(false, 0);
    static EMPTY: Schema<'static> = Schema::bool(true, 0);

    #[test]
    fn the_empty_values_and_their_neighbours() {
        let plain = node(&[]);
        let cases: Vec<(Entry<'static>, bool)> = vec![
            (entry(Keyword::UniqueItems, Value::Bool(false)), true),
            (entry(Keyword::UniqueItems, Value::Bool(true)), false),
            (entry(Keyword::MinItems, Value::Number("0")), true),
            (entry(Keyword::MinItems, Value::Number("0.0")), true),
            (entry(Keyword::MinItems, Value::Number("1")), false),
            (entry(Keyword::MinLength, Value::Number("0")), true),
            (entry(Keyword::MaxLength, Value::Number("0")), false),
            (entry(Keyword::MinProperties, Value::Number("0")), true),
            (entry(Keyword::Required, Value::Strings(&[])), true),
            (entry(Keyword::Required, Value::Strings(&["a"])), false),
            (entry(Keyword::PatternProperties, Value::Props(&[])), true),
            (entry(Keyword::DependentRequired, Value::Json(Json::Object(&[]))), true),
            (entry(Keyword::Pattern, Value::Str("")), true),
            (entry(Keyword::Pattern, Value::Str("a")), false),
            (entry(Keyword::Not, Value::Schema(&FALSE)), true),
            (entry(Keyword::Not, Value::Schema(&TRUE)), false),
            (entry(Keyword::AdditionalProperties, Value::Schema(&TRUE)), true),
            (entry(Keyword::AdditionalProperties, Value::Schema(&FALSE)), false),
            (entry(Keyword::AdditionalItems, Value::Schema(&FALSE)), true),
            (entry(Keyword::Then, Value::Schema(&FALSE)), true),
            (entry(Keyword::Enum, Value::Json(Json::Array(&[]))), false),
        ];
        for (e, empty) in cases {
            assert_eq!(is_vacuous(&e, &plain, plain.features), empty, "{e:?}");
        }
    }

    #[test]
    fn a_keyword_that_qualifies_another_is_empty_only_without_it() {
        static TUPLE: [Schema<'static>; 1] = [Schema::bool(true, 0)];
        static WITH_TUPLE: [Entry<'static>; 1] =
            [Entry { keyword: Keyword::Items, at: 0, value: Value::Schemas(&TUPLE) }];
        static WITH_IF: [Entry<'static>; 1] =
            [Entry { keyword: Keyword::If, at: 0, value: Value::Schema(&EMPTY) }];
        let extra = entry(Keyword::AdditionalItems, Value::Schema(&FALSE));
        assert!(!is_vacuous(&extra, &node(&WITH_TUPLE), FeatureSet::EMPTY));
        let then = entry(Keyword::Then, Value::Schema(&FALSE));
        assert!(!is_vacuous(&then, &node(&WITH_IF), FeatureSet::EMPTY));
    }

    #[test]
    fn unevaluated_keywords_read_what_an_empty_subschema_marks() {
        static UNEVALUATED: [Entry<'static>; 1] = [Entry {
            keyword: Keyword::UnevaluatedProperties,
            at: 0,
            value: Value::Schema(&FALSE),
        }];
        let root = node(&UNEVALUATED);
        let open = entry(Keyword::AdditionalProperties, Value::Schema(&TRUE));
        assert!(!is_vacuous(&open, &root, root.features));
        // What marks nothing stays empty.
        let names = entry(Keyword::PropertyNames, Value::Schema(&TRUE));
        assert!(is_vacuous(&names, &root, root.features));
    }
}
