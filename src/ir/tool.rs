//! The arena tool: the fields every format shares, plus the source envelope kept in order.

use super::features::FeatureSet;
use super::json::Json;
use super::schema::Schema;

/// What an envelope member means to the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The tool name (typed in [`Tool::name`]).
    Name,
    /// The description (typed in [`Tool::description`] when it is a string).
    Description,
    /// The input schema (typed in [`Tool::input`]).
    Input,
    /// The output schema (typed in [`Tool::output`]).
    Output,
    /// OpenAI / Anthropic `strict` (typed in [`Tool::strict`]).
    Strict,
    /// Format-specific metadata kept verbatim (MCP `annotations`, Anthropic `cache_control`, …).
    Meta,
    /// A member of an outer wrapper (OpenAI Chat's `{"type":"function","function":{…}}`), kept
    /// verbatim at the wrapper level.
    Outer,
    /// A member that is the format's own structure (OpenAI Chat's `type` and `function`, the
    /// Responses API's `"type": "function"`), recorded so the same format re-emits it in
    /// source order: a `null` value is a placeholder its writer fills in (Chat's wrapper), any
    /// other is written back as read.
    Structure,
}

/// One member of the source envelope, in source order.
#[derive(Clone, Copy, Debug)]
pub struct ToolMember<'a> {
    /// The key as written in the source.
    pub key: &'a str,
    /// What the member means.
    pub role: Role,
    /// Position of the key in the source.
    pub at: u32,
    /// The raw value (for `Input`/`Output` roles the typed schema is authoritative).
    pub value: Json<'a>,
}

/// The empty object schema written where a target requires an input schema the source lacked.
pub const EMPTY_OBJECT_SCHEMA: &str = r#"{"type":"object","properties":{}}"#;

/// The same, as a strict tool's input schema: closed, so it takes no arguments (a strict
/// schema closes every object).
pub const CLOSED_EMPTY_OBJECT_SCHEMA: &str =
    r#"{"type":"object","properties":{},"additionalProperties":false}"#;

/// Which envelope members a conversion's target keeps, decided once per conversion: the
/// lowering passes over a dropped member unread, and the envelope pass reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberKeeps {
    /// Metadata members ([`Role::Meta`]): kept between formats of one family.
    pub meta: bool,
    /// Outer wrapper members ([`Role::Outer`]): kept only for the same format.
    pub outer: bool,
    /// The output schema ([`Role::Output`]): kept where the target has a place for it.
    pub output: bool,
    /// Metadata members kept by key where `meta` is not: the members the same format's
    /// provider defines ([`crate::FormatInfo::defined_members`]).
    pub defined: &'static [&'static str],
}

impl MemberKeeps {
    /// Every member kept: tools read for their own sake, with no target.
    pub const ALL: MemberKeeps =
        MemberKeeps { meta: true, outer: true, output: true, defined: &[] };

    /// Whether `role`'s member is written to the target; roles the target always has a
    /// place for (name, description, input, strict, structure) are decided elsewhere.
    #[inline]
    pub fn keeps(&self, role: Role) -> bool {
        match role {
            Role::Meta => self.meta,
            Role::Outer => self.outer,
            Role::Output => self.output,
            _ => true,
        }
    }

    /// Whether member `key` of role `role` is written to the target: [`MemberKeeps::keeps`],
    /// or a metadata member the target defines ([`MemberKeeps::defined`]).
    #[inline]
    pub fn keeps_member(&self, role: Role, key: &str) -> bool {
        self.keeps(role) || (role == Role::Meta && self.defined.contains(&key))
    }
}

