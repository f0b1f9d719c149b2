//! Conversion options and safety limits.

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::format::FormatInfo;
use crate::ir::Keyword;
use crate::profile::{Action, Profile};
use crate::report::DenyLoss;

/// Safety limits. Every breach is a [`crate::ConversionError`] with the pointer of the place;
/// none is an abort. The defaults admit every real catalog we know of with a wide margin.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of JSON containers, counted from the document root. Lowering and every
    /// pass recurse, so this bound is also what keeps them off the end of the stack. Default 128,
    /// as serde_json; real tool schemas nest under 10. At most [`Limits::DEPTH_CAP`]: a larger
    /// value is read as the cap ([`Limits::depth_limit`]).
    pub max_depth: usize,
    /// Largest input accepted, in bytes. Default 256 MiB.
    pub max_input_bytes: usize,
    /// Largest arena a conversion may grow, in bytes. Default 512 MiB.
    pub max_arena_bytes: usize,
    /// Most schema nodes that inlining `$ref`s may write for one tool (targets without refs).
    /// A definition used many times is shared in memory, but each use is written out, so this
    /// is what turns a reference bomb into an error instead of exponential output. Default
    /// 100,000; the largest real tool schema we know of inlines to a few thousand.
    pub max_ref_expansion: usize,
    /// Most bytes a conversion may write, whatever its input: the ceiling of
    /// [`Limits::output_limit`]. Default 1 GiB, above the largest input (256 MiB) written
    /// pretty.
    pub max_output_bytes: usize,
    /// Most bytes a conversion may write per input byte (above [`Limits::OUTPUT_FLOOR`]).
    /// Default 16: real catalogs write
    /// at most about 4× their compact size (refs inlined for Gemini, then written pretty,
    /// more), while inlining a large `$defs` entry at every use, or an OpenAPI document whose
    /// operations share a large schema, can write thousands of times the input; this keeps
    /// the output buffer, the one allocation the arena limit does not bound, in proportion
    /// to the input.
    pub max_output_ratio: usize,
    /// Most bytes of tools an importing format's document (an OpenAPI description) may
    /// translate to, per document byte (above [`Limits::IMPORT_FLOOR`]; see
    /// [`Limits::import_limit`]). Each operation's tool carries its own copy of the schemas
    /// it uses, so operations sharing a large schema multiply it; the tools are then read
    /// like any input, at about five bytes of memory per byte. Default 4: real descriptions
    /// translate to under 1× their compact size (Discord's 0.8×, Twilio's 0.3×).
    pub max_import_ratio: usize,
}

impl Limits {
    /// The deepest nesting any conversion reads, whatever [`Limits::max_depth`] says: 128.
    ///
    /// Lowering and the passes recurse once per level, and the deepest of them (the strict
    /// rewrite) takes several kilobytes of stack a level in a debug build. 128 is what that
    /// recursion survives on a 2 MiB thread (what `std::thread::spawn`, rayon and tokio give
    /// their threads) in debug and release builds alike, with room left for the caller's own
    /// frames: every target, plain and strict, converts or fails cleanly at this depth on such a
    /// thread (`tests/hostile.rs`; docs/security.md has the measured cost a level). A larger
    /// value is not an error: it asks for as deep as the converter goes, which is this (a
    /// `DepthLimit` error names it), so a caller who sets `usize::MAX` to mean "no limit" gets
    /// the deepest conversion there is, not a stack overflow.
    pub const DEPTH_CAP: usize = 128;

    /// The nesting depth a conversion reads: [`Limits::max_depth`], at most
    /// [`Limits::DEPTH_CAP`].
    pub fn depth_limit(&self) -> usize {
        self.max_depth.min(Self::DEPTH_CAP)
    }

    /// Output any conversion may write, however small its input: 16 MiB, room for the
    /// `$ref` expansion budget's 100,000 nodes with long descriptions, and 16 × 1 MiB, so
    /// the ratio alone decides for inputs over 1 MiB.
    pub const OUTPUT_FLOOR: usize = 16 << 20;

    /// The most bytes a conversion of `input_len` bytes may write:
    /// `max_output_ratio × input_len`, at least [`Limits::OUTPUT_FLOOR`], at most
    /// [`Limits::max_output_bytes`] (which wins over the floor when set below it).
    pub fn output_limit(&self, input_len: usize) -> usize {
        input_len
            .saturating_mul(self.max_output_ratio)
            .max(Self::OUTPUT_FLOOR)
            .min(self.max_output_bytes)
    }

