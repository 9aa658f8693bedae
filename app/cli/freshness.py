"""Handlers of the freshness subcommands: ``hooks``, ``watch`` and ``discover``.

Each takes the parsed args and the project root, like the handlers in :mod:`app.cli.commands`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.options import common_options
from app.words import plural
from engine import EngineError, entry_json, json_text, printable

if TYPE_CHECKING:
    from engine import WatchBatch


def _emit(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


# --- hooks ---------------------------------------------------------------------------------


def git_hooks(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui hooks install|uninstall|status|run|reindex``."""
    from app.githooks import install as hook_files

    action = args.hooks_action
    if action == "run":
        from app.githooks.run import run_git_hook

        return run_git_hook(root, args.hook, args.git_args, background=args.background)
    if action == "reindex":
        from app.githooks.run import reindex

        return reindex(root, args.hook, args.files or None, quiet=True)
    if action == "install":
        states = hook_files.install(root, background=not args.foreground)
        where = hook_files.hooks_dir(root)
        print(f"installed git hooks in {where}", file=sys.stderr)
    elif action == "uninstall":
        states = hook_files.uninstall(root)
    else:
        states = hook_files.status(root)
    for state in states:
        detail = f"  ({state.detail})" if state.detail else ""
        _emit(f"{state.name:<14} {state.state}{detail}\n")
    if action == "status":
        _print_last_run(root)
    return 0


def _print_last_run(root: Path) -> None:
    from app.githooks.run import read_state
    from engine import MemoryPaths

    state = read_state(MemoryPaths.for_root(root))
    if not state:
        return
    verdict = "ok" if state.get("ok") else "FAILED: " + "; ".join(map(str, state.get("errors", [])))
    _emit(
        f"last re-index: after {state.get('hook')} at {state.get('at')}, "
        f"{len(state.get('files') or []) or 'all changed'} file(s), "  # type: ignore[arg-type]
        f"{state.get('seconds')} s, {verdict}\n"
    )


# --- watch ---------------------------------------------------------------------------------


