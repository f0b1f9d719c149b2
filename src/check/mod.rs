//! The check: what a provider would reject in tools written in its format, without
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

pub(crate) use catalog::{check_catalog, dated_descriptions, dated_tools, tool_choice};

use crate::adapter::Adapter;
use crate::ir::measure::SchemaCounts;
use crate::ir::refs::{RECURSIVE, first_recursive_ref};
use crate::ir::visit::Visit;
use crate::ir::{Entry, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::sanitize;
use crate::profile::shape::{ShapeRule, broken};
use crate::profile::{Limit, NameRule, Profile};
use crate::report::{Code, EntryKind, Note, OwnedNote};
use schema::{NodeScope, SchemaCheck, clean_features};

/// One thing the provider would reject (or, over a dated limit, may): the report entry it
/// makes and the tool it is about.
#[derive(Debug)]
pub(crate) struct Finding {
    /// The tool concerned, by index in the catalog, for a request-level check.
    pub tool: Option<usize>,
    /// Position in the source, for report order.
    pub at: u32,
    /// What the provider would say, and the rule: the keyword, member or rule concerned, and
    /// the RFC 6901 pointer into the tool (empty for a request-level finding).
    pub note: OwnedNote,
}

impl Finding {
    /// A rule the provider enforces broken: the tool (or the request) is refused, so every
    /// call of it is.
    pub(crate) fn rejected(
        tool: Option<usize>,
        at: u32,
        feature: &'static str,
        pointer: String,
        message: String,
    ) -> Finding {
        let kind = EntryKind::left_out(Code::WouldBeRejected);
        Finding { tool, at, note: Note { kind, feature, pointer, message } }
    }
}

/// How a dated limit ([`crate::adapter::DatedLimit`]) is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dated {
    /// The caller asked it kept ([`crate::Options::dated_limits`]): over it, the provider
    /// refuses, as over any rule it enforces.
    Enforced,
    /// Told only (`check`): the provider may take it now, and nothing was changed, so a
    /// `warning`.
    Told,
}

impl Dated {
    /// The entry of a finding over the limit.
    fn kind(self) -> EntryKind {
        match self {
            Dated::Enforced => EntryKind::left_out(Code::WouldBeRejected),
            Dated::Told => EntryKind::guarantee_lost(Code::DatedLimit),
        }
    }
}

/// Whether the provider reads `tool` as strict: it says so, or the format makes an omitted
/// `strict` strict (the Responses API).
pub(crate) fn is_strict(tool: &Tool<'_>, target: &dyn Adapter) -> bool {
    target.info().reads_as_strict(tool.strict)
}

/// Checks one tool as the target provider reads it, every rule, whatever wrote the tool:
/// `profile` is the target's profile for a non-strict tool, `strict` its strict profile (both
/// with the caller's overrides).
pub(crate) fn check_tool(
    tool: &Tool<'_>,
    target: &dyn Adapter,
    profile: &Profile,
    strict: Option<&Profile>,
    out: &mut Vec<Finding>,
) {
    if tool.opaque.is_some() {
        return;
    }
    let mut check = ToolCheck { tool, target, out };
    check.name(profile);
    check.members();
    let strict = strict.filter(|_| is_strict(tool, target));
    // Omitted parameters: the provider reads an empty object, which every rule accepts.
    if let Some(root) = &tool.input {
        check.schema(root, strict.unwrap_or(profile), strict.is_some());
    }
}

/// The check of one tool: the tool, the provider it is checked for, and the findings.
struct ToolCheck<'c, 't> {
    tool: &'c Tool<'t>,
    target: &'c dyn Adapter,
    out: &'c mut Vec<Finding>,
}

impl ToolCheck<'_, '_> {
    fn push(&mut self, at: u32, feature: &'static str, pointer: String, message: String) {
        self.out.push(Finding::rejected(None, at, feature, pointer, message));
    }

