//! Splitting a byte stream into events, however it is chunked: Server-Sent Events (`event:` and
//! `data:` lines, comments, `\n`, `\r\n` or `\r` line ends), JSON values one after another (JSON
//! lines), or the elements of one JSON array. The framing is told from the first byte that is
//! not white space. Only the event being read is held, and it is bounded: a line or value
//! longer than the limit is an error, not an allocation.

/// What the stream's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Nothing but white space read yet.
    Unknown,
    /// Server-Sent Events.
    Sse,
    /// JSON values, at the top level or (`array`) inside one array.
    Values { array: bool },
    /// The array ended: only white space may follow.
    Closed,
}

/// Why the bytes cannot be split into events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameError {
    /// An event (or SSE line) longer than the limit.
    TooLarge,
    /// Bytes that are not an event where one should start.
    NotAnEvent,
}

/// The event splitter.
pub(crate) struct Framer {
    mode: Mode,
    max: usize,
    /// SSE: the line being read; values: the value being read.
    buf: Vec<u8>,
    /// SSE: the event's name and data.
    name: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    /// SSE: the last byte was a `\r` (a `\n` right after it ends no second line).
    after_cr: bool,
    /// Values: nesting depth in the value being read, and string state.
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// A leading byte order mark is being skipped (bytes of it seen).
    bom: u8,
}

impl Framer {
    /// A splitter holding at most `max` bytes of one event.
    pub(crate) fn new(max: usize) -> Self {
        Framer {
            mode: Mode::Unknown,
            max,
            buf: Vec::new(),
            name: Vec::new(),
            data: Vec::new(),
            has_data: false,
            after_cr: false,
            depth: 0,
            in_string: false,
            escaped: false,
            bom: 0,
        }
    }

    /// Bytes it keeps between pushes.
    pub(crate) fn retained_bytes(&self) -> usize {
        self.buf.capacity() + self.name.capacity() + self.data.capacity()
    }

