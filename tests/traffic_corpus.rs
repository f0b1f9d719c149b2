//! Tool traffic over the corpus's recorded payloads (`tool-traffic/`, read in place from
//! `TOOLADAPTER_CORPUS`): every calls, results, request and response payload of every format
//! that speaks traffic (the list comes from `formats::builtins()`) is read, written back by its
//! own format (the same JSON value, key order kept; byte for byte where no escape the writer
//! does not write is in it), and converted to every other format and back. Across the round
//! trip the calls (names, arguments as parsed JSON, ids), the results (ids, text, error flag,
//! media blocks) and the pairing of results with calls are equal, or a report entry of the
//! trip names the difference. Every entry's pointer names a place in its input.
#![cfg(feature = "corpus")]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;
use tooladapter::traffic::TrafficKind;
use tooladapter::{Adapter, Code, Converter, ReportEntry, TrafficOptions};

/// The corpus folder of a format's payloads.
fn folder(format: &str) -> &str {
    match format {
        "openai" => "openai-chat",
        other => other,
    }
}

const KINDS: [(&str, TrafficKind); 4] = [
    ("calls", TrafficKind::Calls),
    ("results", TrafficKind::Results),
    ("requests", TrafficKind::Messages),
    ("responses", TrafficKind::Response),
];

/// Payloads the corpus keeps because they are invalid (an SDK's rejection fixtures): reading
/// them is an error at the bad place.
const INVALID: [(&str, &str); 2] = [
    ("mcp-typescript-sdk--ts-sdk--fixtures--rejection--invalid-spec-params.json", "/params/name"),
    ("mcp-go-sdk--go-sdk--tools--client-L35.json", ""),
];

fn traffic_formats() -> Vec<&'static dyn Adapter> {
    tooladapter::formats::builtins().iter().copied().filter(|a| a.traffic().is_some()).collect()
}

fn has_kind(a: &'static dyn Adapter, kind: TrafficKind) -> bool {
    a.traffic().is_some_and(|t| t.rules().kinds.contains(&kind))
}

/// Every payload file of a format and kind, in name order.
fn payloads(format: &str, dir: &str) -> Vec<PathBuf> {
    let path = common::corpus().join("tool-traffic").join(folder(format)).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files
        .retain(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("_provenance.json"));
    files.sort();
    files
}

/// What the comparison reads of a payload.
#[derive(Debug, Default, PartialEq)]
struct Essence {
    calls: Vec<CallE>,
    results: Vec<ResultE>,
}

#[derive(Debug, PartialEq)]
struct CallE {
    id: Option<String>,
    name: String,
    args: Value,
}

#[derive(Debug, PartialEq)]
struct ResultE {
    id: Option<String>,
    text: String,
    error: bool,
    media: Vec<String>,
}

/// Arguments as parsed JSON: a string is JSON text (`""` the empty object), absent is `{}`.
fn args(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(Value::String(s)) if s.trim().is_empty() => Value::Object(Default::default()),
        Some(Value::String(s)) => {
            serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        Some(v) => v.clone(),
    }
}

