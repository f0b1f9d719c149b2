//! Tool traffic (`Converter::convert_traffic`) on the suite's own fixtures: calls, results,
//! conversations and responses between the formats that speak traffic, exact numbers, ids,
//! maps, what the report says, errors and their pointers, and round trips over the
//! traffic-capable formats of `formats::builtins()`.

use serde_json::{Value, json};
use tooladapter::TrafficOptions;
use tooladapter::formats::{Anthropic, Bedrock, Gemini, Mcp, OpenAi, OpenAiResponses, builtins};
use tooladapter::traffic::{IdRule, TrafficKind};
use tooladapter::{Adapter, Code, Converter, Options, ReportEntry, Strict};

/// The formats that speak traffic, from the one list of formats.
fn traffic_formats() -> Vec<&'static dyn Adapter> {
    builtins().iter().copied().filter(|a| a.traffic().is_some()).collect()
}

struct Out {
    value: Value,
    text: String,
    entries: Vec<ReportEntry>,
}

#[track_caller]
fn convert(from: &dyn Adapter, to: &dyn Adapter, kind: TrafficKind, input: &str) -> Out {
    let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
    convert_with(from, to, input, &options)
}

#[track_caller]
fn convert_with(
    from: &dyn Adapter,
    to: &dyn Adapter,
    input: &str,
    options: &TrafficOptions<'_>,
) -> Out {
    let mut c = Converter::new();
    let out = c
        .convert_traffic(input.as_bytes(), from, to, options)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.name(), to.name()));
    let text = out.output_str().to_owned();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    Out { value, text, entries: out.report().entries().to_vec() }
}

fn codes(entries: &[ReportEntry]) -> Vec<Code> {
    entries.iter().map(|e| e.code).collect()
}

const CHAT_CALLS: &str = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_sf","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"San Francisco, CA\",\"n\":9007199254740993,\"x\":1.50}"}},{"id":"call_nyc","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"New York, NY\"}"}}]}"#;

#[test]
fn openai_parallel_calls_become_anthropic_tool_use_blocks_with_exact_numbers() {
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Calls, CHAT_CALLS);
    assert_eq!(
        out.text,
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"call_sf","name":"get_weather","input":{"location":"San Francisco, CA","n":9007199254740993,"x":1.50}},{"type":"tool_use","id":"call_nyc","name":"get_weather","input":{"location":"New York, NY"}}]}"#
    );
    assert!(out.entries.is_empty(), "{:?}", out.entries);
    // And back: the arguments are a JSON string again, the numbers as they were written.
    let back = convert(&Anthropic, &OpenAi, TrafficKind::Calls, &out.text);
    let args = back.value["tool_calls"][0]["function"]["arguments"].as_str().unwrap_or_default();
    assert_eq!(args, r#"{"location":"San Francisco, CA","n":9007199254740993,"x":1.50}"#);
    assert_eq!(back.value["tool_calls"][1]["id"], "call_nyc");
    assert_eq!(back.value["content"], Value::Null);
}

#[test]
fn text_next_to_calls_travels_in_order() {
    let anthropic = r#"{"role":"assistant","content":[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}]}"#;
    let out = convert(&Anthropic, &OpenAi, TrafficKind::Calls, anthropic);
    assert_eq!(out.value["content"], "Let me check.");
    assert_eq!(out.value["tool_calls"][0]["function"]["arguments"], "{}");
    let back = convert(&OpenAi, &Anthropic, TrafficKind::Calls, &out.text);
    assert_eq!(back.value["content"][0], json!({"type":"text","text":"Let me check."}));
    assert_eq!(back.value["content"][1]["input"], json!({}));
}

#[test]
fn results_group_and_ungroup_between_one_message_and_one_message_per_result() {
    let anthropic = r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"65F"},{"type":"tool_result","tool_use_id":"toolu_b","content":[{"type":"text","text":"45F"}],"is_error":true},{"type":"text","text":"Now compare them."}]}"#;
    let out = convert(&Anthropic, &OpenAi, TrafficKind::Results, anthropic);
    assert_eq!(
        out.value,
        json!([
            {"role":"tool","tool_call_id":"toolu_a","content":"65F"},
            {"role":"tool","tool_call_id":"toolu_b","content":"45F"},
            {"role":"user","content":"Now compare them."}
        ])
    );
    // OpenAI has no error flag: the report says so, and how the result is sent.
    let e = out.entries.iter().find(|e| e.code == Code::ErrorNotFlagged).expect("an entry");
    assert_eq!(e.pointer, "/content/1");
    assert_eq!(e.severity, tooladapter::Severity::Warning);
    assert!(e.message.contains("content alone"), "{}", e.message);
    // OpenAI's tool messages back to one Anthropic user message, results first.
    let back = convert(&OpenAi, &Anthropic, TrafficKind::Results, &out.text);
    assert_eq!(back.value["content"][0]["tool_use_id"], "toolu_a");
    assert_eq!(back.value["content"][1]["tool_use_id"], "toolu_b");
    assert_eq!(back.value["content"][2], json!({"type":"text","text":"Now compare them."}));
}

