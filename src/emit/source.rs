//! Telling strings of the parsed input apart, so the writer can copy them as the input spelled
//! them instead of escaping them again.

use super::escape;

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
