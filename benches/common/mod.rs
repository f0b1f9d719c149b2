//! Inputs shared by the benches: the corpus catalogs, read in place.

use std::path::{Path, PathBuf};

/// Every catalog in `$TOOLADAPTER_CORPUS/mcp-catalogs/` (default `../shared/corpus`), in name
/// order, or the repo's `examples/data/catalog.mcp.json` when the corpus is absent.
pub fn catalogs() -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("TOOLADAPTER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let found = catalogs_in(&corpus.join("mcp-catalogs"));
    if !found.is_empty() {
        return found;
    }
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/catalog.mcp.json");
    std::fs::read(example).into_iter().collect()
}

/// Every `.json` file in `dir`, read, in name order.
pub fn catalogs_in(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// `json` without the whitespace outside its strings: the same document, compact, every
/// string, number and escape spelled as the input spells it (what a gateway receives from a
/// `tools/list` response). Made at bench time, so the corpus stays as it is.
#[allow(dead_code, reason = "not every bench reads compact copies")]
pub fn compact(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            in_string = b == b'"';
            out.push(b);
        }
    }
    out
}
