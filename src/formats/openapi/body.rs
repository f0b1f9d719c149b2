//! An operation's request body in its input schema: the media type the tool follows (JSON
//! first), and whether the body's properties merge with the parameters or the body is one
//! property; a non-JSON body and the other media types are reported.

use crate::emit::Writer;
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Effect, EntryKind};

use super::Context;
use super::document::{Deref, Document, err, get, join, opt_str, wrong};
use super::names::{Names, unique_key};
use super::notes::property_prefix;
use super::operations::Operation;
use super::schema::{ANY, Extras, join_text, write_schema, write_schema_at};

/// What the request body becomes.
pub(super) enum Body<'a> {
    /// No request body, or none the tool can take.
    None,
    /// One property holding the body.
    Property {
        key: String,
        schema: &'a Json<'a>,
        ptr: String,
        required: bool,
        description: Option<&'a str>,
    },
    /// The body object's properties, next to the parameters.
    Merged { schema: &'a [Member<'a>], ptr: String, description: Option<&'a str> },
}

/// The request body: merged into the parameters when it is a plain object that fits, else
/// one property (`body`, or a free name, taken in `keys`).
pub(super) fn read<'a>(
    cx: &mut Context<'a, '_>,
    op: &Operation<'a>,
    keys: &mut Names,
) -> Result<Body<'a>, ConversionError> {
    let Some(v) = get(op.op, "requestBody") else { return Ok(Body::None) };
    let (rb, at, ref_description) = match cx.doc.deref(v, join(&op.ptr, "requestBody")) {
        Deref::Found(Json::Object(rb), at, d) => (*rb, at, d),
        Deref::Found(other, at, _) => {
            return Err(wrong(&at, "requestBody", "an object", other));
        }
        Deref::Unresolved { reference, at, code, why } => {
            // No body argument: what the operation took in its body cannot be passed.
            cx.notes.note(
                EntryKind::arguments(code, Effect::Narrows),
                "$ref",
                join(&at, "$ref"),
                format!("request body `$ref` `{reference}` {why}; the tool has no body argument"),
            );
            return Ok(Body::None);
        }
    };
    let required = match get(rb, "required") {
        None => false,
        Some(Json::Bool(b)) => *b,
        Some(other) => {
            return Err(wrong(&join(&at, "required"), "required", "a boolean", other));
        }
    };
    let description = ref_description.or(opt_str(rb, "description", &at)?);
    let content_ptr = join(&at, "content");
    let content = match get(rb, "content") {
        Some(Json::Object(content)) => *content,
        Some(other) => return Err(wrong(&content_ptr, "content", "an object", other)),
        None => {
            return Err(err(
                &at,
                ErrorKind::MissingMember { member: "content", hint: String::new() },
            ));
        }
    };
    let chosen = content
        .iter()
        .position(|m| essence(m.key).eq_ignore_ascii_case("application/json"))
        .or_else(|| content.iter().position(|m| is_json(m.key)));
    let Some(media) = content.get(chosen.unwrap_or(0)) else {
        cx.notes.note(
            EntryKind::arguments(Code::BodyNotJson, Effect::None),
            "content",
            content_ptr,
            "the request body lists no media type; the tool has no body argument".into(),
        );
        return Ok(Body::None);
    };
    let media_ptr = join(&content_ptr, media.key);
    let Json::Object(media_members) = media.value else {
        return Err(wrong(&media_ptr, media.key, "an object", &media.value));
    };
    if chosen.is_none() {
        let encoding = if get(media_members, "encoding").is_some() {
            "; its `encoding` (per-property content types, headers and styles) has no place in a tool either"
        } else {
            ""
        };
        // How the arguments travel, not which are accepted.
        cx.notes.note(
            EntryKind::guarantee_lost(Code::BodyNotJson),
            media.key,
            media_ptr.clone(),
            format!(
                "the request body is `{}`, not JSON: its schema describes the arguments, and the caller must encode them as `{}`{encoding}",
                media.key, media.key
            ),
        );
    }
    let others: Vec<String> =
        content.iter().filter(|m| m.key != media.key).map(|m| format!("`{}`", m.key)).collect();
    if !others.is_empty() {
        cx.notes.note(
            EntryKind::metadata(Code::BodyNotJson),
            "content",
            content_ptr,
            format!(
                "the request body may also be sent as {}; the tool follows `{}`",
                others.join(", "),
                media.key
            ),
        );
    }
    let schema = get(media_members, "schema").unwrap_or(&ANY);
    let ptr = join(&media_ptr, "schema");
    if let Some((members, obj_ptr)) = mergeable(cx.doc, schema, ptr.clone(), required, keys) {
        return Ok(Body::Merged { schema: members, ptr: obj_ptr, description });
    }
    let key = unique_key("body", None, keys);
    if key != "body" {
        // The same arguments under another key, which the caller maps back.
        cx.notes.note(
            EntryKind::unsure(Code::NameClash),
            "requestBody",
            at,
            format!("a parameter is called `body`; the request body is the property `{key}`"),
        );
    }
    Ok(Body::Property { key, schema, ptr, required, description })
}