    /// Splits `chunk`, calling `each(name, data)` for every event it completes.
    pub(crate) fn push<E>(
        &mut self,
        chunk: &[u8],
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<(), Result<E, FrameError>> {
        let mut rest = chunk;
        while let Some((&b, tail)) = rest.split_first() {
            match self.mode {
                Mode::Unknown => {
                    if self.skip_bom(b) || b.is_ascii_whitespace() {
                        rest = tail;
                        continue;
                    }
                    self.mode = match b {
                        b'[' => {
                            rest = tail;
                            Mode::Values { array: true }
                        }
                        b'{' => Mode::Values { array: false },
                        _ => Mode::Sse,
                    };
                }
                Mode::Sse => {
                    rest = self.sse(rest, each)?;
                }
                Mode::Values { array } => {
                    rest = self.values(rest, array, each)?;
                }
                Mode::Closed => {
                    if !b.is_ascii_whitespace() {
                        return Err(Err(FrameError::NotAnEvent));
                    }
                    rest = tail;
                }
            }
        }
        Ok(())
    }

    /// Ends the stream: an event still open without its blank line is dispatched; a JSON
    /// value cut off is an error.
    pub(crate) fn finish<E>(
        &mut self,
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<(), Result<E, FrameError>> {
        match self.mode {
            Mode::Sse => {
                if !self.buf.is_empty() {
                    let line = std::mem::take(&mut self.buf);
                    let r = self.line(&line, each);
                    self.buf = line;
                    self.buf.clear();
                    r?;
                }
                self.dispatch(each)
            }
            Mode::Values { .. } if !self.buf.is_empty() => Err(Err(FrameError::NotAnEvent)),
            _ => Ok(()),
        }
    }

    fn skip_bom(&mut self, b: u8) -> bool {
        const BOM: [u8; 3] = [0xef, 0xbb, 0xbf];
        if BOM.get(usize::from(self.bom)) == Some(&b) {
            self.bom += 1;
            return true;
        }
        false
    }

    /// Reads SSE bytes up to the end of the next line, or all of them.
    fn sse<'c, E>(
        &mut self,
        rest: &'c [u8],
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<&'c [u8], Result<E, FrameError>> {
        if self.after_cr {
            self.after_cr = false;
            if let Some(tail) = rest.strip_prefix(b"\n") {
                return Ok(tail);
            }
        }
        match memchr::memchr2(b'\n', b'\r', rest) {
            None => {
                self.grow::<E>(rest.len())?;
                self.buf.extend_from_slice(rest);
                Ok(&[])
            }
            Some(at) => {
                let (line, tail) = rest.split_at(at);
                self.grow::<E>(line.len())?;
                self.buf.extend_from_slice(line);
                self.after_cr = tail.first() == Some(&b'\r');
                let line = std::mem::take(&mut self.buf);
                let r = self.line(&line, each);
                self.buf = line;
                self.buf.clear();
                r?;
                Ok(tail.get(1..).unwrap_or_default())
            }
        }
    }

    fn grow<E>(&self, more: usize) -> Result<(), Result<E, FrameError>> {
        if self.buf.len() + self.data.len() + more > self.max {
            return Err(Err(FrameError::TooLarge));
        }
        Ok(())
    }

    /// One SSE line.
    fn line<E>(
        &mut self,
        line: &[u8],
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<(), Result<E, FrameError>> {
        if line.is_empty() {
            return self.dispatch(each);
        }
        if line.first() == Some(&b':') {
            return Ok(());
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(at) => {
                let value = line.get(at + 1..).unwrap_or_default();
                (line.get(..at).unwrap_or_default(), value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                if self.data.len() + value.len() + 1 > self.max {
                    return Err(Err(FrameError::TooLarge));
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => {
                self.name.clear();
                self.name.extend_from_slice(value.get(..value.len().min(256)).unwrap_or_default());
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch<E>(
        &mut self,
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<(), Result<E, FrameError>> {
        if !self.has_data {
            self.name.clear();
            return Ok(());
        }
        let name = std::str::from_utf8(&self.name).ok().filter(|n| !n.is_empty());
        let r = each(name, &self.data).map_err(Ok);
        self.name.clear();
        self.data.clear();
        self.has_data = false;
        r
    }

    /// Reads JSON-value bytes up to the end of the next value, or all of them.
    fn values<'c, E>(
        &mut self,
        rest: &'c [u8],
        array: bool,
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<&'c [u8], Result<E, FrameError>> {
        if self.buf.is_empty() {
            // Between values: white space, and commas and the closing bracket of an array.
            let mut i = 0;
            while let Some(&b) = rest.get(i) {
                match b {
                    b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                    b',' if array => i += 1,
                    b']' if array => {
                        self.mode = Mode::Closed;
                        return Ok(rest.get(i + 1..).unwrap_or_default());
                    }
                    b'{' | b'[' | b'"' => break,
                    _ => return Err(Err(FrameError::NotAnEvent)),
                }
            }
            if i == rest.len() {
                return Ok(&[]);
            }
            let rest = rest.get(i..).unwrap_or_default();
            return self.value_bytes(rest, each);
        }
        self.value_bytes(rest, each)
    }

    /// Scans the value being read; dispatches it when it closes.
    fn value_bytes<'c, E>(
        &mut self,
        rest: &'c [u8],
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<&'c [u8], Result<E, FrameError>> {
        let starting = self.buf.is_empty();
        for (i, &b) in rest.iter().enumerate() {
            let first = starting && i == 0;
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.depth == 0 {
                        return self.close_value(rest, i, each);
                    }
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    if self.depth == 0 {
                        return Err(Err(FrameError::NotAnEvent));
                    }
                    self.depth -= 1;
                    if self.depth == 0 {
                        return self.close_value(rest, i, each);
                    }
                }
                _ if first => return Err(Err(FrameError::NotAnEvent)),
                _ => {}
            }
        }
        self.grow::<E>(rest.len())?;
        self.buf.extend_from_slice(rest);
        Ok(&[])
    }

    fn close_value<'c, E>(
        &mut self,
        rest: &'c [u8],
        end: usize,
        each: &mut impl FnMut(Option<&str>, &[u8]) -> Result<(), E>,
    ) -> Result<&'c [u8], Result<E, FrameError>> {
        let (head, tail) = rest.split_at(end + 1);
        self.grow::<E>(head.len())?;
        let r = if self.buf.is_empty() {
            each(None, head)
        } else {
            self.buf.extend_from_slice(head);
            each(None, &self.buf)
        };
        self.buf.clear();
        r.map_err(Ok)?;
        Ok(tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &[u8], step: usize) -> Vec<(Option<String>, String)> {
        let mut f = Framer::new(1 << 20);
        let mut got = Vec::new();
        let mut each = |name: Option<&str>, data: &[u8]| -> Result<(), ()> {
            got.push((name.map(str::to_owned), String::from_utf8_lossy(data).into_owned()));
            Ok(())
        };
        for chunk in input.chunks(step.max(1)) {
            assert!(f.push(chunk, &mut each).is_ok());
        }
        assert!(f.finish(&mut each).is_ok());
        got
    }

    #[test]
    fn every_framing_splits_alike_at_any_chunk_size() {
        let sse = b"event: a\r\ndata: {\"x\":1}\r\n\r\n: comment\n\ndata: [DONE]\rdata: more\r\r";
        let lines = b"{\"x\":\"}\\\"\"}\n{\"y\":[1,{}]}";
        let array = b" [ {\"x\":1} , {\"y\":2} ]\n";
        for step in 1..8 {
            assert_eq!(
                split(sse, step),
                vec![(Some("a".into()), "{\"x\":1}".into()), (None, "[DONE]\nmore".into()),]
            );
            assert_eq!(split(lines, step).len(), 2);
            assert_eq!(
                split(array, step),
                vec![(None, "{\"x\":1}".into()), (None, "{\"y\":2}".into())]
            );
        }
    }

    #[test]
    fn an_event_past_the_limit_is_an_error() {
        let mut f = Framer::new(8);
        let mut each = |_: Option<&str>, _: &[u8]| -> Result<(), ()> { Ok(()) };
        assert_eq!(f.push(b"data: 0123456789\n\n", &mut each), Err(Err(FrameError::TooLarge)));
        let mut f = Framer::new(8);
        assert_eq!(f.push(b"{\"a\":\"0123456789\"}", &mut each), Err(Err(FrameError::TooLarge)));
    }
}
