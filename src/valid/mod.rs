//! Pre-flight: what a provider would reject in tools written in its format, without
//! converting. One bad tool fails a whole request at every provider, so this names each
//! finding with the tool, the JSON pointer and the rule (and its source).
//!
//! The same checks run on every cross-format conversion's output (the passes should leave
//! nothing to find; a finding there is an `error` entry and the tool is left out), and stand
//! alone behind [`crate::Converter::check`] and `tooladapter check`.
//!
//! Here: the checks of one tool (its name, its root, then its schema's rules in `schema`); the
//! checks of a whole request are in `catalog`. What a schema counts toward the limits is
//! counted by [`crate::ir::measure`], as the strict pass counts it.

mod catalog;
mod schema;

pub(crate) use catalog::{check_catalog, dated_descriptions, dated_tools};

use crate::adapter::Adapter;
use crate::ir::measure::SchemaCounts;
use crate::ir::visit::Visit;
use crate::ir::{Entry, FeatureSet, Schema, SchemaFeature, Tool, Value};
use crate::passes::names::sanitize;
use crate::passes::{RECURSIVE, first_recursive_ref};
use crate::pointer::{Path, Seg};
use crate::profile::shape::{ShapeRule, ShapeRules, broken};
use crate::profile::{Limit, NameRule, Profile};
use schema::{NodeScope, SchemaCheck, clean_features};

/// One thing the provider would reject.
#[derive(Debug)]
pub(crate) struct Finding {
    /// The tool concerned, by index in the catalog, for a request-level check.
    pub tool: Option<usize>,
    /// Position in the source, for report order.
    pub at: u32,
    /// The keyword, member or rule concerned.
    pub feature: &'static str,
    /// RFC 6901 pointer into the tool (empty for a request-level finding).
    pub pointer: String,
    /// What the provider would say, and the rule.
    pub message: String,
}

/// Whether the provider reads `tool` as strict: it says so, or the format makes an omitted
/// `strict` strict (the Responses API).
pub(crate) fn is_strict(tool: &Tool<'_>, target: &dyn Adapter) -> bool {
    target.info().reads_as_strict(tool.strict)
}

/// Checks one tool as the target provider reads it. `profile` is the target's profile for a
/// non-strict tool, `strict` its strict profile (both with the caller's overrides).
/// `names_checked` says the names pass already held the tool's name to the target's rule (the
/// caller's overrides change keyword actions, never the rule), so it is not tested again.
pub(crate) fn check_tool(
    tool: &Tool<'_>,
    target: &dyn Adapter,
    profile: &Profile,
    strict: Option<&Profile>,
    names_checked: bool,
    out: &mut Vec<Finding>,
) {
    check(tool, target, profile, strict, names_checked, names_checked, out);
}

