//! Target profiles: per keyword, what a target does with it. One table per target, in code,
//! so `supports_feature`, the passes and the docs all read the same answer.
//!
//! Sources (checked 2026-11): OpenAI function calling guide (platform.openai.com/docs/guides/
//! function-calling) and Structured Outputs "supported schemas"; Anthropic tool use docs
//! (docs.anthropic.com/en/docs/agents-and-tools/tool-use); MCP specification 2025-11-25
//! (`Tool.inputSchema` is a JSON Schema object, 2020-12 by default); Gemini API reference
//! `FunctionDeclaration` / `Schema` (ai.google.dev/api/caching#Schema: the OpenAPI 3.0 subset
//! of `parameters`, and `parametersJsonSchema`) and the Gemini JSON Schema announcement
//! (2025-11: `anyOf`, `$ref`, `minimum`/`maximum`, `additionalProperties`, `prefixItems`).
//! The strict columns: OpenAI Structured Outputs "Supported schemas" (platform.openai.com/docs/
//! guides/structured-outputs, checked 2026-11) and Anthropic "Structured outputs" / strict tool
//! use JSON Schema limitations (docs.anthropic.com/en/docs/build-with-claude/structured-outputs,
//! checked 2026-11). Name rules and size limits are data too ([`NameRule`], [`ProviderLimits`]),
//! each with the date and the source of the rule.

use crate::ir::{FeatureSet, Json, Keyword, SchemaFeature, Value};

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

impl Action {
    /// Every action, in the order the docs list them.
    pub const ALL: [Action; 5] =
        [Action::Keep, Action::Rewrite, Action::Describe, Action::Drop, Action::Reject];

    /// Parses an action name as the CLI spells it.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == name)
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
    // toolfoundation library warns about every feature it drops.
    annotation_drops_warn: bool,
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

/// One documented provider limit: its value and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The largest value the provider accepts.
    pub max: usize,
    /// Where the rule comes from, with the date it was checked.
    pub source: &'static str,
}

/// The size limits a provider enforces. Per-tool limits apply to strict tools; per-request
/// limits to a whole catalog sent in one request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProviderLimits {
    /// Object properties in one strict schema, all levels counted.
    pub properties: Option<Limit>,
    /// Levels of object nesting in one strict schema.
    pub depth: Option<Limit>,
    /// `enum` values in one strict schema, all enums counted.
    pub enum_values: Option<Limit>,
    /// Characters of property names, definition names, enum and const values in one strict
    /// schema.
    pub schema_chars: Option<Limit>,
    /// Strict tools in one request.
    pub strict_tools: Option<Limit>,
    /// Optional parameters across the strict tools of one request.
    pub optional_params: Option<Limit>,
    /// Parameters with a union type (`anyOf`, a type array) across the strict tools of one
    /// request.
    pub union_params: Option<Limit>,
    /// `cache_control` breakpoints in one request.
    pub cache_breakpoints: Option<Limit>,
}

impl ProviderLimits {
    const NONE: ProviderLimits = ProviderLimits {
        properties: None,
        depth: None,
        enum_values: None,
        schema_chars: None,
        strict_tools: None,
        optional_params: None,
        union_params: None,
        cache_breakpoints: None,
    };
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
        }
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
                    Action::Describe
                }
            }
            (Keyword::Enum, _) => Action::Keep,
            (Keyword::Format, Value::Str(f)) if self.formats.contains(f) => Action::Keep,
            (Keyword::Format, _) => Action::Describe,
            (Keyword::MinItems, Value::Number(n)) => match n.parse::<u32>() {
                Ok(v) if v <= self.min_items_max => Action::Keep,
                _ => Action::Describe,
            },
            (Keyword::MinItems, _) => Action::Describe,
            _ => action,
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

/// MCP: `inputSchema` is any JSON Schema (2020-12 by default); everything is kept.
pub const MCP: Profile = Profile::keep_all("mcp");

/// LangChain's JSON-schema-as-tool dict: everything is kept. LangChain does not read the
/// schema: `convert_to_openai_function` (langchain_core `utils/function_calling.py`, checked
/// 2026-11) takes `title` as the name and `description` as the description and hands the rest
/// on as the `parameters` of whichever chat model the tool is bound to, so no keyword can be
/// said to be lost here; the model's own format decides that on the next conversion.
pub const LANGCHAIN: Profile = Profile::keep_all("langchain");

