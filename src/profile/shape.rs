//! Provider rules on the shape of a schema node: what a provider refuses beyond its keyword
//! table (an `anyOf` with siblings, a node without `type`, an empty `properties`, an array
//! without `items`, …). The model lives here, once: each format lists the rules it obeys in
//! its own table (`formats/<name>/rules.rs`, each rule with the provider's error text and its
//! source); the `shape` pass rewrites what breaks them and the pre-flight check finds what
//! still would, both through [`broken`], so the writer and the check cannot disagree.

use super::Action;
use crate::ir::{JsonType, Keyword, Schema, SchemaFeature, Value};

/// A rule on the shape of one schema node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShapeRule {
    /// A node with `anyOf` holds no other keyword.
    AnyOfAlone,
    /// Every node has a `type`, unless it is an `anyOf`, `oneOf` or `allOf` node.
    TypeRequired,
    /// A node typed `object` has a non-empty `properties`, and no node has an empty one (a
    /// proto map cannot tell an empty `properties` from none).
    PropertiesNonEmpty,
    /// A node whose type admits arrays has `items`.
    ArrayItems,
    /// `properties` and `required` only on a node typed `object`.
    ObjectKeywordsOnObject,
    /// Every name in `required` is a key of the node's `properties`.
    RequiredDefined,
    /// `enum` only on a node typed `string`.
    EnumOnString,
    /// No `enum` value is the empty string.
    EnumNonEmpty,
    /// No `enum` value is `null`.
    EnumNoNull,
    /// The input schema's root object has `properties` (possibly empty).
    RootProperties,
}

impl ShapeRule {
    /// Every rule, in the order the shape pass applies them: a node gets its type before the
    /// rules that read it, and an `anyOf`'s siblings move last, once nothing else adds one.
    pub const ALL: [ShapeRule; 10] = [
        ShapeRule::RootProperties,
        ShapeRule::PropertiesNonEmpty,
        ShapeRule::TypeRequired,
        ShapeRule::ArrayItems,
        ShapeRule::ObjectKeywordsOnObject,
        ShapeRule::RequiredDefined,
        ShapeRule::EnumOnString,
        ShapeRule::EnumNonEmpty,
        ShapeRule::EnumNoNull,
        ShapeRule::AnyOfAlone,
    ];

    /// The rule's name as reports and docs print it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ShapeRule::AnyOfAlone => "anyOf-alone",
            ShapeRule::TypeRequired => "type-required",
            ShapeRule::PropertiesNonEmpty => "properties-non-empty",
            ShapeRule::ArrayItems => "array-items",
            ShapeRule::ObjectKeywordsOnObject => "object-keywords-on-object",
            ShapeRule::RequiredDefined => "required-defined",
            ShapeRule::EnumOnString => "enum-on-string",
            ShapeRule::EnumNonEmpty => "enum-non-empty",
            ShapeRule::EnumNoNull => "enum-no-null",
            ShapeRule::RootProperties => "root-properties",
        }
    }

    /// The keyword a finding points at.
    pub const fn keyword(self) -> &'static str {
        match self {
            ShapeRule::AnyOfAlone => "anyOf",
            ShapeRule::TypeRequired => "type",
            ShapeRule::PropertiesNonEmpty | ShapeRule::RootProperties => "properties",
            ShapeRule::ArrayItems => "items",
            ShapeRule::ObjectKeywordsOnObject | ShapeRule::RequiredDefined => "required",
            ShapeRule::EnumOnString | ShapeRule::EnumNonEmpty | ShapeRule::EnumNoNull => "enum",
        }
    }

    const fn bit(self) -> u16 {
        1 << (self as u8)
    }

    /// The feature whose absence from a subtree proves the rule holds everywhere in it, when
    /// there is one; the other rules are tested on every node.
    pub(crate) const fn trigger(self) -> Option<SchemaFeature> {
        match self {
            ShapeRule::ArrayItems => Some(SchemaFeature::ItemlessArray),
            ShapeRule::AnyOfAlone => Some(SchemaFeature::AnyOf),
            ShapeRule::EnumOnString | ShapeRule::EnumNonEmpty | ShapeRule::EnumNoNull => {
                Some(SchemaFeature::Enum)
            }
            _ => None,
        }
    }
}

/// One rule a provider enforces, as its table states it: the rule, the provider's own words
/// when it refuses, where that comes from (with the date it was checked) and what the writer
/// does about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProviderRule {
    /// The rule.
    pub rule: ShapeRule,
    /// The error the provider answers with, as it words it.
    pub error: &'static str,
    /// Where the rule comes from: the API reference, the SDK, or a public issue quoting the
    /// error, with the date it was read.
    pub source: &'static str,
    /// What the shape pass does about a node that breaks the rule: `rewrite` (same meaning),
    /// `describe` (the constraint moves into the description) or `drop`.
    pub fix: Action,
}

