//! One `Registry` shared across threads gives the same bytes as one thread, and registering or
//! unregistering formats while others convert is safe.

use std::sync::Arc;

use tooladapter::Registry;

const INPUT: &[u8] = br#"{"tools":[{"name":"a","title":"A","inputSchema":{"type":"object","properties":{"x":{"type":"string","format":"uri"},"n":{"type":["integer","null"],"maximum":1.50}},"$comment":"c"}},{"name":"b","inputSchema":{}}]}"#;

#[test]
fn eight_threads_give_the_bytes_of_one() {
    let registry = Arc::new(Registry::default());
    let expected = registry.convert(INPUT, "mcp", "openai").expect("ok");
    // 100,000 conversions per thread in release builds; fewer in debug ones keep `cargo test`
    // quick while exercising the same sharing.
    let per_thread = if cfg!(debug_assertions) { 5_000 } else { 100_000 };
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let registry = Arc::clone(&registry);
            let expected = expected.clone();
            std::thread::spawn(move || {
                for _ in 0..per_thread {
                    let got = registry.convert(INPUT, "mcp", "openai").expect("ok");
                    assert_eq!(got, expected);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
}

#[test]
fn register_and_unregister_race_with_conversions() {
    let registry = Arc::new(Registry::default());
    let converters: Vec<_> = (0..4)
        .map(|_| {
            let registry = Arc::clone(&registry);
            std::thread::spawn(move || {
                for _ in 0..2_000 {
                    // `anthropic` comes and goes; either outcome is fine, a panic is not.
                    match registry.convert(INPUT, "mcp", "anthropic") {
                        Ok(c) => assert!(c.output_str().starts_with('[')),
                        Err(e) => {
                            assert!(matches!(e.kind(), tooladapter::ErrorKind::UnknownFormat(_)))
                        }
                    }
                }
            })
        })
        .collect();
    for _ in 0..2_000 {
        let adapter = registry.unregister("anthropic");
        if let Some(a) = adapter {
            registry.register_arc(a).expect("re-register");
        }
    }
    for h in converters {
        h.join().expect("thread");
    }
    assert!(registry.get("anthropic").is_some());
}
