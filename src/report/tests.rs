//! The report's tests: the rows, the list made from them, their order, and the shared texts.

use super::*;
use links::NONE;
use store::Parts;
use text::Written;

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
        let span = report.text.push("/p");
        let pointer = report.link(Written { span, fresh: true });
        let span = report.text.push(format!("entry {i}"));
        let message = report.message(Written { span, fresh: true });
        let names = [["a", "b", "c", "d"][tool as usize], "format"];
        let kind = EntryKind {
            severity: Severity::Info,
            code: Code::KeywordDropped,
            effect: Effect::None,
            arguments: true,
        };
        let (order, extra) = ((tool, at), [NONE, NONE]);
        let parts = Parts { kind, order, names, formats, pointer, message, extra, stable: false };
        report.record_row(parts);
    };
    let mut kept = Report::default();
    for (i, place) in places.into_iter().enumerate() {
        record(&mut kept, (i, place));
    }
    assert_eq!(kept.first_message().as_deref(), Some("entry 0"));
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
            kind: EntryKind::arguments(Code::TypeRewritten, Effect::None),
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
    assert_eq!(report.entries().first().map(|e| e.order), Some((1, 9, 0)));
    assert_eq!(report.first_message().as_deref(), Some("a at /y"));
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
/// at another one in each tool); a feature or pointer that repeats the last entry's is not
/// written again, shared or not; another text is written anew.
#[test]
fn shared_texts_are_written_once() {
    fn note(recorder: &mut Recorder<'_, '_>, tool: &str, key: &str, share: bool) {
        let pointer = Shared::when(share, ["/", key]).or(|out: &mut String| {
            out.push('/');
            out.push_str(key);
        });
        let message = Shared::new(["`", key, "` has no place in ", "openai", " tools; dropped"]);
        let kind = EntryKind::metadata(Code::MetadataDropped);
        let note = Note { kind, feature: key, pointer, message };
        recorder.record(tool, (0, 0), note, |_| false);
    }
    let mut report = Report::default();
    // One key at two addresses, as two tools read from the source hold it.
    let (first, second) = (String::from("title"), String::from("title"));
    let mut recorder = Recorder::new(&mut report, "mcp", "openai");
    note(&mut recorder, "a", &first, true);
    let once = recorder.text_len();
    note(&mut recorder, "b", &second, true);
    // The tool's name only: the feature is the last entry's.
    assert_eq!(recorder.text_len() - once, "b".len());
    note(&mut recorder, "c", &second, false);
    // The pointer written anew is the last entry's too.
    assert_eq!(recorder.text_len() - once, "b".len() + "c".len());
    note(&mut recorder, "d", "icons", true);
    assert!(recorder.text_len() - once > "bcd".len() + "icons".len() + "/icons".len());
    let entries = report.entries();
    assert_eq!(entries.len(), 4);
    assert!(entries.iter().take(3).all(|e| e.pointer == "/title"
        && e.message == "`title` has no place in openai tools; dropped"
        && (e.from.as_str(), e.to.as_str()) == ("mcp", "openai")));
    assert_eq!(entries.get(3).map(|e| e.pointer.as_str()), Some("/icons"));
}

/// Every way to build an entry kind keeps the report's rule (`info` only when the same calls
/// are accepted, `error` only for a tool left out), whatever the effect, and written back into
/// its own format too: no writer can choose a severity that does not follow the effect.
#[test]
fn every_entry_kind_keeps_severity_with_effect() {
    let code = Code::KeywordDropped;
    let mut kinds = vec![
        EntryKind::metadata(code),
        EntryKind::left_out(code),
        EntryKind::unsure(code),
        EntryKind::flagged(code),
        EntryKind::guarantee_lost(code),
        EntryKind::metadata_lost(code),
        EntryKind::content(code, false),
        EntryKind::content(code, true),
    ];
    kinds.extend(Effect::ALL.map(|effect| EntryKind::arguments(code, effect)));
    // The recorder turns a widening or a narrowing a `$ref` may bring under a `oneOf` into a
    // change.
    for effect in [Effect::Narrows, Effect::Widens] {
        kinds.push(EntryKind::arguments(code, effect).with_effect(Effect::Changes));
    }
    for kind in kinds.clone() {
        kinds.push(kind.in_own_format());
    }
    for k in kinds {
        assert!(effect::consistent(k.severity(), k.effect(), k.about_arguments()), "{k:?}");
    }
    // Changes to the arguments warn; what keeps them is `info` unless named otherwise.
    assert_eq!(EntryKind::arguments(code, Effect::Widens).severity(), Severity::Warning);
    assert_eq!(EntryKind::arguments(code, Effect::None).severity(), Severity::Info);
    assert_eq!(EntryKind::left_out(code).severity(), Severity::Error);
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

/// A tiny deterministic generator for the tests below.
fn rng(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    }
}

/// Records an entry with `pointer` and `message` written fresh, as a pass writes them.
fn record(report: &mut Report, tool: &str, at: (u32, u32), pointer: &str, message: &str) {
    let note = Note {
        kind: EntryKind::arguments(Code::KeywordDropped, Effect::Widens),
        feature: "format",
        pointer: |out: &mut String| out.push_str(pointer),
        message: |out: &mut String| out.push_str(message),
    };
    Recorder::new(report, "mcp", "gemini").record(tool, at, note, |_| false);
}

