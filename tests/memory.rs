//! Memory on hostile shapes, measured in heap bytes: a global allocator that tracks the live
//! and peak bytes of the whole process, so each test runs alone (one lock) and reads the peak
//! above what was live when it started. Every shape over 1 MB keeps its peak within 64× its
//! input (issue 22); a refused input costs little more than itself; a warm converter gives
//! memory back above its retention cap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tooladapter::formats::{Mcp, OpenAi};
use tooladapter::{Converter, ErrorKind, Options, Registry};

struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counts are side effects.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// One test at a time: the counts are the process's.
static ALONE: Mutex<()> = Mutex::new(());

/// The peak heap bytes `f` adds to what was live before it, and its result.
fn peak<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(base), r)
}

/// Peak heap ÷ input size of converting `input` (which the measure does not count).
fn amplification(input: &[u8], from: &str, to: &str) -> (f64, Result<usize, ErrorKind>) {
    let registry = Registry::default();
    let (bytes, r) = peak(|| {
        registry.convert(input, from, to).map(|c| c.output().len()).map_err(|e| e.kind().clone())
    });
    (bytes as f64 / input.len() as f64, r)
}

fn tool(schema: &str) -> Vec<u8> {
    format!(r#"{{"name":"t","inputSchema":{schema}}}"#).into_bytes()
}

/// A catalog of about `bytes` bytes of distinct, ordinary tools.
fn catalog(bytes: usize) -> Vec<u8> {
    let mut out = br#"{"tools":["#.to_vec();
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(format!(
            r#"{{"name":"tool_{i}","description":"Looks things up in store {i}, with filters and paging.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for","minLength":1}},"limit":{{"type":"integer","minimum":1,"maximum":100,"default":10}},"mode":{{"type":"string","enum":["fast","exact","fuzzy"]}},"filter":{{"type":"object","properties":{{"tags":{{"type":"array","items":{{"type":"string"}}}},"since":{{"type":"string","format":"date-time"}}}}}}}},"required":["query"]}}}}"#
        ).as_bytes());
        i += 1;
    }
    out.extend_from_slice(b"]}");
    out
}

const TARGET: f64 = 64.0;

