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
//! These are the non-strict columns of the design's feature matrix; the strict columns come
//! with their pass.

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
        }
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

    /// Features whose keyword the target does not keep as is: a subtree that uses none of these
    /// passes the policy untouched.
    #[inline]
    pub const fn changed_features(&self) -> FeatureSet {
        FeatureSet::all().difference(self.kept)
    }
}

/// MCP: `inputSchema` is any JSON Schema (2020-12 by default); everything is kept.
pub const MCP: Profile = Profile::keep_all("mcp");

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
    .with(Keyword::Comment, Action::Drop);

/// Anthropic, non-strict: `input_schema` is JSON Schema 2020-12; everything is kept, older
/// forms (tuple `items`) are rewritten into their 2020-12 equivalents.
pub const ANTHROPIC: Profile = Profile::keep_all("anthropic")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::AdditionalItems, Action::Rewrite);

/// Gemini `parameters`: the OpenAPI 3.0 subset of the `Schema` object. Kept: type, format
/// (`enum`, `date-time`), title, description, nullable, enum (strings), items, min/maxItems,
/// properties, required, min/maxProperties, min/maxLength, pattern, minimum, maximum,
/// example, default, anyOf, propertyOrdering. One type per node, no boolean schemas, no refs.
pub const GEMINI: Profile = gemini_common(Profile::keep_all("gemini"))
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
    p.without(SchemaFeature::TupleItems)
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
        for p in [&MCP, &OPENAI, &ANTHROPIC, &GEMINI, &GEMINI_JSON] {
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
    fn unknown_keyword_action_moves_the_construct() {
        let p = Profile::keep_all("x").with(Keyword::Unknown, Action::Drop);
        assert!(!p.features().contains(SchemaFeature::UnknownKeyword));
    }
}
