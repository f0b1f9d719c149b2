//! What a format is, as data: [`FormatInfo`] (its name, the rules its schemas are held to, the
//! facts of its envelope) and its [`StrictMode`]. It depends on the profile tables only, so the
//! options, the route and the adapters can all read it without importing each other.

use crate::ir::{FeatureSet, Json, Member, SchemaFeature};
use crate::profile::Profile;

/// A format's strict mode: the profile a strict tool's schema is held to, and how the
/// provider reads a tool that does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StrictMode {
    /// What the format's schemas hold when the tool is strict.
    pub profile: &'static Profile,
    /// Whether the provider makes a tool without `strict` strict where its schema allows (the
    /// Responses API: "Responses requests will attempt to normalize your schema into strict
    /// mode when possible, and will fall back to non-strict, best-effort function calling if
    /// the schema cannot be made compatible with strict mode", OpenAI's function-calling
    /// guide, as 0xPlaygrounds/rig#2477 quotes it, read 2026-11-28). No such tool is refused
    /// for strict mode's rules; a conversion from another format states `"strict": false`, so
    /// that the tool is what its source meant.
    pub omitted_is_strict: bool,
}

impl StrictMode {
    /// A strict mode held to `profile`, where a tool without `strict` is not strict.
    pub const fn new(profile: &'static Profile) -> StrictMode {
        StrictMode { profile, omitted_is_strict: false }
    }

    /// The provider makes a tool without `strict` strict where it can
    /// ([`StrictMode::omitted_is_strict`]).
    #[must_use]
    pub const fn omitted_is_strict(mut self) -> StrictMode {
        self.omitted_is_strict = true;
        self
    }
}

/// A response envelope a format's catalogs arrive in, as data: JSON-RPC 2.0 for MCP, whose
/// `tools/list` response is `{"jsonrpc": "2.0", "id": 1, "result": {"tools": […]}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Envelope {
    /// The member that tells an envelope from a tool or a catalog object (`jsonrpc`).
    pub marker: &'static str,
    /// The member holding the catalog object (`result`).
    pub result: &'static str,
    /// The member an error response holds instead (`error`), an object with a `code` and a
    /// `message`.
    pub error: &'static str,
}

impl Envelope {
    /// An envelope told by `marker`, holding the catalog object under `result` or an error
    /// under `error`.
    pub const fn new(marker: &'static str, result: &'static str, error: &'static str) -> Envelope {
        Envelope { marker, result, error }
    }
}

/// Members that together mark an object as a format's, and what the object then is (a tool,
/// a built-in tool, a document): data a reader compares another format's marks with before it
/// takes an object for its own (see [`FormatInfo::marks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mark {
    /// Members all present: `key`, or `key=value` for a string member whose value matches
    /// `value` (`*` any run of characters, `#` one digit).
    pub all: &'static [&'static str],
    /// One of these present too (none asked when empty), in the same notation.
    pub any: &'static [&'static str],
    /// What an object so marked is, for the error (`tool`, `built-in tool`, `document`).
    pub what: &'static str,
}

impl Mark {
    /// A mark of every member in `all`, an object so marked being a `what`.
    pub const fn all(all: &'static [&'static str], what: &'static str) -> Mark {
        Mark { all, any: &[], what }
    }

    /// A mark of one member of `any`.
    pub const fn any(any: &'static [&'static str], what: &'static str) -> Mark {
        Mark { all: &[], any, what }
    }

    /// How many members the mark asks for: a mark asking more fits an object more closely.
    pub const fn size(&self) -> usize {
        self.all.len() + if self.any.is_empty() { 0 } else { 1 }
    }
}

