//! The route of one conversion: the two formats and everything decided about the pair, once,
//! at entry: whether they are one format, whether the tools are rewritten, which envelope
//! members the target keeps, the profiles the passes follow and how strict mode applies.
//! Lowering, the passes, the pre-flight check and emission read it instead of comparing format
//! names again.

use crate::adapter::{Adapter, EmitContext};
use crate::format::OtherField;
use crate::ir::{MemberKeeps, Tool};
use crate::options::{Options, ProfileSet, Strict};
use crate::profile::Profile;

/// What is decided about a conversion from `source` to `target` before anything is read.
pub(crate) struct Route<'r> {
    /// The format read.
    pub source: &'r dyn Adapter,
    /// The format written.
    pub target: &'r dyn Adapter,
    /// The tools are rewritten for the target: across formats, into a provider's format (its
    /// rules hold for a file of it too), or when strict handling is asked of the same format
    /// (MCP and LangChain are not second-guessed otherwise).
    pub rewrite: bool,
    /// The envelope members the target keeps.
    pub keeps: MemberKeeps,
    /// The target profile the passes follow for a tool that is not strict: the profile set's
    /// entry for the target, with the caller's overrides.
    pub profile: Profile,
    /// The target's strict profile with the caller's overrides, when it has a strict mode.
    pub strict_profile: Option<Profile>,
    /// For the same format, the profile (with the caller's overrides) of the other schema
    /// field its tools may hold ([`crate::FormatInfo::other_field`]), and that field: a tool
    /// that holds it is held to these rules instead of `profile`'s.
    pub other_field: Option<(Profile, OtherField)>,
    /// Whether the profile set makes tools strict (the toolfoundation set has no strict mode;
    /// the strict profile is still what a tool marked strict is checked against).
    pub makes_strict: bool,
    /// How the caller asked strict mode to apply.
    strict: Strict,
    emit: EmitContext<'r>,
}

impl<'r> Route<'r> {
    /// Decides the route from `source` to `target` under `options`. `Options::check_target`
    /// refuses a profile set without an entry for the target before anything is read; the
    /// target's own profile is only a safe fallback here.
    pub fn new(source: &'r dyn Adapter, target: &'r dyn Adapter, options: &Options) -> Route<'r> {
        let (from, to) = (source.info(), target.info());
        // The one place "same format?" is decided: the emit context's, read from it after.
        let emit = EmitContext::new(from, to);
        let (same_format, same_family) = (emit.same_format(), emit.same_family());
        let set = options.profile_set;
        // Into its own format, a provider's file changes only where the provider refuses it
        // (a profile set the caller chose is followed as it is).
        let enforced = same_format && set == ProfileSet::Default;
        let overridden = |p: &Profile| {
            let p = if enforced { p.enforced() } else { *p };
            if options.policy.is_empty() { p } else { p.with_overrides(&options.policy) }
        };
        Route {
            source,
            target,
            rewrite: !same_format
                || to.provider
                || matches!(options.strict, Strict::On | Strict::Require),
            keeps: MemberKeeps {
                meta: same_family && to.closed_members.is_none(),
                outer: same_format && to.closed_members.is_none(),
                output: to.holds_output_schema,
                defined: if same_format { to.defined_members } else { &[] },
            },
            profile: overridden(set.profile_ref(to).unwrap_or(to.profile)),
            strict_profile: to.strict_profile().map(overridden),
            other_field: to.other_field.filter(|_| same_format).map(|f| {
                let p = match set {
                    ProfileSet::Default => f.profile,
                    ProfileSet::ToolFoundation => f.toolfoundation,
                };
                (overridden(p), f)
            }),
            makes_strict: set.has_strict_mode(),
            strict: options.strict,
            emit,
        }
    }

    /// Whether source and target are the same format.
    #[inline]
    pub fn same_format(&self) -> bool {
        self.emit.same_format()
    }

    /// Whether source and target are of one family ([`crate::FormatInfo::family`]: Gemini's
    /// two schema fields, one API): the document's layout and its provider built-ins are kept
    /// as for the same format.
    #[inline]
    pub fn same_family(&self) -> bool {
        self.emit.same_family()
    }

    /// The profile a tool that is not strict is held to: the route's, or, for a tool in the
    /// format's other schema field, that field's ([`Route::other_field`]).
    #[inline]
    pub fn base_profile(&self, tool: &Tool<'_>) -> &Profile {
        match &self.other_field {
            Some((p, f)) if f.holds(tool) => p,
            _ => &self.profile,
        }
    }

    /// What the target's writer is told of the conversion.
    #[inline]
    pub fn emit(&self) -> &EmitContext<'r> {
        &self.emit
    }

    /// Whether `tool` is to be made strict, and whether that is required: `None` when not.
    pub fn strict_wanted(&self, tool: &Tool<'_>) -> Option<bool> {
        self.strict_profile?;
        if tool.opaque.is_some() || !self.makes_strict {
            return None;
        }
        match self.strict {
            // A tool marked strict is made strict wherever the tools are rewritten (into a
            // provider's format, its own included: the provider holds it to the strict rules).
            Strict::Source => (tool.strict == Some(true) && self.rewrite).then_some(false),
            Strict::On => Some(false),
            Strict::Require => Some(true),
            Strict::Off => None,
        }
    }

    /// Whether a tool that is not made strict is written with `"strict": false` stated: where
    /// the caller turned strict off, and, from another format, where the target makes an
    /// omitted `strict` strict when it can (the Responses API). The same format keeps an
    /// omitted `strict` omitted, as its author sent it. `stated` is the tool's own `strict`.
    pub fn states_not_strict(&self, stated: Option<bool>) -> bool {
        let to = self.target.info();
        let implied = !self.same_format() && to.strict.is_some_and(|s| s.omitted_is_strict);
        let off = self.strict == Strict::Off || (stated.is_none() && implied);
        off && to.holds_strict()
    }
}
