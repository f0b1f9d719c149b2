//! MCP: a `Tool` of a `tools/list` result (2025-11-25), catalogs as `{"tools": […]}`.
//!
//! Every member is kept: `title`, `annotations`, `_meta`, `icons`, `execution` and anything
//! else a server adds (`displayName`, `category`) ride along verbatim when MCP is the target.

mod header;
mod owned;
pub mod rules;
mod traffic;

pub(crate) use owned::{report_unwritten, write_mcp_tools};

use std::cell::Cell;

use crate::adapter::{Adapter, EmitContext, Envelope, FormatInfo};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Role, Tool};
use crate::lower::{At, Lowerer, ReadNote};
use crate::pointer::Path;
use crate::report::{Code, EntryKind, Note};

use super::{Roles, lower_envelope, write_input, write_members, write_name_description};

/// Where an MCP tool holds its input schema.
const INPUT: &str = "inputSchema";

/// The members of an MCP tool and their roles.
const ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    (INPUT, Role::Input),
    ("outputSchema", Role::Output),
]);

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

/// MCP 2025-11-25's `Tool.execution` (`ToolExecution`), which 2026-07-28 removed; its one
/// member, `taskSupport`, says whether the tool may be called as a task: `"forbidden"`
/// (the default), `"optional"` or `"required"` (2025-11-25 schema, read 2026-11-26 in the
/// corpus's spec/schema).
const EXECUTION: &str = "execution";
const TASK_SUPPORT: &str = "taskSupport";

/// Reports the `execution.taskSupport` of the tool at `at` converted to another format: what
/// it means there, and that the protocol's next revision dropped it; and a value outside the
/// three, for MCP too.
#[cold]
fn task_support(lw: &mut Lowerer<'_, '_>, at: At, tool: &Tool<'_>) {
    let Some(value) = lw.find(at, EXECUTION).and_then(|e| lw.find(e, TASK_SUPPORT)) else {
        return;
    };
    let (kind, message) = match lw.str(value) {
        // MCP → MCP keeps it as written, and stays lossless: nothing to say.
        Some("forbidden" | "optional" | "required") if lw.same_format() => return,
        Some("required") => (
            EntryKind::guarantee_lost(Code::Superseded),
            "the tool must be called as a task (`execution.taskSupport`: \"required\", MCP 2025-11-25; removed in 2026-07-28); other formats call a tool directly, which its server may refuse".to_owned(),
        ),
        Some(v @ ("forbidden" | "optional")) => (
            EntryKind::metadata(Code::Superseded),
            format!(
                "`execution.taskSupport` ({v:?}, MCP 2025-11-25; removed in 2026-07-28): the tool can be called directly, as other formats call it"
            ),
        ),
        _ => (
            EntryKind::metadata_lost(Code::Superseded),
            format!(
                "`execution.taskSupport` is a {} that is not one of \"forbidden\", \"optional\" and \"required\" (MCP 2025-11-25); kept as written for MCP",
                lw.kind(value).as_str()
            ),
        ),
    };
    lw.note(ReadNote {
        tool_at: tool.at,
        // The member's key, which comes just before its value on the tape.
        at: (value as u32).saturating_sub(1),
        // How the tool is called, not which arguments it takes.
        note: Note {
            kind,
            feature: "execution.taskSupport",
            pointer: "/execution/taskSupport".to_owned(),
            message,
        },
        leave_out: false,
    });
}

/// The MCP format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mcp;

impl Adapter for Mcp {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn traffic(&self) -> Option<&'static dyn crate::traffic::TrafficFormat> {
        Some(&traffic::TRAFFIC)
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        let execution = Cell::new(false);
        let (tool, watched) = lw.watching(header::KEY, |lw| {
            lower_envelope(lw, at, path, |key| {
                execution.set(execution.get() || key == EXECUTION);
                ROLES.of(key)
            })
        });
        let mut tool = tool?;
        tool.input_pointer = "/inputSchema";
        if watched {
            header::check(lw, &mut tool)?;
        }
        if execution.get() {
            task_support(lw, at, &tool);
        }
        Ok(tool)
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        w.begin_object();
        if cx.same_format() {
            write_members(tool, w, Some(INPUT));
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
}
