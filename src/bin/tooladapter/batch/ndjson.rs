//! NDJSON streams: lines read into windows (never more of a line than the input limit), each
//! window converted on the ordered pipeline, one output line per input line.

use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, mpsc};

use super::pipeline::Emit;
use super::progress::Progress;
use super::{Batch, Converted, Label, Spare};
use crate::input::open_stream;
use crate::output::{Dest, Output};
use crate::report::Failure;

/// Most NDJSON lines in one window: enough to keep every thread busy between two writes.
const WINDOW_LINES: usize = 1024;

/// Bytes after which an NDJSON window is closed (a line is never cut): with the outputs and
/// reports of the window, this is what bounds memory on a stream of ordinary lines.
const WINDOW_BYTES: usize = 4 << 20;

impl Batch<'_> {
    /// Converts some lines of an NDJSON window into `into`, in line order.
    fn convert_lines(&self, window: &Window, lines: Range<usize>, into: &mut Converted) {
        for line in window.lines.get(lines).unwrap_or_default() {
            let label = Label::Line(line.number);
            into.push(Label::Line(line.number), None, |into| match &line.text {
                LineText::Kept(range) => {
                    let text = window.bytes.get(range.clone()).unwrap_or_default();
                    self.convert_item(text, &label, into)
                }
                LineText::TooLong(len) => Err(Failure::new(
                    "input",
                    format!(
                        "line of {len} bytes exceeds the input limit of {} bytes; skipped",
                        self.options.limits.max_input_bytes
                    ),
                )),
            });
        }
    }

    /// Converts an NDJSON stream (`input`: a file, or stdin when `None`) window by window,
    /// one output line per input line, in order. At most [`IN_FLIGHT`](super::pipeline::IN_FLIGHT) windows, one being
    /// read and one task's results are held at a time.
    ///
    /// # Errors
    /// Reading the input or writing the output failed; conversion errors are reported per
    /// line and do not stop the stream.
    pub(crate) fn ndjson(
        &self,
        input: Option<&Path>,
        output: Option<&Dest>,
        emit: &mut Emit<'_>,
    ) -> std::io::Result<()> {
        let size =
            input.and_then(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len());
        let mut lines = Lines::new(
            BufReader::with_capacity(256 << 10, open_stream(input)?),
            self.options.limits.max_input_bytes,
        );
        let mut out = Output::open(output)?;
        let bar = emit.start(match size {
            Some(len) => Progress::Bytes(len),
            None => Progress::Lines,
        });
        // A window comes back from the workers once its last task is done and is refilled,
        // so buffers are allocated (and their pages faulted in) once per run, not per window.
        let (recycle, recycled) = mpsc::channel::<Window>();
        // So are the buffers a task's results are written into, once written.
        let spare = Spare::default();
        let tasks = self.tasks_per_window();
        self.pipeline(
            || {
                let mut window = recycled.try_recv().unwrap_or_default();
                lines.fill(&mut window)?;
                if let Some(bar) = &bar {
                    bar.set_position(if size.is_some() {
                        lines.consumed
                    } else {
                        lines.number as u64
                    });
                }
                // A window is empty only at the end of the input.
                if window.lines.is_empty() {
                    return Ok(None);
                }
                let len = window.lines.len();
                let per_task = len.div_ceil(tasks).max(1);
                let window = Arc::new(window);
                Ok(Some(
                    (0..len)
                        .step_by(per_task)
                        .map(|start| (Arc::clone(&window), start..len.min(start + per_task)))
                        .collect(),
                ))
            },
            |(window, range)| {
                let mut done = spare.take();
                self.convert_lines(&window, range, &mut done);
                // The last task of a window hands it back, unless one very long line grew it.
                if let Ok(window) = Arc::try_unwrap(window)
                    && window.bytes.capacity() <= 2 * WINDOW_BYTES
                {
                    let _ = recycle.send(window);
                }
                done
            },
            |mut done| {
                emit.write(&mut done, &mut out)?;
                spare.give(done);
                Ok(())
            },
        )?;
        emit.finish();
        // Only a stream read and written to its end replaces the output file, and not when
        // a line's loss is one `--deny-loss` denies: the run exits 3 and writes no file.
        match out {
            Output::File(_) if emit.lost() => {
                emit.withhold();
                Ok(())
            }
            out => out.finish(),
        }
    }
}

/// A window of NDJSON lines: their bytes back to back, and where each line is.
#[derive(Default)]
struct Window {
    bytes: Vec<u8>,
    lines: Vec<Line>,
}

/// One non-blank line of a window.
struct Line {
    /// Counted from 1, blank lines included, as editors count.
    number: usize,
    text: LineText,
}

/// Where a line's text is, or why it was not kept.
enum LineText {
    /// These bytes of the window (the newline included, as the line was read).
    Kept(Range<usize>),
    /// The line was longer than the input limit: skipped, not buffered. Its length in bytes.
    TooLong(u64),
}