fn id(v: Option<&Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// The text and media of a result's content, in any format's spelling.
fn content(v: &Value, text: &mut Vec<String>, media: &mut Vec<String>) {
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

fn normalize_kind(k: &str) -> &str {
    match k {
        "input_image" | "image_url" => "image",
        "input_file" | "file" => "document",
        other => other,
    }
}

/// A Gemini function response's text: its `output` or `error`, else the whole object.
fn gemini_response(r: &Value) -> (String, bool) {
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
fn walk(v: &Value, e: &mut Essence, assistant: bool) {
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

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// An MCP payload's results: the JSON-RPC answers, bare results and content blocks.
fn mcp_results(v: &Value, e: &mut Essence) {
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

fn essence(format: &str, kind: TrafficKind, v: &Value) -> Essence {
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
fn said(entries: &[ReportEntry], codes: &[Code]) -> bool {
    entries.iter().any(|e| codes.contains(&e.code))
}

/// The differences between a payload's essence and its round trip's that no entry names.
fn unexplained(a: &Essence, b: &Essence, entries: &[ReportEntry]) -> Vec<String> {
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
fn misplaced(entries: &[ReportEntry], input: &Value) -> Vec<String> {
    entries
        .iter()
        .filter(|e| !e.pointer.is_empty() && input.pointer(&e.pointer).is_none())
        .map(|e| format!("{}: {}", e.pointer, e.message))
        .collect()
}

#[test]
fn every_recorded_payload_converts_to_every_format_and_back() {
    let formats = traffic_formats();
    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
    assert!(names.len() >= 6, "traffic formats: {names:?}");
    let mut c = Converter::new();
    let mut failures: Vec<String> = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let (mut read, mut trips, mut identical, mut same_value) = (0, 0, 0, 0);
    for from in &formats {
        for (dir, kind) in KINDS {
            for path in payloads(from.name(), dir) {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
                let label = format!("{}/{dir}/{name}", from.name());
                let bytes = std::fs::read(&path).expect("reads");
                let input: Value = serde_json::from_slice(&bytes).expect("the corpus is JSON");
                let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
                // Written back by its own format: the same value; pretty, the same bytes unless
                // an escape the writer does not write was normalized.
                let pretty = TrafficOptions {
                    options: tooladapter::Options::default().pretty(true),
                    ..options.clone()
                };
                match c.convert_traffic(&bytes, *from, *from, &pretty) {
                    Err(e) => {
                        match INVALID.iter().find(|(n, _)| *n == name) {
                            Some((_, pointer)) if e.pointer() == *pointer => {}
                            _ => failures.push(format!("{label}: {e}")),
                        }
                        continue;
                    }
                    Ok(out) => {
                        read += 1;
                        let text = std::str::from_utf8(&bytes).unwrap_or_default().trim_end();
                        identical += usize::from(out.output_str() == text);
                        let value: Value = serde_json::from_slice(out.output()).expect("JSON out");
                        if common::same(&value, &input) {
                            same_value += 1;
                        } else {
                            failures.push(format!("{label}: written back as another value"));
                        }
                        if !out.report().is_empty() {
                            failures.push(format!(
                                "{label}: the same format reported {:?}",
                                out.report().entries()
                            ));
                        }
                    }
                }
                // Detected without being told the kind.
                let detected = c
                    .convert_traffic(&bytes, *from, *from, &TrafficOptions::default())
                    .map(|o| o.kind());
                if detected.as_ref().ok() != Some(&Some(kind)) {
                    failures.push(format!("{label}: detected as {detected:?}"));
                }
                let own = essence(from.name(), kind, &input);
                for to in formats
                    .iter()
                    .copied()
                    .filter(|t| t.name() != from.name() && has_kind(*t, kind))
                {
                    let there = match c.convert_traffic(&bytes, *from, to, &options) {
                        Ok(out) => out.clone(),
                        Err(e)
                            if kind == TrafficKind::Results
                                && e.to_string().contains("names the tool each result answers") =>
                        {
                            *counts
                                .entry(format!(
                                    "results to {} refused without tool names",
                                    to.name()
                                ))
                                .or_default() += 1;
                            continue;
                        }
                        Err(e) => {
                            failures.push(format!("{label} -> {}: {e}", to.name()));
                            continue;
                        }
                    };
                    let misplaced_there = misplaced(there.report().entries(), &input);
                    if !misplaced_there.is_empty() {
                        failures.push(format!(
                            "{label} -> {}: entries without a place: {misplaced_there:?}",
                            to.name()
                        ));
                    }
                    // Back with the ids the way there wrote, as a gateway keeps them: ids
                    // rewritten or made are given back, results named.
                    let ids = there.ids().clone();
                    let back_options = TrafficOptions { ids: Some(&ids), ..options.clone() };
                    let back = match c.convert_traffic(there.output(), to, *from, &back_options) {
                        Ok(out) => out.clone(),
                        Err(e) => {
                            failures.push(format!("{label} -> {} -> back: {e}", to.name()));
                            continue;
                        }
                    };
                    trips += 1;
                    let back_value: Value =
                        serde_json::from_slice(back.output()).expect("JSON out");
                    let round = essence(from.name(), kind, &back_value);
                    let mut entries = there.report().entries().to_vec();
                    entries.extend(back.report().entries().iter().cloned());
                    for e in &entries {
                        *counts.entry(format!("{} {}", e.code, e.feature)).or_default() += 1;
                    }
                    let diff = unexplained(&own, &round, &entries);
                    if !diff.is_empty() {
                        failures.push(format!("{label} -> {} -> back: {diff:?}", to.name()));
                    }
                }
            }
        }
    }
    println!(
        "{read} payloads read, {same_value} written back as the same value ({identical} byte for byte), {trips} round trips"
    );
    for (what, n) in &counts {
        println!("{n:6}  {what}");
    }
    assert!(read >= 660, "{read} payloads read");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
