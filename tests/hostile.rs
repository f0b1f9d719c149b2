//! Hostile input: every case ends in a typed error or a bounded result, without a panic. Sizes
//! are the ones issue "Reliability" lists. Time and memory are measured, not asserted here
//! (docs/security.md has the figures); a hang would still fail CI by its time limit.

use tooladapter::{ErrorKind, Registry};

fn tool(schema: &str) -> Vec<u8> {
    format!(r#"{{"name":"t","inputSchema":{schema}}}"#).into_bytes()
}

/// Converts to every target; returns the first error or the largest output size.
#[track_caller]
fn every_target(input: &[u8]) -> Result<usize, tooladapter::ConversionError> {
    let r = Registry::default();
    let mut largest = 0;
    for to in r.list().into_iter().filter(|n| r.get(n).is_some_and(|a| a.info().writes)) {
        largest = largest.max(r.convert(input, "mcp", &to)?.output().len());
    }
    Ok(largest)
}

#[test]
fn reference_bomb_stays_linear() {
    // `$defs` where each level refers to the previous one twice: 2^40 nodes if expanded.
    let mut defs = vec![r#""d0":{"type":"string"}"#.to_owned()];
    for i in 1..=40 {
        defs.push(format!(
            r##""d{i}":{{"type":"array","prefixItems":[{{"$ref":"#/$defs/d{p}"}},{{"$ref":"#/$defs/d{p}"}}]}}"##,
            p = i - 1
        ));
    }
    let schema = format!(
        r##"{{"type":"object","properties":{{"x":{{"$ref":"#/$defs/d40"}}}},"$defs":{{{}}}}}"##,
        defs.join(",")
    );
    let input = tool(&schema);
    // A target that keeps refs writes them as they are; one that inlines them (Gemini's
    // family drops `prefixItems` first; Ollama keeps it) stops at the expansion budget with a
    // typed error.
    let r = Registry::default();
    for to in r.list().into_iter().filter(|n| r.get(n).is_some_and(|a| a.info().writes)) {
        match r.convert(&input, "mcp", &to) {
            Ok(c) => {
                let out = c.output().len();
                assert!(out < input.len() * 2, "{to}: output {out} for input {}", input.len());
            }
            Err(e) => assert!(matches!(e.kind(), ErrorKind::RefExpansion { .. }), "{to}: {e}"),
        }
    }
}

#[test]
fn reference_cycles_and_dangling_refs_are_kept_verbatim() {
    for schema in [
        r##"{"$ref":"#"}"##,
        r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}"##,
        r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}"##,
        r##"{"type":"object","properties":{"a":{"$ref":"https://example.com/schema.json"}}}"##,
    ] {
        every_target(&tool(schema)).expect("bounded");
    }
}

#[test]
fn a_million_deep_array_is_a_depth_error() {
    let deep = format!(
        r#"{{"name":"t","inputSchema":{{"default":{}1{}}}}}"#,
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    let e = every_target(deep.as_bytes()).expect_err("too deep");
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 128 }));
}

