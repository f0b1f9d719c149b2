//! Replays every fuzz seed through every (from, to) pair on stable Rust, so the inputs the
//! fuzzers start from, and every finding kept as a seed, are checked by plain `cargo test`.

use std::path::Path;

use tooladapter::Registry;

#[test]
fn every_seed_converts_or_fails_cleanly_for_every_pair() {
    let registry = Registry::default();
    let names = registry.list();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut seeds = 0;
    let mut converted = 0;
    for target in std::fs::read_dir(&root).expect("fuzz/seeds") {
        for seed in std::fs::read_dir(target.expect("entry").path()).expect("seed dir") {
            let bytes = std::fs::read(seed.expect("entry").path()).expect("seed");
            seeds += 1;
            for from in &names {
                for to in &names {
                    if let Ok(c) = registry.convert(&bytes, from, to) {
                        converted += 1;
                        serde_json::from_slice::<serde_json::Value>(c.output())
                            .expect("output is JSON");
                    }
                }
            }
        }
    }
    assert!(seeds >= 20, "only {seeds} seeds");
    assert!(converted > 0);
}
