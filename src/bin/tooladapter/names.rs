//! Clap parsers for the library's named values ([`Format`], [`Strict`], [`ProfileSet`],
//! [`DenyLoss`], [`Severity`], [`TrafficKind`]): each flag reads the library type through its
//! `FromStr` (any ASCII case), so the CLI keeps no copy of the names, and lists the values it
//! takes, so `--help` shows them. A name the library knows that the flag does not take (`--to openapi`,
//! an import-only format) is a usage error saying why, like an unknown one.

use std::ffi::OsStr;
use std::str::FromStr;

use clap::builder::{PossibleValue, TypedValueParser};
use tooladapter::traffic::TrafficKind;
use tooladapter::{
    Adapter, DenyLoss, Format, ModelFamily, ProfileSet, Severity, Strict, UnknownName,
};

/// A flag's parser: the values it takes, by name, and why a value the library knows is not
/// one of them.
#[derive(Clone)]
pub(crate) struct Named<T: 'static> {
    values: Vec<(&'static str, T)>,
    /// Why a value outside `values` is refused (`openapi is import only …`).
    refused: fn(&str) -> String,
}

impl<T: Copy + PartialEq> Named<T> {
    fn new(
        values: impl IntoIterator<Item = (&'static str, T)>,
        refused: fn(&str) -> String,
    ) -> Self {
        Named { values: values.into_iter().collect(), refused }
    }

    fn names(&self) -> String {
        self.values.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    }
}

/// Refusal message of a flag that takes every value of its type (never shown).
fn takes_all(name: &str) -> String {
    format!("{name} is not taken here")
}

/// `--from`: every format that reads.
pub(crate) fn source() -> Named<Format> {
    let readers = Format::ALL.iter().filter(|f| f.info().reads);
    Named::new(readers.map(|f| (f.name(), *f)), |name| {
        format!("the {name} format is write-only: it cannot be read")
    })
}

/// `--to`: every format that writes; an import-only one (OpenAPI) is refused by name.
pub(crate) fn target() -> Named<Format> {
    let writers = Format::ALL.iter().filter(|f| f.info().writes);
    Named::new(writers.map(|f| (f.name(), *f)), |name| {
        format!("the {name} format is import only: it can be read (--from), not written")
    })
}

/// `traffic --from` and `--to`: every format that speaks tool traffic.
pub(crate) fn traffic() -> Named<Format> {
    let speaking = Format::ALL.iter().filter(|f| f.traffic().is_some());
    Named::new(speaking.map(|f| (f.name(), *f)), |name| {
        format!("the {name} format has tool definitions only, no tool traffic")
    })
}

/// The formats that stream, as an error lists them.
pub(crate) fn stream_formats() -> String {
    let streaming = Format::ALL.iter().filter(|f| f.adapter().stream().is_some());
    streaming.map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// `traffic --kind`: the payload kinds, then `stream`.
pub(crate) fn traffic_kind() -> Named<crate::traffic::Kind> {
    use crate::traffic::Kind;
    let payloads = TrafficKind::ALL.map(|k| (k.as_str(), Kind::Payload(k)));
    Named::new(payloads.into_iter().chain([("stream", Kind::Stream)]), takes_all)
}

/// `--strict[=on|require]`: `off` and `source` are `--no-strict` and no flag.
pub(crate) fn strict() -> Named<Strict> {
    Named::new([Strict::On, Strict::Require].map(|s| (s.as_str(), s)), |name| {
        format!("`{name}` is not a --strict mode (--no-strict writes every tool non-strict)")
    })
}

/// `--profile`.
pub(crate) fn profile() -> Named<ProfileSet> {
    Named::new(ProfileSet::ALL.map(|p| (p.as_str(), p)), takes_all)
}

/// `--model-family`.
pub(crate) fn model_family() -> Named<ModelFamily> {
    Named::new(ModelFamily::ALL.map(|f| (f.as_str(), f)), takes_all)
}

/// `--deny-loss[=RULE]`.
pub(crate) fn deny_loss() -> Named<DenyLoss> {
    Named::new(DenyLoss::ALL.map(|d| (d.as_str(), d)), takes_all)
}

/// `--report-level`.
pub(crate) fn severity() -> Named<Severity> {
    Named::new(Severity::ALL.map(|s| (s.as_str(), s)), takes_all)
}

impl<T> TypedValueParser for Named<T>
where
    T: FromStr<Err = UnknownName> + Copy + PartialEq + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg.map(|a| a.to_string()).unwrap_or_default();
        let text = value.to_string_lossy();
        let why = match text.parse::<T>() {
            Ok(v) if self.values.iter().any(|(_, x)| *x == v) => return Ok(v),
            Ok(_) => (self.refused)(&text),
            Err(e) => format!("unknown {} {:?}", e.kind(), e.name()),
        };
        let message = format!(
            "invalid value '{text}' for '{flag}': {why}; expected one of: {}",
            self.names()
        );
        Err(cmd.clone().error(clap::error::ErrorKind::InvalidValue, message))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().map(|(n, _)| PossibleValue::new(*n))))
    }
}
