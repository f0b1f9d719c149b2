"""Tool traffic against the providers' own SDK types (issues 34 and 35): every recorded payload of
the corpus's tool-traffic/ (calls, results, request bodies, responses) converted by the release
CLI's `tooladapter traffic` to every traffic format that holds its kind, each output validated
with the target provider's SDK types; then every recorded stream transcoded to every other
stream format (`--kind stream --events json`), each output event validated with the target
SDK's event types, and the calls of the output assembled by the SDK's own accumulators where
the SDK has one (openai's `ChatCompletionStreamState` and `ResponseStreamState`, anthropic's
`accumulate_event`; Gemini's and Bedrock's by this file, as their SDKs have none) compared
with the calls assembled from the input by this file's own reader of each source grammar.

The types (read 2026-11-28 in the pinned packages of requirements.txt):
- openai: `ChatCompletionMessageParam`, `CompletionCreateParamsNonStreaming`, `ChatCompletion`,
  `ChatCompletionChunk`; `ResponseInputItemParam`, `ResponseCreateParamsNonStreaming`,
  `Response`, `ResponseStreamEvent` (TypeAdapters over the SDK's TypedDicts and models);
- anthropic: `MessageParam`, `MessageCreateParamsNonStreaming`, `Message`,
  `RawMessageStreamEvent`;
- google-genai: `Content`, `Tool`, `ToolConfig`, `GenerationConfig`,
  `GenerateContentResponse` (pydantic models that refuse unknown members);
- botocore: the `bedrock-runtime` service model's `Converse` input and output shapes and
  `ConverseStream`'s event union, through botocore's own `ParamValidator` (no network);
- mcp: `JSONRPCRequest`, `CallToolRequest`, `CallToolRequestParams`, `CallToolResult`,
  `JSONRPCResponse`, `JSONRPCError`, `ContentBlock`.

An output written from another format is held to the types with unknown members refused
(`extra="forbid"`: a writer must write only what the provider defines); the same format writes
its input back with the members the recording had, so there unknown members are allowed.
A request body written from elsewhere lacks what only the caller knows (docs/traffic.md: the
`model`, Anthropic's `max_tokens`, Bedrock's `modelId`): those are filled in before the body is
validated, and nothing else is.

Exit status 1 when any output is refused by its SDK type, when a conversion fails other than
as documented (results for Gemini that cannot be named), when a stream's calls differ without
a report entry naming the difference, or when the CLI crashes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import typing
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import ConfigDict, TypeAdapter

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

# The corpus folder of each traffic format (`tooladapter traffic --help`).
FOLDERS = {
    "openai": "openai-chat",
    "openai-responses": "openai-responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "bedrock": "bedrock",
    "mcp": "mcp",
}
# The corpus's kind folders and the CLI's `--kind` names.
KINDS = {"calls": "calls", "results": "results", "requests": "messages", "responses": "response"}
# MCP holds calls and results only.
HOLDS = {f: set(KINDS.values()) for f in FOLDERS} | {"mcp": {"calls", "results"}}
STREAM_FORMATS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock")

# What only the caller of a request body knows, filled in before the body is validated.
CALLER_MEMBERS = {
    "openai": {"model": "m"},
    "openai-responses": {"model": "m"},
    "anthropic": {"model": "m", "max_tokens": 1},
    "bedrock": {"modelId": "m"},
}


# ---------------------------------------------------------------------------------------------
# The SDK types.


def literals(annotation) -> tuple:
    """The strings a `Literal[...]` annotation allows (through `Required`, `Annotated`, ...)."""
    while typing.get_origin(annotation) in (typing.Required, typing.NotRequired,
                                            typing.Annotated):
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return ()


class ByType:
    """A union of SDK types told apart by their `type` member, as the SDKs' own discriminator
    does: a value is validated against the members whose `type` allows its `type` (all of
    them when it has none), so a refusal names the member it should have been."""

    def __init__(self, union, config=None) -> None:
        while typing.get_origin(union) is typing.Annotated:
            union = typing.get_args(union)[0]
        self.members: dict = defaultdict(list)
        self.untyped = []
        self.all = list(typing.get_args(union))
        for member in self.all:
            if hasattr(member, "model_fields"):
                hint = member.model_fields["type"].annotation if "type" in member.model_fields else None
            else:
                hint = typing.get_type_hints(member, include_extras=True).get("type")
            for literal in literals(hint):
                self.members[literal].append(member)
            if not literals(hint):
                self.untyped.append(member)
        self.config = config
        self.cache: dict = {}

    def adapter(self, key):
        if key not in self.cache:
            # No `type`: every member (a `type` may be optional, as on an input message).
            found = (self.members.get(key, []) + self.untyped) if key is not None else self.all
            if not found:
                raise ValueError(f"type {key!r}: no such type in the SDK's union")
            union = found[0] if len(found) == 1 else typing.Union[tuple(found)]
            self.cache[key] = TypeAdapter(list[union], config=self.config) if self.config else TypeAdapter(list[union])
        return self.cache[key]

    def validate_python(self, value):
        key = value.get("type") if isinstance(value, dict) else None
        return self.adapter(key).validate_python([value])[0]


def drain(value) -> None:
    """Consumes every lazily validated iterable pydantic returned for an `Iterable[...]` field
    of an SDK TypedDict (`tool_calls`, `content`): their elements are validated only when read."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif type(v).__name__ == "ValidatorIterator":
            stack.extend(list(v))
        elif hasattr(type(v), "model_fields") and not isinstance(v, type):
            stack.extend(getattr(v, name, None) for name in type(v).model_fields)


