//! Writing schemas: a [`Schema`], its keywords ([`Entry`]) and their values ([`Value`]), with
//! the keyword keys and type names as tables of fixed-size text.

use super::Writer;
use super::padded::Padded;
use crate::ir::{Entry, JsonType, Keyword, Schema, Value};

impl Writer<'_> {
    /// Writes a keyword's key: compact output copies `"keyword":` from a table in one
    /// fixed-size write.
    #[inline(always)]
    fn keyword_key<const P: bool>(&mut self, kw: Keyword) {
        match KEYWORD_KEYS.get(kw as usize) {
            Some([bare, after]) if !P => {
                let quoted = if self.first { bare } else { after };
                self.first = false;
                quoted.write(self.out);
            }
            _ => self.keyword_key_pretty(kw),
        }
    }

    /// [`Writer::keyword_key`] for pretty output, out of the compact path.
    #[inline(never)]
    fn keyword_key_pretty(&mut self, kw: Keyword) {
        self.separate_dyn();
        self.out.push(b'"');
        self.out.extend_from_slice(kw.as_str().as_bytes());
        self.out.push(b'"');
        self.colon_dyn();
    }

    /// Writes a type name, from a table of quoted names.
    #[inline]
    fn type_name(&mut self, ty: JsonType) {
        let table = if self.upper_types { &UPPER_TYPE_NAMES } else { &TYPE_NAMES };
        match table.get(ty as usize) {
            Some(quoted) => quoted.write(self.out),
            None => self.string(if self.upper_types { ty.as_upper_str() } else { ty.as_str() }),
        }
    }

    /// Writes a schema, keywords in IR order.
    pub fn schema(&mut self, s: &Schema<'_>) {
        if self.pretty { self.schema_in::<true>(s) } else { self.schema_in::<false>(s) }
    }

    /// [`Writer::schema`], built for compact or pretty output (`P`).
    fn schema_in<const P: bool>(&mut self, s: &Schema<'_>) {
        if self.past_limit(s.at) {
            return;
        }
        if let Some(b) = s.boolean {
            self.bool(b);
            return;
        }
        self.open::<P, b'{'>();
        for e in s.keywords {
            self.entry_in::<P>(e);
        }
        self.close::<P, b'}'>();
    }

    /// Writes one keyword of a schema (key and value) into the open object: for a format whose
    /// tool object is a schema with envelope members among its keywords (LangChain).
    #[inline]
    pub fn entry(&mut self, e: &Entry<'_>) {
        if self.pretty { self.entry_in::<true>(e) } else { self.entry_in::<false>(e) }
    }

    /// [`Writer::entry`], built for compact or pretty output (`P`).
    #[inline]
    fn entry_in<const P: bool>(&mut self, e: &Entry<'_>) {
        match &e.value {
            Value::Unknown(m) => {
                self.key_inline::<P>(m.key);
                self.json_in::<P>(&m.value);
            }
            // The two commonest values, written here rather than through `value`, whose
            // prologue costs more than writing them.
            Value::Type(t) if !t.array => {
                let member = match (e.keyword, t.list.first()) {
                    (Keyword::Type, Some(&ty)) if !P => TYPE_MEMBERS
                        .get(usize::from(self.upper_types))
                        .and_then(|names| names.get(ty as usize)),
                    _ => None,
                };
                match member {
                    // `"type":"string"` in one write.
                    Some([bare, after]) => {
                        let quoted = if self.first { bare } else { after };
                        self.first = false;
                        quoted.write(self.out);
                    }
                    None => {
                        self.keyword_key::<P>(e.keyword);
                        for &ty in t.list.iter().take(1) {
                            self.type_name(ty);
                        }
                    }
                }
            }
            Value::Str(s) => {
                self.keyword_key::<P>(e.keyword);
                self.string(s);
            }
            value => {
                self.keyword_key::<P>(e.keyword);
                self.value_in::<P>(value);
            }
        }
    }

    /// Writes a keyword's value as the schema would hold it.
    #[inline]
    pub(crate) fn value(&mut self, v: &Value<'_>) {
        if self.pretty { self.value_in::<true>(v) } else { self.value_in::<false>(v) }
    }

    /// [`Writer::value`], built for compact or pretty output (`P`).
    #[inline]
    fn value_in<const P: bool>(&mut self, v: &Value<'_>) {
        match *v {
            Value::Schema(s) => self.schema_in::<P>(s),
            Value::Schemas(list) => {
                self.open::<P, b'['>();
                for s in list {
                    self.separate::<P>();
                    self.schema_in::<P>(s);
                }
                self.close::<P, b']'>();
            }
            Value::Props(props) => {
                self.open::<P, b'{'>();
                for p in props {
                    self.key_inline::<P>(p.name);
                    self.schema_in::<P>(&p.schema);
                }
                self.close::<P, b'}'>();
            }
            Value::Type(t) => {
                if t.array {
                    self.open::<P, b'['>();
                    for &ty in t.list {
                        self.separate::<P>();
                        self.type_name(ty);
                    }
                    self.close::<P, b']'>();
                } else {
                    for &ty in t.list.iter().take(1) {
                        self.type_name(ty);
                    }
                }
            }
            Value::Strings(list) => {
                self.open::<P, b'['>();
                for s in list {
                    self.separate::<P>();
                    self.string(s);
                }
                self.close::<P, b']'>();
            }
            Value::Str(s) => self.string(s),
            Value::Number(n) => self.raw(n),
            Value::Bool(b) => self.bool(b),
            Value::Json(j) => self.json_in::<P>(&j),
            Value::Unknown(m) => self.json_in::<P>(&m.value),
        }
    }
}

