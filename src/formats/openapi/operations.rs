//! The operations of the document: `paths` walked in document order (path items through their
//! `$ref`s), each operation's tool name and description, the `--operations` filter, and the
//! requests the API sends itself (webhooks, callbacks), which are reported, not imported.

use std::collections::BTreeSet;

use crate::error::{ConversionError, ErrorKind};
use crate::ir::{Json, Member};
use crate::report::{Code, Effect, EntryKind};

use super::document::{Deref, err, get, join, opt_str, wrong};
use super::names::{Names, derived_name};
use super::schema::join_text;
use super::{Context, OpenApi};

/// The operations of a path item, as OpenAPI 3.0 and 3.1 name them.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// One operation of the document.
pub(super) struct Operation<'a> {
    method: &'a str,
    /// The path item (its `$ref` followed) and the operation.
    pub(super) item: &'a [Member<'a>],
    pub(super) op: &'a [Member<'a>],
    pub(super) item_ptr: String,
    pub(super) ptr: String,
    id: Option<&'a str>,
    /// The tool name.
    pub(super) name: String,
    /// Why the name is not the operation's own, when it is not.
    clash: Option<(EntryKind, String)>,
}

impl Operation<'_> {
    /// What the `--operations` filter matches: the `operationId`, else the tool name.
    fn filter_name(&self) -> &str {
        self.id.unwrap_or(&self.name)
    }
}

/// Every operation of `paths`, in document order, named by [`name_operations`].
pub(super) fn collect<'a>(cx: &mut Context<'a, '_>) -> Result<Vec<Operation<'a>>, ConversionError> {
    let mut ops = Vec::new();
    let paths = match get(cx.doc.root, "paths") {
        None => return Ok(ops),
        Some(Json::Object(paths)) => *paths,
        Some(other) => return Err(wrong("/paths", "paths", "an object", other)),
    };
    for m in paths {
        let ptr = join("/paths", m.key);
        let (item, item_ptr) = match cx.doc.deref(&m.value, ptr) {
            Deref::Found(Json::Object(item), at, _) => (*item, at),
            Deref::Found(other, at, _) => return Err(wrong(&at, m.key, "an object", other)),
            Deref::Unresolved { reference, at, code: _, why } => {
                // The path item's operations are not tools: their calls are refused.
                cx.notes.note_document(
                    EntryKind::arguments(Code::OperationSkipped, Effect::Narrows),
                    "$ref",
                    join(&at, "$ref"),
                    format!(
                        "path item `{}` is a `$ref` to `{reference}`, which {why}; its operations are not imported",
                        m.key
                    ),
                );
                continue;
            }
        };
        for op in item {
            if !METHODS.contains(&op.key) {
                continue;
            }
            let ptr = join(&item_ptr, op.key);
            let Json::Object(members) = op.value else {
                return Err(wrong(&ptr, op.key, "an object", &op.value));
            };
            let id = match get(members, "operationId") {
                None => None,
                Some(Json::String(id)) => Some(*id),
                Some(other) => {
                    return Err(wrong(
                        &join(&ptr, "operationId"),
                        "operationId",
                        "a string",
                        other,
                    ));
                }
            };
            let name = id.map_or_else(|| derived_name(op.key, m.key), str::to_owned);
            ops.push(Operation {
                method: op.key,
                item,
                op: members,
                item_ptr: item_ptr.clone(),
                ptr,
                id,
                name,
                clash: None,
            });
        }
    }
    name_operations(&mut ops);
    Ok(ops)
}

/// Gives every operation a tool name, unique in the catalog: its `operationId` (the first
/// holder keeps a repeated one), else `<method>_<path>`; a name taken already gets the first
/// free `_2`, `_3`, … suffix. Names are given over all operations, so a filter does not
/// change them.
fn name_operations(ops: &mut [Operation<'_>]) {
    let ids: BTreeSet<String> = ops.iter().filter_map(|op| op.id.map(str::to_owned)).collect();
    let mut names = Names::default();
    for op in ops.iter_mut() {
        let taken = names.contains(&op.name) || (op.id.is_none() && ids.contains(&op.name));
        if taken {
            let name = names.suffixed(&op.name, |c| ids.contains(c));
            op.clash = Some(match op.id {
                Some(id) => (
                    EntryKind::guarantee_lost(Code::NameClash),
                    format!(
                        "operationId `{id}` is used by an earlier operation too; this one is named `{name}`"
                    ),
                ),
                None => (
                    EntryKind::metadata(Code::NameClash),
                    format!(
                        "the {} operation has no operationId, and its derived name `{}` is taken; it is named `{name}`",
                        op.method, op.name
                    ),
                ),
            });
            op.name = name;
        }
        names.insert(&op.name);
    }
}

/// The operations `api`'s filter keeps, in document order.
///
/// # Errors
/// A pattern that matches no operation ([`ErrorKind::InvalidOptions`]): most likely a typo,
/// and an import that silently writes none of what was asked for is worse than none. The
/// message names the pattern and the first operations the document has.
pub(super) fn select<'s, 'a>(
    ops: &'s [Operation<'a>],
    api: &OpenApi,
) -> Result<Vec<&'s Operation<'a>>, ConversionError> {
    let selected = ops
        .iter()
        .filter(|op| {
            api.operations.is_empty() || api.operations.iter().any(|g| glob(g, op.filter_name()))
        })
        .collect();
    match api.operations.iter().find(|p| !ops.iter().any(|op| glob(p, op.filter_name()))) {
        Some(pattern) => Err(no_match(pattern, ops)),
        None => Ok(selected),
    }
}

