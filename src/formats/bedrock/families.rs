//! Bedrock's model families: one Converse shape, but what a request may hold depends on the
//! model behind it. Each family is a profile of `bedrock` (its own [`FormatInfo`], read and
//! written by the `bedrock` format's code through [`super::super::wire::shares_wire`]), chosen
//! with `--model-family` or by passing [`ModelFamily::adapter`] as the target; each fact here
//! with its source and the date it was read (2026-11-28).
//!
//! What differs, and what does not. Strict tool use (`toolSpec.strict`, Bedrock structured
//! outputs) is documented for Anthropic's Claude models and "select" open-weight models
//! ("Native structured outputs is only available for select models: Anthropic: Claude Haiku
//! 4.5, Claude Sonnet 4.5, Claude Opus 4.5, Claude Opus 4.6; Open-weight: Select Qwen,
//! DeepSeek, Mistral, …", langchain-ai/langchain-aws#883): only the `anthropic` family has a
//! strict mode here, with Claude's rules ([`super::rules::STRICT`]); for the others a source's
//! `strict` is dropped and reported (no family documents which of its models enforce it, or
//! under which rules). `toolChoice` support differs too ([`ModelFamily::tool_choice`]). The
//! schema rules are Claude's for every family ([`super::rules::PROFILE`]): no other family
//! documents per-keyword limits; Nova's one documented rule, that the root holds only `type`,
//! `properties` and `required` (Nova user guide, "Tool use" troubleshooting), has no
//! per-keyword form and is not encoded (see docs/formats/bedrock.md).
//!
//! Without a family the `bedrock` format is unchanged: Claude's rules, strict mode included.

use crate::adapter::{FormatInfo, StrictMode, ToolChoiceRule};

use super::rules::{PROFILE, converse};

/// A family of models served through Bedrock Converse (`--model-family`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModelFamily {
    /// Anthropic's Claude models.
    Anthropic,
    /// Amazon Nova models.
    Nova,
    /// Meta's Llama models.
    Llama,
    /// Mistral AI's models.
    Mistral,
    /// Cohere's Command models.
    Cohere,
}

crate::named::named!(ModelFamily, "model family", display);

const TOOL_CHOICE_SOURCE: &str = "Bedrock API reference, `ToolChoice` (\"ToolChoice is only \
     supported by Anthropic Claude 3 models and by Mistral AI Mistral Large\"; `tool`: \"Only \
     supported by Anthropic Claude 3 and Amazon Nova models\"), langchain-ai/langchain-aws#620 \
     and #424 (read 2026-11-28)";

/// A `toolConfig`'s `toolChoice` members the family takes ([`ModelFamily::tool_choice`]).
const fn choice(takes: &'static [&'static str]) -> ToolChoiceRule {
    ToolChoiceRule::new("toolChoice", takes, TOOL_CHOICE_SOURCE)
}

/// Bedrock Converse for Claude: the `bedrock` format's facts, strict mode included.
pub const ANTHROPIC_INFO: FormatInfo =
    super::rules::INFO.tool_choice(choice(&["auto", "any", "tool"]));

/// Bedrock Converse for a family without a documented strict mode: Claude's schema rules (the
/// only ones documented), no `strict`.
const NO_STRICT: FormatInfo = converse(FormatInfo::new("bedrock", &PROFILE));

/// Bedrock Converse for Amazon Nova.
pub const NOVA_INFO: FormatInfo = NO_STRICT.tool_choice(choice(&["auto", "any", "tool"]));

/// Bedrock Converse for Meta's Llama.
pub const LLAMA_INFO: FormatInfo = NO_STRICT.tool_choice(choice(&["auto"]));

/// Bedrock Converse for Mistral AI's models.
pub const MISTRAL_INFO: FormatInfo = NO_STRICT.tool_choice(choice(&["auto", "any"]));

/// Bedrock Converse for Cohere's Command models.
pub const COHERE_INFO: FormatInfo = NO_STRICT.tool_choice(choice(&[]));

impl ModelFamily {
    /// Every family, in the order the CLI lists them.
    pub const ALL: [ModelFamily; 5] = [
        ModelFamily::Anthropic,
        ModelFamily::Nova,
        ModelFamily::Llama,
        ModelFamily::Mistral,
        ModelFamily::Cohere,
    ];

