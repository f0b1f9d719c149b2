//! How the command line prints a report: text lines or JSON lines, each entry traced to its
//! source (the input file, `-` for stdin, the NDJSON line) and its tool's place in the
//! catalog; `--report-level` hides the entries below a severity; a run's tally ends the text
//! report with one summary line. Shared by every path (one input, a split catalog, NDJSON
//! lines, a folder's files, `check`), so they print alike.

use std::io::Write;

use clap::ValueEnum;
use serde::Serialize;
use tooladapter::{Code, EntryRef, Severity};

/// `--report`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportMode {
    /// One line an entry, for people.
    Text,
    /// One JSON object an entry (JSON lines).
    Json,
    /// Nothing.
    None,
}

/// `--report-pointers`: which pointer an entry's `pointer` shows.
#[derive(Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum Pointers {
    /// The place in the input document (`/tools/3/inputSchema/properties/a`).
    #[default]
    Document,
    /// The place in the tool (`/inputSchema/properties/a`), whatever the tool's place.
    Tool,
}

/// How entries are printed: the mode, the least severity printed (`--report-level`) and
/// the pointer shown (`--report-pointers`).
#[derive(Clone, Copy)]
pub(crate) struct Printing {
    /// `--report`.
    pub(crate) mode: ReportMode,
    /// `--report-level`: entries below it are not printed (they still count for the exit
    /// code and the summary).
    pub(crate) level: Severity,
    /// `--report-pointers`.
    pub(crate) pointers: Pointers,
    /// Entries of this code are printed below `level` too: `check` prints its `dated-limit`
    /// warnings beside what would be rejected.
    pub(crate) also: Option<Code>,
}

impl Printing {
    /// Every entry, in `mode`, with document-level pointers.
    #[cfg(test)]
    pub(crate) fn all(mode: ReportMode) -> Printing {
        Printing { mode, level: Severity::Info, pointers: Pointers::Document, also: None }
    }
}

/// Where a report's entries come from.
pub(crate) struct Origin<'a> {
    /// What the text report puts in front of each entry (`line 3`, a file's path); empty for
    /// a single input, which is the whole run.
    pub(crate) label: &'a str,
    /// The input: a file's path, or `-` for stdin.
    pub(crate) source: &'a str,
    /// The NDJSON line, counted from 1.
    pub(crate) line: Option<usize>,
    /// The output limit of the input the entries are about (`Limits::output_limit`): what a
    /// JSON report may write past [`LINE`] bytes a line, in all.
    pub(crate) limit: usize,
}

/// The bytes of a JSON report line that count nothing against the output limit: every line
/// of a real report is shorter. Past them a line repeats a long name or key, which the text
/// report cuts short ([`EntryRef::brief`]) but a JSON line keeps whole.
pub(crate) const LINE: usize = 4 << 10;

/// A JSON report line: the entry's fields, then where it comes from.
#[derive(Serialize)]
struct Traced<'a> {
    #[serde(flatten)]
    entry: EntryRef<'a>,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    /// The tool's place in its catalog (0 for a single tool); absent for an entry about the
    /// catalog as a whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
}

