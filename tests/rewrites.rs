//! The meaning-keeping rewrites (refs, combinators, describe policy, dialects) and the Gemini
//! formats, on the project's own fixtures: golden snapshots (insta) of each target for
//! representative tools, and assertions on the cases each rule exists for.

mod common;

use serde_json::{Value, json};
use tooladapter::formats::{Gemini, Mcp, OpenAi};
use tooladapter::ir::Keyword;
use tooladapter::{Action, Conversion, Converter, Effect, ErrorKind, Options, Registry, Severity};

const TARGETS: [&str; 7] =
    ["mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini", "gemini-json"];

/// Output (pretty) and report, as a snapshot shows them.
fn shown(c: &Conversion) -> String {
    let mut s = c.output_str().to_owned();
    s.push_str("\n--- report\n");
    for e in c.report().entries() {
        let (severity, effect) = (e.severity, e.effect_label());
        s.push_str(&format!("{severity}[{effect}] {} {} {}\n", e.code, e.pointer, e.message));
    }
    s
}

fn convert(input: &[u8], from: &str, to: &str) -> Conversion {
    let r = Registry::default();
    r.convert_with(input, from, to, &Options::default().pretty(true))
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}"))
}

fn report_has(c: &Conversion, code: &str, pointer: &str, severity: Severity) -> bool {
    c.report()
        .entries()
        .iter()
        .any(|e| e.code.as_str() == code && e.pointer == pointer && e.severity == severity)
}

#[test]
fn booking_tool_per_target() {
    let input = include_bytes!("data/booking.mcp.json");
    for to in TARGETS {
        let c = convert(input, "mcp", to);
        insta::assert_snapshot!(format!("booking_{to}"), shown(&c));
    }
}

#[test]
fn gemini_output_stays_in_the_parameters_subset() {
    let c = convert(include_bytes!("data/booking.mcp.json"), "mcp", "gemini");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    let mut bad = Vec::new();
    common::gemini_violations(&v["parameters"], "/parameters", &mut bad);
    assert!(bad.is_empty(), "{bad:?}");
    // Every constraint Gemini lacks is in prose and in the report, at its source pointer.
    let notes = v.pointer("/parameters/properties/budget/description").unwrap();
    assert_eq!(notes, "Constraints: multipleOf 0.01.");
    assert!(report_has(
        &c,
        "keyword-described",
        "/inputSchema/properties/budget/multipleOf",
        Severity::Warning
    ));
    assert!(report_has(
        &c,
        "keyword-dropped",
        "/inputSchema/additionalProperties",
        Severity::Warning
    ));
    // The non-string enum keeps no type it did not have and goes to prose.
    assert!(report_has(
        &c,
        "keyword-described",
        "/inputSchema/properties/channel/enum",
        Severity::Warning
    ));
    // Disjoint `const` branches: `oneOf` → `anyOf` keeps the meaning.
    assert!(report_has(
        &c,
        "combinator-rewritten",
        "/inputSchema/properties/room/oneOf",
        Severity::Info
    ));
}

const TREE: &str = r##"{"name":"tree","inputSchema":{"type":"object",
  "$defs":{"node":{"type":"object","properties":{"label":{"type":"string"},
    "children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},
  "properties":{"root":{"$ref":"#/$defs/node"}}}}"##;

#[test]
fn recursive_schema() {
    let g = convert(TREE.as_bytes(), "mcp", "gemini");
    insta::assert_snapshot!("recursive_gemini", shown(&g));
    assert!(report_has(
        &g,
        "ref-recursive",
        "/inputSchema/$defs/node/properties/children/items/$ref",
        Severity::Warning
    ));
    // Where refs are held, the recursion is kept as written.
    let j = convert(TREE.as_bytes(), "mcp", "gemini-json");
    let v: Value = serde_json::from_slice(j.output()).unwrap();
    assert_eq!(v.pointer("/parametersJsonSchema/properties/root/$ref").unwrap(), "#/$defs/node");
    // Unrolled once on request: one more level of `children` before the cut.
    let r = Registry::default();
    let once = r
        .convert_with(TREE.as_bytes(), "mcp", "gemini", &Options::default().unroll_recursion(1))
        .unwrap();
    let v: Value = serde_json::from_slice(once.output()).unwrap();
    let deeper = "/parameters/properties/root/properties/children/items/properties/label";
    assert!(v.pointer(deeper).is_some(), "{v}");
    let v: Value = serde_json::from_slice(g.output()).unwrap();
    assert!(v.pointer(deeper).is_none(), "{v}");
}

/// `$defs` d0 … d40, each using the previous one twice: 2^40 nodes once inlined.
fn reference_bomb() -> Vec<u8> {
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "string"}));
    for i in 1..=40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": {"$ref": prev}, "b": {"$ref": prev}}}),
        );
    }
    let tool = json!({"name": "bomb", "inputSchema": {"type": "object", "$defs": defs,
        "properties": {"x": {"$ref": "#/$defs/d40"}}}});
    serde_json::to_vec(&tool).unwrap()
}

