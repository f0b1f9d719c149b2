//! `tooladapter traffic`: tool traffic between providers. This build has the streaming kind
//! only (`--kind stream`): a model's streamed answer read from a file or stdin as it comes and
//! written to stdout in the target's stream, each target event as soon as the source allows.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tooladapter::stream::{Output, StreamTranscoder};
use tooladapter::{Adapter, Inverse, TrafficOptions};

/// Arguments of `traffic`.
#[derive(clap::Args)]
pub struct TrafficArgs {
    /// The source format (openai, openai-responses, anthropic, gemini, bedrock).
    #[arg(long)]
    from: String,
    /// The target format.
    #[arg(long)]
    to: String,
    /// What the input is; this build reads `stream`.
    #[arg(long, default_value = "stream")]
    kind: String,
    /// A definitions conversion's map (`convert --map-out`): calls mapped through it.
    #[arg(long)]
    map: Option<PathBuf>,
    /// `sse`: the target's wire text; `json`: one event object per line.
    #[arg(long, default_value = "sse", value_parser = ["sse", "json"])]
    events: String,
    /// How the report is printed on stderr.
    #[arg(long, default_value = "text", value_parser = ["text", "json", "none"])]
    report: String,
    /// The stream (`-` or nothing: stdin).
    input: Option<PathBuf>,
}

fn format(name: &str) -> Option<&'static dyn Adapter> {
    tooladapter::formats::builtins().iter().copied().find(|a| a.name() == name)
}

/// Runs `traffic`.
pub fn run(args: &TrafficArgs) -> ExitCode {
    if args.kind != "stream" {
        error!("--kind {}: this build converts streams only (--kind stream)", args.kind);
        return ExitCode::from(2);
    }
    let (Some(from), Some(to)) = (format(&args.from), format(&args.to)) else {
        error!("unknown format: {} or {}", args.from, args.to);
        return ExitCode::from(2);
    };
    let map: Option<Inverse> = match &args.map {
        Some(path) => match std::fs::read(path).map(|b| serde_json::from_slice(&b)) {
            Ok(Ok(map)) => Some(map),
            Ok(Err(e)) => {
                error!("cannot read the map {}: {e}", path.display());
                return ExitCode::from(1);
            }
            Err(e) => {
                error!("cannot read the map {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        None => None,
    };
    let options = TrafficOptions { map: map.as_ref(), ..TrafficOptions::default() };
    let output = if args.events == "json" { Output::Json } else { Output::Sse };
    let mut t = match StreamTranscoder::new(from, to, &options) {
        Ok(t) => t.with_output(output),
        Err(e) => {
            error!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut input: Box<dyn Read> = match args.input.as_deref().filter(|p| p.as_os_str() != "-") {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                error!("cannot read {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        None => Box::new(std::io::stdin().lock()),
    };
    let mut out = std::io::stdout().lock();
    let mut buf = vec![0u8; 64 << 10];
    let code = loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                error!("reading the stream: {e}");
                break Some(1);
            }
        };
        let piece = buf.get(..n).unwrap_or_default();
        if let Err(e) = t.push(piece, &mut out).and_then(|()| out.flush().map_err(Into::into)) {
            error!("{e}");
            break Some(1);
        }
    };
    if code.is_none()
        && let Err(e) =
            t.finish(&mut out).map(|_| ()).and_then(|()| out.flush().map_err(Into::into))
    {
        error!("{e}");
        return ExitCode::from(1);
    }
    let mut err = std::io::stderr().lock();
    for entry in t.report().entries() {
        let _ = match args.report.as_str() {
            "json" => writeln!(err, "{}", serde_json::to_string(entry).unwrap_or_default()),
            "text" => writeln!(err, "{entry}"),
            _ => Ok(()),
        };
    }
    ExitCode::from(code.unwrap_or(0))
}
