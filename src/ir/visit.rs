//! The one read-only traversal of a schema tree, for every pass and check that walks a schema
//! without changing it (oxc's `Visit` with its `walk_*` functions, written by hand: the IR has
//! only three kinds of value that hold subschemas).
//!
//! A visitor overrides the `visit_*` methods for the nodes it looks at and calls the matching
//! `walk_*` function to go on below them. The walk goes in source order (a node's keywords,
//! then each keyword's subschemas in order), builds each child's RFC 6901 path on the stack,
//! and hands each child the visitor's [`Visit::Scope`]: what a node passes down to its
//! subschemas (an object nesting depth, a flag), so that no visitor keeps a stack of its own
//! for it. Lowering bounds the nesting, so the recursion is safe.
//!
//! The copy-on-write form of the same walk, for passes that rewrite a schema, is
//! `passes::walk`: it builds on the passes' copy-on-write slice.

use super::{Entry, Keyword, Prop, Schema, Value};
use crate::pointer::{Path, Seg};

/// A read-only walk over a schema tree.
pub(crate) trait Visit<'a> {
    /// What a node hands down to its subschemas; `()` for a visitor that needs nothing.
    type Scope: Copy;

    /// Visits the schema node `s` at `path`. The default visits its subschemas with `scope`.
    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, scope: Self::Scope) {
        walk_schema(self, s, path, scope);
    }

    /// Visits a named subschema (a property, a definition, a pattern) held by `keyword`, at
    /// `path` (which ends in its name). The default visits its schema.
    fn visit_prop(
        &mut self,
        keyword: Keyword,
        p: &'a Prop<'a>,
        path: &Path<'_>,
        scope: Self::Scope,
    ) {
        let _ = keyword;
        self.visit_schema(&p.schema, path, scope);
    }
}

/// Visits the subschemas of every keyword of `s` (at `path`), in order, with `scope`.
pub(crate) fn walk_schema<'a, V: Visit<'a> + ?Sized>(
    v: &mut V,
    s: &Schema<'a>,
    path: &Path<'_>,
    scope: V::Scope,
) {
    for e in s.keywords {
        if holds_subschemas(&e.value) {
            walk_subschemas(v, e, &path.push(Seg::Key(entry_name(e))), scope);
        }
    }
}

/// Visits the subschemas held by the keyword `e`, whose own path is `path`, with `scope`: its
/// schema, each schema of its list (at its index), or each named schema (at its name).
pub(crate) fn walk_subschemas<'a, V: Visit<'a> + ?Sized>(
    v: &mut V,
    e: &'a Entry<'a>,
    path: &Path<'_>,
    scope: V::Scope,
) {
    match e.value {
        Value::Schema(c) => v.visit_schema(c, path, scope),
        Value::Schemas(list) => {
            for (i, c) in list.iter().enumerate() {
                v.visit_schema(c, &path.push(Seg::Index(i)), scope);
            }
        }
        Value::Props(props) => {
            for p in props {
                v.visit_prop(e.keyword, p, &path.push(Seg::Key(p.name)), scope);
            }
        }
        _ => {}
    }
}

/// Whether a keyword's value holds subschemas (one, a list, or named ones).
#[inline]
pub(crate) fn holds_subschemas(value: &Value<'_>) -> bool {
    matches!(value, Value::Schema(_) | Value::Schemas(_) | Value::Props(_))
}

/// The name a keyword entry is written under, which is the step a path takes into it.
pub(crate) fn entry_name<'a>(e: &Entry<'a>) -> &'a str {
    match e.value {
        Value::Unknown(m) => m.key,
        _ => e.keyword.as_str(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{Visit, walk_schema};
    use crate::ir::{Entry, FeatureSet, Keyword, Prop, Schema, Types, Value};
    use crate::pointer::Path;

    /// Records the pointer of every node it visits, and the depth its parents handed it.
    struct Pointers(Vec<(String, usize)>);

    impl<'a> Visit<'a> for Pointers {
        type Scope = usize;

        fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, depth: usize) {
            self.0.push((path.to_pointer(), depth));
            walk_schema(self, s, path, depth + 1);
        }
    }

    /// A schema node with `keywords`, for tests.
    pub(crate) fn node<'a>(keywords: &'a [Entry<'a>]) -> Schema<'a> {
        Schema { boolean: None, keywords, features: FeatureSet::EMPTY, at: 0 }
    }

    /// A keyword entry, for tests.
    pub(crate) fn entry(keyword: Keyword, value: Value<'_>) -> Entry<'_> {
        Entry { keyword, at: 0, value }
    }

    /// Keywords in source order, then each one's subschemas in order, each at its pointer;
    /// a keyword without subschemas is passed over.
    #[test]
    fn visits_in_source_order_at_each_pointer() {
        let leaf = node(&[]);
        let typed = [entry(Keyword::Type, Value::Type(Types::one(crate::ir::JsonType::String)))];
        let string = node(&typed);
        let props = [Prop::new("a/b", 0, string), Prop::new("c", 0, leaf)];
        let branches = [leaf, string];
        let keywords = [
            entry(Keyword::Description, Value::Str("x")),
            entry(Keyword::Properties, Value::Props(&props)),
            entry(Keyword::AnyOf, Value::Schemas(&branches)),
            entry(Keyword::Not, Value::Schema(&leaf)),
        ];
        let root = node(&keywords);
        let mut seen = Pointers(Vec::new());
        seen.visit_schema(&root, &Path::ROOT, 0);
        let expected = [
            ("", 0),
            ("/properties/a~1b", 1),
            ("/properties/c", 1),
            ("/anyOf/0", 1),
            ("/anyOf/1", 1),
            ("/not", 1),
        ];
        let expected: Vec<(String, usize)> =
            expected.iter().map(|&(p, d)| (p.to_owned(), d)).collect();
        assert_eq!(seen.0, expected);
    }
}
