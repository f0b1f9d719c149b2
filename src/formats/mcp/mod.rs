//! MCP: a `Tool` of a `tools/list` result (2025-11-25), catalogs as `{"tools": […]}`.
//!
//! Every member is kept: `title`, `annotations`, `_meta`, `icons`, `execution` and anything
//! else a server adds (`displayName`, `category`) ride along verbatim when MCP is the target.

pub mod rules;

use crate::adapter::{Adapter, EmitContext, Envelope, FormatInfo};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Member, Role, Tool};
use crate::lower::{At, Lowerer};
use crate::pointer::Path;

use super::{
    lower_envelope, write_input, write_members, write_name_description, write_object_catalog,
};

/// Where an MCP tool holds its input schema.
const INPUT: &str = "inputSchema";

/// The JSON-RPC 2.0 response a `tools/list` result arrives in, `{"jsonrpc": "2.0", "id": …,
/// "result": {"tools": […]}}`, or an error response `{…, "error": {"code", "message"}}`
/// (MCP 2026-07-28 schema: `ListToolsResultResponse`, `JSONRPCErrorResponse`; read
/// 2026-11-26 in the corpus's spec/schema).
const JSON_RPC: Envelope = Envelope::new("jsonrpc", "result", "error");

/// `ListToolsResult` members that say how to hold the list rather than what is in it: `ttlMs`
/// ("how long (in milliseconds) the client MAY cache this response"), `cacheScope`
/// (`public` or `private`) and `resultType`, all three required from 2026-07-28 (schema as
/// above). `nextCursor` is not one: it says the list goes on.
const LIST_HINTS: &[&str] = &["ttlMs", "cacheScope", "resultType"];

/// The MCP format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mcp;

impl Adapter for Mcp {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        let mut tool = lower_envelope(lw, at, path, |key| match key {
            "name" => Role::Name,
            "description" => Role::Description,
            INPUT => Role::Input,
            "outputSchema" => Role::Output,
            _ => Role::Meta,
        })?;
        tool.input_pointer = "/inputSchema";
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        w.begin_object();
        if cx.same_format() {
            write_members(tool, w, false, INPUT);
        } else {
            write_name_description(tool, w);
            write_input(tool.input.as_ref(), INPUT, w);
            if let Some(out) = &tool.output {
                w.key_plain("outputSchema");
                w.schema(out);
            }
        }
        w.end_object();
    }

    fn write_catalog(
        &self,
        tools: &[Tool<'_>],
        wrapper: &[Member<'_>],
        cx: &EmitContext<'_>,
        w: &mut Writer<'_>,
    ) {
        write_object_catalog("tools", tools, wrapper, |t, w| self.write_tool(t, cx, w), w);
    }
}
