//! Time complexity on hostile shapes (issues 22 and 32): each shape is converted at n and at 10n
//! in one run, and the test fails when the time grows more than [`MAX_GROWTH`] (linear or
//! n·log n grows about 10–12×; the quadratic spots these shapes hit grew 100×). Inputs are
//! generated here; the shapes about `$ref`s run against every target (strict too, where the
//! target has it). The release figures at 100,000 are in docs/security.md ("Hostile shapes:
//! time").

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use std::sync::Arc;

use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi};
use tooladapter::{Adapter, Converter, Inverse, Options, Registry, Strict};

/// The smaller size; the larger is ten times it. A release build (CI runs this suite so,
/// `cargo test --release --test complexity`) takes the sizes the issue names; a debug build
/// smaller ones, to stay within seconds.
const N: usize = if cfg!(debug_assertions) { 2_000 } else { 10_000 };

/// The most the time may grow from n to 10n: 20× in a release build, issue 32's bar (linear or
/// n·log n grows 10–12×, up to 16× with caches outgrown on a loaded machine, for the shapes
/// that take milliseconds; the quadratic spots grew 100×). A debug build, which `cargo test`
/// runs beside the other suites, is held to 25×: still far below what a quadratic spot gives.
const MAX_GROWTH: f64 = if cfg!(debug_assertions) { 25.0 } else { 20.0 };

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

/// The smaller size of a shape run against every target: the matrix is many conversions, so
/// a debug build takes it smaller still.
const MATRIX_N: usize = if cfg!(debug_assertions) { 500 } else { N };

/// Timed rounds per size in the matrix (fewer than [`ROUNDS`]: there are many pairs).
const MATRIX_ROUNDS: usize = 3;

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
    rounds: usize,
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
    for _ in 0..rounds {
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
    grows_linearly_at(name, N, ROUNDS, &shape, from, to, options);
}

/// [`grows_linearly`] from `n`, with `rounds` timings per size.
#[track_caller]
fn grows_linearly_at(
    name: &str,
    n: usize,
    rounds: usize,
    shape: &dyn Fn(usize) -> String,
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &Options,
) {
    let (small_input, large_input) = (shape(n), shape(10 * n));
    within_growth(name, n, || {
        best_of_pair(small_input.as_bytes(), large_input.as_bytes(), from, to, options, rounds)
    });
}

/// Runs `measure` (the best times at n and 10n) and fails when the time grows more than
/// [`MAX_GROWTH`] twice.
#[track_caller]
fn within_growth(name: &str, n: usize, mut measure: impl FnMut() -> (Duration, Duration)) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    // A floor on the small time: below it, timer and scheduler noise is most of the ratio.
    let floor = Duration::from_micros(200);
    // Measured twice at most: a linear shape that a burst of load on a shared machine pushes
    // over the bound once comes in under it the next time; a quadratic one (100×) never does.
    let mut ratios = Vec::new();
    for _ in 0..2 {
        let (small, large) = measure();
        let ratio = large.as_secs_f64() / small.max(floor).as_secs_f64();
        eprintln!("{name}: n={n} {small:?}, 10n {large:?}, ×{ratio:.1}");
        ratios.push(ratio);
        if ratio <= MAX_GROWTH {
            return;
        }
    }
    panic!("{name}: time grew {ratios:.1?}× from n={n} to 10n, over ×{MAX_GROWTH}");
}

/// The targets a debug build (the plain `cargo test`) runs the matrix against: one that
/// inlines refs, one that keeps them with a strict mode, one that renames keys. A release
/// build (CI's run) takes every target.
const DEBUG_TARGETS: [&str; 3] = ["gemini", "openai", "anthropic"];

/// Every target (a format that writes), each as itself and, where it has a strict mode, made
/// strict.
fn targets() -> Vec<(String, Arc<dyn Adapter>, Options)> {
    let registry = Registry::default();
    let mut out = Vec::new();
    for name in registry.list() {
        let Some(a) = registry.get(&name) else { continue };
        if !a.info().writes || (cfg!(debug_assertions) && !DEBUG_TARGETS.contains(&name.as_str())) {
            continue;
        }
        if a.info().strict.is_some() {
            out.push((format!("{name} strict"), a.clone(), Options::default().strict(Strict::On)));
        }
        out.push((name, a, Options::default()));
    }
    out
}

/// Converts `shape` from MCP at n and 10n to every target ([`targets`]).
#[track_caller]
fn every_target_grows_linearly(name: &str, shape: impl Fn(usize) -> String) {
    every_target_grows_linearly_with(name, shape, |o| o);
}

