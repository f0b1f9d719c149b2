//! async-openai's Chat Completions function tool (`ChatCompletionTool`, its `FunctionObject`,
//! and the `ChatCompletionTools` list element) ⇄ [`CanonicalTool`] (feature `async-openai`).
//!
//! A function tool holds a name, a description, `parameters` and `strict`. Reading one loses
//! nothing; writing one reports everything else the canonical tool holds. The schema crosses
//! verbatim: OpenAI's name rule and strict rewrites are the registry's job
//! ([`crate::Registry::from_canonical`] with `openai`), not a type mapping's.

use ::async_openai::types::chat::{ChatCompletionTool, ChatCompletionTools, FunctionObject};
use serde_json::Value as JsonValue;

use super::{BridgeError, Losses, object_schema};
use crate::owned::{CanonicalTool, JsonSchema};
use crate::report::{Code, Report};

/// The type name in reports and errors.
const TARGET: &str = "async_openai::types::chat::FunctionObject";

/// The format name read tools get in [`CanonicalTool::source_format`], as the registry's.
const SOURCE_FORMAT: &str = crate::formats::rules::openai::CHAT.name;

/// Reads a function: `parameters` becomes the input schema (a value that is not a schema is
/// kept in `source_meta["parameters"]`), `strict` is kept. `source_format` is `openai`.
impl From<FunctionObject> for CanonicalTool {
    fn from(function: FunctionObject) -> CanonicalTool {
        let mut out = CanonicalTool::new(function.name);
        out.description = function.description;
        out.strict = function.strict;
        out.source_format = Some(SOURCE_FORMAT.to_owned());
        if let Some(parameters) = function.parameters {
            match JsonSchema::try_from(parameters) {
                Ok(schema) => out.input_schema = Some(schema),
                Err(other) => {
                    out.source_meta.insert("parameters".to_owned(), other);
                }
            }
        }
        out
    }
}

/// Reads the function (see `From<FunctionObject>`).
impl From<ChatCompletionTool> for CanonicalTool {
    fn from(tool: ChatCompletionTool) -> CanonicalTool {
        CanonicalTool::from(tool.function)
    }
}

/// Reads a function tool; a custom tool (free-form input, no schema) is kept opaque, as the
/// registry keeps provider built-in tools: its name, and the whole tool object in
/// `source_meta["opaque"]`.
impl From<ChatCompletionTools> for CanonicalTool {
    fn from(tool: ChatCompletionTools) -> CanonicalTool {
        match tool {
            ChatCompletionTools::Function(tool) => CanonicalTool::from(tool),
            ChatCompletionTools::Custom(custom) => {
                let mut out = CanonicalTool::new(custom.custom.name.clone());
                out.description = custom.custom.description.clone();
                out.source_format = Some(SOURCE_FORMAT.to_owned());
                let whole = ChatCompletionTools::Custom(custom);
                // An enum of strings and unit variants serialises; should it not, the name and
                // description are what is kept.
                if let Ok(value) = serde_json::to_value(&whole) {
                    out.source_meta.insert("opaque".to_owned(), value);
                }
                out
            }
        }
    }
}

impl CanonicalTool {
    /// The tool as an async-openai Chat Completions function tool, keeping what fits, with a
    /// report of the rest.
    ///
    /// Kept: name, description, the input schema as `parameters` (a boolean schema in its
    /// object form, an info entry; no input schema is no `parameters`, which OpenAI reads as
    /// "no arguments"; a non-schema `source_meta["parameters"]` read from OpenAI goes back) and
    /// `strict`. Reported as dropped (warning entries, pointers into the tool's serde form):
    /// title, output schema, annotations, namespace, version, category, tags, timeout, scopes,
    /// and every `source_meta` member but a `"type": "function"` (which the registry's
    /// `openai-responses` reader keeps there, and a function tool is).
    ///
    /// ```
    /// use tooladapter::CanonicalTool;
    ///
    /// let tool: CanonicalTool = serde_json::from_str(
    ///     r#"{"name":"get_weather","title":"Weather","input_schema":{"type":"object"}}"#,
    /// )?;
    /// let (chat_tool, report) = tool.to_chat_completion_tool();
    /// assert_eq!(chat_tool.function.name, "get_weather");
    /// assert_eq!(report.warnings()[0].to_string(),
    ///     "feature title lost converting from canonical to async_openai::types::chat::FunctionObject at /title in tool \"get_weather\"");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn to_chat_completion_tool(&self) -> (ChatCompletionTool, Report) {
        let (function, losses) = self.function_with_losses();
        (ChatCompletionTool { function }, losses.finish())
    }

    fn function_with_losses(&self) -> (FunctionObject, Losses) {
        let mut losses = Losses::new(self, TARGET);
        if self.title.is_some() {
            let message = format!("{TARGET} has no place for a display title");
            losses.dropped(Code::MetadataDropped, "title", "/title".to_owned(), message);
        }
        let parameters = match &self.input_schema {
            Some(schema) => {
                Some(JsonValue::Object(object_schema(schema, ("/input_schema", true), &mut losses)))
            }
            None => self.source_meta.get("parameters").cloned(),
        };
        if self.output_schema.is_some() {
            let message = format!("{TARGET} has no place for an output schema");
            losses.dropped(
                Code::OutputSchemaDropped,
                "output_schema",
                "/output_schema".to_owned(),
                message,
            );
        }
        if let Some(annotations) = &self.annotations {
            let what = "has no place for annotations";
            losses.left_out("annotations", "/annotations".to_owned(), annotations, what);
        }
        losses.catalog_only_dropped(self);
        for (key, value) in &self.source_meta {
            let held = match key.as_str() {
                "type" => value.as_str() == Some("function"),
                "parameters" => self.input_schema.is_none(),
                _ => false,
            };
            if !held {
                losses.meta_dropped(key, value, "");
            }
        }
        let function = FunctionObject {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters,
            strict: self.strict,
        };
        (function, losses)
    }
}

/// Fails when anything would be lost (see [`CanonicalTool::to_chat_completion_tool`]); the
/// error's report says what.
impl TryFrom<&CanonicalTool> for FunctionObject {
    type Error = BridgeError;

    fn try_from(tool: &CanonicalTool) -> Result<FunctionObject, BridgeError> {
        let (function, losses) = tool.function_with_losses();
        losses.into_result(function, TARGET)
    }
}

/// See `TryFrom<&CanonicalTool> for FunctionObject`.
impl TryFrom<&CanonicalTool> for ChatCompletionTool {
    type Error = BridgeError;

    fn try_from(tool: &CanonicalTool) -> Result<ChatCompletionTool, BridgeError> {
        FunctionObject::try_from(tool).map(|function| ChatCompletionTool { function })
    }
}

/// A function tool (see `TryFrom<&CanonicalTool> for FunctionObject`); a tool read from a
/// custom tool is not written back as one: its `opaque` member is reported.
impl TryFrom<&CanonicalTool> for ChatCompletionTools {
    type Error = BridgeError;

    fn try_from(tool: &CanonicalTool) -> Result<ChatCompletionTools, BridgeError> {
        ChatCompletionTool::try_from(tool).map(ChatCompletionTools::Function)
    }
}
