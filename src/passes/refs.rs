//! Refs pass: local `$ref`s resolved, and inlined for targets without refs.
//!
//! Resolution is local only: `#`, `#/$defs/…`, `#/definitions/…` or any JSON pointer into the
//! schema (RFC 6901 `~0`/`~1` and percent-escapes decoded). Nothing is ever fetched: a `$ref`
//! to another document is reported and, for targets without refs, left out.
//!
//! For a target whose profile marks `$ref` as `rewrite` (Gemini `parameters`):
//! - each `$ref` is replaced by its target, the sibling keywords merged into it (or, when they
//!   do not merge, kept beside a one-branch `anyOf` holding the target: the same meaning);
//! - a definition is expanded once and shared in the arena however often it is used, and an
//!   expansion budget ([`crate::Limits::max_ref_expansion`], nodes written) turns a reference
//!   bomb into a typed error instead of exponential output;
//! - a recursive `$ref` is unrolled [`crate::Options::unroll_recursion`] times, then its
//!   innermost use accepts anything (a `warning`);
//! - `$defs` and `definitions` are removed once inlined.
//!
//! For a target that keeps refs but takes no siblings beside one (Gemini `parametersJsonSchema`)
//! the siblings stay and the `$ref` moves into a one-branch `anyOf`. When converting between
//! formats, dangling and external refs are reported for every target.
//!
//! Report pointers inside an inlined definition point at the definition in the source.

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Entry, FeatureSet, Keyword, Prop, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Severity};

use super::merge::{NoMerge, merge};
use super::{CowSlice, NodeRule, PassCx, arena_error, entry_name, features_of, rewrite};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let refs =
        FeatureSet::of(&[SchemaFeature::Ref, SchemaFeature::Defs, SchemaFeature::Definitions]);
    if tool.features().intersection(refs).is_empty() {
        return Ok(());
    }
    let inline = cx.profile.action(Keyword::Ref) == Action::Rewrite;
    let wrap = !cx.profile.holds_ref_siblings();
    let check = !cx.same_format;
    if !inline && !wrap && !check {
        return Ok(());
    }
    // Each schema is its own document: `#` is its root.
    let t = *tool;
    for (schema, pointer, input) in
        [(t.input, t.input_pointer, true), (t.output, "/outputSchema", false)]
    {
        let Some(schema) = schema else { continue };
        let base = Path::ROOT;
        let path = base.push(Seg::Raw(pointer));
        let new = if inline {
            Some(inline_all(&schema, pointer, &path, &t, cx)?)
        } else {
            let root = cx.arena.try_alloc(schema).map_err(|_| arena_error(&path, cx))?;
            rewrite(&schema, &path, &t, cx, &mut Keep { wrap, check, root })?
        };
        match (new, input) {
            (Some(s), true) => tool.input = Some(s),
            (Some(s), false) => tool.output = Some(s),
            (None, _) => {}
        }
    }
    Ok(())
}

/// Where a `$ref` leads.
pub(crate) enum Target<'a> {
    Found(&'a Schema<'a>),
    /// A local pointer that names nothing (or a non-schema value), or an `$anchor` name.
    Dangling,
    /// Another document: never fetched.
    External,
}

/// Resolves `reference` against the schema document `root` (held in the arena).
pub(crate) fn resolve<'a>(root: &'a Schema<'a>, reference: &str) -> Target<'a> {
    let Some(fragment) = reference.strip_prefix('#') else { return Target::External };
    let Some(decoded) = percent_decode(fragment) else { return Target::Dangling };
    if decoded.is_empty() {
        return Target::Found(root);
    }
    let Some(rest) = decoded.strip_prefix('/') else { return Target::Dangling };
    let mut cur = root;
    let mut tokens = rest.split('/');
    while let Some(token) = tokens.next() {
        let Some(e) = cur.keywords.iter().find(|e| token_is(token, entry_name(e))) else {
            return Target::Dangling;
        };
        cur = match e.value {
            Value::Schema(s) => s,
            Value::Props(props) => {
                let Some(name) = tokens.next() else { return Target::Dangling };
                match props.iter().find(|p| token_is(name, p.name)) {
                    Some(p) => &p.schema,
                    None => return Target::Dangling,
                }
            }
            Value::Schemas(list) => {
                let index = tokens.next().and_then(|i| i.parse::<usize>().ok());
                match index.and_then(|i| list.get(i)) {
                    Some(s) => s,
                    None => return Target::Dangling,
                }
            }
            _ => return Target::Dangling,
        };
    }
    Target::Found(cur)
}

/// Whether the RFC 6901 reference token `raw` (`~1` for `/`, `~0` for `~`) names `name`;
/// compared as it is read, so resolving a reference allocates nothing.
fn token_is(raw: &str, name: &str) -> bool {
    if !raw.contains('~') {
        return raw == name;
    }
    let mut want = name.chars();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        let c = match (c, c == '~') {
            (_, true) => match chars.next() {
                Some('1') => '/',
                Some('0') => '~',
                _ => return false,
            },
            (c, false) => c,
        };
        if want.next() != Some(c) {
            return false;
        }
    }
    want.next().is_none()
}

