//! A deterministic instance generator for the semantic differential: from a JSON Schema, values
//! meant to be valid plus one mutation per constraint (a required key dropped, a wrong type, a
//! number or length out of range, an extra key, an enum or pattern missed, …), so a conversion
//! that changes what a schema accepts shows as a changed verdict. Written here with a xorshift
//! PRNG: no generator crate, and every run sees the same instances for the same seed.
//!
//! It is best effort, never a judge: a value "meant to be valid" may not be (an unsupported
//! keyword, a pattern no candidate matches); the differential validates every instance against
//! the source and compares verdicts, so it only needs instances near each constraint's edge.
//! Sizes are bounded (depth, properties, items, a node budget, the number of mutants) and no
//! schema, however malformed, makes it panic.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

/// xorshift64*: small, fast and deterministic.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// Nesting past which a node gets its simplest value (recursive `$ref`s end here).
const MAX_DEPTH: usize = 8;
/// Properties of one object generated (the rest of a huge object is left out).
const MAX_PROPS: usize = 40;
/// Schema nodes visited per instance, so a wide and deep schema stays small.
const NODE_BUDGET: usize = 2000;
/// Mutants kept per schema (spread evenly over all that were made).
const MAX_MUTANTS: usize = 240;
/// Mutants collected before spreading.
const MUTANT_BUDGET: usize = 4000;
/// `$ref`/`allOf` hops followed to merge one node.
const MAX_HOPS: usize = 16;

/// What the generator made of one schema.
#[derive(Debug, Default)]
pub struct Instances {
    /// Values meant to be valid: the required members only, then two with every member.
    pub valid: Vec<Value>,
    /// Each a valid value with one constraint broken (or one other branch picked).
    pub mutants: Vec<Value>,
}

impl Instances {
    /// Every instance, valid ones first.
    pub fn all(&self) -> impl Iterator<Item = &Value> {
        self.valid.iter().chain(&self.mutants)
    }
}

/// Instances for `schema` (its local `$ref`s resolved against it), from `seed`.
pub fn instances(schema: &Value, seed: u64) -> Instances {
    let minimal = Gen::new(schema, seed, false).run().0;
    let (full, alts) = Gen::new(schema, seed.wrapping_add(1), true).run();
    let other = Gen::new(schema, seed.wrapping_add(2), true).run().0;
    let mut out = Instances::default();
    for v in [minimal, full.clone(), other] {
        if !out.valid.contains(&v) {
            out.valid.push(v);
        }
    }
    // Seen values by their text: comparing trees pairwise would be quadratic in big ones.
    let mut seen: std::collections::HashSet<String> =
        out.valid.iter().map(Value::to_string).collect();
    let step = alts.len().div_ceil(MAX_MUTANTS).max(1);
    for (path, v) in alts.into_iter().step_by(step) {
        let mut m = full.clone();
        if let Some(slot) = at(&mut m, &path) {
            *slot = v;
        }
        if seen.insert(m.to_string()) {
            out.mutants.push(m);
        }
    }
    out
}

/// [`instances`] from `runs` seeds (`seed`, `seed + 1_000_003`, …), merged without repeats:
/// other branch picks, enum members and numbers, the same constraints.
pub fn instances_from(schema: &Value, seed: u64, runs: u64) -> Instances {
    let mut out = Instances::default();
    let mut seen = std::collections::HashSet::new();
    for run in 0..runs {
        let made = instances(schema, seed.wrapping_add(run.wrapping_mul(1_000_003)));
        out.valid.extend(made.valid.into_iter().filter(|v| seen.insert(v.to_string())));
        out.mutants.extend(made.mutants.into_iter().filter(|v| seen.insert(v.to_string())));
    }
    out
}

/// One step into a value: an object key or an array index.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A replacement: the place, and the value put there.
type Alt = (Vec<Seg>, Value);

fn at<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    let mut here = v;
    for seg in path {
        here = match (seg, here) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(here)
}

struct Gen<'a> {
    root: &'a Value,
    rng: Rng,
    /// Every property, arrays of two: else the required members only, arrays at their minimum.
    full: bool,
    nodes: usize,
    alts: Vec<Alt>,
}

