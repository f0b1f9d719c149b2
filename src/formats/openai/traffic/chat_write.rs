//! Writing OpenAI Chat Completions traffic: the assistant message, tool messages (one per
//! result), a request body and the `chat.completion` response.

use crate::ir::traffic::{
    Assistant, Block, Choice, Content, Conversation, Finish, Media, Part, Response, Results,
    Source, Turn,
};
use crate::traffic::Out;

fn finish_name(turn: &Assistant<'_>) -> &'static str {
    if turn.calls().next().is_some() {
        return "tool_calls";
    }
    match turn.finish.map(|(f, _)| f) {
        Some(Finish::Length) => "length",
        Some(Finish::Filtered) => "content_filter",
        _ => "stop",
    }
}

/// Writes an assistant message.
pub(super) fn write_assistant(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    let w = out.w();
    w.begin_object();
    w.key_plain("role");
    w.string_plain("assistant");
    w.key_plain("content");
    let texts = || {
        a.parts.iter().filter_map(|p| match p {
            Part::Text(Content { block: Block::Text(t), .. }) => Some(*t),
            _ => None,
        })
    };
    match texts().count() {
        0 => out.w().raw("null"),
        1 => out.w().string(texts().next().unwrap_or_default()),
        _ => out.joined(texts()),
    }
    if a.calls().next().is_some() {
        out.w().key_plain("tool_calls");
        out.w().begin_array();
        for c in a.calls() {
            out.w().element();
            out.w().begin_object();
            out.str_member("id", c.id.unwrap_or_default());
            out.w().key_plain("type");
            out.w().string_plain("function");
            out.w().key_plain("function");
            out.w().begin_object();
            out.str_member("name", c.name);
            out.w().key_plain("arguments");
            out.args_text(&c.arguments);
            out.w().end_object();
            out.w().end_object();
        }
        out.w().end_array();
    }
    out.w().end_object();
}

/// Writes each result as a tool message, then the content sent with them as a user message.
pub(super) fn write_results(out: &mut Out<'_, '_>, r: &Results<'_>) {
    for result in r.results {
        out.w().element();
        out.w().begin_object();
        out.w().key_plain("role");
        out.w().string_plain("tool");
        out.str_member("tool_call_id", result.call_id.unwrap_or_default());
        out.w().key_plain("content");
        write_content(out, result.content, true);
        out.w().end_object();
    }
    if !r.after.is_empty() {
        out.w().element();
        write_message(out, "user", r.after);
    }
}

/// Writes content: one text block as a string (`""` for none where `text_only`), otherwise
/// parts.
fn write_content(out: &mut Out<'_, '_>, content: &[Content<'_>], text_only: bool) {
    if let [Content { block: Block::Text(t), .. }] = content {
        return out.w().string(t);
    }
    if content.is_empty() && text_only {
        return out.w().string_plain("");
    }
    out.w().begin_array();
    for c in content {
        out.w().element();
        out.w().begin_object();
        match c.block {
            Block::Text(t) => {
                out.w().key_plain("type");
                out.w().string_plain("text");
                out.str_member("text", t);
            }
            Block::Image(m) => {
                out.w().key_plain("type");
                out.w().string_plain("image_url");
                out.w().key_plain("image_url");
                out.w().begin_object();
                out.w().key_plain("url");
                write_url(out, &m, "image/png");
                out.w().end_object();
            }
            Block::Audio(m) => {
                out.w().key_plain("type");
                out.w().string_plain("input_audio");
                out.w().key_plain("input_audio");
                out.w().begin_object();
                let data = match m.source {
                    Source::Base64(d) => d,
                    Source::Url(u) | Source::File(u) | Source::Uri(u) | Source::Text(u) => u,
                };
                out.str_member("data", data);
                out.w().key_plain("format");
                out.w().string_plain(if m.media_type == Some("audio/mpeg") {
                    "mp3"
                } else {
                    "wav"
                });
                out.w().end_object();
            }
            Block::Document(Media { source: Source::Text(t), .. }) => {
                // A text document is its text.
                out.w().key_plain("type");
                out.w().string_plain("text");
                out.str_member("text", t);
            }
            Block::Document(m) => {
                out.w().key_plain("type");
                out.w().string_plain("file");
                out.w().key_plain("file");
                out.w().begin_object();
                match m.source {
                    Source::File(id) => out.str_member("file_id", id),
                    _ => {
                        out.w().key_plain("file_data");
                        write_url(out, &m, "application/pdf");
                    }
                }
                if let Some(name) = m.name {
                    out.str_member("filename", name);
                }
                out.w().end_object();
            }
            // The pass leaves only the kinds the rules list; a JSON block is text by then.
            _ => {}
        }
        out.w().end_object();
    }
    out.w().end_array();
}

/// A media block's URL: its own, or a `data:` URL of its inline data.
fn write_url(out: &mut Out<'_, '_>, m: &Media<'_>, default_type: &str) {
    match m.source {
        Source::Base64(d) => out.data_url(m.media_type.unwrap_or(default_type), d),
        Source::Url(u) | Source::File(u) | Source::Uri(u) | Source::Text(u) => out.w().string(u),
    }
}

/// Writes a user or system message.
fn write_message(out: &mut Out<'_, '_>, role: &'static str, content: &[Content<'_>]) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain(role);
    out.w().key_plain("content");
    write_content(out, content, true);
    out.w().end_object();
}

