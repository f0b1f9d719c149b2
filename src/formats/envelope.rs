//! Envelope code every format shares: reading a tool object's members into the IR's typed
//! fields, keeping the rest in source order, and writing them back. A format's own folder says
//! which key plays which role; this file does the reading and writing once.

use crate::adapter::EmitContext;
use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{Json, Role, Schema, Tool, ToolMember};
use crate::lower::{At, Kind, Lowerer, SMALL, Seen};
use crate::pointer::{Path, Seg};

/// A format's tool members and the role each plays, as data: the members it names, every
/// other member [`Role::Meta`]. A reader classifies each key of a tool object by its table
/// ([`lower_envelope`]'s `role`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Roles(pub(crate) &'static [(&'static str, Role)]);

impl Roles {
    /// The role of member `key`.
    #[inline]
    pub(crate) fn of(&self, key: &str) -> Role {
        self.0.iter().find(|(k, _)| *k == key).map_or(Role::Meta, |(_, role)| *role)
    }
}

/// A tool with no members yet; envelope readers fill it in.
pub(crate) const EMPTY_TOOL: Tool<'static> = Tool::new("");

/// Reads the members of the tool object at `at`, classifying each key with `role`. Fills the
/// typed fields (name, description, schemas, strict) and keeps every member in source order.
/// Inlined into each format's reader, so that each format's `role` is a direct call on the
/// per-member path.
#[inline]
pub(crate) fn lower_envelope<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
    role: impl Fn(&str) -> Role,
) -> Result<Tool<'a>, ConversionError> {
    lower_wrapped_envelope(lw, at, path, "", role)
}

/// [`lower_envelope`] for a format whose input member wraps the schema: the member is an
/// object holding the schema under `schema_key` and nothing else (Bedrock's
/// `"inputSchema": {"json": …}`). The schema is read where it stands, in document order like
/// every other member. An empty `schema_key` is [`lower_envelope`].
#[inline]
pub(crate) fn lower_wrapped_envelope<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
    schema_key: &'static str,
    role: impl Fn(&str) -> Role,
) -> Result<Tool<'a>, ConversionError> {
    if lw.kind(at) != Kind::Object {
        return Err(wrong(lw, path, "tool", "an object", at));
    }
    let depth = path.depth() + 1;
    lw.check_depth(depth, path)?;
    let len = lw.object_len(at);
    if len > SMALL {
        lw.check_duplicates(at, path)?;
    }
    // A wrapped schema's object is the format's own wrapper (Bedrock's `toolSpec`), which the
    // reader looked at whole already: only a tool object is fitted to the other formats.
    let whole = schema_key.is_empty();
    let (tool, name) = match envelope_members(lw, at, len, path, depth, schema_key, role) {
        Ok(read) => read,
        // Another format's object (a JSON-RPC response's numeric `id` read as an A2A skill's
        // name) is said as such, rather than as the member of the wrong type it has here.
        Err(e) if whole && matches!(e.kind(), ErrorKind::WrongType { .. }) => {
            return Err(
                super::foreign_in(lw, at, path).unwrap_or_else(|| lw.prefer_duplicate(at, path, e))
            );
        }
        Err(e) => return Err(lw.prefer_duplicate(at, path, e)),
    };
    // A tool without a schema (or a name) of this format's, or with a member another format's
    // marks name, may be that format's: read as this one, it would be garbage (its schema
    // lost, a built-in turned into a tool). Looked for only then, so a tool read as what it
    // is pays nothing.
    let unknown = tool.members.iter().filter(|m| matches!(m.role, Role::Meta | Role::Outer));
    let (no_name, no_input) = (name.is_none(), tool.input.is_none());
    if whole
        && super::worth_a_look(lw.format(), no_name, no_input, unknown.map(|m| m.key))
        && let Some(e) = super::foreign_in(lw, at, path)
    {
        return Err(e);
    }
    match name {
        Some(n) => Ok(Tool { name: n, ..tool }),
        None => Err(super::missing(lw, at, path, "name", "")),
    }
}

