//! Stream transcoding on fixtures written here: every pair of stream formats on a stream with
//! text, parallel calls and an argument-less call; the quirks (no `index`, `index` from 1,
//! repeated ids, missing `arguments`, a stream cut inside a call); chunkings (the same stream
//! split at random places gives byte-identical output); the limits as typed errors; maps;
//! the fuzz target's seeds. (Memory: tests/stream_memory.rs, alone in its process.)

use tooladapter::formats::{Anthropic, Bedrock, Gemini, OpenAi, OpenAiResponses};
use tooladapter::inverse::{ArgMap, ArgNode, ArgProp, Inverse, ToolInverse};
use tooladapter::stream::{
    AssembledCall, Output, StreamError, StreamLimit, StreamLimits, StreamTranscoder,
};
use tooladapter::{Adapter, Code, TrafficOptions};

fn formats() -> [&'static dyn Adapter; 5] {
    [&OpenAi, &OpenAiResponses, &Anthropic, &Gemini, &Bedrock]
}

fn chunk(body: &str) -> String {
    format!(
        "data: {{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{body}]}}\n\n"
    )
}

/// OpenAI Chat: text, two parallel calls interleaved by index, one without arguments.
fn chat_stream() -> String {
    let mut s = String::new();
    s += &chunk(
        r#"{"index":0,"delta":{"role":"assistant","content":"Looking "},"finish_reason":null}"#,
    );
    s += &chunk(r#"{"index":0,"delta":{"content":"it up \u00e9\u4e16."},"finish_reason":null}"#);
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{\"tz\":"}}]},"finish_reason":null}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \"Par"}}]},"finish_reason":null}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"CET\"}"}}]},"finish_reason":null}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is\", \"n\": 1.50}"}}]},"finish_reason":null}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_c","type":"function","function":{"name":"ping"}}]},"finish_reason":null}"#,
    );
    s += &chunk(r#"{"index":0,"delta":{},"finish_reason":"tool_calls"}"#);
    s += "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,\"total_tokens\":12}}\n\n";
    s += "data: [DONE]\n\n";
    s
}

fn run(
    input: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &TrafficOptions<'_>,
    step: usize,
) -> (Vec<u8>, tooladapter::Report) {
    let mut t = StreamTranscoder::new(from, to, options).expect("streams");
    let mut out = Vec::new();
    for piece in input.chunks(step.max(1)) {
        t.push(piece, &mut out).expect("pushes");
    }
    let report = t.finish(&mut out).expect("finishes").clone();
    (out, report)
}

fn value(text: &str) -> serde_json::Value {
    if text.is_empty() {
        return serde_json::json!({});
    }
    serde_json::from_str(text).expect("JSON arguments")
}

fn same_calls(a: &[AssembledCall], b: &[AssembledCall]) {
    assert_eq!(a.len(), b.len(), "{a:?}\n{b:?}");
    for (x, y) in a.iter().zip(b) {
        assert_eq!((&x.name, x.complete), (&y.name, y.complete));
        assert_eq!(value(&x.arguments), value(&y.arguments), "{x:?} {y:?}");
    }
}

#[test]
fn every_pair_keeps_text_calls_and_arguments() {
    let source = chat_stream();
    let calls = StreamTranscoder::assemble(source.as_bytes(), &OpenAi).expect("reads");
    assert_eq!(calls.len(), 3);
    assert_eq!(value(&calls[0].arguments), serde_json::json!({"city": "Paris", "n": 1.50}));
    for first in formats() {
        // Into each format, then from it to every other: the calls survive both legs.
        let (mid, _) = run(source.as_bytes(), &OpenAi, first, &TrafficOptions::default(), 4096);
        same_calls(&calls, &StreamTranscoder::assemble(&mid, first).expect("reads its own output"));
        for second in formats() {
            let (out, report) = run(&mid, first, second, &TrafficOptions::default(), 4096);
            let after = StreamTranscoder::assemble(&out, second).expect("reads");
            same_calls(&calls, &after);
            for (a, b) in calls.iter().zip(&after) {
                assert!(
                    a.id == b.id
                        || report
                            .entries()
                            .iter()
                            .any(|e| matches!(e.code, Code::IdRewritten | Code::IdAdded))
                );
            }
            let text = String::from_utf8(out).expect("UTF-8");
            if second.name() != "gemini" && first.name() != "gemini" {
                assert!(
                    text.contains("Looking "),
                    "{} -> {}: text fragments pass through",
                    first.name(),
                    second.name()
                );
            }
        }
    }
}

#[test]
fn target_wire_text_has_each_providers_terminal() {
    let source = chat_stream();
    let end = |to: &dyn Adapter| {
        let (out, _) = run(source.as_bytes(), &OpenAi, to, &TrafficOptions::default(), 7);
        String::from_utf8(out).expect("UTF-8")
    };
    assert!(end(&OpenAi).ends_with("data: [DONE]\n\n"));
    assert!(
        end(&Anthropic).ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
    );
    assert!(end(&Anthropic).contains("\"stop_reason\":\"tool_use\""));
    assert!(end(&OpenAiResponses).contains("event: response.completed\n"));
    assert!(end(&Bedrock).contains("{\"messageStop\":{\"stopReason\":\"tool_use\"}}\n"));
    assert!(end(&Gemini).contains("\"finishReason\":\"STOP\""));
    // Pass-through: each argument fragment is its own target event, in order.
    let anthropic = end(&Anthropic);
    let a = anthropic.find("\\\"city\\\": \\\"Par").expect("first fragment");
    let b = anthropic.find("is\\\", \\\"n\\\": 1.50}").expect("later fragment");
    assert!(a < b);
}

