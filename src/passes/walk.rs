//! The copy-on-write traversal of a schema tree, for the passes that rewrite one: the form of
//! [`crate::ir::visit`] that returns a new node where something changed (oxc's `VisitMut`,
//! but nodes are frozen in the arena, so a change is a copy and an unchanged subtree is shared
//! as it is).
//!
//! [`Rewrite`] is the traversal: each pass's walker implements it, and the `rewrite_*`
//! functions go through a node's keywords and subschemas, copying a slice into the arena at
//! its first change only ([`CowSlice`]), so a walk that changes nothing allocates nothing.
//! [`NodeRule`] is the common case on top of it: a rewrite of single nodes applied bottom-up.

use bumpalo::Bump;

use crate::error::ConversionError;
use crate::ir::visit::{entry_name, holds_subschemas};
use crate::ir::{Entry, FeatureSet, Prop, Schema, Tool, Value, features_of};
use crate::pointer::{Path, Seg};

use crate::passes::cow::CowSlice;

use crate::passes::cx::PassCx;

use crate::passes::node::arena_error;

/// A copy-on-write walk over a schema tree.
pub(crate) trait Rewrite<'a> {
    /// What a node hands down to its subschemas; `()` for a walker that needs nothing.
    type Scope: Copy;
    /// Why a walk stops.
    type Error;

    /// The arena the copies go into.
    fn arena(&self) -> &'a Bump;

    /// The error for an arena that is full while a copy is made at `path`.
    fn arena_error(&self, path: &Path<'_>) -> Self::Error;

    /// Whether to rewrite the subschema `s` at all: one that is not entered is kept as it is,
    /// without its path being built.
    #[inline]
    fn enters(&self, s: &Schema<'a>) -> bool {
        let _ = s;
        true
    }

    /// The new form of the subschema `s` at `path`; `None` when it is unchanged.
    fn rewrite_schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        scope: Self::Scope,
    ) -> Result<Option<Schema<'a>>, Self::Error>;

    /// What becomes of the keyword `e` of the node at `path`. The default rewrites its
    /// subschemas with `scope`.
    #[inline]
    fn rewrite_entry(
        &mut self,
        e: &Entry<'a>,
        path: &Path<'_>,
        scope: Self::Scope,
    ) -> Result<EntryEdit<'a>, Self::Error> {
        rewrite_entry_subschemas(self, e, path, scope)
    }
}

/// What becomes of one keyword of a node.
pub(crate) enum EntryEdit<'a> {
    /// Kept as it is.
    Keep,
    /// Kept with this value.
    Replace(Value<'a>),
    /// Left out.
    Remove,
}

/// The keywords of `s` (at `path`) once each is rewritten by [`Rewrite::rewrite_entry`] with
/// `scope`, in order; `None` when none changed.
pub(crate) fn rewrite_keywords<'a, R: Rewrite<'a> + ?Sized>(
    r: &mut R,
    s: &Schema<'a>,
    path: &Path<'_>,
    scope: R::Scope,
) -> Result<Option<&'a [Entry<'a>]>, R::Error> {
    let mut entries = CowSlice::new(s.keywords);
    for (i, e) in s.keywords.iter().enumerate() {
        match r.rewrite_entry(e, path, scope)? {
            EntryEdit::Keep => entries.same(i),
            EntryEdit::Replace(value) => entries
                .changed(i, Entry { value, ..*e }, r.arena())
                .map_err(|()| r.arena_error(path))?,
            EntryEdit::Remove => entries.removed(i, r.arena()).map_err(|()| r.arena_error(path))?,
        }
    }
    Ok(entries.finish())
}

/// Whether the keyword value `value` holds a subschema `r` enters (a list always may: its
/// members are asked one by one).
#[inline]
fn holds_entered<'a, R: Rewrite<'a> + ?Sized>(r: &R, value: &Value<'a>) -> bool {
    match value {
        Value::Schema(s) => r.enters(s),
        v => holds_subschemas(v),
    }
}

/// [`Rewrite::rewrite_entry`]'s default: the subschemas of the keyword `e` of the node at
/// `path` rewritten with `scope`, under the keyword's path.
#[inline]
pub(crate) fn rewrite_entry_subschemas<'a, R: Rewrite<'a> + ?Sized>(
    r: &mut R,
    e: &Entry<'a>,
    path: &Path<'_>,
    scope: R::Scope,
) -> Result<EntryEdit<'a>, R::Error> {
    if !holds_entered(r, &e.value) {
        return Ok(EntryEdit::Keep);
    }
    let child = path.push(Seg::Key(entry_name(e)));
    Ok(match rewrite_subschemas(r, &e.value, &child, scope)? {
        Some(value) => EntryEdit::Replace(value),
        None => EntryEdit::Keep,
    })
}

