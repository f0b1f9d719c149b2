//! Names the import makes up: a tool's name from its method and path when the operation has
//! no `operationId`, and the suffixes that keep tool names in the catalog and property keys
//! in an input schema unique.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::names::numbered;

/// Names handed out so far, with the next suffix to try for each base: many clashes on one
/// name cost a step each, not a scan from `_2` every time.
#[derive(Default)]
pub(super) struct Names {
    used: BTreeSet<String>,
    next: BTreeMap<String, u64>,
}

impl Names {
    /// Whether `name` is handed out.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.used.contains(name)
    }

    /// Hands `name` out.
    pub(super) fn insert(&mut self, name: &str) {
        self.used.insert(name.to_owned());
    }

    /// The first free `<base>_<n>` (n ≥ 2) that `reserved` does not hold either: the names
    /// pass numbers a repeated tool name the same way.
    pub(super) fn suffixed(&mut self, base: &str, reserved: impl Fn(&str) -> bool) -> String {
        let Names { used, next } = self;
        let n = next.entry(base.to_owned()).or_insert(2);
        numbered(base, usize::MAX, n, |c| used.contains(c) || reserved(c))
    }
}

/// `<method>_<path>` with every character outside `[A-Za-z0-9_.-]` made `_`, runs of `_`
/// collapsed and `_` trimmed from the ends: `get /pets/{id}` → `get_pets_id`.
pub(super) fn derived_name(method: &str, path: &str) -> String {
    let mut out = String::with_capacity(method.len() + path.len() + 1);
    for c in method.chars().chain(['_']).chain(path.chars()) {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-') { c } else { '_' };
        if c == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// `name`, or when an earlier argument has it, `<name>_<location>` (for a parameter, whose
/// `in` is `location`), then the first free `_2`, `_3`, … suffix; the key is taken.
pub(super) fn unique_key(name: &str, location: Option<&str>, keys: &mut Names) -> String {
    let key = if !keys.contains(name) {
        name.to_owned()
    } else {
        let base = match location {
            Some(location) => format!("{name}_{location}"),
            None => name.to_owned(),
        };
        if keys.contains(&base) { keys.suffixed(&base, |_| false) } else { base }
    };
    keys.insert(&key);
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_names_keep_the_allowed_characters() {
        assert_eq!(derived_name("get", "/pets/{petId}"), "get_pets_petId");
        assert_eq!(derived_name("post", "/"), "post");
        assert_eq!(derived_name("get", "/v1.0/a-b/{x}/ü"), "get_v1.0_a-b_x");
    }

    #[test]
    fn keys_get_the_location_then_a_number() {
        let mut keys = Names::default();
        keys.insert("id");
        keys.insert("id_query");
        assert_eq!(unique_key("x", Some("query"), &mut keys), "x");
        assert_eq!(unique_key("id", Some("header"), &mut keys), "id_header");
        assert_eq!(unique_key("id", Some("query"), &mut keys), "id_query_2");
        assert_eq!(unique_key("id", Some("query"), &mut keys), "id_query_3");
        assert_eq!(unique_key("id", None, &mut keys), "id_2");
        assert_eq!(unique_key("x", None, &mut keys), "x_2");
    }
}
