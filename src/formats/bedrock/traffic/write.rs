//! Writing Bedrock Converse traffic: `toolUse` and `toolResult` blocks, a Converse request
//! (its `toolConfig` holding the tools and the tool choice) and a `ConverseResponse`.

use crate::ir::Json;
use crate::ir::traffic::{
    Assistant, Block, Choice, Content, Conversation, Finish, Media, Part, Response, Results,
    Source, Turn,
};
use crate::traffic::Out;

use super::super::rules;

/// Writes the content blocks of an assistant turn.
fn parts(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    out.w().begin_array();
    for part in a.parts {
        match part {
            Part::Text(c) => {
                out.w().element();
                block(out, c);
            }
            Part::Call(c) => {
                out.w().element();
                out.w().begin_object();
                out.w().key_plain("toolUse");
                out.w().begin_object();
                out.str_member("toolUseId", c.id.unwrap_or_default());
                out.str_member("name", c.name);
                out.w().key_plain("input");
                out.args_object(&c.arguments);
                out.w().end_object();
                out.w().end_object();
            }
            Part::Reasoning(_) | Part::Other(_) => {}
        }
    }
    out.w().end_array();
}

/// Writes an assistant message.
pub(super) fn assistant(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("assistant");
    out.w().key_plain("content");
    parts(out, a);
    out.w().end_object();
}

/// The `format` Bedrock names a media type by: its table's, else the type's subtype.
fn format_of<'m>(kind: &str, m: &Media<'m>) -> &'m str {
    let mime = m.media_type.unwrap_or_default();
    rules::MEDIA_FORMATS
        .iter()
        .find(|(k, _, t)| *k == kind && *t == mime)
        .map_or_else(|| mime.rsplit('/').next().unwrap_or(mime), |(_, f, _)| f)
}

/// Writes a content block: text, JSON, image, document or video.
fn block(out: &mut Out<'_, '_>, c: &Content<'_>) {
    out.w().begin_object();
    match c.block {
        Block::Text(t) => out.str_member("text", t),
        Block::Json(v) => {
            out.w().key_plain("json");
            out.w().json(&v);
        }
        Block::Image(m) | Block::Document(m) | Block::Video(m) => {
            let kind = match c.block {
                Block::Image(_) => "image",
                Block::Video(_) => "video",
                _ => "document",
            };
            if let (Source::Text(t), "document") = (m.source, kind) {
                media_open(out, "document", &m, "txt");
                out.w().key_plain("source");
                out.w().begin_object();
                out.str_member("text", t);
                out.w().end_object();
                out.w().end_object();
            } else {
                let format = format_of(kind, &m);
                media_open(out, kind, &m, format);
                out.w().key_plain("source");
                out.w().begin_object();
                match m.source {
                    Source::Uri(u) => {
                        out.w().key_plain("s3Location");
                        out.w().begin_object();
                        out.str_member("uri", u);
                        out.w().end_object();
                    }
                    Source::Base64(d) | Source::Text(d) | Source::Url(d) | Source::File(d) => {
                        out.str_member("bytes", d);
                    }
                }
                out.w().end_object();
                out.w().end_object();
            }
        }
        // The pass leaves only the kinds the rules list.
        _ => {}
    }
    out.w().end_object();
}

/// Opens a media block: its key, `format`, and a document's `name` (which Converse requires).
fn media_open(out: &mut Out<'_, '_>, kind: &'static str, m: &Media<'_>, format: &str) {
    out.w().key_plain(kind);
    out.w().begin_object();
    out.w().key_plain("format");
    out.w().string(format);
    if kind == "document" {
        out.str_member("name", m.name.unwrap_or("document"));
    }
}

/// Writes a user message of results (then the content sent with them).
pub(super) fn results(out: &mut Out<'_, '_>, r: &Results<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("user");
    out.w().key_plain("content");
    out.w().begin_array();
    for result in r.results {
        out.w().element();
        out.w().begin_object();
        out.w().key_plain("toolResult");
        out.w().begin_object();
        out.str_member("toolUseId", result.call_id.unwrap_or_default());
        out.w().key_plain("content");
        out.w().begin_array();
        for c in result.content {
            out.w().element();
            block(out, c);
        }
        if let Some(v) = &result.structured {
            out.w().element();
            out.w().begin_object();
            out.w().key_plain("json");
            out.w().json(v);
            out.w().end_object();
        }
        out.w().end_array();
        out.w().key_plain("status");
        out.w().string_plain(if result.error { "error" } else { "success" });
        out.w().end_object();
        out.w().end_object();
    }
    for c in r.after {
        out.w().element();
        block(out, c);
    }
    out.w().end_array();
    out.w().end_object();
}

