//! Provider rules on the shape of a schema node: what a provider refuses beyond its keyword
//! table (an `anyOf` with siblings, a node without `type`, an empty `properties`, an array
//! without `items`, …). The model lives here, once: each format lists the rules it obeys in
//! its own table (`formats/<name>/rules.rs`, each rule with the provider's error text and its
//! source); the `shape` pass rewrites what breaks them and the pre-flight check finds what
//! still would, both through [`broken`], so the writer and the check cannot disagree.

use super::Action;
use crate::ir::{Entry, JsonType, Keyword, Schema, SchemaFeature, Value};

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
    NodeKeys::of(s).broken(rules, s, root)
}

/// What the rules on one node read of its keywords, from one scan: the first entry of each
/// keyword a rule reads, as [`Schema::get`] finds it, and whether others are there. The shape
/// rules read it through [`NodeKeys::broken`]; the pre-flight check reads the same scan for
/// its strict rules, rather than scanning the node once per keyword it asks about.
#[derive(Clone, Copy, Default)]
pub(crate) struct NodeKeys<'a> {
    /// `anyOf`.
    pub any_of: Option<&'a Entry<'a>>,
    /// `type`.
    pub ty: Option<&'a Entry<'a>>,
    /// `properties`.
    pub props: Option<&'a Entry<'a>>,
    /// `required`.
    pub required: Option<&'a Entry<'a>>,
    /// `enum`.
    pub enumeration: Option<&'a Entry<'a>>,
    /// `additionalProperties`.
    pub additional: Option<&'a Entry<'a>>,
    /// `oneOf`, `allOf` or `$ref` is there.
    pub combined: bool,
    /// `$ref` is there.
    pub reference: bool,
    /// `const` is there.
    pub constant: bool,
    /// `items` is there.
    pub items: bool,
}

impl<'a> NodeKeys<'a> {
    /// The keywords of `s` the rules read, in one scan.
    #[inline]
    pub(crate) fn of(s: &Schema<'a>) -> NodeKeys<'a> {
        let mut k = NodeKeys::default();
        for e in s.keywords {
            match e.keyword {
                Keyword::AnyOf => k.any_of = k.any_of.or(Some(e)),
                Keyword::Type => k.ty = k.ty.or(Some(e)),
                Keyword::OneOf | Keyword::AllOf => k.combined = true,
                Keyword::Ref => (k.combined, k.reference) = (true, true),
                Keyword::Const => k.constant = true,
                Keyword::Properties => k.props = k.props.or(Some(e)),
                Keyword::Required => k.required = k.required.or(Some(e)),
                Keyword::Enum => k.enumeration = k.enumeration.or(Some(e)),
                Keyword::AdditionalProperties => k.additional = k.additional.or(Some(e)),
                Keyword::Items => k.items = true,
                _ => {}
            }
        }
        k
    }

    /// The node's `type`, when it holds valid type names ([`Schema::types`]).
    #[inline]
    pub(crate) fn types(&self) -> Option<crate::ir::Types<'a>> {
        match self.ty.map(|e| e.value) {
            Some(Value::Type(t)) => Some(t),
            _ => None,
        }
    }

    /// The node's `properties` ([`Schema::properties`]).
    #[inline]
    pub(crate) fn properties(&self) -> &'a [crate::ir::Prop<'a>] {
        match self.props.map(|e| e.value) {
            Some(Value::Props(p)) => p,
            _ => &[],
        }
    }

    /// The node's `required` ([`Schema::required`]).
    #[inline]
    pub(crate) fn required(&self) -> &'a [&'a str] {
        match self.required.map(|e| e.value) {
            Some(Value::Strings(names)) => names,
            _ => &[],
        }
    }

    /// Whether the node is an object schema ([`Schema::is_object_like`]).
    #[inline]
    pub(crate) fn is_object_like(&self) -> bool {
        self.types().map_or(self.props.is_some(), |t| t.contains(JsonType::Object))
    }

    /// Whether the node says what kind of value it accepts ([`Schema::declares_kind`]).
    #[inline]
    pub(crate) fn declares_kind(&self) -> bool {
        self.ty.is_some()
            || self.any_of.is_some()
            || self.reference
            || self.enumeration.is_some()
            || self.constant
    }

    /// Whether the node accepts arrays but says nothing of their items
    /// ([`Schema::is_array_without_items`]).
    #[inline]
    pub(crate) fn is_array_without_items(&self) -> bool {
        self.types().is_some_and(|t| t.contains(JsonType::Array)) && !self.items
    }

    /// The rules of `rules` that the node `s` these keys were read from breaks, as
    /// [`broken_rules`] answers.
    pub(crate) fn broken(&self, rules: ShapeRules, s: &Schema<'_>, root: bool) -> ShapeRules {
        if s.boolean.is_some() || rules.is_empty() {
            return ShapeRules::NONE;
        }
        let NodeKeys { any_of, ty, props, required, enumeration, combined, items, .. } = *self;
        let types = self.types();
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
            | bit(
                ShapeRule::EnumOnString,
                enumeration.is_some() && one_type != Some(JsonType::String),
            )
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
        // Most nodes name their required properties in the order they define them: one walk
        // over both answers without a set.
        if rules.contains(ShapeRule::RequiredDefined)
            && let Some(Value::Strings(names)) = required.map(|e| e.value)
            && !names.is_empty()
            && !in_order(names.iter().copied(), self.properties().iter().map(|p| p.name))
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
}

