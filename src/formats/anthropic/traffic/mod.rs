//! Anthropic Messages traffic: the assistant message's `tool_use` blocks (arguments an
//! object), the user message's `tool_result` blocks (content a string or blocks, `is_error`),
//! a request body's `system`, `messages` and `tool_choice` (with
//! `disable_parallel_tool_use`), and the `Message` response.
//!
//! `thinking` and `redacted_thinking` blocks are reasoning; server-side tool blocks
//! (`server_tool_use`, `*_tool_result`, `mcp_tool_use`, …) are kept for the same format only.

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Choice, Content, Conversation, Finish, Media, Message, Nodes,
    Part, Payload, Reasoning, Response, Results, Source, ToolChoice, ToolResult, Turn,
};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{List, Out, Reader, TrafficFormat, TrafficKind, TrafficRules, get};

use super::rules;

mod write;

use write::{write_assistant, write_conversation, write_response, write_results};

/// Anthropic Messages traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnthropicTraffic;

/// [`AnthropicTraffic`], as [`super::Anthropic`] hands it out.
pub(crate) static TRAFFIC: AnthropicTraffic = AnthropicTraffic;

impl TrafficFormat for AnthropicTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        let Json::Object(m) = doc else {
            return matches!(doc, Json::Array(items) if !items.is_empty())
                .then_some(TrafficKind::Messages);
        };
        if get(m, "messages").is_some() {
            return Some(TrafficKind::Messages);
        }
        if get(m, "type").and_then(Json::as_str) == Some("message")
            || get(m, "stop_reason").is_some()
        {
            return Some(TrafficKind::Response);
        }
        match get(m, "role").and_then(Json::as_str) {
            Some("assistant") => Some(TrafficKind::Calls),
            Some("user") => Some(TrafficKind::Results),
            _ => None,
        }
    }

    fn tools<'j>(&self, doc: &Json<'j>) -> Option<(Json<'j>, &'static str)> {
        doc.get("tools").filter(|t| !matches!(t, Json::Null)).map(|t| (*t, "/tools"))
    }

    fn read<'a>(
        &self,
        rd: &mut Reader<'a, '_>,
        doc: &'a Json<'a>,
        kind: TrafficKind,
    ) -> Result<Payload<'a>, ConversionError> {
        let root = Path::ROOT;
        Ok(match kind {
            TrafficKind::Calls => {
                rd.role(doc, &root, &["assistant"], "an assistant message")?;
                Payload::Calls(assistant(rd, doc, &root, &["role", "content"])?)
            }
            TrafficKind::Results => match user(rd, doc, &root)? {
                Turn::Results(r) => Payload::Results(r),
                _ => return Err(rd.shape(&root, "a user message without tool_result blocks")),
            },
            TrafficKind::Messages => Payload::Messages(conversation(rd, doc, &root)?),
            TrafficKind::Response => Payload::Response(response(rd, doc, &root)?),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => write_assistant(out, a),
            Payload::Results(r) => write_results(out, r),
            Payload::Messages(c) => write_conversation(out, c),
            Payload::Response(r) => write_response(out, r),
        }
    }
}

/// A message's `content`: blocks, or one string (read as a text block).
fn blocks<'a>(
    rd: &Reader<'a, '_>,
    msg: &'a [Member<'a>],
    path: &Path<'_>,
) -> Result<&'a [Json<'a>], ConversionError> {
    match get(msg, "content") {
        None | Some(Json::Null) => Ok(&[]),
        Some(s @ Json::String(_)) => Ok(std::slice::from_ref(s)),
        Some(v) => rd.array(v, &path.push(Seg::Key("content")), "content"),
    }
}

/// The pointer of block `i` of a message's content (the content itself when it is a string).
fn block_path<'p>(content: &'p Path<'p>, string: bool, i: usize) -> Path<'p> {
    if string { *content } else { content.push(Seg::Index(i)) }
}

/// An assistant message (or a response, whose members `known` lists as read elsewhere).
fn assistant<'a>(
    rd: &mut Reader<'a, '_>,
    msg: &'a Json<'a>,
    path: &Path<'_>,
    known: &[&str],
) -> Result<Assistant<'a>, ConversionError> {
    let members = rd.object(msg, path, "message")?;
    let items = blocks(rd, members, path)?;
    let string = matches!(get(members, "content"), Some(Json::String(_)));
    let content_path = path.push(Seg::Key("content"));
    let mut parts = rd.list(items.len(), path)?;
    for (i, v) in items.iter().enumerate() {
        let at = block_path(&content_path, string, i);
        let kind = match v {
            Json::String(_) => "text",
            _ => rd.req_str(rd.object(v, &at, "content block")?, "type", &at)?,
        };
        parts.push(match kind {
            "tool_use" => Part::Call(call(rd, v, &at)?),
            "thinking" | "redacted_thinking" => {
                let m = rd.object(v, &at, "thinking")?;
                let (pointer, n) = (rd.pointer(&at), rd.at());
                Part::Reasoning(Reasoning {
                    text: get(m, "thinking").and_then(Json::as_str),
                    signature: get(m, "signature").and_then(Json::as_str),
                    redacted: get(m, "data").and_then(Json::as_str),
                    raw: *v,
                    pointer,
                    at: n,
                })
            }
            "text" => Part::Text(block(rd, v, &at)?),
            _ => Part::Other(block(rd, v, &at)?),
        });
    }
    for m in members {
        if !known.contains(&m.key) {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Assistant { parts: parts.done(), finish: None, raw: *msg, pointer, at })
}

