//! What the command line writes, and what it refuses to write over. Every output is checked
//! by one rule before anything is opened ([`guard`]); a file output is then written to a
//! temporary file beside it ([`temp`]) and renamed over it only once every byte was written and
//! flushed, so a failed or interrupted run leaves the previous file as it was.

mod guard;
mod temp;

use std::fs::{File, Metadata};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub(crate) use guard::{Dest, Writes, plan};

use crate::named;

/// A file's identity: its device and inode, which every path to it (links, `./`, `..`) shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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

/// What stdout is, when it can be told (a file it was redirected to, a pipe, a terminal).
fn stdout_metadata() -> Option<Metadata> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        File::from(fd).metadata().ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The value of `field` in `/proc/self/status` (Linux): what the process is, where std has no
/// safe call to ask (its user, the signals it ignores). `None` elsewhere.
#[cfg(unix)]
fn process_status(field: &str) -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .map(|value| value.trim().to_owned())
}

/// The permission bits of `m` (all of them: set-id and sticky bits too).
fn mode_of(m: &Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        0o666
    }
}

/// A file output. A [`Dest::Replace`] is written to a temporary file in the same folder and
/// renamed over the destination by [`OutFile::commit`]; dropped uncommitted, the temporary
/// file is removed and the destination is left as it was. A [`Dest::InPlace`] (a device such
/// as `/dev/null` or `/dev/full`, a pipe) is written directly, since it cannot be renamed over;
/// its write and flush errors are reported all the same.
pub(crate) struct OutFile {
    /// Where the output goes, as shown in messages.
    dest: PathBuf,
    /// The temporary file, while not committed; `None` for a direct output.
    temp: Option<PathBuf>,
    file: BufWriter<File>,
}

impl OutFile {
    /// Opens an output for `dest`, as the rule ([`plan`]) decided it.
    ///
    /// # Errors
    /// The destination is a folder, or the temporary file (or the device) cannot be opened.
    pub(crate) fn create(dest: &Dest) -> std::io::Result<OutFile> {
        let path = match dest {
            Dest::InPlace(path) => {
                let file = File::create(path).map_err(|e| named(e, path))?;
                return Ok(OutFile { dest: path.clone(), temp: None, file: BufWriter::new(file) });
            }
            Dest::Replace(path) => path,
        };
        // The entry itself: a link here is replaced, never followed.
        let existing = std::fs::symlink_metadata(path).ok();
        if existing.as_ref().is_some_and(Metadata::is_dir) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{}: is a folder", path.display()),
            ));
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // The new file keeps the old one's permissions (an executable bit, a private mode),
        // and has them from the start: a private output's temporary is never readable by
        // others. The umask may take some bits off at creation; they are put back after,
        // which only adds what the final file has anyway.
        let old = existing.as_ref().filter(|m| m.is_file()).map(mode_of);
        let (temp, file) = temp::create(folder, &name, old.map_or(0o666, |m| m & 0o777))?;
        let out = OutFile { dest: path.clone(), temp: Some(temp), file: BufWriter::new(file) };
        if let Some(mode) = old {
            let created = out.file.get_ref().metadata().map_err(|e| named(e, &out.dest))?;
            if mode_of(&created) != mode {
                set_mode(out.file.get_ref(), mode).map_err(|e| named(e, &out.dest))?;
            }
        }
        Ok(out)
    }

    /// Flushes the output and, for a file, renames it over the destination.
    ///
    /// # Errors
    /// The flush or the rename failed (the destination is then left as it was).
    pub(crate) fn commit(mut self) -> std::io::Result<()> {
        self.file.flush().map_err(|e| named(e, &self.dest))?;
        match self.temp.take() {
            Some(temp) => temp::commit(&temp, &self.dest).map_err(|e| named(e, &self.dest)),
            None => Ok(()),
        }
    }
}

/// Sets the permission bits of `file` to `mode`.
fn set_mode(file: &File, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, mode);
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
            temp::discard(&temp);
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
    /// The output for `-o` (where the rule sent it), or stdout when `None`.
    ///
    /// # Errors
    /// As [`OutFile::create`].
    pub(crate) fn open(dest: Option<&Dest>) -> std::io::Result<Output> {
        Ok(match dest {
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

/// Writes `bytes` to `dest` as [`OutFile`] does: whole, or not at all.
///
/// # Errors
/// Opening, writing, flushing or renaming failed.
pub(crate) fn write_file(dest: &Dest, bytes: &[&[u8]]) -> std::io::Result<()> {
    let mut out = OutFile::create(dest)?;
    for b in bytes {
        out.write_all(b)?;
    }
    out.commit()
}
