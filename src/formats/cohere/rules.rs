//! Cohere's facts and rules, for Chat API v2 tools: OpenAI's shape (`cohere` 7.3.1,
//! `types/tool_v2.py`: `ToolV2 { type: "function", function: ToolV2Function }`;
//! `types/tool_v2function.py`: `ToolV2Function { name, description?, parameters }`, "The
//! parameters of the function as a JSON schema"; read 2026-11-28), members it does not define
//! refused, a function-name rule; each with its source and the date it was checked.
//!
//! What is not encoded: Cohere's strict mode is the request's `strict_tools`, not a member of
//! a tool, so the format has no strict mode (a source's `strict` is dropped, and reported).

use crate::adapter::FormatInfo;
use crate::profile::{NameRule, Profile};

use super::super::openai::rules::{chat_schema, chat_wire};

/// Cohere tool names: "Valid names contain only the characters `a-z`, `A-Z`, `0-9`, `_` and
/// must not begin with a digit" (`cohere` 7.3.1, `types/tool.py`, `Tool.name`, read
/// 2026-11-28; v2's `ToolV2Function.name` states no rule of its own). No length is documented.
pub const NAMES: NameRule = NameRule {
    extra: "",
    max: usize::MAX,
    letter_first: true,
    pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
    source: "cohere-python 7.3.1 `types/tool.py`, Tool.name (read 2026-11-28)",
};

/// Cohere's `parameters`: JSON Schema as an OpenAI-compatible endpoint reads it, under
/// Cohere's name rule.
pub const PROFILE: Profile = chat_schema(Profile::keep_all("cohere")).names(NAMES, None);

/// Cohere refuses a member it does not define: "unknown field: parameter 'strict' is not a
/// valid field. For proper usage, please refer to https://docs.cohere.com/reference/chat"
/// (OpenRouterTeam/openrouter-examples#71, 2026-03-23, a 422 for an OpenAI-style `strict`;
/// read 2026-11-28).
const UNKNOWN_MEMBER: &str = "unknown field: parameter '…' is not a valid field";

/// Cohere Chat API v2 function tools: `parameters` required (`ToolV2Function.parameters` has
/// no default), other members refused.
pub const INFO: FormatInfo =
    chat_wire(FormatInfo::new("cohere", &PROFILE)).closed_members(UNKNOWN_MEMBER);