#[test]
fn reference_bomb_is_a_typed_error_where_refs_are_inlined() {
    let bomb = reference_bomb();
    let r = Registry::default();
    let e = r.convert(&bomb, "mcp", "gemini").expect_err("bomb");
    assert!(matches!(e.kind(), ErrorKind::RefExpansion { limit: 100_000 }), "{e}");
    assert_eq!(e.tool(), Some("bomb"));
    insta::assert_snapshot!("reference_bomb_gemini", e.to_string());
    // Targets that hold refs keep the 40 definitions as they are.
    let ok = r.convert(&bomb, "mcp", "openai").unwrap();
    assert!(ok.output().len() < 2 * bomb.len());
    // A larger budget admits a smaller bomb: d0 … d10 is 2^11 nodes.
    let small = Options::default().max_ref_expansion(10_000);
    let text = String::from_utf8(bomb).unwrap().replace("#/$defs/d40", "#/$defs/d10");
    assert!(r.convert_with(text.as_bytes(), "mcp", "gemini", &small).is_ok());
}

/// The deepest nesting of a JSON value (a scalar is 0).
fn nesting(v: &Value) -> usize {
    match v {
        Value::Object(m) => 1 + m.values().map(nesting).max().unwrap_or(0),
        Value::Array(a) => 1 + a.iter().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// Issue 32, item 9: a chain of `$ref` aliases is inlined however long it is (the written
/// schema is as deep as its last target), and depth is that of what is written: a definition
/// expanded once and used deep down counts the levels it brings there.
#[test]
fn inlining_counts_the_depth_it_writes_not_the_refs_it_follows() {
    let r = Registry::default();
    for len in [130, 2_000] {
        let mut defs = serde_json::Map::new();
        for i in 0..len {
            defs.insert(format!("a{i}"), json!({"$ref": format!("#/$defs/a{}", i + 1)}));
        }
        defs.insert(format!("a{len}"), json!({"type": "string", "description": "end"}));
        let tool = json!({"name": "t", "inputSchema": {"type": "object", "$defs": defs,
            "properties": {"p": {"$ref": "#/$defs/a0"}}}});
        for to in ["gemini", "gemini-json", "openai", "anthropic"] {
            let c = r
                .convert(&serde_json::to_vec(&tool).unwrap(), "mcp", to)
                .unwrap_or_else(|e| panic!("{len} aliases → {to}: {e}"));
            let out: Value = serde_json::from_slice(c.output()).unwrap();
            if to == "gemini" {
                let p = &out["parameters"]["properties"]["p"];
                assert_eq!(p["description"], "end", "{len}");
                assert!(nesting(&out) <= 4, "{len} aliases written {} deep", nesting(&out));
            }
        }
    }
    // Definitions each one level around the next, each first used at the top (so expanded
    // there once) and then inside the one before: the written schema nests them all.
    let deep = |n: usize| {
        let mut defs = serde_json::Map::new();
        let mut props = serde_json::Map::new();
        for i in 0..n {
            let inner = if i + 1 < n {
                json!({"$ref": format!("#/$defs/d{}", i + 1)})
            } else {
                json!({"type": "string"})
            };
            defs.insert(format!("d{i}"), json!({"type": "object", "properties": {"x": inner}}));
        }
        for i in (0..n).rev() {
            props.insert(format!("p{i}"), json!({"$ref": format!("#/$defs/d{i}")}));
        }
        let tool = json!({"name": "t", "inputSchema": {"type": "object", "$defs": defs, "properties": props}});
        serde_json::to_vec(&tool).unwrap()
    };
    let options = Options::default().max_depth(40);
    let fits = r.convert_with(&deep(30), "mcp", "gemini", &options).expect("30 levels fit in 40");
    let out: Value = serde_json::from_slice(fits.output()).unwrap();
    assert!(nesting(&out) > 60, "{}", nesting(&out));
    let e = r.convert_with(&deep(60), "mcp", "gemini", &options).expect_err("60 levels do not");
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 40 }), "{e}");
}