#[test]
fn ten_megabyte_string() {
    let big = "x".repeat(10 << 20);
    let out =
        every_target(&tool(&format!(r#"{{"type":"object","description":"{big}"}}"#))).expect("ok");
    assert!(out > 10 << 20);
}

#[test]
fn two_hundred_thousand_properties() {
    let props: Vec<String> =
        (0..200_000).map(|i| format!(r#""p{i}":{{"type":"integer"}}"#)).collect();
    let input = tool(&format!(r#"{{"type":"object","properties":{{{}}}}}"#, props.join(",")));
    every_target(&input).expect("ok");
    // The same with one duplicate at the end: found by the sorted-hash check.
    let dup =
        tool(&format!(r#"{{"type":"object","properties":{{{},"p7":{{}}}}}}"#, props.join(",")));
    let e = every_target(&dup).expect_err("duplicate");
    assert_eq!(e.pointer(), "/inputSchema/properties/p7");
}

#[test]
fn half_a_million_enum_values() {
    let values: Vec<String> = (0..500_000).map(|i| i.to_string()).collect();
    every_target(&tool(&format!(
        r#"{{"type":"object","properties":{{"e":{{"enum":[{}]}}}}}}"#,
        values.join(",")
    )))
    .expect("ok");
}

#[test]
fn absurd_numbers_are_typed_errors() {
    for n in ["1e999999999", "1e400", "-1e400"] {
        let e = every_target(&tool(&format!(r#"{{"type":"object","maximum":{n}}}"#))).expect_err(n);
        assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{n}: {e}");
    }
    // Large integers beyond u64 are kept as written.
    let big = "123456789012345678901234567890";
    let r = Registry::default()
        .convert(&tool(&format!(r#"{{"type":"object","maximum":{big}}}"#)), "mcp", "openai")
        .expect("ok");
    assert!(r.output_str().contains(big));
}

#[test]
fn surrogates_control_characters_and_empty_input() {
    assert!(matches!(
        every_target(&tool(r#"{"description":"\udfff"}"#)).expect_err("lone").kind(),
        ErrorKind::LoneSurrogate { .. }
    ));
    assert!(matches!(
        every_target(b"{\"name\":\"a\nb\"}").expect_err("raw newline").kind(),
        ErrorKind::Json { .. }
    ));
    for blank in [&b""[..], b" ", b"\n\t\r "] {
        assert!(matches!(every_target(blank).expect_err("blank").kind(), ErrorKind::EmptyInput));
    }
}

#[test]
fn a_hundred_thousand_tool_catalog() {
    let tools: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"name":"t{i}","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string"}}}}}}}}"#))
        .collect();
    let input = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    let r = Registry::default().convert(input.as_bytes(), "mcp", "openai").expect("ok");
    assert_eq!(r.tools_written(), 100_000);
}

/// 10,000 `allOf` branches of one property each, for targets that merge `allOf` (Gemini;
/// OpenAI strict): folding them one by one copied the growing merge each time and ran out of
/// the 512 MiB arena; merged as a tree they fit in a few MiB. The merged schema is the fold's.
#[test]
fn ten_thousand_all_of_branches_merge() {
    let branches: Vec<String> = (0..10_000)
        .map(|i| format!(r#"{{"type":"object","properties":{{"p{i}":{{"type":"string"}}}},"required":["p{i}"]}}"#))
        .collect();
    let input = tool(&format!(r#"{{"allOf":[{}]}}"#, branches.join(",")));
    let options = tooladapter::Options::default().max_arena_bytes(64 << 20);
    let r = Registry::default().convert_with(&input, "mcp", "gemini", &options).expect("merges");
    let out = r.output_str();
    assert!(!out.contains("allOf"), "merged");
    // Properties and `required` in branch order.
    let (first, last) = (out.find(r#""p0":"#), out.find(r#""p9999":"#));
    assert!(first.is_some() && first < last, "{}", &out[..200.min(out.len())]);
    assert!(out.contains(r#""required":["p0","p1","p2","#));
}

/// One 100 KB `$defs` entry used by 300 properties: inlined for Gemini, 30 MB of output from
/// a 106 KB input. The output limit (16 MiB for an input this small) stops it, naming
/// the tool and the place, whatever the `$ref` expansion budget.
#[test]
fn output_is_held_to_the_output_limit() {
    let props: Vec<String> =
        (0..300).map(|i| format!(r##""p{i}":{{"$ref":"#/$defs/big"}}"##)).collect();
    let big = "x".repeat(100_000);
    let input = format!(
        r#"{{"tools":[{{"name":"small","inputSchema":{{"type":"object"}}}},{{"name":"fan","inputSchema":{{"type":"object","properties":{{{}}},"$defs":{{"big":{{"type":"string","description":"{big}"}}}}}}}}]}}"#,
        props.join(",")
    );
    for options in [
        tooladapter::Options::default(),
        tooladapter::Options::default().max_ref_expansion(usize::MAX),
    ] {
        let e = Registry::default()
            .convert_with(input.as_bytes(), "mcp", "gemini", &options)
            .expect_err("over the output limit");
        assert_eq!(
            e.kind(),
            &ErrorKind::OutputTooLarge { limit: 16 << 20, input: input.len() },
            "{e}"
        );
        assert_eq!(e.tool(), Some("fan"));
        assert!(e.pointer().starts_with("/tools/1/inputSchema/properties/p"), "{e}");
    }
    // A higher ratio lets it through.
    let options = tooladapter::Options::default().max_output_ratio(1_000);
    let r = Registry::default().convert_with(input.as_bytes(), "mcp", "gemini", &options);
    assert!(r.expect("within 1,000x").output().len() > 30_000_000);
}

#[test]
fn output_limit_is_the_ratio_within_floor_and_ceiling() {
    let l = tooladapter::Limits::default();
    assert_eq!(l.output_limit(0), 16 << 20);
    assert_eq!(l.output_limit(10 << 20), 160 << 20);
    assert_eq!(l.output_limit(200 << 20), 1 << 30);
    let tight = tooladapter::Options::default().max_output_bytes(1000).limits;
    assert_eq!(tight.output_limit(0), 1000, "the ceiling wins over the floor");
}

/// Schema shapes that nest, each as the text around the schema it wraps: one that a pass
/// rewrites at every level for some target (items, `not`, properties, the combinators, maps,
/// data values in `default`).
const NESTINGS: [(&str, &str, &str); 9] = [
    ("items", r#"{"type":"array","items":"#, "}"),
    ("not", r#"{"type":"string","not":"#, "}"),
    ("properties", r#"{"type":"object","properties":{"a":"#, r#"},"required":["a"]}"#),
    ("anyOf", r#"{"anyOf":["#, r#",{"type":"null"}]}"#),
    ("oneOf", r#"{"oneOf":["#, r#",{"type":"integer"}]}"#),
    ("allOf", r#"{"allOf":["#, r#",{"type":"object","properties":{"b":{"type":"string"}}}]}"#),
    ("additionalProperties", r#"{"type":"object","additionalProperties":"#, "}"),
    ("default", r#"{"type":"array","default":"#, "}"),
    (
        "mixed",
        r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"array","items":"#,
        r#"}]}}}"#,
    ),
];

/// The deepest nesting of containers in JSON text (strings skipped): the measure the depth
/// limit holds an input to.
fn depth_of(json: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in json.bytes() {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'{' | b'[') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, b'}' | b']') => depth -= 1,
            _ => {}
        }
    }
    deepest
}

/// An MCP tool whose schema nests `shape` as deep as the input may go without passing
/// `depth` (the innermost level of the shape, its leaf or its data, at `depth` or just under).
fn nested_to(shape: (&str, &str, &str), depth: usize) -> String {
    let (name, open, close) = shape;
    let leaf = if name == "default" { "[1]" } else { r#"{"type":"string","format":"email"}"# };
    let at = |n: usize| {
        let inner = if name == "default" {
            format!(r#"{{"type":"array","default":{}1{}}}"#, "[".repeat(n), "]".repeat(n))
        } else {
            format!("{}{leaf}{}", open.repeat(n), close.repeat(n))
        };
        format!(
            r#"{{"name":"t","description":"d","inputSchema":{{"type":"object","properties":{{"x":{inner}}},"required":["x"]}}}}"#
        )
    };
    let mut n = 0;
    while depth_of(&at(n + 1)) <= depth {
        n += 1;
    }
    at(n)
}

/// Runs `f` on a thread with a 2 MiB stack, what `std::thread::spawn`, rayon and tokio give:
/// a stack overflow would abort the whole test binary, which fails the suite.
fn on_a_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    let thread = std::thread::Builder::new().stack_size(2 << 20).spawn(f).expect("a thread");
    thread.join().expect("no panic")
}

/// `Options::max_depth` past the cap reads as the cap: every target, plain and strict, at
/// the cap converts (or fails for a reason of its own, never the depth) on a 2 MiB thread, and
/// so do reading it into owned tools and checking it; one level deeper and thousands of
/// levels deeper are a `DepthLimit` naming the cap. Before the cap, `max_depth(usize::MAX)`
/// let 5,000 levels through to a stack overflow.
#[test]
fn the_depth_cap_holds_on_a_small_stack_for_every_target() {
    use tooladapter::{Converter, Limits, Options, Strict};
    let cap = Limits::DEPTH_CAP;
    assert_eq!(Options::default().max_depth(usize::MAX).limits.depth_limit(), cap);
    let registry = Registry::default();
    let writable = |n: &String| registry.get(n).is_some_and(|a| a.info().writes);
    let targets: Vec<String> = registry.list().into_iter().filter(writable).collect();
    let is_depth = |k: &ErrorKind| matches!(k, ErrorKind::DepthLimit { .. });
    let mut converted = 0;
    for shape in NESTINGS {
        let name = shape.0;
        // A shape of several levels a step reaches the cap or a level of its last step under.
        let (at_cap, over, far) =
            (nested_to(shape, cap), nested_to(shape, cap + 5), nested_to(shape, 5_000));
        assert!(depth_of(&at_cap) + 5 > cap, "{name}");
        assert!(depth_of(&over) > cap && depth_of(&far) > 4_000, "{name}");
        let input = at_cap.clone();
        let (read, deeper) = on_a_small_stack(move || {
            let options = Options::default().max_depth(usize::MAX);
            let registry = Registry::default();
            let mcp = registry.get("mcp").expect("mcp");
            let read = Converter::new().to_canonical(input.as_bytes(), &*mcp, &options).is_ok();
            let deeper: Vec<Option<ErrorKind>> = [over, far]
                .iter()
                .map(|i| registry.convert_with(i.as_bytes(), "mcp", "openai", &options))
                .map(|r| r.err().map(|e| e.kind().clone()))
                .collect();
            (read, deeper)
        });
        assert!(read, "{name}: read into owned tools at the cap");
        for kind in deeper {
            assert_eq!(kind, Some(ErrorKind::DepthLimit { limit: cap }), "{name}");
        }
        for to in &targets {
            let strict_too = registry.get(to).is_some_and(|a| a.info().holds_strict());
            for strict in [Strict::Source, Strict::On].into_iter().take(1 + usize::from(strict_too))
            {
                let what = format!("{name} to {to} {strict:?}");
                let (input, to) = (at_cap.clone(), to.clone());
                let (at_cap, check) = on_a_small_stack(move || {
                    let options = Options::default().max_depth(usize::MAX).strict(strict);
                    let registry = Registry::default();
                    let at_cap = registry.convert_with(input.as_bytes(), "mcp", &to, &options);
                    let at_cap = at_cap.map(|c| c.output().len()).map_err(|e| e.kind().clone());
                    let (mcp, target) = (registry.get("mcp"), registry.get(&to));
                    let check = match (mcp, target, strict) {
                        (Some(mcp), Some(target), Strict::Source) => Some(
                            Converter::new()
                                .check(input.as_bytes(), &*mcp, &*target, &options)
                                .map(|r| r.len())
                                .map_err(|e| e.kind().clone()),
                        ),
                        _ => None,
                    };
                    (at_cap, check)
                });
                assert!(!at_cap.as_ref().is_err_and(is_depth), "{what}: {at_cap:?}");
                // A check reads the written tools again: a target that nests the schema
                // deeper than the source (Bedrock's `toolSpec.inputSchema.json`) may pass the
                // cap there, and says so.
                if let Some(check) = check {
                    assert!(
                        check.is_ok() || check.as_ref().is_err_and(is_depth),
                        "{what}: {check:?}"
                    );
                }
                converted += usize::from(at_cap.is_ok());
            }
        }
    }
    // Not vacuous: most shapes convert to most targets at the cap.
    assert!(converted > NESTINGS.len() * targets.len() / 2, "{converted} conversions at the cap");
}
