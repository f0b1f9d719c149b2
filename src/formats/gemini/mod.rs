//! Google Gemini function declarations: `{name, description?, parameters?}` with `parameters`
//! in Gemini's OpenAPI 3.0 subset (`gemini`), or `parametersJsonSchema` holding JSON Schema
//! (`gemini-json`, Gemini 2.5+). Catalogs are `{"functionDeclarations": […]}`.
//!
//! Both read either field: `parameters` is lowered with OpenAPI type names (`STRING`) and
//! marked as OpenAPI, so `nullable` keeps its meaning when it becomes a type array elsewhere.
//! The two fields are mutually exclusive, as in the API. Other members (`response`,
//! `responseJsonSchema`, `behavior`) ride along between the two Gemini formats.
//!
//! Reference: Gemini API `FunctionDeclaration` (ai.google.dev/api/caching#FunctionDeclaration):
//! "parameters … Reflects the Open API 3.03 Parameter Object … For function with no
//! parameters, this can be left unset"; "parametersJsonSchema … mutually exclusive with
//! parameters".

pub mod rules;
pub mod stream;
mod traffic;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{JsonType, Keyword, Role, Schema, Tool, Value};
use crate::lower::{At, Lowerer};
use crate::pointer::{Path, Seg};

use super::{
    Roles, lower_envelope, lower_opaque, open_with_name_description, write_members, write_opaque,
};

/// Gemini function declarations with `parameters` (the OpenAPI 3.0 subset).
#[derive(Clone, Copy, Debug, Default)]
pub struct Gemini;

/// Gemini function declarations with `parametersJsonSchema` (JSON Schema).
#[derive(Clone, Copy, Debug, Default)]
pub struct GeminiJson;

/// A declaration's schema fields: OpenAPI `parameters`, JSON Schema `parametersJsonSchema`,
/// and that field's proto name, which the API reads too (proto3's JSON mapping accepts the
/// lowerCamelCase name and the field's own) and the Python SDK and pydantic-ai send: 52 of the
/// 65 declarations pydantic-ai's recorded Gemini requests hold are spelled so
/// (provider-payloads in the corpus, read 2026-11-26).
const PARAMETERS: &str = "parameters";
const PARAMETERS_JSON: &str = "parametersJsonSchema";
const PARAMETERS_JSON_SNAKE: &str = "parameters_json_schema";

/// Where `gemini` declarations hold their schema (every spelling is read), the one written
/// first; and where `gemini-json` ones do.
pub(crate) const SCHEMA_MEMBERS: &[&str] = &[PARAMETERS, PARAMETERS_JSON, PARAMETERS_JSON_SNAKE];
const JSON_SCHEMA_MEMBERS: &[&str] = &[PARAMETERS_JSON, PARAMETERS_JSON_SNAKE, PARAMETERS];

/// The members of a declaration and their roles: either schema field is the input.
const ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    (PARAMETERS, Role::Input),
    (PARAMETERS_JSON, Role::Input),
    (PARAMETERS_JSON_SNAKE, Role::Input),
]);

/// The spellings of each field, for the format whose field it is not
/// ([`FormatInfo::other_field`]).
const OPENAPI_FIELD_KEYS: &[&str] = &[PARAMETERS];
pub(crate) const JSON_FIELD_KEYS: &[&str] = &[PARAMETERS_JSON, PARAMETERS_JSON_SNAKE];

/// Whether `key` spells the proto field whose JSON name is `field`: that name, or the proto
/// name it comes from (`parameters_json_schema` for `parametersJsonSchema`).
fn spells(key: &str, field: &str) -> bool {
    if key == field {
        return true;
    }
    // The proto name: each capital of the JSON name is `_` and its lower case.
    let mut proto = key.bytes();
    for b in field.bytes() {
        if b.is_ascii_uppercase() && proto.next() != Some(b'_') {
            return false;
        }
        if proto.next() != Some(b.to_ascii_lowercase()) {
            return false;
        }
    }
    proto.next().is_none()
}

/// The members of a Gemini `Tool` that are not function declarations but built-in tools:
/// `googleSearch`, `googleSearchRetrieval`, `codeExecution`, `urlContext`, `fileSearch`,
/// `googleMaps`, `computerUse` (Gemini API `Tool`, ai.google.dev/api/caching#Tool) and Vertex
/// AI's `retrieval` and `enterpriseWebSearch` (cloud.google.com/vertex-ai, `Tool`), checked
/// 2026-11-26. Each spelled also by its proto name (`google_search`).
const BUILT_INS: &[&str] = &[
    "googleSearch",
    "googleSearchRetrieval",
    "codeExecution",
    "urlContext",
    "fileSearch",
    "googleMaps",
    "computerUse",
    "retrieval",
    "enterpriseWebSearch",
];

