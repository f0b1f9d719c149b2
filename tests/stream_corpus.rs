//! Every recorded stream of the corpus (`tool-traffic/*/streams/`) transcoded to every stream
//! format: the calls assembled from the output (by the project's reader) equal the calls
//! assembled from the input, names and arguments as parsed JSON, complete or not; or a report
//! entry names the difference (an id rewritten or made, a call the target cannot carry).
//! Feature `corpus`; `TOOLADAPTER_CORPUS` (default `../shared/corpus`).
#![cfg(feature = "corpus")]

use std::path::PathBuf;

use tooladapter::formats::{Anthropic, Bedrock, Gemini, Mcp, OpenAi, OpenAiResponses};
use tooladapter::stream::{AssembledCall, Output, StreamError, StreamTranscoder};
use tooladapter::{Adapter, Code, TrafficOptions};

fn corpus() -> PathBuf {
    std::env::var_os("TOOLADAPTER_CORPUS")
        .map_or_else(|| PathBuf::from("../shared/corpus"), PathBuf::from)
}

fn formats() -> Vec<(&'static str, &'static dyn Adapter)> {
    vec![
        ("openai-chat", &OpenAi),
        ("openai-responses", &OpenAiResponses),
        ("anthropic", &Anthropic),
        ("gemini", &Gemini),
        ("bedrock", &Bedrock),
    ]
}

fn streams(folder: &str) -> Vec<PathBuf> {
    let dir = corpus().join("tool-traffic").join(folder).join("streams");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !p.ends_with("_provenance.json"))
        .collect();
    files.sort();
    files
}

fn json(text: &str) -> serde_json::Value {
    if text.trim().is_empty() {
        return serde_json::json!({});
    }
    serde_json::from_str(text).unwrap_or(serde_json::Value::String(text.to_owned()))
}

fn transcode(
    input: &[u8],
    from: &dyn Adapter,
    to: &dyn Adapter,
    output: Output,
) -> (Vec<u8>, tooladapter::Report) {
    let mut t = StreamTranscoder::new(from, to, &TrafficOptions::default())
        .expect("both formats stream")
        .with_output(output);
    let mut out = Vec::new();
    t.push(input, &mut out).unwrap_or_else(|e| panic!("{} -> {}: {e}", from.name(), to.name()));
    let report = t.finish(&mut out).expect("finishes").clone();
    (out, report)
}

#[test]
fn every_recorded_stream_to_every_format_keeps_its_calls() {
    let mut checked = 0;
    let mut calls_seen = 0;
    let mut differences = Vec::new();
    for (folder, from) in formats() {
        for path in streams(folder) {
            let input = std::fs::read(&path).expect("reads");
            let before = StreamTranscoder::assemble(&input, from)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            calls_seen += before.len();
            for (_, to) in formats() {
                for output in [Output::Sse, Output::Json] {
                    let (out, report) = transcode(&input, from, to, output);
                    let after = StreamTranscoder::assemble(&out, to).unwrap_or_else(|e| {
                        panic!("{} -> {}: output unreadable: {e}", path.display(), to.name())
                    });
                    let has = |code: Code| report.entries().iter().any(|e| e.code == code);
                    let expected: Vec<&AssembledCall> = before
                        .iter()
                        // A target that sends calls whole cannot send an incomplete one.
                        .filter(|c| {
                            c.complete || to.stream().is_some_and(|s| !s.grammar().whole_calls)
                        })
                        .collect();
                    if expected.len() != after.len() {
                        differences.push(format!(
                            "{} -> {}: {} calls in, {} out",
                            path.display(),
                            to.name(),
                            expected.len(),
                            after.len()
                        ));
                        continue;
                    }
                    for (a, b) in expected.iter().zip(&after) {
                        assert_eq!(a.name, b.name, "{} -> {}", path.display(), to.name());
                        assert_eq!(
                            a.complete,
                            b.complete,
                            "{} -> {}: {a:?} {b:?}",
                            path.display(),
                            to.name()
                        );
                        if a.complete {
                            assert_eq!(
                                json(&a.arguments),
                                json(&b.arguments),
                                "{} -> {}",
                                path.display(),
                                to.name()
                            );
                        } else {
                            assert_eq!(
                                a.arguments,
                                b.arguments,
                                "{} -> {}",
                                path.display(),
                                to.name()
                            );
                            assert!(
                                has(Code::CallIncomplete),
                                "{} -> {}: no entry",
                                path.display(),
                                to.name()
                            );
                        }
                        if a.id != b.id {
                            assert!(
                                has(Code::IdRewritten) || has(Code::IdAdded),
                                "{} -> {}: id {:?} became {:?} without an entry",
                                path.display(),
                                to.name(),
                                a.id,
                                b.id
                            );
                        }
                    }
                    if before.iter().any(|c| !c.complete) {
                        assert!(has(Code::CallIncomplete), "{} -> {}", path.display(), to.name());
                    }
                    checked += 1;
                }
            }
        }
    }
    eprintln!("{checked} transcodings checked, {calls_seen} calls in the recorded streams");
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(checked >= 114 * 5 * 2, "{checked}");
    assert!(calls_seen > 100, "{calls_seen}");
}

#[test]
fn mcp_streams_are_not_model_streams() {
    for path in streams("mcp") {
        let input = std::fs::read(&path).expect("reads");
        let err = StreamTranscoder::assemble(&input, &Mcp).err();
        assert!(matches!(err, Some(StreamError::Setup(_))), "{}", path.display());
    }
}