/// What a format is, as data: its name, the rules its schemas are held to, and the facts of
/// its envelope that the pipeline asks about. Each built-in format keeps its own as a const in
/// its folder (`formats/<name>/rules.rs`); the pipeline reads it, never the format's name.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct FormatInfo {
    /// The format name used on the command line and in reports (`mcp`, `openai`, …).
    pub name: &'static str,
    /// Formats of one family (`gemini` and `gemini-json`) are the same envelope with another
    /// schema field: converting between them keeps the envelope's metadata members.
    pub family: &'static str,
    /// What the format's schemas hold.
    pub profile: &'static Profile,
    /// The format's strict mode, when it has a place for `strict`.
    pub strict: Option<StrictMode>,
    /// The format's entry in the Go toolfoundation library's support matrix
    /// ([`crate::ProfileSet::ToolFoundation`]); `None` where it has none.
    pub toolfoundation: Option<&'static Profile>,
    /// Whether the format can be read.
    pub reads: bool,
    /// Whether the format can be written (`openapi` is import only).
    pub writes: bool,
    /// Whether the format imports whole documents of its own kind (an OpenAPI description)
    /// through [`crate::Adapter::import`] rather than reading tools as they are. Such an input is one
    /// document, never a catalog to split or stream.
    pub imports: bool,
    /// The member of a catalog object that holds the tool list (`{"tools": […]}`). `None` for
    /// a format without a catalog object (LangChain): any object is then one tool, and
    /// catalogs are JSON arrays only.
    pub catalog_key: Option<&'static str>,
    /// Another spelling of [`FormatInfo::catalog_key`] the format reads (Gemini's proto field
    /// name `function_declarations`), when it has one. The same format writes the catalog
    /// back under the spelling its source used.
    pub catalog_alias: Option<&'static str>,
    /// Whether the format writes a catalog as an object, its tools under
    /// [`FormatInfo::catalog_key`] (an MCP `tools/list` result, an AgentCard's `skills`,
    /// Bedrock's `toolConfig`, a Gemini `Tool`), rather than as a JSON array: what
    /// [`crate::Adapter::write_catalog`] does by default.
    pub catalog_object: bool,
    /// Members of a catalog object that say how to hold the list (how long to cache it, for
    /// whom), not what its tools are: MCP 2026-07-28's `ttlMs`, `cacheScope` and `resultType`.
    /// Another format drops them with an `info` entry, where other catalog members are a
    /// warning.
    pub catalog_hints: &'static [&'static str],
    /// The response envelope the format's catalog objects may arrive in (MCP's JSON-RPC
    /// response), read as the catalog it holds and written back by the same format.
    pub envelope: Option<Envelope>,
    /// The member of a request body holding a list of the format's catalog objects and
    /// provider built-ins (a Gemini request's `tools`: `[{"functionDeclarations": […]},
    /// {"googleSearch": {}}]`); `None` for a format whose requests list tools directly. Where
    /// it is set, such a list is read wherever a list of tools is (the request, or the list
    /// alone): each catalog object's tools in place, and written back grouped as they were
    /// by the same format.
    pub request_key: Option<&'static str>,
    /// Where a tool this format writes holds its name: a JSON pointer into the written tool
    /// object (`/name`; OpenAI Chat's `/function/name`; LangChain's `/title`). The catalog
    /// splitter ([`crate::catalog`]) reads written tools' names there, to see that tools
    /// converted in separate chunks do not share one.
    pub name_pointer: &'static str,
    /// The members of a tool object where the format's readers find its input schema (or
    /// the wrapper holding it), the one it writes first: MCP's `inputSchema`, OpenAI Chat's
    /// `function` wrapper and a bare function's `parameters`, Bedrock's `toolSpec`, Gemini's
    /// spellings of its two fields. Empty for a format whose tool is its schema (LangChain) or
    /// has none (A2A). Another format reading a tool that holds one of these and no schema of
    /// its own refuses it ([`crate::ErrorKind::ForeignMember`]): the input is likely in this
    /// format, and reading it as the other would lose the schema.
    pub schema_members: &'static [&'static str],
    /// Members that mark an object as the format's beyond those the other facts name (its
    /// [`FormatInfo::schema_members`], catalog key and alias, request key and envelope marker
    /// count as marks of one member each): a tool's shape (OpenAI Responses' `"type":
    /// "function"` beside a `name`), its provider's built-in tools (Anthropic's versioned
    /// `type`s, Gemini's `googleSearch`), a document (OpenAPI's `openapi`). A reader given an
    /// object another format's marks fit more closely than its own refuses it, naming that
    /// format ([`crate::ErrorKind::LooksLike`]): read as this one, it would be garbage.
    pub marks: &'static [Mark],
    /// Whether the tool object is its input schema, the envelope being root keywords of it
    /// (LangChain: `title` is the name, `description` the description). The input schema's
    /// own root `title` and `description` then have no place of their own; a pass moves them
    /// out, and reports it, before the tool is written.
    pub tool_is_schema: bool,
    /// Whether the format's tools have a place for an input schema (an A2A skill has none:
    /// the envelope pass drops the source's, and reports it).
    pub holds_input_schema: bool,
    /// Whether the format's tools must carry an input schema (an empty object schema is
    /// written, and reported, when the source had none).
    pub requires_input_schema: bool,
    /// Whether the input schema's root must be an object schema (`"type": "object"`).
    pub requires_object_root: bool,
    /// Whether the format has a place for an output schema.
    pub holds_output_schema: bool,
    /// Whether a provider's API reads the format, so its rules hold for a file of it as for
    /// any conversion into it: a same-format conversion normalizes (names, shapes, dialect)
    /// rather than passing the tools through. Valid input comes out byte-identical.
    pub provider: bool,
    /// The provider's error for a tool holding a member its API does not define, when it
    /// refuses one: members the format has no typed place for are then dropped (and reported)
    /// even between formats of its family, and `check` lists them with these words.
    pub closed_members: Option<&'static str>,
    /// Members of the format's tool object that its provider defines besides those the crate
    /// types (name, description, the schemas, `strict`) and the format's own structure
    /// (Responses' `defer_loading`, `allowed_callers`, `output_schema`, `async`). Where
    /// [`FormatInfo::closed_members`] drops the members the provider does not define, the same
    /// format keeps these as written, and `check` does not list them.
    pub defined_members: &'static [&'static str],
    /// Whether the format writes `type` names upper-case, as an OpenAPI `Type` enum
    /// (`STRING`, `OBJECT`: Gemini's `parameters`), where JSON Schema spells them lower-case.
    pub upper_type_names: bool,
    /// Another schema field the format's tools may hold instead of the one it writes, with
    /// rules of its own: Gemini's `parametersJsonSchema` (JSON Schema) beside `parameters`
    /// (the OpenAPI subset), one API. A tool read in that field is held to that field's rules,
    /// not the format's, and the same format writes it back in its field.
    pub other_field: Option<OtherField>,
    /// The built-in format whose wire shape this one shares (its tool object, catalog and
    /// marks, read and written by that format's code), for a provider that serves another's
    /// shape under rules of its own (Mistral's, Ollama's, xAI's and Cohere's OpenAI Chat-shaped
    /// tools, Vertex AI's Gemini declarations); `None` for a format of its own shape. Where an
    /// object is matched to the format it looks like, such a format is not listed beside the
    /// one whose shape it shares: that one stands for both.
    pub wire_of: Option<&'static str>,
    /// The members of the format's tool object that [`crate::CanonicalTool`] holds in typed
    /// fields of the same name (MCP's `title` and `annotations`): read from this format, they
    /// fill those fields; read from another, a member so named is kept in
    /// [`crate::CanonicalTool::source_meta`] like any other.
    pub canonical_members: &'static [&'static str],
    /// The members of a catalog's tool choice the provider takes, where that depends on the
    /// model behind the request (Bedrock's `toolChoice` per model family); `None`: any.
    pub tool_choice: Option<ToolChoiceRule>,
}

