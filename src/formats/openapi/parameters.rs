//! An operation's parameters as properties of its input schema: gathered from the path item
//! and the operation, given property keys, and written with their descriptions, `deprecated`
//! and examples; how each is serialized (`style`, `explode`, a cookie, a `content` media
//! type), which a tool cannot say, is reported.

use std::collections::BTreeMap;

use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{Json, Member};
use crate::report::{Code, Effect, EntryKind};

use super::Context;
use super::body::is_json;
use super::document::{Deref, err, get, get_bool, join, join_index, opt_str, wrong};
use super::names::{Names, unique_key};
use super::notes::property_prefix;
use super::operations::Operation;
use super::schema::{ANY, Extras, write_schema_at};

/// Header parameters the specification says to ignore (compared without case).
const IGNORED_HEADERS: [&str; 3] = ["Accept", "Content-Type", "Authorization"];

/// Where a parameter goes in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Loc {
    Path,
    Query,
    Header,
    Cookie,
}

impl Loc {
    fn parse(s: &str) -> Option<Loc> {
        Some(match s {
            "path" => Loc::Path,
            "query" => Loc::Query,
            "header" => Loc::Header,
            "cookie" => Loc::Cookie,
            _ => return None,
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Loc::Path => "path",
            Loc::Query => "query",
            Loc::Header => "header",
            Loc::Cookie => "cookie",
        }
    }

    /// The `style` a parameter here has when it states none.
    fn default_style(self) -> &'static str {
        match self {
            Loc::Query | Loc::Cookie => "form",
            Loc::Path | Loc::Header => "simple",
        }
    }
}

/// A parameter of an operation, its `$ref` followed.
pub(super) struct Param<'a> {
    name: &'a str,
    loc: Loc,
    obj: &'a [Member<'a>],
    ptr: String,
    /// A Reference Object's `description`, which overrides the parameter's (3.1).
    ref_description: Option<&'a str>,
    /// The property it becomes.
    key: String,
}

/// The operation's parameters: the path item's, with the operation's replacing those of the
/// same name and location, then the operation's others; ordered path, query, header, cookie
/// (stable within each). Each gets its property key, taken in `keys`.
pub(super) fn read<'a>(
    cx: &mut Context<'a, '_>,
    op: &Operation<'a>,
    keys: &mut Names,
) -> Result<Vec<Param<'a>>, ConversionError> {
    let mut list: Vec<Param<'a>> = Vec::new();
    // The path item's parameters by name and location, for the operation's to replace.
    let mut declared: BTreeMap<(&'a str, Loc), usize> = BTreeMap::new();
    for (from_item, members, base) in [(true, op.item, &op.item_ptr), (false, op.op, &op.ptr)] {
        let base = join(base, "parameters");
        let items = match get(members, "parameters") {
            None => continue,
            Some(Json::Array(items)) => *items,
            Some(other) => return Err(wrong(&base, "parameters", "an array", other)),
        };
        for (j, item) in items.iter().enumerate() {
            let ptr = join_index(&base, j);
            let (obj, ptr, ref_description) = match cx.doc.deref(item, ptr) {
                Deref::Found(Json::Object(obj), at, d) => (*obj, at, d),
                Deref::Found(other, at, _) => {
                    return Err(wrong(&at, "parameter", "an object", other));
                }
                Deref::Unresolved { reference, at, code: _, why } => {
                    // The parameter cannot be passed.
                    cx.notes.note(
                        EntryKind::arguments(Code::ParameterSkipped, Effect::Narrows),
                        "$ref",
                        join(&at, "$ref"),
                        format!("parameter `$ref` `{reference}` {why}; the parameter is left out"),
                    );
                    continue;
                }
            };
            let name = required_str(obj, "name", &ptr)?;
            let loc_name = required_str(obj, "in", &ptr)?;
            let Some(loc) = Loc::parse(loc_name) else {
                return Err(err(
                    &join(&ptr, "in"),
                    ErrorKind::Shape(format!(
                        "parameter `in` must be path, query, header or cookie, found {loc_name:?}"
                    )),
                ));
            };
            let param = Param { name, loc, obj, ptr, ref_description, key: String::new() };
            let replaced = match from_item {
                true => None,
                false => declared.get(&(name, loc)).and_then(|&i| list.get_mut(i)),
            };
            match replaced {
                Some(slot) => *slot = param,
                None => {
                    if from_item {
                        declared.insert((name, loc), list.len());
                    }
                    list.push(param);
                }
            }
        }
    }
    let mut kept = Vec::with_capacity(list.len());
    for p in list {
        if p.loc == Loc::Header && IGNORED_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(p.name)) {
            // The specification says the API ignores it: no call changes.
            cx.notes.note(
                EntryKind::arguments(Code::ParameterSkipped, Effect::None),
                "name",
                join(&p.ptr, "name"),
                format!(
                    "header parameter `{}` is ignored, as the OpenAPI specification says for Accept, Content-Type and Authorization",
                    p.name
                ),
            );
        } else {
            kept.push(p);
        }
    }
    kept.sort_by_key(|p| p.loc);
    for p in &mut kept {
        p.key = unique_key(p.name, Some(p.loc.as_str()), keys);
        if p.key != p.name {
            let message = format!(
                "{} parameter `{}` has the name of another argument; it is the property `{}`",
                p.loc.as_str(),
                p.name,
                p.key
            );
            // The same arguments under another key, which the caller maps back.
            cx.notes.note(
                EntryKind::unsure(Code::NameClash),
                "name",
                join(&p.ptr, "name"),
                message,
            );
        }
    }
    Ok(kept)
}

