//! The model's rules and the bridges over the real catalogs of the corpus: `validate` checked
//! against a checker written here from MCP's rules, meta-schema checks whose pointers must
//! resolve in the tool (feature `validate`), and every tool through rmcp's and async-openai's
//! types and back (features `rmcp`, `async-openai`). Counts are printed for the docs.
//!
//! `cargo test --features corpus,validate,rmcp,async-openai --test model_corpus -- --nocapture`
#![cfg(feature = "corpus")]

mod common;

use common::catalogs;
use serde_json::Value;
use tooladapter::{CanonicalTool, Registry, ToolValidationError};

/// Every tool of every MCP catalog: (file, the tool as the crate reads it, its JSON).
fn tools() -> Vec<(String, CanonicalTool, Value)> {
    let registry = Registry::default();
    let mut out = Vec::new();
    for (path, bytes) in catalogs() {
        let read = registry.to_canonical(&bytes, "mcp").unwrap_or_else(|e| panic!("{path}: {e}"));
        let raw: Value = serde_json::from_slice(&bytes).expect("json");
        let raw = raw["tools"].as_array().cloned().unwrap_or_default();
        assert_eq!(read.len(), raw.len(), "{path}");
        out.extend(read.into_iter().zip(raw).map(|(tool, json)| (path.clone(), tool, json)));
    }
    assert!(out.len() > 1000, "the corpus holds {} tools", out.len());
    out
}

/// MCP 2025-11-25's name rule, written from the specification's text.
fn name_ok(name: &str) -> bool {
    let len = name.chars().count();
    (1..=128).contains(&len)
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

/// Whether an input schema's root accepts objects by its `type` (and is not a boolean).
fn root_is_object(schema: &Value) -> bool {
    match schema {
        Value::Object(o) => match o.get("type") {
            None => true,
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(list)) => list.iter().any(|t| t == "object"),
            // A `type` of another shape is kept verbatim and not judged.
            Some(_) => true,
        },
        _ => false,
    }
}

/// Whether `pointer` names a place in the tool's serde form.
#[cfg(any(feature = "validate", feature = "rmcp", feature = "async-openai"))]
fn resolves(tool: &CanonicalTool, pointer: &str) -> bool {
    serde_json::to_value(tool).expect("json").pointer(pointer).is_some()
}

#[test]
fn validate_agrees_with_the_rules_written_here() {
    let (mut names, mut missing, mut not_object, mut valid) = (0, 0, 0, 0);
    for (path, tool, json) in tools() {
        let errors = tool.validation_errors();
        let name_errors = errors
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    ToolValidationError::EmptyName
                        | ToolValidationError::NameTooLong { .. }
                        | ToolValidationError::InvalidNameCharacter { .. }
                )
            })
            .count();
        assert_eq!(name_errors == 0, name_ok(&tool.name), "{path}: {:?} {errors:?}", tool.name);
        let has = |f: fn(&ToolValidationError) -> bool| errors.iter().any(f);
        let input = json.get("inputSchema");
        assert_eq!(
            has(|e| matches!(e, ToolValidationError::MissingInputSchema { .. })),
            input.is_none(),
            "{path}: {}",
            tool.name
        );
        assert_eq!(
            has(|e| matches!(e, ToolValidationError::InputSchemaNotObject { .. })),
            input.is_some_and(|s| !root_is_object(s)),
            "{path}: {}",
            tool.name
        );
        assert_eq!(tool.validate().err().as_ref(), errors.first(), "{path}");
        for e in &errors {
            assert!(!e.to_string().is_empty());
        }
        names += usize::from(name_errors > 0);
        missing += usize::from(input.is_none());
        not_object += usize::from(input.is_some_and(|s| !root_is_object(s)));
        valid += usize::from(errors.is_empty());
    }
    eprintln!(
        "validate: {valid} valid; {names} with a bad name, {missing} without an input schema, \
         {not_object} with a root that is not an object"
    );
}

#[cfg(feature = "validate")]
mod meta_schema {
    use std::path::PathBuf;

    use tooladapter::{Dialect, JsonSchema, SchemaError};

    use super::*;

    #[test]
    fn catalog_schemas_meta_validate_with_pointers_into_the_tool() {
        let (mut checked, mut invalid, mut problems) = (0, 0, 0);
        let mut keywords = std::collections::BTreeMap::<String, usize>::new();
        for (path, tool, _) in tools() {
            checked += 1;
            let Err(errors) = tool.validate_schemas() else { continue };
            invalid += 1;
            for e in errors.errors() {
                problems += 1;
                assert!(resolves(&tool, e.pointer()), "{path}: {} {e}", tool.name);
                let what = match e {
                    SchemaError::Invalid { keyword, .. } => keyword.clone(),
                    SchemaError::UnsupportedDialect { uri, .. } => format!("$schema {uri}"),
                    other => format!("{other:?}"),
                };
                *keywords.entry(what).or_default() += 1;
            }
        }
        eprintln!(
            "validate_schemas: {checked} tools, {invalid} with problems ({problems} in all): {keywords:?}"
        );
    }

