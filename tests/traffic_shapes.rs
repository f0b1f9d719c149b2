//! What the providers' SDK types require of the traffic a conversion writes: each finding of
//! the SDK suite (`tests/sdk/traffic.py`, which validates every corpus payload's conversions
//! with the SDKs themselves) kept as a test `cargo test` runs without the SDKs, over every
//! source format that speaks the kind.

use serde_json::{Value, json};
use tooladapter::formats::{Anthropic, Bedrock, OpenAi, OpenAiResponses, builtins};
use tooladapter::traffic::TrafficKind;
use tooladapter::{Adapter, Code, Converter, ReportEntry, TrafficOptions};

fn formats_with(kind: TrafficKind) -> Vec<&'static dyn Adapter> {
    builtins()
        .iter()
        .copied()
        .filter(|a| a.traffic().is_some_and(|t| t.rules().kinds.contains(&kind)))
        .collect()
}

#[track_caller]
fn convert(
    from: &dyn Adapter,
    to: &dyn Adapter,
    kind: TrafficKind,
    input: &[u8],
) -> (Vec<u8>, Value, Vec<ReportEntry>) {
    let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
    let mut c = Converter::new();
    let out = c
        .convert_traffic(input, from, to, &options)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.name(), to.name()));
    let value = serde_json::from_slice(out.output()).expect("JSON");
    (out.output().to_vec(), value, out.report().entries().to_vec())
}

const CHAT_RESPONSE: &str = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"Checking.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}"#;

/// The members `to`'s SDK type requires of a response written from another format
/// (openai-python `ChatCompletion`/`CompletionUsage` and `Response`/`ResponseUsage`;
/// botocore's `ConverseResponse`; read 2026-11-28).
#[track_caller]
fn assert_required_members(to: &str, v: &Value, label: &str) {
    match to {
        "openai" => {
            if let Some(u) = v.get("usage") {
                let sum = u["prompt_tokens"].as_u64().unwrap_or(0)
                    + u["completion_tokens"].as_u64().unwrap_or(0);
                assert_eq!(u["total_tokens"].as_u64(), Some(sum), "{label}: {v}");
            }
        }
        "openai-responses" => {
            assert_eq!(v["parallel_tool_calls"], json!(true), "{label}: {v}");
            assert_eq!(v["tool_choice"], json!("auto"), "{label}: {v}");
            assert_eq!(v["tools"], json!([]), "{label}: {v}");
            if let Some(u) = v.get("usage") {
                assert!(u["input_tokens_details"]["cached_tokens"].is_u64(), "{label}: {v}");
                assert!(u["input_tokens_details"]["cache_write_tokens"].is_u64(), "{label}: {v}");
                assert!(u["output_tokens_details"]["reasoning_tokens"].is_u64(), "{label}: {v}");
                assert!(u["total_tokens"].is_u64(), "{label}: {v}");
            }
        }
        "bedrock" => {
            for key in ["inputTokens", "outputTokens", "totalTokens"] {
                assert!(v["usage"][key].is_u64(), "{label}: {key} in {v}");
            }
            assert_eq!(v["metrics"], json!({"latencyMs": 0}), "{label}: {v}");
        }
        _ => {}
    }
}

