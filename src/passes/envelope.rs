//! Envelope pass: what the target's tool object has no place for.
//!
//! Input: a lowered tool. Output: the same tool; report entries for each metadata member,
//! input schema, output schema or `strict` the target drops, and for a missing input schema
//! the target requires. A provider built-in tool (opaque) is left out when converting to
//! another format.
//!
//! Where the target's tool object is its input schema (LangChain), [`schema_root`] runs last
//! and moves the schema's own root `title` and `description` out of the way of the tool's.

use crate::error::ConversionError;
use crate::ir::{Keyword, MemberKeeps, Role, Schema, Tool, ToolMember, Value};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, EntryKind, Note, PathPointer, Shared};

use crate::passes::cow::CowSlice;

use crate::passes::cx::PassCx;

use crate::passes::node::arena_error;

use crate::ir::features_of;

use crate::passes::describe::render;

/// Returns whether the tool is emitted.
pub(super) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    let keeps = cx.route.keeps;
    if tool.opaque.is_some() {
        // A built-in is the provider's: kept by the formats of its API (one family).
        if cx.route.same_family() {
            return Ok(true);
        }
        // Its `type` (OpenAI, Anthropic), else the name its reader gave it (Bedrock's union
        // member: `cachePoint`, `systemTool`).
        let kind = tool
            .opaque
            .and_then(|raw| raw.get("type").and_then(|t| t.as_str()))
            .or(Some(tool.name).filter(|n| !n.is_empty()));
        let message = format!(
            "`{}` is a built-in {} tool, not a function tool; {} has no equivalent, so it is left out",
            kind.unwrap_or("?"),
            cx.source().name(),
            cx.target().name()
        );
        cx.record(
            tool,
            tool.at,
            // Left out: every call of the tool is refused.
            Note {
                kind: EntryKind::left_out(Code::NotAFunctionTool),
                feature: kind.unwrap_or("type"),
                pointer: String::new(),
                message,
            },
        );
        return Ok(false);
    }
    let target = cx.target().name();
    // Metadata and the output schema: no argument depends on them, and the target's
    // provider never reads them (the source catalog still holds them), so the same calls
    // are accepted: `info`, not about the arguments.
    for m in tool.members {
        match m.role {
            Role::Meta | Role::Outer if !keeps.keeps_member(m.role, m.key) => {
                match cx.target().info().closed_members.filter(|_| cx.same_format()) {
                    // The source's own format: the member was written for this provider,
                    // which refuses it, so dropping it changes the file the caller wrote.
                    Some(error) => {
                        let note = [
                            "`",
                            m.key,
                            "` is not a member ",
                            target,
                            " tools define, and the provider refuses the tool with it (\"",
                            error,
                            ": …\"); dropped",
                        ];
                        dropped(tool, m, cx, EntryKind::metadata_lost(Code::MetadataDropped), note);
                    }
                    None => {
                        let note = ["`", m.key, "` has no place in ", target, " tools; dropped"];
                        dropped(tool, m, cx, EntryKind::metadata(Code::MetadataDropped), note);
                    }
                }
            }
            Role::Output if !keeps.keeps(Role::Output) => {
                let note = [target, " tools have no output schema; dropped"];
                dropped(tool, m, cx, EntryKind::metadata(Code::OutputSchemaDropped), note);
            }
            Role::Strict if tool.strict.is_some() && !cx.target().info().holds_strict() => {
                // `strict: true` had the provider hold the model's arguments to the schema:
                // that guarantee is lost (a warning). `strict: false` promised nothing.
                let code = Code::MetadataDropped;
                let kind = if tool.strict == Some(true) {
                    EntryKind::guarantee_lost(code)
                } else {
                    EntryKind::metadata(code)
                };
                let note = [target, " tools have no `strict` flag; dropped"];
                dropped(tool, m, cx, kind, note);
            }
            _ => {}
        }
    }
    // A target without a place for `strict` does not write it, whoever's writer it uses (the
    // providers serving OpenAI's Chat shape share its writer, not its `strict`).
    if !cx.target().info().holds_strict() {
        tool.strict = None;
    }
    // Checked on the typed field, not on a member: a LangChain tool's input schema is the tool
    // object itself, with no member of its own. Dropped here, before any pass reads it.
    if let Some(input) = tool.input
        && !cx.target().info().holds_input_schema
    {
        let member = tool.members.iter().find(|m| m.role == Role::Input);
        tool.input = None;
        // The same pointer and note for every tool of a catalog: shared. Nothing describes
        // the arguments any more: any are accepted.
        let note = Note {
            kind: EntryKind::arguments(Code::InputSchemaDropped, Effect::Widens),
            feature: member.map_or("inputSchema", |m| m.key),
            pointer: Shared::new([tool.input_pointer]),
            message: Shared::new([
                target,
                " tools have no input schema; dropped: the tool's arguments are no longer described",
            ]),
        };
        cx.record(tool, member.map_or(input.at, |m| m.at), note);
    }
    if tool.input.is_none() && cx.target().info().requires_input_schema {
        // A strict tool gets the closed form (the strict pass writes it), which takes no
        // arguments, as a tool without an input schema does. The open form takes any keys.
        let (written, effect, what) = if cx.profile.strict_rules().is_some() {
            (crate::ir::CLOSED_EMPTY_OBJECT_SCHEMA, Effect::None, "no arguments, as before")
        } else {
            (
                crate::ir::EMPTY_OBJECT_SCHEMA,
                Effect::Widens,
                "it accepts any keys, where the source took no arguments",
            )
        };
        let message = format!(
            "the source has no input schema and {} requires one; wrote {written} ({what})",
            cx.target().name(),
        );
        let note = Note {
            kind: EntryKind::arguments(Code::InputSchemaAdded, effect),
            feature: "inputSchema",
            pointer: tool.input_pointer.to_owned(),
            message,
        };
        cx.record(tool, tool.at, note);
    }
    // Dropped members leave the tool: the same format's writer writes the members as read,
    // and the check after the passes holds the tool's members to the target's rules.
    drop_members(tool, keeps, cx)?;
    Ok(true)
}

