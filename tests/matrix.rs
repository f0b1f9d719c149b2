//! The conformance matrix (issue 31): generated, not hand-picked. Every verb (`convert`,
//! `check`, `unmap`; the library and the CLI) runs on every built-in format as source and
//! target (`formats::builtins()`, the same format included; the library's verbs also on
//! Bedrock's model families, `ModelFamily::adapter`), every input shape its reader
//! takes (a tool, an array, its catalog object, a request body around the list, its JSON-RPC
//! response, the list of catalog objects a request holds; NDJSON and a folder through the
//! CLI), as the source says and with `--strict`, under each profile set. The fixtures are
//! small tools generated here from seeds (the corpus variant, feature `corpus`, runs the same
//! invariants on the corpus). The invariants:
//!
//! 1. `check --to T` finds nothing in what a conversion to T wrote (every T, every profile).
//! 2. The same format keeps the input: input the provider accepts (its `check` finds nothing)
//!    comes out byte-identical with an empty report; any other change to a member of the
//!    input is named by a `warning` (or an `error`) at its place.
//! 3. Nothing leaves without an entry: every member of the input (its values, its property
//!    names) is written, or named by a report entry (its place or a place above it).
//! 4. The CLI writes what the library writes (NDJSON, a folder), its `check` agrees with the
//!    library's, and `unmap` gives back what the library's inverse map gives.
//!
//! Not here: a document read as another format than its own (refused with "looks like X"
//! where it is not a documented reading) is another engineer's part of issue 31.

#[path = "common/bin.rs"]
mod bin;
mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use tooladapter::adapter::{Adapter, FormatInfo};
use tooladapter::ir::Keyword;
use tooladapter::{
    Action, Converter, ErrorKind, Options, ProfileSet, Report, ReportEntry, Severity, Strict,
};

// ---------------------------------------------------------------------------------------------
// Generated fixtures.

/// A small deterministic generator (64-bit LCG): the same seed gives the same tools.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A property schema drawn from the keywords tools use: scalars with their constraints and
/// annotations, arrays, nested objects, unions, nullable types and refs into `$defs`.
fn property(rng: &mut Rng, depth: u32) -> Value {
    let mut s = Map::new();
    let pick = if depth >= 2 { rng.below(4) } else { rng.below(9) };
    match pick {
        0 => {
            s.insert("type".into(), json!("string"));
            if rng.chance(40) {
                s.insert("enum".into(), json!(["fast", "full", "none"]));
            }
            if rng.chance(30) {
                s.insert("maxLength".into(), json!(40 + rng.below(20)));
            }
            if rng.chance(25) {
                s.insert("pattern".into(), json!("^[a-z]+$"));
            }
            if rng.chance(25) {
                s.insert(
                    "format".into(),
                    json!(["date-time", "email", "uri"][rng.below(3) as usize]),
                );
            }
        }
        1 => {
            s.insert("type".into(), json!(["integer", "number"][rng.below(2) as usize]));
            if rng.chance(50) {
                s.insert("minimum".into(), json!(rng.below(5)));
            }
            if rng.chance(40) {
                s.insert("maximum".into(), json!(100 + rng.below(900)));
            }
            if rng.chance(20) {
                s.insert("exclusiveMinimum".into(), json!(-1));
            }
        }
        2 => {
            s.insert("type".into(), json!("boolean"));
            if rng.chance(40) {
                s.insert("default".into(), json!(false));
            }
        }
        3 => {
            s.insert("type".into(), json!(["string", "null"]));
        }
        4 => {
            s.insert("type".into(), json!("array"));
            s.insert("items".into(), property(rng, depth + 1));
            if rng.chance(40) {
                s.insert("maxItems".into(), json!(3 + rng.below(7)));
            }
        }
        5 => {
            let n = 1 + rng.below(2) as usize;
            let inner = object(rng, depth + 1, n);
            s.extend(inner);
        }
        6 => {
            s.insert("anyOf".into(), json!([{"type": "string"}, {"type": "integer"}]));
        }
        7 => {
            s.insert("$ref".into(), json!("#/$defs/Place"));
        }
        _ => {
            s.insert("type".into(), json!("string"));
            s.insert("const".into(), json!("v1"));
        }
    }
    if rng.chance(50) && !s.contains_key("$ref") {
        s.insert("description".into(), json!(format!("Field at depth {depth}.")));
    }
    if rng.chance(15) && !s.contains_key("$ref") {
        s.insert("title".into(), json!("A title"));
    }
    Value::Object(s)
}

/// An object schema with `n` properties, some required, sometimes closed.
fn object(rng: &mut Rng, depth: u32, n: usize) -> Map<String, Value> {
    let names = ["city", "limit", "query", "tags", "mode", "when", "note", "items"];
    let mut props = Map::new();
    let mut required = Vec::new();
    for i in 0..n {
        let name = names[(rng.below(names.len() as u64) as usize + i) % names.len()];
        let name = if props.contains_key(name) { format!("{name}_{i}") } else { name.to_owned() };
        if rng.chance(50) {
            required.push(json!(name));
        }
        props.insert(name, property(rng, depth));
    }
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        s.insert("required".into(), Value::Array(required));
    }
    if rng.chance(30) {
        s.insert("additionalProperties".into(), json!(false));
    }
    s
}

