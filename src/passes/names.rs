//! Names pass: tool names and property keys the target's rules accept.
//!
//! Input: a catalog's tools (tool names are decided per catalog, so renames cannot clash) and
//! each tool's input schema (property keys, per object). Output: a name that breaks the
//! target's [`NameRule`] is rewritten deterministically — every character the rule rejects
//! becomes `_` (so `github.create_issue` and MCP's `namespace:name` fold into
//! `github_create_issue` and `namespace_name`), a name starting where the rule wants a letter gets
//! a leading `_`, and a name that is too long, or that clashes with another one, is cut and given
//! `_` plus six hex digits of a stable hash of the source name. A tool whose source name an
//! earlier tool has is numbered instead (`search_2`), for every target, the same format too: a
//! model calls a tool by its name, so two tools of one name cannot both be called. The source
//! name is kept on the tool ([`Tool::source_name`]) and on the property ([`Prop::source_name`])
//! for the inverse map, and every rename is reported. When every name is valid and unique
//! nothing is allocated.

use std::collections::{BTreeSet, HashMap, HashSet};

use smallvec::SmallVec;

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Keyword, Prop, Schema, Tool, Value};
use crate::lower::hash;
use crate::pointer::{Path, Seg};
use crate::profile::{ByteRule, NameRule};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer};

use crate::passes::walk::NodeRule;

use crate::passes::cx::PassCx;

use crate::passes::node::arena_error;

use crate::ir::features_of;

use crate::ir::names::{has_duplicates, numbered};
use crate::passes::walk::rewrite_tool;
use crate::profile::sanitize;

/// Renames the tools whose names the target's rule rejects, and every tool whose source
/// name an earlier tool of the catalog has, for every target (a client cannot call two tools
/// by one name): the later one is numbered, `name_2`, `name_3`, … (cut to the rule's length),
/// and marked [`Tool::name_repeated`] for the inverse map. `scratch` is reused between calls
/// so a clean catalog costs no allocation.
pub(crate) fn tool_names<'a>(
    tools: &mut [Tool<'a>],
    cx: &mut PassCx<'a, '_>,
    scratch: &mut Vec<(u64, u32)>,
) -> Result<(), ConversionError> {
    let rule = cx.target().profile().name_rule().copied();
    let named = |t: &&Tool<'_>| t.opaque.is_none();
    let all_valid = rule.is_none_or(|rule| {
        let bytes = ByteRule::new(&rule);
        tools.iter().filter(named).all(|t| bytes.accepts(t.name))
    });
    if all_valid && !has_duplicates(tools.iter().filter(named).map(|t| t.name), scratch) {
        return Ok(());
    }
    // The names kept as they are, every one before any rename: a renamed tool never takes
    // the name of a later tool that needs no rename. Hash sets: looked up, never walked in
    // order, and each one allocation (a tree is one per few names, whose freed nodes stay
    // scattered in the process's memory after the pass for a catalog of 100,000 tools).
    let mut taken: HashSet<&'a str> = HashSet::with_capacity(tools.len());
    let mut seen: HashSet<&'a str> = HashSet::with_capacity(tools.len());
    let mut rename: Vec<(usize, bool)> = Vec::new();
    for (i, t) in tools.iter().enumerate().filter(|(_, t)| named(t)) {
        let repeated = !seen.insert(t.name);
        if repeated || !rule.is_none_or(|r| r.accepts(t.name)) {
            rename.push((i, repeated));
        } else {
            taken.insert(t.name);
        }
    }
    let mut next: HashMap<String, u64> = HashMap::new();
    for (i, repeated) in rename {
        let Some(t) = tools.get(i).copied() else { continue };
        let (new, why) = match &rule {
            Some(rule) => {
                let (base, cut) = sanitize(t.name, rule, "tool");
                let why =
                    format!("{} requires {} ({})", cx.target().name(), rule.pattern, rule.source);
                if repeated {
                    let n = next.entry(base.clone()).or_default();
                    let new = numbered(&base, rule.max, n, |c| taken.contains(c));
                    let why = if rule.accepts(t.name) { None } else { Some(why) };
                    (new, why)
                } else {
                    (unique(&base, t.name, cut, rule, |c| taken.contains(c)), Some(why))
                }
            }
            None => {
                let n = next.entry(t.name.to_owned()).or_default();
                (numbered(t.name, usize::MAX, n, |c| taken.contains(c)), None)
            }
        };
        let new_ref = cx.arena.try_alloc_str(&new).map_err(|_| arena_error(&Path::ROOT, cx))?;
        taken.insert(new_ref);
        let why = match (repeated, why) {
            (true, None) => {
                "an earlier tool of the catalog has this name, and a model could not call the two apart".to_owned()
            }
            (true, Some(rule)) => format!("an earlier tool of the catalog has this name; {rule}"),
            (false, why) => why.unwrap_or_default(),
        };
        let tool = Tool { source_name: Some(t.name), name: new_ref, name_repeated: repeated, ..t };
        let message =
            format!("tool name {:?} renamed {new:?}: {why}; the inverse map restores it", t.name);
        // The inverse map restores the name: the same calls, and no argument involved. A
        // repeated name warns: the source's name named two tools, and a caller that routes by
        // name alone (not through the map's place) would mistake them.
        let code = Code::ToolRenamed;
        let kind =
            if repeated { EntryKind::guarantee_lost(code) } else { EntryKind::metadata(code) };
        cx.record(&tool, t.at, Note { kind, feature: "name", pointer: name_pointer(&t), message });
        if let Some(slot) = tools.get_mut(i) {
            *slot = tool;
        }
    }
    Ok(())
}

