//! The transcoder's core: the [`Sink`] a source reader calls, which keeps the stream's open
//! calls and hands provider-neutral [`Event`]s to the target's writer.
//!
//! Per open call it keeps its index, ids, name and a count of argument bytes; the argument
//! text itself only when it must (a map rewrites the arguments, the target sends calls
//! whole, or the target repeats them at their end). What it keeps is counted against the
//! stream's limits; breaking one fails the stream with a typed error. A call the stream
//! leaves open at its end is reported incomplete and never ended in the target.

use std::fmt::Write as _;

use bumpalo::Bump;

use crate::ir::traffic::Finish;
use crate::options::Limits;
use crate::report::{Code, EntryKind, Note, Report};
use crate::traffic::note::{Notes, Record, TrafficNote};
use crate::traffic::{ArgParser, IdRule, made_id, rewritten_id};

use super::event::{AssembledCall, Event, Key, Output, StreamGrammar, StreamWriter, Wire};
use super::limits::{StreamLimit, StreamLimits};

mod args;
mod sink;

/// A definitions conversion's map as the stream applies it (the traffic pipeline implements
/// it over its map and direction, so streams need not know the map's shape). `Send`, so a
/// transcoder can move between threads (an async task, a binding that releases its lock).
pub(crate) trait CallMap: Send {
    /// The map entry for a call of `name`, if the map lists the tool.
    fn tool(&self, name: &str) -> Option<usize>;
    /// The name entry `i`'s calls are written with.
    fn name(&self, i: usize) -> &str;
    /// Whether entry `i` rewrites arguments.
    fn rewrites(&self, i: usize) -> bool;
    /// `args` mapped through entry `i`; `None` at the arena limit.
    fn arguments<'a>(
        &self,
        i: usize,
        args: crate::ir::Json<'a>,
        arena: &'a Bump,
    ) -> Option<crate::ir::Json<'a>>;
}

/// One open call.
#[derive(Default)]
struct OpenCall {
    call: u32,
    index: Option<u64>,
    src_id: String,
    id: String,
    name: String,
    signature: Option<String>,
    /// The map entry whose argument map rewrites this call's arguments.
    rewrite: Option<usize>,
    /// The arguments are kept (`args`).
    keep: bool,
    args: String,
    seen: usize,
    /// Its number among all the stream's calls (for the assembled list).
    assembled: usize,
}

/// The message being read.
#[derive(Default)]
struct Message {
    open: bool,
    written: bool,
    id: String,
    model: String,
    created: String,
    calls: u32,
    completed: u32,
    finish: Option<(Finish, String)>,
    input: String,
    output: String,
}

/// Once-per-stream report entries already made.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Once {
    Mapped = 1,
    Whole = 2,
    Kept = 4,
    Reasoning = 8,
    Cut = 16,
    Stray = 32,
}

/// What the core says in the report once per stream, or per call.
pub(crate) struct Core<'m> {
    pub(crate) from: String,
    pub(crate) to: String,
    writer: Option<Box<dyn StreamWriter>>,
    grammar: Option<&'static StreamGrammar>,
    output: Output,
    verbatim: bool,
    map: Option<Box<dyn CallMap + 'm>>,
    id_rule: Option<IdRule>,
    limits: StreamLimits,
    parse_limits: Limits,
    pub(crate) report: Report,
    msg: Message,
    open: Vec<OpenCall>,
    spare: Vec<OpenCall>,
    names: Vec<(String, u32)>,
    /// Argument bytes kept by open calls.
    kept: usize,
    /// Bytes the target's writer keeps to the message's end (`keeps_output`).
    kept_out: usize,
    once: u8,
    dropped: Vec<String>,
    pub(crate) event: u64,
    pub(crate) failed: Option<StreamLimit>,
    pub(crate) collect: Option<Vec<AssembledCall>>,
    args: ArgParser,
    arena: Bump,
    text: String,
    pub(crate) out: Vec<u8>,
}

/// What a core is built from.
pub(crate) struct Setup<'m> {
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) writer: Option<(Box<dyn StreamWriter>, &'static StreamGrammar)>,
    pub(crate) output: Output,
    pub(crate) verbatim: bool,
    pub(crate) map: Option<Box<dyn CallMap + 'm>>,
    pub(crate) id_rule: Option<IdRule>,
    pub(crate) limits: StreamLimits,
    pub(crate) parse_limits: Limits,
}

