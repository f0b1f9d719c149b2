//! OpenAI Responses traffic: `function_call` and `custom_tool_call` items (arguments a JSON
//! string; a custom call's free-text `input`), `function_call_output` items (output a string or
//! `input_text` / `input_image` / `input_file` parts), a request's `input`, `instructions`,
//! `tool_choice` and `parallel_tool_calls`, and the `Response` object.
//!
//! A turn is a run of items: the model's (messages it wrote, reasoning, calls, server-side
//! items such as `mcp_call`, kept for the same format only) or tools' outputs. `reasoning`
//! items are reasoning (their `encrypted_content` the provider's own).

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Choice, Content, Conversation, Finish, Media, Message, Nodes,
    Part, Payload, Reasoning, Response, Results, Source, ToolChoice, ToolResult, Turn,
};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{List, Out, Reader, TrafficFormat, TrafficKind, TrafficRules, data_url, get};

use super::super::rules;
use super::responses_write as write;

/// OpenAI Responses traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct ResponsesTraffic;

/// What an input or output item is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    /// The model's: a call, its reasoning, a message it wrote, a server-side item.
    Model,
    /// A tool's output.
    Output,
    /// A user message.
    User,
    /// A system or developer message.
    System,
}

fn item_of(v: &Json<'_>) -> Item {
    match (v.get("type").and_then(Json::as_str), v.get("role").and_then(Json::as_str)) {
        (Some("function_call_output" | "custom_tool_call_output"), _) => Item::Output,
        (_, Some("user")) => Item::User,
        (_, Some("system" | "developer")) => Item::System,
        _ => Item::Model,
    }
}

impl TrafficFormat for ResponsesTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::RESPONSES_TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        match doc {
            Json::Object(m) if get(m, "call_id").is_some() => match item_of(doc) {
                Item::Output => Some(TrafficKind::Results),
                _ => Some(TrafficKind::Calls),
            },
            Json::Object(m) if get(m, "output").is_some() && get(m, "object").is_some() => {
                Some(TrafficKind::Response)
            }
            Json::Object(m) if get(m, "input").is_some() => Some(TrafficKind::Messages),
            Json::Array(items) if !items.is_empty() => {
                let kinds = || items.iter().map(item_of);
                if kinds().all(|k| k == Item::Output) {
                    Some(TrafficKind::Results)
                } else if kinds().all(|k| k == Item::Model) {
                    Some(TrafficKind::Calls)
                } else {
                    Some(TrafficKind::Messages)
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
            TrafficKind::Calls => Payload::Calls(model_turn(rd, items_of(doc), doc, &root, None)?),
            TrafficKind::Results => Payload::Results(outputs(rd, items_of(doc), doc, &root, None)?),
            TrafficKind::Messages => Payload::Messages(conversation(rd, doc, &root)?),
            TrafficKind::Response => Payload::Response(response(rd, doc, &root)?),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => write::calls(out, a),
            Payload::Results(r) => write::results(out, r),
            Payload::Messages(c) => write::conversation(out, c),
            Payload::Response(r) => write::response(out, r),
        }
    }
}

/// One item, or a list of them.
fn items_of<'a>(doc: &'a Json<'a>) -> &'a [Json<'a>] {
    match doc {
        Json::Array(items) => items,
        single => std::slice::from_ref(single),
    }
}

/// The path of item `i` of `items` read from `doc` at `path` (the item itself when `doc` is
/// one item).
fn item_path<'p>(path: &'p Path<'p>, doc: &Json<'_>, i: usize) -> Path<'p> {
    if matches!(doc, Json::Array(_)) { path.push(Seg::Index(i)) } else { *path }
}

/// The place of item `i` of a run read from `doc` at `path`: for a payload (`from` is `None`),
/// the item itself or its index in `doc`; for a run of a list at `path`, its index in that list.
fn at_item<'p>(path: &'p Path<'p>, doc: &Json<'_>, from: Option<usize>, i: usize) -> Path<'p> {
    match from {
        Some(f) => path.push(Seg::Index(f + i)),
        None => item_path(path, doc, i),
    }
}