/// Reads NDJSON lines into windows, never holding more of a line than the input limit.
struct Lines<R> {
    reader: R,
    /// Longest line (newline included) converted; longer ones are skipped and reported.
    cap: usize,
    /// Lines read so far.
    number: usize,
    /// Bytes read so far.
    consumed: u64,
    eof: bool,
    /// A read error, held until the lines read before it are converted.
    error: Option<std::io::Error>,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R, cap: usize) -> Self {
        Lines { reader, cap, number: 0, consumed: 0, eof: false, error: None }
    }

    /// Refills `window` with the next lines: up to [`WINDOW_LINES`] lines, or until it holds
    /// [`WINDOW_BYTES`], or to the end of the input. A read error ends the input; the window
    /// keeps the lines before it, and the error is returned by the next call.
    fn fill(&mut self, window: &mut Window) -> std::io::Result<()> {
        window.bytes.clear();
        window.lines.clear();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        // Room for a whole window up front: growing by doubling would copy it.
        window.bytes.reserve(WINDOW_BYTES);
        while !self.eof && window.lines.len() < WINDOW_LINES && window.bytes.len() < WINDOW_BYTES {
            if let Err(e) = self.read_line(window) {
                let line = self.number + 1;
                self.error =
                    Some(std::io::Error::new(e.kind(), format!("reading line {line}: {e}")));
                self.eof = true;
            }
        }
        Ok(())
    }

    /// Reads one line onto the end of `window` (blank lines are counted, not kept). The
    /// newline search is std's (`read_until`, `skip_until`), which is word-at-a-time: on a
    /// fast stream this thread's scanning is what the workers wait for.
    fn read_line(&mut self, window: &mut Window) -> std::io::Result<()> {
        let start = window.bytes.len();
        let cap = self.cap as u64;
        let read = (&mut self.reader).take(cap).read_until(b'\n', &mut window.bytes)? as u64;
        if read == 0 {
            self.eof = true;
            return Ok(());
        }
        self.number += 1;
        self.consumed += read;
        let ended = window.bytes.last() == Some(&b'\n');
        let text = if !ended && read == cap && !self.reader.fill_buf()?.is_empty() {
            // The cap was reached inside the line: drop what was kept and skip the rest
            // unbuffered, however long it is.
            window.bytes.truncate(start);
            let rest = self.reader.skip_until(b'\n')? as u64;
            self.consumed += rest;
            LineText::TooLong(read + rest)
        } else if window.bytes.get(start..).unwrap_or_default().iter().all(u8::is_ascii_whitespace)
        {
            window.bytes.truncate(start);
            return Ok(());
        } else {
            LineText::Kept(start..window.bytes.len())
        };
        window.lines.push(Line { number: self.number, text });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads every window of `input` with line cap `cap`: (number, text or length) per line.
    fn windows(input: &[u8], cap: usize) -> Vec<(usize, Result<String, u64>)> {
        let mut lines = Lines::new(BufReader::with_capacity(4, input), cap);
        let mut window = Window::default();
        let mut all = Vec::new();
        loop {
            lines.fill(&mut window).expect("in-memory read");
            if window.lines.is_empty() && lines.eof {
                break;
            }
            for line in &window.lines {
                all.push((
                    line.number,
                    match &line.text {
                        LineText::Kept(r) => Ok(String::from_utf8_lossy(
                            window.bytes.get(r.clone()).expect("line in window"),
                        )
                        .into_owned()),
                        LineText::TooLong(n) => Err(*n),
                    },
                ));
            }
        }
        all
    }

    #[test]
    fn over_long_lines_are_skipped_whole_and_numbered() {
        let input = b"{\"a\":1}\n\n0123456789abcdef\n  \n{}\nxxxxxxxxxxxxxxxxxxxxxxxx";
        assert_eq!(
            windows(input, 10),
            [
                (1, Ok("{\"a\":1}\n".to_owned())),
                (3, Err(17)),
                (5, Ok("{}\n".to_owned())),
                (6, Err(24)),
            ]
        );
        // Exactly the cap, with or without its newline, is still converted.
        assert_eq!(windows(b"0123456789", 10), [(1, Ok("0123456789".to_owned()))]);
        assert_eq!(windows(b"012345678\n", 10), [(1, Ok("012345678\n".to_owned()))]);
        assert_eq!(windows(b"0123456789\n", 10), [(1, Err(11))]);
    }

    #[test]
    fn a_read_error_comes_after_the_lines_read_before_it() {
        /// Two lines, then a failing read.
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => (&b"{}\n{\"a\":1}\n"[..]).read(buf),
                    _ => Err(std::io::Error::other("disk on fire")),
                }
            }
        }
        let mut lines = Lines::new(BufReader::new(Failing(0)), usize::MAX);
        let mut window = Window::default();
        lines.fill(&mut window).expect("the lines before the error");
        assert_eq!(window.lines.len(), 2);
        let e = lines.fill(&mut window).expect_err("then the error");
        assert_eq!(e.to_string(), "reading line 3: disk on fire");
        assert!(window.lines.is_empty());
    }

    #[test]
    fn windows_close_at_the_line_count() {
        let input = "{}\n".repeat(WINDOW_LINES * 2 + 3);
        let mut lines = Lines::new(input.as_bytes(), usize::MAX);
        let mut window = Window::default();
        let mut sizes = Vec::new();
        loop {
            lines.fill(&mut window).expect("in-memory read");
            if window.lines.is_empty() && lines.eof {
                break;
            }
            sizes.push(window.lines.len());
        }
        assert_eq!(sizes, [WINDOW_LINES, WINDOW_LINES, 3]);
    }
}
