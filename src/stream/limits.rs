//! The bounds of one stream and which one a stream broke: plain data that the transcoder and
//! its core both read, kept apart so that neither imports the other for it.

/// The limits of one stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Most calls open at once. Default 1,024 (providers send at most 128 tools a request).
    pub max_open_calls: usize,
    /// Most bytes held between events: arguments kept to the end of their call, and what a
    /// target that repeats its output at its end keeps to the end of the message. Default
    /// 64 MiB.
    pub max_buffered_bytes: usize,
    /// Largest event (or SSE line) read. Default 16 MiB.
    pub max_event_bytes: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            max_open_calls: 1024,
            max_buffered_bytes: 64 << 20,
            max_event_bytes: 16 << 20,
        }
    }
}

/// Which limit a stream broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamLimit {
    /// More calls open at once than [`StreamLimits::max_open_calls`].
    #[error("more than {limit} calls open at once")]
    OpenCalls {
        /// The limit.
        limit: usize,
    },
    /// More bytes held than [`StreamLimits::max_buffered_bytes`].
    #[error("more than {limit} bytes held between events")]
    Buffered {
        /// The limit.
        limit: usize,
    },
    /// An event larger than [`StreamLimits::max_event_bytes`].
    #[error("an event over {limit} bytes")]
    Event {
        /// The limit.
        limit: usize,
    },
}
