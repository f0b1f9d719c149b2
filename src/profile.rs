//! Target profiles: per keyword, what a target does with it. This module holds the types and
//! the builders the tables share; each format's own tables live in its folder
//! (`formats/<name>/rules.rs`), in code, so `supports_feature`, the passes and the docs all
//! read the same answer.
//!
//! Each rule cites its source beside it, with the date it was checked.

use crate::ir::{FeatureSet, Json, Keyword, SchemaFeature, Value};
mod derived;
mod limits;
pub(crate) mod shape;

pub(crate) use derived::toolfoundation;

pub use limits::{DatedLimit, Limit, ProviderLimits};

use shape::{ProviderRule, ShapeRule, ShapeRules};

/// What a target does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Emitted as is.
    Keep,
    /// Rewritten by a pass into something the target holds with the same meaning.
    Rewrite,
    /// Dropped, and the constraint appended to the description so the model still sees it.
    Describe,
    /// Dropped.
    Drop,
    /// The tool cannot be converted.
    Reject,
}

crate::named::named!(Action, "action", display);

impl Action {
    /// Every action, in the order the docs list them.
    pub const ALL: [Action; 5] =
        [Action::Keep, Action::Rewrite, Action::Describe, Action::Drop, Action::Reject];

    /// Parses an action name as the CLI spells it (any ASCII case).
    pub fn from_name(name: &str) -> Option<Action> {
        name.parse().ok()
    }

    /// The action's name as the CLI spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Keep => "keep",
            Action::Rewrite => "rewrite",
            Action::Describe => "describe",
            Action::Drop => "drop",
            Action::Reject => "reject",
        }
    }
}

const SLOTS: usize = Keyword::Unknown as usize + 1;

/// A target's keyword → action table, plus the few rules that depend on a keyword's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    name: &'static str,
    actions: [Action; SLOTS],
    // Features kept as they are, maintained by `with` so lookups on the hot path are one AND.
    kept: FeatureSet,
    // `enum` / `const` hold strings only (Gemini's `parameters`); others are described.
    string_enums_only: bool,
    // With `format: rewrite`, the formats kept; any other is described.
    formats: &'static [&'static str],
    // Whether a `$ref` may have siblings other than `$`-keywords.
    ref_siblings: bool,
    // With `minItems: rewrite`, the largest `minItems` kept; a larger one is described.
    min_items_max: u32,
    // What a strict tool's schema must obey (`None`: the profile is not a strict one).
    strict: Option<StrictRules>,
    // Constructs the input schema's root may not use (OpenAI strict: `anyOf`; Anthropic:
    // `anyOf`, `oneOf`, `allOf`).
    root_forbids: FeatureSet,
    // The tool-name rule, and the rule for property keys where the target has one.
    names: Option<NameRule>,
    keys: Option<NameRule>,
    limits: ProviderLimits,
    // The provider rejects any keyword outside the profile's kept set (Gemini's `parameters`
    // is a protobuf message: unknown fields are an error).
    rejects_unlisted: bool,
    // A dropped annotation (`title`, `default`, …) is a warning, not `info`: the Go
    // toolfoundation library warns about every feature it drops. Such a profile also drops,
    // rather than describes, a value its provider refuses (a `format` outside the list).
    annotation_drops_warn: bool,
    // The features a profile built from a support matrix declares (the Go toolfoundation
    // library's `SupportsFeature` answers), where they differ from what it keeps.
    declared: Option<FeatureSet>,
    // The provider's rules on the shape of a node, as its table states them, and as a set.
    shape_table: &'static [ProviderRule],
    shape: ShapeRules,
}

/// What a strict schema must obey beyond its keyword table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrictRules {
    /// Every property must be listed in `required` (OpenAI); an optional one is made nullable.
    pub all_required: bool,
    /// A recursive `$ref` is allowed.
    pub recursion: bool,
}

