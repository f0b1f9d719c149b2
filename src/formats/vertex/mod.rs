//! Gemini function declarations on Vertex AI: the Gemini API's shape (`parameters` in the
//! OpenAPI subset, or `parametersJsonSchema`; catalogs `{"functionDeclarations": […]}`), read
//! and written by the `gemini` format's code ([`super::wire`]), held to Vertex AI's own
//! `Schema` rules where they differ from the Gemini API's (`rules.rs`).

pub mod rules;

/// Gemini function declarations on Vertex AI.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vertex;

super::wire::shares_wire!(Vertex, rules::INFO, super::Gemini);
