//! Strict pass: a tool schema the provider's strict mode accepts (OpenAI Structured Outputs,
//! Anthropic strict tool use), or the reason it cannot be one.
//!
//! Input: a tool after the other passes, run with the target's strict profile (so keywords
//! outside the strict subset are already described or dropped). Output: every object closed
//! with `additionalProperties: false`; for OpenAI every property required, an optional one made
//! nullable (a type array, or `anyOf` with `null` for refs, enums and consts) and marked on its
//! [`Prop`] so the inverse map drops the nulls the model sends for it. A schema that would
//! accept something different once strict (an open object, a map, an untyped or item-less
//! array, a recursive ref where the provider has none) or that breaks a size limit is not
//! changed: the pass returns why, and the caller emits the tool non-strict or leaves it out.
//!
//! Sources: see `profile.rs` (the strict profiles and their limits).

use smallvec::SmallVec;

use crate::check::{Counts, count, is_union, json_len};
use crate::error::ConversionError;
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Prop, Schema, SchemaFeature, Tool, Types, Value,
};
use crate::pointer::{Path, Seg};
use crate::profile::{Limit, StrictRules};
use crate::report::{Code, Reuse, Severity, With};

use super::refs::{Target, resolve};
use super::{CowSlice, PassCx, arena_error, entry_name, features_of};
use crate::scan::{same_short, same_text};

/// Why a tool cannot be strict: the place (RFC 6901 pointer into the source tool) and the
/// reason, for the report.
#[derive(Debug)]
pub(crate) struct NotStrict {
    pub pointer: String,
    pub reason: String,
    /// Position in the source, for report order.
    pub at: u32,
}

/// Running totals of the strict tools of one catalog (one request), for per-request limits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CatalogCounts {
    pub strict_tools: usize,
    pub optional: usize,
    pub unions: usize,
}

enum Stop {
    Not(NotStrict),
    Err(ConversionError),
}

impl From<ConversionError> for Stop {
    fn from(e: ConversionError) -> Self {
        Stop::Err(e)
    }
}

/// Makes `tool` strict under `rules`; `Ok(Err(_))` says why it cannot be.
pub(super) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
    rules: StrictRules,
) -> Result<Result<(), NotStrict>, ConversionError> {
    let base = Path::ROOT;
    let path = base.push(Seg::Raw(tool.input_pointer));
    let input = match tool.input {
        Some(s) => s,
        // A function without parameters: strict needs the empty closed object.
        None => object_node(&[], tool.at, &path, cx)?,
    };
    // Without a `$ref` anywhere (the feature bits hold the children's) there is no cycle to
    // look for, nor a copy of the root in the arena for the search to resolve refs in.
    if !rules.recursion && input.features.contains(SchemaFeature::Ref) {
        let root = cx.arena.try_alloc(input).map_err(|_| arena_error(&path, cx))?;
        if let Some(at) = recursion(root, &path) {
            return Ok(Err(at));
        }
    }
    debug_assert!(
        rules.recursion
            || input.features.contains(SchemaFeature::Ref)
            || recursion(&input, &path).is_none()
    );
    let root = &input;
    // Only the per-request limits read the optional and union-typed parameters, and those
    // are the costly counts (a `required` lookup and a keyword scan per property).
    let limits = cx.profile.provider_limits();
    let wants =
        Wants { optional: limits.optional_params.is_some(), unions: limits.union_params.is_some() };
    let mut walk = Walk {
        cx,
        tool: &*tool,
        rules,
        widened: false,
        closed: 0,
        wants,
        counts: Counts::default(),
        closes_all: true,
    };
    let new = match walk.schema(root, &path, true, 0) {
        Ok(s) => s,
        Err(Stop::Not(n)) => return Ok(Err(n)),
        Err(Stop::Err(e)) => return Err(e),
    };
    let (widened, closed, counts, closes_all) =
        (walk.widened, walk.closed, walk.counts, walk.closes_all);
    debug_assert_eq!(counts, wants.of(crate::check::measure(&new)), "the strict walk's counts");
    if let Some(n) = over_limits(&counts, tool, &path, cx) {
        return Ok(Err(n));
    }
    if closed > 0 {
        // The same pointer and note for many tools: written once per conversion.
        let pointer = match cx.written.root {
            Some((input, span)) if same_text(input, tool.input_pointer) => Reuse::Written(span),
            _ => Reuse::New(With(|out: &mut String| path.write_pointer(out))),
        };
        let message = match cx.written.closed.get(closed).copied().flatten() {
            Some(span) => Reuse::Written(span),
            None => Reuse::New(With(|out: &mut String| closed_note(out, closed))),
        };
        let (pointer, message) = cx.record(
            tool,
            root.at,
            Severity::Info,
            Code::ObjectClosed,
            "additionalProperties",
            pointer,
            message,
        );
        // Shared or not, the texts are the ones this tool's entry has (checked without
        // writing them again: warm conversions allocate nothing).
        #[cfg(debug_assertions)]
        {
            let note = cx.report.text_at(message);
            let count =
                note.strip_prefix(CLOSED_NOTE.0).and_then(|n| n.strip_suffix(CLOSED_NOTE.1));
            debug_assert_eq!(count.and_then(|n| n.parse().ok()), Some(closed), "a shared note");
            debug_assert_eq!(cx.report.text_at(pointer), tool.input_pointer, "a shared pointer");
        }
        cx.written.root = Some((tool.input_pointer, pointer));
        if let Some(slot) = cx.written.closed.get_mut(closed) {
            *slot = Some(message);
        }
    }
    cx.catalog.strict_tools += 1;
    cx.catalog.optional += counts.optional;
    cx.catalog.unions += counts.unions;
    tool.input = Some(new);
    tool.strict = Some(true);
    tool.strict_closed = closes_all;
    tool.remapped |= widened;
    Ok(Ok(()))
}

