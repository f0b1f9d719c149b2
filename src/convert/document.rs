//! The document's shape: where its tools are. One tool object; a JSON array of tools; the
//! format's catalog object; the catalog object inside the format's response envelope (an MCP
//! `tools/list` JSON-RPC response); a request whose list holds catalog objects beside
//! provider built-ins (a Gemini request's `tools`), or that list alone. Each tool is read
//! through the source format's front end, in document order; where the tools were is kept in
//! a [`Layout`] for the same format to write back. A tool of a list whose own content is at
//! fault is left out ([`LeftOut`]) and the others are read.

use simd_json::Node;

use crate::adapter::Adapter;
use crate::emit::Source;
use crate::error::{ConversionError, ErrorKind};
use crate::format::{Envelope, FormatInfo};
use crate::ir::{Json, Member, Tool};
use crate::lower::{At, Kind, Lowerer, ReadNote};
use crate::pointer::{Path, Seg};

use super::DocumentKind;
use super::layout::{Group, Layout};
use super::left_out::LeftOut;

/// A lowered document: its shape, its tools, and where its tools were (the same format
/// writes that back).
pub(super) struct Lowered<'a> {
    /// Where the input's strings live, for the writer.
    pub(super) source: Source<'a>,
    pub(super) shape: DocumentKind,
    pub(super) tools: &'a mut [Tool<'a>],
    pub(super) layout: Layout<'a>,
    /// What the readers said about the tools: report entries, tools to leave out.
    pub(super) notes: Vec<ReadNote>,
    /// The catalog's tools that could not be read or converted, left out of `tools`.
    pub(super) left_out: Vec<LeftOut>,
    /// The parsed document, to find a tool's place in it when the passes leave it out.
    pub(super) tape: &'a [Node<'a>],
}

/// lower: the document's shape, then each tool through the source format's front end, with
/// what the readers said about them and the tools left out. A catalog none of whose tools can
/// be read is no catalog of this format (most likely another format's, read with the wrong
/// `--from`): the first tool's error is returned then.
pub(super) fn lower_document<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
) -> Result<Lowered<'a>, ConversionError> {
    let mut left_out = Vec::new();
    let mut lowered = lower_shape(lw, from, &mut left_out)?;
    if lowered.tools.is_empty()
        && let Some(first) = left_out.drain(..).next()
    {
        return Err(first.error);
    }
    lowered.notes = lw.take_notes();
    lowered.left_out = left_out;
    lowered.tape = lw.tape();
    Ok(lowered)
}

/// The document's shape and its tools.
fn lower_shape<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    left_out: &mut Vec<LeftOut>,
) -> Result<Lowered<'a>, ConversionError> {
    let root = Path::ROOT;
    let info = from.info();
    match lw.kind(0) {
        Kind::Array => {
            let (tools, groups) = lower_list(lw, from, 0, &root, left_out)?;
            Ok(catalog(tools, Layout { groups, ..Layout::plain(true) }))
        }
        Kind::Object => {
            if let Some((key, list)) = catalog_list(lw, info, 0, &root)? {
                let (tools, wrapper) = lower_catalog(lw, from, 0, list, &root, left_out)?;
                return Ok(catalog(
                    tools,
                    Layout { wrapper, list_key: key, ..Layout::plain(false) },
                ));
            }
            // An error response is one whatever format the caller named: the server answered
            // with an error, not with tools (an MCP `tools/list` error read as `openai`).
            let answered =
                |e: &Envelope| lw.find(0, e.marker).is_some() && lw.find(0, e.error).is_some();
            if let Some(envelope) =
                crate::formats::infos().filter_map(|i| i.envelope).find(answered)
                && let Some(error) = lw.find(0, envelope.error)
            {
                return Err(error_response(lw, envelope, error));
            }
            if let Some(envelope) = info.envelope
                && lw.find(0, envelope.marker).is_some()
            {
                return lower_in_envelope(lw, from, envelope, left_out);
            }
            if let Some((key, list)) = info.request_key.and_then(|k| lw.find(0, k).map(|l| (k, l)))
                && lw.kind(list) == Kind::Array
            {
                let (mut tools, mut groups): (&'a mut [Tool<'a>], _) = (&mut [], &[][..]);
                let outer = members_around(lw, 0, &root, list, |lw, p| {
                    (tools, groups) = lower_list(lw, from, list, p, left_out)?;
                    Ok(())
                })?;
                let layout = Layout { outer, outer_key: key, groups, ..Layout::plain(true) };
                return Ok(catalog(tools, layout));
            }
            let tool = lower_one(lw, from, 0, &root)?;
            Ok(Lowered {
                source: Source::default(),
                shape: DocumentKind::Single,
                tools: lw.alloc_slice(1, tool, &root)?,
                layout: Layout::plain(false),
                notes: Vec::new(),
                left_out: Vec::new(),
                tape: &[],
            })
        }
        other => Err(lw.error(
            &root,
            ErrorKind::Shape(match info.catalog_key {
                None => format!(
                    "expected a tool object or a JSON array of tools, found {}",
                    other.as_str()
                ),
                Some(key) => format!(
                    "expected a tool object, a JSON array of tools or {{\"{key}\": […]}}, found {}",
                    other.as_str()
                ),
            }),
        )),
    }
}

