//! Where a local `$ref` leads, and whether a schema's refs lead back into themselves.
//!
//! Resolution is local only: `#` or any JSON pointer into the schema document (RFC 6901 `~0`/
//! `~1` and percent-escapes decoded). The inverse map, the strict pass and the pre-flight check
//! resolve refs here too, so every stage reads a `$ref` alike.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

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

/// Resolves `reference` against the schema document `root` (held in the arena) by scanning
/// each list it goes through: the plain form of [`Document::resolve`], which the tests hold
/// the indexed one to.
#[cfg(test)]
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

/// A schema document whose `$ref`s are resolved many times: each long list a pointer goes
/// through (a node's properties or definitions, the keywords of a node that has many) is
/// indexed by name the first time, so a `$ref` costs log n per step wherever it points
/// (100,000 refs into as many properties, nested definitions or escaped names each scanned
/// the list per ref, issues 22 and 32). It answers as a scan of each list would.
pub(crate) struct Document<'a> {
    root: &'a Schema<'a>,
    lists: Lists<'a>,
}

impl<'a> Document<'a> {
    /// The document `root`; its lists are indexed as pointers reach them.
    pub(crate) fn new(root: &'a Schema<'a>) -> Document<'a> {
        Document { root, lists: Lists::default() }
    }

    /// Where `reference` leads: `#` or any JSON pointer into the document (its `%XX` escapes
    /// decoded first, then each token's `~1` and `~0`).
    pub(crate) fn resolve(&self, reference: &str) -> Target<'a> {
        let Some(fragment) = reference.strip_prefix('#') else { return Target::External };
        let Some(decoded) = percent_decode(fragment) else { return Target::Dangling };
        if decoded.is_empty() {
            return Target::Found(self.root);
        }
        let Some(rest) = decoded.strip_prefix('/') else { return Target::Dangling };
        let mut cur = self.root;
        let mut tokens = rest.split('/');
        while let Some(token) = tokens.next() {
            let Some(e) = self.lists.keyword(cur.keywords, token) else {
                return Target::Dangling;
            };
            cur = match e.value {
                Value::Schema(s) => s,
                Value::Props(props) => {
                    let Some(name) = tokens.next() else { return Target::Dangling };
                    match self.lists.property(props, name) {
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
}

/// Lists longer than this are indexed; shorter ones are scanned, as most keyword lists are.
const SHORT: usize = 16;

/// Name lookups in the lists of one schema document, by an RFC 6901 reference token (`~1`
/// for `/`, `~0` for `~`): a long list is indexed by name the first time a lookup reaches it
/// ([`NameSet`], kept by the list's address), so each list is sorted once however many
/// pointers go through it. Short lists are scanned, with no index and no allocation.
#[derive(Default)]
pub(crate) struct Lists<'a> {
    indexes: RefCell<Indexes<'a>>,
}

#[derive(Default)]
struct Indexes<'a> {
    props: HashMap<usize, NameSet<'a, Prop<'a>>, ByAddress>,
    keywords: HashMap<usize, NameSet<'a, Entry<'a>>, ByAddress>,
    /// A token with escapes, decoded.
    token: String,
}

impl<'a> Lists<'a> {
    /// The first keyword of `keywords` the token `token` names.
    pub(crate) fn keyword(&self, keywords: &'a [Entry<'a>], token: &str) -> Option<&'a Entry<'a>> {
        if keywords.len() <= SHORT {
            return keywords.iter().find(|e| token_is(token, entry_name(e)));
        }
        let mut indexes = self.indexes.try_borrow_mut().ok()?;
        let Indexes { keywords: sets, token: scratch, .. } = &mut *indexes;
        let wanted = unescape(token, scratch)?;
        let set = sets.entry(keywords.as_ptr() as usize).or_insert_with(|| NameSet::new(keywords));
        set.get(wanted)
    }

    /// The first property of `props` the token `token` names.
    pub(crate) fn property(&self, props: &'a [Prop<'a>], token: &str) -> Option<&'a Prop<'a>> {
        if props.len() <= SHORT {
            return props.iter().find(|p| token_is(token, p.name));
        }
        let mut indexes = self.indexes.try_borrow_mut().ok()?;
        let Indexes { props: sets, token: scratch, .. } = &mut *indexes;
        let wanted = unescape(token, scratch)?;
        let set = sets.entry(props.as_ptr() as usize).or_insert_with(|| NameSet::new(props));
        set.get(wanted)
    }
}

/// The name the RFC 6901 token `raw` stands for (`~1` → `/`, `~0` → `~`), decoded into
/// `scratch` when it has escapes; `None` for a `~` that starts no escape (it names nothing,
/// as [`token_is`] says).
fn unescape<'t>(raw: &'t str, scratch: &'t mut String) -> Option<&'t str> {
    if !raw.contains('~') {
        return Some(raw);
    }
    scratch.clear();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        scratch.push(match c {
            '~' => match chars.next() {
                Some('1') => '/',
                Some('0') => '~',
                _ => return None,
            },
            c => c,
        });
    }
    Some(scratch.as_str())
}

