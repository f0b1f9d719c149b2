"""What each provider accepts, checked on one written tool: the provider SDK's own types, then
the API rules those types do not enforce.

The SDK types are the providers' Python packages (pinned in requirements.txt). Each API rule
is one function registered with `@rule`; its docstring quotes the error text the provider's
API returns for a tool that breaks it, where that text was seen, and the date it was checked
(2026-11-26). A rule that rests on an SDK docstring or an API reference line says so instead.
The self-test (validate.py --self-test) runs every rule on the fixtures in fixtures/ and fails
if a rule has no fixture that it rejects.

`check(target, tool)` returns the problems of one tool as `(rule_id, pointer, detail)`, the
pointer a JSON pointer into the tool object as written.
"""

from __future__ import annotations

import functools
import json
import re
import typing
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anthropic.types
import anthropic.types.beta
import botocore.session
import cohere.types
import mcp.types
import mistralai.client.models
import ollama
import openai.types.chat
import openai.types.responses
import typing_extensions
from botocore.validate import ParamValidator
from google.genai import models as genai_models
from google.genai import types as genai_types
from google.protobuf import json_format
from xai_sdk.proto import chat_pb2 as xai_chat
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

# The targets this module checks, in the order the report prints them.
TARGETS = (
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "gemini-json",
    "mcp",
    "mistral",
    "cohere",
    "ollama",
    "xai",
    "vertex",
    "bedrock",
    # Bedrock held to one model family's facts (`--model-family`).
    *(f"bedrock+{family}" for family in ("anthropic", "nova", "llama", "mistral", "cohere")),
)

# The Bedrock targets: the format, and the format for each model family.
BEDROCK = tuple(t for t in TARGETS if t.split("+")[0] == "bedrock")


def cli_args(target: str) -> list[str]:
    """The CLI's arguments naming `target`: `--to bedrock --model-family nova` for
    `bedrock+nova`."""
    base, _, family = target.partition("+")
    return ["--to", base] + (["--model-family", family] if family else [])

Problem = tuple[str, str, str]


def ptr(*parts: Any) -> str:
    """A JSON pointer (RFC 6901) from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


# ---------------------------------------------------------------------------------------------
# Where each target keeps the name and the schema, and whether a tool is strict.


@dataclass(frozen=True)
class Shape:
    """Where a written tool of one target keeps its name and its parameter schema."""

    name: tuple[str, ...]
    schema: tuple[str, ...]


SHAPES = {
    "openai": Shape(("function", "name"), ("function", "parameters")),
    "openai-responses": Shape(("name",), ("parameters",)),
    "anthropic": Shape(("name",), ("input_schema",)),
    "gemini": Shape(("name",), ("parameters",)),
    "gemini-json": Shape(("name",), ("parametersJsonSchema",)),
    "mcp": Shape(("name",), ("inputSchema",)),
    # The formats that share OpenAI's Chat Completions shape (their folders' `wire_of`).
    "mistral": Shape(("function", "name"), ("function", "parameters")),
    "cohere": Shape(("function", "name"), ("function", "parameters")),
    "ollama": Shape(("function", "name"), ("function", "parameters")),
    "xai": Shape(("function", "name"), ("function", "parameters")),
    # Gemini's declarations on Vertex AI.
    "vertex": Shape(("name",), ("parameters",)),
    **{t: Shape(("toolSpec", "name"), ("toolSpec", "inputSchema", "json")) for t in BEDROCK},
}


def get_in(tool: Any, path: tuple[str, ...]) -> Any:
    """The member at `path`, or None when a step is missing or not an object."""
    cur = tool
    for step in path:
        if not isinstance(cur, dict) or step not in cur:
            return None
        cur = cur[step]
    return cur


def tool_name(target: str, tool: Any) -> str:
    """The written tool's name, for the report (a placeholder when there is none)."""
    name = get_in(tool, SHAPES[target].name)
    return name if isinstance(name, str) else "<no name>"


def is_strict(target: str, tool: Any) -> bool:
    """Whether the provider reads this tool as strict.

    Chat Completions, Responses, Anthropic and Bedrock (`toolSpec.strict`): only
    `"strict": true` holds a tool to strict
    mode's rules. The Responses API makes a tool without `strict` strict where its schema
    allows and falls back otherwise: "Responses requests will attempt to normalize your
    schema into strict mode when possible, and will fall back to non-strict, best-effort
    function calling if the schema cannot be made compatible with strict mode" (OpenAI's
    function-calling guide, quoted in 0xPlaygrounds/rig#2477, 2026-09-08; the SDK's
    `NamespaceToolParam` docstring says the same), so an omitted `strict` is never refused
    for them. Checked 2026-11-28.
    """
    if not isinstance(tool, dict):
        return False
    if target == "openai":
        fn = tool.get("function")
        return isinstance(fn, dict) and fn.get("strict") is True
    if target == "openai-responses":
        return tool.get("strict") is True
    if target == "anthropic":
        return tool.get("strict") is True
    if target in BEDROCK:
        spec = tool.get("toolSpec")
        return isinstance(spec, dict) and spec.get("strict") is True
    return False


# ---------------------------------------------------------------------------------------------
# Walking schemas.