/// [`check_tool`]; `trust_passes` says a strict tool is what the strict pass made of it.
#[inline(always)]
fn check(
    tool: &Tool<'_>,
    target: &dyn Adapter,
    profile: &Profile,
    strict: Option<&Profile>,
    names_checked: bool,
    trust_passes: bool,
    out: &mut Vec<Finding>,
) {
    if tool.opaque.is_some() {
        return;
    }
    if !names_checked
        && let Some(rule) = profile.name_rule()
        && !rule.accepts(tool.name)
    {
        out.push(Finding {
            tool: None,
            at: tool.at,
            feature: "name",
            pointer: format!("{}/name", tool.members_pointer),
            message: name_message("tool name", tool.name, rule, target),
        });
    }
    // Members the route drops are gone from a converted tool (the envelope pass); those left
    // are sent.
    if let Some(error) = target.info().closed_members {
        // A `strict` its reader typed is sent too where the format has no place for one (a
        // provider serving OpenAI's Chat shape without its `strict`), unless the envelope pass
        // took it out.
        let unheld = |m: &&crate::ir::ToolMember<'_>| {
            m.role == crate::ir::Role::Strict
                && tool.strict.is_some()
                && !target.info().holds_strict()
        };
        let strict = tool.members.iter().filter(unheld);
        for member in tool.meta().filter(|m| !target.info().defines_member(m.key)).chain(strict) {
            out.push(Finding {
                tool: None,
                at: member.at,
                feature: "member",
                pointer: tool.member_pointer(member),
                message: format!(
                    "{} tools hold no member `{}`: the provider refuses members it does not define (\"{error}: …\")",
                    target.name(),
                    member.key
                ),
            });
        }
    }
    let strict = strict.filter(|_| is_strict(tool, target));
    let profile = strict.unwrap_or(profile);
    let base = Path::ROOT;
    let path = base.push(Seg::Raw(tool.input_pointer));
    // Omitted parameters: the provider reads an empty object, which every rule accepts.
    let Some(root) = &tool.input else { return };
    let rules = profile.strict_rules().filter(|_| strict.is_some());
    // The names pass renamed every property key the target's rule rejects.
    let key_rule = profile.key_rule().filter(|&r| {
        !(names_checked && target.profile().key_rule().is_some_and(|t| same_rule(t, r)))
    });
    let listed_only = strict.is_some() || profile.rejects_unlisted();
    // A strict tool out of the passes is one the strict pass made strict with this same
    // profile (`passes::run` writes `strict: false` on every other, and `Options::check_target`
    // refuses strict conversions under a profile set without strict mode). That pass measured
    // this very schema against the limits, ruled out recursion where the provider has none,
    // and typed, closed and (where the rules say so) all-required every node it walked, so
    // only what it does not see is checked again here.
    let made_strict = trust_passes && rules.is_some();
    check_root(target, profile, rules.is_some(), root, &path, out);
    // The shape pass is the last pass to change a node's shape and fixes every node it
    // visits until no rule breaks, so a tool out of the passes breaks none: release builds
    // trust it, debug builds check (a finding would leave the tool out, which tests see).
    let shape = if trust_passes && !cfg!(debug_assertions) {
        ShapeRules::NONE
    } else {
        profile.shape_rules()
    };
    if shape.contains(ShapeRule::RootProperties) && broken(ShapeRule::RootProperties, root, true) {
        out.push(Finding {
            tool: None,
            at: root.at,
            feature: ShapeRule::RootProperties.keyword(),
            pointer: path.to_pointer(),
            message: schema::shape_message(target.name(), profile, ShapeRule::RootProperties),
        });
    }
    // A boolean schema where the provider takes none is a finding whatever else is kept.
    let booleans = !profile.features().contains(SchemaFeature::BooleanSchema)
        && root.features.contains(SchemaFeature::BooleanSchema);
    if !(rules.is_some() || listed_only || key_rule.is_some() || shape.every_node() || booleans)
        && shape.triggers().intersection(root.features).is_empty()
    {
        return;
    }
    // A shape rule without a trigger feature is one no feature test can rule out.
    let clean = if rules.is_none() && key_rule.is_none() && !shape.every_node() {
        // A subtree holding a shape rule's trigger is not clean, whatever the table keeps.
        clean_features(profile).map(|f| f.union(shape.triggers()))
    } else {
        None
    };
    // Most schemas hold nothing the profile changes: the visit would return at the root (debug
    // builds set it up anyway, and visit the schema to insist it holds no finding).
    if !cfg!(debug_assertions) && clean.is_some_and(|c| root.features.intersection(c).is_empty()) {
        return;
    }
    let closing_only = if made_strict && key_rule.is_none() {
        clean_features(profile).map(|f| f.union(FeatureSet::of(&[SchemaFeature::Ref])))
    } else {
        None
    };
    // The closing-only check's one finding, an open object, is one the strict pass rules out
    // where it says so, and a root it would take holds no other node: nothing is left to look
    // at.
    if made_strict
        && tool.strict_closed
        && root.boolean.is_none()
        && closing_only.is_some_and(|avoid| root.features.intersection(avoid).is_empty())
    {
        assert_made_strict(tool, target, profile, strict, out.len());
        return;
    }
    let mut check = SchemaCheck {
        target,
        profile,
        rules,
        listed_only,
        key_rule,
        count: rules.is_some() && !made_strict,
        clean,
        closing_only,
        out,
        counts: SchemaCounts::default(),
        shape,
    };
    // A clean root is skipped at the visit's start; `clean` is set only without strict rules,
    // so nothing below applies to it either.
    check.visit_schema(root, &path, NodeScope { depth: 0, root: true, pass_walked: made_strict });
    if made_strict {
        assert_made_strict(tool, target, profile, strict, check.out.len());
        return;
    }
    let counts = check.counts;
    if let Some(rules) = check.rules {
        if !rules.recursion
            && let Some(at) = first_recursive_ref(root)
        {
            out.push(Finding {
                tool: None,
                at,
                feature: "$ref",
                pointer: path.to_pointer(),
                message: RECURSIVE.to_owned(),
            });
        }
        let limits = profile.provider_limits();
        for (limit, n, what) in [
            (limits.properties, counts.properties, "object properties"),
            (limits.depth, counts.depth, "levels of object nesting"),
            (limits.enum_values, counts.enum_values, "enum values"),
            (limits.schema_chars, counts.chars, "characters of names and enum/const values"),
        ] {
            if let Some(limit) = limit
                && n > limit.max
            {
                out.push(Finding {
                    tool: None,
                    at: root.at,
                    feature: "limit",
                    pointer: path.to_pointer(),
                    message: over(n, what, "in one strict schema", limit),
                });
            }
        }
    }
}

