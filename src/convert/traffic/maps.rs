//! Calls through a definitions conversion's map ([`Inverse`], what `convert --map-out`
//! writes): back to the source's tool names and argument shape (renamed keys restored, the
//! `null`s strict mode's widening made the model send dropped), or forward to the target's
//! (keys renamed, widened properties the call leaves out sent as `null`). The arguments are
//! arena values, so numbers keep their text either way.

use bumpalo::Bump;
use indexmap::IndexMap;

use crate::inverse::{ArgNode, Inverse, ToolInverse};
use crate::ir::{Json, Member};
use crate::traffic::MapDirection;

/// The map's entry for a call of `name` going `direction`: the tool the name is known by on
/// the side the call comes from.
pub(crate) fn tool<'m>(
    map: &'m Inverse,
    direction: MapDirection,
    name: &str,
) -> Option<&'m ToolInverse> {
    match direction {
        MapDirection::Back => map.tool(name),
        MapDirection::Forward => map.tools.iter().find(|t| t.source_name == name),
    }
}

/// The name a call of `tool` is written with going `direction`.
pub(crate) fn name_of(tool: &ToolInverse, direction: MapDirection) -> &str {
    match direction {
        MapDirection::Back => &tool.source_name,
        MapDirection::Forward => &tool.name,
    }
}

/// `args` mapped through `tool`'s argument map going `direction`; `None` at the arena limit.
/// Unchanged (the same value) where nothing applies.
pub(crate) fn arguments<'a>(
    tool: &ToolInverse,
    direction: MapDirection,
    args: Json<'a>,
    arena: &'a Bump,
) -> Option<Json<'a>> {
    let Some(map) = &tool.arguments else { return Some(args) };
    let cx = Cx { defs: &map.defs, arena, direction };
    cx.node(&map.root, args, 0)
}

struct Cx<'m, 'a> {
    defs: &'m IndexMap<String, ArgNode>,
    arena: &'a Bump,
    direction: MapDirection,
}

impl<'a> Cx<'_, 'a> {
    /// `v` mapped through `node`. Depth is bounded by the value's, which lowering bounded;
    /// the cap keeps a hostile map finite too.
    fn node(&self, node: &ArgNode, v: Json<'a>, depth: usize) -> Option<Json<'a>> {
        if depth > 256 {
            return Some(v);
        }
        let mut v = v;
        if let Some(d) = node.reference.as_ref().and_then(|r| self.defs.get(r)) {
            v = self.node(d, v, depth + 1)?;
        }
        for branch in &node.any_of {
            v = self.node(branch, v, depth + 1)?;
        }
        match v {
            Json::Object(members) if !node.properties.is_empty() => {
                self.object(node, members, depth)
            }
            Json::Array(items) => match &node.items {
                Some(item) => {
                    let out = self.arena.try_alloc_slice_fill_copy(items.len(), Json::Null).ok()?;
                    for (slot, v) in out.iter_mut().zip(items) {
                        *slot = self.node(item, *v, depth + 1)?;
                    }
                    Some(Json::Array(out))
                }
                None => Some(v),
            },
            other => Some(other),
        }
    }

    fn object(&self, node: &ArgNode, members: &'a [Member<'a>], depth: usize) -> Option<Json<'a>> {
        let added = match self.direction {
            // Widened properties the call left out go as `null`, as the strict target's
            // model would have sent them.
            MapDirection::Forward => node
                .properties
                .iter()
                .filter(|(name, p)| {
                    p.drop_null
                        && !members.iter().any(|m| m.key == p.source.as_deref().unwrap_or(name))
                })
                .count(),
            MapDirection::Back => 0,
        };
        let empty = Member { key: "", value: Json::Null };
        let out = self.arena.try_alloc_slice_fill_copy(members.len() + added, empty).ok()?;
        let mut len = 0;
        for m in members {
            let (key, prop) = match self.direction {
                MapDirection::Back => match node.properties.get(m.key) {
                    Some(p) if p.drop_null && m.value == Json::Null => continue,
                    Some(p) => (p.source.as_deref().unwrap_or(m.key), Some(p)),
                    None => (m.key, None),
                },
                MapDirection::Forward => {
                    match node
                        .properties
                        .iter()
                        .find(|(name, p)| p.source.as_deref().unwrap_or(name) == m.key)
                    {
                        Some((name, p)) => (name.as_str(), Some(p)),
                        None => (m.key, None),
                    }
                }
            };
            let value = match prop.and_then(|p| p.value.as_ref()) {
                Some(child) => self.node(child, m.value, depth + 1)?,
                None => m.value,
            };
            let key = if key == m.key { m.key } else { &*self.arena.try_alloc_str(key).ok()? };
            if let Some(slot) = out.get_mut(len) {
                *slot = Member { key, value };
                len += 1;
            }
        }
        if added > 0 {
            for (name, p) in &node.properties {
                if p.drop_null
                    && !members.iter().any(|m| m.key == p.source.as_deref().unwrap_or(name))
                {
                    let key = &*self.arena.try_alloc_str(name).ok()?;
                    if let Some(slot) = out.get_mut(len) {
                        *slot = Member { key, value: Json::Null };
                        len += 1;
                    }
                }
            }
        }
        Some(Json::Object(out.get(..len).unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inverse::{ArgMap, ArgProp};

    fn tool() -> ToolInverse {
        let mut root = ArgNode::default();
        root.properties.insert(
            "bad_key".into(),
            ArgProp { source: Some("bad key!".into()), drop_null: false, value: None },
        );
        root.properties
            .insert("opt".into(), ArgProp { source: None, drop_null: true, value: None });
        ToolInverse {
            name: "t_renamed".into(),
            source_name: "t.renamed".into(),
            source_index: None,
            arguments: Some(ArgMap { root, defs: IndexMap::new() }),
        }
    }

    #[test]
    fn back_and_forward_undo_each_other() {
        let arena = Bump::new();
        let t = tool();
        let target = Json::Object(&[
            Member { key: "bad_key", value: Json::Number("1.50") },
            Member { key: "opt", value: Json::Null },
        ]);
        let back = arguments(&t, MapDirection::Back, target, &arena).unwrap_or(Json::Null);
        assert_eq!(back, Json::Object(&[Member { key: "bad key!", value: Json::Number("1.50") }]));
        let forward = arguments(&t, MapDirection::Forward, back, &arena).unwrap_or(Json::Null);
        assert_eq!(forward, target);
        assert_eq!(name_of(&t, MapDirection::Back), "t.renamed");
        let mut map = Inverse::default();
        (map.from, map.to, map.tools) = ("a".into(), "b".into(), vec![t]);
        assert!(super::tool(&map, MapDirection::Forward, "t.renamed").is_some());
        assert!(super::tool(&map, MapDirection::Back, "t.renamed").is_none());
    }
}
