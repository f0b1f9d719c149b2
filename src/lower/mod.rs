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

pub(crate) use duplicates::{SMALL, Seen, hash};
pub use tape::{Elements, Kind, Members};

/// A position in the tape: the index of a value's node.
pub type At = usize;

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
    /// The target's property-key rule, tested on every `properties` key as it is lowered
    /// (the key's bytes are in cache then), so the names pass need not walk the schema again.
    key_rule: Option<(ByteRule, &'static str)>,
    /// A `properties` key lowered since [`Lowerer::begin_key_check`] breaks `key_rule`.
    key_broken: bool,
    /// The members the conversion's target keeps (see [`Lowerer::target_drops`]).
    keeps: MemberKeeps,
}

impl<'a, 's> Lowerer<'a, 's> {
    pub(crate) fn new(
        doc: &'a Doc<'a>,
        src: &'a [u8],
        arena: &'a Bump,
        limits: &'s Limits,
        adapter: &'s str,
        scratch: &'s mut Vec<(u64, u32)>,
    ) -> Self {
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
            key_rule: None,
            key_broken: false,
            keeps: MemberKeeps::ALL,
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

    /// Reads `type` names as Gemini's OpenAPI `Type` enum spells them too (`STRING`), for
    /// schemas lowered until this is set back.
    pub fn set_openapi_types(&mut self, on: bool) {
        self.openapi_types = on;
    }

    /// Tests every `properties` key lowered from now on against `rule` (the target's key
    /// rule), for [`Lowerer::key_check`].
    pub(crate) fn check_keys(&mut self, rule: Option<&NameRule>) {
        self.key_rule = rule.map(|r| (ByteRule::new(r), r.pattern));
    }

    /// Sets the members the conversion's target keeps ([`MemberKeeps::ALL`] when the tools
    /// are read for their own sake).
    pub(crate) fn set_keeps(&mut self, keeps: MemberKeeps) {
        self.keeps = keeps;
    }

    /// Whether the target drops an envelope member of role `role` whole (an output schema it
    /// has no place for, metadata it cannot hold): its value is then never read, so it is
    /// passed over with [`Lowerer::skip`] instead of lowered, and passes and the report do not
    /// speak of its insides. The envelope pass reports the member itself as dropped.
    #[inline]
    pub fn target_drops(&self, role: Role) -> bool {
        !self.keeps.keeps(role)
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

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.limits
    }
}
