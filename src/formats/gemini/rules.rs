//! Gemini's facts and rules, for both schema fields: `parameters` (Gemini's OpenAPI 3.0
//! subset) and `parametersJsonSchema` (JSON Schema, Gemini 2.5+): the keyword tables, the
//! function-name rule and the toolfoundation matrix, each with its source.
//!
//! Sources (checked 2026-11): Gemini API reference `FunctionDeclaration` / `Schema`
//! (ai.google.dev/api/caching#Schema) and the Gemini JSON Schema announcement (2025-11:
//! `anyOf`, `$ref`, `minimum`/`maximum`, `additionalProperties`, `prefixItems`).

use crate::adapter::{FormatInfo, Mark, OtherField};
use crate::ir::traffic::{BlockKind, BlockKinds};
use crate::ir::{FeatureSet, Keyword, SchemaFeature};
use crate::profile::shape::{ProviderRule, ShapeRule};
use crate::profile::{Action, NameRule, Profile, toolfoundation};
use crate::traffic::{
    ChoiceRules, ConversationRule, IdRule, MediaRules, TrafficKind, TrafficRules,
};

pub(crate) use super::{JSON_FIELD_KEYS, SCHEMA_MEMBERS};

/// Where a Gemini catalog (a request's `Tool`) keeps its declarations.
pub const CATALOG_KEY: &str = "functionDeclarations";

/// Where a Gemini request (`GenerateContentRequest`) lists its `Tool`s: each holds function
/// declarations or is a built-in such as `googleSearch` (ai.google.dev/api/generate-content,
/// checked 2026-11-26).
pub const REQUEST_KEY: &str = "tools";

/// The same field by its proto name, which the API reads too and the Python SDK sends
/// (ai.google.dev/api/caching#Tool; proto3 JSON mapping, checked 2026-11-26).
pub const CATALOG_ALIAS: &str = "function_declarations";

/// Gemini function names: a letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`,
/// at most 64 characters. The API's own error says 64 ("Must start with a letter or an
/// underscore. Must be a-z, A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or
/// dashes (-), with a maximum length of 64"); the SDK docstring's 128 is not what it enforces.
pub const NAMES: NameRule = NameRule {
    extra: ".:-",
    max: 64,
    letter_first: true,
    pattern: "^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$",
    source: "Gemini API error for FunctionDeclaration.name (checked 2026-11-26)",
};

/// What Gemini's `parameters` refuses beyond its keyword table. Each error is the API's own
/// text as public issues quote it (read 2026-11-26); the Developer API and Vertex AI differ on
/// `anyOf`'s siblings, so the writer keeps an `anyOf` node bare, which both accept.
pub const SHAPE: [ProviderRule; 8] = [
    ProviderRule {
        rule: ShapeRule::PropertiesNonEmpty,
        error: "properties: should be non-empty for OBJECT type",
        source: "lobehub/lobehub#5002 (2024-12), browser-use/browser-use#3786 (2025-12)",
        fix: Action::Drop,
    },
    ProviderRule {
        rule: ShapeRule::TypeRequired,
        error: "type: must be specified when not using one_of, any_of or all_of fields",
        source: "Gemini API error quoted in tooladapter issue 20; Vertex AI words it \"schema \
                 didn't specify the schema type field\" (P0luz/Ombre-Brain#119, 2026-09)",
        fix: Action::Rewrite,
    },
    ProviderRule {
        rule: ShapeRule::ArrayItems,
        error: "items: missing field",
        source: "zcj-ui/astrbot_plugin_group_guardian#62 (2026-07)",
        fix: Action::Rewrite,
    },
    ProviderRule {
        rule: ShapeRule::ObjectKeywordsOnObject,
        error: "required: only allowed for OBJECT type",
        source: "anomalyco/opencode#11889 (2026-02)",
        fix: Action::Drop,
    },
    ProviderRule {
        rule: ShapeRule::RequiredDefined,
        error: "required[0]: property is not defined",
        source: "probelabs/probe#569 (2026-05)",
        fix: Action::Drop,
    },
    ProviderRule {
        rule: ShapeRule::EnumOnString,
        error: "enum: only allowed for STRING type",
        source: "decolua/9router#359 (2026-03)",
        fix: Action::Describe,
    },
    ProviderRule {
        rule: ShapeRule::EnumNonEmpty,
        error: "enum[1]: cannot be empty",
        source: "Gemini API error quoted in tooladapter issue 20, seen on the corpus (2026-11)",
        fix: Action::Drop,
    },
    ProviderRule {
        rule: ShapeRule::AnyOfAlone,
        error: "When using any_of, it must be the only field set",
        source: "Gemini API error quoted in tooladapter issue 20, seen on the corpus (2026-11)",
        fix: Action::Rewrite,
    },
];

