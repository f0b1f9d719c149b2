//! Duplicate keys: simd-json keeps every member of an object, so a repeated key is found here
//! and rejected with its pointer.

use super::{At, Lowerer};
use crate::error::{ConversionError, ErrorKind};
use crate::pointer::{Path, Seg};

impl<'a> Lowerer<'a, '_> {
    /// Rejects an object whose keys repeat. Small objects compare each key's fingerprint with
    /// the earlier ones' (strings only on a match); larger ones sort (hash, position) pairs in
    /// a reused scratch vector (`first_repeat`), so the check stays O(n log n) without
    /// allocating.
    pub fn check_duplicates(&mut self, at: At, path: &Path<'_>) -> Result<(), ConversionError> {
        let len = self.object_len(at);
        if len < 2 {
            return Ok(());
        }
        if len <= SMALL {
            let mut seen = Seen::new();
            for (i, (k, _, _)) in self.members(at).enumerate() {
                if !seen.fresh(k) && self.members(at).take(i).any(|(e, _, _)| e == k) {
                    return Err(self.error(&path.push(Seg::Key(k)), dup(k)));
                }
            }
            return Ok(());
        }
        let mut scratch = std::mem::take(&mut *self.scratch);
        scratch.clear();
        for (k, key_at, _) in self.members(at) {
            scratch.push((hash(k), key_at as u32));
        }
        let repeat = first_repeat(&mut scratch, |i| self.str(i as usize));
        *self.scratch = scratch;
        match repeat {
            Some(k) => Err(self.error(&path.push(Seg::Key(k)), dup(k))),
            None => Ok(()),
        }
    }

    /// `e`, unless the object at `at` repeats a key: lowering a member before the object's
    /// duplicate check ran must not change which error the caller sees.
    #[cold]
    pub(crate) fn prefer_duplicate(
        &mut self,
        at: At,
        path: &Path<'_>,
        e: ConversionError,
    ) -> ConversionError {
        match self.check_duplicates(at, path) {
            Err(d) => d,
            Ok(()) => e,
        }
    }
}

/// A key that `keys` ((hash, position) pairs; `key` reads the key at a position) holds
/// twice, if any. Sorted by hash, then, among equal hashes, by the keys themselves: equal keys
/// end up next to each other even when a different key with the same hash (an FNV-64
/// collision, which can be constructed) was written between them, and a flood of colliding
/// keys still sorts in n·log n comparisons rather than all pairs compared.
fn first_repeat<'k>(
    keys: &mut [(u64, u32)],
    key: impl Fn(u32) -> Option<&'k str>,
) -> Option<&'k str> {
    keys.sort_unstable_by(|(ha, ia), (hb, ib)| ha.cmp(hb).then_with(|| key(*ia).cmp(&key(*ib))));
    keys.windows(2).find_map(|pair| {
        let [(ha, ia), (hb, ib)] = pair else { return None };
        let a = key(*ia)?;
        (ha == hb && Some(a) == key(*ib)).then_some(a)
    })
}

fn dup(key: &str) -> ErrorKind {
    ErrorKind::DuplicateKey { key: key.to_owned() }
}

/// Objects with at most this many keys check duplicates by fingerprint, larger ones by hash.
pub(crate) const SMALL: usize = 12;

/// The keys of a small object seen so far, as fingerprints: a first test for repeats that
/// compares integers, not strings.
pub(crate) struct Seen {
    fingerprints: [u64; SMALL],
    n: usize,
}

impl Seen {
    /// Nothing seen.
    #[inline]
    pub(crate) fn new() -> Self {
        Seen { fingerprints: [0; SMALL], n: 0 }
    }

    /// Records `key`; `false` when an earlier key may be the same (the caller compares).
    #[inline]
    pub(crate) fn fresh(&mut self, key: &str) -> bool {
        let fp = fingerprint(key);
        let seen = self.fingerprints.get(..self.n).unwrap_or_default();
        let fresh = !seen.contains(&fp);
        if let Some(slot) = self.fingerprints.get_mut(self.n) {
            *slot = fp;
            self.n += 1;
        }
        fresh
    }
}

/// Length and first, middle and last bytes: equal keys have equal fingerprints, and keys of
/// one object rarely share all four.
#[inline]
fn fingerprint(key: &str) -> u64 {
    let b = key.as_bytes();
    let byte = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
    let n = b.len();
    (n as u64) | byte(0) << 32 | byte(n / 2) << 40 | byte(n.wrapping_sub(1)) << 48
}

/// FNV-1a: stable across runs and versions, so names derived from it are too.
pub(crate) fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::first_repeat;

    /// Every key given one hash (a test seam standing for FNV-64 collisions): the copies of
    /// `a` are apart in source order with a colliding `b` between them, which a comparison of
    /// neighbours in (hash, position) order missed.
    #[test]
    fn a_repeat_is_found_across_colliding_keys() {
        let keys = ["a", "b", "a", "c"];
        let key = |i: u32| keys.get(i as usize).copied();
        let mut pairs: Vec<(u64, u32)> = (0..4).map(|i| (7, i)).collect();
        assert_eq!(first_repeat(&mut pairs, key), Some("a"));
        // The way the old check sorted (hash, then position): `b` lies between the copies.
        let mut old: Vec<(u64, u32)> = (0..4).map(|i| (7, i)).collect();
        old.sort_unstable();
        assert!(old.windows(2).all(|w| key(w[0].1) != key(w[1].1)));
        let distinct = ["a", "b", "c", "d"];
        let mut pairs: Vec<(u64, u32)> = (0..4).map(|i| (7, i)).collect();
        assert_eq!(first_repeat(&mut pairs, |i| distinct.get(i as usize).copied()), None);
        // Distinct hashes: nothing compared as strings, nothing found.
        let mut pairs: Vec<(u64, u32)> = (0..4).map(|i| (u64::from(i), i)).collect();
        assert_eq!(first_repeat(&mut pairs, key), None);
    }
}