/// The model's items as one turn: the whole of `doc`, or (`from`) a run of the list at `path`.
fn model_turn<'a>(
    rd: &mut Reader<'a, '_>,
    items: &'a [Json<'a>],
    doc: &'a Json<'a>,
    path: &Path<'_>,
    from: Option<usize>,
) -> Result<Assistant<'a>, ConversionError> {
    let texts: usize = items
        .iter()
        .filter_map(|v| v.get("content"))
        .map(|c| match c {
            Json::Array(p) => p.len(),
            _ => 1,
        })
        .sum();
    let mut parts = rd.list(items.len() + texts, path)?;
    let (pointer, at) = (rd.pointer(&at_item(path, doc, from, 0)), rd.at());
    for (i, v) in items.iter().enumerate() {
        let at = at_item(path, doc, from, i);
        if item_of(v) != Item::Model {
            return Err(rd.shape(&at, "the model's items (a call, its reasoning, its message)"));
        }
        model_item(rd, v, &at, &mut parts)?;
    }
    Ok(Assistant { parts: parts.done(), finish: None, raw: *doc, pointer, at })
}

/// One of the model's items.
fn model_item<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
    parts: &mut List<'a, Part<'a>>,
) -> Result<(), ConversionError> {
    let m = rd.object(v, path, "item")?;
    match get(m, "type").and_then(Json::as_str).unwrap_or("message") {
        kind @ ("function_call" | "custom_tool_call") => {
            parts.push(Part::Call(call(rd, v, m, path, kind == "custom_tool_call")?))
        }
        "reasoning" => {
            let summary = match get(m, "summary") {
                Some(Json::Array(s)) => {
                    s.first().and_then(|x| x.get("text")).and_then(Json::as_str)
                }
                _ => None,
            };
            let (pointer, at) = (rd.pointer(path), rd.at());
            let redacted = get(m, "encrypted_content").and_then(Json::as_str);
            parts.push(Part::Reasoning(Reasoning {
                text: summary,
                signature: None,
                redacted,
                raw: *v,
                pointer,
                at,
            }));
        }
        "message" => {
            let content_path = path.push(Seg::Key("content"));
            for c in content(rd, get(m, "content"), &content_path)? {
                parts.push(if matches!(c.block, Block::Text(_)) {
                    Part::Text(*c)
                } else {
                    Part::Other(*c)
                });
            }
            for x in m {
                if !matches!(x.key, "type" | "role" | "content") {
                    rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
                }
            }
        }
        other => {
            let (pointer, at) = (rd.pointer(path), rd.at());
            parts.push(Part::Other(Content { block: Block::Other(other), raw: *v, pointer, at }));
        }
    }
    Ok(())
}

/// A `function_call` or `custom_tool_call` item.
fn call<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    m: &'a [Member<'a>],
    path: &Path<'_>,
    custom: bool,
) -> Result<Call<'a>, ConversionError> {
    let name = rd.req_str(m, "name", path)?;
    let id = rd.opt_str(m, "call_id", path)?;
    let key = if custom { "input" } else { "arguments" };
    let node = |k: &str| m.iter().find(|x| x.key == k).map(|x| &x.value);
    let arguments = match node(key) {
        None | Some(Json::Null) => Args::Absent,
        Some(Json::String(t)) => Args::Text(t),
        Some(other) => Args::Value(*other),
    };
    for x in m {
        if !matches!(x.key, "type" | "call_id" | "name" | "arguments" | "input") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name);
        }
    }
    let nodes = Nodes { id: node("call_id"), name: node("name"), args: node(key) };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call { id, name, arguments, custom, signature: None, raw: *v, nodes, pointer, at })
}

/// A message's or an output's content: a string, or parts.
fn content<'a>(
    rd: &mut Reader<'a, '_>,
    v: Option<&'a Json<'a>>,
    path: &Path<'_>,
) -> Result<&'a [Content<'a>], ConversionError> {
    match v {
        None | Some(Json::Null) => Ok(&[]),
        Some(s @ Json::String(t)) => {
            let (pointer, at) = (rd.pointer(path), rd.at());
            let c = Content { block: Block::Text(t), raw: *s, pointer, at };
            Ok(std::slice::from_ref(rd.alloc(c, path)?))
        }
        Some(Json::Array(items)) => {
            let mut out = rd.list(items.len(), path)?;
            for (i, item) in items.iter().enumerate() {
                out.push(part(rd, item, &path.push(Seg::Index(i)))?);
            }
            Ok(out.done())
        }
        Some(other) => Err(rd.wrong(path, "content", "a string or an array of parts", other)),
    }
}