/// The MCP tools of one seed: a few tools with generated input schemas, one without
/// arguments, metadata some formats have no place for.
fn mcp_tools(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut tools = Vec::new();
    for i in 0..3 {
        let n = 2 + rng.below(3) as usize;
        let mut schema = object(&mut rng, 0, n);
        let uses_ref = Value::Object(schema.clone()).to_string().contains("#/$defs/Place");
        if uses_ref {
            let place = json!({"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"]});
            schema.insert("$defs".into(), json!({ "Place": place }));
        }
        let mut tool = Map::new();
        tool.insert("name".into(), json!(format!("tool_{seed}_{i}")));
        if rng.chance(70) {
            tool.insert("description".into(), json!(format!("Generated tool {i} of seed {seed}.")));
        }
        tool.insert("inputSchema".into(), Value::Object(schema));
        if rng.chance(30) {
            tool.insert("annotations".into(), json!({"readOnlyHint": true}));
        }
        if rng.chance(20) {
            tool.insert("title".into(), json!("Generated"));
        }
        tools.push(Value::Object(tool));
    }
    tools.push(json!({"name": format!("ping_{seed}"), "description": "Takes no arguments.",
        "inputSchema": {"type": "object", "properties": {}}}));
    tools
}

const SEEDS: [u64; 3] = [7, 1031, 65537];

/// Options that keep every keyword the target's table would change (what a caller writing
/// the format by hand might send): the same format then has something to normalize.
fn keep_everything() -> Options {
    let mut options = Options::default();
    for kw in Keyword::ALL.into_iter().chain([Keyword::Unknown]) {
        options = options.policy(kw, Action::Keep);
    }
    options
}

// ---------------------------------------------------------------------------------------------
// The formats, from `builtins()` and their facts.

/// Every built-in format, then Bedrock's model families (`ModelFamily::adapter`: profiles of
/// `bedrock` the library converts into and checks against like any format).
fn formats() -> Vec<&'static dyn Adapter> {
    let families = tooladapter::ModelFamily::ALL.iter().map(|f| f.adapter());
    tooladapter::formats::builtins().iter().copied().chain(families).collect()
}

fn readable() -> Vec<&'static dyn Adapter> {
    formats().into_iter().filter(|f| f.info().reads && !f.info().imports).collect()
}

fn writable() -> Vec<&'static dyn Adapter> {
    formats().into_iter().filter(|f| f.info().writes).collect()
}

/// [`readable`] as the CLI names them: the built-in formats (a family is `--to bedrock
/// --model-family F`, held to the library by tests/bedrock.rs).
fn cli_readable() -> Vec<&'static dyn Adapter> {
    let builtins = tooladapter::formats::builtins().iter().copied();
    builtins.filter(|f| f.info().reads && !f.info().imports).collect()
}

/// [`writable`] as the CLI names them (see [`cli_readable`]).
fn cli_writable() -> Vec<&'static dyn Adapter> {
    tooladapter::formats::builtins().iter().copied().filter(|f| f.info().writes).collect()
}

fn adapter(name: &str) -> &'static dyn Adapter {
    tooladapter::formats::builtin(name).expect("a built-in format")
}

/// The tool list of a catalog a format wrote: the array, or its catalog object's list.
fn list_of(info: &FormatInfo, catalog: &Value) -> Vec<Value> {
    match catalog {
        Value::Array(list) => list.clone(),
        Value::Object(o) => [info.catalog_key, info.catalog_alias]
            .into_iter()
            .flatten()
            .find_map(|k| o.get(k).and_then(Value::as_array).cloned())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A named input document.
#[derive(Clone)]
struct Doc {
    label: String,
    value: Value,
}

impl Doc {
    fn bytes(&self) -> Vec<u8> {
        serde_json::to_vec(&self.value).expect("json")
    }
}

/// Every shape the reader of `info` takes, around the tool list `list` of its format: each
/// tool alone, the array, the catalog object, a request body holding it, the JSON-RPC
/// response it arrives in, and the request list of catalog objects (with a built-in beside).
fn shapes(info: &FormatInfo, list: &[Value], label: &str) -> Vec<Doc> {
    let mut docs = Vec::new();
    for (i, tool) in list.iter().enumerate() {
        docs.push(Doc { label: format!("{label} tool {i}"), value: tool.clone() });
    }
    docs.push(Doc { label: format!("{label} array"), value: Value::Array(list.to_vec()) });
    let Some(key) = info.catalog_key else {
        return docs;
    };
    let catalog = json!({ key: list });
    docs.push(Doc { label: format!("{label} catalog"), value: catalog.clone() });
    if let Some(request_key) = info.request_key {
        let groups = json!([catalog, {"googleSearch": {}}]);
        let request = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            request_key: groups});
        docs.push(Doc { label: format!("{label} request"), value: request });
        docs.push(Doc { label: format!("{label} request list"), value: groups });
    } else {
        let request = json!({"model": "m-1", "messages": [{"role": "user", "content": "hi"}],
            key: list, "tool_choice": "auto", "max_tokens": 64});
        docs.push(Doc { label: format!("{label} request"), value: request });
    }
    if let Some(envelope) = info.envelope {
        let response = json!({envelope.marker: "2.0", "id": 1, envelope.result: catalog});
        docs.push(Doc { label: format!("{label} json-rpc"), value: response });
    }
    docs
}