impl<'a> Gen<'a> {
    fn new(root: &'a Value, seed: u64, full: bool) -> Gen<'a> {
        Gen { root, rng: Rng::new(seed), full, nodes: 0, alts: Vec::new() }
    }

    fn run(mut self) -> (Value, Vec<Alt>) {
        let mut path = Vec::new();
        let v = self.node(self.root, 0, &mut path);
        (v, self.alts)
    }

    /// Records a mutant at `path` (only for the full pass, within the budget).
    fn alt(&mut self, path: &[Seg], v: Value) {
        if self.full && self.alts.len() < MUTANT_BUDGET {
            self.alts.push((path.to_vec(), v));
        }
    }

    fn resolve(&self, r: &str) -> Option<&'a Value> {
        let pointer = r.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        if !pointer.starts_with('/') {
            return None;
        }
        self.root.pointer(&percent_decode(pointer))
    }

    /// The first of `s`, its `$ref` target, that target's, … that says its values (by `type`,
    /// `const` or `enum`); `s` when none does. Nothing is copied: this is the path past the
    /// depth and node bounds.
    fn typed(&self, mut s: &'a Map<String, Value>) -> &'a Map<String, Value> {
        let first = s;
        for _ in 0..MAX_HOPS {
            if ["type", "const", "enum"].iter().any(|k| s.contains_key(*k)) {
                return s;
            }
            match s.get("$ref").and_then(Value::as_str).and_then(|r| self.resolve(r)) {
                Some(Value::Object(t)) => s = t,
                _ => return first,
            }
        }
        first
    }

    /// The node with its `$ref` target and `allOf` parts merged in (siblings first).
    fn effective<'s>(&self, s: &'s Map<String, Value>, hops: usize) -> Cow<'s, Map<String, Value>>
    where
        'a: 's,
    {
        let target = s.get("$ref").and_then(Value::as_str).and_then(|r| self.resolve(r));
        let parts = s.get("allOf").and_then(Value::as_array);
        if hops >= MAX_HOPS || (target.is_none() && parts.is_none()) {
            return Cow::Borrowed(s);
        }
        // A bare `$ref` is its target: borrowed, so a wide schema is not copied per node.
        if let (1, Some(Value::Object(t))) = (s.len(), target) {
            return self.effective(t, hops + 1);
        }
        let mut out: Map<String, Value> = s
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "$ref" | "allOf"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(Value::Object(t)) = target {
            merge_into(&mut out, &self.effective(t, hops + 1));
        }
        for p in parts.into_iter().flatten().take(16) {
            if let Value::Object(p) = p {
                merge_into(&mut out, &self.effective(p, hops + 1));
            }
        }
        Cow::Owned(out)
    }

    fn node(&mut self, schema: &Value, depth: usize, path: &mut Vec<Seg>) -> Value {
        self.nodes += 1;
        let s = match schema {
            Value::Object(s) => s,
            Value::Bool(true) => return json!("any"),
            _ => return Value::Null,
        };
        if depth >= MAX_DEPTH || self.nodes > NODE_BUDGET {
            return shallow(self.typed(s));
        }
        let mut m = self.effective(s, 0);
        for key in ["anyOf", "oneOf"] {
            if !m.contains_key(key) {
                continue;
            }
            let Some(Value::Array(branches)) = m.to_mut().remove(key) else { continue };
            if branches.is_empty() {
                continue;
            }
            let pick = self.rng.below(branches.len());
            if self.full && depth < MAX_DEPTH {
                // Each other branch's value is an instance too (valid where branches differ).
                for (i, b) in branches.iter().enumerate().take(6) {
                    if i != pick {
                        let merged = self.with_branch(&m, b);
                        let saved = self.alts.len();
                        let v = self.node_of(&merged, depth, path);
                        self.alts.truncate(saved);
                        self.alt(path, v);
                    }
                }
            }
            m = Cow::Owned(self.with_branch(&m, &branches[pick]));
        }
        self.node_of(&m, depth, path)
    }

    fn with_branch(&self, m: &Map<String, Value>, branch: &Value) -> Map<String, Value> {
        let mut out = m.clone();
        if let Value::Object(b) = branch {
            // The branch's own type and members decide: merge the parent's in after it.
            let mut first = self.effective(b, 0).into_owned();
            merge_into(&mut first, &out);
            out = first;
        }
        out
    }

