//! `tooladapter unmap`: a model's tool calls on the target side back into the source tools'
//! names and arguments, with the map `convert --map-out` wrote. Numbers are written back
//! exactly as they came ([`crate::exact`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;
use tooladapter::Inverse;

use crate::Outcome;
use crate::exact::{self, ParseError};
use crate::input::{default_limit, read_path, read_stdin};

/// Arguments of `unmap`.
#[derive(clap::Args)]
pub struct UnmapArgs {
    /// The map written by `convert --map-out`.
    #[arg(long)]
    map: PathBuf,
}

/// Reads calls on stdin (one JSON call, a JSON array of calls, or NDJSON) and writes each back
/// in the source's terms, `{"id"?, "name", "arguments"}`, in the same layout.
pub fn run(args: &UnmapArgs) -> ExitCode {
    let limit = default_limit();
    let map = match read_path(&args.map, limit, true) {
        Ok(bytes) => bytes,
        Err(e) => {
            error!("map"; "cannot read the map: {e}");
            return ExitCode::from(e.code());
        }
    };
    let inverse: Inverse = match serde_json::from_slice(&map) {
        Ok(map) => map,
        Err(e) => {
            error!("map"; "cannot read the map {}: {e}", args.map.display());
            return ExitCode::from(1);
        }
    };
    // A map that writes one name back two ways cannot say which tool a call is for.
    if let Some(clash) = crate::maps::clash_in(&inverse) {
        error!("map"; "the map {} is ambiguous: {clash}", args.map.display());
        return ExitCode::from(1);
    }
    let input = match read_stdin(limit) {
        Ok(bytes) => bytes,
        Err(e) => {
            error!("input"; "{e}");
            return ExitCode::from(e.code());
        }
    };
    let failed = std::cell::Cell::new(false);
    let one = |value: &Value, label: &str| match inverse
        .unmap_call_with(value, |text| exact::parse(text.as_bytes()).map_err(|e| e.to_string()))
    {
        Ok(call) => serde_json::to_value(call).ok(),
        Err(e) => {
            error!("call"; "{label}{e}");
            failed.set(true);
            None
        }
    };
    let mut text = Vec::new();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match exact::parse(&input) {
        Ok(Value::Array(calls)) => {
            let mapped: Vec<_> = calls
                .iter()
                .enumerate()
                .map(|(i, c)| one(c, &format!("call {i}: ")).unwrap_or(Value::Null))
                .collect();
            exact::write(&Value::Array(mapped), &mut text);
            text.push(b'\n');
            out.write_all(&text)
        }
        Ok(call) => match one(&call, "") {
            Some(v) => {
                exact::write(&v, &mut text);
                text.push(b'\n');
                out.write_all(&text)
            }
            None => Ok(()),
        },
        Err(ParseError::DuplicateKey) => {
            error!("json"; "{}", ParseError::DuplicateKey);
            failed.set(true);
            Ok(())
        }
        Err(ParseError::Syntax(_)) => {
            // NDJSON: one call per line.
            let mut result = Ok(());
            for (n, line) in input.split(|b| *b == b'\n').enumerate() {
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let label = format!("line {}: ", n + 1);
                match exact::parse(line) {
                    Ok(call) => {
                        if let Some(v) = one(&call, &label) {
                            text.clear();
                            exact::write(&v, &mut text);
                            text.push(b'\n');
                            result = out.write_all(&text);
                        }
                    }
                    Err(e) => {
                        error!("json"; "{label}{e}");
                        failed.set(true);
                    }
                }
                if result.is_err() {
                    break;
                }
            }
            result
        }
    };
    let outcome = Outcome { failed: failed.get(), ..Outcome::default() };
    match written.and_then(|()| out.flush()) {
        Ok(()) => outcome.code(),
        Err(e) => outcome.ended_by(&e),
    }
}
