"""Convert LLM tool definitions between MCP, OpenAI, Anthropic, Gemini, Bedrock, LangChain and A2A.

The conversion runs in Rust (the ``tooladapter`` crate) with the GIL released; the report says
what changed in what each tool accepts. See ``python/README.md`` for the API.
"""

from ._tooladapter import (
    Conversion,
    ConversionError,
    Converter,
    Inverse,
    LeftOutWarning,
    LimitError,
    ParseError,
    ReportEntry,
    StreamTranscoder,
    TrafficConversion,
    __version__,
    check,
    convert,
    convert_traffic,
    formats,
)
from . import mcp, stream
from .types import FormatInfo, ReportEntryDict

__all__ = [
    "Conversion",
    "ConversionError",
    "Converter",
    "FormatInfo",
    "Inverse",
    "LeftOutWarning",
    "LimitError",
    "ParseError",
    "ReportEntry",
    "ReportEntryDict",
    "StreamTranscoder",
    "TrafficConversion",
    "__version__",
    "check",
    "convert",
    "convert_traffic",
    "formats",
    "mcp",
    "stream",
]
