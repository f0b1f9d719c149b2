//! Anthropic Messages streams: named SSE events, each with a `type`. `message_start`, then
//! per content block `content_block_start` (a `tool_use` with `id`, `name` and `input: {}`),
//! `content_block_delta`s (`text_delta`, `input_json_delta` with `partial_json`, the first
//! usually `""`), `content_block_stop`; then `message_delta` (`stop_reason`, output tokens) and
//! `message_stop`. `ping` events come anywhere. A stream cut at `max_tokens` leaves its last
//! `tool_use` block without its `content_block_stop`.

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
            name: "message_start",
            role: Role::Start,
            note: "`message.id`, `model`, `usage.input_tokens`",
        },
        EventRule {
            name: "content_block_start",
            role: Role::CallStart,
            note: "`index`; `content_block` `tool_use` with `id`, `name`, `input: {}` (a `text` block opens text)",
        },
        EventRule {
            name: "content_block_delta",
            role: Role::CallDelta,
            note: "`delta` `input_json_delta` with `partial_json` (the first often `\"\"`); `text_delta` with `text` is text",
        },
        EventRule { name: "content_block_stop", role: Role::CallEnd, note: "`index`" },
        EventRule {
            name: "message_delta",
            role: Role::Finish,
            note: "`delta.stop_reason`, `usage.output_tokens`",
        },
        EventRule { name: "message_stop", role: Role::Terminal, note: "" },
        EventRule { name: "ping", role: Role::Other, note: "keep-alive, anywhere" },
        EventRule {
            name: "thinking_delta",
            role: Role::Other,
            note: "reasoning (`signature_delta` its signature); `server_tool_use`, `mcp_tool_use` and `*_tool_result` blocks are server-side",
        },
    ],
    indices: "`index` counts the message's content blocks from 0, text and thinking blocks included",
    sentinel: None,
    whole_calls: false,
    keeps_output: false,
    finish: &[
        (Finish::ToolCalls, "tool_use"),
        (Finish::Stop, "end_turn"),
        (Finish::Length, "max_tokens"),
        (Finish::StopSequence, "stop_sequence"),
        (Finish::Filtered, "refusal"),
        (Finish::Stop, "pause_turn"),
        (Finish::Length, "model_context_window_exceeded"),
    ],
    sources: &[
        "Anthropic docs, 'Streaming Messages' (event flow message_start, content_block_start/delta/stop, message_delta, message_stop; ping; input_json_delta partial_json; the tool_use block's input starts as {}), docs.claude.com/en/docs/build-with-claude/streaming, read 2026-11-28",
        "anthropic-sdk-python src/anthropic/lib/streaming/_messages.py (accumulate_event: content by event.index, input_json_delta appended to a JSON buffer), read 2026-11-28",
    ],
};

/// Anthropic streams, as [`super::Anthropic`] hands them out.
pub(crate) static STREAM: AnthropicStream = AnthropicStream;

/// Anthropic streams.
pub struct AnthropicStream;

impl StreamFormat for AnthropicStream {
    fn grammar(&self) -> &'static StreamGrammar {
        &GRAMMAR
    }
    fn reader(&self) -> Box<dyn StreamReader> {
        Box::new(AnthropicReader::default())
    }
    fn writer(&self) -> Box<dyn StreamWriter> {
        Box::new(AnthropicWriter::default())
    }
}

/// Blocks whose deltas are not a client call's: server-side tools, and calls given whole in
/// their start event.
#[derive(Default)]
struct AnthropicReader {
    skip: Vec<u64>,
}

fn finish_of(raw: &str) -> Finish {
    GRAMMAR.finish.iter().find(|(_, n)| *n == raw).map_or(Finish::Other, |(f, _)| *f)
}

