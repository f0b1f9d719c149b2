//! The public error type.
//!
//! One boxed struct keeps `Result<_, ConversionError>` a pointer wide on the hot path; the
//! typed cause is an enum the caller can match. A `ConversionError` never holds another one,
//! so it is never wrapped twice.

use std::fmt;

/// Which way the failing adapter was working.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Reading the source format into the canonical IR.
    ToCanonical,
    /// Writing the canonical IR out in the target format.
    FromCanonical,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::ToCanonical => "to_canonical",
            Direction::FromCanonical => "from_canonical",
        })
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input was empty or only white space.
    #[error("empty input")]
    EmptyInput,
    /// The input was larger than [`crate::Limits::max_input_bytes`].
    #[error("input of {size} bytes exceeds the limit of {limit} bytes")]
    InputTooLarge {
        /// Input size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The input was not valid JSON.
    #[error("invalid JSON at line {line}, column {column} (byte {offset}): {message}")]
    Json {
        /// Byte offset where the parser stopped.
        offset: usize,
        /// The line of `offset`, from 1.
        line: usize,
        /// The column of `offset` in characters, from 1.
        column: usize,
        /// The reason, in words.
        message: String,
    },
    /// The input was not valid UTF-8: `offset` is the first byte that is not.
    #[error("invalid UTF-8 at line {line}, column {column} (byte {offset})")]
    InvalidUtf8 {
        /// Byte offset of the first byte that is not UTF-8.
        offset: usize,
        /// The line of `offset`, from 1.
        line: usize,
        /// The column of `offset` in characters, from 1.
        column: usize,
    },
    /// A `\uD800`–`\uDFFF` escape that is not part of a surrogate pair.
    #[error(
        "invalid JSON at line {line}, column {column} (byte {offset}): a \\u escape of half a surrogate pair"
    )]
    LoneSurrogate {
        /// Byte offset of the escape.
        offset: usize,
        /// The line of `offset`, from 1.
        line: usize,
        /// The column of `offset` in characters, from 1.
        column: usize,
    },
    /// An object had the same key twice.
    #[error("duplicate key {key:?}")]
    DuplicateKey {
        /// The repeated key.
        key: String,
    },
    /// Nesting deeper than [`crate::Limits::depth_limit`] ([`crate::Limits::max_depth`], at
    /// most [`crate::Limits::DEPTH_CAP`]).
    #[error("nesting deeper than the limit of {limit}")]
    DepthLimit {
        /// The limit.
        limit: usize,
    },
    /// The arena grew past [`crate::Limits::max_arena_bytes`].
    #[error("conversion needs more than the arena limit of {limit} bytes")]
    ArenaLimit {
        /// The limit.
        limit: usize,
    },
    /// The report would hold more than its budget, the arena limit
    /// ([`crate::Limits::max_arena_bytes`]): a conversion recording entries without end; or
    /// its pointers' bytes past 1 KiB each, summed, would pass the output limit
    /// ([`crate::Limits::output_limit`]): a long key above many entries.
    /// A report holds each text once (a tool's name, a pointer's beginning shared by the
    /// entries under it), so real inputs stay far under it.
    #[error(
        "the report needs more than the arena limit of {limit} bytes, or its pointers repeat long keys past the output limit"
    )]
    ReportTooLarge {
        /// The limit.
        limit: usize,
    },
    /// Inlining `$ref`s would write more schema nodes than
    /// [`crate::Limits::max_ref_expansion`] (a reference bomb).
    #[error("inlining $ref would write more than {limit} schema nodes")]
    RefExpansion {
        /// The limit.
        limit: usize,
    },
    /// The output passed [`crate::Limits::output_limit`] for the input's size: the
    /// conversion writes far more than it reads (a large `$defs` entry inlined at each of
    /// many uses). The pointer is where the schema being written when it passed the limit
    /// was in the input.
    #[error(
        "the output passes its limit of {limit} bytes for an input of {input} bytes (max_output_ratio × the input, at least 16 MiB, at most max_output_bytes)"
    )]
    OutputTooLarge {
        /// The limit for this input.
        limit: usize,
        /// The input's size.
        input: usize,
    },
    /// An importing format's document (an OpenAPI description) makes more bytes of tools
    /// than its import limit allows: each operation's tool carries its own copy of the
    /// schemas it uses, so operations sharing a large schema multiply it. The limit is
    /// [`crate::Limits::import_limit`] of the document's size; the pointer is the operation
    /// that passed it.
    #[error(
        "the document ({document} bytes) imports as more than {limit} bytes of tools: each operation's tool carries its own copy of the schemas it uses, and {written} of its {operations} operations took {bytes} bytes, the largest tool {largest} bytes (the limit is max_import_ratio × the document, at least 4 MiB, at most max_input_bytes); import fewer operations, or raise max_import_ratio"
    )]
    ImportTooLarge {
        /// The document's size.
        document: usize,
        /// The limit for this document.
        limit: usize,
        /// The operations selected for import.
        operations: usize,
        /// The operations translated when the limit was passed.
        written: usize,
        /// The bytes of tools they made.
        bytes: usize,
        /// The largest of those tools, in bytes.
        largest: usize,
    },
    /// A required member is missing.
    #[error("missing required member `{member}`{hint}")]
    MissingMember {
        /// The member.
        member: &'static str,
        /// Extra help, e.g. which format the input looks like (may be empty).
        hint: String,
    },
    /// A tool holds a member where another format keeps its input schema (an MCP
    /// `inputSchema` read as `openai`) and no schema of the format read: the input is likely
    /// in one of `formats`, and reading it as this one would lose the schema.
    #[error(
        "`{member}` is where {} tools keep their input schema, and this format has no such member: the input looks like {}",
        or_list(formats),
        or_list(formats)
    )]
    ForeignMember {
        /// The member.
        member: String,
        /// The built-in formats whose tools keep their schema there, one per family.
        formats: Vec<&'static str>,
    },
    /// An object read as this format's that another format's marks fit more closely
    /// ([`crate::FormatInfo::marks`]: an AgentCard's `skills`, an Anthropic server tool's
    /// versioned `type`, OpenAI Responses' flat `"type": "function"`, a JSON-RPC response's
    /// `jsonrpc`, an OpenAPI document's `openapi`): read as this one it would be garbage (a
    /// function named after an agent, a built-in turned into a tool without parameters).
    #[error(
        "the input looks like {} {what} (by its `{member}`), not this format's",
        a_list(formats)
    )]
    LooksLike {
        /// The member that marks it (the pointer is its place).
        member: String,
        /// What it looks like: `tool`, `built-in tool`, `catalog`, `request`, `response`,
        /// `document`.
        what: &'static str,
        /// The built-in formats it looks like, one per family.
        formats: Vec<&'static str>,
    },
    /// The input is an error response (a JSON-RPC `error`), not a result holding tools.
    #[error("the input is an error response, not a list of tools: {message:?} (code {code})")]
    ErrorResponse {
        /// The error's code, as its source wrote it.
        code: String,
        /// The error's message.
        message: String,
    },
    /// A member has the wrong JSON type.
    #[error("`{member}` must be {expected}, found {found}")]
    WrongType {
        /// The member.
        member: String,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: &'static str,
    },
    /// A schema keyword's value is not what the keyword holds (`"required": "a"`,
    /// `"maxLength": -3`, `{"$ref": 5}`): the providers check schemas against JSON Schema's
    /// meta-schema and refuse such a tool, so it is not carried through. The pointer is the
    /// bad value (an element of it, where one element is wrong).
    #[error("`{keyword}` must be {expected}, found {found}")]
    KeywordValue {
        /// The keyword.
        keyword: &'static str,
        /// What its value must be ([`crate::ir::ValueType::expected`]).
        expected: &'static str,
        /// What was found: a JSON type (`a string`), or the number itself.
        found: String,
    },
    /// The document is not a shape this format reads.
    #[error("unexpected shape: {0}")]
    Shape(String),
    /// The format cannot be used in this direction (e.g. `openapi` as a target).
    #[error("the format does not support this direction")]
    Unsupported,
    /// No adapter by that name is registered; the error lists the names that are.
    #[error("{0}")]
    UnknownFormat(crate::UnknownName),
    /// An adapter by that name is already registered.
    #[error("a format named {0:?} is already registered")]
    DuplicateFormat(String),
    /// The tool cannot be expressed in the target (with the reason).
    #[error("not convertible: {0}")]
    NotConvertible(String),
    /// The options cannot be used with this target (e.g. a profile set with no entry for it,
    /// or strict mode asked of a profile set that has none).
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// Meaning was lost and the caller denied loss.
    #[error("meaning lost ({0} report entries at warning or above)")]
    LossDenied(usize),
}

