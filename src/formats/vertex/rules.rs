//! Vertex AI's facts and rules for Gemini function declarations: the Gemini API's shape and
//! tables (`gemini::rules`), with Vertex AI's `Schema` where it holds more than the Gemini
//! API's; each difference here with its source and the date it was checked.
//!
//! Vertex AI's `Schema` (REST reference v1, docs.cloud.google.com/vertex-ai/generative-ai/
//! docs/reference/rest/v1/Schema, and its generated clients, `GoogleCloudAiplatformV1Schema`,
//! read 2026-11-28) holds `additionalProperties` ("If type is OBJECT, specifies how to handle
//! properties not defined in properties. If it is a boolean false, no additional properties
//! are allowed. If it is a schema, additional properties are allowed if they conform to the
//! schema."), which the Gemini API refuses ("Unknown name \"additionalProperties\" at
//! 'tools\[0\].function_declarations\[0\].parameters': Cannot find field.", BerriAI/litellm#14330),
//! and `ref`/`defs` (without `$`, `defs` at the root only).
//!
//! What is not encoded yet: the keyword tables treat a boolean schema alike wherever it
//! stands, and Vertex takes one only as `additionalProperties` (a `google.protobuf.Value`
//! there, a `Schema` message everywhere else), so keeping `additionalProperties` would write
//! its most common form, `false`, as an object schema no provider reads as meant; it is
//! dropped, and reported, as for the Gemini API. Refs are inlined as for the Gemini API, which
//! Vertex accepts too. The format exists so that a gateway names its target, the Gemini
//! family's built-in tools stay within one provider, and Vertex's rules have one place.

use crate::adapter::{FormatInfo, OtherField};
use crate::profile::Profile;

use super::super::gemini::rules as gemini;

/// Vertex AI `parameters`: the Gemini API's OpenAPI subset (see the module's notes for what
/// Vertex holds beyond it).
pub const PROFILE: Profile = gemini::PROFILE.named("vertex");

/// Vertex AI `parameters` under the toolfoundation profile set: the Go library has one Gemini
/// adapter, so its matrix, as for the Gemini API.
pub const TOOLFOUNDATION: Profile = gemini::TOOLFOUNDATION.named("vertex (toolfoundation)");

/// Vertex AI `parametersJsonSchema` under the toolfoundation profile set.
pub const TOOLFOUNDATION_JSON: Profile =
    gemini::TOOLFOUNDATION_JSON.named("vertex-json (toolfoundation)");

/// Vertex AI function declarations with `parameters` (type names upper-case, as the Gemini
/// API's `Type`); one holding `parametersJsonSchema` is held to that field's rules. One
/// family with the Gemini formats: the same declarations and built-in tools, one provider.
pub const INFO: FormatInfo = gemini::declaration(FormatInfo::new("vertex", &PROFILE))
    .toolfoundation(&TOOLFOUNDATION)
    .schema_members(gemini::SCHEMA_MEMBERS)
    .upper_type_names()
    .other_field(OtherField::new(
        gemini::JSON_FIELD_KEYS,
        &gemini::JSON_PROFILE,
        &TOOLFOUNDATION_JSON,
        false,
    ))
    .wire_of("gemini");