/// Pointers and messages read back as they were written, whatever they share with the ones
/// before them: steps cut anywhere, `~` escapes, several-byte characters next to the places
/// where two texts part, texts that are a prefix or a suffix of the last one.
#[test]
fn shared_pointers_and_messages_read_back_as_written() {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    let steps = ["a", "ab", "é", "éa", "~0", "~1x", "properties", "0", "12", "ß", ""];
    let words = ["a", "é", "ée", "e", " dropped", "`x`", "ß", "`"];
    for round in 0..40 {
        let mut report = Report::default();
        let mut written = Vec::new();
        for i in 0..200 {
            let depth = next(6);
            let pointer: String =
                (0..depth).map(|_| format!("/{}", steps[next(11) as usize])).collect();
            let message: String = (0..next(5)).map(|_| words[next(8) as usize]).collect();
            let tool = ["t", "u", "é"][next(3) as usize];
            record(&mut report, tool, (next(3) as u32, i), &pointer, &message);
            written.push((tool.to_owned(), pointer, message));
        }
        let read: Vec<(String, String, String)> = report
            .refs()
            .map(|e| (e.tool().to_owned(), e.tool_pointer().to_string(), e.message().to_string()))
            .collect();
        assert_eq!(read, written, "round {round}");
        for (e, (_, pointer, message)) in report.refs().zip(&written) {
            assert!(e.tool_pointer() == pointer.as_str() && e.message() == message.as_str());
            assert_eq!(e.tool_pointer().len(), pointer.len());
        }
    }
}

/// A long key above many entries, and a long tool name on each, are written once: the text
/// grows by each entry's own last steps, and every pointer's chain of links is short.
#[test]
fn a_long_key_and_a_long_name_are_written_once() {
    let mut report = Report::default();
    let key = "k".repeat(20_000);
    let name = "n".repeat(20_000);
    for i in 0..1000 {
        let pointer = format!("/inputSchema/properties/{key}/properties/p{i}/format");
        record(
            &mut report,
            &name,
            (1, i),
            &pointer,
            "`format` is not supported by gemini; dropped",
        );
    }
    assert!(report.bytes() < key.len() + name.len() + 1000 * 120, "{} bytes", report.bytes());
    for (i, e) in report.refs().enumerate() {
        let pointer = format!("/inputSchema/properties/{key}/properties/p{i}/format");
        assert!(e.tool_pointer() == pointer.as_str() && e.tool() == name);
    }
    let links = report.more.get().map_or(0, |m| m.links.len()) as u32;
    assert!((0..links).all(|id| links::chain_len(&report, id) <= 3));
}

/// What the owned entries say, the entries read in place say too, printed and as JSON.
#[test]
fn entries_read_in_place_print_as_the_owned_ones() {
    let mut report = Report::default();
    report.extend([entry("b", "/x", (2, 5, 0)), entry("a\"'\u{301}\n", "/y~1é", (1, 9, 0))]);
    record(&mut report, "a", (1, 9), "/y/z", "moved ' \" \u{7f}");
    report.finish();
    assert_eq!(report.refs().len(), report.entries().len());
    for (r, e) in report.refs().zip(report.entries()) {
        assert_eq!(r.to_string(), e.to_string());
        assert_eq!(serde_json::to_string(&r).ok(), serde_json::to_string(e).ok());
        assert_eq!(&r.to_entry(), e);
        assert_eq!(r.tool_index(), report.tool_index(e));
    }
}

/// A text's `Debug` is `str`'s, whatever the pieces: every char, a piece boundary anywhere.
#[test]
fn a_text_debugs_as_a_str() {
    let all: String = (0..=0x10ffff_u32)
        .step_by(7)
        .filter_map(char::from_u32)
        .chain(['\'', '"', '\\', '\u{301}'])
        .collect();
    let cut = all.char_indices().map(|(i, _)| i).nth(1000).unwrap_or(0);
    let (a, b) = all.split_at(cut);
    let text = ReportText(view::Inner::Parts([a, b]));
    assert_eq!(format!("{text:?}"), format!("{all:?}"));
}

/// Rows sort as the general sort sorts them, in any order they come.
#[test]
fn rows_sort_as_the_general_sort_sorts_them() {
    let mut next = rng(0x9e37_79b9_7f4a_7c15);
    for n in [0_u32, 1, 2, 7, 40, 300, 5000] {
        let ascending: Vec<(u32, u32, u32)> = (0..n).map(|i| (i / 10, i % 10, i)).collect();
        let descending: Vec<_> = ascending.iter().rev().copied().collect();
        let random: Vec<_> = (0..n).map(|i| (next(97) as u32, 0, i)).collect();
        let mut late: Vec<_> = ascending.iter().map(|&(t, a, i)| (t + 10, a, i + 3)).collect();
        late.extend([(3, 0, 0), (1, 0, 1), (2, 0, 2)].into_iter().take(n as usize));
        for orders in [ascending.clone(), descending, random, late] {
            let mut report = Report::default();
            for &(tool, at, _) in &orders {
                record(&mut report, "t", (tool, at), "/p", "m");
            }
            report.finish();
            let mut expected: Vec<(u32, u32)> = orders.iter().map(|&(t, a, _)| (t, a)).collect();
            expected.sort();
            let got: Vec<(u32, u32)> = report.rows.iter().map(|r| r.order).collect();
            assert_eq!(got, expected);
        }
    }
}
