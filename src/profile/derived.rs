//! Profiles made from a provider's own: the Go toolfoundation library's support matrix over
//! a provider's table (within what the provider takes), and a provider's table as it enforces
//! it on tools already in its format (what a same-format conversion follows).

use super::{Action, Profile};
use crate::ir::{FeatureSet, Keyword, SchemaFeature};

impl Profile {
    /// The profile as its provider enforces it on tools already in its format: what the
    /// provider refuses stays as it is (every keyword it does not keep, where it rejects
    /// keywords outside its table; everything of a strict profile), and what the profile
    /// describes, drops or rewrites only for the model's sake, which the provider takes as
    /// written, is kept. A same-format conversion follows it, so a file the provider accepts comes out as
    /// it came: the pre-flight check finds nothing it would change.
    #[must_use]
    #[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
    pub const fn enforced(self) -> Profile {
        if self.rejects_unlisted || self.strict.is_some() {
            return self;
        }
        let mut p = self;
        let mut i = 0;
        while i < Keyword::ALL.len() {
            let kw = Keyword::ALL[i];
            // A rewrite into the target's dialect (`additionalItems` beside tuple `items`)
            // stays: the old form is no JSON Schema 2020-12 the provider validates against.
            let dialect = matches!(kw, Keyword::AdditionalItems);
            if matches!(p.action(kw), Action::Describe | Action::Drop | Action::Rewrite) && !dialect
            {
                p = p.with(kw, Action::Keep);
            }
            i += 1;
        }
        if matches!(p.action(Keyword::Unknown), Action::Describe | Action::Drop) {
            p = p.with(Keyword::Unknown, Action::Keep);
        }
        p
    }
}

// The Go toolfoundation library's support matrix, for callers migrating from it: each format
// keeps its entry in its own rules (`formats/<name>/rules.rs`); this builds one from a base.
//
// Source: github.com/jonwraymond/toolfoundation, package `adapter` (read 2026-11): each
// adapter's `FromCanonical` copies only the features it supports (`filter*Schema`) and
// `registry.go` (`detectFeatureLoss`) emits one `FeatureLossWarning` per unsupported feature
// used: drop semantics, never a rewrite or a description. Its `JSONSchema` models only the 28
// features of `AllFeatures()` (plus `type`, `properties`, `required`, `items`, `description`),
// so every other keyword is dropped too; here it is dropped *and* reported.

/// `base` held to the Go library's matrix, within what the provider takes: every keyword
/// whose feature is in `supported` is kept, every other keyword with a feature (the rest of
/// the 28, everything the Go `JSONSchema` does not model, unknown keywords) is dropped, each
/// drop a warning. A supported keyword the provider refuses (`base` rejects what it does not
/// keep and does not keep it: Gemini's `additionalProperties`) is dropped too, and one `base`
/// keeps only for some values (Gemini's `format` list, its string `enum`s) drops the others:
/// the Go library writes them, and the provider rejects the tool. What has no feature
/// bit (`type`, `properties`, `items`, `required`, `description`) and the format's structural
/// rules (root object, names, Gemini's one type per node, the shape rules) stay as `base` has
/// them. [`Profile::declares`] still answers the matrix.
#[allow(clippy::indexing_slicing, reason = "const fn loop, `i` below the length")]
pub(crate) const fn toolfoundation(base: Profile, supported: FeatureSet) -> Profile {
    let mut p = base.annotation_drops_warn();
    // The matrix's answers: the supported keywords, and the constructs `base` holds.
    let mut declared = base.kept.union(FeatureSet::of(&[SchemaFeature::ItemlessArray]));
    let mut i = 0;
    while i < Keyword::ALL.len() {
        let kw = Keyword::ALL[i];
        if let Some(f) = kw.feature() {
            let bit = FeatureSet::of(&[f]);
            let action = match (supported.contains(f), base.action(kw)) {
                (false, _) => Action::Drop,
                (true, Action::Keep) => Action::Keep,
                // Kept for the values the provider takes, dropped for the others.
                (true, Action::Rewrite) if p.value_rule(kw) => Action::Rewrite,
                // Refused by a provider that rejects what it does not keep.
                (true, Action::Describe | Action::Drop | Action::Reject)
                    if base.rejects_unlisted =>
                {
                    Action::Drop
                }
                // Taken as written: the refs and `nullable` the check takes, and what `base`
                // describes or drops only because the provider ignores it.
                (true, _) => Action::Keep,
            };
            p = p.with(kw, action);
            declared =
                if supported.contains(f) { declared.union(bit) } else { declared.difference(bit) };
        }
        i += 1;
    }
    if let Some(f) = Keyword::Unknown.feature() {
        declared = declared.difference(FeatureSet::of(&[f]));
    }
    p.declared = Some(declared);
    p.with(Keyword::Unknown, Action::Drop)
}
