//! Throughput of the bytes-to-bytes path against its floors, measured in one criterion group per
//! target so the ratios come from the same run: a serde_json `Value` parse + re-serialize of the
//! same bytes, and a simd-json tape parse alone, with fresh buffers (`to_tape`) and with
//! buffers reused as a `Converter` reuses its own.
//!
//! Input: every catalog in `$TOOLADAPTER_CORPUS/mcp-catalogs/` (default `../shared/corpus`),
//! or the repo's `examples/data/catalog.mcp.json` when the corpus is absent.

use std::hint::black_box;
use std::time::Duration;

mod common;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use simd_json::Tape;
use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi, OpenAiResponses};
use tooladapter::{Adapter, Converter, Options, Strict};

fn inputs() -> Vec<Vec<u8>> {
    common::catalogs()
}

fn bench(c: &mut Criterion) {
    let inputs = inputs();
    let bytes: u64 = inputs.iter().map(|i| i.len() as u64).sum();
    let targets: [(&str, &dyn Adapter, Strict); 5] = [
        ("openai", &OpenAi, Strict::Source),
        ("openai-responses", &OpenAiResponses, Strict::Source),
        ("anthropic", &Anthropic, Strict::Source),
        ("openai_strict", &OpenAi, Strict::On),
        ("gemini", &Gemini, Strict::Source),
    ];
    for (name, target, strict) in targets {
        let mut group = c.benchmark_group(format!("mcp_to_{name}"));
        group.throughput(Throughput::Bytes(bytes));
        group
            .sample_size(20)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        let options = Options::default().strict(strict);
        let mut converter = Converter::new();
        group.bench_function("tooladapter", |b| {
            b.iter(|| {
                for input in &inputs {
                    let out = converter.convert(black_box(input), &Mcp, target, &options);
                    black_box(out.map(|c| c.output().len()).unwrap_or(0));
                }
            });
        });
        group.bench_function("serde_json_value_roundtrip", |b| {
            b.iter(|| {
                for input in &inputs {
                    let v: serde_json::Value =
                        serde_json::from_slice(black_box(input)).unwrap_or_default();
                    black_box(serde_json::to_vec(&v).map(|o| o.len()).unwrap_or(0));
                }
            });
        });
        // A tape parse as its simplest call makes it: fresh buffers and tape every time.
        group.bench_function("simd_json_tape_parse", |b| {
            b.iter_batched_ref(
                || inputs.clone(),
                |copies| {
                    for copy in copies.iter_mut() {
                        black_box(simd_json::to_tape(copy).map(|t| t.0.len()).unwrap_or(0));
                    }
                },
                BatchSize::LargeInput,
            );
        });
        // The parse a converter does, without the converting: buffers and tape reused from
        // one input to the next, as a `Converter` reuses its own. The stricter floor, and the
        // steadier one: it times no allocation (nor the page faults of fresh large buffers,
        // whose cost varies with what the allocator holds).
        group.bench_function("simd_json_tape_parse_reused", |b| {
            let mut buffers = simd_json::Buffers::default();
            let mut spare: Tape<'static> = Tape(Vec::new());
            b.iter_batched_ref(
                || inputs.clone(),
                |copies| {
                    for copy in copies.iter_mut() {
                        let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
                        let parsed = simd_json::fill_tape(copy, &mut buffers, &mut tape);
                        black_box(parsed.map(|()| tape.0.len()).unwrap_or(0));
                        spare = tape.reset();
                    }
                },
                BatchSize::LargeInput,
            );
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
