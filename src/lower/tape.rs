//! Reading values off the tape: a value's JSON type, strings, booleans, and the members and
//! elements of objects and arrays, with where each value ends (simd-json's `count` lets a
//! whole subtree be stepped over at once).

use simd_json::{Node, StaticNode};

use super::{At, Lowerer};

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

impl<'a> Lowerer<'a, '_> {
    pub(super) fn node(&self, at: At) -> Node<'a> {
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

/// Finds where tape values are in their document, as RFC 6901 pointers, for the rare report
/// that must name a value's place after lowering (a tool left out by the passes). Values are
/// asked for in document order, mostly elements of one long list: the list last stepped into
/// is remembered with the last element found, so a walk resumes there rather than going over
/// the list's earlier elements again, and a catalog's walks cost one pass over it in all.
#[derive(Debug, Default)]
pub(crate) struct Locator {
    /// The list last stepped into, and the last element found in it with its index.
    list: Option<(At, At, usize)>,
}

impl Locator {
    /// The pointer of the value at `target` of the document whose tape is `tape`.
    pub(crate) fn pointer(&mut self, tape: &[Node<'_>], target: At) -> String {
        let end = |at: At| match tape.get(at) {
            Some(Node::Object { count, .. } | Node::Array { count, .. }) => at + 1 + count,
            _ => at + 1,
        };
        let mut out = String::new();
        let mut at = 0;
        while at < target {
            let next = match tape.get(at) {
                Some(Node::Object { len, .. }) => {
                    let mut members = Members { tape, next: at + 1, left: *len };
                    members.find(|&(_, _, v)| v <= target && target < end(v)).map(|(k, _, v)| {
                        crate::pointer::write_seg(&mut out, crate::pointer::Seg::Key(k));
                        v
                    })
                }
                Some(Node::Array { len, .. }) => {
                    // Resume after the last element found when this is the list last seen.
                    let (mut next, mut index) = (at + 1, 0);
                    if let Some((list, last, i)) = self.list
                        && list == at
                        && last <= target
                    {
                        (next, index) = (last, i);
                    }
                    let left = len.saturating_sub(index);
                    let found = (Elements { tape, next, left })
                        .zip(index..)
                        .find(|&(e, _)| e <= target && target < end(e));
                    found.map(|(e, i)| {
                        self.list = Some((at, e, i));
                        crate::pointer::write_seg(&mut out, crate::pointer::Seg::Index(i));
                        e
                    })
                }
                _ => None,
            };
            match next {
                Some(n) if n > at => at = n,
                _ => break,
            }
        }
        out
    }
}
