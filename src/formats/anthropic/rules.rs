//! Anthropic's facts and rules: the keyword tables (plain and strict), the tool-name and
//! property-key rules and the per-request limits of strict tool use, each with its source and
//! the date it was checked.

use crate::adapter::{FormatInfo, Mark, StrictMode};
use crate::ir::traffic::{BlockKind, BlockKinds};
use crate::ir::{FeatureSet, Keyword, SchemaFeature};
use crate::profile::{Action, Limit, NameRule, Profile, ProviderLimits, StrictRules};
use crate::profile::{ROOT_COMBINATORS, strict_common, toolfoundation};
use crate::traffic::{
    ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficKind, TrafficRules,
};

/// Anthropic, non-strict: `input_schema` is JSON Schema 2020-12; everything is kept, older
/// forms (tuple `items`) are rewritten into their 2020-12 equivalents. The root may not be a
/// combinator ("input_schema does not support oneOf, allOf, or anyOf at the top level").
pub const PROFILE: Profile = Profile::keep_all("anthropic")
    .without(SchemaFeature::TupleItems)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::AdditionalItems, Action::Rewrite)
    .root_forbids(ROOT_COMBINATORS)
    .names(NAMES, Some(KEYS))
    .limits(LIMITS);

/// Anthropic tool names: `tools[].name` in the Messages API reference
/// (docs.anthropic.com/en/api/messages, checked 2026-11).
pub const NAMES: NameRule = NameRule {
    extra: "-",
    max: 128,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,128}$",
    source: "Anthropic Messages API, tool name (checked 2026-11)",
};

/// Anthropic property keys in `input_schema` (the API's validation error for
/// `properties` keys, checked 2026-11).
pub const KEYS: NameRule = NameRule {
    extra: ".-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_.-]{1,64}$",
    source: "Anthropic Messages API, input_schema property keys (checked 2026-11)",
};

const STRICT_SOURCE: &str =
    "Anthropic structured outputs, JSON Schema limitations of strict tool use (checked 2026-11)";

const LIMITS: ProviderLimits = ProviderLimits {
    strict_tools: Some(Limit { max: 20, source: STRICT_SOURCE }),
    optional_params: Some(Limit { max: 24, source: STRICT_SOURCE }),
    union_params: Some(Limit { max: 16, source: STRICT_SOURCE }),
    cache_breakpoints: Some(Limit {
        max: 4,
        source: "Anthropic prompt caching: at most 4 cache_control breakpoints (checked 2026-11)",
    }),
    ..ProviderLimits::NONE
};

/// Anthropic with `strict: true`: every object closed, no all-required rule, ten formats,
/// `minItems` 0 or 1, numeric and length bounds described, no recursion.
pub const STRICT: Profile = strict_common(PROFILE)
    .strict(StrictRules { all_required: false, recursion: false })
    .formats(&[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ])
    .min_items_at_most(1)
    .with(Keyword::MaxItems, Action::Describe)
    .with(Keyword::Minimum, Action::Describe)
    .with(Keyword::Maximum, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Comment, Action::Drop);

/// The features the Go toolfoundation library's Anthropic adapter supports
/// (`anthropicFeatures` in its `adapter/anthropic.go`, read 2026-11): OpenAI's plus `anyOf`.
pub const TOOLFOUNDATION_FEATURES: FeatureSet =
    super::super::openai::rules::TOOLFOUNDATION_FEATURES
        .union(FeatureSet::of(&[SchemaFeature::AnyOf]));

/// Anthropic under the toolfoundation profile.
pub const TOOLFOUNDATION: Profile =
    toolfoundation(PROFILE, TOOLFOUNDATION_FEATURES).named("anthropic (toolfoundation)");

/// What marks an Anthropic tool beside its `input_schema`: a client tool's `"type": "custom"`,
/// and the tools Anthropic provides, each a `type` versioned by its date (`web_search_20250305`,
/// `bash_20250124`, `text_editor_20250728`, `code_execution_20250825`, `memory_20250818`,
/// `tool_search_tool_regex_20251119`, …) or the MCP connector's `mcp_toolset` (Tool
/// reference, read 2026-11-28:
/// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-reference>).
pub const MARKS: &[Mark] = &[
    Mark::all(&["type=custom", "input_schema"], "tool"),
    Mark::any(&["type=*_########", "type=mcp_toolset"], "built-in tool"),
];

