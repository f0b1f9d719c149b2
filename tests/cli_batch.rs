//! Batch work of the `tooladapter` binary on several threads: NDJSON streams, large catalogs
//! and folders give the same bytes, reports and exit codes with `--jobs 2` as with `--jobs 1`,
//! in input order; failures are named; memory stays bounded on a stream larger than the bound.
//! Every fixture is generated here.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "common/bin.rs"]
mod bin;

use bin::run;
use tooladapter::{Converter, Options, formats};

/// An MCP tool whose conversion reports something for every target (a title, a `format`,
/// a `minLength`), so reports are compared too.
fn tool(i: usize) -> String {
    format!(
        r#"{{"name":"tool_{i}","title":"Tool {i}","description":"Does thing {i}.","inputSchema":{{"type":"object","properties":{{"url":{{"type":"string","format":"uri","minLength":{}}},"n":{{"type":"integer"}}}},"required":["url"]}}}}"#,
        i % 7 + 1
    )
}

/// A folder under the system temp dir, empty, unique to this test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tooladapter-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The tool names of an output document written as `format`, in order, read back through
/// that format's own reader: where a format keeps its tool list and names is its business.
fn names(output: &[u8], format: &str) -> Vec<String> {
    let adapter = formats::builtin(format).expect("a built-in format");
    let tools = Converter::new().to_canonical(output, adapter, &Options::default());
    tools.expect("output reads back").into_iter().map(|t| t.name).collect()
}

/// Every format the binary can write, by name.
fn targets() -> Vec<&'static str> {
    formats::infos().filter(|f| f.writes).map(|f| f.name).collect()
}

#[test]
fn ndjson_on_two_threads_is_byte_identical_and_in_order() {
    // Single tools and small catalogs mixed, blank lines between, more than two windows.
    let mut input = String::new();
    for i in 0..2_500 {
        if i % 10 == 3 {
            input.push_str(&format!("{{\"tools\":[{},{}]}}\n", tool(i), tool(i + 100_000)));
        } else {
            input.push_str(&tool(i));
            input.push('\n');
        }
        if i % 97 == 0 {
            input.push_str("  \n");
        }
    }
    for to in ["openai", "anthropic", "gemini"] {
        for report in ["text", "json"] {
            let args = |jobs| {
                [
                    "convert", "--from", "mcp", "--to", to, "--ndjson", "--report", report,
                    "--jobs", jobs,
                ]
            };
            let one = run(&args("1"), input.as_bytes());
            let two = run(&args("2"), input.as_bytes());
            assert_eq!(one.0, 0, "{}", one.2);
            assert_eq!(one, two, "--to {to} --report {report}");
        }
    }
    let (_, out, err) = run(
        &["convert", "--from", "mcp", "--to", "openai", "--ndjson", "--jobs", "2"],
        input.as_bytes(),
    );
    let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 2_500);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(names(line, "openai").first(), Some(&format!("tool_{i}")));
    }
    // Report lines name their input line, blank lines counted.
    assert!(err.lines().next().is_some_and(|l| l.starts_with("line 1: ")), "{err}");
    assert!(err.contains("line 2526: "), "last line is 2,526 with 26 blank lines before it");
}

#[test]
fn a_bad_ndjson_line_is_named_and_the_others_still_convert() {
    let mut input = String::new();
    for i in 1..=3_000 {
        match i {
            1_500 => input.push_str("{\"name\":\n"),
            2_222 => input.push_str("[1,2]\n"),
            _ => {
                input.push_str(&tool(i));
                input.push('\n');
            }
        }
    }
    for jobs in ["1", "2"] {
        let (code, out, err) = run(
            &["convert", "--from", "mcp", "--to", "anthropic", "--ndjson", "--jobs", jobs],
            input.as_bytes(),
        );
        assert_eq!(code, 1, "{err}");
        assert_eq!(out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(), 2_998);
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("error: line 1500: mcp adapter to_canonical"), "{errors:?}");
        assert!(errors[1].starts_with("error: line 2222: "), "{errors:?}");
    }
}

