//! Tool traffic: the calls a model makes, the results tools send back, and the conversations
//! and responses that carry them, converted between providers
//! ([`crate::Converter::convert_traffic`]).
//!
//! This module is what a format implements to speak traffic: a [`TrafficFormat`] (its reader
//! and writer, in its folder, and its [`TrafficRules`] as data in its `rules.rs`), which
//! [`crate::Adapter::traffic`] hands out, with the [`Reader`] and [`Out`] helpers. A
//! conversion (in `convert/traffic`) reads the payload into the arena model
//! ([`crate::ir::traffic`]), maps its calls through a definitions conversion's map, gives ids
//! the target's rule admits, works out what the target cannot carry (each an entry in the same
//! [`crate::Report`] as the definitions'), and writes it. The same format writes its source
//! back, only what the conversion changed replaced.

mod args;
mod ids;
pub(crate) mod note;
mod read;
mod rules;
mod write;

use crate::error::ConversionError;
use crate::ir::Json;
use crate::ir::traffic::Payload;
use crate::report::{DenyLoss, Report};

pub(crate) use args::ArgParser;
pub(crate) use ids::{IdLog, made_id, rewritten_id};
pub use ids::{IdPair, Ids};
pub use read::{List, Reader, data_url, get, holds_nothing};
pub use rules::{ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficRules};
pub use write::Out;
pub(crate) use write::{Patch, Replace, recycle_patches, write_patched};

/// What a traffic payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrafficKind {
    /// An assistant turn carrying tool calls (an OpenAI assistant message with `tool_calls`,
    /// Anthropic `tool_use` blocks, an MCP `tools/call` request, …).
    Calls,
    /// A turn carrying tool results (OpenAI `role: "tool"` messages, Anthropic `tool_result`
    /// blocks, an MCP `CallToolResult`, …).
    Results,
    /// A conversation: a request body (its messages, system text, tool choice and tools) or a
    /// list of messages.
    Messages,
    /// A whole model response (OpenAI `chat.completion`, Anthropic `Message`, Gemini
    /// `GenerateContentResponse`, …).
    Response,
}

crate::named::named!(TrafficKind, "traffic kind", display);

impl TrafficKind {
    /// Every kind, in the order the CLI lists them.
    pub const ALL: [TrafficKind; 4] =
        [TrafficKind::Calls, TrafficKind::Results, TrafficKind::Messages, TrafficKind::Response];

    /// The kind as the CLI spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            TrafficKind::Calls => "calls",
            TrafficKind::Results => "results",
            TrafficKind::Messages => "messages",
            TrafficKind::Response => "response",
        }
    }
}

/// Which way a definitions conversion's map is applied to calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapDirection {
    /// From the definitions' target back to their source: a model's calls coming back.
    Back,
    /// From the definitions' source to their target: history replayed to the provider.
    Forward,
}

/// The result of a traffic conversion: output bytes, the report, and the ids it wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrafficConversion {
    pub(crate) output: Vec<u8>,
    pub(crate) report: Report,
    pub(crate) kind: Option<TrafficKind>,
    pub(crate) ids: IdLog,
    pub(crate) deny: Option<DenyLoss>,
}

impl TrafficConversion {
    /// The converted payload, UTF-8 JSON.
    pub fn output(&self) -> &[u8] {
        &self.output
    }

    /// The converted payload as text.
    pub fn output_str(&self) -> &str {
        std::str::from_utf8(&self.output).unwrap_or_default()
    }

    /// Everything the conversion recorded.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The payload's kind (as given, or as told from its shape).
    pub fn kind(&self) -> Option<TrafficKind> {
        self.kind
    }

    /// The ids the conversion wrote for its calls, with the ones they replaced and the tools
    /// called (made on first use).
    pub fn ids(&self) -> &Ids {
        self.ids.get()
    }

    /// Whether the report has an entry the options' loss rule denies.
    pub fn loss_denied(&self) -> bool {
        self.deny.is_some_and(|rule| self.report.denied(rule))
    }

    pub(crate) fn clear(&mut self) {
        self.output.clear();
        self.report.clear();
        self.kind = None;
        self.ids.clear();
        self.deny = None;
    }

    pub(crate) fn retained_bytes(&self) -> usize {
        self.output.capacity() + self.ids.retained_bytes()
    }
}

/// A format's tool traffic: its reader, its writer and its rules. Built-in formats keep one in
/// their folder (`formats/<name>/traffic.rs`); [`crate::Adapter::traffic`] returns it.
pub trait TrafficFormat: Send + Sync {
    /// The format's conversation rules.
    fn rules(&self) -> &'static TrafficRules;

    /// The kind `doc` is, told from its shape; `None` when it is none of the format's.
    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind>;

    /// Reads `doc` as a payload of `kind` (one of [`TrafficRules::kinds`]).
    ///
    /// # Errors
    /// A [`ConversionError`] with the pointer of the bad place when `doc` is not such a
    /// payload.
    fn read<'a>(
        &self,
        rd: &mut Reader<'a, '_>,
        doc: &'a Json<'a>,
        kind: TrafficKind,
    ) -> Result<Payload<'a>, ConversionError>;

    /// A request body's tool definitions, as the format's definitions reader reads them
    /// (Bedrock's `toolConfig`, Gemini's `tools` list, …), and their pointer in the body.
    /// `None` for a body without them, and by default.
    fn tools<'j>(&self, doc: &Json<'j>) -> Option<(Json<'j>, &'static str)> {
        let _ = doc;
        None
    }

    /// Writes `payload` in this format. The pipeline has made it fit the format's rules:
    /// arguments are text or values as [`TrafficRules::args_text`] says, ids obey its id
    /// rule, and what the format cannot carry is reported; the writer leaves that out.
    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>);
}
