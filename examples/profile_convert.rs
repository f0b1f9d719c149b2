//! Converts the corpus catalogs from MCP a few times through one `Converter`: a steady
//! workload for `valgrind --tool=callgrind` (see docs/performance.md).
//!
//! `profile_convert [DIR] [TARGET] [strict]` (`ROUNDS=N` for more than 5 passes, for `perf`): TARGET is `openai` (the default),
//! `openai-responses`, `anthropic` or `gemini`; `strict` converts with `Strict::On`, so each
//! bench group of `benches/convert.rs` has a matching profile.
use tooladapter::{
    Adapter, Converter, Options, Strict,
    formats::{Anthropic, Gemini, Mcp, OpenAi, OpenAiResponses},
};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus/mcp-catalogs".into());
    let target: &dyn Adapter = match args.next().as_deref() {
        Some("openai-responses") => &OpenAiResponses,
        Some("anthropic") => &Anthropic,
        Some("gemini") => &Gemini,
        _ => &OpenAi,
    };
    let strict = if args.next().as_deref() == Some("strict") { Strict::On } else { Strict::Source };
    let mut files: Vec<_> =
        std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    let inputs: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let mut converter = Converter::new();
    let options = Options::default().strict(strict);
    let mut bytes = 0;
    let rounds = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    for _ in 0..rounds {
        for input in &inputs {
            if let Ok(c) = converter.convert(input, &Mcp, target, &options) {
                bytes += c.output().len();
            }
        }
    }
    println!("{bytes} bytes written");
}
