//! Streams over chunk boundaries and event grammar: the first two bytes pick the source and
//! target stream formats (by name order) and a chunk size; the rest is the stream. Every push ends in output
//! or a typed error, never a panic; and the output does not depend on where the bytes were
//! split (the whole input in one push gives the same bytes as the chunked pushes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooladapter::TrafficOptions;
use tooladapter::stream::StreamTranscoder;

fuzz_target!(|data: &[u8]| {
    let [pick, step, rest @ ..] = data else { return };
    let mut formats: Vec<_> =
        tooladapter::formats::builtins().iter().filter(|a| a.stream().is_some()).copied().collect();
    formats.sort_by(|a, b| a.name().cmp(b.name()));
    let from = formats[usize::from(pick % 5) % formats.len()];
    let to = formats[usize::from(pick / 5 % 5) % formats.len()];
    let run = |size: usize| {
        let mut t = StreamTranscoder::new(from, to, &TrafficOptions::default()).expect("streams");
        let mut out = Vec::new();
        for piece in rest.chunks(size.max(1)) {
            if t.push(piece, &mut out).is_err() {
                return None;
            }
        }
        t.finish(&mut out).ok()?;
        Some(out)
    };
    let whole = run(rest.len());
    let chunked = run(usize::from(*step % 17) + 1);
    assert_eq!(whole, chunked);
});
