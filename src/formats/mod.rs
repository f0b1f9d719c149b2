//! The built-in formats, one folder each: its reader and writer (`mod.rs`) and its facts and
//! provider rules as data (`rules.rs`: the [`FormatInfo`], the keyword tables, name rules and
//! limits, each with its source). [`builtins`] lists them once for everyone who needs every
//! format: the registry, the CLI, the toolfoundation table and the tests. Schemas are lowered
//! and emitted by shared code (`lower`, `emit`); `envelope` holds the envelope code the
//! formats share.

mod a2a;
mod anthropic;
mod bedrock;
mod cohere;
mod envelope;
mod gemini;
mod langchain;
mod mcp;
mod mistral;
mod ollama;
mod openai;
mod openapi;
mod vertex;
mod wire;
mod xai;

pub use a2a::A2a;
pub use anthropic::Anthropic;
pub use bedrock::Bedrock;
pub use bedrock::families::ModelFamily;
pub use cohere::Cohere;
pub use gemini::{Gemini, GeminiJson};
pub use langchain::LangChain;
pub use mcp::Mcp;
pub(crate) use mcp::{report_unwritten, write_mcp_tools};
pub use mistral::Mistral;
pub use ollama::Ollama;
pub use openai::{OpenAi, OpenAiResponses};
pub use openapi::OpenApi;
pub use vertex::Vertex;
pub use xai::Xai;

/// Each format's facts and provider rules, as data.
pub mod rules {
    pub use super::a2a::rules as a2a;
    pub use super::anthropic::rules as anthropic;
    pub use super::bedrock::rules as bedrock;
    pub use super::cohere::rules as cohere;
    pub use super::gemini::rules as gemini;
    pub use super::langchain::rules as langchain;
    pub use super::mcp::rules as mcp;
    pub use super::mistral::rules as mistral;
    pub use super::ollama::rules as ollama;
    pub use super::openai::rules as openai;
    pub use super::openapi::rules as openapi;
    pub use super::vertex::rules as vertex;
    pub use super::xai::rules as xai;
}

pub(crate) use crate::emit::write_object_catalog;
pub(crate) use envelope::{
    EMPTY_TOOL, Roles, lower_envelope, lower_opaque, lower_wrapped_envelope,
    open_with_name_description, write_input, write_members, write_name_description, write_opaque,
    write_wrapped_input, write_wrapped_members, wrong,
};

use crate::adapter::{Adapter, FormatInfo};
use crate::error::{ConversionError, ErrorKind};
use crate::lower::{At, Lowerer};
use crate::pointer::Path;

mod handle;
mod sniff;

pub(crate) use handle::adapters;
pub use handle::{Format, IntoFormat};
pub use sniff::detect;
pub(crate) use sniff::{foreign_in, missing, worth_a_look};

// The one list of built-in formats: `builtins()` and `Format`'s constants both come from it.
// Adding a format is a folder here and one line in this list.
handle::builtin_formats! {
    /// MCP tools (`tools/list`).
    MCP: Mcp = Mcp,
    /// OpenAI Chat Completions function tools.
    OPENAI: OpenAi = OpenAi,
    /// OpenAI Responses API function tools.
    OPENAI_RESPONSES: OpenAiResponses = OpenAiResponses,
    /// Anthropic Messages API tools.
    ANTHROPIC: Anthropic = Anthropic,
    /// Amazon Bedrock Converse tools.
    BEDROCK: Bedrock = Bedrock,
    /// Google Gemini function declarations (OpenAPI-subset `parameters`).
    GEMINI: Gemini = Gemini,
    /// Google Gemini function declarations with `parametersJsonSchema`.
    GEMINI_JSON: GeminiJson = GeminiJson,
    /// LangChain tool definitions.
    LANGCHAIN: LangChain = LangChain,
    /// OpenAPI documents, imported operation by operation (read only).
    OPENAPI: OpenApi = OpenApi::new(),
    /// A2A AgentCard skills.
    A2A: A2a = A2a,
    /// Mistral AI function tools (OpenAI's Chat shape).
    MISTRAL: Mistral = Mistral,
    /// Ollama function tools (OpenAI's Chat shape, Ollama's schema fields).
    OLLAMA: Ollama = Ollama,
    /// xAI (Grok) function tools (OpenAI's Chat shape).
    XAI: Xai = Xai,
    /// Cohere Chat API v2 function tools (OpenAI's Chat shape).
    COHERE: Cohere = Cohere,
    /// Gemini function declarations on Vertex AI.
    VERTEX: Vertex = Vertex,
}

