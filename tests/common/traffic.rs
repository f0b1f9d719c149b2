//! What a traffic comparison reads of a payload in any format's spelling (its calls and
//! results, the "essence"), and which differences between two payloads' essences no report
//! entry names. Shared by the corpus suite and the property test over generated
//! conversations.

use serde_json::Value;
use tooladapter::traffic::TrafficKind;
use tooladapter::{Code, ReportEntry};

/// What the comparison reads of a payload.
#[derive(Debug, Default, PartialEq)]
pub struct Essence {
    pub calls: Vec<CallE>,
    pub results: Vec<ResultE>,
}

#[derive(Debug, PartialEq)]
pub struct CallE {
    pub id: Option<String>,
    pub name: String,
    pub args: Value,
}

#[derive(Debug, PartialEq)]
pub struct ResultE {
    pub id: Option<String>,
    pub text: String,
    pub error: bool,
    pub media: Vec<String>,
}

/// Arguments as parsed JSON: a string is JSON text (`""` the empty object), absent is `{}`.
pub fn args(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(Value::String(s)) if s.trim().is_empty() => Value::Object(Default::default()),
        Some(Value::String(s)) => {
            serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        Some(v) => v.clone(),
    }
}

pub fn id(v: Option<&Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// The text and media of a result's content, in any format's spelling.
pub fn content(v: &Value, text: &mut Vec<String>, media: &mut Vec<String>) {
    match v {
        Value::String(s) => text.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| content(i, text, media)),
        Value::Object(m) => {
            let kind = m.get("type").and_then(Value::as_str);
            if let Some(t) =
                m.get("text").and_then(Value::as_str).filter(|_| !matches!(kind, Some("document")))
            {
                text.push(t.to_owned());
            } else if let Some(j) = m.get("json") {
                text.push(j.to_string());
            } else if let Some(k) = kind {
                media.push(normalize_kind(k).to_owned());
            } else if let Some(k) = m.keys().find(|k| {
                ["image", "document", "video", "inlineData", "fileData", "inline_data", "file_data"]
                    .contains(&k.as_str())
            }) {
                media.push(normalize_kind(k).to_owned());
            }
        }
        _ => {}
    }
}

pub fn normalize_kind(k: &str) -> &str {
    match k {
        "input_image" | "image_url" => "image",
        "input_file" | "file" => "document",
        other => other,
    }
}

/// A Gemini function response's text: its `output` or `error`, else the whole object.
pub fn gemini_response(r: &Value) -> (String, bool) {
    let m = r.as_object();
    let only_output = m.is_some_and(|m| m.len() == 1 && m.contains_key("output"));
    match (r.get("error"), r.get("output")) {
        (Some(e), _) => (e.as_str().map_or_else(|| e.to_string(), str::to_owned), true),
        (None, Some(o)) if only_output => {
            (o.as_str().map_or_else(|| o.to_string(), str::to_owned), false)
        }
        _ => (r.to_string(), false),
    }
}