# JSON Schema keywords whose value is one schema, a list of schemas, or a map of schemas.
_ONE = (
    "items",
    "additionalProperties",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def json_schema_nodes(node: Any, at: str) -> Iterator[tuple[str, dict]]:
    """Every schema object below (and including) `node`, with its pointer; iterative, so a
    deep schema cannot exhaust the stack."""
    stack = [(at, node)]
    while stack:
        here, cur = stack.pop()
        if not isinstance(cur, dict):
            continue
        yield here, cur
        children = []
        for key in _MAP:
            sub = cur.get(key)
            if isinstance(sub, dict):
                children.extend((f"{here}{ptr(key, k)}", v) for k, v in sub.items())
        for key in _LIST:
            sub = cur.get(key)
            if isinstance(sub, list):
                children.extend((f"{here}{ptr(key, i)}", v) for i, v in enumerate(sub))
        for key in _ONE:
            sub = cur.get(key)
            if isinstance(sub, dict):
                children.append((f"{here}{ptr(key)}", sub))
        stack.extend(reversed(children))


def gemini_schema_nodes(node: Any, at: str) -> Iterator[tuple[str, dict]]:
    """Every `Schema` object of a Gemini `parameters` tree (the OpenAPI subset): the members
    that hold schemas there are `properties`, `items` and `anyOf`."""
    stack = [(at, node)]
    while stack:
        here, cur = stack.pop()
        if not isinstance(cur, dict):
            continue
        yield here, cur
        children = []
        props = cur.get("properties")
        if isinstance(props, dict):
            children.extend((f"{here}{ptr('properties', k)}", v) for k, v in props.items())
        if isinstance(cur.get("items"), dict):
            children.append((f"{here}{ptr('items')}", cur["items"]))
        any_of = cur.get("anyOf")
        if isinstance(any_of, list):
            children.extend((f"{here}{ptr('anyOf', i)}", v) for i, v in enumerate(any_of))
        stack.extend(reversed(children))


def json_types(node: dict) -> set[str]:
    """The JSON Schema types a node names (`type` as a string or a list)."""
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def gemini_type(node: dict) -> str | None:
    """A Gemini Schema node's type, upper-cased as the API's enum spells it (the SDK reads
    the enum case-insensitively)."""
    t = node.get("type")
    return t.upper() if isinstance(t, str) else None


def schema_at(target: str, tool: Any) -> tuple[str, Any]:
    """The pointer and value of the tool's parameter schema (None when absent); Gemini's JSON
    Schema field by either of its spellings (the API reads the proto name
    `parameters_json_schema` too)."""
    path = SHAPES[target].schema
    if target == "gemini-json" and get_in(tool, path) is None:
        path = ("parameters_json_schema",)
    return ptr(*path), get_in(tool, path)


def field_target(target: str, tool: Any) -> str:
    """The Gemini target whose rules hold a declaration: its schema field's, whichever Gemini
    format it is written for. `parameters` is the OpenAPI subset, `parametersJsonSchema`
    JSON Schema; one API reads both ("This field is mutually exclusive with `parameters`",
    `FunctionDeclaration.parameters_json_schema`, google-genai 3.6.1). Checked 2026-11-28."""
    if target not in GEMINI or not isinstance(tool, dict):
        return target
    if tool.get("parameters") is not None:
        return "gemini"
    if any(tool.get(k) is not None for k in ("parametersJsonSchema", "parameters_json_schema")):
        return "gemini-json"
    return target


# ---------------------------------------------------------------------------------------------
# The rule registry.


@dataclass(frozen=True)
class Rule:
    """One API rule: its id, the targets it applies to, whether it applies only to strict
    tools, and the function that finds its violations."""

    id: str
    targets: tuple[str, ...]
    strict_only: bool
    find: Callable[[str, Any], Iterator[tuple[str, str]]]

    @property
    def source(self) -> str:
        """The rule's docstring: the error text and where it comes from."""
        return (self.find.__doc__ or "").strip()


RULES: list[Rule] = []


def rule(rule_id: str, *targets: str, strict_only: bool = False):
    """Registers a rule; the decorated function yields `(pointer, detail)` per violation."""

    def register(find):
        if not (find.__doc__ or "").strip():
            raise ValueError(f"rule {rule_id} has no docstring citing its source")
        RULES.append(Rule(rule_id, targets, strict_only, find))
        return find

    return register


OPENAI = ("openai", "openai-responses")
GEMINI = ("gemini", "gemini-json")
# The formats that write OpenAI's Chat Completions shape under rules of their own.
CHAT_WIRE = ("mistral", "cohere", "ollama", "xai")

# ---------------------------------------------------------------------------------------------
# OpenAI (Chat Completions and Responses function tools).

_OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@rule("openai-name", *OPENAI)
def openai_name(target, tool):
    """Function name `^[a-zA-Z0-9_-]+$`, at most 64 characters.

    API errors: "Invalid 'tools[0].function.name': string does not match pattern. Expected a
    string that matches the pattern '^[a-zA-Z0-9_-]+$'." (brekkylab/ailoy#109, 2025-06-09) and
    "Invalid 'tools[11].function.name': string too long. Expected a string with maximum length
    64, but got a string with length 74 instead." (home-assistant/core#121325, 2024-07-05).
    Checked 2026-11-26.
    """
    name = get_in(tool, SHAPES[target].name)
    if not isinstance(name, str) or not _OPENAI_NAME.match(name):
        yield ptr(*SHAPES[target].name), f"{name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$"


@rule("openai-root-not-object", *OPENAI)
def openai_root_not_object(target, tool):
    """`parameters`, when present, is an object schema (`"type": "object"`).

    API error: "Invalid schema for function 'json': schema must be a JSON Schema of 'type:
    \"object\"', got 'type: \"None\"'." (browserbase/stagehand#1159, 2025-10-22).
    Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if schema is not None and not (isinstance(schema, dict) and schema.get("type") == "object"):
        got = schema.get("type") if isinstance(schema, dict) else type(schema).__name__
        yield at, f'root type is {got!r}, not "object"'


@rule("openai-root-properties-missing", *OPENAI)
def openai_root_properties_missing(target, tool):
    """An object root has `properties` (an empty `{}` is accepted, a missing one is not).

    API error: "Invalid schema for function 'mcp_codex_data_tool_get_networks': In
    context=(), object schema missing properties." (tailcallhq/forgecode#1359, 2025-08-10;
    also spring-projects/spring-ai#4776). `context=()` is the root: this rule checks the root
    only, as that is where every report of this error points; nested open objects
    (`{"type": "object"}` as a map) are accepted outside strict mode. Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if isinstance(schema, dict) and schema.get("type") == "object" and "properties" not in schema:
        yield at, "object root without properties"


@rule("openai-array-items-missing", *OPENAI)
def openai_array_items_missing(target, tool):
    """Every array schema, at any depth, has `items`.

    API error: "Invalid schema for function 'kafka_admin_topics': In context=('properties',
    'configs'), array schema missing items." (streamnative/streamnative-mcp-server#26,
    2025-05-13); a type list containing "array" counts too ("In context=('properties',
    'interaction', 'type', '1'), array schema missing items.", campfirein/byterover-cli#42,
    2025-07-11). Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    for here, node in json_schema_nodes(schema, at):
        if "array" in json_types(node) and "items" not in node:
            yield here, "array schema without items"


# ---------------------------------------------------------------------------------------------
# JSON Schema validity (OpenAI and Anthropic read `parameters` / `input_schema` as JSON Schema).

_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
_META_CACHE: dict[str, tuple[str, str] | None] = {}


def _meta_first_error(schema: Any) -> tuple[str, str] | None:
    """The first draft 2020-12 meta-schema error of `schema` (path, message), cached by the
    schema's text: the same schema recurs across targets and BFCL records."""
    key = json.dumps(schema, sort_keys=True)
    if key not in _META_CACHE:
        err = next(iter(_META.iter_errors(schema)), None)
        _META_CACHE[key] = None if err is None else (ptr(*err.absolute_path), err.message[:200])
    return _META_CACHE[key]


@rule("json-schema-invalid", "openai", "openai-responses", "anthropic")
def json_schema_invalid(target, tool):
    """The parameter schema is valid JSON Schema (draft 2020-12 meta-schema).

    Anthropic API error: "tools.12.custom.input_schema: JSON schema is invalid. It must match
    JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12)."
    (anthropics/claude-code#63673, 2026-05-29). OpenAI validates against a meta-schema too:
    "Invalid schema for function '…': [] is not of type 'object', 'boolean'."
    (FoundationAgents/OpenManus#1162, 2025-06-11); the draft it uses is not stated, 2020-12 is
    what src/formats/openai/rules.rs records it reads. Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if schema is None:
        return
    err = _meta_first_error(schema)
    if err is not None:
        yield at + err[0], err[1]


# ---------------------------------------------------------------------------------------------
# OpenAI strict mode (Structured Outputs).

# The keywords a strict schema may use: OpenAI Structured Outputs, "Supported schemas"
# (as recorded in docs/strict.md and src/formats/openai/rules.rs, checked 2026-11).
OPENAI_STRICT_KEYWORDS = frozenset(
    "type properties required additionalProperties items anyOf $ref $defs definitions enum "
    "const description title pattern format minimum maximum exclusiveMinimum exclusiveMaximum "
    "multipleOf minItems maxItems".split()
)


def _objects(target, tool):
    at, schema = schema_at(target, tool)
    for here, node in json_schema_nodes(schema, at):
        if "object" in json_types(node):
            yield here, node


@rule("openai-strict-additional-properties", *OPENAI, strict_only=True)
def openai_strict_additional_properties(target, tool):
    """In a strict tool every object has `"additionalProperties": false`.

    API error: "Invalid schema for function 'json_edit_tool': In context=('properties',
    'value'), 'additionalProperties' is required to be supplied and to be false."
    (bytedance/trae-agent#173, 2025-07-14). Checked 2026-11-26.
    """
    for here, node in _objects(target, tool):
        if node.get("additionalProperties") is not False:
            yield here, 'object without "additionalProperties": false'


@rule("openai-strict-required-all", *OPENAI, strict_only=True)
def openai_strict_required_all(target, tool):
    """In a strict tool every object lists every property in `required`.

    API error: "Invalid schema for function 'question': In context=('properties',
    'questions', 'items'), 'required' is required to be supplied and to be an array including
    every key in properties. Missing 'multiple'." (anomalyco/opencode#13737, 2026-02-15).
    Checked 2026-11-26.
    """
    for here, node in _objects(target, tool):
        props = node.get("properties")
        if not isinstance(props, dict):
            continue
        req = node.get("required")
        req = set(req) if isinstance(req, list) else set()
        missing = [k for k in props if k not in req]
        if missing:
            yield here, f"required misses {missing[:3]}"


@rule("openai-strict-keyword", *OPENAI, strict_only=True)
def openai_strict_keyword(target, tool):
    """A strict schema uses only the supported keyword subset.

    API error for one outside it: "Invalid schema for function 'GetLogs': In
    context=('properties', 'name'), 'default' is not permitted." (dotnet/extensions#6196,
    2025-03-26; 567-labs/instructor#1074, 2024-10-13). The subset is OpenAI's "Supported
    schemas" list as docs/strict.md records it. Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    for here, node in json_schema_nodes(schema, at):
        for key in node:
            if key not in OPENAI_STRICT_KEYWORDS:
                yield here, f"{key!r} is not permitted in a strict schema"