/// `` a `x` `` or `` an `a` ``: [`or_list`] with its article, for a message.
pub(crate) fn a_list(names: &[&str]) -> String {
    let vowel = names.first().is_some_and(|n| n.starts_with(['a', 'e', 'i', 'o', 'u']));
    format!("{} {}", if vowel { "an" } else { "a" }, or_list(names))
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``: format names for a message.
pub(crate) fn or_list(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        out.push('`');
        out.push_str(name);
        out.push('`');
    }
    out
}

impl ErrorKind {
    /// A JSON syntax error at `offset`; its line and column are filled in once the input it
    /// is an offset into is known ([`ConversionError::located`]).
    pub(crate) fn json(offset: usize, message: impl Into<String>) -> ErrorKind {
        ErrorKind::Json { offset, line: 0, column: 0, message: message.into() }
    }

    /// The cause's stable name (`json`, `input-too-large`, `unknown-format`, …), for callers
    /// that report errors as data (the Python package's `ConversionError.kind`).
    pub fn name(&self) -> &'static str {
        match self {
            ErrorKind::EmptyInput => "empty-input",
            ErrorKind::InputTooLarge { .. } => "input-too-large",
            ErrorKind::Json { .. } => "json",
            ErrorKind::InvalidUtf8 { .. } => "invalid-utf8",
            ErrorKind::LoneSurrogate { .. } => "lone-surrogate",
            ErrorKind::DuplicateKey { .. } => "duplicate-key",
            ErrorKind::DepthLimit { .. } => "depth-limit",
            ErrorKind::ArenaLimit { .. } => "arena-limit",
            ErrorKind::ReportTooLarge { .. } => "report-too-large",
            ErrorKind::RefExpansion { .. } => "ref-expansion",
            ErrorKind::OutputTooLarge { .. } => "output-too-large",
            ErrorKind::ImportTooLarge { .. } => "import-too-large",
            ErrorKind::MissingMember { .. } => "missing-member",
            ErrorKind::ForeignMember { .. } => "foreign-member",
            ErrorKind::LooksLike { .. } => "looks-like",
            ErrorKind::ErrorResponse { .. } => "error-response",
            ErrorKind::WrongType { .. } => "wrong-type",
            ErrorKind::KeywordValue { .. } => "keyword-value",
            ErrorKind::Shape(_) => "shape",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::UnknownFormat(_) => "unknown-format",
            ErrorKind::DuplicateFormat(_) => "duplicate-format",
            ErrorKind::NotConvertible(_) => "not-convertible",
            ErrorKind::InvalidOptions(_) => "invalid-options",
            ErrorKind::LossDenied(_) => "loss-denied",
        }
    }

    /// Whether the input is not well-formed JSON text (not JSON, not UTF-8, empty, a lone
    /// surrogate, a repeated key).
    pub fn is_syntax(&self) -> bool {
        matches!(
            self,
            ErrorKind::EmptyInput
                | ErrorKind::Json { .. }
                | ErrorKind::InvalidUtf8 { .. }
                | ErrorKind::LoneSurrogate { .. }
                | ErrorKind::DuplicateKey { .. }
        )
    }

    /// Whether a safety limit ([`crate::Limits`]) stopped the conversion.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            ErrorKind::InputTooLarge { .. }
                | ErrorKind::DepthLimit { .. }
                | ErrorKind::ArenaLimit { .. }
                | ErrorKind::ReportTooLarge { .. }
                | ErrorKind::RefExpansion { .. }
                | ErrorKind::OutputTooLarge { .. }
                | ErrorKind::ImportTooLarge { .. }
        )
    }

    /// Whether the error is about one tool's own content rather than the whole input: a
    /// member missing or of the wrong type, a keyword's value outside its type, another format's schema member, a repeated key, a
    /// shape the format does not read, a tool the target cannot hold, the `$ref` expansion
    /// budget. A catalog leaves such a
    /// tool out and converts the others. The faults of the input as a document (not JSON, not
    /// UTF-8, empty, over the size or depth limit) and the arena limit end the whole
    /// conversion: the limits keep a hostile document from costing more than they allow, and
    /// a tool that breaks them leaves no telling what the rest of the document would cost.
    pub(crate) fn concerns_one_tool(&self) -> bool {
        matches!(
            self,
            ErrorKind::MissingMember { .. }
                | ErrorKind::WrongType { .. }
                | ErrorKind::KeywordValue { .. }
                | ErrorKind::ForeignMember { .. }
                | ErrorKind::LooksLike { .. }
                | ErrorKind::DuplicateKey { .. }
                | ErrorKind::Shape(_)
                | ErrorKind::NotConvertible(_)
                | ErrorKind::RefExpansion { .. }
        )
    }
}