/// Whether every name of `names` is among `list`, in `list`'s order: a walk over both that
/// answers most real nodes (`required` names its properties in their order). `false` says
/// only that the order differs or a name is missing; a set then tells which.
#[inline]
pub(crate) fn in_order<'n>(
    names: impl IntoIterator<Item = &'n str>,
    list: impl IntoIterator<Item = &'n str>,
) -> bool {
    let mut rest = list.into_iter();
    names.into_iter().all(|name| rest.any(|l| l == name))
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

    /// Every combination of the keywords the rules read (types, `properties` empty or not,
    /// `required` in order, out of order or naming no property, `items`, `enum` values,
    /// `anyOf`, `$ref`, `const`, `additionalProperties`): one scan answers as the node's own
    /// readers and every rule one by one do, and the in-order shortcut never says yes where a
    /// name is missing.
    #[test]
    fn one_scan_answers_as_each_reader_does() {
        use crate::ir::{Json, Prop, Types};
        let leaf = Schema { boolean: None, keywords: &[], features: Default::default(), at: 0 };
        let closed = Schema { boolean: Some(false), ..leaf };
        let props_ab = [Prop::new("a", 0, leaf), Prop::new("b", 0, leaf)];
        let entry = |keyword, value| Entry { keyword, at: 0, value };
        let object_array = [JsonType::Object, JsonType::Array];
        let types = [
            None,
            Some(Types::one(JsonType::Object)),
            Some(Types::one(JsonType::Array)),
            Some(Types::one(JsonType::String)),
            Some(Types { list: &object_array, array: true }),
        ];
        let props: [Option<&[Prop<'_>]>; 3] = [None, Some(&[]), Some(&props_ab)];
        let requireds: [Option<&[&str]>; 5] =
            [None, Some(&[]), Some(&["a", "b"]), Some(&["b", "a"]), Some(&["a", "c"])];
        let enums: [Option<&[Json<'_>]>; 4] = [
            None,
            Some(&[Json::String("x")]),
            Some(&[Json::String("")]),
            Some(&[Json::Null, Json::String("x")]),
        ];
        let branches = [leaf];
        let mut nodes = 0;
        for ty in types {
            for p in props {
                for r in requireds {
                    for en in enums {
                        for extra in 0..32u8 {
                            let mut kw: Vec<Entry<'_>> = Vec::new();
                            if extra & 1 != 0 {
                                kw.push(entry(Keyword::AnyOf, Value::Schemas(&branches)));
                            }
                            if let Some(t) = ty {
                                kw.push(entry(Keyword::Type, Value::Type(t)));
                            }
                            if let Some(p) = p {
                                kw.push(entry(Keyword::Properties, Value::Props(p)));
                            }
                            if let Some(r) = r {
                                kw.push(entry(Keyword::Required, Value::Strings(r)));
                            }
                            if let Some(e) = en {
                                kw.push(entry(Keyword::Enum, Value::Json(Json::Array(e))));
                            }
                            if extra & 2 != 0 {
                                kw.push(entry(Keyword::Items, Value::Schema(&leaf)));
                            }
                            if extra & 4 != 0 {
                                kw.push(entry(Keyword::Ref, Value::Str("#/$defs/x")));
                            }
                            if extra & 8 != 0 {
                                kw.push(entry(Keyword::Const, Value::Json(Json::Null)));
                            }
                            if extra & 16 != 0 {
                                kw.push(entry(
                                    Keyword::AdditionalProperties,
                                    Value::Schema(&closed),
                                ));
                            }
                            let s = Schema { keywords: &kw, ..leaf };
                            let keys = NodeKeys::of(&s);
                            assert_eq!(keys.types(), s.types());
                            assert_eq!(keys.properties().len(), s.properties().len());
                            assert_eq!(keys.required(), s.required());
                            assert_eq!(keys.is_object_like(), s.is_object_like());
                            assert_eq!(keys.declares_kind(), s.declares_kind());
                            assert_eq!(keys.is_array_without_items(), s.is_array_without_items());
                            let additional = s.get(Keyword::AdditionalProperties);
                            assert_eq!(keys.additional.is_some(), additional.is_some());
                            let all = ShapeRules(u16::MAX >> 6);
                            for root in [false, true] {
                                let breaks = keys.broken(all, &s, root);
                                for rule in ShapeRule::ALL {
                                    assert_eq!(breaks.contains(rule), broken(rule, &s, root));
                                }
                            }
                            let names = s.properties().iter().map(|p| p.name);
                            let set = crate::ir::NameSet::new(s.properties());
                            if in_order(s.required().iter().copied(), names) {
                                assert!(s.required().iter().all(|r| set.contains(r)));
                            }
                            nodes += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(nodes, 5 * 3 * 5 * 4 * 32);
        assert!(in_order(["a", "c"], ["a", "b", "c"]));
        assert!(!in_order(["c", "a"], ["a", "b", "c"]));
        assert!(!in_order(["d"], ["a", "b", "c"]));
        assert!(in_order([], ["a"]));
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