#[test]
fn an_image_in_a_result_is_reported_where_results_are_text_only() {
    let anthropic = r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"Here:"},{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}]}]}"#;
    let out = convert(&Anthropic, &OpenAi, TrafficKind::Results, anthropic);
    assert_eq!(out.value, json!({"role":"tool","tool_call_id":"toolu_1","content":"Here:"}));
    let e = out.entries.iter().find(|e| e.code == Code::ContentDropped).expect("an entry");
    assert_eq!((e.pointer.as_str(), e.feature.as_str()), ("/content/0/content/1", "image"));
    assert_eq!(e.severity, tooladapter::Severity::Warning);
}

#[test]
fn the_same_format_writes_its_source_back_byte_for_byte() {
    let inputs: [(&dyn Adapter, TrafficKind, &str); 4] = [
        (&OpenAi, TrafficKind::Calls, CHAT_CALLS),
        (
            &OpenAi,
            TrafficKind::Results,
            r#"{"content":"sunny","role":"tool","tool_call_id":"call_1","extra":{"kept":[1.50,true]}}"#,
        ),
        (
            &Anthropic,
            TrafficKind::Calls,
            r#"{"content":[{"id":"toolu_1","input":{"a":1.0e-7},"name":"t","type":"tool_use","caller":{"type":"direct"}}],"role":"assistant"}"#,
        ),
        (
            &Anthropic,
            TrafficKind::Messages,
            r#"{"max_tokens":10,"messages":[{"role":"user","content":"hi \"you\"\n"}],"system":"s"}"#,
        ),
    ];
    for (format, kind, input) in inputs {
        let out = convert(format, format, kind, input);
        assert_eq!(out.text, input, "{}", format.name());
        assert!(out.entries.is_empty());
    }
    // The one normalization: an escape the writer would not write (`\u00e9` for `é`) is
    // written as its character.
    let escaped = r#"{"role":"tool","tool_call_id":"c","content":"caf\u00e9 \/ 20\u00b0C"}"#;
    let out = convert(&OpenAi, &OpenAi, TrafficKind::Results, escaped);
    assert_eq!(out.text, r#"{"role":"tool","tool_call_id":"c","content":"café / 20°C"}"#);
    // Pretty output indents as two-space JSON does.
    let pretty = TrafficOptions {
        kind: Some(TrafficKind::Calls),
        options: Options::default().pretty(true),
        ..TrafficOptions::default()
    };
    let out = convert_with(&OpenAi, &OpenAi, CHAT_CALLS, &pretty);
    let expected: Value = serde_json::from_str(CHAT_CALLS).unwrap_or_default();
    assert_eq!(out.value, expected);
    assert!(out.text.contains("\n  \"tool_calls\": ["), "{}", out.text);
}

#[test]
fn members_another_format_has_no_place_for_are_reported() {
    let calls = r#"{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[{"id":"c","index":0,"type":"function","function":{"name":"t","arguments":"{}"}}],"reasoning_content":"thinking..."}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Calls, calls);
    // Members that hold nothing go without an entry; `index` and the reasoning are reported.
    let found: Vec<(&str, Code)> =
        out.entries.iter().map(|e| (e.pointer.as_str(), e.code)).collect();
    assert_eq!(
        found,
        [
            ("/reasoning_content", Code::ReasoningDropped),
            ("/tool_calls/0/index", Code::ContentDropped)
        ]
    );
}

#[test]
fn tool_choice_and_parallel_calls_are_said_the_targets_way() {
    let body = r#"{"messages":[{"role":"user","content":"hi"}],"tool_choice":"required","parallel_tool_calls":false}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Messages, body);
    assert_eq!(out.value["tool_choice"], json!({"type":"any","disable_parallel_tool_use":true}));
    let back = convert(&Anthropic, &OpenAi, TrafficKind::Messages, &out.text);
    assert_eq!(back.value["tool_choice"], "required");
    assert_eq!(back.value["parallel_tool_calls"], false);
    let named = r#"{"messages":[],"tool_choice":{"type":"function","function":{"name":"lookup"}}}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Messages, named);
    assert_eq!(out.value["tool_choice"], json!({"type":"tool","name":"lookup"}));
}

#[test]
fn a_conversation_moves_system_text_and_reports_calls_left_without_results() {
    let body = r#"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"weather?"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"w","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"w","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"sunny"},{"role":"user","content":"thanks"}]}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Messages, body);
    assert_eq!(out.value["system"], json!([{"type":"text","text":"Be brief."}]));
    assert_eq!(out.value["messages"].as_array().map(Vec::len), Some(4));
    let unanswered: Vec<&ReportEntry> =
        out.entries.iter().filter(|e| e.code == Code::WouldBeRejected).collect();
    assert_eq!(unanswered.len(), 1, "{:?}", out.entries);
    assert!(unanswered[0].message.contains("`b`"), "{}", unanswered[0].message);
    assert_eq!(unanswered[0].pointer, "/messages/2");
}

#[test]
fn ids_the_target_refuses_are_rewritten_alike_in_calls_and_results() {
    let calls = r#"{"role":"assistant","tool_calls":[{"id":"functions.get_temperature:0","type":"function","function":{"name":"t","arguments":"{}"}}]}"#;
    let results = r#"{"role":"tool","tool_call_id":"functions.get_temperature:0","content":"20C"}"#;
    let c = convert(&OpenAi, &Anthropic, TrafficKind::Calls, calls);
    let r = convert(&OpenAi, &Anthropic, TrafficKind::Results, results);
    let id = c.value["content"][0]["id"].as_str().unwrap_or_default().to_owned();
    assert_eq!(r.value["content"][0]["tool_use_id"], id.as_str());
    let anthropic = IdRule { ..tooladapter::formats::rules::anthropic::IDS };
    assert!(anthropic.accepts(&id) && id != "functions.get_temperature:0", "{id}");
    assert_eq!(codes(&c.entries), [Code::IdRewritten]);
    // The conversion's id map gives the original back.
    let mut converter = Converter::new();
    let options = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let ids = converter
        .convert_traffic(calls.as_bytes(), &OpenAi, &Anthropic, &options)
        .map(|c| c.ids().clone());
    let ids = ids.unwrap_or_default();
    assert_eq!(ids.original(&id), Some("functions.get_temperature:0"));
    let given_back = TrafficOptions {
        kind: Some(TrafficKind::Results),
        ids: Some(&ids),
        ..TrafficOptions::default()
    };
    let back = convert_with(&Anthropic, &OpenAi, &r.text, &given_back);
    assert_eq!(back.value["tool_call_id"], "functions.get_temperature:0");
}

#[test]
fn calls_without_ids_get_one_that_their_results_get_too() {
    let calls = r#"{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"t","arguments":"{}"}},{"id":"","type":"function","function":{"name":"t","arguments":"{}"}}]}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Calls, calls);
    let a = out.value["content"][0]["id"].as_str().unwrap_or_default();
    let b = out.value["content"][1]["id"].as_str().unwrap_or_default();
    assert!(!a.is_empty() && !b.is_empty() && a != b, "{a} {b}");
    assert_eq!(codes(&out.entries), [Code::IdAdded, Code::IdAdded]);
    // The same conversion again gives the same ids (nothing random, nothing shared).
    assert_eq!(convert(&OpenAi, &Anthropic, TrafficKind::Calls, calls).text, out.text);
    // A stricter rule (an endpoint that wants nine alphanumerics) is obeyed.
    let nine = TrafficOptions {
        kind: Some(TrafficKind::Calls),
        id_rule: Some(tooladapter::formats::rules::openai::NINE_ALPHANUMERIC_IDS),
        ..TrafficOptions::default()
    };
    let out = convert_with(
        &Anthropic,
        &OpenAi,
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01A","name":"t","input":{}}]}"#,
        &nine,
    );
    let id = out.value["tool_calls"][0]["id"].as_str().unwrap_or_default();
    assert!(id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric()), "{id}");
}