/// Writes a user message.
fn user(out: &mut Out<'_, '_>, content: &[Content<'_>]) {
    out.role_message("user", "content", content, |out, c| block(out, c));
}

/// Writes a Converse request (always a body: its messages live in one).
pub(super) fn conversation(out: &mut Out<'_, '_>, c: &Conversation<'_>) {
    out.w().begin_object();
    out.w().key_plain("messages");
    out.w().begin_array();
    for turn in c.turns {
        out.w().element();
        match turn {
            Turn::User(m) | Turn::System(m) => user(out, m.content),
            Turn::Assistant(a) => assistant(out, a),
            Turn::Results(r) => results(out, r),
        }
    }
    out.w().end_array();
    if !c.system.is_empty() {
        out.w().key_plain("system");
        out.w().begin_array();
        for s in c.system {
            out.w().element();
            block(out, s);
        }
        out.w().end_array();
    }
    // The definitions conversion writes `{"tools": […]}`; the choice joins it. A
    // `toolConfig` holds at least one tool (botocore's bedrock-runtime model:
    // `ToolConfiguration.tools` required, `min: 1`, read 2026-11-28): where the definitions
    // conversion left every tool out (each with its error entry), there is none to write.
    let tools = c.tools.as_ref().map(|t| t.get("tools").copied().unwrap_or(*t));
    let no_tools = matches!(tools, Some(Json::Array([])));
    if !no_tools && (tools.is_some() || c.choice.choice.is_some()) {
        out.w().key_plain("toolConfig");
        out.w().begin_object();
        if let Some(tools) = &tools {
            out.w().key_plain("tools");
            out.w().json(tools);
        }
        if let Some(choice) = c.choice.choice {
            out.w().key_plain("toolChoice");
            out.w().begin_object();
            match choice {
                Choice::Auto | Choice::None => {
                    out.w().key_plain("auto");
                    out.w().json(&Json::Object(&[]));
                }
                Choice::Required => {
                    out.w().key_plain("any");
                    out.w().json(&Json::Object(&[]));
                }
                Choice::Tool(name) => {
                    out.w().key_plain("tool");
                    out.w().begin_object();
                    out.str_member("name", name);
                    out.w().end_object();
                }
            }
            out.w().end_object();
        }
        out.w().end_object();
    }
    out.w().end_object();
}

/// Writes a `ConverseResponse`.
pub(super) fn response(out: &mut Out<'_, '_>, r: &Response<'_>) {
    out.w().begin_object();
    out.w().key_plain("output");
    out.w().begin_object();
    out.w().key_plain("message");
    assistant(out, &r.turn);
    out.w().end_object();
    out.w().key_plain("stopReason");
    let has_calls = r.turn.calls().next().is_some();
    out.w().string_plain(match (has_calls, r.turn.finish.map(|(f, _)| f)) {
        (true, _) => "tool_use",
        (_, Some(Finish::Length)) => "max_tokens",
        (_, Some(Finish::StopSequence)) => "stop_sequence",
        (_, Some(Finish::Filtered)) => "content_filtered",
        _ => "end_turn",
    });
    // `usage` and `metrics` are required members of the API's `ConverseResponse` (botocore's
    // bedrock-runtime service model, `ConverseResponse.required`, read 2026-11-28): counts a
    // source does not give are written as 0, and the latency, which a conversion cannot know,
    // as 0, as the stream writer does.
    let (input, output) = (r.input_tokens.unwrap_or("0"), r.output_tokens.unwrap_or("0"));
    out.w().key_plain("usage");
    out.w().begin_object();
    out.w().key_plain("inputTokens");
    out.w().raw(input);
    out.w().key_plain("outputTokens");
    out.w().raw(output);
    out.sum("totalTokens", input, output);
    out.w().end_object();
    out.w().key_plain("metrics");
    out.w().begin_object();
    out.w().key_plain("latencyMs");
    out.w().raw("0");
    out.w().end_object();
    out.w().end_object();
}