/// The members of the tool object at `at` (`len` of them) and its name, if it has one. A
/// small object's repeated keys are found on the way (see `Lowerer::schema`). A non-empty
/// `schema_key` says the input member wraps the schema (see [`lower_wrapped_envelope`]).
fn envelope_members<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    len: usize,
    path: &Path<'_>,
    depth: usize,
    schema_key: &'static str,
    role: impl Fn(&str) -> Role,
) -> Result<(Tool<'a>, Option<&'a str>), ConversionError> {
    let placeholder = ToolMember { key: "", role: Role::Meta, at: 0, value: Json::Null };
    let members = lw.alloc_slice(len, placeholder, path)?;
    let mut tool = Tool { at: at as u32, ..EMPTY_TOOL };
    let mut name = None;
    let mut seen = Seen::new();
    let mut iter = lw.members(at);
    // Members the target drops and that hold nothing are left out of `tool.members` (see
    // `carries_nothing`): the kept ones fill the slots from the start.
    let mut kept = 0;
    while let Some(slot) = members.get_mut(kept) {
        let Some((key, key_at, v)) = iter.next() else { break };
        if len <= SMALL && !seen.fresh(key) {
            lw.check_duplicates(at, path)?;
        }
        let p = path.push(Seg::Key(key));
        let mut r = role(key);
        let mut value = Json::Null;
        match r {
            Role::Name => match lw.str(v) {
                Some(s) => {
                    name = Some(s);
                    value = Json::String(s);
                }
                None => return Err(wrong(lw, &p, key, "a string", v)),
            },
            Role::Description => {
                value = lw.json(v, &p, depth)?;
                match value {
                    Json::String(s) => tool.description = Some(s),
                    Json::Null => {}
                    _ => return Err(wrong(lw, &p, key, "a string or null", v)),
                }
            }
            Role::Input | Role::Output if lw.kind(v) == Kind::Null => {
                r = Role::Meta;
            }
            Role::Input => {
                lw.begin_key_check();
                let input = tool.input.insert(Schema::bool(true, 0));
                if schema_key.is_empty() {
                    lw.schema_into(v, &p, depth, input)?;
                } else {
                    let inner = wrapped_schema(lw, v, &p, key, schema_key)?;
                    lw.schema_into(inner, &p.push(Seg::Key(schema_key)), depth + 1, input)?;
                }
                tool.valid_keys = lw.key_check();
            }
            // A schema the target drops is passed over unread (anything else is still the
            // error `schema` reports).
            Role::Output
                if matches!(lw.kind(v), Kind::Object | Kind::Bool) && lw.target_drops(r) =>
            {
                lw.skip(v, &p)?;
            }
            Role::Output => {
                lw.schema_into(v, &p, depth, tool.output.insert(Schema::bool(true, 0)))?;
            }
            Role::Strict => match lw.kind(v) {
                Kind::Bool => {
                    tool.strict = lw.bool(v);
                    value = Json::Bool(lw.bool(v).unwrap_or_default());
                }
                Kind::Null => {}
                _ => return Err(wrong(lw, &p, key, "a boolean", v)),
            },
            // The format's own structure, written back as read by the same format.
            Role::Structure => value = lw.json(v, &p, depth)?,
            Role::Meta | Role::Outer => {}
        }
        if matches!(r, Role::Meta | Role::Outer) {
            if lw.target_drops_member(r, key) {
                if carries_nothing(lw, v) {
                    continue;
                }
                lw.skip(v, &p)?;
            } else {
                value = lw.json(v, &p, depth)?;
            }
        }
        *slot = ToolMember { key, role: r, at: key_at as u32, value };
        kept += 1;
    }
    let members: &'a [ToolMember<'a>] = members;
    tool.members = members.get(..kept).unwrap_or_default();
    Ok((tool, name))
}

