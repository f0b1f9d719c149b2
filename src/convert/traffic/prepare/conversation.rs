//! A conversation: its turns in order, each results turn paired with the calls turn before
//! it, system text moved where the target keeps it, the tool choice said the target's way,
//! and calls left without results (which the target refuses) reported.

use crate::error::ConversionError;
use crate::ir::traffic::{Choice, Content, Conversation, Message, ToolChoice, Turn};
use crate::report::{Code, EntryKind};

use super::super::maps;
use super::Pass;
use super::calls::Paired;
use crate::traffic::{Patch, Replace};

/// A calls turn waiting for its results.
struct Waiting<'a> {
    calls: &'a [Paired<'a>],
    pointer: &'a str,
    at: u32,
}

impl<'a> Pass<'a, '_> {
    /// `c` made fit for the target.
    pub(super) fn conversation(
        &mut self,
        c: Conversation<'a>,
    ) -> Result<Conversation<'a>, ConversionError> {
        let move_system = !self.same && !self.target.system_in_turns;
        let mut turns = self.list::<Turn<'a>>(c.turns.len(), "")?;
        let moved = if move_system {
            c.turns
                .iter()
                .filter(|t| matches!(t, Turn::System(_)))
                .map(|t| message(t).content.len())
                .sum()
        } else {
            0
        };
        let mut system = self.list::<Content<'a>>(c.system.len() + moved, "")?;
        let user_blocks = self.target.user_blocks;
        for item in self.content(c.system, user_blocks, "", 0)? {
            system.push(*item);
        }
        let (mut k, mut last, mut last_k, mut open) = (0u32, &[][..], 0u32, false);
        let mut waiting: Option<Waiting<'a>> = None;
        for turn in c.turns {
            match turn {
                Turn::Assistant(a) => {
                    self.unanswered(waiting.take(), &[]);
                    let has_calls = a.calls().next().is_some();
                    let (turn, paired) = self.assistant(*a, k)?;
                    if has_calls {
                        // Calls turns with no results between them are answered together.
                        last = if open { self.joined(last, paired, a.pointer)? } else { paired };
                        (last_k, open) = (k, true);
                        k += 1;
                        waiting = Some(Waiting { calls: paired, pointer: a.pointer, at: a.at });
                    }
                    turns.push(Turn::Assistant(turn));
                }
                Turn::Results(r) => {
                    let results = self.results(*r, last_k, last)?;
                    self.unanswered(waiting.take(), results.results);
                    open = false;
                    turns.push(Turn::Results(results));
                }
                Turn::User(m) => {
                    self.unanswered(waiting.take(), &[]);
                    let content = self.content(m.content, user_blocks, "", 0)?;
                    turns.push(Turn::User(Message { content, ..*m }));
                }
                Turn::System(m) if move_system => {
                    if !turns.is_empty() {
                        self.note(
                            EntryKind::content(Code::ContentRewritten, true),
                            ("", "system"),
                            (m.pointer, m.at),
                            &[
                                "a system message among the turns has no place there in ",
                                self.to,
                                ": its text joins the system text before the turns",
                            ],
                        );
                    }
                    for item in self.content(m.content, user_blocks, "", 0)? {
                        system.push(*item);
                    }
                }
                Turn::System(m) => {
                    let content = self.content(m.content, user_blocks, "", 0)?;
                    turns.push(Turn::System(Message { content, ..*m }));
                }
            }
        }
        self.unanswered(waiting.take(), &[]);
        let choice = self.choice(c.choice)?;
        Ok(Conversation { system: system.done(), turns: turns.done(), choice, ..c })
    }

    /// The calls of two calls turns, in order, in the arena.
    fn joined(
        &self,
        a: &'a [Paired<'a>],
        b: &'a [Paired<'a>],
        pointer: &str,
    ) -> Result<&'a [Paired<'a>], ConversionError> {
        let mut list = self.list::<Paired<'a>>(a.len() + b.len(), pointer)?;
        a.iter().chain(b).for_each(|p| list.push(*p));
        Ok(list.done())
    }

    /// Reports the calls of `waiting` that `results` (the next turn's) does not answer, where
    /// the target refuses such a request.
    fn unanswered(
        &mut self,
        waiting: Option<Waiting<'a>>,
        results: &[crate::ir::traffic::ToolResult<'a>],
    ) {
        // The same format's source is written back as it is: its own rules are `check`'s.
        let Some(w) = waiting.filter(|_| self.target.results_follow_calls && !self.same) else {
            return;
        };
        for (i, call) in w.calls.iter().enumerate() {
            // By id; a call without one, by its name's count among the results.
            let answered = match call.id {
                Some(id) => results.iter().any(|r| r.call_id == Some(id)),
                None => {
                    let before = w.calls.iter().take(i).filter(|c| c.name == call.name).count();
                    results.iter().filter(|r| r.name == Some(call.name)).count() > before
                }
            };
            if !answered {
                let id = call.id.unwrap_or_default();
                let rule = self.target.conversation.first().map_or("", |r| r.source);
                self.note(
                    EntryKind::content(Code::WouldBeRejected, true),
                    (call.name, "tool_result"),
                    (w.pointer, w.at),
                    &[
                        "the call `",
                        id,
                        "` has no result in the next turn, which ",
                        self.to,
                        " refuses (",
                        rule,
                        ")",
                    ],
                );
            }
        }
    }

    /// The tool choice said the target's way.
    fn choice(&mut self, t: ToolChoice<'a>) -> Result<ToolChoice<'a>, ConversionError> {
        let mut out = t;
        if let (Some(Choice::Tool(name)), Some((map, direction))) = (t.choice, self.map)
            && let Some(tool) = maps::tool(map, direction, name)
        {
            let mapped = self.str(maps::name_of(tool, direction), t.pointer)?;
            if let Some(node) = t.name_node.filter(|_| mapped != name) {
                self.patches.push(Patch::new(node, Replace::Str(mapped)));
            }
            out.choice = Some(Choice::Tool(mapped));
        }
        if self.same {
            return Ok(out);
        }
        let rules = self.target.choice;
        let at = (t.pointer, t.at);
        match out.choice {
            Some(Choice::None) if !rules.none => {
                out.choice = None;
                self.note(
                    EntryKind::content(Code::ToolChoiceChanged, true),
                    ("", "tool_choice"),
                    at,
                    &["`none` has no counterpart in ", self.to, "'s tool choice: left out, so the model may call tools (send no tools to forbid them)"],
                );
            }
            Some(Choice::Required) if !rules.required => {
                out.choice = Some(Choice::Auto);
                self.note(
                    EntryKind::content(Code::ToolChoiceChanged, true),
                    ("", "tool_choice"),
                    at,
                    &[
                        "a required tool call has no counterpart in ",
                        self.to,
                        ": written as `auto`",
                    ],
                );
            }
            _ => {}
        }
        if t.parallel.is_some() && !rules.parallel {
            out.parallel = None;
            if t.parallel == Some(false) {
                self.note(
                    EntryKind::content(Code::ToolChoiceChanged, true),
                    ("", "parallel_tool_calls"),
                    at,
                    &[self.to, " has no setting that stops parallel calls: left out, so the model may call several tools at once"],
                );
            }
        }
        Ok(out)
    }
}

/// The message a system turn holds.
fn message<'t, 'a>(t: &'t Turn<'a>) -> &'t Message<'a> {
    match t {
        Turn::System(m) | Turn::User(m) => m,
        _ => &EMPTY,
    }
}

const EMPTY: Message<'static> =
    Message { content: &[], raw: crate::ir::Json::Null, pointer: "", at: 0 };
