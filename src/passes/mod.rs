//! Passes over the IR, between lowering and emission.
//!
//! The order is fixed here, once, in [`run`]. Each pass is one file with one concern; a pass
//! returns nodes unchanged when nothing applies, so the common path allocates nothing. A pass
//! that changes or drops anything records a report entry with the source pointer.

mod combinators;
mod cow;
mod describe;
mod dialect;
mod envelope;
mod merge;
pub(crate) mod names;
mod policy;
mod refs;
mod root;
mod strict;
mod walk;

pub(crate) use crate::ir::features_of;
pub(crate) use crate::ir::visit::entry_name;
pub(crate) use cow::CowSlice;
pub(crate) use describe::{append_description, append_note, render, render_to};
pub(crate) use policy::keeps;
pub(crate) use refs::{RECURSIVE, Target, first_recursive_ref, percent_decode, resolve};
pub(crate) use walk::{NodeRule, rewrite, rewrite_tool};

use bumpalo::Bump;
use smallvec::SmallVec;

use crate::adapter::Adapter;
use crate::error::ConversionError;
use crate::ir::measure::CatalogCounts;
use crate::ir::{Entry, Keyword, Schema, Tool};
use crate::options::Options;
use crate::pointer::Path;
use crate::profile::Profile;
use crate::report::{Code, Formats, Report, Severity, Span, Text};
use crate::route::Route;
use crate::scan::{same_short, same_text};

/// What the passes share: the arena, the route (the two formats and what is decided about
/// them), the profile in force, the options and the report.
pub(crate) struct PassCx<'a, 'c> {
    pub arena: &'a Bump,
    /// What was decided about the conversion at entry.
    pub route: &'c Route<'c>,
    /// The format read ([`Route::source`]).
    pub source: &'c dyn Adapter,
    /// The format written ([`Route::target`]).
    pub target: &'c dyn Adapter,
    /// Whether the source and the target are one format ([`Route::same_format`]).
    pub same_format: bool,
    /// The profile the passes follow: the route's base one, or the strict one while a tool is
    /// made strict. Outside [`run`] it is whichever the last tool used ([`PassCx::base_profile`]
    /// is the base one).
    pub profile: Profile,
    pub options: &'c Options,
    pub report: &'c mut Report,
    /// The strict tools of the catalog so far, for per-request limits.
    pub catalog: CatalogCounts,
    /// Where a description note is written before it is copied into the arena at its final
    /// size; the converter's, so a warm conversion writes notes without allocating.
    pub text: &'c mut String,
    /// Whether `profile` holds the strict profile. It is switched only when a tool needs the
    /// other one: the tools of a strict conversion mostly all are strict, and a profile is a
    /// few hundred bytes to copy into place and back for every tool.
    strict_on: bool,
    /// The two format names in the report's text, written at the first entry and shared by
    /// every later one (the report is not cleared while it is borrowed here).
    formats: Option<Formats>,
    /// Texts of entries written before, for entries that repeat them.
    pub written: Written<'a>,
    /// Where the current tool's entries start in the report: they are recorded in source
    /// order from there on (see [`Report::record_in`]); the rows before stay as they are.
    order_from: usize,
}

impl<'a, 'c> PassCx<'a, 'c> {
    pub fn new(
        arena: &'a Bump,
        route: &'c Route<'c>,
        options: &'c Options,
        report: &'c mut Report,
        text: &'c mut String,
    ) -> Self {
        PassCx {
            arena,
            route,
            source: route.source,
            target: route.target,
            same_format: route.same_format,
            profile: route.profile,
            options,
            report,
            catalog: CatalogCounts::default(),
            text,
            strict_on: false,
            formats: None,
            order_from: usize::MAX,
            written: Written::default(),
        }
    }

    /// The target's strict profile with the caller's overrides, when it has one.
    pub fn strict_profile(&self) -> Option<Profile> {
        self.route.strict_profile
    }

    /// The target profile with the caller's overrides, for a tool that is not strict.
    pub fn base_profile(&self) -> &Profile {
        &self.route.profile
    }

    /// Puts the strict profile (`strict`, where the target has one) or the base one in
    /// `profile`, unless it is there already.
    #[inline]
    fn use_strict(&mut self, strict: bool) {
        if self.strict_on != strict {
            self.profile = match self.route.strict_profile {
                Some(p) if strict => p,
                _ => self.route.profile,
            };
            self.strict_on = strict;
        }
    }

