//! Report pointers name the source: for every entry of every conversion of the case fixtures
//! (`tests/cases`, each input to every writable target, with the case's options and strict
//! on), [`ReportEntry::pointer`] resolves (RFC 6901) in the input document, and for an entry
//! about a schema keyword it names that keyword (its last step is the entry's `feature`);
//! [`ReportEntry::tool_pointer`] is the end of `pointer`. Behind the feature `corpus`, the
//! same over the corpus's MCP catalogs.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;
use tooladapter::ir::Keyword;
use tooladapter::{Code, Options, ProfileSet, Registry, ReportEntry, Strict};

/// Codes whose `feature` names the keyword the entry is about, where the source wrote it.
/// Entries of the other codes are about a node, a tool or a member, whose pointer names that
/// (an object closed, a root given a type, a tool left out).
fn about_a_keyword(code: Code) -> bool {
    matches!(
        code,
        Code::KeywordDropped
            | Code::KeywordDescribed
            | Code::KeywordRejected
            | Code::CombinatorRewritten
            | Code::AllOfNotMerged
            | Code::RefInlined
            | Code::RefRecursive
            | Code::RefDangling
            | Code::RefExternal
            | Code::TypeRewritten
            | Code::DialectRewritten
            | Code::ShapeRewritten
    )
}

/// The last reference token of an RFC 6901 pointer, unescaped.
fn last_token(pointer: &str) -> Option<String> {
    let (_, last) = pointer.rsplit_once('/')?;
    Some(last.replace("~1", "/").replace("~0", "~"))
}

/// What is wrong with `entry`'s pointers, converted from `input`; `None` when nothing is.
fn fault(input: &Value, entry: &ReportEntry, imported: bool) -> Option<String> {
    // An import's pointer is in its source document, its tool pointer in the translated tool.
    if !imported && !entry.pointer.ends_with(entry.tool_pointer.as_str()) {
        return Some(format!("tool_pointer {:?} does not end pointer", entry.tool_pointer));
    }
    if input.pointer(&entry.pointer).is_none() {
        return Some("pointer does not resolve in the input".to_owned());
    }
    let keyword = Keyword::from_key(&entry.feature) != Keyword::Unknown;
    if keyword && about_a_keyword(entry.code) {
        // A keyword a rewrite renamed (draft-07's `items` list, now `prefixItems`) is named
        // as the source wrote it, and as the entry's feature where it went.
        let moved = entry.output_pointer.as_deref().and_then(last_token);
        // An import's source names things its own way (`components/schemas` for `$defs`):
        // the translated tool's place names the keyword.
        let named = if imported { &entry.tool_pointer } else { &entry.pointer };
        let last = last_token(named);
        let feature = Some(entry.feature.as_str());
        if last.as_deref() != feature && moved.as_deref() != feature {
            return Some(format!("pointer does not end in the feature {:?}", entry.feature));
        }
    }
    None
}

/// Checks every entry of every conversion of `input` (read as `from`) to every writable
/// built-in target, with `options` and with strict on; returns (entries checked, faults).
fn check_input(name: &str, input: &[u8], from: &str, options: &Options) -> (usize, Vec<String>) {
    let Ok(value) = serde_json::from_slice::<Value>(input) else { return (0, Vec::new()) };
    let registry = Registry::default();
    let imported = tooladapter::formats::builtin(from).is_some_and(|a| a.info().imports);
    let mut checked = 0;
    let mut faults = Vec::new();
    for to in tooladapter::formats::builtins().iter().filter(|a| a.info().writes) {
        for options in [options.clone(), options.clone().strict(Strict::On)] {
            let Ok(c) = registry.convert_with(input, from, to.name(), &options) else { continue };
            for e in c.report().entries() {
                checked += 1;
                if let Some(why) = fault(&value, e, imported) {
                    faults.push(format!("{name} -> {}: {why}: {e}", to.name()));
                }
            }
        }
    }
    (checked, faults)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("read_dir").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push(path);
        }
    }
}

/// The case's options that change what is reported: its profile and policy (strictness is
/// tried both ways by [`check_input`]).
fn case_options(case: &Value) -> Options {
    let mut options = Options::default();
    let o = &case["options"];
    if let Some(set) = o["profile"].as_str().and_then(ProfileSet::from_name) {
        options = options.profile_set(set);
    }
    if let Some(policy) = o["policy"].as_object() {
        for (name, action) in policy {
            let keyword = Keyword::from_key(name);
            if let Some(action) = action.as_str().and_then(tooladapter::Action::from_name) {
                options = options.policy(keyword, action);
            }
        }
    }
    options
}

