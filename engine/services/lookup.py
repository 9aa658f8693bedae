"""Finding an entry by a short id, as ``git`` takes a short hash."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.errors import NotFoundError
from engine.core.validation import is_unicode
from engine.services.parts import parts_of

if TYPE_CHECKING:
    from engine.core.models import Entry
    from engine.services.memory import Memory

MIN_ID_PREFIX = 4
"""The shortest id prefix :func:`resolve_entry` accepts."""


def resolve_entry(memory: Memory, id_or_prefix: str) -> Entry:
    """The entry with this id (a promoted entry's old id included), or the one entry whose
    id starts with it (at least :data:`MIN_ID_PREFIX` characters).

    Raises:
        NotFoundError: no entry, or a prefix that several ids share (naming two).
    """
    found = memory.get(id_or_prefix)
    if found is not None:
        return found
    if len(id_or_prefix) >= MIN_ID_PREFIX and is_unicode(id_or_prefix):
        matches = parts_of(memory).mirror.ids_with_prefix(id_or_prefix)
        if len(matches) == 1:
            return memory.require(matches[0])
        if matches:
            raise NotFoundError(
                f"'{id_or_prefix}' is the start of several ids ({matches[0]}, {matches[1]}, "
                "…): give more of it"
            )
    raise NotFoundError(f"no entry with id '{id_or_prefix}'")
