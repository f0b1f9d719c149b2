"""Convert LLM tool definitions between MCP, OpenAI, Anthropic, Gemini, Bedrock, LangChain and A2A.

The conversion runs in Rust (the ``tooladapter`` crate) with the GIL released; the report says
what changed in what each tool accepts. See ``python/README.md`` for the API.
"""

from ._tooladapter import (
    Conversion,
    ConversionError,
    Converter,
    Inverse,
    LimitError,
    ParseError,
    ReportEntry,
    check,
    convert,
    formats,
)

__all__ = [
    "Conversion",
    "ConversionError",
    "Converter",
    "Inverse",
    "LimitError",
    "ParseError",
    "ReportEntry",
    "check",
    "convert",
    "formats",
]