/// The keyword value `value` (at `path`) with each subschema it holds rewritten with `scope`:
/// its schema, each schema of its list (at its index) or each named schema (at its name).
/// `None` when none changed.
pub(crate) fn rewrite_subschemas<'a, R: Rewrite<'a> + ?Sized>(
    r: &mut R,
    value: &Value<'a>,
    path: &Path<'_>,
    scope: R::Scope,
) -> Result<Option<Value<'a>>, R::Error> {
    Ok(match *value {
        Value::Schema(s) if !r.enters(s) => None,
        Value::Schema(s) => match r.rewrite_schema(s, path, scope)? {
            Some(new) => {
                Some(Value::Schema(r.arena().try_alloc(new).map_err(|_| r.arena_error(path))?))
            }
            None => None,
        },
        Value::Schemas(list) => {
            let mut out = CowSlice::new(list);
            for (i, s) in list.iter().enumerate() {
                if !r.enters(s) {
                    out.same(i);
                    continue;
                }
                match r.rewrite_schema(s, &path.push(Seg::Index(i)), scope)? {
                    Some(new) => {
                        out.changed(i, new, r.arena()).map_err(|()| r.arena_error(path))?
                    }
                    None => out.same(i),
                }
            }
            out.finish().map(Value::Schemas)
        }
        Value::Props(props) => {
            let mut out = CowSlice::new(props);
            for (i, p) in props.iter().enumerate() {
                if !r.enters(&p.schema) {
                    out.same(i);
                    continue;
                }
                match r.rewrite_schema(&p.schema, &path.push(Seg::Key(p.name)), scope)? {
                    Some(new) => out
                        .changed(i, Prop { schema: new, ..*p }, r.arena())
                        .map_err(|()| r.arena_error(path))?,
                    None => out.same(i),
                }
            }
            out.finish().map(Value::Props)
        }
        _ => None,
    })
}

/// A rewrite of single schema nodes, applied bottom-up over a whole schema by [`rewrite`].
pub(crate) trait NodeRule<'a> {
    /// Features whose presence in a subtree means the rule may change something there; other
    /// subtrees are skipped with one bitset test and shared as they are.
    fn triggers(&self) -> FeatureSet;

    /// Whether to visit every node regardless of [`NodeRule::triggers`] (a rule about
    /// something no feature bit records, such as property keys).
    fn every_node(&self) -> bool {
        false
    }

    /// Whether to rewrite the subschemas under this keyword before the node. A rule that will
    /// drop or describe the keyword says no, so it sees (and reports) the source as written.
    fn descend(&self, entry: &Entry<'a>, cx: &PassCx<'a, '_>) -> bool {
        let _ = (entry, cx);
        true
    }

    /// Called with each node the walk enters, as it is before anything below it is rewritten,
    /// before [`NodeRule::node`] is called for it (once, after its subschemas): a rule that
    /// needs to know what changed below a node notes it here.
    #[inline]
    fn enter(&mut self, source: &Schema<'a>) {
        let _ = source;
    }

    /// Rewrites one object node whose children are already rewritten; `None` when unchanged.
    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError>;
}

/// Applies `rule` to the input and output schemas of `tool`.
pub(crate) fn rewrite_tool<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
    rule: &mut impl NodeRule<'a>,
) -> Result<(), ConversionError> {
    if !rule.every_node() && tool.features().intersection(rule.triggers()).is_empty() {
        return Ok(());
    }
    // The schemas are taken out and put back: the tool is read, not copied, meanwhile.
    let root = Path::ROOT;
    if let Some(input) = tool.input {
        let path = root.push(Seg::Raw(tool.input_pointer));
        if let Some(s) = rewrite(&input, &path, tool, cx, rule)? {
            tool.input = Some(s);
        }
    }
    if let Some(output) = tool.output {
        let path = root.push(Seg::Raw("/outputSchema"));
        if let Some(s) = rewrite(&output, &path, tool, cx, rule)? {
            tool.output = Some(s);
        }
    }
    Ok(())
}

/// Rewrites `s` bottom-up with `rule`; `None` when nothing below `s` changed.
pub(crate) fn rewrite<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
    rule: &mut impl NodeRule<'a>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    RuleWalk { rule, tool, cx }.rewrite_schema(s, path, ())
}

/// The [`Rewrite`] that applies a [`NodeRule`] to each node, after the node's subschemas.
struct RuleWalk<'r, 'a, 'c, R> {
    rule: &'r mut R,
    tool: &'r Tool<'r>,
    cx: &'r mut PassCx<'a, 'c>,
}

impl<'a, R: NodeRule<'a>> Rewrite<'a> for RuleWalk<'_, 'a, '_, R> {
    type Scope = ();
    type Error = ConversionError;

    #[inline]
    fn arena(&self) -> &'a Bump {
        self.cx.arena
    }

    fn arena_error(&self, path: &Path<'_>) -> ConversionError {
        arena_error(path, self.cx)
    }

    /// Checked by the walk before it builds a child's path and calls, as most subschemas are
    /// skipped.
    #[inline]
    fn enters(&self, s: &Schema<'a>) -> bool {
        s.boolean.is_none()
            && (self.rule.every_node() || !s.features.intersection(self.rule.triggers()).is_empty())
    }

    fn rewrite_schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        (): (),
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        if !self.enters(s) {
            return Ok(None);
        }
        self.rule.enter(s);
        let node = match rewrite_keywords(self, s, path, ())? {
            Some(keywords) => Schema { keywords, features: features_of(keywords), ..*s },
            None => *s,
        };
        match self.rule.node(&node, path, self.tool, self.cx)? {
            Some(new) => Ok(Some(Schema { features: features_of(new.keywords), ..new })),
            None if node.keywords.as_ptr() != s.keywords.as_ptr() => Ok(Some(node)),
            None => Ok(None),
        }
    }

    /// A leaf has nothing to descend into, nor has a subschema the rule skips: the rule is
    /// not asked (for the policy, asking is a profile lookup per keyword).
    #[inline]
    fn rewrite_entry(
        &mut self,
        e: &Entry<'a>,
        path: &Path<'_>,
        (): (),
    ) -> Result<EntryEdit<'a>, ConversionError> {
        if !holds_entered(self, &e.value) || !self.rule.descend(e, self.cx) {
            return Ok(EntryEdit::Keep);
        }
        rewrite_entry_subschemas(self, e, path, ())
    }
}
