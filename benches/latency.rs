//! A gateway's numbers: the time of one request on one warm `Converter`, for a typical catalog
//! (20 tools) and a large one (200 tools), both compact as a `tools/list` response is, against
//! the parse floor of the same bytes (a simd-json tape parse with its buffers and tape reused).
//! Criterion reports means; a gateway's question is the spread, so every request is also timed
//! on its own and the median and 99th percentile are printed after each group. Last, the
//! memory a converter keeps: its retained bytes after a 20 MB catalog and then a small one.
//!
//! Input: the tools of every catalog in `$TOOLADAPTER_CORPUS/mcp-catalogs/` (default
//! `../shared/corpus`), first occurrence of each name, in name order of the files, written
//! compact as `{"tools":[…]}`; or the repo's example catalog when the corpus is absent (then
//! both catalogs are that catalog's tools, repeated under new names).

use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use simd_json::Tape;
use tooladapter::formats::{Gemini, Mcp, OpenAi};
use tooladapter::{Adapter, Converter, Options, Strict};

/// Every corpus tool with a name not seen before, in file order.
fn tools() -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    let mut tools = Vec::new();
    for catalog in common::catalogs() {
        let Ok(value) = serde_json::from_slice::<Value>(&catalog) else { continue };
        let list = match value {
            Value::Object(mut o) => o.remove("tools").unwrap_or(Value::Null),
            other => other,
        };
        let Value::Array(list) = list else { continue };
        for tool in list {
            let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
            if name.is_some_and(|n| seen.insert(n)) {
                tools.push(tool);
            }
        }
    }
    tools
}