#[test]
fn every_response_written_from_elsewhere_has_the_members_its_type_requires() {
    let formats = formats_with(TrafficKind::Response);
    assert!(formats.len() >= 5);
    let mut checked = 0;
    for with_usage in [true, false] {
        let base = if with_usage {
            CHAT_RESPONSE.to_owned()
        } else {
            let mut v: Value = serde_json::from_str(CHAT_RESPONSE).expect("JSON");
            v.as_object_mut().expect("object").remove("usage");
            v.to_string()
        };
        for &from in &formats {
            // Each format's own response, made from the Chat one.
            let (own, _, _) = convert(&OpenAi, from, TrafficKind::Response, base.as_bytes());
            for &to in &formats {
                if to.name() == from.name() {
                    continue;
                }
                let (_, v, _) = convert(from, to, TrafficKind::Response, &own);
                let label = format!("{} -> {} (usage: {with_usage})", from.name(), to.name());
                assert_required_members(to.name(), &v, &label);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * formats.len() * (formats.len() - 1));
}

#[test]
fn an_assistants_text_is_a_plain_string_in_a_responses_input_message() {
    // An input message's content parts are input parts (`EasyInputMessageParam`); the
    // `output_text` parts an output message holds need its id and status.
    let calls = r#"{"role":"assistant","content":"Looking it up.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}"#;
    for from in formats_with(TrafficKind::Calls) {
        if from.name() == OpenAiResponses.name() || from.name() == "mcp" {
            continue;
        }
        let (own, _, _) = convert(&OpenAi, from, TrafficKind::Calls, calls.as_bytes());
        let (text, v, _) = convert(from, &OpenAiResponses, TrafficKind::Calls, &own);
        let message = v.as_array().and_then(|a| a.first()).expect("a list of items");
        assert_eq!(message["role"], json!("assistant"), "{}", from.name());
        assert_eq!(message["content"], json!("Looking it up."), "{}", from.name());
        // And read back as the same text.
        let (_, back, _) = convert(&OpenAiResponses, from, TrafficKind::Calls, &text);
        assert!(back.to_string().contains("Looking it up."), "{}: {back}", from.name());
    }
}

#[test]
fn a_responses_input_image_states_its_detail() {
    let results = r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"Here."},{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}]},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}"#;
    let (_, v, _) = convert(&Anthropic, &OpenAiResponses, TrafficKind::Results, results.as_bytes());
    let images: Vec<&Value> = v
        .as_array()
        .expect("items")
        .iter()
        .flat_map(|item| {
            let parts = item.get("output").or_else(|| item.get("content"));
            parts.and_then(Value::as_array).into_iter().flatten()
        })
        .filter(|p| p["type"] == "input_image")
        .collect();
    assert_eq!(images.len(), 2, "{v}");
    for image in images {
        assert_eq!(image["detail"], json!("auto"), "{v}");
    }
}

#[test]
fn a_base64_document_of_a_type_anthropic_does_not_read_is_left_out_with_an_entry() {
    // Anthropic's base64 document source is a PDF; a text file given as bytes has no place.
    let doc = |format: &str| {
        format!(
            r#"{{"role":"user","content":[{{"toolResult":{{"toolUseId":"t1","content":[{{"text":"See the file."}},{{"document":{{"format":"{format}","name":"notes","source":{{"bytes":"RHVtbXk="}}}}}}]}}}}]}}"#
        )
    };
    let (_, v, entries) =
        convert(&Bedrock, &Anthropic, TrafficKind::Results, doc("txt").as_bytes());
    // The text alone is left: Anthropic's string form of a result's content.
    assert_eq!(v["content"][0]["content"], json!("See the file."), "{v}");
    let dropped: Vec<&ReportEntry> =
        entries.iter().filter(|e| e.code == Code::ContentDropped).collect();
    assert_eq!(dropped.len(), 1, "{entries:?}");
    assert_eq!(dropped[0].pointer, "/content/0/toolResult/content/1");
    // A PDF is kept, as base64.
    let (_, v, entries) =
        convert(&Bedrock, &Anthropic, TrafficKind::Results, doc("pdf").as_bytes());
    let blocks = v["content"][0]["content"].as_array().expect("blocks").clone();
    let kept = blocks.iter().find(|b| b["type"] == "document").expect("the PDF");
    assert_eq!(kept["source"]["media_type"], json!("application/pdf"), "{v}");
    assert!(entries.iter().all(|e| e.code != Code::ContentDropped), "{entries:?}");
}

#[test]
fn a_bedrock_request_whose_tools_were_all_left_out_has_no_tool_config() {
    // Bedrock's `toolConfig.tools` holds at least one tool: the definitions conversion left
    // the only one out (a built-in with no Bedrock counterpart), with its error entry.
    let request = r#"{"model":"claude-sonnet-4-5","max_tokens":100,"tools":[{"type":"memory_20250818","name":"memory"}],"tool_choice":{"type":"auto"},"messages":[{"role":"user","content":"Hi"}]}"#;
    let (_, v, entries) = convert(&Anthropic, &Bedrock, TrafficKind::Messages, request.as_bytes());
    assert!(v.get("toolConfig").is_none(), "{v}");
    assert!(entries.iter().any(|e| e.severity == tooladapter::Severity::Error), "{entries:?}");
}
