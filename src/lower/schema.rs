//! The one JSON Schema lowering every format shares: a `match` on the interned keyword.
//!
//! Feature bits are set here, bottom-up, so no later walk is needed to know what a schema uses.

use super::{At, Kind, Lowerer, SMALL, Seen};
use crate::error::{ConversionError, ErrorKind};
use crate::ir::{
    Entry, FeatureSet, Json, JsonType, Keyword, Member, Prop, Schema, SchemaFeature, Types, Value,
};
use crate::pointer::{Path, Seg};

// Duplicate keywords are found with a bit per keyword in a `u128`.
const _: () = assert!((Keyword::Unknown as u8) < 128);

/// How a keyword's value is read.
enum ValueForm {
    Schema,
    Schemas,
    Props,
    Type,
    Strings,
    Str,
    Number,
    Bool,
    Json,
}

fn shape(kw: Keyword) -> ValueForm {
    use Keyword as K;
    match kw {
        K::Items
        | K::Contains
        | K::AdditionalProperties
        | K::PropertyNames
        | K::If
        | K::Then
        | K::Else
        | K::Not
        | K::UnevaluatedItems
        | K::UnevaluatedProperties
        | K::ContentSchema
        | K::AdditionalItems => ValueForm::Schema,
        K::AllOf | K::AnyOf | K::OneOf | K::PrefixItems => ValueForm::Schemas,
        K::Properties | K::PatternProperties | K::Defs | K::Definitions | K::DependentSchemas => {
            ValueForm::Props
        }
        K::Type => ValueForm::Type,
        K::Required => ValueForm::Strings,
        K::Schema
        | K::Id
        | K::Ref
        | K::Anchor
        | K::DynamicRef
        | K::DynamicAnchor
        | K::Comment
        | K::Pattern
        | K::Format
        | K::Title
        | K::Description
        | K::ContentEncoding
        | K::ContentMediaType
        | K::RecursiveRef => ValueForm::Str,
        K::MultipleOf
        | K::Maximum
        | K::ExclusiveMaximum
        | K::Minimum
        | K::ExclusiveMinimum
        | K::MaxLength
        | K::MinLength
        | K::MaxItems
        | K::MinItems
        | K::MaxContains
        | K::MinContains
        | K::MaxProperties
        | K::MinProperties => ValueForm::Number,
        K::UniqueItems
        | K::Deprecated
        | K::ReadOnly
        | K::WriteOnly
        | K::Nullable
        | K::RecursiveAnchor => ValueForm::Bool,
        K::Const
        | K::Enum
        | K::Default
        | K::Examples
        | K::Example
        | K::Vocabulary
        | K::DependentRequired
        | K::Dependencies
        | K::PropertyOrdering
        | K::Unknown => ValueForm::Json,
    }
}

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
            let value = self.keyword_value(kw, key, value_at, &child, depth + 1, &mut features)?;
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
        Ok(match shape(kw) {
            ValueForm::Schema if is_schema(kind) => {
                let s = self.alloc_mut(Schema::bool(true, 0), path)?;
                self.schema_into(at, path, depth, s)?;
                *features = features.union(s.features);
                Value::Schema(s)
            }
            ValueForm::Schema if kw == Keyword::Items && kind == Kind::Array => {
                if !self.elements(at).all(|e| is_schema(self.kind(e))) {
                    return self.verbatim(at, path, depth);
                }
                features.insert(SchemaFeature::TupleItems);
                Value::Schemas(self.schema_list(at, path, depth, features)?)
            }
            ValueForm::Schemas
                if kind == Kind::Array && self.elements(at).all(|e| is_schema(self.kind(e))) =>
            {
                Value::Schemas(self.schema_list(at, path, depth, features)?)
            }
            ValueForm::Props
                if kind == Kind::Object
                    && self.members(at).all(|(_, _, v)| is_schema(self.kind(v))) =>
            {
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
            ValueForm::Type => match self.types(at, path)? {
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
            },
            ValueForm::Strings
                if kind == Kind::Array
                    && self.elements(at).all(|e| self.kind(e) == Kind::String) =>
            {
                let len = self.array_len(at);
                let list = self.alloc_slice(len, "", path)?;
                for (slot, e) in list.iter_mut().zip(self.elements(at)) {
                    *slot = self.str(e).unwrap_or_default();
                }
                Value::Strings(list)
            }
            ValueForm::Str if kind == Kind::String => Value::Str(self.str(at).unwrap_or_default()),
            ValueForm::Number if kind == Kind::Number => match self.json(at, path, depth)? {
                Json::Number(n) => Value::Number(n),
                other => Value::Json(other),
            },
            ValueForm::Bool if kind == Kind::Bool => Value::Bool(self.bool(at).unwrap_or_default()),
            _ if kw == Keyword::Unknown => {
                self.note_unknown(key);
                let value = self.json(at, path, depth)?;
                Value::Unknown(self.alloc(Member { key, value }, path)?)
            }
            _ => self.verbatim(at, path, depth)?,
        })
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

    /// Notes how the OpenAPI type name at `at` is spelled (see `Lowerer::openapi_types_lower`).
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
