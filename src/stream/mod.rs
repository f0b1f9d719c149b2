//! Streamed tool traffic: a model's streamed answer (text and tool-call deltas) transcoded
//! from one provider's stream to another's, event by event, in bounded memory
//! ([`StreamTranscoder`]).
//!
//! - `frame.rs`: bytes → events (SSE, JSON lines, a JSON array), chunked anywhere.
//! - `event.rs`: what a format implements ([`StreamFormat`]: its [`StreamGrammar`] as data, a
//!   reader, a writer) and the provider-neutral [`Event`]s between them.
//! - `limits.rs`: the bounds of one stream ([`StreamLimits`]) and which one a stream broke.
//! - `core.rs`: the open calls between events: matching fragments to calls, ids, maps, what
//!   is held and for how long, the limits, the report.
//!
//! The formats' readers and writers live in their folders (`formats/<name>/stream.rs`).

mod core;
mod event;
mod frame;
mod limits;

use std::io::Write;

use bumpalo::Bump;

use crate::error::{ConversionError, ErrorKind};
use crate::lower::{Lowerer, Reading};
use crate::parse::Parser;
use crate::pointer::Path;
use crate::report::Report;

pub use event::{
    AssembledCall, Event, EventRule, Framing, Key, Output, Role, Sink, StreamFormat, StreamGrammar,
    StreamReader, StreamWriter, Wire, as_number, as_object, as_str, as_u64, member, number_member,
};

pub(crate) use self::core::{CallMap, Core, Setup};
use frame::{FrameError, Framer};
pub use limits::{StreamLimit, StreamLimits};

/// Why a stream cannot be transcoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// A format has no streams, or the options do not fit (a map of other formats).
    #[error(transparent)]
    Setup(ConversionError),
    /// An event that is not one of the source format's: its number in the stream (from 0) and
    /// what is wrong.
    #[error("{format} stream, event {event}: {kind}")]
    Event {
        /// The source format.
        format: String,
        /// The event's number, from 0.
        event: u64,
        /// What is wrong.
        kind: ErrorKind,
    },
    /// A limit of [`StreamLimits`].
    #[error("{format} stream, event {event}: {limit}")]
    Limit {
        /// The source format.
        format: String,
        /// The event's number, from 0.
        event: u64,
        /// The limit broken.
        limit: StreamLimit,
    },
    /// The output could not be written.
    #[error("writing the stream: {0}")]
    Io(#[from] std::io::Error),
    /// An earlier error ended this stream.
    #[error("the stream failed earlier")]
    Failed,
}

/// Transcodes one streamed model answer from one provider's stream to another's.
///
/// ```
/// use tooladapter::formats::{Anthropic, OpenAi};
/// use tooladapter::stream::StreamTranscoder;
/// use tooladapter::TrafficOptions;
///
/// let chunks = concat!(
///     "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}}]}\n\n",
///     "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]}}]}\n\n",
///     "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
///     "data: [DONE]\n\n",
/// );
/// let mut t = StreamTranscoder::new(&OpenAi, &Anthropic, &TrafficOptions::default())?;
/// let mut out = Vec::new();
/// for piece in chunks.as_bytes().chunks(7) {
///     t.push(piece, &mut out)?;
/// }
/// t.finish(&mut out)?;
/// let text = String::from_utf8(out).unwrap_or_default();
/// assert!(text.contains("\"partial_json\":\"{\\\"city\\\":\\\"Paris\\\"}\""));
/// assert!(text.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));
/// # Ok::<(), tooladapter::stream::StreamError>(())
/// ```
pub struct StreamTranscoder<'m> {
    framer: Framer,
    reader: Box<dyn StreamReader>,
    sentinel: Option<&'static str>,
    core: Core<'m>,
    parser: Parser,
    scratch: Vec<(u64, u32)>,
    arena: Bump,
    failed: bool,
}

// A transcoder moves between threads with its stream (an async task, a binding that releases
// its interpreter lock while it pushes).
const _: fn() = || {
    fn is_send<T: Send>() {}
    is_send::<StreamTranscoder<'static>>();
};

impl<'m> StreamTranscoder<'m> {
    pub(crate) fn build(src: &'static dyn StreamFormat, core: Core<'m>) -> Self {
        let limits = StreamLimits::default();
        StreamTranscoder {
            framer: Framer::new(limits.max_event_bytes),
            reader: src.reader(),
            sentinel: src.grammar().sentinel,
            core,
            parser: Parser::default(),
            scratch: Vec::new(),
            arena: Bump::new(),
            failed: false,
        }
    }

    /// Writes the target's events as one object per line instead of its wire text.
    #[must_use]
    pub fn with_output(mut self, output: Output) -> Self {
        self.core.set_output(output);
        self
    }

    /// Sets the stream's limits.
    #[must_use]
    pub fn with_limits(mut self, limits: StreamLimits) -> Self {
        self.core.set_limits(limits);
        self.framer = Framer::new(limits.max_event_bytes);
        self
    }

    /// What the stream has recorded so far: ids rewritten or made, calls mapped, what the
    /// target cannot carry, calls left incomplete, what is held to the end of a call.
    pub fn report(&self) -> &Report {
        &self.core.report
    }