/// OpenAI Chat Completions and Responses, non-strict. The API reads JSON Schema 2020-12 in
/// `parameters` (older forms, and OpenAPI's `nullable` from a Gemini source, are rewritten by
/// the dialect pass); `$schema`, `$id` and `$comment` carry nothing for the model and are
/// dropped.
pub const OPENAI: Profile = Profile::keep_all("openai")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::AdditionalItems, Action::Rewrite)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Comment, Action::Drop)
    .names(OPENAI_NAMES, None);

/// OpenAI function names: `FunctionObject.name` in the API reference
/// (platform.openai.com/docs/api-reference/chat/create, checked 2026-11).
pub const OPENAI_NAMES: NameRule = NameRule {
    extra: "-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    source: "OpenAI API reference, function name (checked 2026-11)",
};

const OPENAI_STRICT_SOURCE: &str =
    "OpenAI Structured Outputs, supported schemas: objects have limitations (checked 2026-11)";

/// OpenAI with `strict: true` (Structured Outputs): a subset of JSON Schema. Every object
/// closed with `additionalProperties: false` and every property required (the strict pass
/// does both); `oneOf` as `anyOf`, `allOf` merged; nine formats; string length, object-size and
/// array-content keywords, `default` and the conditionals described; no root `anyOf`.
pub const OPENAI_STRICT: Profile = strict_common(OPENAI)
    .strict(StrictRules { all_required: true, recursion: true })
    .no_ref_siblings()
    .formats(&[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ])
    .limits(ProviderLimits {
        properties: Some(Limit { max: 5_000, source: OPENAI_STRICT_SOURCE }),
        depth: Some(Limit { max: 10, source: OPENAI_STRICT_SOURCE }),
        enum_values: Some(Limit { max: 1_000, source: OPENAI_STRICT_SOURCE }),
        schema_chars: Some(Limit { max: 120_000, source: OPENAI_STRICT_SOURCE }),
        ..ProviderLimits::NONE
    });

/// Anthropic, non-strict: `input_schema` is JSON Schema 2020-12; everything is kept, older
/// forms (tuple `items`) are rewritten into their 2020-12 equivalents. The root may not be a
/// combinator ("input_schema does not support oneOf, allOf, or anyOf at the top level").
pub const ANTHROPIC: Profile = Profile::keep_all("anthropic")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::AdditionalItems, Action::Rewrite)
    .root_forbids(ROOT_COMBINATORS)
    .names(ANTHROPIC_NAMES, Some(ANTHROPIC_KEYS))
    .limits(ANTHROPIC_LIMITS);

/// Anthropic tool names: `tools[].name` in the Messages API reference
/// (docs.anthropic.com/en/api/messages, checked 2026-11).
pub const ANTHROPIC_NAMES: NameRule = NameRule {
    extra: "-",
    max: 128,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,128}$",
    source: "Anthropic Messages API, tool name (checked 2026-11)",
};

/// Anthropic property keys in `input_schema` (the API's validation error for
/// `properties` keys, checked 2026-11).
pub const ANTHROPIC_KEYS: NameRule = NameRule {
    extra: ".-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_.-]{1,64}$",
    source: "Anthropic Messages API, input_schema property keys (checked 2026-11)",
};

const ANTHROPIC_STRICT_SOURCE: &str =
    "Anthropic structured outputs, JSON Schema limitations of strict tool use (checked 2026-11)";

const ANTHROPIC_LIMITS: ProviderLimits = ProviderLimits {
    strict_tools: Some(Limit { max: 20, source: ANTHROPIC_STRICT_SOURCE }),
    optional_params: Some(Limit { max: 24, source: ANTHROPIC_STRICT_SOURCE }),
    union_params: Some(Limit { max: 16, source: ANTHROPIC_STRICT_SOURCE }),
    cache_breakpoints: Some(Limit {
        max: 4,
        source: "Anthropic prompt caching: at most 4 cache_control breakpoints (checked 2026-11)",
    }),
    ..ProviderLimits::NONE
};

/// Anthropic with `strict: true`: every object closed, no all-required rule, ten formats,
/// `minItems` 0 or 1, numeric and length bounds described, no recursion.
pub const ANTHROPIC_STRICT: Profile = strict_common(ANTHROPIC)
    .strict(StrictRules { all_required: false, recursion: false })
    .formats(&[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ])
    .min_items_at_most(1)
    .with(Keyword::MaxItems, Action::Describe)
    .with(Keyword::Minimum, Action::Describe)
    .with(Keyword::Maximum, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Comment, Action::Drop);

