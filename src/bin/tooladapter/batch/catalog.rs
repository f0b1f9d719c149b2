//! A single large catalog split across the batch's threads. The library says how a catalog
//! splits and whether the converted chunks add up to the whole conversion
//! ([`tooladapter::catalog`]); this file decides when splitting is worth it and runs the chunks.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use tooladapter::catalog::{Chunk, Split, Stitched};

use super::progress::{Progress, new_bar};
use super::{Batch, Converted, Entries, Kept, Label, Made};
use crate::report::Tally;

/// Smallest catalog, in bytes, worth splitting: smaller ones convert in well under a
/// millisecond, less than the split's own parse and stitching.
const SPLIT_MIN_BYTES: usize = 64 << 10;

/// Fewest tools a catalog must hold before splitting it pays for the stitching.
const SPLIT_MIN_TOOLS: usize = 64;

/// Chunks per thread when a catalog is split: tools differ in size, and a few chunks per
/// thread let the faster threads take up the slack.
const CHUNKS_PER_THREAD: usize = 4;

/// Fewest tools per chunk, so that a chunk's fixed costs stay small next to its work.
const MIN_CHUNK_TOOLS: usize = 16;

impl Batch<'_> {
    /// Converts one catalog split into contiguous chunks of tools on the batch's threads, or
    /// returns `None` when it is to be converted whole by the caller: when there is one
    /// thread, when it is too small to be worth it ([`SPLIT_MIN_BYTES`], [`SPLIT_MIN_TOOLS`]),
    /// or when the library cannot split it or cannot stitch the chunks into what one whole
    /// conversion writes ([`Split::new`], [`Split::stitch`]).
    pub(crate) fn catalog(&self, input: &[u8], show_bar: bool) -> Option<Converted> {
        // Cheapest first: most single inputs are small, and asking for the thread count
        // starts the global pool.
        if input.len() < SPLIT_MIN_BYTES || !Split::supported(self.from, self.to) || self.jobs() < 2
        {
            return None;
        }
        let split = Split::new(input, self.from, self.to, self.options)?;
        let split = split.keep_inverse(self.keep_inverse);
        let count = split.len();
        if count < SPLIT_MIN_TOOLS {
            return None;
        }
        let per_chunk =
            count.div_ceil(self.jobs().saturating_mul(CHUNKS_PER_THREAD)).max(MIN_CHUNK_TOOLS);
        let chunks: Vec<Range<usize>> = (0..count)
            .step_by(per_chunk)
            .map(|start| start..count.min(start + per_chunk))
            .collect();
        let bar = show_bar.then(|| new_bar(Progress::Tools(count as u64)));
        // Once one chunk shows the split cannot stand, the chunks not yet started are skipped:
        // the whole conversion follows anyway.
        let given_up = AtomicBool::new(false);
        let converted = self.map(&chunks, |tools| {
            if given_up.load(Ordering::Relaxed) {
                return None;
            }
            let chunk = self.with_converter(|c| c.convert_chunk(&split, tools.clone()));
            if chunk.is_none() {
                given_up.store(true, Ordering::Relaxed);
            }
            if let Some(bar) = &bar {
                bar.inc(tools.len() as u64);
            }
            chunk
        });
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let converted: Vec<Chunk> = converted.into_iter().collect::<Option<_>>()?;
        let Stitched { output, report, tools, inverse, .. } = split.stitch(converted)?;
        let tally = Tally::of(count, tools, report.refs().map(|e| e.severity()));
        // The stitched output becomes the buffer, rather than a copy of it.
        let mut converted = Converted { output, ..Converted::default() };
        converted.output.push(b'\n');
        let output = Some(0..converted.output.len());
        let limit = self.options.limits.output_limit(input.len());
        let made = Made { output, inverse, tally, limit };
        // The report is the run's own, and long for a catalog worth splitting: held, to be
        // printed as it is written rather than into a buffer.
        let entries = Entries::Taken(Kept::Report(report), false);
        converted.push(Label::None, None, |into| self.item(made, entries, &Label::None, into));
        Some(converted)
    }
}

