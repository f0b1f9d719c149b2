//! What a schema counts toward a provider's size limits: object properties, levels of object
//! nesting, enum values, characters of names and values, and the optional and union-typed
//! parameters a request's limits read.
//!
//! The strict pass must keep a schema within these limits and the pre-flight check reports a
//! schema over them: both count here, so they count alike without either importing the other.

use super::visit::{Visit, entry_name, walk_subschemas};
use super::{Entry, FeatureSet, Json, Keyword, Prop, Schema, SchemaFeature, Value};
use crate::pointer::{Path, Seg};

/// What one schema counts toward the provider's size limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SchemaCounts {
    /// Object properties (the members of every `properties`).
    pub properties: usize,
    /// The deepest object nesting.
    pub depth: usize,
    /// Values of every `enum`.
    pub enum_values: usize,
    /// Characters of property and definition names and of string and number `enum`/`const`
    /// values.
    pub chars: usize,
    /// Properties not in their node's `required`.
    pub optional: usize,
    /// Properties whose schema is a union ([`is_union`]).
    pub unions: usize,
}

/// Running totals of the strict tools of one catalog (one request), for per-request limits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CatalogCounts {
    pub strict_tools: usize,
    pub optional: usize,
    pub unions: usize,
}

impl SchemaCounts {
    /// Adds what the keyword `e` of the node `owner` counts itself; its subschemas count in
    /// their own nodes.
    #[inline]
    pub fn add_keyword(&mut self, owner: &Schema<'_>, e: &Entry<'_>) {
        if e.keyword == Keyword::Properties
            && let Value::Props(props) = e.value
        {
            self.add_params(props, owner.required());
        }
        self.add_keyword_size(e);
    }

    /// What [`SchemaCounts::add_keyword`] adds but for the optional and union-typed
    /// properties, which only the per-request limits read: the size of one schema.
    #[inline]
    pub fn add_keyword_size(&mut self, e: &Entry<'_>) {
        match e.value {
            Value::Props(props) => {
                if e.keyword == Keyword::Properties {
                    self.properties += props.len();
                }
                if names_count(e.keyword) {
                    self.add_names(props);
                }
            }
            Value::Json(v) => self.add_value(e.keyword, &v),
            _ => {}
        }
    }

    /// Adds the characters of the names of `props` (a `properties`, `$defs` or `definitions`).
    #[inline]
    pub fn add_names(&mut self, props: &[Prop<'_>]) {
        self.chars += props.iter().map(|p| p.name.len()).sum::<usize>();
    }

    /// Adds what the value of the keyword `keyword` counts: an `enum` array its values and
    /// their characters, a `const` its characters.
    #[inline]
    pub fn add_value(&mut self, keyword: Keyword, v: &Json<'_>) {
        match (keyword, v) {
            (Keyword::Enum, Json::Array(items)) => {
                self.enum_values += items.len();
                self.chars += items.iter().map(json_len).sum::<usize>();
            }
            (Keyword::Const, v) => self.chars += json_len(v),
            _ => {}
        }
    }

    /// Adds the optional (not in `required`) and the union-typed members of `props`, a node's
    /// `properties`: what the per-request limits read.
    pub fn add_params(&mut self, props: &[Prop<'_>], required: &[&str]) {
        let required = super::NameSet::new(required);
        self.optional += props.iter().filter(|p| !required.contains(p.name)).count();
        self.unions += props.iter().filter(|p| is_union(&p.schema)).count();
    }
}

/// Whether the names held by `keyword` count toward the characters of a schema: those of
/// properties and definitions do, patterns and the like do not.
#[inline]
pub(crate) fn names_count(keyword: Keyword) -> bool {
    matches!(keyword, Keyword::Properties | Keyword::Defs | Keyword::Definitions)
}

/// The object nesting depth the subschemas of the keyword `e` count from, in a node at
/// `depth` (counting itself): a property is nested in its object, a definition or pattern
/// starts again from nothing, any other subschema is where its node is. `None` where `e`
/// holds no subschema to count: no subschema at all, or the `additionalProperties: false` that
/// closes an object (a marker, not a schema of values).
#[inline]
pub(crate) fn nesting_below(e: &Entry<'_>, depth: usize) -> Option<usize> {
    match e.value {
        Value::Props(_) if e.keyword == Keyword::Properties => Some(depth),
        Value::Props(_) => Some(0),
        Value::Schema(c)
            if e.keyword == Keyword::AdditionalProperties && c.boolean == Some(false) =>
        {
            None
        }
        Value::Schema(_) | Value::Schemas(_) => Some(depth),
        _ => None,
    }
}

/// The counts of `s` toward the size limits.
pub(crate) fn measure(s: &Schema<'_>) -> SchemaCounts {
    let mut counts = SchemaCounts::default();
    Measure { counts: &mut counts }.visit_schema(s, &Path::ROOT, 0);
    counts
}

/// Adds to `counts` what the subschemas of the keyword `e`, in a node at object nesting
/// `depth` (counting itself), count toward the limits, as [`measure`] of that node counts
/// them.
pub(crate) fn measure_subschemas<'a>(e: &'a Entry<'a>, depth: usize, counts: &mut SchemaCounts) {
    if let Some(d) = nesting_below(e, depth) {
        walk_subschemas(&mut Measure { counts }, e, &Path::ROOT, d);
    }
}

/// Adds the optional and the union-typed properties of `s` to `counts`: what the per-request
/// limits read of [`measure`], found in the same nodes, without the other counts.
pub(crate) fn count_params(s: &Schema<'_>, counts: &mut SchemaCounts) {
    let before = (counts.optional, counts.unions);
    ParamCount { counts: &mut *counts }.visit_schema(s, &Path::ROOT, ());
    debug_assert!(
        {
            let m = measure(s);
            (counts.optional, counts.unions) == (before.0 + m.optional, before.1 + m.unions)
        },
        "count_params counts what measure counts"
    );
}

/// The visitor behind [`measure`]; the scope is the object nesting above a node.
struct Measure<'c> {
    counts: &'c mut SchemaCounts,
}

