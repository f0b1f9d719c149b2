//! How a fuzz input's first byte picks a conversion, shared by the targets that say they pick
//! "as in `convert`": the (from, to) pair among the registered formats and the strict mode.

use std::sync::Arc;

use tooladapter::{Adapter, Registry, Strict};

/// The source and target adapters, their names and the strict mode `pick` selects.
pub struct Picked {
    pub from: Arc<dyn Adapter>,
    pub to: Arc<dyn Adapter>,
    #[allow(dead_code, reason = "only the targets that name the pair in a finding read it")]
    pub names: (String, String),
    pub strict: Strict,
}

/// What `pick` selects among `registry`'s formats.
pub fn pick(registry: &Registry, pick: u8) -> Option<Picked> {
    let names = registry.list();
    let n = names.len();
    let from = names.get(usize::from(pick) % n)?;
    let to = names.get(usize::from(pick) / n % n)?;
    let strict =
        [Strict::Source, Strict::On, Strict::Require, Strict::Off][usize::from(pick) / (n * n) % 4];
    Some(Picked {
        from: registry.get(from)?,
        to: registry.get(to)?,
        names: (from.clone(), to.clone()),
        strict,
    })
}
