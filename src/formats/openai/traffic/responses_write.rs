//! Writing OpenAI Responses traffic: `function_call` (or `custom_tool_call`) items,
//! `function_call_output` items, a request's `input` with `instructions` and the tool choice,
//! and the `Response` object.

use crate::emit::Writer;
use crate::ir::traffic::{
    Assistant, Block, Choice, Content, Conversation, Finish, Media, Part, Response, Results,
    Source, Turn,
};
use crate::traffic::Out;

/// Writes one call item.
fn call(out: &mut Out<'_, '_>, c: &crate::ir::traffic::Call<'_>) {
    out.w().begin_object();
    out.w().key_plain("type");
    out.w().string_plain(if c.custom { "custom_tool_call" } else { "function_call" });
    out.str_member("call_id", c.id.unwrap_or_default());
    out.str_member("name", c.name);
    if c.custom {
        out.w().key_plain("input");
        out.args_object(&c.arguments);
    } else {
        out.w().key_plain("arguments");
        out.args_text(&c.arguments);
    }
    out.w().end_object();
}

/// Writes the model's text as an assistant message item: an input item, its content the text
/// alone (openai-python's `EasyInputMessageParam`: an input message's parts are input parts,
/// which an assistant's text is not, read 2026-11-28), or (`output`) an output item, which
/// also states its id, status and annotations.
fn message(out: &mut Out<'_, '_>, text: &str, output: bool) {
    out.w().begin_object();
    if output {
        out.w().key_plain("id");
        out.w().string_plain("");
    }
    out.w().key_plain("type");
    out.w().string_plain("message");
    out.w().key_plain("role");
    out.w().string_plain("assistant");
    if !output {
        out.str_member("content", text);
        out.w().end_object();
        return;
    }
    out.w().key_plain("status");
    out.w().string_plain("completed");
    out.w().key_plain("content");
    out.w().begin_array();
    out.w().element();
    out.w().begin_object();
    out.w().key_plain("type");
    out.w().string_plain("output_text");
    out.str_member("text", text);
    out.w().key_plain("annotations");
    out.w().begin_array();
    out.w().end_array();
    out.w().end_object();
    out.w().end_array();
    out.w().end_object();
}

/// Writes the items of an assistant turn (each an element of the list being written).
fn items(out: &mut Out<'_, '_>, a: &Assistant<'_>, output: bool) {
    for part in a.parts {
        match part {
            Part::Text(Content { block: Block::Text(t), .. }) => {
                out.w().element();
                message(out, t, output);
            }
            Part::Call(c) => {
                out.w().element();
                call(out, c);
            }
            _ => {}
        }
    }
}

/// Writes a calls turn: one call item alone, else a list of items.
pub(super) fn calls(out: &mut Out<'_, '_>, a: &Assistant<'_>) {
    if let [Part::Call(c)] = a.parts {
        return call(out, c);
    }
    out.w().begin_array();
    items(out, a, false);
    out.w().end_array();
}

/// Writes an output's or a message's content: one text as a string, else parts.
fn content(out: &mut Out<'_, '_>, content: &[Content<'_>]) {
    if let [Content { block: Block::Text(t), .. }] = content {
        return out.w().string(t);
    }
    out.w().begin_array();
    for c in content {
        out.w().element();
        out.w().begin_object();
        match c.block {
            Block::Text(t) => {
                out.w().key_plain("type");
                out.w().string_plain("input_text");
                out.str_member("text", t);
            }
            Block::Image(m) => {
                out.w().key_plain("type");
                out.w().string_plain("input_image");
                match m.source {
                    Source::File(id) => out.str_member("file_id", id),
                    _ => {
                        out.w().key_plain("image_url");
                        url(out, &m, "image/png");
                    }
                }
                // Required (openai-python `ResponseInputImageParam.detail`, read 2026-11-28):
                // the API's default.
                out.w().key_plain("detail");
                out.w().string_plain("auto");
            }
            Block::Document(m) => {
                out.w().key_plain("type");
                match m.source {
                    Source::Text(t) => {
                        out.w().string_plain("input_text");
                        out.str_member("text", t);
                    }
                    Source::File(id) => {
                        out.w().string_plain("input_file");
                        out.str_member("file_id", id);
                    }
                    Source::Url(u) | Source::Uri(u) => {
                        out.w().string_plain("input_file");
                        out.str_member("file_url", u);
                    }
                    Source::Base64(_) => {
                        out.w().string_plain("input_file");
                        out.w().key_plain("file_data");
                        url(out, &m, "application/pdf");
                    }
                }
                if let (Some(name), false) = (m.name, matches!(m.source, Source::Text(_))) {
                    out.str_member("filename", name);
                }
            }
            // The pass leaves only the kinds the rules list.
            _ => {}
        }
        out.w().end_object();
    }
    out.w().end_array();
}

/// A media block's URL: its own, or a `data:` URL of its inline data.
fn url(out: &mut Out<'_, '_>, m: &Media<'_>, default_type: &str) {
    match m.source {
        Source::Base64(d) => out.data_url(m.media_type.unwrap_or(default_type), d),
        Source::Url(u) | Source::File(u) | Source::Uri(u) | Source::Text(u) => out.w().string(u),
    }
}

/// Writes the output items of a results turn, then the content sent with them as a user
/// message (each an element of the list being written).
fn output_items(out: &mut Out<'_, '_>, r: &Results<'_>) {
    for result in r.results {
        out.w().element();
        out.w().begin_object();
        out.w().key_plain("type");
        out.w().string_plain("function_call_output");
        out.str_member("call_id", result.call_id.unwrap_or_default());
        out.w().key_plain("output");
        if result.content.is_empty() {
            out.w().string_plain("");
        } else {
            content(out, result.content);
        }
        out.w().end_object();
    }
    if !r.after.is_empty() {
        out.w().element();
        user(out, "user", r.after);
    }
}

/// Writes a results turn: one output item alone, else a list.
pub(super) fn results(out: &mut Out<'_, '_>, r: &Results<'_>) {
    let many = r.results.len() != 1 || !r.after.is_empty();
    if many {
        out.w().begin_array();
    }
    output_items(out, r);
    if many {
        out.w().end_array();
    }
}

/// Writes a user or system message item.
fn user(out: &mut Out<'_, '_>, role: &'static str, c: &[Content<'_>]) {
    out.w().begin_object();
    out.w().key_plain("role");
    out.w().string_plain(role);
    out.w().key_plain("content");
    content(out, c);
    out.w().end_object();
}

