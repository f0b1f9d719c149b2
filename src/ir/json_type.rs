//! The JSON Schema primitive type names, the vocabulary the keyword table and the schema node
//! both speak: it depends on nothing else in the IR, so each of them can import it.

/// A JSON Schema primitive type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    /// `null`
    Null,
    /// `boolean`
    Boolean,
    /// `object`
    Object,
    /// `array`
    Array,
    /// `number`
    Number,
    /// `string`
    String,
    /// `integer`
    Integer,
}

impl JsonType {
    /// Every type, in declaration order (`ALL[t as usize] == t`).
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Object,
        JsonType::Array,
        JsonType::Number,
        JsonType::String,
        JsonType::Integer,
    ];

    /// Parses a type name as JSON Schema spells it.
    #[inline]
    pub fn from_name(name: &str) -> Option<JsonType> {
        // On the bytes: a `match` on `&str` compares the candidates one by one.
        Some(match name.as_bytes() {
            b"null" => JsonType::Null,
            b"boolean" => JsonType::Boolean,
            b"object" => JsonType::Object,
            b"array" => JsonType::Array,
            b"number" => JsonType::Number,
            b"string" => JsonType::String,
            b"integer" => JsonType::Integer,
            _ => return None,
        })
    }

    /// Parses a type name as Gemini's OpenAPI `Type` enum spells it (`STRING`, `OBJECT`, …);
    /// lower-case names are read too.
    pub fn from_openapi_name(name: &str) -> Option<JsonType> {
        JsonType::from_name(name).or_else(|| {
            Some(match name {
                "NULL" => JsonType::Null,
                "BOOLEAN" => JsonType::Boolean,
                "OBJECT" => JsonType::Object,
                "ARRAY" => JsonType::Array,
                "NUMBER" => JsonType::Number,
                "STRING" => JsonType::String,
                "INTEGER" => JsonType::Integer,
                _ => return None,
            })
        })
    }

    /// The type name as Gemini's OpenAPI `Type` enum spells it.
    pub const fn as_upper_str(self) -> &'static str {
        match self {
            JsonType::Null => "NULL",
            JsonType::Boolean => "BOOLEAN",
            JsonType::Object => "OBJECT",
            JsonType::Array => "ARRAY",
            JsonType::Number => "NUMBER",
            JsonType::String => "STRING",
            JsonType::Integer => "INTEGER",
        }
    }

    /// The type name as JSON Schema spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Integer => "integer",
        }
    }
}