/// The strict pass's note on closed objects, around their count.
const CLOSED_NOTE: (&str, &str) = (
    "strict mode closes every object: ",
    " that admitted undeclared keys now has \"additionalProperties\": false (the model only sends declared keys)",
);

/// The strict pass's note on the `closed` objects of a tool.
fn closed_note(out: &mut String, closed: usize) {
    out.push_str(CLOSED_NOTE.0);
    push_count(out, closed);
    out.push_str(CLOSED_NOTE.1);
}

/// What the value of keyword `k` counts toward the size limits, as
/// [`crate::check::measure`] counts it: an `enum` array its values and their characters, a
/// `const` its characters.
#[inline]
fn count_value(k: Keyword, v: &Json<'_>, c: &mut Counts) {
    match (k, v) {
        (Keyword::Enum, Json::Array(items)) => {
            c.enum_values += items.len();
            c.chars += items.iter().map(json_len).sum::<usize>();
        }
        (Keyword::Const, v) => c.chars += json_len(v),
        _ => {}
    }
}

/// Appends `n` in decimal, as `{n}` formats it, without the formatting machinery (one
/// report entry per closed tool).
fn push_count(out: &mut String, n: usize) {
    // One digit, as most counts here are: one push, no buffer.
    if let Ok(d) = u8::try_from(n)
        && d < 10
    {
        out.push(char::from(b'0' + d));
        return;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            // A digit: `n % 10` is below 10.
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    // ASCII digits: each byte is its own `char`, so no UTF-8 check is needed.
    out.extend(digits.get(at..).unwrap_or_default().iter().map(|&d| char::from(d)));
}

/// The first per-tool or per-request limit `counts` breaks.
fn over_limits(
    counts: &Counts,
    tool: &Tool<'_>,
    path: &Path<'_>,
    cx: &PassCx<'_, '_>,
) -> Option<NotStrict> {
    let limits = cx.profile.provider_limits();
    let catalog = cx.catalog;
    // Every count against its limit first, with nothing else: a tool rarely breaks one.
    let within = |limit: &Option<Limit>, n: usize| limit.as_ref().is_none_or(|l| n <= l.max);
    if within(&limits.properties, counts.properties)
        && within(&limits.depth, counts.depth)
        && within(&limits.enum_values, counts.enum_values)
        && within(&limits.schema_chars, counts.chars)
        && within(&limits.strict_tools, catalog.strict_tools + 1)
        && within(&limits.optional_params, catalog.optional + counts.optional)
        && within(&limits.union_params, catalog.unions + counts.unions)
    {
        return None;
    }
    // Checked one after the other, not gathered first: most targets have few of these limits.
    let over = |limit: Option<Limit>, n: usize, what: &str| {
        let limit = limit?;
        (n > limit.max).then(|| {
            // Written by hand: past a per-request limit, every further tool of the catalog
            // falls back here.
            let mut reason = String::with_capacity(what.len() + limit.source.len() + 48);
            push_count(&mut reason, n);
            reason.push(' ');
            reason.push_str(what);
            reason.push_str(" is over the limit of ");
            push_count(&mut reason, limit.max);
            reason.push_str(" (");
            reason.push_str(limit.source);
            reason.push(')');
            NotStrict { pointer: path.to_pointer(), reason, at: tool.at }
        })
    };
    over(limits.properties, counts.properties, "object properties in one strict schema")
        .or_else(|| over(limits.depth, counts.depth, "levels of object nesting"))
        .or_else(|| {
            over(limits.enum_values, counts.enum_values, "enum values in one strict schema")
        })
        .or_else(|| {
            over(limits.schema_chars, counts.chars, "characters of names and enum/const values")
        })
        .or_else(|| {
            over(limits.strict_tools, catalog.strict_tools + 1, "strict tools in one request")
        })
        .or_else(|| {
            over(
                limits.optional_params,
                catalog.optional + counts.optional,
                "optional parameters across the strict tools of one request",
            )
        })
        .or_else(|| {
            over(
                limits.union_params,
                catalog.unions + counts.unions,
                "union-typed parameters across the strict tools of one request",
            )
        })
}

/// What the strict walk asks of a node before its keywords, read in one scan of them (the
/// [`Schema`] methods of the same names scan once each).
struct Shape<'a> {
    /// [`Schema::declares_kind`].
    declares_kind: bool,
    /// [`Schema::types`].
    types: Option<Types<'a>>,
    properties: bool,
    items: bool,
    /// A keyword holds a subschema (or subschemas).
    subschemas: bool,
    /// An `enum` or a `const`, which count toward the size limits.
    values: bool,
}