#[test]
fn all_of_branches_stay_within_64x() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 20,000 one-property branches (1.7 MB), merged for Gemini: a fold of the merge took
    // over 512 MiB (the arena limit) for half as many.
    let branches: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"type":"object","properties":{{"p{i}":{{"type":"string","description":"branch {i}"}}}}}}"#))
        .collect();
    let input = tool(&format!(r#"{{"allOf":[{}]}}"#, branches.join(",")));
    assert!(input.len() > 1 << 20);
    let (amp, r) = amplification(&input, "mcp", "gemini");
    assert!(r.is_ok(), "{r:?}");
    assert!(amp <= TARGET, "allOf: {amp:.1}x");
}

#[test]
fn a_deep_input_is_refused_before_its_tape() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 1M nested objects (6 MB): the tape alone was ~9x the input before lowering saw the
    // depth; scanned first, the refusal costs only the output buffer reserved up front.
    let n = 1_000_000;
    let input = tool(&format!(r#"{{"default":{}1{}}}"#, r#"{"a":"#.repeat(n), "}".repeat(n)));
    let (amp, r) = amplification(&input, "mcp", "openai");
    assert_eq!(r, Err(ErrorKind::DepthLimit { limit: 128 }));
    assert!(amp <= 1.5, "nested objects: {amp:.2}x");
}

#[test]
fn a_large_catalog_stays_within_64x() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let input = catalog(20 << 20);
    for to in ["openai", "gemini"] {
        let (amp, r) = amplification(&input, "mcp", to);
        assert!(r.is_ok(), "{r:?}");
        assert!(amp <= TARGET, "catalog to {to}: {amp:.1}x");
    }
}

#[test]
fn many_refs_stay_within_64x() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 100,000 properties, each a `$ref` into 1,000 `$defs` (3.3 MB), inlined for Gemini.
    let props: Vec<String> =
        (0..100_000).map(|i| format!(r##""p{i}":{{"$ref":"#/$defs/d{}"}}"##, i % 1000)).collect();
    let defs: Vec<String> =
        (0..1000).map(|i| format!(r#""d{i}":{{"type":"string","maxLength":{i}}}"#)).collect();
    let input = tool(&format!(
        r#"{{"type":"object","properties":{{{}}},"$defs":{{{}}}}}"#,
        props.join(","),
        defs.join(",")
    ));
    for to in ["openai", "gemini"] {
        let (amp, r) = amplification(&input, "mcp", to);
        assert!(r.is_ok(), "{r:?}");
        assert!(amp <= TARGET, "refs to {to}: {amp:.1}x");
    }
}

#[test]
fn openapi_fan_out_stays_within_64x() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // 4,000 operations sharing one 600 KB schema (1.3 MB document): 2.4 GB of tools if
    // translated whole; the import limit (4x the document) stops it early.
    let props: Vec<String> = (0..4_500)
        .map(|i| format!(r#""field_{i}":{{"type":"string","description":"{}"}}"#, "x".repeat(100)))
        .collect();
    let paths: Vec<String> = (0..4_000)
        .map(|i| format!(r##""/r{i}":{{"post":{{"operationId":"op{i}","requestBody":{{"content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/Big"}}}}}}}}}}}}"##))
        .collect();
    let input = format!(
        r#"{{"openapi":"3.1.0","info":{{"title":"t","version":"1"}},"paths":{{{}}},"components":{{"schemas":{{"Big":{{"type":"object","properties":{{{}}}}}}}}}}}"#,
        paths.join(","),
        props.join(",")
    );
    assert!(input.len() > 1 << 20);
    let (amp, r) = amplification(input.as_bytes(), "openapi", "openai");
    assert!(matches!(r, Err(ErrorKind::ImportTooLarge { .. })), "{r:?}");
    assert!(amp <= TARGET, "OpenAPI fan-out: {amp:.1}x");
}

#[test]
fn a_warm_converter_gives_memory_back_above_its_cap() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let (large, small) = (catalog(20 << 20), catalog(20 << 10));
    let options = Options::default();
    let mut converter = Converter::new();
    let before = LIVE.load(Ordering::Relaxed);
    let (grew, _) = peak(|| converter.convert(&large, &Mcp, &OpenAi, &options).map(|_| ()));
    assert!(grew > 2 * Converter::RETAIN, "the large input's buffers pass the cap: {grew}");
    converter.convert(&small, &Mcp, &OpenAi, &options).expect("small");
    let held = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    assert!(converter.retained_bytes() <= Converter::RETAIN, "{}", converter.retained_bytes());
    assert!(held <= Converter::RETAIN, "{held} bytes held after a small conversion");
    // Under the cap, buffers stay warm: once the arena settles on one chunk (a conversion or
    // two), another small conversion keeps the same buffers.
    for _ in 0..2 {
        converter.convert(&small, &Mcp, &OpenAi, &options).expect("small");
    }
    let warm = converter.retained_bytes();
    converter.convert(&small, &Mcp, &OpenAi, &options).expect("small");
    assert_eq!(converter.retained_bytes(), warm);
    converter.shrink();
    assert!(LIVE.load(Ordering::Relaxed).saturating_sub(before) < 64 << 10);
}

#[test]
fn the_registrys_thread_converter_gives_memory_back() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let large = catalog(20 << 20);
    let registry = Registry::default();
    // Warm the thread's converter and the registry's own state first.
    registry.convert(&catalog(20 << 10), "mcp", "openai").expect("small");
    let before = LIVE.load(Ordering::Relaxed);
    let conversion = registry.convert(&large, "mcp", "openai").expect("large");
    let output = conversion.output().len();
    drop(conversion);
    let held = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    assert!(output > 10 << 20);
    assert!(held <= Converter::RETAIN, "{held} bytes held after the conversion was dropped");
}