/// The Anthropic Messages API tool format.
pub const INFO: FormatInfo = FormatInfo::new("anthropic", &PROFILE)
    .strict(StrictMode::new(&STRICT))
    .toolfoundation(&TOOLFOUNDATION)
    .schema_members(&[super::INPUT])
    .marks(MARKS)
    .object_root()
    .provider();

// Tool traffic (read 2026-11-28).

/// An Anthropic `tool_use` id: letters, digits, `_` and `-`: "messages.5.content.0.tool_use.id:
/// String should match pattern '^[a-zA-Z0-9_-]+$'" (tailcallhq/forgecode#1142, 2025-07-20;
/// CommandCodeAI/command-code#323, 2026-05-06). No length limit is documented.
pub const IDS: IdRule = IdRule {
    required: true,
    extra: Some("_-"),
    min: 1,
    max: usize::MAX,
    pattern: "^[a-zA-Z0-9_-]+$",
    source: "\"tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'\", tailcallhq/forgecode#1142 (2025-07-20)",
};

/// Anthropic Messages conversations.
pub const TRAFFIC: TrafficRules = TrafficRules {
    kinds: &TrafficKind::ALL,
    ids: IDS,
    // `tool_result.content` is a string or text, image, document (and search_result,
    // tool_reference) blocks; `is_error` flags a failure (anthropic-sdk-python
    // `types/tool_result_block_param.py`).
    result_blocks: BlockKinds::of(&[BlockKind::Text, BlockKind::Image, BlockKind::Document]),
    user_blocks: BlockKinds::of(&[BlockKind::Text, BlockKind::Image, BlockKind::Document]),
    error_flag: true,
    args_text: false,
    call_signature: false,
    result_name: false,
    system_in_turns: false,
    custom_calls: false,
    placeholder_signature: None,
    results_follow_calls: true,
    assistant_text: true,
    // Image and document sources: base64, url, file, text (anthropic-sdk-python
    // `types/image_block_param.py`, `document_block_param.py`).
    // A base64 document source is a PDF (anthropic-sdk-python 2.14.0 `Base64PDFSourceParam`,
    // `media_type: Literal["application/pdf"]`, read 2026-11-28); other documents go as text.
    media: MediaRules {
        url: true,
        uri_scheme: None,
        text_documents: true,
        base64_documents: Some(&["application/pdf"]),
    },
    json_results: false,
    choice: ChoiceRules {
        none: true,
        required: true,
        parallel: true,
        source: "`tool_choice`: {\"type\": \"auto\" | \"any\" | \"none\" | \"tool\", \"name\", \"disable_parallel_tool_use\"} (anthropic-sdk-python `types/tool_choice_param.py`) (read 2026-11-28)",
    },
    conversation: &[
        ConversationRule {
            rule: "every `tool_use` has its `tool_result` in the next (user) message",
            fix: "a results turn is written as one user message right after the calls; a call without a result is reported",
            source: "\"messages.22: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01HqfLWiAKQLsniF2fBGF2KD, toolu_01SJzDkeAZER935cpGFptTNk. Each `tool_use` block must have a corresponding `tool_result` block in the next message.\", anthropics/claude-code#5989 (2025-08-17)",
        },
        ConversationRule {
            rule: "in that user message, the `tool_result` blocks come first; text and documents after them",
            fix: "results are written first, the content sent with them after",
            source: "\"unexpected `tool_use_id` found in `tool_result` blocks … Each `tool_result` block must have a corresponding `tool_use` block in the previous message\", tghamm/Anthropic.SDK#184 (2026-02-16)",
        },
        ConversationRule {
            rule: "system text is the request's `system`, not a message",
            fix: "system messages among the turns join `system`, reported when they were not first",
            source: "`system: Union[str, Iterable[TextBlockParam]]` (anthropic-sdk-python `types/message_create_params.py`) (read 2026-11-28)",
        },
    ],
};
