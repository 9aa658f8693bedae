"""One entry → a JSON-ready dict, for every face (CLI, MCP, export, TUI).

Keys are the stored column names (camelCase, as in LanceDB and the mirror:
:data:`engine.core.models.ENTRY_COLUMNS`) plus ``line`` (the first source line, or
``None``). Values are plain JSON types: enums as their names, keywords as a list. A face
picks the fields it shows, in its own order; ``snake_case`` gives the Python field names
instead (the CLI's ``list``/``get``/``add --json`` output).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from engine.core.models import ENTRY_COLUMNS, Entry

ALL_FIELDS: tuple[str, ...] = (*ENTRY_COLUMNS, "line")
"""Every key :func:`entry_record` knows, stored columns first."""

_ATTRIBUTES = {column: f.name for column, f in zip(ENTRY_COLUMNS, fields(Entry), strict=True)}


def _value(entry: Entry, key: str) -> object:
    if key == "line":
        return entry.line_start or None
    value = getattr(entry, _ATTRIBUTES[key])
    if key in ("category", "source"):
        return value.value
    if key == "keywords":
        return list(value)
    return value


def entry_record(
    entry: Entry, keys: Sequence[str] = ENTRY_COLUMNS, *, snake_case: bool = False
) -> dict[str, object]:
    """``entry`` as a dict of ``keys`` (see :data:`ALL_FIELDS`), in that order.

    Raises:
        KeyError: a key that is not an entry field.
    """
    record = {key: _value(entry, key) for key in keys}
    if snake_case:
        return {_ATTRIBUTES.get(key, key): value for key, value in record.items()}
    return record