/// The input documents of format `from`: the generated MCP tools written in it (what its
/// provider accepts) and written keeping every keyword (what it may refuse), in every shape.
fn docs_of(from: &dyn Adapter) -> Vec<Doc> {
    let mut docs = Vec::new();
    for seed in SEEDS {
        let tools = Value::Array(mcp_tools(seed));
        let mcp = json!({ "tools": tools });
        for (variant, options) in [("clean", Options::default()), ("kept", keep_everything())] {
            let mut c = Converter::new();
            let out = c
                .convert(&serde_json::to_vec(&mcp).unwrap(), adapter("mcp"), from, &options)
                .unwrap_or_else(|e| panic!("mcp → {}: {e}", from.name()));
            let written: Value = serde_json::from_slice(out.output()).expect("json");
            let list = list_of(from.info(), &written);
            assert!(!list.is_empty(), "{}: no tools in {written}", from.name());
            docs.extend(shapes(
                from.info(),
                &list,
                &format!("{} {variant} seed {seed}", from.name()),
            ));
        }
    }
    docs
}

/// The ways a conversion is asked for: strict as the source says or on, each profile set.
fn modes() -> Vec<(Strict, ProfileSet)> {
    let mut modes = Vec::new();
    for set in ProfileSet::ALL {
        for strict in [Strict::Source, Strict::On] {
            modes.push((strict, set));
        }
    }
    modes
}

fn options(strict: Strict, set: ProfileSet) -> Options {
    Options::default().strict(strict).profile_set(set)
}

/// Whether the options are refused for target `to` before anything is read (strict mode
/// asked of a format without one, or under a profile set without one; a profile set with no
/// entry for the format).
fn refused(to: &dyn Adapter, strict: Strict, set: ProfileSet) -> bool {
    options(strict, set).check_target(to.info()).is_err()
}

// ---------------------------------------------------------------------------------------------
// The invariants, on one conversion.

/// The `error` entries of `report`.
fn errors(report: &Report) -> Vec<&ReportEntry> {
    report.entries().iter().filter(|e| e.severity == Severity::Error).collect()
}

/// Invariant 1: the provider's check finds nothing in what a conversion to `to` wrote.
fn output_passes_check(output: &[u8], to: &dyn Adapter, what: &str) {
    let mut c = Converter::new();
    let report = c
        .check(output, to, to, &Options::default())
        .unwrap_or_else(|e| panic!("{what}: check of the output fails: {e}"));
    let found = errors(report);
    assert!(
        found.is_empty(),
        "{what}: check --to {} finds {found:#?}\nin {}",
        to.name(),
        String::from_utf8_lossy(output)
    );
}

/// Whether pointer `a` is `b` or a place inside it.
fn within(a: &str, b: &str) -> bool {
    a == b || (a.starts_with(b) && a.as_bytes().get(b.len()) == Some(&b'/'))
}

/// The place holding `pointer` (its parent), `None` at the root.
fn parent(pointer: &str) -> Option<&str> {
    pointer.rsplit_once('/').map(|(p, _)| p)
}

/// Whether an entry of `entries` (at `least` severity or above) names `place`: the entry is
/// at it, above it or inside it, or about a sibling member of the same node (a keyword a
/// rewrite replaced with others: a `$ref` inlined writes the definition's keywords beside
/// where it stood).
fn named(entries: &[ReportEntry], place: &str, least: Severity) -> bool {
    entries.iter().filter(|e| e.severity >= least).any(|e| {
        within(place, &e.pointer)
            || within(&e.pointer, place)
            || (parent(place).is_some() && parent(place) == parent(&e.pointer))
    })
}

fn seg(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The places where `b` differs from `a`: a member missing, added or changed, members in
/// another order, an array of another length.
fn differences(a: &Value, b: &Value, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let here = format!("{at}/{}", seg(k));
                match y.get(k) {
                    Some(w) => differences(v, w, &here, out),
                    None => out.push(here),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{at}/{}", seg(k)));
            }
            let order_a: Vec<&String> = x.keys().filter(|k| y.contains_key(*k)).collect();
            let order_b: Vec<&String> = y.keys().filter(|k| x.contains_key(*k)).collect();
            if order_a != order_b {
                out.push(at.to_owned());
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                differences(v, w, &format!("{at}/{i}"), out);
            }
        }
        _ if common::same(a, b) => {}
        _ => out.push(at.to_owned()),
    }
}

/// Invariant 2: the same format keeps the input.
fn same_format_keeps(
    doc: &Doc,
    format: &dyn Adapter,
    set: ProfileSet,
    output: &[u8],
    report: &Report,
    what: &str,
) {
    let input = doc.bytes();
    let mut c = Converter::new();
    let accepted = c
        .check(&input, format, format, &Options::default())
        .map(|r| errors(r).is_empty())
        .unwrap_or(false);
    if accepted && set == ProfileSet::Default {
        assert_eq!(
            String::from_utf8_lossy(output),
            String::from_utf8_lossy(&input),
            "{what}: accepted input does not come out unchanged; report {:#?}",
            report.entries()
        );
        assert!(report.is_empty(), "{what}: accepted input, yet {:#?}", report.entries());
        return;
    }
    let out: Value = serde_json::from_slice(output).expect("json");
    let mut changed = Vec::new();
    differences(&doc.value, &out, "", &mut changed);
    for place in changed {
        assert!(
            named(report.entries(), &place, Severity::Warning),
            "{what}: {place:?} changed without a warning there; report {:#?}\nin  {}\nout {}",
            report.entries(),
            doc.value,
            out
        );
    }
}

