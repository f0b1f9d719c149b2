//! Anthropic client tools: `{name, description?, input_schema, cache_control?, input_examples?,
//! strict?, type?: "custom"}`. Server tools (`web_search_20250305`, …) are opaque.

pub mod rules;
pub mod stream;
mod traffic;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Role, Tool};
use crate::lower::{At, Lowerer};
use crate::pointer::Path;
use crate::traffic::TrafficFormat;

use super::{
    Roles, lower_envelope, lower_opaque, not_built_in, open_with_name_description, write_input,
    write_members, write_opaque,
};

/// Where an Anthropic client tool holds its input schema.
const INPUT: &str = "input_schema";

/// The members of an Anthropic tool and their roles.
const ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    (INPUT, Role::Input),
    ("strict", Role::Strict),
]);

/// The Anthropic Messages API tool format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anthropic;

impl Adapter for Anthropic {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn traffic(&self) -> Option<&'static dyn TrafficFormat> {
        Some(&traffic::TRAFFIC)
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
        let type_ = lw.find(at, "type").and_then(|t| lw.str(t));
        let looks_client = lw.find(at, INPUT).is_some() || lw.find(at, "function").is_some();
        if type_.is_some_and(|t| t != "custom") && !looks_client {
            // Another format's tool with a `type` (OpenAI's `"type": "function"`, a LangChain
            // dict's `"type": "object"`) is not a server tool.
            if let Some(e) = not_built_in(lw, at, path) {
                return Err(e);
            }
            return lower_opaque(lw, at, path);
        }
        let mut tool = lower_envelope(lw, at, path, |key| ROLES.of(key))?;
        tool.input_pointer = "/input_schema";
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        if write_opaque(tool, cx, w) {
            return;
        }
        let same = cx.same_format();
        if same {
            w.begin_object();
            write_members(tool, w, Some(INPUT));
        } else {
            open_with_name_description(tool, w);
            write_input(tool.input.as_ref(), INPUT, w);
            if let Some(b) = tool.strict {
                w.key_plain("strict");
                w.bool(b);
            }
        }
        w.end_object();
    }
}