    /// Tools any import may make, however small its document: 4 MiB, so the ratio alone
    /// decides for documents over 1 MiB.
    pub const IMPORT_FLOOR: usize = 4 << 20;

    /// The most bytes of tools a document of `document_len` bytes may import as:
    /// `max_import_ratio × document_len`, at least [`Limits::IMPORT_FLOOR`], at most
    /// [`Limits::max_input_bytes`] (the tools are read next) and
    /// [`Limits::max_output_bytes`].
    pub fn import_limit(&self, document_len: usize) -> usize {
        document_len
            .saturating_mul(self.max_import_ratio)
            .max(Self::IMPORT_FLOOR)
            .min(self.max_input_bytes)
            .min(self.max_output_bytes)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_input_bytes: 256 << 20,
            max_arena_bytes: 512 << 20,
            max_ref_expansion: 100_000,
            max_output_bytes: 1 << 30,
            max_output_ratio: 16,
            max_import_ratio: 4,
        }
    }
}

/// Whether tools are made strict for targets with a strict mode (OpenAI Structured Outputs,
/// Anthropic strict tool use). [`Strict::On`] and [`Strict::Require`] asked of a target
/// without one are an [`ErrorKind::InvalidOptions`] error, as on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strict {
    /// Follow each source tool: one that says `strict: true` is made strict for a different
    /// target format (falling back to `strict: false` when it cannot be); others are left
    /// as they are.
    #[default]
    Source,
    /// Make every tool strict (CLI `--strict`); a tool whose schema cannot be made strict
    /// without changing what it accepts is written with `strict: false` and a warning.
    On,
    /// Make every tool strict (CLI `--strict=require`); a tool that cannot be is an error and
    /// is left out.
    Require,
    /// Write every tool with `strict: false` (CLI `--no-strict`).
    Off,
}

crate::named::named!(Strict, "strict mode", display);

impl Strict {
    /// Every mode, in the order the docs list them.
    pub const ALL: [Strict; 4] = [Strict::Source, Strict::On, Strict::Require, Strict::Off];

    /// The mode's name (`source`, `on`, `require`, `off`), as [`std::str::FromStr`] reads it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Strict::Source => "source",
            Strict::On => "on",
            Strict::Require => "require",
            Strict::Off => "off",
        }
    }
}

/// Which keyword tables the passes hold each target to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProfileSet {
    /// Each target's own profile ([`FormatInfo::profile`]): what the provider documents, with
    /// rewrites and descriptions wherever meaning can be kept (CLI `--profile default`).
    #[default]
    Default,
    /// The Go `toolfoundation` library's support matrix, for callers migrating from it (CLI
    /// `--profile toolfoundation`): per target, the features it supports are kept and every
    /// other keyword is dropped with a warning, nothing rewritten or described (see
    /// [`crate::toolfoundation`] and `docs/toolfoundation.md`). It has no strict mode:
    /// [`Strict::On`] and [`Strict::Require`] are refused for targets that have one, and a
    /// source tool marked strict is written with `strict: false` for another format.
    ToolFoundation,
}

crate::named::named!(ProfileSet, "profile set", display);

impl ProfileSet {
    /// Every profile set, in the order the CLI lists them.
    pub const ALL: [ProfileSet; 2] = [ProfileSet::Default, ProfileSet::ToolFoundation];

    /// The name the CLI spells it with.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProfileSet::Default => "default",
            ProfileSet::ToolFoundation => "toolfoundation",
        }
    }

    /// Parses a name as the CLI spells it (any ASCII case; [`std::str::FromStr`] says which
    /// names there are when it is none of them).
    pub fn from_name(name: &str) -> Option<ProfileSet> {
        name.parse().ok()
    }

    /// The profile the passes use for `target`, or `None` when the set has no entry for it.
    pub fn profile_for(self, target: &FormatInfo) -> Option<Profile> {
        self.profile_ref(target).copied()
    }

    /// [`ProfileSet::profile_for`] without the copy (a profile is a few hundred bytes, and
    /// every conversion looks it up).
    pub(crate) fn profile_ref(self, target: &FormatInfo) -> Option<&'static Profile> {
        match self {
            ProfileSet::Default => Some(target.profile),
            ProfileSet::ToolFoundation => target.toolfoundation,
        }
    }

    /// Whether the set makes tools strict for targets with a strict mode.
    pub const fn has_strict_mode(self) -> bool {
        matches!(self, ProfileSet::Default)
    }

    /// Why strict mode may not be asked under this set of `target` (or, with no target yet,
    /// of any): the one place that question is decided, for the library's option check and
    /// the CLI alike. The target is asked first: a format without a strict mode has none
    /// under any profile.
    pub fn strict_refused(self, target: Option<&FormatInfo>) -> Option<StrictRefused> {
        if target.is_some_and(|t| !t.holds_strict()) {
            Some(StrictRefused::Target)
        } else if !self.has_strict_mode() {
            Some(StrictRefused::Profile)
        } else {
            None
        }
    }
}

