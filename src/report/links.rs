//! A report's pointers as links: each pointer kept as the part it shares with the pointer
//! recorded before it (that pointer's text) and its own tail.
//!
//! Entries come in walk order, so a pointer mostly repeats the one before it up to its last
//! step or two: a long key above many entries is written once, and a pointer costs a link
//! and its last steps. Along a chain the shared length falls at every link, each time at a
//! `/`, so a pointer's chain is never longer than its steps and is read in one pass.

use smallvec::SmallVec;

use super::More;
use super::text::{Span, Texts, Written};
use crate::pointer::{Path, Seg};

/// The length past which a pointer's bytes count against the recorder's limit on long
/// pointers: no pointer of a real tool comes near it.
pub(crate) const LONG: usize = 1 << 10;

/// No link: an absent pointer (or a link without a parent).
pub(crate) const NONE: u32 = u32::MAX;

/// The empty pointer, which needs no link (an entry about a tool as a whole).
pub(super) const EMPTY: u32 = u32::MAX - 1;

/// A pointer of the report, told by the pointer recorded before it: the first `shared` bytes
/// of its `parent`'s text, then its own `tail`. Entries come in walk order, so a pointer
/// mostly repeats the one before it up to its last step or two: a long key above many entries
/// is written once. Along a chain `shared` falls at every link, each time at a `/`, so a
/// pointer's chain is never longer than its steps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    parent: u32,
    shared: u32,
    tail: Span,
}

/// The links of a pointer's chain, leaf first: as many as the pointer has steps, so on the
/// stack unless it is deep.
type Chain = SmallVec<[u32; 24]>;

impl More {
    /// See [`Report::link`](super::Report::link).
    pub(super) fn link(&mut self, text: &mut Texts, written: Written) -> u32 {
        // A pointer written whole is compared as text: the steps of the last one are not known.
        self.last_steps.clear();
        let new = text.get(written.span);
        self.long = self.long.saturating_add(new.len().saturating_sub(LONG));
        if new.is_empty() {
            if written.fresh {
                text.truncate(written.span.start());
            }
            return EMPTY;
        }
        // A pointer made just before (the last one, or one of the few before it: a tool's
        // member, the tool, the next tool's member): that link. The last one's text is kept
        // whole, the others' lengths, so most are told apart without reading their chains.
        let last = self.last;
        let common = common_start(self.last_text.as_bytes(), new.as_bytes());
        // The last text's length and its byte after the common part, before it is replaced.
        let old = (self.last_text.len(), self.last_text.as_bytes().get(common).copied());
        let same = match last.link {
            Some(id) if common == new.len() && common == self.last_text.len() => Some(id),
            _ => last.links.iter().zip(last.lens).find_map(|(&id, len)| {
                (id != NONE && len as usize == new.len() && equals(&self.links, text, id, new))
                    .then_some(id)
            }),
        };
        // The last text becomes this one: only what differs is copied (a long key above many
        // entries is not copied again for each).
        let mut keep = common;
        while !self.last_text.is_char_boundary(keep) {
            keep -= 1;
        }
        self.last_text.truncate(keep);
        self.last_text.push_str(new.get(keep..).unwrap_or_default());
        if let Some(id) = same {
            self.last.link = Some(id);
            if written.fresh {
                text.truncate(written.span.start());
            }
            return id;
        }
        let id = u32::try_from(self.links.len()).unwrap_or(NONE);
        let len = u32::try_from(new.len()).unwrap_or(u32::MAX);
        let shared = match last.link {
            Some(_) if written.fresh => whole_steps(common, old, new),
            _ => 0,
        };
        let link = match last.link {
            Some(last) if shared > 0 => {
                // The shared beginning is an ancestor's as long as it is no longer than the
                // part that link takes from its own parent.
                let mut q = last;
                while let Some(l) = self.links.get(q as usize)
                    && l.parent != NONE
                    && shared <= l.shared as usize
                {
                    q = l.parent;
                }
                text.cut(written.span.start(), shared);
                let tail = Span::of(written.span).head(written.span.len() - shared);
                Link { parent: q, shared: shared as u32, tail }
            }
            _ => Link { parent: NONE, shared: 0, tail: Span::of(written.span) },
        };
        self.links.push(link);
        self.last.links.rotate_right(1);
        self.last.lens.rotate_right(1);
        self.last.links[0] = id;
        self.last.lens[0] = len;
        self.last.link = Some(id);
        id
    }
}

/// A step of a pointer written from a walk's path, known by what it is rather than by its
/// text: a key or a raw fragment by its address and length (the arena's text, or a static
/// one), an index by its value; and where the step ends in the pointer's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// 0 a key, 1 an index, 2 a raw fragment.
    kind: u8,
    /// The address (or the index) and the length.
    id: (usize, usize),
    /// Where the step ends in the pointer's text.
    end: u32,
}

impl Step {
    fn of(seg: Seg<'_>) -> Step {
        let (kind, id) = match seg {
            Seg::Key(k) => (0, (k.as_ptr() as usize, k.len())),
            Seg::Index(i) => (1, (i, 0)),
            Seg::Raw(r) => (2, (r.as_ptr() as usize, r.len())),
        };
        Step { kind, id, end: 0 }
    }

    fn same(&self, other: &Step) -> bool {
        (self.kind, self.id) == (other.kind, other.id)
    }
}

/// The steps of a path, root first: as many as it is deep, so on the stack unless it is deep.
type Steps<'p> = SmallVec<[Seg<'p>; 24]>;

