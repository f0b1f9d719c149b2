//! Catalog splitting: a large catalog cut into chunks of tools that convert independently, and
//! the converted chunks stitched back into exactly what one whole conversion writes.
//!
//! The library starts no threads, so it cannot split work itself; what it can do is say how a
//! catalog splits and whether the pieces add up. A caller makes a [`Split`] of the input,
//! converts chunks of its tools wherever it likes ([`Converter::convert_chunk`], one
//! [`Converter`] per thread) and hands the chunks back, in order, to [`Split::stitch`].
//!
//! Nothing here knows a format by name. Where the source keeps its tool list is its
//! [`FormatInfo::catalog_key`]; how the target frames a catalog is read off a probe written
//! through the conversion's own catalog writer; where a written tool holds its name is the
//! target's [`FormatInfo::name_pointer`]. A split is only ever a shortcut: whenever the chunks
//! might not add up to the whole conversion, [`Split::new`] or [`Split::stitch`] returns
//! `None`, and the caller converts the catalog whole.
//!
//! [`FormatInfo::catalog_key`]: crate::FormatInfo::catalog_key
//! [`FormatInfo::name_pointer`]: crate::FormatInfo::name_pointer

use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::adapter::{Adapter, EmitContext};
use crate::convert::{Conversion, Converter, Layout, write_catalog};
use crate::emit::Writer;
use crate::formats::EMPTY_TOOL;
use crate::inverse::Inverse;
use crate::options::Options;
use crate::profile::ProviderLimits;
use crate::report::{Code, EntryRef, Report, ReportEntry};

#[cfg(test)]
mod tests;

/// A source catalog cut at its tools, ready to be converted chunk by chunk. `Sync`: one split
/// serves every thread converting its chunks.
pub struct Split<'s> {
    from: &'s dyn Adapter,
    to: &'s dyn Adapter,
    options: &'s Options,
    /// Whether chunks carry their inverse map (see [`Split::keep_inverse`]).
    keep_inverse: bool,
    /// Text of a chunk's input before its tools: `[`, or the catalog object up to its list's `[`.
    head: String,
    /// Text of a chunk's input after its tools.
    tail: String,
    /// The source's tools, as text of the input.
    tools: Vec<&'s RawValue>,
    /// How the target writes a catalog around its tools.
    frame: Frame,
    /// The target's name pointer (`FormatInfo::name_pointer`), as the member keys it goes
    /// through.
    name_path: Vec<String>,
}

/// One chunk of a [`Split`], converted and checked to be the target's catalog framing around
/// its tools: what [`Split::stitch`] joins. Owned, so that it can leave the thread (and the
/// converter) that made it.
#[derive(Debug)]
pub struct Chunk {
    /// The source tools it holds (indices into the catalog).
    source: Range<usize>,
    output: Vec<u8>,
    /// Where the written tools (with the separators between them) are in `output`; empty when
    /// the chunk wrote none.
    tools: Range<usize>,
    /// The written tools' names, for the uniqueness check across chunks.
    names: Vec<String>,
    /// The chunk's report, as compact as the conversion kept it.
    report: Report,
    inverse: Inverse,
}

/// What one whole conversion of a split catalog gives, stitched from its chunks.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Stitched {
    /// The converted catalog: the bytes of [`Conversion::output`].
    pub output: Vec<u8>,
    /// The report of [`Conversion::report`]: its entries, in its order, print and serialize
    /// as the whole conversion's do, and [`Report::tool_index`] gives each entry's tool's
    /// place in the whole catalog. The sort key an entry keeps inside the crate is not the
    /// whole conversion's, so compare them printed.
    pub report: Report,
    /// How many tools were written ([`Conversion::tools_written`]).
    pub tools: usize,
    /// The inverse map of [`Conversion::inverse`]; empty unless kept
    /// ([`Split::keep_inverse`]).
    pub inverse: Inverse,
}

impl<'s> Split<'s> {
    /// Whether a catalog converted `from` → `to` can be split at all, from the adapters alone:
    /// cheap, for a caller to ask before reading or parsing a large input. It cannot when the
    /// source imports whole documents (an OpenAPI description is one document: its operations
    /// become a catalog only inside the library), when the target cannot be written, or when
    /// the target (or its strict profile) limits a whole request: the conversion then decides
    /// per tool from running totals over the catalog, which a chunk cannot see. (A dated limit
    /// on a request counts only when the options obey it, which [`Split::new`] reads.)
    pub fn supported(from: &dyn Adapter, to: &dyn Adapter) -> bool {
        let (from, to) = (from.info(), to.info());
        let profiles = [Some(to.profile), to.strict_profile()];
        !from.imports
            && to.writes
            && !profiles.into_iter().flatten().any(|p| limits_span_catalog(p.provider_limits()))
    }

