//! Strict modes, provider names and limits, and the inverse map, on the failure cases users
//! report: optional fields forced to required without null, `$ref` with a description, dotted
//! MCP names, `filter[id]` keys, 65-character names, open objects, per-request limits.

use serde_json::{Value, json};
use tooladapter::formats::{Anthropic, Mcp, OpenAi, OpenAiResponses};
use tooladapter::{Adapter, Code, Converter, Effect, Options, Severity, Strict};

fn convert(input: &Value, to: &dyn Adapter, strict: Strict) -> (Value, tooladapter::Conversion) {
    let bytes = serde_json::to_vec(input).expect("json");
    let mut converter = Converter::new();
    let options = Options::default().strict(strict);
    let conversion = converter.convert(&bytes, &Mcp, to, &options).expect("converts").clone();
    let out = serde_json::from_slice(conversion.output()).expect("output is json");
    (out, conversion)
}

fn codes(c: &tooladapter::Conversion) -> Vec<&'static str> {
    c.report().entries().iter().map(|e| e.code.as_str()).collect()
}

fn mcp(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": "d", "inputSchema": schema})
}

#[test]
fn optional_fields_become_required_and_nullable_and_map_back() {
    let tool = mcp(
        "book",
        json!({"type":"object","properties":{
            "city":{"type":"string"},
            "nights":{"type":"integer"},
            "kind":{"type":"string","enum":["hotel","flat"]},
            "note":{"type":["string","null"]}
        },"required":["city"]}),
    );
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    let f = &out["function"];
    assert_eq!(f["strict"], json!(true));
    let p = &f["parameters"];
    assert_eq!(p["additionalProperties"], json!(false));
    assert_eq!(p["required"], json!(["city", "nights", "kind", "note"]));
    assert_eq!(p["properties"]["nights"]["type"], json!(["integer", "null"]));
    // An enum cannot take null by a type array (the enum would still reject it).
    assert_eq!(
        p["properties"]["kind"],
        json!({"anyOf":[{"type":"string","enum":["hotel","flat"]},{"type":"null"}]})
    );
    // Already nullable: the schema stays; a null now stands for "left out".
    assert_eq!(p["properties"]["note"]["type"], json!(["string", "null"]));
    assert!(codes(&c).contains(&"strict-widened"), "{:?}", c.report());
    // Closing an object that admitted undeclared keys is said too.
    assert!(codes(&c).contains(&"object-closed"), "{:?}", c.report());
    // The model must send every key; the nulls the widening introduced are dropped again.
    let inverse = c.inverse();
    let (name, args) =
        inverse.unmap("book", json!({"city":"Oslo","nights":null,"kind":null,"note":null}));
    assert_eq!(name, "book");
    assert_eq!(args, json!({"city":"Oslo"}));
    let (_, args) =
        inverse.unmap("book", json!({"city":"Oslo","nights":2,"kind":"flat","note":"x"}));
    assert_eq!(args, json!({"city":"Oslo","nights":2,"kind":"flat","note":"x"}));
}

#[test]
fn ref_with_a_description_is_wrapped_and_nested_objects_are_closed() {
    let tool = mcp(
        "ship",
        json!({"type":"object","$defs":{"addr":{"type":"object","properties":{"street":{"type":"string"}},"required":["street"]}},
          "properties":{"to":{"$ref":"#/$defs/addr","description":"Destination"},"from":{"$ref":"#/$defs/addr"}},
          "required":["to"]}),
    );
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    let p = &out["function"]["parameters"];
    assert_eq!(out["function"]["strict"], json!(true), "{:?}", c.report());
    assert_eq!(
        p["properties"]["to"],
        json!({"description":"Destination","anyOf":[{"$ref":"#/$defs/addr"}]})
    );
    assert_eq!(p["properties"]["from"], json!({"anyOf":[{"$ref":"#/$defs/addr"},{"type":"null"}]}));
    assert_eq!(p["$defs"]["addr"]["additionalProperties"], json!(false));
    let (_, args) = c.inverse().unmap("ship", json!({"to":{"street":"a"},"from":null}));
    assert_eq!(args, json!({"to":{"street":"a"}}));
}