#[test]
fn ref_with_siblings_and_escaped_pointers() {
    let tool = br##"{"name":"esc","inputSchema":{"type":"object",
      "$defs":{"a/b~c d":{"type":"string","minLength":2},"obj":{"type":"object","properties":{"p":{"type":"string"}},"additionalProperties":false}},
      "properties":{
        "s":{"$ref":"#/$defs/a~1b~0c%20d","description":"escaped","maxLength":5},
        "o":{"$ref":"#/$defs/obj","properties":{"q":{"type":"integer"}}},
        "d":{"$ref":"#/$defs/missing"},
        "e":{"$ref":"https://example.com/schema.json"}}}}"##;
    let g = convert(tool, "mcp", "gemini");
    insta::assert_snapshot!("siblings_gemini", shown(&g));
    let v: Value = serde_json::from_slice(g.output()).unwrap();
    // Siblings merged into the inlined copy.
    assert_eq!(
        v.pointer("/parameters/properties/s").unwrap(),
        &json!({"description": "escaped", "maxLength": 5, "type": "STRING", "minLength": 2})
    );
    // Gemini dropped the definition's `additionalProperties` (reported there), so the
    // sibling `properties` merge by name.
    assert!(report_has(
        &g,
        "keyword-dropped",
        "/inputSchema/$defs/obj/additionalProperties",
        Severity::Warning
    ));
    assert_eq!(v.pointer("/parameters/properties/o/properties/q/type").unwrap(), "INTEGER");
    assert_eq!(v.pointer("/parameters/properties/o/properties/p/type").unwrap(), "STRING");
    assert!(report_has(&g, "ref-dangling", "/inputSchema/properties/d/$ref", Severity::Warning));
    assert!(report_has(&g, "ref-external", "/inputSchema/properties/e/$ref", Severity::Warning));
    // Targets with refs keep them and still report what cannot resolve; nothing is fetched.
    let o = convert(tool, "mcp", "openai");
    assert!(report_has(&o, "ref-dangling", "/inputSchema/properties/d/$ref", Severity::Warning));
    assert!(report_has(&o, "ref-external", "/inputSchema/properties/e/$ref", Severity::Warning));
    assert!(!o.report().entries().iter().any(|e| e.pointer.contains("/properties/s/")));
    // Gemini JSON Schema keeps refs but takes only `$`-keywords beside one: the `$ref` moves
    // into a one-branch `anyOf`, which means the same.
    let j = convert(tool, "mcp", "gemini-json");
    let v: Value = serde_json::from_slice(j.output()).unwrap();
    assert_eq!(
        v.pointer("/parametersJsonSchema/properties/o").unwrap(),
        &json!({"properties": {"q": {"type": "integer"}}, "anyOf": [{"$ref": "#/$defs/obj"}]})
    );
    // Siblings that contradict the target: Gemini takes no sibling beside `anyOf`, so the
    // one that conflicts with the branch goes into the branch's description (a warning).
    let clash = br##"{"name":"k","inputSchema":{"type":"object","$defs":{"s":{"type":"string"}},
      "properties":{"v":{"$ref":"#/$defs/s","type":"integer"}}}}"##;
    let v: Value = serde_json::from_slice(convert(clash, "mcp", "gemini").output()).unwrap();
    assert_eq!(
        v.pointer("/parameters/properties/v").unwrap(),
        &json!({"anyOf": [{"type": "STRING", "description": "Also: type \"integer\"."}]})
    );
    // MCP → MCP stays exact, with nothing to say.
    assert!(convert(tool, "mcp", "mcp").report().is_empty());
}

