//! MCP's facts and rules: `Tool.inputSchema` is any JSON Schema (2020-12 by default,
//! MCP specification 2025-11-25), so everything is kept.

use crate::adapter::FormatInfo;
use crate::ir::traffic::{BlockKind, BlockKinds};
use crate::profile::Profile;
use crate::traffic::{
    ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficKind, TrafficRules,
};

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
    .catalog_hints(super::LIST_HINTS)
    .catalog_object()
    .canonical_members(&["title", "annotations"]);

// Tool traffic (read 2026-11-28).

/// MCP tool traffic: `tools/call` requests and their results (the specification's schema,
/// 2025-11-25 and 2026-07-28: `CallToolRequest`, `CallToolResult` with `content`,
/// `structuredContent` and `isError`, `ContentBlock` = text | image | audio | resource_link |
/// resource; JSON-RPC 2.0 ids are strings or numbers).
pub const TRAFFIC: TrafficRules = TrafficRules {
    kinds: &[TrafficKind::Calls, TrafficKind::Results],
    // A request without an id is a notification, which gets no answer (JSON-RPC 2.0, 4.1).
    ids: IdRule {
        required: true,
        extra: None,
        min: 1,
        max: usize::MAX,
        pattern: "a string or a number",
        source: "JSON-RPC 2.0 specification, 4 Request object (`id`: a String, Number or Null; without it the request is a notification) (read 2026-11-28)",
    },
    result_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Image,
        BlockKind::Audio,
        BlockKind::Resource,
        BlockKind::ResourceLink,
        BlockKind::Json,
    ]),
    user_blocks: BlockKinds::of(&[BlockKind::Text]),
    error_flag: true,
    args_text: false,
    call_signature: false,
    result_name: false,
    system_in_turns: false,
    custom_calls: false,
    placeholder_signature: None,
    results_follow_calls: false,
    assistant_text: false,
    // Image and audio content is base64 `data`; a link to a resource is its own block.
    media: MediaRules {
        url: false,
        uri_scheme: None,
        text_documents: false,
        base64_documents: None,
    },
    json_results: false,
    choice: ChoiceRules {
        none: false,
        required: false,
        parallel: false,
        source: "MCP has no tool choice: the client calls the tools (read 2026-11-28)",
    },
    conversation: &[ConversationRule {
        rule: "a JSON-RPC response answers the request with the same id",
        fix: "a result is written in a JSON-RPC response with its call's id (digits alone as a number); a result without an id as a bare CallToolResult",
        source: "JSON-RPC 2.0 specification, 5 Response object: `id` \"MUST be the same as the value of the id member in the Request Object\" (read 2026-11-28)",
    }],
};
