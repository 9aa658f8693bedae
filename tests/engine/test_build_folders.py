"""A folder named for a build's output (``build/``, ``target/``) that git tracks files in is
the project's own: a book's chapter on building, Go's package ``build``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo

from engine.analyzer.scan import DEFAULT_IGNORED, ScanStats, scan
from engine.core.config import load_config
from engine.services.source_report import explain_sources
from engine.services.sources import SourceSet

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TRACKED = [
    "book/src/build/bazel.md",
    "pkg/build/nodeimage/build.go",
    "node_modules/dep/README.md",
    "node_modules/dep/index.go",
    "vendor/dep/dep.go",
]
UNTRACKED = ["book/build/index.md", "target/debug/notes.md", "build/gen.go"]


def project(tmp_path: Path) -> Path:
    root = git_repo(tmp_path / "p")
    for rel in TRACKED + UNTRACKED:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "package x\n" if rel.endswith(".go") else "# Bazel\n\nRun the genrule.\n"
        path.write_text(text, encoding="utf-8")
    subprocess.run(["git", "-C", str(root), "add", "--", *TRACKED], check=True)
    return root


def test_a_tracked_build_folder_is_walked_an_untracked_one_is_not(tmp_path: Path) -> None:
    root = project(tmp_path)
    walked = scan(
        root,
        ignored_dirs=DEFAULT_IGNORED,
        max_file_bytes=1 << 20,
        wanted=lambda name: True,
        stats=ScanStats(),
    )
    # dependencies stay out however they are committed (vendor/, node_modules/)
    assert sorted(f.rel for f in walked) == [
        "book/src/build/bazel.md",
        "pkg/build/nodeimage/build.go",
    ]


def test_a_books_chapter_in_a_tracked_build_folder_is_a_source(tmp_path: Path) -> None:
    root = project(tmp_path)
    cfg = load_config(root)
    found = [rel for rel, _ in SourceSet(root, cfg, root / cfg.knowledge_dir).files()]
    assert found == ["book/src/build/bazel.md"]
    report = {f.decision.rel: f.decision for f in explain_sources(root, cfg).files}
    assert report["book/src/build/bazel.md"].included
    # mdBook's build-dir, not committed: a build's output
    left = SourceSet(root, cfg, root / cfg.knowledge_dir).decide("book/build/index.md")
    assert (left.included, left.rule, left.detail) == (
        False,
        "build or dependency folder",
        "build/",
    )
