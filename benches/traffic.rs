//! Throughput of tool-traffic conversion (`Converter::convert_traffic`) against a serde_json
//! `Value` parse + re-serialize of the same bytes, in one criterion group per (kind, pair) so
//! the ratio comes from the same run: calls turns per second (`traffic_calls_*`, the
//! corpus's recorded calls payloads) and conversations in bytes per second
//! (`traffic_messages_*`, its recorded request bodies).
//!
//! Input: `$TOOLADAPTER_CORPUS/tool-traffic/<format>/{calls,requests}/` (default
//! `../shared/corpus`), compact copies made at bench time (what a gateway receives); with no
//! corpus, one small inline payload per kind.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

#[allow(dead_code, reason = "this bench reads the traffic payloads, not the catalogs")]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tooladapter::formats::{Anthropic, Bedrock, Gemini, OpenAi};
use tooladapter::traffic::TrafficKind;
use tooladapter::{Adapter, Converter, TrafficOptions};

const CALLS: &str = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"n\":9007199254740993}"}}]}"#;
const MESSAGES: &str = r#"{"model":"m","messages":[{"role":"user","content":"Weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"sunny"}]}"#;

/// The corpus's payloads of `format` (its folder) and `kind` (its subfolder), compact.
fn payloads(folder: &str, kind: &str) -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("TOOLADAPTER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let dir = corpus.join("tool-traffic").join(folder).join(kind);
    common::catalogs_in(&dir).iter().map(|p| common::compact(p)).collect()
}

fn bench(c: &mut Criterion) {
    let pairs: [(&str, &dyn Adapter, &str, &dyn Adapter); 4] = [
        ("openai-chat", &OpenAi, "anthropic", &Anthropic),
        ("anthropic", &Anthropic, "openai", &OpenAi),
        ("gemini", &Gemini, "openai", &OpenAi),
        ("bedrock", &Bedrock, "gemini", &Gemini),
    ];
    for (kind, dir, fallback) in
        [(TrafficKind::Calls, "calls", CALLS), (TrafficKind::Messages, "requests", MESSAGES)]
    {
        for (folder, from, to_name, to) in pairs {
            let mut inputs = payloads(folder, dir);
            if inputs.is_empty() {
                // Without the corpus, the inline payload (OpenAI's) converted to `from`.
                let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
                let mut converter = Converter::new();
                let own = converter.convert_traffic(fallback.as_bytes(), &OpenAi, from, &options);
                inputs.extend(own.map(|o| o.output().to_vec()));
            }
            // Only what converts is timed (a payload the pair refuses measures its error).
            let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
            let mut converter = Converter::new();
            inputs.retain(|i| converter.convert_traffic(i, from, to, &options).is_ok());
            let bytes: u64 = inputs.iter().map(|i| i.len() as u64).sum();
            let mut group = c.benchmark_group(format!(
                "traffic_{}_{}_to_{to_name}",
                kind.as_str(),
                from.name()
            ));
            group.throughput(match kind {
                TrafficKind::Calls => Throughput::Elements(inputs.len() as u64),
                _ => Throughput::Bytes(bytes),
            });
            group
                .sample_size(20)
                .measurement_time(Duration::from_secs(3))
                .warm_up_time(Duration::from_secs(1));
            group.bench_function("tooladapter", |b| {
                b.iter(|| {
                    for input in &inputs {
                        let out = converter.convert_traffic(black_box(input), from, to, &options);
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
            group.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
