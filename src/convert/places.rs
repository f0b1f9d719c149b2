//! Where a report's entries are in the input document: the parsed document's tape answers
//! for [`Report::locate`] at the end of a conversion, the only time it is at hand, so an
//! entry's pointer can be document-level and name the source's place after a rewrite.
//!
//! Entries come nearly in source order (tool by tool; within a tool, a sweep per pass), and
//! an object can hold thousands of properties each with entries: each container remembers
//! (a few per level of the document) where the last lookup in it ended and the next one starts there, so the lookups of a sweep
//! cost one pass over each object, not one per entry.

use simd_json::Node;

use crate::pointer::{Seg, write_seg};
use crate::report::{Places, Report};

/// Places `report`'s entries on the document whose tape is `tape` (see [`Report::locate`]).
pub(super) fn locate(report: &mut Report, tape: &[Node<'_>]) {
    report.locate(&mut OnTape { tape, located: Levels::default(), resolved: Levels::default() });
}

/// How many levels of a document remember their last lookups, and how many containers each
/// level remembers: the entries of a sweep alternate between a few containers at one level (a
/// property and the definition its `$ref` leads to). Deeper levels start at the first member
/// each time. On the stack: placing entries allocates nothing of its own.
const LEVELS: usize = 24;
const WAYS: usize = 4;

/// A container last looked in, with the member (or element) the lookup ended at: its
/// position (a member's key's) and its index.
type Last = (usize, usize, usize);

/// Per level, the containers last looked in, and the way to replace next.
struct Levels([([Last; WAYS], usize); LEVELS]);

impl Default for Levels {
    fn default() -> Self {
        Levels([([(usize::MAX, 0, 0); WAYS], 0); LEVELS])
    }
}

impl Levels {
    /// Where to start looking in the container at `at`, `depth` levels down: after the last
    /// lookup in it when that ended at or before `before` (its position and index), else at
    /// its first member.
    fn start(&self, depth: usize, at: usize, before: usize) -> (usize, usize) {
        let ways = self.0.get(depth).map(|(ways, _)| ways.as_slice()).unwrap_or_default();
        match ways.iter().find(|(c, _, _)| *c == at) {
            Some(&(_, pos, index)) if pos <= before && pos > at => (pos, index),
            _ => (at + 1, 0),
        }
    }

    fn keep(&mut self, depth: usize, at: usize, pos: usize, index: usize) {
        let Some((ways, next)) = self.0.get_mut(depth) else { return };
        if let Some(way) = ways.iter_mut().find(|(c, _, _)| *c == at) {
            *way = (at, pos, index);
        } else if let Some(way) = ways.get_mut(*next) {
            *way = (at, pos, index);
            *next = (*next + 1) % WAYS;
        }
    }
}

/// [`Places`] read off a tape.
struct OnTape<'t, 'a> {
    tape: &'t [Node<'a>],
    located: Levels,
    resolved: Levels,
}

impl Places for OnTape<'_, '_> {
    fn locate(&mut self, at: u32, out: &mut String) {
        locate_in(self.tape, &mut self.located, at as usize, out);
    }

    fn holds(&mut self, at: u32, pointer: &str) -> bool {
        resolve(self.tape, &mut self.resolved, at as usize, pointer).is_some()
    }
}