#[test]
fn gemini_reads_every_input_shape() {
    let decl = r#"{"name":"f","description":"d","parameters":{"type":"OBJECT","properties":{"a":{"type":"STRING","nullable":true}},"required":["a"]}}"#;
    let json_decl = r#"{"name":"g","parametersJsonSchema":{"type":"object","properties":{"b":{"type":["integer","null"]}}}}"#;
    let r = Registry::default();
    for input in [
        decl.to_owned(),
        format!(r#"{{"functionDeclarations":[{decl},{json_decl}]}}"#),
        format!("[{decl},{json_decl}]"),
    ] {
        let out = r.convert(input.as_bytes(), "gemini", "openai").unwrap();
        let v: Value = serde_json::from_slice(out.output()).unwrap();
        let first = if v.is_array() { &v[0] } else { &v };
        // OpenAPI `nullable` means null is allowed: a type array in JSON Schema.
        assert_eq!(
            first.pointer("/function/parameters/properties/a/type").unwrap(),
            &json!(["string", "null"]),
            "{input}"
        );
    }
    // Gemini → Gemini keeps each declaration in its field, as it came: the API reads both.
    let both = format!(r#"{{"functionDeclarations":[{decl},{json_decl}]}}"#);
    let out = r.convert(both.as_bytes(), "gemini", "gemini").unwrap();
    assert_eq!(out.output_str(), both);
    assert!(out.report().is_empty(), "{:?}", out.report());
    // Into the other format of the family, each declaration is written in its field.
    let out = r.convert(both.as_bytes(), "gemini", "gemini-json").unwrap();
    let v: Value = serde_json::from_slice(out.output()).unwrap();
    assert_eq!(
        v["functionDeclarations"][0]["parametersJsonSchema"]["properties"]["a"]["type"],
        json!(["string", "null"])
    );
    // The two fields are mutually exclusive, as in the API.
    let both_fields =
        r#"{"name":"h","parameters":{"type":"OBJECT"},"parametersJsonSchema":{"type":"object"}}"#;
    let e = r.convert(both_fields.as_bytes(), "gemini", "mcp").unwrap_err();
    assert_eq!(e.pointer(), "/parametersJsonSchema");
}

#[test]
fn gemini_leaves_parameters_unset_for_a_tool_without_arguments() {
    let none = br#"{"name":"ping","inputSchema":{"type":"object","properties":{}}}"#;
    let v: Value = serde_json::from_slice(convert(none, "mcp", "gemini").output()).unwrap();
    assert_eq!(v, json!({"name": "ping"}));
    let j: Value = serde_json::from_slice(convert(none, "mcp", "gemini-json").output()).unwrap();
    assert!(j.get("parametersJsonSchema").is_some());
}

#[test]
fn caller_policy_overrides_the_profile() {
    let tool = br#"{"name":"p","inputSchema":{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$","description":"ISO code"}}}}"#;
    let mut conv = Converter::new();
    let describe = Options::default().policy(Keyword::Pattern, Action::Describe);
    let c = conv.convert(tool, &Mcp, &OpenAi, &describe).unwrap();
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(
        v.pointer("/function/parameters/properties/code").unwrap(),
        &json!({"type": "string", "description": "ISO code Constraints: pattern ^[A-Z]{3}$."})
    );
    assert!(report_has(
        c,
        "keyword-described",
        "/inputSchema/properties/code/pattern",
        Severity::Warning
    ));
    // Reject: the tool is left out, with an error entry at the keyword.
    let catalog = br#"{"tools":[{"name":"p","inputSchema":{"type":"object","properties":{"c":{"type":"string","pattern":"x"}}}},{"name":"q","inputSchema":{"type":"object"}}]}"#;
    let reject = Options::default().policy(Keyword::Pattern, Action::Reject);
    let c = conv.convert(catalog, &Mcp, &OpenAi, &reject).unwrap();
    assert_eq!(c.tools_written(), 1);
    assert!(c.report().entries().iter().any(|e| e.severity == Severity::Error
        && e.code.as_str() == "keyword-rejected"
        && e.pointer == "/tools/0/inputSchema/properties/c/pattern"
        || e.pointer == "/inputSchema/properties/c/pattern"));
    // Keep overrides a rewrite: Gemini then emits `oneOf` as written.
    let one_of = br#"{"name":"o","inputSchema":{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}}"#;
    let keep = Options::default().policy(Keyword::OneOf, Action::Keep);
    let c = conv.convert(one_of, &Mcp, &Gemini, &keep).unwrap();
    assert!(c.output_str().contains("\"oneOf\""));
}

/// A definition whose `oneOf` branches lose a keyword the target lacks is written as `anyOf`:
/// that widens where it stands, but a `$ref` may bring it under an enclosing `oneOf` that then
/// refuses a value it took (a second branch now matches). In a tool that refers and holds a
/// `oneOf`, `not` or `if`, the entries inside the definition say `changes`; with no `$ref`,
/// `widens`.
#[test]
fn a_change_in_a_definition_a_ref_may_bring_under_one_of_changes() {
    let effects = |tool: &str| {
        let c = convert(tool.as_bytes(), "mcp", "gemini-json");
        let in_defs = c.report().entries().iter().filter(|e| e.pointer.contains("/$defs/"));
        in_defs.map(|e| (e.code.as_str().to_owned(), e.effect)).collect::<Vec<_>>()
    };
    let one = r#""one":{"oneOf":[{"required":["b"]},{"required":["xx"],"patternProperties":{"x":true}}]}"#;
    let referred = format!(
        r##"{{"name":"t","inputSchema":{{"type":"object","$defs":{{{one}}},
           "oneOf":[{{"$ref":"#/$defs/one"}},{{"required":["a"]}}]}}}}"##
    );
    // Through another definition, under a `not`.
    let through = format!(
        r##"{{"name":"t","inputSchema":{{"type":"object","$defs":{{{one},"via":{{"$ref":"#/$defs/one"}}}},
           "not":{{"$ref":"#/$defs/via"}}}}}}"##
    );
    let alone = format!(r#"{{"name":"t","inputSchema":{{"type":"object","$defs":{{{one}}}}}}}"#);
    let rewritten = |effect| {
        vec![("combinator-rewritten".to_owned(), effect), ("keyword-described".to_owned(), effect)]
    };
    assert_eq!(effects(&referred), rewritten(Effect::Changes));
    assert_eq!(effects(&through), rewritten(Effect::Changes));
    assert_eq!(effects(&alone), rewritten(Effect::Widens));
}

