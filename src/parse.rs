//! Parse: bytes → simd-json tape, with buffers reused across calls.
//!
//! simd-json does the grammar and UTF-8 checks; this module adds what it leaves to us: a
//! size limit, rejecting lone surrogate escapes (simd-json decodes them into garbage rather
//! than failing), and mapping its errors onto [`ErrorKind`]. The escape scan also marks where
//! escapes start, so emission can tell strings it may copy without escaping them again.

use simd_json::{Buffers, Node};

use crate::error::ErrorKind;

/// Reusable parse state: the mutable, padded input copy simd-json parses in place, its
/// buffers, the tape, and where the input's backslash escapes are.
pub(crate) struct Parser {
    input: Vec<u8>,
    buffers: Buffers,
    tape: Vec<Node<'static>>,
    escapes: Vec<u64>,
    escape_starts: Vec<usize>,
    /// The largest input parsed with `buffers`, whose capacities it sets (simd-json does
    /// not tell them).
    buffers_for: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser {
            input: Vec::new(),
            // No nesting limit in the parser: lowering checks depth against
            // `Limits::max_depth` (which may be set above simd-json's default of 1024) and
            // reports where the limit was passed. The parser's stack is bounded by the
            // number of structurals, so this is linear either way.
            buffers: Buffers::with_max_depth(128, usize::MAX),
            tape: Vec::new(),
            escapes: Vec::new(),
            escape_starts: Vec::new(),
            buffers_for: 0,
        }
    }
}

/// The UTF-8 byte order mark, which editors and Windows tools put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `input` without a leading UTF-8 byte order mark, and how many bytes that took off. RFC
/// 8259 §8.1: a JSON parser "MAY ignore the presence of a byte order mark rather than
/// treating it as an error"; simd-json treats it as one, so it is taken off before parsing.
pub(crate) fn strip_bom(input: &[u8]) -> (&[u8], usize) {
    match input.strip_prefix(BOM) {
        Some(rest) => (rest, BOM.len()),
        None => (input, 0),
    }
}

/// Bytes per bit of the escape map.
pub(crate) const ESCAPE_BLOCK: usize = 16;

/// A parsed document: the tape plus what lowering needs to recover number text, and what
/// emission needs to tell which strings were written without escapes (see
/// [`crate::emit::Source`]).
pub(crate) struct Doc<'a> {
    /// The tape, one node per value (and per key) in document order.
    pub tape: Vec<Node<'a>>,
    /// Byte offsets of every structural token (stage 1 of simd-json).
    pub structurals: &'a [u32],
    /// One bit per [`ESCAPE_BLOCK`] bytes of input, set where an escape sequence starts.
    pub escapes: &'a [u64],
    /// Where each escape sequence of the input starts, in input order: emission copies a
    /// string written with escapes by visiting just its own (see [`crate::emit::Source`]).
    pub escape_starts: &'a [usize],
    /// The address of the input copy the tape's strings point into: simd-json decodes each
    /// string in place, starting where its text starts in the input.
    pub base: usize,
}