/// Gemini `parameters`: the OpenAPI 3.0 subset of the `Schema` object. Kept: type, format
/// (`enum`, `date-time`), title, description, nullable, enum (strings), items, min/maxItems,
/// properties, required, min/maxProperties, min/maxLength, pattern, minimum, maximum,
/// example, default, anyOf, propertyOrdering. One type per node, no boolean schemas, no refs.
pub const PROFILE: Profile = common(Profile::keep_all("gemini"))
    .rejecting_unlisted()
    .obeying(&SHAPE)
    // The root must be an object, and an `anyOf` must stand alone: no root can be both.
    .root_forbids(FeatureSet::of(&[SchemaFeature::AnyOf, SchemaFeature::OneOf]))
    .without(SchemaFeature::TypeArray)
    .without(SchemaFeature::BooleanSchema)
    .string_enums_only()
    .formats(&["enum", "date-time"])
    .with(Keyword::Const, Action::Rewrite)
    .with(Keyword::Enum, Action::Rewrite)
    .with(Keyword::AdditionalProperties, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Anchor, Action::Drop)
    .with(Keyword::Ref, Action::Rewrite)
    .with(Keyword::Defs, Action::Rewrite)
    .with(Keyword::Definitions, Action::Rewrite)
    .with(Keyword::PrefixItems, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::OneOf, Action::Rewrite)
    .with(Keyword::Examples, Action::Drop);

/// Gemini `parametersJsonSchema` (Gemini 2.5+): JSON Schema with `$ref`/`$defs`, `anyOf`,
/// `oneOf`, type arrays, `minimum`/`maximum`, `additionalProperties`, `prefixItems`; string
/// length, pattern, exclusive bounds and `default` go to the description.
pub const JSON_PROFILE: Profile = common(Profile::keep_all("gemini-json"))
    .no_ref_siblings()
    .with(Keyword::Const, Action::Rewrite)
    .with(Keyword::Nullable, Action::Rewrite)
    .with(Keyword::Default, Action::Describe)
    .with(Keyword::Pattern, Action::Describe)
    .with(Keyword::MinLength, Action::Describe)
    .with(Keyword::MaxLength, Action::Describe)
    .with(Keyword::MinProperties, Action::Describe)
    .with(Keyword::MaxProperties, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::Examples, Action::Drop)
    .with(Keyword::Example, Action::Drop);

/// What both Gemini fields lack: conditionals, `not`, the 2019+ applicators, annotations with
/// no place, unknown keywords. `allOf` is merged where it merges cleanly.
const fn common(p: Profile) -> Profile {
    p.names(NAMES, None)
        .without(SchemaFeature::TupleItems)
        .with(Keyword::AdditionalItems, Action::Rewrite)
        .with(Keyword::AllOf, Action::Rewrite)
        .with(Keyword::Schema, Action::Drop)
        .with(Keyword::Comment, Action::Drop)
        .with(Keyword::Vocabulary, Action::Drop)
        .with(Keyword::DynamicAnchor, Action::Drop)
        .with(Keyword::RecursiveAnchor, Action::Drop)
        .with(Keyword::Deprecated, Action::Drop)
        .with(Keyword::ReadOnly, Action::Drop)
        .with(Keyword::WriteOnly, Action::Drop)
        .with(Keyword::ContentEncoding, Action::Drop)
        .with(Keyword::ContentMediaType, Action::Drop)
        .with(Keyword::Unknown, Action::Drop)
        .with(Keyword::Not, Action::Describe)
        .with(Keyword::If, Action::Describe)
        .with(Keyword::Then, Action::Describe)
        .with(Keyword::Else, Action::Describe)
        .with(Keyword::Contains, Action::Describe)
        .with(Keyword::MinContains, Action::Describe)
        .with(Keyword::MaxContains, Action::Describe)
        .with(Keyword::UniqueItems, Action::Describe)
        .with(Keyword::PatternProperties, Action::Describe)
        .with(Keyword::PropertyNames, Action::Describe)
        .with(Keyword::DependentRequired, Action::Describe)
        .with(Keyword::DependentSchemas, Action::Describe)
        .with(Keyword::Dependencies, Action::Describe)
        .with(Keyword::UnevaluatedItems, Action::Describe)
        .with(Keyword::UnevaluatedProperties, Action::Describe)
        .with(Keyword::ContentSchema, Action::Describe)
        .with(Keyword::DynamicRef, Action::Describe)
        .with(Keyword::RecursiveRef, Action::Describe)
}

