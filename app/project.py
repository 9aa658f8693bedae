"""Finding the project a command works on."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Config

_GIT_LOCATION_VARS = frozenset({"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE"})


def find_project_root(start: Path | None = None) -> Path:
    """The top of the git working tree containing ``start`` (default: the current
    directory), else ``start`` itself. ``CLAUDE_MEMORY_PROJECT`` overrides both.

    Only git decides: a ``.claude/`` folder alone proves nothing, since ``~/.claude/`` is
    Claude Code's user folder and exists on every user's machine.

    A linked worktree (``git worktree add``) resolves to its repository's main worktree,
    so every worktree of a repository shares one memory (seed 002, "Worktree Sharing")."""
    override = os.environ.get("CLAUDE_MEMORY_PROJECT")
    if override:
        return Path(override).resolve()
    here = (start or Path.cwd()).resolve()
    return git_worktree_root(here) or here


def git_worktree_root(start: Path) -> Path | None:
    """The top of the git working tree containing ``start`` (its main worktree for a
    linked one), or ``None`` when ``start`` is in no git repository."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        marker = candidate / ".git"
        if marker.is_file():  # a linked worktree or a submodule: ".git" names the git dir
            return main_worktree(candidate) or candidate
        if marker.exists():
            return candidate
    return None


def unsafe_root(root: Path) -> str | None:
    """Why no memory may be created at ``root`` unless the user named it (``--project``
    or ``CLAUDE_MEMORY_PROJECT``): it is the home folder (whose ``.claude/`` belongs to
    Claude Code) or it is in no git repository. ``None`` when it is a project."""
    resolved = root.resolve()
    if resolved == _home():
        return (
            f"{resolved} is your home folder, whose .claude/ is Claude Code's own settings "
            "folder, not a project; run memory-tui in a project's git repository, or pass "
            "--project DIR to use DIR anyway"
        )
    if git_worktree_root(resolved) is None:
        return (
            f"{resolved} is not inside a git repository; run memory-tui in one (`git init` "
            "makes one), or pass --project DIR to use DIR anyway"
        )
    return None


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except (RuntimeError, KeyError):  # no HOME and no passwd entry
        return None


def refuse_unsafe_root(root: Path) -> None:
    """Raise unless a memory may be created at ``root`` without the user naming it.

    Raises:
        EngineError: code ``NOT_A_PROJECT`` (exit status 2), saying why and what to pass.
    """
    from engine import EngineError

    problem = unsafe_root(root)
    if problem is not None:
        raise EngineError(problem, code=NOT_A_PROJECT)


NOT_A_PROJECT = "NOT_A_PROJECT"
"""The error code of a command that would create a memory outside any project."""


NOT_INITIALISED = "NOT_INITIALISED"
"""The error code of a command run in a project that has no memory yet (exit status 2)."""


def require_initialised(root: Path, *, vectors: bool = False) -> None:
    """Raise unless ``root`` has a memory: commands that read it create nothing on the way.

    A fresh clone of a project set up elsewhere (its ``.mcp.json`` starts memory-tui, or
    it has a knowledge folder) has no memory yet, since ``.claude/memory/`` is not
    committed: the memory is built from the knowledge files, once, and the command goes on.
    Only what the command needs is built: the text and keyword index (seconds), and the
    vectors too when ``vectors`` says the command searches by meaning; otherwise they are
    left to ``memory-tui embed`` or to the background of the app and ``serve-mcp``.

    Raises:
        EngineError: code ``NOT_INITIALISED``, saying to run ``memory-tui init`` first.
    """
    from engine import EngineError, MemoryPaths

    if MemoryPaths.for_root(root).memory_dir.is_dir():
        return
    if _set_up_elsewhere(root) and unsafe_root(root) is None:
        _build_from_knowledge(root, vectors=vectors)
        return
    raise EngineError(no_memory(root), code=NOT_INITIALISED)


def no_memory(root: Path) -> str:
    """Why ``root`` has no memory and what to run: ``init`` in a project, or what
    :func:`not_a_project` says outside one."""
    return not_a_project(root) or (
        f"no memory in {root} yet: run `memory-tui init` first "
        "(or `memory-tui add` to start with a note)"
    )


def not_a_project(root: Path) -> str | None:
    """Outside any git repository (or in the home folder), where ``init`` refuses: that
    there is no memory here, and what ``--project`` does instead. ``None`` in a project."""
    if git_worktree_root(root) is None:
        where = f"{root} is not inside a git repository"
    elif root.resolve() == _home():
        where = f"{root} is your home folder, not a project"
    else:
        return None
    return (
        f"no memory here: {where}, and memory-tui keeps one memory per project (a git "
        "repository); run it inside one (`memory-tui init` there sets it up), or pass "
        "--project DIR to use the memory of the folder DIR from anywhere "
        f"(`memory-tui --project {shlex.quote(str(root))} init` would make one here)"
    )


def _set_up_elsewhere(root: Path) -> bool:
    from engine import EngineError, read_project_text

    try:  # through the guard: a FIFO, a huge file or a link out of the project is refused
        text = read_project_text(root, Path(".mcp.json"), allow_hidden=True)
        wired = "memory-tui" in text
    except (OSError, EngineError):
        wired = False
    return wired or (root / ".claude" / "knowledge").is_dir()


def _build_from_knowledge(root: Path, *, vectors: bool) -> None:
    from app.progress import embedding_progress, progress_bar
    from app.words import plural
    from engine import Indexer, Memory

    print(
        "memory-tui: no memory in this clone yet: building it from the knowledge files (once)",
        file=sys.stderr,
    )
    with Memory.open(root) as memory:
        indexer = Indexer(memory)
        with progress_bar("Indexing knowledge files") as update:
            report = indexer.run(progress=update, embed=False)
        print(
            f"memory-tui: {plural(report.entries_created, 'entry', 'entries')} from "
            f"{plural(report.files_total, 'file')}; keyword search is ready",
            file=sys.stderr,
        )
        if vectors and memory.vectors_waiting():
            print(
                "memory-tui: computing the vectors for search by meaning (Ctrl-C stops; "
                "`memory-tui embed` resumes)",
                file=sys.stderr,
            )
            with embedding_progress("Embedding") as update:
                indexer.embed(report, progress=update)
        elif memory.vectors_waiting():
            print(
                "memory-tui: the vectors come later: `memory-tui embed`, or the app and "
                "serve-mcp compute them in the background",
                file=sys.stderr,
            )


def main_worktree(worktree: Path) -> Path | None:
    """The main worktree of the repository whose linked worktree is ``worktree``: the
    parent of ``git rev-parse --git-common-dir``. ``None`` when git is missing or fails,
    or when the common dir is not a main worktree's ``.git`` (a submodule's, a bare
    repository's)."""
    # Inside a git hook GIT_DIR and friends are set; the worktree alone must decide.
    env = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
            cwd=worktree,
            env=env,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    common = Path(out)
    if not out or common.name != ".git" or not common.is_dir():
        return None
    return common.parent.resolve()


def config_or_defaults(root: Path, face: str) -> Config:
    """The project's configuration; for a face that must not fail on it (the prompt hook,
    ``serve-mcp``), an invalid one is one line on stderr and the defaults are used."""
    from engine import Config, ConfigError, load_config, printable

    try:
        return load_config(root)
    except ConfigError as exc:
        message = f"memory-tui {face}: {exc.message}; using the default configuration"
        print(printable(message), file=sys.stderr, flush=True)
        return Config()
