//! The schema rules of the pre-flight check, in one visit of the schema: every keyword one the
//! target keeps, boolean schemas only where it takes them, property keys its rule accepts, and
//! in strict mode every node typed, every array with items, every object closed (and
//! all-required where the rules say so). What the schema counts toward the strict limits is
//! counted on the way, where those are to be checked.

use crate::adapter::Adapter;
use crate::ir::measure::{SchemaCounts, nesting_below};
use crate::ir::visit::{Visit, entry_name, walk_subschemas};
use crate::ir::{Entry, FeatureSet, Keyword, Prop, Schema, SchemaFeature, Value};
use crate::pointer::{Path, Seg};
use crate::profile::shape::{NodeKeys, ShapeRule, ShapeRules, in_order};
use crate::profile::{Action, NameRule, Profile, StrictRules};

use super::{Finding, name_message, name_static};

/// The features that may make a keyword of a "listed only" check a finding, when the check
/// has nothing else to look for: a keyword with a feature the profile keeps has the action
/// `keep`, so a subtree whose features avoid these holds no finding and is skipped with one
/// test. `None` when a keyword without a feature bit (`type`, `properties`, …) is not kept.
pub(super) fn clean_features(profile: &Profile) -> Option<FeatureSet> {
    let unmarked = [
        Keyword::Type,
        Keyword::Items,
        Keyword::Properties,
        Keyword::Required,
        Keyword::Description,
    ];
    unmarked.iter().all(|&k| profile.action(k) == Action::Keep).then(|| profile.changed_features())
}

/// The visit of one tool's input schema that checks it against the target's rules.
pub(super) struct SchemaCheck<'w, 'p> {
    pub target: &'w dyn Adapter,
    pub profile: &'p Profile,
    pub rules: Option<StrictRules>,
    /// Every keyword must be one the profile keeps (strict schemas, Gemini's `parameters`).
    pub listed_only: bool,
    /// The rule property keys are held to, when they still need checking.
    pub key_rule: Option<&'p NameRule>,
    /// Whether `counts` are wanted (strict limits).
    pub count: bool,
    /// See [`clean_features`]: a subtree whose features avoid these is skipped whole.
    pub clean: Option<FeatureSet>,
    /// [`clean_features`] as a filter on keywords alone, which holds wherever whole subtrees
    /// cannot be skipped (a shape rule every node is tested on, strict mode, a key rule): a
    /// keyword whose feature avoids these is one the profile keeps.
    pub listed: Option<FeatureSet>,
    pub out: &'w mut Vec<Finding>,
    pub counts: SchemaCounts,
    /// The provider's shape rules (see [`crate::shape`]), tested on every node visited.
    pub shape: ShapeRules,
}

/// What a node of the checked schema hands down to its subschemas.
#[derive(Clone, Copy)]
pub(super) struct NodeScope {
    /// The object nesting above the node.
    pub depth: usize,
    /// The node is the root of the input schema.
    pub root: bool,
}

impl NodeScope {
    /// The scope of the subschemas of the keyword `e`, in a node at nesting `depth` (counting
    /// itself) whose scope is `self`; `None` where there are none to check (no subschema, or
    /// the `additionalProperties: false` strict mode asks for, which is no schema of values).
    #[inline]
    fn below(self, e: &Entry<'_>, depth: usize) -> Option<NodeScope> {
        let depth = nesting_below(e, depth)?;
        Some(NodeScope { depth, root: false })
    }
}

