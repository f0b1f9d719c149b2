//! Escaping strings for output, and copying short byte runs without a `memcpy` call.
//!
//! Both work in fixed-size windows: a window is appended whole and the output truncated back
//! to the bytes that count. A constant-size copy compiles to a few vector moves, where a copy
//! of a run whose length is known only at run time is a call into libc — which for the short
//! keys and names that make up most of a tool costs more than the copy itself.

/// Bytes per window. Strings up to this long (with their quotes) are most of what is written.
pub(super) const WINDOW: usize = 32;

/// Runs longer than this are left to `memcpy`, which beats fixed-size copies there.
const WINDOWED_MAX: usize = 4 * WINDOW;

/// Appends `src[start..end]` to `out`. When `src` holds the next 64 or 128 bytes from
/// `start` and the run fits in them, the copy is one fixed-size block of moves and a truncate;
/// otherwise (a run near the end of `src`, or a long one) it is one `extend_from_slice`.
#[inline]
pub(super) fn append_run(out: &mut Vec<u8>, src: &[u8], start: usize, end: usize) {
    let len = end.saturating_sub(start);
    if len <= WINDOWED_MAX / 2 {
        if let Some(block) = fixed::<{ WINDOWED_MAX / 2 }>(src, start) {
            return append_fixed(out, block, len);
        }
    } else if len <= WINDOWED_MAX
        && let Some(block) = fixed::<WINDOWED_MAX>(src, start)
    {
        return append_fixed(out, block, len);
    }
    out.extend_from_slice(src.get(start..end).unwrap_or_default());
}

/// The `N` bytes of `src` from `at`, if there are that many.
#[inline]
fn fixed<const N: usize>(src: &[u8], at: usize) -> Option<&[u8; N]> {
    src.get(at..at.checked_add(N)?).and_then(|w| w.try_into().ok())
}

/// Appends the first `len` bytes of `block`.
#[inline]
fn append_fixed<const N: usize>(out: &mut Vec<u8>, block: &[u8; N], len: usize) {
    let kept = out.len();
    out.extend_from_slice(block);
    out.truncate(kept + len);
}

/// Appends the first `len` bytes of `w`.
#[inline]
pub(super) fn append_window(out: &mut Vec<u8>, w: &[u8; WINDOW], len: usize) {
    let kept = out.len();
    out.extend_from_slice(w);
    out.truncate(kept + len);
}

/// Whether a `\` is among the first `len` bytes of `w` (all of them past `WINDOW`). A mask
/// from a table keeps it to vector compares: no loop that stops at `len`.
#[inline(always)]
pub(super) fn backslash_below(w: &[u8; WINDOW], len: usize) -> bool {
    let Some(mask) = BELOW.get(len) else {
        return w.contains(&b'\\');
    };
    let mut any = 0u8;
    for (&m, &b) in mask.iter().zip(w) {
        any |= u8::from(b == b'\\') & m;
    }
    any != 0
}

/// `BELOW[n]`: `0xff` in the first `n` bytes, then zeros.
#[allow(clippy::indexing_slicing, reason = "const table build: n ≤ WINDOW")]
static BELOW: [[u8; WINDOW]; WINDOW + 1] = {
    let mut t = [[0u8; WINDOW]; WINDOW + 1];
    let mut n = 0;
    while n <= WINDOW {
        let mut i = 0;
        while i < n {
            t[n][i] = 0xff;
            i += 1;
        }
        n += 1;
    }
    t
};

/// The `WINDOW` bytes of `src` from `at`, if there are that many.
#[inline]
pub(super) fn window(src: &[u8], at: usize) -> Option<&[u8; WINDOW]> {
    src.get(at..at.checked_add(WINDOW)?).and_then(|w| w.try_into().ok())
}

/// Index of the first byte of `w` a JSON string must escape (`"`, `\`, a control character),
/// or `WINDOW` when there is none. Written as a byte-wise map so it compiles to vector
/// compares; the flags are then read back as two 128-bit words.
#[inline]
fn first_to_escape(w: &[u8; WINDOW]) -> usize {
    let mut flags = [0u8; WINDOW];
    for (f, &b) in flags.iter_mut().zip(w) {
        *f = u8::from(b < 0x20) | u8::from(b == b'"') | u8::from(b == b'\\');
    }
    let (lo, hi) = flags.split_at(WINDOW / 2);
    let word = |half: &[u8]| u128::from_le_bytes(half.try_into().unwrap_or_default());
    let (lo, hi) = (word(lo), word(hi));
    if lo != 0 {
        (lo.trailing_zeros() / 8) as usize
    } else if hi != 0 {
        WINDOW / 2 + (hi.trailing_zeros() / 8) as usize
    } else {
        WINDOW
    }
}

// 0: as is; b'u': \u00XX; otherwise the short escape letter.
#[allow(clippy::indexing_slicing, reason = "const table build: every index is below 256")]
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Appends the escape sequence of `b`, a byte `first_to_escape` flags.
#[inline]
fn push_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let esc = ESCAPE.get(usize::from(b)).copied().unwrap_or(b'u');
    if esc == b'u' {
        let hex = |n: u8| HEX.get(usize::from(n & 0xf)).copied().unwrap_or(b'0');
        out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex(b >> 4), hex(b)]);
    } else {
        out.extend_from_slice(&[b'\\', esc]);
    }
}

