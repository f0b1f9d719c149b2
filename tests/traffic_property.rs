//! A property test of tool traffic over generated conversations: parallel calls, calls with
//! and without ids (Gemini 2.x has none), results answered out of order, results of mixed
//! content (text, images, several text blocks, failures), arguments with exact large and
//! decimal numbers, escapes and non-ASCII text. Each conversation is written as Anthropic and
//! as Gemini payloads, made each traffic format's own by a first conversion, then converted to
//! every other format and back (ids given back through the map the conversion there wrote,
//! as a gateway keeps it). Across the trip:
//! - the calls (count, names, arguments as parsed JSON) are equal, always;
//! - ids are equal, or were missing in the source and an entry says they were added;
//! - the results (count, pairing with their calls) are equal, always; their error flag, text
//!   and media are equal, or an entry names the difference, and only where one of the two
//!   formats has no place for it.
//!
//! Conversations come from a xorshift generator with fixed seeds: every run sees the same
//! (`TRAFFIC_CASES=1000` for a longer run).

mod common;

use common::instances::Rng;
use common::traffic::{Essence, essence, said};
use serde_json::{Value, json};
use tooladapter::ir::traffic::BlockKind;
use tooladapter::traffic::TrafficKind;
use tooladapter::{Adapter, Code, Converter, ReportEntry, TrafficOptions};

/// Conversations generated per source format (`TRAFFIC_CASES` for a longer run).
fn cases() -> u64 {
    std::env::var("TRAFFIC_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48)
}

fn traffic_formats() -> Vec<&'static dyn Adapter> {
    tooladapter::formats::builtins().iter().copied().filter(|a| a.traffic().is_some()).collect()
}

fn format(name: &str) -> &'static dyn Adapter {
    traffic_formats().into_iter().find(|f| f.name() == name).expect("a traffic format")
}

fn has_kind(a: &dyn Adapter, kind: TrafficKind) -> bool {
    a.traffic().is_some_and(|t| t.rules().kinds.contains(&kind))
}

// ---- The generated conversation ----

struct Call {
    id: String,
    name: &'static str,
    args: Value,
}

enum Block {
    Text(String),
    Image(&'static str),
}

struct Answer {
    /// The call answered, by its index in the turn.
    call: usize,
    blocks: Vec<Block>,
    error: bool,
}

enum Turn {
    User(String),
    Assistant { text: Option<String>, calls: Vec<Call> },
    Results(Vec<Answer>),
}

struct Conversation {
    system: Option<String>,
    turns: Vec<Turn>,
    /// Whether the calls carry ids (Gemini 2.x's do not).
    ids: bool,
}

const NAMES: [&str; 4] = ["get_weather", "search_docs", "send-mail", "lookup_1"];
const TEXTS: [&str; 6] = [
    "sunny, 21 °C",
    "line one\nline \"two\"",
    "Zürich ☃ 東京",
    "",
    "{\"status\":\"ok\",\"n\":3}",
    "a tab\there and a \\ backslash",
];
const PNG: [&str; 2] = [
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==",
    "aGVsbG8=",
];

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len())]
}

/// A JSON value for an argument, with exact numbers past f64's integers, decimals and text
/// that needs escapes.
fn value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 1 { 6 } else { 8 }) {
        0 => json!(pick(rng, &TEXTS)),
        1 => json!(pick(rng, &[9_007_199_254_740_993u64, u64::MAX, 0, 42])),
        2 => json!(pick(rng, &[-17i64, i64::MIN, -1])),
        3 => json!(pick(rng, &[0.1f64, 1.5, 123.456, 1e-7, -2.5e300])),
        4 => json!(rng.below(2) == 0),
        5 => Value::Null,
        6 => Value::Array((0..rng.below(3)).map(|_| value(rng, depth + 1)).collect()),
        _ => object(rng, depth + 1),
    }
}

fn object(rng: &mut Rng, depth: usize) -> Value {
    const KEYS: [&str; 7] = ["city", "n", "x", "tags", "nested", "unit", "ключ"];
    let mut m = serde_json::Map::new();
    for _ in 0..rng.below(4) {
        m.insert(pick(rng, &KEYS).to_owned(), value(rng, depth));
    }
    Value::Object(m)
}