#[test]
fn a_large_catalog_on_two_threads_is_byte_identical() {
    let tools: Vec<String> = (0..2_000).map(tool).collect();
    let object = format!("{{\"tools\":[{}],\"nextCursor\":\"page-2\"}}", tools.join(","));
    let array = format!("[\n{}\n]", tools.join(",\n"));
    let from = "mcp";
    for (shape, input) in [("object", &object), ("array", &array)] {
        for to in targets() {
            for pretty in [&[][..], &["--pretty"]] {
                let args = |jobs| {
                    let mut args = vec!["convert", "--from", from, "--to", to, "--report", "json"];
                    args.extend_from_slice(pretty);
                    args.extend_from_slice(&["--jobs", jobs]);
                    args
                };
                let one = run(&args("1"), input.as_bytes());
                let two = run(&args("2"), input.as_bytes());
                assert_eq!(one.0, 0, "{}", one.2);
                // The same format keeps everything; the others report what they cannot hold.
                assert_eq!(one.2.is_empty(), to == from, "{}", one.2);
                assert_eq!(one, two, "{shape} catalog --to {to} {pretty:?}");
                let expected: Vec<String> = (0..2_000).map(|i| format!("tool_{i}")).collect();
                assert_eq!(names(&one.1, to), expected);
            }
        }
    }
    // The catalog member dropped for non-MCP targets is reported once, not once per chunk.
    let (_, _, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "2"], object.as_bytes());
    assert_eq!(err.lines().filter(|l| l.contains("catalog-member-dropped")).count(), 1, "{err}");
}

#[test]
fn a_large_catalog_that_cannot_be_split_gives_the_whole_conversion() {
    // A name repeated far apart (renaming spans the catalog), and a malformed tool whose error
    // names its index in the whole catalog.
    let mut tools: Vec<String> = (0..1_000).map(tool).collect();
    tools[900] = tool(3);
    let duplicate = format!("[{}]", tools.join(","));
    tools[900] = "{\"name\":\"bad\",\"inputSchema\":[]}".to_owned();
    let malformed = format!("[{}]", tools.join(","));
    for input in [&duplicate, &malformed] {
        for to in ["openai", "anthropic"] {
            let args = |jobs| ["convert", "--from", "mcp", "--to", to, "--jobs", jobs];
            assert_eq!(run(&args("1"), input.as_bytes()), run(&args("2"), input.as_bytes()));
        }
    }
    // Anthropic allows 20 strict tools per request: which tools stay strict depends on the
    // tools before them in the whole catalog.
    let strict = format!("[{}]", (0..300).map(tool).collect::<Vec<_>>().join(","));
    let args = |jobs| ["convert", "--from", "mcp", "--to", "anthropic", "--strict", "--jobs", jobs];
    let one = run(&args("1"), strict.as_bytes());
    assert_eq!(one.1.windows(13).filter(|w| w == b"\"strict\":true").count(), 20, "{}", one.2);
    assert_eq!(one, run(&args("2"), strict.as_bytes()));

    let (code, _, err) =
        run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "2"], malformed.as_bytes());
    assert_eq!(code, 1);
    assert!(err.contains("/900") && err.contains("\"bad\""), "{err}");
}

