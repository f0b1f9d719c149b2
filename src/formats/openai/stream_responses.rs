//! OpenAI Responses streams: named SSE events, each with a `type` and a `sequence_number`. A
//! call is an output item: `response.output_item.added` opens it (`function_call` with `id`,
//! `call_id`, `name`, `arguments: ""`), `response.function_call_arguments.delta` carries
//! fragments (`item_id`, `output_index`), `.done` the whole arguments, and
//! `response.output_item.done` ends it; `response.completed` (or `.incomplete`, `.failed`)
//! ends the stream, repeating every output item whole. There is no `[DONE]`.

use crate::emit::Writer;
use crate::ir::traffic::Finish;
use crate::ir::{Json, Member};
use crate::stream::{
    Event, EventRule, Framing, Key, Role, Sink, StreamFormat, StreamGrammar, StreamReader,
    StreamWriter, Wire, as_number, as_object, as_str, as_u64, number_member,
};
use crate::traffic::get;

/// The grammar (sources read 2026-11-28).
pub static GRAMMAR: StreamGrammar = StreamGrammar {
    framing: Framing::SseNamed,
    events: &[
        EventRule {
            name: "response.created",
            role: Role::Start,
            note: "`response.id`, `model`, `created_at`; `response.in_progress` follows",
        },
        EventRule {
            name: "response.output_item.added",
            role: Role::CallStart,
            note: "item `function_call` (`id`, `call_id`, `name`, `arguments: \"\"`); a `message` item opens text",
        },
        EventRule {
            name: "response.output_text.delta",
            role: Role::Text,
            note: "`delta`, in a `message` item's `output_text` part (`content_part.added` before)",
        },
        EventRule {
            name: "response.function_call_arguments.delta",
            role: Role::CallDelta,
            note: "`item_id`, `output_index`, `delta`",
        },
        EventRule {
            name: "response.function_call_arguments.done",
            role: Role::CallDelta,
            note: "the whole `arguments` (read only when no delta came)",
        },
        EventRule {
            name: "response.output_item.done",
            role: Role::CallEnd,
            note: "the item whole",
        },
        EventRule {
            name: "response.completed",
            role: Role::Finish,
            note: "the whole response (`status`, `output`, `usage.input_tokens`/`output_tokens`); `response.incomplete` with `incomplete_details.reason`, `response.failed`",
        },
        EventRule {
            name: "response.completed",
            role: Role::Terminal,
            note: "the last event (no `[DONE]`)",
        },
        EventRule {
            name: "response.reasoning_text.delta",
            role: Role::Other,
            note: "reasoning; server-side items (`mcp_call`, `tool_search_call`, …) and `custom_tool_call` free text have no counterpart",
        },
    ],
    indices: "`output_index` counts the response's output items from 0 (reasoning and messages included); `item_id` names the item",
    sentinel: None,
    whole_calls: false,
    keeps_output: true,
    finish: &[(Finish::Length, "max_output_tokens"), (Finish::Filtered, "content_filter")],
    sources: &[
        "OpenAI API reference, 'Streaming events' of Responses (response.created, response.output_item.added/.done, response.function_call_arguments.delta/.done with item_id and output_index, response.completed/.incomplete/.failed; sequence_number on every event), platform.openai.com/docs/api-reference/responses-streaming, read 2026-11-28",
        "openai-python src/openai/lib/streaming/responses/_responses.py (ResponseStreamState: the final response is response.completed's), read 2026-11-28",
    ],
};

/// Responses streams, as [`super::OpenAiResponses`] hands them out.
pub(crate) static STREAM: ResponsesStream = ResponsesStream;

/// Responses streams.
pub struct ResponsesStream;

impl StreamFormat for ResponsesStream {
    fn grammar(&self) -> &'static StreamGrammar {
        &GRAMMAR
    }
    fn reader(&self) -> Box<dyn StreamReader> {
        Box::new(ResponsesReader)
    }
    fn writer(&self) -> Box<dyn StreamWriter> {
        Box::new(ResponsesWriter::default())
    }
}

struct ResponsesReader;

fn key_of<'k>(ev: &[Member<'k>]) -> Key<'k> {
    Key { index: as_u64(get(ev, "output_index")), id: as_str(get(ev, "item_id")) }
}

