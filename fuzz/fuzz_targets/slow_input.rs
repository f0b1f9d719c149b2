//! Slow input: conversions that take longer than a budget, or whose time grows faster than
//! their input, are findings (issues 22 and 32). The input is the first byte, which picks the
//! (from, to) pair and the strict mode as in `convert`, then a generator recipe (`recipe.rs`:
//! literals and units repeated as many times as fit in 64 KB, each copy numbered), so that a
//! few bytes describe the wide shapes a quadratic spot needs (thousands of properties, refs
//! into as many definitions, a `oneOf` of as many branches).
//!
//! At 64 KB a quadratic spot does not take a second; it shows in the growth instead: a
//! conversion slower than [`FLOOR`] is timed again against the same recipe at k/8, and time
//! that grows more than [`MAX_GROWTH`] times (linear work grows about 8×) is a finding, as is
//! any conversion over the budget. Run with libFuzzer's `-timeout` as the backstop for a hang.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use tooladapter::{Adapter, Converter, Options, Registry};

mod pick;
mod recipe;
use pick::Picked;

/// Below this a conversion is not timed again: at that size it is noise, not a quadratic.
const FLOOR: Duration = Duration::from_millis(25);

/// The most the time may grow from k/8 copies to k (linear: 8×, quadratic: 64×).
const MAX_GROWTH: f64 = 32.0;

/// Time one conversion of up to 64 KB may take (instrumented builds convert a linear shape
/// of that size in milliseconds). `SLOW_INPUT_BUDGET_MS` overrides it.
fn budget() -> Duration {
    let ms = std::env::var("SLOW_INPUT_BUDGET_MS").ok().and_then(|v| v.parse().ok());
    Duration::from_millis(ms.unwrap_or(1_000))
}

/// The CPU time this thread has used: unlike wall time, it does not count the turns other
/// processes take on a shared machine.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "the thread CPU clock is readable");
    Duration::new(u64::try_from(ts.tv_sec).unwrap_or(0), u32::try_from(ts.tv_nsec).unwrap_or(0))
}

/// One conversion and check of `input` by `converter`, and the CPU time it took.
fn once(
    converter: &mut Converter,
    input: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &Options,
) -> Duration {
    let start = thread_cpu_time();
    let _ = converter.convert(input, from, to, options);
    let _ = converter.check(input, from, to, options);
    thread_cpu_time().saturating_sub(start)
}

/// The best of five timings each of `small` and `large`, taken in turn (so a burst of load
/// falls on both), and how much the time grew from one to the other.
fn growth(
    small: &[u8],
    large: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &Options,
) -> (Duration, Duration, f64) {
    let (mut a, mut b) = (Converter::new(), Converter::new());
    let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        best_small = best_small.min(once(&mut a, small, from, to, options));
        best_large = best_large.min(once(&mut b, large, from, to, options));
    }
    let ratio = best_large.as_secs_f64() / best_small.max(Duration::from_micros(100)).as_secs_f64();
    (best_small, best_large, ratio)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let registry = Registry::default();
    let Some(Picked { from: f, to: t, names: (from, to), strict }) = pick::pick(&registry, pick)
    else {
        return;
    };
    let (parts, k) = recipe::recipe(rest);
    let input = if k == 0 { rest.to_vec() } else { recipe::build(&parts, k) };
    let options = Options::default().strict(strict);
    let took = once(&mut Converter::new(), &input, &*f, &*t, &options);
    let pair = format!("{from} → {to} ({strict:?})");
    assert!(took <= budget(), "{pair} took {took:?} for {} bytes", input.len());
    if took < FLOOR || k < 64 {
        return;
    }
    // Slow enough to tell: timed again, against the same recipe at an eighth of the copies,
    // three times at most (a linear shape a burst of load pushed over comes in under the next
    // time; a quadratic one never does).
    let small = recipe::build(&parts, k / 8);
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (t_small, t_large, ratio) = growth(&small, &input, &*f, &*t, &options);
        if ratio <= MAX_GROWTH {
            return;
        }
        seen.push((t_small, t_large, ratio));
    }
    panic!("{pair}: {k} copies against {}: (time at k/8, at k, growth) {seen:.1?}", k / 8);
});