#[test]
fn every_case_entry_points_at_its_source_place() {
    let mut files = Vec::new();
    files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases"), &mut files);
    let (mut checked, mut faults) = (0, Vec::new());
    for path in &files {
        let case: Value =
            serde_json::from_slice(&std::fs::read(path).expect("read")).expect("case");
        let Some(input) = case.get("input") else { continue };
        let input = serde_json::to_vec(input).expect("input");
        let from = case["from"].as_str().expect("from");
        let name = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display();
        let (n, f) = check_input(&name.to_string(), &input, from, &case_options(&case));
        checked += n;
        faults.extend(f);
    }
    // The fixtures report plenty: a checker that sees no entry checks nothing.
    assert!(checked > 500, "{checked} entries");
    eprintln!("{checked} entries of the cases checked, {} faults", faults.len());
    assert!(faults.is_empty(), "{} of {checked} entries:\n{}", faults.len(), faults.join("\n"));
}

/// One rewrite that moves a place, and the entry about the moved place: (what moves it, the
/// second tool's input schema, target, strict, code, feature, the source place in the tool,
/// the output's place).
type Moved = (
    &'static str,
    &'static str,
    &'static str,
    bool,
    Code,
    &'static str,
    &'static str,
    Option<&'static str>,
);

/// Each kind of rewrite that moves a place the report names: the entry's pointer names the
/// source's place (resolving in the input, ending in the keyword), `output_pointer` where it
/// went; an entry about a place the rewrite did not move has no `output_pointer`.
#[test]
fn a_rewritten_place_is_pointed_at_in_the_source() {
    let cases: [Moved; 7] = [
        (
            "oneOf made anyOf",
            r#"{"type":"object","properties":{"c":{"oneOf":[{"type":"object","additionalProperties":false},{"type":"string"}]}}}"#,
            "gemini",
            false,
            Code::KeywordDropped,
            "additionalProperties",
            "/inputSchema/properties/c/oneOf/0/additionalProperties",
            Some("/inputSchema/properties/c/anyOf/0/additionalProperties"),
        ),
        (
            "allOf merged",
            r#"{"type":"object","properties":{"m":{"allOf":[{"type":"object","properties":{"a":{"type":"string","format":"email"}}},{"required":["a"]}]}}}"#,
            "gemini",
            false,
            Code::KeywordDescribed,
            "format",
            "/inputSchema/properties/m/allOf/0/properties/a/format",
            Some("/inputSchema/properties/m/properties/a/format"),
        ),
        (
            "type array split",
            r#"{"type":"object","properties":{"n":{"type":["string","null"],"format":"date"}}}"#,
            "gemini",
            false,
            Code::KeywordDescribed,
            "format",
            "/inputSchema/properties/n/format",
            None,
        ),
        (
            "$ref inlined",
            r##"{"type":"object","properties":{"r":{"$ref":"#/$defs/p"}},"$defs":{"p":{"type":"object","additionalProperties":false}}}"##,
            "gemini",
            false,
            Code::KeywordDropped,
            "additionalProperties",
            "/inputSchema/$defs/p/additionalProperties",
            None,
        ),
        (
            "strict widening under a rewritten oneOf",
            r#"{"type":"object","properties":{"o":{"oneOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"string"}]}}}"#,
            "openai",
            true,
            Code::StrictWidened,
            "required",
            "/inputSchema/properties/o/oneOf/0",
            Some("/inputSchema/properties/o/anyOf/0/required"),
        ),
        (
            "Gemini's type on every node",
            r#"{"type":"object","properties":{"k":{"minLength":3}}}"#,
            "gemini",
            false,
            Code::ShapeRewritten,
            "type",
            "/inputSchema/properties/k",
            Some("/inputSchema/properties/k/type"),
        ),
        (
            "draft-07 items list made prefixItems",
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}}"#,
            "gemini",
            false,
            Code::KeywordDescribed,
            "prefixItems",
            "/inputSchema/properties/p/items",
            Some("/inputSchema/properties/p/prefixItems"),
        ),
    ];
    for (what, schema, to, strict, code, feature, pointer, output) in cases {
        let input = format!(
            r#"{{"tools":[{{"name":"a","inputSchema":{{"type":"object","properties":{{}}}}}},{{"name":"t","inputSchema":{schema}}}]}}"#
        );
        let options =
            if strict { Options::default().strict(Strict::On) } else { Options::default() };
        let c = Registry::default().convert_with(input.as_bytes(), "mcp", to, &options);
        let c = c.unwrap_or_else(|e| panic!("{what}: {e}"));
        let entries = c.report().entries();
        let found = entries.iter().find(|e| e.code == code && e.tool_pointer == pointer);
        let e = found.unwrap_or_else(|| panic!("{what}: no {code} at {pointer}: {entries:#?}"));
        assert_eq!(e.feature, feature, "{what}");
        assert_eq!(e.pointer, format!("/tools/1{pointer}"), "{what}");
        assert_eq!(e.output_pointer.as_deref(), output, "{what}");
        assert_eq!(c.report().tool_index(e), Some(1), "{what}");
        let value: Value = serde_json::from_str(&input).expect("input");
        assert_eq!(fault(&value, e, false), None, "{what}");
    }
}

