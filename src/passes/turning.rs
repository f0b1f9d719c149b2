//! Which definitions a `$ref` may bring under a `oneOf`, a `not` or an `if`: a change inside
//! such a definition acts there too, where a subschema that accepts more can make its node
//! accept less (and the other way round), so the report says `changes` for it
//! ([`super::cx::PassCx::record`]).
//!
//! Asked only for an entry that widens or narrows inside a definition of a tool that refers
//! and holds one of those keywords; answered once per tool, from its input schema: every
//! `$ref` found under one of them, then every `$ref` inside a place those lead to, until none
//! is added.

use crate::ir::visit::{Visit, entry_name, walk_subschemas};
use crate::ir::{Keyword, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};

use crate::ir::refs::percent_decode;

/// Most `$ref`s a tool's answer is worked out for: past it every definition counts as
/// reached, which can only make an entry say `changes` where `widens` or `narrows` was
/// exact (and keeps the work per tool below the square of a few hundred).
const MOST_REFS: usize = 256;

/// The answer for the last tool asked about.
#[derive(Default)]
pub(crate) struct Turning {
    /// The tool it is for, by source position.
    tool: Option<u32>,
    /// Every place in the input schema (a pointer from its root) a `$ref` under a `oneOf`,
    /// `not` or `if` leads to, directly or through definitions.
    targets: Vec<String>,
    /// Every place counts: a `$ref` that cannot be followed here (an anchor, a relative or
    /// external one), or too many `$ref`s.
    all: bool,
}

impl Turning {
    /// Whether the entry at `pointer` (in `tool`) is inside a definition a `$ref` may bring
    /// under a `oneOf`, `not` or `if`.
    pub(crate) fn turns(&mut self, tool: &Tool<'_>, pointer: &str) -> bool {
        // Most tools hold no `$ref`, or none of the three keywords: their features tell.
        let f = tool.features();
        let reaches = [SchemaFeature::OneOf, SchemaFeature::Not, SchemaFeature::If];
        if !f.contains(SchemaFeature::Ref) || !reaches.into_iter().any(|k| f.contains(k)) {
            return false;
        }
        let (Some(root), Some(place)) = (&tool.input, pointer.strip_prefix(tool.input_pointer))
        else {
            return false;
        };
        if !place.split('/').any(|seg| seg == "$defs" || seg == "definitions") {
            return false;
        }
        if self.tool != Some(tool.at) {
            self.work_out(root);
            self.tool = Some(tool.at);
        }
        self.all || self.targets.iter().any(|t| within(place, t))
    }

    fn work_out(&mut self, root: &Schema<'_>) {
        self.targets.clear();
        let mut refs = Refs { found: Vec::new(), all: false };
        refs.visit_schema(root, &Path::ROOT, false);
        self.all = refs.all || refs.found.len() > MOST_REFS;
        if self.all {
            return;
        }
        let mut found = refs.found;
        // A `$ref` inside a place a reached `$ref` leads to is reached too: each reached one
        // is asked about once, so the work is at most the square of the count.
        let mut queue: Vec<usize> =
            (0..found.len()).filter(|&i| found.get(i).is_some_and(|r| r.under)).collect();
        while let Some(i) = queue.pop() {
            let Some(target) = found.get(i).map(|r| r.target.clone()) else { continue };
            for (j, r) in found.iter_mut().enumerate() {
                if !r.under && within(&r.from, &target) {
                    r.under = true;
                    queue.push(j);
                }
            }
        }
        self.targets.extend(found.into_iter().filter(|r| r.under).map(|r| r.target));
    }
}

/// Whether `place` is `target` or below it (both pointers from the schema's root).
fn within(place: &str, target: &str) -> bool {
    place.strip_prefix(target).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A `$ref` of the schema: where it leads, where it stands, and whether a `oneOf`, `not` or
/// `if` is above it.
struct Found {
    target: String,
    from: String,
    under: bool,
}

/// Collects the `$ref`s of a schema, each with whether it stands under a `oneOf`, `not` or `if`.
struct Refs {
    found: Vec<Found>,
    all: bool,
}

impl<'a> Visit<'a> for Refs {
    /// Whether a `oneOf`, `not` or `if` is above the node.
    type Scope = bool;

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, under: bool) {
        for e in s.keywords {
            if e.keyword == Keyword::Ref {
                let target = match e.value {
                    Value::Str(r) => r.strip_prefix('#'),
                    _ => None,
                };
                match target.and_then(percent_decode) {
                    Some(t) if t.is_empty() || t.starts_with('/') => self.found.push(Found {
                        target: t.into_owned(),
                        from: path.to_pointer(),
                        under,
                    }),
                    _ => self.all = true,
                }
            }
            let under = under || matches!(e.keyword, Keyword::OneOf | Keyword::Not | Keyword::If);
            walk_subschemas(self, e, &path.push(Seg::Key(entry_name(e))), under);
        }
    }
}
