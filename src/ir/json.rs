//! Raw JSON values kept verbatim in the arena: enum members, defaults, unknown keywords and
//! envelope metadata. Numbers stay source text and objects stay ordered slices, so what the
//! crate does not model is re-emitted exactly as the author wrote it.

/// A JSON value borrowed from the input and the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Json<'a> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number as its source text (`1.0e-7` stays `1.0e-7`).
    Number(&'a str),
    /// A string, unescaped.
    String(&'a str),
    /// An array.
    Array(&'a [Json<'a>]),
    /// An object, members in source order.
    Object(&'a [Member<'a>]),
}

/// One member of a JSON object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member<'a> {
    /// The key, unescaped.
    pub key: &'a str,
    /// The value.
    pub value: Json<'a>,
}

impl<'a> Json<'a> {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|m| m.key == key).map(|m| &m.value),
            _ => None,
        }
    }

    /// The JSON type name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }
}
