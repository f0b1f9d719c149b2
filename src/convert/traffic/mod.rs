//! The traffic pipeline ([`Converter::convert_traffic`]): parse → lower the whole payload →
//! the source's traffic reader → `prepare` (maps, ids, pairing, what the target cannot
//! carry) → the target's traffic writer, or for the same format the source written back with
//! what changed replaced. A request body's tool definitions go through the definitions
//! pipeline first; its map then carries the history's calls forward.
//!
//! - `maps.rs`: calls through a definitions conversion's map.
//! - `prepare/`: the payload made fit for the target.

use crate::adapter::Adapter;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::inverse::Inverse;
use crate::ir::Json;
use crate::ir::traffic::Payload;
use crate::lower::Reading;
use crate::options::Options;
use crate::pointer::Path;
use crate::traffic::note::Notes;
use crate::traffic::{
    ArgParser, IdRule, Ids, MapDirection, Out, Patch, Reader, TrafficConversion, TrafficFormat,
    TrafficKind, write_patched,
};

use super::Converter;
use super::read::Session;
use prepare::{Pass, prepare};

pub(crate) mod maps;
mod prepare;

/// How a traffic conversion goes.
#[derive(Clone, Debug, Default)]
pub struct TrafficOptions<'m> {
    /// The payload's kind; `None` tells it from the payload's shape.
    pub kind: Option<TrafficKind>,
    /// A definitions conversion's map ([`crate::Conversion::inverse`], `convert --map-out`):
    /// calls are mapped through it.
    pub map: Option<&'m Inverse>,
    /// Which way the map is applied; `None` decides from the formats: calls read from the
    /// map's target go back, calls written to it go forward.
    pub direction: Option<MapDirection>,
    /// Ids an earlier conversion rewrote or made ([`TrafficConversion::ids`]): those ids are
    /// given back as they were.
    pub ids: Option<&'m Ids>,
    /// A stricter id rule than the target format's (an OpenAI-compatible endpoint that wants
    /// nine alphanumerics: `formats::rules::openai::NINE_ALPHANUMERIC_IDS`).
    pub id_rule: Option<IdRule>,
    /// Limits, pretty output, the loss rule (`deny_loss`), and how a request body's tool
    /// definitions are converted.
    pub options: Options,
}

/// What a converter keeps for traffic between calls.
#[derive(Default)]
pub(super) struct TrafficState {
    pub(super) conversion: TrafficConversion,
    args: ArgParser,
    patches: Vec<Patch<'static>>,
    text: String,
    bytes: Vec<u8>,
    /// A request body's tool definitions, as read and as converted.
    tools_in: Vec<u8>,
    tools_out: Vec<u8>,
}

impl TrafficState {
    pub(super) fn retained_bytes(&self) -> usize {
        self.conversion.retained_bytes()
            + self.args.retained_bytes()
            + self.patches.capacity() * std::mem::size_of::<Patch<'static>>()
            + self.text.capacity()
            + self.bytes.capacity()
            + self.tools_in.capacity()
            + self.tools_out.capacity()
    }
}

/// The formats a traffic conversion reads and writes.
#[derive(Clone, Copy)]
struct Ends<'e> {
    from: &'e dyn Adapter,
    to: &'e dyn Adapter,
    src: &'static dyn TrafficFormat,
    dst: &'static dyn TrafficFormat,
    /// One format, so the source is written back.
    same: bool,
}

#[cold]
fn no_traffic(adapter: &dyn Adapter, direction: Direction, why: String) -> ConversionError {
    ConversionError::new(adapter.name(), direction, "", ErrorKind::NotConvertible(why))
}

impl Converter {
    /// Converts tool traffic (calls, results, a conversation or a response) from one
    /// provider's format to another's: calls mapped through a definitions conversion's map
    /// ([`TrafficOptions::map`]), ids made to obey the target's rule, what the target cannot
    /// carry reported, the same kind written in the target's shape.
    ///
    /// ```
    /// use tooladapter::Converter;
    /// use tooladapter::formats::{Anthropic, OpenAi};
    /// use tooladapter::TrafficOptions;
    ///
    /// let calls = br#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}"#;
    /// let mut converter = Converter::new();
    /// let out = converter.convert_traffic(calls, &OpenAi, &Anthropic, &TrafficOptions::default())?;
    /// assert_eq!(
    ///     out.output_str(),
    ///     r#"{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}]}"#
    /// );
    /// # Ok::<(), tooladapter::ConversionError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ConversionError`] when a format has no traffic (or not this kind), the input is
    /// not a payload of the source format (with the pointer of the bad place), a call's
    /// arguments that must be read are not a JSON object, or the target cannot be written
    /// without something the input lacks (a Gemini result's tool name).
    pub fn convert_traffic(
        &mut self,
        input: &[u8],
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &TrafficOptions<'_>,
    ) -> Result<&TrafficConversion, ConversionError> {
        let Some(src) = from.traffic() else {
            return Err(no_traffic(
                from,
                Direction::ToCanonical,
                "the format has no tool traffic".into(),
            ));
        };
        let Some(dst) = to.traffic() else {
            return Err(no_traffic(
                to,
                Direction::FromCanonical,
                "the format has no tool traffic".into(),
            ));
        };
        // The formats' names, as the definitions route decides it: the traffic formats are
        // zero-sized statics, whose addresses may coincide.
        let same = crate::adapter::EmitContext::new(from.info(), to.info()).same_format();
        self.start();
        let result = self.traffic_in(input, Ends { from, to, src, dst, same }, options);
        self.retain();
        result.map(|()| &self.traffic.conversion)
    }