impl<'a> Visit<'a> for SchemaCheck<'_, '_> {
    type Scope = NodeScope;

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, scope: NodeScope) {
        if self.skipped_clean(s) {
            return;
        }
        if let Some(b) = s.boolean {
            if self.rules.is_some() || !self.profile.features().contains(boolean_feature()) {
                let message = format!(
                    "{} takes no boolean schema (`{b}`) here{}",
                    self.target.name(),
                    self.mode()
                );
                self.push(s.at, "boolean schema", path, message);
            }
            return;
        }
        // The keywords the shape and strict rules read, from one scan of the node.
        let keys = if self.shape.is_empty() && self.rules.is_none() {
            NodeKeys::default()
        } else {
            NodeKeys::of(s)
        };
        let breaks = keys.broken(self.shape, s, false);
        if !breaks.is_empty() {
            self.shape_rules(s, path, breaks);
        }
        let object = (self.count || self.rules.is_some()) && keys.is_object_like();
        let depth = scope.depth + usize::from(object);
        self.counts.depth = self.counts.depth.max(depth);
        if let Some(rules) = self.rules {
            self.strict_node(s, &keys, path, object, scope.root, rules);
        }
        for e in s.keywords {
            let child = path.push(Seg::Key(entry_name(e)));
            if self.listed_only && may_find(self.listed, e) {
                self.keyword(e, &child);
            }
            // The strict limits read the schema's size, not its optional properties.
            if self.count {
                self.counts.add_keyword_size(e);
            }
            if let Some(below) = scope.below(e, depth) {
                walk_subschemas(self, e, &child, below);
            }
        }
    }

    fn visit_prop(&mut self, keyword: Keyword, p: &'a Prop<'a>, path: &Path<'_>, scope: NodeScope) {
        if keyword == Keyword::Properties
            && let Some(rule) = self.key_rule
            && !rule.accepts(p.name)
        {
            let m = name_message("property key", p.name, rule, self.target);
            self.push(p.at, "properties", path, m);
        }
        // As `visit_schema` would at its start, without the call: most properties of a
        // checked node are clean.
        if !self.skipped_clean(&p.schema) {
            self.visit_schema(&p.schema, path, scope);
        }
    }
}

impl SchemaCheck<'_, '_> {
    fn push(&mut self, at: u32, feature: &'static str, path: &Path<'_>, message: String) {
        self.out.push(Finding::rejected(None, at, feature, path.to_pointer(), message));
    }

    /// The provider's shape rules the node breaks (`breaks`), each a finding in the
    /// provider's words.
    #[cold]
    fn shape_rules(&mut self, s: &Schema<'_>, path: &Path<'_>, breaks: ShapeRules) {
        for rule in self.shape.iter() {
            if breaks.contains(rule) {
                let message = shape_message(self.target.name(), self.profile, rule);
                self.push(s.at, rule.keyword(), path, message);
            }
        }
    }

    fn mode(&self) -> &'static str {
        if self.rules.is_some() { " in strict mode" } else { "" }
    }

    /// The rule that every object of a strict schema is closed (the root of a tool without
    /// parameters may be the empty object: the provider reads it as "no arguments").
    fn open_object(&mut self, s: &Schema<'_>, keys: &NodeKeys<'_>, path: &Path<'_>, root: bool) {
        let open_root_ok = root && keys.properties().is_empty();
        let closed = matches!(
            keys.additional.map(|e| e.value),
            Some(Value::Schema(x)) if x.boolean == Some(false)
        );
        if !closed && !open_root_ok {
            let m = "strict mode requires `\"additionalProperties\": false` on every object";
            self.push(s.at, "additionalProperties", path, m.into());
        }
    }

    /// Whether `s` is skipped as clean: its features avoid every one the profile changes
    /// (see [`clean_features`]), so it holds no finding. A node's features hold its
    /// subtree's (the IR's invariant, asserted where a tool's passes end: `ir::covers`).
    #[inline]
    fn skipped_clean(&self, s: &Schema<'_>) -> bool {
        self.clean.is_some_and(|changed| s.features.intersection(changed).is_empty())
    }

    /// A keyword the profile does not keep as it is.
    fn keyword(&mut self, e: &Entry<'_>, path: &Path<'_>) {
        // Kept as the policy pass keeps it (a leftover `rewrite` of refs or of a JSON Schema
        // `nullable` annotation stays).
        let action = crate::profile::keeps(
            self.profile.action_for(e.keyword, &e.value),
            e.keyword,
            self.profile,
        );
        let kept = action == Action::Keep;
        let type_array = matches!(e.value, Value::Type(t) if t.array)
            && !self.profile.features().contains(SchemaFeature::TypeArray);
        if !kept || type_array {
            let name = entry_name(e);
            let message = format!(
                "`{name}` is not part of what {} accepts{}",
                self.target.name(),
                self.mode()
            );
            self.push(e.at, name_static(e), path, message);
        }
    }

    fn strict_node(
        &mut self,
        s: &Schema<'_>,
        keys: &NodeKeys<'_>,
        path: &Path<'_>,
        object: bool,
        root: bool,
        rules: StrictRules,
    ) {
        if !keys.declares_kind() {
            let m =
                "strict mode needs a `type` (or `anyOf`, `$ref`, `enum`, `const`) on every schema";
            self.push(s.at, "type", path, m.into());
        }
        if keys.is_array_without_items() {
            self.push(s.at, "items", path, "strict mode needs `items` on every array".into());
        }
        if keys.reference
            && !self.profile.holds_ref_siblings()
            && s.keywords.iter().any(|e| !entry_name(e).starts_with('$'))
        {
            let m =
                format!("{} takes no keywords beside `$ref` in strict mode", self.target.name());
            self.push(s.at, "$ref", path, m);
        }
        if !object {
            return;
        }
        self.open_object(s, keys, path, root);
        let (props, required) = (keys.properties(), keys.required());
        // Every property is required where `required` lists them all in their order (as the
        // strict pass writes it), answered in one walk over both without a set.
        if rules.all_required && !in_order(props.iter().map(|p| p.name), required.iter().copied()) {
            let required = crate::ir::NameSet::new(required);
            for p in props.iter().filter(|p| !required.contains(p.name)) {
                let at = path.push(Seg::Key("required"));
                let m = format!(
                    "strict mode requires every property in `required`; {:?} is not",
                    p.name
                );
                self.push(p.at, "required", &at, m);
            }
        }
    }
}

