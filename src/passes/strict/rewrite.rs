//! The strict rewrite of a schema: each node checked against strict mode's rules, and the
//! nodes the rules reach (properties, definitions, `items`, `anyOf` branches) made strict
//! bottom-up, copied only where something changes. What the result counts toward the size
//! limits is gathered on the way, as [`measure::measure`] would count it.

use bumpalo::Bump;
use smallvec::SmallVec;

use crate::ir::NameSet;
use crate::ir::measure::{self, SchemaCounts, is_union};
use crate::ir::required_of;
use crate::ir::visit::{entry_name, holds_subschemas};
use crate::ir::{Entry, FeatureSet, JsonType, Keyword, Schema, Tool, Types, Value, features_of};
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use crate::passes::walk::{Rewrite, rewrite_subschemas};
use crate::pointer::{Path, Seg};
use crate::profile::StrictRules;

use super::{NotStrict, StrictError};

/// What the strict rewrite asks of a node before its keywords, read in one scan of them (the
/// [`Schema`] methods of the same names scan once each).
struct NodeScan<'a> {
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

impl<'a> NodeScan<'a> {
    fn of(s: &Schema<'a>) -> NodeScan<'a> {
        let mut scan = NodeScan {
            declares_kind: false,
            types: None,
            properties: false,
            items: false,
            subschemas: false,
            values: false,
        };
        let mut typed = false;
        for e in s.keywords {
            scan.subschemas |= holds_subschemas(&e.value);
            match e.keyword {
                Keyword::Type => {
                    scan.declares_kind = true;
                    // The first `type`, as `Schema::types` reads it.
                    if !typed {
                        typed = true;
                        if let Value::Type(t) = e.value {
                            scan.types = Some(t);
                        }
                    }
                }
                Keyword::AnyOf | Keyword::Ref => scan.declares_kind = true,
                Keyword::Enum | Keyword::Const => {
                    scan.declares_kind = true;
                    scan.values = true;
                }
                Keyword::Properties => scan.properties = true,
                Keyword::Items => scan.items = true,
                _ => {}
            }
        }
        scan
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

/// Which of the costly counts (the per-request parameters) the profile's limits read.
#[derive(Clone, Copy)]
pub(super) struct WantedParams {
    pub optional: bool,
    pub unions: bool,
}

impl WantedParams {
    /// `c` without the counts that are not wanted (what the walk leaves at zero).
    pub fn of(self, c: SchemaCounts) -> SchemaCounts {
        SchemaCounts {
            optional: if self.optional { c.optional } else { 0 },
            unions: if self.unions { c.unions } else { 0 },
            ..c
        }
    }
}

/// The strict rewrite of one tool's input schema, with what it found on the way.
pub(super) struct StrictRewrite<'a, 'c, 'x> {
    pub cx: &'x mut PassCx<'a, 'c>,
    /// The tool (read only: the walk's result is written into it afterwards).
    pub tool: &'x Tool<'a>,
    pub rules: StrictRules,
    /// An optional property was made required (and nullable).
    pub widened: bool,
    /// Objects that admitted undeclared keys and are now closed.
    pub closed: usize,
    /// Their pointers, `, ` between them (the converter's note buffer, lent for the walk: the
    /// passes that write notes are done when this one runs).
    pub closed_at: String,
    pub wanted: WantedParams,
    /// What the strict schema counts toward the size limits, as [`measure::measure`]
    /// would count it (less what `wanted` leaves out), gathered on the way rather than in a
    /// second walk.
    pub counts: SchemaCounts,
    /// No subschema so far sits where the walk does not descend, and no `additionalProperties`
    /// is other than a schema: every object of the result is closed ([`Tool::strict_closed`]).
    pub closes_all: bool,
}

impl<'a> StrictRewrite<'a, '_, '_> {
    pub(super) fn not(&self, path: &Path<'_>, at: u32, reason: impl Into<String>) -> StrictError {
        StrictError::NotStrict(NotStrict { pointer: path.to_pointer(), reason: reason.into(), at })
    }

    /// The strict form of `s` (a copy only where something changed), at object nesting `depth`
    /// (as [`measure::measure`] counts it) above it.
    ///
    /// Inlined where it is called: most nodes are leaves, done here without the call.
    #[inline(always)]
    pub(super) fn schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        depth: usize,
    ) -> Result<Schema<'a>, StrictError> {
        if let Some(b) = s.boolean {
            return Err(self.boolean(path, s.at, b));
        }
        let scan = NodeScan::of(s);
        debug_assert_eq!(
            (scan.declares_kind, scan.object(), scan.array_without_items()),
            (s.declares_kind(), s.is_object_like(), s.is_array_without_items())
        );
        if !scan.declares_kind {
            return Err(self.not(
                path,
                s.at,
                "a schema without `type` accepts any value; strict mode needs one",
            ));
        }
        let object = scan.object();
        // The pass changes no node's `type` nor whether it has `properties`: the strict node
        // is as object-like as `s`.
        let depth = depth + usize::from(object);
        self.counts.depth = self.counts.depth.max(depth);
        if scan.array_without_items() {
            return Err(self.not(
                path,
                s.at,
                "an array without `items` accepts any element; strict mode needs an item schema",
            ));
        }
        // A leaf (most nodes): nothing to close, nothing to descend into, so nothing changes;
        // only its values count (as the loop below counts them).
        if !object && !scan.subschemas {
            if scan.values {
                self.count_values(s.keywords);
            }
            return Ok(*s);
        }
        self.node(s, path, root, depth, object)
    }