/// Hashes a list's address as it is: addresses are the converter's own, not the input's, and
/// distinct lists never share one.
#[derive(Default, Clone, Copy)]
struct ByAddress;

impl BuildHasher for ByAddress {
    type Hasher = AddressHasher;

    fn build_hasher(&self) -> AddressHasher {
        AddressHasher(0)
    }
}

/// The [`ByAddress`] hasher: the address, its low bits (alignment) mixed up.
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = n as u64;
    }
}

#[cfg(test)]
mod tests {
    use bumpalo::Bump;

    use super::{Document, Target, resolve};
    use crate::ir::{Entry, Json, Keyword, Member, Prop, Schema, Value, features_of};

    /// A node holding `keywords`, in `arena`.
    fn node<'a>(arena: &'a Bump, keywords: Vec<Entry<'a>>) -> Schema<'a> {
        let keywords = arena.alloc_slice_copy(&keywords);
        Schema { boolean: None, keywords, features: features_of(keywords), at: 0 }
    }

    /// RFC 6901 escapes, then every byte that is not alphanumeric percent-encoded when
    /// `percent` is set.
    fn token(name: &str, percent: bool) -> String {
        let escaped = name.replace('~', "~0").replace('/', "~1");
        if !percent {
            return escaped;
        }
        escaped
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    }

    /// The indexed document answers every pointer as the plain scan does, through long lists
    /// (indexed) and short ones (scanned), names with `~`, `/`, `%` and spaces, nested
    /// definitions, a node with many keywords, and pointers that lead nowhere.
    #[test]
    fn indexed_resolution_agrees_with_the_scan() {
        let arena = Bump::new();
        let leaf = |i: usize| {
            let at = u32::try_from(i).unwrap_or(0);
            Schema { at, ..Schema::bool(true, at) }
        };
        let names: Vec<String> = (0..40)
            .map(|i| match i % 5 {
                0 => format!("p{i}"),
                1 => format!("a~{i}"),
                2 => format!("b/{i}/c"),
                3 => format!("c {i}%"),
                _ => format!("~1{i}~0"),
            })
            .collect();
        let props = |n: usize| -> &[Prop<'_>] {
            let list: Vec<Prop<'_>> = names
                .iter()
                .take(n)
                .enumerate()
                .map(|(i, name)| Prop::new(arena.alloc_str(name), 0, leaf(i)))
                .collect();
            arena.alloc_slice_copy(&list)
        };
        let inner = node(
            &arena,
            vec![Entry { keyword: Keyword::Defs, at: 0, value: Value::Props(props(40)) }],
        );
        let mut defs: Vec<Prop<'_>> = props(40).to_vec();
        defs.push(Prop::new("box", 0, inner));
        let defs = arena.alloc_slice_copy(&defs);
        let mut keywords: Vec<Entry<'_>> = (0..30)
            .map(|i| {
                let key = arena.alloc_str(&format!("x-{i}"));
                let m = arena.alloc(Member { key, value: Json::Null });
                Entry { keyword: Keyword::Unknown, at: 0, value: Value::Unknown(m) }
            })
            .collect();
        keywords.push(Entry {
            keyword: Keyword::Properties,
            at: 0,
            value: Value::Props(props(40)),
        });
        keywords.push(Entry {
            keyword: Keyword::Definitions,
            at: 0,
            value: Value::Props(props(8)),
        });
        keywords.push(Entry { keyword: Keyword::Defs, at: 0, value: Value::Props(defs) });
        let root = &*arena.alloc(node(&arena, keywords));
        let mut pointers =
            vec!["#".to_owned(), "#/".to_owned(), "x#/$defs".to_owned(), "#/x-3".to_owned()];
        for name in names.iter().chain([&"missing".to_owned(), &"a~".to_owned()]) {
            for percent in [false, true] {
                let t = token(name, percent);
                for prefix in ["properties", "definitions", "$defs", "$defs/box/$defs", "%24defs"] {
                    pointers.push(format!("#/{prefix}/{t}"));
                }
            }
            pointers.push(format!("#/$defs/{}~2", token(name, false)));
        }
        let document = Document::new(root);
        for _ in 0..2 {
            for p in &pointers {
                let (a, b) = (document.resolve(p), resolve(root, p));
                let same = match (&a, &b) {
                    (Target::Found(x), Target::Found(y)) => std::ptr::eq(*x, *y),
                    (Target::Dangling, Target::Dangling) | (Target::External, Target::External) => {
                        true
                    }
                    _ => false,
                };
                assert!(same, "{p}");
            }
        }
        // The pointers reach every kind of answer.
        assert!(
            pointers.iter().filter(|p| matches!(resolve(root, p), Target::Found(_))).count() > 200
        );
        assert!(pointers.iter().any(|p| matches!(resolve(root, p), Target::Dangling)));
    }
}
