"""Types of the package's arguments and outputs, for type checkers and editors.

``FormatName`` and the other ``Literal`` aliases list the names the package knows; every
argument typed with one also takes a plain ``str`` (names are case-insensitive, and a name the
crate adds works without a new package). The ``TypedDict`` classes describe the dicts the
package returns: ``formats()`` entries and ``ReportEntry.to_dict()``.
"""

from typing import Literal, Optional, TypedDict, Union

FormatName = Literal[
    "mcp",
    "openai",
    "openai-responses",
    "anthropic",
    "bedrock",
    "gemini",
    "gemini-json",
    "langchain",
    "a2a",
    "mistral",
    "ollama",
    "xai",
    "cohere",
    "vertex",
    "openapi",
]
"""A built-in format (``openapi`` is a source only)."""

TargetName = Literal[
    "mcp",
    "openai",
    "openai-responses",
    "anthropic",
    "bedrock",
    "gemini",
    "gemini-json",
    "langchain",
    "a2a",
    "mistral",
    "ollama",
    "xai",
    "cohere",
    "vertex",
]
"""A built-in format that can be written."""

StrictMode = Literal["source", "on", "require", "off"]
"""``strict=`` by name (``True`` is ``"on"``, ``False`` is ``"off"``)."""

ProfileName = Literal["default", "toolfoundation"]
"""``profile=``: each provider's documented rules, or the Go toolfoundation library's."""

ErrorsMode = Literal["raise", "report", "skip"]
"""``errors=``: what a tool that cannot be written becomes."""

DenyLossRule = Literal["any", "widens", "narrows"]
"""``deny_loss=``: which losses raise (the crate's names; any it adds work too)."""

SeverityName = Literal["info", "warning", "error"]
"""``ReportEntry.severity``."""

EffectName = Literal["none", "narrows", "widens", "changes"]
"""``ReportEntry.effect``: what the entry's change does to the calls the tool accepts."""


class FormatInfo(TypedDict):
    """One entry of ``formats()``."""

    name: str
    reads: bool
    writes: bool
    strict: bool


class ReportEntryDict(TypedDict):
    """``ReportEntry.to_dict()``: the entry's fields, the constructor's keyword arguments."""

    tool: str
    severity: SeverityName
    code: str
    effect: EffectName
    arguments: bool
    feature: str
    pointer: str
    tool_pointer: str
    output_pointer: Optional[str]
    index: Optional[int]
    from_format: str
    to_format: str
    message: str


Names = Union[FormatName, str]
"""A format's name: one of ``FormatName``, in any case."""

__all__ = [
    "DenyLossRule",
    "EffectName",
    "ErrorsMode",
    "FormatInfo",
    "FormatName",
    "Names",
    "ProfileName",
    "ReportEntryDict",
    "SeverityName",
    "StrictMode",
    "TargetName",
]


TrafficKindName = Literal["calls", "results", "messages", "response"]
"""``convert_traffic(kind=...)`` and ``TrafficConversion.kind``."""

TrafficFormatName = Literal["mcp", "openai", "openai-responses", "anthropic", "bedrock", "gemini"]
"""The formats that speak tool traffic (MCP holds calls and results only; streams: all but MCP)."""

MapDirectionName = Literal["back", "forward"]
"""``convert_traffic(direction=...)``: calls coming back to the map's source, or history
replayed forward to its target."""

EventsName = Literal["sse", "json"]
"""``StreamTranscoder(events=...)``: the target's wire text, or one event object per line."""


class _IdPair(TypedDict):
    original: str
    written: str


class IdPairDict(_IdPair, total=False):
    """One entry of ``TrafficConversion.ids``: the id written for a call, the id it replaced
    (empty when the source had none) and the tool called (absent for a result's id)."""

    name: str
