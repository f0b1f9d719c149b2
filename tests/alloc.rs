//! A warm `Converter` converts without touching the heap: the arena is reset, the parse buffers,
//! tape and output buffer are reused, and an empty report allocates nothing. Counted with a
//! wrapping global allocator, so this is a count, not a timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tooladapter::formats::{Anthropic, LangChain, Mcp, OpenAi, OpenAiResponses};
use tooladapter::{Adapter, Converter, Options};

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
    let targets: [&dyn Adapter; 5] = [&Mcp, &OpenAi, &OpenAiResponses, &Anthropic, &LangChain];
    for target in targets {
        for input in [TOOL, catalog.as_bytes()] {
            let mut converter = Converter::new();
            for _ in 0..3 {
                let c = converter.convert(input, &Mcp, target, &options).expect("converts");
                assert!(c.report().is_empty(), "{:?}", c.report());
            }
            let n = allocations(|| {
                for _ in 0..100 {
                    let c = converter.convert(input, &Mcp, target, &options).expect("converts");
                    assert!(!c.output().is_empty());
                }
            });
            assert_eq!(n, 0, "{} allocations in 100 warm conversions to {}", n, target.name());
        }
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