    /// The name the CLI spells it with.
    pub const fn as_str(self) -> &'static str {
        match self {
            ModelFamily::Anthropic => "anthropic",
            ModelFamily::Nova => "nova",
            ModelFamily::Llama => "llama",
            ModelFamily::Mistral => "mistral",
            ModelFamily::Cohere => "cohere",
        }
    }

    /// The family's facts: the `bedrock` format's, with the family's strict mode and
    /// `toolChoice` support.
    pub const fn info(self) -> &'static FormatInfo {
        match self {
            ModelFamily::Anthropic => &ANTHROPIC_INFO,
            ModelFamily::Nova => &NOVA_INFO,
            ModelFamily::Llama => &LLAMA_INFO,
            ModelFamily::Mistral => &MISTRAL_INFO,
            ModelFamily::Cohere => &COHERE_INFO,
        }
    }

    /// Whether the family has a strict mode (`toolSpec.strict` enforced).
    pub const fn strict(self) -> Option<StrictMode> {
        self.info().strict
    }

    /// The members of a Converse `toolChoice` the family's models take (`auto`, `any`,
    /// `tool`): none where the family documents no `toolChoice` at all.
    ///
    /// - Anthropic: all three (the API reference; "Converse API should currently support all
    ///   ToolChoice values … I tested the `any` and `tool` options against Sonnet 4 and Opus
    ///   4/4.1", langchain-ai/langchain-aws#620, 2025-09-13).
    /// - Nova: all three since March 2025 ("Amazon Nova expands tool choice options for
    ///   Converse API", followed by langchain-ai/langchain-aws#424, 2025-03-20; the API
    ///   reference's `tool` names Nova). The earlier refusals, "This model doesn't support the
    ///   toolConfig.toolChoice.tool field" (BerriAI/litellm#7242, 2024-12-15) and `any`
    ///   (aws-samples/bedrock-access-gateway#92, 2025-01-15), predate it.
    /// - Llama: `auto` ("llama models support the \"auto\" tool choice",
    ///   langchain-ai/langchain-aws#620; #627).
    /// - Mistral: `auto` and `any` (the API reference: `toolChoice` for Mistral Large, `tool`
    ///   only for Claude and Nova; langchain-aws infers ("auto", "any") for it).
    /// - Cohere: none (the API reference names only Claude and Mistral Large; langchain-aws
    ///   infers none).
    pub const fn tool_choice(self) -> &'static [&'static str] {
        match self.info().tool_choice {
            Some(rule) => rule.takes,
            None => &[],
        }
    }

    /// Where [`ModelFamily::tool_choice`] comes from, for reports.
    pub const fn tool_choice_source(self) -> &'static str {
        TOOL_CHOICE_SOURCE
    }

    /// The format whose models the families are: `bedrock`.
    pub const BASE: &'static str = super::rules::INFO.name;

    /// Whether `format` is the one whose models the families are ([`ModelFamily::BASE`]).
    pub fn belongs_to(format: &str) -> bool {
        format == Self::BASE
    }

    /// The target adapter for the family: the `bedrock` format held to the family's facts.
    pub const fn adapter(self) -> &'static dyn crate::Adapter {
        match self {
            ModelFamily::Anthropic => &Claude,
            ModelFamily::Nova => &Nova,
            ModelFamily::Llama => &Llama,
            ModelFamily::Mistral => &Mistral,
            ModelFamily::Cohere => &Cohere,
        }
    }
}

/// Declares the adapter of each family: a unit type whose tools the `bedrock` format's code
/// reads and writes, under the family's facts.
macro_rules! family_adapters {
    ($($ty:ident: $info:ident),* $(,)?) => {$(
        #[derive(Clone, Copy, Debug, Default)]
        struct $ty;

        super::super::wire::shares_wire!($ty, $info, super::Bedrock);
    )*};
}

family_adapters!(
    Claude: ANTHROPIC_INFO,
    Nova: NOVA_INFO,
    Llama: LLAMA_INFO,
    Mistral: MISTRAL_INFO,
    Cohere: COHERE_INFO,
);