/// Writes a request (its system text as `instructions`), or a list of items.
pub(super) fn conversation(out: &mut Out<'_, '_>, c: &Conversation<'_>) {
    if c.body {
        out.w().begin_object();
        if !c.system.is_empty() {
            out.w().key_plain("instructions");
            let texts = c.system.iter().filter_map(|s| match s.block {
                Block::Text(t) => Some(t),
                _ => None,
            });
            out.joined(texts);
        }
        out.w().key_plain("input");
    }
    out.w().begin_array();
    if !c.body && !c.system.is_empty() {
        out.w().element();
        user(out, "system", c.system);
    }
    for turn in c.turns {
        match turn {
            Turn::System(m) => {
                out.w().element();
                user(out, "system", m.content);
            }
            Turn::User(m) => {
                out.w().element();
                user(out, "user", m.content);
            }
            Turn::Assistant(a) => items(out, a, false),
            Turn::Results(r) => output_items(out, r),
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
    if let Some(choice) = c.choice.choice {
        out.w().key_plain("tool_choice");
        match choice {
            Choice::Auto => out.w().string_plain("auto"),
            Choice::None => out.w().string_plain("none"),
            Choice::Required => out.w().string_plain("required"),
            Choice::Tool(name) => {
                out.w().begin_object();
                out.w().key_plain("type");
                out.w().string_plain("function");
                out.str_member("name", name);
                out.w().end_object();
            }
        }
    }
    if let Some(parallel) = c.choice.parallel {
        out.w().key_plain("parallel_tool_calls");
        out.w().bool(parallel);
    }
    out.w().end_object();
}

/// Writes a `Response` object. Members the source response does not have are written with
/// neutral values where the type requires them.
pub(super) fn response(out: &mut Out<'_, '_>, r: &Response<'_>) {
    out.w().begin_object();
    out.str_member("id", r.id.unwrap_or_default());
    out.w().key_plain("object");
    out.w().string_plain("response");
    out.w().key_plain("created_at");
    out.w().raw(r.created.unwrap_or("0"));
    out.str_member("model", r.model.unwrap_or_default());
    let incomplete = match r.turn.finish.map(|(f, _)| f) {
        Some(Finish::Length) => Some("max_output_tokens"),
        Some(Finish::Filtered) => Some("content_filter"),
        _ => None,
    };
    out.w().key_plain("status");
    out.w().string_plain(if incomplete.is_some() { "incomplete" } else { "completed" });
    if let Some(reason) = incomplete {
        out.w().key_plain("incomplete_details");
        out.w().begin_object();
        out.w().key_plain("reason");
        out.w().string_plain(reason);
        out.w().end_object();
    }
    out.w().key_plain("output");
    out.w().begin_array();
    items(out, &r.turn, true);
    out.w().end_array();
    // Required by openai-python's `Response` (`types/responses/response.py`, read 2026-11-28)
    // and not carried by a response from elsewhere: the API's defaults.
    out.w().key_plain("parallel_tool_calls");
    out.w().bool(true);
    out.w().key_plain("tool_choice");
    out.w().string_plain("auto");
    out.w().key_plain("tools");
    out.w().begin_array();
    out.w().end_array();
    if let (Some(input), Some(output)) = (r.input_tokens, r.output_tokens) {
        out.w().key_plain("usage");
        usage(out, input, output);
    }
    out.w().end_object();
}

/// Writes a `ResponseUsage`: the two counts, their sum, and the details its type requires.
fn usage(out: &mut Out<'_, '_>, input: &str, output: &str) {
    out.w().begin_object();
    out.w().key_plain("input_tokens");
    out.w().raw(input);
    out.w().key_plain("output_tokens");
    out.w().raw(output);
    out.sum("total_tokens", input, output);
    usage_details(out.w());
    out.w().end_object();
}

/// Writes the two details objects a `ResponseUsage` requires (openai-python
/// `types/responses/response_usage.py`, read 2026-11-28), with the counts no other provider
/// gives as 0. The stream writer's `response.completed` writes them too.
pub(crate) fn usage_details(w: &mut Writer<'_>) {
    w.key_plain("input_tokens_details");
    w.begin_object();
    w.key_plain("cache_write_tokens");
    w.raw("0");
    w.key_plain("cached_tokens");
    w.raw("0");
    w.end_object();
    w.key_plain("output_tokens_details");
    w.begin_object();
    w.key_plain("reasoning_tokens");
    w.raw("0");
    w.end_object();
}