/// A provider's rule for a name: ASCII letters, digits and `_`, plus `extra`, between 1 and
/// `max` bytes; with `letter_first`, the first character is a letter or `_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    /// Characters allowed besides ASCII letters, digits and `_`.
    pub extra: &'static str,
    /// Longest name, in bytes (every allowed character is one byte).
    pub max: usize,
    /// The first character must be a letter or `_`.
    pub letter_first: bool,
    /// The rule as the provider documents it (a regular expression).
    pub pattern: &'static str,
    /// Where the rule comes from, with the date it was checked.
    pub source: &'static str,
}

impl NameRule {
    /// Whether `c` may appear in a name.
    #[inline]
    pub fn allows(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || (c.is_ascii() && self.extra.contains(c))
    }

    /// Whether `name` obeys the rule.
    pub fn accepts(&self, name: &str) -> bool {
        let first_ok = name
            .chars()
            .next()
            .is_some_and(|c| !self.letter_first || c.is_ascii_alphabetic() || c == '_');
        first_ok && name.len() <= self.max && name.chars().all(|c| self.allows(c))
    }
}

/// A [`NameRule`] as a set of bytes: what `NameRule::accepts` answers, with one bit test per
/// byte instead of a `char` walk that searches the rule's extra characters for each character.
/// Every character a rule admits is ASCII, so any byte above 127 is rejected.
#[derive(Clone, Copy)]
pub(crate) struct ByteRule {
    /// Bit `b % 64` of word `b / 64` set when byte `b` may appear in a name (two words, so
    /// that the test per byte is one shift of a machine word).
    allowed: [u64; 2],
    /// The rule's longest name, in bytes.
    max: usize,
    /// The rule's first-character constraint.
    letter_first: bool,
}

impl ByteRule {
    /// The set for `rule`.
    pub(crate) fn new(rule: &NameRule) -> Self {
        const fn alnum_underscore() -> u128 {
            let mut set = 1u128 << b'_';
            let mut c = 0u8;
            while c < 128 {
                if c.is_ascii_alphanumeric() {
                    set |= 1 << c;
                }
                c += 1;
            }
            set
        }
        const BASE: u128 = alnum_underscore();
        let extra = rule.extra.bytes().filter(|c| c.is_ascii()).fold(0, |s, c| s | 1u128 << c);
        let set = BASE | extra;
        ByteRule {
            allowed: [set as u64, (set >> 64) as u64],
            max: rule.max,
            letter_first: rule.letter_first,
        }
    }

    /// Whether `name` obeys the rule.
    #[inline]
    pub(crate) fn accepts(&self, name: &str) -> bool {
        let b = name.as_bytes();
        let first_ok =
            b.first().is_some_and(|&c| !self.letter_first || c.is_ascii_alphabetic() || c == b'_');
        first_ok
            && b.len() <= self.max
            && b.iter().all(|&c| {
                self.allowed.get(usize::from(c >> 6)).is_some_and(|w| w >> (c & 63) & 1 == 1)
            })
    }
}

impl Profile {
    /// A profile that keeps every keyword.
    pub const fn keep_all(name: &'static str) -> Profile {
        Profile {
            name,
            actions: [Action::Keep; SLOTS],
            kept: FeatureSet::all(),
            string_enums_only: false,
            formats: &[],
            ref_siblings: true,
            min_items_max: u32::MAX,
            strict: None,
            root_forbids: FeatureSet::EMPTY,
            names: None,
            keys: None,
            limits: ProviderLimits::NONE,
            rejects_unlisted: false,
            annotation_drops_warn: false,
            declared: None,
            shape_table: &[],
            shape: ShapeRules::NONE,
        }
    }

    /// The same profile obeying the shape rules of `table` (the provider's own table, in its
    /// format's folder): the shape pass rewrites a node that breaks one, and the check finds
    /// one left. A rule with a trigger feature takes that feature out of the kept set, so a
    /// subtree that uses it is not passed over as unchanged.
    #[must_use]
    #[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
    pub const fn obeying(mut self, table: &'static [ProviderRule]) -> Profile {
        self.shape_table = table;
        self.shape = ShapeRules::of(table);
        let mut i = 0;
        while i < table.len() {
            if let (ShapeRule::ArrayItems, Some(f)) = (table[i].rule, table[i].rule.trigger()) {
                self.kept = self.kept.difference(FeatureSet::of(&[f]));
            }
            i += 1;
        }
        self
    }

