//! Gemini streams (`streamGenerateContent?alt=sse`): each `data:` line is a whole
//! `GenerateContentResponse` chunk; a call is a whole `functionCall` part (`name`, `args`, an
//! `id` from Gemini 3 and Vertex), or, with Gemini 3's argument streaming, a `functionCall`
//! with `name` and `willContinue: true`, then parts with `partialArgs` (each a `jsonPath` and
//! a `stringValue`, `numberValue`, `boolValue` or `nullValue`; a string continues while its
//! `willContinue` is true), ended by a `functionCall` without `willContinue`. The chunk with
//! `finishReason` is the last (`STOP` also for calls). camelCase and snake_case are read.
//!
//! Written: whole `functionCall` parts, so a call's arguments are held to its end.

use crate::emit::Writer;
use crate::ir::traffic::Finish;
use crate::ir::{Json, Member};
use crate::stream::{
    Event, EventRule, Framing, Key, Role, Sink, StreamFormat, StreamGrammar, StreamReader,
    StreamWriter, Wire, as_number, as_object, as_str, member, number_member,
};

/// The grammar (sources read 2026-11-28).
pub static GRAMMAR: StreamGrammar = StreamGrammar {
    framing: Framing::SseData,
    events: &[
        EventRule {
            name: "GenerateContentResponse",
            role: Role::Start,
            note: "every chunk: `responseId`, `modelVersion`, `candidates[0].content.parts`",
        },
        EventRule {
            name: "text",
            role: Role::Text,
            note: "a part's `text` (`thought: true` is reasoning)",
        },
        EventRule {
            name: "functionCall",
            role: Role::CallStart,
            note: "a whole call (`name`, `args`, `id`), or `name` with `willContinue: true` opening a streamed one; `thoughtSignature` beside it on the part",
        },
        EventRule {
            name: "functionCall.partialArgs",
            role: Role::CallDelta,
            note: "`jsonPath` (RFC 9535) and a value; `willContinue` on a string: more of it follows",
        },
        EventRule {
            name: "functionCall",
            role: Role::CallEnd,
            note: "a streamed call ends with a `functionCall` (or `partialArgs` part) without `willContinue`",
        },
        EventRule {
            name: "finishReason",
            role: Role::Finish,
            note: "`STOP` (also after calls), `MAX_TOKENS`, `SAFETY`, …; `usageMetadata` on the same chunk",
        },
        EventRule {
            name: "finishReason",
            role: Role::Terminal,
            note: "the chunk with a finish reason is the last",
        },
    ],
    indices: "calls have no index: each `functionCall` part is the next call (streamed ones continue the open call)",
    sentinel: None,
    whole_calls: true,
    keeps_output: false,
    finish: &[
        (Finish::Stop, "STOP"),
        (Finish::ToolCalls, "STOP"),
        (Finish::Length, "MAX_TOKENS"),
        (Finish::Filtered, "SAFETY"),
        (Finish::Filtered, "RECITATION"),
        (Finish::Filtered, "BLOCKLIST"),
        (Finish::Filtered, "PROHIBITED_CONTENT"),
        (Finish::Filtered, "SPII"),
    ],
    sources: &[
        "Gemini API reference, GenerateContentResponse and models.streamGenerateContent (SSE with alt=sse; candidates[].content.parts[].functionCall; finishReason), ai.google.dev/api/generate-content, read 2026-11-28",
        "googleapis js-genai types.PartialArg (jsonPath per RFC 9535, stringValue/numberValue/boolValue/nullValue, willContinue: 'another PartialArg message for the current json_path is expected to follow'), googleapis.github.io/js-genai/release_docs/interfaces/types.PartialArg.html, read 2026-11-28",
        "the corpus streams tool-traffic/gemini/streams (Vertex partialArgs with willContinue; a stream whose last partialArgs part ends the call without a closing functionCall), read 2026-11-28",
    ],
};

/// Gemini streams, as [`super::Gemini`] hands them out.
pub(crate) static STREAM: GeminiStream = GeminiStream;