/// The number of members (of an object) or elements (of an array) of the container at `at`,
/// and whether it is an object; `None` for a scalar.
fn container(tape: &[Node<'_>], at: usize) -> Option<(usize, bool)> {
    match *tape.get(at)? {
        Node::Object { len, .. } => Some((len, true)),
        Node::Array { len, .. } => Some((len, false)),
        _ => None,
    }
}

/// Appends the RFC 6901 pointer of the value at `target` (of the member, at a member's key's
/// position) to `out`.
fn locate_in(tape: &[Node<'_>], levels: &mut Levels, target: usize, out: &mut String) {
    let (mut at, mut depth) = (0, 0);
    while at < target {
        let Some((len, object)) = container(tape, at) else { return };
        let (mut pos, mut index) = levels.start(depth, at, target);
        let found = loop {
            if index >= len || pos > target {
                break None;
            }
            let value = if object { pos + 1 } else { pos };
            let next = past(tape, value);
            if target < next {
                break Some((pos, value));
            }
            (pos, index) = (next, index + 1);
        };
        let Some((pos, value)) = found else { return };
        levels.keep(depth, at, pos, index);
        match tape.get(pos) {
            Some(Node::String(key)) if object => write_seg(out, Seg::Key(key)),
            _ => write_seg(out, Seg::Index(index)),
        }
        if pos == target {
            // A member's key: the member is the place.
            return;
        }
        (at, depth) = (value, depth + 1);
    }
}

/// The position of the value `pointer` (RFC 6901) names under the value at `at`; `None`
/// when the document has no such place.
fn resolve(tape: &[Node<'_>], levels: &mut Levels, mut at: usize, pointer: &str) -> Option<usize> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer.is_empty().then_some(at);
    };
    for (depth, token) in rest.split('/').enumerate() {
        let (len, object) = container(tape, at)?;
        at = if object {
            member(tape, levels, depth, at, len, token)?
        } else {
            let index: usize = token.parse().ok().filter(|_| !token.starts_with('+'))?;
            (index < len).then_some(())?;
            let (mut pos, mut i) = levels.start(depth, at, usize::MAX);
            if i > index {
                (pos, i) = (at + 1, 0);
            }
            while i < index {
                (pos, i) = (past(tape, pos), i + 1);
            }
            levels.keep(depth, at, pos, i);
            pos
        };
    }
    Some(at)
}

/// The value of member `token` (escaped as in a pointer) of the object at `at`, which has
/// `len` members: looked for from where the last lookup in it ended, then from its start.
fn member(
    tape: &[Node<'_>],
    levels: &mut Levels,
    depth: usize,
    at: usize,
    len: usize,
    token: &str,
) -> Option<usize> {
    let (from, first) = levels.start(depth, at, usize::MAX);
    // Most tokens hold no escape: told once, not for every key compared.
    let plain = !token.contains('~');
    let mut find = |mut key: usize, range: std::ops::Range<usize>| {
        for index in range {
            let Node::String(k) = *tape.get(key)? else { return None };
            let same = if plain { k == token } else { same_key(k, token) };
            if same {
                levels.keep(depth, at, key, index);
                return Some(key + 1);
            }
            key = past(tape, key + 1);
        }
        None
    };
    find(from, first..len).or_else(|| find(at + 1, 0..first))
}

/// Whether the key `key` is the pointer token `token` (`~1` for `/`, `~0` for `~`).
fn same_key(key: &str, token: &str) -> bool {
    if !token.contains('~') {
        return key == token;
    }
    let mut rest = token;
    let mut k = key;
    while let Some(i) = rest.find('~') {
        let (head, tail) = rest.split_at(i);
        let Some(after) = k.strip_prefix(head) else { return false };
        let (c, tail) = match tail.as_bytes().get(1) {
            Some(b'0') => ('~', tail.get(2..).unwrap_or_default()),
            Some(b'1') => ('/', tail.get(2..).unwrap_or_default()),
            _ => return false,
        };
        let Some(after) = after.strip_prefix(c) else { return false };
        (k, rest) = (after, tail);
    }
    k == rest
}

/// The position just past the value at `at`.
fn past(tape: &[Node<'_>], at: usize) -> usize {
    match tape.get(at) {
        Some(Node::Object { count, .. } | Node::Array { count, .. }) => at + 1 + count,
        _ => at + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_and_locates_as_rfc_6901_says() {
        let mut text = br#"{"a":{"b/c":[1,{"d~e":true},3],"f":null},"g":[]}"#.to_vec();
        let tape = simd_json::to_tape(&mut text).expect("tape").0;
        let mut levels = Levels::default();
        let mut found = |p: &str| resolve(&tape, &mut levels, 0, p);
        let good = ["", "/a", "/a/b~1c", "/a/b~1c/2", "/a/b~1c/0", "/a/b~1c/1/d~0e", "/a/f", "/g"];
        let bad = ["/b", "/a/b/c", "/a/b~1c/3", "/a/b~1c/1x", "/a/b~1c/+1", "/g/0", "/a/f/x", "a"];
        // Twice, in any order: what a lookup remembers never changes an answer.
        let mut located = Levels::default();
        for _ in 0..2 {
            for p in good.iter().chain(good.iter().rev()) {
                let at = found(p).unwrap_or_else(|| panic!("{p}"));
                let mut out = String::new();
                locate_in(&tape, &mut located, at, &mut out);
                assert_eq!(out, *p);
            }
            for p in bad {
                assert!(found(p).is_none(), "{p}");
            }
        }
        // A key's position names its member.
        let f = found("/a/f").expect("f");
        let mut out = String::new();
        locate_in(&tape, &mut Levels::default(), f - 1, &mut out);
        assert_eq!(out, "/a/f");
        assert!(same_key("x~y/z", "x~0y~1z") && !same_key("x~y", "x~1y") && !same_key("x", "x~"));
    }
}
