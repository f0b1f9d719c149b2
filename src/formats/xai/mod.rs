//! xAI (Grok) function tools: the OpenAI Chat Completions shape
//! (`{"type": "function", "function": {name, description, parameters}}`), read and written by
//! the `openai` format's code ([`super::wire`]), held to xAI (Grok)'s own rules (`rules.rs`).

pub mod rules;

/// xAI (Grok) function tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Xai;

super::wire::shares_wire!(Xai, rules::INFO, super::OpenAi);