    /// Cuts `input`, a catalog read as `from` and to be written as `to` with `options`, at its
    /// tools; `None` when it cannot be split ([`Split::supported`]), when it is not a catalog
    /// the library would read as one (a tool object, malformed JSON, a catalog object with a
    /// repeated key, an input over the size limit: those answers are the whole conversion's to
    /// give), or when it is a catalog object converted to its own format (the wrapper's other
    /// members are kept around the list then, which the framing here does not model).
    pub fn new(
        input: &'s [u8],
        from: &'s dyn Adapter,
        to: &'s dyn Adapter,
        options: &'s Options,
    ) -> Option<Split<'s>> {
        if !Split::supported(from, to) || input.len() > options.limits.max_input_bytes {
            return None;
        }
        // Obeying the dated limit on tools a request counts the whole catalog.
        if options.dated_limits && to.profile().provider_limits().tools.is_some() {
            return None;
        }
        // A byte order mark is skipped, as the whole conversion skips it.
        let text = std::str::from_utf8(crate::parse::strip_bom(input).0).ok()?;
        let (array, head, tail, tools) = match text.trim_start().as_bytes().first()? {
            b'[' => (true, "[".to_owned(), "]".to_owned(), serde_json::from_str(text).ok()?),
            b'{' => {
                let (head, tail, tools) = cut_object(text, from.info().catalog_key?)?;
                (false, head, tail, tools)
            }
            _ => return None,
        };
        let cx = EmitContext::new(from.info(), to.info());
        // The same format (or family) writes the source's catalog object back, members and
        // all, which the framing here does not model.
        if !array && cx.same_family() {
            return None;
        }
        let frame = Frame::probe(to, &cx, array, options.pretty)?;
        let name_path = pointer_keys(to.info().name_pointer)?;
        Some(Split { from, to, options, keep_inverse: true, head, tail, tools, frame, name_path })
    }

    /// Whether chunks carry their inverse map (on unless turned off): the library builds the
    /// owned map only when asked for it, so a caller that writes no map should not ask.
    #[must_use]
    pub fn keep_inverse(self, keep: bool) -> Self {
        Split { keep_inverse: keep, ..self }
    }

    /// How many tools the catalog holds.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the catalog holds no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The input for the chunk of tools `tools`: the catalog with only those in its list.
    fn chunk_input(&self, tools: Range<usize>) -> Option<Vec<u8>> {
        let tools = self.tools.get(tools)?;
        let len: usize = tools.iter().map(|t| t.get().len() + 1).sum();
        let mut out = Vec::with_capacity(self.head.len() + len + self.tail.len());
        out.extend_from_slice(self.head.as_bytes());
        for (i, tool) in tools.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(tool.get().as_bytes());
        }
        out.extend_from_slice(self.tail.as_bytes());
        Some(out)
    }

    /// Checks `conversion`, of the chunk of source tools `source`, and copies it out; `None`
    /// when a tool was renamed (renaming for uniqueness spans the catalog), a tool was left
    /// out for a fault of its own (its entry names the tool's place in the chunk, not in the
    /// catalog), or the output is not exactly the target's framing around its tools.
    fn check(&self, source: Range<usize>, conversion: &Conversion) -> Option<Chunk> {
        let report = conversion.report();
        let whole =
            |e: EntryRef<'_>| matches!(e.code(), Code::ToolRenamed | Code::ToolNotConverted);
        if report.refs().any(whole) {
            return None;
        }
        let text = std::str::from_utf8(conversion.output()).ok()?;
        let elements = self.frame.list(text)?;
        let tools = self.frame.tools(text, &elements)?;
        let names = elements
            .iter()
            .map(|tool| name_at(tool, &self.name_path))
            .collect::<Option<Vec<String>>>()?;
        Some(Chunk {
            source,
            output: conversion.output().to_vec(),
            tools,
            names,
            report: report.clone(),
            inverse: if self.keep_inverse {
                conversion.inverse().clone()
            } else {
                Inverse::default()
            },
        })
    }

    /// Joins `chunks`, which hold the catalog's tools in order, into what one whole conversion
    /// of the catalog gives. `None` when they cannot stand for it: the chunks do not cover the
    /// catalog in order; two chunks write tools named alike (case aside, the most any renaming
    /// rule folds), which the whole conversion would rename or report; or the catalog-level
    /// report entries (no tool) differ between chunks or do not lead a chunk's report, where the
    /// whole conversion reports them once, first.
    pub fn stitch(&self, mut chunks: Vec<Chunk>) -> Option<Stitched> {
        let first = chunks.first()?;
        let shared: Vec<_> = catalog_level(&first.report)?.map(|e| e.to_entry()).collect();
        let mut next = 0;
        let mut seen = HashSet::new();
        let mut report = Report::default();
        // The whole catalog's tools, numbered from 1 (0 is the catalog's own entries).
        report.add_tools((0..self.tools.len()).map(|i| (i as u32 + 1, i as u32)));
        for e in &shared {
            report.push(ReportEntry { order: (0, e.order.1, 0), ..e.clone() });
        }
        let mut inverse = Inverse::default();
        for chunk in &mut chunks {
            let level = catalog_level(&chunk.report)?;
            if chunk.source.start != next
                || level.clone().count() != shared.len()
                || !level.zip(&shared).all(|(e, s)| same_entry(e, s))
            {
                return None;
            }
            next = chunk.source.end;
            if !chunk.names.iter().all(|n| seen.insert(n.to_ascii_lowercase())) {
                return None;
            }
            // A chunk's tools are numbered from 0 in its own catalog, and its entries point
            // into it.
            for e in chunk.report.refs().skip(shared.len()) {
                let i = e.tool_index()?;
                let at = i + chunk.source.start;
                let moved = match self.options.document_pointers {
                    true => moved_pointer(e, i, at)?,
                    // Not placed: the pointer is in the tool, wherever the tool is.
                    false => e.tool_pointer().to_string(),
                };
                let order = (u32::try_from(at + 1).ok()?, e.order().1);
                report.push_moved(e, &moved, order);
            }
            // Per tool, in catalog order, as the whole conversion records it (no chunk renamed).
            inverse.extend(std::mem::take(&mut chunk.inverse));
        }
        report.finish();
        if next != self.tools.len() {
            return None;
        }
        let Frame { head, sep, tail, empty, .. } = &self.frame;
        let len: usize = chunks.iter().map(|c| c.tools.len() + sep.len()).sum();
        let mut output = Vec::with_capacity(head.len() + len + tail.len());
        for chunk in chunks.iter().filter(|c| !c.tools.is_empty()) {
            output.extend_from_slice(if output.is_empty() {
                head.as_bytes()
            } else {
                sep.as_bytes()
            });
            output.extend_from_slice(chunk.output.get(chunk.tools.clone())?);
        }
        if output.is_empty() {
            output.extend_from_slice(empty.as_bytes());
        } else {
            output.extend_from_slice(tail.as_bytes());
        }
        let tools = chunks.iter().map(|c| c.names.len()).sum();
        Some(Stitched { output, report, tools, inverse })
    }
}

