//! One inverse map for many inputs (`convert --map-out` over NDJSON lines or a folder's
//! files, or a map merged by hand for `unmap`): the model calls a tool by its target name
//! alone, so two inputs whose tools are written under one name but map back differently (a
//! folder holding `same.name` and `same:name`, both written `same_name`) cannot share a map.
//! `unmap` would have to pick one silently; such a clash is found here instead, and the map
//! is refused.

use std::collections::HashMap;

use tooladapter::Inverse;
use tooladapter::inverse::ToolInverse;

/// Whether `a` and `b`, written under one name, map calls back differently.
fn differ(a: &ToolInverse, b: &ToolInverse) -> bool {
    a.source_name != b.source_name || a.source_index != b.source_index || a.arguments != b.arguments
}

/// The target names seen so far, and where each came from.
#[derive(Default)]
pub(crate) struct Maps {
    seen: HashMap<String, (String, ToolInverse)>,
    /// The first clash, said in words.
    clash: Option<String>,
}

impl Maps {
    /// Adds the tools of `inverse`, from the input named `source` (a file, `line 3`).
    pub(crate) fn add(&mut self, source: &str, inverse: &Inverse) {
        for tool in &inverse.tools {
            match self.seen.get(&tool.name) {
                None => {
                    self.seen.insert(tool.name.clone(), (source.to_owned(), tool.clone()));
                }
                Some((first, seen)) if self.clash.is_none() && differ(seen, tool) => {
                    self.clash = Some(format!(
                        "the tool `{}` maps back to `{}` ({}) and to `{}` ({}): one map cannot \
                         tell their calls apart",
                        tool.name, seen.source_name, first, tool.source_name, source
                    ));
                }
                Some(_) => {}
            }
        }
    }

    /// The first clash found, if any.
    pub(crate) fn clash(&self) -> Option<&str> {
        self.clash.as_deref()
    }
}

/// The first clash within one map (one read by `unmap`), if any.
pub(crate) fn clash_in(inverse: &Inverse) -> Option<String> {
    let mut maps = Maps::default();
    for (i, tool) in inverse.tools.iter().enumerate() {
        let mut one = Inverse::default();
        one.tools.push(tool.clone());
        maps.add(&format!("entry {i}"), &one);
    }
    maps.clash
}
