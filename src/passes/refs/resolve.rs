//! Where a local `$ref` leads, and whether a schema's refs lead back into themselves.
//!
//! Resolution is local only: `#` or any JSON pointer into the schema document (RFC 6901 `~0`/
//! `~1` and percent-escapes decoded). The inverse map, the strict pass and the pre-flight check
//! resolve refs here too, so every stage reads a `$ref` alike.

use std::collections::HashSet;

use crate::ir::visit::{Visit, entry_name, holds_subschemas, walk_subschemas};
use crate::ir::{Entry, Keyword, NameSet, Prop, Schema, SchemaFeature, Value};
use crate::pointer::{Path, Seg};

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
pub(crate) fn token_is(raw: &str, name: &str) -> bool {
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

/// Why a schema whose refs lead back into themselves cannot be strict where the provider's
/// strict mode has no recursion.
pub(crate) const RECURSIVE: &str =
    "the schema is recursive (a `$ref` leads back into itself); strict mode here has no recursion";

/// The source position of the first `$ref` that leads back into a schema it is inside of
/// (a recursive schema), in the schema document `root`.
pub(crate) fn first_recursive_ref<'a>(root: &'a Schema<'a>) -> Option<u32> {
    // Feature bits hold the children's: without a `$ref` anywhere there is no cycle, and no
    // walk (nor its stacks) per tool.
    if !root.features.contains(SchemaFeature::Ref) {
        return None;
    }
    let document = Document::new(root);
    let mut search =
        RecursionSearch { document, stack: Vec::new(), done: HashSet::new(), found: None };
    search.visit_schema(root, &Path::ROOT, 0);
    search.found
}

/// The depth-first search behind [`first_recursive_ref`]: it follows each `$ref` into its
/// target as if the target were written there. The scope is how deep the search is, in nodes
/// and refs followed.
struct RecursionSearch<'a> {
    document: Document<'a>,
    /// The nodes the search is inside of, by the address of their keywords: structural
    /// ancestors and the targets of the refs followed to get here.
    stack: Vec<usize>,
    /// Ref targets searched to the end without finding a way back (a set: a document may
    /// have 100,000 of them).
    done: HashSet<usize>,
    /// The position of the `$ref` found to lead back, which ends the search.
    found: Option<u32>,
}

impl<'a> Visit<'a> for RecursionSearch<'a> {
    type Scope = usize;

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, depth: usize) {
        if self.found.is_some() {
            return;
        }
        // Structural ancestors are on the stack too: a ref may point at one.
        self.stack.push(keywords_addr(s));
        self.search(s, path, depth);
        self.stack.pop();
    }
}

impl<'a> RecursionSearch<'a> {
    fn search(&mut self, s: &Schema<'a>, path: &Path<'_>, depth: usize) {
        // Lowering bounds nesting; refs add at most one level per definition on the stack.
        if depth > 512 {
            self.found = Some(s.at);
            return;
        }
        for e in s.keywords {
            match (e.keyword, e.value) {
                // Definitions are searched where a `$ref` leads into them.
                (Keyword::Defs | Keyword::Definitions, _) => continue,
                (Keyword::Ref, Value::Str(reference)) => self.follow(e, reference, path, depth),
                (_, value) if holds_subschemas(&value) => {
                    walk_subschemas(self, e, &path.push(Seg::Key(entry_name(e))), depth + 1);
                }
                _ => continue,
            }
            if self.found.is_some() {
                return;
            }
        }
    }

    /// Searches the target of the `$ref` entry `e`, unless it is on the stack (found) or was
    /// searched before.
    fn follow(&mut self, e: &Entry<'_>, reference: &str, path: &Path<'_>, depth: usize) {
        let Target::Found(target) = self.document.resolve(reference) else { return };
        let a = keywords_addr(target);
        if self.stack.contains(&a) {
            self.found = Some(e.at);
            return;
        }
        if self.done.contains(&a) {
            return;
        }
        self.visit_schema(target, path, depth + 1);
        if self.found.is_none() {
            self.done.insert(a);
        }
    }
}

/// A node's identity for the search: the address of its keywords.
fn keywords_addr(s: &Schema<'_>) -> usize {
    s.keywords.as_ptr() as usize
}

/// A schema document whose `$ref`s are resolved many times: its root definitions (`$defs`,
/// `definitions`) are indexed by name once, so each `#/$defs/<name>` costs log n rather than
/// a scan of every definition (100,000 refs into 100,000 definitions took 27 s, issue 22).
/// Other pointers resolve as [`resolve`] does.
pub(crate) struct Document<'a> {
    root: &'a Schema<'a>,
    defs: Option<NameSet<'a, Prop<'a>>>,
    definitions: Option<NameSet<'a, Prop<'a>>>,
}

impl<'a> Document<'a> {
    /// The document `root`, its definitions indexed.
    pub(crate) fn new(root: &'a Schema<'a>) -> Document<'a> {
        // The first entry of each keyword, as `resolve` finds it.
        let first = |k: Keyword| match root.keywords.iter().find(|e| e.keyword == k)?.value {
            Value::Props(p) => Some(NameSet::new(p)),
            _ => None,
        };
        Document { root, defs: first(Keyword::Defs), definitions: first(Keyword::Definitions) }
    }

    /// Where `reference` leads, as [`resolve`] finds it.
    pub(crate) fn resolve(&self, reference: &str) -> Target<'a> {
        let fast = |prefix: &str, set: &Option<NameSet<'a, Prop<'a>>>| {
            let name = reference.strip_prefix(prefix)?;
            // Escapes (`~`, `%`) and deeper pointers take the general way.
            if name.contains(['/', '~', '%']) {
                return None;
            }
            let set = set.as_ref()?;
            Some(set.get(name).map_or(Target::Dangling, |p| Target::Found(&p.schema)))
        };
        fast("#/$defs/", &self.defs)
            .or_else(|| fast("#/definitions/", &self.definitions))
            .unwrap_or_else(|| resolve(self.root, reference))
    }
}
