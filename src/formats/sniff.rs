//! Which format an object looks like, decided in one place from each format's facts: the
//! members its tools keep their schema in ([`FormatInfo::schema_members`]), its catalog and
//! request keys, its response envelope's marker and its declared [`FormatInfo::marks`]. A
//! reader given an object that another format's marks fit more closely than its own refuses
//! it, naming that format, where reading on would write garbage (an AgentCard read as one
//! function named after the agent, an Anthropic server tool as a tool without parameters);
//! an object no format claims more than the reader's is read. The same fit gives the hint of
//! an object that misses its name.

use crate::adapter::FormatInfo;
use crate::error::{ConversionError, ErrorKind};
use crate::lower::{At, Kind, Lowerer, Reading};
use crate::pointer::{Path, Seg};

use super::{builtin, infos, schema_owners};

/// How deep a catalog's first element is looked into to tell whose catalog it is (a request's
/// `tools` → a Gemini `Tool` → its declarations).
const NESTING: usize = 2;

/// A format's closest fit to an object: how many members of one of its marks the object
/// holds, what the object then is, and the member that marks it.
#[derive(Clone, Copy, Debug)]
struct Fit {
    info: &'static FormatInfo,
    size: usize,
    what: &'static str,
    member: &'static str,
}

/// The family of the format called `name` (its own name for a format not built in).
fn family_of(name: &str) -> &str {
    builtin(name).map_or(name, |a| a.info().family)
}

/// Whether `text` matches `pattern`: `*` any run of characters (none too), `#` one ASCII
/// digit, anything else itself. Backtracks to the last `*` only: linear in the text for the
/// short constant patterns of the marks.
fn matches(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        let (pc, tc) = (p.get(pi).copied(), t.get(ti).copied());
        match pc {
            Some(b'*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(b'#') if tc.is_some_and(|c| c.is_ascii_digit()) => (pi, ti) = (pi + 1, ti + 1),
            Some(c) if c != b'#' && Some(c) == tc => (pi, ti) = (pi + 1, ti + 1),
            _ => match star {
                Some((sp, st)) => {
                    star = Some((sp, st + 1));
                    (pi, ti) = (sp + 1, st + 1);
                }
                None => return false,
            },
        }
    }
    p.get(pi..).is_some_and(|rest| rest.iter().all(|c| *c == b'*'))
}

/// The member `spec` asks for (`key`, or `key=value` for a string value matching `value`),
/// when the object at `at` holds it: its key.
fn holds(lw: &Lowerer<'_, '_>, at: At, spec: &'static str) -> Option<&'static str> {
    let (key, pattern) = match spec.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (spec, None),
    };
    debug_assert_eq!(key, key_of(spec));
    let v = lw.find(at, key)?;
    match pattern {
        None => Some(key),
        Some(pattern) => lw.str(v).filter(|s| matches(pattern, s)).map(|_| key),
    }
}

/// The closest fit of `info` to the object at `at`: its best mark, a schema member, a catalog
/// or request key holding a list whose first element does not look like another format's,
/// or the marker of its response envelope.
fn fit(lw: &Lowerer<'_, '_>, at: At, info: &'static FormatInfo, depth: usize) -> Option<Fit> {
    let mut best: Option<Fit> = None;
    let mut consider = |f: Fit| {
        if best.is_none_or(|b| f.size > b.size) {
            best = Some(f);
        }
    };
    for m in info.schema_members.iter().filter(|m| lw.find(at, m).is_some()) {
        consider(Fit { info, size: 1, what: "tool", member: m });
    }
    for mark in info.marks {
        if !mark.all.iter().all(|s| holds(lw, at, s).is_some()) {
            continue;
        }
        let any = mark.any.iter().find_map(|s| holds(lw, at, s));
        if !mark.any.is_empty() && any.is_none() {
            continue;
        }
        let first = mark.all.first().and_then(|s| holds(lw, at, s));
        let member = first.or(any).unwrap_or_default();
        consider(Fit { info, size: mark.size(), what: mark.what, member });
    }
    let lists = [(info.catalog_key, "catalog"), (info.catalog_alias, "catalog")]
        .into_iter()
        .chain([(info.request_key, "request")]);
    for (key, what) in lists.filter_map(|(k, what)| Some((k?, what))) {
        let Some(list) = lw.find(at, key).filter(|l| lw.kind(*l) == Kind::Array) else {
            continue;
        };
        // A list whose first element looks like another format's is that format's.
        let first = lw.elements(list).next().filter(|e| lw.kind(*e) == Kind::Object);
        let theirs = first.filter(|_| depth < NESTING).map(|e| closest(lw, e, None, depth + 1));
        // A format sharing another's shape reads that format's lists as its own.
        let ours = |f: &Fit| f.info.family == info.family || Some(f.info.name) == info.wire_of;
        if theirs.is_some_and(|(_, fits)| !fits.is_empty() && !fits.iter().any(ours)) {
            continue;
        }
        consider(Fit { info, size: 1, what, member: key });
    }
    if let Some(envelope) = info.envelope
        && lw.find(at, envelope.marker).is_some()
    {
        consider(Fit { info, size: 1, what: "response", member: envelope.marker });
    }
    best
}