def watch(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui watch``: re-index knowledge files as they change, until Ctrl-C (or
    SIGTERM); either ends it with exit code 0, quietly."""
    stop = _stop_on_signals()  # first: importing the engine takes a while
    from engine import KnowledgeWatcher, Memory, MemoryPaths, load_config

    folder = MemoryPaths.for_root(root, load_config(root).knowledge_dir).knowledge_dir
    if not folder.is_dir():
        raise EngineError(
            f"no knowledge folder at {folder}: run `memory-tui init` first", code="NOT_INITIALISED"
        )
    if stop.is_set():
        return 0
    try:
        with Memory.open(root) as memory:
            watcher = KnowledgeWatcher(memory, debounce_ms=args.debounce)
            watcher.check_folder()
            memory.warm_up_writes()  # the first change should not wait for the model
            if stop.is_set():
                return 0
            caught_up = watcher.catch_up()
            if caught_up.files_processed or caught_up.files_removed:
                print(
                    "memory-tui: caught up: "
                    f"{plural(caught_up.files_processed, 'file')} re-indexed, "
                    f"{caught_up.files_removed} removed",
                    file=sys.stderr,
                )
            rel = watcher.folder.relative_to(root) if watcher.folder.is_relative_to(root) else ""
            if stop.is_set():
                return 0
            watcher.run(
                _log_batch,
                stop=stop,
                ready=lambda: _watching(stop, rel or watcher.folder, len(watcher.watched()) - 1),
            )
    except KeyboardInterrupt:
        pass  # Ctrl-C while re-indexing: the indexer keeps what it committed
    return 0


class _Stop(threading.Event):
    """Set by Ctrl-C or SIGTERM; ``watching`` once start-up is over."""

    watching = False


STOPPING_NOTE = b"memory-tui: stopping once start-up is done (Ctrl-C again stops now)\n"
"""Said on a Ctrl-C during start-up, which may take a while (the model's first export)."""


def _stop_on_signals() -> _Stop:
    """An event that Ctrl-C (SIGINT) and ``kill`` (SIGTERM) set instead of interrupting
    whatever runs: a KeyboardInterrupt raised inside an import (the model's libraries load
    for seconds at start-up) turns into tracebacks or a hang, and the watcher library logs
    a warning for one. A Ctrl-C during start-up says that watch stops once start-up is
    done; a second Ctrl-C ends the process at once."""
    stop = _Stop()

    def handler(signum: int, frame: object) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            sys.stderr.flush()
            os._exit(130)
        stop.set()
        if signum == signal.SIGINT and not stop.watching:
            os.write(2, STOPPING_NOTE)  # not print: the handler may interrupt a print

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    return stop


def _watching(stop: _Stop, folder: object, doc_places: int = 0) -> None:
    stop.watching = True
    docs = f" and the project's docs ({plural(doc_places, 'place')})" if doc_places > 0 else ""
    line = f"memory-tui: watching {folder}{docs} (Ctrl-C to stop)"
    print(printable(line), file=sys.stderr, flush=True)


def _log_batch(batch: WatchBatch) -> None:
    """One line per changed file on stderr."""
    stamp = time.strftime("%H:%M:%S")
    report = batch.report
    for change in batch.changes:
        if batch.error:
            tail = f"re-indexing failed: {batch.error}"
        elif report is not None and change.kind == "deleted":
            tail = f"entries removed ({report.entries_deleted} in this batch)"
        elif report is not None:
            tail = (
                f"{plural(batch.entries_by_file.get(change.path, 0), 'entry', 'entries')}, "
                f"{report.entries_created} new, {report.entries_deleted} removed, "
                f"{report.embedded} embedded"
            )
        else:
            tail = ""
        print(
            printable(f"{stamp} {change.kind:<8} {change.path}: {tail} ({batch.seconds:.2f} s)"),
            file=sys.stderr,
            flush=True,
        )
    if report is not None:
        for where, problem in report.errors:
            print(printable(f"{stamp} error    {where}: {problem}"), file=sys.stderr, flush=True)


# --- discover ------------------------------------------------------------------------------


def discover(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui discover``: re-analyse what changed since the last discovery."""
    from engine import Memory, run_discovery

    if not root.is_dir():
        raise EngineError(f"no such directory: {root}", code="INVALID_INPUT")
    from app.progress import working

    with Memory.open(root) as memory:
        with working("Analysing what changed"):
            found = run_discovery(memory, incremental=not args.full)
        stale = len(memory.stale_entries())
    if args.json:
        _emit(json.dumps({**found.summary(), "skipped": found.skipped}, indent=2) + "\n")
        return 0
    since = f" since {found.previous_run}" if found.previous_run else ""
    if found.skipped:
        _emit(f"no file changed{since}; {found.kept} discovery entries are up to date\n")
    else:
        shown = ", ".join(found.changed_files[:8])
        more = f" and {len(found.changed_files) - 8} more" if len(found.changed_files) > 8 else ""
        what = f" ({shown}{more})" if found.previous_run and shown else ""
        _emit(
            f"{len(found.changed_files)} file(s) changed{since}{what}\n"
            f"discovery entries: {found.created} new, {found.kept} unchanged, "
            f"{found.deleted} removed; {found.parsed} file(s) parsed\n"
        )
    if stale:
        cite = "entry cites" if stale == 1 else "entries cite"
        _emit(f"{stale} {cite} code that changed: review them with `memory-tui stale`\n")
    return 0


# --- stale ---------------------------------------------------------------------------------


def stale(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui stale``: entries whose cited code changed, with the reason."""
    from app.project import require_initialised
    from engine import Memory

    require_initialised(root)
    with Memory.open(root) as memory:
        rows = memory.stale_entries()
        if args.refresh:
            done = memory.refresh(*(entry for entry, _ in rows))
            print(printable(done.summary()), file=sys.stderr)
            rows = memory.stale_entries()
    if args.json:  # entries in the one JSON shape, with staleReason
        prefix = memory.paths.knowledge_prefix
        data = [entry_json(e, stale_reason=why, knowledge_prefix=prefix) for e, why in rows]
        _emit(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
        return 0
    for entry, why in rows:
        title = " ".join(entry.title.split())[:50]
        _emit(printable(f"{entry.id}  {entry.source.value:<9} {title}  — {why}\n"))
    if not rows:
        print("no stale entries", file=sys.stderr)
    return 0


def register_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``hooks``, ``watch``, ``discover`` and ``stale`` to the CLI (see app.cli)."""
    from app.githooks import HOOK_NAMES

    p = command("hooks", "Git hooks that re-index knowledge files on commit, merge, checkout.")
    common = [common_options(in_subcommand=True)]
    actions = p.add_subparsers(dest="hooks_action", metavar="ACTION", required=True)

    def action(name: str, help_text: str) -> argparse.ArgumentParser:
        return actions.add_parser(name, parents=common, help=help_text, description=help_text)

    q = action("install", "install (chaining any existing hook)")
    q.add_argument(
        "--foreground",
        action="store_true",
        help="re-index inside the git command instead of in a background process",
    )
    action("uninstall", "remove them, restoring the hooks they chained")
    action("status", "installed / chained / absent, and the last re-index")
    q = action("run", "what the hook scripts call")
    q.add_argument("hook", choices=HOOK_NAMES)
    q.add_argument("--background", action="store_true", help="re-index in a detached process")
    q.add_argument("git_args", nargs="*", help="the arguments git gave the hook")
    q = action("reindex", "re-index knowledge files now (the background job)")
    q.add_argument("--hook", default="manual", help="which hook asked (for the record)")
    q.add_argument("files", nargs="*", help="project-relative paths (default: all changed)")
    p.set_defaults(handler=git_hooks)

    p = command("watch", "Re-index knowledge files as they change, until Ctrl-C.")
    p.add_argument(
        "--debounce", type=int, default=200, metavar="MS", help="quiet time before re-indexing"
    )
    p.set_defaults(handler=watch)

    p = command("discover", "Re-analyse the files changed since the last discovery.")
    p.add_argument("--full", action="store_true", help="re-analyse even if nothing changed")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=discover)

    p = command("stale", "Entries whose cited code changed or disappeared.")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--refresh",
        action="store_true",
        help="refresh them: notes reviewed (re-cited), discovery run again for its entries",
    )
    p.set_defaults(handler=stale)


def install_git_hooks_for_init(root: Path) -> str:
    """Install the git hooks as part of ``init``; returns the line init reports."""
    from app.githooks import install as hook_files

    if not (root / ".git").exists():
        return "git hooks: not a git repository, none installed"
    try:
        states = hook_files.install(root)
    except EngineError as exc:
        print(f"memory-tui: warning: git hooks not installed: {exc.message}", file=sys.stderr)
        return "git hooks: not installed (see the warning above)"
    chained = [s.name for s in states if s.state == "chained"]
    suffix = f"; your existing {', '.join(chained)} hook runs first" if chained else ""
    return (
        f"git hooks: {', '.join(s.name for s in states)} re-index knowledge files "
        f"(memory-tui hooks uninstall removes them{suffix})"
    )
