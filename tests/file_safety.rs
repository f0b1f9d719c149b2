//! No file of a user is changed through a link, a second output on the same file, a temporary
//! file or a signal (issue 32, findings 1–5): one write-safety rule for every path `convert`
//! writes (`-o`, each file of an output folder, `--report-file`, `--map-out`, temporaries).
//! Each test builds a tree in a scratch folder, runs the binary, and compares every file of the
//! tree (bytes, mode, modification time; links by their target) before and after.

#![cfg(unix)]

#[path = "common/bin.rs"]
mod bin;

use std::collections::BTreeMap;
use std::ffi::CString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use bin::run;

/// A tool with a report entry (`format` moved into the description for Gemini).
const TOOL: &str = r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","format":"email"}}}}"#;

/// A fresh, empty folder for one test (or one case of a test).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tooladapter-files-{name}-{}", std::process::id()));
    if let Ok(m) = std::fs::symlink_metadata(&dir) {
        // Read-only files left by an earlier run are removed with their folder.
        assert!(m.is_dir());
        std::fs::remove_dir_all(&dir).expect("old scratch folder");
    }
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// What one entry of a tree is, as a run could change it.
#[derive(Debug, PartialEq, Eq)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32, modified: SystemTime, inode: u64 },
    Link { target: PathBuf },
    Folder { mode: u32 },
    Other { mode: u32 },
}

/// Every entry under `root`, links not followed.
fn tree(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_owned()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("list") {
            let path = entry.expect("entry").path();
            let m = std::fs::symlink_metadata(&path).expect("lstat");
            let rel = path.strip_prefix(root).expect("under root").to_owned();
            let e = if m.file_type().is_symlink() {
                Entry::Link { target: std::fs::read_link(&path).expect("readlink") }
            } else if m.is_dir() {
                todo.push(path.clone());
                Entry::Folder { mode: m.permissions().mode() }
            } else if !m.is_file() {
                // A named pipe: opening it to read would wait for a writer.
                Entry::Other { mode: m.permissions().mode() }
            } else {
                Entry::File {
                    bytes: std::fs::read(&path).expect("read"),
                    mode: m.permissions().mode(),
                    modified: m.modified().expect("mtime"),
                    inode: m.ino(),
                }
            };
            out.insert(rel, e);
        }
    }
    out
}

/// The temporary files anywhere under `root`.
fn temporaries(root: &Path) -> Vec<PathBuf> {
    tree(root).into_keys().filter(|p| p.extension().is_some_and(|x| x == "tmp")).collect()
}

/// `convert --from mcp --to gemini` with `args`.
fn convert(args: &[&str]) -> (i32, Vec<u8>, String) {
    let args = [&["convert", "--from", "mcp", "--to", "gemini"][..], args].concat();
    run(&args, b"")
}

/// A root with an input folder `IN` of two tools and a note that is not an input.
fn inputs(name: &str) -> PathBuf {
    let root = scratch(name);
    std::fs::create_dir(root.join("IN")).expect("IN");
    std::fs::write(root.join("IN/a.json"), TOOL).expect("a.json");
    std::fs::write(root.join("IN/b.json"), TOOL.replace("\"t\"", "\"u\"")).expect("b.json");
    std::fs::write(root.join("IN/notes.txt"), "not a tool").expect("notes");
    root
}

/// Runs `args` in `root` and asserts it was refused (exit 2, saying `why`) with every file of
/// the tree as it was, and nothing created.
#[track_caller]
fn assert_refused(root: &Path, args: &[&str], why: &str) {
    let before = tree(root);
    let (code, _, err) = convert(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(why), "{args:?}: {err}");
    assert_eq!(tree(root), before, "{args:?} changed a file: {err}");
}

/// Finding 1: with a folder as input, `--report-file` or `--map-out` linking to a file of the
/// input folder wrote into that input (exit 0); a hard link to it did the same.
#[test]
fn a_report_or_map_linking_to_an_input_file_is_refused() {
    let root = inputs("finding1");
    std::os::unix::fs::symlink(root.join("IN/a.json"), root.join("rep.txt")).expect("link");
    std::fs::hard_link(root.join("IN/b.json"), root.join("hard.txt")).expect("hard link");
    let (input, out) = (root.join("IN"), root.join("OUT"));
    for flag in ["--report-file", "--map-out"] {
        for dest in ["rep.txt", "hard.txt"] {
            let dest = root.join(dest);
            let args = [s(&input), "-o", s(&out), flag, s(&dest)];
            assert_refused(&root, &args, "would destroy the input");
            let args = [s(&input), flag, s(&dest)];
            assert_refused(&root, &args, "would destroy the input");
        }
    }
}

