//! The format registry: every adapter by name, shared across threads.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use crate::adapter::Adapter;
use crate::convert::{Conversion, Converter};
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::formats::{Mcp, builtins};
use crate::formats::{report_unwritten, write_mcp_tools};
use crate::options::Options;
use crate::owned::CanonicalTool;
use crate::report::Report;

/// Formats by name. `Registry::default()` holds every built-in format; `Registry::new()` none.
/// Thread-safe: share one behind an `Arc` or a `static`.
///
/// Conversions run on a warm [`Converter`] per thread, held to [`Converter::RETAIN`]: after
/// a conversion that leaves it holding more (a 20 MB catalog), it gives its buffers back
/// before the call returns, so an idle thread keeps at most the cap.
pub struct Registry {
    adapters: RwLock<BTreeMap<String, Arc<dyn Adapter>>>,
}

impl Default for Registry {
    fn default() -> Self {
        let registry = Registry::new();
        for &adapter in builtins() {
            let _ = registry.register(adapter);
        }
        registry
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry").field("formats", &self.list()).finish()
    }
}

thread_local! {
    /// Each thread's warm converter, held to [`Converter::RETAIN`]: after a conversion that
    /// leaves it holding more, it gives its buffers back before the call returns.
    static CONVERTER: RefCell<Converter> = RefCell::new(Converter::new());
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry { adapters: RwLock::new(BTreeMap::new()) }
    }

    /// Adds a format.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateFormat`] when a format of that name is registered already.
    pub fn register(&self, adapter: impl Adapter + 'static) -> Result<(), ConversionError> {
        self.register_arc(Arc::new(adapter))
    }

    /// Adds a shared format.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateFormat`] when a format of that name is registered already.
    pub fn register_arc(&self, adapter: Arc<dyn Adapter>) -> Result<(), ConversionError> {
        let mut map = self.adapters.write().unwrap_or_else(|e| e.into_inner());
        let name = adapter.name().to_owned();
        // Names are matched without regard to case, so two may not differ in case only.
        if map.keys().any(|k| k.eq_ignore_ascii_case(&name)) {
            return Err(ConversionError::new(
                &name,
                Direction::ToCanonical,
                "",
                ErrorKind::DuplicateFormat(name.clone()),
            ));
        }
        map.insert(name, adapter);
        Ok(())
    }

    /// The format called `name` (any ASCII case: `MCP` is `mcp`).
    pub fn get(&self, name: &str) -> Option<Arc<dyn Adapter>> {
        let map = self.adapters.read().unwrap_or_else(|e| e.into_inner());
        // Exact first: the usual spelling costs one map lookup.
        map.get(name)
            .or_else(|| map.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, a)| a))
            .cloned()
    }

    /// Every format name, sorted.
    pub fn list(&self) -> Vec<String> {
        self.adapters.read().unwrap_or_else(|e| e.into_inner()).keys().cloned().collect()
    }

    /// Removes a format (named in any ASCII case), returning it.
    pub fn unregister(&self, name: &str) -> Option<Arc<dyn Adapter>> {
        let mut map = self.adapters.write().unwrap_or_else(|e| e.into_inner());
        let key = map.keys().find(|k| k.eq_ignore_ascii_case(name))?.clone();
        map.remove(&key)
    }

    /// Converts `input` from format `from` to format `to` with default options.
    ///
    /// # Errors
    /// See [`Registry::convert_with`].
    pub fn convert(
        &self,
        input: &[u8],
        from: impl AsRef<str>,
        to: impl AsRef<str>,
    ) -> Result<Conversion, ConversionError> {
        self.convert_with(input, from, to, &Options::default())
    }

    /// Converts `input` from format `from` to format `to`, on this thread's warm [`Converter`].
    ///
    /// # Errors
    /// [`ErrorKind::UnknownFormat`] for a name not registered; otherwise what
    /// [`Converter::convert`] returns.
    pub fn convert_with(
        &self,
        input: &[u8],
        from: impl AsRef<str>,
        to: impl AsRef<str>,
        options: &Options,
    ) -> Result<Conversion, ConversionError> {
        let source = self.lookup(from.as_ref(), Direction::ToCanonical)?;
        let target = self.lookup(to.as_ref(), Direction::FromCanonical)?;
        CONVERTER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut converter) => {
                let conversion = converter.convert(input, &*source, &*target, options).cloned();
                // The copy is the caller's: past the retention cap, nothing stays behind.
                converter.settle();
                conversion
            }
            // Re-entered from inside an adapter: use a fresh session rather than fail.
            Err(_) => Converter::new().convert(input, &*source, &*target, options).cloned(),
        })
    }

    /// Converts a tool or a catalog held as a [`serde_json::Value`] with default options,
    /// on this thread's warm [`Converter`]; see [`Converter::convert_value`] for what it costs
    /// beside the bytes path.
    ///
    /// ```
    /// use serde_json::json;
    /// use tooladapter::{Format, Registry};
    ///
    /// let tools = json!([{"type": "function", "function": {"name": "now"}}]);
    /// let (out, report) = Registry::default().convert_value(&tools, Format::OPENAI, "mcp")?;
    /// let schema = json!({"type": "object", "properties": {}});
    /// assert_eq!(out, json!({"tools": [{"name": "now", "inputSchema": schema}]}));
    /// # let _ = report;
    /// # Ok::<(), tooladapter::ConversionError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Registry::convert_with`].
    pub fn convert_value(
        &self,
        input: &serde_json::Value,
        from: impl AsRef<str>,
        to: impl AsRef<str>,
    ) -> Result<(serde_json::Value, Report), ConversionError> {
        let source = self.lookup(from.as_ref(), Direction::ToCanonical)?;
        let target = self.lookup(to.as_ref(), Direction::FromCanonical)?;
        let options = Options::default();
        CONVERTER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut converter) => converter.convert_value(input, &*source, &*target, &options),
            Err(_) => Converter::new().convert_value(input, &*source, &*target, &options),
        })
    }

    /// Reads `input` in format `from` into owned [`CanonicalTool`]s.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownFormat`] for a name not registered; otherwise what
    /// [`Converter::to_canonical`] returns.
    pub fn to_canonical(
        &self,
        input: &[u8],
        from: impl AsRef<str>,
    ) -> Result<Vec<CanonicalTool>, ConversionError> {
        let source = self.lookup(from.as_ref(), Direction::ToCanonical)?;
        CONVERTER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut converter) => converter.to_canonical(input, &*source, &Options::default()),
            Err(_) => Converter::new().to_canonical(input, &*source, &Options::default()),
        })
    }

    /// Writes owned tools in format `to`, as a catalog. The tools go through their MCP form
    /// (the richest one), so the report's pointers and `from` refer to that form; `source_meta`
    /// rides along only for tools whose source format was MCP. What the MCP form has no place
    /// for (`namespace`, `version`, `category`, `tags`, `timeout_ms`, `required_scopes`,
    /// `strict`, and the `source_meta` of a tool read from another format) is reported, one
    /// `metadata-dropped` warning per field and tool, after the conversion's own entries, with
    /// `from` set to `canonical` and the pointer of the field in the serialized
    /// [`CanonicalTool`] (`/tags`, `/source_meta/cache_control`).
    ///
    /// # Errors
    /// [`ErrorKind::UnknownFormat`] for a name not registered; otherwise what
    /// [`Converter::convert`] returns.
    pub fn from_canonical(
        &self,
        tools: &[CanonicalTool],
        to: impl AsRef<str>,
    ) -> Result<Conversion, ConversionError> {
        let to = to.as_ref();
        let mut bytes = Vec::new();
        write_mcp_tools(tools, &mut bytes);
        let mut conversion = self.convert(&bytes, Mcp.name(), to)?;
        let report = conversion.report_mut();
        for (i, tool) in tools.iter().enumerate() {
            report_unwritten(tool, i, to, report);
        }
        report.finish();
        Ok(conversion)
    }

    fn lookup(
        &self,
        name: &str,
        direction: Direction,
    ) -> Result<Arc<dyn Adapter>, ConversionError> {
        self.get(name).ok_or_else(|| self.unknown(name, direction))
    }

    #[cold]
    fn unknown(&self, name: &str, direction: Direction) -> ConversionError {
        let map = self.adapters.read().unwrap_or_else(|e| e.into_inner());
        // Known names in the built-ins' documented order, then any registered by the caller.
        let builtin = crate::formats::builtins().iter().map(|a| a.name());
        let mut err =
            crate::UnknownName::new("format", name, builtin.filter(|n| map.contains_key(*n)));
        for custom in map.values().filter(|a| crate::formats::builtin(a.name()).is_none()) {
            err.push_known(custom.name());
        }
        ConversionError::new(name, direction, "", ErrorKind::UnknownFormat(err))
    }
}