#[test]
fn a_folder_converts_to_an_output_folder_and_in_order_to_stdout() {
    let dir = temp_dir("folder-in");
    let out_dir = temp_dir("folder-out");
    for i in 0..30 {
        let body = if i == 17 { "{\"name\":".to_owned() } else { tool(i) };
        std::fs::write(dir.join(format!("{i:03}.json")), body).expect("write fixture");
    }
    std::fs::write(dir.join("notes.txt"), "not a tool").expect("write fixture");
    let dir_arg = dir.to_str().expect("utf-8 path");
    let out_arg = out_dir.to_str().expect("utf-8 path");

    let (code, out, err) = run(
        &["convert", "--from", "mcp", "--to", "openai", "--jobs", "2", "-o", out_arg, dir_arg],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    let bad = dir.join("017.json");
    assert!(err.contains(&format!("error: {}: mcp adapter", bad.display())), "{err}");
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("out dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let expected: Vec<String> =
        (0..30).filter(|&i| i != 17).map(|i| format!("{i:03}.json")).collect();
    assert_eq!(written, expected, "one output per converted file, none for the bad one");
    for (i, name) in (0..30).filter(|&i| i != 17).zip(&written) {
        let single = run(&["convert", "--from", "mcp", "--to", "openai"], tool(i).as_bytes());
        assert_eq!(std::fs::read(out_dir.join(name)).expect("output"), single.1);
    }

    let one = run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "1", dir_arg], b"");
    let two = run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "2", dir_arg], b"");
    assert_eq!(one, two);
    let text = String::from_utf8(two.1).expect("utf-8");
    let order: Vec<String> = text.lines().map(|l| names(l.as_bytes(), "openai").concat()).collect();
    let expected: Vec<String> = (0..30).filter(|&i| i != 17).map(|i| format!("tool_{i}")).collect();
    assert_eq!(order, expected);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn no_progress_bar_on_pipes() {
    let ndjson: String = (0..3_000).map(|i| tool(i) + "\n").collect();
    let catalog = format!("[{}]", (0..500).map(tool).collect::<Vec<_>>().join(","));
    let dir = temp_dir("no-bar");
    for i in 0..10 {
        std::fs::write(dir.join(format!("{i}.json")), tool(i)).expect("write fixture");
    }
    let dir_arg = dir.to_str().expect("utf-8 path");
    let runs = [
        run(
            &["convert", "--from", "mcp", "--to", "openai", "--ndjson", "--jobs", "2"],
            ndjson.as_bytes(),
        ),
        run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "2"], catalog.as_bytes()),
        run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", "2", dir_arg], b""),
    ];
    for (code, out, err) in runs {
        assert_eq!(code, 0, "{err}");
        for stream in [&out[..], err.as_bytes()] {
            assert!(!stream.contains(&0x1b), "an escape sequence on a pipe");
            assert!(!stream.contains(&b'\r'), "a carriage return on a pipe");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_inverse_map_covers_every_line_and_every_tool_of_a_batch() {
    // Strict mode makes each tool's optional `n` required and nullable: one map entry per
    // tool; a dotted name is renamed for OpenAI: its entry maps the name back too.
    let ndjson: String =
        (0..600).map(|i| tool(i).replace("\"tool_7\"", "\"tool.7\"") + "\n").collect();
    let catalog = format!("[{}]", (0..300).map(tool).collect::<Vec<_>>().join(","));
    let dir = temp_dir("map-out");
    for (name, input, ndjson_flag) in
        [("ndjson", ndjson.as_bytes(), true), ("catalog", catalog.as_bytes(), false)]
    {
        let mut maps = Vec::new();
        for jobs in ["1", "2"] {
            let map = dir.join(format!("{name}-{jobs}.json"));
            let map_arg = map.to_str().expect("utf-8 path");
            let mut args = vec!["convert", "--from", "mcp", "--to", "openai", "--strict"];
            if ndjson_flag {
                args.push("--ndjson");
            }
            args.extend_from_slice(&["--map-out", map_arg, "--jobs", jobs]);
            let (code, _, err) = run(&args, input);
            assert_eq!(code, 0, "{err}");
            let map: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&map).expect("map written")).expect("json");
            maps.push(map);
        }
        assert_eq!(maps[0], maps[1], "{name}");
        let tools = maps[0]["tools"].as_array().expect("tools");
        assert_eq!(tools.len(), if ndjson_flag { 600 } else { 300 }, "{name}");
        if ndjson_flag {
            assert_eq!(tools[7]["source_name"], "tool.7", "{}", tools[7]);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn jobs_must_be_a_positive_count() {
    for bad in ["0", "-1", "two"] {
        let (code, _, err) =
            run(&["convert", "--from", "mcp", "--to", "openai", "--jobs", bad], b"{}");
        assert_eq!(code, 2, "{bad}: {err}");
    }
}

/// Peak resident memory (`VmHWM`) of a process, in kB, while it is alive.
#[cfg(target_os = "linux")]
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn an_ndjson_stream_larger_than_the_memory_bound_streams_in_bounded_memory() {
    const BOUND_KB: u64 = 64 * 1024;
    // ~1 KB lines, 80 MB in all: more than the bound, so buffering the stream would break it.
    // Tools OpenAI takes as written: no report line per tool fills the stderr pipe the test
    // reads only at the end.
    let line = format!(
        "{{\"name\":\"t\",\"description\":\"{}\",\"inputSchema\":{{\"type\":\"object\",\"properties\":{{}}}}}}\n",
        "x".repeat(960)
    );
    let lines = 80 * 1024 * 1024 / line.len();
    let total = (lines * line.len()) as u64;
    assert!(total > BOUND_KB * 1024);

    let mut child = Command::new(env!("CARGO_BIN_EXE_tooladapter"))
        .args(["convert", "--from", "mcp", "--to", "openai", "--ndjson", "--jobs", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        for _ in 0..lines {
            stdin.write_all(line.as_bytes()).expect("child reads all its input");
        }
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let (mut count, mut buf) = (0usize, vec![0u8; 1 << 16]);
        loop {
            match stdout.read(&mut buf).expect("read stdout") {
                0 => break count,
                n => count += buf[..n].iter().filter(|&&b| b == b'\n').count(),
            }
        }
    });
    let (mut peak, mut samples) = (0u64, 0usize);
    let status = loop {
        if let Some(kb) = peak_rss_kb(pid) {
            peak = peak.max(kb);
            samples += 1;
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    writer.join().expect("writer");
    let converted = reader.join().expect("reader");
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("stderr");
    assert!(status.success(), "{err}");
    assert_eq!(converted, lines, "one output line per input line");
    assert!(samples > 0, "the child was sampled while it ran");
    assert!(peak <= BOUND_KB, "peak RSS {peak} kB over {total} bytes of input");
    eprintln!("peak RSS {peak} kB over {total} bytes of input ({samples} samples)");
}
