//! How an [`Inverse`](super::Inverse) finds a call's tool: through a hash of its tools' names,
//! made on the first lookup, so a batch of calls against a large map costs a hash each (a scan
//! of the map per call was quadratic, issue 32). The index is not part of the map's value: it
//! is equal whatever it holds, and an `Inverse` shows (`Debug`) without it.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

use std::fmt;

use super::{Inverse, ToolInverse};

/// Lists of tools up to this long are scanned for a name: no index is worth making.
pub(super) const SCAN: usize = 16;

/// The tools of an [`Inverse`](super::Inverse) by the hash of their names, made once per map. Not part of the
/// map's value: equal whatever it holds, empty in a clone, not shown.
#[derive(Default)]
pub(super) struct Lookup(OnceLock<ToolIndex>);

struct ToolIndex {
    /// The list indexed, by its address and length: a list moved or grown since is scanned.
    list: (usize, usize),
    /// The first tool with each name's hash, by its position.
    first: HashMap<u64, usize>,
    hasher: RandomState,
}

impl ToolIndex {
    fn new(tools: &[ToolInverse]) -> ToolIndex {
        let hasher = RandomState::new();
        let mut first = HashMap::with_capacity(tools.len());
        for (i, t) in tools.iter().enumerate() {
            first.entry(hasher.hash_one(t.name.as_str())).or_insert(i);
        }
        ToolIndex { list: (tools.as_ptr() as usize, tools.len()), first, hasher }
    }
}

impl Clone for Lookup {
    fn clone(&self) -> Lookup {
        Lookup::default()
    }
}

impl PartialEq for Lookup {
    fn eq(&self, _: &Lookup) -> bool {
        true
    }
}

impl Eq for Lookup {}

impl Lookup {
    /// The first of `tools` named `name`: scanned when the list is short, else through the
    /// index (made now, the first time), a list moved or grown since it was made scanned.
    pub(super) fn find<'t>(&self, tools: &'t [ToolInverse], name: &str) -> Option<&'t ToolInverse> {
        let scan = || tools.iter().find(|t| t.name == name);
        if tools.len() <= SCAN {
            return scan();
        }
        let index = self.0.get_or_init(|| ToolIndex::new(tools));
        if index.list != (tools.as_ptr() as usize, tools.len()) {
            return scan();
        }
        let i = *index.first.get(&index.hasher.hash_one(name))?;
        match tools.get(i) {
            Some(t) if t.name == name => Some(t),
            // Another name with the same hash (or a tool renamed in place): the list says.
            _ => scan(),
        }
    }
}

/// The map's value, without its index.
impl fmt::Debug for Inverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inverse")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("tools", &self.tools)
            .finish()
    }
}
