//! Byte scans for the two hot loops that look for rare bytes: escaping output strings and
//! finding `\` escapes in the input; and the comparison of short byte strings without
//! `memcmp`. Output strings are tested eight bytes per step with the
//! classic SWAR zero-byte test, which also locates the hit (no byte loop, even for the short
//! tail); the input scan is `memchr`'s.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Nonzero when some byte of `x` is zero (exact as a whole-word test).
#[inline]
const fn has_zero(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

/// Nonzero when some byte of `x` is below `n` (`n` ≤ 128).
#[inline]
const fn has_less(x: u64, n: u8) -> u64 {
    x.wrapping_sub(LO * n as u64) & !x & HI
}

/// Index of the first byte at or after `from` that `word` flags. `word` must set the high bit
/// of every byte that is a hit, and may set it in a byte above a hit (a borrow) but never below
/// the first one, so the lowest flagged byte is exact and no byte loop is needed. The last,
/// partial word is padded with spaces, which are never a hit.
#[inline]
fn find(bytes: &[u8], from: usize, word: impl Fn(u64) -> u64) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let hits = word(u64::from_le_bytes(chunk));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes.get(i..).filter(|r| !r.is_empty())?;
    let hits = word(padded(rest));
    (hits != 0).then(|| i + (hits.trailing_zeros() / 8) as usize)
}

/// The bytes of `rest` (fewer than eight) as a little-endian word, spaces above them. Loaded
/// as 4-, 2- and 1-byte pieces: a copy loop would become a `memcpy` call per string.
#[inline]
fn padded(rest: &[u8]) -> u64 {
    let mut w = LO * u64::from(b' ');
    let mut at = 0;
    let mut put = |piece: u64, width: usize, at: &mut usize| {
        let shift = 8 * *at as u32;
        let mask = (u64::MAX >> (64 - 8 * width as u32)) << shift;
        w = (w & !mask) | (piece << shift);
        *at += width;
    };
    if let Some(p) = rest.get(..4).and_then(|p| <[u8; 4]>::try_from(p).ok()) {
        put(u64::from(u32::from_le_bytes(p)), 4, &mut at);
    }
    if rest.len() & 2 != 0
        && let Some(p) = rest.get(at..at + 2).and_then(|p| <[u8; 2]>::try_from(p).ok())
    {
        put(u64::from(u16::from_le_bytes(p)), 2, &mut at);
    }
    if rest.len() & 1 != 0
        && let Some(&b) = rest.get(at)
    {
        put(u64::from(b), 1, &mut at);
    }
    w
}

/// The first byte at or after `from` that a JSON string must escape: `"`, `\` or a control
/// character.
#[inline]
pub(crate) fn next_to_escape(bytes: &[u8], from: usize) -> Option<usize> {
    find(bytes, from, |x| {
        has_less(x, 0x20)
            | has_zero(x ^ (LO * u64::from(b'"')))
            | has_zero(x ^ (LO * u64::from(b'\\')))
    })
}

/// The first `\` or NUL byte at or after `from`. In JSON input backslashes are a few per
/// kilobyte, so a vectorised search that skips whole blocks beats the word loop.
#[inline]
pub(crate) fn next_backslash_or_nul(bytes: &[u8], from: usize) -> Option<usize> {
    memchr::memchr2(b'\\', 0, bytes.get(from..)?).map(|p| p + from)
}

/// Whether two texts are the same, told by their address first: static texts (input
/// pointers, member scopes, a path's raw steps) are, as a rule, the same text at the same
/// place, so no bytes are compared.
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// Whether two byte strings are equal; up to 24 bytes compared as (overlapping) words of 2, 4
/// or 8 bytes, longer ones as slices. A slice comparison calls `memcmp`, which costs more than
/// the comparison for the short keys and names a conversion compares most (schema keywords,
/// property names against `required`, dropped member keys).
#[inline]
pub(crate) fn same_short(a: &[u8], b: &[u8]) -> bool {
    fn word<const W: usize>(s: &[u8], at: usize) -> Option<[u8; W]> {
        s.get(at..at + W).and_then(|w| <[u8; W]>::try_from(w).ok())
    }
    fn ends<const W: usize>(a: &[u8], b: &[u8]) -> bool {
        let n = a.len();
        word::<W>(a, 0) == word::<W>(b, 0)
            && word::<W>(a, n.saturating_sub(W)) == word::<W>(b, n.saturating_sub(W))
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        // Words at 0, the middle and the end cover any length from 8 to 24.
        8..=24 => [0, (n - 8) / 2, n - 8].iter().all(|&at| word::<8>(a, at) == word::<8>(b, at)),
        4..=7 => ends::<4>(a, b),
        2..=3 => ends::<2>(a, b),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_a_byte_loop() {
        let samples: [&[u8]; 7] = [
            b"",
            b"plain ascii text without anything special in it at all",
            b"0123456\"89abcdef",
            b"0123456789abcde\\",
            "tab\there é \u{1} 😀 and more text".as_bytes(),
            b"\x7f\x80\xff\x1f ~ ] [",
            b"false\0\0\0\0,\"p\"",
        ];
        for s in samples {
            for from in 0..=s.len() {
                let slow = s.iter().skip(from).position(|&b| b < 0x20 || b == b'"' || b == b'\\');
                assert_eq!(next_to_escape(s, from), slow.map(|p| p + from), "{s:?} from {from}");
                let slow = s.iter().skip(from).position(|&b| b == b'\\' || b == 0);
                assert_eq!(next_backslash_or_nul(s, from), slow.map(|p| p + from));
            }
        }
    }

    #[test]
    fn short_comparison_agrees_with_slices() {
        let words: Vec<Vec<u8>> = (0..=25)
            .flat_map(|n| {
                let base: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
                let mut variants = vec![base.clone()];
                for at in 0..n {
                    let mut v = base.clone();
                    v[at] = b'Z';
                    variants.push(v);
                }
                variants
            })
            .collect();
        for a in &words {
            for b in &words {
                assert_eq!(same_short(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }
}
