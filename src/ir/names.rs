//! Tool and key names as text: numbering a name that clashes (`search_2`) and telling whether
//! a list of names repeats one. The names pass renames with them, the check tests names with
//! them and the OpenAPI import numbers operations with them, so all three read names alike.

use smallvec::SmallVec;

/// The first `<base>_<n>` that `taken` does not hold, counting `n` from `*next` (2 at the
/// least) and leaving `*next` past it, so that many clashes on one base cost a step each;
/// `base` is cut (on a character boundary) so that the name fits in `max` bytes.
pub(crate) fn numbered(
    base: &str,
    max: usize,
    next: &mut u64,
    taken: impl Fn(&str) -> bool,
) -> String {
    loop {
        let n = (*next).max(2);
        *next = n + 1;
        let tag = format!("_{n}");
        let mut keep = max.saturating_sub(tag.len()).min(base.len());
        while !base.is_char_boundary(keep) {
            keep -= 1;
        }
        let candidate = format!("{}{tag}", base.get(..keep).unwrap_or(base));
        if !taken(&candidate) {
            return candidate;
        }
    }
}

/// Whether two of `names` are equal: for a few, each hash against the earlier ones; else
/// through an open-addressing table of hashes in `scratch` (one probe per name, no sort).
/// Names are compared only when their hashes are equal: tool names often share a length
/// and a prefix, so comparing strings pairwise cost a `memcmp` call per pair.
pub(crate) fn has_duplicates<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    scratch: &mut Vec<(u64, u32)>,
) -> bool {
    let n = names.clone().count();
    if n <= 16 {
        let mut seen: SmallVec<[(u64, &str); 16]> = SmallVec::new();
        for name in names {
            let h = word_hash(name);
            if seen.iter().any(|&(sh, s)| sh == h && s == name) {
                return true;
            }
            seen.push((h, name));
        }
        return false;
    }
    // At most half full, so probes stay short; a slot holds (hash, index + 1), 0 when empty.
    let size = (n * 2).next_power_of_two();
    scratch.clear();
    scratch.resize(size, (0, 0));
    let mask = size - 1;
    for (i, name) in names.clone().enumerate() {
        let h = word_hash(name);
        let mut at = (h ^ (h >> 29)) as usize & mask;
        loop {
            match scratch.get_mut(at) {
                Some(slot @ (_, 0)) => {
                    *slot = (h, u32::try_from(i + 1).unwrap_or(u32::MAX));
                    break;
                }
                Some((seen, j)) if *seen == h => {
                    if names.clone().nth(*j as usize - 1) == Some(name) {
                        return true;
                    }
                }
                Some(_) => {}
                None => break,
            }
            at = (at + 1) & mask;
        }
    }
    false
}

/// A fast hash of a name, eight bytes per step, for the duplicate test only (names derived
/// from a hash use `lower::hash`, which is stable across versions).
#[inline]
fn word_hash(s: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (s.len() as u64).wrapping_mul(K);
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let w = <[u8; 8]>::try_from(c).map_or(0, u64::from_le_bytes);
        h = (h ^ w).wrapping_mul(K).rotate_left(31);
    }
    let tail =
        chunks.remainder().iter().enumerate().fold(0u64, |w, (i, &b)| w | u64::from(b) << (8 * i));
    h = (h ^ tail).wrapping_mul(K);
    h ^ (h >> 32)
}