/// Writes a request body, or a list of messages.
pub(super) fn write_conversation(out: &mut Out<'_, '_>, c: &Conversation<'_>) {
    if c.body {
        out.w().begin_object();
        out.w().key_plain("messages");
    }
    out.w().begin_array();
    if !c.system.is_empty() {
        out.w().element();
        write_message(out, "system", c.system);
    }
    for turn in c.turns {
        match turn {
            Turn::System(m) => {
                out.w().element();
                write_message(out, "system", m.content);
            }
            Turn::User(m) => {
                out.w().element();
                write_message(out, "user", m.content);
            }
            Turn::Assistant(a) => {
                out.w().element();
                write_assistant(out, a);
            }
            Turn::Results(r) => write_results(out, r),
        }
    }
    out.w().end_array();
    if !c.body {
        return;
    }
    if let Some(tools) = &c.tools {
        out.w().key_plain("tools");
        out.w().json(tools);
    }
    match c.choice.choice {
        None => {}
        Some(choice) => {
            out.w().key_plain("tool_choice");
            match choice {
                Choice::Auto => out.w().string_plain("auto"),
                Choice::None => out.w().string_plain("none"),
                Choice::Required => out.w().string_plain("required"),
                Choice::Tool(name) => {
                    out.w().begin_object();
                    out.w().key_plain("type");
                    out.w().string_plain("function");
                    out.w().key_plain("function");
                    out.w().begin_object();
                    out.str_member("name", name);
                    out.w().end_object();
                    out.w().end_object();
                }
            }
        }
    }
    if let Some(parallel) = c.choice.parallel {
        out.w().key_plain("parallel_tool_calls");
        out.w().bool(parallel);
    }
    out.w().end_object();
}

/// Writes a `chat.completion` object. Members the source response does not have are written
/// with neutral values (`""`, `0`) where the type requires them.
pub(super) fn write_response(out: &mut Out<'_, '_>, r: &Response<'_>) {
    out.w().begin_object();
    out.str_member("id", r.id.unwrap_or_default());
    out.w().key_plain("object");
    out.w().string_plain("chat.completion");
    out.w().key_plain("created");
    out.w().raw(r.created.unwrap_or("0"));
    out.str_member("model", r.model.unwrap_or_default());
    out.w().key_plain("choices");
    out.w().begin_array();
    out.w().element();
    out.w().begin_object();
    out.w().key_plain("index");
    out.w().raw("0");
    out.w().key_plain("message");
    write_assistant(out, &r.turn);
    out.w().key_plain("finish_reason");
    out.w().string_plain(finish_name(&r.turn));
    out.w().end_object();
    out.w().end_array();
    if let (Some(input), Some(output)) = (r.input_tokens, r.output_tokens) {
        out.w().key_plain("usage");
        out.w().begin_object();
        out.w().key_plain("prompt_tokens");
        out.w().raw(input);
        out.w().key_plain("completion_tokens");
        out.w().raw(output);
        // Required beside the two counts (openai-python `CompletionUsage`, read 2026-11-28).
        out.sum("total_tokens", input, output);
        out.w().end_object();
    }
    out.w().end_object();
}
