//! Tool traffic over the corpus's recorded payloads (`tool-traffic/`, read in place from
//! `TOOLADAPTER_CORPUS`): every calls, results, request and response payload of every format
//! that speaks traffic (the list comes from `formats::builtins()`) is read, written back by its
//! own format (the same JSON value, key order kept; byte for byte where no escape the writer
//! does not write is in it), and converted to every other format and back. Across the round
//! trip the calls (names, arguments as parsed JSON, ids), the results (ids, text, error flag,
//! media blocks) and the pairing of results with calls are equal, or a report entry of the
//! trip names the difference. Every entry's pointer names a place in its input.
#![cfg(feature = "corpus")]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::traffic::{essence, misplaced, unexplained};
use serde_json::Value;
use tooladapter::traffic::TrafficKind;
use tooladapter::{Adapter, Converter, TrafficOptions};

/// The corpus folder of a format's payloads.
fn folder(format: &str) -> &str {
    match format {
        "openai" => "openai-chat",
        other => other,
    }
}

const KINDS: [(&str, TrafficKind); 4] = [
    ("calls", TrafficKind::Calls),
    ("results", TrafficKind::Results),
    ("requests", TrafficKind::Messages),
    ("responses", TrafficKind::Response),
];

/// Payloads the corpus keeps because they are invalid (an SDK's rejection fixtures): reading
/// them is an error at the bad place.
const INVALID: [(&str, &str); 2] = [
    ("mcp-typescript-sdk--ts-sdk--fixtures--rejection--invalid-spec-params.json", "/params/name"),
    ("mcp-go-sdk--go-sdk--tools--client-L35.json", ""),
];

fn traffic_formats() -> Vec<&'static dyn Adapter> {
    tooladapter::formats::builtins().iter().copied().filter(|a| a.traffic().is_some()).collect()
}

fn has_kind(a: &'static dyn Adapter, kind: TrafficKind) -> bool {
    a.traffic().is_some_and(|t| t.rules().kinds.contains(&kind))
}

/// Every payload file of a format and kind, in name order.
fn payloads(format: &str, dir: &str) -> Vec<PathBuf> {
    let path = common::corpus().join("tool-traffic").join(folder(format)).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files
        .retain(|p| p.extension().is_some_and(|x| x == "json") && !p.ends_with("_provenance.json"));
    files.sort();
    files
}

#[test]
fn every_recorded_payload_converts_to_every_format_and_back() {
    let formats = traffic_formats();
    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
    assert!(names.len() >= 6, "traffic formats: {names:?}");
    let mut c = Converter::new();
    let mut failures: Vec<String> = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let (mut read, mut trips, mut identical, mut same_value) = (0, 0, 0, 0);
    for from in &formats {
        for (dir, kind) in KINDS {
            for path in payloads(from.name(), dir) {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
                let label = format!("{}/{dir}/{name}", from.name());
                let bytes = std::fs::read(&path).expect("reads");
                let input: Value = serde_json::from_slice(&bytes).expect("the corpus is JSON");
                let options = TrafficOptions { kind: Some(kind), ..TrafficOptions::default() };
                // Written back by its own format: the same value; pretty, the same bytes unless
                // an escape the writer does not write was normalized.
                let pretty = TrafficOptions {
                    options: tooladapter::Options::default().pretty(true),
                    ..options.clone()
                };
                match c.convert_traffic(&bytes, *from, *from, &pretty) {
                    Err(e) => {
                        match INVALID.iter().find(|(n, _)| *n == name) {
                            Some((_, pointer)) if e.pointer() == *pointer => {}
                            _ => failures.push(format!("{label}: {e}")),
                        }
                        continue;
                    }
                    Ok(out) => {
                        read += 1;
                        let text = std::str::from_utf8(&bytes).unwrap_or_default().trim_end();
                        identical += usize::from(out.output_str() == text);
                        let value: Value = serde_json::from_slice(out.output()).expect("JSON out");
                        if common::same(&value, &input) {
                            same_value += 1;
                        } else {
                            failures.push(format!("{label}: written back as another value"));
                        }
                        if !out.report().is_empty() {
                            failures.push(format!(
                                "{label}: the same format reported {:?}",
                                out.report().entries()
                            ));
                        }
                    }
                }
                // Detected without being told the kind.
                let detected = c
                    .convert_traffic(&bytes, *from, *from, &TrafficOptions::default())
                    .map(|o| o.kind());
                if detected.as_ref().ok() != Some(&Some(kind)) {
                    failures.push(format!("{label}: detected as {detected:?}"));
                }
                let own = essence(from.name(), kind, &input);
                for to in formats
                    .iter()
                    .copied()
                    .filter(|t| t.name() != from.name() && has_kind(*t, kind))
                {
                    let there = match c.convert_traffic(&bytes, *from, to, &options) {
                        Ok(out) => out.clone(),
                        Err(e)
                            if kind == TrafficKind::Results
                                && e.to_string().contains("names the tool each result answers") =>
                        {
                            *counts
                                .entry(format!(
                                    "results to {} refused without tool names",
                                    to.name()
                                ))
                                .or_default() += 1;
                            continue;
                        }
                        Err(e) => {
                            failures.push(format!("{label} -> {}: {e}", to.name()));
                            continue;
                        }
                    };
                    let misplaced_there = misplaced(there.report().entries(), &input);
                    if !misplaced_there.is_empty() {
                        failures.push(format!(
                            "{label} -> {}: entries without a place: {misplaced_there:?}",
                            to.name()
                        ));
                    }
                    // Back with the ids the way there wrote, as a gateway keeps them: ids
                    // rewritten or made are given back, results named.
                    let ids = there.ids().clone();
                    let back_options = TrafficOptions { ids: Some(&ids), ..options.clone() };
                    let back = match c.convert_traffic(there.output(), to, *from, &back_options) {
                        Ok(out) => out.clone(),
                        Err(e) => {
                            failures.push(format!("{label} -> {} -> back: {e}", to.name()));
                            continue;
                        }
                    };
                    trips += 1;
                    let back_value: Value =
                        serde_json::from_slice(back.output()).expect("JSON out");
                    let round = essence(from.name(), kind, &back_value);
                    let mut entries = there.report().entries().to_vec();
                    entries.extend(back.report().entries().iter().cloned());
                    for e in &entries {
                        *counts.entry(format!("{} {}", e.code, e.feature)).or_default() += 1;
                    }
                    let diff = unexplained(&own, &round, &entries);
                    if !diff.is_empty() {
                        failures.push(format!("{label} -> {} -> back: {diff:?}", to.name()));
                    }
                }
            }
        }
    }
    println!(
        "{read} payloads read, {same_value} written back as the same value ({identical} byte for byte), {trips} round trips"
    );
    for (what, n) in &counts {
        println!("{n:6}  {what}");
    }
    assert!(read >= 660, "{read} payloads read");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