impl StreamReader for AnthropicReader {
    fn read(
        &mut self,
        name: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let Json::Object(ev) = data else { return Err("an event is a JSON object") };
        let index = as_u64(get(ev, "index"));
        match as_str(get(ev, "type")).or(name).unwrap_or_default() {
            "message_start" => {
                let m = as_object(get(ev, "message")).unwrap_or_default();
                sink.message(as_str(get(m, "id")), as_str(get(m, "model")), None, true);
                self.skip.clear();
                if let Some(u) = as_object(get(m, "usage")) {
                    sink.usage(as_number(get(u, "input_tokens")), None);
                }
            }
            "content_block_start" => {
                let block = as_object(get(ev, "content_block")).unwrap_or_default();
                self.start(index, block, sink);
            }
            "content_block_delta" => {
                let delta = as_object(get(ev, "delta")).unwrap_or_default();
                match as_str(get(delta, "type")).unwrap_or_default() {
                    "text_delta" => sink.text(as_str(get(delta, "text")).unwrap_or_default()),
                    "thinking_delta" => {
                        sink.reasoning(as_str(get(delta, "thinking")).unwrap_or_default())
                    }
                    "input_json_delta" if !index.is_some_and(|i| self.skip.contains(&i)) => {
                        let key = Key { index, id: None };
                        sink.call_args(
                            key,
                            None,
                            as_str(get(delta, "partial_json")).unwrap_or_default(),
                        );
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                sink.call_end(Key { index, id: None });
                self.skip.retain(|i| Some(*i) != index);
            }
            "message_delta" => {
                if let Some(u) = as_object(get(ev, "usage")) {
                    sink.usage(
                        as_number(get(u, "input_tokens")),
                        as_number(get(u, "output_tokens")),
                    );
                }
                let delta = as_object(get(ev, "delta")).unwrap_or_default();
                if let Some(reason) = as_str(get(delta, "stop_reason")) {
                    sink.finish(finish_of(reason), reason);
                }
            }
            "message_stop" => sink.done(),
            "error" => sink.other("error"),
            _ => {}
        }
        Ok(())
    }
}

impl AnthropicReader {
    fn start(&mut self, index: Option<u64>, block: &[Member<'_>], sink: &mut dyn Sink) {
        match as_str(get(block, "type")).unwrap_or_default() {
            "tool_use" => {
                let key = Key { index, id: None };
                let id = as_str(get(block, "id"));
                sink.call_start(key, id, as_str(get(block, "name")).unwrap_or_default(), None);
                // A proxy that sends the input whole in the start event (and no deltas).
                if let Some(input @ Json::Object(m)) = get(block, "input")
                    && !m.is_empty()
                {
                    let mut text = Vec::new();
                    Writer::new(&mut text, false).json(input);
                    sink.call_args(key, None, std::str::from_utf8(&text).unwrap_or_default());
                    if let Some(i) = index {
                        self.skip.push(i);
                    }
                }
            }
            "text" => sink.text(as_str(get(block, "text")).unwrap_or_default()),
            "thinking" | "redacted_thinking" => sink.reasoning("…"),
            other => {
                sink.other(other);
                if let Some(i) = index
                    && self.skip.len() < 4096
                {
                    self.skip.push(i);
                }
            }
        }
    }
}

#[derive(Default)]
struct AnthropicWriter {
    next: u32,
    text: Option<u32>,
    calls: Vec<(u32, u32)>,
}

fn block_event(
    wire: &mut Wire<'_>,
    name: &'static str,
    index: u32,
    body: impl FnOnce(&mut Writer<'_>),
) {
    wire.event(name, |w| {
        w.key_plain("type");
        w.string(name);
        w.key_plain("index");
        w.raw(&index.to_string());
        body(w);
    });
}

impl AnthropicWriter {
    fn close_text(&mut self, wire: &mut Wire<'_>) {
        if let Some(i) = self.text.take() {
            block_event(wire, "content_block_stop", i, |_| {});
        }
    }
}

impl StreamWriter for AnthropicWriter {
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>) {
        match *event {
            Event::Message { id, model, .. } => {
                self.next = 0;
                self.text = None;
                self.calls.clear();
                wire.event("message_start", |w| {
                    w.key_plain("type");
                    w.string_plain("message_start");
                    w.key_plain("message");
                    w.begin_object();
                    w.key_plain("id");
                    w.string(id);
                    w.key_plain("type");
                    w.string_plain("message");
                    w.key_plain("role");
                    w.string_plain("assistant");
                    w.key_plain("model");
                    w.string(model);
                    w.key_plain("content");
                    w.begin_array();
                    w.end_array();
                    w.key_plain("stop_reason");
                    w.raw("null");
                    w.key_plain("stop_sequence");
                    w.raw("null");
                    w.key_plain("usage");
                    w.begin_object();
                    number_member(w, "input_tokens", None);
                    number_member(w, "output_tokens", None);
                    w.end_object();
                    w.end_object();
                });
            }
            Event::Text(text) => {
                let index = match self.text {
                    Some(i) => i,
                    None => {
                        let i = self.next;
                        self.next += 1;
                        self.text = Some(i);
                        block_event(wire, "content_block_start", i, |w| {
                            w.key_plain("content_block");
                            w.begin_object();
                            w.key_plain("type");
                            w.string_plain("text");
                            w.key_plain("text");
                            w.string_plain("");
                            w.end_object();
                        });
                        i
                    }
                };
                block_event(wire, "content_block_delta", index, |w| {
                    w.key_plain("delta");
                    w.begin_object();
                    w.key_plain("type");
                    w.string_plain("text_delta");
                    w.key_plain("text");
                    w.string(text);
                    w.end_object();
                });
            }
            Event::CallStart { call, id, name } => {
                self.close_text(wire);
                let i = self.next;
                self.next += 1;
                self.calls.push((call, i));
                block_event(wire, "content_block_start", i, |w| {
                    w.key_plain("content_block");
                    w.begin_object();
                    w.key_plain("type");
                    w.string_plain("tool_use");
                    w.key_plain("id");
                    w.string(id);
                    w.key_plain("name");
                    w.string(name);
                    w.key_plain("input");
                    w.begin_object();
                    w.end_object();
                    w.end_object();
                });
            }
            Event::Args { call, fragment } => {
                let Some(&(_, i)) = self.calls.iter().find(|(c, _)| *c == call) else { return };
                block_event(wire, "content_block_delta", i, |w| {
                    w.key_plain("delta");
                    w.begin_object();
                    w.key_plain("type");
                    w.string_plain("input_json_delta");
                    w.key_plain("partial_json");
                    w.string(fragment);
                    w.end_object();
                });
            }
            Event::CallEnd { call, .. } => {
                let Some(pos) = self.calls.iter().position(|(c, _)| *c == call) else { return };
                let (_, i) = self.calls.remove(pos);
                block_event(wire, "content_block_stop", i, |_| {});
            }
            Event::Finish { finish, input_tokens, output_tokens } => {
                self.close_text(wire);
                self.calls.clear();
                wire.event("message_delta", |w| {
                    w.key_plain("type");
                    w.string_plain("message_delta");
                    w.key_plain("delta");
                    w.begin_object();
                    w.key_plain("stop_reason");
                    w.string_plain(GRAMMAR.finish_name(finish, "end_turn"));
                    w.key_plain("stop_sequence");
                    w.raw("null");
                    w.end_object();
                    w.key_plain("usage");
                    w.begin_object();
                    if input_tokens.is_some() {
                        number_member(w, "input_tokens", input_tokens);
                    }
                    number_member(w, "output_tokens", output_tokens);
                    w.end_object();
                });
                wire.event("message_stop", |w| {
                    w.key_plain("type");
                    w.string_plain("message_stop");
                });
            }
        }
    }
}