impl Parser {
    /// Parses `src`. The returned tape borrows this parser's input copy; hand it back with
    /// [`Parser::recycle`] so its allocation is reused.
    ///
    /// # Errors
    /// Beyond simd-json's: input over `max_bytes`; input nested deeper than `max_depth`,
    /// found before the tape is built (see [`too_deep`]); lone surrogates; NUL bytes.
    pub fn parse<'a>(
        &'a mut self,
        src: &[u8],
        max_bytes: usize,
        max_depth: usize,
    ) -> Result<Doc<'a>, Failure> {
        if src.len() > max_bytes {
            return Err(ErrorKind::InputTooLarge { size: src.len(), limit: max_bytes }.into());
        }
        if src.iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            return Err(ErrorKind::EmptyInput.into());
        }
        if src.len() > DEPTH_SCAN_FROM
            && let Some(at) = too_deep(src, max_depth)
        {
            return Err(Failure {
                kind: ErrorKind::DepthLimit { limit: max_depth },
                pointer: pointer_at(src, at),
            });
        }
        self.escapes.clear();
        self.escapes.resize(src.len() / (ESCAPE_BLOCK * 64) + 1, 0);
        self.escape_starts.clear();
        check_escapes_and_nul(src, &mut self.escapes, &mut self.escape_starts)?;
        self.buffers_for = self.buffers_for.max(src.len());
        // The one copy of the input: simd-json decodes strings in place, and parses it where it
        // is (`fill_tape_padded`) when the padding after it is ours, instead of copying it
        // again into an aligned buffer of its own.
        self.input.clear();
        self.input.reserve(src.len() + simd_json::INPUT_PADDING);
        self.input.extend_from_slice(src);
        self.input.resize(src.len() + simd_json::INPUT_PADDING, b' ');
        let base = self.input.as_ptr() as usize;
        let mut tape = simd_json::Tape(recycle(std::mem::take(&mut self.tape)));
        match simd_json::fill_tape_padded(&mut self.input, src.len(), &mut self.buffers, &mut tape)
        {
            Ok(()) => Ok(Doc {
                tape: tape.0,
                structurals: self.buffers.structural_indexes(),
                escapes: &self.escapes,
                escape_starts: &self.escape_starts,
                base,
            }),
            Err(e) => Err(map_error(&e, src).into()),
        }
    }

    /// About how many bytes the parser keeps between parses: its input copy, tape and escape
    /// lists, and simd-json's buffers (a string buffer and an aligned input copy the size of
    /// the largest input, and its structural indexes, estimated at one per four bytes).
    pub fn retained_bytes(&self) -> usize {
        self.input.capacity()
            + self.tape.capacity() * std::mem::size_of::<Node<'static>>()
            + self.escapes.capacity() * std::mem::size_of::<u64>()
            + self.escape_starts.capacity() * std::mem::size_of::<usize>()
            + self.buffers_for * 3
    }

    /// Takes an emptied tape back (see [`recycle`]) so its allocation serves the next parse.
    pub fn put_back(&mut self, tape: Vec<Node<'static>>) {
        self.tape = tape;
    }
}

/// Why a parse failed, and where when a pointer is known (the depth limit's).
#[derive(Debug)]
pub(crate) struct Failure {
    pub kind: ErrorKind,
    /// RFC 6901 pointer of the place, `""` when only a byte offset is known (in `kind`).
    pub pointer: String,
}

impl From<ErrorKind> for Failure {
    fn from(kind: ErrorKind) -> Self {
        Failure { kind, pointer: String::new() }
    }
}

/// Inputs up to this size are not scanned for depth before parsing: their tape is at most
/// about 9 MiB (16 bytes per value, a value per two input bytes at most), and lowering finds
/// the depth with the place's pointer. Above it, the tape of a deeply nested input would be
/// built whole before lowering saw the nesting, so the scan refuses it first. The scan runs
/// at about 600–700 MB/s, a fifth of a large conversion's time, which typical catalogs (tens
/// to hundreds of KiB) are spared.
const DEPTH_SCAN_FROM: usize = 1 << 20;