impl<'a> Shape<'a> {
    fn of(s: &Schema<'a>) -> Shape<'a> {
        let mut shape = Shape {
            declares_kind: false,
            types: None,
            properties: false,
            items: false,
            subschemas: false,
            values: false,
        };
        let mut typed = false;
        for e in s.keywords {
            shape.subschemas |=
                matches!(e.value, Value::Schema(_) | Value::Schemas(_) | Value::Props(_));
            match e.keyword {
                Keyword::Type => {
                    shape.declares_kind = true;
                    // The first `type`, as `Schema::types` reads it.
                    if !typed {
                        typed = true;
                        if let Value::Type(t) = e.value {
                            shape.types = Some(t);
                        }
                    }
                }
                Keyword::AnyOf | Keyword::Ref => shape.declares_kind = true,
                Keyword::Enum | Keyword::Const => {
                    shape.declares_kind = true;
                    shape.values = true;
                }
                Keyword::Properties => shape.properties = true,
                Keyword::Items => shape.items = true,
                _ => {}
            }
        }
        shape
    }

    /// [`Schema::is_object_like`].
    fn object(&self) -> bool {
        self.types.map_or(self.properties, |t| t.contains(JsonType::Object))
    }

    /// [`Schema::is_array_without_items`].
    fn array_without_items(&self) -> bool {
        self.types.is_some_and(|t| t.contains(JsonType::Array)) && !self.items
    }
}

/// Which of the costly counts the profile's limits read.
#[derive(Clone, Copy)]
struct Wants {
    optional: bool,
    unions: bool,
}

impl Wants {
    /// `c` without the counts that are not wanted (what the walk leaves at zero).
    fn of(self, c: Counts) -> Counts {
        Counts {
            optional: if self.optional { c.optional } else { 0 },
            unions: if self.unions { c.unions } else { 0 },
            ..c
        }
    }
}

struct Walk<'a, 'c, 'x> {
    cx: &'x mut PassCx<'a, 'c>,
    /// The tool (read only: the walk's result is written into it afterwards).
    tool: &'x Tool<'a>,
    rules: StrictRules,
    widened: bool,
    /// Objects that admitted undeclared keys and are now closed.
    closed: usize,
    wants: Wants,
    /// What the strict schema counts toward the size limits, as [`crate::check::measure`]
    /// would count it (less what `wants` leaves out), gathered on the way rather than in a
    /// second walk.
    counts: Counts,
    /// No subschema so far sits where the walk does not descend, and no `additionalProperties`
    /// is other than a schema: every object of the result is closed ([`Tool::strict_closed`]).
    closes_all: bool,
}

impl<'a> Walk<'a, '_, '_> {
    fn not(&self, path: &Path<'_>, at: u32, reason: impl Into<String>) -> Stop {
        Stop::Not(NotStrict { pointer: path.to_pointer(), reason: reason.into(), at })
    }