    fn traffic_in(
        &mut self,
        input: &[u8],
        ends: Ends<'_>,
        options: &TrafficOptions<'_>,
    ) -> Result<(), ConversionError> {
        self.traffic.conversion.clear();
        self.traffic.conversion.deny = options.options.deny_loss;
        let kind = self.traffic_kind(input, ends, options)?;
        self.traffic.conversion.kind = Some(kind);
        for (fmt, adapter, direction) in [
            (ends.src, ends.from, Direction::ToCanonical),
            (ends.dst, ends.to, Direction::FromCanonical),
        ] {
            if !fmt.rules().kinds.contains(&kind) {
                let why = format!("the format has no {kind} payloads");
                return Err(no_traffic(adapter, direction, why));
            }
        }
        // A request body's tools: converted first, their map carrying the history forward.
        let mut tools_map = None;
        if kind == TrafficKind::Messages && !ends.same {
            tools_map = self.request_tools(input, ends, options)?;
        }
        let map = match options.map {
            Some(map) => Some((map, direction(map, ends, options.direction)?)),
            None => tools_map.as_ref().map(|m| (m, MapDirection::Forward)),
        };
        let (arena, parser, scratch) =
            (&mut self.front.arena, &mut self.front.parser, &mut self.front.scratch);
        let mut session = Session {
            arena,
            parser,
            scratch,
            reading: Reading::own(ends.from.name(), &options.options.limits),
        };
        let state = &mut self.traffic;
        let (name_from, name_to) = (ends.from.name(), ends.to.name());
        session.read(input, |lw, arena, source| {
            let TrafficState { conversion, args, patches, text, bytes, tools_out, .. } = state;
            let root = lw.json(0, &Path::ROOT, 0)?;
            let root: &Json<'_> = arena.try_alloc(root).map_err(|_| {
                lw.error(
                    &Path::ROOT,
                    ErrorKind::ArenaLimit { limit: options.options.limits.max_arena_bytes },
                )
            })?;
            let mut notes = Notes::new(&mut conversion.report, name_from, name_to);
            let payload = {
                let mut rd = Reader::new(arena, (name_from, name_to), ends.same, &mut notes, text);
                ends.src.read(&mut rd, root, kind)?
            };
            let mut list = crate::traffic::recycle_patches(std::mem::take(patches));
            let mut pass = Pass {
                arena,
                from: name_from,
                to: name_to,
                same: ends.same,
                target: ends.dst.rules(),
                id_rule: options.id_rule.unwrap_or(ends.dst.rules().ids),
                map,
                restore: options.ids,
                log: &mut conversion.ids,
                args,
                limits: &options.options.limits,
                notes: &mut notes,
                patches: &mut list,
                text,
                bytes,
            };
            let mut payload = prepare(&mut pass, payload)?;
            if let Payload::Messages(c) = &mut payload
                && c.tools.is_some()
                && !ends.same
            {
                let text = std::str::from_utf8(tools_out).unwrap_or_default();
                let converted = args.value(text, arena, &options.options.limits, name_to);
                c.tools = converted.ok().filter(|_| !text.is_empty());
            }
            drop(notes);
            let out = &mut conversion.output;
            out.reserve(input.len());
            let mut w = crate::emit::Writer::new(out, options.options.pretty).with_source(source);
            if ends.same {
                write_patched(&mut w, bytes, root, &list);
            } else {
                ends.dst.write(&payload, &mut Out::new(&mut w, bytes));
            }
            *patches = crate::traffic::recycle_patches(list);
            Ok(())
        })?;
        self.traffic.conversion.report.finish();
        Ok(())
    }

    /// The payload's kind: given, or told by the source's reader from its shape.
    fn traffic_kind(
        &mut self,
        input: &[u8],
        ends: Ends<'_>,
        options: &TrafficOptions<'_>,
    ) -> Result<TrafficKind, ConversionError> {
        if let Some(kind) = options.kind {
            return Ok(kind);
        }
        let (arena, parser, scratch) =
            (&mut self.front.arena, &mut self.front.parser, &mut self.front.scratch);
        let mut session = Session {
            arena,
            parser,
            scratch,
            reading: Reading::own(ends.from.name(), &options.options.limits),
        };
        session.read(input, |lw, _, _| {
            let root = lw.json(0, &Path::ROOT, 0)?;
            ends.src.detect(&root).ok_or_else(|| {
                let kinds: Vec<&str> = ends.src.rules().kinds.iter().map(|k| k.as_str()).collect();
                lw.error(
                    &Path::ROOT,
                    ErrorKind::Shape(format!(
                        "not a {} payload this reader knows ({}); give the kind",
                        ends.from.name(),
                        kinds.join(", ")
                    )),
                )
            })
        })
    }

    /// Converts a request body's tool definitions (when it has any) from the source format to
    /// the target's with the definitions pipeline, keeping the output for the writer and the
    /// report's entries (their pointers made the body's); returns the conversion's map.
    fn request_tools(
        &mut self,
        input: &[u8],
        ends: Ends<'_>,
        options: &TrafficOptions<'_>,
    ) -> Result<Option<Inverse>, ConversionError> {
        let (arena, parser, scratch) =
            (&mut self.front.arena, &mut self.front.parser, &mut self.front.scratch);
        let mut session = Session {
            arena,
            parser,
            scratch,
            reading: Reading::own(ends.from.name(), &options.options.limits),
        };
        let TrafficState { tools_in, tools_out, text, .. } = &mut self.traffic;
        tools_in.clear();
        tools_out.clear();
        text.clear();
        session.read(input, |lw, _, _| {
            let root = lw.json(0, &Path::ROOT, 0)?;
            if let Some((tools, pointer)) = ends.src.tools(&root) {
                crate::emit::Writer::new(tools_in, false).json(&tools);
                text.push_str(pointer);
            }
            Ok(())
        })?;
        if self.traffic.tools_in.is_empty() {
            return Ok(None);
        }
        let tools = std::mem::take(&mut self.traffic.tools_in);
        let prefix = std::mem::take(&mut self.traffic.text);
        let mut out = std::mem::take(&mut self.traffic.tools_out);
        let converted = self.convert(&tools, ends.from, ends.to, &options.options);
        let result = match converted {
            Ok(c) => {
                out.extend_from_slice(c.output());
                let entries: Vec<_> = c
                    .report()
                    .entries()
                    .iter()
                    .cloned()
                    .map(|mut e| {
                        e.pointer.insert_str(0, &prefix);
                        e
                    })
                    .collect();
                let map = c.inverse().clone();
                self.traffic.conversion.report.extend(entries);
                Ok((!map.is_empty()).then_some(map))
            }
            Err(e) => {
                let pointer = format!("{prefix}{}", e.pointer());
                Err(e.with_pointer(pointer))
            }
        };
        self.traffic.tools_in = tools;
        self.traffic.tools_out = out;
        self.traffic.text = prefix;
        result
    }
}

