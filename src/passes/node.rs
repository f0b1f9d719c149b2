//! Node helpers every pass shares: finding a keyword in a node, a node with other keywords
//! copied into the arena, and the error of an arena that ran out.

use crate::error::ConversionError;
use crate::ir::{Entry, Keyword, Schema, features_of};
use crate::pointer::Path;

use super::cx::PassCx;

/// The position and the entry of `keyword` in a node, when it has one.
pub(crate) fn find<'a>(s: &Schema<'a>, keyword: Keyword) -> Option<(usize, Entry<'a>)> {
    s.keywords.iter().copied().enumerate().find(|(_, e)| e.keyword == keyword)
}

/// `s` (at `path`) with these keywords instead of its own, copied into the arena.
pub(crate) fn with_keywords<'a>(
    s: &Schema<'a>,
    keywords: &[Entry<'a>],
    path: &Path<'_>,
    cx: &PassCx<'a, '_>,
) -> Result<Schema<'a>, ConversionError> {
    let keywords = cx.arena.try_alloc_slice_copy(keywords).map_err(|_| arena_error(path, cx))?;
    Ok(Schema { boolean: None, keywords, features: features_of(keywords), ..*s })
}

/// The arena ran out while a pass rewrote the node at `path`.
#[cold]
pub(crate) fn arena_error(path: &Path<'_>, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target().name(),
        crate::error::Direction::FromCanonical,
        path.to_pointer(),
        crate::error::ErrorKind::ArenaLimit { limit: cx.options().limits.max_arena_bytes },
    )
}
