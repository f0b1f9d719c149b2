//! OpenAI Chat Completions traffic: the assistant message with `tool_calls` (arguments as a
//! JSON string), `role: "tool"` messages, a request body's `messages`, `tool_choice` and
//! `parallel_tool_calls`, and the `chat.completion` response.
//!
//! OpenAI-compatible providers' extras are read too: `reasoning_content` (DeepSeek, xAI),
//! `reasoning` (OpenRouter, Groq, Ollama), `reasoning_details` (OpenRouter, Snowflake), and
//! Gemini's endpoint's `extra_content.google.thought_signature` on a call, read as the call's
//! signature.

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Choice, Content, Conversation, Finish, Message, Nodes, Part,
    Payload, Reasoning, Response, Results, ToolChoice, ToolResult, Turn,
};

use super::chat_content::{block, content};
use super::chat_write::{write_assistant, write_conversation, write_response, write_results};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{Out, Reader, TrafficFormat, TrafficKind, TrafficRules, get};

use super::super::rules;

/// OpenAI Chat Completions traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChatTraffic;

impl TrafficFormat for ChatTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::CHAT_TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        match doc {
            Json::Object(m) if get(m, "choices").is_some() => Some(TrafficKind::Response),
            Json::Object(m) if get(m, "messages").is_some() => Some(TrafficKind::Messages),
            Json::Object(m) => match get(m, "role").and_then(Json::as_str) {
                Some("assistant") => Some(TrafficKind::Calls),
                Some("tool" | "function") => Some(TrafficKind::Results),
                _ => None,
            },
            Json::Array(items) if !items.is_empty() => {
                let role = |v: &Json<'_>| v.get("role").and_then(Json::as_str).map(is_result);
                if items.iter().all(|v| role(v) == Some(true)) {
                    Some(TrafficKind::Results)
                } else if items.iter().all(|v| role(v).is_some()) {
                    Some(TrafficKind::Messages)
                } else {
                    None
                }
            }
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
                Payload::Calls(assistant(rd, doc, &root)?)
            }
            TrafficKind::Results => Payload::Results(results(rd, doc, &root)?),
            TrafficKind::Messages => Payload::Messages(conversation(rd, doc, &root)?),
            TrafficKind::Response => Payload::Response(response(rd, doc, &root)?),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => write_assistant(out, a),
            Payload::Results(r) => {
                let many = r.results.len() != 1 || !r.after.is_empty();
                if many {
                    out.w().begin_array();
                }
                write_results(out, r);
                if many {
                    out.w().end_array();
                }
            }
            Payload::Messages(c) => write_conversation(out, c),
            Payload::Response(r) => write_response(out, r),
        }
    }
}

/// Whether a message of `role` carries a tool's result.
fn is_result(role: &str) -> bool {
    matches!(role, "tool" | "function")
}