/// Gemini streams.
pub struct GeminiStream;

impl StreamFormat for GeminiStream {
    fn grammar(&self) -> &'static StreamGrammar {
        &GRAMMAR
    }
    fn reader(&self) -> Box<dyn StreamReader> {
        Box::new(GeminiReader::default())
    }
    fn writer(&self) -> Box<dyn StreamWriter> {
        Box::new(GeminiWriter::default())
    }
}

/// One level of the arguments object a streamed call is building.
#[derive(Debug)]
struct Level {
    /// The member name or array position leading into it (none for the root).
    seg: Option<Seg>,
    array: bool,
    count: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(u64),
}

/// `path` (`$.a.b[0]['c d']`) as segments; `None` when it is not such a path.
fn segments(path: &str, out: &mut Vec<Seg>) -> Option<()> {
    out.clear();
    let mut rest = path.strip_prefix('$')?;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            out.push(Seg::Key(r.get(..end)?.to_owned()));
            rest = r.get(end..)?;
        } else if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']")?;
            out.push(Seg::Key(r.get(..end)?.replace("\\'", "'")));
            rest = r.get(end + 2..)?;
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            out.push(Seg::Index(r.get(..end)?.parse().ok()?));
            rest = r.get(end + 1..)?;
        } else {
            return None;
        }
    }
    (!out.is_empty()).then_some(())
}

/// JSON text of a call's arguments, built from `partialArgs` in the order they come, written
/// out as fragments: containers opened and closed as the paths move, strings left open while
/// they continue.
#[derive(Default)]
struct Builder {
    levels: Vec<Level>,
    /// The path of the string left open, if any.
    open_string: Option<Vec<Seg>>,
    segs: Vec<Seg>,
    out: Vec<u8>,
}

impl Builder {
    fn reset(&mut self) {
        self.levels.clear();
        self.open_string = None;
        self.out.clear();
    }

    fn separate(&mut self, key: Option<&str>) {
        if let Some(top) = self.levels.last_mut() {
            if top.count > 0 {
                self.out.push(b',');
            }
            top.count += 1;
        }
        if let Some(k) = key {
            crate::emit::write_escaped(&mut self.out, k);
            self.out.push(b':');
        }
    }

    /// Adds one partial argument; `Err` when its path does not fit what was written.
    fn push(
        &mut self,
        path: &str,
        value: &Json<'_>,
        more: bool,
        max_depth: usize,
    ) -> Result<(), ()> {
        if self.levels.is_empty() {
            self.out.push(b'{');
            self.levels.push(Level { seg: None, array: false, count: 0 });
        }
        let mut segs = std::mem::take(&mut self.segs);
        let parsed = segments(path, &mut segs);
        let result = match parsed {
            Some(()) if segs.len() < max_depth => self.place(&segs, value, more),
            _ => Err(()),
        };
        self.segs = segs;
        result
    }

    fn place(&mut self, segs: &[Seg], value: &Json<'_>, more: bool) -> Result<(), ()> {
        if let Some(open) = &self.open_string {
            if open.as_slice() == segs {
                if let Json::String(s) = value {
                    write_string_body(&mut self.out, s);
                }
                if !more {
                    self.out.push(b'"');
                    self.open_string = None;
                }
                return Ok(());
            }
            self.out.push(b'"');
            self.open_string = None;
        }
        let (leaf, parents) = segs.split_last().ok_or(())?;
        // Close the levels the path leaves, open the ones it enters.
        let common = self
            .levels
            .iter()
            .skip(1)
            .zip(parents)
            .take_while(|(l, s)| l.seg.as_ref() == Some(*s))
            .count();
        while self.levels.len() > common + 1 {
            if let Some(l) = self.levels.pop() {
                self.out.push(if l.array { b']' } else { b'}' });
            }
        }
        for (i, seg) in parents.iter().enumerate().skip(common) {
            self.member(seg)?;
            let array = matches!(segs.get(i + 1), Some(Seg::Index(_)));
            self.out.push(if array { b'[' } else { b'{' });
            self.levels.push(Level { seg: Some(seg.clone()), array, count: 0 });
        }
        self.member(leaf)?;
        match value {
            Json::String(s) => {
                self.out.push(b'"');
                write_string_body(&mut self.out, s);
                if more {
                    self.open_string = Some(segs.to_vec());
                } else {
                    self.out.push(b'"');
                }
            }
            other => Writer::new(&mut self.out, false).json(other),
        }
        Ok(())
    }

