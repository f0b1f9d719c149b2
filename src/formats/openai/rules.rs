//! OpenAI's facts and rules, for Chat Completions and Responses function tools: the keyword
//! tables (plain and strict), the function-name rule and the strict size limits, each with
//! its source and the date it was checked.

use crate::adapter::{FormatInfo, Mark, StrictMode};
use crate::ir::traffic::{BlockKind, BlockKinds};
use crate::ir::{FeatureSet, Keyword, SchemaFeature};
use crate::profile::shape::{ProviderRule, ShapeRule};
use crate::profile::{Action, DatedLimit, Limit, NameRule, Profile, ProviderLimits, StrictRules};
use crate::profile::{strict_common, toolfoundation};
use crate::traffic::{
    ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficKind, TrafficRules,
};

/// OpenAI Chat Completions and Responses, non-strict. The API reads JSON Schema 2020-12 in
/// `parameters` (older forms, and OpenAPI's `nullable` from a Gemini source, are rewritten by
/// the dialect pass); `$schema`, `$id` and `$comment` carry nothing for the model and are
/// dropped.
pub const PROFILE: Profile = chat_schema(Profile::keep_all("openai"))
    .limits(DATED)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Comment, Action::Drop)
    .obeying(&SHAPE)
    .names(NAMES, None);

/// JSON Schema 2020-12 as an OpenAI-compatible endpoint reads `parameters`: the older forms
/// (tuple `items`, `additionalItems`) and OpenAPI's `nullable` (from a Gemini source) are
/// rewritten by the dialect pass into the 2020-12 forms that mean the same. The base of the
/// OpenAI table and of the providers serving the Chat shape ([`chat_wire`]).
pub const fn chat_schema(p: Profile) -> Profile {
    p.without(SchemaFeature::TupleItems)
        .with(Keyword::Nullable, Action::Rewrite)
        .with(Keyword::AdditionalItems, Action::Rewrite)
}

/// OpenAI's dated limits, strict or not. A description over 1,024 characters was refused
/// ("Invalid 'tools[1].function.description': string too long. Expected a string with maximum
/// length 1024, but got a string with length 2121 instead.", langchain-ai/open_deep_research#80,
/// 2025-04-23; the first reports from 2024-11, LibreChat#4745) until the API lifted the limit
/// (run-llama/llama_index#18784, 2025-05-19: a 36,000-character description accepted). More
/// than 128 tools are refused ("Invalid 'tools': array too long. Expected an array with maximum
/// length 128", openai/openai-openapi#76 set `maxItems` 128 on 2023-08-31; still reported
/// 2025-11-29, anomalyco/opencode#4909). Read 2026-11-26.
const DATED: ProviderLimits = ProviderLimits {
    description_chars: Some(DatedLimit {
        max: 1_024,
        enforced: "2024-11 to 2025-05, since lifted",
        source: "\"string too long. Expected a string with maximum length 1024\", langchain-ai/open_deep_research#80; lifted: run-llama/llama_index#18784",
    }),
    tools: Some(DatedLimit {
        max: 128,
        enforced: "since 2023-08, still reported 2025-11",
        source: "\"Invalid 'tools': array too long. Expected an array with maximum length 128\", anomalyco/opencode#4909",
    }),
    ..ProviderLimits::NONE
};

/// What OpenAI refuses beyond its keyword table, strict or not: the API's own errors
/// (`invalid_function_parameters`) as public issues quote them (read 2026-11-26). The
/// writer's fixes keep the meaning: an absent `properties` and an absent `items` constrain
/// nothing, as the empty ones it writes.
pub const SHAPE: [ProviderRule; 2] = [
    ProviderRule {
        rule: ShapeRule::RootProperties,
        error: "Invalid schema for function '…': In context=(), object schema missing properties.",
        source: "evalstate/fast-agent#143 (2025-05), spring-projects/spring-ai#4776 (2025-11)",
        fix: Action::Rewrite,
    },
    ProviderRule {
        rule: ShapeRule::ArrayItems,
        error: "In context=('properties', '…'), array schema missing items.",
        source: "crmne/ruby_llm#480 (2025-10)",
        fix: Action::Rewrite,
    },
];

