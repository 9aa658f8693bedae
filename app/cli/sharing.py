"""``memory-tui promote``: move notes into the curated, committed knowledge files.

Notes (``session`` from agents, ``manual`` from people) live only in this machine's
``.claude/memory/``; promoting one writes it into ``.claude/knowledge/``, which the team
shares once someone commits it. ``--all-notes`` promotes every note after a review: it
lists them and asks on a terminal, and without ``--yes`` refuses when nobody can answer.
Nothing is ever committed here: the files are left for ``git diff`` and a commit.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.options import EXIT_ERROR, EXIT_OK, EXIT_USAGE
from app.project import require_initialised
from engine import EngineError, printable

if TYPE_CHECKING:
    from engine import Entry, Memory


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``promote`` to the parser."""
    p = command("promote", "Move entries into curated markdown under .claude/knowledge/.")
    p.add_argument("ids", nargs="*", metavar="ID", help="entries to promote")
    p.add_argument(
        "--due",
        action="store_true",
        help="promote every entry whose reference count passed the configured promote_threshold",
    )
    p.add_argument(
        "--all-notes",
        action="store_true",
        help="list every personal note (session and manual) and promote them all once confirmed",
    )
    p.add_argument(
        "--yes", "-y", action="store_true", help="with --all-notes: do not ask (scripts, CI)"
    )
    p.set_defaults(handler=promote)


def _say(text: str) -> None:
    print(printable(text), file=sys.stderr)


def promote(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui promote``."""
    from engine import Memory, due_for_promotion

    if not (args.ids or args.due or args.all_notes):
        raise EngineError(
            "name entry ids to promote, or use --due or --all-notes", code="INVALID_INPUT"
        )
    require_initialised(root)
    with Memory.open(root) as memory:
        ids = list(args.ids)
        if args.due:
            ids += [e.id for e in due_for_promotion(memory)]
            if not ids:
                _say("nothing is due for promotion")
        if args.all_notes:
            notes = memory.unpromoted_notes()
            if not notes:
                _say("no personal notes to promote")
            elif not _confirmed(notes, assume_yes=args.yes):
                return EXIT_USAGE if not sys.stdin.isatty() and not args.yes else EXIT_ERROR
            ids += [e.id for e in notes]
        return _promote_each(memory, root, list(dict.fromkeys(ids)), keep_going=args.all_notes)


def _confirmed(notes: list[Entry], *, assume_yes: bool) -> bool:
    """List the notes (stderr) and ask; refuses off a terminal unless ``--yes``."""
    _say(f"{len(notes)} personal note(s) will be written into .claude/knowledge/:")
    for entry in notes:
        title = " ".join(entry.title.split())[:70]
        _say(f"  {entry.id[:8]}  {entry.source.value:<7} {entry.category.value:<12} {title}")
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        _say(
            "memory-tui: error: not promoting without a confirmation, and stdin is not a "
            "terminal: review the list above, then run `memory-tui promote --all-notes --yes`"
        )
        return False
    sys.stderr.write("Promote them all? They are shared once you commit the files. [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        _say("nothing promoted")
        return False
    return True


def _promote_each(memory: Memory, root: Path, ids: list[str], *, keep_going: bool) -> int:
    """Promote ``ids`` in turn; paths written on stdout. With ``keep_going`` a failure is
    reported and the rest still promoted (exit 1 at the end); otherwise it stops there."""
    from engine import promote as promote_entry

    failed = 0
    for entry_id in ids:
        try:
            result = promote_entry(memory, entry_id)
        except EngineError as exc:
            if not keep_going:
                raise
            failed += 1
            _say(f"memory-tui: error: {entry_id}: {exc.message}")
            continue
        sys.stdout.write(printable(f"{result.path.relative_to(root).as_posix()}\n"))
        _say(f"promoted {entry_id} → {result.path.name}")
    if ids and len(ids) > failed:
        _say(
            "written into .claude/knowledge/, not committed: review with `git status` and "
            "`git diff`, then commit to share with your team"
        )
    return EXIT_ERROR if failed else EXIT_OK