fn lower<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    // A request's `Tool` that is a built-in (`{"googleSearch": {}}`) is kept verbatim, named
    // by its member, like Bedrock's `cachePoint`: written back for Gemini, reported left out
    // elsewhere. A declaration starts with anything but one of these.
    if let Some((first, _, _)) = lw.members(at).next()
        && BUILT_INS.iter().any(|b| spells(first, b))
    {
        let tool = lower_opaque(lw, at, path)?;
        return Ok(Tool { name: first, ..tool });
    }
    // The schema fields are one union in the API: one scan finds which, and a second one.
    let mut fields = lw.members(at).filter(|(k, _, _)| SCHEMA_MEMBERS.contains(k));
    let field = fields.next().map(|(k, _, _)| k);
    if let (Some(first), Some((second, _, _))) = (field, fields.next()) {
        return Err(two_schemas(lw, path, first, second));
    }
    let openapi = field == Some(PARAMETERS);
    // `parameters` is OpenAPI: its type names may be upper case. The reading holds for the
    // whole declaration, which is harmless for the other members (kept verbatim).
    let (tool, lower) =
        lw.with_openapi_types(openapi, |lw| lower_envelope(lw, at, path, |key| ROLES.of(key)));
    let mut tool = tool?;
    tool.openapi_schema = openapi;
    tool.lower_type_names = lower;
    tool.input_pointer = match field {
        Some(PARAMETERS) => "/parameters",
        Some(PARAMETERS_JSON_SNAKE) => "/parameters_json_schema",
        _ => "/parametersJsonSchema",
    };
    Ok(tool)
}

/// The error for a declaration with two schema fields, `first` and `second`, at the second.
#[cold]
fn two_schemas(
    lw: &Lowerer<'_, '_>,
    path: &Path<'_>,
    first: &str,
    second: &str,
) -> ConversionError {
    let message = if spells(first, PARAMETERS_JSON) && spells(second, PARAMETERS_JSON) {
        format!("`{first}` and `{second}` are one field spelled twice")
    } else {
        format!("`{first}` and `{second}` are mutually exclusive")
    };
    lw.error(&path.push(Seg::Key(second)), ErrorKind::Shape(message))
}

/// Whether the schema takes no arguments at all: `{"type":"object"}` with no (or empty)
/// `properties` and `required`. Gemini wants `parameters` left unset then.
fn takes_nothing(s: &Schema<'_>) -> bool {
    s.boolean.is_none()
        && s.keywords.iter().all(|e| match (e.keyword, e.value) {
            (Keyword::Type, Value::Type(t)) => t.list == [JsonType::Object],
            (Keyword::Properties, Value::Props(p)) => p.is_empty(),
            (Keyword::Required, Value::Strings(r)) => r.is_empty(),
            _ => false,
        })
}

fn write(
    tool: &Tool<'_>,
    info: &FormatInfo,
    key: &'static str,
    cx: &EmitContext<'_>,
    w: &mut Writer<'_>,
) {
    if write_opaque(tool, cx, w) {
        return;
    }
    // The same format keeps a declaration in the other field in it, as that field's format
    // writes it: the passes held it to that field's rules.
    let other = info.other_field.filter(|o| cx.same_format() && o.holds(tool));
    let upper = other.map_or(info.upper_type_names, |o| o.upper_type_names);
    let input = tool.input.filter(|s| !(upper && takes_nothing(s)));
    // Type names as the source spelled them, for the same format.
    w.set_upper_types(upper && !(cx.same_format() && tool.lower_type_names));
    if cx.same_family() {
        w.begin_object();
        let shown = Tool { input, ..*tool };
        // The field as the source spelled it, when it is the one written.
        let spelled = tool.members.iter().any(|m| m.role == Role::Input && spells(m.key, key));
        let renamed = input.is_some() && !spelled && other.is_none();
        write_members(&shown, w, renamed.then_some(key));
    } else {
        open_with_name_description(tool, w);
        if let Some(s) = &input {
            w.key_plain(key);
            w.schema(s);
        }
    }
    w.end_object();
    w.set_upper_types(false);
}

/// The two formats differ only in their facts and the field they write.
macro_rules! gemini_adapter {
    ($ty:ty, $info:expr, $field:expr, $traffic:expr) => {
        impl Adapter for $ty {
            fn info(&self) -> &FormatInfo {
                &$info
            }

            fn traffic(&self) -> Option<&'static dyn crate::traffic::TrafficFormat> {
                $traffic
            }

            // The format that speaks traffic speaks streams (one wire format for both).
            fn stream(&self) -> Option<&'static dyn crate::stream::StreamFormat> {
                let traffic: Option<&'static dyn crate::traffic::TrafficFormat> = $traffic;
                traffic.map(|_| &stream::STREAM as &'static dyn crate::stream::StreamFormat)
            }

            fn lower_tool<'a>(
                &self,
                lw: &mut Lowerer<'a, '_>,
                at: At,
                path: &Path<'_>,
            ) -> Result<Tool<'a>, ConversionError> {
                lower(lw, at, path)
            }

            fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
                write(tool, &$info, $field, cx, w);
            }
        }
    };
}

// Traffic is Gemini's one wire format: `gemini` speaks it, `gemini-json` (the same envelope
// with another schema field) does not repeat it.
gemini_adapter!(Gemini, rules::INFO, PARAMETERS, Some(&traffic::TRAFFIC));
gemini_adapter!(GeminiJson, rules::JSON_INFO, PARAMETERS_JSON, None);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_spelled_by_its_json_name_or_its_proto_name() {
        assert!(spells("parametersJsonSchema", PARAMETERS_JSON));
        assert!(spells("parameters_json_schema", PARAMETERS_JSON));
        assert!(spells("parameters", PARAMETERS));
        for other in [
            "parameters",
            "parametersjsonschema",
            "parameters_jsonSchema",
            "parameters_json_schema_",
            "parameters__json_schema",
        ] {
            assert!(!spells(other, PARAMETERS_JSON), "{other}");
        }
        assert!(!spells("parametersJsonSchema", PARAMETERS));
    }
}
