//! Every `$ref` of a schema document replaced by its target, for a target without refs.
//!
//! A definition is expanded once and shared in the arena however often it is used; the nodes
//! inlining adds are counted against [`crate::Limits::max_ref_expansion`], so a reference bomb
//! is a typed error instead of exponential output. A recursive `$ref` is unrolled
//! [`crate::Options::unroll_recursion`] times, then its innermost use accepts anything.

use std::collections::HashMap;

use bumpalo::Bump;

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::visit::{Visit, entry_name, walk_schema};
use crate::ir::{Entry, FeatureSet, Keyword, Schema, SchemaFeature, Tool, Value, features_of};
use crate::passes::merge::{NoMerge, merge};
use crate::passes::walk::{EntryEdit, Rewrite, rewrite_entry_subschemas, rewrite_keywords};
use crate::passes::{PassCx, arena_error};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, Note, Severity};

use super::resolve::{Document, Target, percent_decode};
use super::{ref_of, unresolved_ref};

/// Inlines every `$ref` of the schema document `root`.
pub(super) fn inline_all<'a>(
    root: &Schema<'a>,
    root_pointer: &'static str,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let root: &'a Schema<'a> = cx.arena.try_alloc(*root).map_err(|_| arena_error(path, cx))?;
    let mut inliner = Inliner {
        document: Document::new(root),
        root_pointer,
        memo: HashMap::new(),
        stack: vec![addr(root)],
        budget: cx.options.limits.max_ref_expansion as u64,
        max_depth: cx.options.limits.depth_limit(),
    };
    let (s, size, _) = inliner.expand(root, path, 0, tool, cx)?;
    // The budget counts the nodes inlining added to what the author wrote.
    if size.saturating_sub(count(root)) > inliner.budget {
        return Err(budget_error(path, inliner.budget, cx));
    }
    Ok(s)
}

#[cold]
fn budget_error(path: &Path<'_>, budget: u64, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target.name(),
        Direction::FromCanonical,
        path.to_pointer(),
        ErrorKind::RefExpansion { limit: usize::try_from(budget).unwrap_or(usize::MAX) },
    )
}

fn addr(s: &Schema<'_>) -> usize {
    std::ptr::from_ref(s) as usize
}

struct Inliner<'a> {
    /// The document, its definitions indexed.
    document: Document<'a>,
    root_pointer: &'static str,
    /// Expanded definitions by address: the schema and its size in nodes (a map: a document
    /// may have 100,000 of them).
    memo: HashMap<usize, (Schema<'a>, u64)>,
    /// Definitions being expanded (recursion shows as an address already here).
    stack: Vec<usize>,
    budget: u64,
    max_depth: usize,
}

/// An expanded schema, its size in nodes, and whether a recursion was cut inside it (such an
/// expansion depends on where it was reached from, so it is not shared).
type Expanded<'a> = (Schema<'a>, u64, bool);

