//! Writing Anthropic Messages traffic: `tool_use` and `tool_result` blocks, a request body and
//! the `Message` response.

use crate::ir::traffic::{
    Assistant, Block, Choice, Content, Conversation, Finish, Part, Response, Results, Source, Turn,
};
use crate::traffic::Out;

fn stop_reason(turn: &Assistant<'_>) -> &'static str {
    if turn.calls().next().is_some() {
        return "tool_use";
    }
    match turn.finish.map(|(f, _)| f) {
        Some(Finish::Length) => "max_tokens",
        Some(Finish::StopSequence) => "stop_sequence",
        Some(Finish::Filtered) => "refusal",
        _ => "end_turn",
    }
}

/// Writes the content blocks of an assistant turn.
fn write_parts(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    out.w().begin_array();
    for part in a.parts {
        match part {
            Part::Text(c) => {
                out.w().element();
                write_block(out, c);
            }
            Part::Call(c) => {
                out.w().element();
                out.w().begin_object();
                out.w().key_plain("type");
                out.w().string_plain("tool_use");
                out.str_member("id", c.id.unwrap_or_default());
                out.str_member("name", c.name);
                out.w().key_plain("input");
                out.args_object(&c.arguments);
                out.w().end_object();
            }
            // Reasoning and other providers' blocks are left out by the pass.
            Part::Reasoning(_) | Part::Other(_) => {}
        }
    }
    out.w().end_array();
}

/// Writes an assistant message.
pub(super) fn write_assistant(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("assistant");
    out.w().key_plain("content");
    write_parts(out, a);
    out.w().end_object();
}

/// Writes a text, image or document block.
fn write_block(out: &mut Out<'_, '_>, c: &Content<'_>) {
    out.w().begin_object();
    match c.block {
        Block::Text(t) => {
            out.w().key_plain("type");
            out.w().string_plain("text");
            out.str_member("text", t);
        }
        Block::Image(m) | Block::Document(m) => {
            out.w().key_plain("type");
            out.w().string_plain(if matches!(c.block, Block::Image(_)) {
                "image"
            } else {
                "document"
            });
            out.w().key_plain("source");
            out.w().begin_object();
            match m.source {
                Source::Base64(d) => {
                    out.w().key_plain("type");
                    out.w().string_plain("base64");
                    out.str_member(
                        "media_type",
                        m.media_type.unwrap_or("application/octet-stream"),
                    );
                    out.str_member("data", d);
                }
                Source::Url(u) | Source::Uri(u) => {
                    out.w().key_plain("type");
                    out.w().string_plain("url");
                    out.str_member("url", u);
                }
                Source::File(id) => {
                    out.w().key_plain("type");
                    out.w().string_plain("file");
                    out.str_member("file_id", id);
                }
                Source::Text(t) => {
                    out.w().key_plain("type");
                    out.w().string_plain("text");
                    out.str_member("media_type", "text/plain");
                    out.str_member("data", t);
                }
            }
            out.w().end_object();
            if let (Block::Document(_), Some(title)) = (c.block, m.name) {
                out.str_member("title", title);
            }
        }
        // The pass leaves only the kinds the rules list.
        _ => {}
    }
    out.w().end_object();
}

/// Writes a user message of results (results first, then the content sent with them).
pub(super) fn write_results(out: &mut Out<'_, '_>, r: &Results<'_>) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain("user");
    out.w().key_plain("content");
    out.w().begin_array();
    for result in r.results {
        out.w().element();
        out.w().begin_object();
        out.w().key_plain("type");
        out.w().string_plain("tool_result");
        out.str_member("tool_use_id", result.call_id.unwrap_or_default());
        match result.content {
            [] => {}
            [Content { block: Block::Text(t), .. }] => out.str_member("content", t),
            blocks => {
                out.w().key_plain("content");
                out.w().begin_array();
                for c in blocks {
                    out.w().element();
                    write_block(out, c);
                }
                out.w().end_array();
            }
        }
        if result.error {
            out.w().key_plain("is_error");
            out.w().bool(true);
        }
        out.w().end_object();
    }
    for c in r.after {
        out.w().element();
        write_block(out, c);
    }
    out.w().end_array();
    out.w().end_object();
}

/// Writes a user message.
fn write_user(out: &mut Out<'_, '_>, content: &[Content<'_>]) {
    out.role_message("user", "content", content, |out, c| write_block(out, c));
}

/// Writes a request body (a list of messages with system text becomes one, which has a
/// place for it), or a list of messages.
pub(super) fn write_conversation(out: &mut Out<'_, '_>, c: &Conversation<'_>) {
    let body = c.body || !c.system.is_empty();
    if body {
        out.w().begin_object();
        if !c.system.is_empty() {
            out.w().key_plain("system");
            out.w().begin_array();
            for s in c.system {
                out.w().element();
                write_block(out, s);
            }
            out.w().end_array();
        }
        out.w().key_plain("messages");
    }
    out.w().begin_array();
    for turn in c.turns {
        out.w().element();
        match turn {
            Turn::User(m) | Turn::System(m) => write_user(out, m.content),
            Turn::Assistant(a) => write_assistant(out, a),
            Turn::Results(r) => write_results(out, r),
        }
    }
    out.w().end_array();
    if !body {
        return;
    }
    if let Some(tools) = &c.tools {
        out.w().key_plain("tools");
        out.w().json(tools);
    }
    let disable = c.choice.parallel == Some(false);
    if c.choice.choice.is_some() || disable {
        out.w().key_plain("tool_choice");
        out.w().begin_object();
        out.w().key_plain("type");
        match c.choice.choice.unwrap_or(Choice::Auto) {
            Choice::Auto => out.w().string_plain("auto"),
            Choice::None => out.w().string_plain("none"),
            Choice::Required => out.w().string_plain("any"),
            Choice::Tool(name) => {
                out.w().string_plain("tool");
                out.str_member("name", name);
            }
        }
        if disable {
            out.w().key_plain("disable_parallel_tool_use");
            out.w().bool(true);
        }
        out.w().end_object();
    }
    out.w().end_object();
}

/// Writes a `Message` response. Members the source response does not have are written with
/// neutral values where the type requires them.
pub(super) fn write_response(out: &mut Out<'_, '_>, r: &Response<'_>) {
    out.w().begin_object();
    out.str_member("id", r.id.unwrap_or_default());
    out.w().key_plain("type");
    out.w().string_plain("message");
    out.w().key_plain("role");
    out.w().string_plain("assistant");
    out.str_member("model", r.model.unwrap_or_default());
    out.w().key_plain("content");
    write_parts(out, &r.turn);
    out.w().key_plain("stop_reason");
    out.w().string_plain(stop_reason(&r.turn));
    out.w().key_plain("stop_sequence");
    out.w().raw("null");
    out.w().key_plain("usage");
    out.w().begin_object();
    out.w().key_plain("input_tokens");
    out.w().raw(r.input_tokens.unwrap_or("0"));
    out.w().key_plain("output_tokens");
    out.w().raw(r.output_tokens.unwrap_or("0"));
    out.w().end_object();
    out.w().end_object();
}