#[cfg(test)]
mod tests {
    use tooladapter::formats::{Mcp, OpenAi};
    use tooladapter::{Converter, Options, Strict};

    use super::*;
    use crate::report::{Origin, Printing, ReportMode, write_entries};

    /// A catalog of `n` MCP tools with report entries for every other target; `{"tools":[…]}`
    /// with a catalog member the targets drop when `object`, a bare array otherwise.
    fn catalog(n: usize, object: bool) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name":"t{i}","title":"T","inputSchema":{{"type":"object","properties":{{"u":{{"type":"string","format":"uri","maxLength":{i}}}}}}}}}"#
                )
            })
            .collect();
        match object {
            true => format!(r#"{{"tools":[{}],"nextCursor":"c"}}"#, tools.join(",")),
            false => format!("[{}]", tools.join(",\n")),
        }
    }

    #[test]
    fn a_split_catalog_is_what_the_whole_conversion_prints() {
        for (object, pretty, strict) in [(false, false, true), (true, true, false)] {
            let input = catalog(1000, object);
            let mut options = Options::default().pretty(pretty);
            if strict {
                // Optional properties made required and nullable: an inverse entry a tool.
                options = options.strict(Strict::On);
            }
            let batch =
                Batch::new(&Mcp, &OpenAi, &options, Printing::all(ReportMode::Json), Some(2))
                    .expect("threads");
            let converted = batch.catalog(input.as_bytes(), false).expect("split");
            let [done] = converted.done.as_slice() else { panic!("one item") };
            let split = done.result.as_ref().expect("converted");
            let output = split.output.clone().and_then(|r| converted.output.get(r));
            let mut converter = Converter::new();
            let whole =
                converter.convert(input.as_bytes(), &Mcp, &OpenAi, &options).expect("whole");
            // The output is followed by its newline.
            let mut expected = whole.output().to_vec();
            expected.push(b'\n');
            assert_eq!(output, Some(expected.as_slice()), "object {object}");
            let mut printed = Vec::new();
            let origin = Origin { label: "", source: "-", line: None, limit: usize::MAX };
            let json = Printing::all(ReportMode::Json);
            write_entries(whole.report().refs(), &origin, json, &mut printed).expect("print");
            // Every tool-level entry names its tool's place in the whole catalog.
            let text = String::from_utf8_lossy(&printed);
            assert!(text.contains(r#""index":999"#), "object {object}");
            let mut got = Vec::new();
            split.held.as_ref().expect("held").write_report(&mut got).expect("print");
            assert!(got == printed, "object {object}");
            assert_eq!(split.worst, whole.report().max_severity());
            assert_eq!(&split.inverse, whole.inverse());
            assert_eq!(split.inverse.tools.len(), if strict { 1000 } else { 0 });
        }
    }

    #[test]
    fn catalogs_too_small_or_on_one_thread_are_left_whole() {
        let options = Options::default();
        let two = Batch::new(&Mcp, &OpenAi, &options, Printing::all(ReportMode::Json), Some(2))
            .expect("threads");
        let one = Batch::new(&Mcp, &OpenAi, &options, Printing::all(ReportMode::Json), Some(1))
            .expect("threads");
        assert!(one.catalog(catalog(1000, false).as_bytes(), false).is_none(), "one thread");
        let few = catalog(20, false).replace(
            r#""title":"T""#,
            &format!(r#""title":"T","description":"{}""#, "x".repeat(4000)),
        );
        assert!(few.len() > SPLIT_MIN_BYTES);
        assert!(two.catalog(few.as_bytes(), false).is_none(), "few tools");
        assert!(two.catalog(catalog(300, false).as_bytes(), false).is_none(), "few bytes");
        // What the library refuses is refused here too (its own tests list every reason).
        let duplicate = catalog(1000, false).replace(r#""name":"t990""#, r#""name":"T1""#);
        assert!(two.catalog(duplicate.as_bytes(), false).is_none(), "duplicate name");
    }
}
