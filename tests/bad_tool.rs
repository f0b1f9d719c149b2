//! One bad tool costs one tool: a catalog with a tool that cannot be read or converted keeps
//! every other tool, and the bad one is left out with an `error` entry naming its place in the
//! catalog, whatever the pair of formats; the CLI exits 1 and writes the rest. What is wrong
//! with the document as a whole still ends the conversion.

#[path = "common/bin.rs"]
mod bin;

use serde_json::Value;
use tooladapter::ir::Keyword;
use tooladapter::{
    Action, Code, Conversion, ErrorKind, Options, Registry, ReportEntry, Severity, Strict,
};

/// A good tool whose numbers come after the bad tool's in a catalog, so a reader that lost
/// its place in the bad tool would misread them.
const ALPHA: &str = r#"{"name":"alpha","description":"First.","inputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":-3,"maximum":12}},"required":["n"]}}"#;
const GAMMA: &str = r#"{"name":"gamma","inputSchema":{"type":"object","properties":{"x":{"type":"number","minimum":0.5},"tags":{"type":"array","items":{"type":"string"},"maxItems":4}}}}"#;
/// The tool made bad, one way at a time; `zz` is where its schema is broken.
const BROKEN: &str = r#"{"name":"broken","description":"Bad.","inputSchema":{"type":"object","properties":{"zz":{"type":"string","maxLength":7},"k":{"type":"integer","maximum":99}}}}"#;
/// A tool whose `$ref`s expand past a budget of 20 nodes.
const BOMB: &str = r##"{"name":"broken","description":"Bad.","inputSchema":{"type":"object","$defs":{"a":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer","maximum":3}}},"b":{"type":"object","properties":{"l":{"$ref":"#/$defs/a"},"r":{"$ref":"#/$defs/a"}}},"c":{"type":"object","properties":{"l":{"$ref":"#/$defs/b"},"r":{"$ref":"#/$defs/b"}}}},"properties":{"l":{"$ref":"#/$defs/c"},"r":{"$ref":"#/$defs/c"}}}}"##;

/// Every built-in format that reads tools as they are (an OpenAPI import reads documents).
fn sources() -> Vec<&'static str> {
    let formats = tooladapter::formats::builtins().iter();
    formats.map(|f| f.info()).filter(|i| i.reads && !i.imports).map(|i| i.name).collect()
}

/// Every built-in format that writes tools.
fn targets() -> Vec<&'static str> {
    let formats = tooladapter::formats::builtins().iter();
    formats.map(|f| f.info()).filter(|i| i.writes).map(|i| i.name).collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bad {
    /// No name member.
    NoName,
    /// The member holding the name given twice.
    RepeatedMember,
    /// A property key given twice in the input schema.
    RepeatedKey,
    /// An input schema that is a string.
    NotASchema,
    /// `$ref`s past the expansion budget.
    Budget,
}

#[track_caller]
fn convert(input: &str, from: &str, to: &str, options: &Options) -> Conversion {
    Registry::default()
        .convert_with(input.as_bytes(), from, to, options)
        .unwrap_or_else(|e| panic!("{from} → {to}: {e}\n{input}"))
}

/// The MCP catalog of `tools` written as a `format` catalog.
fn catalog(format: &str, tools: &[&str]) -> String {
    let mcp = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    convert(&mcp, "mcp", format, &Options::default()).output_str().to_owned()
}

/// The member of `format`'s tool that holds its name.
fn name_key(format: &str) -> &'static str {
    let info = tooladapter::formats::builtin(format).expect("a format").info();
    info.name_pointer.rsplit('/').next().unwrap_or("name")
}

