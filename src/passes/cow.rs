//! The copy-on-write slice the passes rewrite nodes with: a pass that changes nothing
//! allocates nothing.

use bumpalo::Bump;

/// Copy-on-write over an arena slice: walking an unchanged slice allocates nothing; the first
/// change copies what came before it once, and later elements are appended as they go.
pub(crate) struct CowSlice<'a, T: Copy> {
    src: &'a [T],
    out: Option<(&'a mut [T], usize)>,
}

impl<'a, T: Copy> CowSlice<'a, T> {
    pub fn new(src: &'a [T]) -> Self {
        CowSlice { src, out: None }
    }

    /// Element `i` of the source is kept as it is.
    pub fn same(&mut self, i: usize) {
        if let (Some((slots, n)), Some(v)) = (self.out.as_mut(), self.src.get(i))
            && let Some(slot) = slots.get_mut(*n)
        {
            *slot = *v;
            *n += 1;
        }
    }

    /// Element `i` of the source becomes `new`.
    pub fn changed(&mut self, i: usize, new: T, arena: &'a Bump) -> Result<(), ()> {
        let (slots, n) = self.start(i, arena)?;
        if let Some(slot) = slots.get_mut(*n) {
            *slot = new;
            *n += 1;
        }
        Ok(())
    }

    /// Element `i` of the source is left out.
    pub fn removed(&mut self, i: usize, arena: &'a Bump) -> Result<(), ()> {
        self.start(i, arena).map(|_| ())
    }

    fn start(&mut self, i: usize, arena: &'a Bump) -> Result<&mut (&'a mut [T], usize), ()> {
        if self.out.is_none() {
            let slots = arena.try_alloc_slice_copy(self.src).map_err(|_| ())?;
            self.out = Some((slots, i.min(self.src.len())));
        }
        self.out.as_mut().ok_or(())
    }

    /// The new slice, or `None` when nothing changed.
    pub fn finish(self) -> Option<&'a [T]> {
        self.out.map(|(slots, n)| &*slots.split_at_mut(n.min(slots.len())).0)
    }
}