/// Why strict mode cannot be asked of a conversion ([`ProfileSet::strict_refused`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StrictRefused {
    /// The target format has no strict mode.
    Target,
    /// The profile set makes no tool strict.
    Profile,
}

/// Options for one conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Safety limits.
    pub limits: Limits,
    /// Indent the output (two spaces) instead of writing it compact.
    pub pretty: bool,
    /// Per-keyword actions that replace the target profile's (CLI `--policy KEYWORD=ACTION`),
    /// applied in order. [`Keyword::Unknown`] stands for every keyword the crate does not model.
    pub policy: Vec<(Keyword, Action)>,
    /// How many times a recursive `$ref` is unrolled for a target without refs before the
    /// innermost use is replaced by an unconstrained schema (and reported). Default 0: not
    /// unrolled, reported.
    pub unroll_recursion: u32,
    /// Strict mode for targets that have one.
    pub strict: Strict,
    /// Which keyword tables the targets are held to (CLI `--profile`).
    pub profile_set: ProfileSet,
    /// The losses the caller denies (CLI `--deny-loss[=any|arguments|widens|narrows]`): a
    /// conversion with an entry the rule denies says so through
    /// [`crate::Conversion::loss_denied`]. The conversion itself is made and reported all the
    /// same. `None` (the default): no rule.
    pub deny_loss: Option<DenyLoss>,
    /// Obey the target's dated limits ([`crate::adapter::DatedLimit`]: OpenAI's 1,024-character
    /// description, enforced until 2025 and since lifted; its 128 tools a request), which a
    /// conversion otherwise leaves to `check` to report (CLI `--dated-limits`): a longer
    /// description is cut at the limit (a `dated-limit` warning names what was cut), and a
    /// catalog over the tool limit is an `error` entry about the request (every tool is still
    /// written: which to send is the caller's choice). Default `false`.
    pub dated_limits: bool,
    /// Record what [`crate::Conversion::inverse`] is made from (default `true`). A caller
    /// that never maps a model's calls back may turn it off: a catalog whose tools are
    /// renamed or whose arguments are widened then records nothing for them (a few dozen bytes
    /// a tool), and [`crate::Conversion::inverse`] is empty.
    pub record_inverse: bool,
    /// Give report entries document-level pointers (default `true`): each entry's
    /// [`crate::ReportEntry::pointer`] names its place in the input document, and the source's
    /// place where a rewrite moved it, which takes a walk of the parsed document for every
    /// tool with entries. A caller that reads no pointers (only severities, codes, counts or
    /// [`Options::deny_loss`], as the CLI's `--report none`) may turn it off: the `pointer` of
    /// an entry about a tool is then its place in the tool
    /// ([`crate::ReportEntry::tool_pointer`]; an import's entries keep the places it names in
    /// its source document); nothing else in the report changes.
    pub document_pointers: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            pretty: false,
            policy: Vec::new(),
            unroll_recursion: 0,
            strict: Strict::default(),
            profile_set: ProfileSet::default(),
            deny_loss: None,
            dated_limits: false,
            record_inverse: true,
            document_pointers: true,
        }
    }
}

impl Options {
    /// Default options.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets the nesting depth limit ([`Limits::max_depth`]); a depth past
    /// [`Limits::DEPTH_CAP`] (128) reads as the cap: the recursion is not made to survive more
    /// on every thread.
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Options {
        self.limits.max_depth = depth;
        self
    }

    /// Sets the input size limit.
    #[must_use]
    pub fn max_input_bytes(mut self, bytes: usize) -> Options {
        self.limits.max_input_bytes = bytes;
        self
    }

    /// Sets the arena size limit.
    #[must_use]
    pub fn max_arena_bytes(mut self, bytes: usize) -> Options {
        self.limits.max_arena_bytes = bytes;
        self
    }

