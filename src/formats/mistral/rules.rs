//! Mistral AI's facts and rules: its Chat Completions tools are OpenAI's shape
//! (`mistralai` 3.7.0, `client/models/tool.py`: `Tool { type: "function", function: Function }`;
//! `client/models/function.py`: `Function { name, parameters, description?, strict? }`, read
//! 2026-11-28), its function-name rule the API's own error, each with its source and the date
//! it was checked.
//!
//! What is not encoded: `Function.strict` is in the SDK, but Mistral documents no rules a
//! strict schema must obey, so the format has no strict mode: a source's `strict` is dropped,
//! and reported. Tool-call ids (nine letters or digits) are a traffic rule
//! (`openai::rules::NINE_ALPHANUMERIC_IDS`).

use crate::adapter::FormatInfo;
use crate::profile::{NameRule, Profile};

use super::super::openai::rules::{chat_schema, chat_wire};

/// Mistral function names: "Function name was add_newam_task_with_due_date___8c498bee-… but
/// must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."
/// (the API's 400, quoted in Kochava-Studios/witsy#164, 2025-04-04; read 2026-11-28).
pub const NAMES: NameRule = NameRule {
    extra: "-",
    max: 64,
    letter_first: false,
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    source: "\"must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\", Kochava-Studios/witsy#164 (2025-04-04; read 2026-11-28)",
};

/// Mistral's `parameters`: JSON Schema (`Function.parameters: Dict[str, Any]`, "The
/// parameters the functions accepts, described as a JSON Schema object"), read as an
/// OpenAI-compatible endpoint reads it, under Mistral's name rule.
pub const PROFILE: Profile = chat_schema(Profile::keep_all("mistral")).names(NAMES, None);

/// Mistral Chat Completions function tools: `parameters` is required (`Function.parameters`
/// has no default in the SDK).
pub const INFO: FormatInfo = chat_wire(FormatInfo::new("mistral", &PROFILE));