/// Takes the members the route does not keep out of `tool` (a copy in the arena; the tool's
/// slice is shared with the lowered document).
fn drop_members<'a>(
    tool: &mut Tool<'a>,
    keeps: MemberKeeps,
    cx: &PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    let dropped = |m: &ToolMember<'_>| {
        matches!(m.role, Role::Meta | Role::Outer) && !keeps.keeps_member(m.role, m.key)
    };
    if !tool.members.iter().any(dropped) {
        return Ok(());
    }
    let copy =
        cx.arena.try_alloc_slice_copy(tool.members).map_err(|_| arena_error(&Path::ROOT, cx))?;
    let mut kept = 0;
    for i in 0..copy.len() {
        if let Some(&m) = copy.get(i)
            && !dropped(&m)
        {
            if let Some(slot) = copy.get_mut(kept) {
                *slot = m;
            }
            kept += 1;
        }
    }
    let copy: &'a [ToolMember<'a>] = copy;
    tool.members = copy.get(..kept).unwrap_or_default();
    Ok(())
}

/// Records that member `m` of `tool`, which no argument depends on, is dropped, with `note`
/// (pieces written one after the other). The tools of a catalog mostly carry the same
/// members: the pointer and the note are shared by the entries that repeat them.
fn dropped<'a, const N: usize>(
    tool: &Tool<'a>,
    m: &'a ToolMember<'a>,
    cx: &mut PassCx<'a, '_>,
    kind: EntryKind,
    note: [&str; N],
) {
    let scope = if m.role == Role::Outer { "" } else { tool.members_pointer };
    // A key with `~` or `/` is escaped in its pointer: that pointer is written each time.
    let plain = !m.key.bytes().any(|b| b == b'~' || b == b'/');
    let pointer = Shared::when(plain, [scope, "/", m.key])
        .or(|out: &mut String| tool.write_member_pointer(m, out));
    let message = Shared::new(note);
    cx.record(tool, m.at, Note { kind, feature: m.key, pointer, message });
}

/// For a target whose tool object is its input schema ([`crate::format::FormatInfo::tool_is_schema`]):
/// the schema's root `title` and `description` would collide with the tool's name and
/// description, written under the same keys. The tool's win. The root `title` is dropped
/// (`info`: an annotation, and the tool's name takes its place). The root `description` is
/// moved into the tool's description, so the model still reads it: it becomes the
/// description of a tool without one, is dropped where it says what the tool's says, and is
/// appended after a blank line otherwise (`info` each). A description that is not a string is
/// dropped with a warning.
pub(super) fn schema_root<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<(), ConversionError> {
    if !cx.target().info().tool_is_schema || tool.opaque.is_some() {
        return Ok(());
    }
    let Some(root) = tool.input else { return Ok(()) };
    let collides = |k: Keyword| matches!(k, Keyword::Title | Keyword::Description);
    if !root.keywords.iter().any(|e| collides(e.keyword)) {
        return Ok(());
    }
    let base = Path::ROOT;
    let path = base.push(Seg::Raw(tool.input_pointer));
    let t = *tool;
    let target = cx.target().name();
    let mut description = tool.description;
    let mut out = CowSlice::new(root.keywords);
    for (i, e) in root.keywords.iter().enumerate() {
        if !collides(e.keyword) {
            out.same(i);
            continue;
        }
        let name = e.keyword.as_str();
        let place = path.push(Seg::Key(name));
        let pointer = PathPointer(&place);
        // Annotations of the input schema: the same calls are accepted.
        let (kind, message) = match (e.keyword, e.value) {
            (Keyword::Title, _) => (
                EntryKind::arguments(Code::KeywordDropped, Effect::None),
                format!(
                    "the input schema's `title` ({}) has no place in a {target} tool, whose `title` is the tool name ({:?}); dropped",
                    render(&e.value),
                    t.name
                ),
            ),
            (_, Value::Str(d)) => {
                let (text, how) = match description {
                    None => (d, "the tool has none, so it becomes the tool's description"),
                    Some(own) if own == d => (own, "it repeats the tool's description; dropped"),
                    Some(own) => {
                        let joined = cx
                            .arena
                            .try_alloc_str(&[own, "\n\n", d].concat())
                            .map_err(|_| arena_error(&path, cx))?;
                        (&*joined, "appended to the tool's description")
                    }
                };
                description = Some(text);
                (
                    EntryKind::arguments(Code::KeywordDescribed, Effect::None),
                    format!(
                        "the input schema's `description` has no place of its own in a {target} tool, whose `description` is the tool's: {how}"
                    ),
                )
            }
            _ => (
                EntryKind::unsure(Code::KeywordDropped),
                format!(
                    "the input schema's `description` ({}) is not text and has no place in a {target} tool; dropped",
                    render(&e.value)
                ),
            ),
        };
        let note = Note { kind, feature: name, pointer, message };
        cx.record(&t, e.at, note);
        out.removed(i, cx.arena).map_err(|()| arena_error(&path, cx))?;
    }
    if let Some(keywords) = out.finish() {
        tool.input = Some(Schema { keywords, features: features_of(keywords), ..root });
    }
    tool.description = description;
    Ok(())
}
