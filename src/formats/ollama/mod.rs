//! Ollama function tools: the OpenAI Chat Completions shape
//! (`{"type": "function", "function": {name, description, parameters}}`), read and written by
//! the `openai` format's code ([`super::wire`]), held to Ollama's own rules (`rules.rs`).

pub mod rules;

/// Ollama function tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ollama;

super::wire::shares_wire!(Ollama, rules::INFO, super::OpenAi);