    #[cold]
    fn boolean(&self, path: &Path<'_>, at: u32, b: bool) -> StrictError {
        let why = if b {
            "`true` accepts any value; strict mode needs a typed schema"
        } else {
            "`false` accepts nothing; strict mode has no such schema"
        };
        self.not(path, at, why)
    }

    /// [`StrictRewrite::schema`] of a node that is an object or holds subschemas, at nesting
    /// `depth` counting itself.
    #[inline(never)]
    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        depth: usize,
        object: bool,
    ) -> Result<Schema<'a>, StrictError> {
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
            // here through `measure`, as it would count them in the strict schema.
            let value = match (e.keyword, e.value) {
                (
                    Keyword::Properties | Keyword::Defs | Keyword::Definitions,
                    Value::Props(props),
                ) => {
                    self.counts.add_names(props);
                    let d = if e.keyword == Keyword::Properties {
                        self.counts.properties += props.len();
                        has_props = true;
                        depth
                    } else {
                        0
                    };
                    self.subschemas(&e.value, &child(), d, &mut added)?
                }
                (Keyword::Items, Value::Schema(_)) | (Keyword::AnyOf, Value::Schemas(_)) => {
                    self.subschemas(&e.value, &child(), depth, &mut added)?
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
                    self.counts.add_value(e.keyword, &v);
                    None
                }
                (_, Value::Schema(_) | Value::Schemas(_) | Value::Props(_)) => {
                    self.unwalked(e, depth);
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
    /// where the limits read them. `optional`: how many are optional, when
    /// [`StrictRewrite::close`] counted them. A property the pass made nullable is a union now.
    fn count_props(&mut self, keywords: &[Entry<'a>], optional: Option<usize>) {
        if !(self.wanted.optional || self.wanted.unions) {
            return;
        }
        let props = match keywords.iter().find(|e| e.keyword == Keyword::Properties) {
            Some(Entry { value: Value::Props(p), .. }) => *p,
            _ => &[],
        };
        if self.wanted.optional {
            self.counts.optional += optional.unwrap_or_else(|| {
                let required = NameSet::new(required_of(keywords));
                props.iter().filter(|p| !required.contains(p.name)).count()
            });
        }
        if self.wanted.unions {
            self.counts.unions += props.iter().filter(|p| is_union(&p.schema)).count();
        }
    }

    /// Counts the `enum` and `const` values among `keywords` (a leaf's).
    fn count_values(&mut self, keywords: &[Entry<'a>]) {
        for e in keywords {
            if let Value::Json(v) = &e.value {
                self.counts.add_value(e.keyword, v);
            }
        }
    }

    /// The subschemas of a keyword `e` the walk does not descend (rare in a strict schema),
    /// in a node at nesting `depth`: counted as [`measure::measure`] counts them, and the
    /// object closing no longer vouched for.
    #[cold]
    #[inline(never)]
    fn unwalked(&mut self, e: &'a Entry<'a>, depth: usize) {
        measure::measure_subschemas(e, depth, &mut self.counts);
        self.closes_all = false;
    }

    pub(super) fn arena(&self, path: &Path<'_>) -> StrictError {
        StrictError::Conversion(arena_error(path, self.cx))
    }

    /// The subschemas of a keyword's `value` (at `path`, in a node at nesting `depth`) made
    /// strict; `None` when none changed. The features the changes add go into `added`.
    fn subschemas(
        &mut self,
        value: &Value<'a>,
        path: &Path<'_>,
        depth: usize,
        added: &mut FeatureSet,
    ) -> Result<Option<Value<'a>>, StrictError> {
        rewrite_subschemas(&mut Subschemas { strict: self, added }, value, path, depth)
    }
}

/// The strict rewrite of one node's subschemas, with the features its changes add gathered
/// for the node. The scope is the node's object nesting.
struct Subschemas<'r, 'a, 'c, 'x> {
    strict: &'r mut StrictRewrite<'a, 'c, 'x>,
    added: &'r mut FeatureSet,
}

impl<'a> Rewrite<'a> for Subschemas<'_, 'a, '_, '_> {
    type Scope = usize;
    type Error = StrictError;

    #[inline]
    fn arena(&self) -> &'a Bump {
        self.strict.cx.arena
    }

    fn arena_error(&self, path: &Path<'_>) -> StrictError {
        self.strict.arena(path)
    }

    #[inline]
    fn rewrite_schema(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Option<Schema<'a>>, StrictError> {
        let new = self.strict.schema(s, path, false, depth)?;
        if new.keywords.as_ptr() == s.keywords.as_ptr() {
            return Ok(None);
        }
        *self.added = self.added.union(new.features);
        Ok(Some(new))
    }
}
