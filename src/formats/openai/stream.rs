//! OpenAI Chat Completions streams: `chat.completion.chunk` objects on `data:` lines, ended
//! by `data: [DONE]`. A call opens with the first `delta.tool_calls[]` fragment of its
//! `index` (its `id`, `function.name` and usually `arguments: ""`) and takes `arguments`
//! fragments until the chunk with `finish_reason`, which ends every open call. Tolerated
//! (all seen in recorded streams): no `index` (Mistral: the call is found by `id`, a new `id`
//! is a new call), `index` from 1 (Anthropic's compatible endpoint), `id` and `type` repeated
//! in every fragment (Baseten), a fragment repeating the call with `"name": ""` (GLM), no
//! `arguments`, an empty first fragment, a last chunk with `"choices": []` carrying `usage`.

use crate::ir::traffic::Finish;
use crate::ir::{Json, Member};
use crate::stream::{
    Event, EventRule, Framing, Key, Role, Sink, StreamFormat, StreamGrammar, StreamReader,
    StreamWriter, Wire, as_number, as_object, as_str, as_u64, number_member,
};
use crate::traffic::get;

/// The grammar (sources read 2026-11-28).
pub static GRAMMAR: StreamGrammar = StreamGrammar {
    framing: Framing::SseData,
    events: &[
        EventRule {
            name: "chat.completion.chunk",
            role: Role::Start,
            note: "`id`, `model`, `created` on every chunk; the first has `delta.role`",
        },
        EventRule { name: "delta.content", role: Role::Text, note: "text fragments" },
        EventRule {
            name: "delta.tool_calls[]",
            role: Role::CallStart,
            note: "the first fragment of an `index` opens the call: `id`, `type`, `function.name`, `function.arguments` (usually `\"\"`)",
        },
        EventRule {
            name: "delta.tool_calls[].function.arguments",
            role: Role::CallDelta,
            note: "argument fragments, keyed by `index`",
        },
        EventRule {
            name: "finish_reason",
            role: Role::CallEnd,
            note: "the chunk with a finish reason ends every open call (there is no per-call end)",
        },
        EventRule {
            name: "finish_reason",
            role: Role::Finish,
            note: "`tool_calls`, `stop`, `length`, `content_filter`",
        },
        EventRule {
            name: "usage",
            role: Role::Usage,
            note: "`prompt_tokens`, `completion_tokens`; with `stream_options.include_usage`, on a last chunk whose `choices` is empty",
        },
        EventRule { name: "[DONE]", role: Role::Terminal, note: "`data: [DONE]`, not JSON" },
        EventRule {
            name: "delta.reasoning_content",
            role: Role::Other,
            note: "reasoning (DeepSeek, xAI; `reasoning` on OpenRouter, Groq, Ollama)",
        },
    ],
    indices: "`tool_calls[].index` counts the message's calls from 0; compatible endpoints start at 1 or leave it out",
    sentinel: Some("[DONE]"),
    whole_calls: false,
    keeps_output: false,
    finish: &[
        (Finish::ToolCalls, "tool_calls"),
        (Finish::Stop, "stop"),
        (Finish::Length, "length"),
        (Finish::Filtered, "content_filter"),
        (Finish::ToolCalls, "function_call"),
    ],
    sources: &[
        "OpenAI API reference, 'The chat completion chunk object' (choices[].delta.tool_calls[] with index, id, type, function.name, function.arguments; finish_reason; choices empty on the last chunk with stream_options.include_usage), platform.openai.com/docs/api-reference/chat-streaming, read 2026-11-28",
        "openai-python src/openai/types/chat/chat_completion_chunk.py (ChoiceDeltaToolCall.index required, id/function optional) and lib/streaming/chat/_completions.py (tool calls accumulated by index), read 2026-11-28",
        "the corpus streams tool-traffic/openai-chat/streams (Mistral without index, Anthropic's endpoint from index 1, Baseten repeating id), read 2026-11-28",
    ],
};

/// Chat Completions streams, as [`super::OpenAi`] hands them out.
pub(crate) static STREAM: ChatStream = ChatStream;