fn generate(seed: u64) -> Conversation {
    let mut rng = Rng::new(seed);
    let ids = rng.below(3) != 0;
    let system = (rng.below(2) == 0).then(|| format!("You are helpful ({seed})."));
    let mut turns = Vec::new();
    let mut n = 0;
    for round in 0..1 + rng.below(3) {
        turns.push(Turn::User(format!("question {round}")));
        let text = (rng.below(2) == 0).then(|| format!("Let me check ({round})."));
        let calls: Vec<Call> = (0..1 + rng.below(3))
            .map(|_| {
                n += 1;
                // Ids of many lengths, some longer than OpenAI's 40.
                let pad = "x".repeat(rng.below(50));
                Call {
                    id: format!("toolu_{seed}_{n}{pad}"),
                    name: pick(&mut rng, &NAMES),
                    args: object(&mut rng, 0),
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..calls.len()).collect();
        // Out of order where ids pair them (a source without ids pairs by name and order).
        if ids && rng.below(3) == 0 {
            order.reverse();
        }
        let answers = order
            .into_iter()
            .map(|call| {
                let mut blocks = vec![Block::Text(pick(&mut rng, &TEXTS).to_owned())];
                if rng.below(3) == 0 {
                    blocks.push(Block::Image(pick(&mut rng, &PNG)));
                }
                if rng.below(4) == 0 {
                    blocks.push(Block::Text(pick(&mut rng, &TEXTS).to_owned()));
                }
                Answer { call, blocks, error: rng.below(4) == 0 }
            })
            .collect();
        turns.push(Turn::Assistant { text, calls });
        turns.push(Turn::Results(answers));
    }
    if rng.below(2) == 0 {
        turns.push(Turn::Assistant { text: Some("Done.".to_owned()), calls: Vec::new() });
    }
    Conversation { system, turns, ids }
}

// ---- Written as Anthropic and as Gemini ----

fn anthropic_turn<'c>(turn: &'c Turn, last: &mut &'c [Call]) -> Value {
    match turn {
        Turn::User(text) => json!({"role": "user", "content": text}),
        Turn::Assistant { text, calls } => {
            *last = calls;
            let mut content: Vec<Value> =
                text.iter().map(|t| json!({"type": "text", "text": t})).collect();
            content.extend(
                calls.iter().map(
                    |c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.args}),
                ),
            );
            json!({"role": "assistant", "content": content})
        }
        Turn::Results(answers) => {
            let content: Vec<Value> = answers
                .iter()
                .map(|a| {
                    let blocks: Vec<Value> = a
                        .blocks
                        .iter()
                        .map(|b| match b {
                            Block::Text(t) => json!({"type": "text", "text": t}),
                            Block::Image(data) => json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}),
                        })
                        .collect();
                    let content = match a.blocks.as_slice() {
                        [Block::Text(t)] => json!(t),
                        _ => Value::Array(blocks),
                    };
                    let mut r = json!({"type": "tool_result", "tool_use_id": last[a.call].id, "content": content});
                    if a.error {
                        r["is_error"] = json!(true);
                    }
                    r
                })
                .collect();
            json!({"role": "user", "content": content})
        }
    }
}

fn anthropic(c: &Conversation) -> Value {
    let mut last: &[Call] = &[];
    let messages: Vec<Value> = c.turns.iter().map(|t| anthropic_turn(t, &mut last)).collect();
    let mut out = json!({"messages": messages});
    if let Some(s) = &c.system {
        out["system"] = json!(s);
    }
    out
}

fn gemini_turn<'c>(turn: &'c Turn, last: &mut &'c [Call], ids: bool) -> Value {
    match turn {
        Turn::User(text) => json!({"role": "user", "parts": [{"text": text}]}),
        Turn::Assistant { text, calls } => {
            *last = calls;
            let mut parts: Vec<Value> = text.iter().map(|t| json!({"text": t})).collect();
            parts.extend(calls.iter().map(|c| {
                let mut f = json!({"name": c.name, "args": c.args});
                if ids {
                    f["id"] = json!(c.id);
                }
                json!({"functionCall": f})
            }));
            json!({"role": "model", "parts": parts})
        }
        Turn::Results(answers) => {
            let parts: Vec<Value> = answers
                .iter()
                .map(|a| {
                    let call = &last[a.call];
                    let text: Vec<&str> = a
                        .blocks
                        .iter()
                        .filter_map(|b| match b {
                            Block::Text(t) => Some(t.as_str()),
                            Block::Image(_) => None,
                        })
                        .collect();
                    let key = if a.error { "error" } else { "output" };
                    let mut f = json!({"name": call.name, "response": {key: text.join("\n")}});
                    if ids {
                        f["id"] = json!(call.id);
                    }
                    let media: Vec<Value> = a
                        .blocks
                        .iter()
                        .filter_map(|b| match b {
                            Block::Image(data) => {
                                Some(json!({"inlineData": {"mimeType": "image/png", "data": data}}))
                            }
                            Block::Text(_) => None,
                        })
                        .collect();
                    if !media.is_empty() {
                        f["parts"] = Value::Array(media);
                    }
                    json!({"functionResponse": f})
                })
                .collect();
            json!({"role": "user", "parts": parts})
        }
    }
}

