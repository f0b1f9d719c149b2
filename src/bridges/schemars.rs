//! Schemas from Rust types through schemars (feature `schemars`): a [`CanonicalTool`] whose
//! input schema is `schemars::schema_for!(T)` for a type deriving `schemars::JsonSchema`.
//!
//! schemars writes the root as a 2020-12 document: `$schema`, the properties in field order
//! (serde_json's `preserve_order`, which this crate enables, keeps it), referenced types under
//! `$defs`, and a root `title` that is the Rust type's name unless the type sets its own. The
//! type's name is an implementation detail that would otherwise reach the model in every
//! request, so that one title is left out; a title the type sets stays. Everything else is
//! kept as schemars wrote it.

use ::schemars::{JsonSchema as SchemarsSchema, Schema};
use serde_json::Value as JsonValue;

use crate::owned::{CanonicalTool, JsonSchema};

/// A schemars schema as an owned [`JsonSchema`], as written.
impl From<Schema> for JsonSchema {
    fn from(schema: Schema) -> JsonSchema {
        // A schemars `Schema` is an object or a boolean by construction, so the fallback
        // (which accepts anything, like an empty schema) is never taken.
        JsonSchema::try_from(JsonValue::from(schema)).unwrap_or(JsonSchema::Bool(true))
    }
}

impl JsonSchema {
    /// The schema schemars generates for `T` with its default (2020-12) settings, without the
    /// root `title` when it is just `T`'s schema name. For other settings, generate a
    /// `schemars::Schema` yourself and convert it with `JsonSchema::from`.
    ///
    /// ```
    /// use tooladapter::JsonSchema;
    ///
    /// /// Where to look.
    /// #[derive(schemars::JsonSchema)]
    /// #[allow(dead_code)]
    /// struct Args {
    ///     city: String,
    ///     days: Option<u8>,
    /// }
    ///
    /// let schema = JsonSchema::from_schemars::<Args>();
    /// let o = schema.as_object().unwrap();
    /// assert_eq!(o.title, None); // "Args" was only the type's name
    /// assert_eq!(o.description.as_deref(), Some("Where to look."));
    /// assert_eq!(o.required.as_deref(), Some(&["city".to_owned()][..]));
    /// ```
    pub fn from_schemars<T: SchemarsSchema + ?Sized>() -> JsonSchema {
        let mut schema = JsonSchema::from(::schemars::schema_for!(T));
        if let Some(o) = schema.as_object_mut()
            && o.title.as_deref() == Some(T::schema_name().as_ref())
        {
            o.title = None;
        }
        schema
    }
}

impl CanonicalTool {
    /// A tool called `name` whose input schema is [`JsonSchema::from_schemars`] for `T`
    /// (`T`'s fields are the tool's arguments). Nothing else is set: the description, title
    /// and the rest are the caller's, and [`CanonicalTool::validate`] checks the result (a `T`
    /// that is not a struct or map gives a root that is not an object).
    ///
    /// ```
    /// use tooladapter::CanonicalTool;
    ///
    /// #[derive(schemars::JsonSchema)]
    /// #[allow(dead_code)]
    /// struct GetWeather {
    ///     city: String,
    /// }
    ///
    /// let mut tool = CanonicalTool::from_schemars::<GetWeather>("get_weather");
    /// tool.description = Some("Current weather for a city".into());
    /// assert_eq!(tool.validate(), Ok(()));
    /// let mcp = tooladapter::Registry::default().from_canonical(&[tool], "mcp")?;
    /// assert!(mcp.output_str().contains(r#""properties":{"city":{"type":"string"}}"#));
    /// # Ok::<(), tooladapter::ConversionError>(())
    /// ```
    pub fn from_schemars<T: SchemarsSchema + ?Sized>(name: impl Into<String>) -> CanonicalTool {
        CanonicalTool {
            input_schema: Some(JsonSchema::from_schemars::<T>()),
            ..CanonicalTool::new(name)
        }
    }
}
