//! What a report entry does to the arguments a tool accepts ([`Effect`]), the rule tying an
//! entry's severity to it, and the rules a caller denies losses by ([`DenyLoss`]).
//!
//! Every rewrite declares its effect where it records its entry (the passes know what they
//! wrote); nothing here reads a message. The severity follows: `info` only where the
//! arguments accepted are unchanged, at least `warning` where they change, `error` where a
//! tool is left out ([`consistent`] says whether an entry keeps that rule; the report checks
//! every entry it records against it in debug builds).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Severity;

/// What an entry's change does to the calls a tool accepts: the set of argument objects
/// the target's tool accepts, compared with the source's (for a strict target, through the
/// inverse map: the `null`s it drops and the names it restores).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Effect {
    /// The same calls are accepted: a rewrite into an equivalent form, an annotation dropped,
    /// or an entry about something other than the arguments (see [`ReportEntry::arguments`]).
    ///
    /// [`ReportEntry::arguments`]: super::ReportEntry::arguments
    #[default]
    None,
    /// Some calls the source accepts are refused; nothing new is accepted (strict mode
    /// closing an object that declares properties; a tool left out refuses every call).
    Narrows,
    /// Some calls the source refuses are accepted; nothing it accepts is refused (a constraint
    /// dropped, or moved into the description where only the model reads it).
    Widens,
    /// Both: some calls change sides each way (an object given as JSON text, a type read
    /// from a name JSON Schema does not define).
    Changes,
}

impl Effect {
    /// Every effect, from the least change to the most.
    pub const ALL: [Effect; 4] = [Effect::None, Effect::Narrows, Effect::Widens, Effect::Changes];

    /// The effect as printed, e.g. `widens`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Effect::None => "none",
            Effect::Narrows => "narrows",
            Effect::Widens => "widens",
            Effect::Changes => "changes",
        }
    }

    /// Whether some calls the source accepts are refused (`narrows` or `changes`).
    pub const fn narrows(self) -> bool {
        matches!(self, Effect::Narrows | Effect::Changes)
    }

    /// Whether some calls the source refuses are accepted (`widens` or `changes`).
    pub const fn widens(self) -> bool {
        matches!(self, Effect::Widens | Effect::Changes)
    }

    /// The effect of two changes made together: narrowing and widening make `changes`.
    #[must_use]
    pub const fn and(self, other: Effect) -> Effect {
        match (self.narrows() || other.narrows(), self.widens() || other.widens()) {
            (false, false) => Effect::None,
            (true, false) => Effect::Narrows,
            (false, true) => Effect::Widens,
            (true, true) => Effect::Changes,
        }
    }

    /// The least severity an entry with this effect has: `info` for none, `warning` for
    /// any change.
    pub const fn least_severity(self) -> Severity {
        match self {
            Effect::None => Severity::Info,
            _ => Severity::Warning,
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether an entry of `severity`, `effect` and `arguments` keeps the report's rule:
/// `info` only when the same calls are accepted; an entry about something other than the
/// arguments changes none; an `error` (the tool is left out, or the provider would refuse
/// it) refuses every call the tool took, so it narrows.
pub const fn consistent(severity: Severity, effect: Effect, arguments: bool) -> bool {
    let about_arguments = arguments || matches!(effect, Effect::None);
    let by_severity = match severity {
        Severity::Info => matches!(effect, Effect::None),
        Severity::Warning => true,
        Severity::Error => matches!(effect, Effect::Narrows) && arguments,
    };
    about_arguments && by_severity
}

/// Which losses fail a conversion for a caller that denies them (CLI `--deny-loss[=…]`,
/// [`crate::Options::deny_loss`]). An `error` entry (a tool left out) fails under every
/// rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DenyLoss {
    /// Any entry at `warning` or above (`--deny-loss`, `--deny-loss=any`).
    #[default]
    Any,
    /// Entries that accept calls the source refused: effect `widens` or `changes`
    /// (`--deny-loss=widens`: a gateway that takes strict mode's narrowing, never a widening).
    Widens,
    /// Entries that refuse calls the source accepted: effect `narrows` or `changes`
    /// (`--deny-loss=narrows`).
    Narrows,
}

impl DenyLoss {
    /// Every rule, in the order the CLI lists them.
    pub const ALL: [DenyLoss; 3] = [DenyLoss::Any, DenyLoss::Widens, DenyLoss::Narrows];

    /// The rule as the CLI spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            DenyLoss::Any => "any",
            DenyLoss::Widens => "widens",
            DenyLoss::Narrows => "narrows",
        }
    }

    /// Parses a rule as the CLI spells it (any ASCII case).
    pub fn from_name(name: &str) -> Option<DenyLoss> {
        name.parse().ok()
    }

    /// Whether an entry of `severity` and `effect` is a loss this rule denies.
    pub const fn denies(self, severity: Severity, effect: Effect) -> bool {
        match (severity, self) {
            (Severity::Error, _) => true,
            (Severity::Info, _) => false,
            (Severity::Warning, DenyLoss::Any) => true,
            (Severity::Warning, DenyLoss::Widens) => effect.widens(),
            (Severity::Warning, DenyLoss::Narrows) => effect.narrows(),
        }
    }
}

impl fmt::Display for DenyLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule, case by case: `info` only for none; metadata changes no argument; an error
    /// narrows.
    #[test]
    fn severity_follows_the_effect() {
        use Effect as E;
        use Severity as S;
        for effect in Effect::ALL {
            assert_eq!(consistent(S::Info, effect, true), effect == E::None, "{effect}");
            assert!(consistent(S::Warning, effect, true), "{effect}");
            assert_eq!(consistent(S::Error, effect, true), effect == E::Narrows, "{effect}");
            // About something other than the arguments: no effect on them, at any severity
            // but error (an error leaves the tool, and so its arguments, out).
            assert_eq!(consistent(S::Info, effect, false), effect == E::None, "{effect}");
            assert_eq!(consistent(S::Warning, effect, false), effect == E::None, "{effect}");
            assert!(!consistent(S::Error, effect, false), "{effect}");
            assert!(effect.least_severity() == S::Info || effect != E::None);
            assert!(consistent(effect.least_severity(), effect, true), "{effect}");
        }
    }

    #[test]
    fn effects_combine() {
        use Effect as E;
        for a in Effect::ALL {
            assert_eq!(a.and(E::None), a);
            assert_eq!(E::None.and(a), a);
            assert_eq!(a.and(E::Changes), E::Changes);
            assert_eq!(a.and(a), a);
        }
        assert_eq!(E::Narrows.and(E::Widens), E::Changes);
    }

    /// Each rule denies what its documentation says, and every rule denies an error.
    #[test]
    fn deny_rules() {
        use DenyLoss as D;
        use Effect as E;
        use Severity as S;
        for rule in DenyLoss::ALL {
            assert_eq!(DenyLoss::from_name(rule.as_str()), Some(rule));
            assert!(rule.denies(S::Error, E::Narrows));
            assert!(!rule.denies(S::Info, E::None));
        }
        let warned = |rule: D| -> Vec<E> {
            Effect::ALL.into_iter().filter(|e| rule.denies(S::Warning, *e)).collect()
        };
        assert_eq!(warned(D::Any), Effect::ALL);
        assert_eq!(warned(D::Widens), [E::Widens, E::Changes]);
        assert_eq!(warned(D::Narrows), [E::Narrows, E::Changes]);
        assert_eq!(DenyLoss::from_name("all"), None);
    }
}
