//! Schema objects copied whole from the input (the default for compact output) against the
//! token path (`Options::token_path`): the same output bytes, report and error, for every
//! format pair and strict mode, on fixtures, on the fuzz seeds, and (feature `corpus`) on every
//! corpus catalog, compact and as it is.

mod common;

use std::path::Path;

use tooladapter::{Converter, Options, Registry, Strict};

/// Converts `input` from `from` to `to` both ways and asserts the same outcome; whether it
/// converted.
fn same_both_ways(
    registry: &Registry,
    converters: &mut (Converter, Converter),
    input: &[u8],
    from: &str,
    to: &str,
    options: &Options,
) -> bool {
    let (Some(f), Some(t)) = (registry.get(from), registry.get(to)) else {
        panic!("{from} or {to} is not registered")
    };
    let token = options.clone().token_path(true);
    let a = converters.0.convert(input, &*f, &*t, options);
    let a = a.map(|c| (c.output().to_vec(), format!("{:?}", c.report())));
    let b = converters.1.convert(input, &*f, &*t, &token);
    let b = b.map(|c| (c.output().to_vec(), format!("{:?}", c.report())));
    match (a, b) {
        (Ok((out_a, rep_a)), Ok((out_b, rep_b))) => {
            assert!(
                out_a == out_b,
                "{from} -> {to} ({options:?}): copied\n{}\ntoken path\n{}",
                String::from_utf8_lossy(&out_a),
                String::from_utf8_lossy(&out_b)
            );
            assert_eq!(rep_a, rep_b, "{from} -> {to}: report");
            true
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{from} -> {to}: error");
            false
        }
        (a, b) => panic!("{from} -> {to}: {:?} against {:?}", a.err(), b.err()),
    }
}

/// `input` (and its compact copy) from `from` to every target, in each strict mode.
fn check_all_targets(registry: &Registry, input: &[u8], from: &str) -> usize {
    let mut converters = (Converter::new(), Converter::new());
    let mut converted = 0;
    let compact = common::compact(input);
    for to in registry.list() {
        for strict in [Strict::Source, Strict::On, Strict::Off] {
            let options = Options::default().strict(strict);
            for bytes in [input, &compact[..]] {
                converted += usize::from(same_both_ways(
                    registry,
                    &mut converters,
                    bytes,
                    from,
                    &to,
                    &options,
                ));
            }
        }
    }
    converted
}

const CATALOG: &str = r##"{"tools":[
 {"name":"search","description":"Search.","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
  "properties":{"query":{"type":"string","description":"Text with \"quotes\", a tab\tand \/ and \u00e9.","minLength":1},
   "filters":{"type":"object","properties":{"from":{"type":"string","format":"date"},"to":{"type":"string","format":"date"},
     "tags":{"type":"array","items":{"type":"string","enum":["a","b\n",""]},"uniqueItems":true}},"additionalProperties":false},
   "limit":{"type":["integer","null"],"minimum":1,"maximum":100,"default":10},
   "empty":{},"nothing":{"type":"object","properties":{}},"list":{"type":"array","items":[]},
   "bad key!":{"type":"string","nullable":true,"x-vendor":{"k":[{},[],null,1.50e3,-0]}}},
  "required":["query"],"additionalProperties":false},
  "annotations":{"readOnlyHint":true}},
 {"name":"refs","inputSchema":{"type":"object","$defs":{"pt":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"},"z":{"type":"number"}},"required":["x","y"]}},
  "properties":{"a":{"$ref":"#/$defs/pt"},"b":{"anyOf":[{"$ref":"#/$defs/pt"},{"type":"null"}]},
   "c":{"oneOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"integer","multipleOf":2}]},
   "d":{"allOf":[{"type":"object","properties":{"p":{"type":"string"}}},{"required":["p"]}]}}}},
 {"name":"plain","inputSchema":{"type":"object","properties":{"one":{"type":"string","description":"first of several"},"two":{"type":"boolean","description":"second"},"three":{"type":"object","properties":{"deep":{"type":"object","properties":{"deeper":{"type":"string","description":"x"}}}}}}}}
]}"##;

/// Fixtures: a catalog with a dropped `$schema`, escapes the writer spells otherwise, empty
/// containers, a key some targets rename, `nullable`, refs, combinators and plain nested
/// objects; as written (pretty-ish) and compact; one tool alone; each to every target.
#[test]
fn copies_match_the_token_path_on_fixtures() {
    let registry = Registry::default();
    let mut converted = check_all_targets(&registry, CATALOG.as_bytes(), "mcp");
    let plain = r#"{"name":"plain","inputSchema":{"type":"object","properties":{"one":{"type":"string","description":"first of several"},"two":{"type":"boolean","description":"second"},"three":{"type":"object","properties":{"deep":{"type":"object","properties":{"deeper":{"type":"string","description":"x"}}}}}}}}"#;
    converted += check_all_targets(&registry, plain.as_bytes(), "mcp");
    // The same catalogs read as each other format's own output, then converted onward.
    let mut converters = (Converter::new(), Converter::new());
    for via in registry.list() {
        let Ok(c) = registry.convert(CATALOG.as_bytes(), "mcp", &via) else { continue };
        for to in registry.list() {
            converted += usize::from(same_both_ways(
                &registry,
                &mut converters,
                c.output(),
                &via,
                &to,
                &Options::default(),
            ));
        }
    }
    assert!(converted > 100, "only {converted} conversions");
}

/// Every fuzz seed (and its compact copy), as each format, to every target.
#[test]
fn copies_match_the_token_path_on_the_fuzz_seeds() {
    let registry = Registry::default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut converted = 0;
    let mut converters = (Converter::new(), Converter::new());
    for target in std::fs::read_dir(&root).expect("fuzz/seeds") {
        for seed in std::fs::read_dir(target.expect("entry").path()).expect("seed dir") {
            let bytes = std::fs::read(seed.expect("entry").path()).expect("seed");
            for input in [&bytes[..], bytes.get(1..).unwrap_or_default()] {
                let compact = common::compact(input);
                for from in registry.list() {
                    for to in registry.list() {
                        for bytes in [input, &compact[..]] {
                            converted += usize::from(same_both_ways(
                                &registry,
                                &mut converters,
                                bytes,
                                &from,
                                &to,
                                &Options::default(),
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(converted > 100, "only {converted} conversions");
}

/// Every corpus MCP catalog, as it is and compact, to every target in each strict mode.
#[cfg(feature = "corpus")]
#[test]
fn copies_match_the_token_path_on_the_corpus() {
    let registry = Registry::default();
    let mut converted = 0;
    for (_, bytes) in common::catalogs() {
        converted += check_all_targets(&registry, &bytes, "mcp");
    }
    assert!(converted > 1000, "only {converted} conversions");
}
