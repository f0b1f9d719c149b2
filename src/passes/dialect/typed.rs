//! Whether a schema arriving in another format's schema member was written for Gemini's
//! `parameters` (an OpenAPI 3.0 `Schema` whose `type` is the `Type` enum: `STRING`, `OBJECT`,
//! …): Google ADK's declarations leak so into OpenAI requests ("'BOOLEAN' is not valid under
//! any of the given schemas", google/adk-python#1389, read 2026-11-28). Such a schema's
//! `nullable` is OpenAPI's, and is read as what it means there (the dialect pass).

use crate::ir::visit::{Visit, walk_schema};
use crate::ir::{Json, JsonType, Keyword, Schema, SchemaFeature, Value};
use crate::pointer::Path;

/// Whether `s` spells a `type` as Gemini's `Type` enum does (an upper-case JSON type name)
/// and holds a `nullable` whose meaning that decides; only then is it walked.
pub(super) fn openapi_typed(s: &Schema<'_>) -> bool {
    if !(s.features.contains(SchemaFeature::DialectType)
        && s.features.contains(SchemaFeature::Nullable))
    {
        return false;
    }
    let mut found = UpperTypes(false);
    found.visit_schema(s, &Path::ROOT, ());
    found.0
}

/// Whether `name` is a JSON type name in upper case (`STRING`, `BOOLEAN`), as Gemini's `Type`
/// enum spells them.
fn upper_type(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_uppercase())
        && JsonType::from_name(&name.to_ascii_lowercase()).is_some()
}

/// Finds a `type` spelled as Gemini's `Type` enum anywhere in a schema.
struct UpperTypes(bool);

impl<'a> Visit<'a> for UpperTypes {
    type Scope = ();

    fn visit_schema(&mut self, s: &Schema<'a>, path: &Path<'_>, scope: ()) {
        if self.0 || !s.features.contains(SchemaFeature::DialectType) {
            return;
        }
        let upper = |e: &crate::ir::Entry<'_>| {
            e.keyword == Keyword::Type
                && matches!(e.value, Value::Json(Json::String(n)) if upper_type(n))
        };
        if s.keywords.iter().any(upper) {
            self.0 = true;
            return;
        }
        walk_schema(self, s, path, scope);
    }
}
