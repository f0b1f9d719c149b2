//! Throughput of the bytes-to-bytes path against its floors, measured in one criterion group per
//! target so the ratios come from the same run: a serde_json `Value` parse + re-serialize of the
//! same bytes and simd-json's own (`BorrowedValue` parse + serialize), a simd-json tape parse
//! alone, with fresh buffers (`to_tape`) and with buffers reused as a `Converter` reuses its
//! own, and that reused parse followed by a simple compact writer: one copy of each token's
//! source bytes (a reference, not a bound: a writer copying longer runs can beat it).
//!
//! Input: every catalog in `$TOOLADAPTER_CORPUS/mcp-catalogs/` (default `../shared/corpus`),
//! or the repo's `examples/data/catalog.mcp.json` when the corpus is absent, twice: compact
//! copies made at bench time (groups `mcp_to_<target>`, what a gateway receives and what the
//! targets are read on) and the files as they are, pretty-printed (`mcp_to_<target>_pretty`).
//!
//! The yardstick is `simd_json_tape_parse_reused`: simd-json's tape parse with its buffers and
//! the tape's allocation reused from one input to the next (`fill_tape`, which copies the input
//! into an aligned buffer of its own). `simd_json_tape_parse_padded` is the same parse from a
//! caller-padded buffer (`fill_tape_padded`), with no copy at all, the copy made outside the
//! timing; the converter parses its own padded copy this way, and pays for that copy.
//!
//! `tooladapter_tool_pointers` is the conversion with `Options::document_pointers(false)`:
//! report entries left in their tools, for a caller that reads no pointers.

use std::hint::black_box;
use std::time::Duration;

mod common;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use simd_json::Tape;
use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi, OpenAiResponses};
use tooladapter::{Adapter, Converter, Options, Strict};

fn bench(c: &mut Criterion) {
    let pretty = common::catalogs();
    let compact: Vec<Vec<u8>> = pretty.iter().map(|i| common::compact(i)).collect();
    bench_inputs(c, &compact, "");
    bench_inputs(c, &pretty, "_pretty");
}

