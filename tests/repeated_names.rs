//! One policy for repeated tool names, for every pair of formats (the same format too): the
//! first tool keeps the name, each later one is numbered (`name_2`, `name_3`, … the first
//! number free, cut to the target's length) with a warning, and the inverse map gives the
//! source name and the tool's place, since the name alone cannot tell the tools apart.

#[path = "common/bin.rs"]
mod bin;

use serde_json::{Value, json};
use tooladapter::{Code, Conversion, Options, Registry, Severity};

const PAIRS: [(&str, &str); 12] = [
    ("mcp", "openai"),
    ("openai", "gemini"),
    ("mcp", "mcp"),
    ("anthropic", "bedrock"),
    ("gemini", "anthropic"),
    ("langchain", "langchain"),
    ("a2a", "a2a"),
    ("bedrock", "openai-responses"),
    ("mcp", "a2a"),
    ("openai", "openai"),
    ("mcp", "langchain"),
    ("openai-responses", "mcp"),
];

#[track_caller]
fn convert(input: &str, from: &str, to: &str) -> Conversion {
    Registry::default()
        .convert_with(input.as_bytes(), from, to, &Options::default())
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}\n{input}"))
}

/// A `format` catalog of tools named `names`, each described `d<i>`.
fn catalog(format: &str, names: &[&str]) -> String {
    // Written under placeholder names first: the conversion that writes the catalog would
    // number the repeated ones itself.
    let tools: Vec<String> = (0..names.len())
        .map(|i| format!(r#"{{"name":"n{i}x","description":"d{i}","inputSchema":{{"type":"object","properties":{{"q":{{"type":"string"}}}}}}}}"#))
        .collect();
    let mcp = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    let mut out = convert(&mcp, "mcp", format).output_str().to_owned();
    for (i, name) in names.iter().enumerate() {
        out = out.replace(&format!(r#""n{i}x""#), &format!("{name:?}"));
    }
    out
}

/// The names and descriptions of the tools written in `c`, read back as `to`.
fn written(c: &Conversion, to: &str) -> Vec<(String, String)> {
    let tools = Registry::default().to_canonical(c.output(), to).expect("output reads");
    tools.iter().map(|t| (t.name.clone(), t.description.clone().unwrap_or_default())).collect()
}

#[test]
fn every_pair_numbers_the_later_tools_of_a_name() {
    for (from, to) in PAIRS {
        let input = catalog(from, &["a", "a", "b", "a", "a_2"]);
        let c = convert(&input, from, to);
        let case = format!("{from} → {to}");
        let names: Vec<(String, String)> = ["a", "a_3", "b", "a_4", "a_2"]
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), format!("d{i}")))
            .collect();
        assert_eq!(written(&c, to), names, "{case}");
        let renamed: Vec<_> =
            c.report().entries().iter().filter(|e| e.code == Code::ToolRenamed).collect();
        assert_eq!(renamed.len(), 2, "{case}");
        for (e, new) in renamed.iter().zip(["a_3", "a_4"]) {
            assert_eq!((e.severity, e.tool.as_str()), (Severity::Warning, "a"), "{case}");
            // Through the inverse map the same calls: no argument involved, but the name
            // named two tools (a warning).
            assert_eq!((e.effect, e.arguments), (tooladapter::Effect::None, false), "{case}");
            let says = format!(
                "tool name \"a\" renamed \"{new}\": an earlier tool of the catalog has this name"
            );
            assert!(e.message.starts_with(&says), "{case}: {e}");
        }
        assert!(c.report().max_severity() < Some(Severity::Error), "{case}: {:?}", c.report());
        // The inverse map names the source tool by its name and its place.
        let inverse = c.inverse();
        let places: Vec<(&str, &str, Option<usize>)> = inverse
            .tools
            .iter()
            .map(|t| (t.name.as_str(), t.source_name.as_str(), t.source_index))
            .collect();
        assert_eq!(places, [("a_3", "a", Some(1)), ("a_4", "a", Some(3))], "{case}");
        let call = inverse.unmap_call(&json!({"name": "a_4", "arguments": {"q": "x"}})).unwrap();
        assert_eq!((call.name.as_str(), call.source_index), ("a", Some(3)), "{case}");
        assert_eq!(call.arguments, json!({"q": "x"}));
        // The first keeps its name, and a call of it is left as it is.
        assert_eq!(inverse.unmap_call(&json!({"name": "a"})).unwrap().source_index, None);
    }
}

#[test]
fn numbers_obey_the_target_name_rule() {
    // A name the rule rejects, repeated: the first is folded (and given a hash where the
    // folded name is taken), the later one numbered from the folded name.
    let input = catalog("mcp", &["a.b", "a.b", "a_b"]);
    let c = convert(&input, "mcp", "openai");
    let names: Vec<String> = written(&c, "openai").into_iter().map(|(n, _)| n).collect();
    assert!(names[0].starts_with("a_b_") && names[0].len() == 10, "{names:?}");
    assert_eq!(names[1..], ["a_b_2", "a_b"]);
    let second = &c.report().entries()[1];
    assert!(
        second.message.contains("an earlier tool of the catalog has this name; openai requires"),
        "{second}"
    );
    // At the length limit, the number replaces the end of the name.
    let long = "x".repeat(64);
    for to in ["openai", "gemini", "anthropic", "bedrock"] {
        let c = convert(&catalog("mcp", &[&long, &long]), "mcp", to);
        let names: Vec<String> = written(&c, to).into_iter().map(|(n, _)| n).collect();
        let limit = tooladapter::formats::builtin(to)
            .and_then(|f| f.info().profile.name_rule().map(|r| r.max))
            .expect("a name rule");
        let numbered = format!("{}_2", &long[..long.len().min(limit - 2)]);
        assert_eq!(names, [long.clone(), numbered], "{to}");
        assert!(names.iter().all(|n| n.len() <= limit));
    }
}

#[test]
fn the_cli_writes_the_map_and_maps_calls_back() {
    let dir = std::env::temp_dir().join(format!("repeated-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let map = dir.join("map.json");
    let input = catalog("mcp", &["search", "search"]);
    let args =
        ["convert", "--from", "mcp", "--to", "anthropic", "--map-out", map.to_str().unwrap()];
    let (code, out, err) = bin::run(&args, input.as_bytes());
    // A rename is a warning: exit 0.
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(v[1]["name"], "search_2");
    let written: Value = serde_json::from_slice(&std::fs::read(&map).unwrap()).unwrap();
    assert_eq!(written["tools"][0]["source_index"], 1);
    let call = br#"{"type":"tool_use","id":"t1","name":"search_2","input":{"q":"x"}}"#;
    let (code, out, err) = bin::run(&["unmap", "--map", map.to_str().unwrap()], call);
    assert_eq!(code, 0, "{err}");
    let back: Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(
        back,
        json!({"id": "t1", "name": "search", "source_index": 1, "arguments": {"q": "x"}})
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_catalog_with_a_repeated_name_gives_the_same_on_every_thread_count() {
    let mut names: Vec<String> = (0..300).map(|i| format!("t{i}")).collect();
    names[200] = "t10".to_owned();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let input = catalog("mcp", &refs).replace(r#""d"#, &format!(r#""{}"#, "w".repeat(300)));
    assert!(input.len() > 64 << 10);
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        let args = ["convert", "--from", "mcp", "--to", "gemini", "--jobs", jobs];
        let (code, out, err) = bin::run(&args, input.as_bytes());
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(v["functionDeclarations"][200]["name"], "t10_2");
        outs.push((out, err));
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn the_place_counts_every_tool_of_the_document() {
    // A tool left out before still counts: the place is the source's, not the output's.
    let input = r#"{"tools":[{"name":"a","inputSchema":{}},{"inputSchema":{}},{"name":"a","inputSchema":{}}]}"#;
    let c = convert(input, "mcp", "openai");
    assert_eq!(c.inverse().tool("a_2").and_then(|t| t.source_index), Some(2));
    // In a Gemini request, the declarations of every group in document order.
    let request = r#"{"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]},{"functionDeclarations":[{"name":"a"}]}]}"#;
    let c = convert(request, "gemini", "gemini");
    assert_eq!(c.inverse().tool("a_2").and_then(|t| t.source_index), Some(2));
    assert!(
        c.output_str().contains(r#"{"functionDeclarations":[{"name":"a_2"}]}"#),
        "{}",
        c.output_str()
    );
}