/// Which members of a catalog object's tool-choice member (Bedrock `toolConfig`'s
/// `toolChoice`, a union of `auto`, `any` and `tool`) a provider takes
/// ([`FormatInfo::tool_choice`]).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ToolChoiceRule {
    /// The catalog object's member holding the choice.
    pub key: &'static str,
    /// The choice's members the provider takes.
    pub takes: &'static [&'static str],
    /// Where that comes from, with the date it was read.
    pub source: &'static str,
}

impl ToolChoiceRule {
    /// A rule: `key`'s members limited to `takes`, on the authority of `source`.
    pub const fn new(
        key: &'static str,
        takes: &'static [&'static str],
        source: &'static str,
    ) -> ToolChoiceRule {
        ToolChoiceRule { key, takes, source }
    }

    /// In a catalog object's members, the tool choice the provider refuses: the member's
    /// index in `wrapper` and the choice's member it does not take (`any` in
    /// `"toolChoice": {"any": {}}`); `None` when there is no choice or it is taken.
    pub fn refused<'a>(&self, wrapper: &[Member<'a>]) -> Option<(usize, &'a str)> {
        let (i, member) = wrapper.iter().enumerate().find(|(_, m)| m.key == self.key)?;
        let Json::Object(choice) = member.value else { return None };
        let first = choice.iter().find(|c| !self.takes.contains(&c.key))?;
        Some((i, first.key))
    }
}

/// A schema field a format's tools may hold instead of their own ([`FormatInfo::other_field`]).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct OtherField {
    /// The member's spellings (Gemini's JSON name and its proto name).
    pub keys: &'static [&'static str],
    /// What the field holds.
    pub profile: &'static Profile,
    /// What it holds under the toolfoundation profile set.
    pub toolfoundation: &'static Profile,
    /// Whether its `type` names are upper-case ([`FormatInfo::upper_type_names`]).
    pub upper_type_names: bool,
}

