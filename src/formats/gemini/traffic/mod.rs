//! Gemini traffic: a `Content`'s `functionCall` and `functionResponse` parts, a request's
//! `contents`, `systemInstruction` and `toolConfig.functionCallingConfig`, and the
//! `GenerateContentResponse`. The proto field names (`function_call`, `thought_signature`,
//! `inline_data`, …, as Vertex recordings spell them) are read too; the JSON names are
//! written.
//!
//! A `thoughtSignature` beside a `functionCall` is the call's signature; a text part with
//! `thought: true` is reasoning. A function response's `response` object is its content: its
//! `output` member (or, with an `error` member, the error, flagging the result as failed), else
//! the whole object as JSON, as the API reads it; its multimodal `parts` are media blocks.

mod write;

use crate::error::ConversionError;
use crate::ir::traffic::{
    Args, Assistant, Block, Call, Choice, Content, Conversation, Finish, Media, Message, Nodes,
    Part, Payload, Reasoning, Response, Results, Source, ToolChoice, ToolResult, Turn,
};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::traffic::{List, Out, Reader, TrafficFormat, TrafficKind, TrafficRules, get};

use super::rules;

/// Gemini traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct GeminiTraffic;

/// [`GeminiTraffic`], as [`super::Gemini`] hands it out.
pub(crate) static TRAFFIC: GeminiTraffic = GeminiTraffic;

/// Member `camel` (its JSON name) or `snake` (its proto name) of `m`, with the key found.
fn field<'m, 'a>(m: &'m [Member<'a>], camel: &str, snake: &str) -> Option<(&'m Json<'a>, &'a str)> {
    m.iter().find(|x| x.key == camel || x.key == snake).map(|x| (&x.value, x.key))
}

fn has(v: &Json<'_>, camel: &str, snake: &str) -> bool {
    matches!(v, Json::Object(m) if field(m, camel, snake).is_some())
}

impl TrafficFormat for GeminiTraffic {
    fn rules(&self) -> &'static TrafficRules {
        &rules::TRAFFIC
    }

    fn detect(&self, doc: &Json<'_>) -> Option<TrafficKind> {
        let Json::Object(m) = doc else { return None };
        if get(m, "candidates").is_some() {
            return Some(TrafficKind::Response);
        }
        if get(m, "contents").is_some() {
            return Some(TrafficKind::Messages);
        }
        let parts = get(m, "parts").and_then(|p| match p {
            Json::Array(items) => Some(*items),
            _ => None,
        })?;
        if parts.iter().any(|p| has(p, "functionResponse", "function_response")) {
            Some(TrafficKind::Results)
        } else if parts.iter().any(|p| has(p, "functionCall", "function_call")) {
            Some(TrafficKind::Calls)
        } else {
            None
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
                rd.role(doc, &root, &["model"], "a model content")?;
                Payload::Calls(model(rd, doc, &root)?)
            }
            TrafficKind::Results => match user(rd, doc, &root)? {
                Turn::Results(r) => Payload::Results(r),
                _ => return Err(rd.shape(&root, "a content without functionResponse parts")),
            },
            TrafficKind::Messages => Payload::Messages(conversation(rd, doc, &root)?),
            TrafficKind::Response => Payload::Response(response(rd, doc, &root)?),
        })
    }

    fn write(&self, payload: &Payload<'_>, out: &mut Out<'_, '_>) {
        match payload {
            Payload::Calls(a) => write::model(out, a),
            Payload::Results(r) => write::results(out, r),
            Payload::Messages(c) => write::conversation(out, c),
            Payload::Response(r) => write::response(out, r),
        }
    }
}

/// A content's `parts`.
fn parts<'a>(
    rd: &Reader<'a, '_>,
    m: &'a [Member<'a>],
    path: &Path<'_>,
) -> Result<&'a [Json<'a>], ConversionError> {
    match get(m, "parts") {
        None | Some(Json::Null) => Ok(&[]),
        Some(v) => rd.array(v, &path.push(Seg::Key("parts")), "parts"),
    }
}