/// Which way `map` applies to a conversion between `ends`: the caller's, else calls read
/// from the map's target go back, calls written to it go forward.
///
/// # Errors
/// The map is about neither format (it would map nothing, silently).
fn direction(
    map: &Inverse,
    ends: Ends<'_>,
    given: Option<MapDirection>,
) -> Result<MapDirection, ConversionError> {
    map_direction(map, ends.from.name(), ends.to.name(), given)
}

/// Which way `map` applies to traffic from `from` to `to`: as `given`, else back when the
/// calls come from the map's target (or go to its source), forward the other way.
pub(crate) fn map_direction(
    map: &Inverse,
    from: &str,
    to: &str,
    given: Option<MapDirection>,
) -> Result<MapDirection, ConversionError> {
    if let Some(given) = given {
        return Ok(given);
    }
    if map.to == from || map.from == to {
        Ok(MapDirection::Back)
    } else if map.to == to || map.from == from {
        Ok(MapDirection::Forward)
    } else {
        let why = format!(
            "the map is of definitions converted from {} to {}, neither of this conversion's formats: give the map's direction",
            map.from, map.to
        );
        Err(ConversionError::new(from, Direction::ToCanonical, "", ErrorKind::InvalidOptions(why)))
    }
}

impl TrafficState {
    /// Gives back every buffer but the last conversion's, which the caller may be reading.
    pub(super) fn release(&mut self) {
        let conversion = std::mem::take(&mut self.conversion);
        *self = TrafficState { conversion, ..TrafficState::default() };
    }
}
