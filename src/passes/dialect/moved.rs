//! Refs into forms the dialect pass moved follow them: a draft-07 `$ref` that pointed into
//! tuple `items` (`#/properties/p/items/0`) points into `prefixItems` once the tuple is written
//! there, one into `additionalItems` into `items`, one into root `definitions` into `$defs`.
//! Without this the ref would dangle (and be reported as dangling, about a ref the converter
//! broke), or resolve into something else.
//!
//! Each local ref is read against the schema as the source wrote it, token by token: a token
//! naming a keyword the pass moved is written as the keyword's new name, every other token as
//! it was. A ref that leaves the source tree keeps the rest as written (it dangled before too).

use std::borrow::Cow;
use std::fmt::Write;

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Keyword, Schema, SchemaFeature, Tool, Value};
use crate::pointer::Path;

use crate::ir::refs::Lists;

use crate::ir::refs::percent_decode;
use crate::passes::cow::CowSlice;
use crate::passes::cx::PassCx;
use crate::passes::node::arena_error;
use crate::passes::walk::NodeRule;

/// What the dialect pass moved in one schema document.
pub(super) struct Moves<'a> {
    /// The document as the source wrote it.
    pub source: Schema<'a>,
    /// Tuple `items` became `prefixItems` (and `additionalItems` beside it `items`).
    pub tuples: bool,
    /// Root `definitions` became `$defs`.
    pub definitions: bool,
    /// The source's long lists indexed by name as refs go through them.
    pub lists: Lists<'a>,
}

impl<'a> NodeRule<'a> for Moves<'a> {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[SchemaFeature::Ref])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        _tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let moved = match (e.keyword, e.value) {
                (Keyword::Ref, Value::Str(r)) => self.follow(r),
                _ => None,
            };
            match moved {
                Some(r) => {
                    let r = cx.arena.try_alloc_str(&r).map_err(|_| arena_error(path, cx))?;
                    out.changed(i, Entry { value: Value::Str(r), ..*e }, cx.arena)
                        .map_err(|()| arena_error(path, cx))?;
                }
                None => out.same(i),
            }
        }
        Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
    }
}

impl<'a> Moves<'a> {
    /// `reference` written with the moved keywords' new names; `None` when it names none of
    /// them (or is not a local JSON pointer).
    pub(super) fn follow(&self, reference: &str) -> Option<String> {
        let fragment = reference.strip_prefix('#')?;
        let decoded = percent_decode(fragment)?;
        let rest = decoded.strip_prefix('/')?;
        let mut out = String::with_capacity(reference.len() + 8);
        out.push('#');
        let mut moved = false;
        // The node the next token is read in; `None` once the pointer leaves the source tree.
        let mut cur = Some(&self.source);
        let mut root = true;
        let mut tokens = rest.split('/');
        while let Some(token) = tokens.next() {
            out.push('/');
            let Some(node) = cur else {
                out.push_str(token);
                continue;
            };
            let Some(e) = self.lists.keyword(node.keywords, token) else {
                out.push_str(token);
                cur = None;
                continue;
            };
            let renamed = match (e.keyword, e.value) {
                (Keyword::Items, Value::Schemas(_)) if self.tuples => Some("prefixItems"),
                (Keyword::AdditionalItems, Value::Schema(_)) if self.tuples && tuple(node) => {
                    Some("items")
                }
                (Keyword::Definitions, _) if self.definitions && root => Some("$defs"),
                _ => None,
            };
            moved |= renamed.is_some();
            out.push_str(renamed.unwrap_or(token));
            root = false;
            cur = match e.value {
                Value::Schema(s) => Some(s),
                Value::Props(props) => tokens.next().and_then(|name| {
                    out.push('/');
                    out.push_str(name);
                    self.lists.property(props, name).map(|p| &p.schema)
                }),
                Value::Schemas(list) => tokens.next().and_then(|index| {
                    out.push('/');
                    out.push_str(index);
                    index.parse::<usize>().ok().and_then(|i| list.get(i))
                }),
                _ => None,
            };
        }
        if !moved {
            return None;
        }
        // The fragment was percent-encoded: so is the new one, where it has to be.
        Some(match decoded {
            Cow::Borrowed(_) => out,
            Cow::Owned(_) => encode_fragment(&out),
        })
    }
}

/// Whether `node` holds draft-07 tuple `items` (a list of schemas).
fn tuple(node: &Schema<'_>) -> bool {
    node.keywords
        .iter()
        .any(|e| e.keyword == Keyword::Items && matches!(e.value, Value::Schemas(_)))
}

/// `#…` with every byte a URI fragment may not hold as it is percent-encoded (RFC 3986
/// §3.5: unreserved, sub-delims, `:`, `@`, `/`, `?` stay).
fn encode_fragment(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for (i, b) in s.bytes().enumerate() {
        let plain = b.is_ascii_alphanumeric()
            || b"-._~!$&'()*+,;=:@/?".contains(&b)
            || (i == 0 && b == b'#');
        if plain {
            out.push(char::from(b));
        } else {
            // Writing into a `String` cannot fail.
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Prop, features_of};

    static INT: Schema<'static> = Schema::bool(true, 0);
    static TUPLE: [Schema<'static>; 2] = [Schema::bool(true, 0), Schema::bool(false, 0)];
    static ARRAY: [Entry<'static>; 2] = [
        Entry { keyword: Keyword::Items, at: 0, value: Value::Schemas(&TUPLE) },
        Entry { keyword: Keyword::AdditionalItems, at: 0, value: Value::Schema(&INT) },
    ];
    static PROPS: [Prop<'static>; 1] = [Prop {
        name: "a b",
        at: 0,
        source_name: None,
        schema: Schema { boolean: None, keywords: &ARRAY, features: FeatureSet::EMPTY, at: 0 },
        widened: false,
    }];
    static ROOT: [Entry<'static>; 2] = [
        Entry { keyword: Keyword::Properties, at: 0, value: Value::Props(&PROPS) },
        Entry { keyword: Keyword::Definitions, at: 0, value: Value::Props(&PROPS) },
    ];

    fn moves() -> Moves<'static> {
        let source = Schema { boolean: None, keywords: &ROOT, features: features_of(&ROOT), at: 0 };
        Moves { source, tuples: true, definitions: true, lists: Lists::default() }
    }

    #[test]
    fn refs_follow_the_moved_keywords_and_only_them() {
        let m = moves();
        let cases = [
            ("#/properties/a b/items/1", Some("#/properties/a b/prefixItems/1")),
            ("#/properties/a%20b/items/0", Some("#/properties/a%20b/prefixItems/0")),
            ("#/properties/a%20b/items/%30", Some("#/properties/a%20b/prefixItems/0")),
            ("#/properties/a b/additionalItems", Some("#/properties/a b/items")),
            ("#/definitions/a b/items/0", Some("#/$defs/a b/prefixItems/0")),
            ("#/definitions/missing/x", Some("#/$defs/missing/x")),
            ("#/properties/a b", None),
            ("#/properties/missing/items/0", None),
            ("#", None),
            ("other.json#/definitions/a b", None),
        ];
        for (reference, want) in cases {
            assert_eq!(m.follow(reference).as_deref(), want, "{reference}");
        }
        // Without the moves, nothing follows.
        let none = Moves { tuples: false, definitions: false, ..m };
        assert_eq!(none.follow("#/definitions/a b/items/0"), None);
    }
}
