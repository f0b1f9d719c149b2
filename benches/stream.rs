//! Stream transcoding: throughput (events per second, OpenAI Chat → Anthropic, a stream of
//! text and argument fragments) and per-event latency (one pass-through argument fragment
//! pushed, its target event written), so the added latency a gateway pays per delta is
//! measured apart from the network.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tooladapter::TrafficOptions;
use tooladapter::formats::{Anthropic, OpenAi};
use tooladapter::stream::StreamTranscoder;

fn chunk(body: &str) -> String {
    format!(
        "data: {{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[{body}],\"obfuscation\":\"abcd\"}}\n\n"
    )
}

fn fragment() -> String {
    chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"location\": \"San"}}]},"logprobs":null,"finish_reason":null}"#,
    )
}

fn stream(fragments: usize) -> String {
    let mut s = chunk(
        r#"{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}"#,
    );
    for _ in 0..fragments {
        s += &fragment();
    }
    s += &chunk(r#"{"index":0,"delta":{},"finish_reason":"tool_calls"}"#);
    s += "data: [DONE]\n\n";
    s
}

fn throughput(c: &mut Criterion) {
    let input = stream(1000);
    let mut g = c.benchmark_group("stream");
    g.throughput(Throughput::Elements(1002));
    g.bench_function("openai-to-anthropic/events", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            let mut t = StreamTranscoder::new(&OpenAi, &Anthropic, &TrafficOptions::default())
                .expect("streams");
            t.push(black_box(input.as_bytes()), &mut out).expect("pushes");
            t.finish(&mut out).expect("finishes");
            black_box(out.len())
        });
    });
    g.finish();
}

fn latency(c: &mut Criterion) {
    let head = stream(0);
    let open = head.split("data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},").next().unwrap_or_default().to_owned();
    let frag = fragment();
    let mut t =
        StreamTranscoder::new(&OpenAi, &Anthropic, &TrafficOptions::default()).expect("streams");
    let mut out = Vec::with_capacity(1 << 16);
    t.push(open.as_bytes(), &mut out).expect("opens the call");
    // The distribution criterion does not print: p50 and p99 of single pushes.
    let mut times: Vec<u128> = (0..100_000)
        .map(|_| {
            out.clear();
            let start = std::time::Instant::now();
            t.push(frag.as_bytes(), &mut out).expect("pushes");
            start.elapsed().as_nanos()
        })
        .collect();
    times.sort_unstable();
    let at = |q: usize| times.get(times.len() * q / 100).copied().unwrap_or(0);
    eprintln!("stream/latency/pass-through fragment: p50 {} ns, p99 {} ns", at(50), at(99));
    c.bench_function("stream/latency/pass-through fragment", |b| {
        b.iter(|| {
            out.clear();
            t.push(black_box(frag.as_bytes()), &mut out).expect("pushes");
            black_box(out.len())
        });
    });
}

criterion_group!(benches, throughput, latency);
criterion_main!(benches);
