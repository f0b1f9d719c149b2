//! Target profiles: per keyword, what a target does with it. One table per target, in code,
//! so `supports_feature`, the passes and the docs all read the same answer.
//!
//! Sources (checked 2026-11): OpenAI function calling guide (platform.openai.com/docs/guides/
//! function-calling) and Structured Outputs "supported schemas"; Anthropic tool use docs
//! (docs.anthropic.com/en/docs/agents-and-tools/tool-use); MCP specification 2025-11-25
//! (`Tool.inputSchema` is a JSON Schema object, 2020-12 by default). These are the
//! non-strict columns of the design's feature matrix; strict and Gemini columns come with
//! their passes.

use crate::ir::{FeatureSet, Keyword, SchemaFeature};

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

/// A target's keyword → action table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    name: &'static str,
    actions: [Action; SLOTS],
    // Features kept as they are, maintained by `with` so lookups on the hot path are one AND.
    kept: FeatureSet,
}

impl Profile {
    /// A profile that keeps every keyword.
    pub const fn keep_all(name: &'static str) -> Profile {
        Profile { name, actions: [Action::Keep; SLOTS], kept: FeatureSet::all() }
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
/// `parameters` (older forms are rewritten by the dialect pass); `$schema`, `$id` and
/// `$comment` carry nothing for the model and are dropped.
pub const OPENAI: Profile = Profile::keep_all("openai")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::AdditionalItems, Action::Rewrite)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Comment, Action::Drop);

/// Anthropic, non-strict: `input_schema` is JSON Schema 2020-12; everything is kept, older
/// forms (tuple `items`) are rewritten into their 2020-12 equivalents.
pub const ANTHROPIC: Profile = Profile::keep_all("anthropic")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::AdditionalItems, Action::Rewrite);

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
            ])
        );
        assert_eq!(MCP.features(), FeatureSet::all());
    }

    #[test]
    fn the_cached_set_agrees_with_the_table() {
        for p in [&MCP, &OPENAI, &ANTHROPIC] {
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
    fn unknown_keyword_action_moves_the_construct() {
        let p = Profile::keep_all("x").with(Keyword::Unknown, Action::Drop);
        assert!(!p.features().contains(SchemaFeature::UnknownKeyword));
    }
}
