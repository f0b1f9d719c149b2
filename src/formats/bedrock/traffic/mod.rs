//! Bedrock Converse traffic: the assistant message's `toolUse` blocks, the user message's
//! `toolResult` blocks (content `text`, `json`, `image`, `document`, `video`; `status`), a
//! Converse request's `messages`, `system` and `toolConfig` (its `toolChoice`), and the
//! `ConverseResponse`.
//!
//! `reasoningContent` is reasoning; a `toolUse` of `"type": "server_tool_use"` and a
//! `toolResult` in an assistant message (Nova's code interpreter runs them itself) are kept for
//! the same format only.

mod write;

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Choice, Content, Conversation, Finish, Media, Message, Nodes,
    Part, Payload, Reasoning, Response, Results, Source, ToolChoice, ToolResult, Turn,
};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{Out, Reader, TrafficFormat, TrafficKind, TrafficRules, get};

use super::rules;

/// Bedrock Converse traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct BedrockTraffic;

/// [`BedrockTraffic`], as [`super::Bedrock`] hands it out.
pub(crate) static TRAFFIC: BedrockTraffic = BedrockTraffic;

impl TrafficFormat for BedrockTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        let Json::Object(m) = doc else { return None };
        if get(m, "output").is_some() {
            return Some(TrafficKind::Response);
        }
        if get(m, "messages").is_some() {
            return Some(TrafficKind::Messages);
        }
        match get(m, "role").and_then(Json::as_str) {
            Some("assistant") => Some(TrafficKind::Calls),
            Some("user") => Some(TrafficKind::Results),
            _ => None,
        }
    }

    fn tools<'j>(&self, doc: &Json<'j>) -> Option<(Json<'j>, &'static str)> {
        // The tools alone: the tool choice is read (and written) as traffic.
        let tools = doc.get("toolConfig").and_then(|c| c.get("tools"));
        tools.filter(|t| !matches!(t, Json::Null)).map(|t| (*t, "/toolConfig/tools"))
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
                Payload::Calls(assistant(rd, doc, &root)?)
            }
            TrafficKind::Results => match user(rd, doc, &root)? {
                Turn::Results(r) => Payload::Results(r),
                _ => return Err(rd.shape(&root, "a user message without toolResult blocks")),
            },
            TrafficKind::Messages => Payload::Messages(conversation(rd, doc, &root)?),
            TrafficKind::Response => Payload::Response(response(rd, doc, &root)?),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => write::assistant(out, a),
            Payload::Results(r) => write::results(out, r),
            Payload::Messages(c) => write::conversation(out, c),
            Payload::Response(r) => write::response(out, r),
        }
    }
}

/// A message's `content` blocks.
fn blocks<'a>(
    rd: &Reader<'a, '_>,
    m: &'a [Member<'a>],
    path: &Path<'_>,
) -> Result<&'a [Json<'a>], ConversionError> {
    match get(m, "content") {
        None | Some(Json::Null) => Ok(&[]),
        Some(v) => rd.array(v, &path.push(Seg::Key("content")), "content"),
    }
}

/// The union member a content block holds (`text`, `toolUse`, …), past a `type` some
/// recordings add beside it.
fn member<'m, 'a>(b: &'m [Member<'a>]) -> Option<&'m Member<'a>> {
    b.iter().find(|m| m.key != "type")
}

/// An assistant message.
fn assistant<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Assistant<'a>, ConversionError> {
    let m = rd.object(doc, path, "message")?;
    let items = blocks(rd, m, path)?;
    let content_path = path.push(Seg::Key("content"));
    let mut parts = rd.list(items.len(), path)?;
    for (i, v) in items.iter().enumerate() {
        let at = content_path.push(Seg::Index(i));
        let b = rd.object(v, &at, "content block")?;
        let server = |x: &Json<'_>| x.get("type").and_then(Json::as_str) == Some("server_tool_use");
        parts.push(match member(b) {
            Some(x) if x.key == "toolUse" && !server(&x.value) => {
                Part::Call(call(rd, v, &x.value, &at.push(Seg::Key("toolUse")))?)
            }
            Some(x) if x.key == "reasoningContent" => {
                let r = &x.value;
                let text = r.get("reasoningText");
                let (pointer, n) = (rd.pointer(&at), rd.at());
                Part::Reasoning(Reasoning {
                    text: text.and_then(|t| t.get("text")).and_then(Json::as_str),
                    signature: text.and_then(|t| t.get("signature")).and_then(Json::as_str),
                    redacted: r.get("redactedContent").and_then(Json::as_str),
                    raw: *v,
                    pointer,
                    at: n,
                })
            }
            Some(x) if x.key == "text" => Part::Text(block(rd, v, &at)?),
            _ => Part::Other(block(rd, v, &at)?),
        });
    }
    for x in m {
        if !matches!(x.key, "role" | "content") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Assistant { parts: parts.done(), finish: None, raw: *doc, pointer, at })
}

