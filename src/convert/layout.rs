//! Where a document kept its tool list, beyond a bare array or one catalog object: an envelope
//! around the catalog (an MCP JSON-RPC response, a Gemini request) and catalog objects inside
//! the list (a Gemini request's `Tool`s, each a group of declarations). `read.rs` records it
//! while lowering; here it is written back for the same format, and what another format has
//! no place for is reported.

use crate::adapter::{Adapter, EmitContext};
use crate::emit::Writer;
use crate::ir::{Json, Member, Tool};
use crate::pointer::{Seg, write_seg};
use crate::report::{Code, EntryKind, Note, Recorder, ReportEntry};
use crate::route::Route;

/// How a lowered catalog sat in its document, for the same format to write it back.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Layout<'a> {
    /// The list was a JSON array (the document, or an envelope's member), not a member of a
    /// catalog object.
    pub array: bool,
    /// The catalog object's members in order, the list a placeholder under `list_key`.
    pub wrapper: &'a [Member<'a>],
    /// The member of `wrapper` that held the list (the catalog key as the source spelled it).
    pub list_key: &'a str,
    /// The envelope around the catalog object, or around the list when `array` (a JSON-RPC
    /// response; a request): its members in order, the catalog a placeholder under
    /// `outer_key`. Empty when there was none.
    pub outer: &'a [Member<'a>],
    /// The member of `outer` that held the catalog.
    pub outer_key: &'a str,
    /// The envelope is a transport's (JSON-RPC's `jsonrpc` and `id`): dropping its members
    /// loses nothing of the tools.
    pub transport: bool,
    /// The elements of the list that were catalog objects of their own, in order.
    pub groups: &'a [Group<'a>],
}

/// An element of the list that was a catalog object (a Gemini request's `Tool` with its
/// `functionDeclarations`): its tools are read in place, among the list's other tools.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group<'a> {
    /// The element's index in the list.
    pub index: u32,
    /// The tape positions the element spans: the tools read from it are those whose
    /// position lies in `at..end`, wherever passes leave them in the slice.
    pub at: u32,
    pub end: u32,
    /// Its members in order, its list a placeholder under `key`.
    pub members: &'a [Member<'a>],
    pub key: &'a str,
    /// How many tools it held in the source.
    pub tools: u32,
}

impl Group<'_> {
    /// A group before it is read.
    pub const EMPTY: Group<'static> =
        Group { index: 0, at: 0, end: 0, members: &[], key: "", tools: 0 };
}

impl<'a> Layout<'a> {
    /// A bare array, or the format's catalog object without members of its own.
    pub const fn plain(array: bool) -> Layout<'a> {
        Layout {
            array,
            wrapper: &[],
            list_key: "",
            outer: &[],
            outer_key: "",
            transport: false,
            groups: &[],
        }
    }
}

