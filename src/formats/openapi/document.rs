//! Reading the OpenAPI document: its version, its `components` (looked up by name), local
//! `$ref`s, and the member readers and errors every part of the import shares.
//!
//! The document is lowered into the arena as raw JSON once; everything after reads it through
//! [`Document`], which answers a reference by lookup rather than by a search.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Json, Member};
use crate::pointer::{Seg, write_seg};
use crate::report::Code;

/// The format named in the import's errors.
const NAME: &str = "openapi";

/// Most `$ref`s followed from one parameter, request body or path item: a longer chain is
/// taken for a cycle.
const MAX_HOPS: usize = 32;

/// The OpenAPI document, checked at its root and indexed for reference lookups.
pub(super) struct Document<'a> {
    /// The document's members.
    pub(super) root: &'a [Member<'a>],
    /// An OpenAPI 3.0 document (`nullable` and boolean bounds in its schemas).
    pub(super) v30: bool,
    /// Every map of `components` (`schemas`, `parameters`, `requestBodies`, …), its entries
    /// sorted by name: references into them are looked up, not searched.
    components: BTreeMap<&'a str, Vec<(&'a str, &'a Json<'a>)>>,
}

/// A `$ref` chain followed from a parameter, request body or path item.
pub(super) enum Deref<'a> {
    /// The value, its pointer, and the first Reference Object `description` on the way.
    Found(&'a Json<'a>, String, Option<&'a str>),
    /// A reference (at the pointer) that cannot be followed, and why.
    Unresolved { reference: &'a str, at: String, code: Code, why: &'static str },
}