const ROOT_COMBINATORS: FeatureSet =
    FeatureSet::of(&[SchemaFeature::AnyOf, SchemaFeature::OneOf, SchemaFeature::AllOf]);

/// What both strict modes lack: the keywords outside the Structured Outputs subset. `oneOf`
/// becomes `anyOf` (disjoint branches keep their meaning), `allOf` is merged, the rest is
/// described so the model still reads it, and annotations with no effect are dropped.
const fn strict_common(p: Profile) -> Profile {
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

/// Gemini function names: `FunctionDeclaration.name` (ai.google.dev/api/caching, checked
/// 2026-11): a letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`.
pub const GEMINI_NAMES: NameRule = NameRule {
    extra: ".:-",
    max: 128,
    letter_first: true,
    pattern: "^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$",
    source: "Gemini API FunctionDeclaration name (checked 2026-11)",
};

/// Gemini `parameters`: the OpenAPI 3.0 subset of the `Schema` object. Kept: type, format
/// (`enum`, `date-time`), title, description, nullable, enum (strings), items, min/maxItems,
/// properties, required, min/maxProperties, min/maxLength, pattern, minimum, maximum,
/// example, default, anyOf, propertyOrdering. One type per node, no boolean schemas, no refs.
pub const GEMINI: Profile = gemini_common(Profile::keep_all("gemini"))
    .rejecting_unlisted()
    .without(SchemaFeature::TypeArray)
    .without(SchemaFeature::BooleanSchema)
    .string_enums_only()
    .formats(&["enum", "date-time"])
    .with(Keyword::Const, Action::Rewrite)
    .with(Keyword::Enum, Action::Rewrite)
    .with(Keyword::AdditionalProperties, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Anchor, Action::Drop)
    .with(Keyword::Ref, Action::Rewrite)
    .with(Keyword::Defs, Action::Rewrite)
    .with(Keyword::Definitions, Action::Rewrite)
    .with(Keyword::PrefixItems, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::OneOf, Action::Rewrite)
    .with(Keyword::Examples, Action::Drop);

/// Gemini `parametersJsonSchema` (Gemini 2.5+): JSON Schema with `$ref`/`$defs`, `anyOf`,
/// `oneOf`, type arrays, `minimum`/`maximum`, `additionalProperties`, `prefixItems`; string
/// length, pattern, exclusive bounds and `default` go to the description.
pub const GEMINI_JSON: Profile = gemini_common(Profile::keep_all("gemini-json"))
    .no_ref_siblings()
    .with(Keyword::Const, Action::Rewrite)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::Default, Action::Describe)
    .with(Keyword::Pattern, Action::Describe)
    .with(Keyword::MinLength, Action::Describe)
    .with(Keyword::MaxLength, Action::Describe)
    .with(Keyword::MinProperties, Action::Describe)
    .with(Keyword::MaxProperties, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::Examples, Action::Drop)
    .with(Keyword::Example, Action::Drop);

/// What both Gemini fields lack: conditionals, `not`, the 2019+ applicators, annotations with
/// no place, unknown keywords. `allOf` is merged where it merges cleanly.
const fn gemini_common(p: Profile) -> Profile {
    p.names(GEMINI_NAMES, None)
        .without(SchemaFeature::TupleItems)
        .with(Keyword::AdditionalItems, Action::Rewrite)
        .with(Keyword::AllOf, Action::Rewrite)
        .with(Keyword::Schema, Action::Drop)
        .with(Keyword::Comment, Action::Drop)
        .with(Keyword::Vocabulary, Action::Drop)
        .with(Keyword::DynamicAnchor, Action::Drop)
        .with(Keyword::RecursiveAnchor, Action::Drop)
        .with(Keyword::Deprecated, Action::Drop)
        .with(Keyword::ReadOnly, Action::Drop)
        .with(Keyword::WriteOnly, Action::Drop)
        .with(Keyword::ContentEncoding, Action::Drop)
        .with(Keyword::ContentMediaType, Action::Drop)
        .with(Keyword::Unknown, Action::Drop)
        .with(Keyword::Not, Action::Describe)
        .with(Keyword::If, Action::Describe)
        .with(Keyword::Then, Action::Describe)
        .with(Keyword::Else, Action::Describe)
        .with(Keyword::Contains, Action::Describe)
        .with(Keyword::MinContains, Action::Describe)
        .with(Keyword::MaxContains, Action::Describe)
        .with(Keyword::UniqueItems, Action::Describe)
        .with(Keyword::PatternProperties, Action::Describe)
        .with(Keyword::PropertyNames, Action::Describe)
        .with(Keyword::DependentRequired, Action::Describe)
        .with(Keyword::DependentSchemas, Action::Describe)
        .with(Keyword::Dependencies, Action::Describe)
        .with(Keyword::UnevaluatedItems, Action::Describe)
        .with(Keyword::UnevaluatedProperties, Action::Describe)
        .with(Keyword::ContentSchema, Action::Describe)
        .with(Keyword::DynamicRef, Action::Describe)
        .with(Keyword::RecursiveRef, Action::Describe)
}