/// The 1-based line and column (in characters, a byte order mark not counted) of byte
/// `offset` in `input`; an offset past the end is placed just after the last byte.
pub(crate) fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = input.get(..offset).unwrap_or(input);
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let text = before.get(line_start..).unwrap_or_default();
    let text = if line == 1 { text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text) } else { text };
    // Characters, not bytes: a UTF-8 continuation byte starts none.
    let column = 1 + text.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    (line, column)
}

/// A conversion failure: which adapter, which direction, where in the input, and why.
///
/// `Display` is `<adapter> adapter <to_canonical|from_canonical>: <cause>`, followed by
/// ` at <pointer>` and the tool name when known.
pub struct ConversionError(Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    adapter: String,
    direction: Direction,
    pointer: String,
    tool: Option<String>,
    kind: ErrorKind,
}

impl ConversionError {
    /// Builds an error.
    #[cold]
    pub fn new(
        adapter: &str,
        direction: Direction,
        pointer: impl Into<String>,
        kind: ErrorKind,
    ) -> ConversionError {
        ConversionError(Box::new(Inner {
            adapter: adapter.to_owned(),
            direction,
            pointer: pointer.into(),
            tool: None,
            kind,
        }))
    }

    /// The same error, naming the tool it happened in.
    #[must_use]
    pub fn with_tool(mut self, tool: &str) -> ConversionError {
        if self.0.tool.is_none() {
            self.0.tool = Some(tool.to_owned());
        }
        self
    }

