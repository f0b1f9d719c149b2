"""Type stubs of the extension module (the names re-exported by ``tooladapter``)."""

from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union

Tools = Union[bytes, str, Dict[str, Any], List[Any]]
"""A tool or a catalog: JSON text (bytes or str) or plain Python data (dicts and lists)."""

Strict = Union[None, bool, Literal["source", "on", "require", "off"]]
"""None follows each source tool; True makes every tool strict (a tool that cannot be is
written with strict false and a warning); "require" makes that an error; False (or "off")
writes every tool with strict false."""

class ConversionError(ValueError):
    """A conversion failed."""

    adapter: Optional[str]
    """The format whose adapter failed (None for an unknown format or option)."""
    direction: Optional[str]
    """``"to_canonical"`` (reading) or ``"from_canonical"`` (writing)."""
    pointer: str
    """RFC 6901 pointer to the bad place in the input (``""`` for the root)."""
    tool: Optional[str]
    """The tool the error happened in, when known."""
    kind: str
    """The cause's stable name: ``json``, ``missing-member``, ``input-too-large``,
    ``unknown-format``, ``invalid-options``, …"""

class ParseError(ConversionError):
    """The input is not well-formed JSON (``kind`` is ``json``, ``invalid-utf8``,
    ``empty-input``, ``lone-surrogate`` or ``duplicate-key``)."""

class LimitError(ConversionError):
    """A safety limit stopped the conversion (``input-too-large``, ``depth-limit``,
    ``arena-limit``, ``ref-expansion``, ``output-too-large``, ``import-too-large``)."""

class ReportEntry:
    """One report entry: what changed in one tool, how much it matters, and where."""

    tool: str
    severity: Literal["info", "warning", "error"]
    code: str
    effect: Literal["none", "narrows", "widens", "changes"]
    arguments: bool
    feature: str
    pointer: str
    from_format: str
    to_format: str
    message: str

class Inverse:
    """Maps a model's calls of the converted tools back to the source tools."""

    def unmap(self, name: str, arguments: Union[Mapping[str, Any], str]) -> Tuple[str, Any]:
        """``(source_name, source_arguments)`` for a call of the converted tool ``name``."""
    def is_empty(self) -> bool:
        """Whether nothing needs mapping back."""
    def to_json(self) -> str:
        """The map as JSON text, the file ``tooladapter unmap --map`` reads."""

class Conversion:
    """The result of a conversion."""

    @property
    def output(self) -> bytes:
        """The converted document, UTF-8 JSON."""
    @property
    def tools(self) -> Any:
        """The converted document as Python data (built on first access, then kept)."""
    @property
    def report(self) -> List[ReportEntry]:
        """Every report entry, in source order."""
    @property
    def warnings(self) -> List[ReportEntry]:
        """The entries at warning or above."""
    @property
    def inverse(self) -> Inverse:
        """The map from calls of the converted tools back to the source tools."""
    @property
    def tools_written(self) -> int:
        """How many tools were written."""
    @property
    def is_catalog(self) -> bool:
        """Whether the input was a catalog (else a single tool)."""

class Converter:
    """A reusable converter for hot paths: its buffers are kept between calls."""

    def __init__(self) -> None: ...
    def convert(
        self,
        tools: Tools,
        from_: str = "mcp",
        to: str = "openai",
        *,
        strict: Strict = None,
        policy: Optional[Mapping[str, str]] = None,
        profile: Optional[Literal["default", "toolfoundation"]] = None,
        dated_limits: bool = False,
    ) -> Conversion:
        """As :func:`convert`, on this converter's buffers."""

def convert(
    tools: Tools,
    from_: str = "mcp",
    to: str = "openai",
    *,
    strict: Strict = None,
    policy: Optional[Mapping[str, str]] = None,
    profile: Optional[Literal["default", "toolfoundation"]] = None,
    dated_limits: bool = False,
) -> Conversion:
    """Converts a tool or a catalog from one format to another.

    ``policy`` maps a keyword (``"pattern"``, or ``"unknown-keyword"``) to an action
    (``keep``, ``rewrite``, ``describe``, ``drop``, ``reject``). Format names are case-insensitive.
    ``dated_limits`` obeys the target's limits whose enforcement changed over time (OpenAI's
    1,024-character description, since lifted, is cut with a ``dated-limit`` warning; more than
    128 tools is an error entry about the request); without it ``check`` reports them.
    Raises :class:`ConversionError` (or a subclass) when the input cannot be converted.
    """

def check(
    tools: Tools,
    to: str,
    from_: Optional[str] = None,
    *,
    strict: Strict = None,
    profile: Optional[Literal["default", "toolfoundation"]] = None,
) -> List[ReportEntry]:
    """What the ``to`` provider would reject, per tool (empty when it accepts every tool)."""

def formats() -> List[Dict[str, Any]]:
    """The built-in formats: ``name``, ``reads``, ``writes``, ``strict``."""
