//! Telling strings of the parsed input apart, so the writer can copy them as the input spelled
//! them instead of escaping them again.

use super::escape;
use crate::ir::Schema;
use crate::lower::Span;

/// Where the strings of a parsed input live, so the writer can tell a string the input held
/// without any escape: JSON forbids such text to contain `"`, `\` or a control character, so
/// it is written as it is, without the escape scan. simd-json decodes every string in place in
/// its copy of the input, starting where the string's text starts (`parse` tests this).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Source<'s> {
    /// The address of the parser's input copy.
    pub base: usize,
    /// The input as given.
    pub src: &'s [u8],
    /// Where the input's escape sequences start: one bit per
    /// [`crate::parse::ESCAPE_BLOCK`] bytes.
    pub escapes: &'s [u64],
    /// Where each escape of the input starts, in order ([`crate::parse::Doc::escape_starts`]).
    pub escape_starts: &'s [usize],
    /// Byte offsets of the input's structural characters ([`crate::parse::Doc::structurals`]).
    pub structurals: &'s [u32],
    /// Where lowering found the texts of schema objects (see [`Source::object_text`]); empty when
    /// nothing is to be copied whole (pretty output, or the token path asked for).
    pub spans: &'s [Span],
}

impl<'s> Source<'s> {
    /// The input's window of [`escape::WINDOW`] bytes from the `"` that opens `s`, and the
    /// length of `"s"`, when that is all in the window and `s` is the input's own text: it
    /// starts right after an unescaped `"`, is followed by a `"`, and no `\` lies between
    /// (then no escape changed its bytes, and it holds no `"` or control character, which
    /// JSON text cannot). The commonest strings, keys and names, are told and copied with
    /// this one window.
    #[inline]
    pub(super) fn short(&self, s: &str) -> Option<(&'s [u8; escape::WINDOW], usize)> {
        let quoted = s.len() + 2;
        if quoted > escape::WINDOW {
            return None;
        }
        let open = (s.as_ptr() as usize).wrapping_sub(self.base).checked_sub(1)?;
        let w = escape::window(self.src, open)?;
        // The backslash test first: told that `w[0]` is a quote, the compiler would drop
        // that byte from the test and split its vector compares.
        let plain = !escape::backslash_below(w, quoted)
            && w.first() == Some(&b'"')
            && w.get(quoted - 1) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'));
        plain.then_some((w, quoted))
    }

    /// Where `s` stands quoted in the input (`"` to `"`), if it lies in the input copy, starts
    /// right after an unescaped `"` of the input (so it starts where a string's text starts:
    /// inside a string's text there is no unescaped quote), and no escape of the input starts
    /// within its length (a string with an escape has its first one within its decoded
    /// length). Its bytes are then the input's own text, and the input's next byte is the
    /// closing quote. Anything else (arena text, a static name) is not.
    #[inline]
    pub(super) fn quoted(&self, s: &str) -> Option<(usize, usize)> {
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        let end = at.checked_add(s.len()).filter(|&e| e < self.src.len())?;
        let open = at.checked_sub(1)?;
        let quoted = self.src.get(open) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'))
            && self.src.get(end) == Some(&b'"');
        (quoted && !self.escape_within(at, end)).then_some((open, end + 1))
    }

    /// Where `s` stands quoted in the input when the input spelled it with escapes, each the
    /// one [`write_escaped`](super::write_escaped) writes for its character (see
    /// [`escape::canonical_escape`]): the quoted text is then the bytes escaping `s` would
    /// give. As in [`Source::quoted`], `s` must start right after an unescaped `"` of the
    /// input, so it starts where a string's text starts, and the input's copy holds that string
    /// decoded from there; decoding to exactly `s.len()` bytes before a closing quote makes `s`
    /// the whole string.
    pub(super) fn escaped(&self, s: &str) -> Option<(usize, usize)> {
        let at = (s.as_ptr() as usize).wrapping_sub(self.base);
        let open = at.checked_sub(1)?;
        let opens = self.src.get(open) == Some(&b'"')
            && (open == 0 || self.src.get(open - 1) != Some(&b'\\'));
        if !opens {
            return None;
        }
        let (mut p, mut left) = (at, s.len());
        let first = self.escape_starts.partition_point(|&e| e < at);
        // Each escape stands for one byte of `s`; the text between is `s`'s own bytes.
        for &b in self.escape_starts.get(first..).unwrap_or_default() {
            if b >= p + left {
                break;
            }
            let len = escape::canonical_escape(self.src, b)?;
            left = left.checked_sub(b.checked_sub(p)? + 1)?;
            p = b + len;
        }
        let close = p + left;
        (self.src.get(close) == Some(&b'"')).then_some((open, close + 1))
    }

