//! Text known at compile time, written in one fixed-size copy.

/// Text known at compile time, padded to a fixed width: writing it is a copy of the whole
/// array and a truncate, which compiles to a few moves instead of a `memcpy` call.
pub(super) struct Padded {
    /// The text, then zeros.
    bytes: [u8; PADDED],
    /// How many bytes of `bytes` are text.
    len: usize,
}

/// The width of [`Padded`] text: `,"unevaluatedProperties":` fits.
const PADDED: usize = 32;

impl Padded {
    /// Nothing.
    pub(super) const EMPTY: Padded = Padded { bytes: [0; PADDED], len: 0 };

    /// `prefix"text"suffix` (a `,` before a member that is not the first, a `:` after a key).
    pub(super) const fn quoted(prefix: &[u8], text: &str, suffix: &[u8]) -> Padded {
        Padded::EMPTY.then(prefix).then(b"\"").then(text.as_bytes()).then(b"\"").then(suffix)
    }

    /// The text followed by `more`.
    #[allow(clippy::indexing_slicing, reason = "const build; the longest keyword fits")]
    const fn then(mut self, more: &[u8]) -> Padded {
        let mut i = 0;
        while i < more.len() {
            self.bytes[self.len + i] = more[i];
            i += 1;
        }
        self.len += more.len();
        self
    }

    /// `"text"` plus `suffix`, if it fits. Inlined with a literal `text`, this folds to a
    /// constant.
    #[inline(always)]
    pub(super) fn fit(text: &str, suffix: &[u8]) -> Option<Padded> {
        let mut bytes = [0u8; PADDED];
        let len = text.len() + 2 + suffix.len();
        let (open, rest) = bytes.get_mut(..len)?.split_first_mut()?;
        *open = b'"';
        let (body, rest) = rest.split_at_mut(text.len());
        body.copy_from_slice(text.as_bytes());
        let (close, tail) = rest.split_first_mut()?;
        *close = b'"';
        tail.copy_from_slice(suffix);
        Some(Padded { bytes, len })
    }

    /// `text` as it is, if it fits. Inlined with a literal `text`, this folds to a constant.
    #[inline(always)]
    pub(super) fn fit_raw(text: &str) -> Option<Padded> {
        let mut bytes = [0u8; PADDED];
        bytes.get_mut(..text.len())?.copy_from_slice(text.as_bytes());
        Some(Padded { bytes, len: text.len() })
    }

    /// Appends the text to `out`.
    #[inline]
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len;
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
    }
}
