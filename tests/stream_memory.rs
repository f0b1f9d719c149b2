//! A 100 MB stream of many small calls (10 MB in a debug build) transcoded in constant memory:
//! peak resident memory after a warm-up does not grow with the stream, and what the
//! transcoder holds between events stays small. Alone in its test binary, so the process's
//! peak is this test's.

use tooladapter::TrafficOptions;
use tooladapter::formats::{Anthropic, OpenAi};
use tooladapter::stream::StreamTranscoder;

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_100_mb_stream_of_many_small_calls_runs_in_constant_memory() {
    // OpenAI Chat ends calls only at its finish reason, so a stream of many calls holds them
    // all open; Anthropic ends each with its block, and is the pass-through case measured.
    let anthropic = |i: usize| {
        format!(
            "event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":{i},\"content_block\":{{\"type\":\"tool_use\",\"id\":\"toolu_{i}\",\"name\":\"f\",\"input\":{{}}}}}}\n\n\
event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":{i},\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":\"{{\\\"k\\\":\\\"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\\\"}}\"}}}}\n\n\
event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":{i}}}\n\n"
        )
    };
    let total: usize = if cfg!(debug_assertions) { 10 << 20 } else { 100 << 20 };
    let mut t =
        StreamTranscoder::new(&Anthropic, &OpenAi, &TrafficOptions::default()).expect("streams");
    let mut sink = std::io::sink();
    t.push(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\"}}\n\n", &mut sink).expect("pushes");
    let (mut read, mut i, mut held_max, mut after_warmup) = (0usize, 0usize, 0usize, 0u64);
    while read < total {
        let piece = anthropic(i);
        t.push(piece.as_bytes(), &mut sink).expect("pushes");
        read += piece.len();
        i += 1;
        held_max = held_max.max(t.held_bytes());
        if i == 1000 {
            after_warmup = peak_rss_kib();
        }
    }
    t.push(b"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", &mut sink).expect("pushes");
    t.finish(&mut sink).expect("finishes");
    let end = peak_rss_kib();
    // The figures docs/performance.md quotes (`--nocapture`).
    println!(
        "{i} calls, {read} bytes read: peak RSS {after_warmup} KiB after the warm-up, {end} KiB \
         at the end; at most {held_max} bytes held between events"
    );
    assert!(i > total / 1000, "{i} calls");
    assert!(held_max < 64 << 10, "held {held_max} bytes between events");
    // Peak resident memory after the warm-up grows by less than 8 MiB over 10 (100) MB read.
    assert!(end.saturating_sub(after_warmup) < 8 << 10, "{after_warmup} KiB -> {end} KiB");
}
