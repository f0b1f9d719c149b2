//! Tests of catalog splitting: every pair of built-in formats, each shape of catalog, compact
//! and pretty, stitched back equals the whole conversion; and each reason to refuse a split.

#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use super::*;
use crate::formats::{Anthropic, LangChain, Mcp, OpenAi};
use crate::options::Strict;

/// `n` MCP tools with report entries for every other target (a `title`, a `format`).
fn mcp_tools(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"name":"t{i}","title":"T","inputSchema":{{"type":"object","properties":{{"u":{{"type":"string","format":"uri","maxLength":{i}}}}}}}}}"#
            )
        })
        .collect()
}

/// The tools of `n` MCP tools written in `format` (through a whole conversion), as text.
fn tools_in(format: &dyn Adapter, n: usize) -> Vec<String> {
    let mcp = format!("[{}]", mcp_tools(n).join(","));
    let mut converter = Converter::new();
    let out = converter.convert(mcp.as_bytes(), &Mcp, format, &Options::default()).expect("ok");
    let doc: serde_json::Value = serde_json::from_slice(out.output()).expect("json");
    let list = match doc {
        serde_json::Value::Array(list) => list,
        serde_json::Value::Object(o) => match o.into_iter().next() {
            Some((_, serde_json::Value::Array(list))) => list,
            other => panic!("{}: {other:?}", format.name()),
        },
        other => panic!("{}: {other}", format.name()),
    };
    list.iter().map(|t| serde_json::to_string(t).expect("json")).collect()
}

/// A catalog of `tools` read as `from`: a bare array, or its catalog object with a second
/// member (which the other targets drop, and report once).
fn catalog(from: &dyn Adapter, tools: &[String], object: bool) -> String {
    match object {
        true => {
            format!(
                r#"{{"{}":[{}],"nextCursor":"c"}}"#,
                from.info().catalog_key.unwrap_or_default(),
                tools.join(",")
            )
        }
        false => format!("[{}]", tools.join(",\n")),
    }
}

/// Converts `split` in chunks of `per_chunk` tools, one after another, and stitches them.
fn stitch_in_chunks(split: &Split<'_>, per_chunk: usize) -> Option<Stitched> {
    let mut converter = Converter::new();
    let chunks = (0..split.len())
        .step_by(per_chunk)
        .map(|start| converter.convert_chunk(split, start..split.len().min(start + per_chunk)))
        .collect::<Option<Vec<Chunk>>>()?;
    split.stitch(chunks)
}

/// Report entries as they print (the sort key kept inside the crate is not part of them).
fn printed(report: &Report) -> Vec<String> {
    let printed = report.refs().map(|e| {
        let index = e.tool_index();
        (serde_json::to_string(&e).expect("json"), index)
    });
    printed.map(|(e, i)| format!("{e} {i:?}")).collect()
}

/// Every built-in format.
fn formats() -> &'static [&'static dyn Adapter] {
    crate::formats::builtins()
}

#[test]
fn a_split_catalog_is_what_the_whole_conversion_writes_for_every_pair() {
    let mut split_pairs = 0;
    for &from in formats() {
        if from.info().imports {
            assert!(formats().iter().all(|&to| !Split::supported(from, to)), "imports");
            continue;
        }
        let tools = tools_in(from, 100);
        for &to in formats().iter().filter(|to| to.info().writes) {
            // The same format, or one of its family, writes the source's catalog object back.
            let same = from.info().family == to.info().family;
            for object in [false, true] {
                // A format without a catalog object reads any object as one tool.
                let object_read = from.info().catalog_key.is_some();
                let input = catalog(from, &tools, object);
                for pretty in [false, true] {
                    let options = Options::default().pretty(pretty);
                    let split = Split::new(input.as_bytes(), from, to, &options);
                    let pair =
                        format!("{} → {} object {object} pretty {pretty}", from.name(), to.name());
                    let expected =
                        Split::supported(from, to) && !(object && (same || !object_read));
                    assert_eq!(split.is_some(), expected, "{pair}");
                    let Some(split) = split else { continue };
                    assert_eq!(split.len(), 100, "{pair}");
                    let stitched = stitch_in_chunks(&split, 16).unwrap_or_else(|| panic!("{pair}"));
                    let mut converter = Converter::new();
                    let whole =
                        converter.convert(input.as_bytes(), from, to, &options).expect("whole");
                    assert_eq!(
                        String::from_utf8_lossy(&stitched.output),
                        whole.output_str(),
                        "{pair}"
                    );
                    assert_eq!(printed(&stitched.report), printed(whole.report()), "{pair}");
                    assert_eq!(&stitched.inverse, whole.inverse(), "{pair}");
                    let catalog_level =
                        stitched.report.refs().filter(|e| e.tool().is_empty()).count();
                    assert_eq!(catalog_level, usize::from(object), "{pair}");
                    split_pairs += 1;
                }
            }
        }
    }
    // Not vacuous: most pairs split (the request-limited targets and same-format objects not).
    assert!(split_pairs >= 40, "{split_pairs}");
}