/// `catalog` (of `format`, holding `"broken"`) with the tool made bad; `None` where the
/// format has no place for the fault (an A2A skill has no schema; a format that inlines refs
/// has none left to expand).
fn spoil(catalog: &str, format: &str, bad: Bad) -> Option<String> {
    let key = name_key(format);
    let name = format!(r#""{key}":"broken""#);
    let (from, to) = match bad {
        Bad::NoName => (format!("{name},"), String::new()),
        Bad::RepeatedMember => (name.clone(), format!("{name},{name}")),
        Bad::RepeatedKey => (r#""zz":"#.to_owned(), r#""zz":{},"zz":"#.to_owned()),
        Bad::NotASchema => {
            // The input schema a string, what followed it moved into another member.
            let open = [
                r#"{"type":"object","properties":{"zz""#,
                r#"{"type":"OBJECT","properties":{"zz""#,
            ];
            let from = open.into_iter().find(|o| catalog.contains(o))?;
            (from.to_owned(), r#""object","x-rest":{"properties":{"zz""#.to_owned())
        }
        Bad::Budget => return catalog.contains("$ref").then(|| catalog.to_owned()),
    };
    catalog.contains(&from).then(|| catalog.replacen(&from, &to, 1))
}

/// The pointer of the second tool of `catalog`, a catalog of `format`.
fn second(catalog: &str, format: &str) -> String {
    let v: Value = serde_json::from_str(catalog).expect("json");
    if v.is_array() {
        return "/1".to_owned();
    }
    let key = tooladapter::formats::builtin(format)
        .expect("a format")
        .info()
        .catalog_key
        .expect("an object catalog");
    format!("/{key}/1")
}

/// The entries as printed, each at its place in its tool (the tools before it in the two
/// catalogs compared differ).
fn printed(entries: &[ReportEntry]) -> Vec<String> {
    let in_tool = |e: &ReportEntry| {
        let mut e = e.clone();
        e.pointer.clone_from(&e.tool_pointer);
        e.to_string()
    };
    entries.iter().map(in_tool).collect()
}

fn errors(c: &Conversion) -> Vec<&ReportEntry> {
    c.report().entries().iter().filter(|e| e.severity == Severity::Error).collect()
}

#[test]
fn a_bad_tool_is_left_out_and_the_others_are_written() {
    let budget = Options::default().max_ref_expansion(20);
    let mut checked = [0usize; 5];
    for from in sources() {
        let plain = catalog(from, &[ALPHA, BROKEN, GAMMA]);
        let bomb = catalog(from, &[ALPHA, BOMB, GAMMA]);
        let good = catalog(from, &[ALPHA, GAMMA]);
        for (i, bad) in
            [Bad::NoName, Bad::RepeatedMember, Bad::RepeatedKey, Bad::NotASchema, Bad::Budget]
                .into_iter()
                .enumerate()
        {
            let base = if bad == Bad::Budget { &bomb } else { &plain };
            let Some(input) = spoil(base, from, bad) else { continue };
            let options = if bad == Bad::Budget { budget.clone() } else { Options::default() };
            for to in targets() {
                let whole = convert(&good, from, to, &options);
                let c = convert(&input, from, to, &options);
                // A target that inlines no refs has no budget to break.
                if bad == Bad::Budget && errors(&c).is_empty() {
                    assert_eq!(c.tools_written(), 3, "{from} → {to}");
                    continue;
                }
                let case = format!("{bad:?} {from} → {to}\n{input}");
                // What is written is what the catalog without the bad tool gives.
                assert_eq!(c.output_str(), whole.output_str(), "{case}");
                assert_eq!(c.tools_written(), 2, "{case}");
                // Three tools read, the bad one counted once however late it is left out.
                assert_eq!(c.tools_read(), 3, "{case}");
                // One error entry, at the bad tool's place, naming it where it has a name.
                let [left] = errors(&c)[..] else { panic!("{case}: {:#?}", c.report()) };
                assert_eq!(left.code, Code::ToolNotConverted, "{case}");
                assert!(left.pointer.starts_with(&second(&input, from)), "{case}: {left}");
                let place = format!("; the tool at {} is left out", second(&input, from));
                assert!(left.message.ends_with(&place), "{case}: {left}");
                // Without its name, a tool is named by another format's `name` member if it
                // has one (an A2A skill's display name).
                let name = if bad == Bad::NoName && from != "a2a" { "" } else { "broken" };
                assert_eq!(left.tool, name, "{case}");
                // Every other entry is the good catalog's.
                let rest: Vec<ReportEntry> = c
                    .report()
                    .entries()
                    .iter()
                    .filter(|e| e.severity != Severity::Error)
                    .cloned()
                    .collect();
                assert_eq!(printed(&rest), printed(whole.report().entries()), "{case}");
                checked[i] += 1;
            }
        }
    }
    // Every kind of fault was tried on most pairs.
    assert!(checked[..4].iter().all(|&n| n >= 40), "{checked:?}");
    assert!(checked[4] >= 5, "{checked:?}");
}

#[test]
fn each_fault_is_told_by_its_kind() {
    let input = catalog("mcp", &[ALPHA, BROKEN, GAMMA]);
    let cases = [
        (Bad::NoName, "name", "/tools/1", "missing required member `name`"),
        (Bad::RepeatedMember, "name", "/tools/1/name", "duplicate key \"name\""),
        (Bad::RepeatedKey, "zz", "/tools/1/inputSchema/properties/zz", "duplicate key \"zz\""),
        (
            Bad::NotASchema,
            "schema",
            "/tools/1/inputSchema",
            "`schema` must be an object or a boolean, found string",
        ),
    ];
    for (bad, feature, pointer, message) in cases {
        let input = spoil(&input, "mcp", bad).expect("spoiled");
        let c = convert(&input, "mcp", "openai", &Options::default());
        let [left] = errors(&c)[..] else { panic!("{bad:?}: {:#?}", c.report()) };
        assert_eq!((left.feature.as_str(), left.pointer.as_str()), (feature, pointer), "{bad:?}");
        assert!(left.message.starts_with(message), "{bad:?}: {left}");
        // A tool of the format read is not sent to read itself as another.
        assert!(!left.message.contains("check --from"), "{left}");
    }
    let bomb = catalog("mcp", &[ALPHA, BOMB, GAMMA]);
    let c = convert(&bomb, "mcp", "gemini", &Options::default().max_ref_expansion(20));
    let [left] = errors(&c)[..] else { panic!("{:#?}", c.report()) };
    // Where the budget ran out.
    assert_eq!(left.feature, "$ref");
    assert_eq!(left.pointer, "/tools/1/inputSchema/properties/l/$ref");
    assert!(left.message.starts_with("inlining $ref would write more than 20 schema nodes"));
    // What the tool recorded before its budget ran out is not reported: it is not written.
    assert!(
        c.report().entries().iter().all(|e| e.tool != "broken" || e.severity == Severity::Error)
    );
}

#[test]
fn a_catalog_with_no_readable_tool_or_a_fault_of_the_document_is_an_error() {
    let r = Registry::default();
    // Nothing of the catalog could be read: most likely the wrong `--from`.
    let none = r#"{"tools":[{"inputSchema":{}},{"name":"b","name":"b"}]}"#;
    let e = r.convert(none.as_bytes(), "mcp", "openai").expect_err("nothing readable");
    assert!(matches!(e.kind(), ErrorKind::MissingMember { member: "name", .. }), "{e}");
    assert_eq!(e.pointer(), "/tools/0");
    // A single tool is the whole input.
    let one = spoil(BROKEN, "mcp", Bad::RepeatedKey).expect("spoiled");
    let e = r.convert(one.as_bytes(), "mcp", "openai").expect_err("one bad tool");
    assert!(matches!(e.kind(), ErrorKind::DuplicateKey { .. }), "{e}");
    // The document's own faults: a number that is not JSON, nesting past the limit, the
    // arena limit.
    let number = format!(
        r#"{{"tools":[{ALPHA},{{"name":"b","inputSchema":{{"type":"object","maximum":1234567890123456789012-1}}}},{GAMMA}]}}"#
    );
    let e = r.convert(number.as_bytes(), "mcp", "openai").expect_err("not JSON");
    assert!(matches!(e.kind(), ErrorKind::Json { .. }), "{e}");
    let deep = format!(
        r#"{{"tools":[{ALPHA},{{"name":"b","inputSchema":{}{}}},{GAMMA}]}}"#,
        r#"{"items":"#.repeat(200) + "{}",
        "}".repeat(200)
    );
    let e = r.convert(deep.as_bytes(), "mcp", "openai").expect_err("too deep");
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { .. }), "{e}");
    let props: Vec<String> = (0..5000).map(|i| format!(r#""p{i}":{{"type":"string"}}"#)).collect();
    let wide = format!(
        r#"{{"tools":[{ALPHA},{{"name":"wide","inputSchema":{{"properties":{{{}}}}}}},{GAMMA}]}}"#,
        props.join(",")
    );
    let small = Options::default().max_arena_bytes(64 << 10);
    let e = r.convert_with(wide.as_bytes(), "mcp", "openai", &small).expect_err("arena");
    assert!(matches!(e.kind(), ErrorKind::ArenaLimit { .. }), "{e}");
}

#[test]
fn tools_after_a_bad_one_read_their_numbers_in_step() {
    // Faults at every place of a tool with numbers before and after them: the tools after it
    // are read exactly, their numbers each where it belongs.
    let bad = [
        r#"{"name":"b","x":[1,2,3],"inputSchema":{"type":"object","maximum":4,"properties":{"p":{"minimum":7,"minimum":8}}}}"#,
        r#"{"name":"b","inputSchema":{"type":"object","properties":{"p":{"enum":[1,2,[3,[4,[5]]]],"minimum":1,"minimum":2,"maximum":9}}}}"#,
        r#"{"name":5,"inputSchema":{"type":"object","properties":{"p":{"maximum":-1.5e3}}}}"#,
        r#"[[[[[[1]]]]],2,3]"#,
        r#"{"name":"b","inputSchema":{"type":"object","properties":{"p":{"type":"array","items":[[1,2],{"maximum":3}],"maxItems":2,"maxItems":3,"minItems":1}}}}"#,
        r#"{"name":"b","x":[1,2.5],"inputSchema":[1,2]}"#,
    ];
    // Its first numbers have no string near them on the tape: they are found by counting
    // numbers from the last one read, which only works if the bad tools' were all passed.
    let deep = r#"{"name":"delta","inputSchema":{"type":"object","properties":{"m":{"type":"array","default":[[[[7,8]]]]}}}}"#;
    let good = catalog("mcp", &[ALPHA, deep, GAMMA]);
    let whole = convert(&good, "mcp", "anthropic", &Options::default());
    assert!(whole.output_str().contains("[[[[7,8]]]]"));
    for b in bad {
        let input = format!(r#"{{"tools":[{ALPHA},{b},{b},{deep},{GAMMA}]}}"#);
        let c = convert(&input, "mcp", "anthropic", &Options::default());
        assert_eq!(c.output_str(), whole.output_str(), "{b}");
        assert_eq!(errors(&c).len(), 2, "{b}: {}", c.report().len());
    }
}

#[test]
fn the_cli_exits_1_and_writes_the_rest() {
    for (from, to) in [("mcp", "openai"), ("openai", "gemini"), ("anthropic", "bedrock")] {
        let input = spoil(&catalog(from, &[ALPHA, BROKEN, GAMMA]), from, Bad::RepeatedKey)
            .expect("spoiled");
        let whole = convert(&catalog(from, &[ALPHA, GAMMA]), from, to, &Options::default());
        let args = ["convert", "--from", from, "--to", to, "--report", "json"];
        let (code, out, err) = bin::run(&args, input.as_bytes());
        assert_eq!(code, 1, "{from} → {to}: {err}");
        assert_eq!(out, [whole.output(), b"\n"].concat(), "{from} → {to}");
        let entries: Vec<Value> =
            err.lines().map(|l| serde_json::from_str(l).expect("a json entry")).collect();
        let left: Vec<&Value> =
            entries.iter().filter(|e| e["code"] == "tool-not-converted").collect();
        assert_eq!(left.len(), 1, "{err}");
        assert_eq!(left[0]["tool"], "broken");
        assert!(left[0]["pointer"].as_str().is_some_and(|p| p.starts_with(&second(&input, from))));
    }
    // `check` lists the tool too, and exits 1.
    let input = spoil(&catalog("mcp", &[ALPHA, BROKEN, GAMMA]), "mcp", Bad::NoName).unwrap();
    let (code, out, err) =
        bin::run(&["check", "--from", "mcp", "--to", "openai"], input.as_bytes());
    assert_eq!(code, 1, "{err}");
    let said = format!("{}{err}", String::from_utf8_lossy(&out));
    assert!(said.contains("tool-not-converted") && said.contains("/tools/1"), "{said}");
}

#[test]
fn a_batch_keeps_the_good_tools_of_each_input() {
    let good = catalog("mcp", &[ALPHA, GAMMA]);
    let bad = spoil(&catalog("mcp", &[ALPHA, BROKEN, GAMMA]), "mcp", Bad::NotASchema).unwrap();
    let whole = convert(&good, "mcp", "openai", &Options::default());
    let ndjson = format!("{good}\n{bad}\n{good}\n");
    for jobs in ["1", "2"] {
        let args = ["convert", "--from", "mcp", "--to", "openai", "--ndjson", "--jobs", jobs];
        let (code, out, err) = bin::run(&args, ndjson.as_bytes());
        assert_eq!(code, 1, "{err}");
        let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, [whole.output(); 3], "jobs {jobs}");
        assert!(err.contains("tool-not-converted"), "{err}");
    }
    // A folder: each file written, the one with the bad tool without it.
    let dir = std::env::temp_dir().join(format!("bad-tool-batch-{}", std::process::id()));
    let (src, dst) = (dir.join("in"), dir.join("out"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("good.json"), &good).expect("write");
    std::fs::write(src.join("bad.json"), &bad).expect("write");
    let args = ["convert", "--from", "mcp", "--to", "openai", "--output"];
    let (code, _, err) =
        bin::run(&[&args[..], &[dst.to_str().unwrap(), src.to_str().unwrap()]].concat(), b"");
    assert_eq!(code, 1, "{err}");
    for file in ["good.json", "bad.json"] {
        let written = std::fs::read(dst.join(file)).expect("written");
        assert_eq!(written.trim_ascii_end(), whole.output(), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_catalog_split_across_threads_gives_what_the_whole_conversion_gives() {
    // Large enough to be split (64 KB, 64 tools): the chunk holding the bad tool cannot stand
    // for its part (its entry would name the tool's place in the chunk), so the catalog is
    // converted whole, with the same bytes and report on one thread or two.
    let mut tools: Vec<String> = (0..300)
        .map(|i| ALPHA.replace("alpha", &format!("t{i}")).replace("First.", &"d".repeat(300)))
        .collect();
    tools[150] = spoil(BROKEN, "mcp", Bad::RepeatedKey).unwrap();
    let input = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    assert!(input.len() > 64 << 10);
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        let args = ["convert", "--from", "mcp", "--to", "openai", "--report", "json", "--jobs"];
        let (code, out, err) = bin::run(&[&args[..], &[jobs]].concat(), input.as_bytes());
        assert_eq!(code, 1, "{err}");
        let v: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(v.as_array().map(Vec::len), Some(299));
        assert!(err.contains(r#""pointer":"/tools/150/inputSchema/properties/zz""#), "{err}");
        outs.push((out, err));
    }
    assert_eq!(outs[0], outs[1]);
}

/// The source names of the tools written in `c` (read back as `to`, renames undone).
fn written(c: &Conversion, to: &str) -> Vec<String> {
    let tools = Registry::default().to_canonical(c.output(), to).expect("output reads");
    tools.iter().map(|t| c.inverse().unmap(&t.name, Value::Null).0).collect()
}

#[test]
fn no_tool_an_error_entry_leaves_out_is_written() {
    // Tools of distinct names, each left out for another reason somewhere: a fault of its own,
    // the budget, a root that is no object, a keyword the policy rejects, a schema strict mode
    // cannot hold, a built-in tool, a name no provider takes.
    let bad_key = spoil(&BROKEN.replace("broken", "dup_key"), "mcp", Bad::RepeatedKey).unwrap();
    let not_schema = spoil(&BROKEN.replace("broken", "no_schema"), "mcp", Bad::NotASchema).unwrap();
    let tools = [
        ALPHA.to_owned(),
        bad_key,
        not_schema,
        BOMB.replace("broken", "bomb"),
        r#"{"name":"not_object","inputSchema":{"type":"string"}}"#.to_owned(),
        r#"{"name":"patterned","inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}}"#.to_owned(),
        r#"{"name":"open_map","inputSchema":{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"required":["m"]}}"#.to_owned(),
        GAMMA.to_owned(),
    ];
    let input = format!(r#"{{"tools":[{}]}}"#, tools.join(","));
    let options = [
        Options::default(),
        Options::default().max_ref_expansion(20),
        Options::default().strict(Strict::Require),
        Options::default().policy(Keyword::Pattern, Action::Reject),
    ];
    let mut left_out = 0;
    let registry = Registry::default();
    for to in targets() {
        for o in &options {
            // Strict mode asked of a target without one is refused whole.
            let Ok(c) = registry.convert_with(input.as_bytes(), "mcp", to, o) else { continue };
            let names = written(&c, to);
            for e in errors(&c).iter().filter(|e| !e.tool.is_empty()) {
                assert!(!names.contains(&e.tool), "mcp → {to}: {e} yet written: {names:?}");
                left_out += 1;
            }
            assert!(names.contains(&"alpha".to_owned()) && names.contains(&"gamma".to_owned()));
        }
    }
    assert!(left_out >= 50, "{left_out}");
}

#[test]
fn a_tool_left_out_keeps_its_place_in_envelopes_and_requests() {
    let budget = Options::default().max_ref_expansion(20);
    let bad = spoil(BROKEN, "mcp", Bad::RepeatedKey).unwrap();
    // An MCP `tools/list` response: the pointers go through its envelope, and MCP → MCP
    // writes the envelope back without the tool.
    let response = |tools: &[&str]| {
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}]}}}}"#, tools.join(","))
    };
    let c = convert(&response(&[ALPHA, &bad, GAMMA]), "mcp", "mcp", &Options::default());
    assert_eq!(c.output_str(), response(&[ALPHA, GAMMA]));
    let [left] = errors(&c)[..] else { panic!("{}", c.report().len()) };
    assert_eq!(left.pointer, "/result/tools/1/inputSchema/properties/zz");
    assert!(left.message.ends_with("the tool at /result/tools/1 is left out"), "{left}");
    // Left out by the passes (the budget): the tool's place is found the same.
    let c = convert(&response(&[ALPHA, GAMMA, BOMB]), "mcp", "gemini", &budget);
    assert_eq!(c.tools_written(), 2);
    let [left] = errors(&c)[..] else { panic!("{}", c.report().len()) };
    assert_eq!(left.pointer, "/result/tools/2/inputSchema/properties/l/$ref");
    assert!(left.message.ends_with("the tool at /result/tools/2 is left out"), "{left}");
    // Several in one list, each at its own place.
    let bombs = [BOMB, ALPHA, BOMB, BOMB, GAMMA, BOMB];
    let c = convert(&catalog("mcp", &bombs), "mcp", "gemini", &budget);
    let places: Vec<&str> =
        errors(&c).iter().filter_map(|e| e.message.rsplit("the tool at ").next()).collect();
    let at = |i: usize| format!("/tools/{i} is left out");
    assert_eq!(places, [at(0), at(2), at(3), at(5)]);
    // A Gemini request: declarations in groups. A group whose declarations are all left out,
    // and which held nothing else, goes; a built-in beside declarations stays.
    let decl = |name: &str, schema: &str| {
        format!(r#"{{"name":"{name}","parametersJsonSchema":{schema}}}"#)
    };
    let good = decl("a", r#"{"type":"object","properties":{"n":{"type":"integer","maximum":3}}}"#);
    let dup = decl("b", r#"{"type":"object","type":"object"}"#);
    let last = decl("c", r#"{"type":"object","properties":{"m":{"type":"number","minimum":-1}}}"#);
    let request =
        |groups: &[String]| format!(r#"{{"contents":[],"tools":[{}]}}"#, groups.join(","));
    let group = |decls: &[&str], extra: &str| {
        format!(r#"{{"functionDeclarations":[{}]{extra}}}"#, decls.join(","))
    };
    let input = request(&[
        group(&[&good, &dup], ""),
        group(&[&dup], ""),
        group(&[&last], r#","googleSearch":{}"#),
    ]);
    let c = convert(&input, "gemini", "gemini", &Options::default());
    let without = request(&[group(&[&good], ""), group(&[&last], r#","googleSearch":{}"#)]);
    let expected = convert(&without, "gemini", "gemini", &Options::default());
    assert_eq!(c.output_str(), expected.output_str());
    let pointers: Vec<&str> = errors(&c).iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/tools/0/functionDeclarations/1/parametersJsonSchema/type",
            "/tools/1/functionDeclarations/0/parametersJsonSchema/type"
        ]
    );
    // And by the passes, in a group: `parameters`, whose rules inline refs (those of
    // `parametersJsonSchema` keep them).
    let bomb = BOMB.replace(r#""inputSchema""#, r#""parameters""#);
    let input = request(&[group(&[&good], ""), group(&[&last, &bomb], "")]);
    let c = convert(&input, "gemini", "gemini", &budget);
    assert_eq!(c.tools_written(), 2);
    let [left] = errors(&c)[..] else { panic!("{}", c.report().len()) };
    assert!(
        left.message.ends_with("the tool at /tools/1/functionDeclarations/1 is left out"),
        "{left}"
    );
}
