//! The progress bar of batch work: shown on stderr when it is a terminal the output does not
//! go to, counting what the batch counts (bytes, lines, files or tools).

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether batch work shows a progress bar: only on a terminal, and only when the converted
/// output is not written to that same terminal, where it would tear the bar.
pub(crate) fn bar_wanted(output: Option<&Path>) -> bool {
    std::io::stderr().is_terminal() && (output.is_some() || !std::io::stdout().is_terminal())
}

/// What a progress bar counts.
#[derive(Clone, Copy)]
pub(super) enum Progress {
    /// Bytes of an input file of this size.
    Bytes(u64),
    /// Lines of a stream of unknown size.
    Lines,
    /// Files of a folder.
    Files(u64),
    /// Tools of a split catalog.
    Tools(u64),
}

/// A progress bar on stderr for `what`. indicatif's stderr target also hides itself when
/// stderr is not a terminal; callers only ask for one when it is.
pub(super) fn new_bar(what: Progress) -> ProgressBar {
    let (len, template) = match what {
        Progress::Bytes(n) => {
            (Some(n), "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {elapsed} (eta {eta})")
        }
        Progress::Lines => (None, "{spinner} {human_pos} lines {per_sec} {elapsed}"),
        Progress::Files(n) => (Some(n), "{bar:30} {human_pos}/{human_len} files {elapsed}"),
        Progress::Tools(n) => (Some(n), "{bar:30} {human_pos}/{human_len} tools {elapsed}"),
    };
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
