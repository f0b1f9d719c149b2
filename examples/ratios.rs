//! The bench's ratios measured the way a shared machine allows: every target and the
//! simd-json yardsticks timed in turn, one pass over the corpus's catalogs each, for `ROUNDS`
//! rounds (default 40), keeping each one's fastest pass. Interleaving exposes them all to the
//! same neighbours; the minimum drops the passes a neighbour slowed down.
//!
//! `cargo run --profile bench --example ratios [folder]` (default
//! `$TOOLADAPTER_CORPUS/mcp-catalogs`, else `../shared/corpus/mcp-catalogs`); `PRETTY=1` reads
//! the files as they are instead of compact copies. Prints each one's fastest pass and its
//! ratio to the reused tape parse (the yardstick: above 1 is faster than it).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use simd_json::Tape;
use tooladapter::formats::{Anthropic, Gemini, Mcp, OpenAi, OpenAiResponses};
use tooladapter::{Adapter, Converter, Options, Strict};

#[allow(dead_code, reason = "the corpus folder is read from the command line here")]
#[path = "../benches/common/mod.rs"]
mod common;

fn inputs() -> Vec<Vec<u8>> {
    let dir = std::env::args_os().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("TOOLADAPTER_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("../shared/corpus"))
            .join("mcp-catalogs")
    });
    let pretty = std::env::var_os("PRETTY").is_some();
    common::catalogs_in(&dir)
        .into_iter()
        .map(|b| if pretty { b } else { common::compact(&b) })
        .collect()
}

fn main() {
    let inputs = inputs();
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(40);
    let targets: [(&str, &dyn Adapter, Strict); 5] = [
        ("openai", &OpenAi, Strict::Source),
        ("openai-responses", &OpenAiResponses, Strict::Source),
        ("anthropic", &Anthropic, Strict::Source),
        ("gemini", &Gemini, Strict::Source),
        ("openai strict", &OpenAi, Strict::On),
    ];
    let mut converters: Vec<Converter> = targets.iter().map(|_| Converter::new()).collect();
    let options: Vec<Options> =
        targets.iter().map(|&(_, _, strict)| Options::default().strict(strict)).collect();
    let mut buffers = simd_json::Buffers::default();
    let mut spare: Tape<'static> = Tape(Vec::new());
    let mut best = vec![Duration::MAX; targets.len() + 2];
    for _ in 0..rounds {
        // The yardsticks: the reused tape parse (`fill_tape`), then from padded copies
        // (`fill_tape_padded`); the copies are made outside the timing.
        let mut copies = inputs.clone();
        let start = Instant::now();
        for copy in &mut copies {
            let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
            let parsed = simd_json::fill_tape(copy, &mut buffers, &mut tape);
            black_box(parsed.map(|()| tape.0.len()).unwrap_or(0));
            spare = tape.reset();
        }
        best[0] = best[0].min(start.elapsed());
        let mut padded: Vec<(Vec<u8>, usize)> = inputs
            .iter()
            .map(|i| {
                let mut c = i.clone();
                c.resize(i.len() + simd_json::INPUT_PADDING, b' ');
                (c, i.len())
            })
            .collect();
        let start = Instant::now();
        for (copy, len) in &mut padded {
            let mut tape = std::mem::replace(&mut spare, Tape(Vec::new())).reset();
            let parsed = simd_json::fill_tape_padded(copy, *len, &mut buffers, &mut tape);
            black_box(parsed.map(|()| tape.0.len()).unwrap_or(0));
            spare = tape.reset();
        }
        best[1] = best[1].min(start.elapsed());
        for (i, (_, target, _)) in targets.iter().enumerate() {
            let (Some(converter), Some(options)) = (converters.get_mut(i), options.get(i)) else {
                continue;
            };
            let start = Instant::now();
            for input in &inputs {
                let out = converter.convert(black_box(input), &Mcp, *target, options);
                black_box(out.map(|c| c.output().len()).unwrap_or(0));
            }
            if let Some(b) = best.get_mut(i + 2) {
                *b = (*b).min(start.elapsed());
            }
        }
    }
    let bytes: usize = inputs.iter().map(Vec::len).sum();
    println!("{} inputs, {bytes} bytes, fastest of {rounds} interleaved passes", inputs.len());
    let yardstick = best[0].as_secs_f64();
    let names = ["tape parse, reused (fill_tape)", "tape parse, padded (fill_tape_padded)"];
    for (name, time) in names.iter().copied().chain(targets.iter().map(|t| t.0)).zip(&best) {
        let t = time.as_secs_f64();
        println!("{name:40} {:8.3} ms   {:.3}x", t * 1e3, yardstick / t);
    }
}