class Types:
    """The SDK types, made once: TypeAdapters in two modes (unknown members allowed, refused)."""

    def __init__(self) -> None:
        import botocore.session
        import mcp.types as mt
        from anthropic.types import Message, MessageParam, RawMessageStreamEvent
        from anthropic.types.message_create_params import (
            MessageCreateParamsNonStreaming,
            MessageCreateParamsStreaming,
        )
        from google.genai import types as gt
        from openai.types.chat import (
            ChatCompletion,
            ChatCompletionChunk,
            ChatCompletionMessageParam,
        )
        from openai.types.chat.completion_create_params import (
            CompletionCreateParamsNonStreaming,
            CompletionCreateParamsStreaming,
        )
        from openai.types.responses import Response, ResponseInputItemParam, ResponseStreamEvent
        from openai.types.responses.response_create_params import (
            ResponseCreateParamsNonStreaming,
            ResponseCreateParamsStreaming,
        )

        def adapters(t):
            # A list of `t`: pydantic takes a configuration for a TypedDict only inside
            # another type, and then applies it to every TypedDict within.
            return (TypeAdapter(list[t]), TypeAdapter(list[t], config=ConfigDict(extra="forbid")))

        self.params = {
            "openai-message": adapters(ChatCompletionMessageParam),
            "openai-body": adapters(CompletionCreateParamsNonStreaming),
            "openai-body-stream": adapters(CompletionCreateParamsStreaming),
            "responses-item": (
                ByType(ResponseInputItemParam),
                ByType(ResponseInputItemParam, ConfigDict(extra="forbid")),
            ),
            "responses-body": adapters(ResponseCreateParamsNonStreaming),
            "responses-body-stream": adapters(ResponseCreateParamsStreaming),
            "anthropic-message": adapters(MessageParam),
            "anthropic-body": adapters(MessageCreateParamsNonStreaming),
            "anthropic-body-stream": adapters(MessageCreateParamsStreaming),
        }
        # The SDKs' response and event models (pydantic models with their own configuration:
        # openai's and anthropic's allow unknown members, google-genai's refuse them).
        self.models = {
            "openai-response": TypeAdapter(ChatCompletion),
            "openai-chunk": TypeAdapter(ChatCompletionChunk),
            "responses-response": TypeAdapter(Response),
            "responses-event": ByType(ResponseStreamEvent),
            "anthropic-response": TypeAdapter(Message),
            "anthropic-event": ByType(RawMessageStreamEvent),
        }
        self.gt = gt
        self.mt = mt
        self.content_block = TypeAdapter(mt.ContentBlock)
        model = botocore.session.get_session().get_service_model("bedrock-runtime")
        self.converse = model.operation_model("Converse")
        self.converse_stream = model.operation_model("ConverseStream")
        from botocore.validate import ParamValidator

        self.validator = ParamValidator()

    def param(self, name: str, value, forbid: bool) -> None:
        adapter = self.params[name][int(forbid)]
        drain(adapter.validate_python(value if isinstance(adapter, ByType) else [value]))

    def model(self, name: str, value) -> None:
        drain(self.models[name].validate_python(value))

    def boto(self, shape, value) -> None:
        report = self.validator.validate(value, shape)
        if report.has_errors():
            raise ValueError(report.generate_report())


