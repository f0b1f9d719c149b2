//! Writing Gemini traffic (JSON field names): `functionCall` parts with their
//! `thoughtSignature`, `functionResponse` parts (the content as the `response` object, media as
//! its `parts`), a `generateContent` request and a `GenerateContentResponse`.

use crate::ir::traffic::{
    Assistant, Block, Choice, Content, Conversation, Finish, Media, Part, Response, Results,
    Source, ToolResult, Turn,
};
use crate::traffic::Out;

/// Writes a model content.
pub(super) fn model(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("model");
    out.w().key_plain("parts");
    out.w().begin_array();
    for part in a.parts {
        match part {
            Part::Text(c) => {
                out.w().element();
                part_of(out, c);
            }
            Part::Call(c) => {
                out.w().element();
                out.w().begin_object();
                out.w().key_plain("functionCall");
                out.w().begin_object();
                out.str_member("name", c.name);
                out.w().key_plain("args");
                out.args_object(&c.arguments);
                if let Some(id) = c.id.filter(|id| !id.is_empty()) {
                    out.str_member("id", id);
                }
                out.w().end_object();
                if let Some(sig) = c.signature {
                    out.str_member("thoughtSignature", sig);
                }
                out.w().end_object();
            }
            Part::Reasoning(_) | Part::Other(_) => {}
        }
    }
    out.w().end_array();
    out.w().end_object();
}

/// Writes a text or media part.
fn part_of(out: &mut Out<'_, '_>, c: &Content<'_>) {
    out.w().begin_object();
    match c.block {
        Block::Text(t) => out.str_member("text", t),
        Block::Image(m) | Block::Audio(m) | Block::Video(m) | Block::Document(m) => media(out, &m),
        // The pass leaves only the kinds the rules list.
        _ => {}
    }
    out.w().end_object();
}

/// Writes `inlineData` or `fileData` (a text document as a text part).
fn media(out: &mut Out<'_, '_>, m: &Media<'_>) {
    let mime = m.media_type.unwrap_or("application/octet-stream");
    match m.source {
        Source::Base64(d) => {
            out.w().key_plain("inlineData");
            out.w().begin_object();
            out.str_member("mimeType", mime);
            out.str_member("data", d);
            out.w().end_object();
        }
        Source::Url(u) | Source::Uri(u) | Source::File(u) => {
            out.w().key_plain("fileData");
            out.w().begin_object();
            out.str_member("mimeType", mime);
            out.str_member("fileUri", u);
            out.w().end_object();
        }
        Source::Text(t) => out.str_member("text", t),
    }
}

/// Writes a function response: the content's text (or JSON) as `response`'s `output` (or its
/// `error`), a JSON object as `response` itself, media as `parts`.
fn function_response(out: &mut Out<'_, '_>, r: &ToolResult<'_>) {
    out.w().begin_object();
    out.w().key_plain("functionResponse");
    out.w().begin_object();
    if let Some(id) = r.call_id.filter(|id| !id.is_empty()) {
        out.str_member("id", id);
    }
    out.str_member("name", r.name.unwrap_or_default());
    out.w().key_plain("response");
    let texts = || {
        r.content.iter().filter_map(|c| match c.block {
            Block::Text(t) => Some(t),
            _ => None,
        })
    };
    let json = r.content.iter().find_map(|c| match c.block {
        Block::Json(v) => Some(v),
        _ => None,
    });
    let key = if r.error { "error" } else { "output" };
    // MCP's structured content is the result, its text a mirror of it.
    let texts_count = if r.structured.is_some() { 0 } else { texts().count() };
    let json = r.structured.or(json);
    match (json, texts_count) {
        (Some(v @ crate::ir::Json::Object(_)), 0) if !r.error => out.w().json(&v),
        (Some(v), 0) => {
            out.w().begin_object();
            out.w().key_plain(key);
            out.w().json(&v);
            out.w().end_object();
        }
        (_, n) => {
            out.w().begin_object();
            out.w().key_plain(key);
            match n {
                1 => out.w().string(texts().next().unwrap_or_default()),
                _ => out.joined(texts()),
            }
            out.w().end_object();
        }
    }
    let media = || {
        r.content.iter().filter(|c| {
            matches!(
                c.block,
                Block::Image(_) | Block::Audio(_) | Block::Video(_) | Block::Document(_)
            )
        })
    };
    if media().next().is_some() {
        out.w().key_plain("parts");
        out.w().begin_array();
        for c in media() {
            out.w().element();
            part_of(out, c);
        }
        out.w().end_array();
    }
    out.w().end_object();
    out.w().end_object();
}

