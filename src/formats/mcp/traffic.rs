//! MCP traffic: `tools/call` requests (a JSON-RPC request, its `method` and `params` without
//! the envelope, or the `params` alone) and their answers (a `CallToolResult`, bare or in a
//! JSON-RPC response, a JSON-RPC error, or one content block as the specification's examples
//! show it). A JSON array of either is a batch of them. MCP has no conversations or responses.
//!
//! A call's id is its JSON-RPC request id (a number is its digits; an id of digits alone is
//! written as a number); a result's is its response's. A JSON-RPC error is a failed result whose
//! content is the error's message.

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Content, Media, Nodes, Part, Payload, Resource, Results, Source,
    ToolResult,
};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{Out, Reader, TrafficFormat, TrafficKind, TrafficRules, get};

use super::rules;

/// MCP traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct McpTraffic;

/// [`McpTraffic`], as [`super::Mcp`] hands it out.
pub(crate) static TRAFFIC: McpTraffic = McpTraffic;

/// Whether `v` is a `tools/call` request, with or without its envelope, or its params alone.
fn is_call(v: &Json<'_>) -> bool {
    let block = v.get("type").is_some() || v.get("content").is_some();
    v.get("method").is_some() || (v.get("name").is_some() && !block)
}

impl TrafficFormat for McpTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        let first = match doc {
            Json::Array(items) => items.first()?,
            Json::Object(_) => doc,
            _ => return None,
        };
        Some(if is_call(first) { TrafficKind::Calls } else { TrafficKind::Results })
    }

    fn read<'a>(
        &self,
        rd: &mut Reader<'a, '_>,
        doc: &'a Json<'a>,
        kind: TrafficKind,
    ) -> Result<Payload<'a>, ConversionError> {
        let root = Path::ROOT;
        let items = match doc {
            Json::Array(items) => *items,
            single => std::slice::from_ref(single),
        };
        let place =
            |i: usize| if matches!(doc, Json::Array(_)) { root.push(Seg::Index(i)) } else { root };
        let (pointer, at) = (rd.pointer(&root), rd.at());
        Ok(match kind {
            TrafficKind::Calls => {
                let mut parts = rd.list(items.len(), &root)?;
                for (i, v) in items.iter().enumerate() {
                    parts.push(Part::Call(call(rd, v, &place(i))?));
                }
                Payload::Calls(Assistant {
                    parts: parts.done(),
                    finish: None,
                    raw: *doc,
                    pointer,
                    at,
                })
            }
            TrafficKind::Results => {
                let mut results = rd.list(items.len(), &root)?;
                for (i, v) in items.iter().enumerate() {
                    results.push(result(rd, v, &place(i))?);
                }
                Payload::Results(Results {
                    results: results.done(),
                    after: &[],
                    raw: *doc,
                    pointer,
                    at,
                })
            }
            _ => return Err(rd.shape(&root, "MCP has calls and results only")),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => {
                let many = a.calls().count() != 1;
                if many {
                    out.w().begin_array();
                }
                for c in a.calls() {
                    out.w().element();
                    write_call(out, c);
                }
                if many {
                    out.w().end_array();
                }
            }
            Payload::Results(r) => {
                let many = r.results.len() != 1;
                if many {
                    out.w().begin_array();
                }
                for result in r.results {
                    out.w().element();
                    write_result(out, result);
                }
                if many {
                    out.w().end_array();
                }
            }
            // The kinds MCP has are checked before anything is written.
            Payload::Messages(_) | Payload::Response(_) => {}
        }
    }
}

/// A JSON-RPC id as text: a string, or a number's digits.
fn id_of<'a>(v: Option<&'a Json<'a>>) -> Option<&'a str> {
    match v {
        Some(Json::String(s)) => Some(s),
        Some(Json::Number(n)) => Some(n),
        _ => None,
    }
}

/// A `tools/call` request.
fn call<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Call<'a>, ConversionError> {
    let m = rd.object(v, path, "request")?;
    let enveloped = get(m, "method").is_some();
    let (params, params_path) = if enveloped {
        let method = rd.req_str(m, "method", path)?;
        if method != "tools/call" {
            return Err(rd.shape(
                &path.push(Seg::Key("method")),
                "a request whose method is not tools/call",
            ));
        }
        let params = get(m, "params").ok_or_else(|| rd.missing(path, "params"))?;
        let at = path.push(Seg::Key("params"));
        (rd.object(params, &at, "params")?, Some(at))
    } else {
        (m, None)
    };
    let pp = params_path.unwrap_or(*path);
    let name = rd.req_str(params, "name", &pp)?;
    let node =
        |list: &'a [Member<'a>], key: &str| list.iter().find(|x| x.key == key).map(|x| &x.value);
    let id_node = if enveloped { node(m, "id") } else { None };
    let arguments = match node(params, "arguments") {
        None | Some(Json::Null) => Args::Absent,
        Some(v) => Args::Value(*v),
    };
    if enveloped {
        for x in m {
            if !matches!(x.key, "jsonrpc" | "id" | "method" | "params") {
                rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name);
            }
        }
    }
    for x in params {
        if !matches!(x.key, "name" | "arguments") {
            rd.extra(&pp.push(Seg::Key(x.key)), x.key, &x.value, name);
        }
    }
    let nodes = Nodes { id: id_node, name: node(params, "name"), args: node(params, "arguments") };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call {
        id: id_of(id_node),
        name,
        arguments,
        custom: false,
        signature: None,
        raw: *v,
        nodes,
        pointer,
        at,
    })
}