/// Finding 2: an output folder holding a link named like an input file (`OUT/a.json ->
/// ../IN/a.json`) replaced the input with its own conversion; a link to any other file was
/// written through too. Now the link is replaced by the new file and its target left alone.
#[test]
fn a_link_in_the_output_folder_is_replaced_not_followed() {
    let root = inputs("finding2");
    std::fs::write(root.join("other.json"), "someone's file").expect("other");
    let out = root.join("OUT");
    std::fs::create_dir(&out).expect("OUT");
    std::os::unix::fs::symlink("../IN/a.json", out.join("a.json")).expect("link");
    std::os::unix::fs::symlink("../other.json", out.join("b.json")).expect("link");
    let before = tree(&root);
    let (code, _, err) = convert(&[s(&root.join("IN")), "-o", s(&out), "--report", "none"]);
    assert_eq!(code, 0, "{err}");
    let after = tree(&root);
    for kept in ["IN/a.json", "IN/b.json", "other.json"] {
        assert_eq!(after.get(Path::new(kept)), before.get(Path::new(kept)), "{kept} changed");
    }
    for name in ["a.json", "b.json"] {
        let m = std::fs::symlink_metadata(out.join(name)).expect("written");
        assert!(m.is_file(), "OUT/{name} is still a link");
        let text = std::fs::read_to_string(out.join(name)).expect("read");
        assert!(text.contains("\"parameters\""), "OUT/{name}: {text}");
    }
    assert!(temporaries(&root).is_empty());
}

/// Finding 3: two outputs on one file (`-o X --report-file X`, `-o X --map-out X`,
/// `--report-file X --map-out X`) ran with exit 0, one of them lost. Now refused, whether X
/// exists or not, however it is spelled (`./X`, `sub/../X`, a link to X, a hard link), and
/// for stdout redirected to a file that is also an output.
#[test]
fn two_outputs_on_one_file_are_refused() {
    let pairs = [("-o", "--report-file"), ("-o", "--map-out"), ("--report-file", "--map-out")];
    for exists in [false, true] {
        let root = inputs(&format!("finding3-{exists}"));
        std::fs::create_dir(root.join("sub")).expect("sub");
        let x = root.join("X");
        if exists {
            std::fs::write(&x, "previous").expect("X");
            std::fs::hard_link(&x, root.join("hard")).expect("hard link");
        }
        std::os::unix::fs::symlink(&x, root.join("link")).expect("link");
        let mut spellings = vec![x.clone(), root.join("./X"), root.join("sub/../X")];
        if exists {
            // A link naming no file is refused on its own; once X exists, it is X.
            spellings.extend([root.join("link"), root.join("hard")]);
        }
        let input = root.join("IN/a.json");
        for (first, second) in pairs {
            for other in &spellings {
                let args = [s(&input), first, s(&x), second, s(other)];
                assert_refused(&root, &args, "are the same file");
            }
        }
        // A folder's output file named again by `--report-file`.
        let (folder, out) = (root.join("IN"), root.join("OUT"));
        let entry = out.join("a.json");
        let args = [s(&folder), "-o", s(&out), "--report-file", s(&entry)];
        assert_refused(&root, &args, "are the same file");
        // Stdout appended to a file that `--report-file` also writes.
        if exists {
            let before = tree(&root);
            let stdout = std::fs::OpenOptions::new().append(true).open(&x).expect("X");
            let status = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
                .args(["convert", "--from", "mcp", "--to", "gemini", s(&input)])
                .args(["--report-file", s(&x)])
                .stdout(stdout)
                .stderr(Stdio::null())
                .status()
                .expect("runs");
            assert_eq!(status.code(), Some(2));
            assert_eq!(tree(&root), before);
        }
    }
}

/// Makes a named pipe at `path`.
fn mkfifo(path: &Path) {
    let c = CString::new(path.as_os_str().as_bytes()).expect("path");
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo {}", path.display());
}