/// OpenAI function names: `FunctionObject.name` in the API reference
/// (platform.openai.com/docs/api-reference/chat/create, checked 2026-11).
pub const NAMES: NameRule = NameRule {
    extra: "-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    source: "OpenAI API reference, function name (checked 2026-11)",
};

const STRICT_SOURCE: &str =
    "OpenAI Structured Outputs, supported schemas: objects have limitations (checked 2026-11)";

/// OpenAI with `strict: true` (Structured Outputs): a subset of JSON Schema. Every object
/// closed with `additionalProperties: false` and every property required (the strict pass
/// does both); `oneOf` as `anyOf`, `allOf` merged; nine formats; string length, object-size and
/// array-content keywords, `default` and the conditionals described; no root `anyOf`.
pub const STRICT: Profile = strict_common(PROFILE)
    .strict(StrictRules { all_required: true, recursion: true })
    .no_ref_siblings()
    .formats(&[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ])
    .limits(ProviderLimits {
        properties: Some(Limit { max: 5_000, source: STRICT_SOURCE }),
        depth: Some(Limit { max: 10, source: STRICT_SOURCE }),
        enum_values: Some(Limit { max: 1_000, source: STRICT_SOURCE }),
        schema_chars: Some(Limit { max: 120_000, source: STRICT_SOURCE }),
        ..DATED
    });

/// The features the Go toolfoundation library's OpenAI adapter supports (`openAIFeatures`
/// in its `adapter/openai.go`, read 2026-11).
pub const TOOLFOUNDATION_FEATURES: FeatureSet = FeatureSet::of(&[
    SchemaFeature::Enum,
    SchemaFeature::Default,
    SchemaFeature::AdditionalProperties,
    SchemaFeature::Minimum,
    SchemaFeature::Maximum,
    SchemaFeature::MinLength,
    SchemaFeature::MaxLength,
    SchemaFeature::MultipleOf,
    SchemaFeature::MinItems,
    SchemaFeature::MaxItems,
    SchemaFeature::MinProperties,
    SchemaFeature::MaxProperties,
    SchemaFeature::UniqueItems,
    SchemaFeature::Const,
]);

/// OpenAI Chat Completions (and Responses) under the toolfoundation profile.
pub const TOOLFOUNDATION: Profile =
    toolfoundation(PROFILE, TOOLFOUNDATION_FEATURES).named("openai (toolfoundation)");

/// The API refuses a request member it does not define, nested ones included: "Unknown
/// parameter: 'tool_choice'." (openai/openai-agents-python#467, 2025-04-10), "Unknown
/// parameter: 'messages[1].tool_calls[0].index'." (songquanpeng/one-api#1319, 2024-04-15);
/// read 2026-11-26. A tool member outside `type`/`function`/`name`/`description`/
/// `parameters`/`strict` (BFCL's `response`) is one.
const UNKNOWN_MEMBER: &str = "Unknown parameter";

/// What marks a Chat Completions tool: its function in the `function` wrapper, beside
/// `"type": "function"` (API reference, Chat `tools`, read 2026-11-28:
/// <https://platform.openai.com/docs/api-reference/chat/create>).
const CHAT_MARKS: &[Mark] = &[Mark::all(&["type=function", "function"], "tool")];

/// What marks a Responses tool: a flat function, `"type": "function"` beside its `name`, and
/// the API's built-in tools by their `type` (`web_search`, `web_search_preview` and its dated
/// forms, `file_search`, `computer_use_preview`, `code_interpreter`, `image_generation`, `mcp`,
/// `local_shell`, `shell`, `apply_patch`: API reference, Responses `tools`, read 2026-11-28:
/// <https://platform.openai.com/docs/api-reference/responses/create>; autogen's
/// `OpenAIAgent` lists the same built-in types). A built-in of a type not listed is still read
/// as one by this format; it is only not recognised as this format's by others.
const RESPONSES_MARKS: &[Mark] = &[
    Mark::all(&["type=function", "name"], "tool"),
    Mark::any(
        &[
            "type=web_search",
            "type=web_search_preview*",
            "type=file_search",
            "type=computer_use_preview",
            "type=code_interpreter",
            "type=image_generation",
            "type=mcp",
            "type=local_shell",
            "type=shell",
            "type=apply_patch",
        ],
        "built-in tool",
    ),
];

