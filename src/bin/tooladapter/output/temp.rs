//! Temporary files, the one place they are made and ended. Every output file is written to a
//! temporary beside its destination first; each is created exclusively (a new file, never
//! through a link) with the final file's mode from the start, so no other user can open it in
//! between, and listed while it exists, so that SIGINT, SIGTERM or SIGHUP removes it before the
//! process ends as the signal says.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::named;

/// The temporary files that exist now. A signal takes this lock and never gives it back (the
/// process ends holding it), so no temporary is made or renamed after the signal's clean-up.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Tells temporary files of one process apart: a name is never reused within a run.
static COUNTER: AtomicU32 = AtomicU32::new(0);

/// The list of live temporaries. A poisoned lock is taken all the same: the list is a plain
/// `Vec` that no panic can leave half-changed, and the binary does not panic.
fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Creates a new temporary file for the file `name` in `folder`, readable and writable as
/// `mode` says (permission bits; the umask may take some off, never add one), and lists it.
///
/// # Errors
/// The file cannot be created (its path is in the message).
pub(super) fn create(folder: &Path, name: &str, mode: u32) -> io::Result<(PathBuf, File)> {
    watch_signals();
    let pid = std::process::id();
    let mut live = live();
    let mut attempts = 0;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = folder.join(format!(".{name}.{pid}.{n}.tmp"));
        match open_new(&temp, mode) {
            Ok(file) => {
                live.push(temp.clone());
                return Ok((temp, file));
            }
            // A stale file of an earlier run with the same process id: take the next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => attempts += 1,
            Err(e) => return Err(named(e, &temp)),
        }
    }
}

/// Opens `path` as a new file (`O_CREAT | O_EXCL`: an existing file or link, even a dangling
/// one, is an error, so nothing is ever written through a link), with `mode` from the start.
fn open_new(path: &Path, mode: u32) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

/// Renames the temporary `temp` over `dest` and unlists it; on failure it is removed.
///
/// # Errors
/// The rename failed (the destination is then left as it was).
pub(super) fn commit(temp: &Path, dest: &Path) -> io::Result<()> {
    let mut live = live();
    let renamed = std::fs::rename(temp, dest);
    if renamed.is_err() {
        let _ = std::fs::remove_file(temp);
    }
    unlist(&mut live, temp);
    renamed
}

/// Removes the temporary `temp` and unlists it.
pub(super) fn discard(temp: &Path) {
    let mut live = live();
    let _ = std::fs::remove_file(temp);
    unlist(&mut live, temp);
}

/// Takes `temp` off the list (a handful of files at most live at once: the output, the report,
/// the map and one file of a folder).
fn unlist(live: &mut Vec<PathBuf>, temp: &Path) {
    live.retain(|p| p != temp);
}

/// Starts, once, the thread that ends the run on SIGINT, SIGTERM or SIGHUP (see [`end_on`]).
/// A process that never makes a temporary file never starts it, and ends on those signals as
/// before. The handler is signal-hook's: std has no signal API, and a handler of our own would
/// need `unsafe`, which the binary forbids.
#[cfg(unix)]
fn watch_signals() {
    static WATCHING: std::sync::Once = std::sync::Once::new();
    WATCHING.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // Without the thread a signal ends the run as it did before, leaving its temporary
        // files: worse, but no reason to refuse to write.
        let caught = [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|s| !ignored(*s));
        let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
            return;
        };
        let _ = std::thread::Builder::new().name("signals".to_owned()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                end_on(signal);
            }
        });
    });
}

#[cfg(not(unix))]
fn watch_signals() {}

/// Whether `signal` is ignored by this process (`nohup` ignores SIGHUP, and a shell without
/// job control SIGINT in a background job): such a signal is left ignored, as it was before,
/// since catching it would end a run its caller meant to outlive the signal. Read from
/// `/proc/self/status` (Linux); elsewhere, where asking would need `unsafe`, taken as not.
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    let mask = super::process_status("SigIgn").and_then(|hex| u64::from_str_radix(&hex, 16).ok());
    let bit = u32::try_from(signal).ok().and_then(|s| s.checked_sub(1));
    match (mask, bit) {
        (Some(mask), Some(bit)) => mask.checked_shr(bit).is_some_and(|m| m & 1 == 1),
        _ => false,
    }
}

/// Removes every temporary file and ends the process as `signal` would have, had it not been
/// caught (a shell then sees 130 for SIGINT, 143 for SIGTERM). The list stays locked until the
/// end, so the run's own thread cannot rename a temporary over its destination afterwards: a
/// destination is either the old file or a new one written whole.
#[cfg(unix)]
fn end_on(signal: i32) {
    let mut live = live();
    for temp in live.drain(..) {
        let _ = std::fs::remove_file(temp);
    }
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    // Only reached if the default action could not be run: exit with the status a shell gives.
    signal_hook::low_level::exit(128 + signal);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary is made with the mode asked for, before anything else touches it (a private
    /// output's temporary is never readable by others, whatever the umask allows), and never
    /// through a link: a link at its name, even a dangling one, makes the next name be taken.
    /// One test, since both read the process's counter of names.
    #[cfg(unix)]
    #[test]
    fn a_temporary_is_a_new_file_with_its_mode_from_the_start() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tooladapter-temp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for mode in [0o600, 0o400, 0o640] {
            let (temp, file) = create(&dir, "out.json", mode).unwrap();
            let seen = file.metadata().unwrap().permissions().mode() & 0o777;
            // The umask can only take bits away: none the mode lacks is ever there.
            assert_eq!(seen & !mode, 0, "{mode:o} created as {seen:o}");
            assert!(live().contains(&temp));
            discard(&temp);
            assert!(!temp.exists() && !live().contains(&temp));
        }
        let target = dir.join("target");
        let n = COUNTER.load(Ordering::Relaxed);
        let planted = dir.join(format!(".x.{}.{n}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&target, &planted).unwrap();
        let (temp, _file) = create(&dir, "x", 0o600).unwrap();
        assert_ne!(temp, planted);
        assert!(!target.exists(), "the link was followed");
        discard(&temp);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
