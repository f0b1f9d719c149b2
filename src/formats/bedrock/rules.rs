//! Amazon Bedrock Converse's facts and rules: the tool-name rule, the members of the `Tool`
//! union that are not function tools, and the schema rules, each with its source and the date
//! it was checked.
//!
//! Which schema rules, and why. Converse passes `inputSchema.json` through as a JSON document;
//! Bedrock itself checks only the envelope (the name rule, a non-empty description) and that
//! the schema's root says `"type": "object"`. What else the schema may hold is decided by the
//! model behind the request, and the families differ widely: Claude reads JSON Schema 2020-12
//! as it does on Anthropic's API, while Amazon Nova's root holds only `type`, `properties` and
//! `required`, and other families accept less than Claude. No one table is right for every
//! model, so the rules encoded here are Claude's: Claude is the family Bedrock's tool-use and
//! strict-mode errors in the wild come from (they carry Anthropic's validator's wording,
//! `tools.0.custom…`), and the only one whose limits are documented in full. They are
//! Anthropic's own tables, reused, with Bedrock's envelope rules in place of Anthropic's. A
//! caller targeting a smaller model narrows them with per-keyword policy overrides.

use crate::adapter::{FormatInfo, Mark, StrictMode};
use crate::ir::traffic::{BlockKind, BlockKinds};
use crate::profile::{Limit, NameRule, Profile, ProviderLimits};
use crate::traffic::{
    ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficKind, TrafficRules,
};

use super::super::anthropic::rules as anthropic;

/// Bedrock tool names: `ToolSpecification.name` in the Bedrock Runtime API reference
/// (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html:
/// "Length Constraints: Minimum length of 1. Maximum length of 64. Pattern: [a-zA-Z0-9_-]+",
/// checked 2026-11-25). Shorter than Anthropic's 128.
pub const NAMES: NameRule = NameRule {
    extra: "-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    source: "Amazon Bedrock API reference, ToolSpecification.name (checked 2026-11-25)",
};

/// Property keys in `inputSchema.json`: Claude's rule, which Bedrock enforces for Claude
/// models ("ValidationException: tools.0.custom.input_schema.properties: Property keys should
/// match pattern '^[a-zA-Z0-9_.-]{1,64}$'", reported against Converse in
/// aws-solutions-library-samples/accelerated-intelligent-document-processing-on-aws#709,
/// 2026-08-31; checked 2026-11-25).
pub const KEYS: NameRule = NameRule {
    source: "Amazon Bedrock Converse with Claude, inputSchema property keys (checked 2026-11-25)",
    ..anthropic::KEYS
};

/// Bedrock's 400 for the 21st strict tool: "Too many strict tools (73). The maximum number of
/// strict tools supported is 20."
const STRICT_TOOLS_SOURCE: &str = "Bedrock Converse with Claude, \"Too many strict tools\" \
     (pydantic/pydantic-ai#5579, 2026-05-22; checked 2026-11-25)";

const OPTIONAL_PARAMS_SOURCE: &str = "Bedrock Converse strict tool use: at most 24 optional \
     parameters across the request's strict tools (strands-agents/harness-sdk#2664, \
     2026-07-14; checked 2026-11-25)";

const UNION_PARAMS_SOURCE: &str = "Anthropic structured outputs, explicit limits: 16 union-typed \
     parameters, the Claude limit behind Bedrock's strict tool use like the two above \
     (checked 2026-11-25)";

/// The per-request limits of strict tool use on Bedrock. Prompt caching on Bedrock marks its
/// breakpoints with `cachePoint` entries, which are not tools here, so Anthropic's
/// `cache_control` count does not apply.
const LIMITS: ProviderLimits = ProviderLimits {
    strict_tools: Some(Limit { max: 20, source: STRICT_TOOLS_SOURCE }),
    optional_params: Some(Limit { max: 24, source: OPTIONAL_PARAMS_SOURCE }),
    union_params: Some(Limit { max: 16, source: UNION_PARAMS_SOURCE }),
    ..ProviderLimits::NONE
};

/// Bedrock Converse, non-strict: Claude's JSON Schema 2020-12 reading (Anthropic's table: all
/// kept, older forms rewritten, no combinator at the root) under Bedrock's name rule.
pub const PROFILE: Profile =
    anthropic::PROFILE.named("bedrock").names(NAMES, Some(KEYS)).limits(LIMITS);

/// Bedrock with `strict: true`. `ToolSpecification.strict` ("Flag to enable structured output
/// enforcement on a tool usage response", API reference, checked 2026-11-25) compiles the
/// schema into a grammar; for Claude models its rules are Anthropic's strict ones: every
/// object closed ("For 'object' type, 'additionalProperties' must be explicitly set to
/// false", strands-agents/harness-sdk#2210, 2026-04-27), `oneOf` unsupported
/// (strands-agents/harness-sdk#2664), no recursion (langchain4j/langchain4j#5097,
/// 2026-06-12).
pub const STRICT: Profile =
    anthropic::STRICT.named("bedrock").names(NAMES, Some(KEYS)).limits(LIMITS);

/// The members of a Converse `Tool` union that are not function tools: prompt-cache
/// breakpoints and Bedrock's system tools (`Tool` in aws-sdk-bedrockruntime 1.130.0:
/// `CachePoint`, `SystemTool`, `ToolSpec`; checked 2026-11-25). They are kept for Bedrock and
/// reported when converting elsewhere.
pub const NOT_FUNCTION_TOOLS: &[&str] = &["cachePoint", "systemTool"];

