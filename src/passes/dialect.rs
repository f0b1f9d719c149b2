//! Dialect pass: older JSON Schema forms rewritten into 2020-12 for targets that read 2020-12.
//!
//! Input: draft-07 tuple validation (`items: [A, B]`, `additionalItems: C`) and draft-04
//! boolean bounds (`minimum: 0, exclusiveMinimum: true`). Output: the 2020-12 forms that accept
//! exactly the same instances (`prefixItems: [A, B], items: C`; `exclusiveMinimum: 0`), with an
//! `info` entry each. Targets that keep these forms (MCP) are left alone.
//!
//! References: JSON Schema 2020-12 release notes ("items and additionalItems were replaced by
//! prefixItems and items"); draft-06 changed `exclusiveMinimum`/`exclusiveMaximum` from
//! booleans modifying `minimum`/`maximum` to numbers.

use crate::error::ConversionError;
use crate::ir::{Entry, FeatureSet, Json, Keyword, Schema, SchemaFeature, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::report::{Code, Severity};

use super::{CowSlice, NodeRule, PassCx, arena_error, rewrite_tool};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    if cx.target.supports_feature(SchemaFeature::TupleItems) {
        return Ok(());
    }
    rewrite_tool(tool, cx, &mut Dialect)
}

struct Dialect;

impl<'a> NodeRule<'a> for Dialect {
    fn triggers(&self) -> FeatureSet {
        FeatureSet::of(&[
            SchemaFeature::TupleItems,
            SchemaFeature::ExclusiveMinimum,
            SchemaFeature::ExclusiveMaximum,
        ])
    }

    fn node(
        &mut self,
        s: &Schema<'a>,
        path: &Path<'_>,
        tool: &Tool<'_>,
        cx: &mut PassCx<'a, '_>,
    ) -> Result<Option<Schema<'a>>, ConversionError> {
        let tuple = matches!(s.get(Keyword::Items).map(|e| e.value), Some(Value::Schemas(_)));
        let flag = |kw| match s.get(kw).map(|e| e.value) {
            Some(Value::Json(Json::Bool(b))) => Some(b),
            _ => None,
        };
        let (bool_min, bool_max) =
            (flag(Keyword::ExclusiveMinimum), flag(Keyword::ExclusiveMaximum));
        if !tuple && bool_min.is_none() && bool_max.is_none() {
            return Ok(None);
        }
        let number = |kw| match s.get(kw).map(|e| e.value) {
            Some(Value::Number(n)) => Some(n),
            _ => None,
        };
        let (min, max) = (number(Keyword::Minimum), number(Keyword::Maximum));
        // `exclusiveMinimum: true` absorbs a numeric `minimum` (likewise for the maximum).
        let min_absorbed = bool_min == Some(true) && min.is_some();
        let max_absorbed = bool_max == Some(true) && max.is_some();
        let mut out = CowSlice::new(s.keywords);
        for (i, e) in s.keywords.iter().enumerate() {
            let new = match (e.keyword, e.value) {
                (Keyword::Items, Value::Schemas(_)) if tuple => {
                    note(tool, e, path, cx, "items", "tuple `items` written as `prefixItems`");
                    Some(Entry { keyword: Keyword::PrefixItems, ..*e })
                }
                (Keyword::AdditionalItems, v @ Value::Schema(_)) if tuple => {
                    note(
                        tool,
                        e,
                        path,
                        cx,
                        "additionalItems",
                        "`additionalItems` written as `items`",
                    );
                    Some(Entry { keyword: Keyword::Items, value: v, ..*e })
                }
                (Keyword::ExclusiveMinimum, Value::Json(Json::Bool(b))) => {
                    bound(tool, e, path, cx, b, min, Keyword::Minimum)
                }
                (Keyword::ExclusiveMaximum, Value::Json(Json::Bool(b))) => {
                    bound(tool, e, path, cx, b, max, Keyword::Maximum)
                }
                (Keyword::Minimum, Value::Number(_)) if min_absorbed => None,
                (Keyword::Maximum, Value::Number(_)) if max_absorbed => None,
                _ => {
                    out.same(i);
                    continue;
                }
            };
            match new {
                Some(entry) => out.changed(i, entry, cx.arena),
                None => out.removed(i, cx.arena),
            }
            .map_err(|()| arena_error(path, cx))?;
        }
        Ok(out.finish().map(|keywords| Schema { keywords, ..*s }))
    }
}

/// `exclusiveMinimum: true` with `minimum: n` becomes `exclusiveMinimum: n`; `false`, or `true`
/// without a bound to modify, constrains nothing and goes.
fn bound<'a>(
    tool: &Tool<'_>,
    e: &Entry<'a>,
    path: &Path<'_>,
    cx: &mut PassCx<'_, '_>,
    exclusive: bool,
    limit: Option<&'a str>,
    base: Keyword,
) -> Option<Entry<'a>> {
    let name = e.keyword.as_str();
    match (exclusive, limit) {
        (true, Some(n)) => {
            let msg =
                format!("draft-04 `{name}: true` with `{base}: {n}` written as `{name}: {n}`");
            note(tool, e, path, cx, name, &msg);
            Some(Entry { value: Value::Number(n), ..*e })
        }
        _ => {
            let msg = format!("draft-04 `{name}: {exclusive}` modifies no bound here; removed");
            note(tool, e, path, cx, name, &msg);
            None
        }
    }
}

fn note(
    tool: &Tool<'_>,
    e: &Entry<'_>,
    path: &Path<'_>,
    cx: &mut PassCx<'_, '_>,
    feature: &str,
    message: &str,
) {
    cx.record(
        tool,
        e.at,
        Severity::Info,
        Code::DialectRewritten,
        feature,
        path.push(Seg::Key(feature)).to_pointer(),
        format!("{message} (same meaning in JSON Schema 2020-12)"),
    );
}