/// The features the Go toolfoundation library's Gemini adapter supports (`geminiFeatures` in
/// its `adapter/gemini.go`, read 2026-11).
pub const TOOLFOUNDATION_FEATURES: FeatureSet = FeatureSet::of(&[
    SchemaFeature::Ref,
    SchemaFeature::Defs,
    SchemaFeature::AnyOf,
    SchemaFeature::Pattern,
    SchemaFeature::Format,
    SchemaFeature::AdditionalProperties,
    SchemaFeature::Minimum,
    SchemaFeature::Maximum,
    SchemaFeature::MinLength,
    SchemaFeature::MaxLength,
    SchemaFeature::MinItems,
    SchemaFeature::MaxItems,
    SchemaFeature::MinProperties,
    SchemaFeature::MaxProperties,
    SchemaFeature::Enum,
    SchemaFeature::Default,
    SchemaFeature::Title,
    SchemaFeature::Nullable,
]);

/// Gemini `parameters` under the toolfoundation profile. It keeps what the Go adapter keeps
/// and Gemini takes, `$ref` and `$defs` included (the default Gemini profile inlines them);
/// what the Go adapter keeps and Gemini refuses is dropped with a warning:
/// `additionalProperties` ("Unknown name \"additionalProperties\" at
/// 'tools\[0\].function_declarations\[0\].parameters': Cannot find field.", felinics/Memoh#620,
/// 2026-06-12, read 2026-11-28), a `format` outside Gemini's two, a non-string `enum`.
pub const TOOLFOUNDATION: Profile =
    toolfoundation(PROFILE, TOOLFOUNDATION_FEATURES).named("gemini (toolfoundation)");

/// Gemini `parametersJsonSchema` under the toolfoundation profile: the Go library has one
/// Gemini adapter, so its matrix, on the JSON Schema field.
pub const TOOLFOUNDATION_JSON: Profile =
    toolfoundation(JSON_PROFILE, TOOLFOUNDATION_FEATURES).named("gemini-json (toolfoundation)");

/// What marks a Gemini request's `Tool` beside its declarations: its built-in tools (see
/// `BUILT_INS`, with their sources).
const MARKS: &[Mark] = &[Mark::any(super::BUILT_INS, "built-in tool")];

/// What both Gemini formats share: a `{"functionDeclarations": […]}` catalog, `parameters`
/// may be left unset ("For function with no parameters, this can be left unset"), an object
/// root, and one family: the other members of a declaration ride along between the two.
pub const fn declaration(info: FormatInfo) -> FormatInfo {
    info.family("gemini")
        .marks(MARKS)
        .catalog_key(CATALOG_KEY)
        .catalog_object()
        .catalog_alias(CATALOG_ALIAS)
        .request_key(REQUEST_KEY)
        .optional_input_schema()
        .object_root()
        .provider()
}

/// Gemini function declarations with `parameters`, an OpenAPI `Schema` whose `type` is the
/// `Type` enum (`STRING`, `OBJECT`, …; API reference, `Schema`, read 2026-11-26:
/// <https://ai.google.dev/api/caching#Schema>). A declaration may hold
/// `parametersJsonSchema` instead, which the API reads as JSON Schema ("mutually exclusive
/// with parameters", `FunctionDeclaration`): such a declaration is held to that field's rules.
pub const INFO: FormatInfo = declaration(FormatInfo::new("gemini", &PROFILE))
    .toolfoundation(&TOOLFOUNDATION)
    .schema_members(super::SCHEMA_MEMBERS)
    .upper_type_names()
    .other_field(OtherField::new(
        super::JSON_FIELD_KEYS,
        &JSON_PROFILE,
        &TOOLFOUNDATION_JSON,
        false,
    ));

