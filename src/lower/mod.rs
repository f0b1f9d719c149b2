//! Lowering: simd-json tape → arena IR.
//!
//! The lowerer walks the tape in document order. Numbers are taken as their source text by
//! pairing the k-th number node of the tape with the k-th structural token that starts a number
//! (simd-json's tape only keeps the parsed value). Every walk either lowers a subtree or
//! [`Lowerer::skip`]s it, which keeps that pairing in step. Depth, duplicate keys and arena size
//! are checked here, each breach a [`ConversionError`](crate::ConversionError) with the pointer
//! of the bad place.
//!
//! This file holds the [`Lowerer`] and what a lowering is told (the target's members and key
//! rule); the rest is split by job:
//! - `tape.rs`: reading values off the tape ([`Kind`], [`Members`], [`Elements`]).
//! - `numbers.rs`: numbers as their source text, and skipping a value in step.
//! - `duplicates.rs`: rejecting repeated keys.
//! - `limits.rs`: the depth and arena limits, and the errors lowering raises.
//! - `json.rs`: any JSON value, verbatim.
//! - `schema.rs`: the JSON Schema lowering every format shares.

mod duplicates;
mod json;
mod limits;
mod numbers;
mod schema;
mod tape;

use bumpalo::Bump;
use simd_json::Node;

use crate::ir::{MemberKeeps, Role};
use crate::options::Limits;
use crate::parse::Doc;
use crate::profile::{ByteRule, NameRule};
use crate::report::OwnedNote;

pub(crate) use duplicates::{SMALL, Seen, hash};
pub(crate) use tape::Locator;
pub use tape::{Elements, Kind, Members};

/// A position in the tape: the index of a value's node.
pub type At = usize;

/// What a format's reader says about a tool beyond what the IR holds, and where: a report
/// entry (a member a later revision of the format removed, an annotation the target does not
/// read), or why the tool is left out (one its own format's clients must refuse). Rare, so
/// owned.
#[derive(Clone, Debug)]
pub(crate) struct ReadNote {
    /// Source position of the tool ([`crate::ir::Tool`]'s `at`).
    pub tool_at: u32,
    /// Source position of the place.
    pub at: u32,
    /// What the entry says; its pointer relative to the tool.
    pub note: OwnedNote,
    /// The tool is left out of the conversion.
    pub leave_out: bool,
}

/// What a lowering is told: the format read, the limits, and, in a conversion, what its target
/// asks of the reading ([`crate::context::Context::reading`]); decided before the lowerer is
/// made, never set on it after.
#[derive(Clone, Copy)]
pub(crate) struct Reading<'s> {
    /// The name of the format read.
    pub format: &'s str,
    /// The limits in force.
    pub limits: &'s Limits,
    /// The members the conversion's target keeps ([`MemberKeeps::ALL`] when the tools are
    /// read for their own sake).
    pub keeps: MemberKeeps,
    /// The conversion writes the format it reads (or has no target).
    pub same_format: bool,
    /// The target's property-key rule, tested on every `properties` key lowered.
    pub key_rule: Option<&'s NameRule>,
}

impl<'s> Reading<'s> {
    /// Reading `format`'s tools for their own sake, under `limits`: every member kept, no key
    /// rule.
    pub(crate) fn own(format: &'s str, limits: &'s Limits) -> Self {
        Reading { format, limits, keeps: MemberKeeps::ALL, same_format: true, key_rule: None }
    }

    /// The same, read for a target that keeps `keeps`, is the format read when `same_format`,
    /// and holds property keys to `key_rule`.
    pub(crate) fn for_target(
        self,
        keeps: MemberKeeps,
        same_format: bool,
        key_rule: Option<&'s NameRule>,
    ) -> Self {
        Reading { keeps, same_format, key_rule, ..self }
    }
}

/// Reads a parsed document into the arena. Format front ends ([`crate::Adapter::lower_tool`])
/// use its methods to read their envelope and call [`Lowerer::schema`] for schemas.
pub struct Lowerer<'a, 's> {
    tape: &'a [Node<'a>],
    src: &'a [u8],
    structurals: &'a [u32],
    next_structural: usize,
    /// Where the input's escapes start (see [`Doc::escapes`]).
    escapes: &'a [u64],
    /// The input offset just past the last number read after a string without the structural
    /// cursor (see [`Lowerer::number_after_string`]); the cursor is moved past it before it
    /// is used again.
    cursor_floor: usize,
    /// The address of the parser's input copy, where the tape's strings start at their source
    /// offsets (simd-json decodes in place).
    base: usize,
    arena: &'a Bump,
    limits: &'s Limits,
    adapter: &'s str,
    scratch: &'s mut Vec<(u64, u32)>,
    openapi_types: bool,
    /// The spellings of the OpenAPI type names read under [`Lowerer::with_openapi_types`]:
    /// bit 1 a lower-case one (`string`), bit 2 an upper-case one (`STRING`).
    type_case: u8,
    /// The target's property-key rule, tested on every `properties` key as it is lowered
    /// (the key's bytes are in cache then), so the names pass need not walk the schema again.
    key_rule: Option<(ByteRule, &'static str)>,
    /// A `properties` key lowered since [`Lowerer::begin_key_check`] breaks `key_rule`.
    key_broken: bool,
    /// The members the conversion's target keeps (see [`Lowerer::target_drops`]).
    keeps: MemberKeeps,
    /// The conversion writes the format it reads (or has no target).
    same_format: bool,
    /// An unknown keyword a reader listens for ([`Lowerer::watching`]), and whether
    /// a schema lowered while it listens holds it.
    watch: &'static str,
    watched: bool,
    /// The object being lowered as a schema that is also a tool's envelope
    /// ([`Lowerer::tool_schema`]); `usize::MAX` when none is.
    envelope_at: At,
    /// What the readers said about the tools ([`ReadNote`]).
    notes: Vec<ReadNote>,
}