    /// The input's text of the schema object `s`, when writing `s` compact would give exactly
    /// those bytes: lowering recorded where `s` starts, `s` still has the keyword list lowering
    /// made from that text (so no pass changed anything in its subtree), the text holds no
    /// whitespace between tokens, and each of its escapes is the one the writer writes (see
    /// [`escape::canonical_escape`]). Keys, strings and numbers are then written as the input
    /// spells them, keywords in input order and type names as the input's own: the token path
    /// writes the same bytes.
    ///
    /// Where the text ends is counted, not searched: a subtree of `T` tape nodes (keys
    /// included) of which `E` are empty containers has `2T - 1 + E` structural characters
    /// (each node's first character, one `:` per key, and each non-empty container's commas
    /// and closing bracket make `2T - 1`; an empty one's closing bracket is the `+1`). Between
    /// tokens stands only whitespace, so the byte before each structural is either the end of
    /// the token before it or whitespace: one look at it tells both that the text is compact
    /// and, when it is an opening bracket before a closing one, that a container is empty.
    /// Each empty container is met before the count it adds is needed (its closing bracket
    /// comes at least two structurals per empty container after it before the end).
    pub(super) fn object_text(&self, s: &Schema<'_>) -> Option<&'s [u8]> {
        let span = self.spans.get((s.span as usize).checked_sub(1)?)?;
        if span.keywords != s.keywords.as_ptr() as usize || span.len as usize != s.keywords.len() {
            return None;
        }
        let src = self.src;
        let first = self.structurals.partition_point(|&p| p < span.open);
        let mut after = self.structurals.get(first + 1..)?.iter();
        // Structurals after the `{`, to its `}` included.
        let mut left = (span.nodes as usize).checked_mul(2)?.checked_sub(2)?;
        let mut close = 0;
        while left > 0 {
            close = *after.next()? as usize;
            left -= 1;
            match BEFORE.get(usize::from(*src.get(close.wrapping_sub(1))?)) {
                Some(&WHITESPACE) => return None,
                Some(&OPENING) if matches!(src.get(close), Some(b'}' | b']')) => left += 1,
                _ => {}
            }
        }
        let open = span.open as usize;
        if src.get(open) != Some(&b'{') || src.get(close) != Some(&b'}') {
            return None;
        }
        let from = self.escape_starts.partition_point(|&e| e < open);
        for &e in self.escape_starts.get(from..).unwrap_or_default() {
            if e > close {
                break;
            }
            escape::canonical_escape(src, e)?;
        }
        src.get(open..=close)
    }

    /// Whether `s` is the input's own text (see [`Source::quoted`]).
    #[cfg(test)]
    pub(super) fn verbatim(&self, s: &str) -> bool {
        self.quoted(s).is_some()
    }

    /// Whether an escape may start in `at..end` (a block holding one overlaps it).
    #[inline]
    fn escape_within(&self, at: usize, end: usize) -> bool {
        crate::parse::escape_within(self.escapes, at, end)
    }
}

/// What the byte before a structural character says in [`Source::object_text`].
const WHITESPACE: u8 = 1;
const OPENING: u8 = 2;
#[allow(clippy::indexing_slicing, reason = "const build: a byte indexes 256 entries")]
static BEFORE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b' ' as usize] = WHITESPACE;
    t[b'\t' as usize] = WHITESPACE;
    t[b'\n' as usize] = WHITESPACE;
    t[b'\r' as usize] = WHITESPACE;
    t[b'{' as usize] = OPENING;
    t[b'[' as usize] = OPENING;
    t
};
