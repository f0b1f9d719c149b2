//! Amazon Bedrock Converse tools: `{"toolSpec": {name, description?, inputSchema: {json},
//! strict?}}`, catalogs as the request's `toolConfig` (`{"tools": […], "toolChoice"?: …}`) or
//! a bare array.
//!
//! A Converse `Tool` is a union: exactly one of `toolSpec`, `cachePoint` and `systemTool`. The
//! last two are not function tools: they are read as opaque tools, written back in place when
//! Bedrock is the target and reported as left out elsewhere. `inputSchema` is a union too,
//! whose one member `json` holds the JSON Schema; the shared envelope code reads and writes
//! the schema inside it.
//!
//! Reference: Bedrock Runtime API, `ToolConfiguration`, `Tool`, `ToolSpecification` and
//! `ToolInputSchema` (docs.aws.amazon.com/bedrock/latest/APIReference/).

pub mod families;
pub mod rules;
pub mod stream;
mod traffic;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{Role, Tool};
use crate::lower::{At, Kind, Lowerer};
use crate::pointer::{Path, Seg};

use super::{
    Roles, foreign_in, lower_opaque, lower_wrapped_envelope, missing, write_opaque,
    write_wrapped_input, write_wrapped_members, wrong,
};

/// The member of a `Tool` that holds a function tool.
const SPEC_KEY: &str = "toolSpec";
/// The member of `ToolSpecification` that holds the input schema, and the one member of that
/// object holding the JSON Schema itself.
const INPUT_KEY: &str = "inputSchema";
const SCHEMA_KEY: &str = "json";

/// The Amazon Bedrock Converse tool format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bedrock;

/// The members of a Bedrock `toolSpec` and their roles.
const SPEC_ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    (INPUT_KEY, Role::Input),
    ("strict", Role::Strict),
]);

impl Adapter for Bedrock {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn traffic(&self) -> Option<&'static dyn crate::traffic::TrafficFormat> {
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
        if lw.kind(at) != Kind::Object {
            return Err(wrong(lw, path, "tool", "an object", at));
        }
        lw.check_duplicates(at, path)?;
        let Some(spec) = lw.find(at, SPEC_KEY) else { return lower_not_function(lw, at, path) };
        // A union: `toolSpec` stands alone.
        if let Some((other, _, _)) = lw.members(at).find(|(k, _, _)| *k != SPEC_KEY) {
            return Err(not_alone(lw, path, other));
        }
        let p = path.push(Seg::Key(SPEC_KEY));
        if lw.kind(spec) != Kind::Object {
            return Err(wrong(lw, &p, SPEC_KEY, "an object", spec));
        }
        let Some(name) = lw.find(spec, "name") else {
            // Said here, without the shape hint, which would take `inputSchema` for an MCP
            // tool's.
            let missing = ErrorKind::MissingMember { member: "name", hint: String::new() };
            return Err(lw.error(&p, missing));
        };
        // The name sits below `toolSpec`, where the catalog reader does not look for it.
        let name = lw.str(name);
        let mut tool = lower_wrapped_envelope(lw, spec, &p, SCHEMA_KEY, |key| SPEC_ROLES.of(key))
            .map_err(|e| match name {
            Some(n) => e.with_tool(n),
            None => e,
        })?;
        tool.members_pointer = "/toolSpec";
        tool.input_pointer = "/toolSpec/inputSchema/json";
        tool.at = at as u32;
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        if write_opaque(tool, cx, w) {
            return;
        }
        let same = cx.same_format();
        if !w.open_fixed(r#"{"toolSpec":{"#) {
            w.begin_object();
            w.key_plain(SPEC_KEY);
            w.begin_object();
        }
        if same {
            write_wrapped_members(tool, w, Some(INPUT_KEY), Some(SCHEMA_KEY));
        } else {
            w.key_plain("name");
            w.string(tool.name);
            // Bedrock rejects an empty description (minimum length 1); an empty one says
            // nothing, so it is left out rather than written.
            if let Some(d) = tool.description.filter(|d| !d.is_empty()) {
                w.key_plain("description");
                w.string(d);
            }
            write_wrapped_input(tool.input.as_ref(), INPUT_KEY, SCHEMA_KEY, w);
            if let Some(b) = tool.strict {
                w.key_plain("strict");
                w.bool(b);
            }
        }
        w.end_object();
        w.end_object();
    }
}

/// A `Tool` without `toolSpec`: one of the union's other members, read as an opaque tool named
/// by its key, or an error saying what is missing (another format's tool, by its schema
/// member, first).
fn lower_not_function<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    if let Some(e) = foreign_in(lw, at, path) {
        return Err(e);
    }
    let mut members = lw.members(at);
    let Some((key, _, _)) =
        members.next().filter(|(k, _, _)| rules::NOT_FUNCTION_TOOLS.contains(k))
    else {
        return Err(missing(lw, at, path, "toolSpec", ""));
    };
    if let Some((other, _, _)) = members.next() {
        return Err(not_alone(lw, path, other));
    }
    let tool = lower_opaque(lw, at, path)?;
    Ok(Tool { name: key, ..tool })
}

/// The error for member `other` beside the one member a `Tool` union may hold.
#[cold]
fn not_alone(lw: &Lowerer<'_, '_>, path: &Path<'_>, other: &str) -> ConversionError {
    let p = path.push(Seg::Key(other));
    let message = format!(
        "a Bedrock tool is a union holding exactly one of `toolSpec`, `cachePoint` and \
         `systemTool`; `{other}` cannot stand beside another"
    );
    lw.error(&p, ErrorKind::Shape(message))
}