# ---------------------------------------------------------------------------------------------
# Anthropic (Messages API custom tools).

_ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
_ANTHROPIC_KEY = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")


@rule("anthropic-name", "anthropic")
def anthropic_name(target, tool):
    """Tool name `^[a-zA-Z0-9_-]{1,128}$`.

    API error: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
    (home-assistant/core#147760, 2025-06-29; netclaw-dev/netclaw#1133, 2026-05-21;
    nicobailon/pi-mcp-adapter#190, 2026-07-17). Older reports quote `{1,64}`
    (cyanheads/atlas-mcp-server#14, 2025-03-06): the limit was raised. Checked 2026-11-26.
    """
    name = get_in(tool, SHAPES[target].name)
    if not isinstance(name, str) or not _ANTHROPIC_NAME.match(name):
        yield ptr("name"), f"{name!r} does not match ^[a-zA-Z0-9_-]{{1,128}}$"


@rule("anthropic-property-key", "anthropic", *BEDROCK)
def anthropic_property_key(target, tool):
    """Property keys of `input_schema.properties` match `^[a-zA-Z0-9_.-]{1,64}$`.

    API error: "tools.14.custom.input_schema.properties: Property keys should match pattern
    '^[a-zA-Z0-9_.-]{1,64}$'" (anthropics/claude-code#79418, 2026-07-20;
    beautyfree/appstore-connect-mcp#2, 2026-04-13). Every report points at the root's
    `properties`, so this rule checks the root's keys only. Checked 2026-11-26. Bedrock
    Converse answers the same for Claude: "ValidationException: tools.0.custom.input_schema.
    properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"
    (aws-solutions-library-samples/accelerated-intelligent-document-processing-on-aws#709,
    2026-08-31). Checked 2026-11-28.
    """
    at, schema = schema_at(target, tool)
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict):
        for key in props:
            if not _ANTHROPIC_KEY.match(key):
                yield f"{at}{ptr('properties', key)}", f"key {key!r} does not match the pattern"


