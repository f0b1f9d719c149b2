//! The core as the readers see it: the [`Sink`] calls, each turned into the core's own steps
//! (open, fragment, end, finish).

use crate::ir::traffic::Finish;
use crate::report::Code;

use super::{Core, Once, StreamLimit};
use crate::stream::event::{Event, Key, Sink};

impl Sink for Core<'_> {
    fn message(
        &mut self,
        id: Option<&str>,
        model: Option<&str>,
        created: Option<&str>,
        fresh: bool,
    ) {
        if fresh && self.msg.open {
            if self.msg.finish.is_some() {
                self.flush_finish();
            } else {
                self.end_of_stream();
            }
        }
        self.msg.open = true;
        if self.msg.written {
            return;
        }
        for (slot, v) in
            [(&mut self.msg.id, id), (&mut self.msg.model, model), (&mut self.msg.created, created)]
        {
            if let Some(v) = v.filter(|v| !v.is_empty())
                && slot.is_empty()
            {
                slot.push_str(v.get(..v.len().min(256)).unwrap_or_default());
            }
        }
    }

    fn text(&mut self, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        self.start_message();
        if self.grammar.is_some_and(|g| g.keeps_output) {
            self.kept_out += fragment.len();
            if self.kept + self.kept_out > self.limits.max_buffered_bytes {
                let limit = self.limits.max_buffered_bytes;
                return self.fail(StreamLimit::Buffered { limit });
            }
        }
        self.emit(&Event::Text(fragment));
    }

    fn reasoning(&mut self, fragment: &str) {
        if !fragment.is_empty()
            && !self.verbatim
            && self.writer.is_some()
            && self.once(Once::Reasoning)
        {
            self.note(
                Code::ReasoningDropped,
                true,
                "",
                "reasoning",
                &["the model's reasoning is not carried to another provider's stream"],
            );
        }
    }

    fn other(&mut self, kind: &str) {
        if self.verbatim || self.writer.is_none() || self.dropped.iter().any(|k| k == kind) {
            return;
        }
        if self.dropped.len() < 64 {
            self.dropped.push(kind.to_owned());
        }
        let pieces = ["`", kind, "` blocks have no counterpart in the target's stream: left out"];
        self.note(Code::ContentDropped, true, "", kind, &pieces);
    }

    fn call_start(&mut self, key: Key<'_>, id: Option<&str>, name: &str, signature: Option<&str>) {
        if let Some(at) = key.index.and_then(|i| self.open.iter().position(|c| c.index == Some(i)))
        {
            // A start for an index already open: the earlier call is over.
            self.end_at(at);
        }
        self.open_call(key, id, name, signature);
    }

    fn call_args(&mut self, key: Key<'_>, name: Option<&str>, fragment: &str) {
        let found = self.find(key);
        // A fragment with a new id is a new call (Mistral sends each call whole, no index).
        let found = match (found, key.index, key.id.filter(|i| !i.is_empty())) {
            (Some(at), None, Some(id)) if self.open.get(at).is_some_and(|c| c.src_id != id) => None,
            (f, _, _) => f,
        };
        match found {
            Some(at) => self.args_at(at, fragment),
            None => match name.filter(|n| !n.is_empty()) {
                Some(name) => {
                    self.open_call(key, None, name, None);
                    let at = self.open.len().saturating_sub(1);
                    self.args_at(at, fragment);
                }
                None => {
                    if self.once(Once::Stray) {
                        self.note(
                            Code::ContentDropped,
                            true,
                            "",
                            "arguments",
                            &["an argument fragment belongs to no call the stream opened: left out"],
                        );
                    }
                }
            },
        }
    }

    fn call_whole(&mut self, key: Key<'_>, arguments: &str) {
        if let Some(at) = self.find(key)
            && self.open.get(at).is_some_and(|c| c.seen == 0)
        {
            self.args_at(at, arguments);
        }
    }

    fn call_end(&mut self, key: Key<'_>) {
        if let Some(at) = self.find(key) {
            self.end_at(at);
        }
    }

    fn end_calls(&mut self) {
        while !self.open.is_empty() {
            self.end_at(0);
        }
    }

    fn usage(&mut self, input: Option<&str>, output: Option<&str>) {
        for (slot, v) in [(&mut self.msg.input, input), (&mut self.msg.output, output)] {
            if let Some(v) = v.filter(|v| v.len() <= 20) {
                slot.clear();
                slot.push_str(v);
            }
        }
    }

    fn finish(&mut self, finish: Finish, raw: &str) {
        self.msg.open = true;
        let raw = raw.get(..raw.len().min(64)).unwrap_or_default();
        self.msg.finish = Some((finish, raw.to_owned()));
    }

    fn done(&mut self) {
        self.flush_finish();
    }
}
