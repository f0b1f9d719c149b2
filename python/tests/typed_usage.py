"""Typed use of the package, checked by `mypy --strict` (test_typing.py): the stubs, the
`Literal` names and the `TypedDict`s as a user's code meets them."""

from typing import AsyncIterator, List, Optional

import tooladapter as ta
from tooladapter.stream import transcode
from tooladapter.types import FormatInfo, FormatName, ReportEntryDict


def convert_catalog(text: bytes, to: FormatName = "openai") -> Optional[bytes]:
    conversion = ta.convert(text, "mcp", to, strict=True, errors="skip", deny_loss="widens", max_depth=64)
    strict: List[bool] = conversion.strict_applied
    if not all(strict):
        return None
    return conversion.output


def entries(text: str, to: str) -> List[ReportEntryDict]:
    found = ta.check(text, from_="mcp", to=to, profile="default", operations=None)
    found += ta.check(text, "auto")
    dicts = [e.to_dict() for e in found]
    index: Optional[int] = dicts[0]["index"] if dicts else None
    _ = index
    return dicts


def names() -> List[str]:
    infos: List[FormatInfo] = ta.formats()
    return [f["name"] for f in infos if f["writes"]]


def rebuilt(entry: ta.ReportEntry) -> bool:
    return ta.ReportEntry(**entry.to_dict()) == entry and entry.tool_pointer.startswith("/")


def model_input(tool: object) -> int:
    try:
        return ta.Converter().convert(memoryview(b"{}"), errors="raise").tools_written
    except ta.ConversionError as e:
        report = e.report or []
        return len(report)


print(ta.__version__)


async def traffic_use(chunks: AsyncIterator[bytes]) -> None:
    out = ta.convert_traffic(b"{}", "openai", "anthropic", kind="calls", direction="back")
    kind: Optional[str] = out.kind
    ids = out.ids
    again = ta.convert_traffic(out.payload, "anthropic", "openai", ids=ids)
    print(kind, again.output, ta.convert(b"{}", "auto", "mcp", share=True).from_format)
    t = ta.StreamTranscoder("openai", "gemini", events="json")
    piece: bytes = t.push(b"data: {}\n\n") + t.finish()
    async for part in transcode(chunks, "openai", "anthropic"):
        piece += part
    tools = await ta.mcp.to_openai(object())
    print(piece, tools, [e.code for e in t.report])