/// The formats (in [`super::builtins`] order) that fit the object at `at` best, leaving out
/// the family `except` and the formats that share another's shape (that one is named for
/// them: [`FormatInfo::wire_of`]), and how closely.
fn closest(lw: &Lowerer<'_, '_>, at: At, except: Option<&str>, depth: usize) -> (usize, Vec<Fit>) {
    let mut found: Vec<Fit> = Vec::new();
    let mut size = 0;
    for info in infos().filter(|i| i.reads && i.own_shape() && Some(i.family) != except) {
        let Some(f) = fit(lw, at, info, depth) else { continue };
        if f.size > size {
            size = f.size;
            found.clear();
        }
        if f.size == size {
            found.push(f);
        }
    }
    (size, found)
}

/// The error for the object at `at` (at `path`), read as the lowerer's format, when another
/// format's marks fit it more closely than the reader's own: [`ErrorKind::ForeignMember`] at
/// a schema member of that format's (the reader has none of its own), else
/// [`ErrorKind::LooksLike`] at the member that marks it. `None` when the object is not an
/// object, or fits the reader (or nothing else) at least as well.
#[cold]
pub(crate) fn foreign_in(lw: &Lowerer<'_, '_>, at: At, path: &Path<'_>) -> Option<ConversionError> {
    if lw.kind(at) != Kind::Object {
        return None;
    }
    let family = family_of(lw.format());
    let own = infos()
        .filter(|i| i.family == family)
        .filter_map(|i| fit(lw, at, i, 0))
        .map(|f| f.size)
        .max()
        .unwrap_or(0);
    // A format fits no closer than the number of the object's members its marks name: when
    // none could beat the reader's own fit (an MCP tool's `title`, which LangChain's marks name
    // beside `properties`), the object is the reader's, found without fitting the others.
    let keys = Marked::get();
    if !keys.formats.iter().any(|(info, named)| {
        info.family != family && lw.members(at).filter(|(k, _, _)| named.contains(k)).count() > own
    }) {
        return None;
    }
    let (size, fits) = closest(lw, at, Some(family), 0);
    if size <= own {
        return None;
    }
    // Where the format that fits keeps its schema, the error names that member: read as this
    // format, the schema there would be lost.
    let schema = fits
        .iter()
        .find_map(|f| f.info.schema_members.iter().copied().find(|m| lw.find(at, m).is_some()));
    if let Some(member) = schema {
        let formats = schema_owners(member, family).collect();
        let kind = ErrorKind::ForeignMember { member: member.to_owned(), formats };
        return Some(lw.error(&path.push(Seg::Key(member)), kind));
    }
    let first = fits.first()?;
    let formats = fits.iter().map(|f| f.info.name).collect();
    let kind = ErrorKind::LooksLike { member: first.member.to_owned(), what: first.what, formats };
    Some(lw.error(&path.push(Seg::Key(first.member)), kind))
}

/// Whether a tool read as `reading` is worth fitting to the other formats ([`foreign_in`]):
/// it has no name, or no input schema where the format holds one, or a member it does not
/// know (`Meta`) that a format's marks name ([`Marked`]). A tool read as what it is pays
/// nothing more than a bit test (and, for a few names, a binary search) per unknown member.
pub(crate) fn worth_a_look<'m>(
    reading: &str,
    no_name: bool,
    no_input: bool,
    mut unknown: impl Iterator<Item = &'m str>,
) -> bool {
    no_name
        || (no_input && super::holds_input_schema(reading))
        || unknown.any(|key| Marked::get().names(key))
}

