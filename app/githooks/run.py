"""What the git hooks run: re-index the knowledge files a commit, merge or checkout changed.

The part that runs inside git is light (no LanceDB, no model): it asks git which files
changed, keeps the knowledge files among them, and stops at once when there are none. The
re-indexing itself (embedding only the chunks that changed) runs in the hook process with
``--foreground``, or by default in a detached background process, so that a commit is not
held up by loading the model and the store. Either asks a running ``serve-mcp`` of the
project to run it first (:mod:`app.served`: its store is open and its model loaded),
and runs it itself when none answers. A background run's outcome is kept in
``.claude/memory/hooks-state.json``: a failure is reported by the next hook and by
``memory-tui hooks status``. Nothing here ever fails the git operation.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine import MemoryPaths, SourceSet, WriteLock, load_config

if TYPE_CHECKING:
    from engine import IndexReport

log = logging.getLogger("memory_tui.githooks")

STATE_FILE = "hooks-state.json"
LOCK_FILE = "hooks.lock"
NULL_COMMIT = "0" * 40


def _git(root: Path, *args: str) -> list[str] | None:
    """NUL-separated names printed by a git command; None when it fails."""
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, check=False)
    if done.returncode != 0:
        return None
    return [p for p in done.stdout.decode("utf-8", errors="surrogateescape").split("\0") if p]


def changed_files(root: Path, hook: str, args: Sequence[str]) -> list[str] | None:
    """Project-relative paths the git operation changed; None when git cannot tell (then
    every knowledge file is checked by hash)."""
    diff = ("diff", "--name-only", "--no-renames", "-z")
    if hook == "pre-commit":
        return _git(root, *diff, "--cached")
    if hook == "post-merge":
        return _git(root, *diff, "ORIG_HEAD", "HEAD")
    if hook == "post-checkout":
        if len(args) < 3 or args[2] != "1" or NULL_COMMIT in args[:2]:
            return None  # a file checkout, or the first checkout of a clone
        return _git(root, *diff, args[0], args[1])
    return None


def knowledge_files(
    paths: Sequence[str], knowledge_prefix: str, sources: SourceSet | None = None
) -> list[str]:
    """The files among ``paths`` that are indexed: the knowledge folder's markdown and,
    given ``sources``, the project's documentation sources."""
    return sorted(
        {
            p
            for p in paths
            if (p.startswith(knowledge_prefix) and p.endswith(".md"))
            or (sources is not None and sources.wants(p))
        }
    )


def run_git_hook(root: Path, hook: str, args: Sequence[str], *, background: bool) -> int:
    """Entry point of ``memory-tui hooks run``; returns 1 (and warns) only on failure."""
    paths = MemoryPaths.for_root(root)
    if not paths.memory_dir.is_dir():
        return 0  # this project has no memory: nothing to keep in step
    try:
        config = load_config(root)
    except Exception as exc:
        print(f"memory-tui: warning: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    paths = MemoryPaths.for_root(root, config.knowledge_dir)
    report_last_failure(paths)
    changed = changed_files(root, hook, args)
    prefix = paths.knowledge_dir.relative_to(paths.root).as_posix().rstrip("/") + "/"
    sources = SourceSet(root, config, paths.knowledge_dir)
    wanted = None if changed is None else knowledge_files(changed, prefix, sources)
    if wanted == []:
        return 0
    if background:
        spawn_reindex(root, hook, wanted)
        if wanted:  # git named them; otherwise (a file checkout) the check is silent
            what = f"{len(wanted)} indexed file" + ("s" if len(wanted) != 1 else "")
            print(f"memory-tui: re-indexing {what} in the background", file=sys.stderr)
        return 0
    return reindex(root, hook, wanted, quiet=False)


def spawn_reindex(root: Path, hook: str, files: Sequence[str] | None) -> None:
    """Start ``memory-tui hooks reindex`` detached from git (its output goes to the log)."""
    paths = MemoryPaths.for_root(root)
    command = [sys.executable, "-m", "app", "--project", str(root), "hooks", "reindex"]
    command += ["--hook", hook, "--", *files] if files is not None else ["--hook", hook]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    with open(paths.log_path, "ab") as log_file:
        subprocess.Popen(
            command,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log_file,
            start_new_session=True,
        )


def reindex(root: Path, hook: str, files: Sequence[str] | None, *, quiet: bool) -> int:
    """Index ``files`` (every changed knowledge file when None), one run at a time per
    project; record the outcome. Returns 1 on failure."""
    from app.served import index_by_server

    paths = MemoryPaths.for_root(root)
    started = time.perf_counter()
    outcome: dict[str, object] = {"hook": hook, "at": _now(), "files": list(files or [])}
    try:
        lock = WriteLock(paths.memory_dir / LOCK_FILE, timeout=600)
        with lock.hold():
            report = index_by_server(root, paths=files) or _index_here(root, files)
        outcome |= {
            "ok": not report.errors,
            "created": report.entries_created,
            "deleted": report.entries_deleted,
            "embedded": report.embedded,
            "errors": [f"{f}: {m}" for f, m in report.errors],
        }
        message = (
            f"memory-tui: re-indexed {report.files_processed} knowledge file(s) "
            f"({report.entries_created} entries new, {report.entries_deleted} removed, "
            f"{report.embedded} embedded)"
        )
        for where, problem in report.errors:
            message += f"\nmemory-tui: warning: {where}: {problem}"
    except Exception as exc:  # recorded and reported; git is never blocked
        log.warning("re-indexing after %s failed", hook, exc_info=True)
        outcome |= {"ok": False, "errors": [f"{type(exc).__name__}: {exc}"]}
        message = f"memory-tui: warning: re-indexing failed: {type(exc).__name__}: {exc}"
    outcome["seconds"] = round(time.perf_counter() - started, 3)
    outcome["reported"] = not quiet
    write_state(paths, outcome)
    print(message, file=sys.stderr)
    return 0 if outcome["ok"] else 1


def _index_here(root: Path, files: Sequence[str] | None) -> IndexReport:
    from engine import Indexer, Memory

    with Memory.open(root) as memory:
        return Indexer(memory).run(only=files)


def read_state(paths: MemoryPaths) -> dict[str, object]:
    """The outcome of the last re-index a hook ran (empty when none or unreadable)."""
    try:
        data = json.loads((paths.memory_dir / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(paths: MemoryPaths, outcome: dict[str, object]) -> None:
    """Record a re-index outcome (atomically)."""
    target = paths.memory_dir / STATE_FILE
    tmp = target.with_name(f".{STATE_FILE}.{os.getpid()}")
    try:
        tmp.write_text(json.dumps(outcome, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        log.warning("cannot write %s", target, exc_info=True)


def report_last_failure(paths: MemoryPaths) -> None:
    """Warn once about a background re-index that failed since the last hook ran."""
    state = read_state(paths)
    if state.get("ok", True) or state.get("reported"):
        return
    errors = state.get("errors") or ["unknown error"]
    first = errors[0] if isinstance(errors, list) else errors
    print(
        f"memory-tui: warning: the background re-index after the {state.get('hook')} at "
        f"{state.get('at')} failed: {first} (details in {paths.log_path}; run: memory-tui index)",
        file=sys.stderr,
    )
    write_state(paths, {**state, "reported": True})


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds")
