//! tooladapter converts LLM tool definitions between MCP, OpenAI (Chat Completions and
//! Responses), Anthropic, Amazon Bedrock (Converse), Google Gemini (and Vertex AI), Mistral,
//! Ollama, xAI, Cohere, LangChain and A2A (AgentCard skills), and imports OpenAPI operations, through one arena-allocated schema IR, keeping what
//! the target can hold and reporting, with a JSON pointer, everything it cannot. The formats are
//! [`formats::builtins`] (`Format::ALL`); `tests/doc_claims.rs` checks that this list names them.
//!
//! ```
//! use tooladapter::Registry;
//!
//! let registry = Registry::default();
//! let mcp = br#"{"tools":[{"name":"get_weather","title":"Weather",
//!   "inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}"#;
//! let conversion = registry.convert(mcp, "mcp", "openai")?;
//! assert_eq!(
//!     conversion.output_str(),
//!     r#"[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]"#
//! );
//! // MCP's `title` has no place in an OpenAI tool: the report says so, with its pointer in the
//! // input document (and `tool_pointer`, in the tool). No argument depends on it, so the same
//! // calls are accepted: `info`, not a loss.
//! let entry = &conversion.report().entries()[0];
//! assert_eq!(
//!     entry.to_string(),
//!     r#"info[metadata]: [metadata-dropped] tool "get_weather" at "/tools/0/title": `title` has no place in openai tools; dropped"#
//! );
//! assert_eq!(entry.tool_pointer, "/title");
//! assert!(conversion.warnings().is_empty());
//! # Ok::<(), tooladapter::ConversionError>(())
//! ```
//!
//! The pipeline is parse (simd-json tape) → lower (arena IR) → passes → emit; see
//! [`Converter`] for the reusable hot-path session and `docs/design-notes.md` for the design.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::unreachable,
    clippy::todo
)]

pub mod adapter;
#[cfg(any(feature = "rmcp", feature = "async-openai", feature = "schemars"))]
mod bridges;
pub mod catalog;
mod check;
mod context;
mod convert;
mod emit;
mod error;
mod format;
pub mod formats;
mod imported;
pub mod inverse;
pub mod ir;
mod lower;
#[cfg(feature = "validate")]
mod meta_schema;
mod named;
mod options;
mod owned;
mod parse;
mod passes;
mod pointer;
mod profile;
mod registry;
mod report;
mod route;
mod scan;
pub mod stream;
pub mod toolfoundation;
pub mod traffic;

pub use adapter::{Adapter, FormatInfo};
#[cfg(any(feature = "rmcp", feature = "async-openai"))]
pub use bridges::BridgeError;
#[allow(deprecated)]
pub use convert::Shape;
pub use convert::{Conversion, Converter, DocumentKind, TrafficOptions};
pub use error::{ConversionError, Direction, ErrorKind};
pub use formats::{Format, IntoFormat, ModelFamily};
pub use inverse::{Inverse, ToolCall, UnmapError};
pub use ir::{FeatureSet, SchemaFeature};
#[cfg(feature = "validate")]
pub use meta_schema::{Dialect, MAX_SCHEMA_ERRORS, SchemaError, SchemaErrors};
pub use named::UnknownName;
pub use options::{Limits, Options, ProfileSet, Strict, StrictRefused};
pub use owned::{CanonicalTool, InstanceType, Items, JsonSchema, SchemaObject, SchemaType};
pub use owned::{MAX_NAME_LEN, ToolId, ToolIdError, ToolValidationError};
pub use profile::Action;
pub use profile::shape::{ProviderRule, ShapeRule};
pub use registry::Registry;
pub use traffic::TrafficConversion;
/// The README's examples, compiled and run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use report::{
    Code, DenyLoss, Effect, EntryRef, FeatureLossWarning, Report, ReportEntry, ReportText, Severity,
};
