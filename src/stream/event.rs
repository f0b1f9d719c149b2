//! What a format implements to speak streams: its grammar as data ([`StreamGrammar`]), a
//! reader that turns one source event into calls on a [`Sink`], and a writer that turns one
//! provider-neutral [`Event`] into the target's wire events through a [`Wire`].
//!
//! Readers and writers live in the formats' folders (`formats/<name>/stream.rs`); the
//! transcoder (`stream/core.rs`) sits between them and is the only place that knows about
//! calls across events: which call a fragment belongs to, ids, maps, buffering and limits.

use crate::emit::Writer;
use crate::ir::Json;
use crate::ir::traffic::Finish;

/// How a provider frames its events on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Server-Sent Events with an `event:` line naming each event (Anthropic, Responses).
    SseNamed,
    /// Server-Sent Events with `data:` lines only (OpenAI Chat, Gemini with `alt=sse`).
    SseData,
    /// One JSON object per event, keyed by the event's type (Bedrock's event-stream frames as
    /// its SDKs hand them out: `{"contentBlockDelta": {...}}`).
    Keyed,
}

/// What an event of a provider's stream does, for the grammar tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Opens the message (ids, model).
    Start,
    /// Carries text.
    Text,
    /// Opens a tool call (id, name).
    CallStart,
    /// Carries a fragment of a call's arguments.
    CallDelta,
    /// Closes a call.
    CallEnd,
    /// Says why the model stopped.
    Finish,
    /// Carries token counts.
    Usage,
    /// Ends the stream.
    Terminal,
    /// Carried nowhere else (keep-alives, reasoning, server-side tools): read and dropped.
    Other,
}

/// One event of a provider's stream grammar.
#[derive(Clone, Copy, Debug)]
pub struct EventRule {
    /// The event's name (its `type`, its `event:` name, its key, or the member that marks it).
    pub name: &'static str,
    /// What it does.
    pub role: Role,
    /// Where in the event the reader looks, in words.
    pub note: &'static str,
}

/// A provider's stream grammar, as data: what the reader reads and the writer writes, with
/// the sources each rule rests on (docs/traffic.md prints these tables).
#[derive(Clone, Copy, Debug)]
pub struct StreamGrammar {
    /// How events are framed.
    pub framing: Framing,
    /// The events, in the order a stream sends them.
    pub events: &'static [EventRule],
    /// How calls are numbered, in words.
    pub indices: &'static str,
    /// A `data:` text that ends the stream and is not JSON (`[DONE]`).
    pub sentinel: Option<&'static str>,
    /// The target sends each call whole (Gemini's `functionCall` with its `args` object): a
    /// call's arguments are held to its end and written then.
    pub whole_calls: bool,
    /// The target repeats each call's arguments and the text whole when they end and in its
    /// terminal event (Responses' `.done` events and `response.completed`): they are kept
    /// to the end of the message.
    pub keeps_output: bool,
    /// The finish reasons written, by what they mean.
    pub finish: &'static [(Finish, &'static str)],
    /// The sources of these rules, each with the date it was read.
    pub sources: &'static [&'static str],
}

impl StreamGrammar {
    /// The finish reason written for `finish` (the first row, else `fallback`).
    pub fn finish_name(&self, finish: Finish, fallback: &'static str) -> &'static str {
        self.finish.iter().find(|(f, _)| *f == finish).map_or(fallback, |(_, name)| *name)
    }
}

/// Which call a source event is about: its index, its id, or neither (the latest open
/// call). Readers pass what the event says; the transcoder matches it to an open call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Key<'k> {
    /// The call's index (OpenAI's `index`, Anthropic's and Bedrock's block index, Responses'
    /// `output_index`), whatever it counts from.
    pub index: Option<u64>,
    /// The call's id (or item id), when the event carries one.
    pub id: Option<&'k str>,
}

