//! A warm `Converter` converts without touching the heap: the arena is reset, the parse buffers,
//! tape and output buffer are reused, and report entries reuse the last report's buffers.
//! Counted with a wrapping global allocator, so this is a count, not a timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tooladapter::formats::{Anthropic, LangChain, Mcp, OpenAi};
use tooladapter::{Adapter, Converter, Options};

#[cfg(feature = "corpus")]
mod common;

struct Counting;

thread_local! {
    // Counting is per thread so the test harness's own threads do not disturb the count.
    static COUNT: Cell<Option<usize>> = const { Cell::new(None) };
}

// SAFETY: every call is forwarded to `System` unchanged; the count is a thread-local side effect.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get().map(|n| n + 1)));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get().map(|n| n + 1)));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(Some(0)));
    f();
    COUNT.with(|c| c.replace(None)).unwrap_or(0)
}

const TOOL: &[u8] = br##"{"name":"search","description":"Search \"docs\".","inputSchema":{"type":"object","$defs":{"a~b/c":{"type":"string","enum":["a","b"]}},"properties":{"q":{"type":"string","minLength":1},"filters":{"type":"object","properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/a~0b~1c"}},"since":{"type":["string","null"],"format":"date-time"}}},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10}},"required":["q"]}}"##;

#[test]
fn warm_converter_allocates_nothing_per_tool() {
    let catalog = {
        // Distinct names: a catalog with one name twice is renamed (and reported).
        let tool = std::str::from_utf8(TOOL).unwrap_or_default();
        let tools: Vec<String> = (0..20)
            .map(|i| tool.replacen(r#""name":"search""#, &format!(r#""name":"search_{i}""#), 1))
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    };
    let options = Options::default();
    let mut checked = 0;
    let targets = tooladapter::Format::ALL.iter().filter(|f| f.info().writes);
    for target in targets {
        for input in [TOOL, catalog.as_bytes()] {
            let mut converter = Converter::new();
            for _ in 0..3 {
                converter.convert(input, &Mcp, target, &options).expect("converts");
            }
            let quiet = converter.convert(input, &Mcp, target, &options).expect("converts");
            let quiet = quiet.report().is_empty();
            let n = allocations(|| {
                for _ in 0..100 {
                    let c = converter.convert(input, &Mcp, target, &options).expect("converts");
                    assert!(!c.output().is_empty());
                }
            });
            // Gemini inlines the `$ref` and says so: texts built per entry allocate (see the
            // corpus test below). A conversion with nothing to say allocates nothing.
            if quiet {
                assert_eq!(n, 0, "{} allocations in 100 warm conversions to {}", n, target.name());
                checked += 1;
            }
        }
    }
    let writers = tooladapter::Format::ALL.iter().filter(|f| f.info().writes).count();
    assert!(checked >= writers, "{checked} of {} conversions had nothing to say", 2 * writers);
}

/// A calls turn between the traffic formats: once warm, a conversion allocates nothing (the
/// arena, the parse buffers, the argument parser, the output and the report's rows are
/// reused), its report entries (a signature left out, a placeholder sent) included. Each
/// format's own calls turn is made from OpenAI's, then converted to every traffic format.
#[test]
fn warm_traffic_conversion_of_a_calls_turn_allocates_nothing() {
    use tooladapter::TrafficOptions;
    use tooladapter::traffic::TrafficKind;
    const CALLS: &[u8] = br#"{"role":"assistant","content":"Checking both.","tool_calls":[{"id":"call_sf","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"San Francisco, CA\",\"n\":9007199254740993}"}},{"id":"call_nyc","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"New York, NY\",\"days\":[1,2.50]}"}}]}"#;
    let options = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let formats: Vec<&dyn Adapter> = tooladapter::formats::builtins()
        .iter()
        .copied()
        .filter(|a| a.traffic().is_some())
        .collect();
    assert!(formats.len() >= 2);
    let (mut checked, mut with_entries) = (0, 0);
    for from in &formats {
        let mut converter = Converter::new();
        let input = converter
            .convert_traffic(CALLS, &OpenAi, *from, &options)
            .expect("converts")
            .output()
            .to_vec();
        for to in &formats {
            let mut converter = Converter::new();
            for _ in 0..3 {
                converter.convert_traffic(&input, *from, *to, &options).expect("converts");
            }
            let warm = converter.convert_traffic(&input, *from, *to, &options).expect("converts");
            with_entries += usize::from(!warm.report().is_empty());
            let n = allocations(|| {
                for _ in 0..100 {
                    let c =
                        converter.convert_traffic(&input, *from, *to, &options).expect("converts");
                    assert!(!c.output().is_empty());
                }
            });
            assert_eq!(
                n,
                0,
                "{n} allocations in 100 warm conversions {} -> {}",
                from.name(),
                to.name()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, formats.len() * formats.len());
    assert!(with_entries > 0, "no conversion had an entry: the count says nothing about them");
}

/// Every corpus catalog to every writer, plain and (where the target has a strict mode)
/// strict: a warm conversion whose report is empty allocates nothing. Conversions with
/// entries are counted and printed (`--nocapture`): texts that passes build per entry
/// (`format!` messages, pointers written out) allocate, as do read notes and the `$ref`
/// inliner's memo; docs/performance.md lists them.
#[cfg(feature = "corpus")]
#[test]
fn every_corpus_catalog_converts_warm_without_allocating() {
    let catalogs = common::catalogs();
    assert!(catalogs.len() > 100, "{} catalogs", catalogs.len());
    let (mut allocating, mut with_entries) = (Vec::new(), Vec::new());
    let mut runs = 0;
    for (path, input) in &catalogs {
        for target in tooladapter::Format::ALL.iter().filter(|f| f.info().writes) {
            let strict = [tooladapter::Strict::Source, tooladapter::Strict::On];
            let modes = if target.info().strict.is_some() { &strict[..] } else { &strict[..1] };
            for &mode in modes {
                let options = Options::default().strict(mode);
                let mut converter = Converter::new();
                if converter.convert(input, &Mcp, target, &options).is_err() {
                    continue;
                }
                converter.convert(input, &Mcp, target, &options).expect("converts again");
                let mut entries = 0;
                let n = allocations(|| {
                    for _ in 0..3 {
                        let c = converter.convert(input, &Mcp, target, &options).expect("converts");
                        entries = c.report().len();
                    }
                });
                runs += 1;
                let row = (path.clone(), target.name(), mode, n / 3);
                if entries == 0 && n > 0 {
                    allocating.push(row);
                } else if n > 0 {
                    with_entries.push(row);
                }
            }
        }
    }
    assert!(runs > 1000, "{runs} warm conversions checked");
    let most = with_entries.iter().map(|r| r.3).max().unwrap_or(0);
    eprintln!(
        "{runs} warm conversions; {} with report entries allocate (at most {most} per conversion)",
        with_entries.len()
    );
    assert!(allocating.is_empty(), "without entries, yet allocating: {allocating:#?}");
}

/// Every recorded calls turn of the corpus (`tool-traffic/<format>/calls/`), read as its own
/// format and converted warm to every traffic format: no allocation, report entries and all
/// (ids made or rewritten, signatures left out, members reported). The corpus's deliberately
/// invalid payloads fail to convert and are skipped.
#[cfg(feature = "corpus")]
#[test]
fn every_recorded_calls_turn_converts_warm_without_allocating() {
    use tooladapter::TrafficOptions;
    use tooladapter::traffic::TrafficKind;
    let formats: Vec<&dyn Adapter> = tooladapter::formats::builtins()
        .iter()
        .copied()
        .filter(|a| a.traffic().is_some())
        .collect();
    let options = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let (mut runs, mut with_entries, mut allocating) = (0, 0, Vec::new());
    for from in &formats {
        let folder = if from.name() == "openai" { "openai-chat" } else { from.name() };
        let dir = common::corpus().join("tool-traffic").join(folder).join("calls");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| {
            p.extension().is_some_and(|x| x == "json") && !p.ends_with("_provenance.json")
        });
        files.sort();
        for path in files {
            let input = std::fs::read(&path).expect("reads");
            for to in &formats {
                let mut converter = Converter::new();
                if converter.convert_traffic(&input, *from, *to, &options).is_err() {
                    continue;
                }
                for _ in 0..3 {
                    converter.convert_traffic(&input, *from, *to, &options).expect("converts");
                }
                let mut entries = 0;
                let n = allocations(|| {
                    for _ in 0..3 {
                        let c = converter
                            .convert_traffic(&input, *from, *to, &options)
                            .expect("converts again");
                        entries = c.report().len();
                    }
                });
                runs += 1;
                with_entries += usize::from(entries > 0);
                if n > 0 {
                    allocating.push((path.clone(), to.name(), entries, n));
                }
            }
        }
    }
    eprintln!("{runs} warm calls turns, {with_entries} with report entries");
    assert!(runs > 1000, "{runs} warm conversions checked");
    assert!(with_entries > 0);
    assert!(allocating.is_empty(), "{} allocating: {allocating:#?}", allocating.len());
}

/// Metadata and a keyword OpenAI has no place for: every conversion writes the same report
/// entries (`title`, `annotations`, `outputSchema` dropped; `$schema` dropped; `b`'s root
/// given the `properties` OpenAI requires).
const LOSSY: &[u8] = br##"{"tools":[{"name":"a","title":"A","annotations":{"readOnlyHint":true},"inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"x":{"type":"string"}}},"outputSchema":{"type":"object"}},{"name":"b","title":"B","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}}]}"##;

#[test]
fn warm_converter_reuses_report_entries() {
    let options = Options::default();
    let mut converter = Converter::new();
    let mut first = None;
    for _ in 0..3 {
        let c = converter.convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts");
        first.get_or_insert_with(|| c.report().clone());
    }
    let first = first.expect("converted");
    assert_eq!(first.len(), 7, "{first:?}");
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts");
            assert_eq!(c.report().len(), 7);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm conversions with a non-empty report");
    // The entries a caller reads are made into the last list's strings.
    let _ = converter.convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts").report().entries();
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts");
            assert_eq!(c.report().entries().len(), 7);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm conversions whose report entries are read");
    // Recycled entries hold exactly what fresh ones do.
    let again = converter.convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts");
    assert_eq!(again.report(), &first);
    assert_eq!(
        Converter::new().convert(LOSSY, &Mcp, &OpenAi, &options).expect("converts").report(),
        &first
    );
}

#[test]
fn a_long_report_is_sorted_without_allocating() {
    // 40 tools, 5 entries each (the root given `properties` among them): past the size a
    // stable sort can do without a scratch buffer.
    let tool = r#"{"name":"t_N","title":"T","annotations":{"readOnlyHint":true},"inputSchema":{"$schema":"x","type":"object"},"outputSchema":{}}"#;
    let tools: Vec<String> = (0..40).map(|i| tool.replace("t_N", &format!("t_{i}"))).collect();
    let input = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    let options = Options::default();
    let mut converter = Converter::new();
    for _ in 0..3 {
        converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("converts");
    }
    let n = allocations(|| {
        let c = converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("converts");
        assert_eq!(c.report().len(), 200);
    });
    assert_eq!(n, 0);
    let report =
        converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("converts").report();
    // Source order: tool by tool, and within a tool member by member.
    let features: Vec<&str> = report.entries().iter().take(5).map(|e| e.feature.as_str()).collect();
    assert_eq!(features, ["title", "annotations", "properties", "$schema", "outputSchema"]);
    for (i, chunk) in report.entries().chunks(5).enumerate() {
        assert!(chunk.iter().all(|e| e.tool == format!("t_{i}")), "{chunk:?}");
    }
}

/// LangChain's reader takes the envelope out of a lowered schema in the arena: reading it
/// costs no heap allocation either, to LangChain or to another format.
#[test]
fn warm_langchain_reads_allocate_nothing() {
    let tool: &[u8] = br##"{"title":"search","description":"Search \"docs\".","type":"object","$defs":{"t":{"type":"string"}},"properties":{"q":{"type":"string","title":"Q"},"tags":{"type":"array","items":{"$ref":"#/$defs/t"}}},"required":["q"]}"##;
    let catalog = format!("[{}]", std::str::from_utf8(tool).unwrap_or_default());
    let options = Options::default();
    for target in [&LangChain as &dyn Adapter, &Mcp, &OpenAi] {
        for input in [tool, catalog.as_bytes()] {
            let mut converter = Converter::new();
            for _ in 0..3 {
                let c = converter.convert(input, &LangChain, target, &options).expect("converts");
                assert!(c.report().is_empty(), "{:?}", c.report());
            }
            let n = allocations(|| {
                for _ in 0..100 {
                    let c =
                        converter.convert(input, &LangChain, target, &options).expect("converts");
                    assert!(!c.output().is_empty());
                }
            });
            assert_eq!(n, 0, "{n} allocations in 100 warm conversions to {}", target.name());
        }
    }
}

#[test]
fn the_counter_counts() {
    let n = allocations(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert_eq!(n, 1);
}

/// Strict Anthropic output of a tool without `$ref`: closing objects and the recursion check
/// reuse the converter's buffers (the report repeats the previous conversion's).
#[test]
fn warm_anthropic_strict_allocates_nothing() {
    let tool: &[u8] = br#"{"name":"find","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"page":{"type":"object","properties":{"n":{"type":"integer"}}}},"required":["q"]}}"#;
    let options = Options::default().strict(tooladapter::Strict::On);
    let mut converter = Converter::new();
    for _ in 0..3 {
        let c = converter.convert(tool, &Mcp, &Anthropic, &options).expect("converts");
        assert!(c.output_str().contains(r#""strict":true"#), "{}", c.output_str());
    }
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(tool, &Mcp, &Anthropic, &options).expect("converts");
            assert!(!c.output().is_empty());
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm strict conversions");
}

/// Strict OpenAI output of a tool whose keywords strict mode moves into descriptions: the
/// notes are written straight into the arena and the report entries into the recycled ones
/// (every property is required, so nothing is widened and no argument map is built).
#[test]
fn warm_openai_strict_describe_allocates_nothing() {
    let tool: &[u8] = br#"{"name":"find","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"Query.","minLength":1,"maxLength":200,"pattern":"^[a-z]+$"},"tags":{"type":"array","items":{"type":"string","minLength":2},"maxItems":5,"uniqueItems":true}},"required":["q","tags"]}}"#;
    let options = Options::default().strict(tooladapter::Strict::On);
    let mut converter = Converter::new();
    for _ in 0..3 {
        let c = converter.convert(tool, &Mcp, &OpenAi, &options).expect("converts");
        assert!(c.output_str().contains(r#""strict":true"#), "{}", c.output_str());
        assert!(c.output_str().contains("Constraints: minLength 1"), "{}", c.output_str());
    }
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(tool, &Mcp, &OpenAi, &options).expect("converts");
            assert!(!c.output().is_empty());
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm strict conversions with described keywords");
}

/// Strict OpenAI output of a tool with optional properties, nested and behind a `$ref`:
/// strict mode widens them, and the argument map that drops the model's nulls again is
/// recorded into the converter's reused buffers; the owned map is made only when asked for.
#[test]
fn warm_openai_strict_widening_allocates_nothing() {
    let tool: &[u8] = br##"{"name":"book","inputSchema":{"type":"object","$defs":{"addr":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string"}},"required":["street"]}},"properties":{"city":{"type":"string"},"nights":{"type":"integer"},"to":{"$ref":"#/$defs/addr"},"rooms":{"type":"array","items":{"type":"object","properties":{"beds":{"type":"integer"}}}}},"required":["city"]}}"##;
    let options = Options::default().strict(tooladapter::Strict::On);
    let mut converter = Converter::new();
    for _ in 0..3 {
        let c = converter.convert(tool, &Mcp, &OpenAi, &options).expect("converts");
        assert!(c.output_str().contains(r#""strict":true"#), "{}", c.output_str());
        let args = c.inverse().tool("book").and_then(|t| t.arguments.as_ref());
        assert!(args.is_some_and(|a| a.root.properties.contains_key("nights")), "{args:?}");
        assert!(args.is_some_and(|a| a.defs.contains_key("#/$defs/addr")), "{args:?}");
    }
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(tool, &Mcp, &OpenAi, &options).expect("converts");
            assert!(!c.output().is_empty());
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm strict conversions that widen properties");
}

/// Six distinct metadata members the target drops, in every tool: the texts shared between
/// their report entries are kept for each key without going to the heap.
/// (Each holds something: one that holds nothing, such as `"icons": []`, is left out
/// without an entry.)
const MANY_MEMBERS: &[u8] = br#"{"tools":[{"name":"a","title":"A","annotations":{"readOnlyHint":true},"_meta":{"k":1},"icons":[{"src":"a.png"}],"category":"x","displayName":"A","inputSchema":{"type":"object"},"outputSchema":{}},{"name":"b","title":"B","annotations":{"readOnlyHint":false},"_meta":{"k":2},"icons":[{"src":"b.png"}],"category":"y","displayName":"B","inputSchema":{"type":"object"},"outputSchema":{}}]}"#;

#[test]
fn warm_conversion_with_many_dropped_members_allocates_nothing() {
    let options = Options::default();
    let mut converter = Converter::new();
    for _ in 0..3 {
        let c = converter.convert(MANY_MEMBERS, &Mcp, &OpenAi, &options).expect("converts");
        assert_eq!(c.report().len(), 16, "{:?}", c.report());
    }
    let n = allocations(|| {
        for _ in 0..100 {
            let c = converter.convert(MANY_MEMBERS, &Mcp, &OpenAi, &options).expect("converts");
            assert_eq!(c.report().len(), 16);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm conversions dropping six kinds of member");
}

/// `convert_into` writes into a `Conversion` the caller keeps: two results side by side, and
/// once both are warm no allocation, as with `convert`.
#[test]
fn convert_into_callers_conversions_allocates_nothing_warm() {
    let options = Options::default();
    let mut converter = Converter::new();
    let (mut a, mut b) = (tooladapter::Conversion::default(), tooladapter::Conversion::default());
    let mut run = |a: &mut tooladapter::Conversion, b: &mut tooladapter::Conversion| {
        converter.convert_into(TOOL, &Mcp, &OpenAi, &options, a).expect("converts");
        converter.convert_into(TOOL, &Mcp, &Anthropic, &options, b).expect("converts");
    };
    for _ in 0..3 {
        run(&mut a, &mut b);
    }
    let n = allocations(|| {
        for _ in 0..100 {
            run(&mut a, &mut b);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 100 warm pairs of conversions");
    assert!(a.output_str().starts_with(r#"{"type":"function""#), "{}", a.output_str());
    assert!(b.output_str().starts_with(r#"{"name":"search","#), "{}", b.output_str());
}