/// `"keyword":` by `Keyword as usize`, then with a comma before it (the `Unknown` slot is
/// never read: unknown keywords are written under their own names).
#[allow(clippy::indexing_slicing, reason = "const build: `ALL` is in declaration order")]
static KEYWORD_KEYS: [[Padded; 2]; Keyword::ALL.len()] = {
    let mut table = [const { [Padded::EMPTY, Padded::EMPTY] }; Keyword::ALL.len()];
    let mut i = 0;
    while i < Keyword::ALL.len() {
        let kw = Keyword::ALL[i];
        table[kw as usize] =
            [Padded::quoted(b"", kw.as_str(), b":"), Padded::quoted(b",", kw.as_str(), b":")];
        i += 1;
    }
    table
};

/// The seven type names, quoted, by `JsonType as usize`.
static TYPE_NAMES: [Padded; 7] = type_names(false, b"");
/// The same, as Gemini's OpenAPI `Type` enum spells them.
static UPPER_TYPE_NAMES: [Padded; 7] = type_names(true, b"");

/// Whole `"type":"name"` members, by upper-case, `JsonType as usize`, and comma before.
static TYPE_MEMBERS: [[[Padded; 2]; 7]; 2] = [type_members(false), type_members(true)];

/// The `"type":"name"` members of the seven types, without and with a comma before.
#[allow(clippy::indexing_slicing, reason = "const build over the seven types")]
const fn type_members(upper: bool) -> [[Padded; 2]; 7] {
    let [mut first, mut other] =
        [type_names(upper, b"\"type\":"), type_names(upper, b",\"type\":")];
    let mut table = [const { [Padded::EMPTY, Padded::EMPTY] }; 7];
    let mut ty = 0;
    while ty < 7 {
        table[ty] = [
            std::mem::replace(&mut first[ty], Padded::EMPTY),
            std::mem::replace(&mut other[ty], Padded::EMPTY),
        ];
        ty += 1;
    }
    table
}

/// The quoted type names by `JsonType as usize`, upper-case with `upper`, after `prefix`.
#[allow(clippy::indexing_slicing, reason = "const build over the seven types")]
const fn type_names(upper: bool, prefix: &[u8]) -> [Padded; 7] {
    const ALL: [JsonType; 7] = JsonType::ALL;
    let mut table = [Padded::EMPTY; 7];
    let mut i = 0;
    while i < ALL.len() {
        let ty = ALL[i];
        let name = if upper { ty.as_upper_str() } else { ty.as_str() };
        table[ty as usize] = Padded::quoted(prefix, name, b"");
        i += 1;
    }
    table
}
