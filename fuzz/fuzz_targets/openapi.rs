//! OpenAPI import: any bytes read as an OpenAPI document and converted to a writable format.
//! The first byte picks the target, the strict mode and whether an `--operations` filter is
//! set. Whatever the import accepts must come out as JSON with a serializable inverse map, and
//! the pre-flight check must not fail where the conversion read the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::formats::OpenApi;
use tooladapter::{Converter, Options, Registry, Strict};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let registry = Registry::default();
    let targets: Vec<String> = registry
        .list()
        .into_iter()
        .filter(|n| registry.get(n).is_some_and(|a| a.info().writes))
        .collect();
    let pick = usize::from(pick);
    let Some(to) = targets.get(pick % targets.len()).and_then(|n| registry.get(n)) else {
        return;
    };
    let strict =
        [Strict::Source, Strict::On, Strict::Require, Strict::Off][pick / targets.len() % 4];
    let from = if pick / (targets.len() * 4) % 2 == 1 {
        OpenApi::new().operations("*e?*").operations("list*")
    } else {
        OpenApi::new()
    };
    let options = Options::default().strict(strict);
    let mut converter = Converter::new();
    if let Ok(c) = converter.convert(input, &from, &*to, &options) {
        // `IgnoredAny`, not `Value`: with serde_json's `raw_value` on (a dependency turns it
        // on), `Value` treats a member named `$serde_json::private::RawValue` as a raw value
        // and rejects valid JSON that has one.
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(c.output()).is_ok());
        assert!(serde_json::to_vec(c.inverse()).is_ok());
        assert!(converter.check(input, &from, &*to, &options).is_ok());
    }
});