/// One content part: `input_text` / `output_text`, `input_image`, `input_file`.
fn part<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let m = rd.object(v, path, "content part")?;
    let (pointer, at) = (rd.pointer(path), rd.at());
    let str_of = |k: &str| get(m, k).and_then(Json::as_str);
    let from_url = |url: &'a str, name: Option<&'a str>| match data_url(url) {
        Some((mime, data)) => Media { source: Source::Base64(data), media_type: Some(mime), name },
        None => Media { source: Source::Url(url), media_type: None, name },
    };
    let kind = str_of("type").unwrap_or("input_text");
    let block = match kind {
        "input_text" | "output_text" | "text" => Block::Text(rd.req_str(m, "text", path)?),
        "input_image" => match (str_of("image_url"), str_of("file_id")) {
            (Some(url), _) => Block::Image(from_url(url, None)),
            (None, Some(id)) => {
                Block::Image(Media { source: Source::File(id), media_type: None, name: None })
            }
            _ => Block::Other(kind),
        },
        "input_file" => {
            let name = str_of("filename");
            match (str_of("file_data"), str_of("file_url"), str_of("file_id")) {
                (Some(data), _, _) => Block::Document(from_url(data, name)),
                (None, Some(url), _) => {
                    Block::Document(Media { source: Source::Url(url), media_type: None, name })
                }
                (None, None, Some(id)) => {
                    Block::Document(Media { source: Source::File(id), media_type: None, name })
                }
                _ => Block::Other(kind),
            }
        }
        other => Block::Other(other),
    };
    if !matches!(block, Block::Other(_)) {
        for x in m {
            if !matches!(
                x.key,
                "type" | "text" | "image_url" | "file_id" | "file_data" | "file_url" | "filename"
            ) {
                rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
            }
        }
    }
    Ok(Content { block, raw: *v, pointer, at })
}

/// Tools' outputs (and a user message among them: content sent with them) as one turn: the
/// whole of `doc`, or (`from`) a run of the list at `path`.
fn outputs<'a>(
    rd: &mut Reader<'a, '_>,
    items: &'a [Json<'a>],
    doc: &'a Json<'a>,
    path: &Path<'_>,
    from: Option<usize>,
) -> Result<Results<'a>, ConversionError> {
    let (pointer, at) = (rd.pointer(&at_item(path, doc, from, 0)), rd.at());
    let n = items.iter().filter(|v| item_of(v) == Item::Output).count();
    if n == 0 {
        return Err(rd.shape(path, "items without a function_call_output"));
    }
    let mut results = rd.list(n, path)?;
    let mut after: &'a [Content<'a>] = &[];
    for (i, v) in items.iter().enumerate() {
        let ip = at_item(path, doc, from, i);
        if item_of(v) == Item::Model {
            return Err(rd.shape(&ip, "a model's item among tool outputs"));
        }
        if item_of(v) != Item::Output {
            after = content(rd, v.get("content"), &ip.push(Seg::Key("content")))?;
            continue;
        }
        let m = rd.object(v, &ip, "item")?;
        let call_id = rd.opt_str(m, "call_id", &ip)?;
        let content = content(rd, get(m, "output"), &ip.push(Seg::Key("output")))?;
        for x in m {
            if !matches!(x.key, "type" | "call_id" | "output") {
                rd.extra(&ip.push(Seg::Key(x.key)), x.key, &x.value, "");
            }
        }
        let nodes = Nodes {
            id: m.iter().find(|x| x.key == "call_id").map(|x| &x.value),
            name: None,
            args: None,
        };
        let (pointer, at) = (rd.pointer(&ip), rd.at());
        results.push(ToolResult {
            call_id,
            name: None,
            content,
            structured: None,
            error: false,
            error_code: None,
            raw: *v,
            nodes,
            pointer,
            at,
        });
    }
    Ok(Results { results: results.done(), after, raw: *doc, pointer, at })
}