/// An assistant message.
fn assistant<'a>(
    rd: &mut Reader<'a, '_>,
    msg: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Assistant<'a>, ConversionError> {
    let members = rd.object(msg, path, "message")?;
    let calls: &[Json<'a>] = match get(members, "tool_calls") {
        None | Some(Json::Null) => &[],
        Some(v) => rd.array(v, &path.push(Seg::Key("tool_calls")), "tool_calls")?,
    };
    let details = match get(members, "reasoning_details") {
        Some(Json::Array(d)) => d.len(),
        _ => 0,
    };
    let texts = match get(members, "content") {
        Some(Json::Array(parts)) => parts.len(),
        _ => 1,
    };
    let mut parts = rd.list(2 + details + texts + calls.len(), path)?;
    for m in members {
        let at = path.push(Seg::Key(m.key));
        match (m.key, &m.value) {
            ("reasoning_content" | "reasoning", Json::String(text)) if !text.is_empty() => {
                let (pointer, at) = (rd.pointer(&at), rd.at());
                let r = Reasoning {
                    text: Some(text),
                    signature: None,
                    redacted: None,
                    raw: m.value,
                    pointer,
                    at,
                };
                parts.push(Part::Reasoning(r));
            }
            ("reasoning_details", Json::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let (pointer, at) = (rd.pointer(&at.push(Seg::Index(i))), rd.at());
                    let text = item.get("text").and_then(Json::as_str);
                    let signature = item.get("signature").and_then(Json::as_str);
                    let redacted = item.get("data").and_then(Json::as_str);
                    let r = Reasoning { text, signature, redacted, raw: *item, pointer, at };
                    parts.push(Part::Reasoning(r));
                }
            }
            _ => {}
        }
    }
    if let Some(content) = get(members, "content") {
        let at = path.push(Seg::Key("content"));
        match content {
            Json::String(s) if !s.is_empty() => {
                let (pointer, at) = (rd.pointer(&at), rd.at());
                parts.push(Part::Text(Content {
                    block: Block::Text(s),
                    raw: *content,
                    pointer,
                    at,
                }));
            }
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let c = block(rd, item, &at.push(Seg::Index(i)))?;
                    parts.push(if matches!(c.block, Block::Text(_)) {
                        Part::Text(c)
                    } else {
                        Part::Other(c)
                    });
                }
            }
            Json::Null | Json::String(_) => {}
            other => return Err(rd.wrong(&at, "content", "a string, an array or null", other)),
        }
    }
    let at = path.push(Seg::Key("tool_calls"));
    for (i, v) in calls.iter().enumerate() {
        parts.push(Part::Call(call(rd, v, &at.push(Seg::Index(i)))?));
    }
    for m in members {
        if !matches!(
            m.key,
            "role"
                | "content"
                | "tool_calls"
                | "reasoning_content"
                | "reasoning"
                | "reasoning_details"
        ) {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Assistant { parts: parts.done(), finish: None, raw: *msg, pointer, at })
}

/// One of `tool_calls`.
fn call<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Call<'a>, ConversionError> {
    let members = rd.object(v, path, "tool call")?;
    let custom = get(members, "type").and_then(Json::as_str) == Some("custom");
    let inner_key = if custom { "custom" } else { "function" };
    let inner_path = path.push(Seg::Key(inner_key));
    let inner = match get(members, inner_key) {
        Some(f) => rd.object(f, &inner_path, inner_key)?,
        None => return Err(rd.missing(path, if custom { "custom" } else { "function" })),
    };
    let name = rd.req_str(inner, "name", &inner_path)?;
    let args_key = if custom { "input" } else { "arguments" };
    let args_node = inner.iter().find(|m| m.key == args_key).map(|m| &m.value);
    let arguments = match args_node {
        None | Some(Json::Null) => Args::Absent,
        Some(Json::String(t)) => Args::Text(t),
        Some(v) => Args::Value(*v),
    };
    let id_node = members.iter().find(|m| m.key == "id").map(|m| &m.value);
    let id = rd.opt_str(members, "id", path)?;
    let signature = get(members, "extra_content")
        .and_then(|e| e.get("google"))
        .and_then(|g| g.get("thought_signature"))
        .and_then(Json::as_str);
    for m in members {
        if !matches!(m.key, "id" | "type" | "function" | "custom" | "extra_content") {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, name);
        }
    }
    for m in inner {
        if !matches!(m.key, "name" | "arguments" | "input") {
            rd.extra(&inner_path.push(Seg::Key(m.key)), m.key, &m.value, name);
        }
    }
    let name_node = inner.iter().find(|m| m.key == "name").map(|m| &m.value);
    let nodes = Nodes { id: id_node, name: name_node, args: args_node };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call { id, name, arguments, custom, signature, raw: *v, nodes, pointer, at })
}

