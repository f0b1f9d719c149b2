//! Scaling of batch conversion with threads: NDJSON lines converted as the CLI converts a
//! window of them (in parallel over the lines, one thread-local `Converter` per worker, each
//! line's output copied out and its report printed, in line order), on a rayon pool of one
//! thread and of two, in one criterion group so the ratio comes from one run.
//!
//! Input: every catalog in `$TOOLADAPTER_CORPUS/mcp-catalogs/` (default `../shared/corpus`),
//! each re-serialized compactly as one line, the set four times over so two threads have
//! enough lines to share; or the repo's `examples/data/catalog.mcp.json` when the corpus is
//! absent.

use std::cell::RefCell;
use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use tooladapter::formats::{Mcp, OpenAi};
use tooladapter::{Converter, Options};

thread_local! {
    /// One warm converter per worker thread, as the CLI keeps them.
    static CONVERTER: RefCell<Converter> = RefCell::new(Converter::new());
}

/// The NDJSON lines: one compact catalog per line.
fn lines() -> Vec<Vec<u8>> {
    let once: Vec<Vec<u8>> = common::catalogs()
        .into_iter()
        .filter_map(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .filter_map(|v| serde_json::to_vec(&v).ok())
        .collect();
    (0..4).flat_map(|_| once.iter().cloned()).collect()
}

/// Converts every line on the current pool; what the CLI holds for a window: each line's
/// output, and its report printed as `--report text` prints it (the CLI prints reports on
/// the worker, since copying the entries to the writing thread costs more).
fn convert_all(lines: &[Vec<u8>], options: &Options) -> Vec<Option<(Vec<u8>, Vec<u8>)>> {
    lines
        .par_iter()
        .enumerate()
        .map(|(n, line)| {
            CONVERTER.with(|c| {
                let mut converter = c.borrow_mut();
                converter.convert(line, &Mcp, &OpenAi, options).ok().map(|c| {
                    let mut report = Vec::new();
                    for entry in c.report() {
                        let _ = writeln!(report, "line {}: {entry}", n + 1);
                    }
                    (c.output().to_vec(), report)
                })
            })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let lines = lines();
    let bytes: u64 = lines.iter().map(|l| l.len() as u64).sum();
    let options = Options::default();
    let mut group = c.benchmark_group("ndjson_mcp_to_openai");
    group.throughput(Throughput::Bytes(bytes));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for threads in [1, 2] {
        let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else {
            eprintln!("cannot start {threads} threads; skipped");
            continue;
        };
        group.bench_function(
            format!("{threads}_thread{}", if threads > 1 { "s" } else { "" }),
            |b| {
                b.iter(|| pool.install(|| black_box(convert_all(black_box(&lines), &options))));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
