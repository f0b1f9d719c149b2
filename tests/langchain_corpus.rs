//! Every tool of the real MCP catalogs converts to LangChain and back to MCP with its input
//! schema unchanged, or changed only where the report says so. Read in place from
//! `TOOLADAPTER_CORPUS`; run with `cargo test --features corpus --test langchain_corpus`.
#![cfg(feature = "corpus")]

mod common;

use common::{catalogs, same};
use serde_json::{Map, Value, json};
use tooladapter::{Code, Registry, ReportEntry, Severity};

/// What the source tool's input schema and description become, applying only the changes
/// the report of the MCP → LangChain hop lists for it.
/// Whether `e` is a `code` entry at `pointer` in the tool: its place in the source tool, or,
/// for a member the conversion added (the root's `type`), where it was written.
fn at(e: &ReportEntry, code: Code, pointer: &str) -> bool {
    e.code == code && (e.tool_pointer == pointer || e.output_pointer.as_deref() == Some(pointer))
}

fn expected(tool: &Value, entries: &[&ReportEntry]) -> (Value, Value) {
    let has = |code: Code, pointer: &str| entries.iter().any(|e| at(e, code, pointer));
    let mut description = tool.get("description").cloned().unwrap_or(Value::Null);
    let Some(Value::Object(source)) = tool.get("inputSchema") else {
        // No input schema: none is written to LangChain; MCP gets the empty object schema
        // on the way back (its own report says so).
        return (json!({"type": "object", "properties": {}}), description);
    };
    let mut schema: Map<String, Value> = Map::new();
    if has(Code::RootTypeSet, "/inputSchema/type") && !source.contains_key("type") {
        schema.insert("type".into(), json!("object"));
    }
    for (k, v) in source {
        match k.as_str() {
            "title" if has(Code::KeywordDropped, "/inputSchema/title") => {}
            "description" if has(Code::KeywordDescribed, "/inputSchema/description") => {
                let root = v.as_str().expect("a text description is moved");
                description = match description.as_str() {
                    None => json!(root),
                    Some(own) if own == root => description.clone(),
                    Some(own) => json!(format!("{own}\n\n{root}")),
                };
            }
            "description" if has(Code::KeywordDropped, "/inputSchema/description") => {}
            "type" if has(Code::RootTypeSet, "/inputSchema/type") => {
                schema.insert(k.clone(), json!("object"));
            }
            _ => {
                schema.insert(k.clone(), v.clone());
            }
        }
    }
    (Value::Object(schema), description)
}

#[test]
fn every_catalog_tool_round_trips_through_langchain() {
    let r = Registry::default();
    let (mut tools, mut changed, mut moved, mut titles, mut typed) = (0, 0, 0, 0, 0);
    for (name, bytes) in catalogs() {
        let src: Value = serde_json::from_slice(&bytes).expect("json");
        let source_tools = src["tools"].as_array().expect("tools");
        let there = r.convert(&bytes, "mcp", "langchain").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(there.tools_written(), source_tools.len(), "{name}");
        assert!(
            there.report().max_severity() < Some(Severity::Error),
            "{name}: {:?}",
            there.report()
        );
        // The LangChain catalog itself round trips byte for byte.
        let again = r.convert(there.output(), "langchain", "langchain").expect("reads back");
        assert_eq!(again.output(), there.output(), "{name}");
        assert!(again.report().is_empty(), "{name}: {:?}", again.report());

        let back = r.convert(there.output(), "langchain", "mcp").expect("back to mcp");
        let back: Value = serde_json::from_slice(back.output()).expect("json");
        let back_tools = back["tools"].as_array().expect("tools");
        assert_eq!(back_tools.len(), source_tools.len(), "{name}");
        for (s, b) in source_tools.iter().zip(back_tools) {
            tools += 1;
            let tool = s["name"].as_str().expect("name");
            assert_eq!(b["name"], s["name"], "{name}");
            let entries: Vec<&ReportEntry> =
                there.report().entries().iter().filter(|e| e.tool == tool).collect();
            let (schema, description) = expected(s, &entries);
            assert!(
                same(&b["inputSchema"], &schema),
                "{name}: {tool}: input schema changed beyond the report\nsource   {}\nexpected {schema}\nback     {}",
                s["inputSchema"],
                b["inputSchema"]
            );
            assert_eq!(
                b.get("description").cloned().unwrap_or(Value::Null),
                description,
                "{name}: {tool}"
            );
            let root = |code: Code, pointer: &str| {
                entries.iter().any(|e| {
                    e.code == code
                        && (e.tool_pointer == pointer
                            || e.output_pointer.as_deref() == Some(pointer))
                })
            };
            let t = root(Code::KeywordDropped, "/inputSchema/title");
            let d = root(Code::KeywordDescribed, "/inputSchema/description");
            let ty = root(Code::RootTypeSet, "/inputSchema/type");
            changed += usize::from(t || d || ty);
            titles += usize::from(t);
            moved += usize::from(d);
            typed += usize::from(ty);
        }
    }
    println!(
        "{tools} tools: {changed} input schemas changed as reported \
         ({titles} root titles dropped, {moved} root descriptions moved, {typed} root types set)"
    );
    assert!(tools > 1000, "{tools}");
}