/// A `toolUse` (`tu`, at `path`) of the content block `block`.
fn call<'a>(
    rd: &mut Reader<'a, '_>,
    block: &'a Json<'a>,
    tu: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Call<'a>, ConversionError> {
    let m = rd.object(tu, path, "toolUse")?;
    let name = rd.req_str(m, "name", path)?;
    let id = rd.opt_str(m, "toolUseId", path)?;
    let node = |key: &str| m.iter().find(|x| x.key == key).map(|x| &x.value);
    let arguments = match node("input") {
        None | Some(Json::Null) => Args::Absent,
        Some(v) => Args::Value(*v),
    };
    for x in m {
        if !matches!(x.key, "toolUseId" | "name" | "input") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name);
        }
    }
    let nodes = Nodes { id: node("toolUseId"), name: node("name"), args: node("input") };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call {
        id,
        name,
        arguments,
        custom: false,
        signature: None,
        raw: *block,
        nodes,
        pointer,
        at,
    })
}

/// A media block's `format` read as the media type it names.
pub(super) fn media_type(kind: &str, format: &str) -> Option<&'static str> {
    rules::MEDIA_FORMATS.iter().find(|(k, f, _)| *k == kind && *f == format).map(|(_, _, t)| *t)
}

/// An `image`, `document` or `video` block's media.
fn media<'a>(kind: &str, v: &'a Json<'a>) -> Option<Media<'a>> {
    let format = v.get("format").and_then(Json::as_str).unwrap_or_default();
    let source = v.get("source")?;
    let source = if let Some(b) = source.get("bytes").and_then(Json::as_str) {
        Source::Base64(b)
    } else if let Some(uri) =
        source.get("s3Location").and_then(|s| s.get("uri")).and_then(Json::as_str)
    {
        Source::Uri(uri)
    } else if let Some(t) = source.get("text").and_then(Json::as_str) {
        Source::Text(t)
    } else {
        return None;
    };
    let media_type = media_type(kind, format);
    Some(Media { source, media_type, name: v.get("name").and_then(Json::as_str) })
}

/// A content block that is not a call or a result.
fn block<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let b = rd.object(v, path, "content block")?;
    let (pointer, at) = (rd.pointer(path), rd.at());
    let block = match member(b) {
        Some(Member { key: "text", value: Json::String(t) }) => Block::Text(t),
        Some(Member { key: "json", value }) => Block::Json(*value),
        Some(Member { key: kind @ ("image" | "document" | "video"), value }) => {
            match (*kind, media(kind, value)) {
                ("image", Some(m)) => Block::Image(m),
                ("video", Some(m)) => Block::Video(m),
                ("document", Some(m)) => Block::Document(m),
                _ => Block::Other(kind),
            }
        }
        Some(x) => Block::Other(x.key),
        None => Block::Other("block"),
    };
    Ok(Content { block, raw: *v, pointer, at })
}

/// A `toolResult` (`tr`, at `path`) of the content block `block`.
fn result<'a>(
    rd: &mut Reader<'a, '_>,
    block_v: &'a Json<'a>,
    tr: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolResult<'a>, ConversionError> {
    let m = rd.object(tr, path, "toolResult")?;
    let call_id = rd.opt_str(m, "toolUseId", path)?;
    let content_path = path.push(Seg::Key("content"));
    let items = match get(m, "content") {
        None | Some(Json::Null) => &[][..],
        Some(v) => rd.array(v, &content_path, "content")?,
    };
    let mut content = rd.list(items.len(), &content_path)?;
    for (i, item) in items.iter().enumerate() {
        content.push(block(rd, item, &content_path.push(Seg::Index(i)))?);
    }
    let error = get(m, "status").and_then(Json::as_str) == Some("error");
    for x in m {
        if !matches!(x.key, "toolUseId" | "content" | "status") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let nodes = Nodes {
        id: m.iter().find(|x| x.key == "toolUseId").map(|x| &x.value),
        name: None,
        args: None,
    };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(ToolResult {
        call_id,
        name: None,
        content: content.done(),
        structured: None,
        error,
        error_code: None,
        raw: *block_v,
        nodes,
        pointer,
        at,
    })
}

