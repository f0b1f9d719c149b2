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

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{JsonType, Keyword, Member, Role, Schema, Tool, Value};
use crate::lower::{At, Lowerer};
use crate::pointer::{Path, Seg};

use super::{lower_envelope, open_with_name_description, write_members, write_object_catalog};

/// Gemini function declarations with `parameters` (the OpenAPI 3.0 subset).
#[derive(Clone, Copy, Debug, Default)]
pub struct Gemini;

/// Gemini function declarations with `parametersJsonSchema` (JSON Schema).
#[derive(Clone, Copy, Debug, Default)]
pub struct GeminiJson;

use rules::CATALOG_KEY;

/// A declaration's schema fields: OpenAPI `parameters`, JSON Schema `parametersJsonSchema`.
const PARAMETERS: &str = "parameters";
const PARAMETERS_JSON: &str = "parametersJsonSchema";

/// Where `gemini` declarations hold their schema (either field is read), the one written
/// first; and where `gemini-json` ones do.
const SCHEMA_MEMBERS: &[&str] = &[PARAMETERS, PARAMETERS_JSON];
const JSON_SCHEMA_MEMBERS: &[&str] = &[PARAMETERS_JSON, PARAMETERS];

fn lower<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    let openapi = lw.find(at, PARAMETERS).is_some();
    if openapi && lw.find(at, PARAMETERS_JSON).is_some() {
        let p = path.push(Seg::Key(PARAMETERS_JSON));
        return Err(lw.error(
            &p,
            ErrorKind::Shape(
                "`parameters` and `parametersJsonSchema` are mutually exclusive".to_owned(),
            ),
        ));
    }
    // `parameters` is OpenAPI: its type names may be upper case. The flag is set for the
    // whole declaration, which is harmless for the other members (kept verbatim).
    lw.set_openapi_types(openapi);
    let tool = lower_envelope(lw, at, path, |key| match key {
        "name" => Role::Name,
        "description" => Role::Description,
        PARAMETERS | PARAMETERS_JSON => Role::Input,
        _ => Role::Meta,
    });
    lw.set_openapi_types(false);
    let mut tool = tool?;
    tool.openapi_schema = openapi;
    tool.input_pointer = if openapi { "/parameters" } else { "/parametersJsonSchema" };
    Ok(tool)
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
    key: &'static str,
    upper: bool,
    cx: &EmitContext<'_>,
    w: &mut Writer<'_>,
) {
    let input = tool.input.filter(|s| !(upper && takes_nothing(s)));
    w.set_upper_types(upper);
    if cx.same_family() {
        w.begin_object();
        let shown = Tool { input, ..*tool };
        write_members(&shown, w, false, if input.is_some() { key } else { "" });
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
    ($ty:ty, $info:expr, $field:expr, $upper:literal) => {
        impl Adapter for $ty {
            fn info(&self) -> &FormatInfo {
                &$info
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
                write(tool, $field, $upper, cx, w);
            }

            fn write_catalog(
                &self,
                tools: &[Tool<'_>],
                wrapper: &[Member<'_>],
                cx: &EmitContext<'_>,
                w: &mut Writer<'_>,
            ) {
                let each = |t: &Tool<'_>, w: &mut Writer<'_>| self.write_tool(t, cx, w);
                write_object_catalog(CATALOG_KEY, tools, wrapper, each, w);
            }
        }
    };
}

gemini_adapter!(Gemini, rules::INFO, PARAMETERS, true);
gemini_adapter!(GeminiJson, rules::JSON_INFO, PARAMETERS_JSON, false);