impl<'m> Core<'m> {
    pub(crate) fn new(setup: Setup<'m>) -> Self {
        let (writer, grammar) = match setup.writer {
            Some((w, g)) => (Some(w), Some(g)),
            None => (None, None),
        };
        Core {
            from: setup.from,
            to: setup.to,
            writer,
            grammar,
            output: setup.output,
            verbatim: setup.verbatim,
            map: setup.map,
            id_rule: setup.id_rule,
            limits: setup.limits,
            parse_limits: setup.parse_limits,
            report: Report::default(),
            msg: Message::default(),
            open: Vec::new(),
            spare: Vec::new(),
            names: Vec::new(),
            kept: 0,
            kept_out: 0,
            once: 0,
            dropped: Vec::new(),
            event: 0,
            failed: None,
            collect: None,
            args: ArgParser::default(),
            arena: Bump::new(),
            text: String::new(),
            out: Vec::new(),
        }
    }

    /// The stream's limits.
    pub(crate) fn limits(&self) -> StreamLimits {
        self.limits
    }

    /// The limits events and arguments are parsed with.
    pub(crate) fn parse_limits(&self) -> &Limits {
        &self.parse_limits
    }

    /// Sets the output form.
    pub(crate) fn set_output(&mut self, output: Output) {
        self.output = output;
    }

    /// Sets the limits.
    pub(crate) fn set_limits(&mut self, limits: StreamLimits) {
        self.limits = limits;
    }

    /// Whether source events are written back as they are (the same format, nothing to map).
    pub(crate) fn verbatim(&self) -> bool {
        self.verbatim
    }

    /// Bytes held between events, besides the output buffer.
    pub(crate) fn held_bytes(&self) -> usize {
        self.kept + self.kept_out + self.open.len() * std::mem::size_of::<OpenCall>()
    }

    /// Writes a source event as it was (the same format).
    pub(crate) fn write_verbatim(&mut self, name: Option<&str>, data: &crate::ir::Json<'_>) {
        if let Some(g) = self.grammar {
            Wire::new(&mut self.out, g.framing, self.output).verbatim(name, data);
        }
    }

    /// Writes the sentinel of a same-format stream.
    pub(crate) fn write_sentinel(&mut self, text: &'static str) {
        if let Some(g) = self.grammar {
            Wire::new(&mut self.out, g.framing, self.output).sentinel(text);
        }
    }

    fn emit(&mut self, event: &Event<'_>) {
        if self.verbatim {
            return;
        }
        if let (Some(w), Some(g)) = (self.writer.as_mut(), self.grammar) {
            w.write(event, &mut Wire::new(&mut self.out, g.framing, self.output));
        }
    }

    fn note(&mut self, code: Code, loses: bool, tool: &str, feature: &str, pieces: &[&str]) {
        let at = u32::try_from(self.event).unwrap_or(u32::MAX);
        let kind = EntryKind::content(code, loses);
        let note: TrafficNote<'_> = Note { kind, feature, pointer: "", message: pieces };
        Notes::new(&mut self.report, &self.from, &self.to).record((tool, at), note);
    }

    fn once(&mut self, flag: Once) -> bool {
        let first = self.once & flag as u8 == 0;
        self.once |= flag as u8;
        first
    }

    fn fail(&mut self, limit: StreamLimit) {
        if self.failed.is_none() {
            self.failed = Some(limit);
        }
    }

    /// Writes the message's start if it is not written yet.
    fn start_message(&mut self) {
        if !self.msg.open {
            self.msg.open = true;
        }
        if self.msg.written {
            return;
        }
        self.msg.written = true;
        if self.msg.id.is_empty() {
            self.msg.id.push_str("msg_stream");
        }
        let msg = std::mem::take(&mut self.msg.id);
        let model = std::mem::take(&mut self.msg.model);
        let created = std::mem::take(&mut self.msg.created);
        let created_text = if created.is_empty() { "0" } else { created.as_str() };
        self.emit(&Event::Message { id: &msg, model: &model, created: created_text });
        self.msg.id = msg;
        self.msg.model = model;
        self.msg.created = created;
    }

    /// The open call `key` names, by index, else by id, else the latest.
    fn find(&self, key: Key<'_>) -> Option<usize> {
        if let Some(i) = key.index {
            return self.open.iter().position(|c| c.index == Some(i));
        }
        if let Some(id) = key.id.filter(|id| !id.is_empty()) {
            return self.open.iter().position(|c| c.src_id == id);
        }
        self.open.len().checked_sub(1)
    }