/// Where the tools are: a bare array, a JSON-RPC response, a Gemini request's declarations
/// and a single tool each put the tool's place in front of the pointer in the tool.
#[test]
fn pointers_are_document_level_in_every_shape() {
    let tool = r#"{"name":"t","inputSchema":{"type":"object","properties":{"u":{"type":"string","format":"uri"}}}}"#;
    let other = r#"{"name":"a","inputSchema":{"type":"object","properties":{}}}"#;
    let shapes = [
        (format!("[{other},{tool}]"), "/1"),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{other},{tool}]}}}}"#),
            "/result/tools/1",
        ),
        (tool.to_owned(), ""),
    ];
    for (input, place) in shapes {
        let c = Registry::default().convert(input.as_bytes(), "mcp", "gemini").expect("converts");
        let e = c.report().entries().iter().find(|e| e.feature == "format").expect("format");
        assert_eq!(e.tool_pointer, "/inputSchema/properties/u/format");
        assert_eq!(e.pointer, format!("{place}/inputSchema/properties/u/format"));
    }
    let gemini = r#"{"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT"}}]},{"functionDeclarations":[{"name":"b","parameters":{"type":"OBJECT","properties":{"s":{"type":"STRING","nullable":true}}}}]}]}"#;
    let c = Registry::default().convert(gemini.as_bytes(), "gemini", "openai").expect("converts");
    let of_b: Vec<_> = c.report().entries().iter().filter(|e| e.tool == "b").collect();
    assert!(!of_b.is_empty());
    for e in of_b {
        let value: Value = serde_json::from_str(gemini).expect("json");
        assert!(value.pointer(&e.pointer).is_some(), "{e:?}");
        assert!(e.pointer.starts_with("/tools/1/functionDeclarations/0/parameters"), "{e:?}");
    }
}

#[cfg(feature = "corpus")]
#[test]
fn every_corpus_catalog_entry_points_at_its_source_place() {
    let (mut checked, mut faults) = (0, Vec::new());
    for (name, bytes) in common::catalogs() {
        let (n, f) = check_input(&name, &bytes, "mcp", &Options::default());
        checked += n;
        faults.extend(f);
    }
    assert!(checked > 1000, "{checked} entries");
    eprintln!("{checked} entries of the corpus checked, {} faults", faults.len());
    assert!(faults.is_empty(), "{} of {checked} entries:\n{}", faults.len(), faults.join("\n"));
}

/// `Options::document_pointers(false)` leaves every entry in its tool and changes nothing
/// else: for every case fixture to every writable target, strict off and on, the output is
/// the same, and so are the entries (their order aside: placing sorts them by the source's
/// place) but for the pointer, which is the tool's.
#[test]
fn entries_left_in_the_tool_say_the_same() {
    let mut files = Vec::new();
    files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases"), &mut files);
    let registry = Registry::default();
    let (mut compared, mut moved) = (0, 0);
    // What an entry says but for where: its pointers are compared on their own.
    let said = |e: &ReportEntry| {
        let mut e = e.clone();
        e.pointer.clear();
        e.output_pointer = None;
        e.tool_pointer.clear();
        format!("{e:?}")
    };
    for path in &files {
        let case: Value =
            serde_json::from_slice(&std::fs::read(path).expect("read")).expect("case");
        let Some(input) = case.get("input") else { continue };
        let input = serde_json::to_vec(input).expect("input");
        let from = case["from"].as_str().expect("from");
        for to in tooladapter::formats::builtins().iter().filter(|a| a.info().writes) {
            for strict in [Strict::Source, Strict::On] {
                let options = case_options(&case).strict(strict);
                let Ok(placed) = registry.convert_with(&input, from, to.name(), &options) else {
                    continue;
                };
                let (output, entries) =
                    (placed.output().to_vec(), placed.report().entries().to_vec());
                let left = options.document_pointers(false);
                let kept = registry.convert_with(&input, from, to.name(), &left).expect("converts");
                let at = format!("{} -> {}", path.display(), to.name());
                assert_eq!(kept.output(), output.as_slice(), "{at}");
                let mut a: Vec<String> = entries.iter().map(said).collect();
                let mut b: Vec<String> = kept.report().entries().iter().map(said).collect();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{at}");
                // An entry about no tool (a tool left out, the catalog) is document-level as
                // recorded, and an import names its places in its source document itself.
                let imported =
                    tooladapter::formats::builtin(from).is_some_and(|a| a.info().imports);
                let about_a_tool = |e: &&ReportEntry| !e.tool.is_empty() && !imported;
                for e in kept.report().entries().iter().filter(about_a_tool) {
                    assert_eq!(e.pointer, e.tool_pointer, "{at}: {e:?}");
                }
                compared += entries.len();
                moved += entries.iter().filter(|e| e.pointer != e.tool_pointer).count();
            }
        }
    }
    // Most entries of a catalog are placed somewhere else than their tool's pointer says.
    assert!(compared > 500 && moved > 100, "{compared} entries, {moved} placed elsewhere");
}