#[test]
fn overlapping_one_of_is_a_warning_and_unmergeable_all_of_is_described() {
    let tool = br#"{"name":"c","inputSchema":{"type":"object","properties":{
      "v":{"oneOf":[{"type":"number"},{"type":"integer"}]},
      "w":{"allOf":[{"type":"string"},{"type":"integer"}]}}}}"#;
    let c = convert(tool, "mcp", "gemini");
    assert!(report_has(
        &c,
        "combinator-rewritten",
        "/inputSchema/properties/v/oneOf",
        Severity::Warning
    ));
    assert!(report_has(
        &c,
        "keyword-described",
        "/inputSchema/properties/w/allOf",
        Severity::Warning
    ));
}

#[test]
fn bfcl_dialect_is_read_with_report_entries() {
    let f =
        br#"{"name":"math.factorial","description":"n!","parameters":{"type":"dict","properties":{
      "n":{"type":"integer"},"x":{"type":"float"},"t":{"type":"tuple","items":{"type":"string"}},
      "a":{"type":"any"},"s":{"type":"String"}},"required":["n"]}}"#;
    let c = convert(f, "openai", "anthropic");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    let p = &v["input_schema"];
    assert_eq!(p["type"], "object");
    assert_eq!(p["properties"]["x"]["type"], "number");
    assert_eq!(p["properties"]["t"]["type"], "array");
    assert!(p["properties"]["a"].get("type").is_none());
    assert_eq!(p["properties"]["s"]["type"], "string");
    assert!(report_has(&c, "dialect-rewritten", "/parameters/type", Severity::Info));
    assert!(report_has(
        &c,
        "dialect-rewritten",
        "/parameters/properties/t/type",
        Severity::Warning
    ));
    assert!(report_has(
        &c,
        "dialect-rewritten",
        "/parameters/properties/a/type",
        Severity::Warning
    ));
    // The same format normalizes too: OpenAI reads no BFCL type names. Each change to the
    // file is a warning there (the file changes, though `dict` means an object).
    let same = convert(f, "openai", "openai");
    assert!(!same.output_str().contains("\"dict\""), "{}", same.output_str());
    assert!(report_has(&same, "dialect-rewritten", "/parameters/type", Severity::Warning));
}

#[test]
fn cli_policy_flag() {
    let bin = env!("CARGO_BIN_EXE_tooladapter");
    let bad = std::process::Command::new(bin)
        .args(["convert", "--from", "mcp", "--to", "openai", "--policy", "pattern=sometimes", "-"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown action"));
}

#[test]
fn draft_07_definitions_become_defs_with_their_refs() {
    let tool = br##"{"name":"d7","inputSchema":{"type":"object",
      "definitions":{"id":{"type":"string"}},
      "properties":{"a":{"$ref":"#/definitions/id"},"b":{"items":{"$ref":"#/definitions/id"}}}}}"##;
    let c = convert(tool, "mcp", "anthropic");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    let s = &v["input_schema"];
    assert_eq!(s["$defs"], json!({"id": {"type": "string"}}));
    assert!(s.get("definitions").is_none());
    assert_eq!(s["properties"]["a"]["$ref"], "#/$defs/id");
    assert_eq!(s["properties"]["b"]["items"]["$ref"], "#/$defs/id");
    assert!(report_has(&c, "dialect-rewritten", "/inputSchema/definitions", Severity::Info));
    // MCP keeps the draft-07 form as written.
    assert!(convert(tool, "mcp", "mcp").output_str().contains("#/definitions/id"));
}

