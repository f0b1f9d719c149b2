//! Replays every fuzz seed through every (from, to) pair on stable Rust, so the inputs the
//! fuzzers start from, and every finding kept as a seed, are checked by plain `cargo test`.

mod common;
#[path = "../fuzz/fuzz_targets/pick.rs"]
mod pick;
#[path = "../fuzz/fuzz_targets/recipe.rs"]
mod recipe;

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
            // The targets read their first byte as a choice of formats and modes: replay the
            // document after it as well.
            for input in [&bytes[..], bytes.get(1..).unwrap_or_default()] {
                for from in &names {
                    for to in &names {
                        if let Ok(c) = registry.convert(input, from, to) {
                            converted += 1;
                            // `IgnoredAny`, not `Value`: with serde_json's `raw_value` on
                            // (a dev-dependency turns it on), `Value` rejects valid JSON with
                            // a member named `$serde_json::private::RawValue` (a seed has one).
                            serde_json::from_slice::<serde::de::IgnoredAny>(c.output())
                                .expect("output is JSON");
                        }
                    }
                }
            }
        }
    }
    assert!(seeds >= 20, "only {seeds} seeds");
    assert!(converted > 0);
}

/// The `differential` oracle on its seeds: with no warning in the report, the converted schema
/// gives every instance the verdict the source gives it.
#[test]
fn differential_seeds_keep_their_verdicts() {
    use serde_json::{Value, json};
    let registry = Registry::default();
    let names = registry.list();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/differential");
    let mut checked = 0;
    for seed in std::fs::read_dir(dir).expect("differential seeds") {
        let bytes = std::fs::read(seed.expect("entry").path()).expect("seed");
        let Some((_, rest)) = bytes.split_first() else { continue };
        let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
        let (Some(Ok(schema)), Some(Ok(instance))) = (values.next(), values.next()) else {
            continue;
        };
        let tool =
            json!({"name": "t", "inputSchema": {"type": "object", "properties": {"x": schema}}});
        let instance = json!({"x": instance});
        // Every target, not only the one the first byte picks.
        for to in names.iter().filter(|n| registry.get(n).is_some_and(|a| a.info().writes)) {
            let c = registry
                .convert(&serde_json::to_vec(&tool).expect("json"), "mcp", to)
                .expect("converts");
            if c.report().max_severity() >= Some(tooladapter::Severity::Warning) {
                continue;
            }
            let converted =
                common::converted_schema(&registry, to, c.output()).expect("an input schema");
            let (Ok(a), Ok(b)) = (
                jsonschema::validator_for(&tool["inputSchema"]),
                jsonschema::validator_for(&converted),
            ) else {
                continue;
            };
            assert_eq!(a.is_valid(&instance), b.is_valid(&instance), "{to}: {converted}");
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} checks ran");
}

/// The `slow_input` seeds expanded as the target expands them: each recipe makes a document
/// of up to 64 KB with many copies of its unit, which the pair its first byte picks converts.
#[test]
fn slow_input_recipes_expand_to_documents_that_convert() {
    let registry = Registry::default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/slow_input");
    let mut expanded = 0;
    for seed in std::fs::read_dir(dir).expect("slow_input seeds") {
        let path = seed.expect("entry").path();
        let bytes = std::fs::read(&path).expect("seed");
        let Some((&first, rest)) = bytes.split_first() else { continue };
        let picked = pick::pick(&registry, first).expect("a pair");
        let (parts, k) = recipe::recipe(rest);
        assert!(k >= 64, "{}: {k} copies", path.display());
        let doc = recipe::build(&parts, k);
        assert!(
            doc.len() <= recipe::MAX_DOC && doc.len() > recipe::MAX_DOC / 2,
            "{}",
            path.display()
        );
        let options = tooladapter::Options::default().strict(picked.strict);
        let mut converter = tooladapter::Converter::new();
        let converted = converter.convert(&doc, &*picked.from, &*picked.to, &options);
        // A long key above many entries makes a report whose pointers repeat the key past the
        // output limit: refused, a typed error (docs/security.md, "Limits").
        let long_key =
            path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("long-key"));
        match converted {
            Ok(c) => {
                serde_json::from_slice::<serde::de::IgnoredAny>(c.output())
                    .expect("output is JSON");
            }
            Err(e) if long_key && e.kind().name() == "report-too-large" => {}
            Err(e) => panic!("{} ({:?}): {e}", path.display(), picked.names),
        };
        expanded += 1;
    }
    assert!(expanded >= 20, "only {expanded} recipes");
}
