//! Mis-declared input: every format's sample tool, catalog and request read as every other
//! format. Each is refused with the "looks like X" error naming the format it is, unless the
//! pair is a real reading the docs list (docs/formats/README.md, "Inputs read as another
//! format"); then it converts, its schema whole.

use std::path::Path;

use serde_json::Value;
use tooladapter::formats::builtins;
use tooladapter::{Conversion, ConversionError, Registry};

/// A tool with a schema the sample formats all hold: every sample is this tool in its format.
const MCP_TOOL: &str = r#"{"name":"get_weather","description":"Current weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"The city"}},"required":["city"]}}"#;

/// The formats read tool by tool (not imported), by name.
fn readers() -> Vec<&'static str> {
    builtins().iter().filter(|a| a.info().reads && !a.info().imports).map(|a| a.name()).collect()
}

fn family(name: &str) -> &'static str {
    builtins().iter().find(|a| a.name() == name).map_or("", |a| a.info().family)
}

/// The format whose shape `name`'s tools are (`FormatInfo::wire_of`), `name` itself for a
/// format of its own shape: formats of one shape read each other's documents as they are.
fn shape_of(name: &'static str) -> &'static str {
    builtins().iter().find(|a| a.name() == name).and_then(|a| a.info().wire_of).unwrap_or(name)
}

/// Each format's samples: (format, shape, document). A tool and a catalog written by the
/// converter from [`MCP_TOOL`], and the request body in `tests/data/requests/` where the
/// format has one (an MCP `tools/list` response, an A2A AgentCard, a Bedrock `toolConfig`,
/// the providers' request bodies); an OpenAPI document for the import.
fn samples() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let registry = Registry::default();
    let catalog =
        format!(r#"{{"tools":[{MCP_TOOL},{}]}}"#, MCP_TOOL.replace("get_weather", "get_time"));
    let mut out = Vec::new();
    for a in builtins().iter().filter(|a| a.info().writes) {
        for (shape, input) in [("tool", MCP_TOOL), ("catalog", catalog.as_str())] {
            let c = registry.convert(input.as_bytes(), "mcp", a.name()).expect("written");
            out.push((a.name(), shape, c.output().to_vec()));
        }
        let request = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/requests")
            .join(format!("{}.json", a.name()));
        if let Ok(bytes) = std::fs::read(&request) {
            out.push((a.name(), "request", bytes));
        }
    }
    let openapi = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openapi/store.json");
    out.push(("openapi", "document", std::fs::read(openapi).expect("openapi")));
    out
}

/// The readings docs/formats/README.md lists as real: (the sample's format, its shape, the
/// format it is read as), by shape: they hold for every format sharing the shape. Formats of
/// one family read each other's documents (they are one API), formats of one shape too (a
/// Mistral tool is an OpenAI Chat tool), and every format reads its own.
const DOCUMENTED: &[(&str, &str, &str)] = &[
    // A Gemini declaration `{name, description, parameters}` is OpenAI's bare function too
    // (Chat Completions' legacy `functions`; a Responses tool without its `type`); Gemini's
    // upper-case type names are read as JSON Schema's, each with an `info` entry.
    ("gemini", "tool", "openai"),
    ("gemini", "tool", "openai-responses"),
];

fn outcome(input: &[u8], from: &str) -> Result<Conversion, ConversionError> {
    Registry::default().convert(input, from, "mcp")
}

#[test]
fn every_sample_read_as_every_other_format_is_refused_or_documented() {
    let mut failures = Vec::new();
    let mut refused = 0;
    for (format, shape, input) in samples() {
        for reader in readers() {
            if reader == format
                || family(reader) == family(format) && !family(format).is_empty()
                || shape_of(reader) == shape_of(format)
            {
                continue;
            }
            let documented = DOCUMENTED.contains(&(shape_of(format), shape, shape_of(reader)));
            let what = format!("{format} {shape} read as {reader}");
            match outcome(&input, reader) {
                Err(e) if e.suggests_other_format() => {
                    refused += 1;
                    // A format sharing another's shape is named by that one.
                    let names_it = e.to_string().contains(&format!("`{format}`"))
                        || e.to_string().contains(&format!("`{}`", family(format)))
                        || e.to_string().contains(&format!("`{}`", shape_of(format)));
                    if !names_it {
                        failures.push(format!("{what}: refused without naming `{format}`: {e}"));
                    }
                    if documented {
                        failures.push(format!("{what}: documented as read, but refused: {e}"));
                    }
                }
                Err(e) => failures.push(format!("{what}: refused without a guess: {e}")),
                Ok(c) if documented => {
                    let out: Value = serde_json::from_slice(c.output()).expect("json");
                    if !out
                        .to_string()
                        .contains(r#""city":{"description":"The city","type":"string"}"#)
                        && !out.to_string().contains(r#""city":{"type":"string""#)
                    {
                        failures.push(format!("{what}: read, but the schema is gone: {out}"));
                    }
                }
                Ok(c) => failures.push(format!("{what}: converted: {}", c.output_str())),
            }
        }
    }
    assert!(failures.is_empty(), "{} of the pairs:\n{}", failures.len(), failures.join("\n"));
    assert!(refused > 150, "{refused}");
}

/// `formats::detect` (the Python binding's `from_="auto"`) on every sample: the format the
/// sample is in (within its family), or a refusal as ambiguous that names it; never another
/// format. Most samples are told.
#[test]
fn detect_names_each_samples_format_or_refuses() {
    let limits = tooladapter::Limits::default();
    let (mut told, mut refused) = (0, Vec::new());
    for (format, shape, doc) in samples() {
        match tooladapter::formats::detect(&doc, &limits) {
            // A format sharing another's shape is told as that one (its shape's owner).
            Ok(info) => {
                assert_eq!(
                    family(info.name),
                    family(shape_of(format)),
                    "{format} {shape} told as {}",
                    info.name
                );
                told += 1;
            }
            Err(e) => {
                let text = e.to_string();
                assert!(
                    text.contains("equally") && text.contains(shape_of(format)),
                    "{format} {shape}: {text}"
                );
                refused.push(format!("{format} {shape}"));
            }
        }
    }
    assert!(told > 2 * refused.len(), "told {told}, refused {refused:?}");
    let none = tooladapter::formats::detect(br#"{"hello":"world"}"#, &limits);
    assert!(none.is_err_and(|e| e.kind().name() == "shape"));
}
