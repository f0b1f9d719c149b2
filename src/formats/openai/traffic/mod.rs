//! OpenAI's tool traffic: Chat Completions (`chat.rs` and `chat_content.rs` read,
//! `chat_write.rs` writes) and Responses (`responses.rs` reads, `responses_write.rs` writes).

mod chat;
mod chat_content;
mod chat_write;
mod responses;
mod responses_write;

pub use chat::ChatTraffic;
pub use responses::ResponsesTraffic;
pub(super) use responses_write::usage_details;

/// Chat Completions traffic, as [`super::OpenAi`] hands it out.
pub(crate) static CHAT: ChatTraffic = ChatTraffic;

/// Responses traffic, as [`super::OpenAiResponses`] hands it out.
pub(crate) static RESPONSES: ResponsesTraffic = ResponsesTraffic;
