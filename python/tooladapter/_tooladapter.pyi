"""Type stubs of the extension module (the names re-exported by ``tooladapter``)."""

from typing import Any, List, Literal, Mapping, Optional, Sequence, Tuple, Union

from .types import (
    DenyLossRule,
    EffectName,
    ErrorsMode,
    EventsName,
    IdPairDict,
    MapDirectionName,
    TrafficFormatName,
    TrafficKindName,
    FormatInfo,
    FormatName,
    ProfileName,
    ReportEntryDict,
    SeverityName,
    StrictMode,
    TargetName,
)

__version__: str
"""The package's version (the crate's)."""

class _Model:
    """Anything with pydantic's ``model_dump`` (an ``mcp.types.Tool``, ``ListToolsResult``,
    an SDK's param model): read as ``model_dump(by_alias=True, exclude_none=True)``."""

    def model_dump(self, *, by_alias: bool = ..., exclude_none: bool = ...) -> Any: ...

Tools = Union[bytes, bytearray, memoryview, str, Mapping[str, Any], Sequence[Any], _Model]
"""A tool or a catalog: JSON text (bytes, bytearray, memoryview or str), Python data (dicts and
lists, pydantic models anywhere in them), or a pydantic model."""

Strict = Union[None, bool, StrictMode]
"""None follows each source tool; True makes every tool strict (a tool that cannot be is
written with strict false and a warning); "require" makes that an error; False (or "off")
writes every tool with strict false."""

Source = Union[FormatName, Literal["auto"], str]
"""A source format's name, in any case; ``"auto"`` tells it from the input (refusing input
that fits formats of more than one family equally)."""