/// Writes a user content of function responses (then the parts sent with them).
pub(super) fn results(out: &mut Out<'_, '_>, r: &Results<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("user");
    out.w().key_plain("parts");
    out.w().begin_array();
    for result in r.results {
        out.w().element();
        function_response(out, result);
    }
    for c in r.after {
        out.w().element();
        part_of(out, c);
    }
    out.w().end_array();
    out.w().end_object();
}

/// Writes a user content.
fn user(out: &mut Out<'_, '_>, content: &[Content<'_>]) {
    out.role_message("user", "parts", content, |out, c| part_of(out, c));
}

/// Writes a `generateContent` request (always a body: Gemini's contents live in one).
pub(super) fn conversation(out: &mut Out<'_, '_>, c: &Conversation<'_>) {
    out.w().begin_object();
    if !c.system.is_empty() {
        out.w().key_plain("systemInstruction");
        out.w().begin_object();
        out.w().key_plain("parts");
        out.w().begin_array();
        for s in c.system {
            out.w().element();
            part_of(out, s);
        }
        out.w().end_array();
        out.w().end_object();
    }
    out.w().key_plain("contents");
    out.w().begin_array();
    for turn in c.turns {
        out.w().element();
        match turn {
            Turn::User(m) | Turn::System(m) => user(out, m.content),
            Turn::Assistant(a) => model(out, a),
            Turn::Results(r) => results(out, r),
        }
    }
    out.w().end_array();
    if let Some(tools) = &c.tools {
        out.w().key_plain("tools");
        match tools {
            // The definitions conversion writes one `{"functionDeclarations": […]}`.
            crate::ir::Json::Object(_) => {
                out.w().begin_array();
                out.w().element();
                out.w().json(tools);
                out.w().end_array();
            }
            list => out.w().json(list),
        }
    }
    if let Some(choice) = c.choice.choice {
        out.w().key_plain("toolConfig");
        out.w().begin_object();
        out.w().key_plain("functionCallingConfig");
        out.w().begin_object();
        out.w().key_plain("mode");
        match choice {
            Choice::Auto => out.w().string_plain("AUTO"),
            Choice::None => out.w().string_plain("NONE"),
            Choice::Required => out.w().string_plain("ANY"),
            Choice::Tool(name) => {
                out.w().string_plain("ANY");
                out.w().key_plain("allowedFunctionNames");
                out.w().begin_array();
                out.w().element();
                out.w().string(name);
                out.w().end_array();
            }
        }
        out.w().end_object();
        out.w().end_object();
    }
    out.w().end_object();
}

/// Writes a `GenerateContentResponse` of one candidate.
pub(super) fn response(out: &mut Out<'_, '_>, r: &Response<'_>) {
    out.w().begin_object();
    out.w().key_plain("candidates");
    out.w().begin_array();
    out.w().element();
    out.w().begin_object();
    out.w().key_plain("content");
    model(out, &r.turn);
    out.w().key_plain("finishReason");
    out.w().string_plain(match r.turn.finish.map(|(f, _)| f) {
        Some(Finish::Length) => "MAX_TOKENS",
        Some(Finish::Filtered) => "SAFETY",
        // Gemini ends a turn of calls with `STOP`.
        _ => "STOP",
    });
    out.w().key_plain("index");
    out.w().raw("0");
    out.w().end_object();
    out.w().end_array();
    if let (Some(input), Some(output)) = (r.input_tokens, r.output_tokens) {
        out.w().key_plain("usageMetadata");
        out.w().begin_object();
        out.w().key_plain("promptTokenCount");
        out.w().raw(input);
        out.w().key_plain("candidatesTokenCount");
        out.w().raw(output);
        out.w().end_object();
    }
    if let Some(model) = r.model {
        out.str_member("modelVersion", model);
    }
    if let Some(id) = r.id {
        out.str_member("responseId", id);
    }
    out.w().end_object();
}