fn gemini(c: &Conversation) -> Value {
    let mut last: &[Call] = &[];
    let contents: Vec<Value> = c.turns.iter().map(|t| gemini_turn(t, &mut last, c.ids)).collect();
    let mut out = json!({"contents": contents});
    if let Some(s) = &c.system {
        out["systemInstruction"] = json!({"parts": [{"text": s}]});
    }
    out
}

// ---- The comparison ----

/// The differences between a payload's essence and its round trip's that the rules do not
/// allow or no entry names.
fn differences(
    a: &Essence,
    b: &Essence,
    entries: &[ReportEntry],
    from: &dyn Adapter,
    to: &dyn Adapter,
) -> Vec<String> {
    let (rf, rt) =
        (from.traffic().expect("traffic").rules(), to.traffic().expect("traffic").rules());
    let mut out = Vec::new();
    let calls =
        |e: &Essence| e.calls.iter().map(|c| (c.name.clone(), c.args.clone())).collect::<Vec<_>>();
    if calls(a) != calls(b) {
        out.push(format!("calls {:?} became {:?}", calls(a), calls(b)));
    }
    for (x, y) in a.calls.iter().zip(&b.calls) {
        if x.id != y.id && !(x.id.is_none() && said(entries, &[Code::IdAdded])) {
            out.push(format!("call id {:?} became {:?}", x.id, y.id));
        }
    }
    if a.results.len() != b.results.len() {
        out.push(format!("{} results became {}", a.results.len(), b.results.len()));
    }
    // Which call each result answers, by index (ids may be made, but pair alike).
    let pairing = |e: &Essence| -> Vec<Option<usize>> {
        e.results
            .iter()
            .map(|r| e.calls.iter().position(|c| c.id.is_some() && c.id == r.id))
            .collect()
    };
    if a.calls.iter().all(|c| c.id.is_some()) && pairing(a) != pairing(b) {
        out.push(format!("pairing {:?} became {:?}", pairing(a), pairing(b)));
    }
    let flags = rf.error_flag && rt.error_flag;
    for (x, y) in a.results.iter().zip(&b.results) {
        if x.error != y.error && (flags || !said(entries, &[Code::ErrorNotFlagged])) {
            out.push(format!("result {:?} error flag {} became {}", x.id, x.error, y.error));
        }
        let images =
            rf.result_blocks.has(BlockKind::Image) && rt.result_blocks.has(BlockKind::Image);
        if x.media != y.media && (images || !said(entries, &[Code::ContentDropped])) {
            out.push(format!("result {:?} media {:?} became {:?}", x.id, x.media, y.media));
        }
        if x.text != y.text && !said(entries, &[Code::ContentRewritten, Code::ContentDropped]) {
            out.push(format!("result {:?} text {:?} became {:?}", x.id, x.text, y.text));
        }
    }
    out
}

struct Trip<'c> {
    c: &'c mut Converter,
    failures: Vec<String>,
    trips: usize,
}

impl Trip<'_> {
    /// `input` (of `from`) to `to` and back, compared.
    fn check(
        &mut self,
        label: &str,
        kind: TrafficKind,
        from: &dyn Adapter,
        input: &str,
        ids: Option<&tooladapter::traffic::Ids>,
        to: &dyn Adapter,
    ) {
        let options = TrafficOptions { kind: Some(kind), ids, ..TrafficOptions::default() };
        let there = match self.c.convert_traffic(input.as_bytes(), from, to, &options) {
            Ok(out) => out.clone(),
            Err(e) => return self.failures.push(format!("{label} -> {}: {e}", to.name())),
        };
        let back_ids = there.ids().clone();
        let back_options =
            TrafficOptions { kind: Some(kind), ids: Some(&back_ids), ..TrafficOptions::default() };
        let back = match self.c.convert_traffic(there.output(), to, from, &back_options) {
            Ok(out) => out.clone(),
            Err(e) => return self.failures.push(format!("{label} -> {} -> back: {e}", to.name())),
        };
        self.trips += 1;
        let value = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).expect("JSON out");
        let a = essence(from.name(), kind, &value(input.as_bytes()));
        let b = essence(from.name(), kind, &value(back.output()));
        let mut entries = there.report().entries().to_vec();
        entries.extend(back.report().entries().iter().cloned());
        let diff = differences(&a, &b, &entries, from, to);
        if !diff.is_empty() {
            self.failures.push(format!(
                "{label} -> {} -> back: {diff:?}\n  input: {input}\n  there: {}",
                to.name(),
                there.output_str()
            ));
        }
    }
}