    /// Records a report entry about `tool` at source position `at`. Returns where the entry's
    /// pointer and message lie in the report's text, for entries that repeat them (see
    /// [`Written`]).
    ///
    /// Not marked cold: a strict conversion records several entries for most tools.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        tool: &Tool<'_>,
        at: u32,
        severity: Severity,
        code: Code,
        feature: &str,
        pointer: impl Text,
        message: impl Text,
    ) -> (Span, Span) {
        let formats = self.formats();
        let names = [tool.source_name.unwrap_or(tool.name), feature];
        let order = (tool.at, at, 0);
        let floor = self.order_from;
        self.report.record_in(severity, code, order, names, formats, pointer, message, floor)
    }

    /// The two format names in the report's text, written at the first entry.
    #[inline]
    fn formats(&mut self) -> Formats {
        match self.formats {
            Some(f) => f,
            None => {
                *self.formats.insert(self.report.formats(self.source.name(), self.target.name()))
            }
        }
    }
}

/// The texts of report entries a conversion writes over and over (one note about many tools),
/// where they lie in the report's text: a later entry shares them ([`crate::report::Reuse`]).
/// The report is not cleared while the passes hold it, so the places stay good.
#[derive(Default)]
pub(crate) struct Written<'a> {
    /// The pointer of a tool's input schema root, and the input pointer it was written for.
    pub root: Option<(&'static str, Span)>,
    /// The strict pass's note on closed objects, by how many it closed (a few, as a rule).
    pub closed: [Option<Span>; 8],
    /// The pointer of a tool's input schema root's `required`, and the input pointer it was
    /// written for (the strict pass widens most tools' optional properties there).
    pub required: Option<(&'static str, Span)>,
    /// The policy's texts below, for the target's name and the input pointer they were
    /// written with (a tool that falls back from strict has another profile; another format's
    /// tools, another pointer): the policy forgets them when either changes.
    pub policy_scope: (&'static str, &'static str),
    /// The policy's pointers to keywords of a schema root (a `$schema` in every tool), by the
    /// keyword.
    pub root_keywords: Kept<4>,
    /// The policy's notes on dropped keywords, by the keyword (the note names nothing else).
    pub dropped: Kept<4>,
    /// Texts written from a tool member's key (the pointer and the note of a member the
    /// target drops), by the key and where the tool's members are: the tools of a catalog
    /// mostly carry the same few members. Held inline up to [`Written::MEMBERS`], the most
    /// it keeps, so a conversion never goes to the heap for them (`Written` is made anew for
    /// each conversion).
    members: SmallVec<[MemberTexts<'a>; Written::MEMBERS]>,
}

/// Texts written before, by an integer key (never zero): up to `N`, looked for one by one
/// (a compare each), the oldest given way to the newest when full.
pub(crate) struct Kept<const N: usize> {
    slots: [(u64, Span); N],
    /// The slot the next text goes into.
    next: usize,
}

impl<const N: usize> Default for Kept<N> {
    fn default() -> Self {
        Kept { slots: [(0, Span::default()); N], next: 0 }
    }
}

impl<const N: usize> Kept<N> {
    /// The text kept under `key`.
    #[inline]
    pub fn find(&self, key: u64) -> Option<Span> {
        self.slots.iter().find(|(k, _)| *k == key).map(|&(_, span)| span)
    }

    /// Keeps `span` under `key`, in place of the oldest text when full.
    #[inline]
    pub fn keep(&mut self, key: u64, span: Span) {
        if let Some(slot) = self.slots.get_mut(self.next) {
            *slot = (key, span);
        }
        self.next = if self.next + 1 >= N { 0 } else { self.next + 1 };
    }

    /// Forgets every text.
    pub fn clear(&mut self) {
        *self = Kept::default();
    }
}

/// The texts written about one member key ([`Written::member`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MemberTexts<'a> {
    key: &'a str,
    /// The pointer of the tool's members (empty for a member outside them).
    scope: &'static str,
    /// The member's pointer.
    pub pointer: Option<Span>,
    /// The note on the member dropped, by [`MemberNote`].
    pub notes: [Option<Span>; 3],
}

/// Which note on a dropped member ([`MemberTexts::notes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemberNote {
    /// A member the target has no place for.
    Dropped,
    /// An output schema the target has no place for.
    NoOutput,
    /// A `strict` flag the target has no place for.
    NoStrict,
}

