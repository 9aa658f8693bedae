"""A file git tracks is never ignored, as git ignores none ("Files already tracked by Git
are not affected", gitignore(5)): nim-lang/nimble tracks its guide's pages under a
``docs/`` its ``.gitignore`` ignores, added with ``git add -f``. Untracked files the
patterns ignore stay out, and outside a git work tree, or without git, the patterns
alone decide."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.analysis import analyze
from engine.analyzer.gitignore import Tracked

GUIDE = "# Guide\n\nInstall a package with the install command; the lock file keeps it.\n"


def _project(root: Path) -> Path:
    write(root, {
        ".gitignore": "docs/\n*.gen.py\n",
        "README.md": GUIDE,
        "guide/docs/install.md": GUIDE,  # tracked: added with -f
        "guide/docs/draft.md": GUIDE,  # not tracked: ignored
        "src/tables.gen.py": "def table(): return 1\n",  # tracked: added with -f
        "src/other.gen.py": "def other(): return 2\n",  # not tracked: ignored
    })  # fmt: skip
    return root


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_a_tracked_file_under_an_ignored_folder_is_walked(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "README.md", ".gitignore")
    _git(root, "add", "-f", "guide/docs/install.md", "src/tables.gen.py")
    assert sources(root) == ["README.md", "guide/docs/install.md"]
    files = analyze(root).files
    assert "src/tables.gen.py" in files
    assert "src/other.gen.py" not in files


def test_outside_git_the_patterns_alone_decide(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert sources(root) == ["README.md"]
    assert not Tracked(root).holds("guide/docs", True)


def test_without_git_the_patterns_alone_decide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "-f", "guide/docs/install.md")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # git cannot be found
    assert sources(root) == ["README.md"]


def test_a_project_below_the_work_tree_root_asks_for_its_own_paths(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    root = _project(tmp_path / "sub")
    _git(tmp_path, "add", "-f", "sub/guide/docs/install.md")
    assert Tracked(root).holds("guide/docs/install.md", False)
    assert Tracked(root).holds("guide/docs", True) and Tracked(root).holds("guide", True)
    assert sources(root) == ["README.md", "guide/docs/install.md"]
