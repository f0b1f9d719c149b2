//! `tooladapter traffic` end to end: the gateway loop (definitions converted with a map, the
//! model's calls mapped back, the tool's results sent forward), reports, `--deny-loss`, the
//! values the flags take and the exit codes, which are `convert`'s.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let (code, out, err) = bin::run(args, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tooladapter-traffic-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const CALLS: &[u8] = br#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"n\":9007199254740993,\"x\":1.50}"}}]}"#;

#[test]
fn calls_convert_from_stdin_with_exact_numbers_and_no_report_when_nothing_is_lost() {
    let (code, out, err) = run(&["traffic", "--from", "OpenAI", "--to", "anthropic"], CALLS);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"get_weather\",\"input\":{\"city\":\"Paris\",\"n\":9007199254740993,\"x\":1.50}}]}\n"
    );
    assert_eq!(err, "");
}

#[test]
fn the_gateway_loop_maps_calls_back_and_results_forward() {
    let dir = temp_dir("loop");
    let (tools, map) = (dir.join("tools.json"), dir.join("map.json"));
    std::fs::write(&tools, br#"{"tools":[{"name":"files.read","inputSchema":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}}]}"#).expect("write");
    let (tools, map) = (tools.to_str().expect("utf-8"), map.to_str().expect("utf-8"));
    // 1. The definitions, for the provider, with the map.
    let (code, out, err) = run(
        &["convert", "--from", "mcp", "--to", "openai", "--strict", "--map-out", map, tools],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("files_read"), "{out}");
    // 2. The model's call, back in the MCP server's terms: its name and arguments (the null
    //    strict mode made the model send for the optional `limit` left out).
    let call = br#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"files_read","arguments":"{\"path\":\"/a\",\"limit\":null}"}}]}"#;
    let (code, out, err) = run(
        &["traffic", "--from", "openai", "--to", "mcp", "--map", map, "--report", "json"],
        call,
    );
    assert_eq!(code, 0, "{err}");
    let request: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        request,
        json!({"jsonrpc":"2.0","id":"call_1","method":"tools/call","params":{"name":"files.read","arguments":{"path":"/a"}}})
    );
    let entry: Value = serde_json::from_str(err.lines().next().expect("an entry")).expect("JSON");
    assert_eq!(entry["code"], "call-mapped");
    assert_eq!(entry["source"], "-");
    // 3. The server's answer, forward to the provider, paired with the call by its id.
    let answer = br#"{"jsonrpc":"2.0","id":"call_1","result":{"content":[{"type":"text","text":"hello"}],"isError":false}}"#;
    let (code, out, err) =
        run(&["traffic", "--from", "mcp", "--to", "openai", "--map", map], answer);
    assert_eq!(code, 0, "{err}");
    let message: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(message, json!({"role":"tool","tool_call_id":"call_1","content":"hello"}));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_loss_is_reported_and_deny_loss_writes_nothing_and_exits_3() {
    let result = br#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGVsbG8="}}],"is_error":true}]}"#;
    let args = ["traffic", "--from", "anthropic", "--to", "openai", "--kind", "results"];
    let (code, out, err) = run(&args, result);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"tool_call_id\":\"toolu_1\""), "{out}");
    assert!(err.contains("warning") && err.contains("/content/0/content/1"), "{err}");
    assert!(
        err.lines().last().is_some_and(|l| l.starts_with("summary: results converted;")),
        "{err}"
    );
    let dir = temp_dir("deny");
    let output = dir.join("out.json");
    let denied = [&args[..], &["--deny-loss", "-o", output.to_str().expect("utf-8")]].concat();
    let (code, out, err) = run(&denied, result);
    assert_eq!(code, 3, "{err}");
    assert_eq!(out, "");
    assert!(!output.exists(), "a denied loss writes no file");
    let (code, _, err) = run(&[&args[..], &["--report", "none"]].concat(), result);
    assert_eq!((code, err.as_str()), (0, ""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_in_and_a_file_out_and_the_input_never_overwritten() {
    let dir = temp_dir("files");
    let (input, output) = (dir.join("calls.json"), dir.join("out.json"));
    std::fs::write(&input, CALLS).expect("write");
    let (i, o) = (input.to_str().expect("utf-8"), output.to_str().expect("utf-8"));
    let (code, out, err) =
        run(&["traffic", "--from", "openai", "--to", "bedrock", "-o", o, i], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "");
    let written: Value =
        serde_json::from_slice(&std::fs::read(&output).expect("out")).expect("JSON");
    assert_eq!(written["content"][0]["toolUse"]["toolUseId"], "call_1");
    let (code, _, err) = run(&["traffic", "--from", "openai", "--to", "bedrock", "-o", i, i], b"");
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&input).expect("input"), CALLS, "the input is untouched");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2_and_bad_payloads_exit_1_with_their_place() {
    // A format without traffic, an unknown kind, a missing flag.
    let (code, _, err) = run(&["traffic", "--from", "openapi", "--to", "openai"], CALLS);
    assert_eq!(code, 2);
    assert!(err.contains("no tool traffic") && err.contains("anthropic"), "{err}");
    let (code, _, err) =
        run(&["traffic", "--from", "openai", "--to", "mcp", "--kind", "call"], CALLS);
    assert_eq!(code, 2);
    assert!(err.contains("calls, results, messages, response"), "{err}");
    assert_eq!(run(&["traffic", "--from", "openai"], CALLS).0, 2);
    // Arguments that are not JSON, at the call's place; a results turn read as calls.
    let bad = br#"{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{nope"}}]}"#;
    let (code, out, err) = run(&["traffic", "--from", "openai", "--to", "gemini"], bad);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("line 1, column 2") && err.contains("at /tool_calls/0"), "{err}");
    let results = br#"{"role":"tool","tool_call_id":"c","content":"x"}"#;
    let (code, _, err) =
        run(&["traffic", "--from", "openai", "--to", "gemini", "--kind", "calls"], results);
    assert_eq!(code, 1);
    assert!(err.contains("an assistant message"), "{err}");
    // Under --report json the error is a JSON line too, with its kind and place.
    let (code, _, err) = run(
        &["traffic", "--from", "openai", "--to", "gemini", "--kind", "calls", "--report", "json"],
        results,
    );
    assert_eq!(code, 1);
    let line: Value = serde_json::from_str(err.trim()).expect("a JSON line");
    assert_eq!((line["error"].as_str(), line["source"].as_str()), (Some("shape"), Some("-")));
    // A map that cannot be read.
    let (code, _, err) = run(
        &["traffic", "--from", "openai", "--to", "mcp", "--map", "/nonexistent/map.json"],
        CALLS,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot read the map"), "{err}");
}

/// An Anthropic stream of one call, split as a model streams it.
const STREAM: &str = concat!(
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \"}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"Paris\\\"}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":9}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
);

