//! MCP 2026-07-28's `x-mcp-header`: an annotation on a property's schema that mirrors the
//! argument into an `Mcp-Param-{name}` HTTP header on the Streamable HTTP transport.
//!
//! The rules, from the specification (2026-07-28, basic/transports/streamable-http, "Custom
//! Headers from Tool Parameters" › "Schema Extension"; modelcontextprotocol/modelcontextprotocol,
//! read 2026-11-26): the value is not empty and is an HTTP field-name token (`1*tchar`, RFC
//! 9110 §5.6.2, so no control characters); values are unique regardless of case within the
//! input schema; only on a parameter of a primitive type (string, integer, boolean: "`number`
//! [is] not permitted"); only on a property reached from the root through `properties` keys
//! alone ("An `x-mcp-header` annotation anywhere else makes the annotation — and thus the tool
//! definition — invalid"). "Clients … MUST reject tool definitions where any `x-mcp-header`
//! value violates these constraints … exclude the invalid tool from the result of
//! `tools/list`": such a tool is left out here too, with an error entry. A valid one is
//! dropped for any other format, which does not read it, with an `info` entry: it does not
//! change what the tool accepts.

use crate::error::ConversionError;
use crate::ir::visit::{Visit, walk_schema};
use crate::ir::{Entry, JsonType, Keyword, Prop, Schema, Tool, Value, features_of};
use crate::lower::{Lowerer, ReadNote};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, EntryKind, Note};

/// The annotation's keyword.
pub(super) const KEY: &str = "x-mcp-header";

/// An annotation found in the input schema.
struct Found<'a> {
    /// Its value, when a string.
    name: Option<&'a str>,
    /// Source position of the keyword.
    at: u32,
    /// Its pointer, relative to the tool.
    pointer: String,
    /// The schema holding it is a property reached through `properties` alone.
    reachable: bool,
    /// That schema's type is one primitive type (string, integer or boolean), `null` aside.
    primitive: bool,
}

/// Finds the annotations of a schema. Its scope says whether a node's `properties` are
/// reached from the root through `properties` alone.
#[derive(Default)]
struct Finder<'a> {
    found: Vec<Found<'a>>,
}

impl<'a> Finder<'a> {
    /// The node `s` at `path`: a property reached through `properties` alone when `reachable`;
    /// its own properties are so reached when `chain` holds.
    fn node(&mut self, s: &Schema<'a>, path: &Path<'_>, reachable: bool, chain: bool) {
        for e in s.keywords {
            if let Value::Unknown(m) = e.value
                && m.key == KEY
            {
                self.found.push(Found {
                    name: m.value.as_str(),
                    at: e.at,
                    pointer: path.push(Seg::Key(KEY)).to_pointer(),
                    reachable,
                    primitive: primitive(s),
                });
            }
        }
        walk_schema(self, s, path, chain);
    }
}

impl<'a> Visit<'a> for Finder<'a> {
    type Scope = bool;

    /// A subschema that is not a property (`items`, a branch of `anyOf`, …): neither it nor
    /// anything below it is reached through `properties` alone.
    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, _chain: bool) {
        self.node(s, path, false, false);
    }

    fn visit_prop(&mut self, keyword: Keyword, p: &'a Prop<'a>, path: &Path<'_>, chain: bool) {
        let reachable = chain && keyword == Keyword::Properties;
        self.node(&p.schema, path, reachable, reachable);
    }
}

/// Whether `s` declares one primitive type the header can carry, `null` aside (the header
/// is then omitted, as for an absent argument).
fn primitive(s: &Schema<'_>) -> bool {
    let Some(types) = s.keywords.iter().find_map(|e| match (e.keyword, e.value) {
        (Keyword::Type, Value::Type(t)) => Some(t.list),
        _ => None,
    }) else {
        return false;
    };
    let mut named = types.iter().filter(|t| **t != JsonType::Null);
    matches!(
        (named.next(), named.next()),
        (Some(JsonType::String | JsonType::Integer | JsonType::Boolean), None)
    )
}

