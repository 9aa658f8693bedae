"""The CLI's shared vocabulary: its name, exit codes, choices, and the options every
subcommand accepts. A leaf: every other module of :mod:`app.cli` may import it.

The choices and limits are the engine's (its enums, :mod:`engine.core.validation`),
never restated here: ``tests/test_architecture.py`` checks that no face lists them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from engine import (
    MAX_LIMIT,
    Category,
    ExportFormat,
    InvalidInputError,
    SearchMode,
    Source,
    check_limit,
    check_min_score,
)

PROG = "memory-tui"
EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT), as a shell reports it."""
CATEGORIES = tuple(c.value for c in Category)
SOURCES = tuple(s.value for s in Source)
FORMATS = tuple(f.value for f in ExportFormat)
"""The output formats (``format_value`` also takes their aliases)."""
FORMAT_METAVAR = "{" + ",".join(FORMATS) + "}"
FORMAT_HELP = "markdown is the same as md"
MODES = tuple(m.value for m in SearchMode)


def _version() -> str:
    # importlib.metadata costs ~30 ms to import: only ``--version`` pays for it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memory-tui")
    except PackageNotFoundError:  # running from a source tree without install
        return "0+unknown"


class VersionAction(argparse.Action):
    """``--version``, with the version looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(f"{PROG} {_version()}")  # stdout, as argparse's own version action does
        parser.exit()


def limit_value(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    try:
        return check_limit(value)
    except InvalidInputError:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_LIMIT}, got {value}") from None


def format_value(text: str) -> str:
    """An output format by its name or an alias (``markdown``), any case: its name."""
    from engine import parse_format

    try:
        return parse_format(text).value
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def score_value(text: str) -> float:
    """A relevance floor for ``--min-score``: a number from -1 to 1 (0 or less: no gate)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    try:
        return check_min_score(value)
    except InvalidInputError as exc:
        raise argparse.ArgumentTypeError(exc.message.removeprefix("min_score ")) from None


def common_options(*, in_subcommand: bool) -> argparse.ArgumentParser:
    """Options accepted both before and after the subcommand name.

    A subparser writes its defaults over what the main parser already parsed, so in a
    subcommand the defaults are suppressed: ``memory-tui --project DIR stats`` keeps DIR.
    """
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--project",
        metavar="DIR",
        type=Path,
        default=argparse.SUPPRESS if in_subcommand else None,
        help="project root (default: top of the git tree containing the current directory)",
    )
    common.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS if in_subcommand else False,
        help="log progress to stderr",
    )
    common.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS if in_subcommand else False,
        help="print nothing on stderr but errors (no progress, notes or warnings)",
    )
    return common
