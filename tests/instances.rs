//! The differential's instance generator (`common::instances`) on schemas written here: its
//! valid values are valid, each constraint gets a mutant that breaks it, the same seed gives
//! the same instances, and hostile shapes (recursion, refs that lead nowhere, huge bounds) stay
//! small and do not panic.

mod common;

use common::instances::instances;
use serde_json::{Value, json};

fn valid(schema: &Value, v: &Value) -> bool {
    jsonschema::validator_for(schema).expect("schema builds").is_valid(v)
}

/// Every value meant to be valid is, for schemas the generator models fully.
#[test]
fn valid_values_are_valid() {
    let schemas = [
        json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 3,
            "maxLength": 5}, "b": {"type": "integer", "minimum": 2, "exclusiveMaximum": 9,
            "multipleOf": 3}, "c": {"enum": ["x", "y"]}, "d": {"type": "array",
            "items": {"type": "boolean"}, "minItems": 1, "maxItems": 2}},
            "required": ["a", "b"], "additionalProperties": false}),
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/node"}},
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"},
            "v": {"type": ["number", "null"]}}, "required": ["v"]}}}),
        json!({"type": "object", "properties": {"p": {"anyOf": [{"type": "string",
            "pattern": "^[0-9]{3}$"}, {"type": "null"}]}, "q": {"allOf": [{"type": "object",
            "properties": {"a": {"const": 1}}, "required": ["a"]}, {"properties": {"b":
            {"type": "string", "format": "date"}}, "required": ["b"]}]}}, "required": ["p", "q"]}),
    ];
    for s in &schemas {
        for seed in 0..4 {
            let made = instances(s, seed);
            assert!(!made.valid.is_empty());
            for v in &made.valid {
                assert!(valid(s, v), "{s}\nseed {seed}: {v}");
            }
        }
    }
}

/// One mutant per constraint: with exactly one constraint on a property, some mutant breaks
/// it (the source refuses it), and the mutants differ from the valid values.
#[test]
fn each_constraint_is_broken_by_a_mutant() {
    let constraints = [
        json!({"type": "string"}),
        json!({"type": "string", "minLength": 2}),
        json!({"type": "string", "maxLength": 2}),
        json!({"type": "string", "pattern": "^a+$"}),
        json!({"type": "integer", "minimum": 1}),
        json!({"type": "number", "maximum": 1}),
        json!({"type": "number", "exclusiveMinimum": 1}),
        json!({"type": "integer", "multipleOf": 4}),
        json!({"enum": ["x", "y"]}),
        json!({"const": 3}),
        json!({"type": "array", "items": {"type": "string"}, "maxItems": 2}),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 2}),
        json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
        json!({"type": "object", "properties": {"a": {"type": "string"}},
            "additionalProperties": false}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
        json!({"type": "object", "minProperties": 2}),
        json!({"type": "object", "maxProperties": 1, "properties": {"a": {}}}),
    ];
    for c in &constraints {
        let s = json!({"type": "object", "properties": {"x": c}, "required": ["x"]});
        let made = instances(&s, 7);
        assert!(made.valid.iter().all(|v| valid(&s, v)), "{c}: {:?}", made.valid);
        // The constraint alone (the wrapper's own mutants aside) is broken by some mutant.
        let alone = made.mutants.iter().filter_map(|m| m.get("x")).any(|x| !valid(c, x));
        assert!(alone, "{c}: no mutant breaks it: {:?}", made.mutants);
        assert!(made.mutants.iter().all(|m| !made.valid.contains(m)));
    }
}

#[test]
fn same_seed_same_instances() {
    let s = json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 0,
        "maximum": 1000}, "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
    let a = instances(&s, 11);
    let b = instances(&s, 11);
    assert_eq!(a.valid, b.valid);
    assert_eq!(a.mutants, b.mutants);
}

/// Recursion, refs to nowhere, boolean and malformed schemas, huge bounds and wide objects:
/// bounded output, no panic.
#[test]
fn hostile_schemas_stay_small() {
    let wide: serde_json::Map<String, Value> =
        (0..5000).map(|i| (format!("p{i}"), json!({"$ref": "#"}))).collect();
    let schemas = [
        json!({"$ref": "#"}),
        json!({"$ref": "#/nowhere"}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}),
        json!({"allOf": [{"$ref": "#"}]}),
        json!({"type": "object", "properties": wide, "required": ["p0", "p1"]}),
        json!({"type": "string", "minLength": u64::MAX, "maxLength": u64::MAX}),
        json!({"type": "array", "minItems": u64::MAX, "items": {"$ref": "#"}}),
        json!({"type": "object", "minProperties": 1_000_000_000}),
        json!({"type": "number", "minimum": 1e308, "maximum": -1e308, "multipleOf": 1e-300}),
        json!({"type": "string", "pattern": "(unclosed"}),
        json!({"anyOf": []}),
        json!({"oneOf": [true, false, 3, "x"]}),
        json!(false),
        json!(true),
        json!([1, 2]),
        json!({"type": 7, "properties": 3, "required": {"a": 1}, "items": "x"}),
    ];
    for s in &schemas {
        let made = instances(s, 1);
        let size = serde_json::to_vec(&made.all().collect::<Vec<_>>()).expect("json").len();
        assert!(made.mutants.len() <= 240, "{}", made.mutants.len());
        assert!(size < 64 << 20, "{size} bytes of instances");
    }
}