/// An HTTP field-name token character (RFC 9110 §5.6.2 `tchar`).
fn tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Why the annotation `f` is invalid, given the valid ones before it; `None` when it is valid.
fn invalid(f: &Found<'_>, before: &[Found<'_>]) -> Option<String> {
    let Some(name) = f.name else { return Some("its value is not a string".to_owned()) };
    if name.is_empty() {
        return Some("its value is empty".to_owned());
    }
    if !name.bytes().all(tchar) {
        return Some(format!(
            "{name:?} is not an HTTP field-name token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~)"
        ));
    }
    if !f.reachable {
        return Some(
            "it is not on a property reached from the root through `properties` alone".to_owned(),
        );
    }
    if !f.primitive {
        return Some("its property's type is not one of string, integer and boolean".to_owned());
    }
    let twice = before.iter().filter_map(|b| b.name).find(|b| b.eq_ignore_ascii_case(name));
    twice.map(|other| format!("{name:?} repeats {other:?} (header names ignore case)"))
}

/// Checks the `x-mcp-header` annotations of `tool`'s input schema (lowered at `at`). An
/// invalid one leaves the tool out, with an error; for another format, the valid ones are
/// taken out of the schema, with an `info` entry each.
pub(super) fn check<'a>(
    lw: &mut Lowerer<'a, '_>,
    tool: &mut Tool<'a>,
) -> Result<(), ConversionError> {
    let Some(input) = tool.input else { return Ok(()) };
    let mut finder = Finder::default();
    finder.node(&input, &Path::ROOT.push(Seg::Raw(tool.input_pointer)), false, true);
    let found = finder.found;
    // A tool left out refuses every call; a header mirror dropped changes no argument.
    let note = |f: &Found<'_>, kind: EntryKind, message, leave_out| ReadNote {
        tool_at: tool.at,
        at: f.at,
        note: Note { kind, feature: KEY, pointer: f.pointer.clone(), message },
        leave_out,
    };
    for (i, f) in found.iter().enumerate() {
        if let Some(why) = invalid(f, found.get(..i).unwrap_or_default()) {
            let message = format!(
                "invalid `x-mcp-header`: {why}. MCP clients must leave out a tool with an invalid one (2026-07-28, Streamable HTTP), so it is left out"
            );
            lw.note(note(f, EntryKind::left_out(Code::InvalidTool), message, true));
            return Ok(());
        }
    }
    if found.is_empty() || lw.same_format() {
        return Ok(());
    }
    for f in &found {
        let message = format!(
            "`x-mcp-header` mirrors this argument into the `Mcp-Param-{}` header on MCP's Streamable HTTP transport; other formats do not read it, so it is dropped: what the tool accepts is unchanged",
            f.name.unwrap_or_default()
        );
        lw.note(note(f, EntryKind::arguments(Code::KeywordDropped, Effect::None), message, false));
    }
    let path = Path::ROOT.push(Seg::Raw(tool.input_pointer));
    tool.input = Some(strip(lw, &input, &path)?);
    Ok(())
}

/// `s` without its annotations, nor those of the properties below it, reached through
/// `properties` alone (where every valid one is).
fn strip<'a>(
    lw: &Lowerer<'a, '_>,
    s: &Schema<'a>,
    path: &Path<'_>,
) -> Result<Schema<'a>, ConversionError> {
    let mine = |e: &Entry<'_>| matches!(e.value, Value::Unknown(m) if m.key == KEY);
    let len = s.keywords.iter().filter(|e| !mine(e)).count();
    let blank = Entry { keyword: Keyword::Unknown, at: 0, value: Value::Bool(false) };
    let keywords = lw.alloc_slice(len, blank, path)?;
    for (slot, e) in keywords.iter_mut().zip(s.keywords.iter().filter(|e| !mine(e))) {
        *slot = *e;
        if let (Keyword::Properties, Value::Props(props)) = (e.keyword, e.value) {
            let p = path.push(Seg::Key("properties"));
            let blank = Prop::new("", 0, Schema::bool(true, 0));
            let copied = lw.alloc_slice(props.len(), blank, &p)?;
            for (c, prop) in copied.iter_mut().zip(props) {
                let schema = strip(lw, &prop.schema, &p.push(Seg::Key(prop.name)))?;
                *c = Prop { schema, ..*prop };
            }
            slot.value = Value::Props(copied);
        }
    }
    Ok(Schema { keywords, features: features_of(keywords), ..*s })
}