/// Every built-in format, in the order the docs list them ([`Format::ALL`] is the same list).
pub fn builtins() -> &'static [&'static dyn Adapter] {
    BUILTINS
}

/// The built-in format called `name`, spelled exactly (see [`Format`]'s `FromStr` for names in
/// any case).
pub fn builtin(name: &str) -> Option<&'static dyn Adapter> {
    BUILTINS.iter().copied().find(|a| a.name() == name)
}

/// The facts of every built-in format, in [`builtins`] order.
pub fn infos() -> impl Iterator<Item = &'static FormatInfo> {
    BUILTINS.iter().map(|a| a.info())
}

/// Whether a tool read as `reading` that holds member `key` holds another format's input
/// schema there ([`FormatInfo::schema_members`]): a built-in format outside `reading`'s family
/// keeps its schema under `key`, and `reading` does not.
pub(crate) fn is_foreign_schema_member(key: &str, reading: &str) -> bool {
    let own = builtin(reading).map(|a| a.info());
    if own.is_some_and(|i| i.schema_members.contains(&key)) {
        return false;
    }
    schema_owners(key, own.map_or(reading, |i| i.family)).next().is_some()
}

/// Whether the format called `reading` has a place for an input schema
/// ([`FormatInfo::holds_input_schema`]); a format not built in is taken to have one.
pub(crate) fn holds_input_schema(reading: &str) -> bool {
    builtin(reading).is_none_or(|a| a.info().holds_input_schema)
}

/// The built-in formats whose tools keep their input schema under `key`, the first of each
/// family (of the first 16 families: there are 8), in [`builtins`] order, the family
/// `reading` and the formats sharing another's shape ([`FormatInfo::wire_of`]) left out. Allocates nothing: it is asked on the envelope's path.
pub(crate) fn schema_owners<'r>(
    key: &'r str,
    reading: &'r str,
) -> impl Iterator<Item = &'static str> + 'r {
    let mut families: [&str; 16] = [""; 16];
    let mut seen = 0;
    let owns = move |i: &&FormatInfo| i.own_shape() && i.schema_members.contains(&key);
    infos().filter(move |i| i.family != reading).filter(owns).filter_map(move |i| {
        if families.get(..seen).is_some_and(|f| f.contains(&i.family)) {
            return None;
        }
        if let Some(slot) = families.get_mut(seen) {
            *slot = i.family;
            seen += 1;
        }
        Some(i.name)
    })
}

/// The error for member `key` (at `path`) of a tool read as the lowerer's format, where other
/// formats keep their input schema ([`is_foreign_schema_member`]).
#[cold]
pub(crate) fn foreign_member(lw: &Lowerer<'_, '_>, path: &Path<'_>, key: &str) -> ConversionError {
    let reading = lw.format();
    let family = builtin(reading).map_or(reading, |a| a.info().family);
    let formats = schema_owners(key, family).collect();
    lw.error(path, ErrorKind::ForeignMember { member: key.to_owned(), formats })
}

/// The error for an object a reader would keep as a provider built-in (it has a `type` other
/// than a function's) that is another format's (its tool, its built-in, a LangChain dict whose
/// `type` is `object`): [`foreign_in`], which every reader asks before it takes an object for
/// its own.
#[cold]
pub(crate) fn not_built_in(
    lw: &Lowerer<'_, '_>,
    at: At,
    path: &Path<'_>,
) -> Option<ConversionError> {
    foreign_in(lw, at, path)
}