impl Converter {
    /// Converts the source tools `tools` (indices into the catalog) of `split` as a catalog of
    /// their own, for [`Split::stitch`]. `None` when the chunk fails or leaves a tool out for
    /// a fault of its own (the whole conversion's error or entry names the tool's place in
    /// the whole catalog), renames a tool, or is not written as the target's catalog framing
    /// around its tools: the split cannot stand, and the catalog is to be converted whole.
    pub fn convert_chunk(&mut self, split: &Split<'_>, tools: Range<usize>) -> Option<Chunk> {
        let input = split.chunk_input(tools.clone())?;
        let conversion = self.convert(&input, split.from, split.to, split.options).ok()?;
        split.check(tools, conversion)
    }
}

/// The document-level pointer of `entry`, about the tool at `from` in a chunk's list, once
/// that tool is at `to` in the whole catalog's; `None` when the pointer is not the tool's
/// place in the list followed by the pointer in the tool.
fn moved_pointer(entry: EntryRef<'_>, from: usize, to: usize) -> Option<String> {
    let (pointer, tool_pointer) = (entry.pointer().to_string(), entry.tool_pointer().to_string());
    let place = pointer.strip_suffix(tool_pointer.as_str())?;
    let list = place.strip_suffix(from.to_string().as_str())?.strip_suffix('/')?;
    Some(format!("{list}/{to}{tool_pointer}"))
}

/// Whether `limits` holds a limit on a whole request (strict tools, optional or union
/// parameters across tools, cache breakpoints). Every limit but the per-schema ones counts, so
/// that one added later keeps catalogs whole until it is known not to span them.
fn limits_span_catalog(limits: &ProviderLimits) -> bool {
    let per_request = ProviderLimits {
        properties: None,
        depth: None,
        enum_values: None,
        schema_chars: None,
        // Per tool, and the dated request limit is obeyed only when asked ([`Split::new`]).
        description_chars: None,
        tools: None,
        ..*limits
    };
    per_request != ProviderLimits::default()
}