    /// The JSON Schema Test Suite's schemas are well-formed for their draft (its
    /// `$schema`-less ones are checked as the folder's draft).
    #[test]
    fn test_suite_schemas_are_well_formed() {
        let root = common::corpus().join("json-schema-test-suite/tests");
        for (folder, dialect) in
            [("draft2020-12", Dialect::Draft202012), ("draft7", Dialect::Draft07)]
        {
            let (mut checked, mut bad) = (0, Vec::new());
            let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
                .expect("suite folder")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            for file in files {
                let groups: Value =
                    serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("json");
                for group in groups.as_array().into_iter().flatten() {
                    let schema = JsonSchema::try_from(group["schema"].clone()).expect("a schema");
                    checked += 1;
                    if let Err(e) = schema.validate_schema_as(dialect) {
                        bad.push(format!("{}: {}: {e}", file.display(), group["description"]));
                    }
                }
            }
            eprintln!("test suite {folder}: {checked} schemas, {} not well-formed", bad.len());
            assert!(checked > 100);
            assert!(bad.is_empty(), "{bad:#?}");
        }
    }
}

#[cfg(feature = "rmcp")]
mod rmcp_bridge {
    use rmcp::model::Tool;
    use tooladapter::Severity;

    use super::*;

    #[test]
    fn every_catalog_tool_through_rmcp_and_back() {
        let (mut lossless, mut lossy, mut whole) = (0, 0, 0);
        let mut dropped = std::collections::BTreeMap::<String, usize>::new();
        for (path, tool, _) in tools() {
            let (out, report) = tool.to_rmcp();
            let back = CanonicalTool::from(&out);
            assert_eq!(back.name, tool.name, "{path}");
            assert_eq!(
                (&back.title, &back.description),
                (&tool.title, &tool.description),
                "{path}"
            );
            if tool.input_schema.as_ref().is_some_and(|s| s.as_object().is_some()) {
                assert_eq!(back.input_schema, tool.input_schema, "{path}: {}", tool.name);
            }
            let mut lost = false;
            for e in report.entries().iter().filter(|e| e.severity >= Severity::Warning) {
                assert!(resolves(&tool, &e.pointer), "{path}: {e}");
                *dropped.entry(e.feature.clone()).or_default() += 1;
                lost = true;
            }
            if lost {
                lossy += 1;
                assert!(Tool::try_from(&tool).is_err());
            } else {
                lossless += 1;
                assert_eq!(Tool::try_from(&tool).as_ref(), Ok(&out));
                // Without even an info entry (a `null` left out, a schema added), it comes
                // back whole.
                if report.is_empty() {
                    assert_eq!(back, tool, "{path}: {}", tool.name);
                    whole += 1;
                }
            }
        }
        eprintln!(
            "rmcp: {lossless} tools lost nothing ({whole} came back identical), {lossy} lost \
             something: {dropped:?}"
        );
        assert!(whole > 0);
    }

    /// The Rust SDK's own tool lists: rmcp reads them, the bridge agrees with the crate's MCP
    /// reader on every tool.
    #[test]
    fn the_sdk_tool_lists_read_the_same_both_ways() {
        let dir = common::corpus().join("rmcp");
        let mut checked = 0;
        for file in [
            "test_list_tools_result/list_tools_result.json",
            "test_deserialization/tool_list_result.json",
        ] {
            let doc: Value = serde_json::from_slice(&std::fs::read(dir.join(file)).expect("read"))
                .expect("json");
            let list = doc.pointer("/result/tools").or_else(|| doc.get("tools")).expect("tools");
            for json in list.as_array().expect("array") {
                let sdk: Tool = serde_json::from_value(json.clone()).expect("rmcp reads it");
                let bridged = CanonicalTool::from(&sdk);
                let bytes =
                    serde_json::to_vec(&serde_json::to_value(&sdk).expect("json")).expect("json");
                let read =
                    Registry::default().to_canonical(&bytes, "mcp").expect("reads").remove(0);
                assert_eq!(bridged, read, "{file}");
                assert_eq!(Tool::try_from(&bridged).expect("lossless"), sdk);
                checked += 1;
            }
        }
        assert!(checked > 0);
        eprintln!("rmcp corpus: {checked} SDK tools");
    }
}

#[cfg(feature = "async-openai")]
mod async_openai_bridge {
    use tooladapter::Severity;

    use super::*;

    #[test]
    fn every_catalog_tool_as_a_chat_function() {
        let (mut lossless, mut lossy) = (0, 0);
        for (path, tool, _) in tools() {
            let (out, report) = tool.to_chat_completion_tool();
            let function = &out.function;
            assert_eq!(function.name, tool.name);
            // The schema crosses verbatim.
            if let Some(schema) = tool.input_schema.as_ref().filter(|s| s.as_object().is_some()) {
                assert_eq!(function.parameters.as_ref(), Some(&schema.to_value()), "{path}");
            }
            let warnings: Vec<_> =
                report.entries().iter().filter(|e| e.severity >= Severity::Warning).collect();
            for e in &warnings {
                assert!(resolves(&tool, &e.pointer), "{path}: {e}");
            }
            if warnings.is_empty() {
                lossless += 1
            } else {
                lossy += 1
            }
            // Read back, the function's fields come back.
            let back = CanonicalTool::from(out.clone());
            assert_eq!(
                (back.name, back.description),
                (tool.name.clone(), tool.description.clone())
            );
        }
        eprintln!("async-openai: {lossless} tools lost nothing, {lossy} lost something");
    }
}