impl<'a> Written<'a> {
    /// How many member keys are kept at most: looked for one by one.
    const MEMBERS: usize = 8;

    /// The texts written before about the member `key` of a tool whose members are at
    /// `scope`, made to keep more (`None` past [`Written::MEMBERS`] keys).
    pub fn member(&mut self, scope: &'static str, key: &'a str) -> Option<&mut MemberTexts<'a>> {
        // Without `memcmp`: the keys of a catalog's members are short, and many share a
        // length (`title`, `_meta`, `icons`).
        let at = self.members.iter().position(|m| {
            same_short(m.key.as_bytes(), key.as_bytes()) && same_text(m.scope, scope)
        });
        match at {
            Some(i) => self.members.get_mut(i),
            None if self.members.len() < Self::MEMBERS => {
                let texts = MemberTexts { key, scope, pointer: None, notes: [None; 3] };
                self.members.push(texts);
                self.members.last_mut()
            }
            None => None,
        }
    }
}

/// Whether `text` is `pieces` one after the other: a check, without writing them, that a
/// shared text is the one it stands for.
#[cfg(debug_assertions)]
pub(crate) fn is_pieces(text: &str, pieces: &[&str]) -> bool {
    let mut rest = Some(text);
    for p in pieces {
        rest = rest.and_then(|r| r.strip_prefix(p));
    }
    rest == Some("")
}

/// The position and the entry of `keyword` in a node, when it has one.
pub(crate) fn find<'a>(s: &Schema<'a>, keyword: Keyword) -> Option<(usize, Entry<'a>)> {
    s.keywords.iter().copied().enumerate().find(|(_, e)| e.keyword == keyword)
}

/// The arena ran out while a pass rewrote the node at `path`.
#[cold]
pub(crate) fn arena_error(path: &Path<'_>, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target.name(),
        crate::error::Direction::FromCanonical,
        path.to_pointer(),
        crate::error::ErrorKind::ArenaLimit { limit: cx.options.limits.max_arena_bytes },
    )
}

/// Runs every pass on one tool, in the one fixed order. Returns whether the tool is emitted
/// (a tool the target cannot hold at all is left out, with an error entry).
///
/// A tool to be made strict runs the passes with the target's strict profile, then the strict
/// pass. When that finds the schema cannot be strict, the tool and the report are put back and
/// the passes run again with the ordinary profile, so a non-strict tool loses no more than any
/// other conversion would; or, when strict is required, the tool is left out.
pub(crate) fn run<'a>(
    tool: &mut Tool<'a>,
    cx: &mut PassCx<'a, '_>,
) -> Result<bool, ConversionError> {
    // The tool's entries are kept in order among themselves; the report is truncated back to
    // here at most (a strict tool that falls back).
    cx.order_from = cx.report.len();
    let route = cx.route;
    let (Some(required), Some(strict_profile)) =
        (route.strict_wanted(tool), route.strict_profile.as_ref())
    else {
        cx.use_strict(false);
        let kept = run_all(tool, cx)?;
        if route.states_not_strict(tool.strict) && tool.opaque.is_none() {
            tool.strict = Some(false);
        }
        if kept && !route.makes_strict {
            no_strict_mode(tool, cx);
        }
        return Ok(kept);
    };
    let Some(rules) = strict_profile.strict_rules() else {
        cx.use_strict(false);
        return run_all(tool, cx);
    };
    let (saved, mark) = (*tool, cx.report.len());
    cx.use_strict(true);
    let kept = run_all(tool, cx);
    let outcome = match &kept {
        Ok(true) => strict::run(tool, cx, rules),
        _ => Ok(Ok(())),
    };
    let not_strict = match (kept?, outcome?) {
        (false, _) => return Ok(false),
        (true, Ok(())) => return Ok(true),
        (true, Err(n)) => n,
    };
    cx.report.truncate(mark);
    *tool = saved;
    cx.use_strict(false);
    if required {
        cx.record(
            tool,
            not_strict.at,
            Severity::Error,
            Code::StrictImpossible,
            "strict",
            not_strict.pointer,
            [
                "strict mode is required, and the tool cannot be strict for ",
                cx.target.name(),
                ": ",
                &not_strict.reason,
                "; the tool is left out",
            ],
        );
        return Ok(false);
    }
    let kept = run_all(tool, cx)?;
    cx.record(
        tool,
        not_strict.at,
        Severity::Warning,
        Code::StrictFallback,
        "strict",
        not_strict.pointer,
        [
            "the tool cannot be strict for ",
            cx.target.name(),
            ": ",
            &not_strict.reason,
            "; written with \"strict\": false",
        ],
    );
    tool.strict = Some(false);
    Ok(kept)
}

