"""The inputs Python users pass: the MCP SDK's `Tool` and `ListToolsResult`, the OpenAI and
Anthropic SDKs' param types and models, `from_="auto"` over every format the package writes
(and its refusal of ambiguous input), `strict_applied`, and the async `tooladapter.mcp`
helpers over a session."""

import asyncio
import json
import pathlib

import anthropic.types as anthropic_types
import mcp.types as mcp_types
import openai.types.chat as openai_chat
import openai.types.responses as openai_responses
import pytest

import tooladapter as ta

REPO = pathlib.Path(__file__).resolve().parents[2]
CATALOG = (REPO / "examples" / "data" / "catalog.mcp.json").read_bytes()
WRITERS = [f["name"] for f in ta.formats() if f["writes"]]
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "number", "default": 0.1}}, "required": ["q"]}


def test_mcp_sdk_models_read_as_their_wire_form():
    tools = [mcp_types.Tool(name=f"t{i}", description="d", inputSchema=SCHEMA) for i in range(3)]
    wire = [t.model_dump(by_alias=True, exclude_none=True) for t in tools]
    expected = ta.convert(wire, "mcp", "openai").output
    assert ta.convert(tools, "mcp", "openai").output == expected
    assert ta.convert(tools[0], "mcp", "openai").output == ta.convert(wire[0], "mcp", "openai").output
    listed = mcp_types.ListToolsResult(tools=tools, nextCursor="next")
    out = ta.convert(listed, "mcp", "openai")
    assert out.tools_written == 3
    assert [t["function"]["name"] for t in out.tools] == ["t0", "t1", "t2"]
    assert [t["function"]["parameters"] for t in out.tools] == [SCHEMA] * 3


def test_openai_and_anthropic_sdk_types():
    # Param types are TypedDicts: plain dicts the SDKs build and read.
    chat: openai_chat.ChatCompletionToolParam = {"type": "function", "function": {"name": "f", "description": "d", "parameters": SCHEMA}}
    responses: openai_responses.FunctionToolParam = {"type": "function", "name": "f", "parameters": SCHEMA, "strict": False}
    claude: anthropic_types.ToolParam = {"name": "f", "description": "d", "input_schema": SCHEMA}
    for tool, fmt in [(chat, "openai"), (responses, "openai-responses"), (claude, "anthropic")]:
        out = ta.convert([tool], fmt, "mcp").tools
        assert out == {"tools": [dict({"name": "f", "inputSchema": SCHEMA}, **({"description": "d"} if "description" in tool or fmt == "openai" else {}))]} or out["tools"][0]["inputSchema"] == SCHEMA
        assert ta.convert(tool, "auto", "mcp").from_format == fmt
    # Their response models are pydantic: read through model_dump.
    model = anthropic_types.ToolUseBlock(id="toolu_1", name="f", input={"q": "x"}, type="tool_use")
    message = {"role": "assistant", "content": [model]}
    out = ta.convert_traffic(message, "anthropic", "openai")
    assert out.payload["tool_calls"][0]["function"]["name"] == "f"
    fn = openai_chat.ChatCompletionMessageFunctionToolCall(id="call_1", type="function", function={"name": "f", "arguments": "{}"})
    calls = {"role": "assistant", "content": None, "tool_calls": [fn]}
    assert ta.convert_traffic(calls, "openai", "anthropic").payload["content"][0]["id"] == "call_1"


@pytest.mark.parametrize("fmt", WRITERS)
def test_auto_finds_every_written_format(fmt):
    written = ta.convert(CATALOG, "mcp", fmt)
    for doc in (written.output, written.tools):
        try:
            found = ta.convert(doc, "auto", "mcp")
        except ta.ConversionError as e:
            # Refused only as ambiguous, naming the format it came from.
            assert "equally" in str(e) and fmt in str(e), (fmt, str(e))
            continue
        # A format that shares another's wire shape is read as that shape's owner (the
        # library's `FormatInfo::wire_of`): the same tools, in the owner's terms.
        same_family = {
            "gemini-json": "gemini",
            "vertex": "gemini",
            "mistral": "openai",
            "ollama": "openai",
            "xai": "openai",
            "cohere": "openai",
        }
        assert same_family.get(found.from_format, found.from_format) == same_family.get(fmt, fmt)
        assert found.tools_written == 4
        assert all(e.from_format == found.from_format for e in found.report)


