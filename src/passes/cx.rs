//! What the passes share while they run over one conversion's tools ([`PassCx`]): the
//! arena, the conversion's context (borrowed), the profile in force, the report, and the
//! catalog's strict totals.

use bumpalo::Bump;

use crate::adapter::Adapter;
use crate::context::Context;
use crate::ir::measure::CatalogCounts;
use crate::ir::{Entry, Tool};
use crate::options::Options;
use crate::profile::Profile;
use crate::report::{Note, Recorder, Report, Text};
use crate::route::Route;

use super::turning;

/// What the passes share: the arena, the route (the two formats and what is decided about
/// them), the profile in force, the options and the report.
pub(crate) struct PassCx<'a, 'c> {
    pub arena: &'a Bump,
    /// The conversion's context, borrowed: its route (what was decided about the conversion
    /// at entry) and the caller's options.
    context: &'c Context<'c>,
    /// What was decided about the conversion at entry (the context's).
    pub route: &'c Route<'c>,
    /// The profile the passes follow: the route's base one, or the strict one while a tool is
    /// made strict. Outside [`run`] it is whichever the last tool used ([`PassCx::base_profile`]
    /// is the base one).
    pub profile: Profile,
    /// The report, written through [`PassCx::record`]: the texts entries repeat (a note on a
    /// member every tool carries, a root pointer) are written once.
    pub report: Recorder<'c, 'c>,
    /// The strict tools of the catalog so far, for per-request limits.
    pub catalog: CatalogCounts,
    /// Where a description note is written before it is copied into the arena at its final
    /// size; the converter's, so a warm conversion writes notes without allocating.
    pub text: &'c mut String,
    /// Whether `profile` holds the strict profile. It is switched only when a tool needs the
    /// other one: the tools of a strict conversion mostly all are strict, and a profile is a
    /// few hundred bytes to copy into place and back for every tool.
    strict_on: bool,
    /// Whether `profile` holds the profile of the format's other schema field
    /// ([`Route::other_field`]).
    other_on: bool,
    /// Which definitions of the current tool a `$ref` may bring under a `oneOf`, `not` or
    /// `if`, worked out when first asked.
    turning: turning::Turning,
    /// The `type` keywords of the scalar branches the shape pass gives a node of any value,
    /// made once per conversion and shared by every such node (see `shape::types`).
    pub(crate) scalar_types: Option<&'a [Entry<'a>; 3]>,
}

impl<'a, 'c> PassCx<'a, 'c> {
    pub fn new(
        arena: &'a Bump,
        context: &'c Context<'c>,
        report: &'c mut Report,
        text: &'c mut String,
        input_len: usize,
    ) -> Self {
        let (route, limits) = (&context.route, context.limits());
        PassCx {
            arena,
            context,
            route,
            profile: route.profile,
            report: Recorder::new(report, route.source.name(), route.target.name())
                .budget(limits.max_arena_bytes)
                .long_pointers(limits.output_limit(input_len)),
            catalog: CatalogCounts::default(),
            text,
            strict_on: false,
            other_on: false,
            turning: turning::Turning::default(),
            scalar_types: None,
        }
    }

    /// The format read.
    #[inline]
    pub fn source(&self) -> &'c dyn Adapter {
        self.context.source()
    }

    /// The format written.
    #[inline]
    pub fn target(&self) -> &'c dyn Adapter {
        self.context.target()
    }

    /// Whether the source and the target are one format ([`Route::same_format`]).
    #[inline]
    pub fn same_format(&self) -> bool {
        self.context.same_format()
    }

    /// The caller's options.
    #[inline]
    pub fn options(&self) -> &'c Options {
        self.context.options
    }

    /// The target's strict profile with the caller's overrides, when it has one.
    pub fn strict_profile(&self) -> Option<Profile> {
        self.route.strict_profile
    }

    /// The target profile with the caller's overrides, for `tool` when it is not strict (a
    /// tool in the format's other schema field has that field's: [`Route::base_profile`]).
    pub fn base_profile(&self, tool: &Tool<'_>) -> &Profile {
        self.route.base_profile(tool)
    }

    /// Puts the strict profile (`strict`, where the target has one) or `tool`'s base one in
    /// `profile`, unless it is there already.
    #[inline]
    pub(super) fn use_strict(&mut self, tool: &Tool<'_>, strict: bool) {
        let other = !strict && self.route.other_field.is_some_and(|(_, f)| f.holds(tool));
        if self.strict_on != strict || self.other_on != other {
            self.profile = match self.route.strict_profile {
                Some(p) if strict => p,
                _ => *self.route.base_profile(tool),
            };
            self.strict_on = strict;
            self.other_on = other;
        }
    }

    /// Records `note` about `tool` at source position `at`.
    ///
    /// A change inside a definition acts wherever a `$ref` brings the definition: under a
    /// `oneOf`, a `not` or an `if`, a subschema that accepts more can make the node accept
    /// less and the other way round. So a widening or a narrowing recorded in a definition
    /// that a `$ref` may bring under one of those says `changes` ([`turning`]).
    #[inline]
    pub fn record<P: Text, M: Text>(
        &mut self,
        tool: &Tool<'_>,
        at: u32,
        mut note: Note<&str, P, M>,
    ) {
        // Into its own format, whatever a pass changes is a change to the file the caller
        // wrote for that provider, which it would otherwise take back as it gave it: a
        // warning, whatever it does to the calls.
        if self.same_format() {
            note.kind = note.kind.in_own_format();
        }
        let name = tool.source_name.unwrap_or(tool.name);
        let turning = &mut self.turning;
        self.report.record(name, (tool.at, at), note, |pointer| turning.turns(tool, pointer));
    }
}