def items(value) -> list:
    return value if isinstance(value, list) else [value]


def body(prefix: str, value: dict) -> str:
    """The SDK's request type of a body: the streaming one when it asks for a stream."""
    return f"{prefix}-body-stream" if value.get("stream") is True else f"{prefix}-body"


# The targets whose SDK types are checked the same way: (the response model, the request body
# `body` names, the type of one message or item of a list).
PYDANTIC_TYPES = {
    "openai": ("openai-response", "openai", "openai-message"),
    "openai-responses": ("responses-response", "responses", "responses-item"),
    "anthropic": ("anthropic-response", "anthropic", "anthropic-message"),
}


def validate(types: Types, target: str, kind: str, value, forbid: bool) -> None:
    """Raises when `value`, a `kind` payload written as `target`, is not what the target's SDK
    types accept."""
    gt = types.gt
    if target in PYDANTIC_TYPES:
        response, request, item = PYDANTIC_TYPES[target]
        if kind == "response":
            return types.model(response, value)
        if kind == "messages" and isinstance(value, dict):
            return types.param(body(request, value), CALLER_MEMBERS[target] | value, forbid)
        for message in items(value):
            types.param(item, message, forbid)
        return None
    if target == "gemini":
        if kind == "response":
            return drain(gt.GenerateContentResponse.model_validate(value))
        if kind == "messages" and isinstance(value, dict):
            return gemini_body(types, value)
        for content in items(value):
            drain(gt.Content.model_validate(content))
        return None
    if target == "bedrock":
        if kind == "response":
            return types.boto(types.converse.output_shape, value)
        if kind == "messages" and isinstance(value, dict):
            return types.boto(types.converse.input_shape, CALLER_MEMBERS[target] | value)
        return types.boto(types.converse.input_shape, {"modelId": "m", "messages": items(value)})
    if target == "mcp":
        for message in items(value):
            mcp_message(types, kind, message)
        return None
    raise ValueError(f"no SDK types for {target}")


# The members of a Gemini `generateContent` request body (the REST `GenerateContentRequest`,
# ai.google.dev/api/generate-content, read 2026-11-28) and the google-genai type of each.
GEMINI_BODY = {
    "contents": "Content",
    "systemInstruction": "Content",
    "tools": "Tool",
    "toolConfig": "ToolConfig",
    "generationConfig": "GenerationConfig",
    "safetySettings": "SafetySetting",
    "cachedContent": None,
    "labels": None,
}


def gemini_body(types: Types, body: dict) -> None:
    for key, value in body.items():
        if key not in GEMINI_BODY:
            raise ValueError(f"{key}: not a member of a generateContent request")
        name = GEMINI_BODY[key]
        if name is None:
            continue
        model = getattr(types.gt, name)
        for v in items(value) if key in ("contents", "tools", "safetySettings") else [value]:
            drain(model.model_validate(v))


def mcp_message(types: Types, kind: str, message: dict) -> None:
    mt = types.mt
    if kind == "calls":
        if "jsonrpc" in message:
            mt.JSONRPCRequest.model_validate(message)
            mt.CallToolRequest.model_validate({"method": message["method"], **message})
        elif "method" in message:
            mt.CallToolRequest.model_validate(message)
        else:
            mt.CallToolRequestParams.model_validate(message)
        return
    if "jsonrpc" in message:
        if "error" in message:
            mt.JSONRPCError.model_validate(message)
            return
        mt.JSONRPCResponse.model_validate(message)
        mt.CallToolResult.model_validate(message["result"])
    elif "content" in message or "structuredContent" in message:
        mt.CallToolResult.model_validate(message)
    else:
        types.content_block.validate_python(message)


