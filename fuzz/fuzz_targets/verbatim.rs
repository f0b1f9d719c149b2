//! Differential: schema objects copied whole from the input (the default for compact output)
//! against the token path (`Options::token_path`). The first byte picks (from, to) and strict
//! mode; the rest is converted as it is and compact (whitespace outside strings taken out, so
//! the copies are taken). Both must give the same output bytes and report, or the same error.
#![no_main]

#[path = "../../tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use tooladapter::{Converter, Options, Registry, Strict};

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
    let strict = [Strict::Source, Strict::On][usize::from(pick) / (n * n) % 2];
    let (Some(f), Some(t)) = (registry.get(from), registry.get(to)) else { return };
    let options = Options::default().strict(strict);
    let token = options.clone().token_path(true);
    let (mut copied, mut tokens) = (Converter::new(), Converter::new());
    let compact = common::compact(input);
    for bytes in [input, &compact[..]] {
        let a = copied.convert(bytes, &*f, &*t, &options);
        let a = a.map(|c| (c.output().to_vec(), format!("{:?}", c.report())));
        let b = tokens.convert(bytes, &*f, &*t, &token);
        let b = b.map(|c| (c.output().to_vec(), format!("{:?}", c.report())));
        match (a, b) {
            (Ok(a), Ok(b)) => assert!(a == b, "{from} -> {to}: the copy differs"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{from} -> {to}: {:?} against {:?}", a.err(), b.err()),
        }
    }
});
