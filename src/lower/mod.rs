//! Lowering: simd-json tape → arena IR.
//!
//! The lowerer walks the tape in document order. Numbers are taken as their source text by
//! pairing the k-th number node of the tape with the k-th structural token that starts a number
//! (simd-json's tape only keeps the parsed value). Every walk either lowers a subtree or
//! [`Lowerer::skip`]s it, which keeps that pairing in step. Depth, duplicate keys and arena size
//! are checked here, each breach a [`ConversionError`] with the pointer of the bad place.

mod schema;

use bumpalo::Bump;
use simd_json::{Node, StaticNode};

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Json, Member, MemberKeeps, Role};
use crate::options::Limits;
use crate::parse::Doc;
use crate::pointer::{Path, Seg};
use crate::profile::{ByteRule, NameRule};

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

/// The JSON type of a tape value, for envelope code that branches on shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// a boolean
    Bool,
    /// a number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl Kind {
    /// The JSON type name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
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

    /// An error of this adapter's lowering at `path`.
    #[cold]
    pub fn error(&self, path: &Path<'_>, kind: ErrorKind) -> ConversionError {
        ConversionError::new(self.adapter, Direction::ToCanonical, path.to_pointer(), kind)
    }

    fn node(&self, at: At) -> Node<'a> {
        // The tape is well formed, so indices derived from it are in range; `Null` is a harmless
        // answer should a caller pass a bad index.
        self.tape.get(at).copied().unwrap_or(Node::Static(StaticNode::Null))
    }

    /// The JSON type of the value at `at`.
    pub fn kind(&self, at: At) -> Kind {
        match self.node(at) {
            Node::String(_) => Kind::String,
            Node::Object { .. } => Kind::Object,
            Node::Array { .. } => Kind::Array,
            Node::Static(StaticNode::Null) => Kind::Null,
            Node::Static(StaticNode::Bool(_)) => Kind::Bool,
            Node::Static(_) => Kind::Number,
        }
    }

    /// The string at `at`, if it is one.
    pub fn str(&self, at: At) -> Option<&'a str> {
        match self.node(at) {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean at `at`, if it is one.
    pub fn bool(&self, at: At) -> Option<bool> {
        match self.node(at) {
            Node::Static(StaticNode::Bool(b)) => Some(b),
            _ => None,
        }
    }

    /// Index just past the value at `at`.
    #[inline]
    pub fn end(&self, at: At) -> At {
        match self.node(at) {
            Node::Object { count, .. } | Node::Array { count, .. } => at + 1 + count,
            _ => at + 1,
        }
    }

    /// The members of the object at `at`: `(key, key position, value position)` in order.
    /// Empty for anything that is not an object.
    pub fn members(&self, at: At) -> Members<'a> {
        let len = match self.node(at) {
            Node::Object { len, .. } => len,
            _ => 0,
        };
        Members { tape: self.tape, next: at + 1, left: len }
    }

    /// The elements of the array at `at`, in order. Empty for anything that is not an array.
    pub fn elements(&self, at: At) -> Elements<'a> {
        let len = match self.node(at) {
            Node::Array { len, .. } => len,
            _ => 0,
        };
        Elements { tape: self.tape, next: at + 1, left: len }
    }

    /// Finds member `key` of the object at `at` without consuming anything.
    pub fn find(&self, at: At, key: &str) -> Option<At> {
        self.members(at).find(|(k, _, _)| *k == key).map(|(_, _, v)| v)
    }

    /// Passes over the value at `at` without lowering it, keeping number text in step.
    ///
    /// # Errors
    /// A number in the skipped value that is not valid JSON.
    pub fn skip(&mut self, at: At, path: &Path<'_>) -> Result<(), ConversionError> {
        let end = self.end(at).min(self.tape.len());
        for i in at..end {
            if matches!(
                self.tape.get(i),
                Some(Node::Static(StaticNode::I64(_) | StaticNode::U64(_) | StaticNode::F64(_)))
            ) {
                self.number_text(i, path)?;
            }
        }
        Ok(())
    }

    /// The source text of the next number in document order. The text is checked against the
    /// JSON number grammar: simd-json's big-integer fallback accepts tokens such as
    /// `1234567890123456789012-1` that are not JSON, and those must not pass through verbatim.
    fn number_text(&mut self, at: At, path: &Path<'_>) -> Result<&'a str, ConversionError> {
        if let Some(text) = self.number_after_string(at) {
            return Ok(text);
        }
        self.catch_up(at);
        let src = self.src;
        let rest = self.structurals.get(self.next_structural..).unwrap_or_default();
        let found =
            rest.iter().position(|&off| matches!(src.get(off as usize), Some(b'-' | b'0'..=b'9')));
        let Some(i) = found else {
            self.next_structural = self.structurals.len();
            return Err(self.error(
                path,
                ErrorKind::Json { offset: src.len(), message: "number expected".into() },
            ));
        };
        self.next_structural += i + 1;
        let off = rest.get(i).map_or(0, |&o| o as usize);
        let rest = src.get(off..).unwrap_or_default();
        let text = json_number(rest).and_then(|len| rest.get(..len));
        match text.map(std::str::from_utf8) {
            Some(Ok(t)) => Ok(t),
            _ => Err(self
                .error(path, ErrorKind::Json { offset: off, message: "malformed number".into() })),
        }
    }

    /// The number at `at` read straight from the input when the node before it is a string
    /// the input held without escapes (a member's key, or the array element before it): its
    /// text ends where its decoded text ends, and then only a closing quote, a `:` or `,`
    /// and whitespace come before the number. This spares the search of the structural
    /// index, whose binary search costs cache misses on large inputs. `None` sends the
    /// caller to that search.
    #[inline]
    fn number_after_string(&mut self, at: At) -> Option<&'a str> {
        let Some(Node::String(s)) = self.tape.get(at.checked_sub(1)?) else { return None };
        let start = (s.as_ptr() as usize).wrapping_sub(self.base);
        let end = start.checked_add(s.len()).filter(|&e| e < self.src.len())?;
        if crate::parse::escape_within(self.escapes, start, end) {
            return None;
        }
        let src = self.src;
        let mut i = end;
        if src.get(i) != Some(&b'"') {
            return None;
        }
        i += 1;
        let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        i += src.get(i..)?.iter().take_while(|b| ws(b)).count();
        if !matches!(src.get(i), Some(b':' | b',')) {
            return None;
        }
        i += 1;
        i += src.get(i..)?.iter().take_while(|b| ws(b)).count();
        let rest = src.get(i..)?;
        let text = rest.get(..json_number(rest)?)?;
        self.cursor_floor = i + text.len();
        std::str::from_utf8(text).ok()
    }

    /// Moves the structural cursor past the nearest string before the number at `at` (a
    /// member's key, usually the node just before): the string's offset is known from where
    /// its text lies in the input copy, so a binary search replaces walking every structural
    /// since the last number. Every earlier number has been consumed, so none is jumped over.
    #[inline]
    fn catch_up(&mut self, at: At) {
        if self.cursor_floor > 0 {
            let floor = self.cursor_floor;
            let past = self.structurals.partition_point(|&o| (o as usize) < floor);
            self.next_structural = self.next_structural.max(past);
            self.cursor_floor = 0;
        }
        let before = self.tape.get(at.saturating_sub(4)..at).unwrap_or_default();
        let Some(s) = before.iter().rev().find_map(|n| match n {
            Node::String(s) => Some(*s),
            _ => None,
        }) else {
            return;
        };
        let offset = (s.as_ptr() as usize).wrapping_sub(self.base);
        if offset > self.src.len() {
            return;
        }
        let past = self.structurals.partition_point(|&o| (o as usize) < offset);
        self.next_structural = self.next_structural.max(past);
    }

    /// Rejects nesting past the depth limit.
    #[inline]
    pub fn check_depth(&self, depth: usize, path: &Path<'_>) -> Result<(), ConversionError> {
        if depth > self.limits.max_depth {
            return Err(self.error(path, ErrorKind::DepthLimit { limit: self.limits.max_depth }));
        }
        Ok(())
    }

    /// Allocates a slice of `len` copies of `fill` in the arena, or fails at the arena limit.
    pub fn alloc_slice<T: Copy>(
        &self,
        len: usize,
        fill: T,
        path: &Path<'_>,
    ) -> Result<&'a mut [T], ConversionError> {
        self.arena.try_alloc_slice_fill_copy(len, fill).map_err(|_| self.arena_error(path))
    }

    /// Moves `value` into the arena, or fails at the arena limit.
    pub fn alloc<T: Copy>(&self, value: T, path: &Path<'_>) -> Result<&'a T, ConversionError> {
        self.alloc_mut(value, path).map(|v| &*v)
    }

    /// [`Lowerer::alloc`], for a slot the caller fills in place.
    pub(crate) fn alloc_mut<T: Copy>(
        &self,
        value: T,
        path: &Path<'_>,
    ) -> Result<&'a mut T, ConversionError> {
        self.arena.try_alloc(value).map_err(|_| self.arena_error(path))
    }

    #[cold]
    fn arena_error(&self, path: &Path<'_>) -> ConversionError {
        self.error(path, ErrorKind::ArenaLimit { limit: self.limits.max_arena_bytes })
    }

    /// The number of members of the object at `at` (0 for anything else), from its tape node.
    #[inline]
    pub(crate) fn object_len(&self, at: At) -> usize {
        match self.node(at) {
            Node::Object { len, .. } => len,
            _ => 0,
        }
    }

    /// The number of elements of the array at `at` (0 for anything else), from its tape node.
    #[inline]
    pub(crate) fn array_len(&self, at: At) -> usize {
        match self.node(at) {
            Node::Array { len, .. } => len,
            _ => 0,
        }
    }

    /// Rejects an object whose keys repeat. Small objects compare each key's fingerprint with
    /// the earlier ones' (strings only on a match); larger ones sort hashes in a reused scratch
    /// vector, so the check stays O(n log n) without allocating.
    pub fn check_duplicates(&mut self, at: At, path: &Path<'_>) -> Result<(), ConversionError> {
        let len = self.object_len(at);
        if len < 2 {
            return Ok(());
        }
        if len <= SMALL {
            let mut seen = Seen::new();
            for (i, (k, _, _)) in self.members(at).enumerate() {
                if !seen.fresh(k) && self.members(at).take(i).any(|(e, _, _)| e == k) {
                    return Err(self.error(&path.push(Seg::Key(k)), dup(k)));
                }
            }
            return Ok(());
        }
        self.scratch.clear();
        for (k, key_at, _) in self.members(at) {
            self.scratch.push((hash(k), key_at as u32));
        }
        self.scratch.sort_unstable();
        for pair in self.scratch.windows(2) {
            let [(ha, ia), (hb, ib)] = pair else { continue };
            if ha == hb {
                let a = self.str(*ia as usize);
                if a.is_some() && a == self.str(*ib as usize) {
                    let k = a.unwrap_or_default();
                    return Err(self.error(&path.push(Seg::Key(k)), dup(k)));
                }
            }
        }
        Ok(())
    }

    /// `e`, unless the object at `at` repeats a key: lowering a member before the object's
    /// duplicate check ran must not change which error the caller sees.
    #[cold]
    pub(crate) fn prefer_duplicate(
        &mut self,
        at: At,
        path: &Path<'_>,
        e: ConversionError,
    ) -> ConversionError {
        match self.check_duplicates(at, path) {
            Err(d) => d,
            Ok(()) => e,
        }
    }

    /// Lowers any JSON value verbatim.
    pub fn json(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Json<'a>, ConversionError> {
        Ok(match self.node(at) {
            Node::String(s) => Json::String(s),
            Node::Static(StaticNode::Null) => Json::Null,
            Node::Static(StaticNode::Bool(b)) => Json::Bool(b),
            Node::Static(_) => Json::Number(self.number_text(at, path)?),
            Node::Array { len, .. } => {
                self.check_depth(depth + 1, path)?;
                let items = self.alloc_slice(len, Json::Null, path)?;
                let mut elems = self.elements(at);
                for (i, slot) in items.iter_mut().enumerate() {
                    let Some(v) = elems.next() else { break };
                    // Strings (most `enum` values) without a call: its result, returned
                    // through memory and copied, stalled store forwarding.
                    *slot = match self.node(v) {
                        Node::String(s) => Json::String(s),
                        _ => self.json(v, &path.push(Seg::Index(i)), depth + 1)?,
                    };
                }
                Json::Array(items)
            }
            Node::Object { len, .. } => {
                self.check_depth(depth + 1, path)?;
                self.check_duplicates(at, path)?;
                let members = self.alloc_slice(len, Member { key: "", value: Json::Null }, path)?;
                let mut iter = self.members(at);
                for slot in members.iter_mut() {
                    let Some((k, _, v)) = iter.next() else { break };
                    let value = match self.node(v) {
                        Node::String(s) => Json::String(s),
                        _ => self.json(v, &path.push(Seg::Key(k)), depth + 1)?,
                    };
                    *slot = Member { key: k, value };
                }
                Json::Object(members)
            }
        })
    }
}

