//! The arena schema node: an ordered list of interned keywords.
//!
//! Keeping keywords as a slice in source order (not a struct of optional fields) is what makes
//! MCP → MCP lossless and output byte-stable: emission walks the slice, so the author's order
//! of keywords and of properties comes out unchanged. Lookups are linear, which is cheaper than
//! hashing for the three to six keywords a real schema node has.

use super::features::{FeatureSet, SchemaFeature};
use super::json::{Json, Member};
use super::json_type::JsonType;
use super::keyword::Keyword;

/// The value of `type`: one name, or an array of names (`array` says which form it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types<'a> {
    /// The names, in source order.
    pub list: &'a [JsonType],
    /// Whether the source wrote an array (`["string"]` stays an array).
    pub array: bool,
}

impl Types<'_> {
    /// One type name, written as a string (`"type": "object"`); the list is static, so
    /// building it allocates nothing.
    pub const fn one(t: JsonType) -> Types<'static> {
        const ALL: [JsonType; 7] = JsonType::ALL;
        let list: &'static [JsonType] = match t {
            JsonType::Null => std::slice::from_ref(&ALL[0]),
            JsonType::Boolean => std::slice::from_ref(&ALL[1]),
            JsonType::Object => std::slice::from_ref(&ALL[2]),
            JsonType::Array => std::slice::from_ref(&ALL[3]),
            JsonType::Number => std::slice::from_ref(&ALL[4]),
            JsonType::String => std::slice::from_ref(&ALL[5]),
            JsonType::Integer => std::slice::from_ref(&ALL[6]),
        };
        Types { list, array: false }
    }

    /// Whether `t` is one of the types.
    pub fn contains(&self, t: JsonType) -> bool {
        self.list.contains(&t)
    }
}

/// A schema node. A boolean schema has `boolean` set and no keywords.
#[derive(Clone, Copy, Debug)]
pub struct Schema<'a> {
    /// `Some(b)` for the boolean schemas `true` and `false`.
    pub boolean: Option<bool>,
    /// The keywords, in source order.
    pub keywords: &'a [Entry<'a>],
    /// Features used by this node and everything below it.
    pub features: FeatureSet,
    /// Position in the source (the tape index of the node), which orders report entries.
    pub at: u32,
}

/// One keyword of a schema node.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// The keyword.
    pub keyword: Keyword,
    /// Position of the keyword's key in the source.
    pub at: u32,
    /// Its value.
    pub value: Value<'a>,
}

/// A property (or `$defs` / `patternProperties` / `dependentSchemas` member): a name and a schema.
#[derive(Clone, Copy, Debug)]
pub struct Prop<'a> {
    /// The property name (or pattern, or definition name), unescaped.
    pub name: &'a str,
    /// Position of the name in the source.
    pub at: u32,
    /// The schema.
    pub schema: Schema<'a>,
    /// The name in the source, when a pass renamed the property for the target (a key the
    /// target's key rule rejects); the inverse map renames it back in a model's arguments.
    pub source_name: Option<&'a str>,
    /// The property was optional and strict mode made it required and nullable; the inverse
    /// map drops a `null` the model sends for it.
    pub widened: bool,
}

impl<'a> Prop<'a> {
    /// A property as the source wrote it.
    pub const fn new(name: &'a str, at: u32, schema: Schema<'a>) -> Prop<'a> {
        Prop { name, at, schema, source_name: None, widened: false }
    }
}

/// A keyword's value, typed by what the keyword holds.
///
/// A value outside its keyword's [`crate::ir::ValueType`] is refused as it is lowered; a form
/// of an older dialect the crate reads (OpenAPI 3.0's boolean `exclusiveMinimum`, BFCL's
/// `"type": "dict"`) is kept as [`Value::Json`], exactly as written, for a pass to read.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// One subschema: `items`, `not`, `if`, `additionalProperties`, …
    Schema(&'a Schema<'a>),
    /// A list of subschemas: `allOf`, `anyOf`, `oneOf`, `prefixItems`, tuple `items`.
    Schemas(&'a [Schema<'a>]),
    /// Named subschemas in source order: `properties`, `$defs`, `definitions`, …
    Props(&'a [Prop<'a>]),
    /// `type` with valid type names.
    Type(Types<'a>),
    /// `required`.
    Strings(&'a [&'a str]),
    /// A string keyword: `$ref`, `pattern`, `format`, `title`, `description`, …
    Str(&'a str),
    /// A numeric keyword, as its source text.
    Number(&'a str),
    /// A boolean keyword: `uniqueItems`, `nullable`, `deprecated`, …
    Bool(bool),
    /// A value kept verbatim: `enum`, `const`, `default`, `examples`, or an unexpected shape.
    Json(Json<'a>),
    /// A keyword the crate does not model: its name and raw value.
    Unknown(&'a Member<'a>),
}

impl<'a> Schema<'a> {
    /// The boolean schema `true` (accepts anything), at source position `at`.
    pub const fn bool(value: bool, at: u32) -> Schema<'a> {
        Schema { boolean: Some(value), keywords: &[], features: FeatureSet::EMPTY, at }
    }

    /// The first entry for `keyword`, if present.
    #[inline]
    pub fn get(&self, keyword: Keyword) -> Option<&'a Entry<'a>> {
        self.keywords.iter().find(|e| e.keyword == keyword)
    }

    /// `type`, when it holds valid type names.
    pub fn types(&self) -> Option<Types<'a>> {
        match self.get(Keyword::Type)?.value {
            Value::Type(t) => Some(t),
            _ => None,
        }
    }

    /// `properties`, in source order.
    pub fn properties(&self) -> &'a [Prop<'a>] {
        match self.get(Keyword::Properties).map(|e| e.value) {
            Some(Value::Props(p)) => p,
            _ => &[],
        }
    }

    /// `required`.
    pub fn required(&self) -> &'a [&'a str] {
        required_of(self.keywords)
    }

    /// `description`, when it is a string.
    pub fn description(&self) -> Option<&'a str> {
        match self.get(Keyword::Description)?.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this node declares `type: "object"` (alone or in an array).
    pub fn is_object_type(&self) -> bool {
        self.types().is_some_and(|t| t.contains(JsonType::Object))
    }

    /// Whether this node is an object schema: `object` among its types, or `properties`
    /// without a `type`.
    pub fn is_object_like(&self) -> bool {
        self.types()
            .map_or(self.get(Keyword::Properties).is_some(), |t| t.contains(JsonType::Object))
    }

    /// Whether this node says what kind of value it accepts (`type`, `anyOf`, `$ref`, `enum`
    /// or `const`), as a strict schema must everywhere.
    pub fn declares_kind(&self) -> bool {
        self.keywords.iter().any(|e| {
            matches!(
                e.keyword,
                Keyword::Type | Keyword::AnyOf | Keyword::Ref | Keyword::Enum | Keyword::Const
            )
        })
    }

    /// Whether this node accepts arrays but says nothing of their items.
    pub fn is_array_without_items(&self) -> bool {
        self.types().is_some_and(|t| t.contains(JsonType::Array))
            && self.get(Keyword::Items).is_none()
    }
}

