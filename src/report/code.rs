//! The report's entry codes: what kind of change an entry is, as a stable name.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Stable machine-readable entry codes. New codes are added; existing ones never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Code {
    /// A schema keyword the target does not hold was dropped.
    KeywordDropped,
    /// Envelope metadata (MCP `annotations`, Anthropic `cache_control`, …) the target cannot hold.
    MetadataDropped,
    /// The output schema (MCP `outputSchema`) has no place in the target.
    OutputSchemaDropped,
    /// The input schema has no place in the target (an A2A skill takes its input as
    /// messages): the tool's arguments are no longer described.
    InputSchemaDropped,
    /// The target requires an input schema the source did not give; an empty object schema
    /// was written.
    InputSchemaAdded,
    /// A member of the catalog wrapper (e.g. `nextCursor`) has no place in the target.
    CatalogMemberDropped,
    /// A tool that is not a function tool (a provider's built-in tool) cannot be converted.
    NotAFunctionTool,
    /// The source tool breaks a rule its own format's clients must enforce by refusing it (an
    /// MCP `x-mcp-header` annotation the 2026-07-28 specification makes invalid): it is left
    /// out, as such a client would leave it out.
    InvalidTool,
    /// A member of one revision of the source format that a later one removed (MCP
    /// 2025-11-25's `execution.taskSupport`, gone in 2026-07-28), converted to another format:
    /// what it meant, and what the target does instead. The same format keeps it as written.
    Superseded,
    /// The input schema root was given `"type": "object"` (same arguments accepted).
    RootTypeSet,
    /// The input schema root does not accept an object; the target requires one.
    RootNotObject,
    /// An older JSON Schema form was written in its 2020-12 equivalent (same meaning).
    DialectRewritten,
    /// A keyword the target does not hold was dropped and written into the description.
    KeywordDescribed,
    /// A keyword the caller's policy rejects: the tool is left out.
    KeywordRejected,
    /// A combinator or `const` was rewritten into a form the target holds.
    CombinatorRewritten,
    /// `allOf` could not be merged into one schema for a target without `allOf`.
    AllOfNotMerged,
    /// A `$ref` was inlined (or its siblings moved) for a target without refs.
    RefInlined,
    /// A recursive `$ref` cannot be inlined; the innermost use accepts anything.
    RefRecursive,
    /// A `$ref` that does not resolve in the document.
    RefDangling,
    /// A `$ref` to another document: never fetched.
    RefExternal,
    /// A type array or a nullable type written in the target's form.
    TypeRewritten,
    /// A boolean schema written as an object schema.
    BooleanSchemaRewritten,
    /// A tool name the target's rule rejects (or one that clashes in the catalog) was
    /// rewritten; the inverse map restores it.
    ToolRenamed,
    /// A property key the target's key rule rejects was rewritten; the inverse map restores it.
    KeyRenamed,
    /// Strict mode made optional properties required and nullable; the inverse map drops the
    /// nulls the model sends for them.
    StrictWidened,
    /// Strict mode closed objects that admitted undeclared keys (`additionalProperties: false`).
    ObjectClosed,
    /// A tool asked to be strict cannot be without changing what it accepts (or would break a
    /// per-request limit); it is written with `strict: false`.
    StrictFallback,
    /// A tool required to be strict cannot be; it is left out.
    StrictImpossible,
    /// The provider would reject the tool (or the request) as written: a name, the root, a
    /// strict rule or a size limit.
    WouldBeRejected,
    /// A schema node rewritten into a shape the provider accepts (its shape rules: an `anyOf`
    /// alone in its node, a `type` on every node, `items` on every array, …).
    ShapeRewritten,
    /// How an imported argument travels (OpenAPI `style`, `explode`, `allowReserved`, a
    /// cookie, a `content` media type) has no place in a tool definition.
    ParameterStyle,
    /// An imported request body is not JSON (`multipart/form-data`, a form, …): its schema
    /// describes the arguments, but not how they are encoded; or other media types were
    /// left aside.
    BodyNotJson,
    /// Something the import does not turn into a tool (a callback, a webhook, a path item it
    /// cannot reach), or an import that found no operation.
    OperationSkipped,
    /// An imported parameter left out (a header the OpenAPI specification says to ignore, a
    /// reference that does not resolve).
    ParameterSkipped,
    /// Two imported operations or two arguments of one operation would have had the same
    /// name; the later one was given another.
    NameClash,
    /// A tool of a catalog could not be read or converted (no name, a repeated key, a schema
    /// that is not one, the `$ref` expansion budget): it is left out and the others are
    /// written. The pointer is into the input document (`/tools/3/inputSchema`), so it names
    /// the tool by its place even when it has no name.
    ToolNotConverted,
    /// A limit whose enforcement changed over time ([`crate::adapter::DatedLimit`]): `check`
    /// reports a description or a request over it (a warning: the provider may take it now);
    /// a conversion told to obey it ([`crate::Options::dated_limits`]) cuts a longer
    /// description at the limit and says what was cut.
    DatedLimit,
    /// Tool traffic: a content block or member of a call, a result or a message that the
    /// target has no place for (an image in a result to a target whose results are text, a
    /// server-side tool block, a provider's extra member): left out.
    ContentDropped,
    /// Tool traffic: content carried in another form the target holds (a JSON result written
    /// as its text, MCP `structuredContent` carried by its text mirror, a Responses custom
    /// tool call's free text as an argument).
    ContentRewritten,
    /// Tool traffic: a result's error flag has no counterpart in the target: the message says
    /// how the result is sent instead.
    ErrorNotFlagged,
    /// Tool traffic: a reasoning block or a reasoning signature (Anthropic `thinking`, Gemini
    /// `thoughtSignature`) that only its own provider reads, left out.
    ReasoningDropped,
    /// Tool traffic: a call id the target's id rule refuses, rewritten deterministically (the
    /// same id is rewritten the same way in the calls and in their results), or an id given
    /// back from a conversion's id map.
    IdRewritten,
    /// Tool traffic: a call or result without an id, given one the target requires, made from
    /// the turn's position, the tool's name and its occurrence (so calls and their results get
    /// the same one without shared state).
    IdAdded,
    /// Tool traffic: a call's tool name and arguments mapped through a definitions
    /// conversion's map (back to the source's names and argument shape, or forward to the
    /// target's).
    CallMapped,
    /// Tool traffic: a `tool_choice` or parallel-calls setting the target cannot say as it
    /// was, written in the nearest form it has or left out.
    ToolChoiceChanged,
    /// Tool traffic, streams: a call the stream left open at its finish or its end (cut at
    /// the output limit, or the stream broke off): never ended in the target, so no client
    /// takes it for complete.
    CallIncomplete,
}

