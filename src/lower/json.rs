//! Lowering any JSON value verbatim (an unknown keyword's value, `const`, `enum`, `default`,
//! envelope members kept as they are).

use simd_json::{Node, StaticNode};

use super::{At, Lowerer};
use crate::error::ConversionError;
use crate::ir::{Json, Member};
use crate::pointer::{Path, Seg};

impl<'a> Lowerer<'a, '_> {
    /// Lowers any JSON value verbatim.
    pub fn json(
        &mut self,
        at: At,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<Json<'a>, ConversionError> {
        Ok(match self.node(at) {
            Node::String(s) => Json::String(s),
            Node::Static(StaticNode::Null) => Json::Null,
            Node::Static(StaticNode::Bool(b)) => Json::Bool(b),
            Node::Static(_) => Json::Number(self.number_text(at, path)?),
            Node::Array { len, .. } => {
                self.check_depth(depth + 1, path)?;
                let items = self.alloc_slice(len, Json::Null, path)?;
                let mut elems = self.elements(at);
                for (i, slot) in items.iter_mut().enumerate() {
                    let Some(v) = elems.next() else { break };
                    // Strings (most `enum` values) without a call: its result, returned
                    // through memory and copied, stalled store forwarding.
                    *slot = match self.node(v) {
                        Node::String(s) => Json::String(s),
                        _ => self.json(v, &path.push(Seg::Index(i)), depth + 1)?,
                    };
                }
                Json::Array(items)
            }
            Node::Object { len, .. } => {
                self.check_depth(depth + 1, path)?;
                self.check_duplicates(at, path)?;
                let members = self.alloc_slice(len, Member { key: "", value: Json::Null }, path)?;
                let mut iter = self.members(at);
                for slot in members.iter_mut() {
                    let Some((k, _, v)) = iter.next() else { break };
                    let value = match self.node(v) {
                        Node::String(s) => Json::String(s),
                        _ => self.json(v, &path.push(Seg::Key(k)), depth + 1)?,
                    };
                    *slot = Member { key: k, value };
                }
                Json::Object(members)
            }
        })
    }
}