/// A dropped `$schema` naming an older draft is a warning where that draft reads a keyword of
/// its schema otherwise than 2020-12 does, and the annotation drop it always was elsewhere.
#[test]
fn a_dropped_older_draft_is_a_warning_where_it_changes_a_keyword() {
    let d = |n: &str| format!("http://json-schema.org/draft-{n}/schema#");
    let tool =
        |root: Value| serde_json::to_vec(&json!({"name": "t", "inputSchema": root})).expect("json");
    let schema_entry = |c: &Conversion, pointer: &str| {
        let found = c.report().entries().iter().find(|e| e.pointer == pointer).cloned();
        found.unwrap_or_else(|| panic!("no entry at {pointer}: {:?}", c.report().entries()))
    };
    let root = "/inputSchema/$schema";
    let cases = [
        // draft-04 has no `const`: a draft-04 validator ignores it, 2020-12 applies it.
        (json!({"$schema": d("04"), "properties": {"a": {"const": 1}}}), Severity::Warning),
        (json!({"$schema": d("06"), "properties": {"a": {"const": 1}}}), Severity::Info),
        (json!({"$schema": d("06"), "if": {"required": ["a"]}}), Severity::Warning),
        (json!({"$schema": d("07"), "if": {"required": ["a"]}}), Severity::Info),
        // draft-07's `dependencies` is no keyword in 2020-12.
        (json!({"$schema": d("07"), "dependencies": {"a": ["b"]}}), Severity::Warning),
        (json!({"$schema": d("07"), "dependentRequired": {"a": ["b"]}}), Severity::Warning),
        (
            json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "prefixItems": [{}]}),
            Severity::Warning,
        ),
        (json!({"$schema": d("03"), "type": "object"}), Severity::Warning),
        (
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "const": 1}),
            Severity::Info,
        ),
        (json!({"$schema": "https://example.com/my-dialect", "const": 1}), Severity::Info),
    ];
    for (schema, severity) in cases {
        let c = convert(&tool(schema.clone()), "mcp", "openai");
        let e = schema_entry(&c, root);
        assert_eq!((e.severity, e.code.as_str()), (severity, "keyword-dropped"), "{schema}");
        if severity == Severity::Warning && schema["$schema"] != json!(d("03")) {
            let feature = ["const", "if", "dependencies", "dependentRequired", "prefixItems"]
                .into_iter()
                .find(|k| schema.to_string().contains(&format!("\"{k}\"")))
                .expect("a keyword");
            assert!(e.message.contains(&format!("`{feature}`")), "{}", e.message);
        }
        // Where `$schema` is kept, so is the draft's reading: nothing to report.
        let kept = convert(&tool(schema), "mcp", "mcp");
        assert!(kept.report().entries().iter().all(|e| e.pointer != root));
    }
    // Up to draft-07 the keywords beside a `$ref` are void; annotations change nothing.
    let with_ref = |draft: String, sibling: Value| {
        let mut x = json!({"$ref": "#/definitions/a"});
        x.as_object_mut().expect("object").extend(sibling.as_object().cloned().unwrap_or_default());
        json!({"$schema": draft, "definitions": {"a": {"type": "string"}}, "properties": {"x": x}})
    };
    let cases = [
        (d("07"), json!({"maxLength": 3}), Severity::Warning),
        (d("04"), json!({"type": "integer"}), Severity::Warning),
        (d("07"), json!({"description": "d", "default": "a"}), Severity::Info),
        (d("07"), json!({}), Severity::Info),
        (
            "https://json-schema.org/draft/2019-09/schema".into(),
            json!({"maxLength": 3}),
            Severity::Info,
        ),
    ];
    for (draft, sibling, severity) in cases {
        let schema = with_ref(draft, sibling);
        let c = convert(&tool(schema.clone()), "mcp", "openai");
        let e = schema_entry(&c, root);
        assert_eq!(e.severity, severity, "{schema}: {}", e.message);
        assert_eq!(e.message.contains("beside a `$ref`"), severity == Severity::Warning);
    }
    // In a subschema (the differential fuzz target's find: `oneOf` with a draft-04 `const`
    // branch accepts what both branches accept there, and only one in 2020-12).
    let nested = json!({"type": "object", "properties": {"x": {
        "$schema": d("04"), "oneOf": [{"const": 1}, {}]}}});
    let c = convert(&tool(nested), "mcp", "openai-responses");
    let e = schema_entry(&c, "/inputSchema/properties/x/$schema");
    assert_eq!(e.severity, Severity::Warning, "{}", e.message);
    assert!(c.report().lost_meaning());
}

#[test]
fn openapi_nullable_becomes_a_type_array_wherever_json_schema_is_read() {
    // Gemini `parameters` is an OpenAPI 3.0 Schema: MCP reads JSON Schema, where `nullable`
    // means nothing, so it gets the type array (and a 3.0 boolean bound the number form),
    // although the MCP profile keeps every keyword. Gemini keeps its own form.
    let decl = br#"{"name":"f","parameters":{"type":"OBJECT","properties":{"a":{"type":"STRING","nullable":true},"n":{"type":"INTEGER","minimum":1,"exclusiveMinimum":true}}}}"#;
    let c = convert(decl, "gemini", "mcp");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(v["inputSchema"]["properties"]["a"], json!({"type": ["string", "null"]}));
    assert_eq!(
        v["inputSchema"]["properties"]["n"],
        json!({"type": "integer", "exclusiveMinimum": 1})
    );
    assert!(report_has(
        &c,
        "dialect-rewritten",
        "/parameters/properties/a/nullable",
        Severity::Info
    ));
    let same = convert(decl, "gemini", "gemini");
    let v: Value = serde_json::from_slice(same.output()).unwrap();
    assert_eq!(v["parameters"]["properties"]["a"]["nullable"], true);
    // A JSON Schema source's `nullable` is the author's annotation: MCP keeps it.
    let tool = br#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","nullable":true}}}}"#;
    assert!(convert(tool, "mcp", "mcp").output_str().contains("\"nullable\": true"));
}