/// Prints `entries` from `origin` to `sink`, each traced to its tool's place in the catalog.
///
/// A text report writes each tool's first line whole and cuts the names and pointer steps too
/// long to read on its later ones ([`EntryRef::brief`]), so a tool with a long name, or a long
/// key above many entries, is not written out again on every line. A JSON line is always
/// whole; the bytes of its lines past [`LINE`] each count against `origin.limit`, and a
/// report that passes it stops with an error.
///
/// # Errors
/// Writing `sink` failed, or the JSON report passed its limit.
pub(crate) fn write_entries<'e>(
    entries: impl IntoIterator<Item = EntryRef<'e>>,
    origin: &Origin<'_>,
    printing: Printing,
    sink: &mut dyn Write,
) -> std::io::Result<()> {
    if printing.mode == ReportMode::None {
        return Ok(());
    }
    let shown =
        |e: &EntryRef<'_>| e.severity() >= printing.level || Some(e.code()) == printing.also;
    // The tool of the last line printed: the lines after a tool's first are brief.
    let mut last = None;
    let mut long = 0usize;
    let mut line = Vec::new();
    for entry in entries.into_iter().filter(shown) {
        // `pointer` shows the tool-relative form when asked (the JSON line keeps both).
        let entry = match printing.pointers {
            Pointers::Document => entry,
            Pointers::Tool => entry.in_tool(),
        };
        let index = entry.tool_index();
        match printing.mode {
            ReportMode::None => {}
            ReportMode::Text => {
                let tool = (index, entry.tool());
                let brief = index.is_some() && last == Some(tool);
                last = Some(tool);
                let label = origin.label;
                match (label.is_empty(), brief) {
                    (true, false) => writeln!(sink, "{entry}")?,
                    (true, true) => writeln!(sink, "{}", entry.brief())?,
                    (false, false) => writeln!(sink, "{label}: {entry}")?,
                    (false, true) => writeln!(sink, "{label}: {}", entry.brief())?,
                }
            }
            ReportMode::Json => {
                let traced = Traced { entry, source: origin.source, line: origin.line, index };
                line.clear();
                serde_json::to_writer(&mut line, &traced).map_err(std::io::Error::other)?;
                long = long.saturating_add(line.len().saturating_sub(LINE));
                if long > origin.limit {
                    return Err(std::io::Error::other(format!(
                        "the JSON report passes its limit: its lines past {LINE} bytes each (long tool names or keys, repeated) add up to more than the output limit of {} bytes for the input; the text report cuts them short",
                        origin.limit
                    )));
                }
                line.push(b'\n');
                sink.write_all(&line)?;
            }
        }
    }
    Ok(())
}

/// What a run converted, for the summary line.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Tools written.
    pub(crate) written: usize,
    /// Tools read but not written (an error entry says why).
    pub(crate) left_out: usize,
    /// Inputs (documents, lines, files) that gave no output at all.
    pub(crate) failed: usize,
    /// Report entries per severity, least first ([`Severity::ALL`]), printed or not.
    pub(crate) entries: [usize; 3],
}

impl Tally {
    /// The tally of one converted input: `read` tools in, `written` out, entries of these
    /// severities reported.
    pub(crate) fn of(
        read: usize,
        written: usize,
        entries: impl IntoIterator<Item = Severity>,
    ) -> Tally {
        let mut tally =
            Tally { written, left_out: read.saturating_sub(written), ..Tally::default() };
        for severity in entries {
            let at = Severity::ALL.iter().position(|s| *s == severity);
            if let Some(n) = at.and_then(|i| tally.entries.get_mut(i)) {
                *n += 1;
            }
        }
        tally
    }

    /// Adds `other` in.
    pub(crate) fn add(&mut self, other: Tally) {
        self.written += other.written;
        self.left_out += other.left_out;
        self.failed += other.failed;
        for (a, b) in self.entries.iter_mut().zip(other.entries) {
            *a += b;
        }
    }

    /// `summary: 3 tools written, 1 left out; 1 error, 2 warnings, 0 info` (and `, 2 inputs
    /// failed` after the tools when some gave no output).
    pub(crate) fn line(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let [info, warning, error] = self.entries;
        let mut line = format!(
            "summary: {} written, {} left out",
            plural(self.written, "tool", "tools"),
            self.left_out
        );
        if self.failed > 0 {
            line.push_str(&format!(", {} failed", plural(self.failed, "input", "inputs")));
        }
        line.push_str(&format!(
            "; {}, {}, {info} info",
            plural(error, "error", "errors"),
            plural(warning, "warning", "warnings")
        ));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_and_spells_plurals() {
        let mut t = Tally { written: 1, left_out: 0, failed: 0, entries: [2, 1, 0] };
        assert_eq!(t.line(), "summary: 1 tool written, 0 left out; 0 errors, 1 warning, 2 info");
        t.add(Tally { written: 2, left_out: 1, failed: 2, entries: [0, 1, 1] });
        assert_eq!(
            t.line(),
            "summary: 3 tools written, 1 left out, 2 inputs failed; 1 error, 2 warnings, 2 info"
        );
    }
}
