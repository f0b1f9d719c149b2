//! Bedrock ConverseStream: events keyed by their type, as the AWS SDKs hand out the
//! event-stream frames (`{"contentBlockStart": {...}}`, one per line). `messageStart`, per
//! block `contentBlockStart` (`start.toolUse` with `toolUseId` and `name`; text blocks send
//! none), `contentBlockDelta`s (`delta.toolUse.input` string fragments, the first may be
//! `""`; `delta.text`), `contentBlockStop`; then `messageStop` (`stopReason`) and `metadata`
//! (usage), the last event. Raw frames' `p` padding members are ignored.
//!
//! The binary `application/vnd.amazon.eventstream` framing is not read or written: a
//! gateway decodes and encodes it around the transcoder.

use crate::emit::Writer;
use crate::ir::Json;
use crate::ir::traffic::Finish;
use crate::stream::{
    Event, EventRule, Framing, Key, Role, Sink, StreamFormat, StreamGrammar, StreamReader,
    StreamWriter, Wire, as_number, as_object, as_str, as_u64, number_member,
};
use crate::traffic::get;

/// The grammar (sources read 2026-11-28).
pub static GRAMMAR: StreamGrammar = StreamGrammar {
    framing: Framing::Keyed,
    events: &[
        EventRule { name: "messageStart", role: Role::Start, note: "`role`" },
        EventRule {
            name: "contentBlockStart",
            role: Role::CallStart,
            note: "`contentBlockIndex`, `start.toolUse` (`toolUseId`, `name`)",
        },
        EventRule {
            name: "contentBlockDelta",
            role: Role::CallDelta,
            note: "`delta.toolUse.input` (a string fragment); `delta.text` is text",
        },
        EventRule { name: "contentBlockStop", role: Role::CallEnd, note: "`contentBlockIndex`" },
        EventRule { name: "messageStop", role: Role::Finish, note: "`stopReason`" },
        EventRule {
            name: "metadata",
            role: Role::Terminal,
            note: "`usage` (`inputTokens`, `outputTokens`, `totalTokens`) and `metrics`; the last event",
        },
        EventRule {
            name: "reasoningContent",
            role: Role::Other,
            note: "reasoning; a `toolResult` block (Nova's server tools) has no counterpart",
        },
    ],
    indices: "`contentBlockIndex` counts the message's content blocks from 0, text included",
    sentinel: None,
    whole_calls: false,
    keeps_output: false,
    finish: &[
        (Finish::ToolCalls, "tool_use"),
        (Finish::Stop, "end_turn"),
        (Finish::Length, "max_tokens"),
        (Finish::StopSequence, "stop_sequence"),
        (Finish::Filtered, "content_filtered"),
        (Finish::Filtered, "guardrail_intervened"),
        (Finish::Length, "model_context_window_exceeded"),
    ],
    sources: &[
        "Amazon Bedrock API reference, ConverseStreamOutput (messageStart, contentBlockStart, contentBlockDelta, contentBlockStop, messageStop, metadata), ContentBlockStartEvent, ToolUseBlockDelta (input: string), ConverseStreamMetadataEvent (usage and metrics required), MessageStopEvent stopReason values, docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html, read 2026-11-28",
        "the corpus streams tool-traffic/bedrock/streams (pydantic-ai's live recording: text blocks without contentBlockStart, `p` padding), read 2026-11-28",
    ],
};

/// ConverseStream, as [`super::Bedrock`] hands it out.
pub(crate) static STREAM: BedrockStream = BedrockStream;

/// ConverseStream.
pub struct BedrockStream;

impl StreamFormat for BedrockStream {
    fn grammar(&self) -> &'static StreamGrammar {
        &GRAMMAR
    }
    fn reader(&self) -> Box<dyn StreamReader> {
        Box::new(BedrockReader)
    }
    fn writer(&self) -> Box<dyn StreamWriter> {
        Box::new(BedrockWriter::default())
    }
}

struct BedrockReader;

