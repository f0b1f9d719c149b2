//! The one JSON Schema lowering every format shares: a `match` on the interned keyword.
//!
//! Feature bits are set here, bottom-up, so no later walk is needed to know what a schema uses.

use super::{At, Kind, Lowerer, SMALL, Seen};
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Member, Prop, Schema, SchemaFeature, Types, Value,
    ValueType, is_count, is_positive,
};
use crate::pointer::{Path, Seg};

// Duplicate keywords are found with a bit per keyword in a `u128`.
const _: () = assert!((Keyword::Unknown as u8) < 128);

impl<'a> Lowerer<'a, '_> {
    /// Lowers the schema at `at` (an object or a boolean). Anything else is a
    /// [`ErrorKind::WrongType`] error naming `path`.
    pub fn schema(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Schema<'a>, ConversionError> {
        let mut s = Schema::bool(true, 0);
        self.schema_into(at, path, depth, &mut s)?;
        Ok(s)
    }

    /// [`Lowerer::schema`] of a tool that is its schema (LangChain's dict,
    /// [`crate::FormatInfo::tool_is_schema`]): the root's `title` and `description` are the
    /// envelope's name and description, whose values the reader checks by its own rules (a
    /// null description is the format's), so they are kept as written here.
    pub(crate) fn tool_schema(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Schema<'a>, ConversionError> {
        self.envelope_at = at;
        let schema = self.schema(at, path, depth);
        self.envelope_at = usize::MAX;
        schema
    }

    /// [`Lowerer::schema`] writing into `out`, an arena slot: the node's fields are stored
    /// where they stay, not returned through a stack temporary and copied, whose narrow and
    /// wide accesses to the same bytes stall store forwarding once per property.
    pub(crate) fn schema_into(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
        out: &mut Schema<'a>,
    ) -> Result<(), ConversionError> {
        let pos = at as u32;
        match self.kind(at) {
            Kind::Bool => {
                let mut s = Schema::bool(self.bool(at).unwrap_or(true), pos);
                s.features.insert(SchemaFeature::BooleanSchema);
                *out = s;
                return Ok(());
            }
            Kind::Object => {}
            other => {
                return Err(self.error(
                    path,
                    ErrorKind::WrongType {
                        member: "schema".into(),
                        expected: "an object or a boolean",
                        found: other.as_str(),
                    },
                ));
            }
        }
        self.check_depth(depth + 1, path)?;
        let len = self.object_len(at);
        if len > SMALL {
            self.check_duplicates(at, path)?;
        }
        match self.entries(at, len, path, depth) {
            Ok((keywords, features)) => {
                out.boolean = None;
                out.keywords = keywords;
                out.features = features;
                out.at = pos;
                Ok(())
            }
            Err(e) => Err(self.prefer_duplicate(at, path, e)),
        }
    }

    /// The keywords of the schema object at `at` and the features of its subtree. A small
    /// object's duplicate keys are found on the way: a keyword seen twice sets its bit twice,
    /// and only then (or for two unknown keys alike) are strings compared.
    fn entries(
        &mut self,
        at: At,
        len: usize,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(&'a [Entry<'a>], FeatureSet), ConversionError> {
        let entries = self.alloc_slice(
            len,
            Entry { keyword: Keyword::Unknown, at: 0, value: Value::Bool(false) },
            path,
        )?;
        let small = len <= SMALL;
        let (mut known, mut unknown) = (0u128, Seen::new());
        let mut features = FeatureSet::EMPTY;
        let (mut array, mut items) = (false, false);
        let envelope = at == self.envelope_at;
        let mut members = self.members(at);
        for slot in entries.iter_mut() {
            let Some((key, key_at, value_at)) = members.next() else { break };
            let kw = Keyword::from_key(key);
            if small {
                let fresh = if kw == Keyword::Unknown {
                    unknown.fresh(key)
                } else {
                    let bit = 1u128 << (kw as u8);
                    let fresh = known & bit == 0;
                    known |= bit;
                    fresh
                };
                if !fresh {
                    self.check_duplicates(at, path)?;
                }
            }
            let child = path.push(Seg::Key(key));
            let value = if envelope && matches!(kw, Keyword::Title | Keyword::Description) {
                match self.str(value_at) {
                    Some(text) => Value::Str(text),
                    None => self.verbatim(value_at, &child, depth + 1)?,
                }
            } else {
                self.keyword_value(kw, key, value_at, &child, depth + 1, &mut features)?
            };
            if let Some(f) = kw.feature() {
                features.insert(f);
            }
            // What `ir::node_constructs` reads off the whole node, gathered on the way.
            match value {
                Value::Type(t) => array |= t.contains(JsonType::Array),
                _ => items |= kw == Keyword::Items,
            }
            *slot = Entry { keyword: kw, at: key_at as u32, value };
        }
        if array && !items {
            features.insert(SchemaFeature::ItemlessArray);
        }
        Ok((entries, features))
    }

    /// The value of keyword `kw` at `at`, checked against the keyword's [`ValueType`]: a
    /// value outside it is an [`ErrorKind::KeywordValue`] error at its pointer (the element's,
    /// where one element of a list or map is wrong).
    fn keyword_value(
        &mut self,
        kw: Keyword,
        key: &'a str,
        at: At,
        path: &Path<'_>,
        depth: usize,
        features: &mut FeatureSet,
    ) -> Result<Value<'a>, ConversionError> {
        let kind = self.kind(at);
        let is_schema = |k: Kind| matches!(k, Kind::Object | Kind::Bool);
        let ty = kw.value_type();
        Ok(match (ty, kind) {
            (ValueType::Schema | ValueType::SchemaOrSchemas, Kind::Object | Kind::Bool) => {
                let s = self.alloc_mut(Schema::bool(true, 0), path)?;
                self.schema_into(at, path, depth, s)?;
                *features = features.union(s.features);
                Value::Schema(s)
            }
            (ValueType::SchemaOrSchemas, Kind::Array) => {
                self.every_element(kw, at, path, is_schema)?;
                features.insert(SchemaFeature::TupleItems);
                Value::Schemas(self.schema_list(at, path, depth, features)?)
            }
            (ValueType::Schemas, Kind::Array) => {
                self.every_element(kw, at, path, is_schema)?;
                Value::Schemas(self.schema_list(at, path, depth, features)?)
            }
            (ValueType::SchemaMap, Kind::Object) => {
                self.each_member(kw, at, path, is_schema)?;
                self.check_depth(depth + 1, path)?;
                let len = self.object_len(at);
                if len > SMALL {
                    self.check_duplicates(at, path)?;
                }
                match self.props(at, len, path, depth, features, kw == Keyword::Properties) {
                    Ok(props) => Value::Props(props),
                    Err(e) => return Err(self.prefer_duplicate(at, path, e)),
                }
            }
            (ValueType::Type, Kind::String | Kind::Array) => {
                self.every_element(kw, at, path, |k| k == Kind::String)?;
                match self.types(at, path)? {
                    Some(t) => {
                        if t.array {
                            features.insert(SchemaFeature::TypeArray);
                        }
                        Value::Type(t)
                    }
                    None => {
                        features.insert(SchemaFeature::DialectType);
                        self.verbatim(at, path, depth)?
                    }
                }
            }
            (ValueType::Strings, Kind::Array) if kw == Keyword::Required => {
                self.each_element(kw, at, path, |k| k == Kind::String)?;
                let len = self.array_len(at);
                let list = self.alloc_slice(len, "", path)?;
                for (slot, e) in list.iter_mut().zip(self.elements(at)) {
                    *slot = self.str(e).unwrap_or_default();
                }
                Value::Strings(list)
            }
            (ValueType::Strings, Kind::Array) => {
                self.each_element(kw, at, path, |k| k == Kind::String)?;
                self.verbatim(at, path, depth)?
            }
            (ValueType::String, Kind::String) => Value::Str(self.str(at).unwrap_or_default()),
            (
                ValueType::Number
                | ValueType::NumberOrBool
                | ValueType::Count
                | ValueType::Positive,
                Kind::Number,
            ) => match self.json(at, path, depth)? {
                Json::Number(n) => {
                    let fits = match ty {
                        ValueType::Count => is_count(n),
                        ValueType::Positive => is_positive(n),
                        _ => true,
                    };
                    if !fits {
                        return Err(self.keyword_error(kw, path, n.to_owned()));
                    }
                    Value::Number(n)
                }
                other => Value::Json(other),
            },
            (ValueType::Bool, Kind::Bool) => Value::Bool(self.bool(at).unwrap_or_default()),
            (ValueType::NumberOrBool, Kind::Bool) | (ValueType::Array, Kind::Array) => {
                self.verbatim(at, path, depth)?
            }
            (ValueType::BoolMap, Kind::Object) => {
                self.each_member(kw, at, path, |k| k == Kind::Bool)?;
                self.verbatim(at, path, depth)?
            }
            (ValueType::StringsMap | ValueType::SchemaOrStringsMap, Kind::Object) => {
                let schemas = ty == ValueType::SchemaOrStringsMap;
                for (name, _, v) in self.members(at) {
                    let k = self.kind(v);
                    if schemas && is_schema(k) {
                        continue;
                    }
                    let member = path.push(Seg::Key(name));
                    if k != Kind::Array {
                        return Err(self.keyword_error(kw, &member, found(k)));
                    }
                    self.each_element(kw, v, &member, |k| k == Kind::String)?;
                }
                self.verbatim(at, path, depth)?
            }
            (ValueType::Any, _) if kw == Keyword::Unknown => {
                self.note_unknown(key);
                let value = self.json(at, path, depth)?;
                Value::Unknown(self.alloc(Member { key, value }, path)?)
            }
            (ValueType::Any, _) => self.verbatim(at, path, depth)?,
            (_, other) => return Err(self.keyword_error(kw, path, found(other))),
        })
    }

    /// Checks that the array at `at` (the value of `kw`, whose type wants it non-empty) has
    /// an element and that each is of a kind `ok` takes; a value that is not an array passes
    /// (its kind was checked by the caller).
    fn every_element(
        &self,
        kw: Keyword,
        at: At,
        path: &Path<'_>,
        ok: impl Fn(Kind) -> bool,
    ) -> Result<(), ConversionError> {
        if self.kind(at) == Kind::Array && self.array_len(at) == 0 {
            return Err(self.keyword_error(kw, path, "an empty array".to_owned()));
        }
        self.each_element(kw, at, path, ok)
    }

    /// Checks that every element of the array at `at` (the value of `kw`) is of a kind `ok`
    /// takes; a value that is not an array passes (its kind was checked by the caller).
    fn each_element(
        &self,
        kw: Keyword,
        at: At,
        path: &Path<'_>,
        ok: impl Fn(Kind) -> bool,
    ) -> Result<(), ConversionError> {
        if self.kind(at) != Kind::Array {
            return Ok(());
        }
        match self.elements(at).enumerate().find(|(_, e)| !ok(self.kind(*e))) {
            Some((i, e)) => {
                Err(self.keyword_error(kw, &path.push(Seg::Index(i)), found(self.kind(e))))
            }
            None => Ok(()),
        }
    }

    /// Checks that every member of the object at `at` (the value of `kw`) is of a kind `ok`
    /// takes.
    fn each_member(
        &self,
        kw: Keyword,
        at: At,
        path: &Path<'_>,
        ok: impl Fn(Kind) -> bool,
    ) -> Result<(), ConversionError> {
        match self.members(at).find(|(_, _, v)| !ok(self.kind(*v))) {
            Some((name, _, v)) => {
                Err(self.keyword_error(kw, &path.push(Seg::Key(name)), found(self.kind(v))))
            }
            None => Ok(()),
        }
    }

    /// The error for a value of `kw` outside its [`ValueType`], at `path`.
    #[cold]
    fn keyword_error(&self, kw: Keyword, path: &Path<'_>, found: String) -> ConversionError {
        let expected = kw.value_type().expected();
        self.error(path, ErrorKind::KeywordValue { keyword: kw.as_str(), expected, found })
    }

    /// The named schemas of the object at `at` (`properties`, `$defs`, …); a small object's
    /// repeated names are found on the way, as in [`Lowerer::schema`]. `keys`: the names are
    /// property keys, tested against the key rule (see [`Lowerer::check_keys`]).
    fn props(
        &mut self,
        at: At,
        len: usize,
        path: &Path<'_>,
        depth: usize,
        features: &mut FeatureSet,
        keys: bool,
    ) -> Result<&'a [Prop<'a>], ConversionError> {
        let props = self.alloc_slice(len, Prop::new("", 0, Schema::bool(true, 0)), path)?;
        let mut seen = Seen::new();
        let mut members = self.members(at);
        for slot in props.iter_mut() {
            let Some((name, name_at, v)) = members.next() else { break };
            if len <= SMALL && !seen.fresh(name) {
                self.check_duplicates(at, path)?;
            }
            if keys {
                self.note_key(name);
            }
            slot.name = name;
            slot.at = name_at as u32;
            self.schema_into(v, &path.push(Seg::Key(name)), depth + 1, &mut slot.schema)?;
            *features = features.union(slot.schema.features);
        }
        Ok(props)
    }

    fn verbatim(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Value<'a>, ConversionError> {
        Ok(Value::Json(self.json(at, path, depth)?))
    }

    fn schema_list(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
        features: &mut FeatureSet,
    ) -> Result<&'a [Schema<'a>], ConversionError> {
        self.check_depth(depth + 1, path)?;
        let len = self.array_len(at);
        let list = self.alloc_slice(len, Schema::bool(true, 0), path)?;
        let mut elems = self.elements(at);
        for (i, slot) in list.iter_mut().enumerate() {
            let Some(e) = elems.next() else { break };
            self.schema_into(e, &path.push(Seg::Index(i)), depth + 1, slot)?;
            *features = features.union(slot.features);
        }
        Ok(list)
    }

    /// Notes how the OpenAPI type name at `at` is spelled (see `Lowerer::with_openapi_types`).
    #[inline]
    fn note_type_case(&mut self, at: At) {
        if let Some(name) = self.str(at) {
            self.type_case |= if JsonType::from_name(name).is_some() { 1 } else { 2 };
        }
    }

    /// `type` as a name or an array of names; `None` when any name is not a JSON Schema type
    /// (e.g. BFCL's `"dict"`), so the value is kept verbatim for a dialect pass to read.
    fn types(&mut self, at: At, path: &Path<'_>) -> Result<Option<Types<'a>>, ConversionError> {
        let parse =
            if self.openapi_types { JsonType::from_openapi_name } else { JsonType::from_name };
        if self.openapi_types {
            self.note_type_case(at);
        }
        match self.kind(at) {
            Kind::String => {
                let Some(t) = self.str(at).and_then(parse) else { return Ok(None) };
                // One name, the common case: a static slice, not an arena allocation.
                let list = JsonType::ALL.get(t as usize..=t as usize).unwrap_or_default();
                Ok(Some(Types { list, array: false }))
            }
            Kind::Array => {
                let len = self.array_len(at);
                if !self.elements(at).all(|e| self.str(e).and_then(parse).is_some()) {
                    return Ok(None);
                }
                let list = self.alloc_slice(len, JsonType::Null, path)?;
                for (slot, e) in list.iter_mut().zip(self.elements(at)) {
                    *slot = self.str(e).and_then(parse).unwrap_or(JsonType::Null);
                }
                Ok(Some(Types { list, array: true }))
            }
            _ => Ok(None),
        }
    }
}

/// A JSON kind as an error names what it found (`a string`, `an array`).
#[cold]
fn found(kind: Kind) -> String {
    let article = if matches!(kind, Kind::Array | Kind::Object) { "an" } else { "a" };
    match kind {
        Kind::Null => "null".to_owned(),
        _ => format!("{article} {}", kind.as_str()),
    }
}
