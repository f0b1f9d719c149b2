//! A call, and the assistant turn holding it: mapped through the definitions' map, its
//! arguments made the shape the target writes, its id made to obey the target's rule, its
//! signature and the turn's reasoning and provider-only blocks kept only for their own format.

use crate::error::ConversionError;
use crate::ir::Json;
use crate::ir::traffic::{Args, Assistant, Call, Part};
use crate::report::{Code, Effect, EntryKind};

use super::super::maps;
use super::Pass;
use crate::traffic::MapDirection;
use crate::traffic::{Patch, Replace};

/// What a calls turn's results are paired with: each call's id before and after the
/// conversion, and its name before and after the map.
#[derive(Clone, Copy, Debug)]
pub(super) struct Paired<'a> {
    pub source_id: Option<&'a str>,
    pub id: Option<&'a str>,
    pub source_name: &'a str,
    pub name: &'a str,
}

/// A record's id as it is being decided: the id read, its node, and what a made id is made
/// from.
pub(super) struct IdAt<'a, 'r> {
    pub id: Option<&'a str>,
    pub node: Option<&'a Json<'a>>,
    /// The calls turn's place, the tool's name in the source and its occurrence.
    pub seed: (u32, &'r str, u32),
    pub tool: &'r str,
    pub pointer: &'r str,
    pub at: u32,
}

impl<'a> Pass<'a, '_> {
    /// `turn` made fit for the target, with what its results pair with. `k` is the turn's
    /// place among the conversation's turns that carry calls.
    pub(super) fn assistant(
        &mut self,
        turn: Assistant<'a>,
        k: u32,
    ) -> Result<(Assistant<'a>, &'a [Paired<'a>]), ConversionError> {
        let calls = turn.calls().count();
        let occurrence = self.occurrences(turn.calls().map(|c| c.name), calls, turn.pointer)?;
        let mut paired = self.list::<Paired<'a>>(calls, turn.pointer)?;
        let mut parts = self.list::<Part<'a>>(turn.parts.len(), turn.pointer)?;
        let mut n = 0;
        let mut first_call = true;
        for part in turn.parts {
            match part {
                Part::Call(c) => {
                    let occ = occurrence.get(n).copied().unwrap_or(0);
                    n += 1;
                    let mut out = self.call(c, k, occ)?;
                    if first_call && !self.same && out.signature.is_none() {
                        out.signature = self.target.placeholder_signature;
                        if let Some(sig) = out.signature {
                            let with = (c.name, "thoughtSignature");
                            self.note(
                                EntryKind::content(Code::ContentRewritten, false),
                                with,
                                (c.pointer, c.at),
                                &[
                                    "the call has no reasoning signature from ",
                                    self.from,
                                    "; sent with the placeholder `",
                                    sig,
                                    "` ",
                                    self.to,
                                    " documents for calls made elsewhere",
                                ],
                            );
                        }
                    }
                    first_call = false;
                    paired.push(Paired {
                        source_id: c.id,
                        id: out.id,
                        source_name: c.name,
                        name: out.name,
                    });
                    parts.push(Part::Call(out));
                }
                Part::Reasoning(r) if !self.same => {
                    let what = if r.signature.is_some() || r.redacted.is_some() {
                        "; its signature is checked by that provider alone"
                    } else {
                        ""
                    };
                    self.note(
                        EntryKind::content(Code::ReasoningDropped, true),
                        ("", "reasoning"),
                        (r.pointer, r.at),
                        &["a reasoning block only ", self.from, " reads, left out", what],
                    );
                }
                Part::Text(t) if !self.same && !self.target.assistant_text => {
                    self.note(
                        EntryKind::content(Code::ContentDropped, true),
                        ("", "text"),
                        (t.pointer, t.at),
                        &[
                            "the model's text beside its calls has no place in ",
                            self.to,
                            "; left out",
                        ],
                    );
                }
                Part::Other(o) if !self.same => {
                    let kind = match o.block {
                        crate::ir::traffic::Block::Other(kind) => kind,
                        _ => "block",
                    };
                    self.note(
                        EntryKind::content(Code::ContentDropped, true),
                        ("", kind),
                        (o.pointer, o.at),
                        &[
                            "a `",
                            kind,
                            "` block (run by ",
                            self.from,
                            " itself) has no counterpart in ",
                            self.to,
                            "; left out",
                        ],
                    );
                }
                other => parts.push(*other),
            }
        }
        Ok((Assistant { parts: parts.done(), ..turn }, paired.done()))
    }

    /// `c` made fit for the target; `k` its turn's place among calls turns, `occ` its
    /// occurrence among that turn's calls of its name.
    fn call(&mut self, c: &Call<'a>, k: u32, occ: u32) -> Result<Call<'a>, ConversionError> {
        let mut out = *c;
        if let Some((map, direction)) = self.map
            && let Some(tool) = maps::tool(map, direction, c.name)
        {
            let name = self.str(maps::name_of(tool, direction), c.pointer)?;
            if tool.arguments.is_some() {
                let v = self.value(c.arguments, c.pointer)?;
                let mapped = maps::arguments(tool, direction, v, self.arena)
                    .ok_or_else(|| self.arena_error(c.pointer))?;
                out.arguments = Args::Value(mapped);
                if let Some(node) = c.nodes.args {
                    let with = match node {
                        Json::String(_) => Replace::JsonText(mapped),
                        _ => Replace::Json(mapped),
                    };
                    self.patches.push(Patch::new(node, with));
                }
            }
            if name != c.name {
                out.name = name;
                if let Some(node) = c.nodes.name {
                    self.patches.push(Patch::new(node, Replace::Str(name)));
                }
            }
            let way = match direction {
                MapDirection::Back => "back to the definitions' source: ",
                MapDirection::Forward => "forward to the definitions' target: ",
            };
            self.note(
                EntryKind::arguments(Code::CallMapped, Effect::None),
                (name, "name"),
                (c.pointer, c.at),
                &["the call of `", c.name, "` mapped ", way, "`", name, "`"],
            );
        }
        if !self.same {
            if out.custom && !self.target.custom_calls {
                let text = match out.arguments {
                    Args::Text(t) => t,
                    _ => "",
                };
                let member = self.arena.try_alloc_slice_fill_copy(
                    1,
                    crate::ir::Member { key: "input", value: Json::String(text) },
                );
                let member = member.map_err(|_| self.arena_error(c.pointer))?;
                out.arguments = Args::Value(Json::Object(member));
                out.custom = false;
                self.note(
                    EntryKind::arguments(Code::ContentRewritten, Effect::Changes),
                    (c.name, "custom_tool_call"),
                    (c.pointer, c.at),
                    &[
                        "a custom tool call's free text has no place in ",
                        self.to,
                        ": sent as the argument `input` of a function call",
                    ],
                );
            } else if !self.target.args_text && matches!(out.arguments, Args::Text(_)) {
                out.arguments = Args::Value(self.value(out.arguments, c.pointer)?);
            }
            if c.signature.is_some() && !self.target.call_signature {
                out.signature = None;
                self.note(
                    EntryKind::content(Code::ReasoningDropped, true),
                    (c.name, "thoughtSignature"),
                    (c.pointer, c.at),
                    &["the call's reasoning signature is read by ", self.from, " alone; left out"],
                );
            }
        }
        let seed = (k, c.name, occ);
        let at =
            IdAt { id: c.id, node: c.nodes.id, seed, tool: c.name, pointer: c.pointer, at: c.at };
        out.id = self.id(at)?;
        if let Some(id) = out.id.filter(|id| !id.is_empty()) {
            self.log.push(c.id.unwrap_or_default(), id, out.name);
        }
        Ok(out)
    }

    /// The id a record is written with: given back from the caller's map, kept where the
    /// rule admits it, rewritten where it does not, made where there is none and the target
    /// needs one. The same format keeps its ids (but those given back).
    pub(super) fn id(&mut self, r: IdAt<'a, '_>) -> Result<Option<&'a str>, ConversionError> {
        let present = r.id.filter(|id| !id.is_empty());
        if let Some(id) = present
            && let Some(original) = self.restore.and_then(|ids| ids.original(id))
            && !original.is_empty()
        {
            let original = self.str(original, r.pointer)?;
            if let Some(node) = r.node {
                self.patches.push(Patch::new(node, Replace::Str(original)));
            }
            self.note(
                EntryKind::content(Code::IdRewritten, false),
                (r.tool, "id"),
                (r.pointer, r.at),
                &["the id `", id, "` given back as `", original, "`"],
            );
            return Ok(Some(original));
        }
        if self.same {
            return Ok(r.id);
        }
        let rule = self.id_rule;
        match present {
            Some(id) if rule.accepts(id) => Ok(Some(id)),
            Some(id) => {
                self.text.clear();
                crate::traffic::rewritten_id(&rule, id, self.text);
                let written = self.str(self.text, r.pointer)?;
                self.note(
                    EntryKind::content(Code::IdRewritten, false),
                    (r.tool, "id"),
                    (r.pointer, r.at),
                    &[
                        "the id `",
                        id,
                        "` breaks ",
                        self.to,
                        "'s id rule (",
                        rule.pattern,
                        "); written `",
                        written,
                        "` (the same id is written so wherever it appears)",
                    ],
                );
                Ok(Some(written))
            }
            None if rule.required => {
                let (k, name, occ) = r.seed;
                self.text.clear();
                crate::traffic::made_id(&rule, k, name, occ, self.text);
                let written = self.str(self.text, r.pointer)?;
                self.note(
                    EntryKind::content(Code::IdAdded, false),
                    (r.tool, "id"),
                    (r.pointer, r.at),
                    &["no id from ", self.from, " and ", self.to, " needs one: made `", written, "` from the turn's place, the tool's name and its occurrence (its result gets the same)"],
                );
                Ok(Some(written))
            }
            None => Ok(r.id),
        }
    }

    /// Each name's occurrence among `names` (how many earlier ones are the same), in the
    /// arena; sorted once, so a turn of many calls costs n·log n.
    pub(super) fn occurrences(
        &self,
        names: impl Iterator<Item = &'a str>,
        len: usize,
        pointer: &str,
    ) -> Result<&'a [u32], ConversionError> {
        let arena = self.arena;
        let all =
            arena.try_alloc_slice_fill_copy(len, "").map_err(|_| self.arena_error(pointer))?;
        for (slot, name) in all.iter_mut().zip(names) {
            *slot = name;
        }
        let order =
            arena.try_alloc_slice_fill_copy(len, 0u32).map_err(|_| self.arena_error(pointer))?;
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = i as u32;
        }
        order.sort_unstable_by_key(|&i| (all.get(i as usize).copied().unwrap_or_default(), i));
        let occ =
            arena.try_alloc_slice_fill_copy(len, 0u32).map_err(|_| self.arena_error(pointer))?;
        let mut last: Option<&str> = None;
        let mut count = 0;
        for &i in order.iter() {
            let name = all.get(i as usize).copied().unwrap_or_default();
            count = if last == Some(name) { count + 1 } else { 0 };
            last = Some(name);
            if let Some(slot) = occ.get_mut(i as usize) {
                *slot = count;
            }
        }
        Ok(occ)
    }

    /// A list of at most `max` items in the arena.
    pub(super) fn list<T: Copy>(
        &self,
        max: usize,
        pointer: &str,
    ) -> Result<crate::traffic::List<'a, T>, ConversionError> {
        crate::traffic::List::with_capacity(self.arena, max)
            .ok_or_else(|| self.arena_error(pointer))
    }
}
