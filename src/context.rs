//! The context of one conversion, built once at entry and borrowed by every stage that
//! follows: lowering (what it reads for the target, [`Context::reading`]), the passes
//! ([`crate::passes::cx::PassCx`] holds a reference), the check and emission. What is decided about
//! the pair of formats is in its [`Route`]; the caller's options and limits are beside it, so
//! no stage is handed the route and the options apart or copies a decision out of them.

use crate::adapter::Adapter;
use crate::lower::Reading;
use crate::options::{Limits, Options};
use crate::route::Route;

/// One conversion's context: its route (what is decided about the two formats) and the
/// caller's options, with their limits.
pub(crate) struct Context<'c> {
    /// What is decided about the pair of formats, once.
    pub route: Route<'c>,
    /// The caller's options.
    pub options: &'c Options,
}

impl<'c> Context<'c> {
    /// The context of a conversion from `source` to `target` under `options`.
    pub fn new(source: &'c dyn Adapter, target: &'c dyn Adapter, options: &'c Options) -> Self {
        Context { route: Route::new(source, target, options), options }
    }

    /// The format read.
    #[inline]
    pub fn source(&self) -> &'c dyn Adapter {
        self.route.source
    }

    /// The format written.
    #[inline]
    pub fn target(&self) -> &'c dyn Adapter {
        self.route.target
    }

    /// Whether the conversion writes the format it reads ([`Route::same_format`]).
    #[inline]
    pub fn same_format(&self) -> bool {
        self.route.same_format()
    }

    /// The limits in force.
    #[inline]
    pub fn limits(&self) -> &'c Limits {
        &self.options.limits
    }

    /// What lowering is told of this conversion: the target's key rule, the members it keeps
    /// and whether it is the source's format.
    pub fn reading(&self) -> Reading<'c> {
        let rule = self.route.target.profile().key_rule();
        Reading::own(self.source().name(), self.limits()).for_target(
            self.route.keeps,
            self.same_format(),
            rule,
        )
    }
}
