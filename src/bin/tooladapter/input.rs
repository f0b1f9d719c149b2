//! What the command line reads. Every input (a file, stdin, a folder's file, `check`'s input,
//! `unmap`'s calls and map) is read here, so that no read holds more than the input limit and
//! only regular files, stdin and pipes named on the command line are read: a device such as
//! `/dev/zero` never ends, and a folder entry linking to one must not stall a batch.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The input limit when no `Options` are at hand (`check`, `unmap`): the library's default
/// [`tooladapter::Limits::max_input_bytes`], so the CLI refuses exactly what the library would.
pub(crate) fn default_limit() -> usize {
    tooladapter::Limits::default().max_input_bytes
}

/// Why an input was not read.
#[derive(Debug)]
pub(crate) enum InputError {
    /// Not a regular file (nor stdin, nor a pipe named on the command line).
    NotRegular {
        /// The path as given.
        path: PathBuf,
        /// What it is instead (`a character device`).
        what: &'static str,
    },
    /// More bytes than the input limit.
    TooLarge {
        /// The path as given, or `stdin`.
        path: String,
        /// The size when known before reading (a regular file); a stream is read up to one
        /// byte past the limit and no further.
        size: Option<u64>,
        /// The limit.
        limit: usize,
    },
    /// Opening or reading failed.
    Io {
        /// The path as given, or `stdin`.
        path: String,
        /// The error.
        error: std::io::Error,
    },
}

impl InputError {
    /// The exit code: 2 for a path named on the command line that cannot be an input (a
    /// usage error), 1 otherwise.
    pub(crate) fn code(&self) -> u8 {
        match self {
            InputError::NotRegular { .. } => 2,
            _ => 1,
        }
    }
}

impl InputError {
    /// What went wrong, without the path (for messages that name it already).
    pub(crate) fn reason(&self) -> String {
        match self {
            InputError::NotRegular { what, .. } => {
                format!("not a regular file ({what}); only files, `-` (stdin) and pipes are read")
            }
            InputError::TooLarge { size: Some(size), limit, .. } => {
                format!("input too large: {size} bytes exceeds the limit of {limit} bytes")
            }
            InputError::TooLarge { size: None, limit, .. } => {
                format!("input too large: more than the limit of {limit} bytes")
            }
            InputError::Io { error, .. } => error.to_string(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotRegular { path, .. } => {
                write!(f, "{}: {}", path.display(), self.reason())
            }
            InputError::TooLarge { path, .. } | InputError::Io { path, .. } => {
                write!(f, "{path}: {}", self.reason())
            }
        }
    }
}

impl From<InputError> for std::io::Error {
    fn from(e: InputError) -> std::io::Error {
        let kind = match &e {
            InputError::NotRegular { .. } => std::io::ErrorKind::InvalidInput,
            InputError::TooLarge { .. } => std::io::ErrorKind::FileTooLarge,
            InputError::Io { error, .. } => error.kind(),
        };
        std::io::Error::new(kind, e.to_string())
    }
}

/// What a file that is not regular is, for messages.
fn kind_of(m: &Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_fifo() {
            return "a pipe";
        }
    }
    "not a file"
}

/// Whether `m` is a pipe (FIFO).
fn is_pipe(m: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        m.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        false
    }
}

/// Refuses a path named on the command line that cannot be read as an input: anything but a
/// regular file, a pipe (`<(…)`, a FIFO) or, when `folder_ok`, a folder. Links are followed.
///
/// # Errors
/// [`InputError::NotRegular`], or [`InputError::Io`] when the path cannot be looked at.
pub(crate) fn check_named(path: &Path, folder_ok: bool) -> Result<(), InputError> {
    let m = std::fs::metadata(path)
        .map_err(|error| InputError::Io { path: path.display().to_string(), error })?;
    if m.is_file() || is_pipe(&m) || (folder_ok && m.is_dir()) {
        Ok(())
    } else {
        Err(InputError::NotRegular { path: path.to_owned(), what: kind_of(&m) })
    }
}

/// Opens `path` for reading: a regular file, or a pipe when `named` (given on the command
/// line). The type is checked before opening (opening a pipe waits for a writer) and again on
/// the open file, which is what is read. Returns the file and its size when regular.
fn open_checked(path: &Path, named: bool) -> Result<(File, Option<u64>), InputError> {
    let io = |error| InputError::Io { path: path.display().to_string(), error };
    let refused = |m: &Metadata| InputError::NotRegular { path: path.to_owned(), what: kind_of(m) };
    let usable = |m: &Metadata| m.is_file() || (named && is_pipe(m));
    let before = std::fs::metadata(path).map_err(io)?;
    if !usable(&before) {
        return Err(refused(&before));
    }
    let file = File::open(path).map_err(io)?;
    let m = file.metadata().map_err(io)?;
    if !usable(&m) {
        return Err(refused(&m));
    }
    Ok((file, m.is_file().then_some(m.len())))
}