/// Chat Completions streams.
pub struct ChatStream;

impl StreamFormat for ChatStream {
    fn grammar(&self) -> &'static StreamGrammar {
        &GRAMMAR
    }
    fn reader(&self) -> Box<dyn StreamReader> {
        Box::new(ChatReader::default())
    }
    fn writer(&self) -> Box<dyn StreamWriter> {
        Box::new(ChatWriter::default())
    }
}

/// What a finish reason means (the grammar's table; other reasons are `Other`).
pub(crate) fn finish_of(grammar: &StreamGrammar, raw: &str) -> Finish {
    grammar.finish.iter().find(|(_, name)| *name == raw).map_or(Finish::Other, |(f, _)| *f)
}

/// The id of the chunks read: a chunk with another id opens a new message (two streams one
/// after the other, the first cut off, have nothing else between them).
#[derive(Default)]
struct ChatReader {
    id: String,
}

impl StreamReader for ChatReader {
    fn read(
        &mut self,
        _: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let Json::Object(chunk) = data else { return Err("a chunk is a JSON object") };
        if let Some(error) = as_object(get(chunk, "error")) {
            let _ = error;
            sink.other("error");
            return Ok(());
        }
        let id = as_str(get(chunk, "id"));
        let fresh = id.is_some_and(|id| !id.is_empty() && id != self.id);
        if fresh && let Some(id) = id {
            let fresh_start = self.id.is_empty();
            self.id.clear();
            self.id.push_str(id.get(..id.len().min(256)).unwrap_or_default());
            sink.message(
                Some(id),
                as_str(get(chunk, "model")),
                as_number(get(chunk, "created")),
                !fresh_start,
            );
        } else {
            sink.message(id, as_str(get(chunk, "model")), as_number(get(chunk, "created")), false);
        }
        let choices = match get(chunk, "choices") {
            Some(Json::Array(c)) => *c,
            _ => &[],
        };
        let mut finish = None;
        for choice in choices {
            let Json::Object(choice) = choice else { continue };
            // Only the first choice (`n` > 1 streams several answers in one).
            if as_u64(get(choice, "index")).is_some_and(|i| i != 0) {
                continue;
            }
            if let Some(delta) = as_object(get(choice, "delta")) {
                delta_of(delta, sink);
            }
            if let Some(reason) = as_str(get(choice, "finish_reason")) {
                finish = Some(reason);
            }
        }
        if let Some(usage) = as_object(get(chunk, "usage")) {
            sink.usage(
                as_number(get(usage, "prompt_tokens")),
                as_number(get(usage, "completion_tokens")),
            );
        }
        if let Some(reason) = finish {
            let f = finish_of(&GRAMMAR, reason);
            if !matches!(f, Finish::Length | Finish::Filtered) {
                sink.end_calls();
            }
            sink.finish(f, reason);
        }
        Ok(())
    }
}

fn delta_of(delta: &[Member<'_>], sink: &mut dyn Sink) {
    if let Some(text) = as_str(get(delta, "content")) {
        sink.text(text);
    }
    for key in ["reasoning_content", "reasoning"] {
        if let Some(text) = as_str(get(delta, key)) {
            sink.reasoning(text);
        }
    }
    let Some(Json::Array(calls)) = get(delta, "tool_calls") else { return };
    for call in *calls {
        let Json::Object(call) = call else { continue };
        let function = as_object(get(call, "function")).unwrap_or_default();
        let key = Key { index: as_u64(get(call, "index")), id: as_str(get(call, "id")) };
        let name = as_str(get(function, "name"));
        let args = as_str(get(function, "arguments")).unwrap_or_default();
        sink.call_args(key, name, args);
    }
}

#[derive(Default)]
struct ChatWriter {
    id: String,
    model: String,
    created: String,
}

impl ChatWriter {
    /// One chunk: its envelope, then `delta` and `finish_reason` written by `body`.
    fn chunk(&self, wire: &mut Wire<'_>, body: impl FnOnce(&mut crate::emit::Writer<'_>)) {
        wire.event("chat.completion.chunk", |w| {
            w.key_plain("id");
            w.string(&self.id);
            w.key_plain("object");
            w.string_plain("chat.completion.chunk");
            number_member(w, "created", Some(&self.created));
            w.key_plain("model");
            w.string(&self.model);
            w.key_plain("choices");
            w.begin_array();
            w.element();
            w.begin_object();
            w.key_plain("index");
            w.raw("0");
            body(w);
            w.end_object();
            w.end_array();
        });
    }
}