    /// The strict form of `s` (a copy only where something changed), at object nesting `depth`
    /// (as [`crate::check::measure`] counts it) above it.
    ///
    /// Inlined where it is called: most nodes are leaves, done here without the call.
    #[inline(always)]
    fn schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        depth: usize,
    ) -> Result<Schema<'a>, Stop> {
        if let Some(b) = s.boolean {
            return Err(self.boolean(path, s.at, b));
        }
        let shape = Shape::of(s);
        debug_assert_eq!(
            (shape.declares_kind, shape.object(), shape.array_without_items()),
            (s.declares_kind(), s.is_object_like(), s.is_array_without_items())
        );
        if !shape.declares_kind {
            return Err(self.not(
                path,
                s.at,
                "a schema without `type` accepts any value; strict mode needs one",
            ));
        }
        let object = shape.object();
        // The pass changes no node's `type` nor whether it has `properties`: the strict node
        // is as object-like as `s`.
        let depth = depth + usize::from(object);
        self.counts.depth = self.counts.depth.max(depth);
        if shape.array_without_items() {
            return Err(self.not(
                path,
                s.at,
                "an array without `items` accepts any element; strict mode needs an item schema",
            ));
        }
        // A leaf (most nodes): nothing to close, nothing to descend into, so nothing changes;
        // only its values count (as the loop below counts them).
        if !object && !shape.subschemas {
            if shape.values {
                self.count_values(s.keywords);
            }
            return Ok(*s);
        }
        self.node(s, path, root, depth, object)
    }

    #[cold]
    fn boolean(&self, path: &Path<'_>, at: u32, b: bool) -> Stop {
        let why = if b {
            "`true` accepts any value; strict mode needs a typed schema"
        } else {
            "`false` accepts nothing; strict mode has no such schema"
        };
        self.not(path, at, why)
    }

    /// [`Walk::schema`] of a node that is an object or holds subschemas, at nesting `depth`
    /// counting itself.
    #[inline(never)]
    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        depth: usize,
        object: bool,
    ) -> Result<Schema<'a>, Stop> {
        // The node's entries, copied once something changes (or to close an object): a leaf
        // the pass leaves as it is copies nothing.
        // Filled in place from the first change (`copying`), not built and moved into place.
        let mut out: SmallVec<[Entry<'a>; 12]> = SmallVec::new();
        let mut copying = false;
        let mut changed = false;
        // Whether the node has `properties`, whose optional and union-typed members are
        // counted once the node is closed.
        let mut has_props = false;
        // The features of what the walk changed here: it only adds keywords, branches and
        // type names, so the strict node has those of `s` and these (no rescan of the node,
        // whose `properties` may be long).
        let mut added = FeatureSet::EMPTY;
        for (i, e) in s.keywords.iter().enumerate() {
            // The child's path, made only where the walk descends (or refuses).
            let child = || path.push(Seg::Key(entry_name(e)));
            // The subschemas this walk descends into count in their own visit, any other one
            // here through `count`, as `measure` would count it in the strict schema.
            let c = &mut self.counts;
            let value = match (e.keyword, e.value) {
                (
                    Keyword::Properties | Keyword::Defs | Keyword::Definitions,
                    Value::Props(props),
                ) => {
                    c.chars += props.iter().map(|p| p.name.len()).sum::<usize>();
                    let d = if e.keyword == Keyword::Properties {
                        c.properties += props.len();
                        has_props = true;
                        depth
                    } else {
                        0
                    };
                    self.props(props, &child(), d, &mut added)?.map(Value::Props)
                }
                (Keyword::Items, Value::Schema(item)) => {
                    let child = child();
                    let new = self.schema(item, &child, false, depth)?;
                    self.changed_schema(item, new, &child, &mut added)?
                }
                (Keyword::AnyOf, Value::Schemas(list)) => {
                    self.list(list, &child(), depth, &mut added)?
                }
                (Keyword::AdditionalProperties, Value::Schema(x)) if x.boolean != Some(false) => {
                    return Err(self.not(
                        &child(),
                        e.at,
                        "`additionalProperties` admits keys the schema does not name (a map); strict mode closes every object",
                    ));
                }
                (Keyword::AdditionalProperties, Value::Schema(_)) => None,
                (Keyword::Enum | Keyword::Const, Value::Json(v)) => {
                    count_value(e.keyword, &v, c);
                    None
                }
                (_, Value::Schema(_) | Value::Schemas(_) | Value::Props(_)) => {
                    self.unwalked(e.value, depth);
                    None
                }
                _ => None,
            };
            match value {
                Some(v) => {
                    changed = true;
                    if !copying {
                        copying = true;
                        out.reserve(s.keywords.len() + 2);
                        out.extend_from_slice(s.keywords.get(..i).unwrap_or_default());
                    }
                    out.push(Entry { value: v, ..*e });
                }
                None if copying => out.push(*e),
                None => {}
            }
        }
        // Optional properties left by `close`; `None` where it did not run.
        let mut optional = None;
        if object {
            if !copying {
                out.reserve(s.keywords.len() + 2);
                out.extend_from_slice(s.keywords);
            }
            let (c, left) = self.close(&mut out, s, path, root, &mut added)?;
            changed |= c;
            optional = Some(left);
        }
        if !changed {
            if has_props {
                self.count_props(s.keywords, optional);
            }
            return Ok(*s);
        }
        if has_props {
            self.count_props(&out, optional);
        }
        let keywords = self.cx.arena.try_alloc_slice_copy(&out).map_err(|_| self.arena(path))?;
        let features = s.features.union(added);
        debug_assert_eq!(features, features_of(keywords), "the strict node's features");
        Ok(Schema { keywords, features, ..*s })
    }

    /// Counts the optional and the union-typed properties of the strict node with `keywords`,
    /// where the limits read them. `optional`: how many are optional, when [`Walk::close`]
    /// counted them. A property the pass made nullable is a union now.
    fn count_props(&mut self, keywords: &[Entry<'a>], optional: Option<usize>) {
        if !(self.wants.optional || self.wants.unions) {
            return;
        }
        let props = match keywords.iter().find(|e| e.keyword == Keyword::Properties) {
            Some(Entry { value: Value::Props(p), .. }) => *p,
            _ => &[],
        };
        if self.wants.optional {
            self.counts.optional += optional.unwrap_or_else(|| {
                let required = required_of(keywords);
                props.iter().filter(|p| !is_required(required, p.name)).count()
            });
        }
        if self.wants.unions {
            self.counts.unions += props.iter().filter(|p| is_union(&p.schema)).count();
        }
    }

    /// Counts the `enum` and `const` values among `keywords` (a leaf's).
    fn count_values(&mut self, keywords: &[Entry<'a>]) {
        for e in keywords {
            if let Value::Json(v) = &e.value {
                count_value(e.keyword, v, &mut self.counts);
            }
        }
    }

    /// A subschema value under a keyword the walk does not descend (rare in a strict
    /// schema): counted as [`crate::check::measure`] counts it, and the object closing no
    /// longer vouched for.
    #[cold]
    #[inline(never)]
    fn unwalked(&mut self, value: Value<'a>, depth: usize) {
        let c = &mut self.counts;
        match value {
            Value::Schema(x) => count(x, depth, c),
            Value::Schemas(list) => {
                for x in list {
                    count(x, depth, c);
                }
            }
            Value::Props(props) => {
                for p in props {
                    count(&p.schema, 0, c);
                }
            }
            _ => {}
        }
        self.closes_all = false;
    }

    fn arena(&self, path: &Path<'_>) -> Stop {
        Stop::Err(arena_error(path, self.cx))
    }

    fn changed_schema(
        &mut self,
        old: &Schema<'a>,
        new: Schema<'a>,
        path: &Path<'_>,
        added: &mut FeatureSet,
    ) -> Result<Option<Value<'a>>, Stop> {
        if new.keywords.as_ptr() == old.keywords.as_ptr() {
            return Ok(None);
        }
        *added = added.union(new.features);
        let s = self.cx.arena.try_alloc(new).map_err(|_| self.arena(path))?;
        Ok(Some(Value::Schema(s)))
    }

    fn list(
        &mut self,
        list: &'a [Schema<'a>],
        path: &Path<'_>,
        depth: usize,
        added: &mut FeatureSet,
    ) -> Result<Option<Value<'a>>, Stop> {
        // Copied into the arena at the first change only: most lists of a strict schema hold
        // leaves the pass leaves as they are.
        let mut out = CowSlice::new(list);
        for (i, s) in list.iter().enumerate() {
            let new = self.schema(s, &path.push(Seg::Index(i)), false, depth)?;
            if new.keywords.as_ptr() == s.keywords.as_ptr() {
                out.same(i);
            } else {
                *added = added.union(new.features);
                out.changed(i, new, self.cx.arena).map_err(|()| self.arena(path))?;
            }
        }
        Ok(out.finish().map(Value::Schemas))
    }

    fn props(
        &mut self,
        props: &'a [Prop<'a>],
        path: &Path<'_>,
        depth: usize,
        added: &mut FeatureSet,
    ) -> Result<Option<&'a [Prop<'a>]>, Stop> {
        let mut out = CowSlice::new(props);
        for (i, p) in props.iter().enumerate() {
            let new = self.schema(&p.schema, &path.push(Seg::Key(p.name)), false, depth)?;
            if new.keywords.as_ptr() == p.schema.keywords.as_ptr() {
                out.same(i);
            } else {
                *added = added.union(new.features);
                let arena = self.cx.arena;
                out.changed(i, Prop { schema: new, ..*p }, arena).map_err(|()| self.arena(path))?;
            }
        }
        Ok(out.finish())
    }

    /// Closes the object node whose (already strict) keywords are `out`: `additionalProperties:
    /// false`, and for `all_required` every property required, the optional ones widened.
    /// Returns whether `out` changed, and how many of its properties are optional now (counted
    /// only when [`Wants::optional`]).
    fn close(
        &mut self,
        out: &mut SmallVec<[Entry<'a>; 12]>,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        added: &mut FeatureSet,
    ) -> Result<(bool, usize), Stop> {
        // The first `properties`, `required` and `additionalProperties`, in one scan of the
        // node (as `find` and `Schema::required` read them; the walk changed no `required`).
        let (mut props, mut required, mut extra) = (None, None, None);
        for e in out.iter() {
            match e.keyword {
                Keyword::Properties if props.is_none() => props = Some(e.value),
                Keyword::Required if required.is_none() => required = Some(e.value),
                Keyword::AdditionalProperties if extra.is_none() => extra = Some(e.value),
                _ => {}
            }
        }
        let props = match props {
            Some(Value::Props(p)) => p,
            _ => &[],
        };
        let required = match required {
            Some(Value::Strings(r)) => r,
            _ => &[],
        };
        debug_assert_eq!(required, s.required());
        let mut changed = false;
        if let Some(value) = extra {
            // Any schema here is `false` (the walk refused the others); another shape leaves
            // the object as it is, open.
            self.closes_all &= matches!(value, Value::Schema(_));
        } else {
            if props.is_empty() && !root {
                return Err(self.not(
                    path,
                    s.at,
                    "an object without `properties` accepts any keys (an open object); strict mode closes every object",
                ));
            }
            let closed = self.cx.arena.try_alloc(Schema::bool(false, s.at));
            let closed = closed.map_err(|_| self.arena(path))?;
            out.push(Entry {
                keyword: Keyword::AdditionalProperties,
                at: s.at,
                value: Value::Schema(closed),
            });
            added.insert(SchemaFeature::AdditionalProperties);
            changed = true;
            self.closed += usize::from(!props.is_empty());
        }
        if !self.rules.all_required {
            let optional = if self.wants.optional {
                props.iter().filter(|p| !is_required(required, p.name)).count()
            } else {
                0
            };
            return Ok((changed, optional));
        }
        // From here on every property is required.
        let Some(first) = props.iter().position(|p| !is_required(required, p.name)) else {
            return Ok((changed, 0));
        };
        // Only this pass widens, and each node once: the flag marks this node's optional ones.
        debug_assert!(props.iter().all(|p| !p.widened));
        // Every property required; the optional ones accept null as well. Written in place in
        // the arena: no list on the way, however many properties there are.
        let arena = self.cx.arena;
        let new_props = arena.try_alloc_slice_copy(props).map_err(|_| self.arena(path))?;
        let optional = new_props.get_mut(first..).unwrap_or_default();
        for p in optional.iter_mut().filter(|p| !is_required(required, p.name)) {
            // Already accepting null, the schema stays, but the model now sends `null` where
            // it would have left the key out, so the inverse drops that null too.
            if let Some(schema) = nullable(&p.schema, self.cx, path)? {
                *added = added.union(schema.features);
                p.schema = schema;
            }
            p.widened = true;
        }
        let names =
            arena.try_alloc_slice_fill_copy(props.len(), "").map_err(|_| self.arena(path))?;
        for (slot, p) in names.iter_mut().zip(props) {
            *slot = p.name;
        }
        let (names, props) = (&*names, &*new_props);
        let mut has_required = false;
        for e in out.iter_mut() {
            match e.keyword {
                Keyword::Properties => e.value = Value::Props(props),
                Keyword::Required => {
                    e.value = Value::Strings(names);
                    has_required = true;
                }
                _ => {}
            }
        }
        if !has_required {
            let after = out.iter().position(|e| e.keyword == Keyword::Properties);
            let entry =
                Entry { keyword: Keyword::Required, at: s.at, value: Value::Strings(names) };
            out.insert(after.map_or(out.len(), |i| i + 1), entry);
        }
        // `all_required` is false: at least one property was optional, and is now widened.
        let mut widened = props.iter().filter(|p| p.widened).map(|p| p.name);
        {
            self.widened = true;
            let tool = self.tool;
            // The root's pointer (most tools widen there) is written once per conversion.
            let known = match self.cx.written.required {
                Some((input, span)) if root && same_text(input, tool.input_pointer) => Some(span),
                _ => None,
            };
            let pointer = match known {
                Some(span) => Reuse::Written(span),
                None => Reuse::New(With(|out: &mut String| {
                    path.push(Seg::Key("required")).write_pointer(out);
                })),
            };
            let (pointer, _) = self.cx.record(
                tool,
                s.at,
                Severity::Info,
                Code::StrictWidened,
                "required",
                pointer,
                With(|out: &mut String| {
                    out.push_str("strict mode requires every property: optional ");
                    if let Some(first) = widened.next() {
                        out.push('`');
                        out.push_str(first);
                        out.push('`');
                    }
                    for n in widened {
                        out.push_str(", `");
                        out.push_str(n);
                        out.push('`');
                    }
                    out.push_str(
                        " now required and also accept null (the inverse map drops those nulls)",
                    );
                }),
            );
            #[cfg(debug_assertions)]
            {
                let text = self.cx.report.text_at(pointer);
                debug_assert!(path.push(Seg::Key("required")).is_pointer_of(text));
            }
            if root && known.is_none() {
                self.cx.written.required = Some((tool.input_pointer, pointer));
            }
        }
        Ok((true, 0))
    }
}