/// A run waiting on a named pipe: killed if the test fails before it ends, so that no process
/// is left waiting for a writer.
struct Running(std::process::Child);

impl Running {
    fn pid(&self) -> i32 {
        i32::try_from(self.0.id()).expect("pid")
    }

    /// Sends `signal` to the run.
    fn signal(&self, signal: i32) {
        // SAFETY: sends a signal to the child this test started and has not yet waited for.
        assert_eq!(unsafe { libc::kill(self.pid(), signal) }, 0);
    }

    /// Waits for the run's end: its status and what it said on stderr.
    fn end(mut self) -> (std::process::ExitStatus, String) {
        let mut err = String::new();
        if let Some(mut stderr) = self.0.stderr.take() {
            std::io::Read::read_to_string(&mut stderr, &mut err).expect("stderr");
        }
        (self.0.wait().expect("wait"), err)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until `ready` holds for the temporaries under `root` (up to 60 s).
fn wait_for(root: &Path, ready: impl Fn(&[PathBuf]) -> bool) -> Vec<PathBuf> {
    let start = Instant::now();
    loop {
        let temps = temporaries(root);
        if ready(&temps) {
            return temps;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Finding 4: temporaries were created 0666 (less the umask) and then `chmod`ed, so another user
/// could open a private output's temporary in between. A run whose input is a named pipe with
/// no writer yet waits after creating its temporaries: each of them is private (0600, as the
/// outputs it replaces) while it exists. (The window itself was too short to catch here on the
/// old binary; the binary's unit test `a_temporary_is_a_new_file_with_its_mode_from_the_start`
/// checks the mode on the file as created.)
#[test]
fn temporaries_of_private_outputs_are_private() {
    let root = scratch("finding4");
    let (out, report, fifo) = (root.join("out.json"), root.join("report.txt"), root.join("in"));
    for f in [&out, &report] {
        std::fs::write(f, "previous").expect("write");
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    mkfifo(&fifo);
    let run = Running(
        Command::new(env!("CARGO_BIN_EXE_tooladapter"))
            .args(["convert", "--from", "mcp", "--to", "gemini", s(&fifo), "-o", s(&out)])
            .args(["--report-file", s(&report)])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let temps = wait_for(&root, |t| t.len() == 2);
    for t in &temps {
        let mode = std::fs::metadata(root.join(t)).expect("temporary").permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{} is {:o}", t.display(), mode & 0o777);
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .expect("writer")
        .write_all(TOOL.as_bytes())
        .expect("write");
    let (status, err) = run.end();
    assert_eq!(status.code(), Some(0), "{err}");
    for f in [&out, &report] {
        assert_eq!(std::fs::metadata(f).expect("output").permissions().mode() & 0o777, 0o600);
    }
    assert!(temporaries(&root).is_empty());
}

/// Finding 4, made certain: the run is started with `fchmod` and `fchmodat` failing (a
/// seccomp filter), so a run that `chmod`s a temporary after creating it fails. A private
/// output's temporaries are created private and never changed: the run succeeds, and the
/// outputs stay 0600.
#[cfg(target_os = "linux")]
#[test]
fn a_private_output_is_never_chmoded_after_its_creation() {
    use std::os::unix::process::CommandExt;
    let root = inputs("chmod");
    let (out, report) = (root.join("out.json"), root.join("report.txt"));
    for f in [&out, &report] {
        std::fs::write(f, "previous").expect("write");
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tooladapter"));
    cmd.args(["convert", "--from", "mcp", "--to", "gemini", s(&root.join("IN/a.json"))]).args([
        "-o",
        s(&out),
        "--report-file",
        s(&report),
    ]);
    // SAFETY: `prctl` is async-signal-safe; the filter lives on the closure's stack for the
    // call that installs it (the kernel copies it).
    unsafe {
        cmd.pre_exec(|| {
            use libc::{BPF_ABS, BPF_JEQ, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};
            let deny = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
            // Load the syscall number (offset 0 of `seccomp_data`), compare, allow or deny.
            let mut filter = [
                libc::BPF_STMT((BPF_LD | BPF_W | BPF_ABS) as u16, 0),
                libc::BPF_JUMP((BPF_JMP | BPF_JEQ | BPF_K) as u16, libc::SYS_fchmod as u32, 2, 0),
                libc::BPF_JUMP((BPF_JMP | BPF_JEQ | BPF_K) as u16, libc::SYS_fchmodat as u32, 1, 0),
                libc::BPF_STMT((BPF_RET | BPF_K) as u16, libc::SECCOMP_RET_ALLOW),
                libc::BPF_STMT((BPF_RET | BPF_K) as u16, deny),
            ];
            let program =
                libc::sock_fprog { len: filter.len() as u16, filter: filter.as_mut_ptr() };
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let done = cmd.output().expect("runs");
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{err}");
    assert!(std::fs::read_to_string(&out).expect("out").contains("\"parameters\""));
    for f in [&out, &report] {
        assert_eq!(std::fs::metadata(f).expect("output").permissions().mode() & 0o777, 0o600);
    }
}

/// The binary, started with SIGINT, SIGTERM and SIGHUP set to `action` (`SIG_DFL`, or `SIG_IGN`
/// as `nohup` and a shell's background jobs start it), whatever this test inherited.
fn with_signals(action: libc::sighandler_t) -> Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tooladapter"));
    // SAFETY: `signal` is async-signal-safe, and the closure touches nothing else.
    unsafe {
        cmd.pre_exec(move || {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, action);
            }
            Ok(())
        });
    }
    cmd
}

/// Finding 5, signals: SIGINT, SIGTERM or SIGHUP in the middle of a run left its temporary files
/// behind. Now they are removed, the previous outputs are intact, and the process ends as the
/// signal says. The input is a named pipe the test writes to and keeps open, so the signal
/// comes while the run is converting: for a stream, once its output temporary holds bytes.
#[test]
fn a_signal_mid_run_leaves_no_temporary_and_the_old_outputs() {
    for (signal, ndjson) in
        [(libc::SIGINT, true), (libc::SIGTERM, true), (libc::SIGHUP, true), (libc::SIGTERM, false)]
    {
        let root = scratch(&format!("signal-{signal}-{ndjson}"));
        let (out, report, fifo) = (root.join("out.json"), root.join("report.txt"), root.join("in"));
        std::fs::write(&out, "previous output").expect("write");
        std::fs::write(&report, "previous report").expect("write");
        mkfifo(&fifo);
        let before = tree(&root);
        let mut cmd = with_signals(libc::SIG_DFL);
        cmd.args(["convert", "--from", "mcp", "--to", "gemini", "--jobs", "1", s(&fifo)]);
        if ndjson {
            cmd.arg("--ndjson");
        }
        let run = Running(
            cmd.args(["-o", s(&out), "--report-file", s(&report)])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn"),
        );
        let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).expect("writer");
        if ndjson {
            // Lines until the output's temporary holds bytes: the run is converting, and
            // waits for more.
            let written = || {
                temporaries(&root).iter().any(|t| {
                    t.to_string_lossy().starts_with(".out.json")
                        && std::fs::metadata(root.join(t)).is_ok_and(|m| m.len() > 0)
                })
            };
            let lines = format!("{TOOL}\n").repeat(500);
            let start = Instant::now();
            while !written() {
                assert!(start.elapsed() < Duration::from_secs(60), "no output was written");
                writer.write_all(lines.as_bytes()).expect("lines");
                std::thread::sleep(Duration::from_millis(50));
            }
        } else {
            writer.write_all(&TOOL.as_bytes()[..10]).expect("a part of the tool");
            wait_for(&root, |temps| temps.len() == 2);
        }
        run.signal(signal);
        let (status, _) = run.end();
        drop(writer);
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert!(temporaries(&root).is_empty(), "{signal}: {:?}", temporaries(&root));
        assert_eq!(tree(&root), before, "signal {signal}");
        std::fs::remove_dir_all(&root).expect("clean up");
    }
}

/// A signal the run was started ignoring (`nohup` ignores SIGHUP) stays ignored: the run goes
/// on through it and writes its outputs.
#[test]
fn an_ignored_signal_stays_ignored() {
    let root = scratch("ignored");
    let (out, fifo) = (root.join("out.json"), root.join("in"));
    mkfifo(&fifo);
    let run = Running(
        with_signals(libc::SIG_IGN)
            .args(["convert", "--from", "mcp", "--to", "gemini", s(&fifo), "-o", s(&out)])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).expect("writer");
    writer.write_all(&TOOL.as_bytes()[..10]).expect("a part of the tool");
    wait_for(&root, |temps| temps.len() == 1);
    for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
        run.signal(signal);
    }
    writer.write_all(&TOOL.as_bytes()[10..]).expect("the rest");
    drop(writer);
    let (status, err) = run.end();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(std::fs::read_to_string(&out).expect("output").contains("\"parameters\""));
    assert!(temporaries(&root).is_empty());
}

/// Finding 5, links: `-o` at a link naming no file replaced the link with a file, though the
/// docs said the file linked to is written. A dangling link is now refused (exit 2: a stale
/// link and a file to create cannot be told apart), for every named output.
#[test]
fn a_dangling_link_as_an_output_is_refused() {
    let root = inputs("dangling");
    std::os::unix::fs::symlink("nowhere.json", root.join("dangling")).expect("link");
    let input = root.join("IN/a.json");
    for flag in ["-o", "--report-file", "--map-out"] {
        assert_refused(&root, &[s(&input), flag, s(&root.join("dangling"))], "does not exist");
    }
    // A live link is followed: the file it names is replaced, the link kept.
    std::fs::write(root.join("nowhere.json"), "previous").expect("target");
    let (code, _, err) = convert(&[s(&input), "-o", s(&root.join("dangling"))]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(root.join("dangling")).expect("link").is_symlink());
    let text = std::fs::read_to_string(root.join("nowhere.json")).expect("target");
    assert!(text.contains("\"parameters\""), "{text}");
}

/// Finding 5, permissions: a rename replaced a read-only (0444) output, which `>` would not
/// have. Refused unless `--force`, which replaces it and keeps its mode.
#[test]
fn a_read_only_output_is_replaced_only_with_force() {
    let root = inputs("readonly");
    let ro = root.join("ro.json");
    std::fs::write(&ro, "previous").expect("write");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let input = root.join("IN/a.json");
    for flag in ["-o", "--report-file", "--map-out"] {
        assert_refused(&root, &[s(&input), flag, s(&ro)], "is read-only");
    }
    let (code, _, err) = convert(&[s(&input), "-o", s(&ro), "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&ro).expect("read").contains("\"parameters\""));
    assert_eq!(std::fs::metadata(&ro).expect("ro").permissions().mode() & 0o777, 0o444);
    // `--force` never lets an output replace an input.
    let args = [s(&input), "-o", s(&input), "--force"];
    assert_refused(&root, &args, "would destroy the input");
}

/// An output of the wrong kind is a usage error: a folder where a file is written, a file where
/// a folder's outputs go.
#[test]
fn an_output_of_the_wrong_kind_is_refused() {
    let root = inputs("kind");
    std::fs::create_dir(root.join("folder")).expect("folder");
    std::fs::write(root.join("file.txt"), "previous").expect("file");
    let (file, folder) = (root.join("IN/a.json"), root.join("IN"));
    for flag in ["-o", "--report-file", "--map-out"] {
        assert_refused(&root, &[s(&file), flag, s(&root.join("folder"))], "is a folder");
    }
    assert_refused(&root, &[s(&folder), "-o", s(&root.join("file.txt"))], "is not a folder");
}

/// How a writer is asked for on the command line.
#[derive(Clone, Copy, Debug)]
enum Writer {
    /// `-o FILE`, a single input.
    Output,
    /// `-o FILE`, an NDJSON input.
    NdjsonOutput,
    /// `--report-file FILE`, a single input (the output on stdout).
    Report,
    /// `--report-file FILE`, a folder input with `-o OUT`.
    FolderReport,
    /// `--map-out FILE`, a single input.
    Map,
    /// `--map-out FILE`, a folder input with `-o OUT`.
    FolderMap,
    /// The file `OUT/a.json` of a folder input's output folder.
    FolderFile,
}

/// What the destination is before the run.
#[derive(Clone, Copy, Debug)]
enum Hazard {
    /// A link to the input file `IN/a.json`.
    LinkToInput,
    /// A link to the input folder.
    LinkToInputFolder,
    /// A link to a `.json` file not yet in the input folder.
    LinkIntoInputFolder,
    /// A hard link to the input file `IN/a.json`.
    HardLink,
    /// A link to a file that does not exist.
    Dangling,
    /// The same path as another output (`--report-file` or `--map-out`).
    SameAsOther,
    /// A read-only file.
    ReadOnly,
}

/// Every writer against every hazard: refused with every file as it was (exit 2), except a
/// link inside an output folder, which is replaced by the new file (exit 0) with the file it
/// named, and every other file, as it was.
#[test]
fn every_writer_against_every_hazard() {
    use Hazard::*;
    use Writer::*;
    let writers = [Output, NdjsonOutput, Report, FolderReport, Map, FolderMap, FolderFile];
    let hazards = [
        LinkToInput,
        LinkToInputFolder,
        LinkIntoInputFolder,
        HardLink,
        Dangling,
        SameAsOther,
        ReadOnly,
    ];
    let mut cases = 0;
    for writer in writers {
        for hazard in hazards {
            let root = inputs(&format!("matrix-{writer:?}-{hazard:?}"));
            let (input, out) = (root.join("IN"), root.join("OUT"));
            let dest = match writer {
                FolderFile => {
                    std::fs::create_dir(&out).expect("OUT");
                    out.join("a.json")
                }
                _ => root.join("dest.txt"),
            };
            // Links are written relative to the destination's folder, as a user would.
            let up = if matches!(writer, FolderFile) { "../" } else { "" };
            match hazard {
                LinkToInput => std::os::unix::fs::symlink(format!("{up}IN/a.json"), &dest),
                LinkToInputFolder => std::os::unix::fs::symlink(format!("{up}IN"), &dest),
                LinkIntoInputFolder => {
                    std::os::unix::fs::symlink(format!("{up}IN/new.json"), &dest)
                }
                HardLink => std::fs::hard_link(input.join("a.json"), &dest),
                Dangling => std::os::unix::fs::symlink(format!("{up}nowhere.json"), &dest),
                SameAsOther => Ok(()),
                ReadOnly => std::fs::write(&dest, "previous").and_then(|()| {
                    std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o444))
                }),
            }
            .expect("hazard");
            let d = s(&dest);
            let file = input.join("a.json");
            let mut args: Vec<&str> = match writer {
                Output => vec![s(&file), "-o", d],
                NdjsonOutput => vec!["--ndjson", s(&file), "-o", d],
                Report => vec![s(&file), "--report-file", d],
                FolderReport => vec![s(&input), "-o", s(&out), "--report-file", d],
                Map => vec![s(&file), "--map-out", d],
                FolderMap => vec![s(&input), "-o", s(&out), "--map-out", d],
                FolderFile => vec![s(&input), "-o", s(&out)],
            };
            if matches!(hazard, SameAsOther) {
                let other = if matches!(writer, Report | FolderReport) {
                    "--map-out"
                } else {
                    "--report-file"
                };
                args.extend([other, d]);
            }
            let before = tree(&root);
            let (code, _, err) = convert(&args);
            let after = tree(&root);
            let case = format!("{writer:?} × {hazard:?}: {args:?}: {err}");
            assert!(temporaries(&root).is_empty(), "{case}");
            let replaced = matches!(writer, FolderFile)
                && matches!(
                    hazard,
                    LinkToInput | LinkToInputFolder | LinkIntoInputFolder | Dangling
                );
            if replaced {
                assert_eq!(code, 0, "{case}");
                // Only the output folder's files changed, and its link became a file.
                for (path, entry) in &before {
                    if !path.starts_with("OUT") {
                        assert_eq!(
                            after.get(path),
                            Some(entry),
                            "{case}: {} changed",
                            path.display()
                        );
                    }
                }
                let created: Vec<_> = after
                    .keys()
                    .filter(|p| !before.contains_key(*p) && !p.starts_with("OUT"))
                    .collect();
                assert!(created.is_empty(), "{case}: created {created:?}");
                assert!(
                    matches!(after.get(Path::new("OUT/a.json")), Some(Entry::File { .. })),
                    "{case}"
                );
            } else {
                assert_eq!(code, 2, "{case}");
                assert!(err.starts_with("error: "), "{case}");
                assert_eq!(after, before, "{case}");
            }
            cases += 1;
            std::fs::remove_dir_all(&root).expect("clean up");
        }
    }
    assert_eq!(cases, writers.len() * hazards.len());
}
