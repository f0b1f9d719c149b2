//! The write-safety rule, one for every file the command line writes (`-o`, each file of an
//! output folder, `--report-file`, `--map-out`; the temporaries are new files by construction,
//! see [`super::temp`]). It runs once, before anything is opened for writing, and decides where
//! each output goes:
//!
//! - a path named on the command line is resolved through its links to the real file (a link
//!   that names no file is refused: it is unclear whether a stale link or its target is meant);
//!   an entry of an output folder is not followed: a link there is replaced by the new file,
//!   and what it pointed at is left alone;
//! - each destination is compared by device and inode, and by resolved path while it does not
//!   exist yet, with every file the run reads (the input file, stdin, every file of an input
//!   folder) and with every other destination (stdout included when it is a file);
//! - with a folder as input, no `.json` file may be written at its top level, where it would
//!   be read as input;
//! - an existing file is replaced only if the user could have written it in place, as `>`
//!   would: not a read-only file, nor one the user may not open for writing (another user's
//!   file in a shared folder), unless `--force`. A rename over a file needs only the folder's
//!   write permission, so without this check `-o` would replace files `>` could not.
//!
//! A breach is a usage error (exit 2) naming both paths, and nothing is written.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::Metadata;
use std::path::{Path, PathBuf};

use super::{FileId, id_of};

/// Where an output goes, as the rule decided.
#[derive(Clone, Debug)]
pub(crate) enum Dest {
    /// A regular file, or none yet: written to a temporary beside it and renamed over it. The
    /// path's last part is never followed (a named output's links were resolved by the rule,
    /// and a link in an output folder is replaced, not followed).
    Replace(PathBuf),
    /// Not a regular file (a device such as `/dev/null`, a pipe): written in place, as named,
    /// since it cannot be renamed over.
    InPlace(PathBuf),
}

impl Dest {
    /// The path written.
    pub(crate) fn path(&self) -> &Path {
        match self {
            Dest::Replace(p) | Dest::InPlace(p) => p,
        }
    }
}

/// What a `convert` run writes, as named on the command line.
pub(crate) struct Writes<'a> {
    /// `-o`: the output file, or with a folder as input the output folder.
    pub(crate) output: Option<&'a Path>,
    /// `--report-file`.
    pub(crate) report_file: Option<&'a Path>,
    /// `--map-out`.
    pub(crate) map_out: Option<&'a Path>,
    /// `--force`: replace a file the user could not write in place.
    pub(crate) force: bool,
}

/// Where each output goes once the rule passed them.
pub(crate) struct Planned {
    /// `-o` with a file or stream as input.
    pub(crate) output: Option<Dest>,
    /// `-o` with a folder as input: the output folder, links resolved; each file goes to
    /// `Dest::Replace(folder/name)`.
    pub(crate) folder: Option<PathBuf>,
    /// `--report-file`.
    pub(crate) report_file: Option<Dest>,
    /// `--map-out`.
    pub(crate) map_out: Option<Dest>,
}

/// Checks every output of a run against the rule (see the module's doc) and says where each
/// goes. `input` is the input path (stdin when `None`); `files`, with a folder as input, the
/// files the run reads.
///
/// # Errors
/// The message to print (a usage error, exit 2): nothing was written.
pub(crate) fn plan(
    input: Option<&Path>,
    files: Option<&[PathBuf]>,
    writes: &Writes<'_>,
) -> Result<Planned, String> {
    let reads = Reads::of(input, files.unwrap_or_default());
    let mut rule = Rule { reads, taken: HashMap::new(), force: writes.force };
    let folder_out = files.is_some();
    let mut planned = Planned { output: None, folder: None, report_file: None, map_out: None };
    if let Some(path) = writes.output {
        if folder_out {
            planned.folder = Some(rule.folder("-o", path)?);
        } else {
            planned.output = Some(rule.named("-o", path)?);
        }
    }
    if let Some(path) = writes.report_file {
        planned.report_file = Some(rule.named("--report-file", path)?);
    }
    if let Some(path) = writes.map_out {
        planned.map_out = Some(rule.named("--map-out", path)?);
    }
    if let (Some(folder), Some(shown), Some(files)) = (&planned.folder, writes.output, files) {
        for name in files.iter().filter_map(|f| f.file_name()) {
            rule.entry(folder, &shown.join(name), name)?;
        }
    }
    if writes.output.is_none() {
        rule.stdout()?;
    }
    Ok(planned)
}