/// A content block.
fn block<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let m = rd.object(v, path, "content block")?;
    let (pointer, at) = (rd.pointer(path), rd.at());
    let s = |key: &str| get(m, key).and_then(Json::as_str);
    let kind = rd.req_str(m, "type", path)?;
    let media = || Media {
        source: Source::Base64(s("data").unwrap_or_default()),
        media_type: s("mimeType"),
        name: None,
    };
    let block = match kind {
        "text" => Block::Text(rd.req_str(m, "text", path)?),
        "image" => Block::Image(media()),
        "audio" => Block::Audio(media()),
        "resource" => match get(m, "resource") {
            Some(r) => {
                let rs = |key: &str| r.get(key).and_then(Json::as_str);
                Block::Resource(Resource {
                    uri: rs("uri").unwrap_or_default(),
                    mime_type: rs("mimeType"),
                    text: rs("text"),
                    blob: rs("blob"),
                    name: None,
                })
            }
            None => Block::Other(kind),
        },
        "resource_link" => Block::ResourceLink(Resource {
            uri: s("uri").unwrap_or_default(),
            mime_type: s("mimeType"),
            text: None,
            blob: None,
            name: s("name"),
        }),
        other => Block::Other(other),
    };
    for x in m {
        if !matches!(x.key, "type" | "text" | "data" | "mimeType" | "resource" | "uri" | "name") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    Ok(Content { block, raw: *v, pointer, at })
}

