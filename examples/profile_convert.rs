//! Converts the corpus catalogs MCP → OpenAI a few times through one `Converter`: a steady
//! workload for `valgrind --tool=callgrind` (see docs/performance.md).
use tooladapter::{
    Converter, Options,
    formats::{Mcp, OpenAi},
};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/corpus/mcp-catalogs".into());
    let mut files: Vec<_> =
        std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    let inputs: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let mut converter = Converter::new();
    let options = Options::default();
    let mut bytes = 0;
    for _ in 0..5 {
        for input in &inputs {
            if let Ok(c) = converter.convert(input, &Mcp, &OpenAi, &options) {
                bytes += c.output().len();
            }
        }
    }
    println!("{bytes} bytes written");
}