/// Whether the member value at `v` holds nothing (`null`, `[]`, `{}`): a target without a
/// place for the member loses nothing by leaving it out, so no report entry is written for it
/// (MCP's `"annotations": null`, `"icons": []`). The same format keeps it as written.
fn carries_nothing(lw: &Lowerer<'_, '_>, v: At) -> bool {
    match lw.kind(v) {
        Kind::Null => true,
        Kind::Array => lw.array_len(v) == 0,
        Kind::Object => lw.object_len(v) == 0,
        _ => false,
    }
}

/// The schema the input member `key` (the value at `v`, at `path`) wraps: its one member
/// `schema_key`. Anything else there is an error at its place, since nothing would carry it.
fn wrapped_schema(
    lw: &mut Lowerer<'_, '_>,
    v: At,
    path: &Path<'_>,
    key: &str,
    schema_key: &'static str,
) -> Result<At, ConversionError> {
    if lw.kind(v) != Kind::Object {
        return Err(wrong(lw, path, key, "an object", v));
    }
    lw.check_duplicates(v, path)?;
    let mut schema = None;
    for (k, _, inner) in lw.members(v) {
        if k != schema_key {
            let p = path.push(Seg::Key(k));
            let holds = format!("`{key}` holds only `{schema_key}`, not `{k}`");
            return Err(lw.error(&p, ErrorKind::Shape(holds)));
        }
        schema = Some(inner);
    }
    schema.ok_or_else(|| {
        lw.error(path, ErrorKind::MissingMember { member: schema_key, hint: String::new() })
    })
}

/// A `WrongType` error: member `key` at `path` holds the value at `v`, not `expected`.
#[cold]
pub(crate) fn wrong(
    lw: &Lowerer<'_, '_>,
    path: &Path<'_>,
    key: &str,
    expected: &'static str,
    v: At,
) -> ConversionError {
    lw.error(
        path,
        ErrorKind::WrongType { member: key.to_owned(), expected, found: lw.kind(v).as_str() },
    )
}

/// Writes a tool kept verbatim (a provider built-in such as `web_search`) back as its source
/// wrote it, and says whether it did: only to its own format (the envelope pass leaves such a
/// tool out of any other).
#[inline]
pub(crate) fn write_opaque(tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) -> bool {
    match tool.opaque {
        Some(raw) if cx.same_family() => {
            w.json(&raw);
            true
        }
        _ => false,
    }
}

/// A tool kept verbatim (a provider built-in such as `web_search`): named by its `name`, else
/// its `type`.
pub(crate) fn lower_opaque<'a>(
    lw: &mut Lowerer<'a, '_>,
    at: At,
    path: &Path<'_>,
) -> Result<Tool<'a>, ConversionError> {
    let raw = lw.json(at, path, path.depth())?;
    let name =
        raw.get("name").and_then(Json::as_str).or_else(|| raw.get("type").and_then(Json::as_str));
    Ok(Tool { name: name.unwrap_or(""), opaque: Some(raw), at: at as u32, ..EMPTY_TOOL })
}

/// Writes the members of a same-format tool in source order, with the typed fields (which
/// passes may have changed) in place of the raw ones; wrapper-level members ([`Role::Outer`])
/// are the wrapper's to write. `input_key` names the input schema's member (written last if
/// the source had none); `None` keeps the source's key.
pub(crate) fn write_members(tool: &Tool<'_>, w: &mut Writer<'_>, input_key: Option<&'static str>) {
    write_wrapped_members(tool, w, input_key, None);
}