/// A `role: "tool"` message (or a legacy `role: "function"` one).
fn result<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolResult<'a>, ConversionError> {
    let members = rd.object(v, path, "message")?;
    let call_id = rd.opt_str(members, "tool_call_id", path)?;
    let name = rd.opt_str(members, "name", path)?;
    let content = content(rd, get(members, "content"), path)?;
    for m in members {
        if !matches!(m.key, "role" | "tool_call_id" | "name" | "content") {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, name.unwrap_or_default());
        }
    }
    let node = |key: &str| members.iter().find(|m| m.key == key).map(|m| &m.value);
    let nodes = Nodes { id: node("tool_call_id"), name: node("name"), args: None };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(ToolResult {
        call_id,
        name,
        content,
        structured: None,
        error: false,
        error_code: None,
        raw: *v,
        nodes,
        pointer,
        at,
    })
}

/// One tool message, or an array of them (a user message among them is content sent with
/// the results: what another format holds in the same message).
fn results<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Results<'a>, ConversionError> {
    let (pointer, at) = (rd.pointer(path), rd.at());
    let (results, after) = match doc {
        Json::Array(items) => {
            let role = |v: &Json<'_>| v.get("role").and_then(Json::as_str).is_some_and(is_result);
            let n = items.iter().filter(|v| role(v)).count();
            if n == 0 {
                return Err(rd.shape(path, "messages without a `tool` message"));
            }
            let mut list = rd.list(n, path)?;
            let mut after: Option<&'a [Content<'a>]> = None;
            for (i, item) in items.iter().enumerate() {
                let at = path.push(Seg::Index(i));
                if role(item) {
                    list.push(result(rd, item, &at)?);
                } else if after.is_none() {
                    after = Some(message(rd, item, &at)?.content);
                } else {
                    rd.extra(&at, "message", item, "");
                }
            }
            (list.done(), after.unwrap_or_default())
        }
        single => {
            let role = single.get("role").and_then(Json::as_str);
            if role.is_some_and(|r| !is_result(r)) {
                return Err(rd.shape(path, "a message whose role is not `tool`"));
            }
            let r = result(rd, single, path)?;
            (std::slice::from_ref(rd.alloc(r, path)?), &[][..])
        }
    };
    Ok(Results { results, after, raw: *doc, pointer, at })
}

/// A user or system message.
fn message<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Message<'a>, ConversionError> {
    let members = rd.object(v, path, "message")?;
    let content = content(rd, get(members, "content"), path)?;
    for m in members {
        if !matches!(m.key, "role" | "content") {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Message { content, raw: *v, pointer, at })
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
    let mut results: Option<crate::traffic::List<'a, ToolResult<'a>>> = None;
    let mut first = (Json::Null, "", 0);
    for (i, v) in messages.iter().enumerate() {
        let at = list_path.push(Seg::Index(i));
        let role = v.get("role").and_then(Json::as_str).ok_or_else(|| rd.missing(&at, "role"))?;
        if matches!(role, "tool" | "function") {
            if results.is_none() {
                let run = messages.get(i..).unwrap_or_default();
                let len = run
                    .iter()
                    .take_while(|m| {
                        matches!(m.get("role").and_then(Json::as_str), Some("tool" | "function"))
                    })
                    .count();
                results = Some(rd.list(len, &at)?);
                first = (*v, rd.pointer(&at), rd.at());
            }
            let r = result(rd, v, &at)?;
            if let Some(list) = results.as_mut() {
                list.push(r);
            }
            continue;
        }
        if let Some(list) = results.take() {
            turns.push(Turn::Results(Results {
                results: list.done(),
                after: &[],
                raw: first.0,
                pointer: first.1,
                at: first.2,
            }));
        }
        turns.push(match role {
            "assistant" => Turn::Assistant(assistant(rd, v, &at)?),
            "system" | "developer" => Turn::System(message(rd, v, &at)?),
            _ => Turn::User(message(rd, v, &at)?),
        });
    }
    if let Some(list) = results.take() {
        turns.push(Turn::Results(Results {
            results: list.done(),
            after: &[],
            raw: first.0,
            pointer: first.1,
            at: first.2,
        }));
    }
    let mut choice = ToolChoice::default();
    let mut tools = None;
    if let Some(members) = body {
        for m in members {
            let at = path.push(Seg::Key(m.key));
            match m.key {
                "messages" => {}
                "tools" => tools = Some(m.value).filter(|t| !matches!(t, Json::Null)),
                "tool_choice" => tool_choice(rd, &m.value, &at, &mut choice)?,
                "parallel_tool_calls" => {
                    choice.parallel = match m.value {
                        Json::Bool(b) => Some(b),
                        _ => None,
                    }
                }
                _ => rd.extra(&at, m.key, &m.value, ""),
            }
        }
    }
    Ok(Conversation {
        system: &[],
        turns: turns.done(),
        choice,
        tools,
        body: body.is_some(),
        raw: *doc,
    })
}