# The self-test: each target's types must accept a payload the provider documents and refuse
# one with the defects this suite found in writers, so a validator that accepts everything
# cannot pass.
SELF_TEST = [
    # (target, kind, payload, forbid unknown members, accepted)
    ("openai", "calls", {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, True, True),
    ("openai", "calls", {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}, True, False),
    ("openai", "response", {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                            "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1}},
     True, False),
    ("openai-responses", "calls", {"type": "function_call", "call_id": "c", "name": "f",
                                   "arguments": "{}"}, True, True),
    ("openai-responses", "calls", [{"type": "message", "role": "assistant", "content": [
        {"type": "output_text", "text": "t"}]}], True, False),
    ("openai-responses", "response", {"id": "r", "object": "response", "created_at": 0,
                                      "model": "m", "output": []}, True, False),
    ("anthropic", "results", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}, True, True),
    ("anthropic", "results", {"role": "user", "content": [{"type": "document", "source": {
        "type": "base64", "media_type": "text/plain", "data": "eA=="}}]}, True, False),
    ("gemini", "calls", {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
     True, True),
    ("gemini", "calls", {"role": "model", "parts": [{"functionCall": {"name": "f", "arg": {}}}]},
     True, False),
    ("bedrock", "response", {"output": {"message": {"role": "assistant", "content": []}},
                             "stopReason": "tool_use", "usage": {"inputTokens": 1,
                             "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 0}},
     True, True),
    ("bedrock", "response", {"output": {"message": {"role": "assistant", "content": []}},
                             "stopReason": "tool_use", "usage": {"inputTokens": 1,
                             "outputTokens": 1, "totalTokens": 2}}, True, False),
    ("mcp", "calls", {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "f", "arguments": {}}}, True, True),
    ("mcp", "calls", {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": 1}}, True, False),
]


def self_test(types: Types) -> bool:
    failures = []
    for target, kind, payload, forbid, accepted in SELF_TEST:
        try:
            validate(types, target, kind, payload, forbid)
            ok = True
        except Exception:  # the SDKs' own error types differ; each is a refusal
            ok = False
        if ok != accepted:
            failures.append(f"{target} {kind}: {'accepted' if ok else 'refused'} {payload}")
    for f in failures:
        print(f"self-test FAILED: {f}")
    print(f"traffic self-test: {len(SELF_TEST)} payloads: {'FAILED' if failures else 'ok'}")
    return not failures


# ---------------------------------------------------------------------------------------------
# Payloads.


def cli(binary: str, args: list[str], data: bytes) -> tuple[int, bytes, list, str]:
    proc = subprocess.run([binary, "traffic", *args, "--report", "json", "-"], input=data,
                          capture_output=True, check=False)
    entries, texts = [], []
    for line in proc.stderr.decode(errors="replace").splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            texts.append(line)
    return proc.returncode, proc.stdout, entries, "\n".join(texts)


def payload_files(corpus: Path, fmt: str, folder: str) -> list[Path]:
    path = corpus / "tool-traffic" / FOLDERS[fmt] / folder
    return sorted(p for p in path.glob("*.json") if p.name != "_provenance.json")


def convert_payload(binary: str, types: Types, path: Path, source: str, kind: str, target: str):
    """One payload to one target: (verdict, detail). The verdicts: `ok`; `ok, error entry` (a
    request whose tool definitions the definitions conversion left out with an error entry,
    exit 1, the rest written); `as recorded` (the same format, refused by its SDK as the
    recording itself is); `refused`; `unnamed` (results for Gemini without the calls that name
    them, refused as documented); `unreadable`; `crash`."""
    data = path.read_bytes()
    rc, out, entries, text = cli(binary, ["--from", source, "--to", target, "--kind", kind], data)
    errors = " ".join(e.get("message", "") for e in entries if e.get("severity") == "error")
    if rc == 1 and not out.strip():
        if kind == "results" and "names the tool each result answers" in errors + text:
            return "unnamed", ""
        return "unreadable", (errors or text)[:300]
    if rc not in (0, 1):
        return "crash", f"exit {rc}: {text[:300]}"
    try:
        value = json.loads(out)
    except json.JSONDecodeError as err:
        return "crash", f"not JSON: {err}"
    try:
        validate(types, target, kind, value, forbid=source != target)
    except Exception as err:  # the SDKs' own error types differ; each is a refusal
        if source == target:
            try:
                validate(types, target, kind, json.loads(data), forbid=False)
            except Exception:  # the recording itself is refused: nothing the writer did
                return "as recorded", ""
        return "refused", str(err).replace("\n", " ")[:600]
    if rc == 1:
        return "ok, error entry", ""
    return "ok", ""


# Payloads the corpus keeps because they are invalid (an SDK's rejection fixtures): their
# conversion fails, as tests/traffic_corpus.rs asserts at the bad place.
INVALID = {
    "mcp-typescript-sdk--ts-sdk--fixtures--rejection--invalid-spec-params.json",
    "mcp-go-sdk--go-sdk--tools--client-L35.json",
}


def payloads(binary: str, types: Types, corpus: Path, jobs: int) -> tuple[dict, list]:
    tasks = []
    for source in FOLDERS:
        for folder, kind in KINDS.items():
            if kind not in HOLDS[source]:
                continue
            for path in payload_files(corpus, source, folder):
                for target in FOLDERS:
                    if kind in HOLDS[target]:
                        tasks.append((path, source, kind, target))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda t: convert_payload(binary, types, *t), tasks))
    table: dict = defaultdict(Counter)
    failures = []
    for (path, source, kind, target), (verdict, detail) in zip(tasks, results, strict=True):
        if verdict == "unreadable" and path.name in INVALID:
            verdict = "invalid input"
        table[(target, kind)][verdict] += 1
        if verdict in ("refused", "unreadable", "crash"):
            failures.append(f"{source}/{kind}/{path.name} -> {target}: {verdict}: {detail}")
    return table, failures


# ---------------------------------------------------------------------------------------------
# Streams: reading events, assembling calls.


def events_of(data: bytes) -> list[tuple[str | None, object]]:
    """The events of a recorded or written stream: (event name or None, parsed data). SSE
    text (`event:`/`data:` lines), JSON lines, or one JSON array of events."""
    text = data.decode("utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        return [(None, e) for e in json.loads(stripped)]
    if not any(line.startswith(("data:", "event:")) for line in text.splitlines()):
        return [(None, json.loads(line)) for line in text.splitlines() if line.strip()]
    out, name, data_lines = [], None, []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") + [""]:
        if line == "":
            if data_lines:
                body = "\n".join(data_lines)
                if body.strip() != "[DONE]":
                    out.append((name, json.loads(body)))
            name, data_lines = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data_lines.append(line[5:].removeprefix(" "))
    return out


def parsed(text: str):
    """Arguments as parsed JSON; text that is not JSON (a cut stream) as itself."""
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return ("incomplete", text)


def gemini_calls(events) -> list[tuple[str, object]]:
    """The calls of a Gemini stream: whole `functionCall` parts, and Gemini 3's streamed calls
    (`partialArgs` with `willContinue`) put together by their JSON paths."""
    calls: list = []
    open_call = None
    for _, e in events:
        for cand in e.get("candidates") or []:
            for part in (cand.get("content") or {}).get("parts") or []:
                # An empty `functionCall: {}` ends a streamed call: told by the key, not the value.
                fc = part.get("functionCall", part.get("function_call"))
                if fc is None:
                    continue
                partial = fc.get("partialArgs") or fc.get("partial_args")
                if open_call is None and (partial is not None or fc.get("willContinue")):
                    open_call = [fc.get("name", ""), {}]
                if open_call is not None:
                    for pa in partial or []:
                        set_path(open_call[1], pa)
                    if fc.get("name") and not open_call[0]:
                        open_call[0] = fc["name"]
                    if not fc.get("willContinue"):
                        calls.append((open_call[0], open_call[1]))
                        open_call = None
                    continue
                calls.append((fc.get("name", ""), fc.get("args") or {}))
    if open_call is not None:
        calls.append((open_call[0], ("incomplete", open_call[1])))
    return calls


def set_path(args: dict, pa: dict) -> None:
    """Gemini 3's `PartialArg`: a `jsonPath` (`$.a.b`, `$.a[0]`) and one typed value; string
    values at the same path are fragments of one string."""
    path = pa.get("jsonPath") or pa.get("json_path") or "$"
    keys = [k for k in path.lstrip("$").replace("[", ".").replace("]", "").split(".") if k]
    value = None
    for k in ("stringValue", "numberValue", "boolValue", "nullValue", "string_value",
              "number_value", "bool_value", "null_value"):
        if k in pa:
            value = pa[k]
            if k.startswith("null"):
                value = None
            break
    node = args
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        nxt = keys[i + 1] if not last else None
        key = int(key) if isinstance(node, list) else key
        if isinstance(node, list):
            while len(node) <= key:
                node.append(None)
        if last:
            old = node[key] if isinstance(node, list) else node.get(key)
            node[key] = old + value if isinstance(old, str) and isinstance(value, str) else value
        else:
            child = node[key] if isinstance(node, list) else node.get(key)
            if child is None:
                child = [] if nxt.isdigit() else {}
                node[key] = child
            node = child


def assemble(fmt: str, events) -> list[tuple[str, object]]:
    """The calls of a stream in `fmt`, in order of their start: (name, arguments parsed), a call
    whose end never came marked ('incomplete', text). The source grammars' quirks read
    tolerantly as docs/traffic.md lists them (no `index`, `index` from 1, repeated ids)."""
    if fmt == "gemini":
        return gemini_calls(events)
    calls: dict = {}
    order: list = []
    done: set = set()
    aliases: dict = {}

    def start(key, name):
        if key not in calls:
            calls[key] = [name or "", ""]
            order.append(key)
        elif name and not calls[key][0]:
            calls[key][0] = name

    if fmt == "openai":
        last = None
        for _, e in events:
            for choice in e.get("choices") or []:
                for tc in (choice.get("delta") or {}).get("tool_calls") or []:
                    fn = tc.get("function") or {}
                    if "index" in tc:
                        key = ("i", e.get("id"), tc["index"])
                    elif tc.get("id"):
                        key = ("id", tc["id"])
                    else:
                        key = last
                    if key is None:
                        continue
                    if tc.get("id") and "index" in tc:
                        aliases[tc["id"]] = key
                    start(key, fn.get("name"))
                    calls[key][1] += fn.get("arguments") or ""
                    last = key
                if choice.get("finish_reason"):
                    done.update(order)
    elif fmt == "openai-responses":
        for name, e in events:
            t = e.get("type", name)
            if t == "response.output_item.added" and e["item"].get("type") == "function_call":
                key = e["item"].get("id") or e.get("output_index")
                start(key, e["item"].get("name"))
                calls[key][1] += e["item"].get("arguments") or ""
                aliases[e.get("output_index")] = key
            elif t == "response.function_call_arguments.delta":
                key = e.get("item_id") if e.get("item_id") in calls else aliases.get(
                    e.get("output_index"))
                if key in calls:
                    calls[key][1] += e.get("delta") or ""
            elif t == "response.output_item.done" and e["item"].get("type") == "function_call":
                key = e["item"].get("id") or aliases.get(e.get("output_index"))
                if key in calls:
                    calls[key][1] = e["item"].get("arguments", calls[key][1])
                    done.add(key)
    elif fmt == "anthropic":
        message = 0
        for name, e in events:
            t = e.get("type", name)
            if t == "message_start":
                message += 1
            elif t == "content_block_start" and e["content_block"].get("type") == "tool_use":
                key = (message, e["index"])
                start(key, e["content_block"].get("name"))
                if e["content_block"].get("input"):
                    calls[key][1] = json.dumps(e["content_block"]["input"])
            elif t == "content_block_delta" and e["delta"].get("type") == "input_json_delta":
                if (message, e["index"]) in calls:
                    calls[(message, e["index"])][1] += e["delta"].get("partial_json") or ""
            elif t == "content_block_stop" and (message, e["index"]) in calls:
                done.add((message, e["index"]))
    elif fmt == "bedrock":
        message = 0
        for _, e in events:
            if "messageStart" in e:
                message += 1
            if "contentBlockStart" in e:
                s = e["contentBlockStart"]
                tu = (s.get("start") or {}).get("toolUse")
                if tu is not None:
                    start((message, s.get("contentBlockIndex")), tu.get("name"))
            elif "contentBlockDelta" in e:
                d = e["contentBlockDelta"]
                tu = (d.get("delta") or {}).get("toolUse")
                key = (message, d.get("contentBlockIndex"))
                if tu is not None and key in calls:
                    calls[key][1] += tu.get("input") or ""
            elif "contentBlockStop" in e:
                key = (message, e["contentBlockStop"].get("contentBlockIndex"))
                if key in calls:
                    done.add(key)
    out = []
    for key in order:
        name, text = calls[key]
        out.append((name, parsed(text) if key in done else ("incomplete", text)))
    return out


# ---------------------------------------------------------------------------------------------
# Streams: the SDK accumulators and event types.


def sdk_stream(types: Types, target: str, events) -> list[tuple[str, object]] | None:
    """Validates every event with the target SDK's event type and assembles the calls with the
    SDK's accumulator (None where the SDK has none). Raises on an event the SDK refuses."""
    if target == "openai":
        from openai.lib.streaming.chat import ChatCompletionStreamState

        state = ChatCompletionStreamState()
        for _, e in events:
            chunk = types.models["openai-chunk"].validate_python(e)
            drain(chunk)
            list(state.handle_chunk(chunk))
        calls = []
        snapshot = state.current_completion_snapshot
        for choice in snapshot.choices:
            for tc in choice.message.tool_calls or []:
                calls.append((tc.function.name, tc.function.arguments))
        return [(n, parsed(a)) for n, a in calls]
    if target == "openai-responses":
        from openai.lib.streaming.responses import ResponseStreamState
        from openai import omit

        state = ResponseStreamState(input_tools=omit, text_format=omit)
        snapshot = None
        for _, e in events:
            event = types.models["responses-event"].validate_python(e)
            drain(event)
            list(state.handle_event(event))
            # The snapshot the SDK accumulates (calls whose end never came included).
            snapshot = getattr(state, "_ResponseStreamState__current_snapshot", None) or snapshot
        if snapshot is None:
            return []
        return [(i.name, parsed(i.arguments)) for i in snapshot.output if i.type == "function_call"]
    if target == "anthropic":
        from anthropic.lib.streaming._messages import accumulate_event

        snapshot, bufs = None, {}
        for _, e in events:
            event = types.models["anthropic-event"].validate_python(e)
            drain(event)
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=bufs)
        if snapshot is None:
            return []
        return [(b.name, b.input) for b in snapshot.content if b.type == "tool_use"]
    if target == "gemini":
        for _, e in events:
            drain(types.gt.GenerateContentResponse.model_validate(e))
        return None
    if target == "bedrock":
        union = types.converse_stream.output_shape.members["stream"]
        for _, e in events:
            types.boto(union, e)
        return None
    raise ValueError(target)


def stream_files(corpus: Path, fmt: str) -> list[Path]:
    path = corpus / "tool-traffic" / FOLDERS[fmt] / "streams"
    return sorted(p for p in path.iterdir() if p.name != "_provenance.json")


def same_calls(want: list, got: list) -> bool:
    """The calls of the input and of the output agree: the complete ones equal, in order
    (names, arguments as parsed JSON); a call the input never ended may be missing from the
    output or stand there with what had arrived."""
    complete = [c for c in want if not (isinstance(c[1], tuple) and c[1][0] == "incomplete")]
    if len(complete) == len(want):
        return [(n, a) for n, a in got] == want
    rest = list(got)
    for call in complete:
        if call not in rest:
            return False
        rest.remove(call)
    return len(rest) <= len(want) - len(complete)


def transcode(binary: str, types: Types, path: Path, source: str, target: str):
    """One stream to one target: (verdict, detail, events written)."""
    data = path.read_bytes()
    args = ["--from", source, "--to", target, "--kind", "stream", "--events", "json"]
    rc, out, entries, text = cli(binary, args, data)
    if rc != 0:
        return "failed", f"exit {rc}: {text[:300]}", 0
    try:
        written = [(None, json.loads(line)) for line in out.decode().splitlines() if line]
    except json.JSONDecodeError as err:
        return "crash", f"an output line is not JSON: {err}", 0
    try:
        by_sdk = sdk_stream(types, target, written)
    except Exception as err:  # the SDKs' own error types differ; each is a refusal
        return "refused", str(err).replace("\n", " ")[:400], len(written)
    want = assemble(source, events_of(data))
    got = by_sdk if by_sdk is not None else assemble(target, written)
    codes = {e.get("code") for e in entries}
    if same_calls(want, got):
        return ("ok sdk" if by_sdk is not None else "ok reader"), "", len(written)
    # A difference a report entry names: a call the target cannot carry, or one cut short.
    if codes & {"content-dropped", "call-incomplete"}:
        return "differs, reported", "", len(written)
    return "differs", f"input {want!r:.300} output {got!r:.300}", len(written)


# What is known and not yet fixed, each with its reason (docs/traffic.md, "Not done yet"): an
# entry here is counted and printed as `known`, not failed; one that no longer fails is
# reported, so the list cannot go stale.
KNOWN = {
    # A source stream holding several messages (Anthropic's programmatic tool calling and tool
    # search recordings, a spliced `message_start`) is written to Responses as one response
    # lifecycle per message; openai's `ResponseStreamState` takes one response per stream
    # ("Lifecycle response identity changed").
    ("anthropic", "vercel-ai--anthropic-programmatic-tool-calling.1.jsonl", "openai-responses"),
    ("anthropic", "vercel-ai--anthropic-tool-search-bm25.1.jsonl", "openai-responses"),
    ("anthropic", "vercel-ai--anthropic-tool-search-deferred-bm25.jsonl", "openai-responses"),
    ("anthropic", "vercel-ai--anthropic-tool-search-regex.1.jsonl", "openai-responses"),
    ("anthropic", "vercel-ai--spliced-message-start.jsonl", "openai-responses"),
}


def streams(binary: str, types: Types, corpus: Path, jobs: int) -> tuple[dict, list, int]:
    tasks = [
        (path, source, target)
        for source in STREAM_FORMATS
        for path in stream_files(corpus, source)
        for target in STREAM_FORMATS
        if target != source
    ]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda t: transcode(binary, types, *t), tasks))
    table: dict = defaultdict(Counter)
    failures, events = [], 0
    for (path, source, target), (verdict, detail, n) in zip(tasks, results, strict=True):
        known = (source, path.name, target) in KNOWN
        bad = verdict in ("failed", "crash", "refused", "differs")
        if known and bad:
            verdict = "known"
        elif known:
            failures.append(f"{source}/streams/{path.name} -> {target}: listed as known, passes")
        table[target][verdict] += 1
        events += n
        if bad and not known:
            failures.append(f"{source}/streams/{path.name} -> {target}: {verdict}: {detail}")
    return table, failures, events


def print_table(title: str, table: dict, columns: list[str]) -> None:
    print(f"\n== {title}")
    print("  " + "".ljust(28) + "".join(f"{c:>20}" for c in columns))
    for key in sorted(table):
        name = key if isinstance(key, str) else " ".join(key)
        print("  " + name.ljust(28) + "".join(f"{table[key][c]:>20}" for c in columns))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cli", default=str(REPO / "target/release/tooladapter"), help="the tooladapter binary"
    )
    parser.add_argument(
        "--corpus", default=os.environ.get("TOOLADAPTER_CORPUS", str(REPO.parent / "shared/corpus"))
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="CLI runs at once")
    parser.add_argument("--examples", type=int, default=20, help="failures printed")
    parser.add_argument(
        "--report-only", action="store_true", help="report refusals and differences, exit 0"
    )
    parser.add_argument("--self-test", action="store_true", help="run the self-test only")
    args = parser.parse_args()
    types = Types()
    if not self_test(types):
        return 1
    if args.self_test:
        return 0
    corpus = Path(args.corpus)
    if not (corpus / "tool-traffic").is_dir():
        print(f"no tool-traffic/ under {corpus} (set TOOLADAPTER_CORPUS)")
        return 1

    table, failures = payloads(args.cli, types, corpus, max(args.jobs, 1))
    total = sum(sum(c.values()) for c in table.values())
    print_table(
        f"tool traffic: {total} conversions of the recorded payloads, each output checked with "
        "the target's SDK types",
        table,
        ["ok", "ok, error entry", "as recorded", "refused", "unnamed", "invalid input",
         "unreadable", "crash"],
    )
    print(
        "  (ok, error entry: a request's built-in tool left out with an error entry, the rest\n"
        "   written; as recorded: the same format, its SDK refusing the recording itself;\n"
        "   unnamed: results for Gemini without the calls that name them, refused as documented)"
    )
    stable, sfailures, events = streams(args.cli, types, corpus, max(args.jobs, 1))
    total = sum(sum(c.values()) for c in stable.values())
    print_table(
        f"streams: {total} transcodings of the recorded streams, {events} events written, each "
        "checked with the target's SDK event type; calls assembled by the SDK's accumulator "
        "(openai, openai-responses, anthropic) or this suite's reader, against the input's",
        stable,
        ["ok sdk", "ok reader", "differs, reported", "known", "differs", "refused", "failed",
         "crash"],
    )
    failures += sfailures
    for f in failures[: args.examples]:
        print(f"  FAILED {f}")
    if len(failures) > args.examples:
        print(f"  … and {len(failures) - args.examples} more")
    if failures and not args.report_only:
        print(f"tool traffic against the SDKs: FAILED ({len(failures)})")
        return 1
    print(f"tool traffic against the SDKs: {'ok' if not failures else f'{len(failures)} failures (--report-only)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
