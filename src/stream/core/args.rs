//! A held call's arguments at its end: checked to be a JSON object and written compact (a
//! target that sends calls whole), or mapped through the definitions' map.

use crate::emit::Writer;
use crate::report::Code;

use super::{Core, OpenCall};

impl Core<'_> {
    /// Whether `text` is a JSON object (empty text counts as `{}`); if so it is rewritten
    /// compact (a whole call's arguments are written inside one event line).
    pub(super) fn compact_object(&mut self, text: &mut String) -> bool {
        if text.trim().is_empty() {
            text.clear();
            text.push_str("{}");
            return true;
        }
        self.arena.reset();
        match self.args.value(text, &self.arena, &self.parse_limits, &self.from) {
            Ok(v @ crate::ir::Json::Object(_)) => {
                let mut bytes = std::mem::take(&mut self.text).into_bytes();
                bytes.clear();
                Writer::new(&mut bytes, false).json(&v);
                self.text = String::from_utf8(bytes).unwrap_or_default();
                std::mem::swap(text, &mut self.text);
                true
            }
            _ => false,
        }
    }

    /// `c`'s arguments mapped through map entry `i`; left as they are (and reported) when
    /// they are not JSON.
    pub(super) fn rewrite(&mut self, c: &mut OpenCall, i: usize) {
        let Some(map) = self.map.as_deref() else { return };
        self.arena.reset();
        let text = if c.args.trim().is_empty() { "{}" } else { c.args.as_str() };
        let value = self.args.value(text, &self.arena, &self.parse_limits, &self.from);
        match value.ok().and_then(|v| map.arguments(i, v, &self.arena)) {
            Some(mapped) => {
                let mut bytes = std::mem::take(&mut self.text).into_bytes();
                bytes.clear();
                Writer::new(&mut bytes, false).json(&mapped);
                self.text = String::from_utf8(bytes).unwrap_or_default();
                std::mem::swap(&mut c.args, &mut self.text);
            }
            None => {
                let pieces = ["the call's arguments are not JSON: sent unmapped"];
                let tool = c.name.clone();
                self.note(Code::CallMapped, true, &tool, "arguments", &pieces);
            }
        }
    }
}