#[test]
fn a_dropped_output_schema_or_metadata_member_is_reported_once_and_not_read() {
    let r = Registry::default();
    // Gemini drops `additionalProperties` in the input schema, and the whole output schema:
    // one entry for the output schema, none about what lay inside it.
    let tool = br#"{"name":"t","inputSchema":{"type":"object","properties":{"p":{"type":"string"}},"additionalProperties":false},"outputSchema":{"type":"object","additionalProperties":false,"properties":{"r":{"type":"object","additionalProperties":false}}},"_meta":{"k":1}}"#;
    let c = convert(tool, "mcp", "gemini");
    let pointers: Vec<(&str, &str)> =
        c.report().entries().iter().map(|e| (e.code.as_str(), e.pointer.as_str())).collect();
    assert_eq!(
        pointers,
        [
            ("keyword-dropped", "/inputSchema/additionalProperties"),
            ("output-schema-dropped", "/outputSchema"),
            ("metadata-dropped", "/_meta"),
        ]
    );
    // A repeated key inside a part the target drops does not stop the conversion; a target
    // that keeps the part still rejects it, with the pointer of the object.
    let dup = br#"{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"a":{"type":"string","type":"number"}}},"annotations":{"title":"x","title":"y"}}"#;
    for to in ["openai", "openai-responses", "anthropic", "gemini"] {
        let c = r.convert(dup, "mcp", to).unwrap_or_else(|e| panic!("{to}: {e}"));
        assert!(!c.output_str().contains("outputSchema"), "{to}");
    }
    let e = r.convert(dup, "mcp", "mcp").expect_err("MCP keeps both");
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
    assert_eq!(e.pointer(), "/outputSchema/properties/a/type");
    // What is not a schema at all is still an error, whatever the target.
    let bad = br#"{"name":"t","inputSchema":{"type":"object"},"outputSchema":"object"}"#;
    let e = r.convert(bad, "mcp", "openai").expect_err("not a schema");
    assert!(matches!(e.kind(), ErrorKind::WrongType { .. }), "{e}");
    assert_eq!(e.pointer(), "/outputSchema");
    // So is a malformed number, which the skip still checks.
    let num = br#"{"name":"t","inputSchema":{"type":"object"},"_meta":{"n":[1,78901234567890123456-891]}}"#;
    let e = r.convert(num, "mcp", "openai").expect_err("not JSON");
    assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{e}");
}

/// A keyword whose value constrains nothing is dropped with an `info` entry where the target
/// lacks it, never described or warned about; `not: {}` (refuses everything) is no such value.
#[test]
fn vacuous_keywords_are_dropped_without_a_warning() {
    let source = json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "string", "minLength": 0}, "additionalItems": false, "uniqueItems": false},
        "bag": {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": true, "minProperties": 0, "patternProperties": {}},
        "anything": {"type": "string", "not": false}
    }});
    let tool = serde_json::to_vec(&json!({"name": "noop", "inputSchema": source})).unwrap();
    for to in ["gemini", "gemini-json", "anthropic", "openai"] {
        let c = convert(&tool, "mcp", to);
        assert!(!c.report().lost_meaning(), "{to}: {:?}", c.report().entries());
        assert!(!c.output_str().contains("Constraints"), "{to}: {}", c.output_str());
    }
    let nothing =
        json!({"name": "t", "inputSchema": {"type": "object", "properties": {"n": {"not": {}}}}});
    let c = convert(&serde_json::to_vec(&nothing).unwrap(), "mcp", "gemini-json");
    assert!(report_has(
        &c,
        "keyword-described",
        "/inputSchema/properties/n/not",
        Severity::Warning
    ));
}

