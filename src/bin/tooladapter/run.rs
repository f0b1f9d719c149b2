//! What `convert` and `check` share about a run: how its errors are said and whether strict
//! mode may be asked (before anything else), the input named on the command line refused
//! before it is read, the options both start from, and one input read whole.

use std::path::Path;
use std::process::ExitCode;

use tooladapter::{Options, ProfileSet, Strict};

use crate::report::{self, ReportMode};

/// The input named on the command line, `-` (or none) being stdin.
pub fn named_input(input: Option<&Path>) -> Option<&Path> {
    input.filter(|p| p.as_os_str() != "-")
}

/// The start of a run: errors are said as `--report` asks from here on, and `--strict` with
/// a profile set without strict mode is a usage error.
pub fn begin(
    mode: ReportMode,
    input: Option<&Path>,
    profile: ProfileSet,
    strict: Option<Strict>,
) -> Result<(), ExitCode> {
    report::say_errors_as(mode, input);
    crate::strict_usable(profile, strict)
}

/// Refuses an input path that cannot be read as one (a device, a missing file), with its
/// error said and exit code.
pub fn input_usable(input: Option<&Path>) -> Result<(), ExitCode> {
    match input.map(|path| crate::input::check_named(path, true)) {
        Some(Err(e)) => {
            report::say(&report::Failure::of_input(&e, e.to_string()), None);
            Err(ExitCode::from(e.code()))
        }
        _ => Ok(()),
    }
}

/// The options every run starts from: the profile set, and strict mode when asked.
pub fn options(profile: ProfileSet, strict: Option<Strict>) -> Options {
    let options = Options::default().profile_set(profile);
    match strict {
        Some(s) => options.strict(s),
        None => options,
    }
}

/// One input read whole (the named file, or stdin), at most `limit` bytes.
pub fn read_one(input: Option<&Path>, limit: usize) -> Result<Vec<u8>, crate::input::InputError> {
    match input {
        Some(path) => crate::input::read_path(path, limit, true),
        None => crate::input::read_stdin(limit),
    }
}
