//! The Go `toolfoundation` library's support matrix, for callers migrating from it.
//!
//! The profiles themselves are data in each format's rules (`formats/<name>/rules.rs`), next
//! to the default ones; this module names them and answers the Go library's `SupportsFeature` question per
//! format. Select them for a conversion with [`crate::ProfileSet::ToolFoundation`] (CLI
//! `--profile toolfoundation`). `docs/toolfoundation.md` has the matrix and how the
//! conversions differ from the Go library's (report order, escaped pointers, completeness).
//!
//! ```
//! use tooladapter::{SchemaFeature, toolfoundation};
//!
//! // `OpenAIAdapter.SupportsFeature(FeaturePattern)` is false in the Go library.
//! assert_eq!(toolfoundation::supports_feature("openai", SchemaFeature::Pattern), Some(false));
//! assert!(toolfoundation::GEMINI.supports_feature(SchemaFeature::Ref));
//! // No entry: `openapi` is not a target.
//! assert_eq!(toolfoundation::supports_feature("openapi", SchemaFeature::Ref), None);
//! ```

use crate::ir::SchemaFeature;
use crate::profile::Profile;

pub use crate::formats::rules::anthropic::{
    TOOLFOUNDATION as ANTHROPIC, TOOLFOUNDATION_FEATURES as ANTHROPIC_FEATURES,
};
pub use crate::formats::rules::gemini::{
    TOOLFOUNDATION as GEMINI, TOOLFOUNDATION_FEATURES as GEMINI_FEATURES,
    TOOLFOUNDATION_JSON as GEMINI_JSON,
};
pub use crate::formats::rules::langchain::TOOLFOUNDATION as LANGCHAIN;
pub use crate::formats::rules::mcp::TOOLFOUNDATION as MCP;
pub use crate::formats::rules::openai::{
    TOOLFOUNDATION as OPENAI, TOOLFOUNDATION_FEATURES as OPENAI_FEATURES,
};

/// The 28 features of the Go library (`AllFeatures()`), in its order: the first 28 of
/// [`SchemaFeature::ALL`].
pub fn go_features() -> &'static [SchemaFeature] {
    SchemaFeature::ALL.get(..28).unwrap_or_default()
}

/// The toolfoundation profile for `format` (a built-in format name), or `None` when it has
/// no entry for it.
pub fn profile(format: &str) -> Option<&'static Profile> {
    crate::formats::builtin(format).and_then(|f| f.info().toolfoundation)
}

/// What the Go library's adapter for `format` answers to `SupportsFeature(feature)`
/// ([`Profile::declares`]): whether the matrix keeps the feature converting to `format`.
/// `None` when the profile has no entry for `format`. A feature outside the Go library's 28
/// is kept only by the keep-all formats (`mcp`, `langchain`), or when it is a construct the
/// format holds (a type array for OpenAI); the Go library drops the keywords it does not
/// model. A conversion keeps a feature the matrix supports unless the provider refuses it
/// (Gemini's `additionalProperties`: [`Profile::supports_feature`] answers for the
/// conversion), so that what it writes passes `check`.
pub fn supports_feature(format: &str, feature: SchemaFeature) -> Option<bool> {
    profile(format).map(|p| p.declares(feature))
}