/// The keys of the required parameters: path parameters, and those with `required: true`
/// (which must be a boolean).
pub(super) fn required_keys<'p>(params: &'p [Param<'_>]) -> Result<Vec<&'p str>, ConversionError> {
    for p in params {
        if let Some(v) = get(p.obj, "required").filter(|v| !matches!(v, Json::Bool(_))) {
            return Err(wrong(&join(&p.ptr, "required"), "required", "a boolean", v));
        }
    }
    Ok(params
        .iter()
        .filter(|p| p.loc == Loc::Path || get_bool(p.obj, "required") == Some(true))
        .map(|p| p.key.as_str())
        .collect())
}

/// Writes one parameter's property: its schema (or its `content` media type's), with the
/// parameter's description, `deprecated` and examples; how it is serialized is reported.
pub(super) fn write_parameter<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    p: &Param<'a>,
) -> Result<(), ConversionError> {
    let (schema, schema_ptr) = match (get(p.obj, "schema"), get(p.obj, "content")) {
        (Some(s), _) => (s, join(&p.ptr, "schema")),
        (None, Some(Json::Object(content))) => {
            let at = join(&p.ptr, "content");
            let Some(media) = content.first() else {
                return Err(err(
                    &at,
                    ErrorKind::Shape("a parameter's `content` holds one media type".into()),
                ));
            };
            let media_ptr = join(&at, media.key);
            let code = Code::ParameterStyle;
            // How the argument travels, not which values are accepted.
            let (kind, how) = if is_json(media.key) {
                (EntryKind::metadata(code), "JSON text")
            } else {
                (EntryKind::guarantee_lost(code), "text of that media type")
            };
            cx.notes.note(
                kind,
                "content",
                media_ptr.clone(),
                format!(
                    "parameter `{}` is sent as `{}` ({how}); the tool takes its value, and the caller must serialize it",
                    p.name, media.key
                ),
            );
            match media.value {
                Json::Object(m) => (get(m, "schema").unwrap_or(&ANY), join(&media_ptr, "schema")),
                ref other => return Err(wrong(&media_ptr, media.key, "an object", other)),
            }
        }
        (None, Some(other)) => {
            return Err(wrong(&join(&p.ptr, "content"), "content", "an object", other));
        }
        (None, None) => {
            return Err(err(
                &p.ptr,
                ErrorKind::MissingMember {
                    member: "schema",
                    hint: " (a parameter has `schema` or `content`)".to_owned(),
                },
            ));
        }
    };
    serialization(cx, p)?;
    let mut extras = Extras {
        description: p.ref_description.or(opt_str(p.obj, "description", &p.ptr)?),
        deprecated: get_bool(p.obj, "deprecated") == Some(true),
        examples: Vec::new(),
    };
    if let Some(example) = get(p.obj, "example") {
        extras.examples.push(*example);
    }
    if let Some(Json::Object(examples)) = get(p.obj, "examples") {
        let at = join(&p.ptr, "examples");
        for e in *examples {
            if let Deref::Found(Json::Object(example), _, _) =
                cx.doc.deref(&e.value, join(&at, e.key))
                && let Some(value) = get(example, "value")
            {
                extras.examples.push(*value);
            }
        }
    }
    cx.notes.place(&property_prefix(&p.key), schema_ptr.clone());
    w.key(&p.key);
    write_schema_at(cx, w, schema, &schema_ptr, &extras);
    Ok(())
}

/// Reports how a parameter is serialized: `style`, `explode`, `allowReserved`,
/// `allowEmptyValue` (a warning when not the default), and a cookie's place.
fn serialization(cx: &mut Context<'_, '_>, p: &Param<'_>) -> Result<(), ConversionError> {
    let default_style = p.loc.default_style();
    let style = match opt_str(p.obj, "style", &p.ptr)? {
        Some(style) => {
            style_note(cx, p, "style", style, style == default_style);
            style
        }
        None => default_style,
    };
    for (key, default) in
        [("explode", style == "form"), ("allowReserved", false), ("allowEmptyValue", false)]
    {
        let value = match get(p.obj, key) {
            None => continue,
            Some(Json::Bool(b)) => *b,
            Some(other) => return Err(wrong(&join(&p.ptr, key), key, "a boolean", other)),
        };
        style_note(cx, p, key, value, value == default);
    }
    if p.loc == Loc::Cookie {
        cx.notes.note(
            EntryKind::metadata(Code::ParameterStyle),
            "in",
            join(&p.ptr, "in"),
            format!(
                "parameter `{}` is a cookie: the tool takes its value, and the caller must send it in the Cookie header",
                p.name
            ),
        );
    }
    Ok(())
}

/// Reports a serialization member of parameter `p`: info when it is the default, else a
/// warning, since a tool definition has no place for it.
fn style_note(
    cx: &mut Context<'_, '_>,
    p: &Param<'_>,
    key: &str,
    value: impl std::fmt::Display,
    default: bool,
) {
    // How the argument travels, not which values are accepted.
    let (kind, what) = if default {
        (EntryKind::metadata(Code::ParameterStyle), "the default; nothing is lost")
    } else {
        (
            EntryKind::guarantee_lost(Code::ParameterStyle),
            "a tool definition cannot say so, and the caller must serialize the value that way",
        )
    };
    cx.notes.note(
        kind,
        key,
        join(&p.ptr, key),
        format!("parameter `{}` has `{key}: {value}`: {what}", p.name),
    );
}

/// Member `key` of the parameter at `at`, which must be a string.
fn required_str<'a>(
    members: &'a [Member<'a>],
    key: &'static str,
    at: &str,
) -> Result<&'a str, ConversionError> {
    opt_str(members, key, at)?.ok_or_else(|| {
        err(at, ErrorKind::MissingMember { member: key, hint: " (in a parameter)".to_owned() })
    })
}