/// A request (its `input` a string or items), or a list of items.
fn conversation<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Conversation<'a>, ConversionError> {
    let (input, body) = match doc {
        Json::Array(_) => (doc, None),
        Json::Object(m) => (get(m, "input").ok_or_else(|| rd.missing(path, "input"))?, Some(*m)),
        other => return Err(rd.wrong(path, "request", "an object or an array of items", other)),
    };
    let list_path = if body.is_some() { path.push(Seg::Key("input")) } else { *path };
    let items: &'a [Json<'a>] = match input {
        Json::Array(items) => items,
        _ => &[],
    };
    let mut turns = rd.list(items.len() + 1, &list_path)?;
    if let Json::String(t) = input {
        let (pointer, at) = (rd.pointer(&list_path), rd.at());
        let c = Content { block: Block::Text(t), raw: *input, pointer, at };
        let content = std::slice::from_ref(rd.alloc(c, &list_path)?);
        turns.push(Turn::User(Message { content, raw: *input, pointer, at }));
    }
    let mut i = 0;
    while let Some(first) = items.get(i) {
        let kind = item_of(first);
        let run = items.get(i..).unwrap_or_default();
        let len = match kind {
            Item::Model | Item::Output => run.iter().take_while(|v| item_of(v) == kind).count(),
            _ => 1,
        };
        let slice = run.get(..len).unwrap_or_default();
        let at = list_path.push(Seg::Index(i));
        turns.push(match kind {
            Item::Model => Turn::Assistant(model_turn(rd, slice, first, &list_path, Some(i))?),
            Item::Output => Turn::Results(outputs(rd, slice, first, &list_path, Some(i))?),
            Item::User | Item::System => {
                let m = rd.object(first, &at, "message")?;
                let content = content(rd, get(m, "content"), &at.push(Seg::Key("content")))?;
                for x in m {
                    if !matches!(x.key, "type" | "role" | "content") {
                        rd.extra(&at.push(Seg::Key(x.key)), x.key, &x.value, "");
                    }
                }
                let (pointer, n) = (rd.pointer(&at), rd.at());
                let message = Message { content, raw: *first, pointer, at: n };
                if kind == Item::User { Turn::User(message) } else { Turn::System(message) }
            }
        });
        i += len.max(1);
    }
    let mut c = Conversation {
        system: &[],
        turns: turns.done(),
        choice: ToolChoice::default(),
        tools: None,
        body: body.is_some(),
        raw: *doc,
    };
    for x in body.unwrap_or_default() {
        let at = path.push(Seg::Key(x.key));
        match x.key {
            "input" => {}
            "tools" => c.tools = Some(x.value).filter(|t| !matches!(t, Json::Null)),
            "instructions" => c.system = content(rd, Some(&x.value), &at)?,
            "tool_choice" => choice(rd, &x.value, &at, &mut c.choice)?,
            "parallel_tool_calls" => {
                c.choice.parallel = match x.value {
                    Json::Bool(b) => Some(b),
                    _ => None,
                }
            }
            _ => rd.extra(&at, x.key, &x.value, ""),
        }
    }
    Ok(c)
}

/// `tool_choice`: `"auto"`, `"none"`, `"required"` or `{"type":"function","name"}`.
fn choice<'a>(
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
        Json::Object(m) if get(m, "type").and_then(Json::as_str) == Some("function") => {
            out.name_node = m.iter().find(|x| x.key == "name").map(|x| &x.value);
            Some(Choice::Tool(rd.req_str(m, "name", path)?))
        }
        other => {
            rd.extra(path, "tool_choice", other, "");
            None
        }
    };
    Ok(())
}

/// A `Response` object.
fn response<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Response<'a>, ConversionError> {
    let m = rd.object(doc, path, "response")?;
    let output = get(m, "output").ok_or_else(|| rd.missing(path, "output"))?;
    let output_path = path.push(Seg::Key("output"));
    let items = rd.array(output, &output_path, "output")?;
    let mut turn = model_turn(rd, items, output, &output_path, None)?;
    let status = rd.opt_str(m, "status", path)?;
    let reason = get(m, "incomplete_details").and_then(|d| d.get("reason")).and_then(Json::as_str);
    turn.finish = match (status, reason) {
        (Some("incomplete"), Some(r @ "max_output_tokens")) => Some((Finish::Length, r)),
        (Some("incomplete"), Some(r @ "content_filter")) => Some((Finish::Filtered, r)),
        (Some(s), _) => Some((Finish::Stop, s)),
        (None, _) => None,
    };
    let usage = |key: &str| match get(m, "usage").and_then(|u| u.get(key)) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    const KNOWN: [&str; 9] = [
        "id",
        "object",
        "created_at",
        "model",
        "status",
        "output",
        "usage",
        "incomplete_details",
        "error",
    ];
    for x in m {
        if !KNOWN.contains(&x.key) {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let created = match get(m, "created_at") {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    Ok(Response {
        turn,
        id: rd.opt_str(m, "id", path)?,
        model: rd.opt_str(m, "model", path)?,
        created,
        input_tokens: usage("input_tokens"),
        output_tokens: usage("output_tokens"),
        raw: *doc,
    })
}