#[test]
fn generated_conversations_round_trip_through_every_traffic_format() {
    let formats = traffic_formats();
    let sources = [("anthropic", anthropic as fn(&Conversation) -> Value), ("gemini", gemini)];
    let mut c = Converter::new();
    let mut first = Converter::new();
    let mut trip = Trip { c: &mut c, failures: Vec::new(), trips: 0 };
    for (source, write) in sources {
        let src = format(source);
        for seed in 0..cases() {
            let conversation = generate(seed);
            let input = write(&conversation).to_string();
            let options =
                TrafficOptions { kind: Some(TrafficKind::Messages), ..TrafficOptions::default() };
            for from in formats.iter().copied().filter(|f| has_kind(*f, TrafficKind::Messages)) {
                let label = format!("{source} #{seed} as {}", from.name());
                let own = match first.convert_traffic(input.as_bytes(), src, from, &options) {
                    Ok(out) => out.output_str().to_owned(),
                    Err(e) => {
                        trip.failures.push(format!("{label}: {e}\n  input: {input}"));
                        continue;
                    }
                };
                for to in formats.iter().copied().filter(|t| has_kind(*t, TrafficKind::Messages)) {
                    trip.check(&label, TrafficKind::Messages, from, &own, None, to);
                }
            }
            // The last calls turn and its results alone, through every format that has them.
            let value = write(&conversation);
            let turns = value
                .get("messages")
                .or_else(|| value.get("contents"))
                .and_then(Value::as_array)
                .expect("turns");
            let at = turns.len()
                - if matches!(conversation.turns.last(), Some(Turn::Results(_))) { 2 } else { 3 };
            let (calls, results) = (turns[at].to_string(), turns[at + 1].to_string());
            for from in formats.iter().copied().filter(|f| has_kind(*f, TrafficKind::Calls)) {
                let label = format!("{source} #{seed} calls as {}", from.name());
                let calls_options =
                    TrafficOptions { kind: Some(TrafficKind::Calls), ..TrafficOptions::default() };
                let (own_calls, ids) =
                    match first.convert_traffic(calls.as_bytes(), src, from, &calls_options) {
                        Ok(out) => (out.output_str().to_owned(), out.ids().clone()),
                        Err(e) => {
                            trip.failures.push(format!("{label}: {e}"));
                            continue;
                        }
                    };
                let results_options = TrafficOptions {
                    kind: Some(TrafficKind::Results),
                    ids: Some(&ids),
                    ..TrafficOptions::default()
                };
                let own_results =
                    match first.convert_traffic(results.as_bytes(), src, from, &results_options) {
                        Ok(out) => out.output_str().to_owned(),
                        Err(e) => {
                            trip.failures.push(format!("{label} results: {e}"));
                            continue;
                        }
                    };
                for to in formats.iter().copied().filter(|t| has_kind(*t, TrafficKind::Calls)) {
                    // The calls there, whose map names the results for a target that needs names.
                    let there = first
                        .convert_traffic(own_calls.as_bytes(), from, to, &calls_options)
                        .map(|o| o.ids().clone());
                    trip.check(&label, TrafficKind::Calls, from, &own_calls, None, to);
                    if let Ok(there) = there {
                        let label = format!("{source} #{seed} results as {}", from.name());
                        trip.check(
                            &label,
                            TrafficKind::Results,
                            from,
                            &own_results,
                            Some(&there),
                            to,
                        );
                    }
                }
            }
        }
    }
    let (trips, failures) = (trip.trips, trip.failures);
    println!("{trips} round trips over {} generated conversations", 2 * cases());
    assert!(trips > 1000, "{trips} round trips");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
