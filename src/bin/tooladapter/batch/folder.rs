//! A folder of `.json` files, each converted whole, a window of files at a time on the
//! ordered pipeline.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::pipeline::Emit;
use super::progress::Progress;
use super::{Batch, Label, Spare};
use crate::named;
use crate::output::Dest;
use crate::report::Failure;

/// Files converted by one task, one after another on the same worker.
const FILES_PER_TASK: usize = 8;

/// The `.json` files at the top level of `dir`, sorted by name: what a folder run reads, listed
/// once, so that the files the write-safety rule checks are the files converted.
///
/// # Errors
/// The folder cannot be listed, or (unless `allow_empty`) holds no `.json` file: a run that
/// converts nothing is most likely a wrong path.
pub(crate) fn json_files(dir: &Path, allow_empty: bool) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| named(e, dir))? {
        let path = entry.map_err(|e| named(e, dir))?.path();
        // `F.JSON` is a `.json` file too: the extension is read in any case.
        if path.extension().is_some_and(|x| x.eq_ignore_ascii_case("json")) {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() && !allow_empty {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "{}: no .json file to convert in this folder (--allow-empty makes that no error)",
                dir.display()
            ),
        ));
    }
    Ok(files)
}

impl Batch<'_> {
    /// Converts `files` (a folder's, as [`json_files`] lists them: the extension in any
    /// case, sorted by name), each whole, a window of
    /// files at a time: into `output/<name>` when an output folder is given (where the
    /// write-safety rule sent it), else to stdout in order. At most
    /// [`IN_FLIGHT`](super::pipeline::IN_FLIGHT) windows of files are in flight, each a few
    /// tasks per thread of [`FILES_PER_TASK`] files, read one at a time.
    ///
    /// Each file is read through the input limit, and an entry that is not a regular file (a
    /// link to a device, a pipe) is refused, since reading it may never end.
    ///
    /// # Errors
    /// The output folder cannot be created, or stdout fails; a file that cannot be read,
    /// converted or written is reported by name and skipped.
    pub(crate) fn dir(
        &self,
        files: &[PathBuf],
        output: Option<&Path>,
        emit: &mut Emit<'_>,
    ) -> std::io::Result<()> {
        if let Some(out_dir) = output {
            std::fs::create_dir_all(out_dir).map_err(|e| named(e, out_dir))?;
        }
        let bar = emit.start(Progress::Files(files.len() as u64));
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        // A few files per task: files are read whole, in the workers, one at a time, so a
        // window of tasks is what bounds memory; a task of one small file cost more in its
        // hand-off to a worker and back than in converting it.
        let mut windows = files.chunks(self.tasks_per_window().saturating_mul(FILES_PER_TASK));
        let spare = Spare::default();
        self.pipeline(
            || Ok(windows.next().map(|window| window.chunks(FILES_PER_TASK).collect())),
            |paths: &[PathBuf]| {
                let limit = self.options.limits.max_input_bytes;
                let mut converted = spare.take();
                for path in paths {
                    let label = Label::File(path.clone());
                    // A file of the output folder: a link there is replaced, not followed.
                    let dest = output
                        .zip(path.file_name())
                        .map(|(dir, name)| Dest::Replace(dir.join(name)));
                    converted.push(Label::File(path.clone()), dest, |into| {
                        crate::input::read_path(path, limit, false)
                            .map_err(|e| {
                                Failure::new("input", format!("cannot read: {}", e.reason()))
                            })
                            .and_then(|bytes| self.convert_item(&bytes, &label, into))
                    });
                }
                (converted, paths.len())
            },
            |(mut done, files)| {
                emit.write(&mut done, &mut stdout)?;
                spare.give(done);
                if let Some(bar) = &bar {
                    bar.inc(files as u64);
                }
                Ok(())
            },
        )?;
        emit.finish();
        stdout.flush()
    }
}
