//! Cohere (Chat API v2) function tools: the OpenAI Chat Completions shape
//! (`{"type": "function", "function": {name, description, parameters}}`), read and written by
//! the `openai` format's code ([`super::wire`]), held to Cohere (Chat API v2)'s own rules (`rules.rs`).

pub mod rules;

/// Cohere (Chat API v2) function tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cohere;

super::wire::shares_wire!(Cohere, rules::INFO, super::OpenAi);
