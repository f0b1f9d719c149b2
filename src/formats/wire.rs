//! Formats that share another's wire shape ([`crate::FormatInfo::wire_of`]): a provider serving
//! the OpenAI Chat Completions tool shape, or Gemini's declarations, under rules of its own.
//! Such a format's folder holds its facts and rules (`rules.rs`); its tools are read and
//! written by the code of the format whose shape it shares, through [`shares_wire`], so the
//! shape is decided in one place.

/// Implements [`crate::Adapter`] for `$ty`, its facts `$info`, its tools read and written by
/// the adapter `$wire` (the format named by `$info.wire_of`).
macro_rules! shares_wire {
    ($ty:ty, $info:expr, $wire:expr) => {
        impl $crate::adapter::Adapter for $ty {
            fn info(&self) -> &$crate::adapter::FormatInfo {
                &$info
            }

            fn lower_tool<'a>(
                &self,
                lw: &mut $crate::lower::Lowerer<'a, '_>,
                at: $crate::lower::At,
                path: &$crate::pointer::Path<'_>,
            ) -> Result<$crate::ir::Tool<'a>, $crate::error::ConversionError> {
                $crate::adapter::Adapter::lower_tool(&$wire, lw, at, path)
            }

            fn write_tool(
                &self,
                tool: &$crate::ir::Tool<'_>,
                cx: &$crate::adapter::EmitContext<'_>,
                w: &mut $crate::adapter::Writer<'_>,
            ) {
                $crate::adapter::Adapter::write_tool(&$wire, tool, cx, w);
            }

            fn write_catalog(
                &self,
                tools: &[$crate::ir::Tool<'_>],
                wrapper: &[$crate::ir::Member<'_>],
                cx: &$crate::adapter::EmitContext<'_>,
                w: &mut $crate::adapter::Writer<'_>,
            ) {
                $crate::adapter::Adapter::write_catalog(&$wire, tools, wrapper, cx, w);
            }
        }
    };
}
pub(crate) use shares_wire;