/// `tool_choice`: `"auto"`, `"none"`, `"required"` or `{"type":"function","function":{"name"}}`.
fn tool_choice<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
    out: &mut ToolChoice<'a>,
) -> Result<(), ConversionError> {
    out.pointer = rd.pointer(path);
    out.at = rd.at();
    out.choice = match v {
        Json::String("auto") => Some(Choice::Auto),
        Json::String("none") => Some(Choice::None),
        Json::String("required") => Some(Choice::Required),
        Json::Object(m) => {
            let f = get(m, "function")
                .map(|f| rd.object(f, &path.push(Seg::Key("function")), "function"))
                .transpose()?;
            let node = f.and_then(|f| f.iter().find(|m| m.key == "name")).map(|m| &m.value);
            out.name_node = node;
            match node.and_then(Json::as_str) {
                Some(name) => Some(Choice::Tool(name)),
                None => {
                    rd.extra(path, "tool_choice", v, "");
                    None
                }
            }
        }
        other => {
            return Err(rd.wrong(
                path,
                "tool_choice",
                "\"auto\", \"none\", \"required\" or a named function",
                other,
            ));
        }
    };
    Ok(())
}

/// A `chat.completion` object.
fn response<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Response<'a>, ConversionError> {
    let members = rd.object(doc, path, "response")?;
    let choices_path = path.push(Seg::Key("choices"));
    let choices = get(members, "choices").ok_or_else(|| rd.missing(path, "choices"))?;
    let choices = rd.array(choices, &choices_path, "choices")?;
    let first =
        choices.first().ok_or_else(|| rd.shape(&choices_path, "a response without choices"))?;
    let first_path = choices_path.push(Seg::Index(0));
    let choice = rd.object(first, &first_path, "choice")?;
    let message = get(choice, "message").ok_or_else(|| rd.missing(&first_path, "message"))?;
    let mut turn = assistant(rd, message, &first_path.push(Seg::Key("message")))?;
    if let Some(reason) = rd.opt_str(choice, "finish_reason", &first_path)? {
        turn.finish = Some((finish(reason), reason));
    }
    for m in choice {
        if !matches!(m.key, "index" | "message" | "finish_reason") {
            rd.extra(&first_path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    for (i, v) in choices.iter().enumerate().skip(1) {
        rd.extra(&choices_path.push(Seg::Index(i)), "choices", v, "");
    }
    let number = |key: &str| match get(members, key) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    let usage = |key: &str| match get(members, "usage").and_then(|u| u.get(key)) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    for m in members {
        if !matches!(m.key, "id" | "object" | "created" | "model" | "choices" | "usage") {
            rd.extra(&path.push(Seg::Key(m.key)), m.key, &m.value, "");
        }
    }
    Ok(Response {
        turn,
        id: rd.opt_str(members, "id", path)?,
        model: rd.opt_str(members, "model", path)?,
        created: number("created"),
        input_tokens: usage("prompt_tokens"),
        output_tokens: usage("completion_tokens"),
        raw: *doc,
    })
}

/// A `finish_reason`.
fn finish(reason: &str) -> Finish {
    match reason {
        "tool_calls" | "function_call" => Finish::ToolCalls,
        "stop" => Finish::Stop,
        "length" => Finish::Length,
        "content_filter" => Finish::Filtered,
        _ => Finish::Other,
    }
}
