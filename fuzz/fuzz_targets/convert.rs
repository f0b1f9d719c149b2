//! Any bytes through every (from, to) pair: the first byte picks the pair.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::Registry;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let registry = Registry::default();
    let names = registry.list();
    let n = names.len();
    let (Some(from), Some(to)) =
        (names.get(usize::from(pick) % n), names.get(usize::from(pick) / n % n))
    else {
        return;
    };
    if let Ok(c) = registry.convert(input, from, to) {
        assert!(serde_json::from_slice::<serde_json::Value>(c.output()).is_ok());
    }
});
