//! The report's tests: the rows, the list made from them, their order, and the shared texts.

use super::*;
use store::Kind;

/// A report travels inside errors (`BridgeError`): what only a report with entries needs
/// is boxed.
#[test]
fn a_report_stays_small() {
    assert!(std::mem::size_of::<Report>() <= 64, "{}", std::mem::size_of::<Report>());
}

/// Rows recorded in any order finish in source order (by tool, then place; rows at one
/// place in the order written); the first recorded is the first message until then, and a
/// truncation back to a length takes out only what was recorded after it.
#[test]
fn rows_recorded_in_any_order_finish_in_source_order() {
    let places = [(1, 50), (2, 9), (2, 30), (2, 4), (2, 30), (2, 2), (3, 1), (2, 30), (0, 7)];
    let record = |report: &mut Report, (i, (tool, at)): (usize, (u32, u32))| {
        let formats = report.formats("mcp", "openai");
        let texts = [report.text.push("/p"), report.text.push(format!("entry {i}"))];
        let names = [["a", "b", "c", "d"][tool as usize], "format"];
        let kind = Kind {
            severity: Severity::Info,
            code: Code::KeywordDropped,
            effect: Effect::None,
            arguments: true,
        };
        report.record_row(kind, (tool, at, 0), names, formats, texts, [None, None]);
    };
    let mut kept = Report::default();
    for (i, place) in places.into_iter().enumerate() {
        record(&mut kept, (i, place));
    }
    assert_eq!(kept.first_message(), Some("entry 0"));
    let mark = kept.len();
    record(&mut kept, (99, (2, 1)));
    kept.truncate(mark);
    let mut last = kept.clone();
    kept.finish();
    let messages: Vec<&str> = kept.entries().iter().map(|e| e.message.as_str()).collect();
    let expected = ["entry 8", "entry 0", "entry 5", "entry 3", "entry 1", "entry 2", "entry 4"];
    assert_eq!(messages.get(..7), Some(&expected[..]));
    assert_eq!(messages.get(7..), Some(&["entry 7", "entry 6"][..]));
    last.finish();
    assert_eq!(kept, last);
    // Recorded after a finish, in a copy or not, and finished again.
    let (mut kept_copy, mut last_copy) = (kept.clone(), last.clone());
    for report in [&mut kept, &mut last, &mut kept_copy, &mut last_copy] {
        for (i, place) in [(1, 50), (0, 3), (2, 4)].into_iter().enumerate() {
            record(report, (i + 20, place));
        }
        report.finish();
    }
    assert_eq!(kept, last);
    assert_eq!(kept_copy, last_copy);
    assert_eq!(kept_copy, kept);
    assert_eq!(kept.first_message(), last.first_message());
}

fn entry(tool: &str, pointer: &str, order: (u32, u32, u32)) -> ReportEntry {
    ReportEntry {
        tool: tool.to_owned(),
        severity: Severity::Warning,
        code: Code::KeywordDropped,
        effect: Effect::Widens,
        arguments: true,
        feature: "format".to_owned(),
        pointer: pointer.to_owned(),
        tool_pointer: pointer.to_owned(),
        output_pointer: None,
        from: "mcp".to_owned(),
        to: "openai".to_owned(),
        message: format!("{tool} at {pointer}"),
        order,
    }
}

