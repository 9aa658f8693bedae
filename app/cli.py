"""The ``memory-tui`` command: bare, it opens the TUI; subcommands stay headless.

Output contract: stdout carries only results (so pipes work), messages and errors go
to stderr, failures exit non-zero, and a closed pipe (``| head -1``) ends quietly.
Heavy modules (LanceDB, the embedding model, Textual) are imported only by the
commands that need them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app.project import find_project_root

PROG = "memory-tui"
EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
CATEGORIES = ("architecture", "component", "domain", "pattern", "gotcha", "discovery", "general")
SOURCES = ("markdown", "session", "discovery", "manual")
FORMATS = ("text", "json", "csv", "md", "xml")
MODES = ("vector", "keyword", "hybrid")


def _version() -> str:
    # importlib.metadata costs ~30 ms to import: only ``--version`` pays for it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memory-tui")
    except PackageNotFoundError:  # running from a source tree without install
        return "0+unknown"


class _VersionAction(argparse.Action):
    """``--version``, with the version looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(f"{PROG} {_version()}")  # stdout, as argparse's own version action does
        parser.exit()


def _limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"must be from 1 to 1000, got {value}")
    return value


def _common_options(*, in_subcommand: bool) -> argparse.ArgumentParser:
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
    return common


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (subcommands register themselves here)."""
    from app import commands

    common = _common_options(in_subcommand=True)
    parser = argparse.ArgumentParser(
        prog=PROG,
        parents=[_common_options(in_subcommand=False)],
        description="Local, searchable project memory for coding agents and people. "
        "Run without a command to open the terminal app.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.add_argument("--version", action=_VersionAction)
        return p

    p = command("search", "Search the memory; prints results to stdout.")
    p.add_argument("query", help="what to look for (any text)")
    p.add_argument("--mode", choices=MODES, help="retrieval mode (default: from config, hybrid)")
    p.add_argument("--format", choices=FORMATS, help="output format (default: text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--limit", "-n", type=_limit, help="most results (default: from config, 5)")
    p.add_argument("--category", choices=CATEGORIES, help="only entries of this category")
    p.set_defaults(handler=commands.search)

    p = command("add", "Add an entry (content as argument, or from stdin with '-').")
    p.add_argument("content", help="the text to remember, or '-' to read stdin")
    p.add_argument("--category", "-c", default="general", choices=CATEGORIES)
    p.add_argument("--keywords", "-k", default="", help="comma-separated keywords (at most 10)")
    p.add_argument("--json", action="store_true", help="print the stored entry as JSON")
    p.set_defaults(handler=commands.add)

    p = command("list", "List entries, newest first.")
    p.add_argument("--category", choices=CATEGORIES)
    p.add_argument("--source", choices=SOURCES)
    p.add_argument("--limit", "-n", type=_limit, default=20)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(handler=commands.list_entries)

    p = command("get", "Show one entry in full.")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=commands.get)

    p = command("delete", "Delete entries by id.")
    p.add_argument("ids", nargs="+", metavar="ID")
    p.set_defaults(handler=commands.delete)

    p = command("index", "Index the markdown under .claude/knowledge/ (only what changed).")
    p.add_argument("--force", action="store_true", help="re-chunk every file, rebuild the index")
    p.add_argument(
        "--dry-run", action="store_true", help="report what would change, change nothing"
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=commands.index)

    p = command("init", "Set this repository up: folders, templates, MCP, hooks, index.")
    p.add_argument("--skip-analyze", action="store_true", help="do not analyse the codebase")
    p.add_argument("--skip-index", action="store_true", help="do not index knowledge files")
    p.add_argument("--no-hooks", action="store_true", help="do not install the git hooks")
    p.set_defaults(handler=commands.init)

    p = command("analyze", "Analyse the codebase into discovery entries (replaces the last run).")
    p.add_argument("--json", action="store_true", help="print the analysis summary as JSON")
    p.set_defaults(handler=commands.analyze)

    p = command("promote", "Move entries into curated markdown under .claude/knowledge/.")
    p.add_argument("ids", nargs="*", metavar="ID", help="entries to promote")
    p.add_argument(
        "--due",
        action="store_true",
        help="promote every entry whose reference count passed the configured promote_threshold",
    )
    p.set_defaults(handler=commands.promote)

    p = command("hook", "Claude Code UserPromptSubmit hook: prompt JSON on stdin, context out.")
    p.set_defaults(handler=commands.hook)

    p = command("stats", "Counts by category and source.")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=commands.stats)

    from app.freshness_commands import register_commands

    register_commands(command)

    from app.doctor_command import register as register_doctor

    register_doctor(command)

    p = command("serve-mcp", "Serve the memory to agents over MCP (stdio; --http for HTTP).")
    p.add_argument(
        "--http", action="store_true", help="serve streamable HTTP (at /mcp) instead of stdio"
    )
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="HTTP port (default: 8765)")
    p.set_defaults(handler=commands.serve_mcp)
    return parser


def _configure_logging(verbose: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: %(levelname)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    level = os.environ.get("CLAUDE_MEMORY_LOG_LEVEL", "INFO" if verbose else "WARNING")
    root.setLevel(level.upper())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    from engine.core.errors import EngineError

    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    if args.command is None:
        from app import commands

        args.handler = commands.open_app
    root = (args.project or find_project_root()).resolve()
    try:
        return int(args.handler(args, root) or EXIT_OK)
    except EngineError as exc:
        print(f"{PROG}: error: {exc.message}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def run() -> None:
    """Console-script wrapper: exit with :func:`main`'s code."""
    sys.exit(main())