/// Writes `tools` as a catalog: the target's catalog shape, or, for the same format (or
/// family: one API), the source's layout (its envelope, its catalog object's members, a bare
/// array, its groups).
pub(crate) fn write_catalog(
    to: &dyn Adapter,
    tools: &[Tool<'_>],
    layout: &Layout<'_>,
    cx: &EmitContext<'_>,
    w: &mut Writer<'_>,
) {
    if !cx.same_family() {
        to.write_catalog(tools, &[], cx, w);
        return;
    }
    if layout.outer.is_empty() {
        return write_list(to, tools, layout, cx, w);
    }
    w.begin_object();
    for m in layout.outer {
        w.key(m.key);
        if m.key == layout.outer_key {
            write_list(to, tools, layout, cx, w);
        } else {
            w.json(&m.value);
        }
    }
    w.end_object();
}

/// The same format's list where the source had it: a bare array (its groups in place), or
/// the object that held it with the source's members in their places. That object is the
/// format's catalog object, or a request body holding the list under the catalog key (an
/// OpenAI or Anthropic request's `tools`, beside its `model` and `messages`), kept whole
/// whatever shape the format gives a catalog of its own.
fn write_list(
    to: &dyn Adapter,
    tools: &[Tool<'_>],
    layout: &Layout<'_>,
    cx: &EmitContext<'_>,
    w: &mut Writer<'_>,
) {
    if !layout.array {
        let each = |t: &Tool<'_>, w: &mut Writer<'_>| to.write_tool(t, cx, w);
        crate::formats::write_object_catalog(layout.list_key, tools, layout.wrapper, each, w);
        return;
    }
    w.begin_array();
    let mut rest = tools;
    for g in layout.groups {
        let before = rest.iter().take_while(|t| t.at < g.at).count();
        let (singles, from_group) = rest.split_at(before);
        for tool in singles {
            w.element();
            to.write_tool(tool, cx, w);
        }
        let inside = from_group.iter().take_while(|t| t.at < g.end).count();
        let (mine, after) = from_group.split_at(inside);
        // A group whose every tool was left out, and which held nothing else, goes too.
        if !(mine.is_empty() && g.tools > 0 && g.members.len() == 1) {
            w.element();
            to.write_catalog(mine, g.members, cx, w);
        }
        rest = after;
    }
    for tool in rest {
        w.element();
        to.write_tool(tool, cx, w);
    }
    w.end_array();
}

/// Reports each member of the source's layout that another format's catalog has no place
/// for: the catalog object's (a warning; an `info` for the hints the source format names,
/// such as MCP's `ttlMs`), the envelope's (`info` for a transport's, a warning for a
/// request's), none about any tool's arguments; and a group's other members, which are
/// provider built-ins set beside its declarations (left out, as one standing alone is).
pub(crate) fn report_dropped(
    layout: &Layout<'_>,
    route: &Route<'_>,
    report: &mut Recorder<'_, '_>,
) {
    let (from, to) = (route.source, route.target);
    let hints = from.info().catalog_hints;
    let mut pointer = String::new();
    // A `null` member (`"nextCursor": null`) loses nothing. An empty object may: Gemini's
    // `"googleSearch": {}` turns a built-in tool on.
    let holds = |m: &&Member<'_>| m.value != Json::Null;
    for m in layout.outer.iter().filter(|m| m.key != layout.outer_key).filter(holds) {
        pointer.clear();
        write_seg(&mut pointer, Seg::Key(m.key));
        let why = match layout.transport {
            true => Why::Transport,
            false => Why::Request,
        };
        report.push(dropped(route, why, m.key, &pointer));
    }
    for m in layout.wrapper.iter().filter(|m| m.key != layout.list_key).filter(holds) {
        pointer.clear();
        if !layout.outer.is_empty() {
            write_seg(&mut pointer, Seg::Key(layout.outer_key));
        }
        write_seg(&mut pointer, Seg::Key(m.key));
        let why = if hints.contains(&m.key) { Why::Hint } else { Why::Member };
        report.push(dropped(route, why, m.key, &pointer));
    }
    for g in layout.groups {
        for m in g.members.iter().filter(|m| m.key != g.key).filter(holds) {
            pointer.clear();
            if !layout.outer.is_empty() {
                write_seg(&mut pointer, Seg::Key(layout.outer_key));
            }
            write_seg(&mut pointer, Seg::Index(g.index as usize));
            let group = pointer.clone();
            write_seg(&mut pointer, Seg::Key(m.key));
            // Left out: every call of the built-in is refused.
            let message = format!(
                "`{}`, beside the declarations of the tool at {group}, is a built-in {} tool, not a function tool; {} has no equivalent, so it is left out",
                m.key,
                from.name(),
                to.name()
            );
            let kind = EntryKind::left_out(Code::NotAFunctionTool);
            let note = Note { kind, feature: m.key, pointer: pointer.as_str(), message };
            report.push(note.entry(String::new(), from.name(), to.name(), (0, 0, 0)));
        }
    }
}

/// What a dropped member of the layout was.
#[derive(Clone, Copy)]
enum Why {
    /// A member of the catalog object: it may say something of the tools.
    Member,
    /// A member of a request around the tools (its contents, its tool config).
    Request,
    /// A catalog hint of the source format ([`crate::FormatInfo::catalog_hints`]).
    Hint,
    /// A member of a transport's envelope.
    Transport,
}

/// The entry for catalog member `key` at `pointer`, dropped: a warning, but for what says
/// nothing of the tools. No tool's arguments depend on it (effect none, not about the
/// arguments); what warns is what the catalog or request said of its tools (more follow, a
/// call is forced), which the target's catalog no longer says.
fn dropped(route: &Route<'_>, why: Why, key: &str, pointer: &str) -> ReportEntry {
    let to = route.target.name();
    let lost: fn(Code) -> EntryKind = EntryKind::metadata_lost;
    let kept: fn(Code) -> EntryKind = EntryKind::metadata;
    let (kind, message) = match why {
        Why::Member => {
            (lost, format!("catalog member `{key}` has no place in a `{to}` catalog; dropped"))
        }
        Why::Request => (
            lost,
            format!(
                "request member `{key}` is not a tool and has no place in a `{to}` catalog; dropped"
            ),
        ),
        Why::Hint => (
            kept,
            format!(
                "`{key}` says how to hold the list, not what its tools are, and has no place in a `{to}` catalog; dropped"
            ),
        ),
        Why::Transport => (
            kept,
            format!("`{key}` belongs to the response's envelope, not to the catalog; dropped"),
        ),
    };
    let note = Note { kind: kind(Code::CatalogMemberDropped), feature: key, pointer, message };
    note.entry(String::new(), route.source.name(), to, (0, 0, 0))
}
