//! What a report entry does to the arguments a tool accepts ([`Effect`]), the rule tying an
//! entry's severity to it, whether it says something was not carried ([`not_carried`]), and
//! the rules a caller denies losses by ([`DenyLoss`]).
//!
//! Every rewrite declares its effect where it records its entry (the passes know what they
//! wrote); nothing here reads a message. The severity follows: `info` only where the
//! arguments accepted are unchanged, at least `warning` where they change, `error` where a
//! tool is left out ([`consistent`] says whether an entry keeps that rule; the report checks
//! every entry it records against it in debug builds).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Code, ReportEntry, Severity};
use crate::ir::Keyword;

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

/// Whether an entry of `code`, `effect` and `feature` says that something the input holds
/// about its tools is carried neither by the output nor by the inverse map: a member, keyword
/// or tool dropped, text cut. An entry at `warning` or above always does (it lost meaning or
/// metadata); this decides for the `info` entries, whose arguments are unchanged:
/// - **not carried**: a tool's metadata dropped (MCP `annotations`, `title`, `icons`, `_meta`,
///   an `outputSchema`), a member a later revision removed, an annotation (`title`,
///   `$comment`, `examples`, `$schema`, …) or a keyword JSON Schema does not define dropped,
///   what an import leaves aside;
/// - **carried**: a rewrite into an equivalent form (`const` as a one-value `enum`, a type
///   array as `nullable`, a `$ref` inlined, …), a keyword whose text moved into the
///   description (the model reads it there), a name or key renamed (the inverse map gives it
///   back), strict mode's decisions; a constraint dropped with no effect (in that schema it
///   constrained nothing: `minLength: 0`, `additionalProperties: true`, so it said nothing);
/// - **not about the tools' definitions**: what a document's delivery wraps its catalog in (a JSON-RPC
///   response's `jsonrpc` and `id`) or says of holding it (MCP's `ttlMs`, `cacheScope`,
///   `resultType`): the written catalog is another document, the tool list of a request, in
///   which they mean nothing. (Catalog members that say something of the tools, such as
///   `nextCursor`, are warnings.) Likewise what an OpenAPI import notes at `info`: how an
///   argument travels by default or in a cookie, a header the specification says the API
///   ignores, webhooks and callbacks (requests the API sends, not operations a client calls),
///   media types beside the JSON body: no tool format carries transport, and a departure from
///   the default that the caller must follow is a warning.
///
/// The match is exhaustive over [`Code`], so a new code is decided here.
pub(crate) fn not_carried(code: Code, effect: Effect, feature: &str) -> bool {
    match code {
        Code::KeywordDropped => {
            let kw = Keyword::from_key(feature);
            matches!(kw, Keyword::Unknown) || kw.is_annotation() || !matches!(effect, Effect::None)
        }
        Code::MetadataDropped
        | Code::OutputSchemaDropped
        | Code::InputSchemaDropped
        | Code::NotAFunctionTool
        | Code::InvalidTool
        | Code::Superseded
        | Code::KeywordRejected
        | Code::AllOfNotMerged
        | Code::RefRecursive
        | Code::RefDangling
        | Code::RefExternal
        | Code::StrictImpossible
        | Code::WouldBeRejected
        | Code::ToolNotConverted
        | Code::DatedLimit
        // Tool traffic: a member or block left out, reasoning only its provider reads, a
        // failure the target cannot flag, a tool choice it cannot say.
        | Code::ContentDropped
        | Code::ReasoningDropped
        | Code::ErrorNotFlagged
        | Code::ToolChoiceChanged
        // A streamed call the stream cut off: never emitted as complete.
        | Code::CallIncomplete => true,
        Code::CatalogMemberDropped
        | Code::InputSchemaAdded
        | Code::RootTypeSet
        | Code::RootNotObject
        | Code::DialectRewritten
        | Code::KeywordDescribed
        | Code::CombinatorRewritten
        | Code::RefInlined
        | Code::TypeRewritten
        | Code::BooleanSchemaRewritten
        | Code::ToolRenamed
        | Code::KeyRenamed
        | Code::StrictWidened
        | Code::ObjectClosed
        | Code::StrictFallback
        | Code::ShapeRewritten
        | Code::NameClash
        | Code::ParameterStyle
        | Code::BodyNotJson
        | Code::OperationSkipped
        | Code::ParameterSkipped
        // Tool traffic: content in another form, ids the id map gives back, calls through
        // the definitions' map.
        | Code::ContentRewritten
        | Code::IdRewritten
        | Code::IdAdded
        | Code::CallMapped => !matches!(effect, Effect::None),
    }
}

impl ReportEntry {
    /// Whether the entry says something the input holds is carried neither by the output nor
    /// by the inverse map: every entry at `warning` or above, and the `info` entries that drop
    /// metadata, an annotation or a member (see [`DenyLoss::Any`] for the whole rule). What
    /// `--deny-loss` (`any`) denies.
    pub fn not_carried(&self) -> bool {
        self.severity >= Severity::Warning || not_carried(self.code, self.effect, &self.feature)
    }
}

