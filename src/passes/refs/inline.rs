//! Every `$ref` of a schema document replaced by its target, for a target without refs.
//!
//! A definition is expanded once and shared in the arena however often it is used; the nodes
//! inlining adds are counted against [`crate::Limits::max_ref_expansion`], so a reference bomb
//! is a typed error instead of exponential output. A recursive `$ref` is unrolled
//! [`crate::Options::unroll_recursion`] times, then its innermost use accepts anything.

use std::borrow::Cow;
use std::collections::HashMap;

use bumpalo::Bump;

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::visit::{Visit, entry_name, walk_schema};
use crate::ir::{Entry, FeatureSet, Keyword, Schema, SchemaFeature, Tool, Value, features_of};
use crate::passes::cx::PassCx;
use crate::passes::merge::{NoMerge, merge};
use crate::passes::node::arena_error;
use crate::passes::walk::{EntryEdit, Rewrite, rewrite_entry_subschemas, rewrite_keywords};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, EntryKind, Note};

use super::{ref_of, unresolved_ref};
use crate::ir::refs::{Document, Target, percent_decode};

/// Inlines every `$ref` of the schema document `root`.
pub(super) fn inline_all<'a>(
    root: &Schema<'a>,
    root_pointer: &'static str,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let root: &'a Schema<'a> = cx.arena.try_alloc(*root).map_err(|_| arena_error(path, cx))?;
    let budget = cx.options().limits.max_ref_expansion as u64;
    let written = count(root).0;
    let mut inliner = Inliner {
        document: Document::new(root),
        root_pointer,
        memo: HashMap::new(),
        stack: HashMap::new(),
        budget,
        allowance: written.saturating_add(budget),
        work: 0,
        max_depth: cx.options().limits.depth_limit(),
    };
    inliner.enter(addr(root));
    let out = inliner.expand(root, path, 0, tool, cx)?;
    // The budget counts the nodes inlining added to what the author wrote.
    if out.size.saturating_sub(written) > inliner.budget {
        return Err(budget_error(path, inliner.budget, cx));
    }
    Ok(out.schema)
}

#[cold]
fn budget_error(path: &Path<'_>, budget: u64, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target().name(),
        Direction::FromCanonical,
        path.to_pointer(),
        ErrorKind::RefExpansion { limit: usize::try_from(budget).unwrap_or(usize::MAX) },
    )
}

#[cold]
fn depth_error(path: &Path<'_>, limit: usize, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target().name(),
        Direction::FromCanonical,
        path.to_pointer(),
        ErrorKind::DepthLimit { limit },
    )
}

fn addr(s: &Schema<'_>) -> usize {
    std::ptr::from_ref(s) as usize
}

struct Inliner<'a> {
    /// The document, its lists indexed as refs go through them.
    document: Document<'a>,
    root_pointer: &'static str,
    /// Expanded definitions by address: the schema, its size in nodes and its height (a map:
    /// a document may have 100,000 of them).
    memo: HashMap<usize, (Schema<'a>, u64, usize)>,
    /// Definitions being expanded, each with how many times it is (recursion shows as an
    /// address already here; a map, as a chain of refs may be as long as the document).
    stack: HashMap<usize, usize>,
    budget: u64,
    /// The most nodes expanding may go through: the author's and [`Inliner::budget`] more.
    /// Every node gone through is written at least once, so past this the budget is broken
    /// in any case; counting as it goes stops a definition re-expanded at every use (one a
    /// recursion is cut in) before that costs the uses times its size.
    allowance: u64,
    /// The nodes gone through so far.
    work: u64,
    max_depth: usize,
}

/// An expanded schema.
#[derive(Clone, Copy)]
struct Expanded<'a> {
    schema: Schema<'a>,
    /// Its size in nodes (a `$ref` counts as one, besides what it leads to).
    size: u64,
    /// Whether a recursion was cut inside it (such an expansion depends on where it was
    /// reached from, so it is not shared).
    cut: bool,
    /// Its levels of nesting, itself included: written at depth d, its deepest node is at
    /// d + height - 1.
    height: usize,
}

/// A node whose subschemas are expanded and whose own `$ref` is still to be followed.
struct Pending<'a> {
    node: Expanded<'a>,
    entry: &'a Entry<'a>,
    reference: &'a str,
}

/// What expanding a node's subschemas left: the node done (it has no `$ref` of its own), or
/// its `$ref` to follow.
enum Head<'a> {
    Done(Expanded<'a>),
    Ref(Pending<'a>),
}

/// Where a `$ref` leads, before its target is expanded.
enum Lookup<'a> {
    /// Nothing to inline (reported): the target dangles or is external (`false`), or a
    /// recursion was cut there (`true`).
    Unresolved(bool),
    /// The target's expansion, made before.
    Known(Expanded<'a>),
    /// The target, to expand (at the address it is known by).
    Expand(&'a Schema<'a>, usize),
}

/// A `$ref` followed into a target being expanded: what is left to do once it is.
struct Hop<'a> {
    pending: Pending<'a>,
    /// Where the node with the `$ref` is: in the definition this decoded pointer names, or,
    /// for the first, at the path [`Inliner::expand`] was given.
    at: Option<Cow<'a, str>>,
    key: usize,
}

