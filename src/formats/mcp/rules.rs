//! MCP's facts and rules: `Tool.inputSchema` is any JSON Schema (2020-12 by default,
//! MCP specification 2025-11-25), so everything is kept.

use crate::adapter::FormatInfo;
use crate::profile::Profile;

/// MCP: `inputSchema` is any JSON Schema (2020-12 by default); everything is kept.
pub const PROFILE: Profile = Profile::keep_all("mcp");

/// MCP under the toolfoundation profile: the Go MCP adapter supports every feature, so this
/// is the MCP profile (everything kept).
pub const TOOLFOUNDATION: Profile = PROFILE.named("mcp (toolfoundation)");

/// The MCP format: a `{"tools": […]}` catalog (a `tools/list` result, also in its JSON-RPC
/// response), an output schema, every member kept.
pub const INFO: FormatInfo = FormatInfo::new("mcp", &PROFILE)
    .output_schema()
    .toolfoundation(&TOOLFOUNDATION)
    .schema_members(&[super::INPUT])
    .envelope(super::JSON_RPC)
    .catalog_hints(super::LIST_HINTS);
