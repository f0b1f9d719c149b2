//! A results turn: each result paired with its call (its id and, where the target names
//! results, its tool's name), mapped through the definitions' map, and its content made of the
//! kinds the target carries.

use crate::error::ConversionError;
use crate::ir::traffic::{
    Block, BlockKind, BlockKinds, Content, Media, Results, Source, ToolResult,
};
use crate::report::{Code, EntryKind};

use super::super::maps;
use super::Pass;
use super::calls::{IdAt, Paired};
use crate::traffic::MediaRules;
use crate::traffic::{Patch, Replace};

impl<'a> Pass<'a, '_> {
    /// `turn` made fit for the target. `k` is the place of the calls turn it answers, and
    /// `calls` that turn's calls (empty for a results payload read alone).
    pub(super) fn results(
        &mut self,
        turn: Results<'a>,
        k: u32,
        calls: &[Paired<'a>],
    ) -> Result<Results<'a>, ConversionError> {
        let len = turn.results.len();
        let names = turn.results.iter().map(|r| r.name.unwrap_or_default());
        let occurrence = self.occurrences(names, len, turn.pointer)?;
        let mut out = self.list::<ToolResult<'a>>(len, turn.pointer)?;
        for (i, r) in turn.results.iter().enumerate() {
            let occ = occurrence.get(i).copied().unwrap_or(0);
            out.push(self.result(r, k, occ, calls.get(i), calls)?);
        }
        let after = self.content(turn.after, self.target.user_blocks, "", 0)?;
        Ok(Results { results: out.done(), after, ..turn })
    }

    /// One result; `nth` is the call at its place in the calls turn, `calls` all of them.
    fn result(
        &mut self,
        r: &ToolResult<'a>,
        k: u32,
        occ: u32,
        nth: Option<&Paired<'a>>,
        calls: &[Paired<'a>],
    ) -> Result<ToolResult<'a>, ConversionError> {
        let mut out = *r;
        let given = r.call_id.filter(|id| !id.is_empty());
        // The call it answers: by id, else (Gemini 2.x) by name and order, else by place.
        let paired = match (given, r.name) {
            (Some(id), _) => calls.iter().find(|c| c.source_id == Some(id)),
            (None, Some(name)) => calls.iter().filter(|c| c.source_name == name).nth(occ as usize),
            (None, None) => nth,
        };
        let mut name = r.name;
        if let (Some(n), Some((map, direction))) = (r.name, self.map)
            && let Some(tool) = maps::tool(map, direction, n)
        {
            let mapped = self.str(maps::name_of(tool, direction), r.pointer)?;
            if mapped != n {
                if let Some(node) = r.nodes.name {
                    self.patches.push(Patch::new(node, Replace::Str(mapped)));
                }
                self.note(
                    EntryKind::content(Code::CallMapped, false),
                    (mapped, "name"),
                    (r.pointer, r.at),
                    &["the result of `", n, "` named `", mapped, "` through the definitions' map"],
                );
            }
            name = Some(mapped);
        }
        if name.is_none() && !self.same {
            name = paired.map(|c| c.name);
        }
        if name.is_none() && !self.same {
            let named = given.and_then(|id| self.restore.and_then(|ids| ids.name(id)));
            name = named.map(|n| self.str(n, r.pointer)).transpose()?;
        }
        out.name = name;
        let call_id = match paired {
            Some(c) if given.is_none() && !self.same && c.id.is_some() => c.id,
            _ => {
                let tool = name.unwrap_or_default();
                let seed = (k, r.name.unwrap_or_default(), occ);
                let node = r.nodes.id;
                self.id(IdAt { id: r.call_id, node, seed, tool, pointer: r.pointer, at: r.at })?
            }
        };
        out.call_id = call_id;
        // A results conversion's ids, with the tools' names, for the conversion that answers
        // it (a target that names results takes the names from them).
        if let (Some(id), Some(n)) = (call_id.filter(|id| !id.is_empty()), name)
            && !self.same
        {
            self.log.push(r.call_id.unwrap_or_default(), id, n);
        }
        if self.same {
            return Ok(out);
        }
        if self.target.result_name && out.name.is_none() {
            return Err(self.refuse(
                r.pointer,
                format!(
                    "{} names the tool each result answers, and this result does not say it: convert the conversation that holds its call (--kind messages), or give the ids its calls' conversion wrote (TrafficOptions::ids)",
                    self.to
                ),
            ));
        }
        let tool = out.name.unwrap_or_default();
        if r.error && !self.target.error_flag {
            self.note(
                EntryKind::content(Code::ErrorNotFlagged, true),
                (tool, "error"),
                (r.pointer, r.at),
                &["the tool failed and ", self.to, " has no error flag on a result: sent as an ordinary result, its content alone says the tool failed"],
            );
        }
        let kinds = self.target.result_blocks;
        let mut content = self.content(r.content, kinds, tool, 1)?;
        if let Some(v) = r.structured.filter(|_| !kinds.has(BlockKind::Json)) {
            out.structured = None;
            if content.iter().any(|c| matches!(c.block, Block::Text(_))) {
                self.note(
                    EntryKind::content(Code::ContentRewritten, false),
                    (tool, "structuredContent"),
                    (r.pointer, r.at),
                    &[
                        "structured content has no place in ",
                        self.to,
                        " results: carried by the result's text, which mirrors it",
                    ],
                );
            } else {
                let text = self.json_text(&v, r.pointer)?;
                let mut with = self.list::<Content<'a>>(content.len() + 1, r.pointer)?;
                content.iter().for_each(|c| with.push(*c));
                with.push(Content {
                    block: Block::Text(text),
                    raw: v,
                    pointer: r.pointer,
                    at: r.at,
                });
                content = with.done();
                self.note(
                    EntryKind::content(Code::ContentRewritten, false),
                    (tool, "structuredContent"),
                    (r.pointer, r.at),
                    &[
                        "structured content has no place in ",
                        self.to,
                        " results: written as its JSON text",
                    ],
                );
            }
        }
        if self.target.json_results
            && let [first @ Content { block: Block::Text(t), pointer, .. }] = content
            && t.starts_with('{')
            && t.ends_with('}')
            && let Ok(v) = self.args.value(t, self.arena, self.limits, self.from)
        {
            // The same data, as the object the target's model reads (text padded with
            // whitespace stays text: the padding would be lost).
            let mut with = self.list::<Content<'a>>(1, pointer)?;
            with.push(Content { block: Block::Json(v), ..*first });
            content = with.done();
        }
        out.content = content;
        Ok(out)
    }

    /// `items` with only the kinds `kinds` holds: a JSON block written as its text where the
    /// target takes text, an embedded resource's text likewise, anything else left out, each
    /// with an entry. `spare` more items fit in the list made (for a caller that appends).
    pub(super) fn content(
        &mut self,
        items: &'a [Content<'a>],
        kinds: BlockKinds,
        tool: &str,
        spare: usize,
    ) -> Result<&'a [Content<'a>], ConversionError> {
        let media = self.target.media;
        let fits = move |c: &Content<'_>| kinds.has(c.block.kind()) && reachable(media, &c.block);
        if self.same || items.iter().all(fits) {
            return Ok(items);
        }
        let mut out = self.list::<Content<'a>>(items.len() + spare, "")?;
        for c in items {
            if fits(c) {
                out.push(*c);
                continue;
            }
            let kind = c.block.kind();
            // What the target has no place for, sent as text where it takes text.
            let text = match c.block {
                _ if !kinds.has(BlockKind::Text) => None,
                Block::Json(v) => Some(self.json_text(&v, c.pointer)?),
                Block::Resource(res) => res.text,
                Block::Document(Media { source: Source::Text(t), .. }) => Some(t),
                _ => None,
            };
            if let Some(text) = text {
                out.push(Content { block: Block::Text(text), ..*c });
                let how = match kind {
                    BlockKind::Json => ": written as its JSON text",
                    BlockKind::Document => {
                        " as a document given by its text: sent as a text block, its title left out"
                    }
                    _ => ": its text sent, its URI and type left out",
                };
                self.note(
                    EntryKind::content(Code::ContentRewritten, kind != BlockKind::Json),
                    (tool, kind.as_str()),
                    (c.pointer, c.at),
                    &["a ", kind.as_str(), " block has no place in ", self.to, how],
                );
                continue;
            }
            let why = match (kinds.has(kind), media_of(&c.block).map(|m| m.source)) {
                (true, Some(Source::File(_))) => {
                    " given by a file id of another provider's store, which it cannot fetch"
                }
                (true, Some(Source::Url(_))) => " given by a URL, which it cannot fetch",
                (true, Some(Source::Base64(_))) => {
                    " given as inline data of a type it does not read"
                }
                (true, _) => " given by a URI it cannot fetch",
                (false, _) => " has no place there",
            };
            let what = match c.block {
                Block::Other(name) => name,
                _ => kind.as_str(),
            };
            self.note(
                EntryKind::content(Code::ContentDropped, true),
                (tool, what),
                (c.pointer, c.at),
                &["a `", what, "` block sent to ", self.to, why, "; left out"],
            );
        }
        Ok(out.done())
    }
}