/// What a run reads, by identity.
struct Reads {
    /// Each file read (a regular file), with the path it is read by, for messages.
    files: HashMap<FileId, String>,
    /// The input folder, with its path.
    folder: Option<(FileId, String)>,
}

impl Reads {
    /// The input file (or stdin, when regular), or the input folder and its files.
    fn of(input: Option<&Path>, files: &[PathBuf]) -> Reads {
        let mut reads = Reads { files: HashMap::new(), folder: None };
        let Some(input) = input else {
            if let Some(id) = crate::input::stdin_metadata().as_ref().and_then(id_of) {
                reads.files.insert(id, "stdin".to_owned());
            }
            return reads;
        };
        let shown = input.display().to_string();
        match std::fs::metadata(input) {
            Ok(m) if m.is_dir() => reads.folder = id_of(&m).map(|id| (id, shown)),
            Ok(m) => {
                if let Some(id) = id_of(&m) {
                    reads.files.insert(id, shown);
                }
            }
            Err(_) => {}
        }
        for file in files {
            if let Some(id) = std::fs::metadata(file).ok().as_ref().and_then(id_of) {
                reads.files.insert(id, file.display().to_string());
            }
        }
        reads
    }

    /// Why writing `m` (at `label`) would destroy an input, if it would.
    fn destroys(&self, m: &Metadata, label: &str) -> Result<(), String> {
        let Some(id) = id_of(m) else { return Ok(()) };
        let input = match &self.folder {
            Some((folder, shown)) if *folder == id => shown,
            _ => match self.files.get(&id) {
                Some(shown) => shown,
                None => return Ok(()),
            },
        };
        Err(format!("{label} is the input {input}: writing it would destroy the input"))
    }

    /// Whether `path` (resolved) is a `.json` file at the input folder's top level, which a
    /// folder run reads.
    fn read_as_input(&self, path: &Path, label: &str) -> Result<(), String> {
        let Some((folder, shown)) = &self.folder else { return Ok(()) };
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let in_folder = std::fs::metadata(parent).ok().as_ref().and_then(id_of) == Some(*folder);
        if in_folder && path.extension().is_some_and(|x| x == "json") {
            return Err(format!(
                "{label} is inside the input folder {shown}, where it would be read as input"
            ));
        }
        Ok(())
    }
}

/// What a destination is known by, to find two outputs on one file.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    /// An existing file: its device and inode.
    File(FileId),
    /// Its path, links resolved: what a file not yet there will be.
    Path(PathBuf),
}

/// The rule as it goes through a run's outputs.
struct Rule {
    reads: Reads,
    /// Every destination so far, with its label for messages.
    taken: HashMap<Key, String>,
    force: bool,
}

impl Rule {
    /// A path named on the command line (`-o` file, `--report-file`, `--map-out`).
    fn named(&mut self, flag: &str, path: &Path) -> Result<Dest, String> {
        let shown = path.display();
        let (dest, m) = resolve(path).map_err(|target| {
            format!(
                "{flag} {shown} is a link to {}, which does not exist: remove the link, or \
                 create the file it names",
                target.display()
            )
        })?;
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let label = match &dest {
            Dest::Replace(p) if link => format!("{flag} {shown} (a link to {})", p.display()),
            _ => format!("{flag} {shown}"),
        };
        if let Some(m) = &m {
            self.reads.destroys(m, &label)?;
            if m.is_dir() {
                return Err(format!("{label} is a folder: {flag} names a file here"));
            }
        }
        if let Dest::Replace(p) = &dest {
            self.reads.read_as_input(p, &label)?;
            if let Some(m) = m.as_ref().filter(|m| m.is_file()) {
                self.writable(p, m, &label)?;
            }
            self.take(p, m.as_ref(), label)?;
        }
        Ok(dest)
    }

    /// The output folder (`-o` with a folder as input): links resolved; its files are checked
    /// by [`Rule::entry`].
    fn folder(&mut self, flag: &str, path: &Path) -> Result<PathBuf, String> {
        let shown = path.display();
        let (dest, m) = resolve(path).map_err(|target| {
            format!("{flag} {shown} is a link to {}, which does not exist", target.display())
        })?;
        let label = format!("{flag} {shown}");
        if let Some(m) = &m {
            self.reads.destroys(m, &label)?;
            if !m.is_dir() {
                return Err(format!(
                    "{label} is not a folder: with a folder as input, {flag} names the output folder"
                ));
            }
        }
        self.reads.read_as_input(dest.path(), &label)?;
        Ok(dest.path().to_owned())
    }