/// A tool in the arena IR: the fields every format shares (public, for a format's reader and
/// writer) and the hints the passes leave for each other (crate-private).
#[derive(Clone, Copy, Debug)]
pub struct Tool<'a> {
    /// The tool name.
    pub name: &'a str,
    /// The description, when the source gave a string.
    pub description: Option<&'a str>,
    /// The input (arguments) schema, when the source gave one.
    pub input: Option<Schema<'a>>,
    /// The output schema (MCP `outputSchema`).
    pub output: Option<Schema<'a>>,
    /// `strict`, when the source stated it.
    pub strict: Option<bool>,
    /// Every envelope member in source order, so the same format re-emits it unchanged.
    pub members: &'a [ToolMember<'a>],
    /// A tool that is not a function tool (a provider's built-in such as `web_search`), kept
    /// verbatim: re-emitted only to its own format and reported elsewhere.
    pub opaque: Option<Json<'a>>,
    /// The input schema is an OpenAPI 3.0 Schema Object (Gemini `parameters`), where
    /// `nullable: true` admits `null`; in JSON Schema it means nothing.
    pub(crate) openapi_schema: bool,
    /// Every type name of that OpenAPI schema was spelled lower-case (`string`; Gemini's API
    /// reads either case): the same format writes them back so.
    pub(crate) lower_type_names: bool,
    /// Pointer prefix of the members with a role other than [`Role::Outer`] (`/function` for
    /// OpenAI Chat's nested shape, empty otherwise).
    pub(crate) members_pointer: &'static str,
    /// RFC 6901 pointer of the input schema relative to the tool (`/inputSchema`,
    /// `/function/parameters`, …): report pointers start with it.
    pub(crate) input_pointer: &'static str,
    /// Position of the tool in the source.
    pub(crate) at: u32,
    /// The tool's place among the document's tools, in document order, counting those left
    /// out (0 for a single tool).
    pub(crate) index: u32,
    /// The names pass renamed the tool because an earlier tool of the catalog has its source
    /// name: the name alone does not tell the two apart, so the inverse map gives
    /// [`Tool::index`] too.
    pub(crate) name_repeated: bool,
    /// The name in the source, when the target's name rule (or a clash in the catalog) made a
    /// pass rename the tool.
    pub(crate) source_name: Option<&'a str>,
    /// A pass renamed a property key or widened an optional property somewhere in the input
    /// schema, so a model's arguments need mapping back.
    pub(crate) remapped: bool,
    /// The pattern of the property-key rule ([`crate::profile::NameRule::pattern`]) that every
    /// `properties` key of the input schema was found to obey while it was lowered; `None`
    /// when no rule was checked. The names pass then skips its own walk of the schema.
    pub(crate) valid_keys: Option<&'static str>,
    /// The strict pass made the input schema strict without meeting a subschema it does not
    /// descend into or an `additionalProperties` that is not a schema, so every object in it
    /// is closed: the pre-flight check need not walk it looking for an open one.
    pub(crate) strict_closed: bool,
}

impl<'a> Tool<'a> {
    /// A tool called `name` with no other member yet: what a format's reader starts from.
    pub const fn new(name: &'a str) -> Tool<'a> {
        Tool {
            name,
            description: None,
            input: None,
            output: None,
            strict: None,
            members: &[],
            opaque: None,
            openapi_schema: false,
            lower_type_names: false,
            members_pointer: "",
            input_pointer: "",
            at: 0,
            index: 0,
            name_repeated: false,
            source_name: None,
            remapped: false,
            valid_keys: None,
            strict_closed: false,
        }
    }

    /// Features used by the input and output schemas.
    pub fn features(&self) -> FeatureSet {
        let i = self.input.map_or(FeatureSet::EMPTY, |s| s.features);
        let o = self.output.map_or(FeatureSet::EMPTY, |s| s.features);
        i.union(o)
    }

    /// The metadata members (roles [`Role::Meta`] and [`Role::Outer`]), in source order.
    pub fn meta(&self) -> impl Iterator<Item = &'a ToolMember<'a>> + 'a {
        self.members.iter().filter(|m| matches!(m.role, Role::Meta | Role::Outer))
    }

    /// RFC 6901 pointer of `member` relative to the tool.
    pub fn member_pointer(&self, member: &ToolMember<'_>) -> String {
        let mut p = String::new();
        self.write_member_pointer(member, &mut p);
        p
    }

    /// Appends the RFC 6901 pointer of `member`, relative to the tool, to `out`.
    pub fn write_member_pointer(&self, member: &ToolMember<'_>, out: &mut String) {
        out.reserve(self.members_pointer.len() + member.key.len() + 1);
        if member.role != Role::Outer {
            out.push_str(self.members_pointer);
        }
        crate::pointer::write_seg(out, crate::pointer::Seg::Key(member.key));
    }

    /// The member with this key.
    pub fn member(&self, key: &str) -> Option<&'a ToolMember<'a>> {
        self.members.iter().find(|m| m.key == key)
    }
}
