"""A folder is ignored as git ignores it: by the last pattern of ``.gitignore`` that
matches the folder. pathspec's ``GitIgnoreSpec`` ranks a file pattern's match above a
folder pattern's whatever their order, so the idiom ``*``, ``!*.*``, ``!*/`` (ignore the
programs a build leaves, named without an extension; keep every folder) pruned every
folder: nim-lang/nimble's ``src/`` and ``tests/`` were never walked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.analysis import analyze
from engine.analyzer.gitignore import is_ignored, parse_gitignore

CASES = [
    ("*|!*.*|!*/", "src"),
    ("*|!*/", "a/b"),
    ("build/", "build"),
    ("build/", "a/build"),
    ("/build/", "a/build"),
    ("*.log", "x.log"),
    ("foo/*", "foo/bar"),
    ("foo", "a/foo"),
    ("docs/**/tmp", "docs/a/tmp"),
    ("!keep/|*", "keep"),
    ("build/|!build/", "build"),
    ("/*|!/src", "src"),
    ("/*|!/src", "lib"),
    ("d/**", "d"),
    ("d/*/", "d/e"),
    ("*/", "src"),
    ("a/**/b", "a/b"),
    ("src/*|!src/keep", "src/keep"),
]


@pytest.mark.parametrize(("patterns", "folder"), CASES)
def test_a_folder_is_ignored_when_git_says_so(tmp_path: Path, patterns: str, folder: str) -> None:
    text = patterns.replace("|", "\n") + "\n"
    write(tmp_path, {".gitignore": text, f"{folder}/f.c": "int x;\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    git = subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "-q", f"{folder}/"])
    assert git.returncode in (0, 1)
    assert is_ignored(parse_gitignore(text, ""), folder, True) is (git.returncode == 0)


def test_a_project_that_ignores_its_built_programs_keeps_its_folders(tmp_path: Path) -> None:
    write(tmp_path, {
        ".gitignore": "# programs, named without an extension\n*\n!*.*\n!*/\n",
        "src/nimble.nim": "proc install*() = discard\n",
        "src/nimble": "\x7fELF built program",
        "docs/guide.md": "# Guide\n\nInstall a package with the install command, then build it.\n",
    })  # fmt: skip
    assert sources(tmp_path) == ["docs/guide.md"]
    analysis = analyze(tmp_path)
    assert "src/nimble.nim" in analysis.files
    assert "src/nimble" not in analysis.files