@rule("anthropic-root-type-object", "anthropic")
def anthropic_root_type_object(target, tool):
    """`input_schema` has `"type": "object"`.

    API error: "tools.26.custom.input_schema.type: Field required" (lidge-jun/opencodex#75,
    2026-07-09; BerriAI/litellm#31527, 2026-06-27); the SDK's `InputSchemaTyped` declares
    `type: Required[Literal["object"]]` but `ToolParam` also admits any dict, so the SDK type
    does not enforce it. Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if not (isinstance(schema, dict) and schema.get("type") == "object"):
        got = schema.get("type") if isinstance(schema, dict) else schema
        yield at, f"input_schema type is {got!r}"


@rule("anthropic-root-combinator", "anthropic")
def anthropic_root_combinator(target, tool):
    """No `oneOf`, `allOf` or `anyOf` at the root of `input_schema`.

    API error: "tools.19.custom.input_schema: input_schema does not support oneOf, allOf, or
    anyOf at the top level" (windoze95/cantinarr#497, 2026-08-23;
    anthropics/claude-code#27337, 2026-02-21). Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if isinstance(schema, dict):
        for key in ("oneOf", "allOf", "anyOf"):
            if key in schema:
                yield f"{at}{ptr(key)}", f"{key} at the root"


@rule("anthropic-strict-additional-properties", "anthropic", "bedrock", "bedrock+anthropic", strict_only=True)
def anthropic_strict_additional_properties(target, tool):
    """In a strict tool every object has `"additionalProperties": false`.

    API error: "tools.0.custom: For 'object' type, 'additionalProperties' must be explicitly
    set to false" (vercel/ai#20681, 2026-09-12, Claude through Bedrock Converse; nested open
    objects fail the same way). Checked 2026-11-26.
    """
    for here, node in _objects(target, tool):
        if node.get("additionalProperties") is not False:
            yield here, 'object without "additionalProperties": false'


# ---------------------------------------------------------------------------------------------
# Gemini (`functionDeclarations`; `parameters` is the OpenAPI-subset `Schema`,
# `parametersJsonSchema` is JSON Schema). The API is proto-based: an empty list or map is the
# same as an absent one, so "non-empty" below is what presence means to the server.

_GEMINI_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")


@rule("gemini-name", *GEMINI)
def gemini_name(target, tool):
    """Function name: starts with a letter or `_`, then letters, digits, `_ . : -`; at most 64.

    API error: "tools[0].function_declarations[53].name: [FIELD_INVALID] Invalid function
    name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain
    underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
    (kaitranntt/ccs#25, 2025-11-30; cline/cline#7339). The SDK docstring's 128 is not what the
    API enforces. Checked 2026-11-26.
    """
    name = tool.get("name") if isinstance(tool, dict) else None
    if not isinstance(name, str) or not _GEMINI_NAME.match(name):
        yield ptr("name"), f"{name!r} is not a valid Gemini function name"


@rule("gemini-params-exclusive", *GEMINI)
def gemini_params_exclusive(target, tool):
    """`parameters` and `parametersJsonSchema` are not both set.

    SDK docstring of `FunctionDeclaration.parameters_json_schema` (google-genai 3.6.1): "This
    field is mutually exclusive with `parameters`." Checked 2026-11-26.
    """
    if isinstance(tool, dict):
        has_p = tool.get("parameters") is not None
        has_j = any(
            tool.get(k) is not None for k in ("parametersJsonSchema", "parameters_json_schema")
        )
        if has_p and has_j:
            yield "", "both parameters and parametersJsonSchema"


