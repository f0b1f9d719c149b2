"""Typed use of the package, checked by `mypy --strict` (test_typing.py): the stubs, the
`Literal` names and the `TypedDict`s as a user's code meets them."""

from typing import List, Optional

import tooladapter as ta
from tooladapter.types import FormatInfo, FormatName, ReportEntryDict


def convert_catalog(text: bytes, to: FormatName = "openai") -> Optional[bytes]:
    conversion = ta.convert(text, "mcp", to, strict=True, errors="skip", deny_loss="widens", max_depth=64)
    strict: List[bool] = conversion.strict_applied
    if not all(strict):
        return None
    return conversion.output


def entries(text: str, to: str) -> List[ReportEntryDict]:
    found = ta.check(text, from_="mcp", to=to, profile="default", operations=None)
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
