//! The house rules, checked on the source itself: the modules form layers (no import cycle
//! between the crate's top-level modules, a name the crate root re-exports counted as an
//! import of its module), a format is known by name only in its own folder
//! (`src/formats/`), and no source file grows past ~600 lines of non-test code. A rule broken
//! here names the file and the line, so the fix is where the message points.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Files longer than this (non-test lines) are split by job.
const MAX_LINES: usize = 600;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("reads src").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("tests.rs") {
            out.push(p);
        }
    }
}

/// The code of a file: without its test module (`#[cfg(…test…)]` before `mod tests`, the last
/// item of a file by the house style) and without comments.
fn code(text: &str) -> Vec<(usize, String)> {
    let end = text
        .match_indices("\nmod tests")
        .map(|(i, _)| text[..i].rfind("#[cfg(").unwrap_or(i))
        .next()
        .unwrap_or(text.len());
    text[..end]
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = l.trim_start();
            (i + 1, if l.starts_with("//") { String::new() } else { l.to_owned() })
        })
        .collect()
}

/// The top-level module a file of `src/` belongs to (`passes` for `src/passes/strict.rs`).
fn top_module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component").as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

fn library_files() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")));
    (src, files)
}

/// The crate root's re-exports: each name `lib.rs` re-exports (`pub use report::{Code, …}`),
/// and the top-level module it comes from, so `crate::Code` counts as an import of `report`.
fn reexports(src: &Path) -> BTreeMap<String, String> {
    let lib = fs::read_to_string(src.join("lib.rs")).expect("reads lib.rs");
    let mut names = BTreeMap::new();
    for item in lib.split(';') {
        let Some((_, rest)) = item.split_once("pub use ") else { continue };
        let module: String =
            rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        // `a::{B, C}` lists its names; `a::b::C` names one.
        let listed = rest.split_once('{').map_or(rest, |(_, l)| l);
        for name in listed.trim_end_matches('}').split(',') {
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            let name = name.rsplit("::").next().unwrap_or(name);
            if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                names.insert(name.to_owned(), module.clone());
            }
        }
    }
    names
}

#[test]
fn top_level_modules_have_no_import_cycle() {
    let (src, files) = library_files();
    let reexported = reexports(&src);
    assert!(reexported.get("Options").is_some_and(|m| m == "options"), "{reexported:?}");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let from = top_module(&src, f);
        let text = fs::read_to_string(f).expect("reads");
        for (_, line) in code(&text) {
            let mut rest = line.as_str();
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let name: String =
                    rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                // A re-exported name at the crate root is an import of its module.
                let module = match reexported.get(&name) {
                    Some(module) => module.clone(),
                    None if name.starts_with(|c: char| c.is_ascii_lowercase()) => name,
                    None => continue,
                };
                if module != from {
                    edges.entry(from.clone()).or_default().insert(module);
                }
            }
        }
    }
    // A cycle exists when some edge a -> b has a path back from b to a.
    let reaches = |start: &str, goal: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.to_owned()];
        while let Some(n) = stack.pop() {
            if n == goal {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let cycles: Vec<String> = edges
        .iter()
        .flat_map(|(a, bs)| bs.iter().map(move |b| (a, b)))
        .filter(|(a, b)| reaches(b, a))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    assert!(cycles.is_empty(), "import cycles through these edges: {cycles:?}");
}

#[test]
fn formats_are_named_only_in_their_folders() {
    let (src, files) = library_files();
    let names: Vec<String> =
        tooladapter::formats::builtins().iter().map(|a| format!("\"{}\"", a.name())).collect();
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !f.starts_with(src.join("formats"))) {
        let text = fs::read_to_string(f).expect("reads");
        for (n, line) in code(&text) {
            // Doc examples and messages may name formats; code that decides by a name may not.
            if let Some(name) = names.iter().find(|name| line.contains(name.as_str())) {
                found.push(format!("{}:{n}: {name}", f.display()));
            }
        }
    }
    assert!(found.is_empty(), "format names outside src/formats: {found:#?}");
}

#[test]
fn no_source_file_is_over_the_size_limit() {
    let (_, files) = library_files();
    let mut bin = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin"), &mut bin);
    let long: Vec<String> = files
        .iter()
        .chain(&bin)
        .filter_map(|f| {
            let text = fs::read_to_string(f).expect("reads");
            let lines = code(&text).len();
            (lines > MAX_LINES).then(|| format!("{}: {lines} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these by job: {long:#?}");
}

/// The stages that read schemas beside the passes (the check, the inverse map, the formats'
/// readers and writers) take the schema helpers from `ir` (`$ref` resolution, names), never
/// from the passes: a stage that imports another's toolbox depends on its internals, and the
/// check would then trust the code it checks.
#[test]
fn check_inverse_and_formats_never_import_passes() {
    let (src, files) = library_files();
    let mut found = Vec::new();
    for f in &files {
        let module = top_module(&src, f);
        if !matches!(module.as_str(), "check" | "inverse" | "formats") {
            continue;
        }
        let text = fs::read_to_string(f).expect("reads");
        for (n, line) in code(&text) {
            if line.contains("crate::passes") {
                found.push(format!("{}:{n}: {line}", f.display()));
            }
        }
    }
    assert!(found.is_empty(), "imports of the passes outside their stage: {found:#?}");
}