impl<'a> Document<'a> {
    /// Reads the root: an OpenAPI 3.0 or 3.1 document (a Swagger 2.0 one is told apart), and
    /// its `components`.
    pub(super) fn read(root: Json<'a>) -> Result<Document<'a>, ConversionError> {
        let Json::Object(root) = root else {
            return Err(err(
                "",
                ErrorKind::Shape(format!(
                    "expected an OpenAPI document (a JSON object), found {}",
                    root.kind()
                )),
            ));
        };
        let v30 = match get(root, "openapi") {
            Some(Json::String(v)) if v.starts_with("3.0") => true,
            Some(Json::String(v)) if v.starts_with("3.1") => false,
            Some(Json::String(v)) => {
                return Err(err(
                    "/openapi",
                    ErrorKind::Shape(format!(
                        "OpenAPI version {v:?} is not read (3.0.x and 3.1.x are)"
                    )),
                ));
            }
            Some(other) => return Err(wrong("/openapi", "openapi", "a string", other)),
            None if get(root, "swagger").is_some() => {
                return Err(err(
                    "/swagger",
                    ErrorKind::Shape(
                        "a Swagger 2.0 document; only OpenAPI 3.0 and 3.1 are read (convert it to OpenAPI 3 first)"
                            .to_owned(),
                    ),
                ));
            }
            None => {
                return Err(err(
                    "",
                    ErrorKind::MissingMember {
                        member: "openapi",
                        hint: " (expected an OpenAPI 3.0 or 3.1 document)".to_owned(),
                    },
                ));
            }
        };
        let mut components = BTreeMap::new();
        match get(root, "components") {
            None => {}
            Some(Json::Object(maps)) => {
                for m in *maps {
                    match &m.value {
                        Json::Object(list) => {
                            let mut sorted: Vec<(&'a str, &'a Json<'a>)> =
                                list.iter().map(|e| (e.key, &e.value)).collect();
                            sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
                            components.insert(m.key, sorted);
                        }
                        other if m.key == "schemas" => {
                            return Err(wrong(
                                "/components/schemas",
                                "schemas",
                                "an object",
                                other,
                            ));
                        }
                        _ => {}
                    }
                }
            }
            Some(other) => return Err(wrong("/components", "components", "an object", other)),
        }
        Ok(Document { root, v30, components })
    }

    /// The value at local pointer `fragment` (the part of a `$ref` after `#`).
    pub(super) fn resolve(&self, fragment: &str) -> Option<&'a Json<'a>> {
        if fragment.is_empty() {
            return None;
        }
        let tokens: Vec<String> = fragment.strip_prefix('/')?.split('/').map(unescape).collect();
        let (mut cur, rest) = match tokens.as_slice() {
            [c, kind, name, rest @ ..]
                if c == "components" && self.components.contains_key(kind.as_str()) =>
            {
                (self.component(kind, name)?.1, rest)
            }
            [first, rest @ ..] => (get(self.root, first)?, rest),
            [] => return None,
        };
        for token in rest {
            cur = match cur {
                Json::Object(m) => get(m, token)?,
                Json::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Entry `name` of the `components` map `kind`: its key as the document holds it, and its
    /// value.
    pub(super) fn component(&self, kind: &str, name: &str) -> Option<(&'a str, &'a Json<'a>)> {
        let list = self.components.get(kind)?;
        let i = list.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        list.get(i).copied()
    }

    /// Follows the local `$ref`s of a parameter, request body, path item or example.
    pub(super) fn deref(&self, v: &'a Json<'a>, ptr: String) -> Deref<'a> {
        let (mut cur, mut at, mut description) = (v, ptr, None);
        for _ in 0..MAX_HOPS {
            let Json::Object(members) = cur else { break };
            let Some(Json::String(reference)) = get(members, "$ref") else { break };
            description = description.or(get(members, "description").and_then(Json::as_str));
            let Some(fragment) = reference.strip_prefix('#') else {
                return Deref::Unresolved {
                    reference,
                    at,
                    code: Code::RefExternal,
                    why: "is in another document, which is never fetched",
                };
            };
            match self.resolve(fragment) {
                Some(next) => {
                    cur = next;
                    at = fragment.to_owned();
                }
                None => {
                    return Deref::Unresolved {
                        reference,
                        at,
                        code: Code::RefDangling,
                        why: "does not resolve in the document",
                    };
                }
            }
        }
        if let Json::Object(members) = cur
            && let Some(Json::String(reference)) = get(members, "$ref")
        {
            return Deref::Unresolved {
                reference,
                at,
                code: Code::RefRecursive,
                why: "starts a chain of references that does not end",
            };
        }
        Deref::Found(cur, at, description)
    }
}

/// One RFC 6901 reference token decoded: `~1` → `/`, `~0` → `~`, and `%XX` escapes (a `$ref`
/// is a URI fragment).
pub(super) fn unescape(token: &str) -> String {
    // Bytes that do not decode to UTF-8 leave the token as it was.
    let token =
        crate::ir::refs::percent_decode(token).map_or_else(|| token.to_owned(), Cow::into_owned);
    if token.contains('~') { token.replace("~1", "/").replace("~0", "~") } else { token }
}

/// Pointer `base` with member `key` appended.
pub(super) fn join(base: &str, key: &str) -> String {
    let mut p = String::with_capacity(base.len() + key.len() + 1);
    p.push_str(base);
    write_seg(&mut p, Seg::Key(key));
    p
}

/// Pointer `base` with element `i` appended.
pub(super) fn join_index(base: &str, i: usize) -> String {
    let mut p = String::with_capacity(base.len() + 4);
    p.push_str(base);
    write_seg(&mut p, Seg::Index(i));
    p
}

/// Member `key` of an object.
pub(super) fn get<'a>(members: &'a [Member<'a>], key: &str) -> Option<&'a Json<'a>> {
    members.iter().find(|m| m.key == key).map(|m| &m.value)
}

/// Member `key` of an object, when it is a boolean.
pub(super) fn get_bool(members: &[Member<'_>], key: &str) -> Option<bool> {
    match get(members, key) {
        Some(Json::Bool(b)) => Some(*b),
        _ => None,
    }
}

/// Member `key` of the object at `at`, which must be a string when present.
pub(super) fn opt_str<'a>(
    members: &'a [Member<'a>],
    key: &str,
    at: &str,
) -> Result<Option<&'a str>, ConversionError> {
    match get(members, key) {
        None => Ok(None),
        Some(Json::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(&join(at, key), key, "a string", other)),
    }
}

/// An error of the import at `pointer` into the OpenAPI document.
#[cold]
pub(super) fn err(pointer: &str, kind: ErrorKind) -> ConversionError {
    ConversionError::new(NAME, Direction::ToCanonical, pointer, kind)
}

/// Member `member` at `pointer` is `found` where the specification has `expected`.
#[cold]
pub(super) fn wrong(
    pointer: &str,
    member: &str,
    expected: &'static str,
    found: &Json<'_>,
) -> ConversionError {
    err(pointer, ErrorKind::WrongType { member: member.to_owned(), expected, found: found.kind() })
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn tokens_unescape() {
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
        assert_eq!(unescape("Pet%20Store"), "Pet Store");
        assert_eq!(unescape("bad%zz"), "bad%zz");
        assert_eq!(unescape("%7E01"), "~1");
    }
}