    /// The provider's shape rules, as a set.
    #[inline]
    pub const fn shape_rules(&self) -> ShapeRules {
        self.shape
    }

    /// The provider's shape rules, as its table states them.
    pub const fn shape_table(&self) -> &'static [ProviderRule] {
        self.shape_table
    }

    /// The same profile under another name (the name report messages give the target).
    #[must_use]
    pub const fn named(mut self, name: &'static str) -> Profile {
        self.name = name;
        self
    }

    /// The same profile where dropping an annotation (`title`, `default`, `examples`, …) is a
    /// warning like any other drop, rather than `info`.
    #[must_use]
    pub const fn annotation_drops_warn(mut self) -> Profile {
        self.annotation_drops_warn = true;
        self
    }

    /// Whether dropping an annotation is a warning rather than `info`.
    pub const fn warns_on_annotation_drops(&self) -> bool {
        self.annotation_drops_warn
    }

    /// The same profile for a provider that rejects any keyword it does not keep.
    #[must_use]
    pub const fn rejecting_unlisted(mut self) -> Profile {
        self.rejects_unlisted = true;
        self
    }

    /// Whether the provider rejects any keyword the profile does not keep.
    pub const fn rejects_unlisted(&self) -> bool {
        self.rejects_unlisted
    }

    /// The same profile as a strict one, obeying `rules`.
    #[must_use]
    pub const fn strict(mut self, rules: StrictRules) -> Profile {
        self.strict = Some(rules);
        self
    }

    /// The same profile keeping `minItems` only up to `max` (`minItems` set to
    /// [`Action::Rewrite`]; a larger value is described).
    #[must_use]
    pub const fn min_items_at_most(mut self, max: u32) -> Profile {
        self.min_items_max = max;
        self.with(Keyword::MinItems, Action::Rewrite)
    }

    /// The same profile with constructs the input schema's root may not use.
    #[must_use]
    pub const fn root_forbids(mut self, features: FeatureSet) -> Profile {
        self.root_forbids = features;
        self
    }

    /// The same profile with a tool-name rule and, where the target has one, a property-key
    /// rule.
    #[must_use]
    pub const fn names(mut self, names: NameRule, keys: Option<NameRule>) -> Profile {
        self.names = Some(names);
        self.keys = keys;
        self
    }

    /// The same profile with these size limits.
    #[must_use]
    pub const fn limits(mut self, limits: ProviderLimits) -> Profile {
        self.limits = limits;
        self
    }

    /// The strict rules, when this is a strict profile.
    pub const fn strict_rules(&self) -> Option<StrictRules> {
        self.strict
    }

    /// Constructs the input schema's root may not use.
    pub const fn root_forbidden(&self) -> FeatureSet {
        self.root_forbids
    }

    /// The tool-name rule, when the target has one.
    pub const fn name_rule(&self) -> Option<&NameRule> {
        self.names.as_ref()
    }

    /// The property-key rule, when the target has one.
    pub const fn key_rule(&self) -> Option<&NameRule> {
        self.keys.as_ref()
    }

    /// The provider's size limits.
    pub const fn provider_limits(&self) -> &ProviderLimits {
        &self.limits
    }

    /// The same profile with `keyword` set to `action`.
    #[must_use]
    #[allow(clippy::indexing_slicing, reason = "the table has a slot for every `Keyword`")]
    pub const fn with(mut self, keyword: Keyword, action: Action) -> Profile {
        self.actions[keyword as usize] = action;
        if let Some(f) = keyword.feature() {
            let bit = FeatureSet::of(&[f]);
            self.kept = match action {
                Action::Keep => self.kept.union(bit),
                _ => self.kept.difference(bit),
            };
        }
        self
    }

    /// The same profile without a structural construct (type arrays, boolean schemas, tuple
    /// `items`), for targets whose schema dialect lacks it.
    #[must_use]
    pub const fn without(mut self, construct: SchemaFeature) -> Profile {
        self.kept = self.kept.difference(FeatureSet::of(&[construct]));
        self
    }

    /// The same profile holding a structural construct again (the inverse of
    /// [`Profile::without`]).
    #[must_use]
    pub const fn with_construct(mut self, construct: SchemaFeature) -> Profile {
        self.kept = self.kept.union(FeatureSet::of(&[construct]));
        self
    }

    /// The same profile with `enum` and `const` limited to string values (others are
    /// described in prose, their `type` kept).
    #[must_use]
    pub const fn string_enums_only(mut self) -> Profile {
        self.string_enums_only = true;
        self
    }

    /// The same profile keeping only these `format` values (`format` set to
    /// [`Action::Rewrite`]; any other value is described).
    #[must_use]
    pub const fn formats(mut self, formats: &'static [&'static str]) -> Profile {
        self.formats = formats;
        self.with(Keyword::Format, Action::Rewrite)
    }

    /// The same profile where a `$ref` takes only `$`-keywords beside it; other siblings are
    /// moved under a one-branch `anyOf` (same meaning).
    #[must_use]
    pub const fn no_ref_siblings(mut self) -> Profile {
        self.ref_siblings = false;
        self
    }

    /// The profile's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What the target does with `keyword`.
    #[inline]
    #[allow(clippy::indexing_slicing, reason = "the table has a slot for every `Keyword`")]
    pub const fn action(&self, keyword: Keyword) -> Action {
        self.actions[keyword as usize]
    }

    /// What the target does with this keyword and value: the table's action, refined by the
    /// value-dependent rules (a non-string `enum` where only strings are held, a `format`
    /// outside the kept list) which turn a `rewrite` into `describe`.
    pub fn action_for(&self, keyword: Keyword, value: &Value<'_>) -> Action {
        let action = self.action(keyword);
        if action != Action::Rewrite {
            return action;
        }
        match (keyword, value) {
            (Keyword::Enum, Value::Json(Json::Array(items))) if self.string_enums_only => {
                if items.iter().all(|v| matches!(v, Json::String(_))) {
                    Action::Keep
                } else {
                    self.refused()
                }
            }
            (Keyword::Enum, _) => Action::Keep,
            (Keyword::Format, Value::Str(f)) if self.formats.contains(f) => Action::Keep,
            (Keyword::Format, _) => self.refused(),
            (Keyword::MinItems, Value::Number(n)) => match n.parse::<u32>() {
                Ok(v) if v <= self.min_items_max => Action::Keep,
                _ => self.refused(),
            },
            (Keyword::MinItems, _) => self.refused(),
            _ => action,
        }
    }

    /// What becomes of a value the provider refuses: described, or dropped where the profile
    /// drops what it does not keep (the toolfoundation matrix).
    const fn refused(&self) -> Action {
        if self.annotation_drops_warn { Action::Drop } else { Action::Describe }
    }

    /// Whether the profile declares `feature` supported: what [`Profile::supports_feature`]
    /// answers, but for a profile built from a support matrix (the toolfoundation set), whose
    /// answer is the matrix's even where the provider refuses what the matrix supports, so the
    /// profile drops it.
    pub const fn declares(&self, feature: SchemaFeature) -> bool {
        match self.declared {
            Some(set) => set.contains(feature),
            None => self.kept.contains(feature),
        }
    }

    /// Whether the profile's action for `keyword` depends on its value (`enum` where only
    /// strings are held, `format` with a list, `minItems` with a bound).
    const fn value_rule(&self, keyword: Keyword) -> bool {
        match keyword {
            Keyword::Enum => self.string_enums_only,
            Keyword::Format => !self.formats.is_empty(),
            Keyword::MinItems => self.min_items_max != u32::MAX,
            _ => false,
        }
    }

    /// Whether `enum` and `const` hold strings only.
    pub const fn holds_string_enums_only(&self) -> bool {
        self.string_enums_only
    }

    /// Whether a `$ref` may have non-`$` siblings.
    pub const fn holds_ref_siblings(&self) -> bool {
        self.ref_siblings
    }

    /// The profile with the caller's per-keyword overrides applied in order.
    #[must_use]
    pub fn with_overrides(mut self, overrides: &[(Keyword, Action)]) -> Profile {
        for &(keyword, action) in overrides {
            self = self.with(keyword, action);
        }
        self
    }

    /// Features the target holds as they are (keywords it keeps, constructs it accepts).
    #[inline]
    pub const fn features(&self) -> FeatureSet {
        self.kept
    }

    /// Whether the target holds `feature` as it is: the answer `supports_feature` gives for the
    /// adapter whose profile this is.
    #[inline]
    pub const fn supports_feature(&self, feature: SchemaFeature) -> bool {
        self.kept.contains(feature)
    }

    /// Features whose keyword the target does not keep as is: a subtree that uses none of these
    /// passes the policy untouched.
    #[inline]
    pub const fn changed_features(&self) -> FeatureSet {
        FeatureSet::all().difference(self.kept)
    }
}