/// A model content (calls, text, thoughts).
fn model<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Assistant<'a>, ConversionError> {
    let m = rd.object(doc, path, "content")?;
    let items = parts(rd, m, path)?;
    let parts_path = path.push(Seg::Key("parts"));
    let mut out = rd.list(items.len(), path)?;
    for (i, v) in items.iter().enumerate() {
        let at = parts_path.push(Seg::Index(i));
        let p = rd.object(v, &at, "part")?;
        let signature =
            field(p, "thoughtSignature", "thought_signature").and_then(|(s, _)| s.as_str());
        if let Some((call, key)) = field(p, "functionCall", "function_call") {
            out.push(Part::Call(function_call(rd, v, call, &at.push(Seg::Key(key)), signature)?));
            continue;
        }
        let thought = matches!(get(p, "thought"), Some(Json::Bool(true)));
        match get(p, "text") {
            Some(Json::String(t)) if thought => {
                let (pointer, n) = (rd.pointer(&at), rd.at());
                out.push(Part::Reasoning(Reasoning {
                    text: Some(t),
                    signature,
                    redacted: None,
                    raw: *v,
                    pointer,
                    at: n,
                }));
            }
            Some(Json::String(t)) => {
                for x in p {
                    if !matches!(x.key, "text" | "thought") {
                        rd.extra(&at.push(Seg::Key(x.key)), x.key, &x.value, "");
                    }
                }
                let (pointer, n) = (rd.pointer(&at), rd.at());
                out.push(Part::Text(Content { block: Block::Text(t), raw: *v, pointer, at: n }));
            }
            _ => {
                let kind = p.first().map_or("part", |x| x.key);
                let (pointer, n) = (rd.pointer(&at), rd.at());
                out.push(Part::Other(Content {
                    block: Block::Other(kind),
                    raw: *v,
                    pointer,
                    at: n,
                }));
            }
        }
    }
    for x in m {
        if !matches!(x.key, "role" | "parts") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Assistant { parts: out.done(), finish: None, raw: *doc, pointer, at })
}

/// A `functionCall` (`call`, at `path`) of the part `part`.
fn function_call<'a>(
    rd: &mut Reader<'a, '_>,
    part: &'a Json<'a>,
    call: &'a Json<'a>,
    path: &Path<'_>,
    signature: Option<&'a str>,
) -> Result<Call<'a>, ConversionError> {
    let m = rd.object(call, path, "functionCall")?;
    let name = rd.req_str(m, "name", path)?;
    let id = rd.opt_str(m, "id", path)?;
    let node = |key: &str| m.iter().find(|x| x.key == key).map(|x| &x.value);
    let arguments = match node("args") {
        None | Some(Json::Null) => Args::Absent,
        Some(v) => Args::Value(*v),
    };
    for x in m {
        if !matches!(x.key, "name" | "id" | "args") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name);
        }
    }
    let nodes = Nodes { id: node("id"), name: node("name"), args: node("args") };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(Call { id, name, arguments, custom: false, signature, raw: *part, nodes, pointer, at })
}

/// A media part: `inlineData` or `fileData`.
fn media<'a>(p: &'a [Member<'a>]) -> Option<Block<'a>> {
    let (data, uri) =
        match (field(p, "inlineData", "inline_data"), field(p, "fileData", "file_data")) {
            (Some((Json::Object(d), _)), _) => (Some(*d), None),
            (_, Some((Json::Object(f), _))) => (None, Some(*f)),
            _ => return None,
        };
    let o = data.or(uri).unwrap_or_default();
    let media_type = field(o, "mimeType", "mime_type").and_then(|(v, _)| v.as_str());
    let source = match (data, uri) {
        (Some(d), _) => Source::Base64(get(d, "data").and_then(Json::as_str).unwrap_or_default()),
        (_, Some(f)) => {
            let u =
                field(f, "fileUri", "file_uri").and_then(|(v, _)| v.as_str()).unwrap_or_default();
            if u.starts_with("http://") || u.starts_with("https://") {
                Source::Url(u)
            } else {
                Source::Uri(u)
            }
        }
        _ => return None,
    };
    let media = Media { source, media_type, name: get(o, "displayName").and_then(Json::as_str) };
    Some(match media_type.unwrap_or_default().split('/').next() {
        Some("image") => Block::Image(media),
        Some("audio") => Block::Audio(media),
        Some("video") => Block::Video(media),
        _ => Block::Document(media),
    })
}

/// A part that is not a call or a response: text or media.
fn block<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Content<'a>, ConversionError> {
    let p = rd.object(v, path, "part")?;
    let (pointer, at) = (rd.pointer(path), rd.at());
    let block = match (get(p, "text"), media(p)) {
        (Some(Json::String(t)), _) => Block::Text(t),
        (_, Some(b)) => b,
        _ => Block::Other(p.first().map_or("part", |x| x.key)),
    };
    Ok(Content { block, raw: *v, pointer, at })
}