/// [`every_target_grows_linearly`], each target's options changed by `options`.
#[track_caller]
fn every_target_grows_linearly_with(
    name: &str,
    shape: impl Fn(usize) -> String,
    options: impl Fn(Options) -> Options,
) {
    for (target, to, o) in targets() {
        let name = format!("{name} → {target}");
        grows_linearly_at(&name, MATRIX_N, MATRIX_ROUNDS, &shape, &Mcp, &*to, &options(o));
    }
}

/// An MCP tool `t` with the input schema `schema`.
fn tool(schema: &str) -> String {
    format!(r#"{{"name":"t","inputSchema":{schema}}}"#)
}

/// `n` properties `p<i>`, each a `$ref` to `reference(i)`, and the definitions `defs` under
/// the root's `keyword`.
fn refs_shape(n: usize, reference: impl Fn(usize) -> String, defs: &str) -> String {
    let props: Vec<String> =
        (0..n).map(|i| format!(r#""p{i}":{{"$ref":"{}"}}"#, reference(i))).collect();
    tool(&format!(r#"{{"type":"object","properties":{{{}}},{defs}}}"#, props.join(",")))
}

/// `n` definitions named `name(i)`, each a string schema with its own description.
fn defs(n: usize, name: impl Fn(usize) -> String) -> String {
    let list: Vec<String> = (0..n)
        .map(|i| format!(r#""{}":{{"type":"string","description":"d{i}"}}"#, name(i)))
        .collect();
    list.join(",")
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

/// Issue 32, item 10: refs to root definitions whose names need `~0`/`~1` or `%` decoding (they
/// fell off the sorted index and scanned every definition), in `$defs` and `definitions`,
/// to every target.
#[test]
fn refs_with_escapes() {
    for keyword in ["$defs", "definitions"] {
        let escaped = |n| {
            let d = defs(n, |i| format!("d~{i}/x"));
            refs_shape(n, |i| format!("#/{keyword}/d~0{i}~1x"), &format!(r#""{keyword}":{{{d}}}"#))
        };
        every_target_grows_linearly(&format!("refs with ~ escapes in {keyword}"), escaped);
        let percent = |n| {
            let d = defs(n, |i| format!("d {i}"));
            refs_shape(n, |i| format!("#/{keyword}/d%20{i}"), &format!(r#""{keyword}":{{{d}}}"#))
        };
        every_target_grows_linearly(&format!("refs with % escapes in {keyword}"), percent);
    }
}

/// Issue 32, item 11: refs into `#/properties/<name>` and into nested definitions
/// (`#/$defs/box/$defs/<name>`), which resolution scanned per ref, to every target.
#[test]
fn refs_into_properties_and_nested_defs() {
    let into_properties = |n: usize| {
        let targets: Vec<String> =
            (0..n).map(|i| format!(r#""q{i}":{{"type":"string","description":"q{i}"}}"#)).collect();
        let refs: Vec<String> =
            (0..n).map(|i| format!(r##""p{i}":{{"$ref":"#/properties/q{i}"}}"##)).collect();
        tool(&format!(
            r#"{{"type":"object","properties":{{{},{}}}}}"#,
            targets.join(","),
            refs.join(",")
        ))
    };
    every_target_grows_linearly("refs into properties", into_properties);
    let nested = |n| {
        let d = defs(n, |i| format!("d{i}"));
        refs_shape(
            n,
            |i| format!("#/$defs/box/$defs/d{i}"),
            &format!(r#""$defs":{{"box":{{"$defs":{{{d}}}}}}}"#),
        )
    };
    every_target_grows_linearly("refs into nested $defs", nested);
    // The refs go through a node with many keywords (the root, with n unknown ones before
    // its `properties`): finding `properties` among them scanned them per ref.
    let many_keywords = |n: usize| {
        let unknown: Vec<String> = (0..n).map(|i| format!(r#""x-{i}":{i}"#)).collect();
        let refs: Vec<String> =
            (0..n).map(|i| format!(r##""p{i}":{{"$ref":"#/properties/q"}}"##)).collect();
        tool(&format!(
            r#"{{{},"type":"object","properties":{{"q":{{"type":"string"}},{}}}}}"#,
            unknown.join(","),
            refs.join(",")
        ))
    };
    every_target_grows_linearly("refs through a node of many keywords", many_keywords);
}

/// Issue 32, item 9: a chain of `$ref` aliases (each definition a `$ref` to the next), inlined
/// in a loop and counted by the depth it writes (one level), to every target.
#[test]
fn ref_alias_chain() {
    let chain = |n: usize| {
        let links: Vec<String> =
            (0..n).map(|i| format!(r##""a{i}":{{"$ref":"#/$defs/a{}"}}"##, i + 1)).collect();
        tool(&format!(
            r##"{{"type":"object","properties":{{"p":{{"$ref":"#/$defs/a0"}}}},"$defs":{{{},"a{n}":{{"type":"string"}}}}}}"##,
            links.join(",")
        ))
    };
    // Each alias counts as a node against the expansion budget (100,000 by default): the
    // chain at 10n is over it, so the budget is raised, the work still bounded by the input.
    every_target_grows_linearly_with("ref alias chain", chain, |o| o.max_ref_expansion(1 << 24));
}

/// Refs into `$defs` in the reverse of the definitions' order, each definition a `$ref` to
/// another: inlining reports each definition's `$ref` in the order of the uses, and placing
/// those report entries in the input document looked through the definitions from where the
/// last lookup ended, once per entry.
#[test]
fn report_places_out_of_order() {
    let reversed = |n: usize| {
        let d: Vec<String> = (0..n)
            .map(|i| {
                format!(r##""d{i}":{{"$ref":"#/$defs/e{i}"}},"e{i}":{{"type":"string","format":"email"}}"##)
            })
            .collect();
        refs_shape(
            n,
            |i| format!("#/$defs/d{}", n - 1 - i),
            &format!(r#""$defs":{{{}}}"#, d.join(",")),
        )
    };
    every_target_grows_linearly("refs into $defs, reversed", reversed);
}

/// Issue 32, item 11: `oneOf` of `const` branches (disjointness compared every pair), and the
/// other shapes of the same check: a tagged union (one required property with a distinct
/// `const` per branch), and two branches of long `enum`s or of long `const` objects, to every
/// target.
#[test]
fn one_of_many_branches() {
    let consts = |n: usize| {
        let branches: Vec<String> =
            (0..n).map(|i| format!(r#"{{"const":"v{i}","title":"V{i}"}}"#)).collect();
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"oneOf":[{}]}}}}}}"#,
            branches.join(",")
        ))
    };
    every_target_grows_linearly("oneOf of consts", consts);
    let tagged = |n: usize| {
        let branches: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"type":"object","properties":{{"k":{{"const":"v{i}"}},"a{i}":{{"type":"string"}}}},"required":["k"]}}"#
                )
            })
            .collect();
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"oneOf":[{}]}}}}}}"#,
            branches.join(",")
        ))
    };
    every_target_grows_linearly("oneOf tagged union", tagged);
    let enums = |n: usize| {
        let list = |tag: &str| {
            let v: Vec<String> = (0..n).map(|i| format!(r#""{tag}{i}""#)).collect();
            v.join(",")
        };
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"oneOf":[{{"enum":[{}]}},{{"enum":[{}]}}]}}}}}}"#,
            list("a"),
            list("b")
        ))
    };
    every_target_grows_linearly("oneOf of two long enums", enums);
    let objects = |n: usize| {
        let object = |last: usize| {
            let members: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{i}"#)).collect();
            format!("{{{},\"last\":{last}}}", members.join(","))
        };
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"oneOf":[{{"const":{}}},{{"const":{}}}]}}}}}}"#,
            object(0),
            object(1)
        ))
    };
    every_target_grows_linearly("oneOf of two long const objects", objects);
}