/// Whether [`SchemaCheck::keyword`] may find `e`: under [`clean_features`] (`listed`) only a
/// keyword whose feature the profile changes, or a type array, can be one it does not keep
/// (every built-in profile keeps every other keyword: the test below).
#[inline]
fn may_find(listed: Option<FeatureSet>, e: &Entry<'_>) -> bool {
    let Some(changed) = listed else { return true };
    match e.keyword.feature() {
        Some(f) => changed.contains(f),
        None => matches!(e.value, Value::Type(t) if t.array),
    }
}

fn boolean_feature() -> SchemaFeature {
    SchemaFeature::BooleanSchema
}

/// What the provider says about a node that breaks `rule`, and where that comes from.
pub(super) fn shape_message(target: &str, profile: &Profile, rule: ShapeRule) -> String {
    match profile.shape_table().iter().find(|r| r.rule == rule) {
        Some(r) => format!("{target} refuses this: \"{}\" ({})", r.error, r.source),
        None => format!("{target} refuses this node ({})", rule.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::clean_features;
    use crate::ir::{Entry, Keyword, Value};
    use crate::options::ProfileSet;
    use crate::profile::{Action, Profile};

    /// Every profile a built-in target holds a tool to: its own, its strict one, its other
    /// schema field's, and the toolfoundation set's.
    fn profiles() -> Vec<Profile> {
        let mut out = Vec::new();
        for f in crate::formats::builtins() {
            let info = f.info();
            out.push(*f.profile());
            out.extend(info.strict_profile());
            out.extend(ProfileSet::ToolFoundation.profile_ref(info).copied());
            if let Some(o) = info.other_field {
                out.extend([*o.profile, *o.toolfoundation]);
            }
        }
        out
    }

    /// The check passes over a keyword whose feature the profile does not change (and a
    /// subtree none of whose features it changes): in every profile that allows it, each such
    /// keyword is one the profile keeps, so passing over it misses nothing.
    #[test]
    fn a_keyword_passed_over_is_one_the_profile_keeps() {
        let mut checked = 0;
        for p in profiles() {
            let Some(changed) = clean_features(&p) else { continue };
            for k in Keyword::ALL {
                let entry = Entry { keyword: k, value: Value::Bool(true), at: 0 };
                if super::may_find(Some(changed), &entry) {
                    continue;
                }
                let action = crate::profile::keeps(p.action(k), k, &p);
                assert_eq!(action, Action::Keep, "{k:?} passed over in {changed:?}");
                checked += 1;
            }
        }
        assert!(checked > 0, "no keyword is passed over");
    }
}