/// A profile set without a strict mode (toolfoundation) does not make a tool strict; one the
/// source marks strict is written with `strict: false` for another format, with a warning,
/// rather than claiming a strictness its schema was never made to meet. The same format keeps
/// the flag as written, as it keeps everything else.
fn no_strict_mode(tool: &mut Tool<'_>, cx: &mut PassCx<'_, '_>) {
    let crosses = !cx.same_format;
    let holds = cx.route.strict_profile.is_some();
    if !(crosses && tool.strict == Some(true) && holds && tool.opaque.is_none()) {
        return;
    }
    let at = tool.member("strict").map_or(tool.at, |m| m.at);
    let pointer = tool.member("strict").map(|m| tool.member_pointer(m)).unwrap_or_default();
    cx.record(
        tool,
        at,
        Severity::Warning,
        Code::StrictFallback,
        "strict",
        pointer,
        format!(
            "the {} profile has no strict mode, so the tool is not made strict for {}; written with \"strict\": false",
            cx.options.profile_set.as_str(),
            cx.target.name()
        ),
    );
    tool.strict = Some(false);
}

/// The passes every tool runs, strict or not.
fn run_all<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<bool, ConversionError> {
    // 1. envelope: metadata, output schema and `strict` the target cannot hold; built-in tools.
    if !envelope::run(tool, cx) {
        return Ok(false);
    }
    // 2. dialect: draft-07 tuples, draft-04 boolean bounds, OpenAPI `nullable` and BFCL
    //    type names into 2020-12, where the target reads 2020-12.
    dialect::run(tool, cx)?;
    // 3. root: an object schema at the root where the target requires one (after the
    //    dialect pass, which reads BFCL's `"type": "dict"` root as an object); root
    //    combinators the target forbids described.
    if !root::run(tool, cx)? {
        return Ok(false);
    }
    // 4. combinators: `oneOf` → `anyOf`, `allOf` merged, `const` → `enum`, type arrays →
    //    `nullable` / `anyOf`, where the target lacks the source form.
    combinators::run(tool, cx)?;
    // 5. policy: each remaining keyword's action from the profile (keep / describe / drop /
    //    reject); boolean subschemas for targets without them.
    if !policy::run(tool, cx)? {
        return Ok(false);
    }
    // 6. refs: local `$ref`s inlined for targets without refs (late, so every report above
    //    points into the source as written), siblings moved for targets that take none,
    //    dangling and external refs reported.
    refs::run(tool, cx)?;
    // 7. names: property keys the target's key rule rejects renamed (tool names are decided
    //    per catalog, before the tools run their passes).
    names::property_keys(tool, cx)?;
    // 8. envelope, again: where the tool object is its input schema (LangChain), the schema's
    //    own root `title` and `description` (the source's, or a description the passes above
    //    wrote) give way to the tool's name and description.
    envelope::schema_root(tool, cx)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn member_texts_are_found_by_their_own_key() {
        // Same lengths; a byte apart in the head, the tail, or (past sixteen) only the middle.
        let keys = [
            "title",
            "_meta",
            "icons",
            "0123456789abcdef",
            "0123456789abcdeF",
            "01234567x9abcdef",
            "01234567AAAA89abcdef",
            "01234567BBBB89abcdef",
        ];
        assert_eq!(keys.len(), super::Written::MEMBERS);
        let mut written = super::Written::default();
        for key in keys {
            // A key seen before would come back with the pointer set below.
            assert_eq!(written.member("", key).map(|t| t.pointer), Some(None), "{key} is new");
            if let Some(t) = written.member("", key) {
                t.pointer = Some(crate::report::Span::default());
            }
        }
        for key in keys {
            assert!(written.member("", key).is_some_and(|t| t.pointer.is_some()), "{key}");
        }
        assert!(written.member("", "other").is_none(), "full");
        let mut written = super::Written::default();
        if let Some(t) = written.member("", "title") {
            t.pointer = Some(crate::report::Span::default());
        }
        assert!(written.member("/function", "title").is_some_and(|t| t.pointer.is_none()));
    }
}