// The Go toolfoundation library's support matrix, for callers migrating from it.
//
// Source: github.com/jonwraymond/toolfoundation, package `adapter` (read 2026-11):
// `openai.go` (`openAIFeatures`), `anthropic.go` (`anthropicFeatures`), `gemini.go`
// (`geminiFeatures`), `mcp.go` (`SupportsFeature` returns true for every feature). Each
// adapter's `FromCanonical` copies only the features it supports (`filter*Schema`) and
// `registry.go` (`detectFeatureLoss`) emits one `FeatureLossWarning` per unsupported feature
// used: drop semantics, never a rewrite or a description. Its `JSONSchema` models only the 28
// features of `AllFeatures()` (plus `type`, `properties`, `required`, `items`, `description`),
// so every other keyword is dropped too; here it is dropped *and* reported. The list
// is the authority for the matrix; the Go tables agree with it.

/// The features the Go library's OpenAI adapter supports (`openAIFeatures`).
pub const TOOLFOUNDATION_OPENAI_FEATURES: FeatureSet = FeatureSet::of(&[
    SchemaFeature::Enum,
    SchemaFeature::Default,
    SchemaFeature::AdditionalProperties,
    SchemaFeature::Minimum,
    SchemaFeature::Maximum,
    SchemaFeature::MinLength,
    SchemaFeature::MaxLength,
    SchemaFeature::MultipleOf,
    SchemaFeature::MinItems,
    SchemaFeature::MaxItems,
    SchemaFeature::MinProperties,
    SchemaFeature::MaxProperties,
    SchemaFeature::UniqueItems,
    SchemaFeature::Const,
]);

/// The features the Go library's Anthropic adapter supports (`anthropicFeatures`): OpenAI's
/// plus `anyOf`.
pub const TOOLFOUNDATION_ANTHROPIC_FEATURES: FeatureSet =
    TOOLFOUNDATION_OPENAI_FEATURES.union(FeatureSet::of(&[SchemaFeature::AnyOf]));

/// The features the Go library's Gemini adapter supports (`geminiFeatures`).
pub const TOOLFOUNDATION_GEMINI_FEATURES: FeatureSet = FeatureSet::of(&[
    SchemaFeature::Ref,
    SchemaFeature::Defs,
    SchemaFeature::AnyOf,
    SchemaFeature::Pattern,
    SchemaFeature::Format,
    SchemaFeature::AdditionalProperties,
    SchemaFeature::Minimum,
    SchemaFeature::Maximum,
    SchemaFeature::MinLength,
    SchemaFeature::MaxLength,
    SchemaFeature::MinItems,
    SchemaFeature::MaxItems,
    SchemaFeature::MinProperties,
    SchemaFeature::MaxProperties,
    SchemaFeature::Enum,
    SchemaFeature::Default,
    SchemaFeature::Title,
    SchemaFeature::Nullable,
]);

/// `base` held to the Go library's matrix: every keyword whose feature is in `supported` is
/// kept, every other keyword with a feature (the rest of the 28, everything the Go
/// `JSONSchema` does not model, unknown keywords) is dropped, each drop a warning. What has no
/// feature bit (`type`, `properties`, `items`, `required`, `description`) and the format's
/// structural rules (root object, names, Gemini's one type per node) stay as `base` has them.
#[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
const fn toolfoundation(base: Profile, supported: FeatureSet) -> Profile {
    let mut p = base.annotation_drops_warn();
    let mut i = 0;
    while i < Keyword::ALL.len() {
        let kw = Keyword::ALL[i];
        if let Some(f) = kw.feature() {
            p = p.with(kw, if supported.contains(f) { Action::Keep } else { Action::Drop });
        }
        i += 1;
    }
    p.with(Keyword::Unknown, Action::Drop)
}

