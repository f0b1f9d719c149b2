//! Closing and widening: an object of a strict schema gets `additionalProperties: false`
//! and, where the rules want every property required, its optional properties become required
//! ones that also accept `null` (marked, for the inverse map to drop the nulls the model sends).

use smallvec::SmallVec;

use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, NameSet, Schema, SchemaFeature, Types, Value,
    features_of,
};
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer, Shared};

use super::StrictError;
use super::rewrite::StrictRewrite;

impl<'a> StrictRewrite<'a, '_, '_> {
    /// Closes the object node whose (already strict) keywords are `out`: `additionalProperties:
    /// false`, and for `all_required` every property required, the optional ones widened.
    /// Returns whether `out` changed, and how many of its properties are optional now (counted
    /// only when the limits read optional parameters).
    pub(super) fn close(
        &mut self,
        out: &mut SmallVec<[Entry<'a>; 12]>,
        s: &Schema<'a>,
        path: &Path<'_>,
        root: bool,
        added: &mut FeatureSet,
    ) -> Result<(bool, usize), StrictError> {
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
        let required = NameSet::new(required);
        let mut changed = false;
        if let Some(value) = extra {
            // Any schema here is `false` (the walk refused the others); another shape leaves
            // the object as it is, open.
            self.closes_all &= matches!(value, Value::Schema(_));
        } else {
            // Closed, an object that declares no properties takes no keys at all: what it
            // accepted (any keys) would become nothing but `{}`. At the root, too: the tool
            // would take no arguments. (A source that means "no arguments" says so with
            // `additionalProperties: false`, or by giving no input schema at all.)
            if props.is_empty() {
                let why = if root { OPEN_ROOT } else { OPEN_OBJECT };
                return Err(self.not(path, s.at, why));
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
            self.closed += 1;
            if !self.closed_at.is_empty() {
                self.closed_at.push_str(", ");
            }
            path.write_pointer(&mut self.closed_at);
        }
        if !self.rules.all_required {
            let optional = if self.wanted.optional {
                props.iter().filter(|p| !required.contains(p.name)).count()
            } else {
                0
            };
            return Ok((changed, optional));
        }
        // From here on every property is required.
        let Some(first) = props.iter().position(|p| !required.contains(p.name)) else {
            return Ok((changed, 0));
        };
        // Only this pass widens, and each node once: the flag marks this node's optional ones.
        debug_assert!(props.iter().all(|p| !p.widened));
        // Every property required; the optional ones accept null as well. Written in place in
        // the arena: no list on the way, however many properties there are.
        let arena = self.cx.arena;
        let new_props = arena.try_alloc_slice_copy(props).map_err(|_| self.arena(path))?;
        let optional = new_props.get_mut(first..).unwrap_or_default();
        // Whether an optional property accepted `null` already.
        let mut null_before = false;
        for p in optional.iter_mut().filter(|p| !required.contains(p.name)) {
            // Already accepting null, the schema stays, but the model now sends `null` where
            // it would have left the key out, so the inverse drops that null too.
            match nullable(&p.schema, self.cx, path)? {
                Some(schema) => {
                    *added = added.union(schema.features);
                    p.schema = schema;
                }
                None => null_before = true,
            }
            p.widened = true;
        }
        let source_props = props;
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
            // The root's pointer (most tools widen there) is shared.
            let place = path.push(Seg::Key("required"));
            let pointer =
                Shared::when(root, [tool.input_pointer, "/required"]).or(PathPointer(&place));
            let message = |out: &mut String| {
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
                if null_before {
                    let mut sep = "; ";
                    for p in source_props.iter().filter(|p| {
                        !required.contains(p.name) && NullScan::of(&p.schema).accepts_null()
                    }) {
                        out.push_str(sep);
                        out.push('`');
                        out.push_str(p.name);
                        out.push('`');
                        sep = ", ";
                    }
                    out.push_str(
                        " accepted null already: a null sent for it is read back as left out, \
                         so a call can no longer pass null there (fewer calls are accepted)",
                    );
                }
            };
            // Through the inverse map the same calls are accepted (a null the model sends
            // for an optional property is the property left out), but for a property that
            // accepted null before: an explicit null can no longer be passed.
            let effect = if null_before { Effect::Narrows } else { Effect::None };
            let note = Note {
                kind: EntryKind::arguments(Code::StrictWidened, effect),
                feature: "required",
                pointer,
                message,
            };
            self.cx.record(tool, s.at, note);
        }
        Ok((true, 0))
    }
}

/// Why an object without declared properties cannot be strict.
const OPEN_OBJECT: &str = "an object without `properties` accepts any keys (an open object); strict mode closes every object";

/// Why an input schema root without declared properties cannot be strict.
const OPEN_ROOT: &str = "the input schema declares no properties and accepts any keys (an open object); strict mode closes every object, so the tool would take no arguments";

/// `s` made to accept `null` too: `null` added to its type list, a branch added to its
/// `anyOf`, or (refs, enums, consts, anything else) `anyOf: [s, {"type": "null"}]`. `None` when
/// it accepts null already.
fn nullable<'a>(
    s: &Schema<'a>,
    cx: &PassCx<'a, '_>,
    path: &Path<'_>,
) -> Result<Option<Schema<'a>>, StrictError> {
    let arena = cx.arena;
    let err = || StrictError::Conversion(arena_error(path, cx));
    let n = NullScan::of(s);
    if n.accepts_null() {
        return Ok(None);
    }
    let null_schema = || -> Result<Schema<'a>, StrictError> {
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
pub(super) static WITH_NULL: [[JsonType; 2]; 7] = [
    [JsonType::Null, JsonType::Null],
    [JsonType::Boolean, JsonType::Null],
    [JsonType::Object, JsonType::Null],
    [JsonType::Array, JsonType::Null],
    [JsonType::Number, JsonType::Null],
    [JsonType::String, JsonType::Null],
    [JsonType::Integer, JsonType::Null],
];

/// What [`nullable`] reads of a node, in one scan of its keywords: the first `type` (as
/// [`Schema::types`] reads it), `enum` and `anyOf` values, whether it has a `const`.
struct NullScan<'a> {
    types: Option<Types<'a>>,
    enum_value: Option<Value<'a>>,
    has_const: bool,
    any_of: Option<Value<'a>>,
    /// How many `type` and `anyOf` entries the node has (one, as a rule).
    type_entries: u8,
    any_of_entries: u8,
}

impl<'a> NullScan<'a> {
    fn of(s: &Schema<'a>) -> NullScan<'a> {
        let mut n = NullScan {
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
            Some(Value::Schemas(list)) => list.iter().any(|b| NullScan::of(b).accepts_null()),
            _ => false,
        }
    }
}