/// The combinators a root may not be for the providers that forbid them (Anthropic, and both
/// strict modes).
pub(crate) const ROOT_COMBINATORS: FeatureSet =
    FeatureSet::of(&[SchemaFeature::AnyOf, SchemaFeature::OneOf, SchemaFeature::AllOf]);

/// What both strict modes lack: the keywords outside the Structured Outputs subset. `oneOf`
/// becomes `anyOf` (disjoint branches keep their meaning), `allOf` is merged, the rest is
/// described so the model still reads it, and annotations with no effect are dropped.
pub(crate) const fn strict_common(p: Profile) -> Profile {
    p.root_forbids(ROOT_COMBINATORS)
        .with(Keyword::OneOf, Action::Rewrite)
        .with(Keyword::AllOf, Action::Rewrite)
        .with(Keyword::Not, Action::Describe)
        .with(Keyword::If, Action::Describe)
        .with(Keyword::Then, Action::Describe)
        .with(Keyword::Else, Action::Describe)
        .with(Keyword::Default, Action::Describe)
        .with(Keyword::Examples, Action::Describe)
        .with(Keyword::Example, Action::Describe)
        .with(Keyword::MinLength, Action::Describe)
        .with(Keyword::MaxLength, Action::Describe)
        .with(Keyword::PatternProperties, Action::Describe)
        .with(Keyword::PropertyNames, Action::Describe)
        .with(Keyword::MinProperties, Action::Describe)
        .with(Keyword::MaxProperties, Action::Describe)
        .with(Keyword::UnevaluatedProperties, Action::Describe)
        .with(Keyword::UnevaluatedItems, Action::Describe)
        .with(Keyword::Contains, Action::Describe)
        .with(Keyword::MinContains, Action::Describe)
        .with(Keyword::MaxContains, Action::Describe)
        .with(Keyword::UniqueItems, Action::Describe)
        .with(Keyword::PrefixItems, Action::Describe)
        .with(Keyword::DependentRequired, Action::Describe)
        .with(Keyword::DependentSchemas, Action::Describe)
        .with(Keyword::Dependencies, Action::Describe)
        .with(Keyword::ContentSchema, Action::Describe)
        .with(Keyword::DynamicRef, Action::Describe)
        .with(Keyword::RecursiveRef, Action::Describe)
        .with(Keyword::Anchor, Action::Drop)
        .with(Keyword::DynamicAnchor, Action::Drop)
        .with(Keyword::RecursiveAnchor, Action::Drop)
        .with(Keyword::Vocabulary, Action::Drop)
        .with(Keyword::Deprecated, Action::Drop)
        .with(Keyword::ReadOnly, Action::Drop)
        .with(Keyword::WriteOnly, Action::Drop)
        .with(Keyword::ContentEncoding, Action::Drop)
        .with(Keyword::ContentMediaType, Action::Drop)
        .with(Keyword::PropertyOrdering, Action::Drop)
        .with(Keyword::Unknown, Action::Drop)
}