/// A definitions conversion that renames a tool and, strict, widens an optional property.
fn definitions_map() -> tooladapter::Inverse {
    let mcp = br#"{"tools":[{"name":"get.weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string"}},"required":["city"]}}]}"#;
    let mut c = Converter::new();
    let conversion = c.convert(mcp, &Mcp, &OpenAi, &Options::default().strict(Strict::On));
    let inverse = conversion.map(|c| c.inverse().clone()).unwrap_or_default();
    assert!(!inverse.is_empty());
    inverse
}

#[test]
fn calls_coming_back_get_the_sources_names_and_arguments() {
    let map = definitions_map();
    let target_name = map.tools[0].name.clone();
    let calls = format!(
        r#"{{"role":"assistant","tool_calls":[{{"id":"call_1","type":"function","function":{{"name":"{target_name}","arguments":"{{\"city\":\"Paris\",\"units\":null}}"}}}}]}}"#
    );
    let options = TrafficOptions {
        kind: Some(TrafficKind::Calls),
        map: Some(&map),
        ..TrafficOptions::default()
    };
    // OpenAI back to OpenAI (the map's target is the source): the same format, patched.
    let out = convert_with(&OpenAi, &OpenAi, &calls, &options);
    assert_eq!(out.value["tool_calls"][0]["function"]["name"], "get.weather");
    assert_eq!(out.value["tool_calls"][0]["function"]["arguments"], r#"{"city":"Paris"}"#);
    assert_eq!(codes(&out.entries), [Code::CallMapped]);
}

#[test]
fn history_replayed_forward_gets_the_targets_names_and_argument_shape() {
    let map = definitions_map();
    let anthropic = r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get.weather","input":{"city":"Paris"}}]}"#;
    let options = TrafficOptions {
        kind: Some(TrafficKind::Calls),
        map: Some(&map),
        ..TrafficOptions::default()
    };
    let out = convert_with(&Anthropic, &OpenAi, anthropic, &options);
    assert_eq!(out.value["tool_calls"][0]["function"]["name"], map.tools[0].name.as_str());
    assert_eq!(
        out.value["tool_calls"][0]["function"]["arguments"],
        r#"{"city":"Paris","units":null}"#
    );
}

#[test]
fn a_request_bodys_tools_go_through_the_definitions_conversion_and_its_map() {
    let body = r#"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bad name!","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}],"tools":[{"type":"function","function":{"name":"bad name!","parameters":{"type":"object"}}}]}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Messages, body);
    let tool_name = out.value["tools"][0]["name"].as_str().unwrap_or_default();
    assert!(
        tool_name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
        "{tool_name}"
    );
    // The history's call takes the tool's new name.
    assert_eq!(out.value["messages"][0]["content"][0]["name"], tool_name);
    // The definitions' entries are placed in the body.
    let renamed = out.entries.iter().find(|e| e.code == Code::ToolRenamed).expect("renamed");
    assert!(renamed.pointer.starts_with("/tools/0"), "{}", renamed.pointer);
    assert!(out.entries.iter().any(|e| e.code == Code::ContentDropped && e.pointer == "/model"));
}

#[test]
fn a_response_becomes_the_targets_response() {
    let chat = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-x","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"t","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}"#;
    let out = convert(&OpenAi, &Anthropic, TrafficKind::Response, chat);
    assert_eq!(out.value["stop_reason"], "tool_use");
    assert_eq!(out.value["id"], "chatcmpl-1");
    assert_eq!(out.value["usage"], json!({"input_tokens":10,"output_tokens":5}));
    assert_eq!(out.value["content"][0]["input"], json!({"a":1}));
    let back = convert(&Anthropic, &OpenAi, TrafficKind::Response, &out.text);
    assert_eq!(back.value["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(back.value["usage"]["prompt_tokens"], 10);
}

#[test]
fn arguments_that_are_not_json_are_an_error_at_the_call() {
    let calls = r#"{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{\"a\":"}}]}"#;
    let mut c = Converter::new();
    let options = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let err =
        c.convert_traffic(calls.as_bytes(), &OpenAi, &Anthropic, &options).map(|_| ()).unwrap_err();
    assert_eq!(err.pointer(), "/tool_calls/0");
    assert!(err.to_string().contains("arguments are not JSON"), "{err}");
    // OpenAI to OpenAI leaves the text alone: nothing needs to read it.
    assert!(c.convert_traffic(calls.as_bytes(), &OpenAi, &OpenAi, &options).is_ok());
}

#[test]
fn the_kind_is_told_from_the_shape_and_a_bad_shape_is_an_error_with_its_place() {
    let mut c = Converter::new();
    let options = TrafficOptions::default();
    for (input, kind) in [
        (CHAT_CALLS, TrafficKind::Calls),
        (r#"{"role":"tool","tool_call_id":"a","content":"x"}"#, TrafficKind::Results),
        (r#"[{"role":"tool","tool_call_id":"a","content":"x"}]"#, TrafficKind::Results),
        (r#"{"messages":[]}"#, TrafficKind::Messages),
        (r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#, TrafficKind::Response),
    ] {
        let out = c.convert_traffic(input.as_bytes(), &OpenAi, &Anthropic, &options);
        assert_eq!(out.map(|o| o.kind()).ok().flatten(), Some(kind), "{input}");
    }
    let err = c.convert_traffic(br#"{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}"#, &OpenAi, &Anthropic, &options);
    let err = err.map(|_| ()).unwrap_err();
    assert_eq!(err.pointer(), "/tool_calls/0/function");
    assert!(err.to_string().contains("`name`"), "{err}");
    let err = c.convert_traffic(b"[1,2]", &OpenAi, &Anthropic, &options).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("give the kind"), "{err}");
}

#[test]
fn every_traffic_format_round_trips_a_calls_turn_through_every_other() {
    let formats = traffic_formats();
    assert!(formats.len() >= 2, "traffic formats: {}", formats.len());
    for from in &formats {
        // Each format's own calls turn: made from OpenAI's.
        let own = convert(&OpenAi, *from, TrafficKind::Calls, CHAT_CALLS);
        for to in &formats {
            let there = convert(*from, *to, TrafficKind::Calls, &own.text);
            let back = convert(*to, *from, TrafficKind::Calls, &there.text);
            let calls = |out: &Out| {
                convert(*from, &OpenAi, TrafficKind::Calls, &out.text).value["tool_calls"].clone()
            };
            let (a, b) = (calls(&own), calls(&back));
            assert_eq!(
                a.as_array().map(Vec::len),
                b.as_array().map(Vec::len),
                "{} -> {}",
                from.name(),
                to.name()
            );
            for (x, y) in a.as_array().into_iter().flatten().zip(b.as_array().into_iter().flatten())
            {
                assert_eq!(x["function"]["name"], y["function"]["name"]);
                let parse = |v: &Value| {
                    serde_json::from_str::<Value>(v.as_str().unwrap_or("{}")).unwrap_or_default()
                };
                assert_eq!(parse(&x["function"]["arguments"]), parse(&y["function"]["arguments"]));
                assert_eq!(x["id"], y["id"], "{} -> {}", from.name(), to.name());
            }
        }
    }
}

#[test]
fn gemini_calls_without_ids_and_their_results_get_the_same_ids_in_separate_conversions() {
    let calls = r#"{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2ln"},{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}]}"#;
    let results = r#"{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":"sunny"}}},{"functionResponse":{"name":"get_weather","response":{"error":"no station"}}}]}"#;
    let c = convert(&Gemini, &OpenAi, TrafficKind::Calls, calls);
    let r = convert(&Gemini, &OpenAi, TrafficKind::Results, results);
    let call_ids: Vec<&Value> =
        c.value["tool_calls"].as_array().into_iter().flatten().map(|c| &c["id"]).collect();
    let result_ids: Vec<&Value> =
        r.value.as_array().into_iter().flatten().map(|r| &r["tool_call_id"]).collect();
    assert_eq!(call_ids.len(), 2);
    assert_eq!(call_ids, result_ids);
    assert_ne!(call_ids[0], call_ids[1]);
    // The signature is Gemini's alone; the error member is a failed result.
    assert!(
        c.entries
            .iter()
            .any(|e| e.code == Code::ReasoningDropped && e.feature == "thoughtSignature")
    );
    let a = convert(&Gemini, &Anthropic, TrafficKind::Results, results);
    assert_eq!(a.value["content"][1]["is_error"], true);
    assert_eq!(a.value["content"][1]["content"], "no station");
    assert_eq!(a.value["content"][0]["content"], "sunny");
}

#[test]
fn gemini_proto_field_names_are_read_and_json_names_written() {
    let snake = r#"{"role":"model","parts":[{"function_call":{"args":{"a":1},"id":"x1","name":"t"},"thought_signature":"c2ln"}]}"#;
    let out = convert(&Gemini, &Gemini, TrafficKind::Calls, snake);
    assert_eq!(out.text, snake, "the same format writes its source back");
    let via = convert(
        &Anthropic,
        &Gemini,
        TrafficKind::Calls,
        &convert(&Gemini, &Anthropic, TrafficKind::Calls, snake).text,
    );
    assert_eq!(via.value["parts"][0]["functionCall"], json!({"name":"t","args":{"a":1},"id":"x1"}));
}

#[test]
fn calls_from_elsewhere_reach_gemini_with_the_documented_placeholder_signature() {
    let out = convert(&OpenAi, &Gemini, TrafficKind::Calls, CHAT_CALLS);
    let placeholder = tooladapter::formats::rules::gemini::PLACEHOLDER_SIGNATURE;
    assert_eq!(out.value["parts"][0]["thoughtSignature"], placeholder);
    assert_eq!(
        out.value["parts"][1].get("thoughtSignature"),
        None,
        "only the first of parallel calls"
    );
}

#[test]
fn results_reach_gemini_named_from_their_calls() {
    // Read alone, an OpenAI result does not name its tool, which Gemini requires.
    let result = r#"{"role":"tool","tool_call_id":"call_sf","content":"{\"temp\":20}"}"#;
    let mut c = Converter::new();
    let options = TrafficOptions { kind: Some(TrafficKind::Results), ..TrafficOptions::default() };
    let err =
        c.convert_traffic(result.as_bytes(), &OpenAi, &Gemini, &options).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("TrafficOptions::ids"), "{err}");
    // The ids its calls' conversion wrote name it.
    let calls_options =
        TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let ids = c
        .convert_traffic(CHAT_CALLS.as_bytes(), &OpenAi, &Gemini, &calls_options)
        .map(|c| c.ids().clone());
    let ids = ids.unwrap_or_default();
    let named = TrafficOptions {
        kind: Some(TrafficKind::Results),
        ids: Some(&ids),
        ..TrafficOptions::default()
    };
    let out = convert_with(&OpenAi, &Gemini, result, &named);
    // A result whose text is a JSON object is sent as that object.
    assert_eq!(
        out.value["parts"][0]["functionResponse"],
        json!({"id":"call_sf","name":"get_weather","response":{"temp":20}})
    );
    // In a conversation, the call names its result.
    let body = r#"{"messages":[{"role":"assistant","tool_calls":[{"id":"call_sf","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_sf","content":"sunny"}]}"#;
    let out = convert(&OpenAi, &Gemini, TrafficKind::Messages, body);
    assert_eq!(out.value["contents"][1]["parts"][0]["functionResponse"]["name"], "get_weather");
}

#[test]
fn bedrock_results_carry_status_json_and_documents() {
    let bedrock = r#"{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"json":{"temp":20}},{"text":"ok"}],"status":"error"}},{"text":"And this file:"},{"document":{"format":"pdf","name":"Report","source":{"bytes":"JVBERi0="}}}]}"#;
    let a = convert(&Bedrock, &Anthropic, TrafficKind::Results, bedrock);
    assert_eq!(a.value["content"][0]["is_error"], true);
    // Anthropic results hold no JSON block: its text is sent, and the report says so.
    assert_eq!(a.value["content"][0]["content"][0], json!({"type":"text","text":"{\"temp\":20}"}));
    assert!(a.entries.iter().any(|e| e.code == Code::ContentRewritten && e.feature == "json"));
    assert_eq!(
        a.value["content"][2],
        json!({"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0="},"title":"Report"})
    );
    let back = convert(&Anthropic, &Bedrock, TrafficKind::Results, &a.text);
    assert_eq!(back.value["content"][0]["toolResult"]["status"], "error");
    assert_eq!(
        back.value["content"][2]["document"],
        json!({"format":"pdf","name":"Report","source":{"bytes":"JVBERi0="}})
    );
}

#[test]
fn bedrock_has_no_none_tool_choice_and_takes_ids_of_at_most_64_characters() {
    let body = r#"{"messages":[{"role":"user","content":"hi"}],"tool_choice":"none"}"#;
    let out = convert(&OpenAi, &Bedrock, TrafficKind::Messages, body);
    assert_eq!(out.value.get("toolConfig"), None);
    let e = out.entries.iter().find(|e| e.code == Code::ToolChoiceChanged).expect("an entry");
    assert_eq!((e.pointer.as_str(), e.severity), ("/tool_choice", tooladapter::Severity::Warning));
    let long = "x".repeat(70);
    let calls = format!(
        r#"{{"role":"assistant","tool_calls":[{{"id":"{long}","type":"function","function":{{"name":"t","arguments":"{{}}"}}}}]}}"#
    );
    let out = convert(&OpenAi, &Bedrock, TrafficKind::Calls, &calls);
    let id = out.value["content"][0]["toolUse"]["toolUseId"].as_str().unwrap_or_default();
    assert!(id.len() <= 64 && tooladapter::formats::rules::bedrock::IDS.accepts(id), "{id}");
}

#[test]
fn responses_items_group_into_turns_and_back() {
    let input = r#"{"instructions":"Be brief.","input":[{"role":"user","content":"weather?"},{"type":"function_call","call_id":"call_a","name":"w","arguments":"{\"c\":\"Paris\"}"},{"type":"function_call","call_id":"call_b","name":"w","arguments":"{\"c\":\"Rome\"}"},{"type":"function_call_output","call_id":"call_a","output":"sunny"},{"type":"function_call_output","call_id":"call_b","output":[{"type":"input_text","text":"rain"},{"type":"input_image","image_url":"https://example.com/r.png"}]}],"tool_choice":{"type":"function","name":"w"},"parallel_tool_calls":false}"#;
    let out = convert(&OpenAiResponses, &Anthropic, TrafficKind::Messages, input);
    assert_eq!(out.value["system"], json!([{"type":"text","text":"Be brief."}]));
    let messages = out.value["messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert_eq!(messages[1]["content"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        messages[2]["content"][1]["content"][1]["source"],
        json!({"type":"url","url":"https://example.com/r.png"})
    );
    assert_eq!(
        out.value["tool_choice"],
        json!({"type":"tool","name":"w","disable_parallel_tool_use":true})
    );
    let back = convert(&Anthropic, &OpenAiResponses, TrafficKind::Messages, &out.text);
    assert_eq!(back.value["instructions"], "Be brief.");
    assert_eq!(back.value["input"].as_array().map(Vec::len), Some(5));
    assert_eq!(
        back.value["input"][2],
        json!({"type":"function_call","call_id":"call_b","name":"w","arguments":"{\"c\":\"Rome\"}"})
    );
    assert_eq!(back.value["tool_choice"], json!({"type":"function","name":"w"}));
}

#[test]
fn a_custom_tool_calls_free_text_is_reported_where_calls_take_json() {
    let custom = r#"{"type":"custom_tool_call","call_id":"call_1","name":"write_note","input":"Fixed the stream."}"#;
    let out = convert(&OpenAiResponses, &Anthropic, TrafficKind::Calls, custom);
    assert_eq!(out.value["content"][0]["input"], json!({"input":"Fixed the stream."}));
    let e = out.entries.iter().find(|e| e.code == Code::ContentRewritten).expect("an entry");
    assert_eq!((e.effect, e.arguments), (tooladapter::Effect::Changes, true));
    // Between Responses payloads the custom call stays one.
    let same = convert(&OpenAiResponses, &OpenAiResponses, TrafficKind::Calls, custom);
    assert_eq!(same.text, custom);
}

#[test]
fn mcp_calls_and_results_travel_with_their_json_rpc_ids() {
    let request = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"inc","arguments":{"x":3},"_meta":{"progressToken":1}}}"#;
    let out = convert(&Mcp, &OpenAi, TrafficKind::Calls, request);
    assert_eq!(out.value["tool_calls"][0]["id"], "7");
    assert_eq!(out.value["tool_calls"][0]["function"]["arguments"], r#"{"x":3}"#);
    assert!(out.entries.iter().any(|e| e.pointer == "/params/_meta"));
    // Back to MCP: the id is a number again (digits alone are written as one).
    let back = convert(&OpenAi, &Mcp, TrafficKind::Calls, &out.text);
    assert_eq!(
        back.value,
        json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"inc","arguments":{"x":3}}})
    );
    // Parallel calls are a batch of requests.
    let batch = convert(&OpenAi, &Mcp, TrafficKind::Calls, CHAT_CALLS);
    assert_eq!(batch.value[1]["id"], "call_nyc");
    // A JSON-RPC error is a failed result; structured content rides where the target has JSON.
    let error = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: x"}}"#;
    let a = convert(&Mcp, &Anthropic, TrafficKind::Results, error);
    assert_eq!(
        a.value["content"][0],
        json!({"type":"tool_result","tool_use_id":"3","content":"Unknown tool: x","is_error":true})
    );
    let structured = r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[{"type":"text","text":"{\"y\":4}"}],"structuredContent":{"y":4}}}"#;
    let b = convert(&Mcp, &Bedrock, TrafficKind::Results, structured);
    assert_eq!(b.value["content"][0]["toolResult"]["content"][1], json!({"json":{"y":4}}));
    let back = convert(&Bedrock, &Mcp, TrafficKind::Results, &b.text);
    assert_eq!(back.value["result"]["structuredContent"], json!({"y":4}));
    let o = convert(&Mcp, &OpenAi, TrafficKind::Results, structured);
    assert_eq!(o.value["content"], "{\"y\":4}");
    assert!(
        o.entries
            .iter()
            .any(|e| e.code == Code::ContentRewritten && e.feature == "structuredContent")
    );
}