/// A member that holds nothing (`null`, `[]`, `{}`), of a tool or of the catalog wrapper,
/// carries nothing a target could lose: dropping it is not reported. A member with content
/// still is, as a warning.
#[test]
fn dropping_an_empty_member_is_not_a_loss() {
    let tool = json!({"tools": [
        {"name": "empty", "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}}, "annotations": null, "icons": [], "_meta": {}, "outputSchema": null},
        {"name": "full", "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}}, "annotations": {"readOnlyHint": true}}
    ], "nextCursor": null});
    let bytes = serde_json::to_vec(&tool).unwrap();
    for to in ["openai", "anthropic", "gemini", "langchain"] {
        let c = convert(&bytes, "mcp", to);
        let entries: Vec<(&str, &str)> =
            c.report().entries().iter().map(|e| (e.tool.as_str(), e.code.as_str())).collect();
        assert_eq!(entries, [("full", "metadata-dropped")], "{to}");
    }
    // The same format keeps them as written.
    let c = convert(&bytes, "mcp", "mcp");
    let v: Value = serde_json::from_slice(c.output()).unwrap();
    assert_eq!(v["tools"][0].get("annotations"), Some(&Value::Null));
    assert_eq!(v["tools"][0]["icons"], json!([]));
}

/// The input schema a conversion wrote, as a JSON value, for the formats of these tests.
fn written_schema(c: &Conversion, to: &str) -> Value {
    common::converted_schema(&Registry::default(), to, c.output()).expect("an input schema")
}

/// Whether the instances that `source` and `written` accept are the same ones, over
/// `instances`; each schema is read by the draft its own `$schema` names (2020-12 without
/// one), as a validator would read it.
fn same_verdicts(source: &Value, written: &Value, instances: &[Value]) -> Result<(), String> {
    let a = jsonschema::validator_for(source).map_err(|e| e.to_string())?;
    let b = jsonschema::validator_for(written).map_err(|e| e.to_string())?;
    for i in instances {
        if a.is_valid(i) != b.is_valid(i) {
            let (was, now) = (a.is_valid(i), b.is_valid(i));
            return Err(format!("{i}: source {was}, written {now}\n{written}"));
        }
    }
    Ok(())
}

/// A draft-07 tuple written in 2020-12 takes its `$schema` along (rewritten to 2020-12 where
/// the target keeps it; dropped, with an `info` entry and no word about a `prefixItems` the
/// converter wrote, where it does not), and the refs into the old forms follow them.
#[test]
fn a_draft_07_tuple_rewrite_takes_its_schema_and_refs_along() {
    let source = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "point": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}], "additionalItems": false},
            "x": {"$ref": "#/properties/point/items/0"},
            "rest": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "number"}},
            "extra": {"$ref": "#/properties/rest/additionalItems"}
        }
    });
    let tool = serde_json::to_vec(&json!({"name": "plot", "inputSchema": source})).unwrap();
    let instances = [
        json!({"point": [1, 2]}),
        json!({"point": [1, 2, 3]}),
        json!({"point": [1, "a"]}),
        json!({"point": []}),
        json!({"rest": ["a", 1, 2.5]}),
        json!({"rest": ["a", "b"]}),
        json!({"rest": [1]}),
        json!({"x": 3}),
        json!({"x": "3"}),
        json!({"extra": 2.5}),
        json!({"extra": "a"}),
    ];
    for to in ["anthropic", "bedrock", "openai", "gemini-json"] {
        let c = convert(&tool, "mcp", to);
        let written = written_schema(&c, to);
        same_verdicts(&source, &written, &instances).unwrap_or_else(|e| panic!("{to}: {e}"));
        assert_eq!(written["properties"]["x"]["$ref"], "#/properties/point/prefixItems/0", "{to}");
        assert_eq!(written["properties"]["extra"]["$ref"], "#/properties/rest/items", "{to}");
        assert!(!c.report().entries().iter().any(|e| e.code.as_str() == "ref-dangling"), "{to}");
        match written.get("$schema") {
            Some(s) => assert_eq!(s, "https://json-schema.org/draft/2020-12/schema", "{to}"),
            None => {
                assert!(report_has(&c, "keyword-dropped", "/inputSchema/$schema", Severity::Info))
            }
        }
        assert!(!c.report().lost_meaning(), "{to}: {:?}", c.report().entries());
    }
}

/// No rewrite turns a schema that accepts something into one that accepts less than the
/// source did: lengths described inside overlapping `oneOf` branches would leave branches
/// that all accept the same values, so "exactly one" would refuse what the source accepted.
#[test]
fn describing_inside_one_of_never_refuses_what_the_source_accepted() {
    for one_of in [
        json!([{"minLength": 2}, {"maxLength": 4}]),
        json!([{"type": "string", "minLength": 2}, {"type": "string", "maxLength": 4}]),
    ] {
        let source = json!({"type": "object", "properties": {"code": {"oneOf": one_of}}, "required": ["code"]});
        let tool = serde_json::to_vec(&json!({"name": "code", "inputSchema": source})).unwrap();
        let c = convert(&tool, "mcp", "gemini-json");
        let written = written_schema(&c, "gemini-json");
        let validator = jsonschema::validator_for(&written).unwrap();
        let accepted = jsonschema::validator_for(&source).unwrap();
        for code in ["a", "abc", "abcdef"] {
            let i = json!({"code": code});
            if accepted.is_valid(&i) {
                assert!(validator.is_valid(&i), "{i} refused by {written}");
            }
        }
        assert!(c.report().lost_meaning());
    }
}

/// `patternProperties` described beside `additionalProperties` (not strict): left alone,
/// `additionalProperties` would refuse the keys the patterns admitted. It goes into the
/// description too, so the object accepts more, never less, and each entry is a warning.
#[test]
fn describing_pattern_properties_never_refuses_the_keys_they_admitted() {
    let source = json!({"type": "object", "properties": {"tags": {
        "type": "object",
        "properties": {"owner": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": false
    }}});
    let tool = serde_json::to_vec(&json!({"name": "labels", "inputSchema": source})).unwrap();
    let c = convert(&tool, "mcp", "gemini-json");
    let written = written_schema(&c, "gemini-json");
    let validator = jsonschema::validator_for(&written).unwrap();
    for i in [json!({"tags": {"x-a": "b"}}), json!({"tags": {"owner": "me", "x-b": "c"}})] {
        assert!(validator.is_valid(&i), "{i} refused by {written}");
    }
    assert!(report_has(
        &c,
        "keyword-described",
        "/inputSchema/properties/tags/additionalProperties",
        Severity::Warning
    ));
}
