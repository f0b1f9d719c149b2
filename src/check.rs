//! Pre-flight: what a provider would reject in tools written in its format, without
//! converting. One bad tool fails a whole request at every provider, so this names each
//! finding with the tool, the JSON pointer and the rule (and its source).
//!
//! The same checks run on every cross-format conversion's output (the passes should leave
//! nothing to find; a finding there is an `error` entry and the tool is left out), and stand
//! alone behind [`crate::Converter::check`] and `tooladapter check`.

use crate::adapter::Adapter;
use crate::ir::{Entry, FeatureSet, Keyword, Prop, Role, Schema, SchemaFeature, Tool, Value};
use crate::passes::CatalogCounts;
use crate::passes::names::sanitize;
use crate::pointer::{Path, Seg};
use crate::profile::{Action, Limit, NameRule, Profile, StrictRules};

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

/// What a schema counts toward the provider's size limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub properties: usize,
    pub depth: usize,
    pub enum_values: usize,
    pub chars: usize,
    pub optional: usize,
    pub unions: usize,
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
    if !(rules.is_some() || listed_only || key_rule.is_some()) {
        return;
    }
    let clean = if rules.is_none() && key_rule.is_none() { clean_features(profile) } else { None };
    // Most schemas hold nothing the profile changes: the walk would return at the root (debug
    // builds set it up anyway, and walk the schema to insist it holds no finding).
    if !cfg!(debug_assertions) && clean.is_some_and(|c| root.features.intersection(c).is_empty()) {
        return;
    }
    let lean = if made_strict && key_rule.is_none() {
        clean_features(profile).map(|f| f.union(FeatureSet::of(&[SchemaFeature::Ref])))
    } else {
        None
    };
    // The lean walk's one finding, an open object, is one the strict pass rules out where it
    // says so, and a root it would take holds no other node: nothing is left to look at.
    if made_strict
        && tool.strict_closed
        && root.boolean.is_none()
        && lean.is_some_and(|avoid| root.features.intersection(avoid).is_empty())
    {
        assert_made_strict(tool, target, profile, strict, out.len());
        return;
    }
    let mut walk = Walk {
        target,
        profile,
        rules,
        listed_only,
        key_rule,
        count: rules.is_some() && !made_strict,
        clean: None,
        lean,
        out,
        counts: Counts::default(),
    };
    walk.clean = clean;
    if clean.is_some_and(|c| root.features.intersection(c).is_empty()) {
        walk.assert_clean(root, &path, 0, true);
        return;
    }
    walk.schema(root, &path, 0, true, made_strict);
    if made_strict {
        assert_made_strict(tool, target, profile, strict, walk.out.len());
        return;
    }
    let counts = walk.counts;
    if let Some(rules) = walk.rules {
        if !rules.recursion
            && let Some(n) = crate::passes::recursion(root, &path)
        {
            out.push(Finding {
                tool: None,
                at: n.at,
                feature: "$ref",
                pointer: n.pointer,
                message: n.reason,
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

/// Checks what a request holding all of `tools` must obey: unique names (unless
/// `names_unique`, which the names pass answers when it ran), and the per-request limits
/// (strict tools, optional and union parameters, cache breakpoints). `made`: the totals of
/// the tools the strict pass made strict (with `strict`) among `tools`, which spare a recount
/// when those are all the strict ones. `scratch` is the names pass's, reused for the duplicate
/// test.
pub(crate) fn check_catalog(
    tools: &[Tool<'_>],
    target: &dyn Adapter,
    strict: Option<&Profile>,
    made: Option<CatalogCounts>,
    names_unique: bool,
    scratch: &mut Vec<(u64, u32)>,
    out: &mut Vec<Finding>,
) {
    let names = tools.iter().filter(|t| t.opaque.is_none()).map(|t| t.name);
    if names_unique {
        debug_assert!(!crate::passes::names::has_duplicates(names, scratch));
    } else if crate::passes::names::has_duplicates(names, scratch) {
        duplicate_names(tools, target, out);
    }
    catalog_limits(tools, target, strict, made, out);
}

/// One finding per tool whose name an earlier tool has.
#[cold]
fn duplicate_names(tools: &[Tool<'_>], target: &dyn Adapter, out: &mut Vec<Finding>) {
    for (i, t) in tools.iter().enumerate().filter(|(_, t)| t.opaque.is_none()) {
        let earlier = tools.get(..i).unwrap_or_default();
        if earlier.iter().any(|e| e.opaque.is_none() && e.name == t.name) {
            out.push(Finding {
                tool: Some(i),
                at: t.at,
                feature: "name",
                pointer: format!("{}/name", t.members_pointer),
                message: format!(
                    "{} rejects a request whose tools share a name: {:?} is used twice",
                    target.name(),
                    t.name
                ),
            });
        }
    }
}

/// The per-request limits; nothing is counted for a target without them.
fn catalog_limits(
    tools: &[Tool<'_>],
    target: &dyn Adapter,
    strict: Option<&Profile>,
    made: Option<CatalogCounts>,
    out: &mut Vec<Finding>,
) {
    let limits = target.profile().provider_limits();
    let per_request = [limits.strict_tools, limits.optional_params, limits.union_params];
    if per_request.iter().all(Option::is_none) && limits.cache_breakpoints.is_none() {
        return;
    }
    let wanted = strict.is_some() && per_request.iter().any(Option::is_some);
    // The strict pass counted what its profile's limits read: enough when these read no more.
    let counted = strict.is_some_and(|p| {
        let pass = p.provider_limits();
        (pass.optional_params.is_some() || limits.optional_params.is_none())
            && (pass.union_params.is_some() || limits.union_params.is_none())
    });
    // Each tool the pass made strict is strict to the target: as many means the same tools.
    let made = made.filter(|m| {
        wanted
            && counted
            && m.strict_tools
                == tools.iter().filter(|t| t.opaque.is_none() && is_strict(t, target)).count()
    });
    let (strict_tools, optional, unions) = match made {
        Some(m) => {
            if cfg!(debug_assertions) {
                // Only what these limits read is compared: the pass may count more.
                let read = |(n, o, u): (usize, usize, usize)| {
                    let o = if limits.optional_params.is_some() { o } else { 0 };
                    let u = if limits.union_params.is_some() { u } else { 0 };
                    (n, o, u)
                };
                let pass = read((m.strict_tools, m.optional, m.unions));
                debug_assert_eq!(pass, read(strict_params(tools, target)), "the pass's totals");
            }
            (m.strict_tools, m.optional, m.unions)
        }
        None if wanted => strict_params(tools, target),
        None => (0, 0, 0),
    };
    let breakpoints = match limits.cache_breakpoints {
        Some(_) => tools.iter().filter(|t| has_cache_control(t)).count(),
        None => 0,
    };
    for (limit, n, what) in [
        (limits.strict_tools, strict_tools, "strict tools"),
        (limits.optional_params, optional, "optional parameters across strict tools"),
        (limits.union_params, unions, "union-typed parameters across strict tools"),
        (limits.cache_breakpoints, breakpoints, "cache_control breakpoints"),
    ] {
        if let Some(limit) = limit
            && n > limit.max
        {
            out.push(Finding {
                tool: None,
                at: 0,
                feature: "limit",
                pointer: String::new(),
                message: over(n, what, "in one request", limit),
            });
        }
    }
}

/// How many of `tools` are strict to `target`, and their optional and union-typed
/// parameters.
fn strict_params(tools: &[Tool<'_>], target: &dyn Adapter) -> (usize, usize, usize) {
    let (mut strict_tools, mut optional, mut unions) = (0, 0, 0);
    for t in tools.iter().filter(|t| t.opaque.is_none() && is_strict(t, target)) {
        strict_tools += 1;
        if let Some(s) = &t.input {
            let mut c = Counts::default();
            count_params(s, &mut c);
            if cfg!(debug_assertions) {
                let m = measure(s);
                debug_assert_eq!((c.optional, c.unions), (m.optional, m.unions));
            }
            optional += c.optional;
            unions += c.unions;
        }
    }
    (strict_tools, optional, unions)
}

impl Counts {
    /// Adds the optional (not in `required`) and the union-typed members of `props`, a node's
    /// `properties`: what the per-request limits read.
    fn add_params(&mut self, props: &[Prop<'_>], required: &[&str]) {
        self.optional += props.iter().filter(|p| !required.contains(&p.name)).count();
        self.unions += props.iter().filter(|p| is_union(&p.schema)).count();
    }
}

/// The counts of `s` toward the size limits.
pub(crate) fn measure(s: &Schema<'_>) -> Counts {
    let mut counts = Counts::default();
    count(s, 0, &mut counts);
    counts
}

/// Adds what `s` (at object nesting `depth`) counts toward the limits to `c`: the counting
/// half of [`Walk::schema`], without paths or findings, for the per-request limits, which
/// measure every strict tool, and for the subschemas the strict pass's walk (which counts as
/// it goes) does not descend into.
pub(crate) fn count(s: &Schema<'_>, depth: usize, c: &mut Counts) {
    if s.boolean.is_some() {
        return;
    }
    let depth = depth + usize::from(s.is_object_like());
    c.depth = c.depth.max(depth);
    for e in s.keywords {
        match e.value {
            Value::Props(props) => {
                let is_props = e.keyword == Keyword::Properties;
                if is_props {
                    c.properties += props.len();
                    c.add_params(props, s.required());
                }
                if matches!(e.keyword, Keyword::Properties | Keyword::Defs | Keyword::Definitions) {
                    c.chars += props.iter().map(|p| p.name.len()).sum::<usize>();
                }
                let d = if is_props { depth } else { 0 };
                for p in props {
                    count(&p.schema, d, c);
                }
            }
            Value::Schema(x)
                if e.keyword == Keyword::AdditionalProperties && x.boolean == Some(false) => {}
            Value::Schema(x) => count(x, depth, c),
            Value::Schemas(list) => {
                for x in list {
                    count(x, depth, c);
                }
            }
            Value::Json(crate::ir::Json::Array(items)) if e.keyword == Keyword::Enum => {
                c.enum_values += items.len();
                c.chars += items.iter().map(json_len).sum::<usize>();
            }
            Value::Json(v) if e.keyword == Keyword::Const => c.chars += json_len(&v),
            _ => {}
        }
    }
}

/// Adds the optional and the union-typed properties of `s` to `c`: what the per-request
/// limits read of [`count`], found in the same nodes, without the other counts.
fn count_params(s: &Schema<'_>, c: &mut Counts) {
    for e in s.keywords {
        match e.value {
            Value::Props(props) => {
                if e.keyword == Keyword::Properties {
                    c.add_params(props, s.required());
                }
                for p in props {
                    count_params(&p.schema, c);
                }
            }
            Value::Schema(x) => count_params(x, c),
            Value::Schemas(list) => {
                for x in list {
                    count_params(x, c);
                }
            }
            _ => {}
        }
    }
}

#[cold]
fn over(n: usize, what: &str, scope: &str, limit: Limit) -> String {
    format!("{n} {what} {scope} is over the limit of {} ({})", limit.max, limit.source)
}

#[cold]
fn name_message(what: &str, name: &str, rule: &NameRule, target: &dyn Adapter) -> String {
    let (fixed, _) = sanitize(name, rule, "tool");
    format!(
        "{} rejects {what} {name:?}: it must match {} ({}); a conversion would rename it {fixed:?}",
        target.name(),
        rule.pattern,
        rule.source
    )
}

/// The features that may make a keyword of a "listed only" walk a finding, when the walk has
/// nothing else to look for: a keyword with a feature the profile keeps has the action `keep`,
/// so a subtree whose features avoid these holds no finding and is skipped with one test.
/// `None` when a keyword without a feature bit (`type`, `properties`, …) is not kept.
fn clean_features(profile: &Profile) -> Option<FeatureSet> {
    let unmarked = [
        Keyword::Type,
        Keyword::Items,
        Keyword::Properties,
        Keyword::Required,
        Keyword::Description,
    ];
    unmarked.iter().all(|&k| profile.action(k) == Action::Keep).then(|| profile.changed_features())
}

struct Walk<'w, 'p> {
    target: &'w dyn Adapter,
    profile: &'p Profile,
    rules: Option<StrictRules>,
    /// Every keyword must be one the profile keeps (strict schemas, Gemini's `parameters`).
    listed_only: bool,
    /// The rule property keys are held to, when they still need checking.
    key_rule: Option<&'p NameRule>,
    /// Whether `counts` are wanted (strict limits, [`measure`]).
    count: bool,
    /// See [`clean_features`].
    clean: Option<FeatureSet>,
    /// For a tool the strict pass made strict, with no counts and no key rule to apply: the
    /// features a subtree that pass walked must avoid for [`Walk::lean`] to check it (those of
    /// keywords the profile does not keep, and `$ref`).
    lean: Option<FeatureSet>,
    out: &'w mut Vec<Finding>,
    counts: Counts,
}

impl Walk<'_, '_> {
    fn push(&mut self, at: u32, feature: &'static str, path: &Path<'_>, message: String) {
        self.out.push(Finding { tool: None, at, feature, pointer: path.to_pointer(), message });
    }

    fn mode(&self) -> &'static str {
        if self.rules.is_some() { " in strict mode" } else { "" }
    }

    /// `walked`: the strict pass made this node strict (a tool [`check`] trusts that pass
    /// with, on the keywords that pass descends), so the rules it establishes are not checked
    /// again.
    fn schema(&mut self, s: &Schema<'_>, path: &Path<'_>, depth: usize, root: bool, walked: bool) {
        if let Some(changed) = self.clean
            && s.features.intersection(changed).is_empty()
        {
            self.assert_clean(s, path, depth, root);
            return;
        }
        if walked
            && let Some(avoid) = self.lean
            && s.boolean.is_none()
            && s.features.intersection(avoid).is_empty()
        {
            self.lean(s, path, depth, root);
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
        let object = (self.count || self.rules.is_some()) && s.is_object_like();
        let depth = depth + usize::from(object);
        self.counts.depth = self.counts.depth.max(depth);
        if let Some(rules) = self.rules {
            let rules = if walked { None } else { Some(rules) };
            self.strict_node(s, path, object, root, rules);
        }
        for e in s.keywords {
            let child = path.push(Seg::Key(crate::passes::entry_name(e)));
            if self.listed_only && self.may_find(e) {
                self.keyword(e, &child);
            }
            match e.value {
                Value::Props(props) => {
                    let is_props = e.keyword == Keyword::Properties;
                    if is_props && self.count {
                        self.counts.properties += props.len();
                        self.counts.add_params(props, s.required());
                    }
                    if self.count
                        && matches!(
                            e.keyword,
                            Keyword::Properties | Keyword::Defs | Keyword::Definitions
                        )
                    {
                        self.counts.chars += props.iter().map(|p| p.name.len()).sum::<usize>();
                    }
                    for p in props {
                        let at = child.push(Seg::Key(p.name));
                        if is_props
                            && let Some(rule) = self.key_rule
                            && !rule.accepts(p.name)
                        {
                            let m = name_message("property key", p.name, rule, self.target);
                            self.push(p.at, "properties", &at, m);
                        }
                        let d = if is_props { depth } else { 0 };
                        // As `schema` would at its start, without the call: most properties of
                        // a walked node are clean.
                        if let Some(changed) = self.clean
                            && p.schema.features.intersection(changed).is_empty()
                        {
                            self.assert_clean(&p.schema, &at, d, false);
                            continue;
                        }
                        let walked = walked
                            && matches!(
                                e.keyword,
                                Keyword::Properties | Keyword::Defs | Keyword::Definitions
                            );
                        self.schema(&p.schema, &at, d, false, walked);
                    }
                }
                // `additionalProperties: false` is what strict mode asks for, not a schema.
                Value::Schema(c)
                    if e.keyword == Keyword::AdditionalProperties && c.boolean == Some(false) => {}
                Value::Schema(c) => {
                    let walked = walked && e.keyword == Keyword::Items;
                    self.schema(c, &child, depth, false, walked);
                }
                Value::Schemas(list) => {
                    let walked = walked && e.keyword == Keyword::AnyOf;
                    for (i, c) in list.iter().enumerate() {
                        self.schema(c, &child.push(Seg::Index(i)), depth, false, walked);
                    }
                }
                Value::Json(crate::ir::Json::Array(items))
                    if self.count && e.keyword == Keyword::Enum =>
                {
                    self.counts.enum_values += items.len();
                    self.counts.chars += items.iter().map(json_len).sum::<usize>();
                }
                Value::Json(v) if self.count && e.keyword == Keyword::Const => {
                    self.counts.chars += json_len(&v);
                }
                _ => {}
            }
        }
    }

    /// [`Walk::schema`] of a node the strict pass walked (so `rules` are not checked again)
    /// whose features avoid [`Walk::lean`]'s: every keyword is one the profile keeps (as for
    /// [`clean_features`]), none is `$ref` (whose siblings are a rule), and no count or key
    /// rule is wanted, so of that walk's findings here only an object left open can be one.
    /// The children are walked as that walk walks them, in the same order.
    fn lean(&mut self, s: &Schema<'_>, path: &Path<'_>, depth: usize, root: bool) {
        let object = s.is_object_like();
        if object {
            self.open_object(s, path, root);
        }
        let depth = depth + usize::from(object);
        for e in s.keywords {
            match e.value {
                Value::Props(props) => {
                    let child = path.push(Seg::Key(crate::passes::entry_name(e)));
                    let walked = matches!(
                        e.keyword,
                        Keyword::Properties | Keyword::Defs | Keyword::Definitions
                    );
                    let d = if e.keyword == Keyword::Properties { depth } else { 0 };
                    for p in props {
                        self.schema(&p.schema, &child.push(Seg::Key(p.name)), d, false, walked);
                    }
                }
                Value::Schema(c)
                    if e.keyword == Keyword::AdditionalProperties && c.boolean == Some(false) => {}
                Value::Schema(c) => {
                    let child = path.push(Seg::Key(crate::passes::entry_name(e)));
                    self.schema(c, &child, depth, false, e.keyword == Keyword::Items);
                }
                Value::Schemas(list) => {
                    let child = path.push(Seg::Key(crate::passes::entry_name(e)));
                    let walked = e.keyword == Keyword::AnyOf;
                    for (i, c) in list.iter().enumerate() {
                        self.schema(c, &child.push(Seg::Index(i)), depth, false, walked);
                    }
                }
                _ => {}
            }
        }
    }

    /// The rule that every object of a strict schema is closed (the root of a tool without
    /// parameters may be the empty object: the provider reads it as "no arguments").
    fn open_object(&mut self, s: &Schema<'_>, path: &Path<'_>, root: bool) {
        let open_root_ok = root && s.properties().is_empty();
        let closed = matches!(
            s.get(Keyword::AdditionalProperties).map(|e| e.value),
            Some(Value::Schema(x)) if x.boolean == Some(false)
        );
        if !closed && !open_root_ok {
            let m = "strict mode requires `\"additionalProperties\": false` on every object";
            self.push(s.at, "additionalProperties", path, m.into());
        }
    }

    /// Debug builds walk a subtree skipped by [`clean_features`] anyway and insist it holds no
    /// finding, so a pass that left a node's features short fails the tests.
    fn assert_clean(&mut self, s: &Schema<'_>, path: &Path<'_>, depth: usize, root: bool) {
        if cfg!(debug_assertions) {
            let (clean, before) = (self.clean.take(), self.out.len());
            self.schema(s, path, depth, root, false);
            self.clean = clean;
            debug_assert_eq!(self.out.len(), before, "a subtree skipped as clean has findings");
        }
    }

    /// Whether [`Walk::keyword`] may find `e`: under [`clean_features`] only a keyword whose
    /// feature the profile changes, or a type array, can be one it does not keep. Debug builds
    /// check every other keyword anyway and insist it is no finding.
    #[inline]
    fn may_find(&mut self, e: &Entry<'_>) -> bool {
        let Some(changed) = self.clean else { return true };
        let may = match e.keyword.feature() {
            Some(f) => changed.contains(f),
            None => matches!(e.value, Value::Type(t) if t.array),
        };
        if cfg!(debug_assertions) && !may {
            let before = self.out.len();
            self.keyword(e, &Path::ROOT);
            debug_assert_eq!(self.out.len(), before, "a keyword passed over has a finding");
        }
        may
    }

    /// A keyword the profile does not keep as it is.
    fn keyword(&mut self, e: &Entry<'_>, path: &Path<'_>) {
        // Kept as the policy pass keeps it (a leftover `rewrite` of refs or of a JSON Schema
        // `nullable` annotation stays).
        let action = crate::passes::keeps(
            self.profile.action_for(e.keyword, &e.value),
            e.keyword,
            self.profile,
        );
        let kept = action == Action::Keep;
        let type_array = matches!(e.value, Value::Type(t) if t.array)
            && !self.profile.features().contains(crate::ir::SchemaFeature::TypeArray);
        if !kept || type_array {
            let name = crate::passes::entry_name(e);
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
        path: &Path<'_>,
        object: bool,
        root: bool,
        rules: Option<StrictRules>,
    ) {
        let has = |k| s.get(k).is_some();
        // `None`: a node the strict pass walked, which it typed, gave items and all-required;
        // it closed the node too, unless `additionalProperties` had a shape the pass does not
        // read, so that is checked below either way.
        if rules.is_some() && !s.declares_kind() {
            let m =
                "strict mode needs a `type` (or `anyOf`, `$ref`, `enum`, `const`) on every schema";
            self.push(s.at, "type", path, m.into());
        }
        if rules.is_some() && s.is_array_without_items() {
            self.push(s.at, "items", path, "strict mode needs `items` on every array".into());
        }
        if has(Keyword::Ref)
            && !self.profile.holds_ref_siblings()
            && s.keywords.iter().any(|e| !crate::passes::entry_name(e).starts_with('$'))
        {
            let m =
                format!("{} takes no keywords beside `$ref` in strict mode", self.target.name());
            self.push(s.at, "$ref", path, m);
        }
        if !object {
            return;
        }
        self.open_object(s, path, root);
        if rules.is_some_and(|r| r.all_required) {
            let required = s.required();
            for p in s.properties().iter().filter(|p| !required.contains(&p.name)) {
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

fn boolean_feature() -> crate::ir::SchemaFeature {
    crate::ir::SchemaFeature::BooleanSchema
}

/// A keyword's name with a static lifetime (an unknown keyword is reported as such).
fn name_static(e: &Entry<'_>) -> &'static str {
    match e.value {
        Value::Unknown(_) => "unknown keyword",
        _ => e.keyword.as_str(),
    }
}

/// Whether a property's schema counts as a union-typed parameter.
pub(crate) fn is_union(s: &Schema<'_>) -> bool {
    // Either shows in the node's features (which hold its children's too): most properties
    // have neither, and are answered without a scan.
    const UNION: FeatureSet = FeatureSet::of(&[SchemaFeature::AnyOf, SchemaFeature::TypeArray]);
    if s.features.intersection(UNION).is_empty() {
        debug_assert!(!scan_union(s), "a union without its features");
        return false;
    }
    scan_union(s)
}

/// [`is_union`] read from the keywords: an `anyOf`, or more than one type in the first `type`
/// (as `Schema::types` reads it), in one scan.
fn scan_union(s: &Schema<'_>) -> bool {
    let mut typed = false;
    for e in s.keywords {
        match (e.keyword, e.value) {
            (Keyword::AnyOf, _) => return true,
            (Keyword::Type, value) if !typed => {
                typed = true;
                if matches!(value, Value::Type(t) if t.list.len() > 1) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The characters an enum or const value counts toward the schema size limit.
pub(crate) fn json_len(v: &crate::ir::Json<'_>) -> usize {
    match v {
        crate::ir::Json::String(s) | crate::ir::Json::Number(s) => s.len(),
        _ => 0,
    }
}

/// Whether the tool carries a `cache_control` breakpoint (Anthropic).
fn has_cache_control(tool: &Tool<'_>) -> bool {
    tool.members.iter().any(|m| m.role == Role::Meta && m.key == "cache_control")
}