#[test]
fn mcp_holds_calls_and_results_only() {
    let mut c = Converter::new();
    let options = TrafficOptions { kind: Some(TrafficKind::Messages), ..TrafficOptions::default() };
    let err =
        c.convert_traffic(br#"{"messages":[]}"#, &OpenAi, &Mcp, &options).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("no messages payloads"), "{err}");
    // A call without params or with a name that is not a string is an error at its place.
    let calls = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let err = c.convert_traffic(
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":123}}"#,
        &Mcp,
        &OpenAi,
        &calls,
    );
    assert_eq!(err.map(|_| ()).unwrap_err().pointer(), "/params/name");
}

/// Every conversation rule of every traffic format says where it comes from and when that
/// was read (`YYYY-MM-DD`), as the definitions' rules do.
#[test]
fn every_traffic_rule_cites_a_dated_source() {
    let dated = |s: &str| {
        s.as_bytes().windows(10).any(|w| {
            w.iter()
                .enumerate()
                .all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
        })
    };
    for f in traffic_formats() {
        let rules = f.traffic().expect("traffic").rules();
        let mut sources = vec![rules.choice.source];
        if !rules.ids.pattern.is_empty() {
            sources.push(rules.ids.source);
        }
        sources.extend(rules.conversation.iter().map(|r| r.source));
        assert!(!rules.conversation.is_empty(), "{}", f.name());
        for s in sources {
            assert!(dated(s), "{}: {s}", f.name());
        }
    }
}

/// docs/traffic.md's first example, as written there.
#[test]
fn the_docs_example_converts_as_docs_traffic_md_says() {
    let calls = br#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}"#;
    let mut c = Converter::new();
    let options = TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
    let out = c.convert_traffic(calls, &OpenAi, &Anthropic, &options).expect("converts");
    assert_eq!(
        out.output_str(),
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}]}"#
    );
    assert!(out.report().is_empty());
}