impl StreamReader for BedrockReader {
    fn read(
        &mut self,
        name: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let Json::Object(ev) = data else { return Err("an event is a JSON object") };
        // `{"<type>": payload}`, or the payload alone under an SSE name.
        let (kind, body) = match (ev, name) {
            ([m], _) if matches!(m.value, Json::Object(_)) => {
                (m.key, as_object(Some(&m.value)).unwrap_or_default())
            }
            (_, Some(name)) => (name, *ev),
            _ => {
                return Err(
                    "a ConverseStream event is an object with one member, the event's type",
                );
            }
        };
        let key = Key { index: as_u64(get(body, "contentBlockIndex")), id: None };
        match kind {
            "messageStart" => sink.message(None, None, None, true),
            "contentBlockStart" => {
                let start = as_object(get(body, "start")).unwrap_or_default();
                if let Some(tool) = as_object(get(start, "toolUse")) {
                    if as_str(get(tool, "type")).is_some_and(|t| t == "server_tool_use") {
                        sink.other("server_tool_use");
                        return Ok(());
                    }
                    let id = as_str(get(tool, "toolUseId"));
                    sink.call_start(key, id, as_str(get(tool, "name")).unwrap_or_default(), None);
                } else if let Some(m) = start.first() {
                    sink.other(m.key);
                }
            }
            "contentBlockDelta" => {
                let delta = as_object(get(body, "delta")).unwrap_or_default();
                if let Some(text) = as_str(get(delta, "text")) {
                    sink.text(text);
                } else if let Some(tool) = as_object(get(delta, "toolUse")) {
                    sink.call_args(key, None, as_str(get(tool, "input")).unwrap_or_default());
                } else if let Some(r) = as_object(get(delta, "reasoningContent")) {
                    sink.reasoning(as_str(get(r, "text")).unwrap_or_default());
                }
            }
            "contentBlockStop" => sink.call_end(key),
            "messageStop" => {
                let reason = as_str(get(body, "stopReason")).unwrap_or_default();
                let f = GRAMMAR
                    .finish
                    .iter()
                    .find(|(_, n)| *n == reason)
                    .map_or(Finish::Other, |(f, _)| *f);
                sink.finish(f, reason);
            }
            "metadata" => {
                if let Some(u) = as_object(get(body, "usage")) {
                    sink.usage(as_number(get(u, "inputTokens")), as_number(get(u, "outputTokens")));
                }
                sink.done();
            }
            other if other.ends_with("Exception") => sink.other(other),
            _ => {}
        }
        Ok(())
    }
}

#[derive(Default)]
struct BedrockWriter {
    next: u32,
    text: Option<u32>,
    calls: Vec<(u32, u32)>,
}

fn block(wire: &mut Wire<'_>, name: &'static str, index: u32, body: impl FnOnce(&mut Writer<'_>)) {
    wire.event(name, |w| {
        body(w);
        w.key_plain("contentBlockIndex");
        w.raw(&index.to_string());
    });
}

impl BedrockWriter {
    fn close_text(&mut self, wire: &mut Wire<'_>) {
        if let Some(i) = self.text.take() {
            block(wire, "contentBlockStop", i, |_| {});
        }
    }
}

impl StreamWriter for BedrockWriter {
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>) {
        match *event {
            Event::Message { .. } => {
                self.next = 0;
                self.text = None;
                self.calls.clear();
                wire.event("messageStart", |w| {
                    w.key_plain("role");
                    w.string_plain("assistant");
                });
            }
            Event::Text(text) => {
                let i = *self.text.get_or_insert_with(|| {
                    self.next += 1;
                    self.next - 1
                });
                block(wire, "contentBlockDelta", i, |w| {
                    w.key_plain("delta");
                    w.begin_object();
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
                block(wire, "contentBlockStart", i, |w| {
                    w.key_plain("start");
                    w.begin_object();
                    w.key_plain("toolUse");
                    w.begin_object();
                    w.key_plain("toolUseId");
                    w.string(id);
                    w.key_plain("name");
                    w.string(name);
                    w.end_object();
                    w.end_object();
                });
            }
            Event::Args { call, fragment } => {
                let Some(&(_, i)) = self.calls.iter().find(|(c, _)| *c == call) else { return };
                block(wire, "contentBlockDelta", i, |w| {
                    w.key_plain("delta");
                    w.begin_object();
                    w.key_plain("toolUse");
                    w.begin_object();
                    w.key_plain("input");
                    w.string(fragment);
                    w.end_object();
                    w.end_object();
                });
            }
            Event::CallEnd { call, .. } => {
                let Some(pos) = self.calls.iter().position(|(c, _)| *c == call) else { return };
                let (_, i) = self.calls.remove(pos);
                block(wire, "contentBlockStop", i, |_| {});
            }
            Event::Finish { finish, input_tokens, output_tokens } => {
                self.close_text(wire);
                self.calls.clear();
                wire.event("messageStop", |w| {
                    w.key_plain("stopReason");
                    w.string_plain(GRAMMAR.finish_name(finish, "end_turn"));
                });
                if input_tokens.is_some() || output_tokens.is_some() {
                    wire.event("metadata", |w| {
                        w.key_plain("usage");
                        w.begin_object();
                        number_member(w, "inputTokens", input_tokens);
                        number_member(w, "outputTokens", output_tokens);
                        let total = input_tokens.and_then(|i| i.parse::<u64>().ok()).unwrap_or(0)
                            + output_tokens.and_then(|o| o.parse::<u64>().ok()).unwrap_or(0);
                        w.key_plain("totalTokens");
                        w.raw(&total.to_string());
                        w.end_object();
                        // Required by the API's type; a transcoder does not know the latency.
                        w.key_plain("metrics");
                        w.begin_object();
                        w.key_plain("latencyMs");
                        w.raw("0");
                        w.end_object();
                    });
                }
            }
        }
    }
}
