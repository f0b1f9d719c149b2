//! Policy pass: apply the target profile's action to each keyword.
//!
//! Input: a schema and the target [`crate::Profile`]. Output: the schema without the keywords
//! the profile drops, one report entry per dropped keyword at its source pointer. Subtrees that
//! use no feature the profile changes are skipped by one bitset test and shared, not copied.
//! (Describe, rewrite and reject actions arrive with the passes that implement them; until
//! then the built-in profiles only keep or drop.)

use crate::error::ConversionError;
use crate::ir::{Entry, Keyword, Prop, Schema, Tool, Value};
use crate::pointer::{Path, Seg};
use crate::profile::Action;
use crate::report::{Code, Severity};

use super::{CowSlice, PassCx};

pub(super) fn run<'a>(tool: &mut Tool<'a>, cx: &mut PassCx<'a, '_>) -> Result<(), ConversionError> {
    let changed = cx.target.profile().changed_features();
    if tool.features().intersection(changed).is_empty() {
        return Ok(());
    }
    let t = *tool;
    if let Some(input) = &tool.input {
        let root = Path::ROOT;
        let path = root.push(Seg::Raw(t.input_pointer));
        if let Some(s) = schema(input, &path, &t, cx)? {
            tool.input = Some(s);
        }
    }
    if let Some(output) = &tool.output {
        let root = Path::ROOT;
        let path = root.push(Seg::Raw("/outputSchema"));
        if let Some(s) = schema(output, &path, &t, cx)? {
            tool.output = Some(s);
        }
    }
    Ok(())
}

/// Returns the rewritten schema, or `None` when nothing below `s` changed.
fn schema<'a>(
    s: &Schema<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Schema<'a>>, ConversionError> {
    let profile = cx.target.profile();
    if s.features.intersection(profile.changed_features()).is_empty() {
        return Ok(None);
    }
    let mut out = CowSlice::new(s.keywords);
    for (i, e) in s.keywords.iter().enumerate() {
        let name = match e.value {
            Value::Unknown(m) => m.key,
            _ => e.keyword.as_str(),
        };
        let child = path.push(Seg::Key(name));
        let done = match profile.action(e.keyword) {
            Action::Drop => {
                drop_keyword(e, name, &child, tool, cx);
                out.removed(i, cx.arena)
            }
            _ => match value(&e.value, &child, tool, cx)? {
                Some(v) => out.changed(i, Entry { value: v, ..*e }, cx.arena),
                None => {
                    out.same(i);
                    Ok(())
                }
            },
        };
        done.map_err(|()| arena_error(path, cx))?;
    }
    Ok(out.finish().map(|keywords| {
        let mut features = crate::ir::FeatureSet::EMPTY;
        for e in keywords {
            if let Some(f) = e.keyword.feature() {
                features.insert(f);
            }
            features = features.union(value_features(&e.value));
        }
        Schema { keywords, features: features.union(s.features.intersection(constructs())), ..*s }
    }))
}

fn constructs() -> crate::ir::FeatureSet {
    use crate::ir::SchemaFeature as F;
    crate::ir::FeatureSet::of(&[F::TypeArray, F::BooleanSchema, F::TupleItems])
}

fn value_features(v: &Value<'_>) -> crate::ir::FeatureSet {
    let empty = crate::ir::FeatureSet::EMPTY;
    match v {
        Value::Schema(s) => s.features,
        Value::Schemas(list) => list.iter().fold(empty, |a, s| a.union(s.features)),
        Value::Props(props) => props.iter().fold(empty, |a, p| a.union(p.schema.features)),
        _ => empty,
    }
}

fn value<'a>(
    v: &Value<'a>,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'a, '_>,
) -> Result<Option<Value<'a>>, ConversionError> {
    Ok(match *v {
        Value::Schema(s) => match schema(s, path, tool, cx)? {
            Some(new) => {
                Some(Value::Schema(cx.arena.try_alloc(new).map_err(|_| arena_error(path, cx))?))
            }
            None => None,
        },
        Value::Schemas(list) => {
            let mut out = CowSlice::new(list);
            for (i, s) in list.iter().enumerate() {
                match schema(s, &path.push(Seg::Index(i)), tool, cx)? {
                    Some(new) => {
                        out.changed(i, new, cx.arena).map_err(|()| arena_error(path, cx))?
                    }
                    None => out.same(i),
                }
            }
            out.finish().map(Value::Schemas)
        }
        Value::Props(props) => {
            let mut out = CowSlice::new(props);
            for (i, p) in props.iter().enumerate() {
                match schema(&p.schema, &path.push(Seg::Key(p.name)), tool, cx)? {
                    Some(new) => out
                        .changed(i, Prop { schema: new, ..*p }, cx.arena)
                        .map_err(|()| arena_error(path, cx))?,
                    None => out.same(i),
                }
            }
            out.finish().map(Value::Props)
        }
        _ => None,
    })
}

fn drop_keyword(
    e: &Entry<'_>,
    name: &str,
    path: &Path<'_>,
    tool: &Tool<'_>,
    cx: &mut PassCx<'_, '_>,
) {
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
        path.to_pointer(),
        format!("`{name}` is not supported by {}; dropped", cx.target.name()),
    );
}

#[cold]
fn arena_error(path: &Path<'_>, cx: &PassCx<'_, '_>) -> ConversionError {
    ConversionError::new(
        cx.target.name(),
        crate::error::Direction::FromCanonical,
        path.to_pointer(),
        crate::error::ErrorKind::ArenaLimit { limit: cx.options.limits.max_arena_bytes },
    )
}