/// Reads the file `path` whole, refusing it before reading when its size is over `limit`.
/// `named`: given on the command line, where a pipe is read too.
///
/// # Errors
/// [`InputError`]: not a regular file, too large, or unreadable.
pub(crate) fn read_path(path: &Path, limit: usize, named: bool) -> Result<Vec<u8>, InputError> {
    let (file, size) = open_checked(path, named)?;
    let label = || path.display().to_string();
    if let Some(size) = size.filter(|s| *s > limit as u64) {
        return Err(InputError::TooLarge { path: label(), size: Some(size), limit });
    }
    read_capped(file, limit, size, label)
}

/// Reads stdin whole, up to `limit` bytes: stdin redirected from a file larger than that is
/// refused before reading, a stream after one byte past the limit.
///
/// # Errors
/// [`InputError::TooLarge`], or the read failed.
pub(crate) fn read_stdin(limit: usize) -> Result<Vec<u8>, InputError> {
    let label = || "stdin".to_owned();
    let size = stdin_metadata().filter(Metadata::is_file).map(|m| m.len());
    if let Some(size) = size.filter(|s| *s > limit as u64) {
        return Err(InputError::TooLarge { path: label(), size: Some(size), limit });
    }
    read_capped(std::io::stdin().lock(), limit, size, label)
}

/// A stream to read line by line (`--ndjson`): the file `path` (a regular file or a pipe), or
/// stdin when `None`. Each line is capped by its reader.
///
/// # Errors
/// [`InputError`]: not a regular file or a pipe, or it cannot be opened.
pub(crate) fn open_stream(path: Option<&Path>) -> Result<Box<dyn Read>, InputError> {
    Ok(match path {
        Some(p) => Box::new(open_checked(p, true)?.0),
        None => Box::new(std::io::stdin().lock()),
    })
}

/// What stdin is (a file it was redirected from, a pipe, a terminal), when it can be told.
pub(crate) fn stdin_metadata() -> Option<Metadata> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        File::from(fd).metadata().ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Bytes read per step from a stream of unknown size.
const STEP: usize = 64 << 10;

/// Reads `r` to its end into a buffer that never grows past `limit` + 1 bytes: one byte past
/// the limit is what tells a stream too large, and the read stops there. `size`, when known,
/// sizes the buffer once.
fn read_capped(
    mut r: impl Read,
    limit: usize,
    size: Option<u64>,
    label: impl Fn() -> String,
) -> Result<Vec<u8>, InputError> {
    let cap = limit.saturating_add(1);
    let mut bytes = Vec::new();
    match fill(&mut r, cap, size, &mut bytes) {
        Ok(true) => Ok(bytes),
        Ok(false) => Err(InputError::TooLarge { path: label(), size: None, limit }),
        Err(error) => Err(InputError::Io { path: label(), error }),
    }
}

/// Reads `r` into `bytes` until its end (`true`) or until `bytes` holds `cap` bytes (`false`),
/// its capacity never past `cap`.
fn fill(
    r: &mut impl Read,
    cap: usize,
    size: Option<u64>,
    bytes: &mut Vec<u8>,
) -> std::io::Result<bool> {
    let first = size.map_or(STEP, |s| usize::try_from(s).unwrap_or(cap).saturating_add(1));
    bytes.try_reserve_exact(first.min(cap)).map_err(std::io::Error::other)?;
    loop {
        if bytes.len() >= cap {
            return Ok(false);
        }
        if bytes.len() == bytes.capacity() {
            // Doubling, but never past the cap: the buffer is what bounds memory.
            let more = bytes.len().max(STEP).min(cap - bytes.len());
            bytes.try_reserve_exact(more).map_err(std::io::Error::other)?;
        }
        let room = bytes.capacity().min(cap) - bytes.len();
        if (&mut *r).take(room as u64).read_to_end(bytes)? == 0 {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8], limit: usize) -> Result<Vec<u8>, String> {
        read_capped(input, limit, None, || "x".to_owned()).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        assert_eq!(read(b"", 4), Ok(vec![]));
        assert_eq!(read(b"abcd", 4), Ok(b"abcd".to_vec()));
        assert_eq!(
            read(b"abcde", 4),
            Err("x: input too large: more than the limit of 4 bytes".into())
        );
        let big = vec![b'a'; 3 * STEP + 5];
        assert_eq!(read(&big, big.len()).map(|b| b.len()), Ok(big.len()));
        assert!(read(&big, big.len() - 1).is_err());
    }

    #[test]
    fn the_buffer_never_grows_past_the_cap() {
        /// Endless zeros, like /dev/zero.
        struct Zeros;
        impl Read for Zeros {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                buf.fill(0);
                Ok(buf.len())
            }
        }
        let cap = 5 * STEP + 7;
        let mut bytes = Vec::new();
        assert_eq!(fill(&mut Zeros, cap, None, &mut bytes).ok(), Some(false));
        assert_eq!(bytes.len(), cap);
        assert!(bytes.capacity() <= cap, "capacity {} over the cap {cap}", bytes.capacity());
        // A size known up front (a regular file) is one allocation, still within the cap.
        let mut bytes = Vec::new();
        assert_eq!(fill(&mut &b"abc"[..], cap, Some(3), &mut bytes).ok(), Some(true));
        assert_eq!(bytes.capacity(), 4);
    }
}