/// A user message: results when it holds `toolResult` blocks, else what the user said.
fn user<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Turn<'a>, ConversionError> {
    let m = rd.object(doc, path, "message")?;
    let items = blocks(rd, m, path)?;
    let content_path = path.push(Seg::Key("content"));
    let is_result = |v: &Json<'_>| v.get("toolResult").is_some();
    let n = items.iter().filter(|v| is_result(v)).count();
    let mut results = rd.list(n, path)?;
    let mut other = rd.list(items.len() - n, path)?;
    for (i, v) in items.iter().enumerate() {
        let at = content_path.push(Seg::Index(i));
        match v.get("toolResult") {
            Some(tr) => results.push(result(rd, v, tr, &at.push(Seg::Key("toolResult")))?),
            None => other.push(block(rd, v, &at)?),
        }
    }
    for x in m {
        if !matches!(x.key, "role" | "content") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(if n > 0 {
        Turn::Results(Results {
            results: results.done(),
            after: other.done(),
            raw: *doc,
            pointer,
            at,
        })
    } else {
        Turn::User(Message { content: other.done(), raw: *doc, pointer, at })
    })
}

/// A Converse request.
fn conversation<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Conversation<'a>, ConversionError> {
    let m = rd.object(doc, path, "request")?;
    let messages = get(m, "messages").ok_or_else(|| rd.missing(path, "messages"))?;
    let list_path = path.push(Seg::Key("messages"));
    let messages = rd.array(messages, &list_path, "messages")?;
    let mut turns = rd.list(messages.len(), &list_path)?;
    for (i, v) in messages.iter().enumerate() {
        let at = list_path.push(Seg::Index(i));
        turns.push(match v.get("role").and_then(Json::as_str) {
            Some("assistant") => Turn::Assistant(assistant(rd, v, &at)?),
            _ => user(rd, v, &at)?,
        });
    }
    let mut c = Conversation {
        system: &[],
        turns: turns.done(),
        choice: ToolChoice::default(),
        tools: None,
        body: true,
        raw: *doc,
    };
    for x in m {
        let at = path.push(Seg::Key(x.key));
        match x.key {
            "messages" => {}
            "system" => {
                let items = rd.array(&x.value, &at, "system")?;
                let mut out = rd.list(items.len(), &at)?;
                for (i, v) in items.iter().enumerate() {
                    out.push(block(rd, v, &at.push(Seg::Index(i)))?);
                }
                c.system = out.done();
            }
            "toolConfig" => {
                c.tools = Some(x.value);
                if let Some(choice) = x.value.get("toolChoice") {
                    c.choice = tool_choice(rd, choice, &at.push(Seg::Key("toolChoice")))?;
                }
            }
            _ => rd.extra(&at, x.key, &x.value, ""),
        }
    }
    Ok(c)
}

/// `toolChoice`: `{"auto": {}}`, `{"any": {}}` or `{"tool": {"name"}}`.
fn tool_choice<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolChoice<'a>, ConversionError> {
    let m = rd.object(v, path, "toolChoice")?;
    let mut out = ToolChoice { pointer: rd.pointer(path), at: rd.at(), ..ToolChoice::default() };
    out.choice = match m.first().map(|x| (x.key, &x.value)) {
        Some(("auto", _)) => Some(Choice::Auto),
        Some(("any", _)) => Some(Choice::Required),
        Some(("tool", t)) => {
            let tm = rd.object(t, &path.push(Seg::Key("tool")), "tool")?;
            out.name_node = tm.iter().find(|x| x.key == "name").map(|x| &x.value);
            Some(Choice::Tool(rd.req_str(tm, "name", &path.push(Seg::Key("tool")))?))
        }
        _ => None,
    };
    Ok(out)
}

/// A `ConverseResponse`.
fn response<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Response<'a>, ConversionError> {
    let m = rd.object(doc, path, "response")?;
    let output_path = path.push(Seg::Key("output"));
    let output = get(m, "output").ok_or_else(|| rd.missing(path, "output"))?;
    let message = output.get("message").ok_or_else(|| rd.missing(&output_path, "message"))?;
    let mut turn = assistant(rd, message, &output_path.push(Seg::Key("message")))?;
    if let Some(reason) = rd.opt_str(m, "stopReason", path)? {
        turn.finish = Some((finish(reason), reason));
    }
    let usage = |key: &str| match get(m, "usage").and_then(|u| u.get(key)) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    for x in m {
        if !matches!(x.key, "output" | "stopReason" | "usage") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    Ok(Response {
        turn,
        id: None,
        model: None,
        created: None,
        input_tokens: usage("inputTokens"),
        output_tokens: usage("outputTokens"),
        raw: *doc,
    })
}

/// A `stopReason`.
fn finish(reason: &str) -> Finish {
    match reason {
        "tool_use" => Finish::ToolCalls,
        "end_turn" => Finish::Stop,
        "max_tokens" | "model_context_window_exceeded" => Finish::Length,
        "stop_sequence" => Finish::StopSequence,
        "guardrail_intervened" | "content_filtered" => Finish::Filtered,
        _ => Finish::Other,
    }
}