/// The body's object schema and its pointer, when its properties can stand next to the
/// parameters without changing what is accepted: an object schema (through `$ref`s to it)
/// with `properties` and nothing but `type: object`, `required`, `additionalProperties`,
/// `title` and `description` beside them; no property (or required name) taken by a
/// parameter; and a body that is required, or requires nothing.
fn mergeable<'a>(
    doc: &Document<'a>,
    schema: &'a Json<'a>,
    ptr: String,
    body_required: bool,
    keys: &Names,
) -> Option<(&'a [Member<'a>], String)> {
    let (Json::Object(members), ptr) = (match doc.deref(schema, ptr) {
        Deref::Found(v, at, _) => (v, at),
        Deref::Unresolved { .. } => return None,
    }) else {
        return None;
    };
    let mut names: Vec<&str> = Vec::new();
    let mut has_properties = false;
    for m in *members {
        match (m.key, &m.value) {
            ("type", Json::String("object")) => {}
            ("type", Json::Array([Json::String("object")])) => {}
            ("properties", Json::Object(props)) if !props.is_empty() => {
                has_properties = true;
                names.extend(props.iter().map(|p| p.key));
            }
            ("required", Json::Array(list)) => {
                if !body_required && !list.is_empty() {
                    return None;
                }
                for r in *list {
                    names.push(r.as_str()?);
                }
            }
            ("additionalProperties" | "title", _) => {}
            ("description", Json::String(_)) => {}
            _ => return None,
        }
    }
    let clash = names.iter().any(|n| keys.contains(n));
    (has_properties && !clash).then_some((*members, ptr))
}

impl Body<'_> {
    /// Adds the input schema's required keys the body brings to `required`: a merged body's
    /// `required` names, or a required body's property.
    pub(super) fn add_required<'s>(&'s self, required: &mut Vec<&'s str>) {
        match self {
            Body::None | Body::Property { required: false, .. } => {}
            Body::Property { key, required: true, .. } => required.push(key),
            // `mergeable` checked that a merged body's `required` lists strings.
            Body::Merged { schema, .. } => {
                if let Some(Json::Array(names)) = get(schema, "required") {
                    required.extend(names.iter().filter_map(Json::as_str));
                }
            }
        }
    }
}

/// Writes a merged body's title and description, on the input schema's root.
pub(super) fn write_annotations(cx: &mut Context<'_, '_>, w: &mut Writer<'_>, body: &Body<'_>) {
    let Body::Merged { schema, ptr, description } = body else { return };
    if let Some(title) = get(schema, "title") {
        cx.notes.place("/inputSchema/title", join(ptr, "title"));
        w.key_plain("title");
        w.json(title);
    }
    let own = get(schema, "description").and_then(Json::as_str);
    let text = join_text(description.unwrap_or(""), own.unwrap_or(""));
    if !text.is_empty() {
        cx.notes.place("/inputSchema/description", join(ptr, "description"));
        w.key_plain("description");
        w.string(&text);
    }
}

/// Writes the body's properties of the input schema: the one holding the body, or the merged
/// body's own.
pub(super) fn write_properties<'a>(cx: &mut Context<'a, '_>, w: &mut Writer<'_>, body: &Body<'a>) {
    match body {
        Body::None => {}
        Body::Property { key, schema, ptr, description, .. } => {
            let extras = Extras { description: *description, ..Extras::default() };
            cx.notes.place(&property_prefix(key), ptr.clone());
            w.key(key);
            write_schema_at(cx, w, schema, ptr, &extras);
        }
        Body::Merged { schema, ptr, .. } => {
            if let Some(Json::Object(props)) = get(schema, "properties") {
                let base = join(ptr, "properties");
                let root = Path::ROOT;
                let path = root.push(Seg::Raw(&base));
                for m in *props {
                    cx.notes.place(&property_prefix(m.key), join(&base, m.key));
                    w.key(m.key);
                    write_schema(cx, w, &m.value, &path.push(Seg::Key(m.key)), &Extras::default());
                }
            }
        }
    }
}

/// Writes a merged body's `additionalProperties`, on the input schema's root.
pub(super) fn write_additional_properties<'a>(
    cx: &mut Context<'a, '_>,
    w: &mut Writer<'_>,
    body: &Body<'a>,
) {
    if let Body::Merged { schema, ptr, .. } = body
        && let Some(extra) = get(schema, "additionalProperties")
    {
        let at = join(ptr, "additionalProperties");
        cx.notes.place("/inputSchema/additionalProperties", at.clone());
        w.key_plain("additionalProperties");
        write_schema_at(cx, w, extra, &at, &Extras::default());
    }
}

/// The media type without its parameters: `application/json; charset=utf-8` →
/// `application/json`.
fn essence(media: &str) -> &str {
    media.split(';').next().unwrap_or("").trim()
}

/// Whether a media type is JSON: `application/json`, or any `…/…+json`.
pub(super) fn is_json(media: &str) -> bool {
    let e = essence(media);
    e.eq_ignore_ascii_case("application/json")
        || e.len() > 5 && e.get(e.len() - 5..).is_some_and(|s| s.eq_ignore_ascii_case("+json"))
}

#[cfg(test)]
mod tests {
    use super::is_json;

    #[test]
    fn media_types() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(is_json("application/merge-patch+json"));
        assert!(!is_json("multipart/form-data"));
        assert!(!is_json("+json"));
        assert!(!is_json("text/plain"));
    }
}
