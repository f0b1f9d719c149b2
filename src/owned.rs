//! placeholder
pub struct CanonicalTool;
pub struct JsonSchema;
