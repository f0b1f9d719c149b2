//! Any bytes through every (from, to) pair and strict mode: the first byte picks them. The
//! inverse map of every conversion must serialize, and the pre-flight check must not fail
//! where the conversion read the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::{Converter, Options, Registry};

mod pick;
use pick::Picked;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let registry = Registry::default();
    let Some(Picked { from: f, to: t, strict, .. }) = pick::pick(&registry, pick) else { return };
    let options = Options::default().strict(strict);
    let mut converter = Converter::new();
    if let Ok(c) = converter.convert(input, &*f, &*t, &options) {
        // `IgnoredAny`, not `Value`: with serde_json's `raw_value` on (a dependency turns it
        // on), `Value` treats a member named `$serde_json::private::RawValue` as a raw value
        // and rejects valid JSON that has one.
        assert!(serde_json::from_slice::<serde::de::IgnoredAny>(c.output()).is_ok());
        assert!(serde_json::to_vec(c.inverse()).is_ok());
        assert!(converter.check(input, &*f, &*t, &options).is_ok());
    }
});
