//! The checks of a whole request: tool names unique, the per-request limits (strict tools,
//! optional and union-typed parameters across them, cache breakpoints), and the dated limits
//! (a tool's description, tools a request), which only `check` and an obeying conversion read;
//! and the catalog's tool choice, where the provider's models take only some.

use crate::adapter::Adapter;
use crate::ir::measure::{self, SchemaCounts};
use crate::ir::{Member, Role, Tool};
use crate::pointer::{Seg, write_seg};
use crate::profile::{DatedLimit, Profile};

use super::{Dated, Finding, is_strict, over};
use crate::report::Note;

/// Checks what a request holding all of `tools` must obey, whatever wrote them: unique names
/// and the per-request limits (strict tools, optional and union parameters, cache
/// breakpoints). `scratch` is the names pass's, reused for the duplicate test.
pub(crate) fn check_catalog(
    tools: &[Tool<'_>],
    target: &dyn Adapter,
    strict: Option<&Profile>,
    scratch: &mut Vec<(u64, u32)>,
    out: &mut Vec<Finding>,
) {
    let names = tools.iter().filter(|t| t.opaque.is_none()).map(|t| t.name);
    if crate::ir::names::has_duplicates(names, scratch) {
        duplicate_names(tools, target, out);
    }
    catalog_limits(tools, target, strict.is_some(), out);
}

/// One finding per tool whose name an earlier tool has, in catalog order (sorted by name, so
/// that many tools of one name cost n log n and not n²).
#[cold]
fn duplicate_names(tools: &[Tool<'_>], target: &dyn Adapter, out: &mut Vec<Finding>) {
    let mut by_name: Vec<(&str, usize)> = tools
        .iter()
        .enumerate()
        .filter(|(_, t)| t.opaque.is_none())
        .map(|(i, t)| (t.name, i))
        .collect();
    by_name.sort_unstable();
    let mut later: Vec<usize> = by_name
        .windows(2)
        .filter_map(|w| match w {
            [a, b] if a.0 == b.0 => Some(b.1),
            _ => None,
        })
        .collect();
    later.sort_unstable();
    for (i, t) in later.into_iter().filter_map(|i| Some((i, tools.get(i)?))) {
        let message = format!(
            "{} rejects a request whose tools share a name: {:?} is used twice",
            target.name(),
            t.name
        );
        let pointer = format!("{}/name", t.members_pointer);
        out.push(Finding::rejected(Some(i), t.at, "name", pointer, message));
    }
}

/// The per-request limits; nothing is counted for a target without them.
fn catalog_limits(tools: &[Tool<'_>], target: &dyn Adapter, strict: bool, out: &mut Vec<Finding>) {
    let limits = target.profile().provider_limits();
    let per_request = [limits.strict_tools, limits.optional_params, limits.union_params];
    if per_request.iter().all(Option::is_none) && limits.cache_breakpoints.is_none() {
        return;
    }
    let wanted = strict && per_request.iter().any(Option::is_some);
    let (strict_tools, optional, unions) =
        if wanted { strict_params(tools, target) } else { (0, 0, 0) };
    let breakpoints = match limits.cache_breakpoints {
        Some(_) => tools.iter().filter(|t| has_cache_control(t)).count(),
        None => 0,
    };
    for (limit, n, what) in [
        (limits.strict_tools, strict_tools, "strict tools"),
        (limits.optional_params, optional, "optional parameters across strict tools"),
        (limits.union_params, unions, "union-typed parameters across strict tools"),
        (limits.cache_breakpoints, breakpoints, "cache_control breakpoints"),
    ] {
        if let Some(limit) = limit
            && n > limit.max
        {
            let message = over(n, what, "in one request", limit);
            out.push(Finding::rejected(None, 0, "limit", String::new(), message));
        }
    }
}

/// How many of `tools` are strict to `target`, and their optional and union-typed
/// parameters.
fn strict_params(tools: &[Tool<'_>], target: &dyn Adapter) -> (usize, usize, usize) {
    let (mut strict_tools, mut optional, mut unions) = (0, 0, 0);
    for t in tools.iter().filter(|t| t.opaque.is_none() && is_strict(t, target)) {
        strict_tools += 1;
        if let Some(s) = &t.input {
            let mut c = SchemaCounts::default();
            measure::count_params(s, &mut c);
            optional += c.optional;
            unions += c.unions;
        }
    }
    (strict_tools, optional, unions)
}

/// Whether the tool carries a `cache_control` breakpoint (Anthropic).
fn has_cache_control(tool: &Tool<'_>) -> bool {
    tool.members.iter().any(|m| m.role == Role::Meta && m.key == "cache_control")
}

/// Each description of `tools` over the target's dated character limit
/// ([`crate::adapter::DatedLimit`]), for `check` (a conversion that obeys the limit has cut
/// them already).
pub(crate) fn dated_descriptions(
    tools: &[Tool<'_>],
    target: &dyn Adapter,
    held: Dated,
    out: &mut Vec<Finding>,
) {
    let Some(limit) = target.profile().provider_limits().description_chars else { return };
    for (i, t) in tools.iter().enumerate().filter(|(_, t)| t.opaque.is_none()) {
        // A text of no more bytes than the limit has no more characters either.
        let Some(d) = t.description.filter(|d| d.len() > limit.max) else { continue };
        let n = d.chars().count();
        if n > limit.max {
            let (kind, feature) = (held.kind(), "description");
            let pointer = format!("{}/description", t.members_pointer);
            let message = dated(n, "characters of description", limit, target);
            out.push(Finding {
                tool: Some(i),
                at: t.at,
                note: Note { kind, feature, pointer, message },
            });
        }
    }
}

/// More tools in `tools` than the target's dated request limit
/// ([`crate::adapter::DatedLimit`]).
pub(crate) fn dated_tools(
    tools: &[Tool<'_>],
    target: &dyn Adapter,
    held: Dated,
    out: &mut Vec<Finding>,
) {
    let Some(limit) = target.profile().provider_limits().tools else { return };
    let n = tools.iter().filter(|t| t.opaque.is_none()).count();
    if n > limit.max {
        let (kind, feature, pointer) = (held.kind(), "tools", String::new());
        let message = dated(n, "tools in one request", limit, target);
        out.push(Finding { tool: None, at: 0, note: Note { kind, feature, pointer, message } });
    }
}

/// The message of a finding over a dated limit.
#[cold]
fn dated(n: usize, what: &str, limit: DatedLimit, target: &dyn Adapter) -> String {
    format!(
        "{n} {what} is over {}'s dated limit of {} (enforced {}; {})",
        target.name(),
        limit.max,
        limit.enforced,
        limit.source
    )
}

/// The catalog's tool choice, when the target's provider does not take it for the models the
/// format stands for (Bedrock's `toolChoice.tool` for Llama: [`crate::FormatInfo::tool_choice`]):
/// one request-level finding at the choice, and the index in `wrapper` (the catalog object's
/// members) of the member holding it, for a conversion to drop.
pub(crate) fn tool_choice(
    wrapper: &[Member<'_>],
    target: &dyn Adapter,
    out: &mut Vec<Finding>,
) -> Option<usize> {
    let rule = target.info().tool_choice?;
    let (index, refused) = rule.refused(wrapper)?;
    let mut pointer = String::new();
    write_seg(&mut pointer, Seg::Key(rule.key));
    write_seg(&mut pointer, Seg::Key(refused));
    let takes = match rule.takes {
        [] => "none".to_owned(),
        takes => takes.join(", "),
    };
    let message = format!(
        "{} rejects `{}.{refused}` for the models this format stands for: they take {takes} ({})",
        target.name(),
        rule.key,
        rule.source
    );
    out.push(Finding::rejected(None, 0, rule.key, pointer, message));
    Some(index)
}