/// A lowered catalog.
fn catalog<'a>(tools: &'a mut [Tool<'a>], layout: Layout<'a>) -> Lowered<'a> {
    Lowered {
        source: Source::default(),
        shape: DocumentKind::Catalog,
        tools,
        layout,
        notes: Vec::new(),
        left_out: Vec::new(),
        tape: &[],
    }
}

/// The member of the object at `at` (at `path`) holding the format's tool list
/// ([`FormatInfo::catalog_key`] or its alias) and where the list is, when it is an array.
fn catalog_list(
    lw: &Lowerer<'_, '_>,
    info: &FormatInfo,
    at: At,
    path: &Path<'_>,
) -> Result<Option<(&'static str, At)>, ConversionError> {
    let mut lists = [info.catalog_key, info.catalog_alias]
        .into_iter()
        .flatten()
        .filter_map(|key| lw.find(at, key).map(|l| (key, l)))
        .filter(|(_, l)| lw.kind(*l) == Kind::Array);
    let list = lists.next();
    if let (Some((first, _)), Some((second, _))) = (list, lists.next()) {
        let message = format!("`{first}` and `{second}` are one member spelled twice");
        return Err(lw.error(&path.push(Seg::Key(second)), ErrorKind::Shape(message)));
    }
    Ok(list)
}

/// The catalog object at `at` (at `path`): its tools, read from its list at `list`, and its
/// members in order, the list a placeholder.
fn lower_catalog<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    at: At,
    list: At,
    path: &Path<'_>,
    left_out: &mut Vec<LeftOut>,
) -> Result<(&'a mut [Tool<'a>], &'a [Member<'a>]), ConversionError> {
    let mut tools: &'a mut [Tool<'a>] = &mut [];
    let wrapper = members_around(lw, at, path, list, |lw, p| {
        tools = lower_tools(lw, from, list, p, left_out)?;
        Ok(())
    })?;
    Ok((tools, wrapper))
}

/// The members of the object at `at` (at `path`) in order, for the same format to write
/// back: each kept as JSON but the one whose value is at `inner`, read by `read` where it
/// stands (document order keeps number text in step) and kept as a `null` placeholder.
fn members_around<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
    inner: At,
    mut read: impl FnMut(&mut Lowerer<'a, '_>, &Path<'_>) -> Result<(), ConversionError>,
) -> Result<&'a [Member<'a>], ConversionError> {
    lw.check_duplicates(at, path)?;
    let len = lw.object_len(at);
    let members = lw.alloc_slice(len, Member { key: "", value: Json::Null }, path)?;
    for (slot, (k, _, v)) in members.iter_mut().zip(lw.members(at)) {
        let p = path.push(Seg::Key(k));
        *slot = if v == inner {
            read(lw, &p)?;
            Member { key: k, value: Json::Null }
        } else {
            Member { key: k, value: lw.json(v, &p, p.depth())? }
        };
    }
    Ok(members)
}