/// Merging `allOf` parts (Gemini merges them): two long `enum`s intersected, and two parts of
/// many unknown keywords each (each key was looked for in the other part's list).
#[test]
fn all_of_long_parts() {
    let enums = |n: usize| {
        let list = |from: usize| {
            let v: Vec<String> = (from..from + n).map(|i| format!(r#""v{i}""#)).collect();
            v.join(",")
        };
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"allOf":[{{"enum":[{}]}},{{"enum":[{}]}}]}}}}}}"#,
            list(0),
            list(n / 2)
        ))
    };
    every_target_grows_linearly("allOf of two long enums", enums);
    let unknown = |n: usize| {
        let part = |tag: &str| {
            let v: Vec<String> = (0..n).map(|i| format!(r#""x-{tag}{i}":{i}"#)).collect();
            format!("{{{}}}", v.join(","))
        };
        tool(&format!(
            r#"{{"type":"object","properties":{{"x":{{"allOf":[{},{}]}}}}}}"#,
            part("a"),
            part("b")
        ))
    };
    every_target_grows_linearly("allOf of unknown keywords", unknown);
}

/// An OpenAPI 3.1 document with one operation `op` holding `operation` (JSON members).
fn openapi(operation: &str, components: &str) -> String {
    format!(
        r#"{{"openapi":"3.1.0","info":{{"title":"t","version":"1"}},"paths":{{"/x":{{"post":{{"operationId":"op",{operation}}}}}}}{components}}}"#
    )
}

/// Issue 32, item 12: OpenAPI import placed each report entry by scanning the tool's places:
/// a body of n properties with a `format` Gemini drops (an entry each), and n parameter
/// `$ref`s (a place each), to every target.
#[test]
fn openapi_places() {
    let registry = Registry::default();
    let Some(from) = registry.get("openapi") else { panic!("openapi is registered") };
    let formats = |n: usize| {
        let props: Vec<String> =
            (0..n).map(|i| format!(r#""p{i}":{{"type":"string","format":"email"}}"#)).collect();
        openapi(
            &format!(
                r#""requestBody":{{"content":{{"application/json":{{"schema":{{"type":"object","properties":{{{}}}}}}}}}}}"#,
                props.join(",")
            ),
            "",
        )
    };
    let params = |n: usize| {
        let refs: Vec<String> =
            (0..n).map(|i| format!(r##"{{"$ref":"#/components/parameters/P{i}"}}"##)).collect();
        let defs: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#""P{i}":{{"name":"p{i}","in":"query","schema":{{"type":"string","format":"email"}}}}"#
                )
            })
            .collect();
        openapi(
            &format!(r#""parameters":[{}]"#, refs.join(",")),
            &format!(r#","components":{{"parameters":{{{}}}}}"#, defs.join(",")),
        )
    };
    for (target, to, options) in targets() {
        for (shape, make) in
            [("body formats", &formats as &dyn Fn(usize) -> String), ("parameter refs", &params)]
        {
            let name = format!("openapi {shape} → {target}");
            grows_linearly_at(&name, MATRIX_N, MATRIX_ROUNDS, make, &*from, &*to, &options);
        }
    }
}

/// Issue 32, item 13: `unmap` of n calls with a map of n tools (each call's tool was found by
/// a scan of the map).
#[test]
fn unmap_calls() {
    let map = |n: usize| -> Inverse {
        let tools: Vec<serde_json::Value> = (0..n)
            .map(|i| serde_json::json!({"name": format!("t_{i}"), "source_name": format!("t.{i}")}))
            .collect();
        serde_json::from_value(
            serde_json::json!({"from": "mcp", "to": "anthropic", "tools": tools}),
        )
        .expect("a map")
    };
    let calls = |n: usize| -> Vec<serde_json::Value> {
        (0..n)
            .map(|i| serde_json::json!({"name": format!("t_{}", (i * 7919) % n), "arguments": {}}))
            .collect()
    };
    let time = |map: &Inverse, calls: &[serde_json::Value]| {
        let start = thread_cpu_time();
        for call in calls {
            let back = map.unmap_call(call).expect("a call");
            assert!(back.name.starts_with("t."));
        }
        thread_cpu_time().saturating_sub(start)
    };
    let n = N;
    let (small_map, large_map) = (map(n), map(10 * n));
    let (small_calls, large_calls) = (calls(n), calls(10 * n));
    within_growth("unmap", n, || {
        let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
        for _ in 0..ROUNDS {
            best_small = best_small.min(time(&small_map, &small_calls));
            best_large = best_large.min(time(&large_map, &large_calls));
        }
        (best_small, best_large)
    });
}

/// A long key above many entries (a `slow_input` fuzz finding, issue 32): every entry's
/// pointer repeats the key, and recording, linking and placing a pointer read it whole. The
/// conversion stays linear: the report writes only the steps a pointer does not share with
/// the last one, and the bytes of pointers past 1 KiB, summed, are held to the output limit
/// (past it the conversion is refused with `report-too-large`, a typed error).
#[test]
fn a_long_key_above_many_entries() {
    let shape = |n: usize| {
        let key = "k".repeat(n / 2);
        let branches: Vec<String> = (0..n / 40).map(|i| format!(r#"{{"const":"v{i}"}}"#)).collect();
        tool(&format!(
            r#"{{"type":"object","properties":{{"{key}":{{"oneOf":[{}]}}}}}}"#,
            branches.join(",")
        ))
    };
    // A larger n than the other shapes: the key must pass 1 KiB at n for the limit to matter.
    let n = 10 * N;
    let (small, large) = (shape(n), shape(10 * n));
    let timed = |c: &mut Converter, input: &str| {
        let start = thread_cpu_time();
        match c.convert(input.as_bytes(), &Mcp, &Gemini, &Options::default()) {
            Ok(out) => assert!(!out.output().is_empty()),
            Err(e) => assert_eq!(e.kind().name(), "report-too-large", "{e}"),
        }
        thread_cpu_time().saturating_sub(start)
    };
    within_growth("a long key above many entries", n, || {
        let (mut a, mut b) = (Converter::new(), Converter::new());
        let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
        for _ in 0..ROUNDS {
            best_small = best_small.min(timed(&mut a, &small));
            best_large = best_large.min(timed(&mut b, &large));
        }
        (best_small, best_large)
    });
}
