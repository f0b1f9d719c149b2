//! Any bytes through the traffic readers and writers. The first byte picks the (from, to) pair
//! among the formats that speak traffic and the kind (or none: told from the shape). A
//! conversion that succeeds writes JSON that the target's own reader reads back as the same
//! kind, and converts back to the source (with the ids it wrote) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::formats::builtins;
use tooladapter::traffic::TrafficKind;
use tooladapter::{Converter, TrafficOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let formats: Vec<_> = builtins().iter().copied().filter(|a| a.traffic().is_some()).collect();
    let (n, p) = (formats.len(), usize::from(pick));
    let (Some(from), Some(to)) = (formats.get(p % n), formats.get(p / n % n)) else { return };
    let kinds = [
        None,
        Some(TrafficKind::Calls),
        Some(TrafficKind::Results),
        Some(TrafficKind::Messages),
        Some(TrafficKind::Response),
    ];
    let kind = kinds.get(p / (n * n) % kinds.len()).copied().flatten();
    let mut c = Converter::new();
    let options = TrafficOptions { kind, ..TrafficOptions::default() };
    let Ok(out) = c.convert_traffic(input, *from, *to, &options) else { return };
    // `IgnoredAny`, not `Value`: see the `convert` target.
    assert!(serde_json::from_slice::<serde::de::IgnoredAny>(out.output()).is_ok());
    let (output, ids, kind) = (out.output().to_vec(), out.ids().clone(), out.kind());
    let same = TrafficOptions { kind, ..TrafficOptions::default() };
    if let Err(e) = c.convert_traffic(&output, *to, *to, &same) {
        panic!("{} wrote what it cannot read: {e}", to.name());
    }
    let back = TrafficOptions { kind, ids: Some(&ids), ..TrafficOptions::default() };
    let _ = c.convert_traffic(&output, *to, *from, &back);
});