/// The source pointer of a tool's name: its member (`/function/name`; LangChain's `/title`).
fn name_pointer(tool: &Tool<'_>) -> String {
    match tool.members.iter().find(|m| m.role == crate::ir::Role::Name) {
        Some(m) => tool.member_pointer(m),
        None => format!("{}/name", tool.members_pointer),
    }
}

/// A name from `base` that `taken` does not hold: `base` itself unless `suffix` is asked for,
/// else `base` cut to fit plus `_` and six hex digits of a hash of `source` (salted on a clash).
pub(crate) fn unique(
    base: &str,
    source: &str,
    suffix: bool,
    rule: &NameRule,
    taken: impl Fn(&str) -> bool,
) -> String {
    if !suffix && !taken(base) {
        return base.to_owned();
    }
    let h = hash(source);
    for salt in 0u64.. {
        let mixed = (h ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0x0100_0000_01b3);
        let tag = format!("_{:06x}", (mixed >> 40) & 0xff_ffff);
        let keep = rule.max.saturating_sub(tag.len()).min(base.len());
        // Sanitized names are ASCII, so any cut is on a character boundary.
        let candidate = format!("{}{tag}", base.get(..keep).unwrap_or(base));
        if !taken(&candidate) {
            return candidate;
        }
    }
    base.to_owned()
}

/// Renames property keys the target's key rule rejects (Anthropic), in `properties` and
/// `required`, unique within each object.
pub(crate) fn property_keys<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    let Some(rule) = cx.target().profile().key_rule().copied() else { return Ok(()) };
    // Lowering tested the keys against this rule already (debug builds walk anyway, to hold
    // it to that).
    if tool.valid_keys == Some(rule.pattern) {
        debug_assert!(tool.input.is_none_or(|s| keys_valid(&s, &ByteRule::new(&rule))));
        return Ok(());
    }
    if tool.input.is_none_or(|s| keys_valid(&s, &ByteRule::new(&rule))) {
        return Ok(());
    }
    let output = tool.output.take();
    let mut keys = Keys { rule, renamed: false };
    rewrite_tool(tool, cx, &mut keys)?;
    tool.output = output;
    tool.remapped |= keys.renamed;
    Ok(())
}

/// Whether every property key below `s` obeys `rule`; read-only, so a clean schema costs one
/// walk and no allocation.
fn keys_valid(s: &Schema<'_>, rule: &ByteRule) -> bool {
    s.keywords.iter().all(|e| match e.value {
        Value::Props(props) if e.keyword == Keyword::Properties => {
            props.iter().all(|p| rule.accepts(p.name) && keys_valid(&p.schema, rule))
        }
        Value::Props(props) => props.iter().all(|p| keys_valid(&p.schema, rule)),
        Value::Schema(c) => keys_valid(c, rule),
        Value::Schemas(list) => list.iter().all(|c| keys_valid(c, rule)),
        _ => true,
    })
}

struct Keys {
    rule: NameRule,
    renamed: bool,
}