impl OtherField {
    /// A field spelled `keys`, its schemas held to `profile` (`toolfoundation` under that
    /// profile set), its type names upper-case or not.
    pub const fn new(
        keys: &'static [&'static str],
        profile: &'static Profile,
        toolfoundation: &'static Profile,
        upper_type_names: bool,
    ) -> OtherField {
        OtherField { keys, profile, toolfoundation, upper_type_names }
    }

    /// Whether `tool` holds its input schema in this field.
    pub fn holds(&self, tool: &crate::ir::Tool<'_>) -> bool {
        tool.members.iter().any(|m| m.role == crate::ir::Role::Input && self.keys.contains(&m.key))
    }
}

impl FormatInfo {
    /// A readable and writable format called `name`, its schemas held to `profile`, with a
    /// `{"tools": […]}` catalog, a required input schema and nothing else: the defaults a
    /// custom format starts from.
    pub const fn new(name: &'static str, profile: &'static Profile) -> FormatInfo {
        FormatInfo {
            name,
            family: name,
            profile,
            strict: None,
            toolfoundation: None,
            reads: true,
            writes: true,
            imports: false,
            catalog_key: Some("tools"),
            catalog_alias: None,
            catalog_object: false,
            catalog_hints: &[],
            envelope: None,
            request_key: None,
            name_pointer: "/name",
            schema_members: &[],
            marks: &[],
            tool_is_schema: false,
            holds_input_schema: true,
            requires_input_schema: true,
            requires_object_root: false,
            holds_output_schema: false,
            provider: false,
            closed_members: None,
            defined_members: &[],
            upper_type_names: false,
            other_field: None,
            wire_of: None,
            canonical_members: &[],
            tool_choice: None,
        }
    }