@pytest.mark.parametrize("fmt", WRITERS)
def test_check_auto_finds_the_format_as_convert_does(fmt):
    # A catalog with a finding for some targets (an array without items, a long description).
    doc = json.loads(CATALOG)
    doc["tools"][0]["inputSchema"]["properties"]["bad"] = {"type": "array"}
    doc["tools"][1]["description"] = "d" * 1100
    written = ta.convert(doc, "mcp", fmt)
    for given in (written.output, written.tools):
        try:
            found = ta.convert(given, "auto", "mcp").from_format
        except ta.ConversionError as e:
            # Ambiguous input: check refuses it as convert does.
            with pytest.raises(ta.ConversionError) as err:
                ta.check(given, from_="auto")
            assert err.value.kind == e.kind == "shape"
            continue
        # Checked as they are, and converted to every target first: the same findings as
        # with the format named.
        assert ta.check(given, from_="auto") == ta.check(given, found) == ta.check(given, "auto")
        for to in ("openai", "gemini", "anthropic"):
            assert ta.check(given, "auto", to) == ta.check(given, found, to), (fmt, to)


def test_auto_refuses_ambiguity_and_shapes_no_format_has():
    # A bare function: OpenAI's `function` member content, a Gemini declaration, …
    with pytest.raises(ta.ConversionError) as err:
        ta.convert({"name": "f", "description": "d", "parameters": SCHEMA}, "auto", "mcp")
    assert err.value.kind == "shape" and "equally" in str(err.value)
    with pytest.raises(ta.ConversionError) as err:
        ta.convert({"hello": "world"}, "auto", "mcp")
    assert err.value.kind == "shape"
    with pytest.raises(ta.ParseError):
        ta.convert(b"{", "auto", "mcp")
    assert ta.convert({"name": "f", "inputSchema": SCHEMA}, "AUTO", "openai").from_format == "mcp"
    assert ta.convert({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}, "auto", "mcp", errors="skip").from_format == "openapi"


def test_strict_applied_per_tool():
    closed = {"name": "closed", "inputSchema": SCHEMA}
    open_map = {"name": "open", "inputSchema": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    out = ta.convert([closed, open_map, closed], "mcp", "openai", strict=True)
    assert out.strict_applied == [True, False, True]
    assert [t["function"]["strict"] for t in out.tools] == out.strict_applied
    assert ta.convert([closed], "mcp", "openai").strict_applied == [False]
    assert ta.convert([closed], "mcp", "anthropic", strict=True).strict_applied == [True]


class Session:
    """What `tooladapter.mcp` calls of an `mcp.ClientSession`: `list_tools`, paged."""

    def __init__(self, pages):
        self.pages, self.asked = pages, []

    async def list_tools(self, *, params=None):
        cursor = params.cursor if params else None
        self.asked.append(cursor)
        index = int(cursor) if cursor else 0
        await asyncio.sleep(0)
        more = str(index + 1) if index + 1 < len(self.pages) else None
        return mcp_types.ListToolsResult(tools=self.pages[index], nextCursor=more)


def test_the_async_mcp_helpers():
    pages = [[mcp_types.Tool(name=f"p{p}t{i}", inputSchema=SCHEMA) for i in range(2)] for p in range(3)]
    session = Session(pages)
    tools = asyncio.run(ta.mcp.to_openai(session))
    assert [t["function"]["name"] for t in tools] == [f"p{p}t{i}" for p in range(3) for i in range(2)]
    assert session.asked == [None, "1", "2"]
    claude = asyncio.run(ta.mcp.to_anthropic(mcp_types.ListToolsResult(tools=pages[0])))
    assert [t["name"] for t in claude] == ["p0t0", "p0t1"]
    gemini = asyncio.run(ta.mcp.to_gemini(Session(pages[:1])))
    assert [d["name"] for d in gemini["functionDeclarations"]] == ["p0t0", "p0t1"]
    conversion = asyncio.run(ta.mcp.convert_tools(Session(pages), "openai-responses", strict=True))
    assert conversion.strict_applied == [True] * 6
    assert json.loads(conversion.output) == conversion.tools
