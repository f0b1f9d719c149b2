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
