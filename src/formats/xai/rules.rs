//! xAI's facts and rules: Grok's Chat Completions tools are OpenAI's shape ("tools: function
//! name, description and JSON Schema parameters", docs.x.ai function calling, as
//! chenyme/grok2api#219 quotes it, 2026-02-23), and its API refuses what OpenAI's accepts in
//! places, each rule here with its source and the date it was checked.
//!
//! What is not encoded: unions that "break Grok tools" (vercel/ai#7455) carry no error text
//! to hold a rule to; `anyOf` is kept. xAI documents no function-name rule and no strict
//! mode of its own.

use crate::adapter::{Action, FormatInfo};
use crate::profile::Profile;
use crate::profile::shape::{ProviderRule, ShapeRule};

use super::super::openai::rules::{chat_schema, chat_wire};

/// What xAI refuses beyond its keyword table.
pub const SHAPE: [ProviderRule; 1] = [ProviderRule {
    rule: ShapeRule::EnumNoNull,
    error: "Client specified an invalid argument",
    source: "xAI refuses `null` in a tool schema's `enum` (`\"enum\": [\"content\", \"files_with_matches\", \"count\", null]`), tailcallhq/forgecode#2809 (2026-04-02; read 2026-11-28)",
    fix: Action::Drop,
}];

/// xAI's `parameters`: JSON Schema as an OpenAI-compatible endpoint reads it, without `null`
/// among an `enum`'s values.
pub const PROFILE: Profile = chat_schema(Profile::keep_all("xai")).obeying(&SHAPE);

/// xAI Chat Completions function tools: `parameters` may be omitted, as on OpenAI's.
pub const INFO: FormatInfo = chat_wire(FormatInfo::new("xai", &PROFILE)).optional_input_schema();
