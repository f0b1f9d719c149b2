//! The `slow_input` fuzz target's generator recipes, shared with `tests/fuzz_seeds.rs`, which
//! expands every seed as the target does: `literal \0 unit \0 literal \0 unit \0 literal …`,
//! every second part (a unit) repeated k times, each copy with `@` replaced by its number i,
//! `^` by i + 1 and `#` by k - 1 - i (the reverse order), the copies comma-separated (unless
//! the unit starts with one). k is the largest count for which the document stays within
//! [`MAX_DOC`].

/// The largest document built: small enough for hundreds of conversions a second.
pub const MAX_DOC: usize = 64 << 10;

/// The digits `i` is written with.
fn digits(i: usize) -> usize {
    i.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// At most the size of the document with `k` copies of each unit.
fn size(parts: &[&[u8]], k: usize) -> usize {
    let mut total = 0;
    for (n, part) in parts.iter().enumerate() {
        if n % 2 == 0 {
            total += part.len();
            continue;
        }
        let marks = part.iter().filter(|b| matches!(b, b'@' | b'^' | b'#')).count();
        // Each copy: the unit, its marks written as numbers of at most k's digits, a comma.
        total += k * (part.len() + 1 + marks * digits(k));
    }
    total
}

/// The document `parts` describes, with `k` copies of each unit.
pub fn build(parts: &[&[u8]], k: usize) -> Vec<u8> {
    let mut doc = Vec::with_capacity(size(parts, k));
    for (n, part) in parts.iter().enumerate() {
        if n % 2 == 0 {
            doc.extend_from_slice(part);
            continue;
        }
        for i in 0..k {
            if i > 0 && part.first() != Some(&b',') {
                doc.push(b',');
            }
            for &b in *part {
                let number = match b {
                    b'@' => i,
                    b'^' => i + 1,
                    b'#' => k - 1 - i,
                    _ => {
                        doc.push(b);
                        continue;
                    }
                };
                doc.extend_from_slice(number.to_string().as_bytes());
            }
        }
    }
    doc
}

/// The recipe's parts (split at NUL bytes) and the most copies that keep its document within
/// [`MAX_DOC`]; no copies for a recipe with no unit.
pub fn recipe(bytes: &[u8]) -> (Vec<&[u8]>, usize) {
    let parts: Vec<&[u8]> = bytes.split(|&b| b == 0).collect();
    if parts.len() < 2 || parts.iter().skip(1).step_by(2).all(|u| u.is_empty()) {
        return (parts, 0);
    }
    let (mut lo, mut hi) = (0, MAX_DOC);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if size(&parts, mid) <= MAX_DOC {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    (parts, lo)
}
