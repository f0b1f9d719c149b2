//! Schemas copied from the document into a tool, keyword by keyword, only `$ref`s changing:
//! a reference to `#/components/schemas/X` becomes `#/$defs/X` and `X` joins the tool's
//! `$defs` (with everything it references in turn); any other reference is left out, with a
//! note in the schema's description and a report entry. A parameter's or body property's
//! description, `deprecated` and examples are added to its schema here.
//!
//! OpenAPI 3.0 keywords (`nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, `example`)
//! are copied as they are, not translated here: the tool is marked as OpenAPI 3.0 and the
//! passes read them into what the target holds, as they do for any other source.

use std::collections::BTreeSet;

use crate::emit::Writer;
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg, write_seg};
use crate::report::{Code, Effect, EntryKind};

use super::Context;
use super::document::{get, join, unescape};

/// The schema of a media type without one: any value.
pub(super) static ANY: Json<'static> = Json::Object(&[]);

/// `false` as an object schema, to hang a description on.
static NOTHING: [Member<'static>; 1] = [Member { key: "not", value: Json::Object(&[]) }];

/// What a schema written for a parameter or a body property gains from around it.
#[derive(Default)]
pub(super) struct Extras<'a> {
    pub(super) description: Option<&'a str>,
    pub(super) deprecated: bool,
    pub(super) examples: Vec<Json<'a>>,
}

/// The component schemas the tool being written uses, in the order first used.
#[derive(Default)]
pub(super) struct Defs<'a> {
    list: Vec<&'a str>,
    seen: BTreeSet<&'a str>,
}

impl Defs<'_> {
    /// Forgets the previous tool's schemas.
    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.seen.clear();
    }
}

/// Where a `$ref` in a schema leads.
enum RefTarget {
    /// A component schema, now in the tool's `$defs`: the rewritten reference.
    Def(String),
    /// Another document.
    External,
    /// Nowhere in this document.
    Dangling,
    /// Somewhere in this document other than `components/schemas`.
    Elsewhere,
}

/// Writes a schema, `$ref`s rewritten, with `extras` from around it.
pub(super) fn write_schema<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    v: &'a Json<'a>,
    path: &Path<'_>,
    extras: &Extras<'a>,
) {
    let plain = extras.description.is_none() && !extras.deprecated && extras.examples.is_empty();
    match v {
        Json::Object(members) => write_object(cx, w, members, path, extras),
        Json::Bool(b) if plain => w.bool(*b),
        Json::Bool(true) => write_object(cx, w, &[], path, extras),
        Json::Bool(false) => write_object(cx, w, &NOTHING, path, extras),
        // Not a schema: written as it is, for lowering to reject with this pointer.
        other => w.json(other),
    }
}

/// Writes the schema found at pointer `at` of the document, with `extras`; its notes point
/// under `at`.
pub(super) fn write_schema_at<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    v: &'a Json<'a>,
    at: &str,
    extras: &Extras<'a>,
) {
    let root = Path::ROOT;
    write_schema(cx, w, v, &root.push(Seg::Raw(at)), extras);
}

/// Writes an object schema: its keywords in order, then what `extras` adds that it lacks.
fn write_object<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    members: &'a [Member<'a>],
    path: &Path<'_>,
    extras: &Extras<'a>,
) {
    let reference = get(members, "$ref").and_then(Json::as_str);
    let target = reference.map(|r| reference_target(cx, r));
    // A reference that stays out of the tool: the schema says so in its description.
    let unresolved = match (reference, &target) {
        (Some(r), Some(RefTarget::External)) => Some((
            Code::RefExternal,
            format!(
                "(schema `{r}` is in another document, which is never fetched: any value is accepted here)"
            ),
        )),
        (Some(r), Some(RefTarget::Dangling)) => Some((
            Code::RefDangling,
            format!("(schema `{r}` does not resolve in the document: any value is accepted here)"),
        )),
        (Some(r), Some(RefTarget::Elsewhere)) => Some((
            Code::RefDangling,
            format!(
                "(schema `{r}` is not under `components/schemas`, the only place an import takes schemas from: any value is accepted here)"
            ),
        )),
        _ => None,
    };
    if let Some((code, text)) = &unresolved {
        let message = format!(
            "{}; the `$ref` is left out",
            text.trim_start_matches('(').trim_end_matches(')')
        );
        // Any value is accepted where the reference constrained.
        cx.notes.note(
            EntryKind::arguments(*code, Effect::Widens),
            "$ref",
            path.push(Seg::Key("$ref")).to_pointer(),
            message,
        );
    }
    let note = unresolved.as_ref().map(|(_, text)| text.as_str());
    let own = get(members, "description");
    let described = |own: &str| {
        let text = join_text(extras.description.unwrap_or(""), own);
        match note {
            Some(n) if text.is_empty() => n.to_owned(),
            Some(n) => format!("{text} {n}"),
            None => text,
        }
    };
    w.begin_object();
    for m in members {
        let child = path.push(Seg::Key(m.key));
        match (m.key, &m.value) {
            ("$ref", Json::String(_)) => {
                if let Some(RefTarget::Def(rewritten)) = &target {
                    w.key_plain("$ref");
                    w.string(rewritten);
                }
            }
            ("description", Json::String(d)) if extras.description.is_some() || note.is_some() => {
                w.key_plain("description");
                w.string(&described(d));
            }
            (key, value) => {
                w.key(key);
                write_keyword(cx, w, key, value, &child);
            }
        }
    }
    if own.is_none() && (extras.description.is_some() || note.is_some()) {
        w.key_plain("description");
        w.string(&described(""));
    }
    if extras.deprecated && get(members, "deprecated").is_none() {
        w.key_plain("deprecated");
        w.bool(true);
    }
    if !extras.examples.is_empty()
        && get(members, "examples").is_none()
        && get(members, "example").is_none()
    {
        w.key_plain("examples");
        w.begin_array();
        for e in &extras.examples {
            w.element();
            w.json(e);
        }
        w.end_array();
    }
    w.end_object();
}

