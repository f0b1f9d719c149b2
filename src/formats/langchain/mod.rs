//! LangChain's JSON-schema-as-tool dict: the tool *is* its input schema, named by its
//! top-level `title`: `{"title": name, "description": …, "type": "object", "properties": …,
//! "required": …}`, the form `convert_to_openai_tool` accepts.
//!
//! What LangChain does with such a dict (langchain_core `utils/function_calling.py`,
//! `convert_to_openai_function`, checked 2026-11):
//! - a dict with a top-level `title` (and no `name`, `input_schema` or `toolSpec`, which
//!   select the OpenAI, Anthropic and Bedrock readings first) is a JSON schema: `title`
//!   becomes the function name, `description` (optional) its description, and the rest of
//!   the dict, as it is, its `parameters`: nested `title`s, `$defs`, `definitions` and `$ref`s
//!   included (only the Pydantic path dereferences refs and removes titles);
//! - a dict without `title` that has `type` or `properties` is refused ("it must have a
//!   top-level 'title' key to be used as the function name");
//! - the rest becomes `parameters` only when it has `properties`; without, the function has
//!   no parameters;
//! - the way back (`convert_to_json_schema`) writes `title` and `description`, then the
//!   parameters' own members over them.
//!
//! Here, reading lowers the whole dict as one schema and takes `title` and `description` out
//! of its root (a missing `title` is an error at the dict's pointer). Writing puts the tool's
//! name and description first, then the input schema's keywords; the schema's own root
//! `title` and `description` were moved out of the way by a pass, and reported (see
//! [`FormatInfo::tool_is_schema`]). The same format keeps the source's member order, so a
//! LangChain → LangChain round trip is byte-identical for compact input. There is no catalog
//! object: catalogs are JSON arrays, and a dict with a top-level `tools` member is one tool.

pub mod rules;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::features_of;
use crate::ir::{Entry, Json, Keyword, Role, Schema, Tool, ToolMember, Value};
use crate::lower::{At, Kind, Lowerer};
use crate::pointer::{Path, Seg};

use super::{EMPTY_TOOL, foreign_member, is_foreign_schema_member};

/// LangChain's JSON-schema-as-tool dict.
#[derive(Clone, Copy, Debug, Default)]
pub struct LangChain;

/// Root keywords that are the envelope, not the schema.
fn is_envelope(keyword: Keyword) -> bool {
    matches!(keyword, Keyword::Title | Keyword::Description)
}

impl Adapter for LangChain {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        lower(lw, at, path).map_err(|e| match lw.find(at, "title").and_then(|t| lw.str(t)) {
            Some(title) => e.with_tool(title),
            None => e,
        })
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        w.begin_object();
        if cx.same_format() {
            write_in_source_order(tool, w);
        } else {
            w.key_plain("title");
            w.string(tool.name);
            if let Some(d) = tool.description {
                w.key_plain("description");
                w.string(d);
            }
            // The root pass made the schema an object; the envelope pass moved its own root
            // `title` and `description` out, so none is skipped here in a conversion.
            for e in schema_entries(tool.input.as_ref()) {
                w.entry(e);
            }
        }
        w.end_object();
    }
}

/// The input schema's keywords other than the envelope's.
fn schema_entries<'s, 'a>(schema: Option<&'s Schema<'a>>) -> impl Iterator<Item = &'s Entry<'a>> {
    schema.map_or(&[][..], |s| s.keywords).iter().filter(|e| !is_envelope(e.keyword))
}