/// The Chat Completions tool shape on another provider's endpoint (Mistral, Ollama, xAI,
/// Cohere v2): `{"type": "function", "function": {…}}` read and written by this format's code,
/// with its marks and its schema members, an object root, the name in `function`. The
/// provider's own rules (profile, strict mode, members) are its format's.
pub const fn chat_wire(info: FormatInfo) -> FormatInfo {
    info.schema_members(&[super::FUNCTION, super::PARAMETERS])
        .marks(CHAT_MARKS)
        .object_root()
        .provider()
        .name_pointer("/function/name")
        .wire_of("openai")
}

/// Chat Completions function tools: `parameters` may be omitted for a function without
/// arguments; the root must be an object schema; a written tool is always wrapped, its name
/// in `function`, whichever shape was read. Members the API does not define are refused
/// (`UNKNOWN_MEMBER`).
pub const CHAT: FormatInfo = FormatInfo::new("openai", &PROFILE)
    .strict(StrictMode::new(&STRICT))
    .toolfoundation(&TOOLFOUNDATION)
    .optional_input_schema()
    .schema_members(&[super::FUNCTION, super::PARAMETERS])
    .marks(CHAT_MARKS)
    .object_root()
    .provider()
    .closed_members(UNKNOWN_MEMBER)
    .name_pointer("/function/name");

/// The members of a Responses function tool the API defines besides `type`, `name`,
/// `description`, `parameters` and `strict`: `defer_loading` (the function is loaded through
/// tool search: "mark the ones you want to defer with `defer_loading: true`", OpenAI's tool
/// search guide, developers.openai.com/api/docs/guides/tools-tool-search), `allowed_callers`,
/// `output_schema` and `async` (`FunctionToolParam` in the openai Python SDK 3.57.0,
/// `openai/types/responses/function_tool_param.py`, generated from the API's OpenAPI
/// description; pinned in tests/sdk/requirements.txt). Read 2026-11-28. The recorded live
/// requests of the corpus send `defer_loading` (provider-payloads/pydantic-ai), and the API
/// echoes `allowed_callers` and `output_schema` back (provider-payloads/vercel-ai).
pub const RESPONSES_MEMBERS: &[&str] =
    &["defer_loading", "allowed_callers", "output_schema", "async"];

/// Responses API function tools: the API reads a tool without `strict` as strict. The Go
/// library's OpenAI adapter covers function tools, so Responses shares Chat's toolfoundation
/// entry.
pub const RESPONSES: FormatInfo = FormatInfo::new("openai-responses", &PROFILE)
    .strict(StrictMode::new(&STRICT).omitted_is_strict())
    .toolfoundation(&TOOLFOUNDATION)
    .schema_members(&[super::PARAMETERS])
    .marks(RESPONSES_MARKS)
    .object_root()
    .provider()
    .closed_members(UNKNOWN_MEMBER)
    .defined_members(RESPONSES_MEMBERS);

// Tool traffic (read 2026-11-28).

/// A Chat Completions call id: required on every `tool_calls[]` entry and on every tool
/// message (`tool_call_id: Required[str]`, openai-python
/// `types/chat/chat_completion_tool_message_param.py`); any characters, at most 40:
/// "Invalid `'messages[10].tool_calls[0].id'`: string too long. Expected a string with maximum
/// length 40, but got a string with length 53 instead." (agno-agi/agno#5382, 2025-11-11; also
/// Portkey-AI/gateway#1062, 2025-04-24). vercel/ai#17233 (2026-07-14) saw a 51-character id
/// accepted, so the cap may be lifted; ids are still held to it, which no endpoint refuses.
pub const CHAT_IDS: IdRule = IdRule {
    required: true,
    extra: None,
    min: 1,
    max: 40,
    pattern: "at most 40 characters",
    source: "\"string too long. Expected a string with maximum length 40\", agno-agi/agno#5382 (2025-11-11)",
};

/// OpenAI-compatible endpoints that take nine letters or digits and nothing else (Mistral):
/// "Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9"
/// (karthink/gptel#1203, 2026-01-07; anomalyco/opencode#1680, 2025-08-07; the rule is
/// `mistral_common`'s, jundot/omlx#1995). For `TrafficOptions::id_rule`.
pub const NINE_ALPHANUMERIC_IDS: IdRule = IdRule {
    required: true,
    extra: Some(""),
    min: 9,
    max: 9,
    pattern: "[a-zA-Z0-9]{9}",
    source: "\"must be a-z, A-Z, 0-9, with a length of 9\", karthink/gptel#1203 (2026-01-07)",
};