/// `s` made to accept `null` too: `null` added to its type list, a branch added to its
/// `anyOf`, or (refs, enums, consts, anything else) `anyOf: [s, {"type": "null"}]`. `None` when
/// it accepts null already.
fn nullable<'a>(
    s: &Schema<'a>,
    cx: &PassCx<'a, '_>,
    path: &Path<'_>,
) -> Result<Option<Schema<'a>>, Stop> {
    let arena = cx.arena;
    let err = || Stop::Err(arena_error(path, cx));
    let n = NullShape::of(s);
    if n.accepts_null() {
        return Ok(None);
    }
    let null_schema = || -> Result<Schema<'a>, Stop> {
        let entry = Entry {
            keyword: Keyword::Type,
            at: s.at,
            value: Value::Type(Types::one(JsonType::Null)),
        };
        let keywords = arena.try_alloc_slice_copy(&[entry]).map_err(|_| err())?;
        // A one-name `type` has no feature.
        let features = FeatureSet::EMPTY;
        debug_assert_eq!(features, features_of(keywords));
        Ok(Schema { boolean: None, keywords, features, at: s.at })
    };
    if let (Some(t), None, false, None) = (n.types, n.enum_value, n.has_const, n.any_of) {
        let list: &'a [JsonType] = match t.list {
            // One name (most optional properties): a static list.
            [one] => WITH_NULL.get(*one as usize).map_or(&[], |l| l.as_slice()),
            _ => {
                let list = arena.try_alloc_slice_fill_copy(t.list.len() + 1, JsonType::Null);
                let list = list.map_err(|_| err())?;
                for (slot, ty) in list.iter_mut().zip(t.list) {
                    *slot = *ty;
                }
                list
            }
        };
        debug_assert_eq!(list.split_last(), Some((&JsonType::Null, t.list)));
        let keywords = arena.try_alloc_slice_copy(s.keywords).map_err(|_| err())?;
        for e in keywords.iter_mut().filter(|e| e.keyword == Keyword::Type) {
            e.value = Value::Type(Types { list, array: true });
        }
        let keywords = &*keywords;
        // One `type` (the rule), a list now: the type array is all that is new. A second one
        // may have had a shape with a feature of its own, which it loses.
        let features = if n.type_entries == 1 {
            s.features.union(FeatureSet::of(&[SchemaFeature::TypeArray]))
        } else {
            features_of(keywords)
        };
        debug_assert_eq!(features, features_of(keywords));
        return Ok(Some(Schema { keywords, features, ..*s }));
    }
    if let (Some(Value::Schemas(branches)), None) = (n.any_of, n.types) {
        let null = null_schema()?;
        let list = arena.try_alloc_slice_fill_copy(branches.len() + 1, null).map_err(|_| err())?;
        for (slot, b) in list.iter_mut().zip(branches) {
            *slot = *b;
        }
        let list = &*list;
        let keywords = arena.try_alloc_slice_copy(s.keywords).map_err(|_| err())?;
        for e in keywords.iter_mut().filter(|e| e.keyword == Keyword::AnyOf) {
            e.value = Value::Schemas(list);
        }
        let keywords = &*keywords;
        // The `null` branch adds no feature (unless a second `anyOf`'s branches gave way).
        let features = if n.any_of_entries == 1 { s.features } else { features_of(keywords) };
        debug_assert_eq!(features, features_of(keywords));
        return Ok(Some(Schema { keywords, features, ..*s }));
    }
    let branches = arena.try_alloc_slice_copy(&[*s, null_schema()?]).map_err(|_| err())?;
    let entry = Entry { keyword: Keyword::AnyOf, at: s.at, value: Value::Schemas(branches) };
    let keywords = arena.try_alloc_slice_copy(&[entry]).map_err(|_| err())?;
    let features = s.features.union(FeatureSet::of(&[SchemaFeature::AnyOf]));
    debug_assert_eq!(features, features_of(keywords));
    Ok(Some(Schema { boolean: None, keywords, features, at: s.at }))
}