impl<'a> NodeRule<'a> for Keys {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::EMPTY
    }

    fn every_node(&self) -> bool {
        true
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let props = s.properties();
        if props.iter().all(|p| self.rule.accepts(p.name)) {
            return Ok(None);
        }
        let arena = cx.arena;
        let mut taken: BTreeSet<&str> =
            props.iter().filter(|p| self.rule.accepts(p.name)).map(|p| p.name).collect();
        let mut new_props: SmallVec<[Prop<'a>; 8]> = SmallVec::with_capacity(props.len());
        for p in props {
            if self.rule.accepts(p.name) {
                new_props.push(*p);
                continue;
            }
            let (base, cut) = sanitize(p.name, &self.rule, "key");
            let new = unique(&base, p.name, cut, &self.rule, |c| taken.contains(c));
            let name = arena.try_alloc_str(&new).map_err(|_| arena_error(path, cx))?;
            taken.insert(name);
            let properties = path.push(Seg::Key("properties"));
            let place = properties.push(Seg::Key(p.name));
            let pointer = PathPointer(&place);
            let message = format!(
                "property key {:?} renamed {new:?}: {} requires {} ({}); the inverse map restores it",
                p.name,
                cx.target().name(),
                self.rule.pattern,
                self.rule.source
            );
            cx.record(
                tool,
                p.at,
                // The inverse map restores the key: the same calls.
                Note {
                    kind: EntryKind::arguments(Code::KeyRenamed, Effect::None),
                    feature: "properties",
                    pointer,
                    message,
                },
            );
            new_props.push(Prop { name, source_name: Some(p.name), ..*p });
        }
        self.renamed = true;
        let source = crate::ir::NameSet::new(props);
        let props = arena.try_alloc_slice_copy(&new_props).map_err(|_| arena_error(path, cx))?;
        // The new properties are the source ones, in order, some renamed: a required name is
        // the new name of the property at the source one's position.
        let rename =
            |n: &'a str| source.position(n).and_then(|i| props.get(i)).map_or(n, |p| p.name);
        let required: SmallVec<[&'a str; 8]> = s.required().iter().map(|n| rename(n)).collect();
        let required = arena.try_alloc_slice_copy(&required).map_err(|_| arena_error(path, cx))?;
        let mut keywords: SmallVec<[Entry<'a>; 8]> = s.keywords.iter().copied().collect();
        for e in keywords.iter_mut() {
            match e.keyword {
                Keyword::Properties => e.value = Value::Props(props),
                Keyword::Required if matches!(e.value, Value::Strings(_)) => {
                    e.value = Value::Strings(required)
                }
                _ => {}
            }
        }
        let keywords = arena.try_alloc_slice_copy(&keywords).map_err(|_| arena_error(path, cx))?;
        Ok(Some(Schema { keywords, features: features_of(keywords), ..*s }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::rules::anthropic::{KEYS as ANTHROPIC_KEYS, NAMES as ANTHROPIC_NAMES};
    use crate::formats::rules::gemini::NAMES as GEMINI_NAMES;
    use crate::formats::rules::openai::NAMES as OPENAI_NAMES;

    #[test]
    fn byte_rule_agrees_with_the_rule() {
        let long = "a".repeat(200);
        let names = [
            "",
            "a",
            "_",
            "9lives",
            "get_weather",
            "get-weather",
            "ns:tool",
            "a.b",
            "a b",
            "é",
            "aé",
            "tool/x",
            "~",
            "a\u{0}",
            &long,
            "a-",
            ".",
            ":",
            "Z9_",
        ];
        for rule in [OPENAI_NAMES, ANTHROPIC_NAMES, ANTHROPIC_KEYS, GEMINI_NAMES] {
            let bytes = ByteRule::new(&rule);
            for name in names {
                assert_eq!(
                    bytes.accepts(name),
                    rule.accepts(name),
                    "{name:?} under {}",
                    rule.pattern
                );
            }
        }
    }

    /// Every ASCII character and two wider ones, at every place of names one to seventeen
    /// bytes long (whole words, a tail, both), under every rule.
    #[test]
    fn byte_rule_agrees_on_every_character_at_every_place() {
        let chars: Vec<char> = (0u8..=127).map(char::from).chain(['é', '😀']).collect();
        // More extras than the word test holds: answered by the rule itself.
        let wide = NameRule { extra: ".:-+/", ..GEMINI_NAMES };
        for rule in [OPENAI_NAMES, ANTHROPIC_NAMES, ANTHROPIC_KEYS, GEMINI_NAMES, wide] {
            let bytes = ByteRule::new(&rule);
            for len in 1..=17 {
                for at in 0..len {
                    for &c in &chars {
                        let name: String =
                            (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                        assert_eq!(bytes.accepts(&name), rule.accepts(&name), "{name:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn duplicates_are_found_at_every_size() {
        let mut scratch = Vec::new();
        for n in [0, 1, 2, 16, 17, 40, 300] {
            let names: Vec<String> =
                (0..n).map(|i| format!("tool_{i}_{}", "x".repeat(i % 11))).collect();
            let refs = || names.iter().map(String::as_str);
            assert!(!has_duplicates(refs(), &mut scratch), "{n} distinct");
            for (a, b) in [(0, n.saturating_sub(1)), (n / 2, n / 3), (n.saturating_sub(2), 1)] {
                if n < 2 || a == b {
                    continue;
                }
                let mut copy = names.clone();
                copy[a] = copy[b].clone();
                let dup = || copy.iter().map(String::as_str);
                assert!(has_duplicates(dup(), &mut scratch), "{n} names, {a} = {b}");
            }
        }
    }
}