/// The catalog inside the format's response envelope at the root: its result's catalog
/// object, with the envelope's members kept around it. An error response is an error.
fn lower_in_envelope<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    envelope: Envelope,
    left_out: &mut Vec<LeftOut>,
) -> Result<Lowered<'a>, ConversionError> {
    let root = Path::ROOT;
    if let Some(error) = lw.find(0, envelope.error) {
        return Err(error_response(lw, envelope, error));
    }
    let result_path = root.push(Seg::Key(envelope.result));
    let Some(result) = lw.find(0, envelope.result).filter(|r| lw.kind(*r) == Kind::Object) else {
        let message = format!(
            "a `{}` response holds its catalog in `{}`, and this one has no such object",
            envelope.marker, envelope.result
        );
        return Err(lw.error(&root, ErrorKind::Shape(message)));
    };
    let Some((key, list)) = catalog_list(lw, from.info(), result, &result_path)? else {
        let message = format!(
            "the `{}` of this response holds no `{}` list: it is not a list of tools",
            envelope.result,
            from.info().catalog_key.unwrap_or_default()
        );
        return Err(lw.error(&result_path, ErrorKind::Shape(message)));
    };
    let (mut tools, mut wrapper): (&'a mut [Tool<'a>], &'a [Member<'a>]) = (&mut [], &[]);
    let outer = members_around(lw, 0, &root, result, |lw, p| {
        (tools, wrapper) = lower_catalog(lw, from, result, list, p, left_out)?;
        Ok(())
    })?;
    let layout = Layout {
        wrapper,
        list_key: key,
        outer,
        outer_key: envelope.result,
        transport: true,
        ..Layout::plain(false)
    };
    Ok(catalog(tools, layout))
}

/// The error for an error response: its code and message, as it gave them.
#[cold]
fn error_response(lw: &mut Lowerer<'_, '_>, envelope: Envelope, error: At) -> ConversionError {
    let path = Path::ROOT.push(Seg::Key(envelope.error));
    // The error object is read whole, as JSON, so its code keeps its source text.
    let value = match lw.json(error, &path, 1) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let text = |key: &str| match value.get(key) {
        Some(Json::String(s) | Json::Number(s)) => (*s).to_owned(),
        _ => String::new(),
    };
    let kind = ErrorKind::ErrorResponse { code: text("code"), message: text("message") };
    lw.error(&path, kind)
}