/// `[t, null]` for each type `t`, in [`JsonType::ALL`] order.
static WITH_NULL: [[JsonType; 2]; 7] = [
    [JsonType::Null, JsonType::Null],
    [JsonType::Boolean, JsonType::Null],
    [JsonType::Object, JsonType::Null],
    [JsonType::Array, JsonType::Null],
    [JsonType::Number, JsonType::Null],
    [JsonType::String, JsonType::Null],
    [JsonType::Integer, JsonType::Null],
];

/// Whether `name` is among the `required` names. Asked for every property of every object
/// the pass closes: names are compared as words ([`same_short`]) rather than through a
/// `memcmp` call for each name of the same length.
#[inline]
fn is_required(required: &[&str], name: &str) -> bool {
    required.iter().any(|r| same_short(r.as_bytes(), name.as_bytes()))
}

/// The `required` names among `keywords`, as [`Schema::required`] reads them.
fn required_of<'a>(keywords: &[Entry<'a>]) -> &'a [&'a str] {
    match keywords.iter().find(|e| e.keyword == Keyword::Required).map(|e| e.value) {
        Some(Value::Strings(s)) => s,
        _ => &[],
    }
}

/// What [`nullable`] reads of a node, in one scan of its keywords: the first `type` (as
/// [`Schema::types`] reads it), `enum` and `anyOf` values, whether it has a `const`.
struct NullShape<'a> {
    types: Option<Types<'a>>,
    enum_value: Option<Value<'a>>,
    has_const: bool,
    any_of: Option<Value<'a>>,
    /// How many `type` and `anyOf` entries the node has (one, as a rule).
    type_entries: u8,
    any_of_entries: u8,
}