/// A catalog object cut at its list: the text of a chunk before the tools and after, and the
/// tools. `None` when the object is not a catalog of `key` (a format without a catalog object
/// reads any object as one tool) or repeats a key (which the library refuses).
fn cut_object<'t>(text: &'t str, key: &str) -> Option<(String, String, Vec<&'t RawValue>)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let (members, tools) = de.deserialize_map(CutMembers { key, text: PhantomData }).ok()?;
    de.end().ok()?;
    let tools = tools?;
    let mut seen = HashSet::new();
    if !members.iter().all(|(k, _)| seen.insert(k.as_str())) {
        return None;
    }
    let (mut head, mut tail) = (String::from("{"), String::new());
    let mut before = true;
    for (i, (k, v)) in members.iter().enumerate() {
        let part = if before { &mut head } else { &mut tail };
        if i > 0 {
            part.push(',');
        }
        part.push_str(&serde_json::to_string(k).ok()?);
        part.push(':');
        if k == key {
            head.push('[');
            tail.push(']');
            before = false;
        } else {
            part.push_str(v.map_or("", |v| v.get()));
        }
    }
    tail.push('}');
    Some((head, tail, tools))
}

/// How the target writes a catalog around its tools, read off a probe: a catalog of
/// placeholder tools written through the conversion's own catalog writer. Its parts hold
/// whatever layout the writer gives (indentation when pretty); a chunk is then checked to be
/// exactly these parts around its tools.
#[derive(Debug)]
struct Frame {
    /// The member of the root object that holds the tool list; `None`: the root is the list.
    key: Option<String>,
    /// Text before the first tool.
    head: String,
    /// Text between two tools.
    sep: String,
    /// Text after the last tool.
    tail: String,
    /// Text of a catalog without tools.
    empty: String,
}

impl Frame {
    /// The frame the conversion `cx` to `to` writes a catalog in (`array`: the source catalog
    /// is a bare array, which the same format mirrors); `None` when the writer's catalog is
    /// not a list at the root or under the one member of a root object.
    fn probe(to: &dyn Adapter, cx: &EmitContext<'_>, array: bool, pretty: bool) -> Option<Frame> {
        let write = |n: usize| {
            let placeholders = [EMPTY_TOOL; 2];
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out, pretty);
            let tools = placeholders.get(..n).unwrap_or_default();
            write_catalog(to, tools, &Layout::plain(array), cx, &mut w);
            String::from_utf8(out).ok()
        };
        let (empty, two) = (write(0)?, write(2)?);
        let key = match two.as_bytes().first()? {
            b'[' => None,
            b'{' => {
                let RawMembers(members) = serde_json::from_str(&two).ok()?;
                let [(key, _)] = members.as_slice() else { return None };
                Some(key.clone())
            }
            _ => return None,
        };
        let elements = list(&two, key.as_deref())?;
        let [first, second] = elements.as_slice() else { return None };
        let (first, second) = (span(&two, first.get())?, span(&two, second.get())?);
        Some(Frame {
            head: two.get(..first.start)?.to_owned(),
            sep: two.get(first.end..second.start)?.to_owned(),
            tail: two.get(second.end..)?.to_owned(),
            empty,
            key,
        })
    }

    /// The elements of the tool list of `text`, a catalog of this frame's shape; `None` when
    /// it has another.
    fn list<'t>(&self, text: &'t str) -> Option<Vec<&'t RawValue>> {
        list(text, self.key.as_deref())
    }

    /// Where the tools are in `text`, whose list holds `elements`, when `text` is exactly this
    /// frame around them (and is the empty catalog when there are none).
    fn tools(&self, text: &str, elements: &[&RawValue]) -> Option<Range<usize>> {
        let (Some(first), Some(last)) = (elements.first(), elements.last()) else {
            return (text == self.empty).then_some(0..0);
        };
        let start = span(text, first.get())?.start;
        let end = span(text, last.get())?.end;
        if text.get(..start)? != self.head || text.get(end..)? != self.tail {
            return None;
        }
        for pair in elements.windows(2) {
            let [a, b] = pair else { return None };
            let (a, b) = (span(text, a.get())?, span(text, b.get())?);
            if text.get(a.end..b.start)? != self.sep {
                return None;
            }
        }
        Some(start..end)
    }
}