    /// Starts a member (or element) `seg` of the innermost level.
    fn member(&mut self, seg: &Seg) -> Result<(), ()> {
        let array = self.levels.last().is_some_and(|l| l.array);
        match (seg, array) {
            (Seg::Key(k), false) => {
                let k = k.clone();
                self.separate(Some(&k));
            }
            (Seg::Index(_), true) => self.separate(None),
            _ => return Err(()),
        }
        Ok(())
    }

    /// Closes everything: the arguments' last fragment.
    fn close(&mut self) {
        if self.open_string.take().is_some() {
            self.out.push(b'"');
        }
        if self.levels.is_empty() {
            self.out.extend_from_slice(b"{}");
        }
        while let Some(l) = self.levels.pop() {
            self.out.push(if l.array { b']' } else { b'}' });
        }
    }
}

/// `s` escaped as inside a JSON string, without the quotes.
fn write_string_body(out: &mut Vec<u8>, s: &str) {
    let start = out.len();
    crate::emit::write_escaped(out, s);
    // `write_escaped` writes the quotes: drop them.
    if out.len() >= start + 2 {
        out.remove(start);
        out.pop();
    }
}

#[derive(Default)]
struct GeminiReader {
    /// Calls read so far (their keys).
    calls: u64,
    /// The streamed call open, if any.
    open: Option<u64>,
    builder: Builder,
    text: Vec<u8>,
}

impl GeminiReader {
    fn flush(&mut self, key: Key<'_>, sink: &mut dyn Sink) {
        if !self.builder.out.is_empty() {
            sink.call_args(key, None, std::str::from_utf8(&self.builder.out).unwrap_or_default());
            self.builder.out.clear();
        }
    }

