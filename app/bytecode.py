"""The bytecode of what a short, frequent command imported, written where Python did not.

``memory-tui index`` runs after every commit, merge and checkout (the git hooks) and after
each edit an agent makes; where Python may not write bytecode (``PYTHONDONTWRITEBYTECODE``,
common in containers) every such run compiled the engine's hundred-odd modules from source
again, about 0.2 s of its CPU (bench/RESULTS.md, issue 38, index1s session 13). The prompt
hook's modules are compiled by ``memory-tui init`` for the same reason
(:func:`app.prompt_hook.compile_hook_modules`); :func:`write_missing` does it for whatever
the running command has imported, once: a later run loads the bytecode.

Only a module whose bytecode is missing or older than its source is compiled, and only
where its ``__pycache__`` folder (or the folder it would be made in) can be written: a
read-only installation is left alone and costs a ``stat`` per module.
"""

from __future__ import annotations

import importlib.util
import os
import py_compile
import sys

__all__ = ["write_missing"]


def write_missing() -> int:
    """Write the bytecode of every imported module that lacks it (see the module's
    docstring); returns how many were written. Never raises for one module."""
    written = 0
    for module in list(sys.modules.values()):
        source = getattr(module, "__file__", None)
        if not isinstance(source, str) or not source.endswith(".py"):
            continue
        try:
            cached = importlib.util.cache_from_source(source)
            if os.path.exists(cached) and os.stat(cached).st_mtime >= os.stat(source).st_mtime:
                continue
            if not _writable(os.path.dirname(cached)):
                continue
            py_compile.compile(source, cfile=cached, doraise=True)
        except (OSError, ValueError, NotImplementedError, py_compile.PyCompileError):
            continue
        written += 1
    return written


def _writable(folder: str) -> bool:
    """Whether ``folder`` can be written, or made in a parent that can."""
    while folder and not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return bool(folder) and os.access(folder, os.W_OK)