impl StreamReader for ResponsesReader {
    fn read(
        &mut self,
        name: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let Json::Object(ev) = data else { return Err("an event is a JSON object") };
        let kind = as_str(get(ev, "type")).or(name).unwrap_or_default();
        match kind {
            "response.created" | "response.in_progress" => {
                let r = as_object(get(ev, "response")).unwrap_or_default();
                let fresh = kind == "response.created";
                sink.message(
                    as_str(get(r, "id")),
                    as_str(get(r, "model")),
                    as_number(get(r, "created_at")),
                    fresh,
                );
            }
            "response.output_item.added" | "response.output_item.done" => {
                let item = as_object(get(ev, "item")).unwrap_or_default();
                let index = as_u64(get(ev, "output_index"));
                let key = Key { index, id: as_str(get(item, "id")) };
                match as_str(get(item, "type")).unwrap_or_default() {
                    "function_call" if kind.ends_with("added") => {
                        let id = as_str(get(item, "call_id")).or(key.id);
                        sink.call_start(
                            key,
                            id,
                            as_str(get(item, "name")).unwrap_or_default(),
                            None,
                        );
                        sink.call_args(
                            key,
                            None,
                            as_str(get(item, "arguments")).unwrap_or_default(),
                        );
                    }
                    "function_call" => {
                        sink.call_whole(key, as_str(get(item, "arguments")).unwrap_or_default());
                        sink.call_end(key);
                    }
                    "message" | "reasoning" => {}
                    other if kind.ends_with("added") => sink.other(other),
                    _ => {}
                }
            }
            "response.output_text.delta" => sink.text(as_str(get(ev, "delta")).unwrap_or_default()),
            "response.reasoning_text.delta" | "response.reasoning_summary_text.delta" => {
                sink.reasoning(as_str(get(ev, "delta")).unwrap_or_default());
            }
            "response.function_call_arguments.delta" => {
                sink.call_args(key_of(ev), None, as_str(get(ev, "delta")).unwrap_or_default());
            }
            "response.function_call_arguments.done" => {
                sink.call_whole(key_of(ev), as_str(get(ev, "arguments")).unwrap_or_default());
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let r = as_object(get(ev, "response")).unwrap_or_default();
                if let Some(u) = as_object(get(r, "usage")) {
                    sink.usage(
                        as_number(get(u, "input_tokens")),
                        as_number(get(u, "output_tokens")),
                    );
                }
                let reason =
                    as_object(get(r, "incomplete_details")).and_then(|d| as_str(get(d, "reason")));
                match (kind, reason) {
                    ("response.incomplete", Some(reason)) => {
                        let f = GRAMMAR
                            .finish
                            .iter()
                            .find(|(_, n)| *n == reason)
                            .map_or(Finish::Other, |(f, _)| *f);
                        sink.finish(f, reason);
                    }
                    ("response.failed", _) => sink.finish(Finish::Other, "failed"),
                    _ => sink.finish(Finish::Stop, "completed"),
                }
                sink.done();
            }
            "error" => sink.other("error"),
            _ => {}
        }
        Ok(())
    }
}

/// An output item kept for the terminal event.
#[derive(Default)]
struct Item {
    message: bool,
    id: String,
    call_id: String,
    name: String,
    text: String,
}

#[derive(Default)]
struct ResponsesWriter {
    id: String,
    model: String,
    created: String,
    seq: u64,
    items: Vec<Item>,
    /// The open message item, if any (its place in `items`).
    text: Option<usize>,
    /// Open calls: (call number, place in `items`).
    calls: Vec<(u32, usize)>,
}

