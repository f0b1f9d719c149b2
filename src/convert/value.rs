//! The conversion entry points for callers who hold a [`serde_json::Value`] (every Rust MCP and
//! OpenAI SDK hands one out) or who keep results side by side: the same pipeline behind a
//! serialize before and a parse after, and a conversion written into the caller's own
//! [`Conversion`].

use serde_json::Value;

use super::{Conversion, Converter};
use crate::adapter::Adapter;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::formats::{IntoFormat, adapters};
use crate::options::Options;
use crate::report::Report;

impl Converter {
    /// Converts a tool or a catalog held as a [`serde_json::Value`], returning the output as
    /// a value and the report. It costs what [`Converter::convert`] costs plus writing the
    /// input value out as JSON text (into a buffer the converter keeps) and building the
    /// output value (its allocations): about 3.5× the bytes path's time for a 20-tool
    /// catalog, 4.6× for 200 (`docs/performance.md`). Callers
    /// holding bytes should use [`Converter::convert`].
    ///
    /// ```
    /// use serde_json::json;
    /// use tooladapter::{Converter, Format, Options};
    ///
    /// let tool = json!({"name": "echo", "inputSchema": {"type": "object"}});
    /// let (out, report) =
    ///     Converter::new().convert_value(&tool, &Format::MCP, &Format::ANTHROPIC, &Options::default())?;
    /// assert_eq!(out, json!({"name": "echo", "input_schema": {"type": "object"}}));
    /// assert!(report.is_empty());
    /// # Ok::<(), tooladapter::ConversionError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Converter::convert`].
    pub fn convert_value<'f, 't>(
        &mut self,
        input: &Value,
        from: impl IntoFormat<'f>,
        to: impl IntoFormat<'t>,
        options: &Options,
    ) -> Result<(Value, Report), ConversionError> {
        let (from, to) = adapters(from, to)?;
        let mut bytes = std::mem::take(&mut self.value_bytes);
        bytes.clear();
        // A `Value` always serializes (its keys are strings): a failure is not the input's.
        let written = serde_json::to_writer(&mut bytes, input);
        let result = match written {
            Ok(()) => self.convert(&bytes, from, to, options).and_then(|c| {
                let value = read_back(c.output(), to)?;
                Ok((value, c.report().clone()))
            }),
            Err(e) => Err(internal(from, Direction::ToCanonical, &e)),
        };
        self.value_bytes = bytes;
        // The value and report are the caller's copies: past the retention cap, nothing
        // stays behind, the input's JSON text included.
        self.retain();
        self.settle();
        result
    }

    /// Converts into `out`, a [`Conversion`] the caller keeps: the result is there, and the
    /// buffers `out` held before serve this converter's next call. Two results can live side
    /// by side without cloning either, and a caller who reuses its `Conversion`s allocates
    /// nothing once warm.
    ///
    /// ```
    /// use tooladapter::{Conversion, Converter, Format, Options};
    ///
    /// let mut converter = Converter::new();
    /// let (mut a, mut b) = (Conversion::default(), Conversion::default());
    /// let tool = br#"{"name":"echo","inputSchema":{"type":"object"}}"#;
    /// let opts = Options::default();
    /// converter.convert_into(tool, &Format::MCP, &Format::OPENAI, &opts, &mut a)?;
    /// converter.convert_into(tool, &Format::MCP, &Format::GEMINI, &opts, &mut b)?;
    /// assert_ne!(a.output(), b.output());
    /// # Ok::<(), tooladapter::ConversionError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Converter::convert`]; `out` then holds no result.
    pub fn convert_into<'f, 't>(
        &mut self,
        input: &[u8],
        from: impl IntoFormat<'f>,
        to: impl IntoFormat<'t>,
        options: &Options,
        out: &mut Conversion,
    ) -> Result<(), ConversionError> {
        let (from, to) = adapters(from, to)?;
        std::mem::swap(&mut self.conversion, out);
        let result = self.convert(input, from, to, options).map(|_| ());
        std::mem::swap(&mut self.conversion, out);
        if result.is_err() {
            out.clear();
        }
        result
    }
}

/// The converted document as a value. The writer's output is JSON no deeper than the input
/// allowed (the depth limit) plus the envelope, so the parser's own depth limit is lifted.
fn read_back(output: &[u8], to: &dyn Adapter) -> Result<Value, ConversionError> {
    let mut de = serde_json::Deserializer::from_slice(output);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).map_err(|e| internal(to, Direction::FromCanonical, &e))
}

#[cold]
fn internal(adapter: &dyn Adapter, direction: Direction, e: &serde_json::Error) -> ConversionError {
    let cause = format!("the JSON value could not be passed through ({e})");
    ConversionError::new(adapter.name(), direction, "", ErrorKind::NotConvertible(cause))
}
