//! Numbers as their source text: simd-json's tape keeps only a number's parsed value, so the
//! k-th number node of the tape is paired with the k-th structural token that starts a number,
//! and its text is checked against the JSON number grammar.

use simd_json::{Node, StaticNode};

use super::{At, Lowerer};
use crate::error::{ConversionError, ErrorKind};
use crate::pointer::Path;

/// Where the number cursor stands before a value is lowered: what [`Lowerer::abandon`] goes
/// back to when that lowering fails part way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    next_structural: usize,
    cursor_floor: usize,
    /// How many reader notes there were: the abandoned value's are taken back.
    notes: usize,
}

impl<'a> Lowerer<'a, '_> {
    /// The cursor's place now, for [`Lowerer::abandon`].
    pub(crate) fn mark(&self) -> Mark {
        let notes = self.notes.len();
        Mark { next_structural: self.next_structural, cursor_floor: self.cursor_floor, notes }
    }

    /// Gives up the lowering of the value at `at`, begun at `mark`, so the values after it can
    /// still be lowered (a catalog leaves one bad tool out): a failed lowering may have read
    /// some of the value's numbers and not others, so the cursor goes back to `mark` and
    /// passes over the whole value, which leaves it in step for the next one. What the failed
    /// lowering put in the arena is simply not used, and what its reader noted is taken back.
    /// The per-value settings go back to their defaults.
    ///
    /// # Errors
    /// A number in the value that is not valid JSON (the input is not JSON: that concerns the
    /// whole document).
    pub(crate) fn abandon(
        &mut self,
        mark: Mark,
        at: At,
        path: &Path<'_>,
    ) -> Result<(), ConversionError> {
        self.next_structural = mark.next_structural;
        self.cursor_floor = mark.cursor_floor;
        self.notes.truncate(mark.notes);
        self.openapi_types = false;
        self.key_broken = false;
        self.watched = false;
        self.skip(at, path)
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
    pub(super) fn number_text(
        &mut self,
        at: At,
        path: &Path<'_>,
    ) -> Result<&'a str, ConversionError> {
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
            return Err(self.error(path, ErrorKind::json(src.len(), "number expected")));
        };
        self.next_structural += i + 1;
        let off = rest.get(i).map_or(0, |&o| o as usize);
        let rest = src.get(off..).unwrap_or_default();
        let text = json_number(rest).and_then(|len| rest.get(..len));
        match text.map(std::str::from_utf8) {
            Some(Ok(t)) => Ok(t),
            _ => Err(self.error(path, ErrorKind::json(off, "malformed number"))),
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
