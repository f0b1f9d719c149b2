//! Tool traffic in the arena: the calls a model makes, the results tools send back, the turns
//! that carry them, and a conversation's tool choice, borrowed from the input like schemas.
//!
//! Every format reads its payloads into these types and writes them from them, so a call read
//! from one provider is written for another without either knowing the other. A record keeps
//! its source value (`raw`) beside what it means: the same format re-emits the source as it
//! was (key order, numbers and escapes included) with only the fields a conversion changed
//! replaced ([`Nodes`] names them), and another format writes what the typed fields say.
//! Nothing here needs `Drop`, so the arena frees it all at once.
//!
//! The call and result types are what a stream transcoder assembles too: a stream's call is a
//! [`Call`] whose [`Args::Text`] grows fragment by fragment.

use super::json::Json;

/// A call's arguments as the source gave them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args<'a> {
    /// JSON text, decoded from a string (OpenAI's `arguments`): kept as text until a map or a
    /// target that wants an object needs its structure, so the same text is written back
    /// unchanged where it can be. A Responses custom tool call's free text is here too
    /// ([`Call::custom`]), not JSON.
    Text(&'a str),
    /// A JSON value (Anthropic `input`, Gemini `args`, Bedrock `input`, MCP `arguments`),
    /// numbers as their source text.
    Value(Json<'a>),
    /// No arguments member at all (an MCP call without `arguments`, a response that left
    /// `arguments` out): the tool is called with an empty object.
    Absent,
}

/// Where a record's changeable fields sit in its source value: a same-format conversion
/// re-emits the source with only these nodes replaced (an id rewritten, a name mapped).
#[derive(Clone, Copy, Debug, Default)]
pub struct Nodes<'a> {
    /// The id's value node.
    pub id: Option<&'a Json<'a>>,
    /// The tool name's value node.
    pub name: Option<&'a Json<'a>>,
    /// The arguments' value node (a string for OpenAI, an object elsewhere).
    pub args: Option<&'a Json<'a>>,
}

