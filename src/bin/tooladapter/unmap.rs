//! `tooladapter unmap`: a model's tool calls on the target side back into the source tools'
//! names and arguments, with the map `convert --map-out` wrote.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tooladapter::Inverse;

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
    let inverse: Inverse = match std::fs::read(&args.map)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(map) => map,
        Err(e) => {
            error!("cannot read the map {}: {e}", args.map.display());
            return ExitCode::from(1);
        }
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        error!("{e}");
        return ExitCode::from(1);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let failed = std::cell::Cell::new(false);
    let one = |value: &serde_json::Value, label: &str| match inverse.unmap_call(value) {
        Ok(call) => serde_json::to_value(call).ok(),
        Err(e) => {
            error!("{label}{e}");
            failed.set(true);
            None
        }
    };
    let written = match serde_json::from_slice::<serde_json::Value>(&input) {
        Ok(serde_json::Value::Array(calls)) => {
            let mapped: Vec<_> = calls
                .iter()
                .enumerate()
                .map(|(i, c)| one(c, &format!("call {i}: ")).unwrap_or(serde_json::Value::Null))
                .collect();
            writeln!(out, "{}", serde_json::Value::Array(mapped))
        }
        Ok(call) => match one(&call, "") {
            Some(v) => writeln!(out, "{v}"),
            None => Ok(()),
        },
        Err(_) => {
            // NDJSON: one call per line.
            let mut result = Ok(());
            for (n, line) in input.split(|b| *b == b'\n').enumerate() {
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let label = format!("line {}: ", n + 1);
                match serde_json::from_slice::<serde_json::Value>(line) {
                    Ok(call) => {
                        if let Some(v) = one(&call, &label) {
                            result = writeln!(out, "{v}");
                        }
                    }
                    Err(e) => {
                        error!("{label}not JSON: {e}");
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
    if let Err(e) = written.and_then(|()| out.flush()) {
        error!("{e}");
        return ExitCode::from(1);
    }
    if failed.get() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
