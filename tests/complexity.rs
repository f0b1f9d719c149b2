//! Time complexity on hostile shapes (issue 22): each shape is converted at n and at 10n in one
//! run, and the test fails when the time grows more than [`MAX_GROWTH`] (linear or n·log n
//! grows about 10–12×; the quadratic spots these shapes hit grew 100×). Inputs are generated
//! here. The release figures at 100,000 are in docs/security.md ("Hostile shapes: time").

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi};
use tooladapter::{Adapter, Converter, Options, Strict};

/// The smaller size; the larger is ten times it. A release build (CI runs this suite so,
/// `cargo test --release --test complexity`) takes the sizes the issue names; a debug build
/// smaller ones, to stay within seconds.
const N: usize = if cfg!(debug_assertions) { 2_000 } else { 10_000 };

/// The most the time may grow from n to 10n: 16× in a release build (linear or n·log n grows
/// 10–12×, up to 15× with caches outgrown on a loaded machine; the quadratic spots grew 100×).
/// A debug build, which `cargo test` runs beside the other suites, is held to 25×: still far
/// below what a quadratic spot gives.
const MAX_GROWTH: f64 = if cfg!(debug_assertions) { 25.0 } else { 16.0 };

/// `"p0":<schema>,"p1":<schema>,…` for `n` properties.
fn props(n: usize, schema: &str) -> String {
    let list: Vec<String> = (0..n).map(|i| format!(r#""p{i}":{schema}"#)).collect();
    list.join(",")
}

/// `"p0","p1",…`
fn names(n: usize) -> String {
    let list: Vec<String> = (0..n).map(|i| format!(r#""p{i}""#)).collect();
    list.join(",")
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

/// One timed conversion by a warm converter (this thread's CPU time).
fn once(
    c: &mut Converter,
    input: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    o: &Options,
) -> Duration {
    let start = thread_cpu_time();
    let out = c.convert(input, from, to, o).expect("the shape converts");
    assert!(!out.output().is_empty());
    thread_cpu_time().saturating_sub(start)
}

/// The best of [`ROUNDS`] timings of `small` and of `large`, taken in turn (small, large,
/// small, …) after one untimed conversion of each, so that a burst of load on a shared
/// machine falls on both sizes alike rather than on one.
fn best_of_pair(
    small: &[u8],
    large: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &Options,
) -> (Duration, Duration) {
    // Both keep their buffers: above the retention cap (tests/memory.rs) a converter gives
    // them back after each call and the next one pays for fresh pages, a cost of the policy
    // that would fall on the larger size only.
    let (mut a, mut b) = (Converter::new(), Converter::new());
    a.set_retention(usize::MAX);
    b.set_retention(usize::MAX);
    once(&mut a, small, from, to, options);
    once(&mut b, large, from, to, options);
    let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        best_small = best_small.min(once(&mut a, small, from, to, options));
        best_large = best_large.min(once(&mut b, large, from, to, options));
    }
    (best_small, best_large)
}

/// Timed rounds per size.
const ROUNDS: usize = 7;

/// One measurement at a time: the harness runs tests in parallel, and a neighbour's work in
/// one of the two timings skews the ratio.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Converts `shape(n)` and `shape(10n)`, and fails when the time grows more than
/// [`MAX_GROWTH`].
#[track_caller]
fn grows_linearly(
    name: &str,
    shape: impl Fn(usize) -> String,
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &Options,
) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let (small_input, large_input) = (shape(N), shape(10 * N));
    // A floor on the small time: below it, timer and scheduler noise is most of the ratio.
    let floor = Duration::from_micros(200);
    // Measured twice at most: a linear shape that a burst of load on a shared machine pushes
    // over the bound once comes in under it the next time; a quadratic one (100×) never does.
    let mut ratios = Vec::new();
    for _ in 0..2 {
        let (small, large) =
            best_of_pair(small_input.as_bytes(), large_input.as_bytes(), from, to, options);
        let ratio = large.as_secs_f64() / small.max(floor).as_secs_f64();
        eprintln!("{name}: n={N} {small:?}, 10n {large:?}, ×{ratio:.1}");
        ratios.push(ratio);
        if ratio <= MAX_GROWTH {
            return;
        }
    }
    panic!("{name}: time grew {ratios:.1?}× from n={N} to 10n, over ×{MAX_GROWTH}");
}

/// Item 1: an OpenAI tool marked strict, every property required, to Anthropic (the strict
/// pass asked `required` once per property).
#[test]
fn strict_required() {
    let shape = |n| {
        format!(
            r#"{{"type":"function","function":{{"name":"t","strict":true,"parameters":{{"type":"object","properties":{{{}}},"required":[{}],"additionalProperties":false}}}}}}"#,
            props(n, r#"{"type":"string"}"#),
            names(n)
        )
    };
    grows_linearly("strict required", shape, &OpenAi, &Anthropic, &Options::default());
    // Half required, made strict (the optional ones widened), to OpenAI.
    let half = |n: usize| {
        let required: Vec<String> = (0..n).step_by(2).map(|i| format!(r#""p{i}""#)).collect();
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{{}}},"required":[{}]}}}}"#,
            props(n, r#"{"type":"string"}"#),
            required.join(",")
        )
    };
    let strict = Options::default().strict(Strict::On);
    grows_linearly("strict, half required", half, &Mcp, &OpenAi, &strict);
}

/// Item 2: one `$ref` per property into as many `$defs` (resolution scanned the definitions
/// for each ref), kept (OpenAI), inlined (Gemini), and made strict.
#[test]
fn refs_into_defs() {
    let shape = |n: usize| {
        let props: Vec<String> =
            (0..n).map(|i| format!(r##""p{i}":{{"$ref":"#/$defs/d{i}"}}"##)).collect();
        let defs: Vec<String> =
            (0..n).map(|i| format!(r#""d{i}":{{"type":"string","description":"d{i}"}}"#)).collect();
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{{}}},"$defs":{{{}}}}}}}"#,
            props.join(","),
            defs.join(",")
        )
    };
    let options = Options::default();
    grows_linearly("refs, kept", shape, &Mcp, &OpenAi, &options);
    grows_linearly("refs, inlined", shape, &Mcp, &Gemini, &options);
    let strict = Options::default().strict(Strict::On);
    grows_linearly("refs, strict", shape, &Mcp, &OpenAi, &strict);
}

