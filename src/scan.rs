//! Word-at-a-time byte scans for the two hot loops that look for rare bytes: escaping output
//! strings and finding `\` escapes in the input. Eight bytes are tested per step with the
//! classic SWAR zero-byte test; the byte loop only runs inside a word that has a candidate.

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

/// Index of the first byte at or after `from` for which `hit` holds, testing whole words with
/// `word` first (which must be nonzero whenever a byte of the word could be a hit).
#[inline]
fn find(
    bytes: &[u8],
    from: usize,
    word: impl Fn(u64) -> u64,
    hit: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        if word(u64::from_le_bytes(w)) != 0 {
            break;
        }
        i += 8;
    }
    bytes.get(i..)?.iter().position(|&b| hit(b)).map(|p| i + p)
}

/// The first byte at or after `from` that a JSON string must escape: `"`, `\` or a control
/// character.
#[inline]
pub(crate) fn next_to_escape(bytes: &[u8], from: usize) -> Option<usize> {
    find(
        bytes,
        from,
        |x| {
            has_less(x, 0x20)
                | has_zero(x ^ (LO * u64::from(b'"')))
                | has_zero(x ^ (LO * u64::from(b'\\')))
        },
        |b| b < 0x20 || b == b'"' || b == b'\\',
    )
}

/// The first `\` or NUL byte at or after `from`.
#[inline]
pub(crate) fn next_backslash_or_nul(bytes: &[u8], from: usize) -> Option<usize> {
    find(
        bytes,
        from,
        |x| has_zero(x) | has_zero(x ^ (LO * u64::from(b'\\'))),
        |b| b == b'\\' || b == 0,
    )
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
}