impl StreamWriter for ChatWriter {
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>) {
        match *event {
            Event::Message { id, model, created } => {
                for (slot, v) in
                    [(&mut self.id, id), (&mut self.model, model), (&mut self.created, created)]
                {
                    slot.clear();
                    slot.push_str(v);
                }
                self.chunk(wire, |w| {
                    w.key_plain("delta");
                    w.begin_object();
                    w.key_plain("role");
                    w.string_plain("assistant");
                    w.key_plain("content");
                    w.string_plain("");
                    w.end_object();
                    w.key_plain("finish_reason");
                    w.raw("null");
                });
            }
            Event::Text(text) => self.chunk(wire, |w| {
                w.key_plain("delta");
                w.begin_object();
                w.key_plain("content");
                w.string(text);
                w.end_object();
                w.key_plain("finish_reason");
                w.raw("null");
            }),
            Event::CallStart { call, id, name } => self.chunk(wire, |w| {
                tool_call(w, call, |w| {
                    w.key_plain("id");
                    w.string(id);
                    w.key_plain("type");
                    w.string_plain("function");
                    w.key_plain("function");
                    w.begin_object();
                    w.key_plain("name");
                    w.string(name);
                    w.key_plain("arguments");
                    w.string_plain("");
                    w.end_object();
                });
            }),
            Event::Args { call, fragment } => self.chunk(wire, |w| {
                tool_call(w, call, |w| {
                    w.key_plain("function");
                    w.begin_object();
                    w.key_plain("arguments");
                    w.string(fragment);
                    w.end_object();
                });
            }),
            Event::CallEnd { .. } => {}
            Event::Finish { finish, input_tokens, output_tokens } => {
                self.chunk(wire, |w| {
                    w.key_plain("delta");
                    w.begin_object();
                    w.end_object();
                    w.key_plain("finish_reason");
                    w.string_plain(GRAMMAR.finish_name(finish, "stop"));
                });
                if input_tokens.is_some() || output_tokens.is_some() {
                    wire.event("chat.completion.chunk", |w| {
                        w.key_plain("id");
                        w.string(&self.id);
                        w.key_plain("object");
                        w.string_plain("chat.completion.chunk");
                        number_member(w, "created", Some(&self.created));
                        w.key_plain("model");
                        w.string(&self.model);
                        w.key_plain("choices");
                        w.begin_array();
                        w.end_array();
                        w.key_plain("usage");
                        w.begin_object();
                        number_member(w, "prompt_tokens", input_tokens);
                        number_member(w, "completion_tokens", output_tokens);
                        let total = input_tokens.and_then(|i| i.parse::<u64>().ok()).unwrap_or(0)
                            + output_tokens.and_then(|o| o.parse::<u64>().ok()).unwrap_or(0);
                        w.key_plain("total_tokens");
                        w.raw(&total.to_string());
                        w.end_object();
                    });
                }
                wire.sentinel("[DONE]");
            }
        }
    }
}

/// `"delta":{"tool_calls":[{"index":call, …}]},"finish_reason":null`.
fn tool_call(
    w: &mut crate::emit::Writer<'_>,
    call: u32,
    body: impl FnOnce(&mut crate::emit::Writer<'_>),
) {
    w.key_plain("delta");
    w.begin_object();
    w.key_plain("tool_calls");
    w.begin_array();
    w.element();
    w.begin_object();
    w.key_plain("index");
    w.raw(&call.to_string());
    body(w);
    w.end_object();
    w.end_array();
    w.end_object();
    w.key_plain("finish_reason");
    w.raw("null");
}