/// A set of [`ShapeRule`]s, as a bitset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShapeRules(u16);

impl ShapeRules {
    /// No rule.
    pub const NONE: ShapeRules = ShapeRules(0);

    /// The rules of a table.
    #[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
    pub const fn of(table: &[ProviderRule]) -> ShapeRules {
        let mut bits = 0;
        let mut i = 0;
        while i < table.len() {
            bits |= table[i].rule.bit();
            i += 1;
        }
        ShapeRules(bits)
    }

    /// Whether `rule` is in the set.
    #[inline]
    pub const fn contains(self, rule: ShapeRule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rules in the set, in [`ShapeRule::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = ShapeRule> {
        ShapeRule::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// Whether a rule of the set must be tested on every node: one without a trigger feature
    /// (see [`ShapeRule::trigger`]) other than the root's own rule, which is tested at the
    /// root only.
    pub(crate) fn every_node(self) -> bool {
        self.iter().any(|r| r.trigger().is_none() && r != ShapeRule::RootProperties)
    }

    /// The trigger features of the set's rules.
    pub(crate) fn triggers(self) -> crate::ir::FeatureSet {
        self.iter().filter_map(ShapeRule::trigger).collect()
    }
}

/// The type an untyped node holding `kw` meant: the first of the types the keyword
/// constrains ([`Keyword::applies_to`]; `number` for the numeric bounds).
pub(crate) const fn implied_type(kw: Keyword) -> Option<JsonType> {
    match kw.applies_to() {
        Some([t, ..]) => Some(*t),
        _ => None,
    }
}

/// The node's one type, when it states exactly one.
fn one_type(s: &Schema<'_>) -> Option<JsonType> {
    match s.types()?.list {
        [t] => Some(*t),
        _ => None,
    }
}

/// Whether the node `s` (the input schema's root when `root`) breaks `rule`.
pub(crate) fn broken(rule: ShapeRule, s: &Schema<'_>, root: bool) -> bool {
    if s.boolean.is_some() {
        return false;
    }
    let has = |k| s.get(k).is_some();
    match rule {
        ShapeRule::AnyOfAlone => has(Keyword::AnyOf) && s.keywords.len() > 1,
        ShapeRule::TypeRequired => {
            // A `$ref` takes its type from what it names (where a profile keeps refs).
            !(has(Keyword::Type)
                || has(Keyword::AnyOf)
                || has(Keyword::OneOf)
                || has(Keyword::AllOf)
                || has(Keyword::Ref))
        }
        ShapeRule::PropertiesNonEmpty => match s.get(Keyword::Properties).map(|e| e.value) {
            Some(Value::Props(p)) => p.is_empty(),
            Some(_) => false,
            None => one_type(s) == Some(JsonType::Object),
        },
        ShapeRule::ArrayItems => s.is_array_without_items(),
        ShapeRule::ObjectKeywordsOnObject => {
            (has(Keyword::Properties) || has(Keyword::Required))
                && s.types().is_some_and(|t| !t.contains(JsonType::Object))
        }
        ShapeRule::RequiredDefined => {
            let props = crate::ir::NameSet::new(s.properties());
            s.required().iter().any(|r| !props.contains(r))
        }
        ShapeRule::EnumOnString => has(Keyword::Enum) && one_type(s) != Some(JsonType::String),
        ShapeRule::EnumNonEmpty => matches!(
            s.get(Keyword::Enum).map(|e| e.value),
            Some(Value::Json(crate::ir::Json::Array(items)))
                if items.iter().any(|v| matches!(v, crate::ir::Json::String("")))
        ),
        ShapeRule::EnumNoNull => matches!(
            s.get(Keyword::Enum).map(|e| e.value),
            Some(Value::Json(crate::ir::Json::Array(items)))
                if items.iter().any(|v| matches!(v, crate::ir::Json::Null))
        ),
        ShapeRule::RootProperties => root && s.is_object_type() && !has(Keyword::Properties),
    }
}

/// The rules of `rules` that the node `s` (the input schema's root when `root`) breaks: the
/// rules [`broken`] answers yes for, read from one scan of the node's keywords (each rule
/// alone scans them once per keyword it looks for, and the shape pass and the pre-flight check
/// ask every rule of every node).
pub(crate) fn broken_rules(rules: ShapeRules, s: &Schema<'_>, root: bool) -> ShapeRules {
    if s.boolean.is_some() || rules.is_empty() {
        return ShapeRules::NONE;
    }
    // The first entry of each keyword a rule reads, as `Schema::get` finds it.
    let (mut any_of, mut ty, mut props, mut required, mut enumeration) =
        (None, None, None, None, None);
    let (mut combined, mut items) = (false, false);
    for e in s.keywords {
        match e.keyword {
            Keyword::AnyOf => any_of = any_of.or(Some(e)),
            Keyword::Type => ty = ty.or(Some(e)),
            Keyword::OneOf | Keyword::AllOf | Keyword::Ref => combined = true,
            Keyword::Properties => props = props.or(Some(e)),
            Keyword::Required => required = required.or(Some(e)),
            Keyword::Enum => enumeration = enumeration.or(Some(e)),
            Keyword::Items => items = true,
            _ => {}
        }
    }
    let types = match ty.map(|e| e.value) {
        Some(Value::Type(t)) => Some(t),
        _ => None,
    };
    let one_type = types.and_then(|t| match t.list {
        [t] => Some(*t),
        _ => None,
    });
    let props_value = props.map(|e| e.value);
    let has_type = |t| types.is_some_and(|types| types.contains(t));
    let bit = |rule: ShapeRule, yes: bool| if yes { rule.bit() } else { 0 };
    let mut bits = bit(ShapeRule::AnyOfAlone, any_of.is_some() && s.keywords.len() > 1)
        | bit(ShapeRule::TypeRequired, ty.is_none() && any_of.is_none() && !combined)
        | bit(
            ShapeRule::PropertiesNonEmpty,
            match props_value {
                Some(Value::Props(p)) => p.is_empty(),
                Some(_) => false,
                None => one_type == Some(JsonType::Object),
            },
        )
        | bit(ShapeRule::ArrayItems, has_type(JsonType::Array) && !items)
        | bit(
            ShapeRule::ObjectKeywordsOnObject,
            (props.is_some() || required.is_some())
                && types.is_some_and(|t| !t.contains(JsonType::Object)),
        )
        | bit(ShapeRule::EnumOnString, enumeration.is_some() && one_type != Some(JsonType::String))
        | bit(ShapeRule::RootProperties, root && has_type(JsonType::Object) && props.is_none());
    if rules.contains(ShapeRule::EnumNonEmpty)
        && let Some(Value::Json(crate::ir::Json::Array(values))) = enumeration.map(|e| e.value)
        && values.iter().any(|v| matches!(v, crate::ir::Json::String("")))
    {
        bits |= ShapeRule::EnumNonEmpty.bit();
    }
    if rules.contains(ShapeRule::EnumNoNull)
        && let Some(Value::Json(crate::ir::Json::Array(values))) = enumeration.map(|e| e.value)
        && values.iter().any(|v| matches!(v, crate::ir::Json::Null))
    {
        bits |= ShapeRule::EnumNoNull.bit();
    }
    // The one rule that costs more than a look: a set of the property names.
    if rules.contains(ShapeRule::RequiredDefined)
        && let Some(Value::Strings(names)) = required.map(|e| e.value)
        && !names.is_empty()
    {
        let defined = match props_value {
            Some(Value::Props(p)) => p,
            _ => &[],
        };
        let defined = crate::ir::NameSet::new(defined);
        if names.iter().any(|r| !defined.contains(r)) {
            bits |= ShapeRule::RequiredDefined.bit();
        }
    }
    let out = ShapeRules(bits & rules.0);
    debug_assert!(
        rules.iter().all(|r| out.contains(r) == broken(r, s, root)),
        "one scan and the rules one by one disagree"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_rule_once() {
        let mut seen = 0u16;
        for r in ShapeRule::ALL {
            assert_eq!(seen & r.bit(), 0, "{r:?} twice");
            seen |= r.bit();
        }
        assert_eq!(seen.count_ones() as usize, ShapeRule::ALL.len());
    }

    #[test]
    fn a_set_holds_its_tables_rules() {
        let table = [ProviderRule {
            rule: ShapeRule::ArrayItems,
            error: "e",
            source: "s",
            fix: Action::Rewrite,
        }];
        let set = ShapeRules::of(&table);
        assert!(set.contains(ShapeRule::ArrayItems));
        assert!(!set.contains(ShapeRule::AnyOfAlone));
        assert!(!set.every_node());
        assert_eq!(set.iter().collect::<Vec<_>>(), [ShapeRule::ArrayItems]);
        assert!(ShapeRules::NONE.is_empty());
    }

    #[test]
    fn each_providers_doc_page_lists_its_rules() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats");
        let pages: Vec<String> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect();
        for format in crate::formats::builtins() {
            let info = format.info();
            // The format's page: the one whose title names it.
            let title = format!("`{}`", info.name);
            let page = pages.iter().find(|p| p.lines().next().is_some_and(|l| l.contains(&title)));
            let tables = [Some(info.profile), info.strict_profile()];
            for rule in tables.into_iter().flatten().flat_map(|p| p.shape_table()) {
                let (text, page) = (page.map_or("", String::as_str), info.name);
                assert!(text.contains(rule.rule.as_str()), "{page} lacks {:?}", rule.rule);
                assert!(text.contains(rule.error), "{page} lacks {:?}", rule.error);
                assert!(!rule.source.is_empty());
            }
        }
    }
}
