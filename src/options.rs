//! Conversion options and safety limits.

/// Safety limits. Every breach is a [`crate::ConversionError`] with the pointer of the place;
/// none is an abort. The defaults admit every real catalog we know of with a wide margin.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of JSON containers, counted from the document root. Lowering and every
    /// pass recurse, so this bound is also what keeps them off the end of the stack. Default 128,
    /// as serde_json; real tool schemas nest under 10.
    pub max_depth: usize,
    /// Largest input accepted, in bytes. Default 256 MiB.
    pub max_input_bytes: usize,
    /// Largest arena a conversion may grow, in bytes. Default 512 MiB.
    pub max_arena_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 128, max_input_bytes: 256 << 20, max_arena_bytes: 512 << 20 }
    }
}

/// Options for one conversion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Safety limits.
    pub limits: Limits,
    /// Indent the output (two spaces) instead of writing it compact.
    pub pretty: bool,
}

impl Options {
    /// Default options.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets the nesting depth limit.
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Options {
        self.limits.max_depth = depth;
        self
    }

    /// Sets the input size limit.
    #[must_use]
    pub fn max_input_bytes(mut self, bytes: usize) -> Options {
        self.limits.max_input_bytes = bytes;
        self
    }

    /// Sets the arena size limit.
    #[must_use]
    pub fn max_arena_bytes(mut self, bytes: usize) -> Options {
        self.limits.max_arena_bytes = bytes;
        self
    }

    /// Indents the output.
    #[must_use]
    pub fn pretty(mut self, pretty: bool) -> Options {
        self.pretty = pretty;
        self
    }
}