    /// The same error at another pointer (an import moves pointers into its source document).
    #[must_use]
    pub(crate) fn with_pointer(mut self, pointer: String) -> ConversionError {
        self.0.pointer = pointer;
        self
    }

    /// The same error with its byte offset (a parse error's) `by` bytes further on: the
    /// parser saw the input from a later start (past a byte order mark) than the caller gave.
    #[cold]
    #[must_use]
    pub(crate) fn offset_by(mut self, by: usize) -> ConversionError {
        match &mut self.0.kind {
            ErrorKind::Json { offset, .. }
            | ErrorKind::LoneSurrogate { offset, .. }
            | ErrorKind::InvalidUtf8 { offset, .. } => {
                *offset += by;
            }
            _ => {}
        }
        self
    }

    /// The same error with the line and column of its byte offset (a parse error's) in
    /// `input`, the document as the caller gave it.
    #[cold]
    #[must_use]
    pub(crate) fn located(mut self, input: &[u8]) -> ConversionError {
        if let ErrorKind::Json { offset, line, column, .. }
        | ErrorKind::LoneSurrogate { offset, line, column }
        | ErrorKind::InvalidUtf8 { offset, line, column } = &mut self.0.kind
        {
            (*line, *column) = line_column(input, *offset);
        }
        self
    }