    /// About how many bytes the transcoder holds between pushes besides its reused buffers'
    /// capacity: the open calls and what they keep.
    pub fn held_bytes(&self) -> usize {
        self.core.held_bytes() + self.framer.retained_bytes()
    }

    /// Reads `chunk` (any bytes of the stream, split anywhere) and writes to `out` every
    /// target event it completes.
    ///
    /// # Errors
    /// An event of another format or invalid JSON, a broken limit, or `out` failing. The
    /// transcoder is then done: later calls fail with [`StreamError::Failed`].
    pub fn push(&mut self, chunk: &[u8], out: &mut impl Write) -> Result<(), StreamError> {
        if self.failed {
            return Err(StreamError::Failed);
        }
        let Self { framer, reader, sentinel, core, parser, scratch, arena, .. } = self;
        let mut each = |name: Option<&str>, data: &[u8]| {
            on_event(core, reader.as_mut(), *sentinel, parser, scratch, arena, name, data, out)
        };
        let r = framer.push(chunk, &mut each);
        self.settle(r)
    }

    /// Ends the stream: an event the bytes left open is read, calls still open are reported
    /// incomplete (and not ended in the target), and the rest is written to `out`.
    ///
    /// # Errors
    /// As [`StreamTranscoder::push`].
    pub fn finish(&mut self, out: &mut impl Write) -> Result<&Report, StreamError> {
        if self.failed {
            return Err(StreamError::Failed);
        }
        let Self { framer, reader, sentinel, core, parser, scratch, arena, .. } = self;
        let mut each = |name: Option<&str>, data: &[u8]| {
            on_event(core, reader.as_mut(), *sentinel, parser, scratch, arena, name, data, out)
        };
        let r = framer.finish(&mut each);
        self.settle(r)?;
        self.core.end_of_stream();
        let r = out.write_all(&self.core.out);
        self.core.out.clear();
        if let Err(e) = r {
            self.failed = true;
            return Err(e.into());
        }
        Ok(&self.core.report)
    }

    fn settle(
        &mut self,
        r: Result<(), Result<StreamError, FrameError>>,
    ) -> Result<(), StreamError> {
        let e = match r {
            Ok(()) => return Ok(()),
            Err(Ok(e)) => e,
            Err(Err(FrameError::TooLarge)) => StreamError::Limit {
                format: self.core.from.clone(),
                event: self.core.event,
                limit: StreamLimit::Event { limit: self.framer_limit() },
            },
            Err(Err(FrameError::NotAnEvent)) => StreamError::Event {
                format: self.core.from.clone(),
                event: self.core.event,
                kind: ErrorKind::Shape(
                    "bytes that are no event (SSE, JSON lines or a JSON array of events)".into(),
                ),
            },
        };
        self.failed = true;
        Err(e)
    }

    fn framer_limit(&self) -> usize {
        self.core_limits().max_event_bytes
    }

    fn core_limits(&self) -> StreamLimits {
        self.core.limits()
    }
}

/// One event: parsed, read, and its target events written to `out`.
#[allow(clippy::too_many_arguments)]
fn on_event(
    core: &mut Core<'_>,
    reader: &mut dyn StreamReader,
    sentinel: Option<&'static str>,
    parser: &mut Parser,
    scratch: &mut Vec<(u64, u32)>,
    arena: &mut Bump,
    name: Option<&str>,
    data: &[u8],
    out: &mut impl Write,
) -> Result<(), StreamError> {
    let event = core.event;
    core.event += 1;
    let trimmed = data.trim_ascii();
    if trimmed.is_empty() {
        return Ok(());
    }
    if sentinel.is_some_and(|s| trimmed == s.as_bytes()) {
        if core.verbatim() {
            core.write_sentinel(sentinel.unwrap_or_default());
        }
        core.done();
    } else {
        let bad = |kind| StreamError::Event { format: core.from.clone(), event, kind };
        arena.reset();
        let limits = core.parse_limits().clone();
        let doc = parser
            .parse(trimmed, limits.max_input_bytes, limits.max_depth)
            .map_err(|f| bad(f.kind))?;
        let value = {
            let reading = Reading::own(&core.from, &limits);
            let mut lw = Lowerer::new(&doc, trimmed, arena, scratch, reading);
            lw.json(0, &Path::ROOT, 0).map_err(|e| e.kind().clone())
        };
        let result = match value {
            Ok(v) => {
                let r = reader.read(name, &v, core);
                if r.is_ok() && core.verbatim() {
                    core.write_verbatim(name, &v);
                }
                r.map_err(|why| ErrorKind::Shape(why.into()))
            }
            Err(kind) => Err(kind),
        };
        let tape = crate::parse::recycle(doc.tape);
        parser.put_back(tape);
        result.map_err(|kind| StreamError::Event { format: core.from.clone(), event, kind })?;
    }
    if let Some(limit) = core.failed {
        return Err(StreamError::Limit { format: core.from.clone(), event, limit });
    }
    if !core.out.is_empty() {
        let r = out.write_all(&core.out);
        core.out.clear();
        r?;
    }
    Ok(())
}

impl StreamTranscoder<'_> {
    /// The calls assembled so far when built to collect them (`assemble`).
    pub(crate) fn take_assembled(&mut self) -> Vec<AssembledCall> {
        self.core.collect.take().unwrap_or_default()
    }
}