/// The offset of the first `{` or `[` that opens more than `max_depth` containers, if any:
/// the measure lowering holds nesting to (the document root counts one). Strings are skipped
/// whole, so brackets inside them do not count. Linear, allocates nothing; on input that is
/// not JSON the answer may be wrong, and the parser then reports the syntax error.
pub(crate) fn too_deep(src: &[u8], max_depth: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = src.get(i) {
        match b {
            b'"' => i = string_end(src, i + 1)?,
            b'{' | b'[' => {
                depth += 1;
                if depth > max_depth {
                    return Some(i);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset of the quote that closes the string whose text starts at `from`.
fn string_end(src: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + memchr::memchr2(b'"', b'\\', src.get(from..)?)?;
        if src.get(at) == Some(&b'"') {
            return Some(at);
        }
        from = at + 2;
    }
}

/// The pointer of the container that opens at `target` (found by [`too_deep`]): the input
/// is walked again, keeping each open container's current key or index. Cold: only a
/// refused input pays it, and its stack holds at most the depth limit's entries.
#[cold]
fn pointer_at(src: &[u8], target: usize) -> String {
    use crate::pointer::{Seg, write_seg};
    // Per open container: `Some(index)` for an array, `None` for an object, with the
    // object's current key span.
    let mut stack: Vec<(Option<usize>, (usize, usize))> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while let Some(&b) = src.get(i) {
        if i == target {
            break;
        }
        match b {
            b'"' => {
                let Some(end) = string_end(src, i + 1) else { break };
                if expect_key && let Some(top) = stack.last_mut() {
                    top.1 = (i, end + 1);
                    expect_key = false;
                }
                i = end;
            }
            b'{' => {
                stack.push((None, (0, 0)));
                expect_key = true;
            }
            b'[' => stack.push((Some(0), (0, 0))),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some((Some(index), _)) => *index += 1,
                Some((None, _)) => expect_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut out = String::new();
    for (index, (start, end)) in stack {
        match index {
            Some(index) => write_seg(&mut out, Seg::Index(index)),
            None => {
                let quoted = src.get(start..end).unwrap_or_default();
                let key: String = serde_json::from_slice(quoted).unwrap_or_default();
                write_seg(&mut out, Seg::Key(&key));
            }
        }
    }
    out
}

/// Re-types an emptied tape vector to another lifetime, keeping its allocation: the in-place
/// `collect` specialisation reuses the buffer because the element layout is the same.
pub(crate) fn recycle<'b>(mut v: Vec<Node<'_>>) -> Vec<Node<'b>> {
    v.clear();
    #[allow(clippy::unnecessary_filter_map, reason = "the closure changes the element's lifetime")]
    v.into_iter().filter_map(|_| None).collect()
}

/// The error for simd-json's `e` on `src`, at the place it is: the first byte that is not
/// UTF-8; for a syntax error its stage one finds (which it reports at byte 0), the place
/// [`locate_syntax`] finds (the end of a cut-off input, a control character in a string).
#[cold]
fn map_error(e: &simd_json::Error, src: &[u8]) -> ErrorKind {
    match e.error() {
        simd_json::ErrorType::InvalidUtf8 => {
            let offset = std::str::from_utf8(src).err().map_or(e.index(), |u| u.valid_up_to());
            ErrorKind::InvalidUtf8 { offset, line: 0, column: 0 }
        }
        simd_json::ErrorType::Syntax | simd_json::ErrorType::Eof
            if let Some((offset, message)) = locate_syntax(src) =>
        {
            ErrorKind::json(offset, message)
        }
        other => ErrorKind::json(e.index(), describe(other)),
    }
}

/// Where the input's strings and containers go wrong, by one pass over its bytes: a control
/// character inside a string, or an end of input inside a string or an open object or array
/// (a cut-off file). `None` when neither is found (the parser's own place then stands).
#[cold]
fn locate_syntax(src: &[u8]) -> Option<(usize, String)> {
    let (mut in_string, mut escaped) = (false, false);
    let mut open: Vec<u8> = Vec::new();
    for (i, &b) in src.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                0..0x20 => {
                    let what = "a control character in a string (write it as an escape: `\\n`)";
                    return Some((i, what.to_owned()));
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => open.push(b),
            b'}' | b']' => {
                open.pop();
            }
            _ => {}
        }
    }
    let end = src.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    if in_string {
        return Some((end, "unexpected end of input: a string is not closed".to_owned()));
    }
    let what = match open.last()? {
        b'{' => "an object",
        _ => "an array",
    };
    Some((end, format!("unexpected end of input: {what} is not closed ({} open)", open.len())))
}

/// The parser's reason in words a user can act on (the parser's own codes are enum names:
/// `ExpectedTrue` is what a bare word starting with `t` gives).
fn describe(t: &simd_json::ErrorType) -> &'static str {
    use simd_json::ErrorType as E;
    match t {
        E::Eof => "unexpected end of input",
        E::InputTooLarge => "input larger than the parser's 4 GiB limit",
        E::BadKeyType | E::KeyMustBeAString | E::ExpectedObjectKey => {
            "expected a double-quoted string as the object's key"
        }
        E::ExpectedArrayComma => "expected `,` or `]` after an array element",
        E::ExpectedMapComma => "expected `,` or `}` after an object member",
        E::ExpectedObjectColon => "expected `:` after the object key",
        E::ExpectedMapEnd => "expected `}` to end the object",
        E::ExpectedArrayContent => "expected `,` or `]` in the array",
        E::ExpectedObjectContent => "expected `,` or `}` (or a key after `{`) in the object",
        E::ExpectedNull => "not a JSON value (expected `null`; text needs double quotes)",
        E::ExpectedTrue => "not a JSON value (expected `true`; text needs double quotes)",
        E::ExpectedFalse => "not a JSON value (expected `false`; text needs double quotes)",
        E::ExpectedNumber
        | E::InvalidNumber
        | E::InvalidExponent
        | E::ExpectedFloat
        | E::ExpectedInteger
        | E::ExpectedSigned
        | E::ExpectedUnsigned => "number out of range or malformed",
        E::ExpectedString => "expected a double-quoted string",
        E::InvalidEscape => "invalid escape sequence in a string",
        E::InvalidUnicodeEscape => "invalid `\\u` escape in a string",
        E::InvalidUnicodeCodepoint => "invalid Unicode code point in a string escape",
        E::UnterminatedString => "unterminated string",
        E::UnexpectedCharacter => "unexpected character",
        E::NoStructure => "no JSON value found",
        E::Syntax => {
            "malformed JSON (an unclosed string, object or array, or an unescaped control character)"
        }
        E::TrailingData => "unexpected data after the JSON value",
        E::InternalError => "a `]` or `}` that does not match, or a misplaced `,`",
        E::Overflow => "nesting too deep for the parser",
        _ => "malformed JSON",
    }
}

/// Rejects `\uD800`–`\uDFFF` escapes that do not form a high-low pair, and NUL bytes (never
/// valid JSON text; simd-json accepts them after a literal, as padding). Outside strings valid
/// JSON has no backslash, so scanning every backslash escape is exact. Where each escape
/// starts is marked in `escapes` (see [`Doc::escapes`]; sized by the caller) and listed in
/// `starts`.
fn check_escapes_and_nul(
    src: &[u8],
    escapes: &mut [u64],
    starts: &mut Vec<usize>,
) -> Result<(), ErrorKind> {
    let mut i = 0;
    while let Some(at) = crate::scan::next_backslash_or_nul(src, i) {
        if src.get(at) == Some(&0) {
            return Err(ErrorKind::json(at, "NUL byte"));
        }
        let block = at / ESCAPE_BLOCK;
        if let Some(word) = escapes.get_mut(block / 64) {
            *word |= 1 << (block % 64);
        }
        starts.push(at);
        match src.get(at + 1) {
            Some(b'u') => {
                let unit = hex4(src, at + 2);
                match unit {
                    Some(0xD800..=0xDBFF) => {
                        let low =
                            if src.get(at + 6) == Some(&b'\\') && src.get(at + 7) == Some(&b'u') {
                                hex4(src, at + 8)
                            } else {
                                None
                            };
                        if !matches!(low, Some(0xDC00..=0xDFFF)) {
                            return Err(ErrorKind::LoneSurrogate {
                                offset: at,
                                line: 0,
                                column: 0,
                            });
                        }
                        i = at + 12;
                    }
                    Some(0xDC00..=0xDFFF) => {
                        return Err(ErrorKind::LoneSurrogate { offset: at, line: 0, column: 0 });
                    }
                    _ => i = at + 6,
                }
            }
            _ => i = at + 2,
        }
    }
    Ok(())
}

/// Whether an escape may start in `at..end` of the input: a block of `escapes` (see
/// [`Doc::escapes`]) that holds one overlaps the range.
#[inline]
pub(crate) fn escape_within(escapes: &[u64], at: usize, end: usize) -> bool {
    if end <= at {
        return false;
    }
    let (first, last) = (at / ESCAPE_BLOCK, (end - 1) / ESCAPE_BLOCK);
    let span = (u64::MAX << (first % 64)) & (u64::MAX >> (63 - last % 64));
    if first / 64 == last / 64 {
        // Nearly every string: its blocks are bits of one word.
        return escapes.get(first / 64).is_some_and(|bits| bits & span != 0);
    }
    (first / 64..=last / 64).any(|w| {
        let mut bits = escapes.get(w).copied().unwrap_or(0);
        if w == first / 64 {
            bits &= u64::MAX << (first % 64);
        }
        if w == last / 64 {
            bits &= u64::MAX >> (63 - last % 64);
        }
        bits != 0
    })
}

fn hex4(src: &[u8], at: usize) -> Option<u32> {
    let digits = src.get(at..at + 4)?;
    let mut v = 0u32;
    for &d in digits {
        v = v * 16 + (d as char).to_digit(16)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &[u8]) -> Result<(), ErrorKind> {
        check_escapes_and_nul(src, &mut [0; 4], &mut Vec::new())
    }

    #[test]
    fn a_leading_bom_is_stripped_once() {
        assert_eq!(strip_bom(b"\xEF\xBB\xBF{}"), (&b"{}"[..], 3));
        assert_eq!(strip_bom(b"{}"), (&b"{}"[..], 0));
        // Only at the start, and only one.
        let twice = b"\xEF\xBB\xBF\xEF\xBB\xBF{}";
        assert_eq!(strip_bom(twice), (&twice[3..], 3));
    }

    #[test]
    fn surrogates() {
        assert!(check(br#""\ud83d\ude00""#).is_ok());
        assert!(check(br#""\\ud800""#).is_ok(), "escaped backslash, not an escape");
        assert_eq!(
            check(br#"["\ud800"]"#),
            Err(ErrorKind::LoneSurrogate { offset: 2, line: 0, column: 0 })
        );
        assert!(check(br#""\udc00""#).is_err());
        assert!(check(br#""\ud800\u0041""#).is_err());
    }

    #[test]
    fn escapes_are_marked_by_block() {
        let mut src = br#"["a\\b\n", "\ud83d\ude00", "c""#.to_vec();
        src.resize(40, b' ');
        src.extend_from_slice(br#", "\t"]"#);
        let (mut escapes, mut starts) = ([0u64; 1], Vec::new());
        assert!(check_escapes_and_nul(&src, &mut escapes, &mut starts).is_ok());
        // Escapes at 3, 6 and 12 (block 0), and 43 (block 2); the low surrogate's `\` at 18
        // belongs to the pair started at 12.
        assert_eq!(escapes, [0b101]);
        assert_eq!(starts, [3, 6, 12, 43]);
    }

    /// Emission writes a string with no escape in the input without scanning it, which holds
    /// only while simd-json decodes every string in place, where its text starts.
    #[test]
    fn strings_are_decoded_in_place() {
        let src = br#"{"plain":"text","esc\"aped":"a\nb\u00e9c"}"#;
        let mut p = Parser::default();
        let starts: Vec<(usize, &str)> = p
            .parse(src, usize::MAX, usize::MAX)
            .map(|doc| {
                let at = |s: &str| s.as_ptr() as usize - doc.base;
                let strings = doc.tape.iter().filter_map(|n| match n {
                    Node::String(s) => Some((at(s), *s)),
                    _ => None,
                });
                strings.collect()
            })
            .unwrap_or_default();
        assert_eq!(starts, [(2, "plain"), (10, "text"), (17, "esc\"aped"), (29, "a\nbéc")]);
    }

    #[test]
    fn depth_scan_counts_containers_outside_strings() {
        assert_eq!(too_deep(b"[[1]]", 2), None);
        assert_eq!(too_deep(b"[[[1]]]", 2), Some(2));
        assert_eq!(too_deep(br#"[{"a":[]}]"#, 2), Some(6));
        // Brackets inside strings, escaped quotes too, do not count.
        assert_eq!(too_deep(br#"["[[[\"[[[", "\\", {}]"#, 2), None);
        // Closed containers give their depth back.
        assert_eq!(too_deep(b"[[],[],[[]]]", 3), None);
    }

    #[test]
    fn a_deep_input_is_refused_before_the_tape_with_its_pointer() {
        let filler = " ".repeat(DEPTH_SCAN_FROM);
        let src = format!(r#"{{"a~/":[0,{{"k\"":[[[[1]]]]}}],"f":"{filler}"}}"#);
        let mut p = Parser::default();
        let e = p.parse(src.as_bytes(), usize::MAX, 5).err();
        let e = e.map(|f| (f.kind, f.pointer));
        assert_eq!(e, Some((ErrorKind::DepthLimit { limit: 5 }, "/a~0~1/1/k\"/0/0".to_owned())));
        // Nothing was copied or parsed.
        assert_eq!(p.input.capacity(), 0);
    }

    #[test]
    fn tape_allocation_is_reused() {
        let mut p = Parser::default();
        let doc = p.parse(br#"{"a":[1,2,3]}"#, usize::MAX, usize::MAX).map(|d| d.tape);
        let tape = recycle(doc.unwrap_or_default());
        let cap = tape.capacity();
        assert!(cap > 0);
        p.put_back(tape);
        assert_eq!(p.tape.capacity(), cap);
    }
}