#[test]
fn random_chunkings_give_byte_identical_output() {
    let source = chat_stream();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for from in formats() {
        let (input, _) = run(source.as_bytes(), &OpenAi, from, &TrafficOptions::default(), 4096);
        for to in formats() {
            let (whole, _) = run(&input, from, to, &TrafficOptions::default(), input.len());
            for _ in 0..20 {
                let mut t =
                    StreamTranscoder::new(from, to, &TrafficOptions::default()).expect("streams");
                let mut out = Vec::new();
                let mut rest = &input[..];
                while !rest.is_empty() {
                    let n = (next() as usize % 40 + 1).min(rest.len());
                    let (piece, tail) = rest.split_at(n);
                    t.push(piece, &mut out).expect("pushes");
                    rest = tail;
                }
                t.finish(&mut out).expect("finishes");
                assert_eq!(out, whole, "{} -> {}", from.name(), to.name());
            }
        }
    }
}

#[test]
fn quirks_are_read_tolerantly() {
    // Mistral: no index, each call whole with its own id; GLM: a repeat with `"name": ""`.
    let mut s = chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"id":"m1","function":{"name":"a","arguments":"{\"x\":1}"}}]}}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"id":"m2","function":{"name":"b","arguments":"{}"}}]}}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":5,"id":"g1","function":{"name":"c","arguments":""}}]}}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":5,"id":"g1","type":"function","function":{"name":"","arguments":"{\"y\":"}}]}}"#,
    );
    s +=
        &chunk(r#"{"index":0,"delta":{"tool_calls":[{"index":5,"function":{"arguments":"2}"}}]}}"#);
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":6,"id":"g2","function":{"name":"d"}}]},"finish_reason":"tool_calls"}"#,
    );
    let calls = StreamTranscoder::assemble(s.as_bytes(), &OpenAi).expect("reads");
    let names: Vec<_> =
        calls.iter().map(|c| (c.name.as_str(), c.arguments.as_str(), c.complete)).collect();
    assert_eq!(
        names,
        [("a", "{\"x\":1}", true), ("b", "{}", true), ("c", "{\"y\":2}", true), ("d", "", true)]
    );
}

#[test]
fn a_stream_cut_inside_a_call_is_reported_and_never_ended() {
    let sse = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"c\",\"usage\":{\"input_tokens\":3}}}\n\n\
event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"make_file\",\"input\":{}}}\n\n\
event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"name\\\": \\\"tax\"}}\n\n\
event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":9}}\n\n\
event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let calls = StreamTranscoder::assemble(sse.as_bytes(), &Anthropic).expect("reads");
    assert_eq!(calls.len(), 1);
    assert!(!calls[0].complete);
    for to in formats() {
        let (out, report) = run(sse.as_bytes(), &Anthropic, to, &TrafficOptions::default(), 3);
        assert!(report.entries().iter().any(|e| e.code == Code::CallIncomplete), "{}", to.name());
        let after = StreamTranscoder::assemble(&out, to).expect("reads");
        assert!(after.iter().all(|c| !c.complete), "{}: {after:?}", to.name());
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(
            !text.contains("\"tool_calls\"\n") && !text.contains("\"stop_reason\":\"tool_use\""),
            "{text}"
        );
    }
    // Bytes that stop mid-stream: the call is incomplete, the target gets no end.
    let cut = sse.find("event: message_delta").expect("there");
    let (out, report) =
        run(&sse.as_bytes()[..cut], &Anthropic, &OpenAi, &TrafficOptions::default(), 5);
    assert!(report.entries().iter().any(|e| e.code == Code::CallIncomplete));
    assert!(!String::from_utf8(out).expect("UTF-8").contains("[DONE]"));
}

