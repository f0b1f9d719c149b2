//! Oracle: when a conversion reports nothing at warning or above, the converted schema accepts
//! exactly what the source accepts. Input: a schema S and an instance I (two JSON values in a
//! row, the first byte picking the target). S is wrapped as property `x` of an MCP tool's input
//! schema and I as `{"x": I}`, so the root rules of the targets do not come into play.
#![no_main]

#[path = "../../tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tooladapter::{Registry, Severity};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
    let (Some(Ok(schema)), Some(Ok(instance))) = (values.next(), values.next()) else { return };
    let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {"x": schema}}});
    let Ok(bytes) = serde_json::to_vec(&tool) else { return };
    let registry = Registry::default();
    let names = registry.list();
    let Some(to) = names.get(usize::from(pick) % names.len()) else { return };
    let Ok(conversion) = registry.convert(&bytes, "mcp", to) else { return };
    if conversion.report().max_severity() >= Some(Severity::Warning) {
        return;
    }
    let Some(converted) = common::converted_schema(&registry, to, conversion.output()) else {
        panic!("no input schema in the {to} output");
    };
    // Schemas the validator cannot compile (invalid, or refs it will not fetch) prove nothing.
    let (Ok(a), Ok(b)) =
        (jsonschema::validator_for(&tool["inputSchema"]), jsonschema::validator_for(&converted))
    else {
        return;
    };
    let instance = json!({"x": instance});
    assert_eq!(
        a.is_valid(&instance),
        b.is_valid(&instance),
        "verdict changed without a warning converting to {to}: {converted}"
    );
});