    /// A value for an already merged node.
    fn node_of(&mut self, m: &Map<String, Value>, depth: usize, path: &mut Vec<Seg>) -> Value {
        if let Some(c) = m.get("const") {
            self.alt(path, other_than(std::slice::from_ref(c)));
            return c.clone();
        }
        if let Some(Value::Array(e)) = m.get("enum")
            && !e.is_empty()
        {
            self.alt(path, other_than(e));
            return e[self.rng.below(e.len())].clone();
        }
        let types = types_of(m);
        if !types.is_empty()
            && let Some(wrong) = WRONG.iter().find(|w| !allowed(&types, w))
        {
            self.alt(path, wrong.to_value());
        }
        let pick: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
        let t = match pick.len() {
            0 if types.contains(&"null") => "null",
            0 => infer(m),
            n => pick[if self.full { self.rng.below(n) } else { 0 }],
        };
        match t {
            "object" => self.object(m, depth, path),
            "array" => self.array(m, depth, path),
            "string" => self.string(m, path),
            "integer" => self.number(m, true, path),
            "number" => self.number(m, false, path),
            "boolean" => json!(self.rng.below(2) == 0 || !self.full),
            "null" => Value::Null,
            _ => json!("any"),
        }
    }

    fn object(&mut self, m: &Map<String, Value>, depth: usize, path: &mut Vec<Seg>) -> Value {
        let empty = Map::new();
        let props = m.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).take(MAX_PROPS).collect())
            .unwrap_or_default();
        let additional = m.get("additionalProperties");
        let mut out = Map::new();
        for (k, s) in props.iter().take(MAX_PROPS) {
            // Optional members end before the depth bound, so a recursive schema closes.
            let optional_fits = self.full && depth + 2 < MAX_DEPTH;
            if optional_fits || required.contains(&k.as_str()) {
                path.push(Seg::Key(k.clone()));
                let v = self.node(s, depth + 1, path);
                path.pop();
                out.insert(k.clone(), v);
            }
        }
        for k in &required {
            if !out.contains_key(*k) {
                let v = self.extra_value(additional, depth, path, k);
                out.insert((*k).to_owned(), v);
            }
        }
        // Members other members require (draft-07 `dependencies` arrays, `dependentRequired`).
        for key in ["dependentRequired", "dependencies"] {
            for (k, deps) in m.get(key).and_then(Value::as_object).into_iter().flatten() {
                if out.contains_key(k)
                    && let Value::Array(deps) = deps
                {
                    for d in deps.iter().filter_map(Value::as_str).take(MAX_PROPS) {
                        if !out.contains_key(d) {
                            let v = match props.get(d) {
                                Some(s) => self.node(s, depth + 1, path),
                                None => json!("x"),
                            };
                            out.insert(d.to_owned(), v);
                        }
                        let mut dropped = out.clone();
                        dropped.remove(d);
                        self.alt(path, Value::Object(dropped));
                    }
                }
            }
        }
        let min = m.get("minProperties").and_then(Value::as_u64).unwrap_or(0).min(64) as usize;
        let mut n = 0;
        while out.len() < min {
            let k = format!("k{n}");
            n += 1;
            if !out.contains_key(&k) {
                let v = self.extra_value(additional, depth, path, &k);
                out.insert(k, v);
            }
        }
        if min > 0 {
            let fewer: Map<String, Value> =
                out.iter().take(min - 1).map(|(k, v)| (k.clone(), v.clone())).collect();
            self.alt(path, Value::Object(fewer));
        }
        if let Some(max) = m.get("maxProperties").and_then(Value::as_u64)
            && max < 64
        {
            let max = max as usize;
            if out.len() > max {
                let keep: Vec<String> = out
                    .keys()
                    .filter(|k| required.contains(&k.as_str()))
                    .chain(out.keys().filter(|k| !required.contains(&k.as_str())))
                    .take(max)
                    .cloned()
                    .collect();
                out.retain(|k, _| keep.contains(k));
            }
            let mut more = out.clone();
            let mut i = 0;
            while more.len() <= max {
                more.insert(format!("more{i}"), json!("x"));
                i += 1;
            }
            self.alt(path, Value::Object(more));
        }
        for k in &required {
            if out.contains_key(*k) {
                let mut dropped = out.clone();
                dropped.remove(*k);
                self.alt(path, Value::Object(dropped));
            }
        }
        // An undeclared key: refused under `additionalProperties: false`, checked against its
        // schema otherwise (the schema's own mutants follow).
        let mut extra = out.clone();
        let key = "zz_extra";
        path.push(Seg::Key(key.to_owned()));
        let v = match additional {
            Some(s @ Value::Object(_)) => self.node(s, depth + 1, path),
            _ => json!("extra"),
        };
        path.pop();
        extra.insert(key.to_owned(), v);
        self.alt(path, Value::Object(extra));
        Value::Object(out)
    }

    /// A value for a member the properties do not declare.
    fn extra_value(
        &mut self,
        additional: Option<&Value>,
        depth: usize,
        path: &mut Vec<Seg>,
        key: &str,
    ) -> Value {
        match additional {
            Some(s @ Value::Object(_)) => {
                path.push(Seg::Key(key.to_owned()));
                let v = self.node(s, depth + 1, path);
                path.pop();
                v
            }
            _ => json!("x"),
        }
    }

    fn array(&mut self, m: &Map<String, Value>, depth: usize, path: &mut Vec<Seg>) -> Value {
        let min = m.get("minItems").and_then(Value::as_u64).map_or(0, |n| n.min(8) as usize);
        let max = m.get("maxItems").and_then(Value::as_u64).map(|n| n.min(1 << 20) as usize);
        // A tuple: 2020-12 `prefixItems`, or draft-07 `items` as an array.
        let (tuple, rest): (&[Value], Option<&Value>) = match (m.get("prefixItems"), m.get("items"))
        {
            (Some(Value::Array(p)), items) => (p, items),
            (_, Some(Value::Array(p))) => (p, m.get("additionalItems")),
            (_, items) => (&[], items),
        };
        let closed = matches!(rest, Some(Value::Bool(false)));
        let want = if self.full { min.max(2) } else { min };
        let mut n = want.min(max.unwrap_or(usize::MAX)).min(8);
        if closed {
            n = n.min(tuple.len());
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let s = tuple.get(i).or(rest).cloned().unwrap_or(Value::Bool(true));
            path.push(Seg::Index(i));
            // Only the first element's (and each tuple place's) mutants are kept: the others
            // would repeat them.
            let saved = self.alts.len();
            let v = self.node(&s, depth + 1, path);
            if i > 0 && i >= tuple.len() {
                self.alts.truncate(saved);
            }
            path.pop();
            out.push(v);
        }
        if let Some(c) = m.get("contains")
            && !out.is_empty()
        {
            path.push(Seg::Index(0));
            out[0] = self.node(c, depth + 1, path);
            path.pop();
        }
        if min > 0 && out.len() >= min {
            self.alt(path, Value::Array(out[..min - 1].to_vec()));
        }
        if let Some(max) = max
            && max < 16
        {
            let mut more = out.clone();
            while more.len() <= max {
                more.push(out.first().cloned().unwrap_or(json!("x")));
            }
            self.alt(path, Value::Array(more));
        }
        if m.get("uniqueItems") == Some(&Value::Bool(true))
            && let Some(first) = out.first()
        {
            let mut twice = out.clone();
            twice.push(first.clone());
            self.alt(path, Value::Array(twice));
        }
        if closed || !tuple.is_empty() {
            let mut longer = out.clone();
            longer.push(json!("extra"));
            self.alt(path, Value::Array(longer));
        }
        Value::Array(out)
    }

    fn string(&mut self, m: &Map<String, Value>, path: &[Seg]) -> Value {
        let min = m.get("minLength").and_then(Value::as_u64).map_or(0, |n| n.min(4096) as usize);
        let max = m.get("maxLength").and_then(Value::as_u64).map(|n| n.min(4096) as usize);
        let fits = |s: &str| {
            let n = s.chars().count();
            n >= min && max.is_none_or(|x| n <= x)
        };
        let pattern = m.get("pattern").and_then(Value::as_str);
        let matcher = pattern.and_then(|p| jsonschema::validator_for(&json!({"pattern": p})).ok());
        let matches = |s: &str| matcher.as_ref().is_none_or(|v| v.is_valid(&json!(s)));
        let hi = max.unwrap_or(min + 8).max(min);
        let len = if self.full {
            min + self.rng.below(hi.min(min + 8) - min + 1)
        } else {
            min.max(1).min(hi)
        };
        let text: String = "abcdefghijklmnopqrstuvwxyz".chars().cycle().take(len).collect();
        let formatted = m.get("format").and_then(Value::as_str).and_then(format_example);
        let base = formatted
            .into_iter()
            .chain([text.as_str()])
            .chain(CANDIDATES)
            .find(|s| fits(s) && matches(s))
            .unwrap_or(text.as_str())
            .to_owned();
        if min > 0 {
            self.alt(path, json!("a".repeat(min - 1)));
        }
        if let Some(max) = max {
            self.alt(path, json!("a".repeat(max + 1)));
        }
        if matcher.is_some()
            && let Some(miss) =
                ["", " ", "!!", "a", "0", "ZZZ-zz", "x y"].into_iter().find(|s| !matches(s))
        {
            self.alt(path, json!(miss));
        }
        Value::String(base)
    }

    fn number(&mut self, m: &Map<String, Value>, integer: bool, path: &[Seg]) -> Value {
        let f = |k: &str| m.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
        let (min, xmin, max, xmax) =
            (f("minimum"), f("exclusiveMinimum"), f("maximum"), f("exclusiveMaximum"));
        let step = if integer { 1.0 } else { 0.5 };
        let lo = match (min, xmin) {
            (Some(a), Some(b)) => Some(a.max(b + step)),
            (a, b) => a.or(b.map(|b| b + step)),
        };
        let hi = match (max, xmax) {
            (Some(a), Some(b)) => Some(a.min(b - step)),
            (a, b) => a.or(b.map(|b| b - step)),
        };
        let multiple = f("multipleOf").filter(|m| *m > 0.0);
        let (lo_v, hi_v) = match (lo, hi) {
            (Some(l), Some(h)) => (l, h),
            (Some(l), None) => (l, l + 10.0),
            (None, Some(h)) => (h - 10.0, h),
            (None, None) => (0.0, 10.0),
        };
        let mut v = if self.full && hi_v > lo_v {
            lo_v + ((hi_v - lo_v).min(1e6) * (self.rng.below(1000) as f64 / 1000.0))
        } else {
            lo_v
        };
        if integer {
            v = v.ceil();
        }
        if let Some(mo) = multiple {
            v = (v / mo).ceil() * mo;
            if v > hi_v {
                v = (hi_v / mo).floor() * mo;
            }
            self.alt(path, number(v + mo / 2.0));
        }
        if let Some(l) = min {
            self.alt(path, number(l - step));
        }
        if let Some(x) = xmin {
            self.alt(path, number(x));
        }
        if let Some(h) = max {
            self.alt(path, number(h + step));
        }
        if let Some(x) = xmax {
            self.alt(path, number(x));
        }
        if integer {
            self.alt(path, number(v + 0.5));
        }
        number(v)
    }
}

