//! RFC 6901 JSON pointers, built on the stack while walking and made into a `String` only when
//! an error or a report entry needs one.

use std::fmt;

/// One step of a path: an object key or an array index.
#[derive(Clone, Copy, Debug)]
pub enum Seg<'s> {
    /// An object member.
    Key(&'s str),
    /// An array element.
    Index(usize),
    /// A literal, already escaped pointer fragment such as `/inputSchema` (may hold several steps).
    Raw(&'s str),
}

/// A path node living on the caller's stack; a child borrows its parent, so pushing costs
/// nothing and nothing is allocated until [`Path::to_pointer`].
#[derive(Clone, Copy, Debug)]
pub struct Path<'p> {
    parent: Option<&'p Path<'p>>,
    seg: Option<Seg<'p>>,
}

impl<'p> Path<'p> {
    /// The empty pointer (the document root).
    pub const ROOT: Path<'static> = Path { parent: None, seg: None };

    /// A child of this path.
    #[inline]
    pub fn push(&'p self, seg: Seg<'p>) -> Path<'p> {
        Path { parent: Some(self), seg: Some(seg) }
    }

    /// Whether this path is the one step `raw` from the root: where the passes start a tool's
    /// schema.
    #[inline]
    pub(crate) fn is_raw_root(&self, raw: &str) -> bool {
        match (self.parent, self.seg) {
            (Some(parent), Some(Seg::Raw(r))) => {
                // The passes start a path with the tool's own static text: its address tells.
                parent.parent.is_none() && parent.seg.is_none() && crate::scan::same_text(r, raw)
            }
            _ => false,
        }
    }

    /// Whether a step above this one is the key of one of `keys` (a `oneOf` or `not` the
    /// node sits in).
    pub(crate) fn under(&self, keys: &[&str]) -> bool {
        let mut cur = self.parent;
        while let Some(p) = cur {
            if let Some(Seg::Key(k)) = p.seg
                && keys.contains(&k)
            {
                return true;
            }
            cur = p.parent;
        }
        false
    }

    /// Calls `f` with each step, leaf first.
    pub(crate) fn each_seg<'s>(&'s self, mut f: impl FnMut(Seg<'s>)) {
        let mut cur = Some(self);
        while let Some(p) = cur {
            if let Some(seg) = p.seg {
                f(seg);
            }
            cur = p.parent;
        }
    }

    /// Depth in steps.
    pub fn depth(&self) -> usize {
        let mut n = 0;
        let mut cur = Some(self);
        while let Some(p) = cur {
            if p.seg.is_some() {
                n += 1;
            }
            cur = p.parent;
        }
        n
    }

    /// The RFC 6901 pointer (`~` → `~0`, `/` → `~1`).
    #[cold]
    pub fn to_pointer(&self) -> String {
        // A fresh string: sized once rather than grown step by step.
        let mut len = 0;
        let mut cur = Some(self);
        while let Some(p) = cur {
            len += match p.seg {
                Some(Seg::Key(k)) => k.len() + 1,
                Some(Seg::Index(_)) => 4,
                Some(Seg::Raw(r)) => r.len(),
                None => 0,
            };
            cur = p.parent;
        }
        let mut out = String::with_capacity(len);
        self.write_from_root(&mut out);
        out
    }

    /// Appends the RFC 6901 pointer to `out` (a report's text buffer).
    #[cold]
    pub fn write_pointer(&self, out: &mut String) {
        self.write_from_root(out);
    }

    /// Root first. The nodes of a shallow path (a report's, as a rule: the input schema, a
    /// property, a keyword) are gathered leaf first into an array on the stack and written
    /// from its end: a loop, where a call per level (its frame saved and restored) cost about
    /// as much as writing the step. A deeper path is written by recursion ([`Path::write_deep`]).
    fn write_from_root(&self, out: &mut String) {
        const SHALLOW: usize = 8;
        let mut nodes: [&Path<'_>; SHALLOW] = [self; SHALLOW];
        let mut n = 0;
        let mut cur = Some(self);
        while let Some(p) = cur {
            if let Some(slot) = nodes.get_mut(n) {
                *slot = p;
            } else {
                return self.write_deep(out);
            }
            n += 1;
            cur = p.parent;
        }
        for p in nodes.get(..n).unwrap_or_default().iter().rev() {
            if let Some(seg) = p.seg {
                push_seg(out, seg);
            }
        }
    }

    /// [`Path::write_from_root`] of a path too deep for its array, by recursion: a path is as
    /// deep as the schema walk holding it, which is bounded by the nesting limit and already
    /// recursed with larger frames.
    #[cold]
    fn write_deep(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write_deep(out);
        }
        if let Some(seg) = self.seg {
            push_seg(out, seg);
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pointer())
    }
}

/// Appends one step to an RFC 6901 pointer.
pub fn write_seg(out: &mut String, seg: Seg<'_>) {
    push_seg(out, seg);
}