/// A list of tools (at `list`, at `path`): its tools, and, for a format whose requests list
/// catalog objects ([`FormatInfo::request_key`]), the elements that are catalog objects, each
/// one's tools read in place.
fn lower_list<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    list: At,
    path: &Path<'_>,
    left_out: &mut Vec<LeftOut>,
) -> Result<(&'a mut [Tool<'a>], &'a [Group<'a>]), ConversionError> {
    let info = from.info();
    if info.request_key.is_none() {
        return Ok((lower_tools(lw, from, list, path, left_out)?, &[]));
    }
    let (mut n_tools, mut n_groups) = (0, 0);
    for (i, e) in lw.elements(list).enumerate() {
        match catalog_list(lw, info, e, &path.push(Seg::Index(i)))? {
            Some((_, l)) => {
                n_groups += 1;
                n_tools += lw.array_len(l);
            }
            None => n_tools += 1,
        }
    }
    if n_groups == 0 {
        return Ok((lower_tools(lw, from, list, path, left_out)?, &[]));
    }
    lw.check_depth(path.depth() + 1, path)?;
    let tools = lw.alloc_slice(n_tools, crate::formats::EMPTY_TOOL, path)?;
    let groups = lw.alloc_slice(n_groups, Group::EMPTY, path)?;
    // `seen` counts the source's tools, `kept` those read.
    let (mut seen, mut kept, mut next_group) = (0, 0, 0);
    for (i, e) in lw.elements(list).enumerate() {
        let p = path.push(Seg::Index(i));
        let Some((key, inner)) = catalog_list(lw, info, e, &p)? else {
            if let Some(tool) = lower_kept(lw, from, e, &p, seen, left_out)?
                && let Some(slot) = tools.get_mut(kept)
            {
                *slot = tool;
                kept += 1;
            }
            seen += 1;
            continue;
        };
        let len = lw.array_len(inner);
        let members = members_around(lw, e, &p, inner, |lw, lp| {
            for (j, at) in lw.elements(inner).enumerate() {
                let tp = lp.push(Seg::Index(j));
                if let Some(tool) = lower_kept(lw, from, at, &tp, seen, left_out)?
                    && let Some(slot) = tools.get_mut(kept)
                {
                    *slot = tool;
                    kept += 1;
                }
                seen += 1;
            }
            Ok(())
        })?;
        if let Some(slot) = groups.get_mut(next_group) {
            *slot = Group {
                index: i as u32,
                at: e as u32,
                end: lw.end(e) as u32,
                members,
                key,
                tools: len as u32,
            };
        }
        next_group += 1;
    }
    Ok((tools.split_at_mut(kept).0, groups))
}

/// The tools of the JSON array at `list` (at `path`), each through the format's front end;
/// a tool at fault is left out ([`lower_kept`]).
pub(super) fn lower_tools<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    list: usize,
    path: &Path<'_>,
    left_out: &mut Vec<LeftOut>,
) -> Result<&'a mut [Tool<'a>], ConversionError> {
    lw.check_depth(path.depth() + 1, path)?;
    let len = lw.array_len(list);
    let tools = lw.alloc_slice(len, crate::formats::EMPTY_TOOL, path)?;
    let mut kept = 0;
    for (i, at) in lw.elements(list).enumerate() {
        if let Some(tool) = lower_kept(lw, from, at, &path.push(Seg::Index(i)), i, left_out)?
            && let Some(slot) = tools.get_mut(kept)
        {
            *slot = tool;
            kept += 1;
        }
    }
    Ok(tools.split_at_mut(kept).0)
}

/// A tool of a list (at `at`, at `path`; the `index`-th of the document's tools): `None`
/// when its own content is at fault ([`ErrorKind::concerns_one_tool`]: no name, a repeated
/// key, a schema that is not one, …), told in `left_out` and passed over so the next tools are
/// read in step. Any other error ends the reading.
fn lower_kept<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    at: At,
    path: &Path<'_>,
    index: usize,
    left_out: &mut Vec<LeftOut>,
) -> Result<Option<Tool<'a>>, ConversionError> {
    let mark = lw.mark();
    match lower_one(lw, from, at, path) {
        Ok(tool) => Ok(Some(Tool { index: u32::try_from(index).unwrap_or(u32::MAX), ..tool })),
        Err(e) if e.kind().concerns_one_tool() => {
            lw.abandon(mark, at, path)?;
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            left_out.push(LeftOut { place: path.to_pointer(), at: at as u32, index, error: e });
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// One tool (at `at`, at `path`) through the format's front end; an error names the tool
/// when the value has a name where the format keeps it ([`FormatInfo::name_pointer`]), or a
/// `name` (another format's tool read with the wrong `--from`).
fn lower_one<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    from.lower_tool(lw, at, path).map_err(|e| {
        let mut value = Some(at);
        for key in from.info().name_pointer.split('/').skip(1) {
            value = value.and_then(|v| lw.find(v, key));
        }
        match value.and_then(|v| lw.str(v)).or_else(|| lw.find(at, "name").and_then(|n| lw.str(n)))
        {
            Some(name) => e.with_tool(name),
            None => e,
        }
    })
}