/// `name` with every character the rule rejects replaced by `_`, a leading `_` where a letter
/// must come first, and `fallback` for an empty name; and whether it is longer than the rule
/// allows (the caller then cuts it and adds a hash).
pub(crate) fn sanitize(name: &str, rule: &NameRule, fallback: &str) -> (String, bool) {
    let mut out = String::with_capacity(name.len() + 1);
    for c in name.chars() {
        out.push(if rule.allows(c) { c } else { '_' });
    }
    if out.is_empty() {
        out.push_str(fallback);
    }
    if rule.letter_first && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    let long = out.len() > rule.max;
    (out, long)
}

/// The action the policy takes: a `rewrite` still standing when the policy runs is kept (for
/// the refs pass, or `nullable` in a JSON Schema source, where it is the author's annotation),
/// dropped (`additionalItems` without the tuple it qualified) or described (a rewrite no pass
/// could make: a non-string `const` for Gemini, an `allOf` that does not merge).
pub(crate) fn keeps(action: Action, keyword: Keyword, profile: &Profile) -> Action {
    match action {
        // A strict schema takes no keyword outside its subset, and in a JSON Schema source
        // `nullable` means nothing.
        Action::Rewrite if keyword == Keyword::Nullable && profile.strict_rules().is_some() => {
            Action::Drop
        }
        Action::Rewrite
            if matches!(
                keyword,
                Keyword::Ref | Keyword::Defs | Keyword::Definitions | Keyword::Nullable
            ) =>
        {
            Action::Keep
        }
        Action::Rewrite if keyword == Keyword::AdditionalItems => Action::Drop,
        Action::Rewrite => Action::Describe,
        a => a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::builtin;
    use crate::formats::rules::{anthropic, gemini, langchain, mcp, openai};

    const MCP: Profile = mcp::PROFILE;
    const OPENAI: Profile = openai::PROFILE;
    const ANTHROPIC: Profile = anthropic::PROFILE;
    const GEMINI: Profile = gemini::PROFILE;
    const GEMINI_JSON: Profile = gemini::JSON_PROFILE;
    const LANGCHAIN: Profile = langchain::PROFILE;
    const TOOLFOUNDATION_OPENAI: Profile = openai::TOOLFOUNDATION;
    const TOOLFOUNDATION_ANTHROPIC: Profile = anthropic::TOOLFOUNDATION;
    const TOOLFOUNDATION_GEMINI: Profile = gemini::TOOLFOUNDATION;
    const TOOLFOUNDATION_GEMINI_JSON: Profile = gemini::TOOLFOUNDATION_JSON;
    const TOOLFOUNDATION_MCP: Profile = mcp::TOOLFOUNDATION;

    fn toolfoundation_profile(format: &str) -> Option<&'static Profile> {
        builtin(format).and_then(|f| f.info().toolfoundation)
    }

    #[test]
    fn openai_drops_only_non_semantic_keywords() {
        assert!(!OPENAI.features().contains(SchemaFeature::Schema));
        assert!(OPENAI.features().contains(SchemaFeature::Ref));
        assert!(OPENAI.features().contains(SchemaFeature::UnknownKeyword));
        assert_eq!(
            OPENAI.changed_features(),
            FeatureSet::of(&[
                SchemaFeature::Schema,
                SchemaFeature::Id,
                SchemaFeature::Comment,
                SchemaFeature::AdditionalItems,
                SchemaFeature::TupleItems,
                SchemaFeature::Nullable,
                SchemaFeature::ItemlessArray,
            ])
        );
        assert_eq!(MCP.features(), FeatureSet::all());
    }

    #[test]
    fn the_cached_set_agrees_with_the_table() {
        for p in [
            &MCP,
            &OPENAI,
            &ANTHROPIC,
            &GEMINI,
            &GEMINI_JSON,
            &LANGCHAIN,
            &TOOLFOUNDATION_OPENAI,
            &TOOLFOUNDATION_ANTHROPIC,
            &TOOLFOUNDATION_GEMINI,
            &TOOLFOUNDATION_GEMINI_JSON,
        ] {
            for kw in Keyword::ALL {
                if let Some(f) = kw.feature() {
                    assert_eq!(p.features().contains(f), p.action(kw) == Action::Keep, "{kw}");
                }
            }
        }
        let p = Profile::keep_all("x").without(SchemaFeature::TypeArray);
        assert!(!p.features().contains(SchemaFeature::TypeArray));
    }

    #[test]
    fn value_rules_refine_a_rewrite() {
        let strings = [Json::String("a"), Json::String("b")];
        let mixed = [Json::String("a"), Json::Number("1")];
        let enum_of = |items: &'static [Json<'static>]| Value::Json(Json::Array(items));
        let strings: &'static [Json<'static>] = Box::leak(Box::new(strings));
        let mixed: &'static [Json<'static>] = Box::leak(Box::new(mixed));
        assert_eq!(GEMINI.action_for(Keyword::Enum, &enum_of(strings)), Action::Keep);
        assert_eq!(GEMINI.action_for(Keyword::Enum, &enum_of(mixed)), Action::Describe);
        assert_eq!(GEMINI_JSON.action_for(Keyword::Enum, &enum_of(mixed)), Action::Keep);
        assert_eq!(GEMINI.action_for(Keyword::Format, &Value::Str("date-time")), Action::Keep);
        assert_eq!(GEMINI.action_for(Keyword::Format, &Value::Str("uri")), Action::Describe);
        assert_eq!(OPENAI.action_for(Keyword::Format, &Value::Str("uri")), Action::Keep);
        let p = GEMINI.with_overrides(&[(Keyword::Format, Action::Drop)]);
        assert_eq!(p.action_for(Keyword::Format, &Value::Str("date-time")), Action::Drop);
        assert_eq!(Action::from_name("describe"), Some(Action::Describe));
        assert_eq!(Action::from_name("nope"), None);
    }

    #[test]
    fn toolfoundation_drops_what_it_does_not_keep() {
        // Only `keep` and `drop` for keywords with a feature, and the value rules of the
        // provider (a `format` of its list kept, any other dropped): no describe, no rewrite.
        let uri = Value::Str("uri");
        for p in [&TOOLFOUNDATION_OPENAI, &TOOLFOUNDATION_ANTHROPIC, &TOOLFOUNDATION_GEMINI] {
            for kw in Keyword::ALL.into_iter().chain([Keyword::Unknown]) {
                if kw.feature().is_some() {
                    let value_rule = p.value_rule(kw) && p.action(kw) == Action::Rewrite;
                    assert!(
                        matches!(p.action(kw), Action::Keep | Action::Drop) || value_rule,
                        "{kw}"
                    );
                }
            }
            assert!(matches!(p.action_for(Keyword::Format, &uri), Action::Keep | Action::Drop));
            assert!(p.warns_on_annotation_drops());
            assert_eq!(p.action(Keyword::ExclusiveMinimum), Action::Drop);
            assert_eq!(p.action(Keyword::Unknown), Action::Drop);
            // Keywords without a feature bit stay as the format has them.
            assert_eq!(p.action(Keyword::Properties), Action::Keep);
        }
        // The format's structural rules stay: Gemini still has one type per node.
        assert!(!TOOLFOUNDATION_GEMINI.supports_feature(SchemaFeature::TypeArray));
        assert_eq!(TOOLFOUNDATION_MCP.features(), FeatureSet::all());
        assert!(toolfoundation_profile("openapi").is_none());
        assert_eq!(toolfoundation_profile("openai-responses"), Some(&openai::TOOLFOUNDATION));
    }

    #[test]
    fn unknown_keyword_action_moves_the_construct() {
        let p = Profile::keep_all("x").with(Keyword::Unknown, Action::Drop);
        assert!(!p.features().contains(SchemaFeature::UnknownKeyword));
    }
}