/// A compact catalog of `n` tools taken from `tools` in order, cycling with `_<round>` added to
/// the names when there are fewer.
fn catalog(tools: &[Value], n: usize) -> Vec<u8> {
    let list: Vec<Value> = (0..n)
        .filter_map(|i| {
            let mut tool = tools.get(i % tools.len().max(1))?.clone();
            let round = i / tools.len().max(1);
            if round > 0
                && let Some(Value::String(name)) = tool.get_mut("name")
            {
                name.push_str(&format!("_{round}"));
            }
            Some(tool)
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({ "tools": list })).unwrap_or_default()
}

/// The median and 99th percentile of `times`, in µs.
fn percentiles(times: &mut [Duration]) -> (f64, f64) {
    times.sort_unstable();
    let at = |q: f64| {
        let i = ((times.len() as f64 - 1.0) * q).round() as usize;
        times.get(i).map_or(f64::NAN, |d| d.as_secs_f64() * 1e6)
    };
    (at(0.5), at(0.99))
}

/// Times each of `iters` calls of `f` on its own into `into`; their sum is what criterion gets.
fn timed(iters: u64, into: &RefCell<Vec<Duration>>, mut f: impl FnMut()) -> Duration {
    let mut total = Duration::ZERO;
    let mut times = into.borrow_mut();
    for _ in 0..iters {
        let start = Instant::now();
        f();
        let took = start.elapsed();
        total += took;
        times.push(took);
    }
    total
}

fn bench(c: &mut Criterion) {
    let tools = tools();
    let targets: [(&str, &dyn Adapter, Strict); 3] = [
        ("openai", &OpenAi, Strict::Source),
        ("openai_strict", &OpenAi, Strict::On),
        ("gemini", &Gemini, Strict::Source),
    ];
    let mut summary = Vec::new();
    for n in [20, 200] {
        let input = catalog(&tools, n);
        let mut group = c.benchmark_group(format!("latency_{n}_tools"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        group
            .sample_size(50)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        let parse_times = RefCell::new(Vec::new());
        group.bench_function("simd_json_tape_parse_reused", |b| {
            let mut buffers = simd_json::Buffers::default();
            let mut spare: Tape<'static> = Tape(Vec::new());
            let mut copy = input.clone();
            b.iter_custom(|iters| {
                timed(iters, &parse_times, || {
                    // simd-json parses in place: the copy back is part of every request here,
                    // as the converter's own copy of its input is part of its time.
                    copy.copy_from_slice(&input);
                    let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
                    let parsed = simd_json::fill_tape(&mut copy, &mut buffers, &mut tape);
                    black_box(parsed.map(|()| tape.0.len()).unwrap_or(0));
                    spare = tape.reset();
                })
            });
        });
        let (parse_median, parse_p99) = percentiles(&mut parse_times.borrow_mut());
        summary.push(format!(
            "{n} tools ({} bytes), simd-json tape parse (reused): median {parse_median:.1} µs, p99 {parse_p99:.1} µs",
            input.len()
        ));
        for (name, target, strict) in targets {
            let options = Options::default().strict(strict);
            let mut converter = Converter::new();
            let times = RefCell::new(Vec::new());
            group.bench_function(format!("mcp_to_{name}"), |b| {
                b.iter_custom(|iters| {
                    timed(iters, &times, || {
                        let out = converter.convert(black_box(&input), &Mcp, target, &options);
                        black_box(out.map(|c| c.output().len()).unwrap_or(0));
                    })
                });
            });
            let (median, p99) = percentiles(&mut times.borrow_mut());
            summary.push(format!(
                "{n} tools, MCP -> {name}: median {median:.1} µs, p99 {p99:.1} µs; parse ÷ conversion: median {:.3}, p99 {:.3}",
                parse_median / median,
                parse_p99 / p99
            ));
        }
        // A caller holding `serde_json::Value`s: the same conversion behind a serialize and a
        // parse (`Converter::convert_value`), against the bytes path above.
        let value: Value = serde_json::from_slice(&input).unwrap_or_default();
        let mut converter = Converter::new();
        let times = RefCell::new(Vec::new());
        group.bench_function("mcp_to_openai_value", |b| {
            b.iter_custom(|iters| {
                timed(iters, &times, || {
                    let out = converter.convert_value(
                        black_box(&value),
                        &Mcp,
                        &OpenAi,
                        &Options::default(),
                    );
                    black_box(out.map(|(v, _)| v.is_array()).unwrap_or(false));
                })
            });
        });
        let (median, p99) = percentiles(&mut times.borrow_mut());
        summary.push(format!(
            "{n} tools, MCP -> openai, Value in and out (convert_value): median {median:.1} µs, p99 {p99:.1} µs"
        ));
        group.finish();
    }
    summary.push(retention(&tools));
    println!("\nPer request (every timed iteration, warm-up excluded):");
    for line in &summary {
        println!("  {line}");
    }
}

/// What a converter keeps after a catalog of about 20 MB and then a 20-tool one.
fn retention(tools: &[Value]) -> String {
    let small = catalog(tools, 20);
    // Scaled from the size of one of each tool, so that it comes out at about 20 MB.
    let all = catalog(tools, tools.len()).len().max(1);
    let n = tools.len() * 20_000_000 / all + 1;
    let large = catalog(tools, n);
    let options = Options::default();
    let mut converter = Converter::new();
    let warm = converter.convert(&small, &Mcp, &OpenAi, &options).is_ok();
    let warm_bytes = converter.retained_bytes();
    let large_ok = converter.convert(&large, &Mcp, &OpenAi, &options).is_ok();
    let after_large = converter.retained_bytes();
    let small_ok = converter.convert(&small, &Mcp, &OpenAi, &options).is_ok();
    let after_small = converter.retained_bytes();
    format!(
        "retained bytes (cap {} MiB): after the 20-tool catalog {warm_bytes} (ok {warm}), after {n} tools ({} bytes) {after_large} (ok {large_ok}), after the 20-tool catalog again {after_small} (ok {small_ok})",
        Converter::RETAIN >> 20,
        large.len()
    )
}

criterion_group!(benches, bench);
criterion_main!(benches);
