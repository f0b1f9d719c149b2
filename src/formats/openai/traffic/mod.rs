//! OpenAI's tool traffic: Chat Completions (`chat.rs` reads, `chat_write.rs` writes) and
//! Responses.

mod chat;
mod chat_content;
mod chat_write;

pub use chat::ChatTraffic;

/// Chat Completions traffic, as [`super::OpenAi`] hands it out.
pub(crate) static CHAT: ChatTraffic = ChatTraffic;
