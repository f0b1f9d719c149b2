//! OpenAI function tools: Chat Completions (`{"type":"function","function":{…}}`, or a bare
//! function object on input) and the flat Responses shape.
//!
//! Non-function tools (`web_search`, `file_search`, `mcp`, …) are read as opaque tools: kept
//! verbatim for the same format, reported as not convertible elsewhere.

pub mod rules;
pub mod stream;
pub mod stream_responses;
mod traffic;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Json, Role, Tool, ToolMember};
use crate::lower::{At, Kind, Lowerer};
use crate::pointer::{Path, Seg};
use crate::traffic::TrafficFormat;

use super::{
    Roles, lower_envelope, lower_opaque, not_built_in, write_input, write_members,
    write_name_description, write_opaque,
};

/// Where an OpenAI function holds its input schema.
const PARAMETERS: &str = "parameters";
/// Where an OpenAI Chat tool holds its function.
const FUNCTION: &str = "function";

/// The members of an OpenAI function and their roles.
const FUNCTION_ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    (PARAMETERS, Role::Input),
    ("strict", Role::Strict),
]);

/// A tool of another `type` than `function`: a built-in (`web_search`, `mcp`, …) kept
/// verbatim; or another format's tool (an Anthropic `"type": "custom"` with its
/// `input_schema`, a LangChain dict's `"type": "object"`), which is an error rather than a
/// built-in nobody has.
fn built_in<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    match not_built_in(lw, at, path) {
        Some(e) => Err(e),
        None => lower_opaque(lw, at, path),
    }
}

/// OpenAI Chat Completions function tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenAi;

impl Adapter for OpenAi {
    fn info(&self) -> &FormatInfo {
        &rules::CHAT
    }

    fn traffic(&self) -> Option<&'static dyn TrafficFormat> {
        Some(&traffic::CHAT)
    }

    fn stream(&self) -> Option<&'static dyn crate::stream::StreamFormat> {
        Some(&stream::STREAM)
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        let function = lw.find(at, "function").filter(|f| lw.kind(*f) == Kind::Object);
        let type_ = lw.find(at, "type").and_then(|t| lw.str(t));
        let Some(function) = function else {
            if type_.is_some_and(|t| t != "function") {
                return built_in(lw, at, path);
            }
            let mut tool = lower_envelope(lw, at, path, |key| FUNCTION_ROLES.of(key))?;
            tool.input_pointer = "/parameters";
            return Ok(tool);
        };
        if type_.is_some_and(|t| t != "function") {
            return built_in(lw, at, path);
        }
        // Chat shape: the wrapper's members other than `type` and `function` are kept as
        // `Outer` members after the function's own. One pass in document order keeps number
        // text in step.
        lw.check_duplicates(at, path)?;
        let n_outer = lw.object_len(at);
        let blank = ToolMember { key: "", role: Role::Outer, at: 0, value: Json::Null };
        let outer = lw.alloc_slice(n_outer, blank, path)?;
        let mut tool = None;
        for ((key, key_at, v), slot) in lw.members(at).zip(outer.iter_mut()) {
            let p = path.push(Seg::Key(key));
            let (role, value) = if v == function {
                tool = Some(lower_envelope(lw, v, &p, |key| FUNCTION_ROLES.of(key))?);
                (Role::Structure, Json::Null)
            } else if key == "type" {
                lw.skip(v, &p)?;
                (Role::Structure, Json::Null)
            } else {
                (Role::Outer, lw.json(v, &p, p.depth())?)
            };
            *slot = ToolMember { key, role, at: key_at as u32, value };
        }
        let Some(mut tool) = tool else { return lower_opaque(lw, at, path) };
        if n_outer > 0 {
            let all = lw.alloc_slice(tool.members.len() + n_outer, blank, path)?;
            for (slot, m) in all.iter_mut().zip(tool.members.iter().chain(outer.iter())) {
                *slot = *m;
            }
            tool.members = all;
        }
        tool.members_pointer = "/function";
        tool.input_pointer = "/function/parameters";
        tool.at = at as u32;
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        if write_opaque(tool, cx, w) {
            return;
        }
        let same = cx.same_format();
        let wrapper = |m: &&ToolMember<'_>| matches!(m.role, Role::Outer | Role::Structure);
        if same && tool.members.iter().any(|m| m.role == Role::Structure) {
            w.begin_object();
            // The wrapper in source order; `function` is written where it stood.
            for m in tool.members.iter().filter(wrapper) {
                match (m.role, m.key) {
                    (Role::Structure, "function") => {
                        w.key_plain("function");
                        w.begin_object();
                        write_members(tool, w, None);
                        w.end_object();
                    }
                    (Role::Structure, _) => {
                        w.key_plain("type");
                        w.string_plain("function");
                    }
                    _ => {
                        w.key(m.key);
                        w.json(&m.value);
                    }
                }
            }
            w.end_object();
            return;
        }
        if !w.open_fixed(r#"{"type":"function","function":{"#) {
            w.begin_object();
            w.key_plain("type");
            w.string_plain("function");
            w.key_plain("function");
            w.begin_object();
        }
        if same {
            write_members(tool, w, None);
        } else {
            write_name_description(tool, w);
            if let Some(s) = &tool.input {
                write_input(Some(s), "parameters", w);
            }
            if let Some(b) = tool.strict {
                w.key_plain("strict");
                w.bool(b);
            }
        }
        w.end_object();
        w.end_object();
    }
}

/// OpenAI Responses API function tools (flat: `{"type":"function","name",…}`).
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenAiResponses;

impl Adapter for OpenAiResponses {
    fn info(&self) -> &FormatInfo {
        &rules::RESPONSES
    }

    fn traffic(&self) -> Option<&'static dyn TrafficFormat> {
        Some(&traffic::RESPONSES)
    }

    fn stream(&self) -> Option<&'static dyn crate::stream::StreamFormat> {
        Some(&stream_responses::STREAM)
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        let type_ = lw.find(at, "type").and_then(|t| lw.str(t));
        if type_.is_some_and(|t| t != "function") {
            return built_in(lw, at, path);
        }
        let mut tool = lower_envelope(lw, at, path, |key| match key {
            // `"type": "function"` says what the tool is: written back where it stood.
            "type" => Role::Structure,
            key => FUNCTION_ROLES.of(key),
        })?;
        tool.input_pointer = "/parameters";
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        if write_opaque(tool, cx, w) {
            return;
        }
        let same = cx.same_format();
        if same {
            w.begin_object();
            if !tool.members.iter().any(|m| m.role == Role::Structure) {
                w.key_plain("type");
                w.string_plain("function");
            }
            // An omitted `strict` stays omitted: the API makes the tool strict where it can,
            // as its author meant.
            write_members(tool, w, Some("parameters"));
        } else {
            if !w.open_fixed(r#"{"type":"function","#) {
                w.begin_object();
                w.key_plain("type");
                w.string_plain("function");
            }
            write_name_description(tool, w);
            write_input(tool.input.as_ref(), "parameters", w);
            // The Responses API makes a tool without `strict` strict where it can; state what
            // the source meant.
            w.key_plain("strict");
            w.bool(tool.strict.unwrap_or(false));
        }
        w.end_object();
    }
}