impl Code {
    /// The code as printed, e.g. `keyword-dropped`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::KeywordDropped => "keyword-dropped",
            Code::MetadataDropped => "metadata-dropped",
            Code::OutputSchemaDropped => "output-schema-dropped",
            Code::InputSchemaDropped => "input-schema-dropped",
            Code::InputSchemaAdded => "input-schema-added",
            Code::CatalogMemberDropped => "catalog-member-dropped",
            Code::NotAFunctionTool => "not-a-function-tool",
            Code::InvalidTool => "invalid-tool",
            Code::Superseded => "superseded",
            Code::RootTypeSet => "root-type-set",
            Code::RootNotObject => "root-not-object",
            Code::DialectRewritten => "dialect-rewritten",
            Code::KeywordDescribed => "keyword-described",
            Code::KeywordRejected => "keyword-rejected",
            Code::CombinatorRewritten => "combinator-rewritten",
            Code::AllOfNotMerged => "all-of-not-merged",
            Code::RefInlined => "ref-inlined",
            Code::RefRecursive => "ref-recursive",
            Code::RefDangling => "ref-dangling",
            Code::RefExternal => "ref-external",
            Code::TypeRewritten => "type-rewritten",
            Code::BooleanSchemaRewritten => "boolean-schema-rewritten",
            Code::ToolRenamed => "tool-renamed",
            Code::KeyRenamed => "key-renamed",
            Code::StrictWidened => "strict-widened",
            Code::ObjectClosed => "object-closed",
            Code::StrictFallback => "strict-fallback",
            Code::StrictImpossible => "strict-impossible",
            Code::WouldBeRejected => "would-be-rejected",
            Code::ShapeRewritten => "shape-rewritten",
            Code::ParameterStyle => "parameter-style",
            Code::BodyNotJson => "body-not-json",
            Code::OperationSkipped => "operation-skipped",
            Code::ParameterSkipped => "parameter-skipped",
            Code::NameClash => "name-clash",
            Code::ToolNotConverted => "tool-not-converted",
            Code::DatedLimit => "dated-limit",
            Code::ContentDropped => "content-dropped",
            Code::ContentRewritten => "content-rewritten",
            Code::ErrorNotFlagged => "error-not-flagged",
            Code::ReasoningDropped => "reasoning-dropped",
            Code::IdRewritten => "id-rewritten",
            Code::IdAdded => "id-added",
            Code::CallMapped => "call-mapped",
            Code::ToolChoiceChanged => "tool-choice-changed",
            Code::CallIncomplete => "call-incomplete",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