/// Length of the JSON number at the start of `b` (RFC 8259 grammar), if it is one and is
/// followed by a delimiter.
fn json_number(b: &[u8]) -> Option<usize> {
    let digits = |from: usize| {
        b.get(from..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits(i),
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return None;
        }
        i += 1 + n;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return None;
        }
        i += n;
    }
    match b.get(i) {
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}') => Some(i),
        Some(_) => None,
    }
}

fn dup(key: &str) -> ErrorKind {
    ErrorKind::DuplicateKey { key: key.to_owned() }
}

/// Objects with at most this many keys check duplicates by fingerprint, larger ones by hash.
pub(crate) const SMALL: usize = 12;

/// The keys of a small object seen so far, as fingerprints: a first test for repeats that
/// compares integers, not strings.
pub(crate) struct Seen {
    fingerprints: [u64; SMALL],
    n: usize,
}

impl Seen {
    /// Nothing seen.
    #[inline]
    pub(crate) fn new() -> Self {
        Seen { fingerprints: [0; SMALL], n: 0 }
    }

    /// Records `key`; `false` when an earlier key may be the same (the caller compares).
    #[inline]
    pub(crate) fn fresh(&mut self, key: &str) -> bool {
        let fp = fingerprint(key);
        let seen = self.fingerprints.get(..self.n).unwrap_or_default();
        let fresh = !seen.contains(&fp);
        if let Some(slot) = self.fingerprints.get_mut(self.n) {
            *slot = fp;
            self.n += 1;
        }
        fresh
    }
}