/// A `functionResponse` (`fr`, at `path`) of the part `part`.
fn function_response<'a>(
    rd: &mut Reader<'a, '_>,
    part: &'a Json<'a>,
    fr: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolResult<'a>, ConversionError> {
    let m = rd.object(fr, path, "functionResponse")?;
    let name = rd.opt_str(m, "name", path)?;
    let call_id = rd.opt_str(m, "id", path)?;
    let response_path = path.push(Seg::Key("response"));
    let response = get(m, "response");
    let media_parts: &[Json<'a>] = match get(m, "parts") {
        Some(v) => rd.array(v, &path.push(Seg::Key("parts")), "parts")?,
        None => &[],
    };
    let mut content: List<'a, Content<'a>> = rd.list(1 + media_parts.len(), path)?;
    let mut error = false;
    if let Some(r) = response {
        let members = rd.object(r, &response_path, "response")?;
        let only = |key: &str| members.len() == 1 && get(members, key).is_some();
        let (value, at) = match (get(members, "error"), only("output")) {
            (Some(e), _) => {
                error = true;
                (e, response_path.push(Seg::Key("error")))
            }
            (None, true) => {
                (get(members, "output").unwrap_or(r), response_path.push(Seg::Key("output")))
            }
            (None, false) => (r, response_path),
        };
        let (pointer, n) = (rd.pointer(&at), rd.at());
        let block = match value {
            Json::String(s) => Block::Text(s),
            other => Block::Json(*other),
        };
        if !members.is_empty() || media_parts.is_empty() {
            content.push(Content { block, raw: *value, pointer, at: n });
        }
    }
    let parts_path = path.push(Seg::Key("parts"));
    for (i, v) in media_parts.iter().enumerate() {
        content.push(block(rd, v, &parts_path.push(Seg::Index(i)))?);
    }
    for x in m {
        if !matches!(x.key, "name" | "id" | "response" | "parts") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, name.unwrap_or_default());
        }
    }
    let node = |key: &str| m.iter().find(|x| x.key == key).map(|x| &x.value);
    let nodes = Nodes { id: node("id"), name: node("name"), args: None };
    let (pointer, at) = (rd.pointer(path), rd.at());
    Ok(ToolResult {
        call_id,
        name,
        content: content.done(),
        structured: None,
        error,
        error_code: None,
        raw: *part,
        nodes,
        pointer,
        at,
    })
}