#[test]
fn limits_are_typed_errors() {
    let source = chat_stream();
    let limits = StreamLimits { max_open_calls: 1, ..StreamLimits::default() };
    let mut t = StreamTranscoder::new(&OpenAi, &Anthropic, &TrafficOptions::default())
        .expect("streams")
        .with_limits(limits);
    let err = t.push(source.as_bytes(), &mut Vec::new()).err();
    assert!(
        matches!(err, Some(StreamError::Limit { limit: StreamLimit::OpenCalls { limit: 1 }, .. })),
        "{err:?}"
    );
    assert!(matches!(t.push(b"", &mut Vec::new()), Err(StreamError::Failed)));
    let limits = StreamLimits { max_buffered_bytes: 8, ..StreamLimits::default() };
    let mut t = StreamTranscoder::new(&OpenAi, &Gemini, &TrafficOptions::default())
        .expect("streams")
        .with_limits(limits);
    let err = t.push(source.as_bytes(), &mut Vec::new()).err();
    assert!(
        matches!(err, Some(StreamError::Limit { limit: StreamLimit::Buffered { limit: 8 }, .. })),
        "{err:?}"
    );
    let limits = StreamLimits { max_event_bytes: 64, ..StreamLimits::default() };
    let mut t = StreamTranscoder::new(&OpenAi, &Gemini, &TrafficOptions::default())
        .expect("streams")
        .with_limits(limits);
    let err = t.push(source.as_bytes(), &mut Vec::new()).err();
    assert!(
        matches!(err, Some(StreamError::Limit { limit: StreamLimit::Event { .. }, .. })),
        "{err:?}"
    );
    let mut t =
        StreamTranscoder::new(&OpenAi, &Gemini, &TrafficOptions::default()).expect("streams");
    assert!(matches!(
        t.push(b"data: {\"a\":\n\n", &mut Vec::new()),
        Err(StreamError::Event { event: 0, .. })
    ));
}

#[test]
fn a_map_renames_at_once_and_rewrites_arguments_at_the_call_end() {
    let mut root = ArgNode::default();
    root.properties.insert(
        "city_name".into(),
        ArgProp { source: Some("city name".into()), drop_null: false, value: None },
    );
    root.properties.insert("n".into(), ArgProp { source: None, drop_null: true, value: None });
    let mut map = Inverse::default();
    (map.from, map.to) = ("mcp".into(), "openai".into());
    map.tools = vec![ToolInverse {
        name: "get_weather".into(),
        source_name: "get.weather".into(),
        source_index: None,
        arguments: Some(ArgMap { root, defs: Default::default() }),
    }];
    let mut s = chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"get_weather","arguments":"{\"city_name\""}}]}}"#,
    );
    s += &chunk(
        r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": \"Paris\", \"n\": null}"}}]}}"#,
    );
    s += &chunk(r#"{"index":0,"delta":{},"finish_reason":"tool_calls"}"#);
    let options = TrafficOptions { map: Some(&map), ..TrafficOptions::default() };
    let (out, report) = run(s.as_bytes(), &OpenAi, &Anthropic, &options, 9);
    // The same map held by the transcoder (`with_shared_map`): the same bytes, and a
    // transcoder that outlives the options and moves to another thread.
    let shared = std::sync::Arc::new(map.clone());
    let mut owned =
        StreamTranscoder::with_shared_map(&OpenAi, &Anthropic, &TrafficOptions::default(), shared)
            .expect("streams");
    let again = std::thread::spawn(move || {
        let mut again = Vec::new();
        for piece in s.as_bytes().chunks(9) {
            owned.push(piece, &mut again).expect("pushes");
        }
        owned.finish(&mut again).expect("finishes");
        again
    })
    .join()
    .expect("joins");
    assert_eq!(again, out);
    let calls = StreamTranscoder::assemble(&out, &Anthropic).expect("reads");
    assert_eq!(calls[0].name, "get.weather");
    assert_eq!(value(&calls[0].arguments), serde_json::json!({"city name": "Paris"}));
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(text.matches("input_json_delta").count(), 1, "held to the end, sent whole");
    assert!(
        report
            .entries()
            .iter()
            .any(|e| e.code == Code::CallMapped && e.message.contains("held to the end"))
    );
}

#[test]
fn json_lines_output_is_one_event_object_a_line() {
    let source = chat_stream();
    for to in formats() {
        let mut t = StreamTranscoder::new(&OpenAi, to, &TrafficOptions::default())
            .expect("streams")
            .with_output(Output::Json);
        let mut out = Vec::new();
        t.push(source.as_bytes(), &mut out).expect("pushes");
        t.finish(&mut out).expect("finishes");
        let text = String::from_utf8(out).expect("UTF-8");
        for line in text.lines() {
            assert!(
                serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line).is_ok(),
                "{}: {line}",
                to.name()
            );
        }
    }
}

#[test]
fn the_stream_fuzz_seeds_give_the_same_bytes_whole_and_chunked() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/stream");
    let mut formats: Vec<_> =
        tooladapter::formats::builtins().iter().filter(|a| a.stream().is_some()).copied().collect();
    formats.sort_by(|a, b| a.name().cmp(b.name()));
    assert_eq!(formats.len(), 5);
    let mut seeds = 0;
    for seed in std::fs::read_dir(dir).expect("stream seeds") {
        let data = std::fs::read(seed.expect("entry").path()).expect("seed");
        let [pick, step, rest @ ..] = &data[..] else { panic!("short seed") };
        let from = formats[usize::from(pick % 5) % formats.len()];
        let to = formats[usize::from(pick / 5 % 5) % formats.len()];
        let (whole, _) = run(rest, from, to, &TrafficOptions::default(), rest.len());
        let (chunked, _) =
            run(rest, from, to, &TrafficOptions::default(), usize::from(*step % 17) + 1);
        assert_eq!(whole, chunked);
        assert!(!whole.is_empty());
        seeds += 1;
    }
    assert!(seeds >= 4);
}
