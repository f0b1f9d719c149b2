//! The document's shape: where its tools are. One tool object; a JSON array of tools; the
//! format's catalog object; the catalog object inside the format's response envelope (an MCP
//! `tools/list` JSON-RPC response); a request whose list holds catalog objects beside
//! provider built-ins (a Gemini request's `tools`), or that list alone. Each tool is read
//! through the source format's front end, in document order; where the tools were is kept in
//! a [`Layout`] for the same format to write back.

use crate::adapter::Adapter;
use crate::emit::Source;
use crate::error::{ConversionError, ErrorKind};
use crate::format::{Envelope, FormatInfo};
use crate::ir::{Json, Member, Tool};
use crate::lower::{At, Kind, Lowerer};
use crate::pointer::{Path, Seg};

use super::Shape;
use super::layout::{Group, Layout};
use super::read::Lowered;

/// lower: the document's shape, then each tool through the source format's front end, with
/// what the readers said about them.
pub(super) fn lower_document<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
) -> Result<Lowered<'a>, ConversionError> {
    let mut lowered = lower_shape(lw, from)?;
    lowered.notes = lw.take_notes();
    Ok(lowered)
}

/// The document's shape and its tools.
fn lower_shape<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
) -> Result<Lowered<'a>, ConversionError> {
    let root = Path::ROOT;
    let info = from.info();
    match lw.kind(0) {
        Kind::Array => {
            let (tools, groups) = lower_list(lw, from, 0, &root)?;
            Ok(catalog(tools, Layout { groups, ..Layout::plain(true) }))
        }
        Kind::Object => {
            if let Some((key, list)) = catalog_list(lw, info, 0, &root)? {
                let (tools, wrapper) = lower_catalog(lw, from, 0, list, &root)?;
                return Ok(catalog(
                    tools,
                    Layout { wrapper, list_key: key, ..Layout::plain(false) },
                ));
            }
            if let Some(envelope) = info.envelope
                && lw.find(0, envelope.marker).is_some()
            {
                return lower_in_envelope(lw, from, envelope);
            }
            let request = Some(info.request_key).filter(|k| !k.is_empty());
            if let Some((key, list)) = request.and_then(|k| lw.find(0, k).map(|l| (k, l)))
                && lw.kind(list) == Kind::Array
            {
                let (mut tools, mut groups): (&'a mut [Tool<'a>], _) = (&mut [], &[][..]);
                let outer = members_around(lw, 0, &root, list, |lw, p| {
                    (tools, groups) = lower_list(lw, from, list, p)?;
                    Ok(())
                })?;
                let layout = Layout { outer, outer_key: key, groups, ..Layout::plain(true) };
                return Ok(catalog(tools, layout));
            }
            let tool = lower_one(lw, from, 0, &root)?;
            Ok(Lowered {
                source: Source::default(),
                shape: Shape::Single,
                tools: lw.alloc_slice(1, tool, &root)?,
                layout: Layout::plain(false),
                notes: Vec::new(),
            })
        }
        other => Err(lw.error(
            &root,
            ErrorKind::Shape(match info.catalog_key {
                "" => format!(
                    "expected a tool object or a JSON array of tools, found {}",
                    other.as_str()
                ),
                key => format!(
                    "expected a tool object, a JSON array of tools or {{\"{key}\": […]}}, found {}",
                    other.as_str()
                ),
            }),
        )),
    }
}

/// A lowered catalog.
fn catalog<'a>(tools: &'a mut [Tool<'a>], layout: Layout<'a>) -> Lowered<'a> {
    Lowered { source: Source::default(), shape: Shape::Catalog, tools, layout, notes: Vec::new() }
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
        .filter(|key| !key.is_empty())
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
) -> Result<(&'a mut [Tool<'a>], &'a [Member<'a>]), ConversionError> {
    let mut tools: &'a mut [Tool<'a>] = &mut [];
    let wrapper = members_around(lw, at, path, list, |lw, p| {
        tools = lower_tools(lw, from, list, p)?;
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
            from.info().catalog_key
        );
        return Err(lw.error(&result_path, ErrorKind::Shape(message)));
    };
    let (mut tools, mut wrapper): (&'a mut [Tool<'a>], &'a [Member<'a>]) = (&mut [], &[]);
    let outer = members_around(lw, 0, &root, result, |lw, p| {
        (tools, wrapper) = lower_catalog(lw, from, result, list, p)?;
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
) -> Result<(&'a mut [Tool<'a>], &'a [Group<'a>]), ConversionError> {
    let info = from.info();
    if info.request_key.is_empty() {
        return Ok((lower_tools(lw, from, list, path)?, &[]));
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
        return Ok((lower_tools(lw, from, list, path)?, &[]));
    }
    lw.check_depth(path.depth() + 1, path)?;
    let tools = lw.alloc_slice(n_tools, crate::formats::EMPTY_TOOL, path)?;
    let groups = lw.alloc_slice(n_groups, Group::EMPTY, path)?;
    let (mut next_tool, mut next_group) = (0, 0);
    for (i, e) in lw.elements(list).enumerate() {
        let p = path.push(Seg::Index(i));
        let Some((key, inner)) = catalog_list(lw, info, e, &p)? else {
            if let Some(slot) = tools.get_mut(next_tool) {
                *slot = lower_one(lw, from, e, &p)?;
            }
            next_tool += 1;
            continue;
        };
        let len = lw.array_len(inner);
        let mine = tools.get_mut(next_tool..next_tool + len).unwrap_or_default();
        let members = members_around(lw, e, &p, inner, |lw, lp| {
            for (j, (slot, at)) in mine.iter_mut().zip(lw.elements(inner)).enumerate() {
                *slot = lower_one(lw, from, at, &lp.push(Seg::Index(j)))?;
            }
            Ok(())
        })?;
        next_tool += len;
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
    Ok((tools, groups))
}

/// The tools of the JSON array at `list` (at `path`), each through the format's front end.
pub(super) fn lower_tools<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    list: usize,
    path: &Path<'_>,
) -> Result<&'a mut [Tool<'a>], ConversionError> {
    lw.check_depth(path.depth() + 1, path)?;
    let len = lw.array_len(list);
    let tools = lw.alloc_slice(len, crate::formats::EMPTY_TOOL, path)?;
    for (i, (slot, at)) in tools.iter_mut().zip(lw.elements(list)).enumerate() {
        *slot = lower_one(lw, from, at, &path.push(Seg::Index(i)))?;
    }
    Ok(tools)
}

/// One tool (at `at`, at `path`) through the format's front end; an error names the tool
/// when the value has a `name`.
fn lower_one<'a>(
    lw: &mut Lowerer<'a, '_>,
    from: &dyn Adapter,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    from.lower_tool(lw, at, path).map_err(|e| match lw.find(at, "name").and_then(|n| lw.str(n)) {
        Some(n) => e.with_tool(n),
        None => e,
    })
}
