"""Tool results and tool errors: every failure becomes ``isError`` with a stable code.

An error result's text is JSON: ``{"error": message, "code": CODE, "recoverable": bool, ...}``
(the shape of the original design). The codes are those of :mod:`engine.core.errors`
(``INVALID_INPUT``, ``CONTENT_TOO_LONG``, ``SECRET_DETECTED``, ``NOT_FOUND``,
``CONFIG_INVALID``, ``STORAGE_ERROR``, ``STORAGE_BUSY``) plus ``UNKNOWN_TOOL`` and
``INTERNAL_ERROR``. Messages tell the model what to change; tracebacks stay in the log.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from engine import MAX_CONTENT_LENGTH, ContentTooLongError, EngineError

log = logging.getLogger("memory_tui.mcp")

UNKNOWN_TOOL = "UNKNOWN_TOOL"
INTERNAL_ERROR = "INTERNAL_ERROR"
INVALID_INPUT = "INVALID_INPUT"
CONTENT_TOO_LONG = "CONTENT_TOO_LONG"

_NOT_RECOVERABLE = {INTERNAL_ERROR, "STORAGE_ERROR"}
_HINTS = {
    "CONFIG_INVALID": "Ask the user to fix the project's .claude/memory.config.toml; "
    "the server reads it again on the next call.",
    "STORAGE_BUSY": "Another process is writing to the memory; retry in a few seconds.",
    "STORAGE_ERROR": "The memory files could not be read or written; tell the user "
    "(`memory-tui doctor` reports what is wrong and what to run).",
}


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


def success(payload: dict[str, Any]) -> CallToolResult:
    """A successful tool result: JSON text plus the same data as structured content."""
    return CallToolResult(content=[TextContent(text=_dumps(payload))], structured_content=payload)


def failure(code: str, message: str, **details: Any) -> CallToolResult:
    """A tool error the model can read and act on."""
    payload: dict[str, Any] = {
        "error": message,
        "code": code,
        "recoverable": code not in _NOT_RECOVERABLE,
    }
    if code in _HINTS:
        payload["hint"] = _HINTS[code]
    payload.update(details)
    return CallToolResult(content=[TextContent(text=_dumps(payload))], is_error=True)


def engine_failure(exc: EngineError) -> CallToolResult:
    """The tool error for an error the engine raised on purpose."""
    if isinstance(exc, ContentTooLongError):
        return failure(exc.code, exc.message, maxLength=MAX_CONTENT_LENGTH)
    return failure(exc.code, exc.message)


def internal_failure(tool: str) -> CallToolResult:
    """The tool error for a bug or an unexpected failure (details only in the log)."""
    return failure(
        INTERNAL_ERROR,
        f"{tool} failed unexpectedly; the details are in .claude/memory/memory-tui.log. "
        "Retrying may help; otherwise tell the user.",
    )


def validation_failure(tool: str, error: ValidationError) -> CallToolResult:
    """The tool error for arguments that do not match the tool's input schema.

    Too long ``content`` is reported as ``CONTENT_TOO_LONG`` (with the lengths), anything
    else as ``INVALID_INPUT`` naming each offending argument. Argument values are never
    echoed back: they may be long, or private.
    """
    problems: list[str] = []
    for err in error.errors():
        field = ".".join(str(part) for part in err["loc"]) or "arguments"
        too_long = err["type"] == "string_too_long" and isinstance(err["input"], str)
        if tool == "memory_add" and err["loc"][:1] == ("content",) and too_long:
            actual = len(err["input"])
            return failure(
                CONTENT_TOO_LONG,
                f"content is {actual:,} characters; the limit is {MAX_CONTENT_LENGTH:,}. "
                "Shorten it, or split it into several self-contained entries.",
                maxLength=MAX_CONTENT_LENGTH,
                actualLength=actual,
            )
        problems.append(f"{field}: {err['msg']}")
    return failure(
        INVALID_INPUT,
        f"invalid arguments for {tool}: " + "; ".join(problems),
        fields=sorted({".".join(str(p) for p in e["loc"]) for e in error.errors()}),
    )