@rule("gemini-json-root-not-object", "gemini-json")
def gemini_json_root_not_object(target, tool):
    """`parametersJsonSchema`, when present, describes an object.

    SDK docstring of `FunctionDeclaration.parameters_json_schema` (google-genai 3.6.1): "The
    schema must describe an object where the properties are the parameters to the function."
    Checked 2026-11-26.
    """
    at, schema = schema_at(target, tool)
    if schema is not None and not (isinstance(schema, dict) and schema.get("type") == "object"):
        got = schema.get("type") if isinstance(schema, dict) else schema
        yield at, f'root type is {got!r}, not "object"'


def _gemini_nodes(tool):
    at, schema = schema_at("gemini", tool)
    return gemini_schema_nodes(schema, at)


@rule("gemini-anyof-not-alone", "gemini")
def gemini_anyof_not_alone(target, tool):
    """A node with `anyOf` has no other field.

    API error: "When using any_of, it must be the only field set" (issue 20 of this
    repository, from the Gemini API's 400 on `{"anyOf": [...], "default": null, "title": …}`).
    Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if "anyOf" in node and len(node) > 1:
            others = sorted(k for k in node if k != "anyOf")
            yield here, f"anyOf beside {others[:4]}"


@rule("gemini-type-missing", "gemini")
def gemini_type_missing(target, tool):
    """A node without `anyOf` has a `type`.

    API error: "type: must be specified when not using one_of, any_of or all_of fields"
    (issue 20 of this repository: untyped `enum`/`const`, BFCL's `any`). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if "anyOf" not in node and gemini_type(node) is None:
            yield here, "node without type"


@rule("gemini-object-properties-empty", "gemini")
def gemini_object_properties_empty(target, tool):
    """An OBJECT node has at least one property (absent and `{}` are the same to the API).

    API error: "* GenerateContentRequest.tools[0].function_declarations[0].parameters.
    properties: should be non-empty for OBJECT type" (pipecat-ai/pipecat-flows#110,
    2025-03-17, a function without parameters; CherryHQ/cherry-studio#3270, 2025-03-13;
    nested: browser-use/browser-use#7). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if gemini_type(node) == "OBJECT" and not node.get("properties"):
            yield here, "OBJECT without properties"


@rule("gemini-properties-not-object", "gemini")
def gemini_properties_not_object(target, tool):
    """`properties` only on an OBJECT node.

    API error: "GenerateContentRequest.tools[0].function_declarations[80].parameters.
    properties[data].properties: only allowed for OBJECT type" (anomalyco/opencode#11889,
    2026-02-03). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if node.get("properties") and gemini_type(node) != "OBJECT":
            yield f"{here}{ptr('properties')}", f"properties on {gemini_type(node)}"