/// The error for an operations filter `pattern` that matches none of `ops`.
#[cold]
fn no_match(pattern: &str, ops: &[Operation<'_>]) -> ConversionError {
    const SHOWN: usize = 5;
    let names: Vec<String> =
        ops.iter().take(SHOWN).map(|op| format!("`{}`", op.filter_name())).collect();
    let known = match ops.len() {
        0 => "the document describes no operation".to_owned(),
        n if n > SHOWN => format!("its operations: {}, … ({n} in all)", names.join(", ")),
        _ => format!("its operations: {}", names.join(", ")),
    };
    let message = format!("the operations filter `{pattern}` matches no operation; {known}");
    err("", ErrorKind::InvalidOptions(message))
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters (none too) and
/// `?` any one. Linear backtracking to the last `*`, without recursion.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while let Some(&c) = t.get(ti) {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&q) if q == '?' || q == c => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                // The last `*` takes one more character and matching resumes after it.
                Some((s, mark)) => {
                    star = Some((s, mark + 1));
                    pi = s + 1;
                    ti = mark + 1;
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|&c| c == '*')
}

/// Records where the tool being written and its name come from, and notes a name that is not
/// the operation's own.
pub(super) fn place_name(cx: &mut Context<'_, '_>, op: &Operation<'_>) {
    let ptr = op.ptr.as_str();
    cx.notes.place("", ptr.to_owned());
    if op.id.is_some() {
        cx.notes.place("/name", join(ptr, "operationId"));
    }
    if let Some((kind, message)) = &op.clash {
        let (feature, at) = match op.id {
            Some(_) => ("operationId", join(ptr, "operationId")),
            None => ("name", ptr.to_owned()),
        };
        // A tool name: no argument changes.
        cx.notes.note(*kind, feature, at, message.clone());
    }
}

/// `summary` and `description` of the operation, else of its path item.
pub(super) fn description(
    cx: &mut Context<'_, '_>,
    op: &Operation<'_>,
) -> Result<Option<String>, ConversionError> {
    for (members, ptr) in [(op.op, &op.ptr), (op.item, &op.item_ptr)] {
        let summary = opt_str(members, "summary", ptr)?.unwrap_or("");
        let description = opt_str(members, "description", ptr)?.unwrap_or("");
        let text = join_text(summary, description);
        if !text.is_empty() {
            let key = if description.is_empty() { "summary" } else { "description" };
            cx.notes.place("/description", join(ptr, key));
            return Ok(Some(text));
        }
    }
    Ok(None)
}

/// Webhooks (3.1) are requests the API sends: reported, not imported.
pub(super) fn webhooks(cx: &mut Context<'_, '_>) -> Result<(), ConversionError> {
    match get(cx.doc.root, "webhooks") {
        None => Ok(()),
        Some(Json::Object(hooks)) => {
            for h in *hooks {
                // Not an operation a client calls: no call is lost.
                cx.notes.note_document(
                    EntryKind::metadata(Code::OperationSkipped),
                    "webhooks",
                    join("/webhooks", h.key),
                    format!(
                        "webhook `{}` describes requests the API sends, not operations a client calls; not imported",
                        h.key
                    ),
                );
            }
            Ok(())
        }
        Some(other) => Err(wrong("/webhooks", "webhooks", "an object", other)),
    }
}

/// Callbacks are requests the API makes: reported, not imported.
pub(super) fn callbacks(
    cx: &mut Context<'_, '_>,
    op: &Operation<'_>,
) -> Result<(), ConversionError> {
    let at = join(&op.ptr, "callbacks");
    match get(op.op, "callbacks") {
        None => {}
        Some(Json::Object(callbacks)) => {
            for c in *callbacks {
                cx.notes.note(
                    EntryKind::metadata(Code::OperationSkipped),
                    "callbacks",
                    join(&at, c.key),
                    format!(
                        "callback `{}` describes requests the API sends back, not operations a client calls; not imported",
                        c.key
                    ),
                );
            }
        }
        Some(other) => return Err(wrong(&at, "callbacks", "an object", other)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn glob_matches_star_and_question_mark() {
        for (p, t) in [
            ("*", ""),
            ("*", "getPet"),
            ("get*", "getPet"),
            ("*Pet", "getPet"),
            ("g?tPet", "getPet"),
            ("*e*e*", "getPetById"),
            ("a*b*c", "abbbc"),
            ("", ""),
            ("pets.list", "pets.list"),
            ("é?", "éa"),
        ] {
            assert!(glob(p, t), "{p} should match {t}");
        }
        for (p, t) in
            [("get", "getPet"), ("get?", "get"), ("*Pets", "getPet"), ("a*b*c", "abca"), ("", "a")]
        {
            assert!(!glob(p, t), "{p} should not match {t}");
        }
    }
}
