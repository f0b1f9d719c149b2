//! Where a report's entries are in the input document: the parsed document's tape answers
//! for [`Report::locate`] at the end of a conversion, the only time it is at hand, so an
//! entry's pointer can be document-level and name the source's place after a rewrite.
//!
//! Entries come nearly in source order (tool by tool; within a tool, a sweep per pass), and
//! an object can hold thousands of properties each with entries: each container remembers
//! (a few per level of the document) where the last lookup in it ended and the next one starts there, so the lookups of a sweep
//! cost one pass over each object, not one per entry. Entries out of that order (those of
//! definitions inlined where they are used, in the order of the uses) would scan a long
//! container once each: a long container a lookup does not find its place in near where the
//! last one ended is indexed instead, once ([`Indexes`]).

use std::collections::HashMap;

use simd_json::Node;

use crate::pointer::{Seg, write_seg};
use crate::report::{Places, Report};

/// Places `report`'s entries on the document whose tape is `tape` (see [`Report::locate`]).
pub(super) fn locate(report: &mut Report, tape: &[Node<'_>]) {
    report.locate(&mut OnTape {
        tape,
        located: Levels::default(),
        resolved: Levels::default(),
        indexes: Indexes::default(),
    });
}

/// Containers longer than this are indexed when a lookup does not find its place within
/// [`NEAR`] members of where the last one ended.
const LONG: usize = 64;
const NEAR: usize = 16;

/// The long containers looked in out of order, each indexed once: its members' (or
/// elements') positions in order, and an object's members by key.
#[derive(Default)]
struct Indexes {
    by_container: HashMap<usize, Index>,
    /// A token with escapes, decoded.
    token: String,
}

struct Index {
    /// Each member's key position (an element's position), in order.
    positions: Vec<usize>,
    /// An object's members by key (their indexes into `positions`), then by place.
    by_key: Vec<u32>,
}

impl Indexes {
    /// The index of the container at `at`, of `len` members, made the first time.
    fn of(&mut self, tape: &[Node<'_>], at: usize, len: usize, object: bool) -> &Index {
        self.by_container.entry(at).or_insert_with(|| {
            let mut positions = Vec::with_capacity(len);
            let mut pos = at + 1;
            for _ in 0..len {
                positions.push(pos);
                pos = past(tape, if object { pos + 1 } else { pos });
            }
            let mut by_key: Vec<u32> = Vec::new();
            if object {
                by_key.extend(0..u32::try_from(len).unwrap_or(u32::MAX));
                let key = |i: u32| match positions.get(i as usize).and_then(|&p| tape.get(p)) {
                    Some(Node::String(k)) => *k,
                    _ => "",
                };
                by_key.sort_unstable_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
            }
            Index { positions, by_key }
        })
    }

    /// The first member of the object at `at` (of `len` members) whose key the pointer token
    /// `token` names: its key's position and index.
    fn member(
        &mut self,
        tape: &[Node<'_>],
        at: usize,
        len: usize,
        token: &str,
    ) -> Option<(usize, usize)> {
        let mut wanted = std::mem::take(&mut self.token);
        let found = unescape(token, &mut wanted).and_then(|wanted| {
            let index = self.of(tape, at, len, true);
            let key = |i: u32| {
                index.positions.get(i as usize).and_then(|&p| match tape.get(p) {
                    Some(Node::String(k)) => Some((*k, p, i as usize)),
                    _ => None,
                })
            };
            let first =
                index.by_key.partition_point(|&i| key(i).is_some_and(|(k, _, _)| k < wanted));
            let (k, pos, i) = key(*index.by_key.get(first)?)?;
            (k == wanted).then_some((pos, i))
        });
        self.token = wanted;
        found
    }
}

/// The key the pointer token `raw` names (`~1` for `/`, `~0` for `~`), decoded into `scratch`
/// when it has escapes; `None` for a `~` that starts no escape (no key matches it).
fn unescape<'t>(raw: &'t str, scratch: &'t mut String) -> Option<&'t str> {
    if !raw.contains('~') {
        return Some(raw);
    }
    scratch.clear();
    let mut rest = raw;
    while let Some(i) = rest.find('~') {
        let (head, tail) = rest.split_at(i);
        scratch.push_str(head);
        scratch.push(match tail.as_bytes().get(1) {
            Some(b'0') => '~',
            Some(b'1') => '/',
            _ => return None,
        });
        rest = tail.get(2..).unwrap_or_default();
    }
    scratch.push_str(rest);
    Some(scratch.as_str())
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
    indexes: Indexes,
}

impl Places for OnTape<'_, '_> {
    fn locate(&mut self, at: u32, out: &mut String) {
        locate_in(self.tape, &mut self.located, &mut self.indexes, at as usize, out);
    }

    fn holds(&mut self, at: u32, pointer: &str) -> bool {
        resolve(self.tape, &mut self.resolved, &mut self.indexes, at as usize, pointer).is_some()
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
fn locate_in(
    tape: &[Node<'_>],
    levels: &mut Levels,
    indexes: &mut Indexes,
    target: usize,
    out: &mut String,
) {
    let (mut at, mut depth) = (0, 0);
    while at < target {
        let Some((len, object)) = container(tape, at) else { return };
        let (mut pos, mut index) = levels.start(depth, at, target);
        let mut steps = 0;
        let found = loop {
            if index >= len || pos > target {
                break None;
            }
            steps += 1;
            if steps > NEAR && len > LONG {
                // Far from where the last lookup ended: the member that starts last at or
                // before the target holds it, if any does.
                let positions = &indexes.of(tape, at, len, object).positions;
                let i = positions.partition_point(|&p| p <= target).checked_sub(1);
                let Some((i, &pos)) = i.and_then(|i| Some((i, positions.get(i)?))) else {
                    break None;
                };
                let value = if object { pos + 1 } else { pos };
                index = i;
                break (target < past(tape, value)).then_some((pos, value));
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
fn resolve(
    tape: &[Node<'_>],
    levels: &mut Levels,
    indexes: &mut Indexes,
    mut at: usize,
    pointer: &str,
) -> Option<usize> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer.is_empty().then_some(at);
    };
    for (depth, token) in rest.split('/').enumerate() {
        let (len, object) = container(tape, at)?;
        at = if object {
            member(tape, levels, indexes, depth, at, len, token)?
        } else {
            let index: usize = token.parse().ok().filter(|_| !token.starts_with('+'))?;
            (index < len).then_some(())?;
            let (mut pos, mut i) = levels.start(depth, at, usize::MAX);
            if i > index {
                (pos, i) = (at + 1, 0);
            }
            if index - i > NEAR && len > LONG {
                let positions = &indexes.of(tape, at, len, false).positions;
                (pos, i) = (*positions.get(index)?, index);
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
/// `len` members: looked for from where the last lookup in it ended, then from its start;
/// in a long object, near where the last lookup ended, then through its index.
fn member(
    tape: &[Node<'_>],
    levels: &mut Levels,
    indexes: &mut Indexes,
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
    if len > LONG {
        if let Some(value) = find(from, first..len.min(first + NEAR)) {
            return Some(value);
        }
        let (key, index) = indexes.member(tape, at, len, token)?;
        levels.keep(depth, at, key, index);
        return Some(key + 1);
    }
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
        let mut indexes = Indexes::default();
        let mut found = |p: &str| resolve(&tape, &mut levels, &mut indexes, 0, p);
        let good = ["", "/a", "/a/b~1c", "/a/b~1c/2", "/a/b~1c/0", "/a/b~1c/1/d~0e", "/a/f", "/g"];
        let bad = ["/b", "/a/b/c", "/a/b~1c/3", "/a/b~1c/1x", "/a/b~1c/+1", "/g/0", "/a/f/x", "a"];
        // Twice, in any order: what a lookup remembers never changes an answer.
        let mut located = Levels::default();
        for _ in 0..2 {
            for p in good.iter().chain(good.iter().rev()) {
                let at = found(p).unwrap_or_else(|| panic!("{p}"));
                let mut out = String::new();
                locate_in(&tape, &mut located, &mut Indexes::default(), at, &mut out);
                assert_eq!(out, *p);
            }
            for p in bad {
                assert!(found(p).is_none(), "{p}");
            }
        }
        // A key's position names its member.
        let f = found("/a/f").expect("f");
        let mut out = String::new();
        locate_in(&tape, &mut Levels::default(), &mut Indexes::default(), f - 1, &mut out);
        assert_eq!(out, "/a/f");
        assert!(same_key("x~y/z", "x~0y~1z") && !same_key("x~y", "x~1y") && !same_key("x", "x~"));
    }

    /// Long containers looked in out of order (through their index) answer as in order.
    #[test]
    fn long_containers_out_of_order_resolve_and_locate_alike() {
        let n = 300;
        let keys: Vec<String> = (0..n).map(|i| format!("k{i}/~{}", i % 7)).collect();
        let members: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!(r#""{k}":{{"v":[{i},{{"w":{i}}}]}}"#))
            .collect();
        let items: Vec<String> = (0..n).map(|i| format!(r#"{{"x{i}":[{i}]}}"#)).collect();
        let mut text =
            format!(r#"{{"o":{{{}}},"a":[{}]}}"#, members.join(","), items.join(",")).into_bytes();
        let tape = simd_json::to_tape(&mut text).expect("tape").0;
        let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
        let mut good: Vec<String> = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            good.push(format!("/o/{}/v/1/w", escape(k)));
            good.push(format!("/a/{i}/x{i}/0"));
        }
        // Out of order: a stride through the list, and backwards.
        let order: Vec<usize> =
            (0..good.len()).map(|i| i * 97 % good.len()).chain((0..good.len()).rev()).collect();
        let (mut levels, mut located, mut indexes) =
            (Levels::default(), Levels::default(), Indexes::default());
        for i in order {
            let p = &good[i];
            let at =
                resolve(&tape, &mut levels, &mut indexes, 0, p).unwrap_or_else(|| panic!("{p}"));
            let mut out = String::new();
            locate_in(&tape, &mut located, &mut indexes, at, &mut out);
            assert_eq!(&out, p);
        }
        assert!(indexes.by_container.len() >= 2, "the long containers were indexed");
        for bad in
            ["/o/k1~1~2", "/o/k1~1~02", "/o/missing", "/a/300", "/a/12/x13", "/o/k5~1~05/v/2"]
        {
            assert!(resolve(&tape, &mut levels, &mut indexes, 0, bad).is_none(), "{bad}");
        }
    }
}