impl More {
    /// [`More::link`] of the pointer `path` writes, without writing or reading the steps it
    /// shares with the last pointer: those are told by what they are ([`Step`]), so an
    /// entry costs its path's depth and its own last steps, however long a key above them.
    pub(super) fn link_path(&mut self, text: &mut Texts, path: &Path<'_>) -> u32 {
        let mut segs = Steps::new();
        path.each_seg(|seg| segs.push(seg));
        segs.reverse();
        if segs.is_empty() {
            return EMPTY;
        }
        let last = self.last;
        let k = match last.link {
            Some(_) => segs
                .iter()
                .zip(&self.last_steps)
                .take_while(|(seg, step)| Step::of(**seg).same(step))
                .count(),
            None => 0,
        };
        let shared = k.checked_sub(1).and_then(|i| self.last_steps.get(i)).map_or(0, |s| s.end);
        // The same pointer as the last one: its link.
        if let Some(id) = last.link
            && k == segs.len()
            && k == self.last_steps.len()
        {
            self.long = self.long.saturating_add(self.last_text.len().saturating_sub(LONG));
            return id;
        }
        // The steps that differ, written after the shared part, each one's end kept.
        self.last_steps.truncate(k);
        self.last_text.truncate(shared as usize);
        let start = text.len();
        let steps = &mut self.last_steps;
        let span = text.push(|out: &mut String| {
            for seg in segs.get(k..).unwrap_or_default() {
                crate::pointer::write_seg(out, *seg);
                let end = shared as usize + (out.len() - start);
                let end = u32::try_from(end).unwrap_or(u32::MAX);
                steps.push(Step { end, ..Step::of(*seg) });
            }
        });
        self.last_text.push_str(text.get(span));
        self.long = self.long.saturating_add(self.last_text.len().saturating_sub(LONG));
        let id = u32::try_from(self.links.len()).unwrap_or(NONE);
        let link = match last.link {
            Some(last) if shared > 0 => {
                // The shared beginning is an ancestor's as long as it is no longer than the
                // part that link takes from its own parent.
                let mut q = last;
                while let Some(l) = self.links.get(q as usize)
                    && l.parent != NONE
                    && shared <= l.shared
                {
                    q = l.parent;
                }
                Link { parent: q, shared, tail: Span::of(span) }
            }
            _ => Link { parent: NONE, shared: 0, tail: Span::of(span) },
        };
        self.links.push(link);
        self.last.links.rotate_right(1);
        self.last.lens.rotate_right(1);
        self.last.links[0] = id;
        self.last.lens[0] = u32::try_from(self.last_text.len()).unwrap_or(u32::MAX);
        self.last.link = Some(id);
        id
    }
}

/// The chain of `id`, leaf first.
fn chain(links: &[Link], id: u32) -> Chain {
    let mut chain = Chain::new();
    let mut at = id;
    while let Some(l) = links.get(at as usize) {
        chain.push(at);
        at = l.parent;
    }
    chain
}

/// The text of the link `id` in pieces, root first (the empty pointer for [`EMPTY`]).
pub(super) fn pieces<'t>(links: &[Link], text: &'t Texts, id: u32, mut f: impl FnMut(&'t str)) {
    let Some(leaf) = links.get(id as usize) else { return };
    if leaf.parent == NONE {
        return f(text.at(leaf.tail));
    }
    let chain = chain(links, id);
    // Each link gives its tail up to where the link below it in the chain stops sharing; the
    // leaf, all of it.
    for (i, &at) in chain.iter().enumerate().rev() {
        let Some(l) = links.get(at as usize) else { continue };
        let upto = match i.checked_sub(1).and_then(|below| chain.get(below)) {
            Some(&below) => links.get(below as usize).map_or(0, |b| b.shared as usize),
            None => usize::MAX,
        };
        f(text.at(l.tail.head(upto.saturating_sub(l.shared as usize))));
    }
}

/// Whether the text of link `id` is `s`.
fn equals(links: &[Link], text: &Texts, id: u32, s: &str) -> bool {
    let mut rest = s.as_bytes();
    let mut same = true;
    pieces(links, text, id, |p| {
        same = same
            && match rest.split_at_checked(p.len()) {
                Some((head, tail)) if head == p.as_bytes() => {
                    rest = tail;
                    true
                }
                _ => false,
            };
    });
    same && rest.is_empty()
}

/// How many bytes `a` and `b` start with alike: eight at a time, then one at a time.
fn common_start(a: &[u8], b: &[u8]) -> usize {
    let words = a.chunks_exact(8).zip(b.chunks_exact(8)).take_while(|(x, y)| x == y).count();
    let n = words * 8;
    let (a, b) = (a.get(n..).unwrap_or_default(), b.get(n..).unwrap_or_default());
    n + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The `common` bytes `new` starts with alike with the last pointer (`old_len` long) cut back
/// to whole steps: up to a `/` of both, or the whole of one where the other goes on with a `/`.
fn whole_steps(common: usize, old: (usize, Option<u8>), new: &str) -> usize {
    let new = new.as_bytes();
    let (old_len, old_next) = old;
    let ends = |next: Option<u8>, len: usize| common == len || next == Some(b'/');
    if ends(new.get(common).copied(), new.len()) && ends(old_next, old_len) {
        return common;
    }
    // Back to the last `/` of the common part: both have it there.
    new.get(..common).and_then(|c| memchr::memrchr(b'/', c)).unwrap_or(0)
}

#[cfg(test)]
pub(super) fn chain_len(report: &super::Report, id: u32) -> usize {
    report.more.get().map_or(0, |m| chain(&m.links, id).len())
}