/// [`write_members`] for a format whose input member wraps the schema under `schema_key`
/// (see [`lower_wrapped_envelope`]); no `schema_key` is [`write_members`].
pub(crate) fn write_wrapped_members(
    tool: &Tool<'_>,
    w: &mut Writer<'_>,
    input_key: Option<&'static str>,
    schema_key: Option<&'static str>,
) {
    let mut wrote_input = false;
    let mut wrote_strict = false;
    for m in tool.members {
        if m.role == Role::Outer || (m.role == Role::Structure && m.value == Json::Null) {
            continue;
        }
        match m.role {
            Role::Name => {
                w.key(m.key);
                w.string(tool.name);
            }
            Role::Input => {
                if let Some(s) = &tool.input {
                    w.key(input_key.unwrap_or(m.key));
                    match schema_key {
                        None => w.schema(s),
                        Some(schema_key) => {
                            w.begin_object();
                            w.key_plain(schema_key);
                            w.schema(s);
                            w.end_object();
                        }
                    }
                    wrote_input = true;
                }
            }
            Role::Output => {
                if let Some(s) = &tool.output {
                    w.key(m.key);
                    w.schema(s);
                }
            }
            Role::Strict => {
                if let Some(b) = tool.strict {
                    w.key(m.key);
                    w.bool(b);
                    wrote_strict = true;
                }
            }
            Role::Structure => {
                w.key(m.key);
                w.json(&m.value);
            }
            Role::Description | Role::Meta | Role::Outer => {
                w.key(m.key);
                match (m.role, tool.description, &m.value) {
                    // The description as the passes left it (cut at a dated limit): the
                    // member's own text when nothing changed it.
                    (Role::Description, Some(d), Json::String(_)) => w.string(d),
                    _ => w.json(&m.value),
                }
            }
        }
    }
    if let Some(input_key) = input_key.filter(|_| !wrote_input) {
        match schema_key {
            None => write_input(tool.input.as_ref(), input_key, w),
            Some(schema_key) => {
                write_wrapped_input(tool.input.as_ref(), input_key, schema_key, w);
            }
        }
    }
    // Strict mode set by the conversion on a tool whose source did not state it.
    if let (false, Some(b)) = (wrote_strict, tool.strict) {
        w.key_plain("strict");
        w.bool(b);
    }
}

/// Writes `key: schema`, or the empty object schema when there is none. Inlined so that the
/// key is a constant at each call and written without a `memcpy` call.
#[inline(always)]
pub(crate) fn write_input(schema: Option<&Schema<'_>>, key: &'static str, w: &mut Writer<'_>) {
    w.key_plain(key);
    match schema {
        Some(s) => w.schema(s),
        None => {
            w.begin_object();
            w.key_plain("type");
            w.string_plain("object");
            w.key_plain("properties");
            w.begin_object();
            w.end_object();
            w.end_object();
        }
    }
}

/// Writes `input_key: {schema_key: schema}`, the empty object schema standing in for a
/// missing one (Bedrock's `"inputSchema": {"json": …}`).
pub(crate) fn write_wrapped_input(
    schema: Option<&Schema<'_>>,
    input_key: &'static str,
    schema_key: &'static str,
    w: &mut Writer<'_>,
) {
    w.key_plain(input_key);
    w.begin_object();
    write_input(schema, schema_key, w);
    w.end_object();
}

/// Writes `name` and `description` (when there is one).
pub(crate) fn write_name_description(tool: &Tool<'_>, w: &mut Writer<'_>) {
    w.key_plain("name");
    write_name_on(tool, w);
}

/// Opens the tool object with `name` and `description` (when there is one): compact output
/// writes `{"name":` in one go.
pub(crate) fn open_with_name_description(tool: &Tool<'_>, w: &mut Writer<'_>) {
    if !w.open_fixed(r#"{"name":"#) {
        w.begin_object();
        w.key_plain("name");
    }
    write_name_on(tool, w);
}

/// [`write_name_description`] once `"name":` is written.
#[inline(always)]
fn write_name_on(tool: &Tool<'_>, w: &mut Writer<'_>) {
    w.string(tool.name);
    if let Some(d) = tool.description {
        w.key_plain("description");
        w.string(d);
    }
}
