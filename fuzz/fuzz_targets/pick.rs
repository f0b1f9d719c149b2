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

/// What `pick` selects among `registry`'s formats of a shape of their own: a format sharing
/// another's (`FormatInfo::wire_of`: Mistral's, Vertex AI's) is read and written by that one's
/// code and differs only in its tables, which the matrix and corpus suites run; leaving them
/// out keeps one byte enough for every pair with two strict modes, and the seeds' pairs fixed.
pub fn pick(registry: &Registry, pick: u8) -> Option<Picked> {
    let own = |n: &String| registry.get(n).is_some_and(|a| a.info().own_shape());
    let names: Vec<String> = registry.list().into_iter().filter(own).collect();
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