/// The members the built-in formats' marks name (their schema members, catalog, request and
/// envelope keys, and declared [`FormatInfo::marks`]): all of them, sorted, and each
/// format's. Made once, on first use.
struct Marked {
    all: Vec<&'static str>,
    /// A bit per [`Marked::bit`] of the names in `all`: most members no mark names (MCP's
    /// `annotations`, `_meta`) are told by one test, without a search.
    bits: u64,
    formats: Vec<(&'static FormatInfo, Vec<&'static str>)>,
}

impl Marked {
    fn get() -> &'static Marked {
        static MARKED: std::sync::OnceLock<Marked> = std::sync::OnceLock::new();
        MARKED.get_or_init(|| {
            let formats: Vec<(&'static FormatInfo, Vec<&'static str>)> =
                infos().filter(|i| i.reads).map(|i| (i, named_by(i))).collect();
            let mut all: Vec<&'static str> =
                formats.iter().flat_map(|(_, keys)| keys.iter().copied()).collect();
            all.sort_unstable();
            all.dedup();
            let bits = all.iter().fold(0, |bits, k| bits | Marked::bit(k));
            Marked { all, bits, formats }
        })
    }

    /// The bit of `key` in [`Marked::bits`]: its length and first byte.
    fn bit(key: &str) -> u64 {
        let first = key.as_bytes().first().copied().unwrap_or(0) as usize;
        1 << ((first ^ key.len().wrapping_mul(7)) & 63)
    }

    /// Whether a format's marks name `key`.
    fn names(&self, key: &str) -> bool {
        self.bits & Marked::bit(key) != 0 && self.all.binary_search(&key).is_ok()
    }
}

