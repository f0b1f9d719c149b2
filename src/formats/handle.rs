//! [`Format`]: a built-in format as a value, to parse from a name, print, compare and pass
//! wherever the crate takes a format. It wraps the format's adapter, so it costs a pointer and
//! reads the format's facts without a lookup.

use std::fmt;
use std::str::FromStr;

use crate::adapter::{Adapter, FormatInfo};
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::named::{Named, UnknownName};

/// A built-in format.
///
/// Parse one from its name (any ASCII case; an unknown name's error lists the known ones),
/// print it with `Display`, iterate [`Format::ALL`]. It is the format's [`Adapter`] (every
/// call handed to the built-in's), so `&Format::MCP` goes wherever a `&dyn Adapter` is taken,
/// and it is taken
/// wherever a format name is ([`crate::Registry::convert`]). Formats a caller writes itself
/// stay `&dyn Adapter`s, registered by name in a [`crate::Registry`].
///
/// ```
/// use tooladapter::{Converter, Format, Options, Registry};
///
/// let to: Format = "OpenAI".parse()?;
/// assert_eq!(to, Format::OPENAI);
/// assert_eq!(to.to_string(), "openai");
/// assert!(to.info().writes);
///
/// let input = br#"{"name":"echo","inputSchema":{"type":"object"}}"#;
/// // By value through a registry …
/// let a = Registry::default().convert(input, Format::MCP, to)?;
/// // … or as the adapter a converter takes.
/// let mut converter = Converter::new();
/// let b = converter.convert(input, &Format::MCP, &to, &Options::default())?;
/// assert_eq!(a.output(), b.output());
/// assert!(Format::ALL.iter().any(|f| f.name() == "gemini"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Format(&'static dyn Adapter);

impl Format {
    /// The format's name, as the CLI and reports spell it.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The format's facts ([`FormatInfo`]): what it reads and writes, its strict mode, its
    /// profile.
    pub fn info(self) -> &'static FormatInfo {
        self.0.info()
    }

    /// The format's adapter.
    pub fn adapter(self) -> &'static dyn Adapter {
        self.0
    }

    pub(crate) const fn of(adapter: &'static dyn Adapter) -> Format {
        Format(adapter)
    }
}

// A format is its adapter: `&Format::MCP` goes wherever a `&dyn Adapter` does.
impl Adapter for Format {
    crate::adapter::forward_adapter!(|self| self.0);
}

impl AsRef<str> for Format {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

// Two handles are the same format when they name the same one: names are unique in the list.
impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Format {}

impl std::hash::Hash for Format {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Format({})", self.name())
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Named for Format {
    const KIND: &'static str = "format";
    fn all() -> &'static [Format] {
        Format::ALL
    }
    fn name(self) -> &'static str {
        self.0.name()
    }
}

impl FromStr for Format {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Format, UnknownName> {
        crate::named::parse(s)
    }
}

/// What names a format where a [`crate::Converter`] takes one, as a [`crate::Registry`] takes a
/// [`Format`] or a name: a [`Format`] (`Format::MCP`), a built-in format's name (`"mcp"`, any
/// ASCII case), or an adapter (`&Mcp`, `&Format::MCP`, a `&dyn Adapter`, a format of your
/// own). A name that is no built-in format's is [`crate::ErrorKind::UnknownFormat`], listing
/// the names there are.
///
/// ```
/// use tooladapter::{Converter, Format, Options, formats::Mcp};
///
/// let input = br#"{"name":"echo","inputSchema":{"type":"object"}}"#;
/// let mut converter = Converter::new();
/// let options = Options::default();
/// let by_name = converter.convert(input, "mcp", "OpenAI", &options)?.output().to_vec();
/// let by_value = converter.convert(input, Format::MCP, Format::OPENAI, &options)?.output().to_vec();
/// let by_adapter = converter.convert(input, &Mcp, &Format::OPENAI, &options)?.output().to_vec();
/// assert!(by_name == by_value && by_value == by_adapter);
/// assert!(converter.convert(input, "gpt", "openai", &options).is_err());
/// # Ok::<(), tooladapter::ConversionError>(())
/// ```
pub trait IntoFormat<'a> {
    /// The format's adapter.
    ///
    /// # Errors
    /// [`crate::ErrorKind::UnknownFormat`] for a name no built-in format has.
    fn into_adapter(self, direction: Direction) -> Result<&'a dyn Adapter, ConversionError>;
}

impl IntoFormat<'static> for Format {
    fn into_adapter(self, _: Direction) -> Result<&'static dyn Adapter, ConversionError> {
        Ok(self.0)
    }
}

impl<'a, A: Adapter> IntoFormat<'a> for &'a A {
    fn into_adapter(self, _: Direction) -> Result<&'a dyn Adapter, ConversionError> {
        Ok(self)
    }
}

impl<'a> IntoFormat<'a> for &'a dyn Adapter {
    fn into_adapter(self, _: Direction) -> Result<&'a dyn Adapter, ConversionError> {
        Ok(self)
    }
}

impl IntoFormat<'static> for &str {
    fn into_adapter(self, direction: Direction) -> Result<&'static dyn Adapter, ConversionError> {
        match self.parse::<Format>() {
            Ok(format) => Ok(format.0),
            Err(unknown) => {
                Err(ConversionError::new(self, direction, "", ErrorKind::UnknownFormat(unknown)))
            }
        }
    }
}

impl IntoFormat<'static> for &String {
    fn into_adapter(self, direction: Direction) -> Result<&'static dyn Adapter, ConversionError> {
        self.as_str().into_adapter(direction)
    }
}

/// The adapters of `from` (read) and `to` (written), or the error for a name that is no
/// built-in format's.
pub(crate) fn adapters<'f, 't>(
    from: impl IntoFormat<'f>,
    to: impl IntoFormat<'t>,
) -> Result<(&'f dyn Adapter, &'t dyn Adapter), ConversionError> {
    Ok((from.into_adapter(Direction::ToCanonical)?, to.into_adapter(Direction::FromCanonical)?))
}

/// Declares the built-in formats once: a static adapter each, the `BUILTINS` slice that
/// [`super::builtins`] returns and a [`Format`] constant each, all in the list's order.
macro_rules! builtin_formats {
    ($($(#[$doc:meta])* $konst:ident: $ty:ty = $value:expr,)*) => {
        mod adapters {
            #[allow(clippy::wildcard_imports)]
            use super::*;
            $(pub(super) static $konst: $ty = $value;)*
        }

        static BUILTINS: &[&dyn Adapter] = &[$(&adapters::$konst),*];

        impl Format {
            $($(#[$doc])* pub const $konst: Format = Format::of(&adapters::$konst);)*

            /// Every built-in format, in [`builtins`] order.
            pub const ALL: &'static [Format] = &[$(Format::$konst),*];
        }
    };
}
pub(super) use builtin_formats;
