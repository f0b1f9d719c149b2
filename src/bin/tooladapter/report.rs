//! How the command line prints a report: text lines or JSON lines, each entry traced to its
//! source (the input file, `-` for stdin, the NDJSON line) and its tool's place in the
//! catalog; `--report-level` hides the entries below a severity; a run's tally ends the text
//! report with one summary line. Shared by every path (one input, a split catalog, NDJSON
//! lines, a folder's files, `check`), so they print alike.

use std::io::Write;
use std::sync::OnceLock;

use clap::ValueEnum;
use serde::Serialize;
use tooladapter::{Code, ConversionError, ReportEntry, Severity};

use crate::input::InputError;

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
}

/// A JSON report line: the entry's fields, then where it comes from.
#[derive(Serialize)]
struct Traced<'a> {
    #[serde(flatten)]
    entry: &'a ReportEntry,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    /// The tool's place in its catalog (0 for a single tool); absent for an entry about the
    /// catalog as a whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
}

/// Prints `entries` (each with its tool's place in the catalog) from `origin` to `sink`.
///
/// # Errors
/// Writing `sink` failed.
pub(crate) fn write_entries<'e>(
    entries: impl IntoIterator<Item = (&'e ReportEntry, Option<usize>)>,
    origin: &Origin<'_>,
    printing: Printing,
    sink: &mut dyn Write,
) -> std::io::Result<()> {
    if printing.mode == ReportMode::None {
        return Ok(());
    }
    let shown = |e: &ReportEntry| e.severity >= printing.level || Some(e.code) == printing.also;
    for (entry, index) in entries.into_iter().filter(|(e, _)| shown(e)) {
        // `pointer` shows the tool-relative form when asked (the JSON line keeps both).
        let relative;
        let entry = match printing.pointers {
            Pointers::Document => entry,
            Pointers::Tool => {
                relative = {
                    let mut e = entry.clone();
                    e.pointer.clone_from(&e.tool_pointer);
                    e
                };
                &relative
            }
        };
        match printing.mode {
            ReportMode::None => {}
            ReportMode::Text if origin.label.is_empty() => writeln!(sink, "{entry}")?,
            ReportMode::Text => writeln!(sink, "{}: {entry}", origin.label)?,
            ReportMode::Json => {
                let traced = Traced { entry, source: origin.source, line: origin.line, index };
                let line = serde_json::to_string(&traced).map_err(std::io::Error::other)?;
                writeln!(sink, "{line}")?;
            }
        }
    }
    Ok(())
}

/// How the run says its errors, set once after the command line is parsed: as JSON lines
/// under `--report json` (so that every line of a machine-read run is JSON), and the input
/// they are about.
struct ErrorStyle {
    json: bool,
    /// The input as JSON lines name it (its path, or `-` for stdin).
    source: String,
}

static ERRORS: OnceLock<ErrorStyle> = OnceLock::new();

/// Sets how errors are said for the rest of the run: JSON lines when `mode` is
/// [`ReportMode::Json`], about `input` (stdin when `None`). Before it is set (or for a command
/// without `--report`), errors are `error: …` lines.
pub(crate) fn say_errors_as(mode: ReportMode, input: Option<&std::path::Path>) {
    let source = input.map_or_else(|| "-".to_owned(), |p| p.display().to_string());
    let _ = ERRORS.set(ErrorStyle { json: mode == ReportMode::Json, source });
}

/// An error the command line says (one input, one line or file of a batch, or the run).
#[derive(Debug)]
pub(crate) struct Failure {
    /// What kind: the library's [`tooladapter::ErrorKind::name`] (`json`, `missing-member`,
    /// …) for an input it could not convert, else the command line's own: `usage` (exit 2),
    /// `input` (an input that could not be read: missing, over the limit), `io` (a write or
    /// a read that failed), `map` (an inverse map that cannot be written or read).
    pub(crate) kind: &'static str,
    /// The message, as the text form prints it after `error: ` (and the label).
    pub(crate) message: String,
    /// Where in the input document, for the library's errors.
    pub(crate) pointer: Option<String>,
    /// The tool, when the library's error names one.
    pub(crate) tool: Option<String>,
}

impl Failure {
    /// A failure of `kind` saying `message`.
    pub(crate) fn new(kind: &'static str, message: impl Into<String>) -> Failure {
        Failure { kind, message: message.into(), pointer: None, tool: None }
    }

    /// The library's error `e`, its message followed by the command line's `hint`.
    pub(crate) fn of(e: &ConversionError, hint: &str) -> Failure {
        Failure {
            kind: e.kind().name(),
            message: format!("{e}{hint}"),
            pointer: Some(e.pointer().to_owned()),
            tool: e.tool().map(str::to_owned),
        }
    }

    /// An input that could not be read: `usage` for a path that cannot be an input (exit 2),
    /// `input` otherwise.
    pub(crate) fn of_input(e: &InputError, message: String) -> Failure {
        Failure::new(if e.code() == 2 { "usage" } else { "input" }, message)
    }
}

/// An error line under `--report json`: its stable shape.
#[derive(Serialize)]
struct ErrorLine<'a> {
    severity: &'static str,
    error: &'static str,
    message: &'a str,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
}