#[test]
fn open_objects_fall_back_to_non_strict_or_fail_when_required() {
    let tool = mcp(
        "tag",
        json!({"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}},"q":{"type":"string","minLength":2}}}),
    );
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    assert_eq!(out["function"]["strict"], json!(false));
    let fallback = c.report().entries().iter().find(|e| e.code == Code::StrictFallback);
    let fallback = fallback.expect("a fallback entry");
    // Written as the source was (not strict): the same calls are accepted, but the strict
    // guarantee asked for is lost, which the caller must see.
    assert_eq!((fallback.severity, fallback.effect), (Severity::Warning, Effect::None));
    assert_eq!(fallback.pointer, "/inputSchema/properties/labels/additionalProperties");
    assert!(fallback.message.contains("map"), "{}", fallback.message);
    // Non-strict output keeps what the strict profile would have described.
    assert_eq!(out["function"]["parameters"]["properties"]["q"]["minLength"], json!(2));
    assert!(!codes(&c).contains(&"keyword-described"), "{:?}", c.report());

    let bytes = serde_json::to_vec(&tool).expect("json");
    let options = Options::default().strict(Strict::Require);
    let err = Converter::new().convert(&bytes, &Mcp, &OpenAi, &options).expect_err("required");
    assert!(err.to_string().contains("strict"), "{err}");
    // In a catalog the tool is left out and the others are kept.
    let catalog = json!({"tools":[tool, mcp("ok", json!({"type":"object","properties":{"a":{"type":"string"}}}))]});
    let bytes = serde_json::to_vec(&catalog).expect("json");
    let mut converter = Converter::new();
    let c = converter.convert(&bytes, &Mcp, &OpenAi, &options).expect("catalog converts");
    assert_eq!(c.tools_written(), 1);
    assert!(
        c.report().entries().iter().any(|e| e.code == Code::StrictImpossible && e.tool == "tag")
    );
}

#[test]
fn strict_keyword_set_describes_what_strict_lacks() {
    let tool = mcp(
        "find",
        json!({"type":"object","properties":{
            "q":{"type":"string","minLength":3,"default":"x","format":"uri"},
            "when":{"type":"string","format":"date-time"},
            "kind":{"oneOf":[{"type":"string"},{"type":"integer"}]}
        },"required":["q","when","kind"]}),
    );
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    let p = &out["function"]["parameters"]["properties"];
    assert_eq!(out["function"]["strict"], json!(true), "{:?}", c.report());
    assert_eq!(
        p["q"],
        json!({"type":"string","description":"Constraints: minLength 3, default \"x\", format uri."})
    );
    assert_eq!(p["when"]["format"], json!("date-time"));
    assert_eq!(p["kind"], json!({"anyOf":[{"type":"string"},{"type":"integer"}]}));
}

#[test]
fn root_combinators_are_described_for_anthropic() {
    let tool = mcp(
        "pick",
        json!({"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}},
          "oneOf":[{"required":["id"]},{"required":["name"]}]}),
    );
    let (out, c) = convert(&tool, &Anthropic, Strict::Source);
    let s = &out["input_schema"];
    assert!(s.get("oneOf").is_none(), "{s}");
    assert!(s["description"].as_str().is_some_and(|d| d.contains("oneOf")), "{s}");
    assert!(codes(&c).contains(&"keyword-described"));
}

#[test]
fn dotted_and_long_names_are_renamed_uniquely_and_restored() {
    let long = "a".repeat(65);
    let catalog = json!({"tools":[
        mcp("github.create_issue", json!({"type":"object"})),
        mcp("github_create_issue", json!({"type":"object"})),
        mcp(&long, json!({"type":"object"})),
        mcp("ns:search", json!({"type":"object"})),
        mcp("ok", json!({"type":"object"})),
    ]});
    let (out, c) = convert(&catalog, &OpenAi, Strict::Source);
    let names: Vec<String> = out
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["function"]["name"].as_str().expect("name").to_owned())
        .collect();
    let valid = |n: &str| {
        (1..=64).contains(&n.len())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    assert!(names.iter().all(|n| valid(n)), "{names:?}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    // The valid name keeps its name; the dotted one that would clash with it gets a suffix.
    assert_eq!(names[1], "github_create_issue");
    assert!(names[0].starts_with("github_create_issue_") && names[0].len() == 26, "{names:?}");
    assert_eq!(names[2].len(), 64);
    assert_eq!(names[3], "ns_search");
    assert_eq!(names[4], "ok");
    assert_eq!(codes(&c).iter().filter(|c| **c == "tool-renamed").count(), 3);
    for (target, source) in
        names.iter().zip(["github.create_issue", "github_create_issue", &long, "ns:search", "ok"])
    {
        let call = json!({"type":"function","id":"c1","function":{"name":target,"arguments":"{}"}});
        let back = c.inverse().unmap_call(&call).expect("a call");
        assert_eq!((back.name.as_str(), back.id.as_deref()), (source, Some("c1")));
    }
    // Deterministic: the same catalog gives the same names.
    let (again, _) = convert(&catalog, &OpenAi, Strict::Source);
    assert_eq!(again, out);
    // Gemini allows dots and colons: nothing to rename.
    let (_, c) = convert(&catalog, &tooladapter::formats::Gemini, Strict::Source);
    assert!(!codes(&c).contains(&"tool-renamed") || c.inverse().tools.len() == 1);
}

#[test]
fn anthropic_property_keys_are_renamed_and_restored() {
    let tool = mcp(
        "list",
        json!({"type":"object","properties":{
            "filter[id]":{"type":"string"},
            "filter_id_":{"type":"string"},
            "page":{"type":"object","properties":{"per page":{"type":"integer"}}}
        },"required":["filter[id]"]}),
    );
    let (out, c) = convert(&tool, &Anthropic, Strict::Source);
    let s = &out["input_schema"];
    let keys: Vec<&String> = s["properties"].as_object().expect("props").keys().collect();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[1], "filter_id_");
    assert!(keys[0].starts_with("filter_id__"), "{keys:?}");
    assert_eq!(s["required"], json!([keys[0]]));
    assert!(s["properties"]["page"]["properties"].get("per_page").is_some(), "{s}");
    assert_eq!(codes(&c).iter().filter(|c| **c == "key-renamed").count(), 2);
    let call = json!({"type":"tool_use","id":"t1","name":"list","input":{keys[0].clone():"7","page":{"per_page":5}}});
    let back = c.inverse().unmap_call(&call).expect("a call");
    assert_eq!(back.arguments, json!({"filter[id]":"7","page":{"per page":5}}));
}

#[test]
fn anthropic_strict_obeys_its_own_rules_and_request_limits() {
    let tool = |i: usize| {
        mcp(
            &format!("t{i}"),
            json!({"type":"object","properties":{"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"type":"string"},"minItems":2}},"required":["n"]}),
        )
    };
    let catalog = json!({"tools": (0..22).map(tool).collect::<Vec<_>>()});
    let (out, c) = convert(&catalog, &Anthropic, Strict::On);
    let tools = out.as_array().expect("array");
    let first = &tools[0];
    assert_eq!(first["strict"], json!(true), "{:?}", c.report());
    let s = &first["input_schema"];
    // No all-required rule; bounds described; minItems above 1 described.
    assert_eq!(s["required"], json!(["n"]));
    assert_eq!(s["additionalProperties"], json!(false));
    assert!(s["properties"]["n"].get("minimum").is_none());
    assert!(s["properties"]["tags"].get("minItems").is_none());
    // 20 strict tools per request; each has one optional parameter, so the 24-optional limit
    // is not what stops them.
    let strict = tools.iter().filter(|t| t["strict"] == json!(true)).count();
    assert_eq!(strict, 20);
    let fallbacks: Vec<_> =
        c.report().entries().iter().filter(|e| e.code == Code::StrictFallback).collect();
    assert_eq!(fallbacks.len(), 2);
    assert!(fallbacks[0].message.contains("strict tools in one request is over the limit of 20"));
}

#[test]
fn anthropic_strict_has_no_recursion() {
    let tool = mcp(
        "tree",
        json!({"type":"object","$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["kids"]}},
          "properties":{"root":{"$ref":"#/$defs/node"}},"required":["root"]}),
    );
    let (out, c) = convert(&tool, &Anthropic, Strict::On);
    assert_eq!(out["strict"], json!(false));
    assert!(
        c.report()
            .entries()
            .iter()
            .any(|e| e.code == Code::StrictFallback && e.message.contains("recursive"))
    );
    // OpenAI strict allows recursion.
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    assert_eq!(out["function"]["strict"], json!(true), "{:?}", c.report());
}

#[test]
fn responses_always_states_strict_and_no_strict_turns_it_off() {
    let tool = mcp("t", json!({"type":"object","properties":{"a":{"type":"string"}}}));
    let (out, _) = convert(&tool, &OpenAiResponses, Strict::Source);
    assert_eq!(out["strict"], json!(false));
    let (out, _) = convert(&tool, &OpenAiResponses, Strict::On);
    assert_eq!(out["strict"], json!(true));
    assert_eq!(out["parameters"]["required"], json!(["a"]));
    let (out, _) = convert(&tool, &OpenAi, Strict::Off);
    assert_eq!(out["function"]["strict"], json!(false));
    // A source tool marked strict is kept strict across formats.
    let openai = json!({"type":"function","function":{"name":"t","strict":true,"parameters":{"type":"object","properties":{"a":{"type":"string"}}}}});
    let bytes = serde_json::to_vec(&openai).expect("json");
    let mut converter = Converter::new();
    let c = converter.convert(&bytes, &OpenAi, &Anthropic, &Options::default()).expect("converts");
    let out: Value = serde_json::from_slice(c.output()).expect("json");
    assert_eq!(
        (out["strict"].clone(), out["input_schema"]["additionalProperties"].clone()),
        (json!(true), json!(false))
    );
}

#[test]
fn no_parameters_is_the_empty_closed_object_in_strict_mode() {
    let tool = json!({"name":"ping"});
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    assert_eq!(out["function"]["strict"], json!(true), "{:?}", c.report());
    assert_eq!(
        out["function"]["parameters"],
        json!({"type":"object","properties":{},"additionalProperties":false})
    );
}

#[test]
fn check_lists_what_the_provider_would_reject() {
    let openai = json!([
        {"type":"function","function":{"name":"bad.name","strict":true,"parameters":{"type":"object","properties":{"a":{"type":"string","minLength":1}}}}},
        {"type":"function","function":{"name":"good","parameters":{"type":"object","properties":{}}}},
        {"type":"function","function":{"name":"good","parameters":{"type":"object","properties":{}}}}
    ]);
    let bytes = serde_json::to_vec(&openai).expect("json");
    let mut converter = Converter::new();
    let report = converter.check(&bytes, &OpenAi, &OpenAi, &Options::default()).expect("reads");
    let found: Vec<(String, String, String)> = report
        .entries()
        .iter()
        .map(|e| (e.tool.clone(), e.feature.clone(), e.tool_pointer.clone()))
        .collect();
    let has = |tool: &str, feature: &str, pointer: &str| {
        found.iter().any(|(t, f, p)| t == tool && f == feature && p == pointer)
    };
    assert!(has("bad.name", "name", "/function/name"), "{found:?}");
    assert!(has("bad.name", "additionalProperties", "/function/parameters"), "{found:?}");
    // Where the source has no `required`: the property it does not list.
    assert!(has("bad.name", "required", "/function/parameters/properties/a"), "{found:?}");
    assert!(
        has("bad.name", "minLength", "/function/parameters/properties/a/minLength"),
        "{found:?}"
    );
    assert!(has("good", "name", "/function/name"), "{found:?}");
    assert!(
        report
            .entries()
            .iter()
            .all(|e| e.severity == Severity::Error && e.code == Code::WouldBeRejected)
    );
    // What a strict conversion writes passes the same check.
    let mcp_tool = mcp(
        "x",
        json!({"type":"object","properties":{"a":{"type":"string","minLength":1},"b":{"type":"array","items":{"type":"integer"}}}}),
    );
    let (out, _) = convert(&mcp_tool, &OpenAi, Strict::On);
    let bytes = serde_json::to_vec(&out).expect("json");
    let report = converter.check(&bytes, &OpenAi, &OpenAi, &Options::default()).expect("reads");
    assert!(report.is_empty(), "{report:?}");
}

#[test]
fn inverse_serializes_and_reads_back() {
    let tool = mcp("a.b", json!({"type":"object","properties":{"x":{"type":"string"}}}));
    let (_, c) = convert(&tool, &OpenAi, Strict::On);
    let text = serde_json::to_string(c.inverse()).expect("serializes");
    let back: tooladapter::Inverse = serde_json::from_str(&text).expect("reads back");
    assert_eq!(&back, c.inverse());
    assert_eq!(back.tools[0].source_name, "a.b");
    assert_eq!(back.unmap("a_b", json!({"x":null})), ("a.b".to_owned(), json!({})));
    assert!(c.inverse().unmap_call(&json!({"name":"a_b","arguments":"[1]"})).is_err());
    assert!(c.inverse().unmap_call(&json!("x")).is_err());
}

#[test]
fn the_output_check_still_sees_what_the_strict_pass_does_not_walk() {
    // Kept by the caller's policy, `not` is a subschema the strict pass leaves as it is: the
    // open object under it is still found by the pre-flight check of the output.
    let tool = mcp(
        "x",
        json!({"type":"object","properties":{"a":{"type":"string","not":{"type":"object"}}},"required":["a"]}),
    );
    let bytes = serde_json::to_vec(&json!({"tools":[tool]})).expect("json");
    let options = Options::default()
        .strict(Strict::On)
        .policy(tooladapter::ir::Keyword::Not, tooladapter::Action::Keep);
    let mut converter = Converter::new();
    let c = converter.convert(&bytes, &Mcp, &OpenAi, &options).expect("converts");
    let rejected: Vec<&str> = c
        .report()
        .entries()
        .iter()
        .filter(|e| e.code == Code::WouldBeRejected)
        .map(|e| e.tool_pointer.as_str())
        .collect();
    assert_eq!(rejected, ["/inputSchema/properties/a/not"], "{:?}", c.report());
}

#[test]
fn strict_limits_count_the_strict_schema_wherever_it_nests() {
    let values =
        |n: usize, tag: &str| (0..n).map(|i| json!(format!("{tag}{i}"))).collect::<Vec<_>>();
    // Enum values under `properties`, under `$defs` (which the strict pass walks) and under a
    // `not` the caller keeps (which it does not walk) all count toward the 1,000 limit.
    let enums = |defs: usize, not: usize| {
        mcp(
            "e",
            json!({"type":"object","properties":{
                "a":{"type":"string","enum":values(500,"a"),"not":{"type":"string","enum":values(not,"n")}},
                "b":{"anyOf":[{"type":"string","enum":values(100,"b")},{"$ref":"#/$defs/d"}]}
            },"$defs":{"d":{"type":"string","enum":values(defs,"d")}}}),
        )
    };
    let options = Options::default()
        .strict(Strict::On)
        .policy(tooladapter::ir::Keyword::Not, tooladapter::Action::Keep);
    let strict_of = |tool: &Value| {
        let bytes = serde_json::to_vec(tool).expect("json");
        let c =
            Converter::new().convert(&bytes, &Mcp, &OpenAi, &options).expect("converts").clone();
        let out: Value = serde_json::from_slice(c.output()).expect("json");
        (out["function"]["strict"].clone(), c)
    };
    assert_eq!(strict_of(&enums(200, 200)).0, json!(true));
    for over in [enums(201, 200), enums(200, 201)] {
        let (strict, c) = strict_of(&over);
        assert_eq!(strict, json!(false));
        let fallback = c.report().entries().iter().find(|e| e.code == Code::StrictFallback);
        let message = &fallback.expect("a fallback").message;
        assert!(message.contains("1001 enum values in one strict schema"), "{message}");
    }
    // Ten levels of objects, the widened (now nullable) ones included, are the most.
    let nested = |levels: usize| {
        let mut s = json!({"type":"object","properties":{"x":{"type":"string"}}});
        for _ in 1..levels {
            s = json!({"type":"object","properties":{"o":s, "p":{"type":"integer"}},"required":["p"]});
        }
        mcp("n", s)
    };
    assert_eq!(strict_of(&nested(10)).0, json!(true));
    let (strict, c) = strict_of(&nested(11));
    assert_eq!(strict, json!(false));
    assert!(c.report().entries().iter().any(|e| e.message.contains("11 levels of object nesting")));
    // Anthropic counts optional and union-typed parameters across the request: five tools of
    // five optional parameters pass 24 at the fifth; unions (a type list, an `anyOf`) pass 16
    // at the fifth tool of four.
    let optional = |i: usize| {
        let props: serde_json::Map<String, Value> =
            (0..5).map(|k| (format!("p{k}"), json!({"type":"string"}))).collect();
        mcp(&format!("o{i}"), json!({"type":"object","properties":props}))
    };
    let unions = |i: usize| {
        mcp(
            &format!("u{i}"),
            json!({"type":"object","properties":{
                "a":{"type":["string","null"]},"b":{"anyOf":[{"type":"string"},{"type":"integer"}]},
                "c":{"type":["integer","string"]},"d":{"oneOf":[{"type":"string"},{"type":"number"}]},
                "e":{"type":"string"}
            },"required":["a","b","c","d","e"]}),
        )
    };
    for (tool, what) in [
        (&optional as &dyn Fn(usize) -> Value, "25 optional parameters"),
        (&unions, "20 union-typed parameters"),
    ] {
        let catalog = json!({"tools": (0..5).map(tool).collect::<Vec<_>>()});
        let (out, c) = convert(&catalog, &Anthropic, Strict::On);
        let strict: Vec<_> =
            out.as_array().expect("array").iter().map(|t| t["strict"].clone()).collect();
        assert_eq!(strict, [json!(true), json!(true), json!(true), json!(true), json!(false)]);
        assert!(c.report().entries().iter().any(|e| e.message.contains(what)), "{:?}", c.report());
    }
}

#[test]
fn an_object_whose_additional_properties_is_no_schema_is_refused_before_strict() {
    // `additionalProperties: 5` is no schema: no provider takes it (JSON Schema's meta-schema
    // refuses it), so the tool is refused as it is read, at the value's pointer, before the
    // strict pass could leave the object open.
    let tool = mcp(
        "t",
        json!({"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":5,"required":["x"]}},"required":["o"]}),
    );
    let bytes = serde_json::to_vec(&json!({"tools":[tool]})).expect("json");
    for target in [&OpenAi as &dyn Adapter, &Anthropic] {
        let options = Options::default().strict(Strict::On);
        let e = Converter::new().convert(&bytes, &Mcp, target, &options).expect_err("refused");
        assert!(
            matches!(
                e.kind(),
                tooladapter::ErrorKind::KeywordValue { keyword: "additionalProperties", .. }
            ),
            "{e}"
        );
        assert_eq!(e.pointer(), "/tools/0/inputSchema/properties/o/additionalProperties");
    }
}

#[test]
fn optional_fields_take_null_in_the_form_their_schema_allows() {
    let tool = mcp(
        "n",
        json!({"type":"object","properties":{
            "union":{"anyOf":[{"type":"string"},{"type":"integer"}]},
            "union_null":{"anyOf":[{"type":"string"},{"type":"null"}]},
            "enum_null":{"type":["string","null"],"enum":["a",null]},
            "enum_no_null":{"type":["string","null"],"enum":["a"]},
            "konst":{"type":"string","const":"x"},
            "typed_anyof":{"type":"string","anyOf":[{"type":"string","pattern":"a"},{"type":"null"}]}
        }}),
    );
    let (out, c) = convert(&tool, &OpenAi, Strict::On);
    let p = &out["function"]["parameters"]["properties"];
    assert_eq!(out["function"]["strict"], json!(true), "{:?}", c.report());
    // A union gains a `null` branch; one that has one stays.
    assert_eq!(p["union"], json!({"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}));
    assert_eq!(p["union_null"], json!({"anyOf":[{"type":"string"},{"type":"null"}]}));
    // An enum holding null accepts it already; one without is wrapped, as is a const.
    assert_eq!(p["enum_null"], json!({"type":["string","null"],"enum":["a",null]}));
    assert_eq!(
        p["enum_no_null"],
        json!({"anyOf":[{"type":["string","null"],"enum":["a"]},{"type":"null"}]})
    );
    assert_eq!(p["konst"], json!({"anyOf":[{"type":"string","const":"x"},{"type":"null"}]}));
    // A `type` beside `anyOf` decides: a string is no null, whatever a branch says, and the
    // node is wrapped whole.
    assert_eq!(
        p["typed_anyof"],
        json!({"anyOf":[
            {"type":"string","anyOf":[{"type":"string","pattern":"a"},{"type":"null"}]},
            {"type":"null"}
        ]})
    );
}

/// A root that declares no properties and does not close itself (`properties: {}`, no
/// `properties`, a source `{}`) took any keys. Closed, the tool would take none, which is
/// why a nested object of that shape falls back: the root falls back the same way, with
/// the reason at the root, and is left out when strict is required. A root the source
/// closed itself, and a tool without an input schema (no arguments), are strict as written.
#[test]
fn an_open_root_falls_back_as_a_nested_open_object_does() {
    let flag = |out: &Value, to: &str| match to {
        "openai" => out["function"]["strict"].clone(),
        _ => out["strict"].clone(),
    };
    let schema_of = |out: &Value, to: &str| match to {
        "openai" => out["function"]["parameters"].clone(),
        _ => out["input_schema"].clone(),
    };
    let targets: [(&str, &dyn Adapter); 2] = [("openai", &OpenAi), ("anthropic", &Anthropic)];
    for root in [json!({"type":"object","properties":{}}), json!({"type":"object"}), json!({})] {
        for (name, to) in targets {
            let (out, c) = convert(&mcp("any", root.clone()), to, Strict::On);
            assert_eq!(flag(&out, name), json!(false), "{name} {root}: {:?}", c.report());
            assert!(schema_of(&out, name).get("additionalProperties").is_none(), "{out}");
            let fallback = c.report().entries().iter().find(|e| e.code == Code::StrictFallback);
            let fallback = fallback.unwrap_or_else(|| panic!("{name} {root}: {:?}", c.report()));
            assert_eq!(
                (fallback.severity, fallback.effect, fallback.pointer.as_str()),
                (Severity::Warning, Effect::None, "/inputSchema")
            );
            assert!(fallback.message.contains("any keys"), "{}", fallback.message);
            // The only entry at warning: the strict guarantee, not the schema.
            let warned: Vec<_> =
                c.report().entries().iter().filter(|e| e.severity >= Severity::Warning).collect();
            assert_eq!(warned, [fallback], "{name} {root}");
            let bytes = serde_json::to_vec(&mcp("any", root.clone())).expect("json");
            let options = Options::default().strict(Strict::Require);
            let refused = Converter::new().convert(&bytes, &Mcp, to, &options).is_err();
            assert!(refused, "{name} {root}: strict required, the tool is left out");
        }
    }
    let closed = json!({"type":"object","properties":{},"additionalProperties":false});
    for tool in [mcp("none", closed.clone()), json!({"name":"none"})] {
        for (name, to) in targets {
            let (out, c) = convert(&tool, to, Strict::Require);
            assert_eq!(flag(&out, name), json!(true), "{name} {tool}: {:?}", c.report());
            assert_eq!(schema_of(&out, name), closed);
            assert!(!c.report().lost_meaning(), "{:?}", c.report());
        }
    }
}

/// A tool that cannot be strict loses the guarantee asked for, whether its source marked it
/// strict or only the options asked: the fallback is a warning either way (effect none: the
/// same calls are accepted).
#[test]
fn a_strict_tool_that_falls_back_is_a_warning() {
    let open = r#"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}"#;
    for (strict, severity) in [("true", Severity::Warning), ("false", Severity::Warning)] {
        let tool = format!(
            r#"{{"type":"function","function":{{"name":"t","strict":{strict},"parameters":{open}}}}}"#
        );
        let options = Options::default().strict(Strict::On);
        let c = Converter::new()
            .convert(tool.as_bytes(), &OpenAi, &Anthropic, &options)
            .expect("converts")
            .clone();
        let fallback = c.report().entries().iter().find(|e| e.code == Code::StrictFallback);
        let fallback = fallback.unwrap_or_else(|| panic!("{strict}: {:?}", c.report()));
        assert_eq!((fallback.severity, fallback.effect), (severity, Effect::None), "{strict}");
    }
}

/// `Conversion::strict_written` says, per tool written, what its output's `strict` says: for
/// every target with a strict mode and every strict option, over a catalog of a tool that can
/// be strict, one that cannot, and one the options leave out under `Strict::Require`.
#[test]
fn strict_written_is_what_each_written_tool_says() {
    let open = mcp(
        "open",
        json!({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}),
    );
    let closed = mcp("closed", json!({"type":"object","properties":{"a":{"type":"string"}}}));
    let catalog = json!({"tools": [closed, open]});
    let flag = |tool: &Value| {
        let strict = tool.get("strict").or_else(|| tool.pointer("/function/strict"));
        strict == Some(&json!(true))
    };
    let targets: [&dyn Adapter; 4] = [&OpenAi, &OpenAiResponses, &Anthropic, &Mcp];
    for to in targets {
        for strict in [Strict::Source, Strict::On, Strict::Require, Strict::Off] {
            if !to.info().holds_strict() && strict != Strict::Source {
                continue;
            }
            let (out, c) = convert(&catalog, to, strict);
            let tools = out.as_array().or_else(|| out["tools"].as_array()).expect("a list");
            let said: Vec<bool> = tools.iter().map(flag).collect();
            assert_eq!(c.strict_written(), said, "{} {strict}", to.name());
            assert_eq!(c.strict_written().len(), c.tools_written());
            let made = matches!(strict, Strict::On | Strict::Require) && to.info().holds_strict();
            assert_eq!(c.strict_written().first(), Some(&made), "{} {strict}", to.name());
        }
    }
}

/// Whether strict mode may be asked is decided in one place
/// ([`tooladapter::ProfileSet::strict_refused`]), and the library's option check and the CLI
/// agree with it for every profile set × every format a conversion writes.
#[test]
fn strict_may_be_asked_where_one_rule_says_so_library_and_cli_alike() {
    let input = r#"{"name":"t","description":"d","inputSchema":{"type":"object","properties":{}}}"#;
    let dir = std::env::temp_dir().join(format!("tooladapter-strict-asked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("tool.json");
    std::fs::write(&file, input).expect("writes");
    for set in tooladapter::ProfileSet::ALL {
        for info in tooladapter::formats::infos().filter(|f| f.writes) {
            let refused = set.strict_refused(Some(info));
            let expected = if !info.holds_strict() {
                Some(tooladapter::StrictRefused::Target)
            } else if !set.has_strict_mode() {
                Some(tooladapter::StrictRefused::Profile)
            } else {
                None
            };
            assert_eq!(refused, expected, "{set:?} -> {}", info.name);
            let options = Options::default().profile_set(set).strict(Strict::On);
            if set.profile_for(info).is_some() {
                assert_eq!(options.check_target(info).is_err(), refused.is_some(), "{}", info.name);
            }
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooladapter"))
                .args(["convert", "--from", "mcp", "--to", info.name, "--strict"])
                .args(["--profile", set.as_str()])
                .arg(&file)
                .output()
                .expect("runs");
            let usage_error = out.status.code() == Some(2);
            assert_eq!(usage_error, refused.is_some(), "{set:?} -> {}: {out:?}", info.name);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
