//! For authors of a format: the [`Adapter`] trait and everything implementing one needs.
//!
//! A format is its facts as data ([`FormatInfo`]: name, profile, strict mode, catalog key,
//! envelope rules), a front end (envelope → [`Tool`] via [`Lowerer`]) and a back end
//! ([`Tool`] → bytes via [`Writer`]). The shared schema lowering and emission do the rest, so
//! a new format is mostly envelope code. Users who only convert need none of this module but
//! the trait itself, which the crate root re-exports; `docs/contributing.md` shows how a
//! built-in format is laid out (one folder under `src/formats/`).
//!
//! ```
//! use tooladapter::adapter::{Adapter, At, EmitContext, FormatInfo, Lowerer, Path, Writer};
//! use tooladapter::formats::{Mcp, rules};
//! use tooladapter::{ConversionError, Registry, ir::Tool};
//!
//! /// MCP under another name, its facts built from the defaults.
//! struct Internal;
//! const INTERNAL: FormatInfo = FormatInfo::new("internal", &rules::mcp::PROFILE);
//!
//! impl Adapter for Internal {
//!     fn info(&self) -> &FormatInfo {
//!         &INTERNAL
//!     }
//!     fn lower_tool<'a>(
//!         &self,
//!         lw: &mut Lowerer<'a, '_>,
//!         at: At,
//!         path: &Path<'_>,
//!     ) -> Result<Tool<'a>, ConversionError> {
//!         Mcp.lower_tool(lw, at, path)
//!     }
//!     fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
//!         Mcp.write_tool(tool, cx, w);
//!     }
//! }
//!
//! let registry = Registry::default();
//! registry.register(Internal)?;
//! let out = registry.convert(br#"{"name":"t","inputSchema":{"type":"object"}}"#, "internal", "openai")?;
//! assert!(out.output_str().contains(r#""name":"t""#));
//! # Ok::<(), ConversionError>(())
//! ```

use crate::error::ConversionError;
use crate::ir::{Member, Tool};

pub use crate::emit::Writer;
pub use crate::format::{Envelope, FormatInfo, Mark, OtherField, StrictMode, ToolChoiceRule};
pub use crate::imported::Imported;
pub use crate::lower::{At, Elements, Kind, Lowerer, Members};
pub use crate::pointer::{Path, Seg};
pub use crate::profile::{
    Action, DatedLimit, Limit, NameRule, Profile, ProviderLimits, StrictRules,
};

/// What an emitter knows about the conversion it is writing, decided once per conversion
/// (see `Route`).
#[derive(Clone, Copy, Debug)]
pub struct EmitContext<'c> {
    /// The source format's name.
    pub source: &'c str,
    /// The target format's name.
    pub target: &'c str,
    same_format: bool,
    same_family: bool,
}

impl<'c> EmitContext<'c> {
    /// The context of a conversion from `source` to `target`.
    pub fn new(source: &'c FormatInfo, target: &'c FormatInfo) -> EmitContext<'c> {
        EmitContext {
            source: source.name,
            target: target.name,
            same_format: source.name == target.name,
            same_family: source.family == target.family,
        }
    }

    /// Whether source and target are the same format, so envelope metadata is kept as is.
    #[inline]
    pub fn same_format(&self) -> bool {
        self.same_format
    }

    /// Whether source and target are of one family ([`FormatInfo::family`]): the tool's
    /// envelope metadata is then written back as the source had it.
    #[inline]
    pub fn same_family(&self) -> bool {
        self.same_family
    }
}

/// A tool-definition format: its facts as data ([`FormatInfo`]), a front end (envelope →
/// [`Tool`] via [`Lowerer`]) and a back end ([`Tool`] → bytes via [`Writer`]).
pub trait Adapter: Send + Sync {
    /// What the format is.
    fn info(&self) -> &FormatInfo;

    /// The format name used on the command line and in reports (`mcp`, `openai`, …).
    fn name(&self) -> &str {
        self.info().name
    }

    /// What the format's schemas hold.
    fn profile(&self) -> &Profile {
        self.info().profile
    }

