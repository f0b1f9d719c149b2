//! Policy pass: apply the target profile's action to each keyword.
//!
//! Input: a schema and the target [`crate::Profile`]. Output: the schema without the keywords
//! the profile drops, one report entry per dropped keyword at its source pointer. Subtrees that
//! use no feature the profile changes are skipped by one bitset test and shared, not copied.
//! (Describe, rewrite and reject actions arrive with the passes that implement them; until
//! then the built-in profiles only keep or drop.)

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Keyword, Schema, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Severity};

use super::{CowSlice, NodeRule, PassCx, arena_error, rewrite_tool};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let triggers = cx.target.profile().changed_features();
    rewrite_tool(tool, cx, &mut Policy { triggers })
}

struct Policy {
    triggers: FeatureSet,
}

impl<'a> NodeRule<'a> for Policy {
    fn triggers(&self) -> FeatureSet {
        self.triggers
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let profile = cx.target.profile();
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            if profile.action(e.keyword) == Action::Drop {
                drop_keyword(e, path, tool, cx);
                out.removed(i, cx.arena).map_err(|()| arena_error(path, cx))?;
            } else {
                out.same(i);
            }
        }
        Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
    }
}

fn drop_keyword(e: &Entry<'_>, path: &Path<'_>, tool: &Tool<'_>, cx: &mut PassCx<'_, '_>) {
    let name = match e.value {
        Value::Unknown(m) => m.key,
        _ => e.keyword.as_str(),
    };
    // `$schema` and `$comment` never change what a schema accepts; anything else may.
    let severity = match e.keyword {
        Keyword::Schema | Keyword::Comment => Severity::Info,
        _ => Severity::Warning,
    };
    cx.record(
        tool,
        e.at,
        severity,
        Code::KeywordDropped,
        name,
        path.push(Seg::Key(name)).to_pointer(),
        format!("`{name}` is not supported by {}; dropped", cx.target.name()),
    );
}
