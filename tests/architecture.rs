//! The house rules, checked on the source itself: the modules form layers (no import cycle
//! between the crate's top-level modules, a name the crate root re-exports counted as an
//! import of its module), the files too (no import cycle between files, each path resolved
//! through every re-export to the file that defines its item; a child reading its own
//! folder's `mod.rs` is nesting, not an arrow back up), a format is known by name only in its
//! own folder (`src/formats/`: no other file, the CLI's included, spells a format's name or
//! compares with its `INFO.name`), and no source file grows past ~600 lines of non-test code.
//! A rule broken here names the file and the line, so the fix is where the message points.

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

/// The edges of `edges` that lie on a cycle: an edge a -> b with a path back from b to a.
fn on_cycles<T: Ord + Clone>(edges: &BTreeMap<T, BTreeSet<T>>) -> Vec<(&T, &T)> {
    let reaches = |start: &T, goal: &T| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.clone()];
        while let Some(n) = stack.pop() {
            if &n == goal {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    edges
        .iter()
        .flat_map(|(a, bs)| bs.iter().map(move |b| (a, b)))
        .filter(|(a, b)| reaches(b, a))
        .collect()
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
    let cycles: Vec<String> =
        on_cycles(&edges).into_iter().map(|(a, b)| format!("{a} -> {b}")).collect();
    assert!(cycles.is_empty(), "import cycles through these edges: {cycles:?}");
}

#[test]
fn formats_are_named_only_in_their_folders() {
    let (src, mut files) = library_files();
    sources(&src.join("bin"), &mut files);
    let names: Vec<String> =
        tooladapter::formats::builtins().iter().map(|a| format!("\"{}\"", a.name())).collect();
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !f.starts_with(src.join("formats"))) {
        let text = fs::read_to_string(f).expect("reads");
        for (n, line) in code(&text) {
            // Doc examples and messages may name formats; code that decides by a name may not,
            // whether it spells the name or reads it from the format's facts (`INFO.name`):
            // what it decides is a fact of the format, a field of its `FormatInfo`.
            let by_info = line.contains("INFO.name").then(|| "INFO.name".to_owned());
            if let Some(name) =
                names.iter().find(|name| line.contains(name.as_str())).or(by_info.as_ref())
            {
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

/// One module of the crate, file or inline: the file it lives in, the items it defines at its
/// top level, and the names its `use` declarations bind (a glob binds `*`).
#[derive(Default)]
struct Module {
    file: PathBuf,
    defs: BTreeSet<String>,
    uses: Vec<(String, Vec<String>)>,
    /// The paths of its private `use` declarations: a `pub use` re-exports and is followed
    /// when a path goes through it, but is no import of the file's own.
    imports: Vec<Vec<String>>,
    /// Paths written in code (`crate::a::b`, `super::c`, `child::d`), each to be resolved.
    paths: Vec<Vec<String>>,
}

/// The module path of a file of `src/` (`["passes", "strict"]` for `src/passes/strict/mod.rs`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src").with_extension("");
    let mut parts: Vec<String> =
        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The paths a `use` tree names, each with the name it binds (`a::{b, c as d, e::*}`).
fn use_tree(text: &str) -> Vec<(String, Vec<String>)> {
    fn walk(s: &[char], i: &mut usize, prefix: &[String], out: &mut Vec<(String, Vec<String>)>) {
        let mut path = prefix.to_vec();
        loop {
            while s.get(*i).is_some_and(|c| c.is_whitespace() || *c == ':') {
                *i += 1;
            }
            match s.get(*i) {
                Some('{') => {
                    *i += 1;
                    loop {
                        walk(s, i, &path, out);
                        while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                            *i += 1;
                        }
                        match s.get(*i) {
                            Some(',') => *i += 1,
                            _ => break,
                        }
                        while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                            *i += 1;
                        }
                        if s.get(*i) == Some(&'}') {
                            break;
                        }
                    }
                    *i += 1;
                    return;
                }
                Some('*') => {
                    *i += 1;
                    out.push(("*".to_owned(), path));
                    return;
                }
                Some(c) if c.is_alphanumeric() || *c == '_' => {
                    let start = *i;
                    while s.get(*i).is_some_and(|c| c.is_alphanumeric() || *c == '_') {
                        *i += 1;
                    }
                    path.push(s[start..*i].iter().collect());
                    if s.get(*i) == Some(&':') {
                        continue;
                    }
                    while s.get(*i).is_some_and(|c| c.is_whitespace()) {
                        *i += 1;
                    }
                    let mut name = path.last().cloned().unwrap_or_default();
                    if s[*i..].starts_with(&['a', 's', ' ']) {
                        *i += 3;
                        let start = *i;
                        while s.get(*i).is_some_and(|c| c.is_alphanumeric() || *c == '_') {
                            *i += 1;
                        }
                        name = s[start..*i].iter().collect();
                    }
                    if name == "self" {
                        path.pop();
                        name = path.last().cloned().unwrap_or_default();
                    }
                    out.push((name, path));
                    return;
                }
                _ => return,
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    walk(&chars, &mut 0, &[], &mut out);
    out
}

/// The library's modules, keyed by module path, read from its source (test modules left out).
fn modules() -> BTreeMap<Vec<String>, Module> {
    let (src, files) = library_files();
    let mut mods: BTreeMap<Vec<String>, Module> = BTreeMap::new();
    for f in &files {
        let path = module_path(&src, f);
        mods.entry(path).or_default().file = f.clone();
    }
    let item = |line: &str| -> Option<String> {
        let mut rest = line;
        for vis in ["pub(crate) ", "pub(super) ", "pub "] {
            rest = rest.strip_prefix(vis).unwrap_or(rest);
        }
        for kw in [
            "const fn ",
            "fn ",
            "struct ",
            "enum ",
            "trait ",
            "type ",
            "const ",
            "static ",
            "union ",
            "macro_rules! ",
        ] {
            if let Some(r) = rest.strip_prefix(kw) {
                return Some(r.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
        }
        None
    };
    for f in &files {
        let base = module_path(&src, f);
        let text = fs::read_to_string(f).expect("reads");
        let lines = code(&text);
        // Inline modules: `mod name {` at column 0 until the `}` at column 0.
        let mut inline: Option<String> = None;
        let mut skip = false;
        let mut after_cfg_test = false;
        let mut pending_use = String::new();
        let mut pending_pub = false;
        let raw: Vec<&str> = text.lines().collect();
        for (n, line) in lines {
            let col0 = raw.get(n - 1).is_some_and(|r| !r.starts_with(char::is_whitespace));
            if col0 && line == "}" && (inline.is_some() || skip) {
                inline = None;
                skip = false;
                continue;
            }
            if col0 {
                let decl = line.strip_prefix("pub ").unwrap_or(&line);
                if let Some(name) = decl.strip_prefix("mod ").and_then(|m| m.strip_suffix(" {")) {
                    if after_cfg_test {
                        skip = true;
                    } else {
                        inline = Some(name.to_owned());
                    }
                    after_cfg_test = false;
                    continue;
                }
                after_cfg_test =
                    line.starts_with("#[cfg(test") || (after_cfg_test && line.starts_with("#["));
            }
            if skip {
                continue;
            }
            let mut here = base.clone();
            here.extend(inline.clone());
            let m = mods.entry(here.clone()).or_default();
            m.file = f.clone();
            if inline.is_some() && col0 {
                continue;
            }
            let top = col0
                || (inline.is_some()
                    && raw
                        .get(n - 1)
                        .is_some_and(|r| r.starts_with("    ") && !r.starts_with("     ")));
            if top && let Some(name) = item(&line) {
                m.defs.insert(name);
            }
            // `use` declarations, possibly over several lines.
            let stmt = line
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("pub ");
            if pending_use.is_empty() && stmt.starts_with("use ") {
                pending_pub = stmt.len() != line.len();
            }
            if !pending_use.is_empty() || stmt.starts_with("use ") {
                pending_use.push_str(stmt.strip_prefix("use ").unwrap_or(stmt));
                pending_use.push(' ');
                if let Some(done) = pending_use.split_once(';').map(|(u, _)| u.to_owned()) {
                    let tree = use_tree(&done);
                    if !pending_pub {
                        m.imports.extend(tree.iter().map(|(_, p)| p.clone()));
                    }
                    m.uses.extend(tree);
                    pending_use.clear();
                }
                continue;
            }
            // Paths in code: `a::b` where `a` is `crate`, `super`, `self` or a name in scope.
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let starts = chars[i].is_alphabetic()
                    && (i == 0
                        || !(chars[i - 1].is_alphanumeric()
                            || chars[i - 1] == '_'
                            || chars[i - 1] == ':'));
                if !starts {
                    i += 1;
                    continue;
                }
                let mut segs = Vec::new();
                let mut j = i;
                loop {
                    let s = j;
                    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                        j += 1;
                    }
                    segs.push(chars[s..j].iter().collect::<String>());
                    if chars.get(j) == Some(&':')
                        && chars.get(j + 1) == Some(&':')
                        && chars.get(j + 2).is_some_and(|c| c.is_alphabetic() || *c == '_')
                    {
                        j += 2;
                    } else {
                        break;
                    }
                }
                if segs.len() > 1 {
                    m.paths.push(segs);
                }
                i = j.max(i + 1);
            }
        }
    }
    mods
}

/// The file that defines the item a path names, seen from module `from`; `None` for a path
/// outside the crate or one that names a module, not an item.
fn resolve(
    mods: &BTreeMap<Vec<String>, Module>,
    from: &[String],
    path: &[String],
    depth: usize,
) -> Option<PathBuf> {
    if depth > 16 {
        return None;
    }
    let (first, rest) = path.split_first()?;
    let mut cur: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        "super" => {
            let mut cur = from.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                cur.pop();
                rest = &rest[1..];
            }
            return walk_path(mods, cur, rest, depth);
        }
        _ => {
            let child: Vec<String> = from.iter().chain([first]).cloned().collect();
            if mods.contains_key(&child) {
                return walk_path(mods, from.to_vec(), path, depth);
            }
            let m = mods.get(from)?;
            let (_, bound) = m.uses.iter().find(|(name, _)| name == first)?;
            let full: Vec<String> = bound.iter().chain(rest).cloned().collect();
            return resolve(mods, from, &full, depth + 1);
        }
    };
    cur.shrink_to_fit();
    walk_path(mods, cur, rest, depth)
}

fn walk_path(
    mods: &BTreeMap<Vec<String>, Module>,
    mut cur: Vec<String>,
    rest: &[String],
    depth: usize,
) -> Option<PathBuf> {
    for (k, seg) in rest.iter().enumerate() {
        cur.push(seg.clone());
        if mods.contains_key(&cur) {
            continue;
        }
        cur.pop();
        let m = mods.get(&cur)?;
        if m.defs.contains(seg) {
            return Some(m.file.clone());
        }
        let after = rest.get(k + 1..).unwrap_or_default();
        if let Some((_, bound)) = m.uses.iter().find(|(name, _)| name == seg) {
            let full: Vec<String> = bound.iter().chain(after).cloned().collect();
            return resolve(mods, &cur, &full, depth + 1);
        }
        for (_, glob) in m.uses.iter().filter(|(name, _)| name == "*") {
            let full: Vec<String> = glob.iter().chain([seg]).chain(after).cloned().collect();
            if let Some(file) = resolve(mods, &cur, &full, depth + 1) {
                return Some(file);
            }
        }
        return Some(m.file.clone());
    }
    None
}

/// File-level import edges: a file imports the file that defines an item it names.
fn file_edges() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mods = modules();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (here, m) in &mods {
        let from_mod = module_path(&src, &m.file);
        let paths = m.imports.iter().chain(&m.paths);
        for p in paths {
            if let Some(to) = resolve(&mods, here, p, 0) {
                // A child reading its ancestor's items is ordinary nesting (the folder's
                // shared vocabulary lives in its `mod.rs`), not an arrow back up.
                let to_mod = module_path(&src, &to);
                let ancestor = to_mod.len() < from_mod.len() && from_mod.starts_with(&to_mod);
                if to != m.file && !ancestor {
                    edges.entry(m.file.clone()).or_default().insert(to);
                }
            }
        }
    }
    edges
}

#[test]
fn paths_resolve_through_re_exports_to_the_defining_file() {
    let mods = modules();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let at = |from: &[&str], path: &str| {
        let from: Vec<String> = from.iter().map(|s| (*s).to_owned()).collect();
        let path: Vec<String> = path.split("::").map(str::to_owned).collect();
        resolve(&mods, &from, &path, 0).map(|f| f.strip_prefix(&src).unwrap_or(&f).to_owned())
    };
    // The crate root's re-export, a folder's re-export, a child's `super::`, a `use` binding.
    assert_eq!(at(&["error"], "crate::Options"), Some(PathBuf::from("options.rs")));
    assert_eq!(at(&["lower"], "crate::ir::JsonType"), Some(PathBuf::from("ir/json_type.rs")));
    assert_eq!(at(&["report", "view"], "super::Code"), Some(PathBuf::from("report/code.rs")));
    assert_eq!(at(&["ir", "keyword"], "JsonType"), Some(PathBuf::from("ir/json_type.rs")));
    assert_eq!(at(&["error"], "std::fmt::Display"), None);
}

#[test]
fn files_have_no_import_cycle() {
    let edges = file_edges();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let name = |p: &PathBuf| p.strip_prefix(&src).unwrap_or(p).display().to_string();
    let cycles: Vec<String> =
        on_cycles(&edges).into_iter().map(|(a, b)| format!("{} -> {}", name(a), name(b))).collect();
    assert!(cycles.is_empty(), "import cycles between files through these edges: {cycles:#?}");
}

/// The suites `tests/README.md`'s map lists: each `` [`name`](name.rs) `` link.
fn suites_listed(readme: &str) -> Vec<String> {
    readme
        .split("[`")
        .skip(1)
        .filter_map(|rest| {
            let (name, after) = rest.split_once("`](")?;
            let file = after.split_once(')')?.0;
            (file == format!("{name}.rs")).then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn the_tests_readme_lists_every_suite_once() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let readme = fs::read_to_string(tests.join("README.md")).expect("reads tests/README.md");
    let listed = suites_listed(&readme);
    let mut files: Vec<String> = fs::read_dir(&tests)
        .expect("reads tests/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    files.sort();
    let missing: Vec<&String> = files.iter().filter(|f| !listed.contains(f)).collect();
    let stale: Vec<&String> = listed.iter().filter(|l| !files.contains(l)).collect();
    let mut twice = listed.clone();
    twice.sort();
    let twice: BTreeSet<&String> =
        twice.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
    assert!(
        missing.is_empty() && stale.is_empty() && twice.is_empty(),
        "tests/README.md's map: suites not listed {missing:?}, listed without a file {stale:?}, \
         listed twice {twice:?}"
    );
}

/// The pass order the docs describe is the order `passes::run_all` runs: its numbered steps
/// (`// 1. envelope: …`) against docs/contributing.md's arrow list and docs/design-notes.md's,
/// so a pass added, moved or removed fails here until both say so.
#[test]
fn docs_list_the_passes_in_the_order_they_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| fs::read_to_string(root.join(p)).expect("reads");
    let code = read("src/passes/mod.rs");
    let steps: Vec<String> = code
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.trim_start().strip_prefix("// ")?.split_once(". ")?;
            n.parse::<u32>().ok()?;
            rest.split([':', ',', ' ']).next().map(str::to_owned)
        })
        .collect();
    assert!(steps.len() >= 10, "the numbered steps of run_all: {steps:?}");
    let between = |text: &str, from: &str, to: &str| -> String {
        let start = text.find(from).map(|i| i + from.len()).expect(from);
        let end = text[start..].find(to).expect(to);
        text[start..start + end].to_owned()
    };
    // Arrows inside parentheses (`oneOf` → `anyOf`) are no steps.
    let top_level_steps = |list: &str| -> Vec<String> {
        let (mut depth, mut pieces, mut piece) = (0i32, Vec::new(), String::new());
        for c in list.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '→' if depth == 0 => pieces.push(std::mem::take(&mut piece)),
                _ => {}
            }
            if c != '→' || depth != 0 {
                piece.push(c);
            }
        }
        pieces.push(piece);
        pieces
            .iter()
            .filter_map(|p| {
                let word = p.split_whitespace().next()?;
                Some(word.trim_matches(|c: char| c == '`' || c == ',').to_owned())
            })
            .collect()
    };
    let contributing = between(&read("docs/contributing.md"), "eleven steps:", "; then strict");
    assert_eq!(top_level_steps(&contributing), steps, "docs/contributing.md");
    let notes = between(&read("docs/design-notes.md"), "one file each):", "; `strict` after");
    assert_eq!(top_level_steps(&notes), steps, "docs/design-notes.md");
}