@rule("gemini-array-items-missing", "gemini")
def gemini_array_items_missing(target, tool):
    """An ARRAY node has `items`.

    API error: "GenerateContentRequest.tools[0].function_declarations[3].parameters.
    properties[tags].items: missing field." (kkrishnan90/gemini-desktop#7, 2025-06-02;
    jackmusick/bifrost#225, 2026-05-08). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if gemini_type(node) == "ARRAY" and not isinstance(node.get("items"), dict):
            yield here, "ARRAY without items"


@rule("gemini-required-not-object", "gemini")
def gemini_required_not_object(target, tool):
    """`required` only on an OBJECT node.

    API error: "…parameters.properties[data].required: only allowed for OBJECT type"
    (anomalyco/opencode#11889, 2026-02-03; issue 20 of this repository). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if node.get("required") and gemini_type(node) != "OBJECT":
            yield f"{here}{ptr('required')}", f"required on {gemini_type(node)}"


@rule("gemini-required-undefined", "gemini")
def gemini_required_undefined(target, tool):
    """Every name in `required` is a key of `properties`.

    API error: "required[0]: property is not defined" (issue 20 of this repository).
    Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        req = node.get("required")
        if not isinstance(req, list) or gemini_type(node) != "OBJECT":
            continue
        props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
        for i, name in enumerate(req):
            if name not in props:
                yield f"{here}{ptr('required', i)}", f"{name!r} is not a property"


@rule("gemini-enum-not-string", "gemini")
def gemini_enum_not_string(target, tool):
    """`enum` only on a STRING node.

    API error: "* GenerateContentRequest.tools[0].function_declarations[14].parameters.
    properties[truncateMode].enum: only allowed for STRING type" (musistudio/llms#20,
    2025-08-07; decolua/9router#359, 2026-03-19). Vertex AI documents INTEGER enums with
    `format: enum`; the Developer API refuses them, and what both accept is STRING.
    Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        if node.get("enum") and gemini_type(node) != "STRING":
            yield f"{here}{ptr('enum')}", f"enum on {gemini_type(node)}"


@rule("gemini-enum-empty-value", "gemini")
def gemini_enum_empty_value(target, tool):
    """No empty string among `enum` values.

    API error: "enum[1]: cannot be empty" (issue 20 of this repository). Checked 2026-11-26.
    """
    for here, node in _gemini_nodes(tool):
        values = node.get("enum")
        if isinstance(values, list):
            for i, v in enumerate(values):
                if v == "":
                    yield f"{here}{ptr('enum', i)}", "empty enum value"


# ---------------------------------------------------------------------------------------------
# The providers that serve OpenAI's Chat Completions shape under rules of their own
# (src/formats/{mistral,cohere,ollama,xai}): their SDK types below, and these API rules.

_MISTRAL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_COHERE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@rule("mistral-name", "mistral")
def mistral_name(target, tool):
    """Function name: letters, digits, `_` and `-`, at most 64 characters.

    API error: "Function name was add_newam_task_with_due_date___8c498bee-… but must be a-z,
    A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."
    (Kochava-Studios/witsy#164, 2025-04-04). Checked 2026-11-28.
    """
    name = get_in(tool, SHAPES[target].name)
    if not isinstance(name, str) or not _MISTRAL_NAME.match(name):
        yield ptr(*SHAPES[target].name), f"{name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$"


@rule("cohere-name", "cohere")
def cohere_name(target, tool):
    """Function name: letters, digits and `_`, not starting with a digit.

    SDK docstring of `Tool.name` (cohere 7.3.1, `types/tool.py`): "Valid names contain only
    the characters `a-z`, `A-Z`, `0-9`, `_` and must not begin with a digit." (v2's
    `ToolV2Function.name` states no rule of its own). Checked 2026-11-28.
    """
    name = get_in(tool, SHAPES[target].name)
    if not isinstance(name, str) or not _COHERE_NAME.match(name):
        yield ptr(*SHAPES[target].name), f"{name!r} is not a valid Cohere tool name"


@rule("cohere-unknown-member", "cohere")
def cohere_unknown_member(target, tool):
    """No member beside those `ToolV2` and `ToolV2Function` declare (the SDK types allow
    extras and send them; the API refuses them).

    API error: "unknown field: parameter 'strict' is not a valid field. For proper usage,
    please refer to https://docs.cohere.com/reference/chat" (OpenRouterTeam/openrouter-
    examples#71, 2026-03-23, a 422 for an OpenAI-style `strict`). Checked 2026-11-28.
    """
    if not isinstance(tool, dict):
        return
    for key in tool:
        if key not in cohere.types.ToolV2.model_fields:
            yield ptr(key), f"{key!r} is not a field of ToolV2"
    fn = tool.get("function")
    if isinstance(fn, dict):
        for key in fn:
            if key not in cohere.types.ToolV2Function.model_fields:
                yield ptr("function", key), f"{key!r} is not a field of ToolV2Function"


@rule("xai-enum-null", "xai")
def xai_enum_null(target, tool):
    """No `null` among an `enum`'s values.

    xAI refuses a tool whose schema has `"enum": ["content", "files_with_matches", "count",
    null]` with "Client specified an invalid argument" (tailcallhq/forgecode#2809,
    2026-04-02). Checked 2026-11-28.
    """
    at, schema = schema_at(target, tool)
    for here, node in json_schema_nodes(schema, at):
        values = node.get("enum")
        if isinstance(values, list):
            for i, v in enumerate(values):
                if v is None:
                    yield f"{here}{ptr('enum', i)}", "null in enum"


# ---------------------------------------------------------------------------------------------
# Bedrock Converse (`toolSpec`). The SDK type is botocore's service model (below); Claude's
# rules the format encodes (src/formats/bedrock/rules.rs) are checked by the Anthropic rules
# registered for "bedrock" too.

_BEDROCK_MODEL = botocore.session.get_session().get_service_model("bedrock-runtime")
_BEDROCK_SPEC = _BEDROCK_MODEL.shape_for("ToolSpecification")
_BEDROCK_NAME_META = _BEDROCK_SPEC.members["name"].metadata
_BEDROCK_NAME = re.compile(
    "^" + _BEDROCK_NAME_META.get("pattern", ".*").strip("^$") + "$"
)


@rule("bedrock-name", *BEDROCK)
def bedrock_name(target, tool):
    """Tool name `[a-zA-Z0-9_-]+`, 1 to 64 characters.

    botocore 1.44.5's bedrock-runtime service model, `ToolSpecification.name`: `min` 1,
    `max` 64, `pattern` `[a-zA-Z0-9_-]+` (botocore's parameter validator checks `min` only,
    so this rule checks the rest; the Bedrock Runtime API reference states the same).
    Checked 2026-11-28.
    """
    name = get_in(tool, SHAPES[target].name)
    limit = _BEDROCK_NAME_META.get("max", 64)
    if not isinstance(name, str) or len(name) > limit or not _BEDROCK_NAME.match(name):
        yield ptr(*SHAPES[target].name), f"{name!r} is not a valid Bedrock tool name"


@rule("bedrock-root-not-object", *BEDROCK)
def bedrock_root_not_object(target, tool):
    """`inputSchema.json` describes an object.

    API error: "The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of
    the following: object" (kirodotdev/Kiro#11026, 2026-08-24). Checked 2026-11-28.
    """
    at, schema = schema_at(target, tool)
    if not (isinstance(schema, dict) and schema.get("type") == "object"):
        got = schema.get("type") if isinstance(schema, dict) else schema
        yield at, f'root type is {got!r}, not "object"'


@rule("bedrock-family-strict", *(t for t in BEDROCK if t not in ("bedrock", "bedrock+anthropic")))
def bedrock_family_strict(target, tool):
    """No `toolSpec.strict` for a model family without strict tool use.

    Bedrock structured outputs (`strict` on a tool) is documented for "Anthropic: Claude
    Haiku 4.5, Claude Sonnet 4.5, Claude Opus 4.5, Claude Opus 4.6" and "select" open-weight
    models (langchain-ai/langchain-aws#883); no other family documents which of its models
    enforce it, so a tool written for one holds no `strict` (src/formats/bedrock/families.rs).
    Checked 2026-11-28.
    """
    spec = tool.get("toolSpec") if isinstance(tool, dict) else None
    if isinstance(spec, dict) and "strict" in spec:
        yield ptr("toolSpec", "strict"), f"strict for {target.partition('+')[2]} models"


# ---------------------------------------------------------------------------------------------
# The SDK types.

_OPENAI_CHAT = openai.types.chat.ChatCompletionFunctionToolParam
_OPENAI_RESPONSES = openai.types.responses.FunctionToolParam
_ANTHROPIC = anthropic.types.ToolParam

_ADAPTERS = {
    "openai": ("ChatCompletionToolParam", TypeAdapter(_OPENAI_CHAT), _OPENAI_CHAT),
    "openai-responses": ("FunctionToolParam", TypeAdapter(_OPENAI_RESPONSES), _OPENAI_RESPONSES),
    "anthropic": ("ToolParam", TypeAdapter(_ANTHROPIC), _ANTHROPIC),
}


def _typeddict_of(hint: Any) -> type | None:
    """The TypedDict a (possibly Required/Optional-wrapped) hint names, if any."""
    while typing.get_origin(hint) in (typing.Required, typing.NotRequired, typing.Annotated):
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) is typing.Union:
        # Only an optional TypedDict: a union that also admits a plain dict (Anthropic's
        # `input_schema`) declares no closed set of members.
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 and typing_extensions.is_typeddict(args[0]) else None
    return hint if typing_extensions.is_typeddict(hint) else None


