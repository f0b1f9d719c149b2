"""Tool traffic and streams from Python: `convert_traffic` on the corpus's recorded payloads
(every payload to every other format: text and data in give the same output, the built payload
is the output's JSON), the definitions' map and ids carried through, `deny_loss`; the
`StreamTranscoder` on every recorded stream (any chunking gives the same bytes; pushed from an
async generator and from threads at once)."""

import asyncio
import json
import os
import pathlib
import random
import threading

import pytest

import tooladapter as ta
from tooladapter.stream import transcode

REPO = pathlib.Path(__file__).resolve().parents[2]
CORPUS = pathlib.Path(os.environ.get("TOOLADAPTER_CORPUS", REPO.parent / "shared" / "corpus"))
TRAFFIC = CORPUS / "tool-traffic"
FOLDERS = {"openai-chat": "openai", "openai-responses": "openai-responses", "anthropic": "anthropic",
           "bedrock": "bedrock", "gemini": "gemini", "mcp": "mcp"}
STREAMING = [f for f in FOLDERS.values() if f != "mcp"]

CALLS = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"n\":12345678901234567890}"}}]}
SSE = (
    'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}\n\n'
    'data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":\\"Paris\\"}"}}]}}]}\n\n'
    'data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
    "data: [DONE]\n\n"
).encode()


def payloads(kinds=("calls", "results")):
    """Every recorded payload of `kinds`: (source format, kind, file)."""
    found = []
    for folder, fmt in FOLDERS.items():
        for kind in kinds:
            for path in sorted((TRAFFIC / folder / kind).glob("*.json")):
                if not path.name.startswith("_"):
                    found.append((fmt, kind, path))
    return found


def test_the_corpus_is_there():
    assert len(payloads()) > 100, f"no tool traffic under {TRAFFIC}"


def test_the_docs_example():
    out = ta.convert_traffic(CALLS, "openai", "anthropic")
    assert out.kind == "calls"
    call = out.payload["content"][0]
    assert (call["type"], call["id"], call["name"]) == ("tool_use", "call_1", "get_weather")
    # The argument text's numbers exact: an integer past 64 bits stays that integer.
    assert call["input"] == {"city": "Paris", "n": 12345678901234567890}
    assert out.payload == json.loads(out.output)
    assert out.output == ta.convert_traffic(json.dumps(CALLS).encode(), "openai", "anthropic").output


@pytest.mark.parametrize("to", list(FOLDERS.values()))
def test_every_recorded_payload_to_every_format(to):
    converted = refused = 0
    for fmt, kind, path in payloads():
        text = path.read_bytes()
        try:
            out = ta.convert_traffic(text, fmt, to, kind=kind)
        except ta.ConversionError as e:
            # A kind the target has no place for (MCP has no conversation), or a payload the
            # target cannot be written without (a Gemini result's tool name): said, typed.
            assert e.kind and str(e), path
            refused += 1
            continue
        converted += 1
        assert out.kind == kind
        assert out.payload == json.loads(out.output)
        data = ta.convert_traffic(json.loads(text), fmt, to, kind=kind)
        assert json.loads(data.output) == json.loads(out.output), path
        for entry in out.report:
            assert entry.severity in ("info", "warning", "error")
    assert converted > refused


def test_the_definitions_map_and_ids_carry_through():
    tool = {"name": "files.read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "n": {"type": "integer"}}, "required": ["path"]}}
    definitions = ta.convert(tool, "mcp", "openai", strict=True)
    written = definitions.tools["function"]["name"]
    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": written, "arguments": "{\"path\":\"/etc\",\"n\":null}"}}]}
    back = ta.convert_traffic(call, "openai", "mcp", map=definitions.inverse, direction="back")
    params = back.payload["params"]
    assert params["name"] == "files.read" and params["arguments"] == {"path": "/etc"}
    # An id Anthropic's rule refuses is rewritten, and the ids given back restore it.
    odd = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call.1/x", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    out = ta.convert_traffic(odd, "openai", "anthropic")
    ids = out.ids
    assert ids and ids[0]["original"] == "call.1/x" and ids[0]["written"] != "call.1/x"
    again = ta.convert_traffic(out.payload, "anthropic", "openai", ids=ids)
    assert again.payload["tool_calls"][0]["id"] == "call.1/x"