/// What a reader tells the transcoder. Every method is cheap; none fails (a reader reports
/// a bad event by returning an error from [`StreamReader::read`]).
pub trait Sink {
    /// The message's id, model and creation time. `fresh`: this event opens a message (a
    /// second one while one is open means the first was cut off).
    fn message(
        &mut self,
        id: Option<&str>,
        model: Option<&str>,
        created: Option<&str>,
        fresh: bool,
    );
    /// A fragment of the answer's text.
    fn text(&mut self, fragment: &str);
    /// A fragment of reasoning (carried to the same format only).
    fn reasoning(&mut self, fragment: &str);
    /// A block no other provider has (a server-side tool call, its result, …), by its kind.
    fn other(&mut self, kind: &str);
    /// A call opens.
    fn call_start(&mut self, key: Key<'_>, id: Option<&str>, name: &str, signature: Option<&str>);
    /// A fragment of a call's arguments; with `name`, it opens the call when no open call
    /// matches `key` (OpenAI Chat opens calls with their first fragment).
    fn call_args(&mut self, key: Key<'_>, name: Option<&str>, fragment: &str);
    /// A call's whole arguments, at its end: used only when no fragment came before.
    fn call_whole(&mut self, key: Key<'_>, arguments: &str);
    /// A call ends.
    fn call_end(&mut self, key: Key<'_>);
    /// Every open call ends (OpenAI Chat ends calls with its finish reason).
    fn end_calls(&mut self);
    /// Token counts, as their number text.
    fn usage(&mut self, input: Option<&str>, output: Option<&str>);
    /// Why the model stopped, and the reason as the source spelled it.
    fn finish(&mut self, finish: Finish, raw: &str);
    /// The stream's terminal event.
    fn done(&mut self);
}

/// A format's stream reader: one per transcoder, holding what it must between events.
pub trait StreamReader: Send {
    /// Reads one event: `name` its SSE event name, `data` its JSON.
    ///
    /// # Errors
    /// What is wrong with the event, when it is not an event of this format at all.
    fn read(
        &mut self,
        name: Option<&str>,
        data: &Json<'_>,
        sink: &mut dyn Sink,
    ) -> Result<(), &'static str>;
}

/// One provider-neutral stream event, as the transcoder hands it to a writer. Calls are
/// numbered from 0 within their message, in the order they opened.
#[derive(Clone, Copy, Debug)]
pub enum Event<'e> {
    /// A message opens.
    Message {
        /// Its id (made when the source has none).
        id: &'e str,
        /// The model, when the source said.
        model: &'e str,
        /// Creation time in seconds, as number text (`0` when unknown).
        created: &'e str,
    },
    /// A fragment of text.
    Text(&'e str),
    /// A call opens (not sent to a writer whose grammar sends whole calls).
    CallStart {
        /// The call's number in its message.
        call: u32,
        /// Its id (as the target's rule admits).
        id: &'e str,
        /// Its tool's name.
        name: &'e str,
    },
    /// A fragment of a call's arguments (not sent for whole calls).
    Args {
        /// The call's number in its message.
        call: u32,
        /// The fragment.
        fragment: &'e str,
    },
    /// A call ends, complete.
    CallEnd {
        /// The call's number in its message.
        call: u32,
        /// Its id.
        id: &'e str,
        /// Its tool's name.
        name: &'e str,
        /// Its whole arguments, JSON text, where the grammar keeps them (whole calls and
        /// [`StreamGrammar::keeps_output`]); for whole calls, checked to be a JSON object.
        arguments: Option<&'e str>,
        /// A reasoning signature on the call (Gemini's `thoughtSignature`).
        signature: Option<&'e str>,
    },
    /// The message ends: the target's finish and terminal events.
    Finish {
        /// Why.
        finish: Finish,
        /// Input tokens, when known.
        input_tokens: Option<&'e str>,
        /// Output tokens, when known.
        output_tokens: Option<&'e str>,
    },
}

/// A format's stream writer: one per transcoder, holding what it must between events.
pub trait StreamWriter: Send {
    /// Writes `event` as the format's wire events.
    fn write(&mut self, event: &Event<'_>, wire: &mut Wire<'_>);
}

/// A format's streams: its grammar, and a reader and a writer for a new stream.
pub trait StreamFormat: Send + Sync {
    /// The grammar.
    fn grammar(&self) -> &'static StreamGrammar;
    /// A reader for one stream.
    fn reader(&self) -> Box<dyn StreamReader>;
    /// A writer for one stream.
    fn writer(&self) -> Box<dyn StreamWriter>;
}

/// How the transcoder writes the target's events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// The target's wire text: SSE with `event:` lines where the target sends them, its
    /// sentinel (`data: [DONE]`), or one keyed object a line for Bedrock.
    #[default]
    Sse,
    /// One event object per line (no sentinel).
    Json,
}

/// Where a writer writes events: the target's framing applied to each.
pub struct Wire<'o> {
    out: &'o mut Vec<u8>,
    framing: Framing,
    output: Output,
}

impl<'o> Wire<'o> {
    pub(crate) fn new(out: &'o mut Vec<u8>, framing: Framing, output: Output) -> Self {
        Wire { out, framing, output }
    }

    /// Writes one event named `name`, its JSON object written by `body` (which writes the
    /// members, without the braces). A keyed format's event is `{name: {…}}`.
    pub fn event(&mut self, name: &'static str, body: impl FnOnce(&mut Writer<'_>)) {
        let sse = self.output == Output::Sse && self.framing != Framing::Keyed;
        if sse {
            if self.framing == Framing::SseNamed {
                self.out.extend_from_slice(b"event: ");
                self.out.extend_from_slice(name.as_bytes());
                self.out.push(b'\n');
            }
            self.out.extend_from_slice(b"data: ");
        }
        let mut w = Writer::new(self.out, false);
        w.begin_object();
        if self.framing == Framing::Keyed {
            w.key(name);
            w.begin_object();
            body(&mut w);
            w.end_object();
        } else {
            body(&mut w);
        }
        w.end_object();
        self.out.extend_from_slice(if sse { b"\n\n" } else { b"\n" });
    }

    /// Writes the stream's sentinel (`data: [DONE]`), in SSE output only.
    pub fn sentinel(&mut self, text: &'static str) {
        if self.output == Output::Sse && self.framing != Framing::Keyed {
            self.out.extend_from_slice(b"data: ");
            self.out.extend_from_slice(text.as_bytes());
            self.out.extend_from_slice(b"\n\n");
        }
    }

    /// Writes a source event as it was, framed for the target (the same format, nothing to
    /// change).
    pub(crate) fn verbatim(&mut self, name: Option<&str>, data: &Json<'_>) {
        let sse = self.output == Output::Sse && self.framing != Framing::Keyed;
        if sse {
            if let (Some(name), Framing::SseNamed) = (name, self.framing) {
                self.out.extend_from_slice(b"event: ");
                self.out.extend_from_slice(name.as_bytes());
                self.out.push(b'\n');
            }
            self.out.extend_from_slice(b"data: ");
        }
        Writer::new(self.out, false).json(data);
        self.out.extend_from_slice(if sse { b"\n\n" } else { b"\n" });
    }
}

/// Member `camel` of `members`, or its snake_case spelling `snake` (Gemini's proto names).
pub fn member<'m, 'a>(
    members: &'m [crate::ir::Member<'a>],
    camel: &str,
    snake: &str,
) -> Option<&'m Json<'a>> {
    members.iter().find(|m| m.key == camel || m.key == snake).map(|m| &m.value)
}

