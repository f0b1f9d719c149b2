//! Ollama's facts and rules: its `/api/chat` tools are OpenAI's Chat shape, but the schema
//! it reads is a fixed set of fields, not JSON Schema; each rule here with its source and the
//! date it was checked.
//!
//! Which fields. The Python SDK (`ollama` 0.6.3, read 2026-11-28) validates every tool into
//! its `Tool` type before sending it (`_client.py`, `_copy_tools`: `Tool.model_validate`), and
//! that type holds, for `parameters`, `type` (`"object"`), `$defs`, `items`, `required` and
//! `properties`, and for each property `type` (a string or a list of them), `items`,
//! `description` and `enum` (`_types.py`, `Tool.Function.Parameters.Property`); pydantic leaves
//! any other member out without a word. The server's Go types are as narrow: a boolean schema
//! fails to decode ("json: cannot unmarshal bool into Go struct field
//! ToolFunctionParameters.tools.function.parameters.properties", can1357/oh-my-pi#4488,
//! 2026-07-04), and the cloud endpoint refuses `oneOf` ("JSON Schema not supported: could not
//! understand the instance …", ollama/ollama#13967, 2026-01-29). So every other constraint is
//! described (the model still reads it) and annotations are dropped, both reported.
//!
//! `prefixItems` is kept, though the SDK's `items` is untyped and `prefixItems` not a field:
//! described while `items` stays, it would make `items` hold from the first element, which
//! refuses what the source accepted (the semantic differential finds it).
//!
//! What is not encoded: a property's own `properties` (a nested object's) are not among the
//! SDK's fields either; the rules are per keyword, not per depth, so they are kept. Ollama has
//! no strict mode ("Ollama does not support OpenAI's `strict` mode for tool schemas",
//! pydantic/pydantic-ai#4160, 2026-04-16). Older servers refused a list as `type` ("json:
//! cannot unmarshal array into Go struct field .tools.function.parameters.properties.type of
//! type string", tidyverse/ellmer#342, 2025-02-27); the SDK types it as a string or a list,
//! so type lists are kept.

use crate::adapter::{Action, FormatInfo};
use crate::ir::{Keyword, SchemaFeature};
use crate::profile::Profile;

use super::super::openai::rules::{chat_schema, chat_wire};

/// Ollama's `parameters`: the SDK's fields kept (`type`, `properties`, `required`, `items`,
/// `description`, `enum`; `const` as a one-value `enum`), refs inlined, no boolean schemas;
/// every other constraint described, annotations dropped.
pub const PROFILE: Profile = chat_schema(Profile::keep_all("ollama"))
    .without(SchemaFeature::BooleanSchema)
    .with(Keyword::Const, Action::Rewrite)
    .with(Keyword::Ref, Action::Rewrite)
    .with(Keyword::Defs, Action::Rewrite)
    .with(Keyword::Definitions, Action::Rewrite)
    .with(Keyword::Schema, Action::Drop)
    .with(Keyword::Id, Action::Drop)
    .with(Keyword::Anchor, Action::Drop)
    .with(Keyword::DynamicAnchor, Action::Drop)
    .with(Keyword::RecursiveAnchor, Action::Drop)
    .with(Keyword::Vocabulary, Action::Drop)
    .with(Keyword::Comment, Action::Drop)
    .with(Keyword::Title, Action::Drop)
    .with(Keyword::Examples, Action::Drop)
    .with(Keyword::Example, Action::Drop)
    .with(Keyword::Deprecated, Action::Drop)
    .with(Keyword::ReadOnly, Action::Drop)
    .with(Keyword::WriteOnly, Action::Drop)
    .with(Keyword::PropertyOrdering, Action::Drop)
    .with(Keyword::ContentEncoding, Action::Drop)
    .with(Keyword::ContentMediaType, Action::Drop)
    .with(Keyword::Unknown, Action::Drop)
    .with(Keyword::Default, Action::Describe)
    .with(Keyword::Format, Action::Describe)
    .with(Keyword::Pattern, Action::Describe)
    .with(Keyword::MinLength, Action::Describe)
    .with(Keyword::MaxLength, Action::Describe)
    .with(Keyword::Minimum, Action::Describe)
    .with(Keyword::Maximum, Action::Describe)
    .with(Keyword::ExclusiveMinimum, Action::Describe)
    .with(Keyword::ExclusiveMaximum, Action::Describe)
    .with(Keyword::MultipleOf, Action::Describe)
    .with(Keyword::MinItems, Action::Describe)
    .with(Keyword::MaxItems, Action::Describe)
    .with(Keyword::UniqueItems, Action::Describe)
    .with(Keyword::Contains, Action::Describe)
    .with(Keyword::MinContains, Action::Describe)
    .with(Keyword::MaxContains, Action::Describe)
    .with(Keyword::UnevaluatedItems, Action::Describe)
    .with(Keyword::MinProperties, Action::Describe)
    .with(Keyword::MaxProperties, Action::Describe)
    .with(Keyword::AdditionalProperties, Action::Describe)
    .with(Keyword::PatternProperties, Action::Describe)
    .with(Keyword::PropertyNames, Action::Describe)
    .with(Keyword::UnevaluatedProperties, Action::Describe)
    .with(Keyword::DependentRequired, Action::Describe)
    .with(Keyword::DependentSchemas, Action::Describe)
    .with(Keyword::Dependencies, Action::Describe)
    .with(Keyword::AllOf, Action::Describe)
    .with(Keyword::AnyOf, Action::Describe)
    .with(Keyword::OneOf, Action::Describe)
    .with(Keyword::Not, Action::Describe)
    .with(Keyword::If, Action::Describe)
    .with(Keyword::Then, Action::Describe)
    .with(Keyword::Else, Action::Describe)
    .with(Keyword::ContentSchema, Action::Describe)
    .with(Keyword::DynamicRef, Action::Describe)
    .with(Keyword::RecursiveRef, Action::Describe);

/// Ollama function tools: `parameters` may be omitted (`Tool.Function.parameters` is
/// optional in the SDK), its root an object (`Parameters.type: Literal['object']`).
pub const INFO: FormatInfo = chat_wire(FormatInfo::new("ollama", &PROFILE)).optional_input_schema();