    /// The tool's name, held to the target's rule.
    fn name(&mut self, profile: &Profile) {
        let Some(rule) = profile.name_rule().filter(|r| !r.accepts(self.tool.name)) else {
            return;
        };
        let message = name_message("tool name", self.tool.name, rule, self.target);
        let pointer = format!("{}/name", self.tool.members_pointer);
        self.push(self.tool.at, "name", pointer, message);
    }

    /// Members the target does not define, where its provider refuses them (the envelope
    /// pass drops them from a converted tool; those left are sent).
    fn members(&mut self) {
        let (tool, target) = (self.tool, self.target);
        let Some(error) = target.info().closed_members else { return };
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
            let message = format!(
                "{} tools hold no member `{}`: the provider refuses members it does not define (\"{error}: …\")",
                target.name(),
                member.key
            );
            self.push(member.at, "member", tool.member_pointer(member), message);
        }
    }

    /// The input schema `root` under `profile` (the strict one when `strict`): the root, the
    /// shape rules, every node in one visit, then the strict limits.
    fn schema(&mut self, root: &Schema<'_>, profile: &Profile, strict: bool) {
        let target = self.target;
        let path = Path::ROOT.push(Seg::Raw(self.tool.input_pointer));
        let rules = profile.strict_rules().filter(|_| strict);
        let key_rule = profile.key_rule();
        let listed_only = strict || profile.rejects_unlisted();
        check_root(target, profile, rules.is_some(), root, &path, self.out);
        let shape = profile.shape_rules();
        if shape.contains(ShapeRule::RootProperties)
            && broken(ShapeRule::RootProperties, root, true)
        {
            let message = schema::shape_message(target.name(), profile, ShapeRule::RootProperties);
            let feature = ShapeRule::RootProperties.keyword();
            self.push(root.at, feature, path.to_pointer(), message);
        }
        // A boolean schema where the provider takes none is a finding whatever else is kept.
        let booleans = !profile.features().contains(SchemaFeature::BooleanSchema)
            && root.features.contains(SchemaFeature::BooleanSchema);
        if !(rules.is_some() || listed_only || key_rule.is_some() || shape.every_node() || booleans)
            && shape.triggers().intersection(root.features).is_empty()
        {
            return;
        }
        // What the table changes; a keyword whose feature avoids it is kept, whatever else
        // its node is checked for.
        let listed = clean_features(profile);
        // A shape rule without a trigger feature is one no feature test can rule out.
        let clean = if rules.is_none() && key_rule.is_none() && !shape.every_node() {
            // A subtree holding a shape rule's trigger is not clean, whatever the table keeps.
            listed.map(|f| f.union(shape.triggers()))
        } else {
            None
        };
        // Most schemas hold nothing the profile changes: the visit would return at the root.
        if clean.is_some_and(|c| root.features.intersection(c).is_empty()) {
            return;
        }
        let mut check = SchemaCheck {
            target,
            profile,
            rules,
            listed_only,
            key_rule,
            count: rules.is_some(),
            clean,
            listed,
            out: &mut *self.out,
            counts: SchemaCounts::default(),
            shape,
        };
        check.visit_schema(root, &path, NodeScope { depth: 0, root: true });
        let counts = check.counts;
        if let Some(rules) = rules {
            self.strict_limits(root, &path, profile, rules.recursion, counts);
        }
    }

    /// The limits of one strict schema: recursion where the provider has none, and what the
    /// visit counted.
    fn strict_limits(
        &mut self,
        root: &Schema<'_>,
        path: &Path<'_>,
        profile: &Profile,
        recursion: bool,
        counts: SchemaCounts,
    ) {
        if !recursion && let Some(at) = first_recursive_ref(root) {
            self.push(at, "$ref", path.to_pointer(), RECURSIVE.to_owned());
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
                let message = over(n, what, "in one strict schema", limit);
                self.push(root.at, "limit", path.to_pointer(), message);
            }
        }
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
        out.push(Finding::rejected(None, at, feature, path.to_pointer(), message));
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