/// Every scalar of `v` (strings but empty ones, numbers, booleans), with its key and place,
/// and every property name (a key of a `properties` object).
fn leaves(v: &Value, key: &str, at: &str, out: &mut Vec<(String, String, Value)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let here = format!("{at}/{}", seg(k));
                if key == "properties" {
                    out.push((here.clone(), "<property>".into(), json!(k)));
                }
                leaves(x, k, &here, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, key, &format!("{at}/{i}"), out);
            }
        }
        Value::String(s) if s.is_empty() => {}
        Value::Null => {}
        scalar => out.push((at.to_owned(), key.to_owned(), scalar.clone())),
    }
}

/// What a written document holds, for looking leaves up: its strings and keys (lower case),
/// and its (key, scalar) pairs.
struct Written {
    text: Vec<String>,
    pairs: BTreeSet<(String, String)>,
}

impl Written {
    fn of(v: &Value) -> Written {
        let mut w = Written { text: Vec::new(), pairs: BTreeSet::new() };
        w.add(v, "");
        w
    }

    fn add(&mut self, v: &Value, key: &str) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    self.text.push(k.to_lowercase());
                    self.add(x, k);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| self.add(x, key)),
            Value::String(s) => self.text.push(s.to_lowercase()),
            scalar => {
                self.pairs.insert((key.to_owned(), scalar.to_string()));
            }
        }
    }

    fn holds(&self, key: &str, v: &Value) -> bool {
        match v {
            Value::String(s) => {
                let s = s.to_lowercase();
                self.text.iter().any(|t| t.contains(&s))
            }
            scalar => self.pairs.contains(&(key.to_owned(), scalar.to_string())),
        }
    }
}

/// The (key, scalar) pairs every tool of `format` holds whatever the tool (its frame:
/// OpenAI's `"type": "function"`, the Responses API's stated `strict`): what it writes of a
/// tool without a description or arguments, its name aside.
fn frame(format: &dyn Adapter) -> BTreeSet<(String, String)> {
    let bare = br#"{"name":"frame_probe","inputSchema":{"type":"object","properties":{}}}"#;
    let mut c = Converter::new();
    let Ok(out) = c.convert(bare, adapter("mcp"), format, &Options::default()) else {
        return BTreeSet::new();
    };
    let v: Value = serde_json::from_slice(out.output()).expect("json");
    let mut found = Vec::new();
    leaves(&v, "", "", &mut found);
    found
        .into_iter()
        .filter(|(_, _, x)| x != &json!("frame_probe"))
        .map(|(_, k, x)| (k, x.to_string()))
        .collect()
}

/// Invariant 3: every member of the input is written, or named by an entry.
fn nothing_leaves_unsaid(
    input: &Value,
    output: &[u8],
    report: &Report,
    frame: &BTreeSet<(String, String)>,
    what: &str,
) {
    let written = Written::of(&serde_json::from_slice(output).expect("json"));
    let mut found = Vec::new();
    leaves(input, "", "", &mut found);
    for (place, key, v) in found {
        if frame.contains(&(key.clone(), v.to_string())) || written.holds(&key, &v) {
            continue;
        }
        assert!(
            named(report.entries(), &place, Severity::Info),
            "{what}: {key} {v} at {place} is not written and no entry names it; report {:#?}\nin  {input}\nout {}",
            report.entries(),
            String::from_utf8_lossy(output)
        );
    }
}

/// One conversion of the matrix through the library, with every invariant that holds for it.
/// Returns the output, `None` where the options are refused (a strict conversion under a
/// profile set without strict mode).
fn convert_and_hold(
    doc: &Doc,
    from: &dyn Adapter,
    to: &dyn Adapter,
    strict: Strict,
    set: ProfileSet,
    frame: &BTreeSet<(String, String)>,
) -> Option<Vec<u8>> {
    let what =
        format!("{} → {} (strict {strict:?}, profile {})", doc.label, to.name(), set.as_str());
    let mut c = Converter::new();
    let result = c.convert(&doc.bytes(), from, to, &options(strict, set));
    let conversion = match result {
        Ok(c) => c,
        Err(e) if refused(to, strict, set) => {
            assert!(matches!(e.kind(), ErrorKind::InvalidOptions(_)), "{what}: {e}");
            return None;
        }
        // A single tool the target has no place for (a provider's built-in, read alone): the
        // error says why, nothing is written.
        Err(e) if matches!(e.kind(), ErrorKind::NotConvertible(_)) && !doc.value.is_array() => {
            assert!(from.name() != to.name(), "{what}: {e}");
            return None;
        }
        Err(e) => panic!("{what}: {e}"),
    };
    let output = conversion.output().to_vec();
    output_passes_check(&output, to, &what);
    if from.name() == to.name() && strict == Strict::Source {
        same_format_keeps(doc, from, set, &output, conversion.report(), &what);
    }
    nothing_leaves_unsaid(&doc.value, &output, conversion.report(), frame, &what);
    Some(output)
}