/// Writes the value of keyword `key`: subschemas through [`write_schema`], anything else
/// (`enum`, `example`, vendor keywords) as it is.
fn write_keyword<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    key: &str,
    value: &'a Json<'a>,
    path: &Path<'_>,
) {
    let none = Extras::default();
    match (subschemas(key), value) {
        (Sub::One, Json::Array(list)) if key == "items" => write_list(cx, w, list, path),
        (Sub::One, v) => write_schema(cx, w, v, path, &none),
        (Sub::List, Json::Array(list)) => write_list(cx, w, list, path),
        (Sub::Map, Json::Object(map)) => {
            w.begin_object();
            for m in *map {
                w.key(m.key);
                write_schema(cx, w, &m.value, &path.push(Seg::Key(m.key)), &none);
            }
            w.end_object();
        }
        (_, v) => w.json(v),
    }
}

/// Writes an array of schemas.
fn write_list<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    list: &'a [Json<'a>],
    path: &Path<'_>,
) {
    w.begin_array();
    for (i, s) in list.iter().enumerate() {
        w.element();
        write_schema(cx, w, s, &path.push(Seg::Index(i)), &Extras::default());
    }
    w.end_array();
}

/// Where `$ref` `r` of a schema leads; a component schema joins the tool's `$defs`.
fn reference_target<'a>(cx: &mut Context<'a, '_>, r: &str) -> RefTarget {
    let Some(fragment) = r.strip_prefix('#') else { return RefTarget::External };
    let Some(rest) = fragment.strip_prefix("/components/schemas/") else {
        return if cx.doc.resolve(fragment).is_some() {
            RefTarget::Elsewhere
        } else {
            RefTarget::Dangling
        };
    };
    let token = unescape(rest.split('/').next().unwrap_or(""));
    let Some((name, _)) = cx.doc.component("schemas", &token) else { return RefTarget::Dangling };
    // A pointer into the component must lead somewhere too.
    if rest.contains('/') && cx.doc.resolve(fragment).is_none() {
        return RefTarget::Dangling;
    }
    if cx.defs.seen.insert(name) {
        cx.defs.list.push(name);
    }
    RefTarget::Def(format!("#/$defs/{rest}"))
}

/// The component schemas the tool uses, and the ones they use, as `$defs`.
pub(super) fn write_defs(cx: &mut Context<'_, '_>, w: &mut Writer<'_>) {
    if cx.defs.list.is_empty() {
        return;
    }
    w.key_plain("$defs");
    w.begin_object();
    // `$defs` as a whole (an entry about inlining it) is the source's component schemas.
    cx.notes.place("/inputSchema/$defs", String::from("/components/schemas"));
    let mut k = 0;
    // Writing one definition may add others to the list.
    while let Some(&name) = cx.defs.list.get(k) {
        k += 1;
        let Some((_, schema)) = cx.doc.component("schemas", name) else { continue };
        let at = join("/components/schemas", name);
        let mut prefix = String::from("/inputSchema/$defs");
        write_seg(&mut prefix, Seg::Key(name));
        cx.notes.place(&prefix, at.clone());
        w.key(name);
        write_schema_at(cx, w, schema, &at, &Extras::default());
    }
    w.end_object();
}

/// How a keyword's value holds subschemas.
enum Sub {
    One,
    List,
    Map,
    No,
}

fn subschemas(key: &str) -> Sub {
    match key {
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "if"
        | "then"
        | "else"
        | "not"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema"
        | "additionalItems" => Sub::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Sub::List,
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Sub::Map
        }
        _ => Sub::No,
    }
}

/// Two texts as one description: the second alone when it starts with the whole first (a
/// description that repeats its summary, up to a word boundary), else both, separated by a
/// blank line.
pub(super) fn join_text(first: &str, second: &str) -> String {
    let (a, b) = (first.trim(), second.trim());
    let repeats = b.strip_prefix(a).is_some_and(|rest| !rest.starts_with(char::is_alphanumeric));
    if a.is_empty() || repeats {
        b.to_owned()
    } else if b.is_empty() {
        a.to_owned()
    } else {
        format!("{a}\n\n{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::join_text;

    #[test]
    fn texts_join_with_a_blank_line_unless_one_repeats_the_other() {
        assert_eq!(join_text("List pets", "Lists all pets."), "List pets\n\nLists all pets.");
        assert_eq!(join_text("List pets", "List pets of the store."), "List pets of the store.");
        assert_eq!(join_text(" ", "only"), "only");
        assert_eq!(join_text("only", ""), "only");
        assert_eq!(join_text("Id", "Identifier of the pet"), "Id\n\nIdentifier of the pet");
        assert_eq!(join_text("Same", "Same"), "Same");
    }
}
