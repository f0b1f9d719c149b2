//! Duplicate keys: simd-json keeps every member of an object, so a repeated key is found here
//! and rejected with its pointer.

use super::{At, Lowerer};
use crate::error::{ConversionError, ErrorKind};
use crate::pointer::{Path, Seg};

impl<'a> Lowerer<'a, '_> {
    /// Rejects an object whose keys repeat. Small objects compare each key's fingerprint with
    /// the earlier ones' (strings only on a match); larger ones sort hashes in a reused scratch
    /// vector, so the check stays O(n log n) without allocating.
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
        self.scratch.clear();
        for (k, key_at, _) in self.members(at) {
            self.scratch.push((hash(k), key_at as u32));
        }
        self.scratch.sort_unstable();
        for pair in self.scratch.windows(2) {
            let [(ha, ia), (hb, ib)] = pair else { continue };
            if ha == hb {
                let a = self.str(*ia as usize);
                if a.is_some() && a == self.str(*ib as usize) {
                    let k = a.unwrap_or_default();
                    return Err(self.error(&path.push(Seg::Key(k)), dup(k)));
                }
            }
        }
        Ok(())
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