/// Length and first, middle and last bytes: equal keys have equal fingerprints, and keys of
/// one object rarely share all four.
#[inline]
fn fingerprint(key: &str) -> u64 {
    let b = key.as_bytes();
    let byte = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
    let n = b.len();
    (n as u64) | byte(0) << 32 | byte(n / 2) << 40 | byte(n.wrapping_sub(1)) << 48
}

/// FNV-1a: stable across runs and versions, so names derived from it are too.
pub(crate) fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Iterator over an object's members on the tape.
pub struct Members<'a> {
    tape: &'a [Node<'a>],
    next: At,
    left: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, At, At);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let key_at = self.next;
        let key = match self.tape.get(key_at) {
            Some(Node::String(s)) => *s,
            _ => "",
        };
        let value_at = key_at + 1;
        self.next = match self.tape.get(value_at) {
            Some(Node::Object { count, .. } | Node::Array { count, .. }) => value_at + 1 + count,
            _ => value_at + 1,
        };
        Some((key, key_at, value_at))
    }
}

/// Iterator over an array's elements on the tape.
pub struct Elements<'a> {
    tape: &'a [Node<'a>],
    next: At,
    left: usize,
}

impl Iterator for Elements<'_> {
    type Item = At;

    fn next(&mut self) -> Option<At> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.next;
        self.next = match self.tape.get(at) {
            Some(Node::Object { count, .. } | Node::Array { count, .. }) => at + 1 + count,
            _ => at + 1,
        };
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::json_number;

    #[test]
    fn number_grammar() {
        for ok in ["0", "-0", "1.0e-7", "0.10", "1E+2", "9007199254740993", "12]", "3,"] {
            assert!(json_number(ok.as_bytes()).is_some(), "{ok}");
        }
        for bad in ["01", "1.", ".5", "1e", "-", "78901234567890123456-891", "1x", "+1", "1.5.2"] {
            assert_eq!(json_number(bad.as_bytes()), None, "{bad}");
        }
        assert_eq!(json_number(b"12]"), Some(2));
    }
}