/// `%XX` escapes decoded (a URI fragment); `None` when they do not form UTF-8. Borrowed when
/// there is none, which is nearly always.
pub(crate) fn percent_decode(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !s.contains('%') {
        return Some(std::borrow::Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| b.get(j).and_then(|h| (*h as char).to_digit(16));
        match (c, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().map(std::borrow::Cow::Owned)
}

fn ref_of<'a>(s: &Schema<'a>) -> Option<(&'a Entry<'a>, &'a str)> {
    let e = s.get(Keyword::Ref)?;
    match e.value {
        Value::Str(r) => Some((e, r)),
        _ => None,
    }
}

/// Inlines every `$ref` of the schema document `root`.
fn inline_all<'a>(
    root: &Schema<'a>,
    root_pointer: &'static str,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let root: &'a Schema<'a> = cx.arena.try_alloc(*root).map_err(|_| arena_error(path, cx))?;
    let mut inliner = Inliner {
        root,
        root_pointer,
        memo: Vec::new(),
        stack: vec![addr(root)],
        budget: cx.options.limits.max_ref_expansion as u64,
        max_depth: cx.options.limits.max_depth,
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
    root: &'a Schema<'a>,
    root_pointer: &'static str,
    /// Expanded definitions by address: the schema and its size in nodes.
    memo: Vec<(usize, Schema<'a>, u64)>,
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
        let mut size: u64 = 1;
        let mut cut = false;
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let child = path.push(Seg::Key(entry_name(e)));
            let value = match e.value {
                _ if matches!(e.keyword, Keyword::Defs | Keyword::Definitions) => {
                    cx.record(
                        tool,
                        e.at,
                        Severity::Info,
                        Code::RefInlined,
                        entry_name(e),
                        child.to_pointer(),
                        format!(
                            "{} has no refs; definitions are inlined where used and `{}` removed",
                            cx.profile.name(),
                            entry_name(e)
                        ),
                    );
                    out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
                    continue;
                }
                Value::Schema(c) => {
                    let (n, k, c2) = self.expand(c, &child, depth + 1, tool, cx)?;
                    size = size.saturating_add(k);
                    cut |= c2;
                    if std::ptr::eq(n.keywords, c.keywords) && n.boolean == c.boolean {
                        None
                    } else {
                        Some(Value::Schema(
                            cx.arena.try_alloc(n).map_err(|_| arena_error(path, cx))?,
                        ))
                    }
                }
                Value::Schemas(list) => {
                    let mut l = CowSlice::new(list);
                    for (j, c) in list.iter().enumerate() {
                        let (n, k, c2) =
                            self.expand(c, &child.push(Seg::Index(j)), depth + 1, tool, cx)?;
                        size = size.saturating_add(k);
                        cut |= c2;
                        if std::ptr::eq(n.keywords, c.keywords) && n.boolean == c.boolean {
                            l.same(j);
                        } else {
                            l.changed(j, n, cx.arena).map_err(|()| arena_error(path, cx))?;
                        }
                    }
                    l.finish().map(Value::Schemas)
                }
                Value::Props(props) => {
                    let mut l = CowSlice::new(props);
                    for (j, p) in props.iter().enumerate() {
                        let (n, k, c2) = self.expand(
                            &p.schema,
                            &child.push(Seg::Key(p.name)),
                            depth + 1,
                            tool,
                            cx,
                        )?;
                        size = size.saturating_add(k);
                        cut |= c2;
                        if std::ptr::eq(n.keywords, p.schema.keywords)
                            && n.boolean == p.schema.boolean
                        {
                            l.same(j);
                        } else {
                            l.changed(j, Prop { schema: n, ..*p }, cx.arena)
                                .map_err(|()| arena_error(path, cx))?;
                        }
                    }
                    l.finish().map(Value::Props)
                }
                _ => None,
            };
            match value {
                Some(v) => out
                    .changed(i, Entry { value: v, ..*e }, cx.arena)
                    .map_err(|()| arena_error(path, cx))?,
                None => out.same(i),
            }
        }
        let node = match out.finish() {
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
                cx.record(
                    tool,
                    entry.at,
                    Severity::Warning,
                    Code::RefInlined,
                    "$ref",
                    path.push(Seg::Key("$ref")).to_pointer(),
                    format!("the target of `$ref` \"{reference}\" does not combine with its sibling keywords in a form {} holds; the siblings are kept, the target is dropped", cx.profile.name()),
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
        let found = match resolve(self.root, reference) {
            Target::Found(t) => t,
            unresolved => {
                let outcome = match unresolved {
                    Target::External => {
                        format!("{name} has no refs, so it is left out (any value passes there)")
                    }
                    _ => "left out (any value passes there)".to_owned(),
                };
                unresolved_ref(&unresolved, reference, entry, pointer, &outcome, tool, cx);
                return Ok((None, 0, false));
            }
        };
        let key = addr(found);
        let on_stack = self.stack.iter().filter(|&&a| a == key).count();
        if on_stack > 0 && on_stack > cx.options.unroll_recursion as usize {
            cx.record(tool, entry.at, Severity::Warning, Code::RefRecursive, "$ref", pointer,
                format!("`$ref` \"{reference}\" is recursive and {name} has no refs; unrolled {} time(s), then any value passes at the innermost use", cx.options.unroll_recursion));
            return Ok((None, 0, true));
        }
        let (expanded, size, cut) = match self.memo.iter().find(|m| m.0 == key) {
            Some(&(_, s, n)) => (s, n, false),
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
                    self.memo.push((key, s, n));
                }
                (s, n, cut)
            }
        };
        // One use alone over the budget stops the expansion here, before the sizes of
        // enclosing definitions multiply it further.
        if size > self.budget {
            return Err(budget_error(&path.push(Seg::Key("$ref")), self.budget, cx));
        }
        cx.record(
            tool,
            entry.at,
            Severity::Info,
            Code::RefInlined,
            "$ref",
            pointer,
            format!("{name} has no refs; `$ref` \"{reference}\" inlined (same meaning)"),
        );
        Ok((Some(expanded), size, cut))
    }
}

/// Reports a `$ref` that leads nowhere in the document; `outcome` says what the output holds.
#[cold]
fn unresolved_ref(
    target: &Target<'_>,
    reference: &str,
    entry: &Entry<'_>,
    pointer: String,
    outcome: &str,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) {
    let (code, why) = match target {
        Target::External => (Code::RefExternal, "names another document, which is never fetched"),
        _ => (Code::RefDangling, "does not resolve in this schema"),
    };
    let message = format!("`$ref` \"{reference}\" {why}; {outcome}");
    cx.record(tool, entry.at, Severity::Warning, code, "$ref", pointer, message);
}

/// Nodes in a schema (a `$ref` counts as one).
fn count(s: &Schema<'_>) -> u64 {
    let mut n: u64 = 1;
    for e in s.keywords {
        n = n.saturating_add(match e.value {
            Value::Schema(c) => count(c),
            Value::Schemas(list) => list.iter().map(count).fold(0, u64::saturating_add),
            Value::Props(props) => {
                props.iter().map(|p| count(&p.schema)).fold(0, u64::saturating_add)
            }
            _ => 0,
        });
    }
    n
}

/// For targets that keep refs: siblings moved beside a one-branch `anyOf` where the target
/// takes none, and dangling or external refs reported.
struct Keep<'a> {
    wrap: bool,
    check: bool,
    /// The schema document being walked (input or output schema).
    root: &'a Schema<'a>,
}