/// MCP under the toolfoundation profile: the Go MCP adapter supports every feature, so this
/// is the MCP profile (everything kept).
pub const TOOLFOUNDATION_MCP: Profile = MCP.named("mcp (toolfoundation)");

/// OpenAI Chat Completions (and Responses) under the toolfoundation profile.
pub const TOOLFOUNDATION_OPENAI: Profile =
    toolfoundation(OPENAI, TOOLFOUNDATION_OPENAI_FEATURES).named("openai (toolfoundation)");

/// Anthropic under the toolfoundation profile.
pub const TOOLFOUNDATION_ANTHROPIC: Profile =
    toolfoundation(ANTHROPIC, TOOLFOUNDATION_ANTHROPIC_FEATURES)
        .named("anthropic (toolfoundation)");

/// Gemini `parameters` under the toolfoundation profile. It keeps what the Go adapter keeps,
/// `$ref`, `$defs` and `additionalProperties` included, which Gemini's `parameters` subset
/// does not document (the default Gemini profile inlines or drops them); and, as the Go
/// adapter keeps the boolean `additionalProperties: false`, boolean schemas.
pub const TOOLFOUNDATION_GEMINI: Profile = toolfoundation(GEMINI, TOOLFOUNDATION_GEMINI_FEATURES)
    .with_construct(SchemaFeature::BooleanSchema)
    .named("gemini (toolfoundation)");

/// Gemini `parametersJsonSchema` under the toolfoundation profile: the Go library has one
/// Gemini adapter, so its matrix, on the JSON Schema field.
pub const TOOLFOUNDATION_GEMINI_JSON: Profile =
    toolfoundation(GEMINI_JSON, TOOLFOUNDATION_GEMINI_FEATURES)
        .named("gemini-json (toolfoundation)");

/// LangChain under the toolfoundation profile: the Go library has no LangChain adapter; the
/// nearest is its MCP adapter, which passes the schema on whole, as LangChain does, so this
/// is the LangChain profile (everything kept).
pub const TOOLFOUNDATION_LANGCHAIN: Profile = LANGCHAIN.named("langchain (toolfoundation)");

/// The toolfoundation profile for the built-in format `format`, or `None` for a format it has
/// no entry for (`openapi`, which is not a target, and formats registered by the caller).
/// `openai-responses` shares OpenAI's entry (the Go OpenAI adapter covers function tools),
/// `gemini-json` Gemini's, `langchain` MCP's (see [`TOOLFOUNDATION_LANGCHAIN`]).
pub fn toolfoundation_profile(format: &str) -> Option<&'static Profile> {
    Some(match format {
        "mcp" => &TOOLFOUNDATION_MCP,
        "openai" | "openai-responses" => &TOOLFOUNDATION_OPENAI,
        "anthropic" => &TOOLFOUNDATION_ANTHROPIC,
        "gemini" => &TOOLFOUNDATION_GEMINI,
        "gemini-json" => &TOOLFOUNDATION_GEMINI_JSON,
        "langchain" => &TOOLFOUNDATION_LANGCHAIN,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Only `keep` and `drop` for keywords with a feature: no describe, no rewrite.
        for p in [&TOOLFOUNDATION_OPENAI, &TOOLFOUNDATION_ANTHROPIC, &TOOLFOUNDATION_GEMINI] {
            for kw in Keyword::ALL.into_iter().chain([Keyword::Unknown]) {
                if kw.feature().is_some() {
                    assert!(matches!(p.action(kw), Action::Keep | Action::Drop), "{kw}");
                }
            }
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
        assert_eq!(toolfoundation_profile("openai-responses"), Some(&TOOLFOUNDATION_OPENAI));
    }

    #[test]
    fn unknown_keyword_action_moves_the_construct() {
        let p = Profile::keep_all("x").with(Keyword::Unknown, Action::Drop);
        assert!(!p.features().contains(SchemaFeature::UnknownKeyword));
    }
}