    /// The file `name` of the output folder `folder` (`shown` as the user named it): not
    /// followed if a link (it is replaced).
    fn entry(&mut self, folder: &Path, shown: &Path, name: &OsStr) -> Result<(), String> {
        let path = folder.join(name);
        let label = format!("the output {}", shown.display());
        // The entry itself, not what it may link to.
        let m = std::fs::symlink_metadata(&path).ok().filter(|m| !m.file_type().is_symlink());
        if let Some(m) = &m {
            self.reads.destroys(m, &label)?;
            if m.is_file() {
                self.writable(&path, m, &label)?;
            }
        }
        self.take(&path, m.as_ref(), label)
    }

    /// Stdout, when the converted output goes there and it is a file (`> out.json`).
    fn stdout(&mut self) -> Result<(), String> {
        let Some(m) = super::stdout_metadata() else { return Ok(()) };
        let label = "stdout".to_owned();
        self.reads.destroys(&m, &label)?;
        if let Some(id) = id_of(&m) {
            self.claim(Key::File(id), label)?;
        }
        Ok(())
    }

    /// Records a destination at `path` (resolved), `m` when it exists, refusing a second
    /// output on the same file.
    fn take(&mut self, path: &Path, m: Option<&Metadata>, label: String) -> Result<(), String> {
        if let Some(id) = m.and_then(id_of) {
            self.claim(Key::File(id), label.clone())?;
        }
        self.claim(Key::Path(path.to_owned()), label)
    }

    fn claim(&mut self, key: Key, label: String) -> Result<(), String> {
        match self.taken.get(&key) {
            Some(first) => {
                Err(format!("{first} and {label} are the same file: one would overwrite the other"))
            }
            None => {
                self.taken.insert(key, label);
                Ok(())
            }
        }
    }

    /// Refuses to replace a file the user could not write in place, unless `--force`.
    fn writable(&self, path: &Path, m: &Metadata, label: &str) -> Result<(), String> {
        if self.force {
            return Ok(());
        }
        let why = if m.permissions().readonly() {
            "is read-only".to_owned()
        } else {
            match in_place(path, m) {
                Ok(()) => return Ok(()),
                Err(why) => why,
            }
        };
        Err(format!(
            "{label} {why}: the output would replace it (it is written beside it and renamed \
             over it); --force replaces it all the same"
        ))
    }
}

/// Whether the user could write the file `m` at `path` in place, as `>` would, when it has a
/// write bit: their own file with its owner's write bit, any file for root; otherwise (another
/// user's file, or a user the process cannot tell) the file is opened for writing, neither
/// truncated nor created, which changes no byte.
fn in_place(path: &Path, m: &Metadata) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match effective_uid() {
            Some(0) => return Ok(()),
            Some(uid) if uid == m.uid() => {
                return match m.mode() & 0o200 {
                    0 => Err("is not writable by its owner".to_owned()),
                    _ => Ok(()),
                };
            }
            _ => {}
        }
    }
    #[cfg(not(unix))]
    let _ = m;
    match std::fs::OpenOptions::new().write(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("cannot be written in place by you ({e})")),
    }
}

/// The user the process acts as (the second number of `Uid:`), once.
#[cfg(unix)]
fn effective_uid() -> Option<u32> {
    static UID: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *UID.get_or_init(|| super::process_status("Uid")?.split_whitespace().nth(1)?.parse().ok())
}

/// Where the path `path` named on the command line writes, with the file there if any: a
/// regular file (or none yet) is replaced at its real path, links resolved; anything else
/// (a device, a pipe, a folder) is left as named. A link naming no file is an error carrying
/// its target.
fn resolve(path: &Path) -> Result<(Dest, Option<Metadata>), PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() || m.is_dir() => {
            let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
            Ok((Dest::Replace(real), Some(m)))
        }
        Ok(m) => Ok((Dest::InPlace(path.to_owned()), Some(m))),
        Err(_) => match std::fs::read_link(path) {
            Ok(target) => Err(target),
            // Not there yet (or not to be looked at, and the write will say why).
            Err(_) => Ok((Dest::Replace(absolute(path)), None)),
        },
    }
}

/// `path`, not there yet, as its folder's real path and its name, so that two spellings of one
/// new file compare equal; as given when its folder cannot be resolved either.
fn absolute(path: &Path) -> PathBuf {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_owned();
    };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    match std::fs::canonicalize(parent) {
        Ok(real) => real.join(name),
        Err(_) if std::fs::symlink_metadata(parent).is_err() => absolute(parent).join(name),
        Err(_) => path.to_owned(),
    }
}
