//! What a format's traffic writer uses ([`Out`]): the crate's one JSON [`Writer`], plus
//! arguments written as JSON text or as an object whichever way the source held them, and
//! (for the same format) the source document written back with only the changed nodes
//! replaced ([`write_patched`]).

use crate::emit::Writer;
use crate::ir::Json;
use crate::ir::traffic::Args;

/// A traffic writer's output.
pub struct Out<'w, 'o> {
    w: &'w mut Writer<'o>,
    /// Where arguments held as a value are written before they become a JSON string.
    scratch: &'w mut Vec<u8>,
}

impl<'w, 'o> Out<'w, 'o> {
    pub(crate) fn new(w: &'w mut Writer<'o>, scratch: &'w mut Vec<u8>) -> Self {
        Out { w, scratch }
    }

    /// The JSON writer.
    pub fn w(&mut self) -> &mut Writer<'o> {
        self.w
    }

    /// Writes `args` as a JSON string holding JSON text (OpenAI's `arguments`): text as it
    /// came, a value written compact, no arguments as `{}`.
    pub fn args_text(&mut self, args: &Args<'_>) {
        match args {
            Args::Text(t) if !t.trim().is_empty() => self.w.string(t),
            Args::Text(_) | Args::Absent => self.w.string_plain("{}"),
            Args::Value(v) => {
                self.scratch.clear();
                Writer::new(self.scratch, false).json(v);
                let text = std::str::from_utf8(self.scratch).unwrap_or_default();
                self.w.string(text);
            }
        }
    }

    /// Writes the sum of two numbers given as their text (Bedrock's `totalTokens` from the
    /// input and output counts), or nothing when either is not a whole number.
    pub fn sum(&mut self, key: &'static str, a: &str, b: &str) {
        if let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) {
            let mut digits = [0u8; 20];
            let mut n = a.saturating_add(b);
            let mut start = digits.len();
            loop {
                start -= 1;
                if let Some(d) = digits.get_mut(start) {
                    *d = b'0' + (n % 10) as u8;
                }
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.w.key_plain(key);
            self.w.raw(std::str::from_utf8(digits.get(start..).unwrap_or_default()).unwrap_or("0"));
        }
    }

    /// Writes `{"role": role, key: [items…]}`, each item by `item`: the message shape
    /// Anthropic, Bedrock and Gemini share (their member for the list differs).
    pub fn role_message<T>(
        &mut self,
        role: &'static str,
        key: &'static str,
        items: &[T],
        mut item: impl FnMut(&mut Self, &T),
    ) {
        self.w().begin_object();
        self.w().key_plain("role");
        self.w().string_plain(role);
        self.w().key_plain(key);
        self.w().begin_array();
        for i in items {
            self.w().element();
            item(self, i);
        }
        self.w().end_array();
        self.w().end_object();
    }

    /// Writes member `key` holding the string `value`.
    pub fn str_member(&mut self, key: &'static str, value: &str) {
        self.w.key_plain(key);
        self.w.string(value);
    }

    /// Writes a `data:` URL of `data` (base64) of media type `mime`.
    pub fn data_url(&mut self, mime: &str, data: &str) {
        self.scratch.clear();
        self.scratch.extend_from_slice(b"data:");
        self.scratch.extend_from_slice(mime.as_bytes());
        self.scratch.extend_from_slice(b";base64,");
        self.scratch.extend_from_slice(data.as_bytes());
        let text = std::str::from_utf8(self.scratch).unwrap_or_default();
        self.w.string(text);
    }

    /// Writes `texts` joined by a line break, as one string (a target whose content is one
    /// string, given several text blocks).
    pub fn joined<'t>(&mut self, texts: impl Iterator<Item = &'t str>) {
        self.scratch.clear();
        for (i, t) in texts.enumerate() {
            if i > 0 {
                self.scratch.push(b'\n');
            }
            self.scratch.extend_from_slice(t.as_bytes());
        }
        let text = std::str::from_utf8(self.scratch).unwrap_or_default();
        self.w.string(text);
    }

    /// Writes `args` as a JSON object. The pipeline reads text arguments into a value before
    /// a writer that wants an object sees them; text that still reaches here (none should) is
    /// written as the string it is, never as JSON it may not be.
    pub fn args_object(&mut self, args: &Args<'_>) {
        match args {
            Args::Value(v) => self.w.json(v),
            Args::Absent => {
                self.w.begin_object();
                self.w.end_object();
            }
            Args::Text(t) => self.w.string(t),
        }
    }
}

/// What replaces a node of the source when the same format writes it back.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Replace<'a> {
    /// A string.
    Str(&'a str),
    /// A value.
    Json(Json<'a>),
    /// A value written as a JSON string of its JSON text (OpenAI's `arguments`).
    JsonText(Json<'a>),
}

/// A node of the source to replace, by its address in the arena.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Patch<'a> {
    pub node: usize,
    pub with: Replace<'a>,
}

impl<'a> Patch<'a> {
    /// Replaces `node` with `with`.
    pub(crate) fn new(node: &Json<'_>, with: Replace<'a>) -> Self {
        Patch { node: std::ptr::from_ref(node) as usize, with }
    }
}

/// Writes `v` with the nodes `patches` name replaced (`patches` sorted by node): the source
/// as it was, but for what the conversion changed.
pub(crate) fn write_patched(
    w: &mut Writer<'_>,
    scratch: &mut Vec<u8>,
    v: &Json<'_>,
    patches: &[Patch<'_>],
) {
    if patches.is_empty() {
        return w.json(v);
    }
    let at = std::ptr::from_ref(v) as usize;
    if let Ok(i) = patches.binary_search_by_key(&at, |p| p.node) {
        match patches.get(i).map(|p| p.with) {
            Some(Replace::Str(s)) => w.string(s),
            Some(Replace::Json(j)) => w.json(&j),
            Some(Replace::JsonText(j)) => Out::new(w, scratch).args_text(&Args::Value(j)),
            None => {}
        }
        return;
    }
    match v {
        Json::Array(items) => {
            w.begin_array();
            for item in *items {
                w.element();
                write_patched(w, scratch, item, patches);
            }
            w.end_array();
        }
        Json::Object(members) => {
            w.begin_object();
            for m in *members {
                w.key(m.key);
                write_patched(w, scratch, &m.value, patches);
            }
            w.end_object();
        }
        scalar => w.json(scalar),
    }
}

/// An emptied patch list re-typed to another arena's lifetime, keeping its allocation (the
/// in-place `collect` reuses the buffer: the element layout is the same).
pub(crate) fn recycle_patches<'b>(mut v: Vec<Patch<'_>>) -> Vec<Patch<'b>> {
    v.clear();
    #[allow(clippy::unnecessary_filter_map, reason = "the closure changes the element's lifetime")]
    v.into_iter().filter_map(|_| None).collect()
}
