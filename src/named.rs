//! Values spelled by name on the command line and in configuration ([`crate::Format`],
//! [`crate::Strict`], [`crate::ProfileSet`], [`crate::Action`], [`crate::Severity`],
//! [`crate::DenyLoss`]): one way to parse them (ASCII case-insensitive) and one error that
//! lists the names that would have been accepted, so the CLI and a library caller read names
//! alike.

use std::fmt;

/// A name that matches none of a kind's values, with the names that would have matched.
///
/// ```
/// use tooladapter::Format;
///
/// let err = "gpt".parse::<Format>().unwrap_err();
/// assert_eq!(err.name(), "gpt");
/// assert!(err.to_string().starts_with(r#"unknown format "gpt"; expected one of: mcp, openai"#));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    kind: &'static str,
    name: String,
    known: Vec<String>,
}

impl UnknownName {
    pub(crate) fn new(
        kind: &'static str,
        name: &str,
        known: impl IntoIterator<Item = &'static str>,
    ) -> UnknownName {
        let known = known.into_iter().map(str::to_owned).collect();
        UnknownName { kind, name: name.to_owned(), known }
    }

    /// Adds a name that would have been accepted (a format a caller registered).
    pub(crate) fn push_known(&mut self, name: &str) {
        self.known.push(name.to_owned());
    }

    /// What was being named (`format`, `strict mode`, …).
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names that would have been accepted, in their documented order.
    pub fn known(&self) -> &[String] {
        &self.known
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}; expected one of: {}",
            self.kind,
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// A closed set of values, each with one name.
pub(crate) trait Named: Copy + 'static {
    /// What the values are called in an error (`format`).
    const KIND: &'static str;
    /// Every value, in the documented order.
    fn all() -> &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
}

/// The value named `name`, compared without regard to ASCII case (`MCP` is `mcp`).
pub(crate) fn parse<T: Named>(name: &str) -> Result<T, UnknownName> {
    let all = T::all();
    all.iter()
        .copied()
        .find(|v| v.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| UnknownName::new(T::KIND, name, all.iter().map(|v| v.name())))
}

/// `FromStr` (through [`parse`]) and `Named` for an enum with `ALL` and `as_str`; `Display`
/// too unless the type has its own.
macro_rules! named {
    ($ty:ty, $kind:literal) => {
        impl $crate::named::Named for $ty {
            const KIND: &'static str = $kind;
            fn all() -> &'static [Self] {
                &<$ty>::ALL
            }
            fn name(self) -> &'static str {
                self.as_str()
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::named::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $crate::named::parse(s)
            }
        }
    };
    ($ty:ty, $kind:literal, display) => {
        $crate::named::named!($ty, $kind);

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

// Each type keeps its `ALL` and `as_str` and its `named!` line beside its definition, so this
// module names none of them (it imports nothing from the crate); how names are read is here.
pub(crate) use named;

#[cfg(test)]
mod tests {
    use crate::{Action, DenyLoss, ProfileSet, Severity, Strict};

    #[test]
    fn every_value_round_trips_through_its_name_in_any_case() {
        fn check<T: super::Named + std::str::FromStr + std::fmt::Display + PartialEq>()
        where
            T::Err: std::fmt::Debug,
        {
            for &v in T::all() {
                assert_eq!(v.to_string(), v.name());
                assert!(v.name().parse::<T>().is_ok_and(|p| p == v));
                assert!(v.name().to_ascii_uppercase().parse::<T>().is_ok_and(|p| p == v));
            }
        }
        check::<Strict>();
        check::<ProfileSet>();
        check::<Action>();
        check::<Severity>();
        check::<DenyLoss>();
        check::<crate::Format>();
        check::<crate::ModelFamily>();
        check::<crate::traffic::TrafficKind>();
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let err = "sometimes".parse::<Strict>().unwrap_err();
        assert_eq!(err.kind(), "strict mode");
        assert_eq!(err.known(), ["source", "on", "require", "off"]);
        assert_eq!(
            err.to_string(),
            r#"unknown strict mode "sometimes"; expected one of: source, on, require, off"#
        );
        assert!("".parse::<Action>().is_err());
    }
}