/// Collects the calls and results of `v`, any format's shape, skipping tool definitions and
/// what a provider runs itself.
pub fn walk(v: &Value, e: &mut Essence, assistant: bool) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| walk(i, e, assistant)),
        Value::Object(m) => {
            let assistant = assistant
                || matches!(m.get("role").and_then(Value::as_str), Some("assistant" | "model"));
            let kind = m.get("type").and_then(Value::as_str);
            // Calls.
            if let (Some(f), Some("function") | None) =
                (m.get("function").and_then(Value::as_object), kind)
                && f.contains_key("name")
                && !f.contains_key("parameters")
            {
                e.calls.push(CallE {
                    id: id(m.get("id")),
                    name: str_of(f.get("name")),
                    args: args(f.get("arguments")),
                });
                return;
            }
            if kind == Some("tool_use") {
                e.calls.push(CallE {
                    id: id(m.get("id")),
                    name: str_of(m.get("name")),
                    args: args(m.get("input")),
                });
                return;
            }
            // (OpenAI's deprecated `function_call` may sit empty beside `tool_calls`.)
            let named =
                |c: &&Value| c.get("name").and_then(Value::as_str).is_some_and(|n| !n.is_empty());
            if let Some(c) = m.get("functionCall").or_else(|| m.get("function_call")).filter(named)
            {
                e.calls.push(CallE {
                    id: id(c.get("id")),
                    name: str_of(c.get("name")),
                    args: args(c.get("args")),
                });
                return;
            }
            if let Some(t) = m
                .get("toolUse")
                .filter(|t| t.get("type").and_then(Value::as_str) != Some("server_tool_use"))
            {
                e.calls.push(CallE {
                    id: id(t.get("toolUseId")),
                    name: str_of(t.get("name")),
                    args: args(t.get("input")),
                });
                return;
            }
            if matches!(kind, Some("function_call" | "custom_tool_call")) {
                let a = match kind {
                    Some("custom_tool_call") => {
                        serde_json::json!({"input": m.get("input").cloned().unwrap_or_default()})
                    }
                    _ => args(m.get("arguments")),
                };
                e.calls.push(CallE {
                    id: id(m.get("call_id")),
                    name: str_of(m.get("name")),
                    args: a,
                });
                return;
            }
            if m.get("method").and_then(Value::as_str) == Some("tools/call") {
                let p = m.get("params").cloned().unwrap_or_default();
                e.calls.push(CallE {
                    id: id(m.get("id")),
                    name: str_of(p.get("name")),
                    args: args(p.get("arguments")),
                });
                return;
            }
            // Results.
            let (mut text, mut media) = (Vec::new(), Vec::new());
            if m.get("role").and_then(Value::as_str) == Some("tool") {
                content(m.get("content").unwrap_or(&Value::Null), &mut text, &mut media);
                e.results.push(ResultE {
                    id: id(m.get("tool_call_id")),
                    text: text.join("\n"),
                    error: false,
                    media,
                });
                return;
            }
            if kind == Some("tool_result") {
                content(m.get("content").unwrap_or(&Value::Null), &mut text, &mut media);
                let error = m.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                e.results.push(ResultE {
                    id: id(m.get("tool_use_id")),
                    text: text.join("\n"),
                    error,
                    media,
                });
                return;
            }
            if let Some(r) = m.get("functionResponse").or_else(|| m.get("function_response")) {
                let (t, error) = r.get("response").map(gemini_response).unwrap_or_default();
                content(r.get("parts").unwrap_or(&Value::Null), &mut text, &mut media);
                let t = if t == "{}" && !media.is_empty() { String::new() } else { t };
                e.results.push(ResultE { id: id(r.get("id")), text: t, error, media });
                return;
            }
            if let Some(r) = m.get("toolResult").filter(|_| !assistant) {
                content(r.get("content").unwrap_or(&Value::Null), &mut text, &mut media);
                let error = r.get("status").and_then(Value::as_str) == Some("error");
                e.results.push(ResultE {
                    id: id(r.get("toolUseId")),
                    text: text.join("\n"),
                    error,
                    media,
                });
                return;
            }
            if matches!(kind, Some("function_call_output" | "custom_tool_call_output")) {
                content(m.get("output").unwrap_or(&Value::Null), &mut text, &mut media);
                e.results.push(ResultE {
                    id: id(m.get("call_id")),
                    text: text.join("\n"),
                    error: false,
                    media,
                });
                return;
            }
            for (k, child) in m {
                if !matches!(k.as_str(), "tools" | "toolConfig" | "tool_choice") {
                    walk(child, e, assistant);
                }
            }
        }
        _ => {}
    }
}