/// Says `failure` on stderr: `error: <label>: <message>`, or under `--report json` one JSON
/// object (`{"severity":"error","error":<kind>,"message",…,"source",…}` with `line`,
/// `pointer` and `tool` when known). `origin` names a batch's line or file; `None` is the
/// run's input. A failed write is ignored: stderr is where errors are said, so there is
/// nowhere left to say that it failed, and the exit code still tells.
pub(crate) fn say(failure: &Failure, origin: Option<&Origin<'_>>) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{}", error_line(failure, origin, ERRORS.get()));
}

/// The line [`say`] writes, without its newline.
fn error_line(
    failure: &Failure,
    origin: Option<&Origin<'_>>,
    style: Option<&ErrorStyle>,
) -> String {
    match style {
        Some(style) if style.json => {
            let line = ErrorLine {
                severity: "error",
                error: failure.kind,
                message: &failure.message,
                source: origin.map_or(style.source.as_str(), |o| o.source),
                line: origin.and_then(|o| o.line),
                pointer: failure.pointer.as_deref(),
                tool: failure.tool.as_deref(),
            };
            // Serializing strings and numbers cannot fail; the text form is the fallback.
            serde_json::to_string(&line).unwrap_or_else(|_| format!("error: {}", failure.message))
        }
        _ => match origin.map(|o| o.label).filter(|l| !l.is_empty()) {
            Some(label) => format!("error: {label}: {}", failure.message),
            None => format!("error: {}", failure.message),
        },
    }
}

/// The source errors of a batch's line name (the run's input), for an [`Origin`].
pub(crate) fn input_source() -> &'static str {
    ERRORS.get().map_or("-", |s| s.source.as_str())
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
    /// Tools converted but not written: their input had a loss `--deny-loss` denies.
    pub(crate) withheld: usize,
    /// Report entries per severity, least first ([`Severity::ALL`]), printed or not.
    pub(crate) entries: [usize; 3],
}

impl Tally {
    /// The tally of one converted input: `read` tools in, `written` out, `entries` reported.
    pub(crate) fn of<'e>(
        read: usize,
        written: usize,
        entries: impl IntoIterator<Item = &'e ReportEntry>,
    ) -> Tally {
        let mut tally =
            Tally { written, left_out: read.saturating_sub(written), ..Tally::default() };
        for e in entries {
            let at = Severity::ALL.iter().position(|s| *s == e.severity);
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
        self.withheld += other.withheld;
        for (a, b) in self.entries.iter_mut().zip(other.entries) {
            *a += b;
        }
    }

    /// Counts the tools written so far as not written after all: the output they went to is
    /// not written (`--deny-loss` denied a loss of its input, or of an NDJSON stream's line
    /// whose file is then left as it was).
    pub(crate) fn withhold(&mut self) {
        self.withheld += std::mem::take(&mut self.written);
    }

    /// `summary: 3 tools written, 1 left out; 1 error, 2 warnings, 0 info` (and `, 2 inputs
    /// failed` after the tools when some gave no output; `, 2 not written (--deny-loss)` when
    /// a denied loss kept converted tools from being written).
    pub(crate) fn line(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let [info, warning, error] = self.entries;
        let mut line = format!(
            "summary: {} written, {} left out",
            plural(self.written, "tool", "tools"),
            self.left_out
        );
        if self.withheld > 0 {
            line.push_str(&format!(", {} not written (--deny-loss)", self.withheld));
        }
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
    fn errors_are_text_or_one_json_object() {
        let mut f = Failure::new("usage", "--strict needs a strict target");
        let line = Origin { label: "line 7", source: "in.ndjson", line: Some(7) };
        assert_eq!(error_line(&f, None, None), "error: --strict needs a strict target");
        assert_eq!(
            error_line(&f, Some(&line), None),
            "error: line 7: --strict needs a strict target"
        );
        let json = ErrorStyle { json: true, source: "-".to_owned() };
        f.pointer = Some("/0".to_owned());
        let parsed: serde_json::Value =
            serde_json::from_str(&error_line(&f, Some(&line), Some(&json))).expect("json");
        assert_eq!(
            parsed,
            serde_json::json!({"severity": "error", "error": "usage", "source": "in.ndjson",
                "line": 7, "pointer": "/0", "message": "--strict needs a strict target"})
        );
    }

    #[test]
    fn the_summary_counts_and_spells_plurals() {
        let mut t = Tally { written: 1, left_out: 0, failed: 0, withheld: 0, entries: [2, 1, 0] };
        assert_eq!(t.line(), "summary: 1 tool written, 0 left out; 0 errors, 1 warning, 2 info");
        t.add(Tally { written: 2, left_out: 1, failed: 2, withheld: 0, entries: [0, 1, 1] });
        assert_eq!(
            t.line(),
            "summary: 3 tools written, 1 left out, 2 inputs failed; 1 error, 2 warnings, 2 info"
        );
        t.withhold();
        assert_eq!(
            t.line(),
            "summary: 0 tools written, 1 left out, 3 not written (--deny-loss), 2 inputs failed; \
             1 error, 2 warnings, 2 info"
        );
    }
}
