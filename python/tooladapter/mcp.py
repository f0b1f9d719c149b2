"""One-liners for an ``mcp`` client: a server's tools, listed and converted.

``await tooladapter.mcp.to_openai(session)`` lists the tools of an ``mcp`` ``ClientSession``
(every page, following ``nextCursor``) and returns them as OpenAI Chat tools; a
``ListToolsResult`` (or a list of ``Tool`` models, or anything :func:`tooladapter.convert`
reads) is converted as it is. The package does not depend on ``mcp``: a session is anything
with an async ``list_tools``.
"""

import inspect
from typing import Any, Dict, List, Optional

from ._tooladapter import Conversion, convert


async def list_all_tools(session: Any) -> List[Any]:
    """Every tool the session's server lists: ``list_tools`` called page by page until a
    result has no ``nextCursor``."""
    tools: List[Any] = []
    cursor: Optional[str] = None
    while True:
        result = await (session.list_tools(**_page(session, cursor)) if cursor else session.list_tools())
        tools.extend(getattr(result, "tools", None) or [])
        cursor = getattr(result, "next_cursor", None) or getattr(result, "nextCursor", None)
        if not cursor:
            return tools


def _page(session: Any, cursor: str) -> Dict[str, Any]:
    """The keyword that asks ``session.list_tools`` for the page at ``cursor``: ``params``
    (``PaginatedRequestParams``) in the SDK since 2.x, ``cursor`` before."""
    if "params" in inspect.signature(session.list_tools).parameters:
        from mcp.types import PaginatedRequestParams

        return {"params": PaginatedRequestParams(cursor=cursor)}
    return {"cursor": cursor}


async def convert_tools(source: Any, to: str, **options: Any) -> Conversion:
    """The tools of ``source`` (a session, read with :func:`list_all_tools`, or tools as
    :func:`tooladapter.convert` reads them) converted from MCP to ``to``, with the report."""
    if hasattr(source, "list_tools") and callable(source.list_tools):
        source = {"tools": await list_all_tools(source)}
    return convert(source, "mcp", to, **options)


async def to_openai(source: Any, **options: Any) -> Any:
    """The tools of ``source`` as OpenAI Chat Completions tools (a list of
    ``{"type": "function", "function": {...}}``)."""
    return (await convert_tools(source, "openai", **options)).tools


async def to_openai_responses(source: Any, **options: Any) -> Any:
    """The tools of ``source`` as OpenAI Responses tools."""
    return (await convert_tools(source, "openai-responses", **options)).tools


async def to_anthropic(source: Any, **options: Any) -> Any:
    """The tools of ``source`` as Anthropic Messages tools."""
    return (await convert_tools(source, "anthropic", **options)).tools


async def to_gemini(source: Any, **options: Any) -> Any:
    """The tools of ``source`` as a Gemini ``Tool`` (``{"functionDeclarations": [...]}``)."""
    return (await convert_tools(source, "gemini", **options)).tools


__all__ = ["convert_tools", "list_all_tools", "to_anthropic", "to_gemini", "to_openai", "to_openai_responses"]
