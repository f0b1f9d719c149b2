//! What a provider's conversations must look like, as data: the types each format's
//! `rules.rs` fills in ([`TrafficRules`]), with the source of every rule beside it. The
//! pipeline and the writers read the same table, so what a writer leaves out is what the
//! report says it left out.

use crate::ir::traffic::BlockKinds;

use super::TrafficKind;

/// Which call ids a provider accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdRule {
    /// Every call must have an id (a result must name its call's).
    pub required: bool,
    /// The characters allowed besides ASCII letters and digits; `None` for any character.
    pub extra: Option<&'static str>,
    /// Shortest id, in bytes.
    pub min: usize,
    /// Longest id, in bytes.
    pub max: usize,
    /// The rule as the provider documents it.
    pub pattern: &'static str,
    /// Where the rule comes from, with the date it was read.
    pub source: &'static str,
}

impl IdRule {
    /// Any id, or none (a format that pairs by name and order, or JSON-RPC's string or number).
    pub const ANY: IdRule =
        IdRule { required: false, extra: None, min: 0, max: usize::MAX, pattern: "", source: "" };

    /// Whether `c` may appear in an id.
    pub fn allows(&self, c: u8) -> bool {
        match self.extra {
            None => true,
            Some(extra) => c.is_ascii_alphanumeric() || extra.as_bytes().contains(&c),
        }
    }

    /// Whether `id` obeys the rule.
    pub fn accepts(&self, id: &str) -> bool {
        let b = id.as_bytes();
        (self.min..=self.max).contains(&b.len()) && b.iter().all(|&c| self.allows(c))
    }
}

/// How a provider's tool choice can be said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceRules {
    /// `none` can be said.
    pub none: bool,
    /// "some tool" (`required`, `any`) can be said.
    pub required: bool,
    /// Whether parallel calls can be turned off.
    pub parallel: bool,
    /// Where the rule comes from, with the date it was read.
    pub source: &'static str,
}

/// A provider's conversation rules.
#[derive(Clone, Copy, Debug)]
pub struct TrafficRules {
    /// The payload kinds the format has (MCP has calls and results only).
    pub kinds: &'static [TrafficKind],
    /// The provider's call id rule.
    pub ids: IdRule,
    /// Content kinds a tool result carries.
    pub result_blocks: BlockKinds,
    /// Content kinds a user message carries (and the content sent with results).
    pub user_blocks: BlockKinds,
    /// Whether a result can say that the tool failed (a flag, a status, an `error` member).
    pub error_flag: bool,
    /// Whether arguments are written as JSON text (OpenAI's string) rather than an object.
    pub args_text: bool,
    /// Whether a call's reasoning signature has a place on the call (Gemini's
    /// `thoughtSignature` on the part).
    pub call_signature: bool,
    /// Whether a result names its tool (Gemini needs the name).
    pub result_name: bool,
    /// Whether system messages may sit among the turns (OpenAI Chat's `system` role);
    /// otherwise system text has one place, before the turns.
    pub system_in_turns: bool,
    /// Whether a call may take free text instead of JSON arguments (Responses
    /// `custom_tool_call`).
    pub custom_calls: bool,
    /// The signature a call from another provider is sent with where the provider requires
    /// one and documents a placeholder (Gemini 3's `thoughtSignature`).
    pub placeholder_signature: Option<&'static str>,
    /// Whether every call must have its result in the next turn (a request with a call left
    /// unanswered is refused).
    pub results_follow_calls: bool,
    /// Whether an assistant turn's text has a place beside its calls (MCP's `tools/call`
    /// requests have none).
    pub assistant_text: bool,
    /// Where media may be fetched from besides inline data: [`Media`] by URL, and the cloud
    /// URI scheme the provider reads (`s3://`, `gs://`). A provider's file ids never travel
    /// to another provider.
    ///
    /// [`Media`]: crate::ir::traffic::Media
    pub media: MediaRules,
    /// Whether a result whose one text block is a JSON object is sent as that object (Gemini's
    /// `functionResponse.response` is an object: the model reads it as one).
    pub json_results: bool,
    /// How the tool choice can be said.
    pub choice: ChoiceRules,
    /// The rules a conversation is held to, in words with their sources (docs/traffic.md
    /// lists them; the pipeline's checks cite them).
    pub conversation: &'static [ConversationRule],
}

/// Where a provider reads media from, besides inline data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MediaRules {
    /// Media by `http(s)` URL.
    pub url: bool,
    /// The cloud URI scheme it reads (`s3://`, `gs://`), if any.
    pub uri_scheme: Option<&'static str>,
    /// Whether a document may be given as its text (Anthropic's and Bedrock's `text`
    /// source); elsewhere such a document is sent as a text block.
    pub text_documents: bool,
    /// The media types a document given as inline (base64) data may have; `None`: any.
    pub base64_documents: Option<&'static [&'static str]>,
}

/// One rule of a provider's conversations, with its evidence.
#[derive(Clone, Copy, Debug)]
pub struct ConversationRule {
    /// What the rule asks.
    pub rule: &'static str,
    /// What the conversion does to obey it.
    pub fix: &'static str,
    /// The error text or documentation line, with its source and the date it was read.
    pub source: &'static str,
}
