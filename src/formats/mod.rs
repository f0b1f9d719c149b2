//! The built-in formats, one folder each: its reader and writer (`mod.rs`) and its facts and
//! provider rules as data (`rules.rs`: the [`FormatInfo`], the keyword tables, name rules and
//! limits, each with its source). [`builtins`] lists them once for everyone who needs every
//! format: the registry, the CLI, the toolfoundation table and the tests. Schemas are lowered
//! and emitted by shared code (`lower`, `emit`); `envelope` holds the envelope code the
//! formats share.

mod a2a;
mod anthropic;
mod bedrock;
mod envelope;
mod gemini;
mod langchain;
mod mcp;
mod openai;
mod openapi;

pub use a2a::A2a;
pub use anthropic::Anthropic;
pub use bedrock::Bedrock;
pub use gemini::{Gemini, GeminiJson};
pub use langchain::LangChain;
pub use mcp::Mcp;
pub use openai::{OpenAi, OpenAiResponses};
pub use openapi::OpenApi;

/// Each format's facts and provider rules, as data.
pub mod rules {
    pub use super::a2a::rules as a2a;
    pub use super::anthropic::rules as anthropic;
    pub use super::bedrock::rules as bedrock;
    pub use super::gemini::rules as gemini;
    pub use super::langchain::rules as langchain;
    pub use super::mcp::rules as mcp;
    pub use super::openai::rules as openai;
    pub use super::openapi::rules as openapi;
}

pub(crate) use envelope::{
    EMPTY_TOOL, lower_envelope, lower_opaque, lower_wrapped_envelope, open_with_name_description,
    write_input, write_members, write_name_description, write_object_catalog, write_opaque,
    write_wrapped_input, write_wrapped_members, wrong,
};

use crate::adapter::{Adapter, FormatInfo};
use crate::lower::{At, Lowerer};

static MCP: Mcp = Mcp;
static OPENAI: OpenAi = OpenAi;
static OPENAI_RESPONSES: OpenAiResponses = OpenAiResponses;
static ANTHROPIC: Anthropic = Anthropic;
static BEDROCK: Bedrock = Bedrock;
static GEMINI: Gemini = Gemini;
static GEMINI_JSON: GeminiJson = GeminiJson;
static LANGCHAIN: LangChain = LangChain;
static OPENAPI: OpenApi = OpenApi::new();
static A2A: A2a = A2a;

static BUILTINS: &[&dyn Adapter] = &[
    &MCP,
    &OPENAI,
    &OPENAI_RESPONSES,
    &ANTHROPIC,
    &BEDROCK,
    &GEMINI,
    &GEMINI_JSON,
    &LANGCHAIN,
    &OPENAPI,
    &A2A,
];

/// Every built-in format, in the order the docs list them. Adding a format is a folder here
/// and one line in this list.
pub fn builtins() -> &'static [&'static dyn Adapter] {
    BUILTINS
}

/// The built-in format called `name`.
pub fn builtin(name: &str) -> Option<&'static dyn Adapter> {
    BUILTINS.iter().copied().find(|a| a.name() == name)
}

/// The facts of every built-in format, in [`builtins`] order.
pub fn infos() -> impl Iterator<Item = &'static FormatInfo> {
    BUILTINS.iter().map(|a| a.info())
}

/// Says which format a tool object looks like, to help when `--from` is wrong.
#[cold]
pub(crate) fn shape_hint(lw: &Lowerer<'_, '_>, at: At) -> String {
    let has = |k: &str| lw.find(at, k).is_some();
    let guess = if has("function") {
        "openai"
    } else if has("input_schema") {
        "anthropic"
    } else if has("inputSchema") {
        "mcp"
    } else if has("functionDeclarations") || has("parametersJsonSchema") {
        "gemini"
    } else if has("parameters") {
        "openai-responses or gemini"
    } else if has("title") && (has("properties") || has("type")) {
        "langchain"
    } else if has("toolSpec") {
        "bedrock"
    } else {
        return String::new();
    };
    format!(" (the input looks like a `{guess}` tool; check --from)")
}
