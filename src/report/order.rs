//! Putting a report in source order once the recording is done ([`Report::finish`]).
//!
//! Rows are recorded nearly in order (tool by tool; within a tool, a run per pass), so they
//! are sorted in place, by insertion while that does little work: no copy of the rows, and
//! nothing allocated but for a report in no useful order.

use super::Report;
use super::store::Row;

impl Report {
    /// Puts the entries in source order: by tool, then place; entries at one place in the
    /// order they were recorded (those finished before first, as they were).
    pub(crate) fn finish(&mut self) {
        self.keep_list_as_spares();
        if !self.rows.is_sorted_by_key(|r| r.order) {
            sort_rows(&mut self.rows);
        }
    }
}

/// Sorts rows by their order, stably: rows at one place keep the order they were recorded in.
/// A report is nearly in order (tool by tool; within a tool, a run per pass), so an insertion
/// sort does little work and allocates nothing; past a budget of moves (a report in no useful
/// order), the general stable sort finishes the job, with the same result.
fn sort_rows(rows: &mut [Row]) {
    let mut budget = rows.len().saturating_mul(4);
    for i in 1..rows.len() {
        let mut j = i;
        while j > 0 && rows.get(j - 1).map(|r| r.order) > rows.get(j).map(|r| r.order) {
            rows.swap(j - 1, j);
            j -= 1;
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => {
                    rows.sort_by_key(|r| r.order);
                    return;
                }
            };
        }
    }
}