impl<'a, 's> Lowerer<'a, 's> {
    pub(crate) fn new(
        doc: &'a Doc<'a>,
        src: &'a [u8],
        arena: &'a Bump,
        scratch: &'s mut Vec<(u64, u32)>,
        reading: Reading<'s>,
    ) -> Self {
        let Reading { format: adapter, limits, keeps, same_format, key_rule } = reading;
        Lowerer {
            tape: &doc.tape,
            src,
            structurals: doc.structurals,
            next_structural: 0,
            escapes: doc.escapes,
            cursor_floor: 0,
            base: doc.base,
            arena,
            limits,
            adapter,
            scratch,
            openapi_types: false,
            type_case: 0,
            key_rule: key_rule.map(|r| (ByteRule::new(r), r.pattern)),
            key_broken: false,
            keeps,
            same_format,
            watch: "",
            watched: false,
            envelope_at: usize::MAX,
            notes: Vec::new(),
        }
    }

    /// The name of the format being read.
    pub fn format(&self) -> &str {
        self.adapter
    }

    /// The arena nodes are allocated in.
    pub fn arena(&self) -> &'a Bump {
        self.arena
    }

    /// The parsed document, for finding a value's place after lowering ([`Locator`]).
    pub(crate) fn tape(&self) -> &'a [Node<'a>] {
        self.tape
    }

    /// Runs `lower` with `type` names read as Gemini's OpenAPI `Type` enum spells them too
    /// (`STRING`) when `openapi` is true (a reading mode of the declaration being lowered, an
    /// argument rather than a switch left set); gives back what `lower` gave and whether every
    /// OpenAPI type name it read was spelled lower-case (`string`, which Gemini's API reads as
    /// `STRING`), and there was one: the same format writes them back so.
    pub fn with_openapi_types<T>(
        &mut self,
        openapi: bool,
        lower: impl FnOnce(&mut Self) -> T,
    ) -> (T, bool) {
        let outer = (self.openapi_types, self.type_case);
        (self.openapi_types, self.type_case) = (openapi, 0);
        let out = lower(self);
        let lower_case = openapi && self.type_case == 1;
        (self.openapi_types, self.type_case) = outer;
        (out, lower_case)
    }

    /// Whether the target drops an envelope member of role `role` whole (an output schema it
    /// has no place for, metadata it cannot hold): its value is then never read, so it is
    /// passed over with [`Lowerer::skip`] instead of lowered, and passes and the report do not
    /// speak of its insides. The envelope pass reports the member itself as dropped.
    #[inline]
    pub fn target_drops(&self, role: Role) -> bool {
        !self.keeps.keeps(role)
    }

    /// [`Lowerer::target_drops`] for the member `key`: a metadata member the target defines
    /// is kept where other metadata is not ([`MemberKeeps::keeps_member`]).
    #[inline]
    pub fn target_drops_member(&self, role: Role, key: &str) -> bool {
        !self.keeps.keeps_member(role, key)
    }

    /// Starts a key check: [`Lowerer::key_check`] answers for the keys lowered after this.
    pub(crate) fn begin_key_check(&mut self) {
        self.key_broken = false;
    }

    /// The pattern of the key rule every `properties` key lowered since
    /// [`Lowerer::begin_key_check`] obeys; `None` when one breaks it or no rule is set.
    pub(crate) fn key_check(&self) -> Option<&'static str> {
        self.key_rule.filter(|_| !self.key_broken).map(|(_, pattern)| pattern)
    }

    /// Notes a `properties` key for [`Lowerer::key_check`].
    #[inline]
    fn note_key(&mut self, key: &str) {
        if let Some((rule, _)) = &self.key_rule
            && !rule.accepts(key)
        {
            self.key_broken = true;
        }
    }

    /// Whether the conversion writes the format it reads (or has no target).
    pub(crate) fn same_format(&self) -> bool {
        self.same_format
    }

    /// Runs `lower` listening for the unknown keyword `key` (MCP's `x-mcp-header`) in the
    /// schemas it lowers; gives back what `lower` gave and whether one held it. Checked only
    /// where an unknown keyword is lowered, so it costs nothing on the common path.
    pub(crate) fn watching<T>(
        &mut self,
        key: &'static str,
        lower: impl FnOnce(&mut Self) -> T,
    ) -> (T, bool) {
        let outer = (self.watch, self.watched);
        (self.watch, self.watched) = (key, false);
        let out = lower(self);
        let seen = self.watched;
        (self.watch, self.watched) = outer;
        (out, seen)
    }

    /// Notes an unknown keyword `key` as it is lowered.
    #[inline]
    fn note_unknown(&mut self, key: &str) {
        if key == self.watch && !key.is_empty() {
            self.watched = true;
        }
    }

    /// Records what a reader says about a tool.
    #[cold]
    pub(crate) fn note(&mut self, note: ReadNote) {
        self.notes.push(note);
    }

    /// What the readers said, taken out.
    pub(crate) fn take_notes(&mut self) -> Vec<ReadNote> {
        std::mem::take(&mut self.notes)
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// The size of the document being read, in bytes.
    pub(crate) fn input_len(&self) -> usize {
        self.src.len()
    }
}