/// `v` as a string.
pub fn as_str<'a>(v: Option<&Json<'a>>) -> Option<&'a str> {
    match v {
        Some(Json::String(s)) => Some(s),
        _ => None,
    }
}

/// `v` as number text (a number, or a string of digits as some proxies send).
pub fn as_number<'a>(v: Option<&Json<'a>>) -> Option<&'a str> {
    match v {
        Some(Json::Number(n)) => Some(n),
        _ => None,
    }
}

/// `v` as a whole number.
pub fn as_u64(v: Option<&Json<'_>>) -> Option<u64> {
    as_number(v).and_then(|n| n.parse().ok())
}

/// `v`'s members, when it is an object.
pub fn as_object<'m, 'a>(v: Option<&'m Json<'a>>) -> Option<&'m [crate::ir::Member<'a>]> {
    match v {
        Some(Json::Object(m)) => Some(m),
        _ => None,
    }
}

/// Writes member `key` holding the number text `n`, or `0` when it is not one.
pub fn number_member(w: &mut Writer<'_>, key: &'static str, n: Option<&str>) {
    w.key_plain(key);
    match n {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => w.raw(n),
        _ => w.raw("0"),
    }
}

/// A call as a stream assembles it ([`StreamTranscoder::assemble`](super::StreamTranscoder::assemble)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembledCall {
    /// Its id, when it had one.
    pub id: Option<String>,
    /// Its tool's name.
    pub name: String,
    /// Its arguments: the fragments joined.
    pub arguments: String,
    /// Whether the stream ended the call (a call cut off is not complete).
    pub complete: bool,
}