    fn call(
        &mut self,
        part: &[Member<'_>],
        call: &[Member<'_>],
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let signature = as_str(member(part, "thoughtSignature", "thought_signature"));
        let name = as_str(get(call, "name")).filter(|n| !n.is_empty());
        let more = matches!(member(call, "willContinue", "will_continue"), Some(Json::Bool(true)));
        let partial = member(call, "partialArgs", "partial_args");
        if let Some(name) = name {
            if let Some(open) = self.open.take() {
                // A new call while one streams: the earlier one is over.
                let key = Key { index: Some(open), id: None };
                self.builder.close();
                self.flush(key, sink);
                sink.call_end(key);
            }
            let key = Key { index: Some(self.calls), id: None };
            self.calls += 1;
            sink.call_start(key, as_str(get(call, "id")), name, signature);
            if more && partial.is_none() && get(call, "args").is_none() {
                self.open = Some(key.index.unwrap_or_default());
                self.builder.reset();
                return Ok(());
            }
            match get(call, "args") {
                Some(args @ Json::Object(_)) => {
                    self.text.clear();
                    Writer::new(&mut self.text, false).json(args);
                    sink.call_args(key, None, std::str::from_utf8(&self.text).unwrap_or_default());
                }
                _ => sink.call_args(key, None, "{}"),
            }
            sink.call_end(key);
            return Ok(());
        }
        let Some(open) = self.open else {
            return Ok(());
        };
        let key = Key { index: Some(open), id: None };
        if let Some(Json::Array(partials)) = partial {
            for p in *partials {
                let Json::Object(p) = p else { continue };
                let path = as_str(member(p, "jsonPath", "json_path")).unwrap_or_default();
                let cont =
                    matches!(member(p, "willContinue", "will_continue"), Some(Json::Bool(true)));
                let value = member(p, "stringValue", "string_value")
                    .or_else(|| member(p, "numberValue", "number_value"))
                    .or_else(|| member(p, "boolValue", "bool_value"))
                    .copied()
                    .unwrap_or(Json::Null);
                if self.builder.push(path, &value, cont, 128).is_err() {
                    sink.other("partialArgs");
                }
            }
        }
        if !more {
            self.builder.close();
            self.flush(key, sink);
            sink.call_end(key);
            self.open = None;
        } else {
            self.flush(key, sink);
        }
        Ok(())
    }
}

fn get<'m, 'a>(members: &'m [Member<'a>], key: &str) -> Option<&'m Json<'a>> {
    crate::traffic::get(members, key)
}

impl StreamReader for GeminiReader {
    fn read(
        &mut self,
        _: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str> {
        let Json::Object(chunk) = data else { return Err("a chunk is a JSON object") };
        let id = as_str(member(chunk, "responseId", "response_id"));
        let model = as_str(member(chunk, "modelVersion", "model_version"));
        sink.message(id, model, None, false);
        let candidate = match get(chunk, "candidates") {
            Some(Json::Array(c)) => c.first().and_then(|c| as_object(Some(c))).unwrap_or_default(),
            _ => &[],
        };
        let content = as_object(get(candidate, "content")).unwrap_or_default();
        if let Some(Json::Array(parts)) = get(content, "parts") {
            for part in *parts {
                let Json::Object(part) = part else { continue };
                if let Some(Json::Object(call)) = member(part, "functionCall", "function_call") {
                    self.call(part, call, sink)?;
                } else if let Some(text) = as_str(get(part, "text")) {
                    if matches!(get(part, "thought"), Some(Json::Bool(true))) {
                        sink.reasoning(text);
                    } else {
                        sink.text(text);
                    }
                } else if let Some(m) = part
                    .iter()
                    .find(|m| m.key != "thoughtSignature" && m.key != "thought_signature")
                {
                    sink.other(m.key);
                }
            }
        }
        if let Some(usage) = as_object(member(chunk, "usageMetadata", "usage_metadata")) {
            sink.usage(
                as_number(member(usage, "promptTokenCount", "prompt_token_count")),
                as_number(member(usage, "candidatesTokenCount", "candidates_token_count")),
            );
        }
        if let Some(reason) = as_str(member(candidate, "finishReason", "finish_reason")) {
            let f = GRAMMAR
                .finish
                .iter()
                .find(|(_, n)| *n == reason)
                .map_or(Finish::Other, |(f, _)| *f);
            if self.open.is_none() {
                sink.end_calls();
            }
            sink.finish(f, reason);
            sink.done();
        }
        Ok(())
    }
}

#[derive(Default)]
struct GeminiWriter {
    id: String,
    model: String,
}

impl GeminiWriter {
    fn chunk(
        &self,
        wire: &mut Wire<'_>,
        parts: impl FnOnce(&mut Writer<'_>),
        tail: impl FnOnce(&mut Writer<'_>),
    ) {
        wire.event("GenerateContentResponse", |w| {
            w.key_plain("candidates");
            w.begin_array();
            w.element();
            w.begin_object();
            w.key_plain("content");
            w.begin_object();
            w.key_plain("parts");
            w.begin_array();
            w.element();
            w.begin_object();
            parts(w);
            w.end_object();
            w.end_array();
            w.key_plain("role");
            w.string_plain("model");
            w.end_object();
            tail(w);
            w.key_plain("index");
            w.raw("0");
            w.end_object();
            w.end_array();
            if !self.model.is_empty() {
                w.key_plain("modelVersion");
                w.string(&self.model);
            }
            w.key_plain("responseId");
            w.string(&self.id);
        });
    }
}

impl StreamWriter for GeminiWriter {
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>) {
        match *event {
            Event::Message { id, model, .. } => {
                self.id.clear();
                self.id.push_str(id);
                self.model.clear();
                self.model.push_str(model);
            }
            Event::Text(text) => self.chunk(
                wire,
                |w| {
                    w.key_plain("text");
                    w.string(text);
                },
                |_| {},
            ),
            Event::CallStart { .. } | Event::Args { .. } => {}
            Event::CallEnd { id, name, arguments, signature, .. } => self.chunk(
                wire,
                |w| {
                    w.key_plain("functionCall");
                    w.begin_object();
                    if !id.is_empty() {
                        w.key_plain("id");
                        w.string(id);
                    }
                    w.key_plain("name");
                    w.string(name);
                    w.key_plain("args");
                    // The transcoder checked the text is a JSON object.
                    match arguments.map(str::trim).filter(|a| !a.is_empty()) {
                        Some(args) => w.raw(args),
                        None => w.raw("{}"),
                    }
                    w.end_object();
                    if let Some(sig) = signature {
                        w.key_plain("thoughtSignature");
                        w.string(sig);
                    }
                },
                |_| {},
            ),
            Event::Finish { finish, input_tokens, output_tokens } => {
                let reason = match finish {
                    Finish::ToolCalls => "STOP",
                    f => GRAMMAR.finish_name(f, "STOP"),
                };
                wire.event("GenerateContentResponse", |w| {
                    w.key_plain("candidates");
                    w.begin_array();
                    w.element();
                    w.begin_object();
                    w.key_plain("content");
                    w.begin_object();
                    w.key_plain("parts");
                    w.begin_array();
                    w.element();
                    w.begin_object();
                    w.key_plain("text");
                    w.string_plain("");
                    w.end_object();
                    w.end_array();
                    w.key_plain("role");
                    w.string_plain("model");
                    w.end_object();
                    w.key_plain("finishReason");
                    w.string_plain(reason);
                    w.key_plain("index");
                    w.raw("0");
                    w.end_object();
                    w.end_array();
                    if input_tokens.is_some() || output_tokens.is_some() {
                        w.key_plain("usageMetadata");
                        w.begin_object();
                        number_member(w, "promptTokenCount", input_tokens);
                        number_member(w, "candidatesTokenCount", output_tokens);
                        let total = input_tokens.and_then(|i| i.parse::<u64>().ok()).unwrap_or(0)
                            + output_tokens.and_then(|o| o.parse::<u64>().ok()).unwrap_or(0);
                        w.key_plain("totalTokenCount");
                        w.raw(&total.to_string());
                        w.end_object();
                    }
                    if !self.model.is_empty() {
                        w.key_plain("modelVersion");
                        w.string(&self.model);
                    }
                    w.key_plain("responseId");
                    w.string(&self.id);
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(parts: &[(&str, Json<'_>, bool)]) -> String {
        let mut b = Builder::default();
        let mut text = Vec::new();
        for (path, value, more) in parts {
            assert!(b.push(path, value, *more, 128).is_ok(), "{path}");
            text.append(&mut b.out);
        }
        b.close();
        text.append(&mut b.out);
        String::from_utf8(text).unwrap_or_default()
    }

    #[test]
    fn partial_args_build_the_arguments_text() {
        let got = build(&[
            ("$.recipe.ingredients[0].amount", Json::String("16 "), true),
            ("$.recipe.ingredients[0].amount", Json::String("oz"), false),
            ("$.recipe.ingredients[0].name", Json::String("a\"b"), false),
            ("$.recipe.ingredients[1].amount", Json::Number("1"), false),
            ("$.recipe.name", Json::String("Lasagna"), false),
            ("$.recipe.steps[0]", Json::String("Preheat"), false),
            ("$['odd key']", Json::Bool(true), false),
        ]);
        assert_eq!(
            got,
            r#"{"recipe":{"ingredients":[{"amount":"16 oz","name":"a\"b"},{"amount":1}],"name":"Lasagna","steps":["Preheat"]},"odd key":true}"#
        );
        assert_eq!(build(&[]), "{}");
    }
}
