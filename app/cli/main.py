"""Running ``memory-tui``: parse, configure logging, dispatch, turn errors into exit codes.

Output contract: stdout carries only results (so pipes work), messages and errors go
to stderr, failures exit non-zero (2 for a usage or configuration error: a bad option, a
setting the user must fix, such as a ``knowledge_dir`` outside the project; 1 for the
rest), and a closed pipe (``| head -1``) ends quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from app.cli.options import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PROG
from app.cli.parser import build_parser
from app.project import NOT_A_PROJECT, NOT_INITIALISED, find_project_root, refuse_unsafe_root


class _Said(logging.Filter):
    """Remembers the messages logged, so that the error that ends a command is not
    printed again when a warning said it already (a damaged store met on opening the
    memory, then by the command's write: one line, not two)."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        self.messages.add(record.getMessage())
        return True


def _configure_logging(verbose: bool) -> _Said:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: %(levelname)s: %(message)s"))
    said = _Said()
    handler.addFilter(said)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    level = os.environ.get("CLAUDE_MEMORY_LOG_LEVEL", "INFO" if verbose else "WARNING")
    root.setLevel(level.upper())
    return said


@contextlib.contextmanager
def _quiet_stderr(quiet: bool) -> Iterator[None]:
    """With ``--quiet``, what a command writes on stderr is dropped and only errors are
    logged; the errors :func:`main` reports afterwards still reach stderr."""
    if not quiet:
        yield
        return
    logging.getLogger().setLevel(logging.ERROR)
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stderr(sink):
        yield


def _tolerant_streams() -> None:
    """Write what cannot be encoded (a lone surrogate, a byte of a non-UTF-8 file name) as
    a backslash escape instead of failing with a traceback half-way through the output."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _disk_problem(exc: OSError | sqlite3.Error) -> str:
    """What went wrong reading or writing a file, and what to do, in one line."""
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        what = f"{where}{exc.strerror or exc}"
    else:
        what = str(exc)
    return (
        f"{what} (nothing was lost; check the permissions and free space of the project's "
        ".claude/memory folder, then retry)"
    )


CREATING = frozenset({None, "init", "add", "index", "embed", "analyze", "discover", "import",
                      "promote", "watch"})  # fmt: skip
"""The commands that may create a memory (``None``: bare ``memory-tui``, the app)."""


def _must_check_root(args: argparse.Namespace, root: Path) -> bool:
    """Whether ``root`` must be a project before the command runs: for a command that may
    create a memory, unless the user named the folder (``--project``,
    ``CLAUDE_MEMORY_PROJECT``). ``init`` is checked even where a memory exists (it writes
    the project's settings); the others only when they would start one."""
    if args.project is not None or os.environ.get("CLAUDE_MEMORY_PROJECT"):
        return False
    if args.command not in CREATING:
        return False
    from engine import MemoryPaths

    return args.command == "init" or not MemoryPaths.for_root(root).memory_dir.is_dir()


HOOK_ARGV = ("hook",)
"""The prompt hook as Claude Code runs it (``memory-tui hook``, on every prompt): it goes
straight to :mod:`app.prompt_hook`, without the parser and the command modules it would
import (bench/RESULTS.md, "Issue 34: the hook without a server")."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    _tolerant_streams()
    if tuple(sys.argv[1:] if argv is None else argv) == HOOK_ARGV:
        from app.prompt_hook import main as hook_main

        _configure_logging(verbose=False)
        return hook_main(None)
    from engine import ConfigError, EngineError, printable

    parser = build_parser()
    args = parser.parse_args(argv)
    said = _configure_logging(args.verbose)
    if args.command is None:
        from app.cli import commands

        args.handler = commands.open_app
    root = (args.project or find_project_root()).resolve()
    try:
        if _must_check_root(args, root):
            refuse_unsafe_root(root)
        with _quiet_stderr(args.quiet):
            return int(args.handler(args, root) or EXIT_OK)
    except ConfigError as exc:  # names the file and key: the user's to fix, like a bad option
        print(printable(f"{PROG}: error: {exc.message}"), file=sys.stderr)
        return EXIT_USAGE
    except EngineError as exc:
        if exc.message not in said.messages:
            print(printable(f"{PROG}: error: {exc.message}"), file=sys.stderr)
        usage = isinstance(exc, ConfigError) or exc.code in (NOT_INITIALISED, NOT_A_PROJECT)
        return EXIT_USAGE if usage else EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except (OSError, sqlite3.Error) as exc:  # a full or read-only disk: one line, which file
        print(printable(f"{PROG}: error: {_disk_problem(exc)}"), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def run() -> None:
    """Console-script wrapper: exit with :func:`main`'s code.

    The process ends with the command, and everything it built goes with it, so the
    exit does not walk those objects with the cyclic garbage collector (``gc.freeze``):
    the collections Python runs while it shuts down visited every object of LanceDB's
    import (pydantic's schemas of its REST client above all) and cost a command that
    opened the store 0.2-0.4 s of CPU after its work was done (bench/RESULTS.md, "Issue 49
    (cold, session 18)"). The shutdown is otherwise the usual one: exit handlers run,
    streams are flushed, what the command opened it has closed already."""
    code = main()
    gc.freeze()
    sys.exit(code)