impl ResponsesWriter {
    fn event(
        &mut self,
        wire: &mut Wire<'_>,
        name: &'static str,
        body: impl FnOnce(&mut Writer<'_>),
    ) {
        let seq = self.seq;
        self.seq += 1;
        wire.event(name, |w| {
            w.key_plain("type");
            w.string(name);
            w.key_plain("sequence_number");
            w.raw(&seq.to_string());
            body(w);
        });
    }

    fn response(
        &self,
        w: &mut Writer<'_>,
        status: &'static str,
        reason: Option<&'static str>,
        usage: Option<(Option<&str>, Option<&str>)>,
    ) {
        w.begin_object();
        w.key_plain("id");
        w.string(&self.id);
        w.key_plain("object");
        w.string_plain("response");
        number_member(w, "created_at", Some(&self.created));
        w.key_plain("status");
        w.string_plain(status);
        if let Some(reason) = reason {
            w.key_plain("incomplete_details");
            w.begin_object();
            w.key_plain("reason");
            w.string_plain(reason);
            w.end_object();
        }
        w.key_plain("model");
        w.string(&self.model);
        w.key_plain("output");
        w.begin_array();
        if status != "in_progress" {
            for item in &self.items {
                w.element();
                write_item(w, item, "completed");
            }
        }
        w.end_array();
        w.key_plain("parallel_tool_calls");
        w.raw("true");
        w.key_plain("tool_choice");
        w.string_plain("auto");
        w.key_plain("tools");
        w.begin_array();
        w.end_array();
        if let Some((input, output)) = usage {
            w.key_plain("usage");
            w.begin_object();
            number_member(w, "input_tokens", input);
            number_member(w, "output_tokens", output);
            let total = input.and_then(|i| i.parse::<u64>().ok()).unwrap_or(0)
                + output.and_then(|o| o.parse::<u64>().ok()).unwrap_or(0);
            w.key_plain("total_tokens");
            w.raw(&total.to_string());
            super::traffic::usage_details(w);
            w.end_object();
        }
        w.end_object();
    }

    fn close_text(&mut self, wire: &mut Wire<'_>) {
        let Some(at) = self.text.take() else { return };
        let Some(item) = self.items.get(at) else { return };
        let (id, text) = (item.id.clone(), item.text.clone());
        let at_s = at.to_string();
        self.event(wire, "response.output_text.done", |w| {
            w.key_plain("item_id");
            w.string(&id);
            w.key_plain("output_index");
            w.raw(&at_s);
            w.key_plain("content_index");
            w.raw("0");
            w.key_plain("text");
            w.string(&text);
            // Required (openai-python `ResponseTextDoneEvent`, read 2026-11-28), as on deltas.
            w.key_plain("logprobs");
            w.begin_array();
            w.end_array();
        });
        self.event(wire, "response.content_part.done", |w| {
            w.key_plain("item_id");
            w.string(&id);
            w.key_plain("output_index");
            w.raw(&at_s);
            w.key_plain("content_index");
            w.raw("0");
            w.key_plain("part");
            output_text(w, &text);
        });
        let item = self.items.get(at).map(|i| Item {
            message: true,
            id: i.id.clone(),
            text: i.text.clone(),
            ..Item::default()
        });
        if let Some(item) = item {
            self.event(wire, "response.output_item.done", |w| {
                w.key_plain("output_index");
                w.raw(&at_s);
                w.key_plain("item");
                write_item(w, &item, "completed");
            });
        }
    }
}

fn output_text(w: &mut Writer<'_>, text: &str) {
    w.begin_object();
    w.key_plain("type");
    w.string_plain("output_text");
    w.key_plain("text");
    w.string(text);
    w.key_plain("annotations");
    w.begin_array();
    w.end_array();
    w.end_object();
}

fn write_item(w: &mut Writer<'_>, item: &Item, status: &'static str) {
    w.begin_object();
    if item.message {
        w.key_plain("type");
        w.string_plain("message");
        w.key_plain("id");
        w.string(&item.id);
        w.key_plain("status");
        w.string_plain(status);
        w.key_plain("role");
        w.string_plain("assistant");
        w.key_plain("content");
        w.begin_array();
        if status != "in_progress" {
            w.element();
            output_text(w, &item.text);
        }
        w.end_array();
    } else {
        w.key_plain("type");
        w.string_plain("function_call");
        w.key_plain("id");
        w.string(&item.id);
        w.key_plain("call_id");
        w.string(&item.call_id);
        w.key_plain("name");
        w.string(&item.name);
        w.key_plain("arguments");
        w.string(if status == "in_progress" { "" } else { &item.text });
        w.key_plain("status");
        w.string_plain(status);
    }
    w.end_object();
}

impl StreamWriter for ResponsesWriter {
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>) {
        match *event {
            Event::Message { id, model, created } => {
                for (slot, v) in
                    [(&mut self.id, id), (&mut self.model, model), (&mut self.created, created)]
                {
                    slot.clear();
                    slot.push_str(v);
                }
                self.items.clear();
                self.calls.clear();
                self.text = None;
                for name in ["response.created", "response.in_progress"] {
                    let mut body = Vec::new();
                    self.response(&mut Writer::new(&mut body, false), "in_progress", None, None);
                    self.event(wire, name, |w| {
                        w.key_plain("response");
                        w.raw(std::str::from_utf8(&body).unwrap_or_default());
                    });
                }
            }
            Event::Text(text) => {
                let at = match self.text {
                    Some(at) => at,
                    None => {
                        let at = self.items.len();
                        let id = format!("msg_{}_{at}", self.id);
                        self.items.push(Item { message: true, id, ..Item::default() });
                        self.text = Some(at);
                        let item = Item {
                            message: true,
                            id: self.items.get(at).map(|i| i.id.clone()).unwrap_or_default(),
                            ..Item::default()
                        };
                        let at_s = at.to_string();
                        self.event(wire, "response.output_item.added", |w| {
                            w.key_plain("output_index");
                            w.raw(&at_s);
                            w.key_plain("item");
                            write_item(w, &item, "in_progress");
                        });
                        self.event(wire, "response.content_part.added", |w| {
                            w.key_plain("item_id");
                            w.string(&item.id);
                            w.key_plain("output_index");
                            w.raw(&at_s);
                            w.key_plain("content_index");
                            w.raw("0");
                            w.key_plain("part");
                            output_text(w, "");
                        });
                        at
                    }
                };
                let Some(item) = self.items.get_mut(at) else { return };
                item.text.push_str(text);
                let id = item.id.clone();
                let at_s = at.to_string();
                self.event(wire, "response.output_text.delta", |w| {
                    w.key_plain("item_id");
                    w.string(&id);
                    w.key_plain("output_index");
                    w.raw(&at_s);
                    w.key_plain("content_index");
                    w.raw("0");
                    w.key_plain("delta");
                    w.string(text);
                    w.key_plain("logprobs");
                    w.begin_array();
                    w.end_array();
                });
            }
            Event::CallStart { call, id, name } => {
                self.close_text(wire);
                let at = self.items.len();
                let item = Item {
                    message: false,
                    id: format!("fc_{id}"),
                    call_id: id.to_owned(),
                    name: name.to_owned(),
                    text: String::new(),
                };
                let at_s = at.to_string();
                self.event(wire, "response.output_item.added", |w| {
                    w.key_plain("output_index");
                    w.raw(&at_s);
                    w.key_plain("item");
                    write_item(w, &item, "in_progress");
                });
                self.items.push(item);
                self.calls.push((call, at));
            }
            Event::Args { call, fragment } => {
                let Some(&(_, at)) = self.calls.iter().find(|(c, _)| *c == call) else { return };
                let id = self.items.get(at).map(|i| i.id.clone()).unwrap_or_default();
                let at_s = at.to_string();
                self.event(wire, "response.function_call_arguments.delta", |w| {
                    w.key_plain("item_id");
                    w.string(&id);
                    w.key_plain("output_index");
                    w.raw(&at_s);
                    w.key_plain("delta");
                    w.string(fragment);
                });
            }
            Event::CallEnd { call, arguments, .. } => {
                let Some(pos) = self.calls.iter().position(|(c, _)| *c == call) else { return };
                let (_, at) = self.calls.remove(pos);
                let args = arguments.unwrap_or_default();
                let Some(item) = self.items.get_mut(at) else { return };
                item.text.clear();
                item.text.push_str(args);
                let snapshot = Item {
                    message: false,
                    id: item.id.clone(),
                    call_id: item.call_id.clone(),
                    name: item.name.clone(),
                    text: item.text.clone(),
                };
                let at_s = at.to_string();
                self.event(wire, "response.function_call_arguments.done", |w| {
                    w.key_plain("item_id");
                    w.string(&snapshot.id);
                    w.key_plain("output_index");
                    w.raw(&at_s);
                    w.key_plain("arguments");
                    w.string(&snapshot.text);
                });
                self.event(wire, "response.output_item.done", |w| {
                    w.key_plain("output_index");
                    w.raw(&at_s);
                    w.key_plain("item");
                    write_item(w, &snapshot, "completed");
                });
            }
            Event::Finish { finish, input_tokens, output_tokens } => {
                self.close_text(wire);
                // Calls left open were cut off: they are not in the final response.
                let open: Vec<usize> = self.calls.drain(..).map(|(_, at)| at).collect();
                let mut kept = Vec::with_capacity(self.items.len());
                for (i, item) in std::mem::take(&mut self.items).into_iter().enumerate() {
                    if !open.contains(&i) {
                        kept.push(item);
                    }
                }
                self.items = kept;
                let reason = match finish {
                    Finish::Length => Some("max_output_tokens"),
                    Finish::Filtered => Some("content_filter"),
                    _ => None,
                };
                let (name, status) = match reason {
                    Some(_) => ("response.incomplete", "incomplete"),
                    None => ("response.completed", "completed"),
                };
                let usage = (input_tokens.is_some() || output_tokens.is_some())
                    .then_some((input_tokens, output_tokens));
                let mut body = Vec::new();
                self.response(&mut Writer::new(&mut body, false), status, reason, usage);
                self.event(wire, name, |w| {
                    w.key_plain("response");
                    w.raw(std::str::from_utf8(&body).unwrap_or_default());
                });
                self.items.clear();
            }
        }
    }
}