/// An answer to a `tools/call`: a result, an error, or one content block.
fn result<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolResult<'a>, ConversionError> {
    let m = rd.object(v, path, "response")?;
    if get(m, "method").is_some() {
        return Err(rd.shape(path, "a request among results (a JSON-RPC response has no `method`)"));
    }
    let id_node = m.iter().find(|x| x.key == "id").map(|x| &x.value);
    let nodes = Nodes { id: id_node, name: None, args: None };
    let (pointer, at) = (rd.pointer(path), rd.at());
    let mut out = ToolResult {
        call_id: id_of(id_node),
        name: None,
        content: &[],
        structured: None,
        error: false,
        error_code: None,
        raw: *v,
        nodes,
        pointer,
        at,
    };
    // A JSON-RPC error, in its envelope or alone.
    let error = match get(m, "error") {
        Some(e) => Some((e, path.push(Seg::Key("error")))),
        None if get(m, "code").is_some() && get(m, "message").is_some() => Some((v, *path)),
        None => None,
    };
    if let Some((e, at)) = error {
        let em = rd.object(e, &at, "error")?;
        let message = rd.req_str(em, "message", &at)?;
        out.error = true;
        out.error_code = match get(em, "code") {
            Some(Json::Number(n)) => Some(*n),
            _ => None,
        };
        let (pointer, n) = (rd.pointer(&at.push(Seg::Key("message"))), rd.at());
        let c = Content { block: Block::Text(message), raw: Json::String(message), pointer, at: n };
        out.content = std::slice::from_ref(rd.alloc(c, &at)?);
        for x in em {
            if !matches!(x.key, "code" | "message") {
                rd.extra(&at.push(Seg::Key(x.key)), x.key, &x.value, "");
            }
        }
        return Ok(out);
    }
    // One content block, as the specification's examples show one.
    if get(m, "type").is_some() {
        let c = block(rd, v, path)?;
        out.content = std::slice::from_ref(rd.alloc(c, path)?);
        return Ok(out);
    }
    let (r, rp) = match get(m, "result") {
        Some(r) => {
            (rd.object(r, &path.push(Seg::Key("result")), "result")?, path.push(Seg::Key("result")))
        }
        None => (m, *path),
    };
    let content_path = rp.push(Seg::Key("content"));
    let items = match get(r, "content") {
        Some(c) => rd.array(c, &content_path, "content")?,
        None => &[],
    };
    let mut content = rd.list(items.len(), &content_path)?;
    for (i, item) in items.iter().enumerate() {
        content.push(block(rd, item, &content_path.push(Seg::Index(i)))?);
    }
    out.content = content.done();
    out.structured = get(r, "structuredContent").copied();
    out.error = matches!(get(r, "isError"), Some(Json::Bool(true)));
    for x in r {
        if !matches!(
            x.key,
            "content" | "structuredContent" | "isError" | "jsonrpc" | "id" | "result"
        ) {
            rd.extra(&rp.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    Ok(out)
}

/// Writes a JSON-RPC id: a number when it is one's digits (no leading zero), else a string.
fn write_id(out: &mut Out<'_, '_>, id: &str) {
    let digits = !id.is_empty() && id.len() < 19 && id.bytes().all(|b| b.is_ascii_digit());
    if digits && (id == "0" || !id.starts_with('0')) {
        out.w().raw(id);
    } else {
        out.w().string(id);
    }
}

/// Writes a `tools/call` request.
fn write_call(out: &mut Out<'_, '_>, c: &Call<'_>) {
    out.w().begin_object();
    out.w().key_plain("jsonrpc");
    out.w().string_plain("2.0");
    out.w().key_plain("id");
    write_id(out, c.id.unwrap_or_default());
    out.w().key_plain("method");
    out.w().string_plain("tools/call");
    out.w().key_plain("params");
    out.w().begin_object();
    out.str_member("name", c.name);
    out.w().key_plain("arguments");
    out.args_object(&c.arguments);
    out.w().end_object();
    out.w().end_object();
}

/// Writes a content block.
fn write_block(out: &mut Out<'_, '_>, c: &Content<'_>) {
    out.w().begin_object();
    match c.block {
        Block::Text(t) => {
            out.w().key_plain("type");
            out.w().string_plain("text");
            out.str_member("text", t);
        }
        Block::Image(m) | Block::Audio(m) => {
            out.w().key_plain("type");
            out.w().string_plain(if matches!(c.block, Block::Image(_)) {
                "image"
            } else {
                "audio"
            });
            let data = match m.source {
                Source::Base64(d) => d,
                Source::Url(u) | Source::Uri(u) | Source::File(u) | Source::Text(u) => u,
            };
            out.str_member("data", data);
            out.str_member("mimeType", m.media_type.unwrap_or("application/octet-stream"));
        }
        Block::Resource(r) => {
            out.w().key_plain("type");
            out.w().string_plain("resource");
            out.w().key_plain("resource");
            out.w().begin_object();
            out.str_member("uri", r.uri);
            if let Some(t) = r.mime_type {
                out.str_member("mimeType", t);
            }
            match (r.text, r.blob) {
                (Some(t), _) => out.str_member("text", t),
                (None, Some(b)) => out.str_member("blob", b),
                (None, None) => out.str_member("text", ""),
            }
            out.w().end_object();
        }
        Block::ResourceLink(r) => {
            out.w().key_plain("type");
            out.w().string_plain("resource_link");
            out.str_member("uri", r.uri);
            out.str_member("name", r.name.unwrap_or(r.uri));
            if let Some(t) = r.mime_type {
                out.str_member("mimeType", t);
            }
        }
        // JSON blocks are the structured content; the pass leaves only the kinds the rules list.
        _ => {}
    }
    out.w().end_object();
}

/// Writes a `CallToolResult`, in a JSON-RPC response when it answers a known id. A JSON block
/// is its `structuredContent`, mirrored as JSON text in its content as the specification asks.
fn write_result(out: &mut Out<'_, '_>, r: &ToolResult<'_>) {
    let enveloped = r.call_id.is_some_and(|id| !id.is_empty());
    if enveloped {
        out.w().begin_object();
        out.w().key_plain("jsonrpc");
        out.w().string_plain("2.0");
        out.w().key_plain("id");
        write_id(out, r.call_id.unwrap_or_default());
        out.w().key_plain("result");
    }
    out.w().begin_object();
    out.w().key_plain("content");
    out.w().begin_array();
    let json = r.content.iter().find_map(|c| match c.block {
        Block::Json(v) => Some(v),
        _ => None,
    });
    let has_text = r.content.iter().any(|c| matches!(c.block, Block::Text(_)));
    for c in r.content {
        if !matches!(c.block, Block::Json(_)) {
            out.w().element();
            write_block(out, c);
        }
    }
    if let (Some(v), false) = (json, has_text) {
        out.w().element();
        out.w().begin_object();
        out.w().key_plain("type");
        out.w().string_plain("text");
        out.w().key_plain("text");
        out.args_text(&Args::Value(v));
        out.w().end_object();
    }
    out.w().end_array();
    let structured =
        r.structured.or(json.filter(|v| matches!(v, Json::Object(_) | Json::Array(_))));
    if let Some(v) = structured {
        out.w().key_plain("structuredContent");
        out.w().json(&v);
    }
    if r.error {
        out.w().key_plain("isError");
        out.w().bool(true);
    }
    out.w().end_object();
    if enveloped {
        out.w().end_object();
    }
}