/// The length of the escape sequence at `src[at]` (a `\`), if it is the one [`write_escaped`]
/// writes for the byte it stands for; any other spelling (`\/`, `\u00e9`, `\u000a`,
/// upper-case hex) answers `None`.
#[inline]
pub(super) fn canonical_escape(src: &[u8], at: usize) -> Option<usize> {
    match src.get(at..)? {
        [b'\\', b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't', ..] => Some(2),
        [b'\\', b'u', b'0', b'0', hi @ b'0'..=b'1', lo, ..] => {
            let lo = match lo {
                b'0'..=b'9' => lo - b'0',
                b'a'..=b'f' => lo - b'a' + 10,
                _ => return None,
            };
            // Only the control characters without a short escape are written as `\u00XX`.
            (ESCAPE.get(usize::from((hi - b'0') << 4 | lo)) == Some(&b'u')).then_some(6)
        }
        _ => None,
    }
}

/// Appends `s` as a JSON string literal, escaping `"`, `\` and control characters only.
pub fn write_escaped(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2 + WINDOW);
    out.push(b'"');
    let mut at = 0;
    // Each window is appended whole, then cut back to the first byte to escape; scanning
    // resumes right after that byte.
    while let Some(w) = window(bytes, at) {
        let kept = out.len();
        out.extend_from_slice(w);
        let i = first_to_escape(w);
        if let Some(&b) = w.get(i) {
            out.truncate(kept + i);
            push_escape(out, b);
            at += i + 1;
        } else {
            at += WINDOW;
        }
    }
    // The tail, shorter than a window, padded with spaces (never escaped) to window size.
    let rest = bytes.get(at..).unwrap_or_default();
    let mut padded = [b' '; 2 * WINDOW];
    if let Some(head) = padded.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    let mut at = 0;
    while let Some(w) = window(&padded, at).filter(|_| at < rest.len()) {
        let kept = out.len();
        out.extend_from_slice(w);
        let i = first_to_escape(w);
        match w.get(i) {
            Some(&b) if at + i < rest.len() => {
                out.truncate(kept + i);
                push_escape(out, b);
                at += i + 1;
            }
            _ => {
                out.truncate(kept + (rest.len() - at));
                break;
            }
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: byte by byte.
    fn escaped_simply(s: &str) -> Vec<u8> {
        let mut out = vec![b'"'];
        for &b in s.as_bytes() {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0c => out.extend_from_slice(b"\\f"),
                b if b < 0x20 => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
                b => out.push(b),
            }
        }
        out.push(b'"');
        out
    }

    fn check(s: &str) {
        let mut out = b"prefix".to_vec();
        write_escaped(&mut out, s);
        assert_eq!(out.get(6..), Some(&escaped_simply(s)[..]), "{s:?}");
    }

    #[test]
    fn agrees_with_the_byte_loop_at_every_length_and_position() {
        let specials = ["\"", "\\", "\n", "\u{0}", "\u{1f}", "\u{8}", "\u{c}", "\r", "\t", "é"];
        for len in 0..=3 * WINDOW + 8 {
            let plain = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(4);
            let base = plain.get(..len).unwrap_or_default();
            check(base);
            for pos in 0..=len {
                for sp in specials {
                    let mut s = String::from(base.get(..pos).unwrap_or_default());
                    s.push_str(sp);
                    s.push_str(base.get(pos..).unwrap_or_default());
                    check(&s);
                }
            }
        }
    }

    #[test]
    fn every_byte_and_dense_escapes() {
        let all: String = (0u8..0x80).map(char::from).collect();
        check(&all);
        check(&all.repeat(5));
        check(&"\"\\\n".repeat(50));
        check(&"\u{1}".repeat(100));
        check("a\u{7f}\u{80}\u{2028}😀\"");
        check(&"x".repeat(100_000));
        let mut big = "y".repeat(70_000);
        big.push('\n');
        check(&big);
    }

    #[test]
    fn finds_backslashes_below_every_length() {
        for pos in 0..WINDOW {
            let mut w = [b'a'; WINDOW];
            if let Some(b) = w.get_mut(pos) {
                *b = b'\\';
            }
            for len in 0..=WINDOW + 1 {
                assert_eq!(backslash_below(&w, len), pos < len, "{pos} {len}");
            }
        }
        assert!(!backslash_below(&[b'"'; WINDOW], WINDOW));
    }

    #[test]
    fn runs_are_copied_exactly() {
        let src: Vec<u8> = (0..=255u8).cycle().take(600).collect();
        for start in [0, 1, 7, 31, 32, 33, 400, 500, 560, 568, 569, 590, 599, 600] {
            for len in 0..=200 {
                let end = (start + len).min(src.len());
                let mut out = vec![9u8; 3];
                append_run(&mut out, &src, start, end);
                assert_eq!(out.get(..3), Some(&[9u8, 9, 9][..]));
                assert_eq!(out.get(3..), src.get(start..end), "{start}..{end}");
            }
        }
    }
}
