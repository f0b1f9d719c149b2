//! What a format's traffic reader uses: the lowered document as [`Json`], walked with typed
//! accessors that fail with the pointer of the bad place, lists built in the arena, each
//! record's pointer and reading position, and the one way to say that a member is not carried.
//!
//! The whole input is lowered once (numbers as their text, duplicate keys refused, the depth
//! and arena limits held) before a reader sees it, so readers look members up by key in any
//! order.

use bumpalo::Bump;

use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Json, Member};
use crate::pointer::Path;
use crate::report::{Code, EntryKind, Note};

use super::note::{Record, TrafficNote};

/// A traffic reader's session: the arena, the report, and whether the conversion writes the
/// format it reads (then nothing is reported as dropped: the source is written back as it
/// was).
pub struct Reader<'a, 'r> {
    arena: &'a Bump,
    format: &'r str,
    target: &'r str,
    same_format: bool,
    notes: &'r mut dyn Record,
    scratch: &'r mut String,
    next: u32,
}

impl<'a, 'r> Reader<'a, 'r> {
    pub(crate) fn new(
        arena: &'a Bump,
        (format, target): (&'r str, &'r str),
        same_format: bool,
        notes: &'r mut dyn Record,
        scratch: &'r mut String,
    ) -> Self {
        Reader { arena, format, target, same_format, notes, scratch, next: 0 }
    }

    /// The arena records are allocated in.
    pub fn arena(&self) -> &'a Bump {
        self.arena
    }

    /// The name of the format being read.
    pub fn format(&self) -> &str {
        self.format
    }

    /// Whether the conversion writes the format it reads.
    pub fn same_format(&self) -> bool {
        self.same_format
    }

    /// An error of this reader at `path`.
    #[cold]
    pub fn error(&self, path: &Path<'_>, kind: ErrorKind) -> ConversionError {
        ConversionError::new(self.format, Direction::ToCanonical, path.to_pointer(), kind)
    }

    /// The error for a member of the wrong type.
    #[cold]
    pub fn wrong(
        &self,
        path: &Path<'_>,
        member: &str,
        expected: &'static str,
        found: &Json<'_>,
    ) -> ConversionError {
        let kind =
            ErrorKind::WrongType { member: member.to_owned(), expected, found: found.kind() };
        self.error(path, kind)
    }

    /// The error for a missing member.
    #[cold]
    pub fn missing(&self, path: &Path<'_>, member: &'static str) -> ConversionError {
        self.error(path, ErrorKind::MissingMember { member, hint: String::new() })
    }

    /// The error for a document of another shape than the one expected.
    #[cold]
    pub fn shape(&self, path: &Path<'_>, what: &str) -> ConversionError {
        self.error(path, ErrorKind::Shape(what.to_owned()))
    }

    /// Refuses a turn whose `role` is none of `roles` (a results turn read as calls):
    /// `what` says what was expected.
    ///
    /// # Errors
    /// The turn says another role.
    pub fn role(
        &self,
        doc: &Json<'a>,
        path: &Path<'_>,
        roles: &[&str],
        what: &str,
    ) -> Result<(), ConversionError> {
        match doc.get("role").and_then(Json::as_str) {
            Some(role) if !roles.contains(&role) => Err(self.shape(path, what)),
            _ => Ok(()),
        }
    }

    /// The members of `v`, an object (`member` names it in the error).
    ///
    /// # Errors
    /// `v` is not an object.
    pub fn object(
        &self,
        v: &'a Json<'a>,
        path: &Path<'_>,
        member: &str,
    ) -> Result<&'a [Member<'a>], ConversionError> {
        match v {
            Json::Object(m) => Ok(m),
            other => Err(self.wrong(path, member, "an object", other)),
        }
    }

    /// The elements of `v`, an array.
    ///
    /// # Errors
    /// `v` is not an array.
    pub fn array(
        &self,
        v: &'a Json<'a>,
        path: &Path<'_>,
        member: &str,
    ) -> Result<&'a [Json<'a>], ConversionError> {
        match v {
            Json::Array(items) => Ok(items),
            other => Err(self.wrong(path, member, "an array", other)),
        }
    }

    /// The string `v`.
    ///
    /// # Errors
    /// `v` is not a string.
    pub fn string(
        &self,
        v: &'a Json<'a>,
        path: &Path<'_>,
        member: &str,
    ) -> Result<&'a str, ConversionError> {
        match v {
            Json::String(s) => Ok(s),
            other => Err(self.wrong(path, member, "a string", other)),
        }
    }

    /// The string member `key` of `members`, if present (and a string).
    ///
    /// # Errors
    /// The member is there and not a string.
    pub fn opt_str(
        &self,
        members: &'a [Member<'a>],
        key: &str,
        path: &Path<'_>,
    ) -> Result<Option<&'a str>, ConversionError> {
        match get(members, key) {
            None | Some(Json::Null) => Ok(None),
            Some(v) => self.string(v, &path.push(crate::pointer::Seg::Key(key)), key).map(Some),
        }
    }

    /// The string member `key` of `members`, which must be there.
    ///
    /// # Errors
    /// It is missing or not a string.
    pub fn req_str(
        &self,
        members: &'a [Member<'a>],
        key: &'static str,
        path: &Path<'_>,
    ) -> Result<&'a str, ConversionError> {
        self.opt_str(members, key, path)?.ok_or_else(|| self.missing(path, key))
    }

    /// The pointer of `path`, in the arena.
    pub fn pointer(&mut self, path: &Path<'_>) -> &'a str {
        self.scratch.clear();
        path.write_pointer(self.scratch);
        self.arena.try_alloc_str(self.scratch).map_or("", |s| &*s)
    }

    /// The next reading position, for a record's `at`.
    pub fn at(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// A list of at most `max` items in the arena.
    ///
    /// # Errors
    /// The arena limit.
    pub fn list<T: Copy>(
        &self,
        max: usize,
        path: &Path<'_>,
    ) -> Result<List<'a, T>, ConversionError> {
        List::with_capacity(self.arena, max).ok_or_else(|| self.arena_error(path))
    }

    /// `value` moved into the arena.
    ///
    /// # Errors
    /// The arena limit.
    pub fn alloc<T: Copy>(&self, value: T, path: &Path<'_>) -> Result<&'a T, ConversionError> {
        self.arena.try_alloc(value).map(|v| &*v).map_err(|_| self.arena_error(path))
    }

    #[cold]
    fn arena_error(&self, path: &Path<'_>) -> ConversionError {
        // The limit the session set on the arena (the reader is not told the number).
        self.error(
            path,
            ErrorKind::ArenaLimit { limit: self.arena.allocation_limit().unwrap_or(0) },
        )
    }

    /// Says that member `key` (at `path`, holding `value`) of something read has no place in
    /// the target: kept by the same format, which writes the source back; otherwise an `info`
    /// entry, or none for a member that holds nothing (`null`, `""`, `[]`, `{}`).
    pub fn extra(&mut self, path: &Path<'_>, key: &str, value: &Json<'_>, tool: &str) {
        if self.same_format || holds_nothing(value) {
            return;
        }
        let pointer = self.pointer(path);
        let at = self.at();
        let kind = EntryKind::content(Code::ContentDropped, false);
        let message = &["`", key, "` has no place in the ", self.target, " payload; left out"];
        let note: TrafficNote<'_> = Note { kind, feature: key, pointer, message };
        self.notes.record((tool, at), note);
    }
}

/// A list being built in the arena ([`Reader::list`]).
pub struct List<'a, T> {
    items: bumpalo::collections::Vec<'a, T>,
}

