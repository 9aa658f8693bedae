"""Installing, removing and inspecting memory-tui's git hook scripts.

A hook already in place is never lost: it is moved to ``<hook>.memory-tui-chained`` and
memory-tui's script runs it first, with the same arguments (a failing ``pre-commit`` still
stops the commit with its own exit code). Uninstalling moves it back, byte for byte and with
its mode. The hooks folder is git's own answer (``git rev-parse --git-path hooks``), so
``core.hooksPath`` is respected.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from app.githooks import HOOK_NAMES
from engine import EngineError

MARKER = "# memory-tui-hook"
"""A line in every script memory-tui writes: how it recognises its own hooks."""
CHAINED_SUFFIX = ".memory-tui-chained"


class HookError(EngineError):
    """A git hook could not be installed or removed."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="HOOK_ERROR")


@dataclass(frozen=True, slots=True)
class HookState:
    """What is in place for one hook."""

    name: str
    state: str
    """``installed``, ``chained`` (installed, running the previous hook first) or ``absent``."""
    detail: str = ""


def hooks_dir(root: Path) -> Path:
    """The folder git runs hooks from (``core.hooksPath`` if set, else ``.git/hooks``).

    Raises:
        HookError: ``root`` is not inside a git repository, or git is missing.
    """
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-path", "hooks"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise HookError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        raise HookError(f"{root} is not in a git repository: {done.stderr.strip()}")
    return Path(done.stdout.strip())


def executable() -> str:
    """The absolute path of the memory-tui command of this installation."""
    beside = Path(sys.executable).parent / "memory-tui"
    if beside.exists():
        return str(beside)
    found = shutil.which("memory-tui")
    return str(Path(found).resolve()) if found else str(beside)


def script(hook: str, command: str, *, background: bool) -> str:
    """The shell script installed as ``hook``, calling ``command`` (absolute path)."""
    mode = " --background" if background else ""
    if hook == "pre-commit":  # a failing earlier hook stops the commit: nothing to index
        chained = '    "$chained" "$@" || exit $?\n'
        end = "exit 0\n"
    else:  # after the fact: run both, report the earlier hook's status to git
        chained = '    "$chained" "$@"\n    status=$?\n'
        end = 'exit "$status"\n'
    return (
        "#!/bin/sh\n"
        f"{MARKER} ({hook}): re-indexes the knowledge files this {hook} changed.\n"
        "# Written by `memory-tui hooks install`; `memory-tui hooks uninstall` removes it and\n"
        f"# puts back the hook that was here before (kept as {hook}{CHAINED_SUFFIX}).\n"
        "status=0\n"
        f'chained="$(dirname "$0")/{hook}{CHAINED_SUFFIX}"\n'
        'if [ -x "$chained" ]; then\n'
        f"{chained}"
        "fi\n"
        f"installed={shlex.quote(command)}\n"
        'memory_tui="$installed"\n'
        'if [ ! -x "$memory_tui" ]; then\n'
        '    memory_tui="$(command -v memory-tui 2>/dev/null)"\n'
        "fi\n"
        'if [ -z "$memory_tui" ]; then\n'
        '    echo "memory-tui: warning: $installed is gone and memory-tui is not on PATH; '
        'knowledge files were not re-indexed (reinstall with: memory-tui hooks install)" >&2\n'
        f"    {end}"
        "fi\n"
        f'"$memory_tui" hooks run{mode} {hook} "$@" ||\n'
        f'    echo "memory-tui: warning: the {hook} hook could not re-index the knowledge '
        'files; the git operation went ahead (run: memory-tui index)" >&2\n'
        f"{end}"
    )


def _is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def install(root: Path, *, background: bool = True) -> list[HookState]:
    """Install the three hooks (re-installing ours, chaining anyone else's).

    Raises:
        HookError: not a git repository, or a hook cannot be written.
    """
    folder = hooks_dir(root)
    command = executable()
    states = []
    for hook in HOOK_NAMES:
        path, chained = folder / hook, folder / (hook + CHAINED_SUFFIX)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if (path.exists() or path.is_symlink()) and not _is_ours(path):
                if chained.exists() or chained.is_symlink():
                    raise HookError(
                        f"both {path} and {chained} exist; move one of them away and retry"
                    )
                os.replace(path, chained)
            tmp = path.with_name(path.name + ".memory-tui-tmp")
            tmp.write_text(script(hook, command, background=background), encoding="utf-8")
            tmp.chmod(0o755)
            os.replace(tmp, path)
        except OSError as exc:
            raise HookError(f"cannot install the {hook} hook in {folder}: {exc}") from None
        states.append(state_of(folder, hook))
    return states


def uninstall(root: Path) -> list[HookState]:
    """Remove memory-tui's hooks, putting back the hooks they chained.

    Raises:
        HookError: not a git repository, or a hook cannot be moved back.
    """
    folder = hooks_dir(root)
    states = []
    for hook in HOOK_NAMES:
        path, chained = folder / hook, folder / (hook + CHAINED_SUFFIX)
        try:
            if _is_ours(path):
                if chained.exists() or chained.is_symlink():
                    os.replace(chained, path)
                    detail = "restored the previous hook"
                else:
                    path.unlink()
                    detail = "removed"
            elif path.exists():
                detail = "left alone: it is not memory-tui's"
            else:
                detail = "was not installed"
        except OSError as exc:
            raise HookError(f"cannot remove the {hook} hook from {folder}: {exc}") from None
        states.append(HookState(hook, state_of(folder, hook).state, detail))
    return states


def state_of(folder: Path, hook: str) -> HookState:
    """Whether memory-tui's ``hook`` is installed in ``folder``, alone or chained."""
    path, chained = folder / hook, folder / (hook + CHAINED_SUFFIX)
    if not _is_ours(path):
        if path.exists():
            return HookState(hook, "absent", "another hook is there; install would chain it")
        return HookState(hook, "absent")
    if not os.access(path, os.X_OK) or not path.stat().st_mode & stat.S_IXUSR:
        return HookState(hook, "installed", "warning: the script is not executable")
    command = _command_in(path)
    missing = f"; warning: {command} is missing" if command and not Path(command).exists() else ""
    if chained.exists():
        return HookState(hook, "chained", f"runs {chained.name} first{missing}")
    return HookState(hook, "installed", missing.lstrip("; "))


def _command_in(path: Path) -> str:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("installed='"):
            return line[len("installed='") : -1].replace("'\"'\"'", "'")
    return ""


def status(root: Path) -> list[HookState]:
    """The state of each hook.

    Raises:
        HookError: not a git repository.
    """
    folder = hooks_dir(root)
    return [state_of(folder, hook) for hook in HOOK_NAMES]