/// The elements of the tool list of `text`: the root array (`key` is `None`), or the array
/// under `key`, the one member of the root object.
fn list<'t>(text: &'t str, key: Option<&str>) -> Option<Vec<&'t RawValue>> {
    let Some(key) = key else { return serde_json::from_str(text).ok() };
    let RawMembers(members) = serde_json::from_str(text).ok()?;
    match members.as_slice() {
        [(k, list)] if k == key => serde_json::from_str(list.get()).ok(),
        _ => None,
    }
}

/// Where `part`, a slice of `text` (a raw value parsed from it borrows it), lies in `text`.
fn span(text: &str, part: &str) -> Option<Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= text.len()).then_some(start..end)
}

/// The member keys a JSON pointer goes through (`/function/name` → `function`, `name`);
/// `None` for the empty pointer, which names no member.
fn pointer_keys(pointer: &str) -> Option<Vec<String>> {
    let rest = pointer.strip_prefix('/')?;
    Some(rest.split('/').map(|token| token.replace("~1", "/").replace("~0", "~")).collect())
}

/// The string at member path `path` of the written tool `tool`.
fn name_at(tool: &RawValue, path: &[String]) -> Option<String> {
    let mut at = tool;
    for key in path {
        let mut de = serde_json::Deserializer::from_str(at.get());
        at = de.deserialize_map(FindMember { key, found: PhantomData }).ok()??;
    }
    serde_json::from_str(at.get()).ok()
}

/// The catalog-level entries (no tool) of a chunk's report. They must lead it, as they lead a
/// whole conversion's; one further on would have no known place in the merged report.
fn catalog_level(report: &Report) -> Option<impl Iterator<Item = EntryRef<'_>> + Clone> {
    let lead = report.refs().take_while(|e| e.tool().is_empty()).count();
    let rest_has_none = !report.refs().skip(lead).any(|e| e.tool().is_empty());
    rest_has_none.then(|| report.refs().take(lead))
}

/// Whether an entry says what `b` says, as printed: their sort keys (the positions in their
/// chunk's input) are not compared.
fn same_entry(a: EntryRef<'_>, b: &ReportEntry) -> bool {
    a.tool() == b.tool
        && (a.severity(), a.code()) == (b.severity, b.code)
        && a.feature() == b.feature
        && a.pointer() == b.pointer.as_str()
        && (a.from(), a.to()) == (b.from.as_str(), b.to.as_str())
        && a.message() == b.message.as_str()
}

/// An object's members in source order with their values unparsed. Unlike a map it keeps
/// repeated keys, so that a catalog the library would refuse for them is left to it.
struct RawMembers<'t>(Vec<(String, &'t RawValue)>);

impl<'de: 't, 't> Deserialize<'de> for RawMembers<'t> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Collects the members as they come.
        struct RawMembersVisitor<'t>(PhantomData<&'t ()>);

        impl<'de: 't, 't> Visitor<'de> for RawMembersVisitor<'t> {
            type Value = RawMembers<'t>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMembers<'t>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'t RawValue>()? {
                    members.push(member);
                }
                Ok(RawMembers(members))
            }
        }

        deserializer.deserialize_map(RawMembersVisitor(PhantomData))
    }
}

/// An object's members in source order, their values unparsed but for the first member
/// `key`, read as a list of raw values: one pass over a catalog object, where reading it raw
/// and then its list raw again took two over the whole input (on the thread every chunk waits
/// for). The list member's value is `None` among the members.
struct CutMembers<'k, 't> {
    key: &'k str,
    text: PhantomData<&'t ()>,
}

/// What [`CutMembers`] reads: the members, and the list when there is one.
type Cut<'t> = (Vec<(String, Option<&'t RawValue>)>, Option<Vec<&'t RawValue>>);

impl<'de: 't, 't> Visitor<'de> for CutMembers<'_, 't> {
    type Value = Cut<'t>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut members, mut list) = (Vec::new(), None);
        while let Some(key) = map.next_key::<String>()? {
            if key == self.key && list.is_none() {
                list = Some(map.next_value::<Vec<&'t RawValue>>()?);
                members.push((key, None));
            } else {
                let value = map.next_value::<&'t RawValue>()?;
                members.push((key, Some(value)));
            }
        }
        Ok((members, list))
    }
}

/// Finds member `key` of an object, its value unparsed; the other members are skipped
/// without being collected, and keys are compared without being copied.
struct FindMember<'k, 't> {
    key: &'k str,
    found: PhantomData<&'t ()>,
}

impl<'de: 't, 't> Visitor<'de> for FindMember<'_, 't> {
    type Value = Option<&'t RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(matches) = map.next_key_seed(KeyIs(self.key))? {
            if matches && found.is_none() {
                found = Some(map.next_value::<&'t RawValue>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// Reads an object key as whether it is this one.
struct KeyIs<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIs<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}
