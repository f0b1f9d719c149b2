//! Oracles: MCP → MCP reproduces what it accepted; X → MCP → X is stable on the second pass.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::Registry;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let registry = Registry::default();
    // MCP → MCP: the output, read again, gives the same bytes (the writer is canonical for
    // compact output, so the first pass may only change white space).
    if let Ok(once) = registry.convert(input, "mcp", "mcp") {
        let twice = registry.convert(once.output(), "mcp", "mcp").expect("own output reads back");
        assert_eq!(once.output(), twice.output());
        // With nothing reported, nothing may have changed.
        if once.report().is_empty() {
            use serde::de::IgnoredAny;
            assert!(serde_json::from_slice::<IgnoredAny>(input).is_ok(), "accepted input is JSON");
            assert!(serde_json::from_slice::<IgnoredAny>(once.output()).is_ok(), "output is JSON");
            // `Value` cannot hold a document with a member named
            // `$serde_json::private::RawValue` (serde_json's `raw_value`, which a dependency
            // turns on, reads it as a raw value): such a document is not compared.
            if let (Ok(a), Ok(b)) = (
                serde_json::from_slice::<serde_json::Value>(input),
                serde_json::from_slice::<serde_json::Value>(once.output()),
            ) {
                assert_eq!(a, b, "MCP → MCP changed the document without a report entry");
            }
        }
    }
    // X → MCP → X, then once more: the second round trip changes nothing.
    let names = registry.list();
    let Some(x) = names.get(usize::from(pick) % names.len()) else { return };
    let Ok(first) = registry.convert(input, x, x) else { return };
    let Ok(mcp) = registry.convert(first.output(), x, "mcp") else { return };
    let Ok(back) = registry.convert(mcp.output(), "mcp", x) else { return };
    let Ok(mcp2) = registry.convert(back.output(), x, "mcp") else { return };
    let back2 = registry.convert(mcp2.output(), "mcp", x).expect("second pass converts");
    assert_eq!(back.output(), back2.output(), "{x} → mcp → {x} is not idempotent");
});