/// The members `info`'s marks name, each once.
fn named_by(info: &'static FormatInfo) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    keys.extend(info.schema_members);
    keys.extend([info.catalog_key, info.catalog_alias, info.request_key].into_iter().flatten());
    keys.extend(info.envelope.map(|e| e.marker));
    for mark in info.marks {
        keys.extend(mark.all.iter().chain(mark.any).map(|s| key_of(s)));
    }
    keys.retain(|k| !k.is_empty());
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The member a mark's `spec` names: `key` of `key` or `key=value`.
fn key_of(spec: &'static str) -> &'static str {
    spec.split_once('=').map_or(spec, |(k, _)| k)
}

/// Says which format an object read as the lowerer's format looks like, to help when it was
/// read as the wrong one: ` (the input looks like a `x` tool)` for the formats that fit it
/// best, the reader's family left out; empty when none fits.
#[cold]
fn shape_hint(lw: &Lowerer<'_, '_>, at: At) -> String {
    if lw.kind(at) != Kind::Object {
        return String::new();
    }
    let (size, fits) = closest(lw, at, Some(family_of(lw.format())), 0);
    let Some(first) = fits.first().filter(|_| size > 0) else { return String::new() };
    let names: Vec<&str> = fits.iter().map(|f| f.info.name).collect();
    format!(" (the input looks like {} {})", crate::error::a_list(&names), first.what)
}

/// The error for the object at `at` (at `path`) read as the lowerer's format, which misses
/// its `member` (the tool's name): another format's object says so ([`shape_hint`]); a list
/// the reader's catalog key (or another format's) holds as something else than a list says
/// where (`"tools": {…}`: tools by name); an object holding another format's catalog one
/// level down (a JSON-RPC `result` without its envelope) says where it is; anything else
/// says where the format's tools keep their name and what this object has.
#[cold]
pub(crate) fn missing(
    lw: &Lowerer<'_, '_>,
    at: At,
    path: &Path<'_>,
    member: &'static str,
    about: &str,
) -> ConversionError {
    let hint = shape_hint(lw, at);
    if !hint.is_empty() || lw.kind(at) != Kind::Object {
        return lw.error(path, ErrorKind::MissingMember { member, hint: format!("{about}{hint}") });
    }
    let keys = infos().flat_map(|i| [i.catalog_key, i.catalog_alias, i.request_key]);
    if let Some((key, v)) = keys
        .flatten()
        .find_map(|k| lw.find(at, k).filter(|v| lw.kind(*v) != Kind::Array).map(|v| (k, v)))
    {
        let kind = ErrorKind::WrongType {
            member: key.to_owned(),
            expected: "an array of tools (a catalog lists its tools; tools by name are not read)",
            found: lw.kind(v).as_str(),
        };
        return lw.error(&path.push(Seg::Key(key)), kind);
    }
    // What a member one level down holds: another format's catalog (a JSON-RPC `result`
    // without its envelope), or a list of tools under another name (OpenAI's legacy
    // `functions`). Said as where the tools are, not as another format: the format may be
    // right and the shape wrong.
    let inner = lw.members(at).find_map(|(k, _, v)| {
        let (inside, list) = match lw.kind(v) {
            Kind::Object => (v, false),
            Kind::Array => (lw.elements(v).next().filter(|e| lw.kind(*e) == Kind::Object)?, true),
            _ => return None,
        };
        let (size, fits) = closest(lw, inside, None, 0);
        let first = fits.first().copied().filter(|_| size > 0)?;
        Some((k, fits.iter().map(|f| f.info.name).collect::<Vec<_>>(), first.what, list))
    });
    if let Some((key, names, what, list)) = inner {
        let held = match list {
            true => format!("a list of {} {what}s: give that list", crate::error::or_list(&names)),
            false => format!("{} {what}: give that object", crate::error::a_list(&names)),
        };
        let hint = format!("{about} (`{key}` holds {held} as the input)");
        return lw.error(&path.push(Seg::Key(key)), ErrorKind::MissingMember { member, hint });
    }
    let own: Vec<String> = lw.members(at).map(|(k, _, _)| format!("`{k}`")).take(6).collect();
    let has = match own.len() {
        0 => "this object is empty".to_owned(),
        n if n < lw.object_len(at) => format!("this object has {}, …", own.join(", ")),
        _ => format!("this object has {}", own.join(", ")),
    };
    let pointer = builtin(lw.format()).map_or("/name", |a| a.info().name_pointer);
    let format = crate::error::a_list(&[lw.format()]);
    let hint = format!("{about} ({format} tool names itself at `{pointer}`; {has})");
    lw.error(path, ErrorKind::MissingMember { member, hint })
}

/// The built-in format a document is in, told by the same fit the readers refuse foreign
/// input with: a tool by its marks and schema members, a catalog or request by its list's
/// first element, a bare list by its first element, a response by its envelope's marker.
/// Only a fit no other family shares is an answer; within a family, the format whose own
/// schema member the tool holds (Gemini's `parameters` or `parametersJsonSchema`).
///
/// # Errors
/// The input is not JSON or breaks `limits` (as a conversion's parse would), or no format
/// fits it, or formats of more than one family fit it equally ([`ErrorKind::Shape`], naming
/// them): the caller must say which.
pub fn detect(
    input: &[u8],
    limits: &crate::Limits,
) -> Result<&'static FormatInfo, ConversionError> {
    let bad = |pointer: &str, kind: ErrorKind| {
        ConversionError::new("auto", crate::Direction::ToCanonical, pointer, kind)
    };
    let mut parser = crate::parse::Parser::default();
    let doc = parser
        .parse(input, limits.max_input_bytes, limits.depth_limit())
        .map_err(|f| bad(&f.pointer, f.kind))?;
    let arena = bumpalo::Bump::new();
    arena.set_allocation_limit(Some(limits.max_arena_bytes));
    let mut scratch = Vec::new();
    let lw = Lowerer::new(&doc, input, &arena, &mut scratch, Reading::own("auto", limits));
    // A bare list is its first element's format.
    let at = match lw.kind(0) {
        Kind::Array => lw.elements(0).next().unwrap_or(0),
        _ => 0,
    };
    let (size, fits) = closest(&lw, at, None, 0);
    let Some(first) = fits.first().filter(|_| size > 0) else {
        return Err(bad(
            "",
            ErrorKind::Shape("no format's tools, catalog or response look like this".into()),
        ));
    };
    if fits.iter().any(|f| f.info.family != first.info.family) {
        let names: Vec<&str> = fits.iter().map(|f| f.info.name).collect();
        let why = format!("it fits {} equally: name the format", crate::error::a_list(&names));
        return Err(bad("", ErrorKind::Shape(why)));
    }
    // One family: the format whose first schema member (the one it writes) is there.
    let own = fits
        .iter()
        .find(|f| f.info.schema_members.first().is_some_and(|m| lw.find(at, m).is_some()));
    Ok(own.unwrap_or(first).info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_runs_and_digits() {
        assert!(matches("*_########", "web_search_20250305"));
        assert!(matches("*_########", "tool_search_tool_regex_20251119"));
        assert!(!matches("*_########", "web_search"));
        assert!(!matches("*_########", "web_search_2025030x"));
        assert!(matches("web_search_preview*", "web_search_preview_2025_03_11"));
        assert!(matches("mcp", "mcp") && !matches("mcp", "mcp_toolset"));
        assert!(matches("*", "") && !matches("#", ""));
    }
}