/// The simplest value for a node past the depth or the node budget (no members, no items).
fn shallow(s: &Map<String, Value>) -> Value {
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(v) = s.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return v.clone();
    }
    match types_of(s).first().copied().unwrap_or_else(|| infer(s)) {
        "object" => json!({}),
        "array" => json!([]),
        "string" => json!(""),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        _ => Value::Null,
    }
}

/// A JSON number for `v`: an integer when it is whole and exact.
fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        json!(v as i64)
    } else {
        serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}

/// `other`'s members merged into `out`: `properties` and `required` unite, a `type` narrows to
/// the types both allow (kept as it was when they share none), the rest fills what `out` lacks.
fn merge_into(out: &mut Map<String, Value>, other: &Map<String, Value>) {
    for (k, v) in other {
        match (k.as_str(), out.get_mut(k)) {
            ("properties", Some(Value::Object(mine))) => {
                if let Value::Object(theirs) = v {
                    for (pk, pv) in theirs {
                        if !mine.contains_key(pk) {
                            mine.insert(pk.clone(), pv.clone());
                        }
                    }
                }
            }
            ("required", Some(Value::Array(mine))) => {
                for r in v.as_array().into_iter().flatten() {
                    if !mine.contains(r) {
                        mine.push(r.clone());
                    }
                }
            }
            ("type", Some(mine)) => {
                let a = types_in(mine);
                let b = types_in(v);
                let both: Vec<Value> =
                    a.iter().filter(|t| b.contains(t)).map(|t| json!(t)).collect();
                if !both.is_empty() {
                    *mine = Value::Array(both);
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
}

fn types_in(v: &Value) -> Vec<&str> {
    match v {
        Value::String(t) => vec![t.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn types_of(m: &Map<String, Value>) -> Vec<&str> {
    m.get("type").map(types_in).unwrap_or_default()
}

/// The type an untyped node's keywords imply (`object` for a schema with none).
fn infer(m: &Map<String, Value>) -> &'static str {
    let has = |ks: &[&str]| ks.iter().any(|k| m.contains_key(*k));
    if has(&["properties", "required", "additionalProperties", "patternProperties"]) {
        "object"
    } else if has(&["items", "prefixItems", "minItems", "maxItems", "contains"]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) {
        "number"
    } else {
        "string"
    }
}

/// A value of each JSON type, for the wrong-type mutant.
#[derive(Clone, Copy)]
enum Wrong {
    Str,
    Int,
    Bool,
    Null,
    Arr,
    Obj,
}

const WRONG: [Wrong; 6] =
    [Wrong::Str, Wrong::Int, Wrong::Bool, Wrong::Null, Wrong::Arr, Wrong::Obj];

impl Wrong {
    fn to_value(self) -> Value {
        match self {
            Wrong::Str => json!("wrong"),
            Wrong::Int => json!(12345),
            Wrong::Bool => json!(true),
            Wrong::Null => Value::Null,
            Wrong::Arr => json!([]),
            Wrong::Obj => json!({}),
        }
    }
}

fn allowed(types: &[&str], w: &Wrong) -> bool {
    let names: &[&str] = match w {
        Wrong::Str => &["string"],
        Wrong::Int => &["integer", "number"],
        Wrong::Bool => &["boolean"],
        Wrong::Null => &["null"],
        Wrong::Arr => &["array"],
        Wrong::Obj => &["object"],
    };
    types.iter().any(|t| names.contains(t))
}

/// A value none of `values` equals.
fn other_than(values: &[Value]) -> Value {
    [json!("__none_of_these__"), json!(987_654_321), Value::Null, json!(true), json!([]), json!({})]
        .into_iter()
        .find(|v| !values.contains(v))
        .unwrap_or(json!(-1.5))
}

/// Strings tried, in order, for a `pattern` (the first that matches and fits is the value).
const CANDIDATES: [&str; 32] = [
    "a",
    "abc",
    "test",
    "A1",
    "abc123",
    "123",
    "0",
    "1",
    "2024-01-02",
    "2024-01-02T03:04:05Z",
    "a@example.com",
    "https://example.com/a",
    "http://example.com",
    "owner/repo",
    "1.0.0",
    "#ffffff",
    "+15555550123",
    "US",
    "en",
    "EUR",
    "ABC",
    "a_b",
    "a-b",
    "a.b",
    "AB-123",
    "123e4567-e89b-12d3-a456-426614174000",
    "/a/b",
    "main",
    "true",
    "00:00",
    "sk-abc",
    "x",
];

fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2024-01-02T03:04:05Z",
        "date" => "2024-01-02",
        "time" => "03:04:05Z",
        "duration" => "P1D",
        "email" | "idn-email" => "a@example.com",
        "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => "https://example.com/a",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" | "idn-hostname" => "example.com",
        _ => return None,
    })
}

/// `%xx` escapes in a `$ref` fragment decoded (JSON pointer escapes are left to `pointer`).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = b.get(i + 1..i + 3)
            && let Ok(x) = u8::from_str_radix(std::str::from_utf8(h).unwrap_or("zz"), 16)
        {
            out.push(x);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}