/// Chat Completions conversations.
pub const CHAT_TRAFFIC: TrafficRules = TrafficRules {
    kinds: &TrafficKind::ALL,
    ids: CHAT_IDS,
    // A tool message's content is a string or text parts only
    // (`content: Required[Union[str, Iterable[ChatCompletionContentPartTextParam]]]`,
    // openai-python `chat_completion_tool_message_param.py`).
    result_blocks: BlockKinds::of(&[BlockKind::Text]),
    // A user message takes text, image, audio and file parts
    // (`ChatCompletionContentPartParam`, openai-python).
    user_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Image,
        BlockKind::Audio,
        BlockKind::Document,
    ]),
    error_flag: false,
    args_text: true,
    call_signature: false,
    result_name: false,
    system_in_turns: true,
    custom_calls: false,
    placeholder_signature: None,
    results_follow_calls: true,
    assistant_text: true,
    // Image parts take a URL or a data URL; files are sent as data or by id.
    media: MediaRules {
        url: true,
        uri_scheme: None,
        text_documents: false,
        base64_documents: None,
    },
    json_results: false,
    choice: ChoiceRules {
        none: true,
        required: true,
        parallel: true,
        source: "`tool_choice`: \"none\" | \"auto\" | \"required\" | {\"type\":\"function\",\"function\":{\"name\"}}, and `parallel_tool_calls` (openai-python `completion_create_params.py`) (read 2026-11-28)",
    },
    conversation: &[ConversationRule {
        rule: "an assistant message with `tool_calls` is followed by one `tool` message per call",
        fix: "a results turn is written as one tool message per result, right after the calls; a call without a result is reported",
        source: "\"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\", BerriAI/litellm#10083 (2025-04-17)",
    }],
};

/// A Responses call id (`call_id`): required on `function_call` and `function_call_output`
/// items (`call_id: Required[str]`, openai-python `types/responses/response_input_param.py`);
/// no character or length rule is documented (Bedrock's Responses endpoint sends
/// `resp_…:call_0`).
pub const RESPONSES_IDS: IdRule = IdRule {
    required: true,
    extra: None,
    min: 1,
    max: usize::MAX,
    pattern: "any non-empty string",
    source: "`call_id: Required[str]`, openai-python `types/responses/response_input_param.py` (read 2026-11-28)",
};

/// Responses conversations.
pub const RESPONSES_TRAFFIC: TrafficRules = TrafficRules {
    kinds: &TrafficKind::ALL,
    ids: RESPONSES_IDS,
    // `function_call_output.output`: a string, or `input_text`, `input_image` and `input_file`
    // parts (openai-python `response_input_param.py`, `FunctionCallOutput`).
    result_blocks: BlockKinds::of(&[BlockKind::Text, BlockKind::Image, BlockKind::Document]),
    user_blocks: BlockKinds::of(&[BlockKind::Text, BlockKind::Image, BlockKind::Document]),
    error_flag: false,
    args_text: true,
    call_signature: false,
    result_name: false,
    system_in_turns: true,
    custom_calls: true,
    placeholder_signature: None,
    results_follow_calls: true,
    assistant_text: true,
    media: MediaRules {
        url: true,
        uri_scheme: None,
        text_documents: false,
        base64_documents: None,
    },
    json_results: false,
    choice: ChoiceRules {
        none: true,
        required: true,
        parallel: true,
        source: "`tool_choice`: \"none\" | \"auto\" | \"required\" | {\"type\":\"function\",\"name\"}, and `parallel_tool_calls` (openai-python `types/responses/response_create_params.py`) (read 2026-11-28)",
    },
    conversation: &[ConversationRule {
        rule: "every `function_call` item has its `function_call_output` item",
        fix: "a call without an output is reported",
        source: "\"No tool output found for function call call_uK3eDRSXx9p45csFRjvXDNPq.\" (invalid_request_error, param `input`), router-for-me/CLIProxyAPI#2368 (2026-03-27); the other way, \"No tool call found for function call output with call_id …\", continuedev/continue#10092 (2026-02-01)",
    }],
};