def test_traffic_errors_and_deny_loss():
    with pytest.raises(ta.ConversionError) as err:
        ta.convert_traffic(CALLS, "openai", "anthropic", kind="sometimes")
    assert err.value.kind == "invalid-options"
    with pytest.raises(ta.ConversionError) as err:
        ta.convert_traffic(CALLS, "openai", "langchain")
    assert err.value.kind == "not-convertible"
    with pytest.raises(ta.ConversionError):
        ta.convert_traffic({"role": "user", "content": "hi"}, "openai", "anthropic", kind="calls")
    with pytest.raises(ta.ConversionError):
        ta.convert_traffic(CALLS, "openai", "anthropic", direction="sideways")
    # A result's error flag has no place in OpenAI: a loss, and `deny_loss` refuses it.
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True, "content": "boom"}]}
    lossy = ta.convert_traffic(result, "anthropic", "openai")
    assert any(e.severity == "warning" for e in lossy.report), lossy.report
    with pytest.raises(ta.ConversionError) as err:
        ta.convert_traffic(result, "anthropic", "openai", deny_loss="any")
    assert err.value.kind == "loss-denied" and err.value.report


def streams():
    found = []
    for folder, fmt in FOLDERS.items():
        for path in sorted((TRAFFIC / folder / "streams").glob("*")):
            if fmt in STREAMING and not path.name.startswith("_"):
                found.append((fmt, path))
    return found


def run(transcoder_from, to, text, pieces):
    t = ta.StreamTranscoder(transcoder_from, to)
    out = b"".join(t.push(p) for p in pieces) + t.finish()
    return out, t.report


@pytest.mark.parametrize("to", STREAMING)
def test_every_recorded_stream_in_any_chunking(to):
    rng = random.Random(to)
    done = 0
    for fmt, path in streams():
        text = path.read_bytes()
        try:
            whole, report = run(fmt, to, text, [text])
        except ta.ConversionError as e:
            assert e.kind, path
            continue
        cuts = sorted(rng.sample(range(1, len(text)), min(12, len(text) - 1)))
        pieces = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
        chunked, again = run(fmt, to, text, pieces)
        assert chunked == whole, path
        assert [e.to_dict() for e in again] == [e.to_dict() for e in report]
        done += 1
    assert done > len(streams()) // 2


def test_a_stream_from_an_async_generator():
    async def source():
        for i in range(0, len(SSE), 7):
            await asyncio.sleep(0)
            yield SSE[i:i + 7]

    async def collect():
        return [piece async for piece in transcode(source(), "openai", "anthropic")]

    pieces = asyncio.run(collect())
    text = b"".join(pieces).decode()
    assert '"partial_json":"{\\"city\\":\\"Paris\\"}"' in text
    assert text.endswith('event: message_stop\ndata: {"type":"message_stop"}\n\n')
    assert all(pieces) and len(pieces) > 2  # yielded as it came, not at the end
    one = ta.StreamTranscoder("openai", "anthropic")
    assert b"".join([one.push(SSE.decode()), one.finish()]).decode() == text


def test_streams_in_threads_and_events_as_json():
    expected, _ = run("openai", "gemini", SSE, [SSE])
    failures = []

    def work():
        for _ in range(200):
            out, _ = run("openai", "gemini", SSE, [SSE[i:i + 5] for i in range(0, len(SSE), 5)])
            if out != expected:
                failures.append(out)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    t = ta.StreamTranscoder("openai", "anthropic", events="json")
    lines = (t.push(SSE) + t.finish()).decode().splitlines()
    assert all(isinstance(json.loads(line), dict) for line in lines)
    with pytest.raises(ta.ConversionError):
        ta.StreamTranscoder("openai", "anthropic", events="xml")
    with pytest.raises(ta.ConversionError):
        ta.StreamTranscoder("mcp", "anthropic")
    bad = ta.StreamTranscoder("openai", "anthropic")
    with pytest.raises(ta.ConversionError):
        bad.push(b"data: {not json}\n\n")


def test_a_stream_through_the_definitions_map():
    tool = {"name": "files.read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "n": {"type": "integer"}}, "required": ["path"]}}
    definitions = ta.convert(tool, "mcp", "openai", strict=True)
    written = definitions.tools["function"]["name"]
    args = json.dumps(json.dumps({"path": "/etc", "n": None}))
    sse = (
        'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"%s","arguments":""}}]}}]}\n\n'
        'data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%s}}]}}]}\n\n'
        'data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
        "data: [DONE]\n\n"
    ) % (written, args)
    t = ta.StreamTranscoder("openai", "anthropic", map=definitions.inverse, direction="back")
    out = b"".join(t.push(sse[i:i + 9]) for i in range(0, len(sse), 9)) + t.finish()
    text = out.decode()
    assert '"name":"files.read"' in text and written not in text
    # The strict null dropped: the arguments, held to the end of the call, come back as sent.
    assert '\\"path\\":\\"/etc\\"' in text and "null" not in text.split("input_json_delta")[-1].split("}}")[0]
    plain = ta.StreamTranscoder("openai", "anthropic")
    assert written in (plain.push(sse) + plain.finish()).decode()