/// `a == b`, without comparing the texts byte by byte when they are the same texts: the
/// caller's profile is a copy of the target's, which shares them (every field is named, so a
/// new one cannot be left out).
fn same_rule(a: &NameRule, b: &NameRule) -> bool {
    let same = crate::scan::same_text;
    let NameRule { extra, max, letter_first, pattern, source } = *a;
    let equal = max == b.max
        && letter_first == b.letter_first
        && same(extra, b.extra)
        && same(pattern, b.pattern)
        && same(source, b.source);
    debug_assert_eq!(equal, a == b);
    equal
}

/// Debug builds run the whole strict check on a tool [`check_tool`] trusted the strict pass
/// with, and insist it finds no more than the `found` findings the shorter check did.
fn assert_made_strict(
    tool: &Tool<'_>,
    target: &dyn Adapter,
    profile: &Profile,
    strict: Option<&Profile>,
    found: usize,
) {
    if cfg!(debug_assertions) {
        let mut all = Vec::new();
        check(tool, target, profile, strict, true, false, &mut all);
        debug_assert_eq!(all.len(), found, "the strict pass left findings: {all:?}");
    }
}

/// The root rules: an object, without the combinators the target forbids there.
fn check_root(
    target: &dyn Adapter,
    profile: &Profile,
    strict_mode: bool,
    s: &Schema<'_>,
    path: &Path<'_>,
    out: &mut Vec<Finding>,
) {
    let mut push = |at, feature, path: &Path<'_>, message| {
        out.push(Finding { tool: None, at, feature, pointer: path.to_pointer(), message });
    };
    if target.info().requires_object_root && !s.is_object_type() {
        let message = format!("{} requires `\"type\": \"object\"` at the root", target.name());
        push(s.at, "type", path, message);
    }
    let forbidden = profile.root_forbidden();
    // A node's features include its own keywords': none forbidden, nothing to look at.
    if s.features.intersection(forbidden).is_empty() {
        return;
    }
    for e in s.keywords {
        if e.keyword.feature().is_some_and(|f| forbidden.contains(f)) {
            let name = e.keyword.as_str();
            let message = format!(
                "{} does not take `{name}` at the root of the input schema{}",
                target.name(),
                if strict_mode { " in strict mode" } else { "" }
            );
            push(e.at, name_static(e), &path.push(Seg::Key(name)), message);
        }
    }
}

/// The message of a finding over a provider limit: `n` of `what` in `scope`.
#[cold]
pub(super) fn over(n: usize, what: &str, scope: &str, limit: Limit) -> String {
    format!("{n} {what} {scope} is over the limit of {} ({})", limit.max, limit.source)
}

/// The message of a finding on a name (`what`: a tool name, a property key) that `rule`
/// rejects, with the name a conversion would give it.
#[cold]
pub(super) fn name_message(
    what: &str,
    name: &str,
    rule: &NameRule,
    target: &dyn Adapter,
) -> String {
    let (fixed, _) = sanitize(name, rule, "tool");
    format!(
        "{} rejects {what} {name:?}: it must match {} ({}); a conversion would rename it {fixed:?}",
        target.name(),
        rule.pattern,
        rule.source
    )
}

/// A keyword's name with a static lifetime (an unknown keyword is reported as such).
pub(super) fn name_static(e: &Entry<'_>) -> &'static str {
    match e.value {
        Value::Unknown(_) => "unknown keyword",
        _ => e.keyword.as_str(),
    }
}