/// A user content: results when it holds `functionResponse` parts (its other parts sent
/// with them), else what the user said.
fn user<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Turn<'a>, ConversionError> {
    let m = rd.object(doc, path, "content")?;
    let items = parts(rd, m, path)?;
    let parts_path = path.push(Seg::Key("parts"));
    let n = items.iter().filter(|p| has(p, "functionResponse", "function_response")).count();
    let mut results = rd.list(n, path)?;
    let mut other = rd.list(items.len() - n, path)?;
    for (i, v) in items.iter().enumerate() {
        let at = parts_path.push(Seg::Index(i));
        match v {
            Json::Object(p) => match field(p, "functionResponse", "function_response") {
                Some((fr, key)) => {
                    results.push(function_response(rd, v, fr, &at.push(Seg::Key(key)))?)
                }
                None => other.push(block(rd, v, &at)?),
            },
            other => return Err(rd.wrong(&at, "part", "an object", other)),
        }
    }
    for x in m {
        if !matches!(x.key, "role" | "parts") {
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

/// A `generateContent` request.
fn conversation<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Conversation<'a>, ConversionError> {
    let m = rd.object(doc, path, "request")?;
    let contents = get(m, "contents").ok_or_else(|| rd.missing(path, "contents"))?;
    let list_path = path.push(Seg::Key("contents"));
    let contents = rd.array(contents, &list_path, "contents")?;
    let mut turns = rd.list(contents.len(), &list_path)?;
    for (i, v) in contents.iter().enumerate() {
        let at = list_path.push(Seg::Index(i));
        let role = v.get("role").and_then(Json::as_str).unwrap_or("user");
        turns.push(match role {
            "model" => Turn::Assistant(model(rd, v, &at)?),
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
            "contents" => {}
            "tools" => c.tools = Some(x.value).filter(|t| !matches!(t, Json::Null)),
            "systemInstruction" | "system_instruction" => {
                let sm = rd.object(&x.value, &at, "systemInstruction")?;
                let items = parts(rd, sm, &at)?;
                let mut out = rd.list(items.len(), &at)?;
                for (i, v) in items.iter().enumerate() {
                    out.push(block(rd, v, &at.push(Seg::Key("parts")).push(Seg::Index(i)))?);
                }
                c.system = out.done();
            }
            "toolConfig" | "tool_config" => c.choice = tool_config(rd, &x.value, &at)?,
            _ => rd.extra(&at, x.key, &x.value, ""),
        }
    }
    Ok(c)
}

/// `toolConfig.functionCallingConfig`: mode `AUTO`, `ANY` (one allowed name: that tool),
/// `NONE`, `VALIDATED`.
fn tool_config<'a>(
    rd: &mut Reader<'a, '_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<ToolChoice<'a>, ConversionError> {
    let m = rd.object(v, path, "toolConfig")?;
    let mut out = ToolChoice { pointer: rd.pointer(path), at: rd.at(), ..ToolChoice::default() };
    for x in m {
        let at = path.push(Seg::Key(x.key));
        if !matches!(x.key, "functionCallingConfig" | "function_calling_config") {
            rd.extra(&at, x.key, &x.value, "");
            continue;
        }
        let f = rd.object(&x.value, &at, x.key)?;
        let names = match field(f, "allowedFunctionNames", "allowed_function_names") {
            Some((Json::Array(n), _)) => *n,
            _ => &[],
        };
        out.choice = match get(f, "mode").and_then(Json::as_str) {
            Some("ANY") => match names {
                [one] => {
                    out.name_node = Some(one);
                    one.as_str().map(Choice::Tool)
                }
                _ => Some(Choice::Required),
            },
            Some("NONE") => Some(Choice::None),
            Some("AUTO" | "VALIDATED") => Some(Choice::Auto),
            _ => None,
        };
    }
    Ok(out)
}

/// A `GenerateContentResponse`: its first candidate.
fn response<'a>(
    rd: &mut Reader<'a, '_>,
    doc: &'a Json<'a>,
    path: &Path<'_>,
) -> Result<Response<'a>, ConversionError> {
    let m = rd.object(doc, path, "response")?;
    let list_path = path.push(Seg::Key("candidates"));
    let candidates = get(m, "candidates").ok_or_else(|| rd.missing(path, "candidates"))?;
    let candidates = rd.array(candidates, &list_path, "candidates")?;
    let first =
        candidates.first().ok_or_else(|| rd.shape(&list_path, "a response without candidates"))?;
    let first_path = list_path.push(Seg::Index(0));
    let c = rd.object(first, &first_path, "candidate")?;
    let content = get(c, "content").ok_or_else(|| rd.missing(&first_path, "content"))?;
    let mut turn = model(rd, content, &first_path.push(Seg::Key("content")))?;
    if let Some(reason) = rd.opt_str(c, "finishReason", &first_path)? {
        turn.finish = Some((finish(reason), reason));
    }
    for x in c {
        if !matches!(x.key, "content" | "finishReason" | "index") {
            rd.extra(&first_path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    let usage = |key: &str| match get(m, "usageMetadata").and_then(|u| u.get(key)) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    };
    for x in m {
        if !matches!(x.key, "candidates" | "usageMetadata" | "modelVersion" | "responseId") {
            rd.extra(&path.push(Seg::Key(x.key)), x.key, &x.value, "");
        }
    }
    Ok(Response {
        turn,
        id: rd.opt_str(m, "responseId", path)?,
        model: rd.opt_str(m, "modelVersion", path)?,
        created: None,
        input_tokens: usage("promptTokenCount"),
        output_tokens: usage("candidatesTokenCount"),
        raw: *doc,
    })
}

/// A `finishReason`. Gemini says `STOP` for a turn with calls too.
fn finish(reason: &str) -> Finish {
    match reason {
        "STOP" => Finish::Stop,
        "MAX_TOKENS" => Finish::Length,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" => Finish::Filtered,
        _ => Finish::Other,
    }
}
