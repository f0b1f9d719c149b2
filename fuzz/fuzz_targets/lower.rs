//! Any bytes through parse → lower → emit (MCP → MCP): `Ok` or a typed error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::{Converter, Options, formats::Mcp};

fuzz_target!(|data: &[u8]| {
    let mut converter = Converter::new();
    if let Ok(c) = converter.convert(data, &Mcp, &Mcp, &Options::default()) {
        // Whatever is accepted must come out as JSON.
        // `IgnoredAny`, not `Value`: with serde_json's `raw_value` on (a dependency turns it
        // on), `Value` treats a member named `$serde_json::private::RawValue` as a raw value
        // and rejects valid JSON that has one.
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(c.output()).is_ok());
    }
});