/// Gemini function declarations with `parametersJsonSchema`; one holding `parameters`
/// instead is held to that field's rules.
pub const JSON_INFO: FormatInfo = declaration(FormatInfo::new("gemini-json", &JSON_PROFILE))
    .toolfoundation(&TOOLFOUNDATION_JSON)
    .schema_members(super::JSON_SCHEMA_MEMBERS)
    .other_field(OtherField::new(super::OPENAPI_FIELD_KEYS, &PROFILE, &TOOLFOUNDATION, true));

// Tool traffic (read 2026-11-28).

/// The thought signature a function call made by another provider is sent with: Gemini 3
/// refuses a call without one ("Function call is missing a thought_signature in functionCall
/// parts", the Vertex AI "Thought signatures" page: "If a required thought signature is not
/// returned when using Gemini 3 models, the model will return a 400 error"), and takes the
/// placeholder `skip_thought_signature_validator` for history it did not make (the bytes,
/// base64 in JSON, as pydantic-ai sends them to the live API in its recorded cassettes, and
/// strands-agents/sdk-python#1298, 2025-12-05). Sent on the first call of a turn, where Gemini
/// puts the signature of parallel calls.
pub const PLACEHOLDER_SIGNATURE: &str = "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=";

/// Gemini conversations.
pub const TRAFFIC: TrafficRules = TrafficRules {
    kinds: &TrafficKind::ALL,
    // `FunctionCall.id` and `FunctionResponse.id` are optional: "Populated by the client to
    // match the corresponding function call id" (google-genai `types.FunctionResponse`);
    // Gemini 2.x sends none and pairs responses by name and order.
    ids: IdRule::ANY,
    // `FunctionResponse.response` is a JSON object ("Use \"output\" key to specify function
    // output and \"error\" key to specify error details (if any). If \"output\" and \"error\"
    // keys are not specified, then whole \"response\" is treated as function output",
    // google-genai js `types.FunctionResponse`); its `parts` carry media (Gemini 3's
    // multimodal function responses).
    result_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Json,
        BlockKind::Image,
        BlockKind::Audio,
        BlockKind::Video,
        BlockKind::Document,
    ]),
    user_blocks: BlockKinds::of(&[
        BlockKind::Text,
        BlockKind::Image,
        BlockKind::Audio,
        BlockKind::Video,
        BlockKind::Document,
    ]),
    error_flag: true,
    args_text: false,
    call_signature: true,
    result_name: true,
    system_in_turns: false,
    custom_calls: false,
    placeholder_signature: Some(PLACEHOLDER_SIGNATURE),
    results_follow_calls: true,
    assistant_text: true,
    // `fileData.fileUri`: a `gs://` object or an HTTP URL.
    media: MediaRules {
        url: true,
        uri_scheme: Some("gs://"),
        text_documents: false,
        base64_documents: None,
    },
    json_results: true,
    choice: ChoiceRules {
        none: true,
        required: true,
        parallel: false,
        source: "`toolConfig.functionCallingConfig`: `mode` AUTO | ANY | NONE | VALIDATED and `allowedFunctionNames`; no parallel-call setting (google-genai `types.FunctionCallingConfig`) (read 2026-11-28)",
    },
    conversation: &[
        ConversationRule {
            rule: "the responses to a turn's calls are one content, one `functionResponse` part per call",
            fix: "a results turn is written as one user content right after the calls; a call without a response is reported",
            source: "\"Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.\", google-gemini/gemini-cli#4217 (2025-07-15)",
        },
        ConversationRule {
            rule: "a response names its function; without ids, responses pair with calls by name and order",
            fix: "a result without a name takes its call's (in a conversation); a results payload read alone without names is refused",
            source: "`FunctionResponse.name`: \"Required. The name of the function to call. Matches [FunctionDeclaration.name] and [FunctionCall.name].\" (google-cloud-vertexai `FunctionResponseOrBuilder`) (read 2026-11-28)",
        },
        ConversationRule {
            rule: "Gemini 3 refuses a call without its thought signature",
            fix: "the first call of a turn from another provider is sent with the documented placeholder",
            source: "Vertex AI \"Thought signatures\": \"If a required thought signature is not returned when using Gemini 3 models, the model will return a 400 error\" (read 2026-11-28)",
        },
    ],
};