    /// Translates the parsed source document (read through `lw`) into this format's own tool
    /// shape, written to [`Imported::document`], which is then lowered with
    /// [`Adapter::lower_tool`] like any input. Called only when [`FormatInfo::imports`] is
    /// true. Entries about the source document go to [`Imported::note`]; [`Imported::place`]
    /// says where each translated tool's parts came from, so the report and errors point into
    /// the source document.
    ///
    /// # Errors
    /// A [`ConversionError`] with the pointer of the bad place when the document is malformed.
    fn import(&self, lw: &mut Lowerer<'_, '_>, out: &mut Imported) -> Result<(), ConversionError> {
        let _ = (lw, out);
        Ok(())
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

    /// The format's tool traffic (calls, results, conversations, responses), when it has one:
    /// what [`crate::Converter::convert_traffic`] reads and writes through. `None` by default.
    fn traffic(&self) -> Option<&'static dyn crate::traffic::TrafficFormat> {
        None
    }

    /// The format's model stream (text and tool-call deltas), when it has one: what
    /// [`crate::stream::StreamTranscoder`] reads and writes through. `None` by default.
    fn stream(&self) -> Option<&'static dyn crate::stream::StreamFormat> {
        None
    }

    /// Writes a catalog. `wrapper` holds the members of the source's catalog object in order
    /// (the tool list itself as a `null` placeholder under its key) when the source was an
    /// object and the format is the same. The default reads the format's facts: a format whose
    /// catalog is an object ([`FormatInfo::catalog_object`]) writes its tools under
    /// [`FormatInfo::catalog_key`] (under [`FormatInfo::catalog_alias`] where the source's
    /// wrapper spelled it so) with the wrapper's other members back in their places; any other
    /// writes a JSON array of tools.
    fn write_catalog(
        &self,
        tools: &[Tool<'_>],
        wrapper: &[Member<'_>],
        cx: &EmitContext<'_>,
        w: &mut Writer<'_>,
    ) {
        let info = self.info();
        if let Some(key) = info.catalog_key.filter(|_| info.catalog_object) {
            let spelled = |alias: &&str| wrapper.iter().any(|m| m.key == *alias);
            let key = info.catalog_alias.filter(spelled).unwrap_or(key);
            let each = |t: &Tool<'_>, w: &mut Writer<'_>| self.write_tool(t, cx, w);
            crate::emit::write_object_catalog(key, tools, wrapper, each, w);
            return;
        }
        w.begin_array();
        for tool in tools {
            w.element();
            self.write_tool(tool, cx, w);
        }
        w.end_array();
    }
}

/// The `Adapter` methods of a type that is a handle on another adapter, each handing the call
/// to `$inner` (an expression of `$this`, the receiver).
macro_rules! forward_adapter {
    (|$this:ident| $inner:expr) => {
        fn info(&$this) -> &$crate::adapter::FormatInfo {
            $inner.info()
        }

        fn import(
            &$this,
            lw: &mut $crate::lower::Lowerer<'_, '_>,
            out: &mut $crate::imported::Imported,
        ) -> Result<(), $crate::error::ConversionError> {
            $inner.import(lw, out)
        }

        fn lower_tool<'a>(
            &$this,
            lw: &mut $crate::lower::Lowerer<'a, '_>,
            at: $crate::lower::At,
            path: &$crate::pointer::Path<'_>,
        ) -> Result<$crate::ir::Tool<'a>, $crate::error::ConversionError> {
            $inner.lower_tool(lw, at, path)
        }

        fn write_tool(
            &$this,
            tool: &$crate::ir::Tool<'_>,
            cx: &$crate::adapter::EmitContext<'_>,
            w: &mut $crate::adapter::Writer<'_>,
        ) {
            $inner.write_tool(tool, cx, w);
        }

        fn traffic(&$this) -> Option<&'static dyn $crate::traffic::TrafficFormat> {
            $inner.traffic()
        }

        fn stream(&$this) -> Option<&'static dyn $crate::stream::StreamFormat> {
            $inner.stream()
        }

        fn write_catalog(
            &$this,
            tools: &[$crate::ir::Tool<'_>],
            wrapper: &[$crate::ir::Member<'_>],
            cx: &$crate::adapter::EmitContext<'_>,
            w: &mut $crate::adapter::Writer<'_>,
        ) {
            $inner.write_catalog(tools, wrapper, cx, w);
        }
    };
}
pub(crate) use forward_adapter;

/// A shared reference to a format is the format: the registry holds the built-in formats,
/// which are statics ([`crate::formats::builtins`]), this way.
impl<A: Adapter + ?Sized> Adapter for &'static A {
    forward_adapter!(|self| (**self));
}