fn lower<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    if lw.kind(at) != Kind::Object {
        return Err(super::wrong(lw, path, "tool", "an object", at));
    }
    // The whole dict is one schema: depth, duplicate keys and every keyword are checked as
    // for any schema, and the envelope's two members are then taken out of its root.
    let schema = lw.tool_schema(at, path, path.depth())?;
    // Another format's tool (an MCP tool with a `title`) would read as a schema whose root
    // holds that format's envelope as unknown keywords, its own schema among them: refused.
    for e in schema.keywords {
        if let Value::Unknown(m) = e.value
            && is_foreign_schema_member(m.key, lw.format())
        {
            return Err(foreign_member(lw, &path.push(Seg::Key(m.key)), m.key));
        }
    }
    let placeholder = ToolMember { key: "", role: Role::Meta, at: 0, value: Json::Null };
    let mut members = [placeholder; 2];
    let mut n = 0;
    let mut name = None;
    let mut description = None;
    for e in schema.keywords.iter().filter(|e| is_envelope(e.keyword)) {
        // A keyword's value follows its key on the tape.
        let value_at = e.at as usize + 1;
        let (key, role, value) = match (e.keyword, e.value) {
            (Keyword::Title, Value::Str(s)) => {
                name = Some(s);
                ("title", Role::Name, Json::String(s))
            }
            (Keyword::Title, _) => return Err(wrong(lw, path, "title", "a string", value_at)),
            (_, Value::Str(s)) => {
                description = Some(s);
                ("description", Role::Description, Json::String(s))
            }
            (_, Value::Json(Json::Null)) => ("description", Role::Description, Json::Null),
            _ => return Err(wrong(lw, path, "description", "a string or null", value_at)),
        };
        if let Some(slot) = members.get_mut(n) {
            *slot = ToolMember { key, role, at: e.at, value };
            n += 1;
        }
    }
    let Some(name) = name else { return Err(missing_title(lw, at, path)) };
    let kept = lw.alloc_slice(n, placeholder, path)?;
    for (slot, m) in kept.iter_mut().zip(&members) {
        *slot = *m;
    }
    let input = if n == schema.keywords.len() {
        None
    } else {
        let blank = Entry { keyword: Keyword::Unknown, at: 0, value: Value::Bool(false) };
        let rest = lw.alloc_slice(schema.keywords.len() - n, blank, path)?;
        for (slot, e) in rest.iter_mut().zip(schema_entries(Some(&schema))) {
            *slot = *e;
        }
        Some(Schema { keywords: rest, features: features_of(rest), ..schema })
    };
    Ok(Tool {
        name,
        description,
        input,
        members: kept,
        at: at as u32,
        input_pointer: "",
        members_pointer: "",
        ..EMPTY_TOOL
    })
}

#[cold]
fn wrong(
    lw: &Lowerer<'_, '_>,
    path: &Path<'_>,
    key: &'static str,
    expected: &'static str,
    value_at: At,
) -> ConversionError {
    lw.error(
        &path.push(Seg::Key(key)),
        ErrorKind::WrongType {
            member: key.to_owned(),
            expected,
            found: lw.kind(value_at).as_str(),
        },
    )
}

#[cold]
fn missing_title(lw: &Lowerer<'_, '_>, at: At, path: &Path<'_>) -> ConversionError {
    let about = " (LangChain takes a JSON-schema tool's name from its top-level `title`)";
    super::missing(lw, at, path, "title", about)
}

/// Writes a LangChain tool read from LangChain: the envelope members and the schema's
/// keywords interleaved by source position, the typed fields (which passes may have changed)
/// in place of the raw ones. A description the passes gave a tool that had none comes right
/// after the title.
fn write_in_source_order(tool: &Tool<'_>, w: &mut Writer<'_>) {
    let mut members =
        tool.members.iter().filter(|m| matches!(m.role, Role::Name | Role::Description)).peekable();
    let had_description = tool.members.iter().any(|m| m.role == Role::Description);
    let member = |m: &ToolMember<'_>, w: &mut Writer<'_>| match m.role {
        Role::Name => {
            w.key(m.key);
            w.string(tool.name);
            if let (false, Some(d)) = (had_description, tool.description) {
                w.key_plain("description");
                w.string(d);
            }
        }
        _ => {
            w.key(m.key);
            match tool.description {
                Some(d) => w.string(d),
                None => w.json(&m.value),
            }
        }
    };
    for e in schema_entries(tool.input.as_ref()) {
        while let Some(m) = members.next_if(|m| m.at < e.at) {
            member(m, w);
        }
        w.entry(e);
    }
    for m in members {
        member(m, w);
    }
}