/// [`write_seg`], written into each level of [`Path::write_from_root`] rather than called.
#[inline(always)]
fn push_seg(out: &mut String, seg: Seg<'_>) {
    match seg {
        Seg::Key(k) => {
            out.push('/');
            escape_into(out, k);
        }
        Seg::Index(i) => write_index(out, i),
        Seg::Raw(r) => out.push_str(r),
    }
}

/// Writes `/i` with its digits made here: a report places each tool with entries by its index
/// in the catalog, and `fmt`'s machinery cost more than the rest of the pointer.
fn write_index(out: &mut String, mut i: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b'0' + (i % 10) as u8;
        }
        i /= 10;
        if i == 0 {
            break;
        }
    }
    out.push('/');
    // ASCII digits: always UTF-8.
    out.push_str(std::str::from_utf8(digits.get(start..).unwrap_or_default()).unwrap_or_default());
}

/// Escapes one reference token: `~` → `~0`, `/` → `~1`.
#[inline(always)]
pub fn escape_into(out: &mut String, token: &str) {
    if !needs_escape(token.as_bytes()) {
        out.push_str(token);
        return;
    }
    escape_slow(out, token);
}

#[cold]
fn escape_slow(out: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Whether `bytes` holds a `~` or a `/`: eight bytes per step (the zero-byte test on the word
/// XORed with each), as every key of every report pointer goes through here. A key of 4 to 16
/// bytes (most are) is read as two overlapping words, with no loop.
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let has = |x: u64| {
        let (t, s) = (x ^ (LO * u64::from(b'~')), x ^ (LO * u64::from(b'/')));
        (t.wrapping_sub(LO) & !t | s.wrapping_sub(LO) & !s) & HI != 0
    };
    let n = bytes.len();
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let half = |at: usize| {
        let w = bytes.get(at..at + 4).and_then(|w| <[u8; 4]>::try_from(w).ok());
        w.map_or(0, |w| u64::from(u32::from_le_bytes(w)))
    };
    match n {
        0..4 => bytes.iter().any(|&b| b == b'~' || b == b'/'),
        4..8 => has(half(0) | half(n - 4) << 32),
        8..=16 => has(word(0)) || has(word(n - 8)),
        _ => {
            let mut chunks = bytes.chunks_exact(8);
            for chunk in &mut chunks {
                if has(<[u8; 8]>::try_from(chunk).map_or(0, u64::from_le_bytes)) {
                    return true;
                }
            }
            has(word(n - 8))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_are_written_in_decimal() {
        for i in [0, 7, 10, 99, 100, 123_456, usize::MAX] {
            let mut out = String::new();
            write_seg(&mut out, Seg::Index(i));
            assert_eq!(out, format!("/{i}"));
        }
    }

    #[test]
    fn escapes_per_rfc_6901() {
        let root = Path::ROOT;
        let a = root.push(Seg::Raw("/inputSchema"));
        let b = a.push(Seg::Key("properties"));
        let c = b.push(Seg::Key("a/b~c"));
        let d = c.push(Seg::Index(3));
        assert_eq!(d.to_pointer(), "/inputSchema/properties/a~1b~0c/3");
        assert_eq!(Path::ROOT.to_pointer(), "");
        assert_eq!(d.depth(), 4);
        assert!(a.is_raw_root("/inputSchema") && !b.is_raw_root("/inputSchema"));
        // Deeper than the array that a shallow path is gathered in, and as deep as it.
        let mut deep = String::from("/inputSchema/properties/a~1b~0c/3");
        let e = d.push(Seg::Key("e"));
        let e2 = e.push(Seg::Index(12));
        let e3 = e2.push(Seg::Raw("/raw"));
        let e4 = e3.push(Seg::Key("~"));
        deep.push_str("/e/12/raw/~0");
        assert_eq!(e4.to_pointer(), deep);
        let mut out = String::from("x");
        e4.write_pointer(&mut out);
        assert_eq!(out, format!("x{deep}"));
        assert_eq!(e2.to_pointer(), "/inputSchema/properties/a~1b~0c/3/e/12");
        assert_eq!(e3.to_pointer(), "/inputSchema/properties/a~1b~0c/3/e/12/raw");
        assert!(!root.is_raw_root("") && !a.is_raw_root("/outputSchema"));
    }

    #[test]
    fn finds_a_slash_or_tilde_anywhere() {
        for token in ["", "a", "properties", "0123456789abcdef", "unicode é and more text"] {
            assert!(!needs_escape(token.as_bytes()), "{token}");
        }
        for len in 1..40 {
            for n in 0..len {
                for c in ['~', '/'] {
                    let token = format!("{}{c}{}", "x".repeat(n), "é".repeat(len - 1 - n));
                    assert!(needs_escape(token.as_bytes()), "{token}");
                    assert!(!needs_escape(token.replace(c, "-").as_bytes()), "{token}");
                }
            }
        }
    }
}