/// A `tool_use` block.
fn call<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Call<'a>, ConversionError> {
    let m = rd.object(v, path, "tool_use")?;
    let name = rd.req_str(m, "name", path)?;
    let id = rd.opt_str(m, "id", path)?;
    let node = |key: &str| m.iter().find(|x| x.key == key).map(|x| &x.value);
    let arguments = match node("input") {
        None | Some(Json::Null) => Args::Absent,
        Some(v) => Args::Value(*v),
    };
    for x in m {
        if !matches!(x.key, "type" | "id" | "name" | "input") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name);
        }
    }
    let nodes = Nodes { id: node("id"), name: node("name"), args: node("input") };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call { id, name, arguments, custom: false, signature: None, raw: *v, nodes, pointer, at })
}

/// A content block other than a call or a result: text, image, document, or one only this
/// format reads.
fn block<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let (pointer, at) = (rd.pointer(path), rd.at());
    let m = match v {
        Json::String(s) => return Ok(Content { block: Block::Text(s), raw: *v, pointer, at }),
        other => rd.object(other, path, "content block")?,
    };
    let kind = rd.req_str(m, "type", path)?;
    let block = match kind {
        "text" => Block::Text(rd.req_str(m, "text", path)?),
        "image" | "document" => {
            let source = get(m, "source")
                .map(|s| rd.object(s, &path.push(Seg::Key("source")), "source"))
                .transpose()?;
            let media = source.and_then(media).map(|mut media| {
                media.name = get(m, "title").and_then(Json::as_str);
                media
            });
            match (kind, media) {
                ("image", Some(media)) => Block::Image(media),
                ("document", Some(media)) => Block::Document(media),
                _ => Block::Other(kind),
            }
        }
        other => Block::Other(other),
    };
    if !matches!(block, Block::Other(_)) {
        for x in m {
            if !matches!(x.key, "type" | "text" | "source" | "title") {
                rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
            }
        }
    }
    Ok(Content { block, raw: *v, pointer, at })
}

/// An image's or a document's `source`.
fn media<'a>(s: &'a [Member<'a>]) -> Option<Media<'a>> {
    let str_of = |key: &str| get(s, key).and_then(Json::as_str);
    let media_type = str_of("media_type");
    let source = match str_of("type")? {
        "base64" => Source::Base64(str_of("data")?),
        "url" => Source::Url(str_of("url")?),
        "file" => Source::File(str_of("file_id")?),
        "text" => Source::Text(str_of("data")?),
        _ => return None,
    };
    Some(Media { source, media_type, name: None })
}

/// A `tool_result` block.
fn result<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolResult<'a>, ConversionError> {
    let m = rd.object(v, path, "tool_result")?;
    let call_id = rd.opt_str(m, "tool_use_id", path)?;
    let content_path = path.push(Seg::Key("content"));
    let content: &'a [Content<'a>] = match get(m, "content") {
        None | Some(Json::Null) => &[],
        Some(s @ Json::String(_)) => {
            let c = block(rd, s, &content_path)?;
            std::slice::from_ref(rd.alloc(c, &content_path)?)
        }
        Some(list) => {
            let items = rd.array(list, &content_path, "content")?;
            let mut out = rd.list(items.len(), &content_path)?;
            for (i, item) in items.iter().enumerate() {
                out.push(block(rd, item, &content_path.push(Seg::Index(i)))?);
            }
            out.done()
        }
    };
    let error = match get(m, "is_error") {
        Some(Json::Bool(b)) => *b,
        _ => false,
    };
    for x in m {
        if !matches!(x.key, "type" | "tool_use_id" | "content" | "is_error") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let nodes = Nodes {
        id: m.iter().find(|x| x.key == "tool_use_id").map(|x| &x.value),
        name: None,
        args: None,
    };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(ToolResult {
        call_id,
        name: None,
        content,
        structured: None,
        error,
        error_code: None,
        raw: *v,
        nodes,
        pointer,
        at,
    })
}