impl<'a> Visit<'a> for Measure<'_> {
    type Scope = usize;

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, depth: usize) {
        if s.boolean.is_some() {
            return;
        }
        let depth = depth + usize::from(s.is_object_like());
        self.counts.depth = self.counts.depth.max(depth);
        for e in s.keywords {
            self.counts.add_keyword(s, e);
            if let Some(d) = nesting_below(e, depth) {
                walk_subschemas(self, e, &path.push(Seg::Key(entry_name(e))), d);
            }
        }
    }
}

/// The visitor behind [`count_params`].
struct ParamCount<'c> {
    counts: &'c mut SchemaCounts,
}

impl<'a> Visit<'a> for ParamCount<'_> {
    type Scope = ();

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, (): ()) {
        for e in s.keywords {
            match e.value {
                Value::Props(props) if e.keyword == Keyword::Properties => {
                    self.counts.add_params(props, s.required());
                }
                Value::Schema(_) | Value::Schemas(_) | Value::Props(_) => {}
                _ => continue,
            }
            walk_subschemas(self, e, &path.push(Seg::Key(entry_name(e))), ());
        }
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
pub(crate) fn json_len(v: &Json<'_>) -> usize {
    match v {
        Json::String(s) | Json::Number(s) => s.len(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::{SchemaCounts, measure};
    use crate::ir::visit::tests::{entry, node};
    use crate::ir::{Json, JsonType, Keyword, Prop, Schema, Types, Value};

    /// Properties at every level, nesting by objects (a definition starts again from
    /// nothing), enum values, and the characters of names and of enum and const values; the
    /// closing `additionalProperties: false` counts nothing.
    #[test]
    fn counts_what_the_limits_read() {
        let object = Value::Type(Types::one(JsonType::Object));
        let values = [Json::String("xy"), Json::String("z")];
        let a = [entry(Keyword::Enum, Value::Json(Json::Array(&values)))];
        let c = [entry(Keyword::Const, Value::Json(Json::String("q")))];
        let b_props = [Prop::new("c", 0, node(&c))];
        let b = [entry(Keyword::Type, object), entry(Keyword::Properties, Value::Props(&b_props))];
        let d = [entry(Keyword::Type, object)];
        let props = [Prop::new("a", 0, node(&a)), Prop::new("b", 0, node(&b))];
        let defs = [Prop::new("d", 0, node(&d))];
        let closed = Schema::bool(false, 0);
        let required = ["a"];
        let root = [
            entry(Keyword::Type, object),
            entry(Keyword::Properties, Value::Props(&props)),
            entry(Keyword::Required, Value::Strings(&required)),
            entry(Keyword::Defs, Value::Props(&defs)),
            entry(Keyword::AdditionalProperties, Value::Schema(&closed)),
        ];
        let expected = SchemaCounts {
            properties: 3,
            depth: 2,
            enum_values: 2,
            chars: 4 + 3 + 1,
            optional: 2,
            unions: 0,
        };
        assert_eq!(measure(&node(&root)), expected);
    }
}
