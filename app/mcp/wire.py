"""Every request gets an answer, even one the SDK's parser refuses.

The SDK's stdio transport parses each line with pydantic, which rejects JSON that Python's
own parser accepts: a string holding an unpaired surrogate escape (``"\\ud800"``), ``NaN``.
It then hands the session the parse error, which has no request id to answer, and the
client waits for ever. :class:`AnsweringReadStream` sits between the transport and the
session: for such a line whose ``id`` can still be read, it answers a JSON-RPC error
itself, saying what is wrong; the session never sees the line.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_PARAMS, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

log = logging.getLogger("memory_tui.mcp")

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def refusal(line: str) -> JSONRPCError | None:
    """The error answering ``line``, a message the SDK could not parse; None when it has
    no request id to answer (a notification, or not JSON at all)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    if _has_lone_surrogate(request_id):
        return None  # an id the reply could not carry
    if _has_lone_surrogate(message):
        error = ErrorData(
            code=INVALID_PARAMS,
            message="the request holds a string with an unpaired surrogate (an invalid "
            "\\ud800-\\udfff escape): send valid UTF-8 text; nothing was done",
        )
    else:
        error = ErrorData(code=PARSE_ERROR, message="the request is not valid JSON-RPC JSON")
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


class AnsweringReadStream:
    """The transport's read stream, answering the lines its parser refused (see module)."""

    def __init__(
        self,
        inner: ReadStream[SessionMessage | Exception],
        write: WriteStream[SessionMessage],
    ) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> object:
        """The sender's context of the last item (the SDK reads it when present)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        """The next message the session should handle."""
        while True:
            item = await self._inner.receive()
            line = _refused_line(item)
            if line is None:
                return item
            error = refusal(line)
            if error is None:
                return item
            log.warning("answered an unparsable request (id %r): %s", error.id, error.error.message)
            await self._write.send(SessionMessage(error))

    async def aclose(self) -> None:
        """Close the transport's stream."""
        await self._inner.aclose()

    def __aiter__(self) -> AnsweringReadStream:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        from anyio import EndOfStream

        try:
            return await self.receive()
        except EndOfStream:
            raise StopAsyncIteration from None


def _refused_line(item: SessionMessage | Exception) -> str | None:
    """The raw line of a parse failure, when ``item`` is one."""
    if not isinstance(item, ValidationError):
        return None
    for err in item.errors():
        if err["type"] == "json_invalid" and isinstance(err.get("input"), str):
            return str(err["input"])
    return None