/// Item 3: `oneOf` of two branches that require every property, with a discriminator last
/// (disjointness asked `required` once per property).
#[test]
fn one_of_disjointness() {
    let shape = |n| {
        let branch = |tag: &str| {
            format!(
                r#"{{"type":"object","properties":{{{},"k":{{"const":"{tag}"}}}},"required":[{},"k"]}}"#,
                props(n, r#"{"type":"string"}"#),
                names(n)
            )
        };
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{"x":{{"oneOf":[{},{}]}}}},"required":["x"]}}}}"#,
            branch("a"),
            branch("b")
        )
    };
    grows_linearly("oneOf disjointness", shape, &Mcp, &Gemini, &Options::default());
}

/// Item 4: every property with a `const` and four keywords Gemini lacks: the report gets rows
/// from two passes, the later one's at places before the earlier one's (each row was put in
/// place, shifting the rest).
#[test]
fn report_rows() {
    let shape = |n| {
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{{}}}}}}}"#,
            props(
                n,
                r#"{"const":"a","format":"email","$comment":"x","examples":["a"],"multipleOf":2}"#
            )
        )
    };
    grows_linearly("report rows", shape, &Mcp, &Gemini, &Options::default());
}

/// Property keys the target renames, all required (renaming `required` scanned the
/// properties for each name).
#[test]
fn renamed_required_keys() {
    let shape = |n: usize| {
        let props: Vec<String> =
            (0..n).map(|i| format!(r#""p {i}":{{"type":"string"}}"#)).collect();
        let required: Vec<String> = (0..n).map(|i| format!(r#""p {i}""#)).collect();
        format!(
            r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{{}}},"required":[{}]}}}}"#,
            props.join(","),
            required.join(",")
        )
    };
    grows_linearly("renamed required keys", shape, &Mcp, &Anthropic, &Options::default());
}