impl<'a> NullShape<'a> {
    fn of(s: &Schema<'a>) -> NullShape<'a> {
        let mut n = NullShape {
            types: None,
            enum_value: None,
            has_const: false,
            any_of: None,
            type_entries: 0,
            any_of_entries: 0,
        };
        for e in s.keywords {
            match e.keyword {
                Keyword::Type => {
                    if n.type_entries == 0
                        && let Value::Type(t) = e.value
                    {
                        n.types = Some(t);
                    }
                    n.type_entries = n.type_entries.saturating_add(1);
                }
                Keyword::Enum if n.enum_value.is_none() => n.enum_value = Some(e.value),
                Keyword::Const => n.has_const = true,
                Keyword::AnyOf => {
                    if n.any_of_entries == 0 {
                        n.any_of = Some(e.value);
                    }
                    n.any_of_entries = n.any_of_entries.saturating_add(1);
                }
                _ => {}
            }
        }
        n
    }

    /// Whether the node visibly accepts `null`: a `null` type with no enum/const to exclude
    /// it, or an `anyOf` branch that does.
    ///
    /// Inlined where [`nullable`] asks (an optional property, as a rule a plain typed one);
    /// the branches of an `anyOf` are asked by a call.
    #[inline]
    fn accepts_null(&self) -> bool {
        let enum_has_null = match self.enum_value {
            Some(Value::Json(Json::Array(items))) => items.iter().any(|v| matches!(v, Json::Null)),
            Some(_) => false,
            None => true,
        };
        let typed_null = self.types.is_some_and(|t| t.contains(JsonType::Null))
            && enum_has_null
            && !self.has_const;
        typed_null || (self.types.is_none() && self.branch_null())
    }

    /// Whether a branch of the node's `anyOf` accepts `null`.
    #[inline(never)]
    fn branch_null(&self) -> bool {
        match self.any_of {
            Some(Value::Schemas(list)) => list.iter().any(|b| NullShape::of(b).accepts_null()),
            _ => false,
        }
    }
}

/// An object schema with `keywords` plus `"type": "object"`, `"properties": {}`.
fn object_node<'a>(
    keywords: &[Entry<'a>],
    at: u32,
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let arena = cx.arena;
    let err = || arena_error(path, cx);
    let mut all: SmallVec<[Entry<'a>; 4]> = SmallVec::new();
    all.push(Entry {
        keyword: Keyword::Type,
        at,
        value: Value::Type(Types::one(JsonType::Object)),
    });
    all.push(Entry { keyword: Keyword::Properties, at, value: Value::Props(&[]) });
    all.extend(keywords.iter().copied());
    let keywords = arena.try_alloc_slice_copy(&all).map_err(|_| err())?;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), at })
}