pub fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// An MCP payload's results: the JSON-RPC answers, bare results and content blocks.
pub fn mcp_results(v: &Value, e: &mut Essence) {
    let items = match v {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    for item in items {
        let (mut text, mut media) = (Vec::new(), Vec::new());
        let rid = id(item.get("id"));
        if let Some(err) = item.get("error").or_else(|| item.get("code").and(Some(&item))) {
            e.results.push(ResultE {
                id: rid,
                text: str_of(err.get("message")),
                error: true,
                media,
            });
            continue;
        }
        if item.get("type").is_some() {
            content(&item, &mut text, &mut media);
            e.results.push(ResultE { id: rid, text: text.join("\n"), error: false, media });
            continue;
        }
        let r = item.get("result").cloned().unwrap_or(item.clone());
        content(r.get("content").unwrap_or(&Value::Null), &mut text, &mut media);
        if text.is_empty()
            && let Some(s) = r.get("structuredContent")
        {
            text.push(s.to_string());
        }
        let error = r.get("isError").and_then(Value::as_bool).unwrap_or(false);
        e.results.push(ResultE { id: rid, text: text.join("\n"), error, media });
    }
}

pub fn essence(format: &str, kind: TrafficKind, v: &Value) -> Essence {
    let mut e = Essence::default();
    match (format, kind) {
        ("mcp", TrafficKind::Results) => mcp_results(v, &mut e),
        ("mcp", TrafficKind::Calls) => {
            walk(v, &mut e, true);
            // The params alone.
            if e.calls.is_empty() && v.get("name").is_some() {
                e.calls.push(CallE {
                    id: None,
                    name: str_of(v.get("name")),
                    args: args(v.get("arguments")),
                });
            }
        }
        _ => walk(v, &mut e, false),
    }
    e
}

/// Whether one of `entries` has one of `codes`.
pub fn said(entries: &[ReportEntry], codes: &[Code]) -> bool {
    entries.iter().any(|e| codes.contains(&e.code))
}

/// The differences between a payload's essence and its round trip's that no entry names.
pub fn unexplained(a: &Essence, b: &Essence, entries: &[ReportEntry]) -> Vec<String> {
    let mut out = Vec::new();
    if a.calls.len() != b.calls.len() {
        out.push(format!("{} calls became {}", a.calls.len(), b.calls.len()));
    }
    for (x, y) in a.calls.iter().zip(&b.calls) {
        if x.name != y.name && !said(entries, &[Code::CallMapped]) {
            out.push(format!("call name {} became {}", x.name, y.name));
        }
        if x.args != y.args && !said(entries, &[Code::ContentRewritten, Code::CallMapped]) {
            out.push(format!("call {} arguments {} became {}", x.name, x.args, y.args));
        }
        if x.id != y.id && !said(entries, &[Code::IdAdded, Code::IdRewritten]) {
            out.push(format!("call id {:?} became {:?}", x.id, y.id));
        }
    }
    if a.results.len() != b.results.len() {
        out.push(format!("{} results became {}", a.results.len(), b.results.len()));
    }
    for (x, y) in a.results.iter().zip(&b.results) {
        if x.id != y.id && !said(entries, &[Code::IdAdded, Code::IdRewritten]) {
            out.push(format!("result id {:?} became {:?}", x.id, y.id));
        }
        if x.error != y.error && !said(entries, &[Code::ErrorNotFlagged]) {
            out.push(format!("result {:?} error flag {} became {}", x.id, x.error, y.error));
        }
        let rewritten = &[Code::ContentRewritten, Code::ContentDropped];
        if x.text != y.text && !said(entries, rewritten) {
            out.push(format!("result {:?} text {:?} became {:?}", x.id, x.text, y.text));
        }
        if x.media != y.media && !said(entries, rewritten) {
            out.push(format!("result {:?} media {:?} became {:?}", x.id, x.media, y.media));
        }
    }
    // Pairing: a result that answered a call of the payload still does.
    let paired = |e: &Essence| -> Vec<bool> {
        e.results.iter().map(|r| r.id.is_some() && e.calls.iter().any(|c| c.id == r.id)).collect()
    };
    if paired(a).iter().zip(paired(b)).any(|(p, q)| *p && !q)
        && !said(entries, &[Code::IdAdded, Code::IdRewritten])
    {
        out.push("a result no longer pairs with its call".to_owned());
    }
    out
}

/// The entries whose pointer names no place in `input`.
pub fn misplaced(entries: &[ReportEntry], input: &Value) -> Vec<String> {
    entries
        .iter()
        .filter(|e| !e.pointer.is_empty() && input.pointer(&e.pointer).is_none())
        .map(|e| format!("{}: {}", e.pointer, e.message))
        .collect()
}
