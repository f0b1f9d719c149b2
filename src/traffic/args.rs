//! Arguments given as JSON text (OpenAI's `arguments` string) read into a value when a map
//! or a target needs their structure: parsed by the crate's parser and lowered by its lowering
//! (numbers kept as their text, duplicate keys refused, the depth limit held), then copied into
//! the conversion's arena, since the text's own parse buffers are reused for the next one.

use bumpalo::Bump;

use crate::error::{ErrorKind, line_column};
use crate::ir::{Json, Member};
use crate::lower::{Lowerer, Reading};
use crate::options::Limits;
use crate::parse::Parser;
use crate::pointer::Path;

/// A parser kept for argument texts, with its lowering scratch.
#[derive(Default)]
pub(crate) struct ArgParser {
    parser: Parser,
    scratch: Vec<(u64, u32)>,
}

impl ArgParser {
    /// About how many bytes it keeps between conversions.
    pub(crate) fn retained_bytes(&self) -> usize {
        self.parser.retained_bytes() + self.scratch.capacity() * 12
    }

    /// `text` read as a JSON value in `arena`. Empty text is the empty object (OpenAI sends
    /// `""` for a call without arguments while it streams, and some providers keep it).
    ///
    /// # Errors
    /// The text is not JSON (the error's kind says where in the text), or breaks a limit.
    pub(crate) fn value<'a>(
        &mut self,
        text: &str,
        arena: &'a Bump,
        limits: &Limits,
        format: &str,
    ) -> Result<Json<'a>, ErrorKind> {
        if text.trim().is_empty() {
            return Ok(Json::Object(&[]));
        }
        let doc = self
            .parser
            .parse(text.as_bytes(), limits.max_input_bytes, limits.max_depth)
            .map_err(|f| located(f.kind, text))?;
        let result = {
            let mut lw = Lowerer::new(
                &doc,
                text.as_bytes(),
                arena,
                &mut self.scratch,
                Reading::own(format, limits),
            );
            lw.json(0, &Path::ROOT, 0).map_err(|e| e.kind().clone())
        };
        let copied = result.and_then(|v| copy(&v, arena).ok_or_else(|| arena_full(arena)));
        let tape = crate::parse::recycle(doc.tape);
        self.parser.put_back(tape);
        copied
    }
}

/// A parse error's line and column in the argument text (the message says where in the text
/// the JSON broke; the error's pointer says which call).
#[cold]
fn located(mut kind: ErrorKind, text: &str) -> ErrorKind {
    if let ErrorKind::Json { offset, line, column, .. }
    | ErrorKind::LoneSurrogate { offset, line, column } = &mut kind
    {
        (*line, *column) = line_column(text.as_bytes(), *offset);
    }
    kind
}

#[cold]
fn arena_full(arena: &Bump) -> ErrorKind {
    ErrorKind::ArenaLimit { limit: arena.allocation_limit().unwrap_or(0) }
}

/// `v` with every string and key copied into `arena` (the parser's buffer they point into is
/// reused). Numbers point into the text, which outlives the conversion's arena use. `None` at
/// the arena limit. Depth is bounded by the lowering that made `v`.
fn copy<'a>(v: &Json<'_>, arena: &'a Bump) -> Option<Json<'a>> {
    Some(match *v {
        Json::Null => Json::Null,
        Json::Bool(b) => Json::Bool(b),
        Json::Number(n) => Json::Number(arena.try_alloc_str(n).ok()?),
        Json::String(s) => Json::String(arena.try_alloc_str(s).ok()?),
        Json::Array(items) => {
            let out = arena.try_alloc_slice_fill_copy(items.len(), Json::Null).ok()?;
            for (slot, item) in out.iter_mut().zip(items) {
                *slot = copy(item, arena)?;
            }
            Json::Array(out)
        }
        Json::Object(members) => {
            let empty = Member { key: "", value: Json::Null };
            let out = arena.try_alloc_slice_fill_copy(members.len(), empty).ok()?;
            for (slot, m) in out.iter_mut().zip(members) {
                *slot =
                    Member { key: arena.try_alloc_str(m.key).ok()?, value: copy(&m.value, arena)? };
            }
            Json::Object(out)
        }
    })
}
