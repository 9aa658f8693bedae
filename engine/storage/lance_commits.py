"""Commits to the LanceDB table while other machines commit to it too.

Lance settles most concurrent commits itself: two appends both land, an update lands after a
compaction. Two cases come back to the writer, and both are handled here:

* A commit that Lance finds incompatible with one that landed first (an append read before
  another machine's creation of the table, an update of rows a compaction rewrote, an update
  that began on a version whose data files a compaction has since cleaned up). Nothing
  of it was committed, so :func:`committed` tries it again on the latest version, a few
  times, with a short random pause.
* Two machines creating the table at the same moment. Lance commits the later creation as an
  overwrite of the earlier one, on top of whatever the first machine had already added (seen
  on S3: the first machine's next add then failed; had it landed first, it would have been
  wiped without a word). :func:`create` tags its creation in the schema's metadata, finds
  the version that creation became, and adds back the rows of the version before it.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

from engine.storage.lance_errors import first_line
from engine.storage.remote import store_error

log = logging.getLogger(__name__)

ATTEMPTS = 6
"""Tries of one commit before its conflict is reported: five retries, about 0.75 s of
pauses in all."""
PAUSE_S = 0.05
CREATOR = "memory-tui.creator"
"""Schema metadata key: a random tag per creation of the table."""
CREATION_LOOKBACK = 50
"""Versions looked through for the one a creation became; the other machine's commits
after it are few, as it found its first add refused."""

_CONFLICTS = (
    "incompatible transaction",
    "commit conflict",
    "too many concurrent writers",
)


def is_conflict(exc: BaseException) -> bool:
    """Whether Lance refused a commit because another one landed first, or could not read
    the manifest of a version it had just found latest, or a data file of the version it
    began on, because a compaction removed it meanwhile (another machine's, or this
    project's background one: ``maintenance.Compactor``): nothing was committed then
    either, and the latest version is there to try again on."""
    text = str(exc).lower()
    vanished = "not found" in text and "_versions/" in text and ".manifest" in text
    return vanished or _data_vanished(text) or any(mark in text for mark in _CONFLICTS)


def _data_vanished(text: str) -> bool:
    """Whether an update or delete read a data file of the version it began on that a
    compaction has since rewritten and cleaned up (this process's background compaction
    runs outside the write lock: ``maintenance.Compactor``); nothing was committed."""
    return "not found" in text and "/data/" in text and ".lance" in text


def committed(table: Any, op: Callable[[Any], object], *, attempts: int = ATTEMPTS) -> None:
    """Run the write ``op(table)``; when another machine's commit makes it incompatible,
    move to the latest version and run it again (the refused commit changed nothing)."""
    for attempt in range(1, attempts + 1):
        try:
            op(table)
            return
        except Exception as exc:
            if attempt == attempts or not is_conflict(exc):
                raise
            log.info(
                "commit refused by a concurrent one (try %d of %d): %s",
                attempt,
                attempts,
                exc,
            )
        time.sleep(PAUSE_S * attempt * random.uniform(0.5, 1.5))
        table.checkout_latest()


def create(db: Any, name: str, schema: Any, where: str = "") -> tuple[Any, int]:
    """The table ``name``, created with ``schema`` unless another process created it
    first (Lance says it exists, or that another creation preempted this one), and the
    number of rows added back because this creation overwrote them.

    Raises:
        StorageError: the table could not be created (``where`` names the store).
    """
    tag = uuid.uuid4().hex
    tagged = schema.with_metadata({**(schema.metadata or {}), CREATOR: tag})
    try:
        table = db.create_table(name, schema=tagged)
    except Exception as exc:
        if "already exists" in str(exc) or is_conflict(exc):  # another process's: open it
            return db.open_table(name), 0
        problem = f"cannot create the vector store at {where or name} ({first_line(exc)})"
        raise store_error(where or name, exc, problem) from exc
    try:
        return table, restore_overwritten(db, name, tag, table.version)
    except Exception as exc:
        problem = f"cannot read back the new vector store at {where or name} ({first_line(exc)})"
        raise store_error(where or name, exc, problem) from exc


def restore_overwritten(db: Any, name: str, tag: str, since: int) -> int:
    """Add back the rows that the creation tagged ``tag`` (at version ``since`` or a little
    before) overwrote: those of the version before it. Rows already there are kept."""
    view = db.open_table(name)  # moved from version to version, read-only
    ours = _creation_version(view, tag, since)
    if ours is None or ours <= 1:
        return 0
    view.checkout(ours - 1)
    lost = view.to_arrow()
    if lost.num_rows == 0:
        return 0
    log.warning(
        "the vector store was created by two machines at once; adding back the %d "
        "entries of the other's creation",
        lost.num_rows,
    )
    table = db.open_table(name)
    committed(table, lambda t: t.merge_insert("id").when_not_matched_insert_all().execute(lost))
    return int(lost.num_rows)


def _creation_version(view: Any, tag: str, since: int) -> int | None:
    """The earliest version in an unbroken run tagged ``tag`` ending at ``since``: the
    version the creation became (``None`` if ``since`` is not tagged so)."""
    found = None
    for version in range(since, max(0, since - CREATION_LOOKBACK), -1):
        view.checkout(version)
        if _tag(view) != tag:
            break
        found = version
    return found


def _tag(table: Any) -> str | None:
    value = (table.schema.metadata or {}).get(CREATOR.encode())
    return value.decode() if value is not None else None
