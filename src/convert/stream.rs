//! Where streams meet the formats and the traffic options: [`StreamTranscoder::new`] picks
//! the formats' stream grammars, the map's direction and the id rule; `assemble` reads a
//! stream's calls; the definitions' map is applied to streamed calls through the stream
//! core's `CallMap`, implemented here over the traffic pipeline's map helpers.

use bumpalo::Bump;

use crate::adapter::Adapter;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::inverse::Inverse;
use crate::ir::Json;
use crate::stream::{
    AssembledCall, CallMap, Core, Output, Setup, StreamError, StreamFormat, StreamLimits,
    StreamTranscoder,
};
use crate::traffic::MapDirection;

use super::TrafficOptions;
use super::traffic::maps;

/// A map (borrowed from the options, or shared: [`StreamTranscoder::with_shared_map`]) and
/// the way it is applied.
struct Mapped<M> {
    map: M,
    direction: MapDirection,
}

impl<M: std::ops::Deref<Target = Inverse> + Send> CallMap for Mapped<M> {
    fn tool(&self, name: &str) -> Option<usize> {
        let tool = maps::tool(&self.map, self.direction, name)?;
        self.map.tools.iter().position(|t| std::ptr::eq(t, tool))
    }
    fn name(&self, i: usize) -> &str {
        self.map.tools.get(i).map_or("", |t| maps::name_of(t, self.direction))
    }
    fn rewrites(&self, i: usize) -> bool {
        self.map.tools.get(i).is_some_and(|t| t.arguments.is_some())
    }
    fn arguments<'a>(&self, i: usize, args: Json<'a>, arena: &'a Bump) -> Option<Json<'a>> {
        maps::arguments(self.map.tools.get(i)?, self.direction, args, arena)
    }
}

fn stream_of(
    adapter: &dyn Adapter,
    direction: Direction,
) -> Result<&'static dyn StreamFormat, StreamError> {
    adapter.stream().ok_or_else(|| {
        StreamError::Setup(ConversionError::new(
            adapter.name(),
            direction,
            "",
            ErrorKind::NotConvertible("the format has no model stream".into()),
        ))
    })
}

impl<'m> StreamTranscoder<'m> {
    /// A transcoder from `from`'s stream to `to`'s. `options` gives the definitions' map
    /// (calls mapped through it: names at once, arguments held to the call's end), a
    /// stricter id rule, and the parse limits.
    ///
    /// # Errors
    /// [`StreamError::Setup`] when a format has no stream, or the map names neither format
    /// and no direction is given.
    pub fn new(
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &TrafficOptions<'m>,
    ) -> Result<Self, StreamError> {
        let map: Option<Box<dyn CallMap + 'm>> = match options.map {
            Some(map) => {
                let direction = mapped(map, from, to, options)?;
                Some(Box::new(Mapped { map, direction }))
            }
            None => None,
        };
        Self::with_map(from, to, options, map)
    }

    /// [`StreamTranscoder::new`] with the map already made (or none).
    fn with_map(
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &TrafficOptions<'_>,
        map: Option<Box<dyn CallMap + 'm>>,
    ) -> Result<Self, StreamError> {
        let src = stream_of(from, Direction::ToCanonical)?;
        let dst = stream_of(to, Direction::FromCanonical)?;
        let same = std::ptr::addr_eq(src, dst);
        let verbatim = same && map.is_none() && options.id_rule.is_none();
        let id_rule = if same {
            options.id_rule
        } else {
            options.id_rule.or_else(|| to.traffic().map(|t| t.rules().ids))
        };
        let core = Core::new(Setup {
            from: from.name().to_owned(),
            to: to.name().to_owned(),
            writer: Some((dst.writer(), dst.grammar())),
            output: Output::Sse,
            verbatim,
            map,
            id_rule,
            limits: StreamLimits::default(),
            parse_limits: options.options.limits.clone(),
        });
        Ok(Self::build(src, core))
    }
}

/// The way `map` is applied to a stream from `from` to `to`.
fn mapped(
    map: &Inverse,
    from: &dyn Adapter,
    to: &dyn Adapter,
    options: &TrafficOptions<'_>,
) -> Result<MapDirection, StreamError> {
    super::map_direction(map, from.name(), to.name(), options.direction).map_err(StreamError::Setup)
}

impl StreamTranscoder<'static> {
    /// As [`StreamTranscoder::new`], with `map` in place of [`TrafficOptions::map`] (which is
    /// not read) and held by the transcoder: one that outlives the options it was made from
    /// (an async task's, a binding's object) maps its calls without borrowing.
    ///
    /// # Errors
    /// As [`StreamTranscoder::new`].
    pub fn with_shared_map(
        from: &dyn Adapter,
        to: &dyn Adapter,
        options: &TrafficOptions<'_>,
        map: std::sync::Arc<Inverse>,
    ) -> Result<Self, StreamError> {
        let direction = mapped(&map, from, to, options)?;
        Self::with_map(from, to, options, Some(Box::new(Mapped { map, direction })))
    }
}

impl StreamTranscoder<'_> {
    /// The calls a stream of `from`'s carries, as its own reader assembles them (ids and names
    /// as the stream gave them): what a test compares a transcoded stream's calls with.
    ///
    /// # Errors
    /// As [`StreamTranscoder::push`].
    pub fn assemble(input: &[u8], from: &dyn Adapter) -> Result<Vec<AssembledCall>, StreamError> {
        let src = stream_of(from, Direction::ToCanonical)?;
        let mut core = Core::new(Setup {
            from: from.name().to_owned(),
            to: from.name().to_owned(),
            writer: None,
            output: Output::Json,
            verbatim: false,
            map: None,
            id_rule: None,
            limits: StreamLimits::default(),
            parse_limits: crate::options::Limits::default(),
        });
        core.collect = Some(Vec::new());
        let mut t = StreamTranscoder::build(src, core);
        let mut sink = std::io::sink();
        t.push(input, &mut sink)?;
        t.finish(&mut sink)?;
        Ok(t.take_assembled())
    }
}
