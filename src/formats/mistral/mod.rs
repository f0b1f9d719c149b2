//! Mistral AI function tools: the OpenAI Chat Completions shape
//! (`{"type": "function", "function": {name, description, parameters}}`), read and written by
//! the `openai` format's code ([`super::wire`]), held to Mistral AI's own rules (`rules.rs`).

pub mod rules;

/// Mistral AI function tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mistral;

super::wire::shares_wire!(Mistral, rules::INFO, super::OpenAi);