/// Which losses fail a conversion for a caller that denies them (CLI `--deny-loss[=…]`,
/// [`crate::Options::deny_loss`]). The rules read an entry's severity and `effect` (and, for
/// `info` entries, [`ReportEntry::not_carried`]); they never change a severity. An `error`
/// entry (a tool left out) fails under every rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DenyLoss {
    /// Any information the output does not carry, metadata included (`--deny-loss`,
    /// `--deny-loss=any`): every entry at `warning` or above, and every `info` entry that
    /// says something of the input was not carried ([`ReportEntry::not_carried`]: an MCP
    /// `outputSchema` dropped for OpenAI, an annotation dropped). Rewrites into an equivalent
    /// form, text moved into the description and renames the inverse map undoes pass.
    #[default]
    Any,
    /// Any change to what a tool accepts (`--deny-loss=arguments`): an entry whose effect is
    /// `narrows`, `widens` or `changes`; metadata dropped passes.
    Arguments,
    /// Entries that accept calls the source refused: effect `widens` or `changes`
    /// (`--deny-loss=widens`: a gateway that takes strict mode's narrowing, never a widening).
    Widens,
    /// Entries that refuse calls the source accepted: effect `narrows` or `changes`
    /// (`--deny-loss=narrows`).
    Narrows,
}

crate::named::named!(DenyLoss, "loss rule");

impl DenyLoss {
    /// Every rule, from the most it denies to the least, in the order the CLI lists them.
    pub const ALL: [DenyLoss; 4] =
        [DenyLoss::Any, DenyLoss::Arguments, DenyLoss::Widens, DenyLoss::Narrows];

    /// The rule as the CLI spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            DenyLoss::Any => "any",
            DenyLoss::Arguments => "arguments",
            DenyLoss::Widens => "widens",
            DenyLoss::Narrows => "narrows",
        }
    }

    /// Parses a rule as the CLI spells it (any ASCII case).
    pub fn from_name(name: &str) -> Option<DenyLoss> {
        name.parse().ok()
    }

    /// Whether `entry` is a loss this rule denies.
    pub fn denies(self, entry: &ReportEntry) -> bool {
        self.denies_parts(entry.severity, entry.code, entry.effect, &entry.feature)
    }

    /// [`DenyLoss::denies`] of an entry's parts (a report reads them off its rows).
    pub(crate) fn denies_parts(
        self,
        severity: Severity,
        code: Code,
        effect: Effect,
        feature: &str,
    ) -> bool {
        match (severity, self) {
            (Severity::Error, _) => true,
            (Severity::Warning, DenyLoss::Any) => true,
            (Severity::Info, DenyLoss::Any) => not_carried(code, effect, feature),
            (_, DenyLoss::Arguments) => !matches!(effect, Effect::None),
            (_, DenyLoss::Widens) => effect.widens(),
            (_, DenyLoss::Narrows) => effect.narrows(),
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
        let c = Code::KeywordDropped;
        for rule in DenyLoss::ALL {
            assert_eq!(DenyLoss::from_name(rule.as_str()), Some(rule));
            assert!(rule.denies_parts(S::Error, Code::ToolNotConverted, E::Narrows, ""));
        }
        let warned = |rule: D| -> Vec<E> {
            Effect::ALL.into_iter().filter(|e| rule.denies_parts(S::Warning, c, *e, "")).collect()
        };
        assert_eq!(warned(D::Any), Effect::ALL);
        assert_eq!(warned(D::Arguments), [E::Narrows, E::Widens, E::Changes]);
        assert_eq!(warned(D::Widens), [E::Widens, E::Changes]);
        assert_eq!(warned(D::Narrows), [E::Narrows, E::Changes]);
        // `info`: only `any` denies, and only what was not carried.
        let info = |code, feature| -> Vec<D> {
            DenyLoss::ALL
                .into_iter()
                .filter(|r| r.denies_parts(S::Info, code, E::None, feature))
                .collect()
        };
        assert_eq!(info(Code::OutputSchemaDropped, "outputSchema"), [D::Any]);
        assert_eq!(info(Code::MetadataDropped, "annotations"), [D::Any]);
        assert_eq!(info(c, "title"), [D::Any]);
        assert_eq!(info(c, "x-order"), [D::Any]);
        assert_eq!(info(c, "minLength"), []);
        assert_eq!(info(Code::KeywordDescribed, "default"), []);
        assert_eq!(info(Code::CombinatorRewritten, "oneOf"), []);
        assert_eq!(info(Code::ToolRenamed, "name"), []);
        assert_eq!(info(Code::CatalogMemberDropped, "ttlMs"), []);
        assert_eq!(DenyLoss::from_name("all"), None);
    }
}
