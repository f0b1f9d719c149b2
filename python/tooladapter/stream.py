"""A model's streamed answer transcoded from one provider's stream to another's, from an async
generator: ``StreamTranscoder.push`` runs without the GIL and returns at once with what the
chunk completed, so it is called straight from the event loop.
"""

from typing import AsyncIterable, AsyncIterator, Optional, Union

from ._tooladapter import Inverse, StreamTranscoder
from .types import EventsName, MapDirectionName


async def transcode(
    chunks: AsyncIterable[Union[bytes, str]],
    from_: str,
    to: str,
    *,
    events: EventsName = "sse",
    map: Optional[Inverse] = None,
    direction: Optional[MapDirectionName] = None,
) -> AsyncIterator[bytes]:
    """The target's bytes for ``chunks`` (the source stream's bytes, split anywhere), each
    yielded as soon as a chunk completes it (empty pieces are not yielded)."""
    transcoder = StreamTranscoder(from_, to, events=events, map=map, direction=direction)
    async for chunk in chunks:
        out = transcoder.push(chunk)
        if out:
            yield out
    rest = transcoder.finish()
    if rest:
        yield rest


__all__ = ["StreamTranscoder", "transcode"]
