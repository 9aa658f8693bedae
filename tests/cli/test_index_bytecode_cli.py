"""``memory-tui index`` where Python may not write bytecode (``PYTHONDONTWRITEBYTECODE``):
the run writes the bytecode of what it imported, so the next run (a git hook's, after
every commit) loads it instead of compiling the engine from source again."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from cli_support import git_repo, run_console_script

import engine.markdown.chunking
import engine.services.indexing


def test_an_index_run_writes_the_bytecode_python_was_told_not_to(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "gears.md").write_text("# Gears\n\nSprockets are greased weekly.\n", "utf-8")
    prefix = tmp_path / "pycache"  # the bytecode goes here, whatever the test run wrote
    env = {"PYTHONPYCACHEPREFIX": str(prefix), "PYTHONDONTWRITEBYTECODE": "1"}

    done = run_console_script("index", "--no-embed", cwd=root, home=home, env=env)

    assert done.returncode == 0, done.stderr
    before, sys.pycache_prefix = sys.pycache_prefix, str(prefix)
    try:
        for module in (engine.services.indexing, engine.markdown.chunking):
            assert module.__file__ is not None
            assert Path(importlib.util.cache_from_source(module.__file__)).is_file(), module
    finally:
        sys.pycache_prefix = before
