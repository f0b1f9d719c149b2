//! Time complexity on hostile shapes (issue 22): each shape is converted at n and at 10n in one
//! run, and the test fails when the time grows more than 15× (linear or n·log n grows about
//! 10–12×; the quadratic spots these shapes hit grew 100×). Inputs are generated here. Sizes are
//! chosen so a debug `cargo test` stays within seconds; the release figures at 100,000 are in
//! docs/security.md ("Hostile shapes: time").

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi};
use tooladapter::{Adapter, Converter, Options, Strict};

/// The smaller size; the larger is ten times it.
const N: usize = 2_000;

/// The most the time may grow from n to 10n.
const MAX_GROWTH: f64 = 15.0;

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

/// The best of three conversions by one warm converter (the first, untimed, warms it).
fn time(input: &[u8], from: &dyn Adapter, to: &dyn Adapter, options: &Options) -> Duration {
    let mut converter = Converter::new();
    let mut best = Duration::MAX;
    for round in 0..4 {
        let start = Instant::now();
        let c = converter.convert(input, from, to, options).expect("the shape converts");
        assert!(!c.output().is_empty());
        if round > 0 {
            best = best.min(start.elapsed());
        }
    }
    best
}

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
    let small = time(shape(N).as_bytes(), from, to, options);
    let large = time(shape(10 * N).as_bytes(), from, to, options);
    // A floor on the small time: below it, timer and scheduler noise is most of the ratio.
    let floor = Duration::from_micros(200);
    let ratio = large.as_secs_f64() / small.max(floor).as_secs_f64();
    eprintln!("{name}: n={N} {small:?}, 10n {large:?}, ×{ratio:.1}");
    assert!(ratio <= MAX_GROWTH, "{name}: time grew ×{ratio:.1} from n={N} to 10n");
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