#[test]
fn a_stream_transcodes_through_the_same_command_to_stdout_a_file_or_json_lines() {
    let args = ["traffic", "--from", "anthropic", "--to", "openai", "--kind", "stream"];
    let (code, out, err) = run(&args, STREAM.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().ends_with("data: [DONE]"), "{out}");
    assert!(out.contains("\"name\":\"get_weather\""), "{out}");
    // The same events as JSON lines: every line one JSON object.
    let json_args = [&args[..], &["--events", "json"]].concat();
    let (code, lines, err) = run(&json_args, STREAM.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(lines.lines().all(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v.is_object())));
    // `-o` writes the same bytes to the file.
    let dir = temp_dir("stream");
    let file = dir.join("out.sse");
    let path = file.to_str().expect("utf-8");
    let (code, printed, err) = run(&[&args[..], &["-o", path]].concat(), STREAM.as_bytes());
    assert_eq!((code, printed.as_str()), (0, ""), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("written"), out);
    // A stream cut inside the call: the call reported incomplete, a warning; the run still ends.
    let cut = STREAM.split("event: content_block_stop").next().unwrap_or_default();
    let (code, _, err) = run(&[&args[..], &["--report", "json"]].concat(), cut.as_bytes());
    assert_eq!(code, 0, "{err}");
    let entry: Value = serde_json::from_str(err.lines().next().unwrap_or("")).expect("JSON");
    assert_eq!(entry["code"], "call-incomplete", "{err}");
    // A format without streams is a usage error; so is an unknown kind.
    let (code, _, err) =
        run(&["traffic", "--from", "mcp", "--to", "openai", "--kind", "stream"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("no streams"), "{err}");
    let (code, _, _) = run(&["traffic", "--from", "openai", "--to", "gemini", "--kind", "x"], b"");
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// The id map on the command line: Gemini 2.x calls carry no ids; converted to OpenAI they get
/// made ones, which `--ids-out` writes. The client's tool messages answer those ids and do not
/// name their tools; converted back to Gemini with `--ids`, each result is named from its call.
/// Without the map the results cannot be named (exit 1). The map's file is checked as every
/// output is: naming the input is a usage error, and with `--kind stream` the flags are refused.
#[test]
fn ids_out_writes_the_id_map_and_ids_reads_it_back() {
    let dir = temp_dir("ids");
    let (calls, map) = (dir.join("calls.json"), dir.join("ids.json"));
    let gemini = br#"{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},{"functionCall":{"name":"get_time","args":{}}}]}"#;
    std::fs::write(&calls, gemini).expect("write");
    let (c, m) = (calls.to_str().expect("utf-8"), map.to_str().expect("utf-8"));
    let (code, out, err) =
        run(&["traffic", "--from", "gemini", "--to", "openai", "--ids-out", m, c], b"");
    assert_eq!(code, 0, "{err}");
    let written: Value = serde_json::from_str(&out).expect("JSON");
    let ids: Vec<&str> = written["tool_calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|c| c["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids.len(), 2);
    let map_json: Value =
        serde_json::from_slice(&std::fs::read(&map).expect("the id map")).expect("JSON");
    let pairs = map_json["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 2, "{map_json}");
    assert_eq!(pairs[0]["written"], ids[0]);
    assert_eq!(pairs[0]["name"], "get_weather");
    // The results, in the client's OpenAI tool messages, back to Gemini through the map.
    let results = format!(
        r#"[{{"role":"tool","tool_call_id":"{}","content":"18 C"}},{{"role":"tool","tool_call_id":"{}","content":"noon"}}]"#,
        ids[0], ids[1]
    );
    let (code, out, err) = run(
        &["traffic", "--from", "openai", "--to", "gemini", "--kind", "results", "--ids", m],
        results.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let back: Value = serde_json::from_str(&out).expect("JSON");
    let names: Vec<&str> = back["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| p["functionResponse"]["name"].as_str().expect("named"))
        .collect();
    assert_eq!(names, ["get_weather", "get_time"], "{back}");
    let (code, _, err) = run(
        &["traffic", "--from", "openai", "--to", "gemini", "--kind", "results"],
        results.as_bytes(),
    );
    assert_eq!(code, 1, "without the map: {err}");
    // The map's file is an output like the others: never the input.
    let (code, _, err) =
        run(&["traffic", "--from", "gemini", "--to", "openai", "--ids-out", c, c], b"");
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&calls).expect("input"), gemini, "the input is untouched");
    let (code, _, err) = run(
        &["traffic", "--kind", "stream", "--from", "openai", "--to", "anthropic", "--ids", m],
        b"",
    );
    assert_eq!(code, 2, "{err}");
    // An id map that is not one is an error at reading it.
    std::fs::write(&map, b"[1]").expect("write");
    let (code, _, err) = run(
        &["traffic", "--from", "openai", "--to", "gemini", "--kind", "results", "--ids", m],
        results.as_bytes(),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("id map"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
