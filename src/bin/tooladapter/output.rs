//! What the command line writes, and what it refuses to write over. A file output is written
//! to a temporary file beside it and renamed over it only once every byte was written and
//! flushed, so a failed run leaves the previous file as it was; an output that names an input
//! is refused before anything is opened, so no run destroys what it reads.

use std::fs::{File, Metadata};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::named;

/// A file's identity: its device and inode, which every path to it (links, `./`, `..`) shares.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

/// The identity of a regular file or folder; `None` for anything else (two paths to
/// `/dev/null` are the same file, but writing one does not destroy the other).
fn id_of(m: &Metadata) -> Option<FileId> {
    if !(m.is_file() || m.is_dir()) {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(FileId(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The identity of what `path` names, links resolved.
fn id_of_path(path: &Path) -> Option<FileId> {
    std::fs::metadata(path).ok().as_ref().and_then(id_of)
}

/// The identity of stdout when it is a regular file (`> file`).
fn stdout_id() -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        File::from(fd).metadata().ok().as_ref().and_then(id_of)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Refuses outputs that would overwrite the input (a usage error, exit 2): an output that is
/// the input file or folder (compared by device and inode, links resolved); with a folder as
/// input, a `.json` output at its top level, which the run would read as input; and stdout
/// redirected to the input file. `input` is the input path, or stdin when `None`; `outputs`
/// are each output's option name and path; `stdout` whether the converted output goes there.
///
/// # Errors
/// The message to print.
pub(crate) fn refuse_overwrite(
    input: Option<&Path>,
    outputs: &[(&str, &Path)],
    stdout: bool,
) -> Result<(), String> {
    let (input_id, input_name, folder) = match input {
        Some(p) => {
            let m = std::fs::metadata(p).ok();
            (m.as_ref().and_then(id_of), p.display().to_string(), m.is_some_and(|m| m.is_dir()))
        }
        None => {
            (crate::input::stdin_metadata().as_ref().and_then(id_of), "stdin".to_owned(), false)
        }
    };
    let Some(input_id) = input_id else { return Ok(()) };
    for (flag, path) in outputs {
        let shown = path.display();
        if id_of_path(path) == Some(input_id) {
            return Err(format!(
                "{flag} {shown} is the input {input_name}: writing it would destroy the input"
            ));
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if folder
            && path.extension().is_some_and(|x| x == "json")
            && id_of_path(parent) == Some(input_id)
        {
            return Err(format!(
                "{flag} {shown} is inside the input folder {input_name}, where it would be read as input"
            ));
        }
    }
    if stdout && stdout_id() == Some(input_id) {
        return Err(format!(
            "stdout is the input {input_name}: writing it would destroy the input"
        ));
    }
    Ok(())
}

/// Tells temporary files of one process apart (a folder's outputs are written one by one, but
/// a name is never reused within a run).
static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// A file output. A regular file (or a new one) is written to a temporary file in the same
/// folder and renamed over the destination by [`OutFile::commit`]; dropped uncommitted, the
/// temporary file is removed and the destination is left as it was. Anything else (a device
/// such as `/dev/null` or `/dev/full`, a pipe) is written directly, since it cannot be renamed
/// over; its write and flush errors are reported all the same.
pub(crate) struct OutFile {
    /// Where the output goes (links resolved), as shown in messages.
    dest: PathBuf,
    /// The temporary file, while not committed; `None` for a direct output.
    temp: Option<PathBuf>,
    file: BufWriter<File>,
}

impl OutFile {
    /// Opens an output for `path`.
    ///
    /// # Errors
    /// `path` is a folder, or the temporary file (or the device) cannot be opened.
    pub(crate) fn create(path: &Path) -> std::io::Result<OutFile> {
        let existing = std::fs::metadata(path).ok();
        if existing.as_ref().is_some_and(Metadata::is_dir) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{}: is a folder", path.display()),
            ));
        }
        if existing.as_ref().is_some_and(|m| !m.is_file()) {
            let file = File::create(path).map_err(|e| named(e, path))?;
            return Ok(OutFile { dest: path.to_owned(), temp: None, file: BufWriter::new(file) });
        }
        // Through a link, the file it points at is replaced, not the link.
        let dest = match existing {
            Some(_) => std::fs::canonicalize(path).map_err(|e| named(e, path))?,
            None => path.to_owned(),
        };
        let folder = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let pid = std::process::id();
        let mut attempts = 0;
        let (temp, file) = loop {
            let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let temp = folder.join(format!(".{name}.{pid}.{n}.tmp"));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (temp, file),
                // A stale file of an earlier run with the same process id: take the next name.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempts < 100 => {
                    attempts += 1;
                }
                Err(e) => return Err(named(e, &temp)),
            }
        };
        let out = OutFile { dest, temp: Some(temp), file: BufWriter::new(file) };
        // The new file keeps the old one's permissions (an executable bit, a private mode).
        if let Some(m) = existing
            && let Err(e) = out.file.get_ref().set_permissions(m.permissions())
        {
            return Err(named(e, &out.dest));
        }
        Ok(out)
    }

    /// Flushes the output and, for a file, renames it over the destination.
    ///
    /// # Errors
    /// The flush or the rename failed (the destination is then left as it was).
    pub(crate) fn commit(mut self) -> std::io::Result<()> {
        self.file.flush().map_err(|e| named(e, &self.dest))?;
        if let Some(temp) = self.temp.take()
            && let Err(e) = std::fs::rename(&temp, &self.dest)
        {
            let _ = std::fs::remove_file(&temp);
            return Err(named(e, &self.dest));
        }
        Ok(())
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf).map_err(|e| named(e, &self.dest))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.file.write_all(buf).map_err(|e| named(e, &self.dest))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush().map_err(|e| named(e, &self.dest))
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// The converted output: stdout, or a file written as [`OutFile`] says.
pub(crate) enum Output {
    /// Buffered stdout.
    Stdout(BufWriter<std::io::StdoutLock<'static>>),
    /// `-o PATH`.
    File(OutFile),
}

impl Output {
    /// The output for `-o path`, or stdout when `None`.
    ///
    /// # Errors
    /// As [`OutFile::create`].
    pub(crate) fn open(path: Option<&Path>) -> std::io::Result<Output> {
        Ok(match path {
            Some(p) => Output::File(OutFile::create(p)?),
            None => Output::Stdout(BufWriter::new(std::io::stdout().lock())),
        })
    }

    /// Flushes stdout, or commits the file.
    ///
    /// # Errors
    /// The flush or the rename failed.
    pub(crate) fn finish(self) -> std::io::Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush(),
            Output::File(file) => file.commit(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(buf),
            Output::File(file) => file.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Output::Stdout(out) => out.write_all(buf),
            Output::File(file) => file.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::File(file) => file.flush(),
        }
    }
}

/// Writes `bytes` to the file `path` as [`OutFile`] does: whole, or not at all.
///
/// # Errors
/// Opening, writing, flushing or renaming failed.
pub(crate) fn write_file(path: &Path, bytes: &[&[u8]]) -> std::io::Result<()> {
    let mut out = OutFile::create(path)?;
    for b in bytes {
        out.write_all(b)?;
    }
    out.commit()
}