Target = Union[TargetName, str]
"""A target format's name, in any case."""

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
    ``not-convertible`` (a tool left out), ``loss-denied``, ``unknown-format``,
    ``invalid-options``, …"""
    report: Optional[List[ReportEntry]]
    """The conversion's entries when it ran to the end and the error model raised (a tool
    left out, a loss ``deny_loss`` denies); None otherwise."""

class ParseError(ConversionError):
    """The input is not well-formed JSON (``kind`` is ``json``, ``invalid-utf8``,
    ``empty-input``, ``lone-surrogate`` or ``duplicate-key``)."""

class LimitError(ConversionError):
    """A safety limit stopped the conversion (``input-too-large``, ``depth-limit``,
    ``arena-limit``, ``ref-expansion``, ``output-too-large``, ``import-too-large``)."""

class LeftOutWarning(UserWarning):
    """Issued by ``errors="report"`` when a conversion left tools out."""

class ReportEntry:
    """One report entry: what changed in one tool, how much it matters, and where.

    Entries are equal when their fields are, hashable and picklable."""

    tool: str
    severity: SeverityName
    code: str
    effect: EffectName
    arguments: bool
    feature: str
    pointer: str
    """The place in the input document (``/tools/3/inputSchema/…``; the tool's own pointer
    for a single tool)."""
    tool_pointer: str
    """The same place in the tool (``/inputSchema/…``)."""
    output_pointer: Optional[str]
    """Where the place went in the converted schema, when the source has no such place."""
    index: Optional[int]
    """The tool's place among the document's tools (0-based, the tools left out counted; 0
    for a single tool); None for an entry about the catalog as a whole."""
    from_format: str
    to_format: str
    message: str

    def __init__(
        self,
        tool: str,
        severity: SeverityName,
        code: str,
        effect: EffectName,
        arguments: bool,
        feature: str,
        pointer: str,
        tool_pointer: str,
        output_pointer: Optional[str],
        index: Optional[int],
        from_format: str,
        to_format: str,
        message: str,
    ) -> None: ...
    def to_dict(self) -> ReportEntryDict:
        """The fields as a dict (the constructor's keyword arguments)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

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
        """The converted document, UTF-8 JSON (empty when a lone tool was left out)."""
    @property
    def tools(self) -> Any:
        """The converted document as Python data (built on first access, then kept); None
        when a lone tool was left out."""
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
    def strict_applied(self) -> List[bool]:
        """For each tool written, in output order, whether it is written strict."""
    @property
    def is_catalog(self) -> bool:
        """Whether the input was a catalog (else a single tool)."""
    @property
    def from_format(self) -> str:
        """The source format's name: as given, or the one ``from_="auto"`` found."""

class Converter:
    """A reusable converter for hot paths: its buffers are kept between calls."""

    def __init__(self) -> None: ...
    def convert(
        self,
        tools: Tools,
        from_: Source = "mcp",
        to: Target = "openai",
        *,
        strict: Strict = None,
        policy: Optional[Mapping[str, str]] = None,
        profile: Optional[ProfileName] = None,
        dated_limits: bool = False,
        errors: Optional[ErrorsMode] = None,
        deny_loss: Union[None, DenyLossRule, str] = None,
        max_depth: Optional[int] = None,
        max_ref_expansion: Optional[int] = None,
        unroll_recursion: int = 0,
        operations: Optional[Sequence[str]] = None,
        share: bool = False,
    ) -> Conversion:
        """As :func:`convert`, on this converter's buffers."""

def convert(
    tools: Tools,
    from_: Source = "mcp",
    to: Target = "openai",
    *,
    strict: Strict = None,
    policy: Optional[Mapping[str, str]] = None,
    profile: Optional[ProfileName] = None,
    dated_limits: bool = False,
    errors: Optional[ErrorsMode] = None,
    deny_loss: Union[None, DenyLossRule, str] = None,
    max_depth: Optional[int] = None,
    max_ref_expansion: Optional[int] = None,
    unroll_recursion: int = 0,
    operations: Optional[Sequence[str]] = None,
    share: bool = False,
) -> Conversion:
    """Converts a tool or a catalog from one format to another.

    ``policy`` maps a keyword (``"pattern"``, or ``"unknown-keyword"``) to an action
    (``keep``, ``rewrite``, ``describe``, ``drop``, ``reject``). Format names are case-insensitive.
    ``dated_limits`` obeys the target's limits whose enforcement changed over time.
    ``errors``: a tool that cannot be written raises (``"raise"``), is left out with its
    ``error`` entry and a :class:`LeftOutWarning` (``"report"``), or silently (``"skip"``);
    by default only when nothing could be written does it raise (any tool, with
    ``strict="require"``). ``deny_loss`` raises (``kind`` ``loss-denied``) on a loss the rule
    denies. ``max_depth`` and ``max_ref_expansion`` set the limits, ``unroll_recursion``
    unrolls recursive ``$ref`` s for targets without refs, ``operations`` selects OpenAPI
    operations by glob. ``share=True`` puts the caller's own dicts and lists into
    ``Conversion.tools`` wherever the conversion wrote them unchanged (built at once; mutating
    one then mutates the other); by default every output object is new.
    Raises :class:`ConversionError` (or a subclass) when the input cannot be converted.
    """

def check(
    tools: Tools,
    from_: Optional[Source] = None,
    to: Optional[Target] = None,
    *,
    strict: Strict = None,
    profile: Optional[ProfileName] = None,
    max_depth: Optional[int] = None,
    max_ref_expansion: Optional[int] = None,
    unroll_recursion: int = 0,
    operations: Optional[Sequence[str]] = None,
) -> List[ReportEntry]:
    """What the ``to`` provider would reject, per tool (empty when it accepts every tool), as
    the CLI's ``check``: ``error`` entries and the dated limits' warnings. ``from_`` and ``to``
    in :func:`convert`'s order; either defaults to the other. ``from_="auto"`` tells the source
    as :func:`convert` does; alone, the tools are checked as they are in the format found."""

def formats() -> List[FormatInfo]:
    """The built-in formats: ``name``, ``reads``, ``writes``, ``strict``."""

Payload = Union[bytes, bytearray, memoryview, str, Mapping[str, Any], Sequence[Any], _Model]
"""A traffic payload: JSON text or Python data."""

class TrafficConversion:
    """The result of a traffic conversion."""

    @property
    def output(self) -> bytes:
        """The converted payload, UTF-8 JSON."""
    @property
    def payload(self) -> Any:
        """The converted payload as Python data (built on first access, then kept)."""
    @property
    def report(self) -> List[ReportEntry]:
        """Every report entry."""
    @property
    def kind(self) -> Optional[TrafficKindName]:
        """The payload's kind, as given or as told from its shape."""
    @property
    def ids(self) -> List[IdPairDict]:
        """The ids written for the calls (pass as ``ids=`` to a later conversion)."""

def convert_traffic(
    payload: Payload,
    from_: Union[TrafficFormatName, str],
    to: Union[TrafficFormatName, str],
    *,
    kind: Optional[TrafficKindName] = None,
    map: Optional[Inverse] = None,
    direction: Optional[MapDirectionName] = None,
    ids: Optional[Sequence[IdPairDict]] = None,
    deny_loss: Union[None, DenyLossRule, str] = None,
    max_depth: Optional[int] = None,
) -> TrafficConversion:
    """Converts tool traffic (calls, results, a conversation or a response) between
    providers: calls mapped through a definitions conversion's ``map`` (``Conversion.inverse``),
    ids made to obey the target's rule, what the target cannot carry reported. Raises
    :class:`ConversionError` (``kind`` ``loss-denied`` for a loss ``deny_loss`` denies)."""

class StreamTranscoder:
    """Transcodes one streamed model answer from one provider's stream to another's."""

    def __init__(
        self,
        from_: Union[TrafficFormatName, str],
        to: Union[TrafficFormatName, str],
        *,
        events: EventsName = "sse",
        map: Optional[Inverse] = None,
        direction: Optional[MapDirectionName] = None,
    ) -> None: ...
    def push(self, chunk: Union[bytes, bytearray, str]) -> bytes:
        """Reads ``chunk`` (any piece of the stream) and returns the target's bytes it
        completes; runs without the GIL."""
    def finish(self) -> bytes:
        """Ends the stream and returns the rest of the target's bytes."""
    @property
    def report(self) -> List[ReportEntry]:
        """What the stream has recorded so far."""
