//! Writing into descriptions: a keyword's value as a description shows it, and a note
//! appended to a node's description (the policy, root and envelope passes move what a target
//! cannot hold into prose).

use bumpalo::Bump;

use crate::ir::{Entry, Keyword, Schema, Value, features_of};

/// A keyword's value as a description shows it: strings bare (`format uri`), anything else as
/// compact JSON (`enum [1,2]`).
#[cold]
pub(crate) fn render(value: &Value<'_>) -> String {
    if let Value::Str(s) = value {
        return (*s).to_owned();
    }
    let mut out = Vec::new();
    crate::emit::Writer::new(&mut out, false).value(value);
    String::from_utf8(out).unwrap_or_default()
}

/// A keyword's value as [`render`] writes it, handed to `push` in pieces. Strings, numbers
/// and booleans (what a description mostly shows) are passed through without a buffer.
/// Generic over `push`, so each piece is a direct call rather than one through a `dyn`.
#[inline]
pub(crate) fn render_to(value: &Value<'_>, push: &mut impl FnMut(&str)) {
    use crate::ir::Json;
    match *value {
        Value::Str(s) | Value::Number(s) | Value::Json(Json::Number(s)) => push(s),
        Value::Bool(b) | Value::Json(Json::Bool(b)) => push(if b { "true" } else { "false" }),
        Value::Json(Json::Null) => push("null"),
        // A string JSON writes as it is, between quotes (a `default`, a one-word `const`).
        Value::Json(Json::String(s)) if crate::scan::next_to_escape(s.as_bytes(), 0).is_none() => {
            push("\"");
            push(s);
            push("\"");
        }
        _ => push(&render(value)),
    }
}

/// `s` with `note` appended to its description, which is added (last) when there is none.
/// A description that is not a string is kept in the text as JSON.
#[cold]
pub(crate) fn append_description<'a>(
    s: &Schema<'a>,
    note: &str,
    arena: &'a Bump,
    buf: &mut String,
) -> Result<Schema<'a>, ()> {
    buf.clear();
    buf.push_str(note);
    let node = append_note(s, arena, buf)?;
    Ok(Schema { features: features_of(node.keywords), ..node })
}

/// [`append_description`] with the note written in `buf` (a reused buffer) before: the
/// description goes in front of it, and the whole is copied into the arena in one allocation
/// of its final size. The node keeps the features of `s`, for the caller to compute again
/// ([`super::rewrite`] does, for a node a rule returns).
pub(crate) fn append_note<'a>(
    s: &Schema<'a>,
    arena: &'a Bump,
    buf: &mut String,
) -> Result<Schema<'a>, ()> {
    let at = s.keywords.iter().position(|e| e.keyword == Keyword::Description);
    // What goes before the note: the description and a space, when there is one.
    match at.and_then(|i| s.keywords.get(i)).map(|e| e.value) {
        Some(Value::Str(d)) if !d.is_empty() => {
            buf.insert(0, ' ');
            buf.insert_str(0, d);
        }
        Some(Value::Str(_)) | None => {}
        Some(other) => {
            let mut end = 0;
            render_to(&other, &mut |piece| {
                buf.insert_str(end, piece);
                end += piece.len();
            });
            buf.insert(end, ' ');
        }
    }
    let value = Value::Str(arena.try_alloc_str(buf).map_err(|_| ())?);
    let slots = match at {
        // The description replaced in a copy of the node (one block copy).
        Some(i) => {
            let slots = arena.try_alloc_slice_copy(s.keywords).map_err(|_| ())?;
            if let Some(e) = slots.get_mut(i) {
                e.value = value;
            }
            slots
        }
        // A description added last.
        None => {
            let blank = Entry { keyword: Keyword::Description, at: s.at, value };
            let slots =
                arena.try_alloc_slice_fill_copy(s.keywords.len() + 1, blank).map_err(|_| ())?;
            for (slot, e) in slots.iter_mut().zip(s.keywords) {
                *slot = *e;
            }
            slots
        }
    };
    Ok(Schema { boolean: None, keywords: slots, ..*s })
}

#[cfg(test)]
mod tests {
    use bumpalo::Bump;

    use crate::ir::{Entry, FeatureSet, Json, Keyword, Schema, Value};
    use crate::passes::describe::append_note;

    fn note(buf: &mut String) -> &mut String {
        buf.clear();
        for piece in ["Constraints: ", "minLength 3", ", ", "format \"é\"", "."] {
            buf.push_str(piece);
        }
        buf
    }

    fn described(description: Value<'static>) -> Schema<'static> {
        let keywords: &'static [Entry<'static>] = Box::leak(Box::new([Entry {
            keyword: Keyword::Description,
            at: 0,
            value: description,
        }]));
        Schema { boolean: None, keywords, features: FeatureSet::EMPTY, at: 0 }
    }

    fn description<'a>(s: &Schema<'a>) -> Option<&'a str> {
        s.keywords.iter().find_map(|e| match e.value {
            Value::Str(d) if e.keyword == Keyword::Description => Some(d),
            _ => None,
        })
    }

    /// The note follows the description after a space; a description that is not a string
    /// is written as JSON; an empty one is left out.
    #[test]
    fn a_note_follows_the_description() {
        let arena = Bump::new();
        let mut buf = String::from("left over");
        let cases = [
            (Value::Str("An id."), "An id. Constraints: minLength 3, format \"é\"."),
            (Value::Str(""), "Constraints: minLength 3, format \"é\"."),
            (Value::Json(Json::Number("7")), "7 Constraints: minLength 3, format \"é\"."),
            (Value::Json(Json::String("x")), "\"x\" Constraints: minLength 3, format \"é\"."),
        ];
        for (given, expected) in cases {
            let s = append_note(&described(given), &arena, note(&mut buf));
            assert_eq!(s.ok().and_then(|s| description(&s)), Some(expected));
        }
    }

    /// Past its limit the arena refuses the text rather than panicking.
    #[test]
    fn a_full_arena_refuses_a_description() {
        let arena = Bump::new();
        arena.set_allocation_limit(Some(0));
        let mut buf = String::new();
        assert!(append_note(&described(Value::Str("An id.")), &arena, note(&mut buf)).is_err());
    }
}
