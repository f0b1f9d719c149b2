//! What happens to a payload between reading and writing, for the target's rules: calls
//! mapped through the definitions' map, arguments read into values where the target wants
//! objects, ids kept, rewritten or made, results paired with their calls, and content the
//! target cannot carry rewritten or left out, each change an entry in the report.
//!
//! Input: the payload as the source's reader made it. Output: a payload every part of which
//! the target's writer can write (so writers decide nothing), and, for the same format, the
//! patches that write the source back with the changed nodes replaced.
//!
//! - `calls.rs`: a call and an assistant turn.
//! - `results.rs`: a result, a results turn, and content blocks.
//! - `conversation.rs`: a conversation's turns, pairing, system text and tool choice.

mod calls;
mod conversation;
mod results;

use bumpalo::Bump;

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::inverse::Inverse;
use crate::ir::Json;
use crate::ir::traffic::{Args, Payload, Response};
use crate::options::Limits;
use crate::report::{EntryKind, Note};

use crate::traffic::ArgParser;
use crate::traffic::MapDirection;
use crate::traffic::Patch;
use crate::traffic::note::{Record, TrafficNote};
use crate::traffic::{IdLog, Ids};
use crate::traffic::{IdRule, TrafficRules};

/// One conversion's pass over its payload: what it reads, what it writes to.
pub(crate) struct Pass<'a, 'p> {
    pub arena: &'a Bump,
    /// The source and target format names.
    pub from: &'p str,
    pub to: &'p str,
    /// Source and target are one format: nothing is normalized, changes become patches.
    pub same: bool,
    /// The target's rules.
    pub target: &'static TrafficRules,
    /// The id rule held to (the target's, or a stricter one the caller gave).
    pub id_rule: IdRule,
    /// The definitions' map and the way it is applied.
    pub map: Option<(&'p Inverse, MapDirection)>,
    /// Ids to give back.
    pub restore: Option<&'p Ids>,
    pub log: &'p mut IdLog,
    pub args: &'p mut ArgParser,
    pub limits: &'p Limits,
    pub notes: &'p mut dyn Record,
    pub patches: &'p mut Vec<Patch<'a>>,
    /// Scratch for ids and JSON text.
    pub text: &'p mut String,
    pub bytes: &'p mut Vec<u8>,
}

/// `payload` made fit for the target.
///
/// # Errors
/// Arguments that must be read (for a map, or a target that wants objects) and are not a
/// JSON object; a result the target must name (Gemini) with no name to be found; the arena
/// limit.
pub(crate) fn prepare<'a>(
    p: &mut Pass<'a, '_>,
    payload: Payload<'a>,
) -> Result<Payload<'a>, ConversionError> {
    let payload = match payload {
        Payload::Calls(turn) => Payload::Calls(p.assistant(turn, 0)?.0),
        Payload::Response(r) => {
            Payload::Response(Response { turn: p.assistant(r.turn, 0)?.0, ..r })
        }
        Payload::Results(turn) => Payload::Results(p.results(turn, 0, &[])?),
        Payload::Messages(c) => Payload::Messages(p.conversation(c)?),
    };
    p.patches.sort_unstable_by_key(|patch| patch.node);
    Ok(payload)
}

impl<'a> Pass<'a, '_> {
    /// Records an entry about the record at `pointer` (reading position `at`).
    pub(super) fn note(
        &mut self,
        kind: EntryKind,
        (tool, feature): (&str, &str),
        (pointer, at): (&str, u32),
        pieces: &[&str],
    ) {
        let note: TrafficNote<'_> = Note { kind, feature, pointer, message: pieces };
        self.notes.record((tool, at), note);
    }

    /// An error at `pointer` of a record read from the source.
    #[cold]
    pub(super) fn error(&self, pointer: &str, kind: ErrorKind) -> ConversionError {
        ConversionError::new(self.from, Direction::ToCanonical, pointer, kind)
    }

    /// The error for a record the target cannot be written without.
    #[cold]
    pub(super) fn refuse(&self, pointer: &str, why: String) -> ConversionError {
        ConversionError::new(
            self.to,
            Direction::FromCanonical,
            pointer,
            ErrorKind::NotConvertible(why),
        )
    }

    /// `text` copied into the arena.
    pub(super) fn str(&self, text: &str, pointer: &str) -> Result<&'a str, ConversionError> {
        self.arena.try_alloc_str(text).map(|s| &*s).map_err(|_| self.arena_error(pointer))
    }

    #[cold]
    pub(super) fn arena_error(&self, pointer: &str) -> ConversionError {
        let limit = self.arena.allocation_limit().unwrap_or(0);
        self.error(pointer, ErrorKind::ArenaLimit { limit })
    }

    /// `args` as a JSON object value: text read as JSON (at `pointer`, the call's).
    pub(super) fn value(
        &mut self,
        args: Args<'a>,
        pointer: &str,
    ) -> Result<Json<'a>, ConversionError> {
        let v = match args {
            Args::Value(v) => v,
            Args::Absent => Json::Object(&[]),
            Args::Text(t) => match self.args.value(t, self.arena, self.limits, self.from) {
                Ok(v) => v,
                Err(kind) => {
                    let why = format!("the call's arguments are not JSON: {kind}");
                    return Err(self.error(pointer, ErrorKind::Shape(why)));
                }
            },
        };
        match v {
            Json::Object(_) => Ok(v),
            other => Err(self.error(
                pointer,
                ErrorKind::WrongType {
                    member: "arguments".to_owned(),
                    expected: "a JSON object",
                    found: other.kind(),
                },
            )),
        }
    }

    /// `v` as JSON text in the arena (a JSON block written where only text goes).
    pub(super) fn json_text(
        &mut self,
        v: &Json<'_>,
        pointer: &str,
    ) -> Result<&'a str, ConversionError> {
        self.bytes.clear();
        crate::emit::Writer::new(self.bytes, false).json(v);
        let text = std::str::from_utf8(self.bytes).unwrap_or_default();
        self.arena.try_alloc_str(text).map(|s| &*s).map_err(|_| self.arena_error(pointer))
    }
}