impl<'a> Inliner<'a> {
    fn expand(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        depth: usize,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Expanded<'a>, ConversionError> {
        if depth > self.max_depth {
            return Err(ConversionError::new(
                cx.target.name(),
                Direction::FromCanonical,
                path.to_pointer(),
                ErrorKind::DepthLimit { limit: self.max_depth },
            ));
        }
        if s.boolean.is_some() {
            return Ok((*s, 1, false));
        }
        let refs =
            FeatureSet::of(&[SchemaFeature::Ref, SchemaFeature::Defs, SchemaFeature::Definitions]);
        if s.features.intersection(refs).is_empty() {
            return Ok((*s, count(s), false));
        }
        // Children first (the definitions themselves are dropped: they are reached by `$ref`).
        let mut below =
            Subschemas { inliner: &mut *self, tool, cx: &mut *cx, node: path, size: 1, cut: false };
        let keywords = rewrite_keywords(&mut below, s, path, depth + 1)?;
        let (mut size, mut cut) = (below.size, below.cut);
        let node = match keywords {
            Some(keywords) => Schema { keywords, features: features_of(keywords), ..*s },
            None => *s,
        };
        let Some((entry, reference)) = ref_of(&node) else { return Ok((node, size, cut)) };
        let (target, k, c2) = self.target(entry, reference, path, depth, tool, cx)?;
        cut |= c2;
        let siblings: smallvec::SmallVec<[Entry<'a>; 8]> =
            node.keywords.iter().filter(|e| e.keyword != Keyword::Ref).copied().collect();
        let Some(target) = target else {
            // Dangling, external or a cut recursion: the siblings alone (reported).
            let keywords =
                cx.arena.try_alloc_slice_copy(&siblings).map_err(|_| arena_error(path, cx))?;
            return Ok((Schema { keywords, features: features_of(keywords), ..node }, size, cut));
        };
        size = size.saturating_add(k);
        if siblings.is_empty() {
            return Ok((Schema { at: node.at, ..target }, size, cut));
        }
        let keywords =
            cx.arena.try_alloc_slice_copy(&siblings).map_err(|_| arena_error(path, cx))?;
        let rest = Schema { keywords, features: features_of(keywords), ..node };
        match merge(&rest, &target, cx.arena) {
            Ok(m) => Ok((m, size, cut)),
            Err(NoMerge::Arena) => Err(arena_error(path, cx)),
            Err(NoMerge::Conflict) if rest.get(Keyword::AnyOf).is_none() => {
                // `{siblings…, anyOf: [target]}` accepts what both accept: the same meaning.
                let one =
                    cx.arena.try_alloc_slice_copy(&[target]).map_err(|_| arena_error(path, cx))?;
                let any =
                    Entry { keyword: Keyword::AnyOf, at: entry.at, value: Value::Schemas(one) };
                let mut all = siblings.clone();
                all.push(any);
                let keywords =
                    cx.arena.try_alloc_slice_copy(&all).map_err(|_| arena_error(path, cx))?;
                Ok((Schema { keywords, features: features_of(keywords), ..node }, size, cut))
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
                        severity: Severity::Warning,
                        code: Code::RefInlined,
                        effect: Effect::Widens,
                        arguments: true,
                        feature: "$ref",
                        pointer,
                        message,
                    },
                );
                Ok((rest, size, cut))
            }
        }
    }

    /// The expanded target of a `$ref`, or `None` (reported) when it cannot be inlined.
    fn target(
        &mut self,
        entry: &Entry<'a>,
        reference: &str,
        path: &Path<'_>,
        depth: usize,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<(Option<Schema<'a>>, u64, bool), ConversionError> {
        let pointer = path.push(Seg::Key("$ref")).to_pointer();
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
                unresolved_ref(&unresolved, reference, entry, pointer, outcome, tool, cx);
                return Ok((None, 0, false));
            }
        };
        let key = addr(found);
        let on_stack = self.stack.iter().filter(|&&a| a == key).count();
        if on_stack > 0 && on_stack > cx.options.unroll_recursion as usize {
            let message = format!(
                "`$ref` \"{reference}\" is recursive and {name} has no refs; unrolled {} time(s), then any value passes at the innermost use",
                cx.options.unroll_recursion
            );
            cx.record(
                tool,
                entry.at,
                Note {
                    severity: Severity::Warning,
                    code: Code::RefRecursive,
                    effect: Effect::Widens,
                    arguments: true,
                    feature: "$ref",
                    pointer,
                    message,
                },
            );
            return Ok((None, 0, true));
        }
        let (expanded, size, cut) = match self.memo.get(&key) {
            Some(&(s, n)) => (s, n, false),
            None => {
                self.stack.push(key);
                let def_pointer =
                    reference.strip_prefix('#').and_then(percent_decode).unwrap_or_default();
                let root = Path::ROOT;
                let base = root.push(Seg::Raw(self.root_pointer));
                let def_path = base.push(Seg::Raw(&def_pointer));
                let result = self.expand(found, &def_path, depth + 1, tool, cx);
                self.stack.pop();
                let (s, n, cut) = result?;
                if !cut {
                    self.memo.insert(key, (s, n));
                }
                (s, n, cut)
            }
        };
        // One use alone over the budget stops the expansion here, before the sizes of
        // enclosing definitions multiply it further.
        if size > self.budget {
            return Err(budget_error(&path.push(Seg::Key("$ref")), self.budget, cx));
        }
        let message = format!("{name} has no refs; `$ref` \"{reference}\" inlined (same meaning)");
        cx.record(
            tool,
            entry.at,
            Note {
                severity: Severity::Info,
                code: Code::RefInlined,
                effect: Effect::None,
                arguments: true,
                feature: "$ref",
                pointer,
                message,
            },
        );
        Ok((Some(expanded), size, cut))
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
        let (new, size, cut) = self.inliner.expand(s, path, depth, self.tool, self.cx)?;
        self.size = self.size.saturating_add(size);
        self.cut |= cut;
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
                severity: Severity::Info,
                code: Code::RefInlined,
                effect: Effect::None,
                arguments: true,
                feature: entry_name(e),
                pointer,
                message,
            },
        );
        Ok(EntryEdit::Remove)
    }
}

/// Nodes in a schema (a `$ref` counts as one).
fn count(s: &Schema<'_>) -> u64 {
    let mut nodes = NodeCount(0);
    nodes.visit_schema(s, &Path::ROOT, ());
    nodes.0
}

/// The visitor behind [`count`].
struct NodeCount(u64);

impl<'a> Visit<'a> for NodeCount {
    type Scope = ();

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, (): ()) {
        self.0 = self.0.saturating_add(1);
        walk_schema(self, s, path, ());
    }
}