/// The `traffic` fuzz target's seeds (`fuzz/seeds/traffic/`, a pick byte then a payload),
/// replayed under plain `cargo test` through every pair of traffic formats with the target's
/// oracle: what converts is JSON that the target's own reader reads back.
#[test]
fn the_traffic_fuzz_seeds_hold_the_targets_oracle_for_every_pair() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/traffic");
    let formats = traffic_formats();
    let mut c = Converter::new();
    let (mut seeds, mut converted) = (0, 0);
    for seed in std::fs::read_dir(root).expect("fuzz/seeds/traffic") {
        let bytes = std::fs::read(seed.expect("entry").path()).expect("seed");
        let input = bytes.get(1..).unwrap_or_default();
        seeds += 1;
        for from in &formats {
            for to in &formats {
                let Ok(out) = c.convert_traffic(input, *from, *to, &TrafficOptions::default())
                else {
                    continue;
                };
                converted += 1;
                let output = out.output().to_vec();
                let same = TrafficOptions { kind: out.kind(), ..TrafficOptions::default() };
                serde_json::from_slice::<Value>(&output).expect("JSON");
                if let Err(e) = c.convert_traffic(&output, *to, *to, &same) {
                    panic!("{} -> {}: {e}", from.name(), to.name());
                }
            }
        }
    }
    assert!(seeds >= 7 && converted >= 7, "{seeds} seeds, {converted} conversions");
}
