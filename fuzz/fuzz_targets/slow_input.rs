//! Slow input: conversions that take longer than a budget are findings (issue 22). The input is
//! `pick head \0 unit \0 tail`; the unit is repeated, each copy with `@` replaced by its
//! number, until the document nears 1 MB, so a few bytes describe the wide shapes (100,000
//! properties, refs, required names) that a quadratic spot needs to show. The first byte
//! picks the (from, to) pair and the strict mode as in `convert`. Run with libFuzzer's
//! `-timeout` as the backstop for a hang; this oracle flags the merely slow.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use tooladapter::{Converter, Options, Registry};

mod pick;
use pick::Picked;

/// The largest document built, as `-max_len=1048576` bounds the raw input.
const MAX_DOC: usize = 1 << 20;

/// Time a conversion of up to 1 MB may take. Instrumented builds run several times slower
/// than release ones, which convert each hostile shape at 100,000 in under a second: a
/// quadratic spot at that size takes tens of seconds. `SLOW_INPUT_BUDGET_MS` overrides it.
fn budget() -> Duration {
    let ms = std::env::var("SLOW_INPUT_BUDGET_MS").ok().and_then(|v| v.parse().ok());
    Duration::from_millis(ms.unwrap_or(5_000))
}

/// `head`, then `unit` repeated with `@` numbered, then `tail`, up to [`MAX_DOC`] bytes.
fn build(data: &[u8]) -> Vec<u8> {
    let mut parts = data.splitn(3, |&b| b == 0);
    let (head, unit, tail) = (parts.next(), parts.next(), parts.next());
    let (Some(head), Some(unit), Some(tail)) = (head, unit, tail) else { return data.to_vec() };
    let mut doc = head.to_vec();
    let mut i = 0_u64;
    while !unit.is_empty() && doc.len() + unit.len() + tail.len() + 24 < MAX_DOC {
        if i > 0 && unit.first() != Some(&b',') {
            doc.push(b',');
        }
        for &b in unit {
            if b == b'@' {
                doc.extend_from_slice(i.to_string().as_bytes());
            } else {
                doc.push(b);
            }
        }
        i += 1;
    }
    doc.extend_from_slice(tail);
    doc
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let registry = Registry::default();
    let Some(Picked { from: f, to: t, names: (from, to), strict }) = pick::pick(&registry, pick)
    else {
        return;
    };
    let input = build(rest);
    let options = Options::default().strict(strict);
    let mut converter = Converter::new();
    let start = Instant::now();
    let _ = converter.convert(&input, &*f, &*t, &options);
    let _ = converter.check(&input, &*f, &*t, &options);
    let took = start.elapsed();
    assert!(took <= budget(), "{from} → {to} ({strict:?}) took {took:?} for {} bytes", input.len());
});
