//! OpenAPI 3.0 / 3.1 import: one tool per operation of an OpenAPI description (JSON).
//!
//! An OpenAPI document is not a list of tools, so this format imports: [`Adapter::import`]
//! translates the whole document into an MCP-shaped catalog (`{"tools":[{name, description,
//! inputSchema}]}`), which [`Adapter::lower_tool`] then reads like MCP. Import is not the
//! gateway's hot path, so the translation is written out as bytes and read again: the whole
//! pipeline after it (passes, targets, report) is the ordinary one.
//!
//! - name: `operationId`, else `<method>_<path>` reduced to `[A-Za-z0-9_.-]`; unique in the
//!   catalog (a later clash gets `_2`, `_3`, …).
//! - description: `summary` and `description`, joined by a blank line (the description alone
//!   when it starts with the summary), else the path item's.
//! - input schema: an object whose properties are the path, query, header and cookie
//!   parameters, then the JSON request body (merged when it is a plain object whose keys
//!   clash with no parameter, else one property `body`); `required` from the parameters and
//!   the body; the `components/schemas` the tool uses, transitively, in `$defs`.
//! - OpenAPI 3.0 schemas are marked as such ([`Tool::openapi_schema`]), so the dialect pass
//!   turns `nullable: true` into the target's form (a type array, or Gemini's `nullable`).
//!
//! What a tool cannot say (how a parameter is serialized, a non-JSON body's encoding,
//! callbacks, webhooks, external `$ref`s) is reported with a pointer into the OpenAPI
//! document, and so are the conversion's own entries: their pointers are moved from the
//! translated tool to the place in the document the schema came from. `docs/formats/openapi.md`
//! has the rules and examples.
//!
//! References: OpenAPI Specification 3.0.3 and 3.1.0 (spec.openapis.org/oas): Operation,
//! Parameter (`style` defaults: `form` for query and cookie, `simple` for path and header;
//! `explode` defaults to true for `form` only; path parameters are always required; header
//! parameters named `Accept`, `Content-Type` or `Authorization` are ignored), Request Body,
//! Media Type, Reference and Schema objects; 3.0.3 §4.7.24 for `nullable`.
//!
//! The translation, one job a file: `translate.rs` drives it and writes each tool from the
//! parts the others make; `document.rs` reads the document (version, `components`, local
//! `$ref`s); `operations.rs` walks `paths`, names and filters the operations;
//! `parameters.rs` and `body.rs` turn parameters and the request body into the input
//! schema's properties; `schema.rs` copies schemas, rewriting their `$ref`s into `$defs`;
//! `names.rs` keeps tool names and property keys unique; `notes.rs` records the report's
//! notes and the places they point to. They share a `Context`.

mod body;
mod document;
mod names;
mod notes;
mod operations;
mod parameters;
pub mod rules;
mod schema;
mod translate;

use crate::adapter::{Adapter, EmitContext, FormatInfo, Imported};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Role, Tool};
use crate::lower::{At, Lowerer};
use crate::pointer::Path;

use super::{Mcp, Roles, lower_envelope};

use document::Document;
use notes::Notes;
use schema::Defs;

/// The member of a translated tool that marks its schemas as OpenAPI 3.0 Schema Objects.
const DIALECT: &str = "dialect";

/// The members of a translated operation's tool and their roles: the dialect member is part
/// of the tool's structure (it says how to read the schemas), not metadata.
const ROLES: Roles = Roles(&[
    ("name", Role::Name),
    ("description", Role::Description),
    ("inputSchema", Role::Input),
    (DIALECT, Role::Structure),
]);

/// The OpenAPI format: imports an OpenAPI 3.0 or 3.1 document (JSON), one tool per
/// operation. It cannot be written.
///
/// ```
/// use tooladapter::{Converter, Options, formats::{OpenAi, OpenApi}};
///
/// let doc = br#"{"openapi":"3.1.0","info":{"title":"Pets","version":"1"},"paths":{
///   "/pets/{id}":{"get":{"operationId":"getPet","summary":"Get a pet",
///     "parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}]}},
///   "/pets":{"post":{"operationId":"addPet"}}}}"#;
/// // Only the operations whose operationId matches.
/// let openapi = OpenApi::new().operations("get*");
/// let mut converter = Converter::new();
/// let out = converter.convert(doc, &openapi, &OpenAi, &Options::default())?;
/// assert_eq!(
///     out.output_str(),
///     r#"[{"type":"function","function":{"name":"getPet","description":"Get a pet","parameters":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}]"#
/// );
/// # Ok::<(), tooladapter::ConversionError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct OpenApi {
    operations: Vec<String>,
}

impl OpenApi {
    /// Every operation of the document.
    pub const fn new() -> OpenApi {
        OpenApi { operations: Vec::new() }
    }

    /// Keeps only the operations whose `operationId` (or, without one, the derived
    /// `<method>_<path>` name) matches `glob`: `*` stands for any run of characters, `?` for
    /// one. Called again, it adds another pattern; an operation matching any is kept.
    #[must_use]
    pub fn operations(mut self, glob: &str) -> OpenApi {
        self.operations.push(glob.to_owned());
        self
    }
}

impl Adapter for OpenApi {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn import(&self, lw: &mut Lowerer<'_, '_>, out: &mut Imported) -> Result<(), ConversionError> {
        translate::run(lw, out, self)
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        let mut tool = lower_envelope(lw, at, path, |key| ROLES.of(key))?;
        tool.openapi_schema = tool.member(DIALECT).is_some();
        tool.input_pointer = "/inputSchema";
        Ok(tool)
    }

    /// Never called: the format cannot be written ([`FormatInfo::writes`] is false). Writes
    /// the tool as MCP would, should a caller invoke it directly.
    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        Mcp.write_tool(tool, cx, w);
    }
}

/// What the translation's jobs share while the catalog is written: the document, the
/// report's notes and places (about the tool being written), and the component schemas that
/// tool uses.
struct Context<'a, 'o> {
    doc: &'o Document<'a>,
    notes: Notes<'o>,
    defs: Defs<'a>,
}