    /// The adapter (format name) that failed.
    pub fn adapter(&self) -> &str {
        &self.0.adapter
    }

    /// Which way it was working.
    pub fn direction(&self) -> Direction {
        self.0.direction
    }

    /// RFC 6901 pointer into the input document where the problem is (`""` for the root).
    pub fn pointer(&self) -> &str {
        &self.0.pointer
    }

    /// The tool the error happened in, when known.
    pub fn tool(&self) -> Option<&str> {
        self.0.tool.as_deref()
    }

    /// Whether the error says the input looks like another format's (a member where another
    /// format keeps its schema, another format's marks, or a missing member with a guess at
    /// the format): reading it as another format is the likely fix. A missing member's hint
    /// that only says what this format's tools hold suggests none.
    pub fn suggests_other_format(&self) -> bool {
        match &self.0.kind {
            ErrorKind::ForeignMember { .. } | ErrorKind::LooksLike { .. } => true,
            ErrorKind::MissingMember { hint, .. } => hint.contains("looks like"),
            _ => false,
        }
    }

    /// The typed cause.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A registry's errors happen before any adapter works: the cause says it all.
        if matches!(self.0.kind, ErrorKind::UnknownFormat(_) | ErrorKind::DuplicateFormat(_)) {
            return write!(f, "{}", self.0.kind);
        }
        write!(f, "{} adapter {}: {}", self.0.adapter, self.0.direction, self.0.kind)?;
        if !self.0.pointer.is_empty() {
            write!(f, " at {}", self.0.pointer)?;
        }
        if let Some(tool) = &self.0.tool {
            write!(f, " (tool {tool:?})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConversionError")
            .field("adapter", &self.0.adapter)
            .field("direction", &self.0.direction)
            .field("pointer", &self.0.pointer)
            .field("tool", &self.0.tool)
            .field("kind", &self.0.kind)
            .finish()
    }
}

impl Clone for ConversionError {
    fn clone(&self) -> Self {
        ConversionError(self.0.clone())
    }
}

impl PartialEq for ConversionError {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl std::error::Error for ConversionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Keyword;

    #[test]
    fn kinds_have_distinct_kebab_case_names_and_groups() {
        let kinds = [
            ErrorKind::EmptyInput,
            ErrorKind::json(0, "x"),
            ErrorKind::InputTooLarge { size: 2, limit: 1 },
            ErrorKind::DepthLimit { limit: 1 },
            ErrorKind::Shape("x".into()),
            ErrorKind::InvalidOptions("x".into()),
        ];
        let names: Vec<&str> = kinds.iter().map(ErrorKind::name).collect();
        assert_eq!(
            names,
            ["empty-input", "json", "input-too-large", "depth-limit", "shape", "invalid-options"]
        );
        let groups: Vec<(bool, bool)> =
            kinds.iter().map(|k| (k.is_syntax(), k.is_limit())).collect();
        let expected = [(true, false), (true, false), (false, true), (false, true)];
        assert_eq!(groups[..4], expected);
        assert_eq!(groups[4..], [(false, false), (false, false)]);
        assert_eq!(Keyword::from_policy_name("pattern"), Some(Keyword::Pattern));
        assert_eq!(Keyword::from_policy_name("unknown-keyword"), Some(Keyword::Unknown));
        assert_eq!(Keyword::from_policy_name("x-vendor"), None);
    }

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(std::mem::size_of::<ConversionError>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn display_and_source() {
        let e = ConversionError::new(
            "mcp",
            Direction::ToCanonical,
            "/tools/0/inputSchema",
            ErrorKind::DuplicateKey { key: "type".into() },
        )
        .with_tool("search");
        assert_eq!(
            e.to_string(),
            "mcp adapter to_canonical: duplicate key \"type\" at /tools/0/inputSchema (tool \"search\")"
        );
        let src = std::error::Error::source(&e).map(ToString::to_string);
        assert_eq!(src.as_deref(), Some("duplicate key \"type\""));
    }
}