/// The rows and the list made from them agree through every change: the list is made
/// again after each one, in the last list's entries, never showing its spares.
#[test]
fn the_list_follows_the_rows() {
    let mut report = Report::default();
    let plain =
        [entry("b", "/x", (2, 5, 0)), entry("a", "/y", (1, 9, 0)), entry("b", "/z", (2, 1, 0))];
    report.extend(plain.iter().cloned());
    Recorder::new(&mut report, "mcp", "openai").record(
        "a",
        (1, 9),
        Note {
            severity: Severity::Info,
            code: Code::TypeRewritten,
            effect: Effect::None,
            arguments: true,
            feature: "type",
            pointer: |out: &mut String| out.push_str("/y"),
            message: ["part ", "and ", "part"],
        },
        |_| false,
    );
    assert_eq!(report.len(), 4);
    assert_eq!(report.entries().get(3).map(|e| e.message.as_str()), Some("part and part"));
    report.finish();
    let order: Vec<(&str, &str)> =
        report.entries().iter().map(|e| (e.tool.as_str(), e.pointer.as_str())).collect();
    // By tool, then place; the two entries at one place in the order written.
    assert_eq!(order, [("a", "/y"), ("a", "/y"), ("b", "/z"), ("b", "/x")]);
    assert_eq!(report.entries().first().map(|e| e.order), Some((1, 9, 1)));
    assert_eq!(report.first_message(), Some("a at /y"));
    assert_eq!(report.warnings().len(), 3);
    assert_eq!(report.max_severity(), Some(Severity::Warning));
    let copy = report.clone();
    assert_eq!(copy, report);

    report.for_each_mut(|e| e.pointer.push_str("/0"));
    assert!(report.entries().iter().all(|e| e.pointer.ends_with("/0")));
    assert_ne!(copy, report);
    report.truncate(1);
    assert_eq!(report.entries().len(), 1);
    report.clear();
    assert!(report.entries().is_empty());
    report.push(entry("c", "/w", (0, 0, 0)));
    report.finish();
    assert_eq!(report.entries(), [ReportEntry { order: (0, 0, 0), ..entry("c", "/w", (0, 0, 0)) }]);
    assert_eq!((&report).into_iter().count(), 1);
}

/// A text the entries of a conversion repeat is written once: the report's text grows by each
/// entry's own texts only, whatever address the pieces are at (a key read from the source is
/// at another one in each tool); pieces not to share, or another text, are written anew.
#[test]
fn shared_texts_are_written_once() {
    fn note(recorder: &mut Recorder<'_, '_>, tool: &str, key: &str, share: bool) {
        let pointer = Shared::when(share, ["/", key]).or(|out: &mut String| {
            out.push('/');
            out.push_str(key);
        });
        let message = Shared::new(["`", key, "` has no place in ", "openai", " tools; dropped"]);
        let (severity, code) = (Severity::Info, Code::MetadataDropped);
        let (effect, arguments) = (Effect::None, false);
        let note = Note { severity, code, effect, arguments, feature: key, pointer, message };
        recorder.record(tool, (0, 0), note, |_| false);
    }
    let mut report = Report::default();
    // One key at two addresses, as two tools read from the source hold it.
    let (first, second) = (String::from("title"), String::from("title"));
    let mut recorder = Recorder::new(&mut report, "mcp", "openai");
    note(&mut recorder, "a", &first, true);
    let once = recorder.text_len();
    note(&mut recorder, "b", &second, true);
    // The tool's name and the feature only.
    let own = "b".len() + "title".len();
    assert_eq!(recorder.text_len() - once, own);
    note(&mut recorder, "c", &second, false);
    assert_eq!(recorder.text_len() - once, 2 * own + "/title".len());
    note(&mut recorder, "d", "icons", true);
    let entries = report.entries();
    assert_eq!(entries.len(), 4);
    assert!(entries.iter().take(3).all(|e| e.pointer == "/title"
        && e.message == "`title` has no place in openai tools; dropped"
        && (e.from.as_str(), e.to.as_str()) == ("mcp", "openai")));
    assert_eq!(entries.get(3).map(|e| e.pointer.as_str()), Some("/icons"));
}

/// The report refuses (in debug builds) an entry whose severity does not follow its effect:
/// here an `info` entry that says the arguments changed.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "the severity does not follow the effect")]
fn an_info_entry_that_changes_the_arguments_is_refused() {
    let mut report = Report::default();
    Recorder::new(&mut report, "mcp", "openai").record(
        "a",
        (0, 0),
        Note {
            severity: Severity::Info,
            code: Code::ObjectClosed,
            effect: Effect::Narrows,
            arguments: true,
            feature: "additionalProperties",
            pointer: "/inputSchema",
            message: "closed",
        },
        |_| false,
    );
}

/// Metadata (not about the arguments) changes none; a whole entry pushed is held to the rule
/// too.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "the severity does not follow the effect")]
fn metadata_that_widens_is_refused() {
    let mut report = Report::default();
    let mut e = entry("a", "/title", (0, 0, 0));
    e.arguments = false;
    report.push(e);
}
