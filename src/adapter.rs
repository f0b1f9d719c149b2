//! The `Adapter` trait: what a format implements to be read from and written to.
//!
//! A format is a front end (envelope → [`Tool`] via [`Lowerer`]) and a back end ([`Tool`] →
//! bytes via [`Writer`]) plus a [`Profile`] saying what its schemas hold. The shared schema
//! lowering and emission do the rest, so a new format is mostly envelope code.

use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{FeatureSet, Member, SchemaFeature, Tool, ToolMember};
use crate::lower::{At, Lowerer};
use crate::pointer::Path;
use crate::profile::Profile;

/// What an emitter knows about the conversion it is writing.
#[derive(Clone, Copy, Debug)]
pub struct EmitContext<'c> {
    /// The source format's name.
    pub source: &'c str,
    /// The target format's name.
    pub target: &'c str,
}

impl EmitContext<'_> {
    /// Whether source and target are the same format, so envelope metadata is kept as is.
    pub fn same_format(&self) -> bool {
        self.source == self.target
    }
}

/// A tool-definition format.
pub trait Adapter: Send + Sync {
    /// The format name used on the command line and in reports (`mcp`, `openai`, …).
    fn name(&self) -> &str;

    /// What the format's schemas hold.
    fn profile(&self) -> &Profile;

    /// Features the format holds as they are.
    fn features(&self) -> FeatureSet {
        self.profile().features()
    }

    /// Whether the format holds `feature` as it is.
    fn supports_feature(&self, feature: SchemaFeature) -> bool {
        self.features().contains(feature)
    }

    /// Whether the format can be read (`openapi` is import only; every format here reads).
    fn can_read(&self) -> bool {
        true
    }

    /// Whether the format can be written.
    fn can_write(&self) -> bool {
        true
    }

    /// The member of a catalog object that holds the tool list (`{"tools": […]}`). Empty for
    /// a format without a catalog object (LangChain): any object is then one tool, and
    /// catalogs are JSON arrays only.
    fn catalog_key(&self) -> &str {
        "tools"
    }

    /// Whether the tool object is its input schema, the envelope being root keywords of it
    /// (LangChain: `title` is the name, `description` the description). The input schema's
    /// own root `title` and `description` then have no place of their own; a pass moves them
    /// out, and reports it, before the tool is written.
    fn tool_is_schema(&self) -> bool {
        false
    }

    /// Whether the format's tools must carry an input schema (an empty object schema is
    /// written, and reported, when the source had none).
    fn requires_input_schema(&self) -> bool {
        true
    }

    /// Whether the input schema's root must be an object schema (`"type": "object"`).
    fn requires_object_root(&self) -> bool {
        false
    }

    /// Whether the format has a place for `strict`.
    fn holds_strict(&self) -> bool {
        false
    }

    /// Whether the provider reads a tool without `strict` as strict (the Responses API).
    fn omitted_strict_is_strict(&self) -> bool {
        false
    }

    /// What the format's schemas hold when the tool is strict, for formats with a strict mode.
    fn strict_profile(&self) -> Option<&Profile> {
        None
    }

    /// Whether the format has a place for an output schema.
    fn holds_output_schema(&self) -> bool {
        false
    }

    /// Whether the output keeps an envelope metadata member of the source. By default only a
    /// conversion to the same format keeps them.
    fn holds_member(&self, member: &ToolMember<'_>, cx: &EmitContext<'_>) -> bool {
        let _ = member;
        cx.same_format()
    }

    /// Reads one tool (the value at `at`) into the IR. `path` points at it in the document.
    ///
    /// # Errors
    /// A [`ConversionError`] with the pointer of the bad place when the tool is malformed.
    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError>;

    /// Writes one tool.
    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>);

    /// Writes a catalog. The default is a JSON array of tools. `wrapper` holds the members of
    /// the source's catalog object in order (the tool list itself as a `null` placeholder
    /// under its key) when the source was an object and the format is the same; a format whose
    /// catalog is an object writes them back.
    fn write_catalog(
        &self,
        tools: &[Tool<'_>],
        wrapper: &[Member<'_>],
        cx: &EmitContext<'_>,
        w: &mut Writer<'_>,
    ) {
        let _ = wrapper;
        w.begin_array();
        for tool in tools {
            w.element();
            self.write_tool(tool, cx, w);
        }
        w.end_array();
    }
}