impl<'a> NodeRule<'a> for Keep<'a> {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[SchemaFeature::Ref])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let Some((entry, reference)) = ref_of(s) else { return Ok(None) };
        let pointer = || path.push(Seg::Key("$ref")).to_pointer();
        if self.check {
            let target = resolve(self.root, reference);
            if !matches!(target, Target::Found(_)) {
                unresolved_ref(&target, reference, entry, pointer(), "kept as written", tool, cx);
            }
        }
        let movable = |e: &&Entry<'_>| !entry_name(e).starts_with('$');
        if !self.wrap || !s.keywords.iter().any(|e| movable(&e)) {
            return Ok(None);
        }
        if s.get(Keyword::AnyOf).is_some() {
            cx.record(tool, entry.at, Severity::Warning, Code::RefInlined, "$ref", pointer(),
                format!("{} takes no keywords beside `$ref`, and this node's `anyOf` leaves no place to move it; kept as written", cx.profile.name()));
            return Ok(None);
        }
        let only_ref =
            cx.arena.try_alloc_slice_copy(&[*entry]).map_err(|_| arena_error(path, cx))?;
        let branch =
            Schema { boolean: None, keywords: only_ref, features: features_of(only_ref), at: s.at };
        let one = cx.arena.try_alloc_slice_copy(&[branch]).map_err(|_| arena_error(path, cx))?;
        let mut all: smallvec::SmallVec<[Entry<'a>; 8]> =
            s.keywords.iter().filter(|e| e.keyword != Keyword::Ref).copied().collect();
        all.push(Entry { keyword: Keyword::AnyOf, at: entry.at, value: Value::Schemas(one) });
        let keywords = cx.arena.try_alloc_slice_copy(&all).map_err(|_| arena_error(path, cx))?;
        cx.record(tool, entry.at, Severity::Info, Code::RefInlined, "$ref", pointer(),
            format!("{} takes no keywords beside `$ref`; the `$ref` moved into a one-branch `anyOf` (same meaning)", cx.profile.name()));
        Ok(Some(Schema { keywords, features: features_of(keywords), ..*s }))
    }
}
