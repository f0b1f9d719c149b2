//! LangChain's facts and rules: the tool is its input schema, catalogs are arrays, and every
//! keyword is kept (LangChain hands the schema on to whichever model the tool is bound to).

use crate::adapter::{FormatInfo, Mark};
use crate::profile::Profile;

/// LangChain's JSON-schema-as-tool dict: everything is kept. LangChain does not read the
/// schema: `convert_to_openai_function` (langchain_core `utils/function_calling.py`, checked
/// 2026-11) takes `title` as the name and `description` as the description and hands the rest
/// on as the `parameters` of whichever chat model the tool is bound to, so no keyword can be
/// said to be lost here; the model's own format decides that on the next conversion.
pub const PROFILE: Profile = Profile::keep_all("langchain");

/// LangChain under the toolfoundation profile: the Go library has no LangChain adapter; the
/// nearest is its MCP adapter, which passes the schema on whole, as LangChain does, so this
/// is the LangChain profile (everything kept).
pub const TOOLFOUNDATION: Profile = PROFILE.named("langchain (toolfoundation)");

/// What marks a LangChain dict: its name, `title`, beside the schema keywords a tool that is
/// its schema holds at the top (`properties`, `"type": "object"`); an MCP or OpenAI tool keeps
/// those a level down. A `title` alone marks nothing (an MCP tool may have one).
const MARKS: &[Mark] =
    &[Mark::all(&["title", "properties"], "tool"), Mark::all(&["title", "type=object"], "tool")];

/// The LangChain dict: no catalog object (catalogs are JSON arrays), the tool is its schema
/// (named by its `title`); `{"title": …, "description": …}` alone is a tool without
/// parameters; the root is an object schema, since the schema's members are the dict's
/// members and the model LangChain hands it to reads it as function parameters.
pub const INFO: FormatInfo = FormatInfo::new("langchain", &PROFILE)
    .toolfoundation(&TOOLFOUNDATION)
    .no_catalog_object()
    .tool_is_schema()
    .marks(MARKS)
    .name_pointer("/title")
    .optional_input_schema()
    .object_root();