// ---------------------------------------------------------------------------------------------
// The suites.

#[test]
fn every_conversion_holds_the_invariants() {
    let mut conversions = 0;
    for from in readable() {
        let docs = docs_of(from);
        let frame = frame(from);
        for to in writable() {
            for (strict, set) in modes() {
                for doc in &docs {
                    if convert_and_hold(doc, from, to, strict, set, &frame).is_some() {
                        conversions += 1;
                    }
                }
            }
        }
    }
    assert!(conversions > 1000, "{conversions}");
}

/// An OpenAPI document of the generated tools, one `POST` operation each with the tool's
/// input schema as its JSON body.
fn openapi_document(seed: u64) -> Value {
    let mut paths = Map::new();
    for tool in mcp_tools(seed) {
        let name = tool["name"].as_str().unwrap().to_owned();
        let mut op = json!({"operationId": name,
            "requestBody": {"required": true, "content": {"application/json": {"schema": tool["inputSchema"]}}},
            "responses": {"200": {"description": "ok"}}});
        if let Some(d) = tool.get("description") {
            op["summary"] = d.clone();
        }
        paths.insert(format!("/{name}"), json!({ "post": op }));
    }
    json!({"openapi": "3.1.0", "info": {"title": "Generated", "version": "1"}, "paths": paths})
}