/// Runs `f` with the path of a node: `given`, or that of the definition the decoded pointer
/// `at` names in the schema document at `root_pointer`.
fn at_path<R>(
    root_pointer: &str,
    given: &Path<'_>,
    at: Option<&str>,
    f: impl FnOnce(&Path<'_>) -> R,
) -> R {
    match at {
        None => f(given),
        Some(pointer) => {
            let root = Path::ROOT;
            let base = root.push(Seg::Raw(root_pointer));
            f(&base.push(Seg::Raw(pointer)))
        }
    }
}

impl<'a> Inliner<'a> {
    fn enter(&mut self, key: usize) {
        *self.stack.entry(key).or_insert(0) += 1;
    }

    fn leave(&mut self, key: usize) {
        if let Some(n) = self.stack.get_mut(&key) {
            *n = n.saturating_sub(1);
        }
    }

    /// Counts `nodes` gone through; an error once past the allowance.
    fn spend(&mut self, nodes: u64, cx: &PassCx<'_, '_>) -> Result<(), ConversionError> {
        self.work = self.work.saturating_add(nodes);
        if self.work > self.allowance {
            let root = Path::ROOT;
            return Err(budget_error(&root.push(Seg::Raw(self.root_pointer)), self.budget, cx));
        }
        Ok(())
    }

    /// `s` (at `path`, `depth` levels down in the written schema) with every `$ref` in it
    /// replaced by its target.
    ///
    /// A `$ref` whose target has a `$ref` of its own at its top (an alias, or a chain of
    /// them) is followed in a loop here, not by recursion: the target is written where the
    /// `$ref` is, no deeper, so such a chain may be as long as the document has definitions.
    /// Depth is that of the written result, refs followed or not.
    fn expand(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        depth: usize,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Expanded<'a>, ConversionError> {
        let rp = self.root_pointer;
        let mut hops: Vec<Hop<'a>> = Vec::new();
        let mut node = *s;
        let mut at: Option<Cow<'a, str>> = None;
        let mut done = loop {
            let head = at_path(rp, path, at.as_deref(), |p| self.head(&node, p, depth, tool, cx))?;
            let pending = match head {
                Head::Done(out) => break out,
                Head::Ref(pending) => pending,
            };
            let (entry, reference) = (pending.entry, pending.reference);
            let lookup =
                at_path(rp, path, at.as_deref(), |p| self.lookup(entry, reference, p, tool, cx));
            let target = match lookup {
                Lookup::Unresolved(cut) => Err(cut),
                Lookup::Known(target) => Ok(target),
                Lookup::Expand(found, key) => {
                    self.enter(key);
                    let def = reference.strip_prefix('#').and_then(percent_decode);
                    hops.push(Hop { pending, at: at.take(), key });
                    at = Some(def.unwrap_or_default());
                    node = *found;
                    continue;
                }
            };
            break at_path(rp, path, at.as_deref(), |p| {
                self.finish(pending, target, p, depth, tool, cx)
            })?;
        };
        while let Some(hop) = hops.pop() {
            self.leave(hop.key);
            if !done.cut {
                self.memo.insert(hop.key, (done.schema, done.size, done.height));
            }
            let Hop { pending, at, .. } = hop;
            done = at_path(rp, path, at.as_deref(), |p| {
                self.finish(pending, Ok(done), p, depth, tool, cx)
            })?;
        }
        Ok(done)
    }

    /// `s` with its subschemas expanded; its own `$ref`, if any, left to follow.
    fn head(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        depth: usize,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Head<'a>, ConversionError> {
        if depth > self.max_depth {
            return Err(depth_error(path, self.max_depth, cx));
        }
        if s.boolean.is_some() {
            self.spend(1, cx)?;
            return Ok(Head::Done(Expanded { schema: *s, size: 1, cut: false, height: 1 }));
        }
        let refs =
            FeatureSet::of(&[SchemaFeature::Ref, SchemaFeature::Defs, SchemaFeature::Definitions]);
        if s.features.intersection(refs).is_empty() {
            let (size, height) = count(s);
            self.spend(size, cx)?;
            if depth + height > self.max_depth + 1 {
                return Err(depth_error(path, self.max_depth, cx));
            }
            return Ok(Head::Done(Expanded { schema: *s, size, cut: false, height }));
        }
        self.spend(1, cx)?;
        // Children first (the definitions themselves are dropped: they are reached by `$ref`).
        let mut below = Subschemas {
            inliner: &mut *self,
            tool,
            cx: &mut *cx,
            node: path,
            size: 1,
            cut: false,
            height: 0,
        };
        let keywords = rewrite_keywords(&mut below, s, path, depth + 1)?;
        let (size, cut, height) = (below.size, below.cut, below.height + 1);
        let schema = match keywords {
            Some(keywords) => Schema { keywords, features: features_of(keywords), ..*s },
            None => *s,
        };
        let node = Expanded { schema, size, cut, height };
        Ok(match ref_of(&schema) {
            Some((entry, reference)) => Head::Ref(Pending { node, entry, reference }),
            None => Head::Done(node),
        })
    }

    /// Where the `$ref` `entry` (of the node at `path`) leads: reported and `Unresolved` when
    /// it cannot be inlined.
    fn lookup(
        &mut self,
        entry: &Entry<'a>,
        reference: &str,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Lookup<'a> {
        let name = cx.profile.name();
        let found = match self.document.resolve(reference) {
            Target::Found(t) => t,
            unresolved => {
                let outcome = match unresolved {
                    Target::External => {
                        format!("{name} has no refs, so it is left out (any value passes there)")
                    }
                    _ => "left out (any value passes there)".to_owned(),
                };
                let outcome = (outcome.as_str(), Effect::Widens);
                let pointer = path.push(Seg::Key("$ref")).to_pointer();
                unresolved_ref(&unresolved, reference, entry, pointer, outcome, tool, cx);
                return Lookup::Unresolved(false);
            }
        };
        let key = addr(found);
        let on_stack = self.stack.get(&key).copied().unwrap_or(0);
        if on_stack > 0 && on_stack > cx.options().unroll_recursion as usize {
            let message = format!(
                "`$ref` \"{reference}\" is recursive and {name} has no refs; unrolled {} time(s), then any value passes at the innermost use",
                cx.options().unroll_recursion
            );
            cx.record(
                tool,
                entry.at,
                Note {
                    kind: EntryKind::arguments(Code::RefRecursive, Effect::Widens),
                    feature: "$ref",
                    pointer: path.push(Seg::Key("$ref")).to_pointer(),
                    message,
                },
            );
            return Lookup::Unresolved(true);
        }
        match self.memo.get(&key) {
            Some(&(schema, size, height)) => {
                Lookup::Known(Expanded { schema, size, cut: false, height })
            }
            None => Lookup::Expand(found, key),
        }
    }

    /// The node of `pending` (at `path`, `depth` levels down) with its `$ref` replaced by the
    /// expanded `target` (or, where there is none, `Err` with whether a recursion was cut,
    /// left out): the siblings merged into the target, or kept beside it.
    fn finish(
        &mut self,
        pending: Pending<'a>,
        target: Result<Expanded<'a>, bool>,
        path: &Path<'_>,
        depth: usize,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Expanded<'a>, ConversionError> {
        let Pending {
            node: Expanded { schema: node, mut size, mut cut, height },
            entry,
            reference,
        } = pending;
        let target = match target {
            Ok(target) => {
                // One use alone over the budget stops the expansion here, before the sizes
                // of enclosing definitions multiply it further.
                if target.size > self.budget {
                    return Err(budget_error(&path.push(Seg::Key("$ref")), self.budget, cx));
                }
                let message = format!(
                    "{} has no refs; `$ref` \"{reference}\" inlined (same meaning)",
                    cx.profile.name()
                );
                cx.record(
                    tool,
                    entry.at,
                    Note {
                        kind: EntryKind::arguments(Code::RefInlined, Effect::None),
                        feature: "$ref",
                        pointer: path.push(Seg::Key("$ref")).to_pointer(),
                        message,
                    },
                );
                cut |= target.cut;
                Some(target)
            }
            Err(c) => {
                cut |= c;
                None
            }
        };
        let siblings: smallvec::SmallVec<[Entry<'a>; 8]> =
            node.keywords.iter().filter(|e| e.keyword != Keyword::Ref).copied().collect();
        let Some(target) = target else {
            // Dangling, external or a cut recursion: the siblings alone (reported).
            let keywords =
                cx.arena.try_alloc_slice_copy(&siblings).map_err(|_| arena_error(path, cx))?;
            let schema = Schema { keywords, features: features_of(keywords), ..node };
            return Ok(Expanded { schema, size, cut, height });
        };
        size = size.saturating_add(target.size);
        // The target is written where the `$ref` is; merged, its subschemas and the siblings'
        // are merged level by level, so no deeper than the deeper of the two.
        let out = |schema: Schema<'a>, height: usize| {
            if depth + height > self.max_depth + 1 {
                return Err(depth_error(path, self.max_depth, cx));
            }
            Ok(Expanded { schema, size, cut, height })
        };
        if siblings.is_empty() {
            return out(Schema { at: node.at, ..target.schema }, target.height);
        }
        let keywords =
            cx.arena.try_alloc_slice_copy(&siblings).map_err(|_| arena_error(path, cx))?;
        let rest = Schema { keywords, features: features_of(keywords), ..node };
        match merge(&rest, &target.schema, cx.arena) {
            Ok(m) => out(m, height.max(target.height)),
            Err(NoMerge::Arena) => Err(arena_error(path, cx)),
            Err(NoMerge::Conflict) if rest.get(Keyword::AnyOf).is_none() => {
                // `{siblings…, anyOf: [target]}` accepts what both accept: the same meaning.
                let one = cx
                    .arena
                    .try_alloc_slice_copy(&[target.schema])
                    .map_err(|_| arena_error(path, cx))?;
                let any =
                    Entry { keyword: Keyword::AnyOf, at: entry.at, value: Value::Schemas(one) };
                let mut all = siblings.clone();
                all.push(any);
                let keywords =
                    cx.arena.try_alloc_slice_copy(&all).map_err(|_| arena_error(path, cx))?;
                let schema = Schema { keywords, features: features_of(keywords), ..node };
                out(schema, height.max(target.height + 1))
            }
            Err(NoMerge::Conflict) => {
                let pointer = path.push(Seg::Key("$ref")).to_pointer();
                let message = format!(
                    "the target of `$ref` \"{reference}\" does not combine with its sibling keywords in a form {} holds; the siblings are kept, the target is dropped",
                    cx.profile.name()
                );
                // What the target constrained no longer is.
                cx.record(
                    tool,
                    entry.at,
                    Note {
                        kind: EntryKind::arguments(Code::RefInlined, Effect::Widens),
                        feature: "$ref",
                        pointer,
                        message,
                    },
                );
                Ok(Expanded { schema: rest, size, cut, height })
            }
        }
    }
}

/// The expansion of one node's subschemas (its definitions dropped), with the sizes and cuts
/// of what they expand to summed for the node. The scope is the subschemas' depth.
struct Subschemas<'i, 'a, 'c, 'p> {
    inliner: &'i mut Inliner<'a>,
    tool: &'i Tool<'i>,
    cx: &'i mut PassCx<'a, 'c>,
    /// The node's path: a copy that fills the arena is reported there, for its subschemas as
    /// for its keywords.
    node: &'i Path<'p>,
    /// The node's size so far, itself included.
    size: u64,
    /// Whether a recursion was cut in a subschema.
    cut: bool,
    /// The greatest height of a subschema.
    height: usize,
}

impl<'a> Rewrite<'a> for Subschemas<'_, 'a, '_, '_> {
    type Scope = usize;
    type Error = ConversionError;

    fn arena(&self) -> &'a Bump {
        self.cx.arena
    }

    fn arena_error(&self, _at: &Path<'_>) -> ConversionError {
        arena_error(self.node, self.cx)
    }

    fn rewrite_schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let out = self.inliner.expand(s, path, depth, self.tool, self.cx)?;
        self.size = self.size.saturating_add(out.size);
        self.cut |= out.cut;
        self.height = self.height.max(out.height);
        let new = out.schema;
        let same = std::ptr::eq(new.keywords, s.keywords) && new.boolean == s.boolean;
        Ok((!same).then_some(new))
    }

    fn rewrite_entry(
        &mut self,
        e: &Entry<'a>,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<EntryEdit<'a>, ConversionError> {
        if !matches!(e.keyword, Keyword::Defs | Keyword::Definitions) {
            return rewrite_entry_subschemas(self, e, path, depth);
        }
        let cx = &mut *self.cx;
        let pointer = path.push(Seg::Key(entry_name(e))).to_pointer();
        let message = format!(
            "{} has no refs; definitions are inlined where used and `{}` removed",
            cx.profile.name(),
            entry_name(e)
        );
        cx.record(
            self.tool,
            e.at,
            Note {
                kind: EntryKind::arguments(Code::RefInlined, Effect::None),
                feature: entry_name(e),
                pointer,
                message,
            },
        );
        Ok(EntryEdit::Remove)
    }
}

/// Nodes in a schema (a `$ref` counts as one), and its height (levels, itself included).
fn count(s: &Schema<'_>) -> (u64, usize) {
    let mut nodes = NodeCount { nodes: 0, height: 0 };
    nodes.visit_schema(s, &Path::ROOT, 1);
    (nodes.nodes, nodes.height)
}

/// The visitor behind [`count`]; the scope is a node's level.
struct NodeCount {
    nodes: u64,
    height: usize,
}

impl<'a> Visit<'a> for NodeCount {
    type Scope = usize;

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, level: usize) {
        self.nodes = self.nodes.saturating_add(1);
        self.height = self.height.max(level);
        walk_schema(self, s, path, level + 1);
    }
}
