//! What a report entry is, apart from its texts: its code, what it does to the arguments,
//! and the severity that follows from that ([`EntryKind`]). Every entry the crate records is
//! built from one of [`EntryKind`]'s constructors, so no writer picks a severity by hand: the
//! rule of [`super::effect::consistent`] holds by construction.

use super::{Code, Effect, Severity};

/// An entry's code, effect, whether it is about the arguments, and its severity, which the
/// constructors derive: `info` where the calls accepted are unchanged, `warning` where they
/// change, `error` where a tool is left out. The few entries that warn though no call
/// changes have a constructor each, named for why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryKind {
    pub(super) severity: Severity,
    pub(super) code: Code,
    pub(super) effect: Effect,
    pub(super) arguments: bool,
}

impl EntryKind {
    /// A change to what a tool accepts (or a rewrite that keeps it, with [`Effect::None`]):
    /// `info` when `effect` is none, `warning` otherwise.
    pub const fn arguments(code: Code, effect: Effect) -> EntryKind {
        EntryKind { severity: effect.least_severity(), code, effect, arguments: true }
    }

    /// About metadata no argument depends on (a tool's annotations, how it is called):
    /// `info`, no effect.
    pub const fn metadata(code: Code) -> EntryKind {
        EntryKind { severity: Severity::Info, code, effect: Effect::None, arguments: false }
    }

    /// A tool left out: every call it took is refused (`error`, narrows).
    pub const fn left_out(code: Code) -> EntryKind {
        EntryKind { severity: Severity::Error, code, effect: Effect::Narrows, arguments: true }
    }

    /// A change to the arguments whose effect cannot be told from the tool alone (a `$ref`
    /// that leads nowhere, a keyword JSON Schema does not define dropped): no effect
    /// declared, but a `warning`, as the target may read the tool otherwise.
    pub const fn unsure(code: Code) -> EntryKind {
        EntryKind { severity: Severity::Warning, code, effect: Effect::None, arguments: true }
    }

    /// A change to the arguments the caller asked to be warned of though no call changes (a
    /// profile that warns on annotations dropped).
    pub const fn flagged(code: Code) -> EntryKind {
        EntryKind::unsure(code)
    }

    /// A guarantee about how the tool is called lost, no argument changed (strict mode
    /// asked of a tool that cannot have it, a name shared by two tools renamed, so a caller
    /// routing by name alone could mistake them): a `warning` of no effect about no argument.
    pub const fn guarantee_lost(code: Code) -> EntryKind {
        EntryKind { severity: Severity::Warning, code, effect: Effect::None, arguments: false }
    }

    /// Metadata written for the target's own provider dropped or kept though it refuses or
    /// does not read it (a member the provider refuses, a value the format does not define):
    /// a `warning` of no effect about no argument, as the file the caller wrote changes.
    pub const fn metadata_lost(code: Code) -> EntryKind {
        EntryKind::guarantee_lost(code)
    }

    /// About tool traffic's content, ids or settings, no argument of a call: said in another
    /// form (`info`), or `lost` where something the model or a tool would have seen is gone
    /// or changed (`warning`).
    pub const fn content(code: Code, lost: bool) -> EntryKind {
        if lost { EntryKind::guarantee_lost(code) } else { EntryKind::metadata(code) }
    }

    /// The same entry about a file written back into its own format: whatever a pass
    /// changes there changes the file the caller wrote for that provider, which it would
    /// otherwise take back as it gave it, so an `info` entry becomes a `warning`.
    pub const fn in_own_format(self) -> EntryKind {
        match self.severity {
            Severity::Info => EntryKind { severity: Severity::Warning, ..self },
            _ => self,
        }
    }

    /// How much it matters.
    pub const fn severity(self) -> Severity {
        self.severity
    }

    /// Its stable code.
    pub const fn code(self) -> Code {
        self.code
    }

    /// What it does to the calls the tool accepts.
    pub const fn effect(self) -> Effect {
        self.effect
    }

    /// Whether it is about the arguments.
    pub const fn about_arguments(self) -> bool {
        self.arguments
    }

    /// The same, with `effect` for its effect where the recorder learns the change reaches
    /// further than its writer saw (a widening under a `oneOf` changes): the severity stays.
    pub(super) const fn with_effect(self, effect: Effect) -> EntryKind {
        EntryKind { effect, ..self }
    }
}