#[test]
fn an_imported_document_converts_to_what_every_target_accepts() {
    let from = formats().into_iter().find(|f| f.info().imports).expect("an importing format");
    for seed in SEEDS {
        let doc =
            Doc { label: format!("{} seed {seed}", from.name()), value: openapi_document(seed) };
        for to in writable() {
            for (strict, set) in modes() {
                let what = format!("{} → {} ({strict:?}, {})", doc.label, to.name(), set.as_str());
                let mut c = Converter::new();
                match c.convert(&doc.bytes(), from, to, &options(strict, set)) {
                    Ok(conversion) => output_passes_check(conversion.output(), to, &what),
                    Err(e) => assert!(refused(to, strict, set), "{what}: {e}"),
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The CLI: the same conversions, NDJSON and folders; check; unmap.

fn cli_flags(from: &str, to: &str, strict: Strict, set: ProfileSet) -> Vec<String> {
    let mut args: Vec<String> =
        ["convert", "--from", from, "--to", to, "--jobs", "1", "--report", "none"]
            .map(String::from)
            .to_vec();
    if strict == Strict::On {
        args.push("--strict".into());
    }
    args.extend(["--profile".to_owned(), set.as_str().to_owned()]);
    args
}

fn run(args: &[String], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    bin::run(&args, stdin)
}

#[test]
fn the_cli_writes_what_the_library_writes_and_its_check_agrees() {
    for from in cli_readable() {
        let docs = docs_of(from);
        let ndjson: Vec<u8> =
            docs.iter().flat_map(|d| [d.bytes(), b"\n".to_vec()].concat()).collect();
        // `check` of the inputs: the CLI exits 1 exactly when the library finds something.
        let found = docs.iter().any(|d| {
            let mut c = Converter::new();
            c.check(&d.bytes(), from, from, &Options::default())
                .map(|r| !errors(r).is_empty())
                .unwrap_or(true)
        });
        let check = ["check", "--to", from.name(), "--ndjson", "--jobs", "1"].map(String::from);
        let (code, _, err) = run(&check, &ndjson);
        assert_eq!(code, i32::from(found), "check --to {}: {err}", from.name());
        for to in cli_writable() {
            for (strict, set) in modes() {
                let what =
                    format!("{} → {} ({strict:?}, {})", from.name(), to.name(), set.as_str());
                let mut args = cli_flags(from.name(), to.name(), strict, set);
                args.push("--ndjson".into());
                let (code, out, err) = run(&args, &ndjson);
                let expected: Vec<Option<Vec<u8>>> = docs
                    .iter()
                    .map(|d| {
                        let mut c = Converter::new();
                        c.convert(&d.bytes(), from, to, &options(strict, set))
                            .ok()
                            .map(|c| c.output().to_vec())
                    })
                    .collect();
                if refused(to, strict, set) {
                    assert!(code != 0 && out.is_empty(), "{what}: refused options: {err}");
                    continue;
                }
                assert!(code == 0 || code == 1, "{what}: exit {code}: {err}");
                let lines: Vec<&[u8]> =
                    out.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
                let expected: Vec<Vec<u8>> = expected.into_iter().flatten().collect();
                assert_eq!(lines.len(), expected.len(), "{what}: {err}");
                for (line, lib) in lines.iter().zip(&expected) {
                    assert_eq!(
                        String::from_utf8_lossy(line),
                        String::from_utf8_lossy(lib),
                        "{what}"
                    );
                }
                // The CLI's check of what the CLI wrote.
                let check =
                    ["check", "--to", to.name(), "--ndjson", "--jobs", "1"].map(String::from);
                let (code, out, err) = run(&check, &lines.join(&b'\n'));
                assert_eq!(
                    code,
                    0,
                    "{what}: check of the output: {}{err}",
                    String::from_utf8_lossy(&out)
                );
            }
        }
    }
}

/// A fresh folder under the system's temporary folder.
fn temp_folder(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tooladapter-matrix-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

fn read_folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("folder")
        .flatten()
        .map(|e| {
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).expect("read"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_folder_converts_to_what_the_library_writes() {
    for from in cli_readable() {
        let docs = docs_of(from);
        let input = temp_folder(&format!("in-{}", from.name()));
        for (i, d) in docs.iter().enumerate() {
            std::fs::write(input.join(format!("doc{i:03}.json")), d.bytes()).expect("write");
        }
        for to in cli_writable() {
            let output = temp_folder(&format!("out-{}-{}", from.name(), to.name()));
            let mut args = cli_flags(from.name(), to.name(), Strict::Source, ProfileSet::Default);
            args.extend([
                "-o".to_owned(),
                output.display().to_string(),
                input.display().to_string(),
            ]);
            let (code, _, err) = run(&args, b"");
            assert!(code == 0 || code == 1, "{} → {}: exit {code}: {err}", from.name(), to.name());
            let written = read_folder(&output);
            assert_eq!(written.len(), docs.len(), "{} → {}: {err}", from.name(), to.name());
            for ((name, bytes), d) in written.iter().zip(&docs) {
                let mut c = Converter::new();
                let lib = c.convert(&d.bytes(), from, to, &Options::default()).expect("converts");
                // A file ends with a line break.
                let text = String::from_utf8_lossy(bytes);
                assert_eq!(text.strip_suffix('\n'), Some(lib.output_str()), "{name}: {}", d.label);
            }
            let _ = std::fs::remove_dir_all(&output);
        }
        let _ = std::fs::remove_dir_all(&input);
    }
}

/// A model's call of each tool of `written` (a catalog of `to`), as the MCP fixture `source`
/// tool takes it: every property of the strict schema sent, the optional ones as `null`.
fn calls(to: &dyn Adapter, written: &Value, sources: &[Value]) -> Vec<Value> {
    let keys: Vec<&str> = to.info().name_pointer.split('/').skip(1).collect();
    list_of(to.info(), written)
        .iter()
        .zip(sources)
        .map(|(tool, source)| {
            let mut name = tool;
            for k in &keys {
                name = &name[*k];
            }
            let schema = &source["inputSchema"];
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut args = Map::new();
            for (k, s) in schema["properties"].as_object().into_iter().flatten() {
                let v = if required.contains(&k.as_str()) { sample(s) } else { Value::Null };
                args.insert(k.clone(), v);
            }
            json!({"name": name, "arguments": args})
        })
        .collect()
}

/// A value of the type a property schema names (a string where it names none).
fn sample(s: &Value) -> Value {
    match s["type"].as_str() {
        Some("integer") => json!(3),
        Some("number") => json!(1.5),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        _ => json!("v1"),
    }
}

#[test]
fn unmap_gives_back_what_the_library_gives_back() {
    let map = temp_folder("maps");
    for from in cli_readable() {
        for to in cli_writable().into_iter().filter(|t| t.info().holds_strict()) {
            for seed in SEEDS {
                let sources = mcp_tools(seed);
                let what = format!("{} → {} seed {seed}", from.name(), to.name());
                // The tools written in `from`, then converted strict into `to`.
                let mcp = serde_json::to_vec(&json!({ "tools": sources })).unwrap();
                let mut c = Converter::new();
                let input = c
                    .convert(&mcp, adapter("mcp"), from, &Options::default())
                    .expect("converts")
                    .output()
                    .to_vec();
                let read = list_of(from.info(), &serde_json::from_slice(&input).unwrap());
                if read.len() != sources.len() {
                    continue;
                }
                let strict = Options::default().strict(Strict::On);
                let conversion =
                    c.convert(&input, from, to, &strict).unwrap_or_else(|e| panic!("{what}: {e}"));
                let written: Value = serde_json::from_slice(conversion.output()).unwrap();
                let inverse = conversion.inverse().clone();
                let file = map.join("map.json");
                let mut args = cli_flags(from.name(), to.name(), Strict::On, ProfileSet::Default);
                args.extend(["--map-out".to_owned(), file.display().to_string()]);
                let (code, out, err) = run(&args, &input);
                assert_eq!(code, 0, "{what}: {err}");
                let text = String::from_utf8_lossy(&out);
                assert_eq!(text.trim_end(), conversion.output_str(), "{what}");
                for (call, source) in calls(to, &written, &sources).iter().zip(&sources) {
                    let lib = inverse.unmap_call(call).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(lib.name, source["name"].as_str().unwrap(), "{what}: {call}");
                    let unmap =
                        ["unmap".to_owned(), "--map".to_owned(), file.display().to_string()];
                    let (code, out, err) = run(&unmap, call.to_string().as_bytes());
                    assert_eq!(code, 0, "{what}: {err}");
                    let cli: Value = serde_json::from_slice(&out).expect("json");
                    assert_eq!(cli, serde_json::to_value(&lib).unwrap(), "{what}: {call}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&map);
}

// ---------------------------------------------------------------------------------------------
// The findings of issue 31 (items 1, 2, 3 and 5), each as a user met it.

fn check_entries(input: &[u8], to: &str) -> Vec<ReportEntry> {
    let mut c = Converter::new();
    let report = c.check(input, adapter(to), adapter(to), &Options::default()).expect("checks");
    report.entries().to_vec()
}

fn same_format(input: &[u8], format: &str) -> (String, Vec<ReportEntry>) {
    let mut c = Converter::new();
    let f = adapter(format);
    let out = c.convert(input, f, f, &Options::default()).expect("converts");
    (out.output_str().to_owned(), out.report().entries().to_vec())
}

#[test]
fn a_responses_function_tool_passes_check_and_comes_back_unchanged() {
    let tool = br#"{"type":"function","name":"ping","parameters":{"type":"object","properties":{}},"strict":false}"#;
    assert!(check_entries(tool, "openai-responses").is_empty());
    let (code, out, err) = bin::run(&["check", "--to", "openai-responses"], tool);
    assert_eq!(code, 0, "{}{err}", String::from_utf8_lossy(&out));
    assert_eq!(
        same_format(tool, "openai-responses"),
        (String::from_utf8_lossy(tool).into(), vec![])
    );
    // The members the API defines stay; one it does not is refused, and dropped with a warning.
    let deferred = br#"{"type":"function","name":"get","description":"d","parameters":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},"strict":true,"defer_loading":true}"#;
    assert!(check_entries(deferred, "openai-responses").is_empty());
    assert_eq!(same_format(deferred, "openai-responses").0, String::from_utf8_lossy(deferred));
    let unknown = br#"{"type":"function","name":"get","parameters":{"type":"object","properties":{}},"strict":false,"response":{"type":"string"}}"#;
    let found = check_entries(unknown, "openai-responses");
    assert_eq!(found.iter().map(|e| e.pointer.as_str()).collect::<Vec<_>>(), ["/response"]);
    let (out, entries) = same_format(unknown, "openai-responses");
    assert!(!out.contains("response"), "{out}");
    assert!(entries.iter().any(|e| e.pointer == "/response" && e.severity == Severity::Warning));
}

#[test]
fn each_gemini_schema_field_is_judged_by_its_own_rules() {
    // `additionalProperties`, a `$ref` and an `anyOf` beside a description: JSON Schema the
    // API takes in `parametersJsonSchema`, not in `parameters`.
    let schema = r##"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}],"description":"A"},"p":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"c":{"type":"string"}}}},"additionalProperties":false}"##;
    for field in ["parametersJsonSchema", "parameters_json_schema"] {
        let decl = format!(r#"{{"functionDeclarations":[{{"name":"f","{field}":{schema}}}]}}"#);
        for format in ["gemini", "gemini-json"] {
            let found = check_entries(decl.as_bytes(), format);
            assert!(found.is_empty(), "{format} {field}: {found:#?}");
            assert_eq!(same_format(decl.as_bytes(), format), (decl.clone(), vec![]), "{format}");
        }
    }
    // The same schema in `parameters` breaks its rules, whichever Gemini format checks it.
    let decl = format!(r#"{{"name":"f","parameters":{schema}}}"#);
    for format in ["gemini", "gemini-json"] {
        let found = check_entries(decl.as_bytes(), format);
        assert!(
            found.iter().any(|e| e.pointer == "/parameters/additionalProperties"),
            "{format}: {found:#?}"
        );
    }
    // Type names as the declaration spelled them: the API reads either case.
    let lower = br#"{"name":"f","parameters":{"type":"object","properties":{"c":{"type":"string"}},"required":["c"]}}"#;
    assert_eq!(same_format(lower, "gemini"), (String::from_utf8_lossy(lower).into(), vec![]));
}

#[test]
fn a_request_body_comes_back_whole_into_its_own_format() {
    let anthropic = br#"{"model":"claude-x","max_tokens":100,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"ping","description":"p","input_schema":{"type":"object","properties":{}},"cache_control":{"type":"ephemeral"},"defer_loading":true},{"type":"web_search_20250305","name":"web_search","max_uses":3}],"tool_choice":{"type":"auto"}}"#;
    let chat = br#"{"model":"gpt","messages":[],"tools":[{"type":"function","function":{"name":"ping","parameters":{"type":"object","properties":{}}}}],"tool_choice":"auto"}"#;
    let responses = br#"{"model":"gpt","input":"hi","tools":[{"type":"function","name":"get","parameters":{"type":"object","properties":{}},"strict":false,"defer_loading":true},{"type":"tool_search"},{"type":"namespace","name":"crm","description":"CRM","tools":[{"type":"function","name":"find","parameters":{"type":"object","properties":{}}}]}]}"#;
    let namespace = br#"{"type":"namespace","name":"crm","description":"CRM tools","tools":[{"type":"function","name":"get","description":"d","parameters":{"type":"object","properties":{}},"defer_loading":true}]}"#;
    for (format, input) in [
        ("anthropic", &anthropic[..]),
        ("openai", &chat[..]),
        ("openai-responses", &responses[..]),
        ("openai-responses", &namespace[..]),
    ] {
        let text = String::from_utf8_lossy(input).into_owned();
        assert_eq!(same_format(input, format), (text.clone(), vec![]), "{format}");
        let args = ["convert", "--from", format, "--to", format, "--deny-loss"];
        let (code, out, err) = bin::run(&args, input);
        assert_eq!((code, String::from_utf8_lossy(&out).trim_end()), (0, text.as_str()), "{err}");
        // Into another format, each request member is reported: none goes unsaid.
        let mut c = Converter::new();
        let other = c.convert(input, adapter(format), adapter("mcp"), &Options::default()).unwrap();
        let dropped: Vec<&str> = other
            .report()
            .entries()
            .iter()
            .filter(|e| e.code == tooladapter::Code::CatalogMemberDropped)
            .map(|e| e.feature.as_str())
            .collect();
        let members = serde_json::from_slice::<Map<String, Value>>(input).unwrap();
        let expected: Vec<&str> =
            members.keys().map(String::as_str).filter(|k| *k != "tools").collect();
        assert_eq!(dropped, expected, "{format}");
    }
}

#[test]
fn toolfoundation_output_passes_the_providers_check() {
    // No root `properties` (OpenAI refuses it), an `anyOf` beside a description and an object
    // without properties (Gemini refuses both), `additionalProperties` (Gemini refuses it).
    let tool = br#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}],"description":"A"},"o":{"type":"object"},"q":{"type":"string","format":"email"}},"additionalProperties":false}}"#;
    let bare = br#"{"name":"t","inputSchema":{"type":"object"}}"#;
    let tf = Options::default().profile_set(ProfileSet::ToolFoundation);
    for to in
        writable().into_iter().filter(|t| !refused(*t, Strict::Source, ProfileSet::ToolFoundation))
    {
        for input in [&tool[..], &bare[..]] {
            let mut c = Converter::new();
            let out = c.convert(input, adapter("mcp"), to, &tf).expect("converts");
            output_passes_check(out.output(), to, &format!("toolfoundation → {}", to.name()));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus variant (feature `corpus`, run by `.ci/run`): the same invariants, through the
// library, on every corpus MCP catalog written in every format and on every recorded tool of
// the provider payloads, read in its own format.

#[cfg(feature = "corpus")]
mod corpus {
    use rayon::prelude::*;

    use super::*;

    /// The provider payload files and the format their elements are written in.
    const PAYLOADS: [(&str, &str); 7] = [
        ("pydantic-ai/openai-chat-completions", "openai"),
        ("pydantic-ai/openai-compatible-chat-completions", "openai"),
        ("pydantic-ai/openai-responses", "openai-responses"),
        ("pydantic-ai/openai-responses-compatible", "openai-responses"),
        ("vercel-ai/openai-responses-echoed", "openai-responses"),
        ("pydantic-ai/anthropic-messages", "anthropic"),
        ("pydantic-ai/gemini-generate-content", "gemini"),
    ];

    /// Every corpus catalog is MCP: converted to every target in every mode. Written in each
    /// other format, it is converted into that format itself, back into MCP, and into one more
    /// target, which turns with the catalog's place, so that every pair of formats meets the
    /// corpus within a time a debug build of CI affords.
    #[test]
    fn every_corpus_catalog_in_every_format_holds_the_invariants() {
        let catalogs = common::catalogs();
        assert!(catalogs.len() > 100, "{}", catalogs.len());
        let mcp = adapter("mcp");
        let targets = writable();
        let frames: Vec<_> = readable().into_iter().map(|f| (f, frame(f))).collect();
        let conversions: usize = catalogs
            .par_iter()
            .enumerate()
            .map(|(k, (path, bytes))| {
                let mut n = 0;
                for (from, frame) in &frames {
                    let mut c = Converter::new();
                    let Ok(written) = c.convert(bytes, mcp, *from, &Options::default()) else {
                        continue;
                    };
                    let value: Value = serde_json::from_slice(written.output()).expect("json");
                    let doc = Doc { label: format!("{path} as {}", from.name()), value };
                    let turning = targets[k % targets.len()];
                    let runs: Vec<(&dyn Adapter, Strict, ProfileSet)> = if from.name() == mcp.name()
                    {
                        targets
                            .iter()
                            .flat_map(|t| modes().into_iter().map(|(s, p)| (*t, s, p)))
                            .collect()
                    } else {
                        [*from, mcp, turning]
                            .into_iter()
                            .map(|t| (t, Strict::Source, ProfileSet::Default))
                            .collect()
                    };
                    for (to, strict, set) in runs {
                        if convert_and_hold(&doc, *from, to, strict, set, frame).is_some() {
                            n += 1;
                        }
                    }
                }
                n
            })
            .sum();
        assert!(conversions > 5_000, "{conversions}");
    }

    #[test]
    fn every_recorded_provider_tool_holds_the_invariants() {
        let root = common::corpus().join("provider-payloads");
        let mut n = 0;
        for (stem, format) in PAYLOADS {
            let from = adapter(format);
            let frame = frame(from);
            let text = std::fs::read(root.join(format!("{stem}.tools.json"))).expect("payloads");
            let elements: Vec<Value> = serde_json::from_slice(&text).expect("json");
            for (i, value) in elements.into_iter().enumerate() {
                let doc = Doc { label: format!("{stem}[{i}]"), value };
                for to in writable() {
                    if convert_and_hold(&doc, from, to, Strict::Source, ProfileSet::Default, &frame)
                        .is_some()
                    {
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 2000, "{n}");
    }
}