    /// The id written for a call: kept where the rule admits it, else rewritten, made where
    /// there is none and the target needs one.
    fn target_id(&mut self, src: &str, name: &str, out: &mut String) -> Option<Code> {
        let Some(rule) = self.id_rule else {
            out.push_str(src);
            return None;
        };
        if !src.is_empty() && rule.accepts(src) {
            out.push_str(src);
            return None;
        }
        if !src.is_empty() {
            rewritten_id(&rule, src, out);
            return Some(Code::IdRewritten);
        }
        if !rule.required {
            return None;
        }
        let occurrence = match self.names.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                self.kept += name.len();
                self.names.push((name.to_owned(), 1));
                0
            }
        };
        made_id(&rule, 0, name, occurrence, out);
        Some(Code::IdAdded)
    }

    fn open_call(&mut self, key: Key<'_>, id: Option<&str>, name: &str, signature: Option<&str>) {
        if self.open.len() >= self.limits.max_open_calls {
            return self.fail(StreamLimit::OpenCalls { limit: self.limits.max_open_calls });
        }
        self.start_message();
        let mut c = self.spare.pop().unwrap_or_default();
        c.call = self.msg.calls;
        self.msg.calls += 1;
        c.index = key.index;
        c.src_id.clear();
        c.src_id.push_str(id.or(key.id).unwrap_or_default());
        c.name.clear();
        c.rewrite = None;
        match self.map.as_deref().and_then(|m| m.tool(name).map(|i| (m, i))) {
            Some((map, i)) => {
                c.name.push_str(map.name(i));
                if map.rewrites(i) {
                    c.rewrite = Some(i);
                }
            }
            None => c.name.push_str(name),
        }
        if c.name != name {
            let pieces = [
                "the call to `",
                name,
                "` is written as a call to `",
                &c.name,
                "` (the definitions' map)",
            ];
            let tool = c.name.clone();
            self.note(Code::CallMapped, false, &tool, "name", &pieces);
        }
        let grammar = self.grammar;
        let whole = grammar.is_some_and(|g| g.whole_calls);
        c.keep = c.rewrite.is_some() || grammar.is_some_and(|g| g.whole_calls || g.keeps_output);
        if c.rewrite.is_some() && self.once(Once::Mapped) {
            self.note(
                Code::CallMapped,
                false,
                "",
                "arguments",
                &["the map rewrites the arguments of some calls: each such call's arguments are held to the end of the call and sent whole then"],
            );
        }
        if whole && self.once(Once::Whole) && !self.verbatim {
            self.note(
                Code::ContentRewritten,
                false,
                "",
                "arguments",
                &["the target sends each call whole: a call's arguments are held to the end of the call and sent then"],
            );
        }
        if !whole
            && grammar.is_some_and(|g| g.keeps_output)
            && self.once(Once::Kept)
            && !self.verbatim
        {
            self.note(
                Code::ContentRewritten,
                false,
                "",
                "arguments",
                &["the target repeats each call's arguments and the text whole at their end and in its last event: they are kept to the end of the message"],
            );
        }
        c.id.clear();
        let mut target = std::mem::take(&mut c.id);
        let src = std::mem::take(&mut c.src_id);
        let code = self.target_id(&src, &c.name, &mut target);
        if let Some(code) = code {
            let what = if code == Code::IdAdded { "made" } else { "rewritten" };
            let pieces =
                ["call id `", &src, "` ", what, " as `", &target, "` (the target's id rule)"];
            let tool = c.name.clone();
            self.note(code, false, &tool, "id", &pieces);
        }
        c.id = target;
        c.src_id = src;
        c.signature = signature.map(str::to_owned);
        c.args.clear();
        c.seen = 0;
        if let Some(list) = self.collect.as_mut() {
            c.assembled = list.len();
            list.push(AssembledCall {
                id: (!c.id.is_empty()).then(|| c.id.clone()),
                name: c.name.clone(),
                arguments: String::new(),
                complete: false,
            });
        }
        self.kept += c.id.len() + c.name.len() + c.src_id.len();
        if !whole {
            self.emit(&Event::CallStart { call: c.call, id: &c.id, name: &c.name });
        }
        self.open.push(c);
    }

    fn args_at(&mut self, at: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        let grammar = self.grammar;
        let Some(c) = self.open.get_mut(at) else { return };
        c.seen += fragment.len();
        if let Some(list) = self.collect.as_mut()
            && let Some(a) = list.get_mut(c.assembled)
        {
            a.arguments.push_str(fragment);
        }
        if c.keep {
            self.kept += fragment.len();
            if self.kept + self.kept_out > self.limits.max_buffered_bytes {
                let limit = self.limits.max_buffered_bytes;
                return self.fail(StreamLimit::Buffered { limit });
            }
            c.args.push_str(fragment);
        }
        if grammar.is_some_and(|g| g.keeps_output) {
            self.kept_out += fragment.len();
        }
        let whole = grammar.is_some_and(|g| g.whole_calls);
        if c.rewrite.is_none() && !whole {
            let call = c.call;
            self.emit(&Event::Args { call, fragment });
        }
    }

    fn end_at(&mut self, at: usize) {
        if at >= self.open.len() {
            return;
        }
        let mut c = self.open.remove(at);
        self.kept =
            self.kept.saturating_sub(c.args.len() + c.id.len() + c.name.len() + c.src_id.len());
        if let Some(i) = c.rewrite {
            self.rewrite(&mut c, i);
            if !self.grammar.is_some_and(|g| g.whole_calls) {
                let args = std::mem::take(&mut c.args);
                self.emit(&Event::Args { call: c.call, fragment: &args });
                c.args = args;
            }
        }
        let whole = self.grammar.is_some_and(|g| g.whole_calls);
        let mut emit = true;
        if whole && !self.compact_object(&mut c.args) {
            emit = false;
            let pieces = [
                "the call's arguments are not a JSON object and the target takes only an object: the call is left out",
            ];
            let tool = c.name.clone();
            self.note(Code::ContentDropped, true, &tool, "arguments", &pieces);
        }
        if emit {
            let arguments = c.keep.then_some(c.args.as_str());
            let ev = Event::CallEnd {
                call: c.call,
                id: &c.id,
                name: &c.name,
                arguments,
                signature: c.signature.as_deref(),
            };
            if !self.verbatim
                && let (Some(w), Some(g)) = (self.writer.as_mut(), self.grammar)
            {
                w.write(&ev, &mut Wire::new(&mut self.out, g.framing, self.output));
            }
        }
        self.msg.completed += 1;
        if let Some(a) = self.collect.as_mut().and_then(|l| l.get_mut(c.assembled)) {
            a.complete = true;
        }
        self.spare.push(c);
    }

    /// Reports the message's open calls incomplete and forgets them.
    fn abandon(&mut self, why: &str) {
        for c in std::mem::take(&mut self.open) {
            let mut at = String::new();
            let _ = write!(at, "{}", c.call);
            let pieces = [
                "call ",
                &at,
                " (`",
                &c.name,
                "`) is incomplete: ",
                why,
                "; it is not ended in the target",
            ];
            self.note(Code::CallIncomplete, true, &c.name, "arguments", &pieces);
            self.spare.push(c);
        }
        self.kept = 0;
    }

    /// Writes the pending finish, if any, and closes the message.
    fn flush_finish(&mut self) {
        let Some((mut finish, _)) = self.msg.finish.take() else { return };
        if !self.open.is_empty() {
            self.abandon("the stream finished inside it");
        }
        // Gemini ends a turn of calls with `STOP`; the others say it was calls.
        if finish == Finish::Stop && self.msg.completed > 0 {
            finish = Finish::ToolCalls;
        }
        self.start_message();
        let input = std::mem::take(&mut self.msg.input);
        let output = std::mem::take(&mut self.msg.output);
        self.emit(&Event::Finish {
            finish,
            input_tokens: (!input.is_empty()).then_some(input.as_str()),
            output_tokens: (!output.is_empty()).then_some(output.as_str()),
        });
        self.reset_message();
    }

    fn reset_message(&mut self) {
        let mut msg = std::mem::take(&mut self.msg);
        for s in [&mut msg.id, &mut msg.model, &mut msg.created, &mut msg.input, &mut msg.output] {
            s.clear();
        }
        msg.open = false;
        msg.written = false;
        msg.calls = 0;
        msg.completed = 0;
        msg.finish = None;
        self.msg = msg;
        self.kept_out = 0;
    }

    /// The stream's bytes ended.
    pub(crate) fn end_of_stream(&mut self) {
        if self.msg.finish.is_some() {
            return self.flush_finish();
        }
        if self.msg.open {
            self.abandon("the stream ended inside it");
            if self.once(Once::Cut) {
                self.note(
                    Code::CallIncomplete,
                    true,
                    "",
                    "stream",
                    &["the stream ended before its finish: the target stream is left without its end too"],
                );
            }
            self.reset_message();
        }
    }
}
