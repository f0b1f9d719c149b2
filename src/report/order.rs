//! Putting a report in source order once the recording is done ([`Report::finish`]).
//!
//! Rows are recorded nearly in order (tool by tool; within a tool, a run per pass), so the
//! sort moves small integer keys, by insertion while that does little work, and copies the
//! rows into their order once.

use super::Report;

impl Report {
    /// Puts the entries in source order: by tool, then place; entries at one place in the
    /// order they were written.
    pub(crate) fn finish(&mut self) {
        self.keep_list_as_spares();
        // Entries at one place keep the order they were written in: the last part of the key
        // is the position of writing, recorded with the row (those finished before were
        // written before, in the order they are in now). The sort moves small keys, not rows;
        // the rows are then copied once into their order.
        if self.rows.is_empty() {
            self.set_finished(0);
            return;
        }
        if self.more.get().is_none() {
            let _ = self.more.set(Box::default());
        }
        let Some(more) = self.more.get_mut() else { return };
        let finished = std::mem::replace(&mut more.finished, self.rows.len());
        let mut sorted = true;
        let mut last = (0, 0, 0);
        for (i, r) in self.rows.iter_mut().enumerate() {
            if i < finished {
                r.order.2 = u32::try_from(i).unwrap_or(u32::MAX);
            }
            sorted &= r.order >= last;
            last = r.order;
        }
        if sorted {
            return;
        }
        more.keys.clear();
        // One integer: tool, place, position of writing, and the row's position now (distinct
        // keys), most significant first.
        more.keys.extend(self.rows.iter().enumerate().map(|(i, r)| {
            let (tool, at, written) = r.order;
            let now = u32::try_from(i).unwrap_or(u32::MAX);
            (u128::from(tool) << 96)
                | (u128::from(at) << 64)
                | (u128::from(written) << 32)
                | u128::from(now)
        }));
        sort_keys(&mut more.keys);
        more.sorted.clear();
        more.sorted.reserve(self.rows.len());
        for &k in &more.keys {
            // The low 32 bits of a key are the row's position.
            if let Some(row) = self.rows.get(k as u32 as usize) {
                more.sorted.push(*row);
            }
        }
        std::mem::swap(&mut self.rows, &mut more.sorted);
    }
}

/// Sorts distinct keys. A report is nearly in order (tool by tool; within a tool, a run per
/// pass), so an insertion sort does little work; past a budget of moves (a report in no
/// useful order), the general sort finishes the job. The keys being distinct, both give the
/// same order.
fn sort_keys(keys: &mut [u128]) {
    let mut budget = keys.len().saturating_mul(4);
    for i in 1..keys.len() {
        let mut j = i;
        while j > 0 && keys.get(j - 1) > keys.get(j) {
            keys.swap(j - 1, j);
            j -= 1;
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => {
                    keys.sort_unstable();
                    return;
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_keys;

    #[test]
    fn keys_sort_as_the_general_sort_sorts_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [0_u32, 1, 2, 7, 40, 300, 5000] {
            let ascending: Vec<u128> = (0..n).map(u128::from).collect();
            let descending: Vec<u128> = ascending.iter().rev().copied().collect();
            let random: Vec<u128> =
                (0..n).map(|i| u128::from(next() % 97) << 32 | u128::from(i)).collect();
            // Nearly in order, with a few late keys that belong at the start (catalog entries).
            let mut late = ascending.iter().map(|k| k + 10).collect::<Vec<_>>();
            late.extend([3, 1, 2].into_iter().take(n as usize));
            for keys in [ascending.clone(), descending, random, late] {
                let mut expected = keys.clone();
                expected.sort_unstable();
                let mut got = keys;
                sort_keys(&mut got);
                assert_eq!(got, expected);
            }
        }
    }
}
