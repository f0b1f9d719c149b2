//! Running the `tooladapter` binary from the CLI suites (kept apart from `common`, which suites
//! that do not need the binary also include).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the binary with `stdin`; (exit code, stdout, stderr). Fails the test on a panic.
pub fn run(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    // Written from a thread: a large input would otherwise fill the pipe while the child's
    // output fills the other one. A usage error exits before reading; a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), out.stdout, stderr)
}
