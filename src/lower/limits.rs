//! Where lowering stops: the depth and arena limits, and the errors lowering raises, each with
//! the pointer of the bad place.

use super::Lowerer;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::pointer::Path;

impl<'a> Lowerer<'a, '_> {
    /// An error of this adapter's lowering at `path`.
    #[cold]
    pub fn error(&self, path: &Path<'_>, kind: ErrorKind) -> ConversionError {
        ConversionError::new(self.adapter, Direction::ToCanonical, path.to_pointer(), kind)
    }

    /// Rejects nesting past the depth limit.
    #[inline]
    pub fn check_depth(&self, depth: usize, path: &Path<'_>) -> Result<(), ConversionError> {
        let limit = self.limits.depth_limit();
        if depth > limit {
            return Err(self.error(path, ErrorKind::DepthLimit { limit }));
        }
        Ok(())
    }

    /// Allocates a slice of `len` copies of `fill` in the arena, or fails at the arena limit.
    pub fn alloc_slice<T: Copy>(
        &self,
        len: usize,
        fill: T,
        path: &Path<'_>,
    ) -> Result<&'a mut [T], ConversionError> {
        self.arena.try_alloc_slice_fill_copy(len, fill).map_err(|_| self.arena_error(path))
    }

    /// Moves `value` into the arena, or fails at the arena limit.
    pub fn alloc<T: Copy>(&self, value: T, path: &Path<'_>) -> Result<&'a T, ConversionError> {
        self.alloc_mut(value, path).map(|v| &*v)
    }

    /// [`Lowerer::alloc`], for a slot the caller fills in place.
    pub(crate) fn alloc_mut<T: Copy>(
        &self,
        value: T,
        path: &Path<'_>,
    ) -> Result<&'a mut T, ConversionError> {
        self.arena.try_alloc(value).map_err(|_| self.arena_error(path))
    }

    #[cold]
    fn arena_error(&self, path: &Path<'_>) -> ConversionError {
        self.error(path, ErrorKind::ArenaLimit { limit: self.limits.max_arena_bytes })
    }
}