    /// Sets [`FormatInfo::canonical_members`].
    #[must_use]
    pub const fn canonical_members(mut self, members: &'static [&'static str]) -> FormatInfo {
        self.canonical_members = members;
        self
    }

    /// Sets [`FormatInfo::tool_choice`].
    #[must_use]
    pub const fn tool_choice(mut self, rule: ToolChoiceRule) -> FormatInfo {
        self.tool_choice = Some(rule);
        self
    }

    /// Sets [`FormatInfo::wire_of`].
    #[must_use]
    pub const fn wire_of(mut self, format: &'static str) -> FormatInfo {
        self.wire_of = Some(format);
        self
    }

    /// Whether an object matched to the format it looks like may be named as this one: the
    /// format is its own shape, not another's ([`FormatInfo::wire_of`]).
    pub const fn own_shape(&self) -> bool {
        self.wire_of.is_none()
    }

    /// Sets [`FormatInfo::closed_members`] to the provider's error text.
    #[must_use]
    pub const fn closed_members(mut self, error: &'static str) -> FormatInfo {
        self.closed_members = Some(error);
        self
    }

    /// Sets [`FormatInfo::defined_members`].
    #[must_use]
    pub const fn defined_members(mut self, members: &'static [&'static str]) -> FormatInfo {
        self.defined_members = members;
        self
    }

    /// Whether the provider defines member `key` of a tool object beyond the typed ones
    /// ([`FormatInfo::defined_members`]).
    pub fn defines_member(&self, key: &str) -> bool {
        self.defined_members.contains(&key)
    }

    /// Sets [`FormatInfo::provider`].
    #[must_use]
    pub const fn provider(mut self) -> FormatInfo {
        self.provider = true;
        self
    }

    /// Sets [`FormatInfo::family`].
    #[must_use]
    pub const fn family(mut self, family: &'static str) -> FormatInfo {
        self.family = family;
        self
    }

    /// Sets [`FormatInfo::strict`].
    #[must_use]
    pub const fn strict(mut self, strict: StrictMode) -> FormatInfo {
        self.strict = Some(strict);
        self
    }

    /// Sets [`FormatInfo::toolfoundation`].
    #[must_use]
    pub const fn toolfoundation(mut self, profile: &'static Profile) -> FormatInfo {
        self.toolfoundation = Some(profile);
        self
    }

    /// An import-only format ([`FormatInfo::imports`], not [`FormatInfo::writes`]).
    #[must_use]
    pub const fn import_only(mut self) -> FormatInfo {
        self.imports = true;
        self.writes = false;
        self
    }

    /// Sets [`FormatInfo::catalog_key`].
    #[must_use]
    pub const fn catalog_key(mut self, key: &'static str) -> FormatInfo {
        self.catalog_key = Some(key);
        self
    }

    /// A format without a catalog object ([`FormatInfo::catalog_key`] `None`): any object is
    /// one tool.
    #[must_use]
    pub const fn no_catalog_object(mut self) -> FormatInfo {
        self.catalog_key = None;
        self
    }

    /// Sets [`FormatInfo::catalog_object`]: catalogs are written as objects.
    #[must_use]
    pub const fn catalog_object(mut self) -> FormatInfo {
        self.catalog_object = true;
        self
    }

    /// Sets [`FormatInfo::catalog_alias`].
    #[must_use]
    pub const fn catalog_alias(mut self, alias: &'static str) -> FormatInfo {
        self.catalog_alias = Some(alias);
        self
    }

    /// Sets [`FormatInfo::catalog_hints`].
    #[must_use]
    pub const fn catalog_hints(mut self, hints: &'static [&'static str]) -> FormatInfo {
        self.catalog_hints = hints;
        self
    }

    /// Sets [`FormatInfo::envelope`].
    #[must_use]
    pub const fn envelope(mut self, envelope: Envelope) -> FormatInfo {
        self.envelope = Some(envelope);
        self
    }

    /// Sets [`FormatInfo::request_key`].
    #[must_use]
    pub const fn request_key(mut self, key: &'static str) -> FormatInfo {
        self.request_key = Some(key);
        self
    }

    /// Sets [`FormatInfo::name_pointer`].
    #[must_use]
    pub const fn name_pointer(mut self, pointer: &'static str) -> FormatInfo {
        self.name_pointer = pointer;
        self
    }

    /// Sets [`FormatInfo::schema_members`].
    #[must_use]
    pub const fn schema_members(mut self, members: &'static [&'static str]) -> FormatInfo {
        self.schema_members = members;
        self
    }

    /// Sets [`FormatInfo::marks`].
    #[must_use]
    pub const fn marks(mut self, marks: &'static [Mark]) -> FormatInfo {
        self.marks = marks;
        self
    }

    /// Sets [`FormatInfo::tool_is_schema`].
    #[must_use]
    pub const fn tool_is_schema(mut self) -> FormatInfo {
        self.tool_is_schema = true;
        self
    }

    /// Sets [`FormatInfo::requires_input_schema`] to false: a tool may omit its schema.
    #[must_use]
    pub const fn optional_input_schema(mut self) -> FormatInfo {
        self.requires_input_schema = false;
        self
    }

    /// A format whose tools have no input schema: neither [`FormatInfo::holds_input_schema`]
    /// nor, then, [`FormatInfo::requires_input_schema`].
    #[must_use]
    pub const fn no_input_schema(mut self) -> FormatInfo {
        self.holds_input_schema = false;
        self.requires_input_schema = false;
        self
    }

    /// Sets [`FormatInfo::requires_object_root`].
    #[must_use]
    pub const fn object_root(mut self) -> FormatInfo {
        self.requires_object_root = true;
        self
    }

    /// Sets [`FormatInfo::upper_type_names`].
    #[must_use]
    pub const fn upper_type_names(mut self) -> FormatInfo {
        self.upper_type_names = true;
        self
    }

    /// Sets [`FormatInfo::other_field`].
    #[must_use]
    pub const fn other_field(mut self, field: OtherField) -> FormatInfo {
        self.other_field = Some(field);
        self
    }

    /// Sets [`FormatInfo::holds_output_schema`].
    #[must_use]
    pub const fn output_schema(mut self) -> FormatInfo {
        self.holds_output_schema = true;
        self
    }

    /// Features the format holds as they are.
    pub const fn features(&self) -> FeatureSet {
        self.profile.features()
    }

    /// Whether the format holds `feature` as it is.
    pub const fn supports_feature(&self, feature: SchemaFeature) -> bool {
        self.profile.supports_feature(feature)
    }

    /// Whether the format has a place for `strict`.
    pub const fn holds_strict(&self) -> bool {
        self.strict.is_some()
    }

    /// Whether the provider holds a tool whose `strict` member is `stated` to strict mode's
    /// rules, refusing it when its schema breaks one: only when it says so. (The Responses API
    /// makes a tool without `strict` strict where it can and falls back otherwise:
    /// [`StrictMode::omitted_is_strict`].)
    pub const fn reads_as_strict(&self, stated: Option<bool>) -> bool {
        match (self.strict, stated) {
            (None, _) | (Some(_), None) => false,
            (Some(_), Some(b)) => b,
        }
    }

    /// What the format's schemas hold when the tool is strict, for formats with a strict mode.
    pub const fn strict_profile(&self) -> Option<&'static Profile> {
        match self.strict {
            Some(s) => Some(s.profile),
            None => None,
        }
    }
}