@functools.cache
def _hints(td: type) -> dict[str, Any]:
    return typing.get_type_hints(td, include_extras=True)


def unknown_members(td: type, value: Any, at: str) -> Iterator[tuple[str, str]]:
    """Members of `value` that the TypedDict `td` (and the TypedDicts of its members) does not
    declare. pydantic ignores extra keys of a TypedDict, the APIs do not: OpenAI answers
    "Unknown parameter: 'tool_choice'." (openai/openai-agents-python#467, 2025-04-10),
    Anthropic "messages.1.content.1.tool_use.index: Extra inputs are not permitted"
    (langchain-ai/langchain#31208, 2025-05-13). Checked 2026-11-26."""
    if not isinstance(value, dict):
        return
    hints = _hints(td)
    for key, sub in value.items():
        if key not in hints:
            yield f"{at}{ptr(key)}", f"{key!r} is not a member of {td.__name__}"
            continue
        inner = _typeddict_of(hints[key])
        if inner is not None:
            yield from unknown_members(inner, sub, f"{at}{ptr(key)}")


def _pydantic_problems(type_name: str, err: ValidationError, skip: int = 0) -> list[Problem]:
    out = []
    for e in err.errors():
        loc = e.get("loc", ())[skip:]
        out.append((f"sdk-{type_name}:{e.get('type')}", ptr(*loc), str(e.get("msg"))[:200]))
    return out


def sdk_problems(target: str, tool: Any) -> list[Problem]:
    """What the provider SDK's own types say of one written tool."""
    if target in _ADAPTERS:
        type_name, adapter, td = _ADAPTERS[target]
        try:
            adapter.validate_python(tool)
        except ValidationError as err:
            return _pydantic_problems(type_name, err)
        return [(f"sdk-{type_name}:unknown-member", p, d) for p, d in unknown_members(td, tool, "")]
    if target in GEMINI:
        # One declaration inside a `types.Tool`: validates `FunctionDeclaration` and `Schema`
        # (both `extra="forbid"`) and the `Tool` wrapper. The SDK reads an unknown `type` with
        # a warning instead of an error; the API refuses it ("Invalid value at
        # '…parameters.properties[7].value.type' (type.googleapis.com/google.ai.
        # generativelanguage.v1beta.Type)", zereight/gitlab-mcp#166), so a warning counts.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                genai_types.Tool.model_validate({"functionDeclarations": [tool]})
            except ValidationError as err:
                return _pydantic_problems("Tool", err, skip=2)
        return [
            ("sdk-Schema:invalid-value-warning", "", str(w.message)[:200])
            for w in caught
            if "is not a valid" in str(w.message)
        ]
    if target in _MODELS:
        type_name, model = _MODELS[target]
        try:
            model.model_validate(tool)
        except ValidationError as err:
            return _pydantic_problems(type_name, err)
        return []
    if target == "xai":
        return _xai_problems(tool)
    if target in BEDROCK:
        report = ParamValidator().validate(tool, _BEDROCK_TOOL)
        if report.has_errors():
            return [("sdk-botocore.Tool:invalid", "", report.generate_report()[:200])]
        return []
    if target == "vertex":
        return _vertex_mode_problems({"functionDeclarations": [tool]})
    raise ValueError(f"unknown target {target}")


# The SDK types that are pydantic models: `model_validate` refuses what the type cannot hold.
# Mistral's, Cohere's and Ollama's ignore (Cohere's send) members they do not declare.
_MODELS = {
    "mcp": ("mcp.Tool", mcp.types.Tool),
    "mistral": ("mistralai.Tool", mistralai.client.models.Tool),
    "cohere": ("cohere.ToolV2", cohere.types.ToolV2),
    "ollama": ("ollama.Tool", ollama.Tool),
}

# Bedrock's SDK type: the Converse `Tool` union of botocore's service model, checked by
# botocore's own parameter validator (what boto3 runs before sending a request).
_BEDROCK_TOOL = _BEDROCK_MODEL.shape_for("Tool")

_XAI_MEMBERS = ("type", "function")


