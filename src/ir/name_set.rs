//! Membership in a list of names (a node's `required`), asked once per property: linear for
//! the short lists of real tools, by binary search over a sorted index for long ones, so an
//! object of 100,000 properties all required is n·log n rather than n² (issue 22).
//!
//! The index is a list of positions kept in a per-thread buffer that is reused from one use
//! to the next: a warm conversion builds it without allocating. (The passes, the pre-flight
//! check and the limit counts all ask; a per-thread buffer reaches them all without a
//! parameter through each.)

use std::cell::RefCell;

use crate::ir::visit::entry_name;
use crate::ir::{Entry, Prop};
use crate::scan::same_short;

/// What a [`NameSet`] holds: a name, or a property known by its name.
pub(crate) trait Named {
    /// The name the set compares.
    fn name(&self) -> &str;
}

impl Named for &str {
    #[inline]
    fn name(&self) -> &str {
        self
    }
}

impl Named for Prop<'_> {
    #[inline]
    fn name(&self) -> &str {
        self.name
    }
}

impl Named for Entry<'_> {
    /// A keyword's name as written (an unknown keyword's key).
    #[inline]
    fn name(&self) -> &str {
        entry_name(self)
    }
}

/// Lists up to this long are scanned: cheaper than sorting for the lists real tools have.
const SHORT: usize = 16;

/// How many index buffers a thread keeps between uses: as many sets as are alive at once
/// (a document's definitions while a node's `required` is asked) reuse theirs.
const KEPT: usize = 4;

thread_local! {
    /// The index buffers kept between uses: one is taken by a [`NameSet`] and given back when
    /// it is dropped.
    static SPARE: RefCell<Vec<Vec<(u64, u32)>>> = const { RefCell::new(Vec::new()) };
}

/// A list of names (or of properties, by name), asked whether it holds a name.
pub(crate) struct NameSet<'n, T: Named = &'n str> {
    names: &'n [T],
    /// The names' first eight bytes (as a big-endian number, so numbers order as the bytes
    /// do) and positions in `names`, in the names' order (empty for a short list, which is
    /// scanned). Sorting and searching compare the inline prefix first and read a name only
    /// on a tie: the index of a long list stays in cache where the names themselves would not.
    order: Vec<(u64, u32)>,
}

/// The first eight bytes of `name`, zero-padded, as a number that orders as the bytes do.
#[inline]
fn prefix(name: &str) -> u64 {
    let mut head = [0u8; 8];
    for (slot, b) in head.iter_mut().zip(name.bytes()) {
        *slot = b;
    }
    u64::from_be_bytes(head)
}

impl<'n, T: Named> NameSet<'n, T> {
    /// The set of `names` (duplicates allowed). A list longer than [`SHORT`] is indexed:
    /// n·log n comparisons, once.
    pub(crate) fn new(names: &'n [T]) -> NameSet<'n, T> {
        let Some(len) = u32::try_from(names.len()).ok().filter(|&n| n as usize > SHORT) else {
            return NameSet { names, order: Vec::new() };
        };
        let taken = SPARE.try_with(|s| s.try_borrow_mut().ok().and_then(|mut v| v.pop()));
        let mut order = taken.ok().flatten().unwrap_or_default();
        order.clear();
        order.extend((0..len).map(|i| (prefix(name(names, i)), i)));
        // A zero-padded prefix ties a name with that name followed by NUL bytes: the full
        // names break every tie, and positions the ties of a repeated name (so a lookup finds
        // its first item, as a scan does).
        order.sort_unstable_by(|&(pa, a), &(pb, b)| {
            pa.cmp(&pb).then_with(|| name(names, a).cmp(name(names, b))).then(a.cmp(&b))
        });
        NameSet { names, order }
    }

    /// Whether `name` is in the list.
    #[inline]
    pub(crate) fn contains(&self, wanted: &str) -> bool {
        self.get(wanted).is_some()
    }

    /// The first item of the list with the name `wanted`.
    #[inline]
    pub(crate) fn get(&self, wanted: &str) -> Option<&'n T> {
        self.names.get(self.position(wanted)?)
    }

    /// The position in the list of the first item named `wanted`.
    #[inline]
    pub(crate) fn position(&self, wanted: &str) -> Option<usize> {
        if self.order.is_empty() {
            return self
                .names
                .iter()
                .position(|n| same_short(n.name().as_bytes(), wanted.as_bytes()));
        }
        let key = prefix(wanted);
        // The first of the index's items not before `wanted`: a repeated name's first item.
        let at = self.order.partition_point(|&(p, i)| {
            p.cmp(&key).then_with(|| name(self.names, i).cmp(wanted)).is_lt()
        });
        let &(p, i) = self.order.get(at)?;
        (p == key && name(self.names, i) == wanted).then_some(i as usize)
    }
}

fn name<T: Named>(names: &[T], i: u32) -> &str {
    names.get(i as usize).map_or("", Named::name)
}

impl<T: Named> Drop for NameSet<'_, T> {
    fn drop(&mut self) {
        if self.order.capacity() == 0 {
            return;
        }
        let order = std::mem::take(&mut self.order);
        let _ = SPARE.try_with(|s| {
            if let Ok(mut spare) = s.try_borrow_mut()
                && spare.len() < KEPT
            {
                spare.push(order);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_lists_answer_alike() {
        for n in [0_usize, 1, 5, SHORT, SHORT + 1, 100, 1000] {
            let mut owned: Vec<String> =
                (0..n).map(|i| format!("p{}", (i * 7919) % 1009)).collect();
            // Names alike in their first eight bytes, and a name with trailing NUL bytes.
            owned.extend(["property_a", "property_b", "property", "property\0"].map(String::from));
            let names: Vec<&str> = owned.iter().map(String::as_str).collect();
            let set = NameSet::new(&names);
            for i in 0..1100 {
                let probe = format!("p{i}");
                assert_eq!(set.contains(&probe), names.contains(&probe.as_str()), "{n} {probe}");
            }
            assert!(!set.contains(""));
            // A repeated name is found at its first place, as a scan finds it.
            for (i, name) in names.iter().enumerate() {
                let first = names.iter().position(|n| n == name);
                assert!(set.position(name) == first && first <= Some(i), "{name}");
            }
            assert!(names.iter().all(|n| set.contains(n)));
            assert!(!set.contains("property_c") && !set.contains("propert"));
            // Nested sets (the buffer is taken): each answers for its own list.
            let inner = NameSet::new(&names[..n / 2]);
            if let Some(last) = names.last() {
                assert!(set.contains(last));
                assert_eq!(inner.contains(last), names[..n / 2].contains(last));
            }
        }
    }
}
