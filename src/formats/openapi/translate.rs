//! The translation's driver: the document read, its operations walked and filtered, and the
//! MCP-shaped catalog written, one tool per operation, from the parts the other files make
//! (name and description, parameters, request body, `$defs`).
//!
//! An operation's parameters and body are gathered before its tool is written, so that names,
//! clashes and `required` are settled first. Every walk is bounded: schema recursion by the
//! document's depth limit, reference chains by the document's hop limit, and the translated
//! catalog by the input size limit.

use crate::adapter::Imported;
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::lower::Lowerer;
use crate::pointer::Path;
use crate::report::{Code, EntryKind};

use super::document::{Document, err, get};
use super::names::Names;
use super::notes::Notes;
use super::operations::{self, Operation};
use super::schema::{Defs, write_defs};
use super::{Context, DIALECT, OpenApi, body, parameters};

/// Translates the document `lw` reads into `out`'s document.
pub(super) fn run(
    lw: &mut Lowerer<'_, '_>,
    out: &mut Imported,
    api: &OpenApi,
) -> Result<(), ConversionError> {
    let root = lw.json(0, &Path::ROOT, 0)?;
    // The translation is held to a limit of the document's size (the user's terms: the
    // document, not the internal catalog).
    let budget =
        Budget { document: lw.input_len(), limit: lw.limits().import_limit(lw.input_len()) };
    let mut catalog = std::mem::take(&mut out.document);
    let result = Document::read(root).and_then(|doc| {
        let mut cx = Context { doc: &doc, notes: Notes::new(out), defs: Defs::default() };
        write_catalog(&mut cx, &mut catalog, api, budget)
    });
    out.document = catalog;
    result
}

/// The bytes of tools a document may import as.
#[derive(Clone, Copy)]
struct Budget {
    /// The document's size.
    document: usize,
    /// The most bytes of tools.
    limit: usize,
}

/// Writes `{"tools": [...]}`: every selected operation, in document order.
fn write_catalog(
    cx: &mut Context<'_, '_>,
    catalog: &mut Vec<u8>,
    api: &OpenApi,
    budget: Budget,
) -> Result<(), ConversionError> {
    let ops = operations::collect(cx)?;
    let selected = operations::select(&ops, api)?;
    operations::webhooks(cx)?;
    if ops.is_empty() {
        let at = if get(cx.doc.root, "paths").is_some() { "/paths" } else { "" };
        cx.notes.note_document(
            EntryKind::metadata(Code::OperationSkipped),
            "paths",
            at.to_owned(),
            "the document describes no operation; the catalog is empty".to_owned(),
        );
    }
    catalog.extend_from_slice(br#"{"tools":["#);
    let (operations, mut largest) = (selected.len(), 0);
    for (i, op) in selected.into_iter().enumerate() {
        cx.notes.start_tool(i, &op.name);
        cx.defs.clear();
        if i > 0 {
            catalog.push(b',');
        }
        let start = catalog.len();
        // The writer stops writing schemas past the limit, so one tool cannot overshoot it
        // by more than a schema node's own text.
        write_tool(cx, &mut Writer::new(catalog, false).with_limit(budget.limit), op)?;
        largest = largest.max(catalog.len() - start);
        // Each tool carries its own copy of the component schemas it uses, so the
        // translation may outgrow the document many times over.
        if catalog.len() > budget.limit {
            let kind = ErrorKind::ImportTooLarge {
                document: budget.document,
                limit: budget.limit,
                operations,
                written: i + 1,
                bytes: catalog.len(),
                largest,
            };
            return Err(err(&op.ptr, kind));
        }
    }
    catalog.extend_from_slice(b"]}");
    Ok(())
}

/// Writes the tool of one operation.
fn write_tool<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    op: &Operation<'a>,
) -> Result<(), ConversionError> {
    operations::place_name(cx, op);
    let description = operations::description(cx, op)?;
    operations::callbacks(cx, op)?;
    let mut keys = Names::default();
    let params = parameters::read(cx, op, &mut keys)?;
    let body = body::read(cx, op, &mut keys)?;
    let mut required = parameters::required_keys(&params)?;
    body.add_required(&mut required);

    w.begin_object();
    w.key_plain("name");
    w.string(&op.name);
    if let Some(d) = &description {
        w.key_plain("description");
        w.string(d);
    }
    w.key_plain("inputSchema");
    w.begin_object();
    w.key_plain("type");
    w.string_plain("object");
    body::write_annotations(cx, w, &body);
    w.key_plain("properties");
    w.begin_object();
    for p in &params {
        parameters::write_parameter(cx, w, p)?;
    }
    body::write_properties(cx, w, &body);
    w.end_object();
    body::write_additional_properties(cx, w, &body);
    if !required.is_empty() {
        w.key_plain("required");
        w.begin_array();
        for r in &required {
            w.element();
            w.string(r);
        }
        w.end_array();
    }
    write_defs(cx, w);
    w.end_object();
    if cx.doc.v30 {
        w.key_plain(DIALECT);
        w.string_plain("openapi-3.0");
    }
    w.end_object();
    Ok(())
}
