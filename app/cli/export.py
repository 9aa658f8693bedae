"""``memory-tui export``: the entries in one of the export formats, to stdout or a file.

The same formats and the same engine exporter (:func:`engine.render`) as the terminal
app's export and ``search --format``: json, csv and xml keep every field and the content
exactly; md keeps the content whole, a section per entry; text is the reading summary.
``list --format`` writes the same csv, md and xml through :func:`emit`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.options import (
    CATEGORIES,
    FORMAT_HELP,
    FORMAT_METAVAR,
    FORMATS,
    SOURCES,
    format_value,
    limit_value,
)
from app.words import plural

if TYPE_CHECKING:
    from engine import Listing

DEFAULT_FORMAT = "json"
"""The format of an export that names none (and no file whose suffix names one): json
loses nothing and every tool reads it."""
SUFFIXES = {"txt": "text", **{name: name for name in FORMATS}, "markdown": "md"}
"""A file's suffix → the format ``-o FILE`` implies when ``--format`` is not given."""


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``export`` to the parser."""
    p = command(
        "export",
        "Write the entries in an export format (json, csv, md, xml, text) to stdout or "
        "a file, as the terminal app exports them.",
    )
    p.add_argument(
        "--format",
        type=format_value,
        metavar=FORMAT_METAVAR,
        help=f"output format (default: from FILE's suffix, else {DEFAULT_FORMAT}; {FORMAT_HELP})",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE instead of stdout ('-': stdout); FILE is replaced whole, "
        "never written through a link",
    )
    p.add_argument("--category", choices=CATEGORIES, help="only entries of this category")
    p.add_argument("--source", choices=SOURCES, help="only entries from this source")
    p.add_argument("--stale", action="store_true", help="only entries whose cited code changed")
    p.add_argument("--limit", "-n", type=limit_value, help="most entries (default: all)")
    p.add_argument(
        "--sort", choices=("recent", "refs"), default="recent", help="newest or most referenced"
    )
    p.set_defaults(handler=export)


def export(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui export``: entries newest first (or most referenced), all by default."""
    from app.project import require_initialised
    from engine import Memory

    fmt = args.format or _implied_format(args.output) or DEFAULT_FORMAT
    require_initialised(root)
    with Memory.open(root) as memory:
        listed = memory.listing(
            category=args.category,
            source=args.source,
            limit=args.limit,
            stale_only=args.stale,
            sort=args.sort,
        )
        prefix = memory.paths.knowledge_prefix
    emit(listed, fmt, prefix, args.output)
    what = plural(len(listed.entries), "entry", "entries")
    if len(listed.entries) < listed.total:
        what += f" of {listed.total}"
    where = "stdout" if args.output is None or str(args.output) == "-" else args.output
    print(f"memory-tui: exported {what} as {fmt} to {where}", file=sys.stderr)
    return 0


def _implied_format(output: Path | None) -> str | None:
    return SUFFIXES.get(output.suffix.lower().lstrip(".")) if output is not None else None


def emit(listed: Listing, fmt: str, knowledge_prefix: str, output: Path | None = None) -> None:
    """Render ``listed`` in ``fmt`` with the engine's exporter and write it out."""
    from engine import render

    write(render(listed.results(), fmt, knowledge_prefix=knowledge_prefix), output)


def write(text: str, output: Path | None = None) -> None:
    """Rendered output to ``output`` through the file guard (a regular file, replaced
    atomically, never through a symlink), or to stdout: exactly, for a pipe or a file;
    through the terminal guard on a terminal, where csv's raw content could carry escape
    sequences (the other formats are inert already)."""
    from engine import EngineError, printable, write_project_file

    if output is None or str(output) == "-":
        sys.stdout.write(printable(text) if sys.stdout.isatty() else text)
        sys.stdout.flush()
        return
    if not output.parent.is_dir():
        raise EngineError(
            f"cannot write {output}: the folder {output.parent} does not exist",
            code="INVALID_INPUT",
        )
    folder = output.parent.resolve()  # the folder named may be reached through a link
    write_project_file(folder, folder / output.name, text)
