//! A catalog written as an object, `{key: [tools…]}`: the layout every format whose catalog is
//! an object shares ([`crate::FormatInfo::catalog_object`]), so the wrapper's members are put
//! back in one place.

use super::Writer;
use crate::ir::{Member, Tool};

/// Writes a catalog object `{key: [tools…]}`, with the source wrapper's other members in their
/// places when the format is the same.
pub(crate) fn write_object_catalog(
    key: &str,
    tools: &[Tool<'_>],
    wrapper: &[Member<'_>],
    mut write_tool: impl FnMut(&Tool<'_>, &mut Writer<'_>),
    w: &mut Writer<'_>,
) {
    let mut write_tools = |w: &mut Writer<'_>| {
        w.begin_array();
        for tool in tools {
            w.element();
            write_tool(tool, w);
        }
        w.end_array();
    };
    w.begin_object();
    let mut wrote_tools = false;
    for m in wrapper {
        w.key(m.key);
        if m.key == key {
            wrote_tools = true;
            write_tools(w);
        } else {
            w.json(&m.value);
        }
    }
    if !wrote_tools {
        w.key(key);
        write_tools(w);
    }
    w.end_object();
}