/// A tool call: what the model asked a tool to do.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The call's id: `None` when the source has none (Gemini 2.x), `Some("")` when it sent an
    /// empty one (Gemini's OpenAI endpoint). JSON-RPC number ids are their digits.
    pub id: Option<&'a str>,
    /// The tool's name.
    pub name: &'a str,
    /// The arguments.
    pub arguments: Args<'a>,
    /// A Responses `custom_tool_call`: the arguments are free text, not a JSON object.
    pub custom: bool,
    /// A reasoning signature carried on the call (Gemini `thoughtSignature` on its part).
    pub signature: Option<&'a str>,
    /// The source value of the call (the part, block or item holding it).
    pub raw: Json<'a>,
    /// Where the changeable fields sit in `raw`.
    pub nodes: Nodes<'a>,
    /// RFC 6901 pointer of the call in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// Where a media block's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// Inline base64 data.
    Base64(&'a str),
    /// A URL the provider fetches (`https://…`, or a `data:` URL).
    Url(&'a str),
    /// A file the provider stores, by its id (Anthropic and OpenAI file ids).
    File(&'a str),
    /// A cloud object by its URI (`s3://…` for Bedrock, `gs://…` for Gemini).
    Uri(&'a str),
    /// The document's text itself (Anthropic's and Bedrock's `text` document source).
    Text(&'a str),
}

/// An image, audio, video or document block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Media<'a> {
    /// Where its bytes are.
    pub source: Source<'a>,
    /// Its IANA media type, when the source said (`image/png`); Bedrock's `format` (`png`) is
    /// read as the type it names.
    pub media_type: Option<&'a str>,
    /// Its name or title, when the source gave one (Bedrock's document `name`).
    pub name: Option<&'a str>,
}

/// An MCP resource (embedded, or a link to one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource<'a> {
    /// The resource's URI.
    pub uri: &'a str,
    /// Its media type.
    pub mime_type: Option<&'a str>,
    /// Its text (an embedded text resource).
    pub text: Option<&'a str>,
    /// Its base64 bytes (an embedded blob resource).
    pub blob: Option<&'a str>,
    /// Its name (a resource link's).
    pub name: Option<&'a str>,
}

/// What a content block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block<'a> {
    /// Text.
    Text(&'a str),
    /// An image.
    Image(Media<'a>),
    /// Audio.
    Audio(Media<'a>),
    /// Video.
    Video(Media<'a>),
    /// A document or file (PDF, plain text, …).
    Document(Media<'a>),
    /// An embedded MCP resource.
    Resource(Resource<'a>),
    /// A link to an MCP resource.
    ResourceLink(Resource<'a>),
    /// A JSON value (Bedrock's `json` block, a Gemini function response object).
    Json(Json<'a>),
    /// A block only its own format reads (Anthropic `tool_reference`, `search_result`, …),
    /// kept for the same format; `kind` is its type as the source named it.
    Other(&'a str),
}

impl Block<'_> {
    /// The block's kind, for the rules that say which kinds a target carries.
    pub fn kind(&self) -> BlockKind {
        match self {
            Block::Text(_) => BlockKind::Text,
            Block::Image(_) => BlockKind::Image,
            Block::Audio(_) => BlockKind::Audio,
            Block::Video(_) => BlockKind::Video,
            Block::Document(_) => BlockKind::Document,
            Block::Resource(_) => BlockKind::Resource,
            Block::ResourceLink(_) => BlockKind::ResourceLink,
            Block::Json(_) => BlockKind::Json,
            Block::Other(_) => BlockKind::Other,
        }
    }
}

/// The kinds of [`Block`], as data: a target's rules list the kinds it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BlockKind {
    /// [`Block::Text`]
    Text,
    /// [`Block::Image`]
    Image,
    /// [`Block::Audio`]
    Audio,
    /// [`Block::Video`]
    Video,
    /// [`Block::Document`]
    Document,
    /// [`Block::Resource`]
    Resource,
    /// [`Block::ResourceLink`]
    ResourceLink,
    /// [`Block::Json`]
    Json,
    /// [`Block::Other`]
    Other,
}

impl BlockKind {
    /// The kind as reports name it.
    pub const fn as_str(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Image => "image",
            BlockKind::Audio => "audio",
            BlockKind::Video => "video",
            BlockKind::Document => "document",
            BlockKind::Resource => "resource",
            BlockKind::ResourceLink => "resource_link",
            BlockKind::Json => "json",
            BlockKind::Other => "other",
        }
    }
}

/// A set of [`BlockKind`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockKinds(u16);

impl BlockKinds {
    /// No kind.
    pub const NONE: BlockKinds = BlockKinds(0);

    /// The set of `kinds`.
    pub const fn of(kinds: &[BlockKind]) -> BlockKinds {
        let mut bits = 0u16;
        let mut rest = kinds;
        while let [first, tail @ ..] = rest {
            bits |= 1 << *first as u8;
            rest = tail;
        }
        BlockKinds(bits)
    }

    /// Whether `kind` is in the set.
    pub const fn has(self, kind: BlockKind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }
}

/// A content block with where it came from.
#[derive(Clone, Copy, Debug)]
pub struct Content<'a> {
    /// What it is.
    pub block: Block<'a>,
    /// Its source value.
    pub raw: Json<'a>,
    /// RFC 6901 pointer of the block in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// What a tool sent back for one call.
#[derive(Clone, Copy, Debug)]
pub struct ToolResult<'a> {
    /// The id of the call it answers (`None` when the source pairs by name and order, as
    /// Gemini 2.x does).
    pub call_id: Option<&'a str>,
    /// The tool's name, where the source carries it (Gemini needs it; MCP and OpenAI do not
    /// say it).
    pub name: Option<&'a str>,
    /// The content, in order.
    pub content: &'a [Content<'a>],
    /// Structured content beside the blocks (MCP `structuredContent`), usually mirrored as JSON
    /// text in `content`.
    pub structured: Option<Json<'a>>,
    /// The tool failed (Anthropic `is_error`, Bedrock `status: "error"`, MCP `isError` or a
    /// JSON-RPC error, a Gemini response with an `error` member).
    pub error: bool,
    /// A JSON-RPC error's code, when the result is one (MCP).
    pub error_code: Option<&'a str>,
    /// The source value of the result.
    pub raw: Json<'a>,
    /// Where the changeable fields sit in `raw`.
    pub nodes: Nodes<'a>,
    /// RFC 6901 pointer of the result in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// A reasoning block: thinking the model showed (or hid) before answering.
#[derive(Clone, Copy, Debug)]
pub struct Reasoning<'a> {
    /// Its text, where it has one.
    pub text: Option<&'a str>,
    /// The provider's signature over it (Anthropic `signature`, Bedrock's), which only that
    /// provider checks.
    pub signature: Option<&'a str>,
    /// Encrypted or redacted content (Anthropic `redacted_thinking`, Responses
    /// `encrypted_content`).
    pub redacted: Option<&'a str>,
    /// The source value.
    pub raw: Json<'a>,
    /// RFC 6901 pointer in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// One part of an assistant turn, in the order the source gave them.
#[derive(Clone, Copy, Debug)]
pub enum Part<'a> {
    /// Text.
    Text(Content<'a>),
    /// Reasoning.
    Reasoning(Reasoning<'a>),
    /// A tool call.
    Call(Call<'a>),
    /// A block only its own format reads (a server-side tool call or its result: Anthropic
    /// `server_tool_use`, Responses `mcp_call`, …), kept for the same format.
    Other(Content<'a>),
}

/// Why a model stopped, as the providers say it between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// It called tools (OpenAI `tool_calls`, Anthropic and Bedrock `tool_use`).
    ToolCalls,
    /// It ended its turn (`stop`, `end_turn`, Gemini `STOP`).
    Stop,
    /// It hit the output limit (`length`, `max_tokens`, `MAX_TOKENS`).
    Length,
    /// A stop sequence ended it.
    StopSequence,
    /// A filter ended it (`content_filter`, `SAFETY`, `guardrail_intervened`, `refusal`).
    Filtered,
    /// Another reason, kept as the source spelled it.
    Other,
}

/// What the model said in one turn.
#[derive(Clone, Copy, Debug)]
pub struct Assistant<'a> {
    /// Its parts in order.
    pub parts: &'a [Part<'a>],
    /// Why it stopped, when the payload says (a response does; a history message does not),
    /// and the reason as the source spelled it.
    pub finish: Option<(Finish, &'a str)>,
    /// The source value of the turn (a message, a content, or a response's output).
    pub raw: Json<'a>,
    /// RFC 6901 pointer of the turn in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

impl<'a> Assistant<'a> {
    /// The turn's calls, in order.
    pub fn calls(&self) -> impl Iterator<Item = &Call<'a>> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Call(c) => Some(c),
            _ => None,
        })
    }
}

/// A turn sending tools' results back to the model.
#[derive(Clone, Copy, Debug)]
pub struct Results<'a> {
    /// The results, in order.
    pub results: &'a [ToolResult<'a>],
    /// Other user content sent in the same message (Anthropic and Bedrock let text or a
    /// document follow the results).
    pub after: &'a [Content<'a>],
    /// The source value of the turn.
    pub raw: Json<'a>,
    /// RFC 6901 pointer of the turn in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// A user or system message.
#[derive(Clone, Copy, Debug)]
pub struct Message<'a> {
    /// Its content, in order.
    pub content: &'a [Content<'a>],
    /// The source value.
    pub raw: Json<'a>,
    /// RFC 6901 pointer in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// One turn of a conversation.
#[derive(Clone, Copy, Debug)]
pub enum Turn<'a> {
    /// A system (or developer) message among the turns.
    System(Message<'a>),
    /// What the user said.
    User(Message<'a>),
    /// What the model said, its calls included.
    Assistant(Assistant<'a>),
    /// Tools' results.
    Results(Results<'a>),
}

/// Which tool the model must or may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice<'a> {
    /// The model decides (`auto`).
    Auto,
    /// No tool (`none`).
    None,
    /// Some tool (OpenAI `required`, Anthropic and Bedrock `any`, Gemini `ANY`).
    Required,
    /// This tool.
    Tool(&'a str),
}

/// A request's tool choice and whether the model may call several tools at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToolChoice<'a> {
    /// The choice, when the request states one.
    pub choice: Option<Choice<'a>>,
    /// Whether parallel calls are allowed, when the request states it (OpenAI
    /// `parallel_tool_calls`, the negation of Anthropic's `disable_parallel_tool_use`).
    pub parallel: Option<bool>,
    /// The named tool's value node (a same-format conversion maps it in place).
    pub name_node: Option<&'a Json<'a>>,
    /// RFC 6901 pointer of the choice in the input document.
    pub pointer: &'a str,
    /// The record's place in reading order (what the report is ordered by).
    pub at: u32,
}

/// A conversation: a request body's turns, its system text, tool choice and tools.
#[derive(Clone, Copy, Debug)]
pub struct Conversation<'a> {
    /// System text given apart from the turns (Anthropic and Bedrock `system`, Gemini
    /// `systemInstruction`, Responses `instructions`).
    pub system: &'a [Content<'a>],
    /// The turns, in order.
    pub turns: &'a [Turn<'a>],
    /// The tool choice.
    pub choice: ToolChoice<'a>,
    /// The request's tool definitions, as the source wrote them (converted through the
    /// definitions pipeline).
    pub tools: Option<Json<'a>>,
    /// Whether the input was a whole request body (an object), not a bare list of messages.
    pub body: bool,
    /// The source value.
    pub raw: Json<'a>,
}

/// One payload, of the kind the conversion reads and writes.
#[derive(Clone, Copy, Debug)]
pub enum Payload<'a> {
    /// An assistant turn carrying calls.
    Calls(Assistant<'a>),
    /// A turn carrying results.
    Results(Results<'a>),
    /// A conversation.
    Messages(Conversation<'a>),
    /// A whole model response.
    Response(Response<'a>),
}

/// A whole model response: its turn and what its envelope says that other providers' say too.
#[derive(Clone, Copy, Debug)]
pub struct Response<'a> {
    /// What the model said.
    pub turn: Assistant<'a>,
    /// The response's id (OpenAI `id`, Gemini `responseId`).
    pub id: Option<&'a str>,
    /// The model that answered (Gemini `modelVersion`).
    pub model: Option<&'a str>,
    /// When it was made, seconds since the epoch, as the source's number text.
    pub created: Option<&'a str>,
    /// Input tokens, as the source's number text.
    pub input_tokens: Option<&'a str>,
    /// Output tokens, as the source's number text.
    pub output_tokens: Option<&'a str>,
    /// The source value.
    pub raw: Json<'a>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_kinds_are_a_set() {
        let set = BlockKinds::of(&[BlockKind::Text, BlockKind::Json]);
        assert!(set.has(BlockKind::Text) && set.has(BlockKind::Json));
        assert!(!set.has(BlockKind::Image) && !BlockKinds::NONE.has(BlockKind::Text));
        assert_eq!(Block::Text("a").kind(), BlockKind::Text);
    }
}
