//! Reading: the session that parses a document into a fresh arena and lowers it, tool by
//! tool, through the source format's front end (an importing format translates it first).

use bumpalo::Bump;

use crate::adapter::{Adapter, Imported};
use crate::emit::Source;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::lower::{Lowerer, Reading};
use crate::parse::Parser;

use super::document::{Lowered, lower_document};
use super::unsupported;

/// The reading half of a session: arena, parse buffers and lowering scratch, and what an
/// importing format made of its document.
#[derive(Default)]
pub(super) struct Front {
    pub(super) arena: Bump,
    pub(super) parser: Parser,
    pub(super) scratch: Vec<(u64, u32)>,
    pub(super) imported: Imported,
}

impl Front {
    /// About how many bytes the reading half keeps between conversions.
    pub(super) fn retained_bytes(&self) -> usize {
        self.arena.allocated_bytes()
            + self.parser.retained_bytes()
            + self.scratch.capacity() * std::mem::size_of::<(u64, u32)>()
            + self.imported.retained_bytes()
    }

    /// parse and lower `input`, then hand the lowered document and its arena to `then`. An
    /// importing format first translates the document (see [`Adapter::import`]); the
    /// translation is then read like any input, and errors point into the source document.
    pub(super) fn lower<R>(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        reading: Reading<'_>,
        then: impl for<'a> FnOnce(Lowered<'a>, &'a Bump) -> Result<R, ConversionError>,
    ) -> Result<R, ConversionError> {
        if !from.info().reads {
            return Err(unsupported(from, Direction::ToCanonical));
        }
        let given = input;
        let (input, bom) = crate::parse::strip_bom(input);
        // Cold: a parse error says its offset, line and column in the input as the caller
        // gave it.
        self.lower_from(input, from, reading, then).map_err(|e| e.offset_by(bom).located(given))
    }

    /// [`Front::lower`] once a byte order mark is off the input.
    fn lower_from<R>(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        reading: Reading<'_>,
        then: impl for<'a> FnOnce(Lowered<'a>, &'a Bump) -> Result<R, ConversionError>,
    ) -> Result<R, ConversionError> {
        let Front { arena, parser, scratch, imported } = self;
        let mut session = Session { arena, parser, scratch, reading };
        if !from.info().imports {
            return session.read(input, |lw, arena, source| {
                let mut lowered = lower_document(lw, from)?;
                lowered.source = source;
                then(lowered, arena)
            });
        }
        imported.clear();
        session
            .read(input, |lw, _, _| from.import(lw, imported))
            .map_err(|e| json_only(e, from, input))?;
        let Imported { document, names, positions, .. } = imported;
        let result = session.read(document, |lw, arena, source| {
            let mut lowered = lower_document(lw, from)?;
            lowered.source = source;
            // By the tool's place in the translated catalog, which a tool left out leaves
            // empty.
            for tool in lowered.tools.iter() {
                let i = tool.index as usize;
                names.push((tool.name.to_owned(), i));
                if positions.len() <= i {
                    positions.resize(i + 1, 0);
                }
                if let Some(slot) = positions.get_mut(i) {
                    *slot = tool.at;
                }
            }
            names.sort_unstable();
            then(lowered, arena)
        });
        result.map_err(|e| imported.remap_error(e))
    }
}

/// What reading one document needs.
pub(super) struct Session<'s> {
    pub(super) arena: &'s mut Bump,
    pub(super) parser: &'s mut Parser,
    pub(super) scratch: &'s mut Vec<(u64, u32)>,
    /// What lowering is told: in a conversion, the target's key rule, which it tests
    /// property keys against, and the members it drops whole, which it leaves unread.
    pub(super) reading: Reading<'s>,
}

impl Session<'_> {
    /// Parses `input` into a fresh arena and hands a lowerer over it to `f`. The tape's
    /// allocation is taken back whatever `f` returns.
    pub(super) fn read<R>(
        &mut self,
        input: &[u8],
        f: impl for<'a> FnOnce(&mut Lowerer<'a, '_>, &'a Bump, Source<'a>) -> Result<R, ConversionError>,
    ) -> Result<R, ConversionError> {
        let limits = self.reading.limits;
        self.arena.reset();
        self.arena.set_allocation_limit(Some(limits.max_arena_bytes));
        let name = self.reading.format;
        let doc = self
            .parser
            .parse(input, limits.max_input_bytes, limits.depth_limit())
            .map_err(|f| ConversionError::new(name, Direction::ToCanonical, f.pointer, f.kind))?;
        let arena: &Bump = self.arena;
        let source = Source {
            base: doc.base,
            src: input,
            escapes: doc.escapes,
            escape_starts: doc.escape_starts,
        };
        let result = {
            let mut lw = Lowerer::new(&doc, input, arena, self.scratch, self.reading);
            f(&mut lw, arena, source)
        };
        let tape = crate::parse::recycle(doc.tape);
        self.parser.put_back(tape);
        result
    }
}

/// An importing format's parse error on input that does not start like JSON says that only
/// JSON is read (a YAML OpenAPI document is the usual case).
#[cold]
pub(super) fn json_only(e: ConversionError, from: &dyn Adapter, input: &[u8]) -> ConversionError {
    let first = input.iter().find(|b| !b.is_ascii_whitespace());
    match e.kind() {
        ErrorKind::Json { offset, message, .. } if !matches!(first, Some(b'{' | b'[')) => {
            ConversionError::new(
                from.name(),
                Direction::ToCanonical,
                e.pointer(),
                ErrorKind::json(
                    *offset,
                    format!(
                        "{message}; the {} format reads JSON documents only (YAML is not supported: convert the document to JSON first)",
                        from.name()
                    ),
                ),
            )
        }
        _ => e,
    }
}