/// A user message: a results turn when it holds `tool_result` blocks (the other blocks then
/// sent with them), else what the user said.
fn user<'a>(
    rd: &mut Reader<'a, '_>,
    msg: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Turn<'a>, ConversionError> {
    let members = rd.object(msg, path, "message")?;
    let items = blocks(rd, members, path)?;
    let string = matches!(get(members, "content"), Some(Json::String(_)));
    let content_path = path.push(Seg::Key("content"));
    let is_result = |v: &Json<'_>| v.get("type").and_then(Json::as_str) == Some("tool_result");
    let n = items.iter().filter(|v| is_result(v)).count();
    let mut results: List<'a, ToolResult<'a>> = rd.list(n, path)?;
    let mut other = rd.list(items.len() - n, path)?;
    for (i, v) in items.iter().enumerate() {
        let at = block_path(&content_path, string, i);
        if is_result(v) {
            results.push(result(rd, v, &at)?);
        } else {
            other.push(block(rd, v, &at)?);
        }
    }
    for m in members {
        if !matches!(m.key, "role" | "content") {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(if n > 0 {
        Turn::Results(Results {
            results: results.done(),
            after: other.done(),
            raw: *msg,
            pointer,
            at,
        })
    } else {
        Turn::User(Message { content: other.done(), raw: *msg, pointer, at })
    })
}

/// A request body, or a list of messages.
fn conversation<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Conversation<'a>, ConversionError> {
    let (messages, body): (&'a [Json<'a>], Option<&'a [Member<'a>]>) = match doc {
        Json::Array(items) => (items, None),
        Json::Object(members) => {
            let messages = get(members, "messages").ok_or_else(|| rd.missing(path, "messages"))?;
            (rd.array(messages, &path.push(Seg::Key("messages")), "messages")?, Some(members))
        }
        other => return Err(rd.wrong(path, "request", "an object or an array of messages", other)),
    };
    let list_path = if body.is_some() { path.push(Seg::Key("messages")) } else { *path };
    let mut turns = rd.list(messages.len(), &list_path)?;
    for (i, v) in messages.iter().enumerate() {
        let at = list_path.push(Seg::Index(i));
        let role = v.get("role").and_then(Json::as_str).ok_or_else(|| rd.missing(&at, "role"))?;
        turns.push(match role {
            "assistant" => Turn::Assistant(assistant(rd, v, &at, &["role", "content"])?),
            "system" => match user(rd, v, &at)? {
                Turn::User(m) => Turn::System(m),
                other => other,
            },
            _ => user(rd, v, &at)?,
        });
    }
    let mut conversation = Conversation {
        system: &[],
        turns: turns.done(),
        choice: ToolChoice::default(),
        tools: None,
        body: body.is_some(),
        raw: *doc,
    };
    for m in body.unwrap_or_default() {
        let at = path.push(Seg::Key(m.key));
        match m.key {
            "messages" => {}
            "tools" => conversation.tools = Some(m.value).filter(|t| !matches!(t, Json::Null)),
            "system" => {
                conversation.system = match &m.value {
                    Json::String(_) => {
                        let c = block(rd, &m.value, &at)?;
                        std::slice::from_ref(rd.alloc(c, &at)?)
                    }
                    list => {
                        let items = rd.array(list, &at, "system")?;
                        let mut out = rd.list(items.len(), &at)?;
                        for (i, item) in items.iter().enumerate() {
                            out.push(block(rd, item, &at.push(Seg::Index(i)))?);
                        }
                        out.done()
                    }
                }
            }
            "tool_choice" => conversation.choice = tool_choice(rd, &m.value, &at)?,
            _ => rd.extra(&at, m.key, &m.value, ""),
        }
    }
    Ok(conversation)
}

/// `tool_choice`: `{"type": "auto" | "any" | "none" | "tool", "name"?, "disable_parallel_tool_use"?}`.
fn tool_choice<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolChoice<'a>, ConversionError> {
    let m = rd.object(v, path, "tool_choice")?;
    let name_node = m.iter().find(|x| x.key == "name").map(|x| &x.value);
    let choice = match rd.req_str(m, "type", path)? {
        "auto" => Some(Choice::Auto),
        "none" => Some(Choice::None),
        "any" => Some(Choice::Required),
        "tool" => Some(Choice::Tool(rd.req_str(m, "name", path)?)),
        _ => None,
    };
    let parallel = match get(m, "disable_parallel_tool_use") {
        Some(Json::Bool(b)) => Some(!b),
        _ => None,
    };
    Ok(ToolChoice { choice, parallel, name_node, pointer: rd.pointer(path), at: rd.at() })
}

/// A `Message` response.
fn response<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Response<'a>, ConversionError> {
    const KNOWN: [&str; 8] =
        ["id", "type", "role", "content", "model", "stop_reason", "stop_sequence", "usage"];
    let mut turn = assistant(rd, doc, path, &KNOWN)?;
    let members = rd.object(doc, path, "message")?;
    if let Some(reason) = rd.opt_str(members, "stop_reason", path)? {
        turn.finish = Some((finish(reason), reason));
    }
    let usage = |key: &str| match get(members, "usage").and_then(|u| u.get(key)) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    Ok(Response {
        turn,
        id: rd.opt_str(members, "id", path)?,
        model: rd.opt_str(members, "model", path)?,
        created: None,
        input_tokens: usage("input_tokens"),
        output_tokens: usage("output_tokens"),
        raw: *doc,
    })
}

/// A `stop_reason`.
fn finish(reason: &str) -> Finish {
    match reason {
        "tool_use" => Finish::ToolCalls,
        "end_turn" | "pause_turn" => Finish::Stop,
        "max_tokens" | "model_context_window_exceeded" => Finish::Length,
        "stop_sequence" => Finish::StopSequence,
        "refusal" => Finish::Filtered,
        _ => Finish::Other,
    }
}