def _xai_problems(tool: Any) -> list[Problem]:
    """What xAI's SDK type says of one written tool. xai-sdk (1.21.0) sends tools as the
    protobuf `chat.Tool`, its function a `Function { name, description, strict, parameters }`
    whose `parameters` is the JSON Schema as text (`xai_sdk.chat.tool(name, description,
    parameters)` builds one from a dict); the REST endpoint takes the same function in
    OpenAI's wrapper. So: the wrapper holds `type: "function"` and `function` only, and the
    function, `parameters` as text, parses into the protobuf (which refuses unknown fields
    and wrong types)."""
    if not isinstance(tool, dict):
        return [("sdk-xai.Tool:not-an-object", "", type(tool).__name__)]
    problems = [
        ("sdk-xai.Tool:unknown-member", ptr(key), f"{key!r} is not a member of the tool")
        for key in tool
        if key not in _XAI_MEMBERS
    ]
    if tool.get("type") != "function":
        problems.append(("sdk-xai.Tool:type", ptr("type"), f"{tool.get('type')!r}"))
    fn = tool.get("function")
    if not isinstance(fn, dict):
        return [*problems, ("sdk-xai.Function:missing", ptr("function"), "no function object")]
    message = dict(fn)
    if "parameters" in message:
        message["parameters"] = json.dumps(message["parameters"])
    try:
        json_format.ParseDict({"function": message}, xai_chat.Tool())
    except json_format.ParseError as err:
        problems.append(("sdk-xai.Function:parse", ptr("function"), str(err)[:200]))
    return problems


def _vertex_mode_problems(element: dict) -> list[Problem]:
    """What google-genai's Vertex AI mode adds to its types, for one `Tool`: the request is
    built by `models._Tool_to_vertex` instead of `_Tool_to_mldev` (google-genai 3.6.1). That
    converter refuses members only the Gemini API has ("file_search parameter is only
    supported in Gemini Developer API mode, not in Gemini Enterprise Agent Platform mode.")
    and passes `functionDeclarations` through unchanged, so a declaration is held to the same
    `FunctionDeclaration` and `Schema` types as on the Gemini API (checked by the Gemini
    rules). A `Tool` the types refuse is reported by those. Checked 2026-11-28."""
    try:
        genai_models._Tool_to_vertex(genai_types.Tool.model_validate(element))
    except ValidationError:
        return []
    except ValueError as err:
        return [("sdk-Tool:vertex-mode", "", str(err)[:200])]
    return []


def rules_for(target: str) -> list[Rule]:
    """The API rules that apply to a target."""
    return [r for r in RULES if target in r.targets]


def check(target: str, tool: Any) -> list[Problem]:
    """Every problem of one written tool: the SDK types first, then the API rules (a Gemini
    declaration's by its schema field: `field_target`; a Vertex AI one's as the Gemini API's,
    and what Vertex mode adds)."""
    if target == "vertex":
        return check(field_target("gemini", tool), tool) + sdk_problems("vertex", tool)
    target = field_target(target, tool)
    problems = sdk_problems(target, tool)
    strict = is_strict(target, tool)
    for r in rules_for(target):
        if r.strict_only and not strict:
            continue
        problems.extend((r.id, p, d) for p, d in r.find(target, tool))
    return problems


# ---------------------------------------------------------------------------------------------
# One element of a request's `tools` list, as the provider's API reads it: a function tool
# (checked as above), a provider built-in (the SDK's union type for the list's elements), an
# OpenAI Responses `namespace` (its type, and each function inside it by the API rules), a
# Gemini `Tool` (its wrapper, then each declaration).

_CHAT_UNION = TypeAdapter(openai.types.chat.ChatCompletionToolUnionParam)
_RESPONSES_UNION = TypeAdapter(openai.types.responses.ToolParam)
# Server tools behind a beta header (the advisor, `advisor_20260301`) are typed in the SDK's
# beta module only, whose union holds every server tool of the stable one as well.
_ANTHROPIC_UNION = TypeAdapter(anthropic.types.beta.BetaToolUnionParam)
_NAMESPACE = TypeAdapter(openai.types.responses.NamespaceToolParam)


def _union_problems(name: str, adapter: TypeAdapter, element: Any) -> list[Problem]:
    try:
        adapter.validate_python(element)
    except ValidationError as err:
        return _pydantic_problems(name, err)
    return []


def check_element(target: str, element: Any) -> list[Problem]:
    """Every problem of one element of a request's `tools` list sent to `target`."""
    if not isinstance(element, dict):
        return [("sdk-element:not-an-object", "", type(element).__name__)]
    if target in (*GEMINI, "vertex"):
        problems = []
        decls = [
            d
            for key in ("functionDeclarations", "function_declarations")
            for d in (element.get(key) or [])
        ]
        others = {k: v for k, v in element.items() if k not in ("functionDeclarations", "function_declarations")}
        if others:
            try:
                genai_types.Tool.model_validate(others)
            except ValidationError as err:
                problems += _pydantic_problems("Tool", err)
            if target == "vertex":
                problems += _vertex_mode_problems(others)
        for i, decl in enumerate(decls):
            problems += [(r, f"/functionDeclarations/{i}{p}", d) for r, p, d in check(target, decl)]
        return problems
    kind = element.get("type")
    if target == "openai":
        if kind == "function":
            return check(target, element)
        return _union_problems("ChatCompletionToolUnionParam", _CHAT_UNION, element)
    if target == "openai-responses":
        if kind == "function":
            return check(target, element)
        if kind == "namespace":
            problems = _union_problems("NamespaceToolParam", _NAMESPACE, element)
            for i, fn in enumerate(element.get("tools") or []):
                if isinstance(fn, dict) and fn.get("type") == "function":
                    for r in rules_for(target):
                        if r.strict_only and not is_strict(target, fn):
                            continue
                        problems += [(r.id, f"/tools/{i}{p}", d) for p, d in r.find(target, fn)]
            return problems
        return _union_problems("ToolParam", _RESPONSES_UNION, element)
    if target == "anthropic":
        if kind in (None, "custom") or "input_schema" in element:
            return check(target, element)
        return _union_problems("BetaToolUnionParam", _ANTHROPIC_UNION, element)
    return check(target, element)