/// The first `$ref` that leads back into a schema it is inside of (a recursive schema).
pub(crate) fn recursion<'a>(root: &'a Schema<'a>, path: &Path<'_>) -> Option<NotStrict> {
    // Feature bits hold the children's: without a `$ref` anywhere there is no cycle, and no
    // walk (nor its stacks) per tool.
    if !root.features.contains(SchemaFeature::Ref) {
        return None;
    }
    let mut stack: Vec<usize> = vec![addr(root)];
    let mut done: Vec<usize> = Vec::new();
    find_cycle(root, root, &mut stack, &mut done, 0).map(|at| NotStrict {
        pointer: path.to_pointer(),
        reason: "the schema is recursive (a `$ref` leads back into itself); strict mode here has no recursion"
            .into(),
        at,
    })
}

fn addr(s: &Schema<'_>) -> usize {
    s.keywords.as_ptr() as usize
}

fn find_cycle<'a>(
    s: &'a Schema<'a>,
    root: &'a Schema<'a>,
    stack: &mut Vec<usize>,
    done: &mut Vec<usize>,
    depth: usize,
) -> Option<u32> {
    // Lowering bounds nesting; refs add at most one level per definition on the stack.
    if depth > 512 {
        return Some(s.at);
    }
    for e in s.keywords {
        if matches!(e.keyword, Keyword::Defs | Keyword::Definitions) {
            continue;
        }
        if let (Keyword::Ref, Value::Str(reference)) = (e.keyword, e.value) {
            let Target::Found(target) = resolve(root, reference) else { continue };
            let a = addr(target);
            if stack.contains(&a) {
                return Some(e.at);
            }
            if done.contains(&a) {
                continue;
            }
            stack.push(a);
            let found = find_cycle(target, root, stack, done, depth + 1);
            stack.pop();
            if found.is_some() {
                return found;
            }
            done.push(a);
            continue;
        }
        let mut visit = |c: &'a Schema<'a>| {
            // Structural ancestors are on the stack too: a ref may point at one.
            stack.push(addr(c));
            let found = find_cycle(c, root, stack, done, depth + 1);
            stack.pop();
            found
        };
        let found = match e.value {
            Value::Schema(c) => visit(c),
            Value::Schemas(list) => list.iter().find_map(&mut visit),
            Value::Props(props) => props.iter().find_map(|p| visit(&p.schema)),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::push_count;

    /// Required names are told apart as a slice comparison tells them, whatever their length
    /// and wherever they differ.
    #[test]
    fn required_names_compare_as_slices_do() {
        let names: Vec<String> = (0..40)
            .flat_map(|n| {
                let base = "abcdefghijklmnopqrstuvwxyz0123456789ABCD".get(..n).unwrap_or("");
                let mut v = vec![base.to_owned()];
                for at in 0..n {
                    let mut b = base.as_bytes().to_vec();
                    if let Some(c) = b.get_mut(at) {
                        *c = b'_';
                    }
                    v.push(String::from_utf8(b).unwrap_or_default());
                }
                v
            })
            .collect();
        for a in &names {
            for b in &names {
                assert_eq!(super::is_required(&[a.as_str()], b), a == b, "{a} {b}");
            }
        }
    }

    /// The static `[t, null]` lists are where `nullable` looks them up.
    #[test]
    fn each_type_has_its_list_with_null() {
        for t in crate::ir::JsonType::ALL {
            let list = super::WITH_NULL.get(t as usize).map(|l| l.as_slice());
            assert_eq!(list, Some([t, crate::ir::JsonType::Null].as_slice()));
        }
    }

    /// Written as `{n}` writes it, one digit or many, after what the buffer held.
    #[test]
    fn a_count_is_written_as_format_writes_it() {
        for n in (0..=120).chain([255, 256, 1_000, 65_535, usize::MAX]) {
            let mut out = String::from("x ");
            push_count(&mut out, n);
            assert_eq!(out, format!("x {n}"));
        }
    }
}