#[test]
fn a_split_strict_catalog_has_the_whole_conversions_inverse_map() {
    // Optional properties made required and nullable: every tool has an inverse entry.
    let input = catalog(&Mcp, &mcp_tools(200), false);
    let options = Options::default().strict(Strict::On);
    let split = Split::new(input.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    let stitched = stitch_in_chunks(&split, 16).expect("stitched");
    let mut converter = Converter::new();
    let whole = converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("whole");
    assert_eq!(whole.inverse().tools.len(), 200);
    assert_eq!(&stitched.inverse, whole.inverse());
    assert_eq!(stitched.output, whole.output());
    // Not kept: empty, as the whole conversion's is when nobody asks for it.
    let split = Split::new(input.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    let stitched = stitch_in_chunks(&split.keep_inverse(false), 16).expect("stitched");
    assert!(stitched.inverse.tools.is_empty());
}

#[test]
fn catalogs_that_cannot_be_split_are_refused() {
    let options = Options::default();
    let tools = mcp_tools(200);
    let array = catalog(&Mcp, &tools, false);
    let object = catalog(&Mcp, &tools, true);
    // Anthropic caps strict tools and cache breakpoints per request: running totals.
    assert!(!Split::supported(&Mcp, &Anthropic));
    assert!(Split::new(array.as_bytes(), &Mcp, &Anthropic, &options).is_none(), "limits");
    assert!(Split::new(object.as_bytes(), &Mcp, &Mcp, &options).is_none(), "same format");
    assert!(Split::new(tools[0].as_bytes(), &Mcp, &OpenAi, &options).is_none(), "one tool");
    let dup_key = object.replace(r#""nextCursor""#, r#""tools""#);
    assert!(Split::new(dup_key.as_bytes(), &Mcp, &OpenAi, &options).is_none(), "duplicate key");
    assert!(Split::new(b"{\"tools\":[]} x", &Mcp, &OpenAi, &options).is_none(), "not JSON");
    let not_list = r#"{"tools":{"name":"t"}}"#;
    assert!(Split::new(not_list.as_bytes(), &Mcp, &OpenAi, &options).is_none(), "not a list");
    let small = Options::default().max_input_bytes(array.len() - 1);
    assert!(Split::new(array.as_bytes(), &Mcp, &OpenAi, &small).is_none(), "over the limit");
    // LangChain has no catalog object: any object is one tool.
    let lc = format!(r#"{{"":[{}]}}"#, tools_in(&LangChain, 3).join(","));
    assert!(Split::new(lc.as_bytes(), &LangChain, &OpenAi, &options).is_none(), "langchain");

    // Two tools named alike in different chunks: renaming spans the catalog.
    let duplicate = array.replace(r#""name":"t190""#, r#""name":"T1""#);
    let split = Split::new(duplicate.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    assert!(stitch_in_chunks(&split, 16).is_none(), "duplicate name");
    // In one chunk, the chunk renames: refused there.
    let mut converter = Converter::new();
    let duplicate = array.replace(r#""name":"t2""#, r#""name":"t1""#);
    let split = Split::new(duplicate.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    assert!(converter.convert_chunk(&split, 0..16).is_none(), "renamed");
    // A failing chunk: the whole conversion's error names the tool's place in the catalog.
    let bad = array.replace(r#""name":"t190""#, r#""name":190"#);
    let split = Split::new(bad.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    assert!(converter.convert_chunk(&split, 176..192).is_none(), "bad tool");
    assert!(converter.convert_chunk(&split, 0..16).is_some(), "a good chunk");
    assert!(converter.convert_chunk(&split, 190..201).is_none(), "past the end");

    // Chunks that do not cover the catalog in order.
    let split = Split::new(array.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
    let mut chunk = |r| converter.convert_chunk(&split, r).expect("chunk");
    let (a, b, c) = (chunk(0..100), chunk(100..150), chunk(150..200));
    let (a2, c2) = (chunk(0..100), chunk(150..200));
    assert!(split.stitch(vec![a, c]).is_none(), "a gap");
    assert!(split.stitch(vec![b, a2]).is_none(), "out of order");
    assert!(split.stitch(vec![c2]).is_none(), "not from the start");
    assert!(split.stitch(Vec::new()).is_none(), "nothing");
}

#[test]
fn chunks_that_write_no_tool_stitch_into_the_whole_output() {
    // Tools the target cannot hold are left out with an error entry: a chunk of only such
    // tools writes an empty list, and the stitched catalog has no gap for it.
    let options = Options::default();
    let mut tools = mcp_tools(64);
    for t in tools.iter_mut().skip(16).take(16) {
        *t = t.replace(r#""type":"object","#, r#""type":"string","#);
    }
    for (object, to) in [(false, &OpenAi as &dyn Adapter), (true, &OpenAi), (false, &Mcp)] {
        let input = catalog(&Mcp, &tools, object);
        let split = Split::new(input.as_bytes(), &Mcp, to, &options).expect("split");
        let stitched = stitch_in_chunks(&split, 16).expect("stitched");
        let mut converter = Converter::new();
        let whole = converter.convert(input.as_bytes(), &Mcp, to, &options).expect("whole");
        assert_eq!(String::from_utf8_lossy(&stitched.output), whole.output_str());
        assert_eq!(printed(&stitched.report), printed(whole.report()));
    }
    // No tool written at all: the empty catalog, as the writer writes it.
    let none: Vec<String> = mcp_tools(64)
        .iter()
        .map(|t| t.replace(r#""type":"object","#, r#""type":"string","#))
        .collect();
    for (object, pretty) in [(false, false), (true, false), (true, true)] {
        let input = catalog(&Mcp, &none, object);
        let options = Options::default().pretty(pretty);
        let split = Split::new(input.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
        let stitched = stitch_in_chunks(&split, 16).expect("stitched");
        let mut converter = Converter::new();
        let whole = converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("whole");
        assert_eq!(whole.tools_written(), 0);
        assert_eq!(String::from_utf8_lossy(&stitched.output), whole.output_str());
        assert_eq!(printed(&stitched.report), printed(whole.report()));
    }
}

#[test]
fn pointer_keys_unescape_each_token() {
    assert_eq!(pointer_keys("/function/name"), Some(vec!["function".into(), "name".into()]));
    assert_eq!(pointer_keys("/a~1b/c~0d"), Some(vec!["a/b".into(), "c~d".into()]));
    assert_eq!(pointer_keys(""), None);
}

#[test]
fn names_are_read_at_the_pointer_whatever_the_key_escapes() {
    let tool: &RawValue = serde_json::from_str(
        r#"{"type":"function","f\u0075nction":{"x":[1,{"name":"no"}],"name":"a\"b"}}"#,
    )
    .expect("json");
    assert_eq!(name_at(tool, &["function".into(), "name".into()]), Some("a\"b".to_owned()));
    assert_eq!(name_at(tool, &["name".into()]), None);
}

#[test]
fn a_split_is_shared_by_threads_and_chunks_move_between_them() {
    fn shared<T: Sync>() {}
    fn sent<T: Send>() {}
    shared::<Split<'_>>();
    sent::<Chunk>();
    sent::<Stitched>();
}

#[test]
fn a_catalog_after_a_byte_order_mark_splits_as_the_whole_conversion_reads_it() {
    for object in [false, true] {
        let input = format!("\u{feff}{}", catalog(&Mcp, &mcp_tools(40), object));
        let options = Options::default();
        let split = Split::new(input.as_bytes(), &Mcp, &OpenAi, &options).expect("split");
        assert_eq!(split.len(), 40);
        let stitched = stitch_in_chunks(&split, 16).expect("stitched");
        let mut converter = Converter::new();
        let whole = converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("whole");
        assert_eq!(String::from_utf8_lossy(&stitched.output), whole.output_str());
        assert_eq!(printed(&stitched.report), printed(whole.report()));
    }
}