fn bench_inputs(c: &mut Criterion, inputs: &[Vec<u8>], suffix: &str) {
    let bytes: u64 = inputs.iter().map(|i| i.len() as u64).sum();
    let targets: [(&str, &dyn Adapter, Strict); 5] = [
        ("openai", &OpenAi, Strict::Source),
        ("openai-responses", &OpenAiResponses, Strict::Source),
        ("anthropic", &Anthropic, Strict::Source),
        ("openai_strict", &OpenAi, Strict::On),
        ("gemini", &Gemini, Strict::Source),
    ];
    for (name, target, strict) in targets {
        let mut group = c.benchmark_group(format!("mcp_to_{name}{suffix}"));
        group.throughput(Throughput::Bytes(bytes));
        group
            .sample_size(20)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        let options = Options::default().strict(strict);
        let mut converter = Converter::new();
        group.bench_function("tooladapter", |b| {
            b.iter(|| {
                for input in inputs {
                    let out = converter.convert(black_box(input), &Mcp, target, &options);
                    black_box(out.map(|c| c.output().len()).unwrap_or(0));
                }
            });
        });
        // The same with entries left in their tools (`Options::document_pointers(false)`):
        // what a caller pays that reads no pointers, as the CLI's `--report none`.
        let in_tool = options.clone().document_pointers(false);
        group.bench_function("tooladapter_tool_pointers", |b| {
            b.iter(|| {
                for input in inputs {
                    let out = converter.convert(black_box(input), &Mcp, target, &in_tool);
                    black_box(out.map(|c| c.output().len()).unwrap_or(0));
                }
            });
        });
        group.bench_function("serde_json_value_roundtrip", |b| {
            b.iter(|| {
                for input in inputs {
                    let v: serde_json::Value =
                        serde_json::from_slice(black_box(input)).unwrap_or_default();
                    black_box(serde_json::to_vec(&v).map(|o| o.len()).unwrap_or(0));
                }
            });
        });
        // A tape parse as its simplest call makes it: fresh buffers and tape every time.
        group.bench_function("simd_json_tape_parse", |b| {
            b.iter_batched_ref(
                || inputs.to_vec(),
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
                || inputs.to_vec(),
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
        // The same parse from a buffer the caller padded (`fill_tape_padded`): simd-json makes
        // no copy; the padded copies are made outside the timing.
        group.bench_function("simd_json_tape_parse_padded", |b| {
            let mut buffers = simd_json::Buffers::default();
            let mut spare: Tape<'static> = Tape(Vec::new());
            b.iter_batched_ref(
                || inputs.iter().map(|i| padded(i)).collect::<Vec<_>>(),
                |copies| {
                    for (copy, len) in copies.iter_mut() {
                        let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
                        let parsed =
                            simd_json::fill_tape_padded(copy, *len, &mut buffers, &mut tape);
                        black_box(parsed.map(|()| tape.0.len()).unwrap_or(0));
                        spare = tape.reset();
                    }
                },
                BatchSize::LargeInput,
            );
        });
        // simd-json's own round trip, the same parser's DOM and writer: what a converter built
        // on `simd_json::BorrowedValue` would pay before doing any converting.
        group.bench_function("simd_json_value_roundtrip", |b| {
            let mut out = Vec::new();
            b.iter_batched_ref(
                || inputs.to_vec(),
                |copies| {
                    for copy in copies.iter_mut() {
                        out.clear();
                        let written = simd_json::to_borrowed_value(copy)
                            .map(|v| simd_json::to_writer(&mut out, &v).is_ok());
                        black_box((written.is_ok(), out.len()));
                    }
                },
                BatchSize::LargeInput,
            );
        });
        // A reference for parse-then-write: the reused tape parse, then every token's source bytes
        // (from one structural to the next, whitespace after it trimmed) copied to the output.
        // That is compact JSON of the input with no escaping, no lowering and no converting,
        // so the ratio against it says what all of those cost together.
        group.bench_function("simd_json_tape_parse_reused_token_copy", |b| {
            let mut buffers = simd_json::Buffers::default();
            let mut spare: Tape<'static> = Tape(Vec::new());
            let mut out = Vec::new();
            b.iter_batched_ref(
                || inputs.iter().map(|i| (i.clone(), i)).collect::<Vec<_>>(),
                |copies| {
                    for (copy, src) in copies.iter_mut() {
                        let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
                        let parsed = simd_json::fill_tape(copy, &mut buffers, &mut tape);
                        spare = tape.reset();
                        out.clear();
                        if parsed.is_ok() {
                            copy_tokens(src, buffers.structural_indexes(), &mut out);
                        }
                        black_box(out.len());
                    }
                },
                BatchSize::LargeInput,
            );
        });
        group.finish();
    }
}

/// A copy of `input` followed by the padding `fill_tape_padded` needs, and the input's length.
fn padded(input: &[u8]) -> (Vec<u8>, usize) {
    let mut copy = Vec::with_capacity(input.len() + simd_json::INPUT_PADDING);
    copy.extend_from_slice(input);
    copy.resize(input.len() + simd_json::INPUT_PADDING, b' ');
    (copy, input.len())
}

/// Writes `src` compact, one copy per token: each structural's bytes up to the next one, with
/// the whitespace that ends them trimmed (a token never ends in whitespace, so what is left is
/// exactly the token).
fn copy_tokens(src: &[u8], structurals: &[u32], out: &mut Vec<u8>) {
    for pair in structurals.windows(2) {
        let (at, next) = (pair[0] as usize, pair[1] as usize);
        if let Some(token) = src.get(at..next.min(src.len())) {
            out.extend_from_slice(token.trim_ascii_end());
        }
    }
    if let Some(&last) = structurals.last()
        && let Some(token) = src.get(last as usize..)
    {
        out.extend_from_slice(token.trim_ascii_end());
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