/// Whether a target whose media rules are `media` can fetch `block`'s media: inline data
/// always (a document's of the media types its rules list), a document's text, a URL or a cloud URI where its rules say, a provider's file id
/// never (it names a file in another provider's store).
fn reachable(media: MediaRules, block: &Block<'_>) -> bool {
    match media_of(block).map(|m| m.source) {
        None => true,
        Some(Source::Base64(_)) => match (block, media.base64_documents) {
            (Block::Document(m), Some(types)) => m.media_type.is_some_and(|t| types.contains(&t)),
            _ => true,
        },
        Some(Source::Text(_)) => media.text_documents,
        Some(Source::Url(u)) => media.url && !is_cloud_uri(u),
        Some(Source::Uri(u)) => media.uri_scheme.is_some_and(|s| u.starts_with(s)),
        Some(Source::File(_)) => false,
    }
}

/// The media of an image, audio, video or document block.
fn media_of<'b, 'a>(block: &'b Block<'a>) -> Option<&'b Media<'a>> {
    match block {
        Block::Image(m) | Block::Audio(m) | Block::Video(m) | Block::Document(m) => Some(m),
        _ => None,
    }
}

/// Whether `u` names a cloud object (`s3://`, `gs://`) rather than a web URL.
fn is_cloud_uri(u: &str) -> bool {
    !(u.starts_with("http://") || u.starts_with("https://") || u.starts_with("data:"))
}