    /// Sets the `$ref` expansion budget (schema nodes per tool).
    #[must_use]
    pub fn max_ref_expansion(mut self, nodes: usize) -> Options {
        self.limits.max_ref_expansion = nodes;
        self
    }

    /// Sets the output ceiling ([`Limits::max_output_bytes`]).
    #[must_use]
    pub fn max_output_bytes(mut self, bytes: usize) -> Options {
        self.limits.max_output_bytes = bytes;
        self
    }

    /// Sets the output bytes allowed per input byte ([`Limits::max_output_ratio`]).
    #[must_use]
    pub fn max_output_ratio(mut self, ratio: usize) -> Options {
        self.limits.max_output_ratio = ratio;
        self
    }

    /// Sets the tool bytes an import may make per document byte
    /// ([`Limits::max_import_ratio`]).
    #[must_use]
    pub fn max_import_ratio(mut self, ratio: usize) -> Options {
        self.limits.max_import_ratio = ratio;
        self
    }

    /// Overrides the target profile's action for `keyword`.
    #[must_use]
    pub fn policy(mut self, keyword: Keyword, action: Action) -> Options {
        self.policy.push((keyword, action));
        self
    }

    /// Unrolls recursive `$ref`s this many times for targets without refs.
    #[must_use]
    pub fn unroll_recursion(mut self, times: u32) -> Options {
        self.unroll_recursion = times;
        self
    }

    /// Sets the strict mode.
    #[must_use]
    pub fn strict(mut self, strict: Strict) -> Options {
        self.strict = strict;
        self
    }

    /// Indents the output.
    #[must_use]
    pub fn pretty(mut self, pretty: bool) -> Options {
        self.pretty = pretty;
        self
    }

    /// Holds the targets to this set of profiles.
    #[must_use]
    pub fn profile_set(mut self, set: ProfileSet) -> Options {
        self.profile_set = set;
        self
    }

    /// Denies the losses `rule` names: [`crate::Conversion::loss_denied`] tells whether a
    /// conversion had one. `DenyLoss::Any`: any information the output does not carry,
    /// metadata included (an MCP `outputSchema` dropped for OpenAI); `DenyLoss::Arguments`:
    /// any change to what a tool accepts; `DenyLoss::Widens`: an entry that accepts calls the
    /// source refused, for a gateway that takes strict mode's narrowing but never a widening.
    #[must_use]
    pub fn deny_loss(mut self, rule: DenyLoss) -> Options {
        self.deny_loss = Some(rule);
        self
    }

    /// Obeys (`true`) or only lets `check` report (`false`, the default) the target's dated
    /// limits ([`Options::dated_limits`]).
    #[must_use]
    pub fn dated_limits(mut self, obey: bool) -> Options {
        self.dated_limits = obey;
        self
    }

    /// Records (`true`, the default) or not what [`crate::Conversion::inverse`] is made from
    /// ([`Options::record_inverse`]).
    #[must_use]
    pub fn record_inverse(mut self, record: bool) -> Options {
        self.record_inverse = record;
        self
    }

    /// Gives report entries document-level pointers (`true`, the default) or leaves them in
    /// the tool ([`Options::document_pointers`]).
    #[must_use]
    pub fn document_pointers(mut self, document: bool) -> Options {
        self.document_pointers = document;
        self
    }

    /// Checks that the options can be used to write `target`: the profile set has an entry
    /// for it, and strict mode is not asked of a target or a set without one.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOptions`] naming the target.
    pub fn check_target(&self, target: &FormatInfo) -> Result<(), ConversionError> {
        let set = self.profile_set;
        let strict = matches!(self.strict, Strict::On | Strict::Require);
        let refused = if strict { set.strict_refused(Some(target)) } else { None };
        let problem = if set.profile_for(target).is_none() {
            format!("the {} profile has no entry for the format {:?}", set.as_str(), target.name)
        } else if refused == Some(StrictRefused::Target) {
            format!(
                "strict mode {:?} was asked of the {} format, which has no strict mode",
                self.strict.as_str(),
                target.name
            )
        } else if refused == Some(StrictRefused::Profile) {
            format!(
                "the {} profile has no strict mode; convert without strict mode or with the default profile",
                set.as_str()
            )
        } else {
            return Ok(());
        };
        Err(ConversionError::new(
            target.name,
            Direction::FromCanonical,
            "",
            ErrorKind::InvalidOptions(problem),
        ))
    }
}