/// What marks a Bedrock `Tool` beside its `toolSpec`: the union's other members.
const MARKS: &[Mark] = &[Mark::any(NOT_FUNCTION_TOOLS, "built-in tool")];

/// The Bedrock Converse tool format: a `toolConfig` catalog (`{"tools": […]}`), an input
/// schema required (`ToolSpecification.inputSchema`, "Required: Yes") whose root is an object
/// schema ("The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of the
/// following: object", kirodotdev/Kiro#11026, 2026-08-24; checked 2026-11-25), and `strict`.
pub const INFO: FormatInfo =
    converse(FormatInfo::new("bedrock", &PROFILE)).strict(StrictMode::new(&STRICT));

/// The facts of a Converse tool whatever model reads it (`info` names the format and its
/// schema rules): the envelope's, shared by [`INFO`] and the model families' profiles
/// (`families.rs`), which differ in what the model takes, not in the shape.
pub(crate) const fn converse(info: FormatInfo) -> FormatInfo {
    info.object_root()
        .provider()
        .catalog_object()
        .name_pointer("/toolSpec/name")
        .schema_members(&[super::SPEC_KEY])
        .marks(MARKS)
}

// Tool traffic (read 2026-11-28).

/// A Converse `toolUseId`: "Length Constraints: Minimum length of 1. Maximum length of 64.
/// Pattern: [a-zA-Z0-9_-]+" (Bedrock API reference, `ToolResultBlock` and `ToolUseBlock`; the
/// `ToolUseBlock` page's Markdown copy also admits `.` and `:`, the `ToolResultBlock` page
/// does not, so ids are held to the narrower pattern, which both take).
pub const IDS: IdRule = IdRule {
    required: true,
    extra: Some("_-"),
    min: 1,
    max: 64,
    pattern: "[a-zA-Z0-9_-]+, 1 to 64 characters",
    source: "Bedrock API reference, ToolResultBlock `toolUseId` (read 2026-11-28)",
};

/// The `format` of Converse image, document and video blocks and the media type each names
/// (Bedrock API reference: `ImageBlock` png | jpeg | gif | webp; `DocumentBlock` pdf | csv |
/// doc | docx | xls | xlsx | html | txt | md; `VideoBlock` mkv | mov | mp4 | webm | flv | mpeg
/// | mpg | wmv | three_gp).
pub const MEDIA_FORMATS: &[(&str, &str, &str)] = &[
    ("image", "png", "image/png"),
    ("image", "jpeg", "image/jpeg"),
    ("image", "gif", "image/gif"),
    ("image", "webp", "image/webp"),
    ("document", "pdf", "application/pdf"),
    ("document", "csv", "text/csv"),
    ("document", "doc", "application/msword"),
    ("document", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ("document", "xls", "application/vnd.ms-excel"),
    ("document", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("document", "html", "text/html"),
    ("document", "txt", "text/plain"),
    ("document", "md", "text/markdown"),
    ("video", "mkv", "video/x-matroska"),
    ("video", "mov", "video/quicktime"),
    ("video", "mp4", "video/mp4"),
    ("video", "webm", "video/webm"),
    ("video", "flv", "video/x-flv"),
    ("video", "mpeg", "video/mpeg"),
    ("video", "mpg", "video/mpeg"),
    ("video", "wmv", "video/x-ms-wmv"),
    ("video", "three_gp", "video/3gpp"),
];

/// Converse conversations.
pub const TRAFFIC: TrafficRules = TrafficRules {
    kinds: &TrafficKind::ALL,
    ids: IDS,
    // `ToolResultContentBlock`: text | json | image | document | video; `ToolResultBlock`
    // `status`: success | error (Bedrock API reference).
    result_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Json,
        BlockKind::Image,
        BlockKind::Document,
        BlockKind::Video,
    ]),
    user_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Image,
        BlockKind::Document,
        BlockKind::Video,
    ]),
    error_flag: true,
    args_text: false,
    call_signature: false,
    result_name: false,
    system_in_turns: false,
    custom_calls: false,
    placeholder_signature: None,
    results_follow_calls: true,
    assistant_text: true,
    // A media `source` is `bytes` or an `s3Location` (and a document's `text`): no URL.
    media: MediaRules {
        url: false,
        uri_scheme: Some("s3://"),
        text_documents: true,
        base64_documents: None,
    },
    json_results: false,
    choice: ChoiceRules {
        none: false,
        required: true,
        parallel: false,
        source: "`ToolChoice`: auto | any | tool (Bedrock API reference); no `none`, no parallel-call setting (read 2026-11-28)",
    },
    conversation: &[
        ConversationRule {
            rule: "the `toolResult` blocks answering an assistant message's `toolUse` blocks are in the next (user) message",
            fix: "a results turn is written as one user message right after the calls; a call without a result is reported",
            source: "Bedrock user guide, \"Call a tool with the Converse API\": the tool result goes in a user message after the assistant's toolUse (read 2026-11-28)",
        },
        ConversationRule {
            rule: "system text is the request's `system` list",
            fix: "system messages among the turns join `system`",
            source: "Bedrock API reference, Converse `system`: array of SystemContentBlock (read 2026-11-28)",
        },
    ],
};