impl<'a, T: Copy> List<'a, T> {
    /// An empty list with room for `max` items; `None` at the arena limit.
    pub(crate) fn with_capacity(arena: &'a Bump, max: usize) -> Option<Self> {
        let mut items = bumpalo::collections::Vec::new_in(arena);
        items.try_reserve_exact(max).ok()?;
        Some(List { items })
    }

    /// Appends `item`; past the capacity asked for, the item is dropped (a reader asks for
    /// the length of the array it reads, which bounds what it appends).
    pub fn push(&mut self, item: T) {
        if self.items.len() < self.items.capacity() {
            self.items.push(item);
        }
    }

    /// How many items there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The last item.
    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.items.last_mut()
    }

    /// The finished slice.
    pub fn done(self) -> &'a [T] {
        self.items.into_bump_slice()
    }
}

/// Member `key` of `members`.
pub fn get<'a, 'm>(members: &'m [Member<'a>], key: &str) -> Option<&'m Json<'a>> {
    members.iter().find(|m| m.key == key).map(|m| &m.value)
}

/// Whether `value` holds nothing a reader would miss: `null`, `""`, `[]` or `{}`.
pub fn holds_nothing(value: &Json<'_>) -> bool {
    match value {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// A `data:` URL's media type and base64 data (`data:image/png;base64,iVBO…`); `None` for any
/// other URL, which is kept as a URL.
pub fn data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mime = head.strip_suffix(";base64")?;
    Some((mime, data))
}