/// The `required` names among `keywords` (a node's, or the keywords a rewrite is building),
/// as [`Schema::required`] reads them.
pub(crate) fn required_of<'a>(keywords: &[Entry<'a>]) -> &'a [&'a str] {
    match keywords.iter().find(|e| e.keyword == Keyword::Required).map(|e| e.value) {
        Some(Value::Strings(s)) => s,
        _ => &[],
    }
}

/// The constructs of a node read off its keywords together rather than one by one (an array
/// type without `items`), which lowering and [`features_of`] both add.
#[inline]
fn node_constructs(keywords: &[Entry<'_>]) -> FeatureSet {
    let (mut array, mut items) = (false, false);
    for e in keywords {
        match e.value {
            Value::Type(t) => array |= t.contains(JsonType::Array),
            _ => items |= e.keyword == Keyword::Items,
        }
    }
    if array && !items {
        FeatureSet::of(&[SchemaFeature::ItemlessArray])
    } else {
        FeatureSet::EMPTY
    }
}

/// The features of a node with these keywords (its own and its children's), as lowering
/// computes them.
pub fn features_of(keywords: &[Entry<'_>]) -> FeatureSet {
    let mut set = node_constructs(keywords);
    for e in keywords {
        if let Some(f) = e.keyword.feature() {
            set.insert(f);
        }
        match e.value {
            Value::Schema(s) => set = set.union(s.features),
            Value::Schemas(list) => {
                if e.keyword == Keyword::Items {
                    set.insert(SchemaFeature::TupleItems);
                }
                set = list.iter().fold(set, |a, s| a.union(s.features));
            }
            Value::Props(props) => set = props.iter().fold(set, |a, p| a.union(p.schema.features)),
            Value::Type(t) if t.array => set.insert(SchemaFeature::TypeArray),
            Value::Json(_) if e.keyword == Keyword::Type => set.insert(SchemaFeature::DialectType),
            _ => {}
        }
    }
    set
}

/// Whether the feature set of every node of `s` holds every feature of its subtree (what
/// [`features_of`] finds from its keywords): lowering and the passes keep it so, and whatever
/// skips a subtree by its features (the check, the passes' walks) relies on it. For debug
/// assertions where a tool's schema is finished.
pub(crate) fn covers(s: &Schema<'_>) -> bool {
    let own = features_of(s.keywords);
    own.difference(s.features).is_empty()
        && s.keywords.iter().all(|e| match e.value {
            Value::Schema(c) => covers(c),
            Value::Schemas(list) => list.iter().all(covers),
            Value::Props(props) => props.iter().all(|p| covers(&p.schema)),
            _ => true,
        })
}

#[cfg(test)]
mod tests {
    use super::JsonType;

    #[test]
    fn all_is_in_declaration_order() {
        for (i, t) in JsonType::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
            assert_eq!(JsonType::from_name(t.as_str()), Some(t));
            assert_eq!(JsonType::from_openapi_name(t.as_upper_str()), Some(t));
        }
    }

    #[test]
    fn names_a_byte_off_are_no_type() {
        for t in JsonType::ALL {
            let name = t.as_str();
            let mut near = vec![
                name[1..].to_owned(),
                name[..name.len() - 1].to_owned(),
                format!("{name}s"),
                format!("_{name}"),
                name.to_uppercase(),
            ];
            for at in 0..name.len() {
                let mut b = name.as_bytes().to_vec();
                b[at] ^= 0x01;
                near.push(String::from_utf8(b).unwrap_or_default());
            }
            for n in near {
                assert_eq!(JsonType::from_name(&n), None, "{n:?}");
            }
        }
        for n in ["", "n", "nul", "nullnull", "integers", "str"] {
            assert_eq!(JsonType::from_name(n), None, "{n:?}");
        }
    }
}
