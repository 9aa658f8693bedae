"""A read-only or full ``.claude/memory/``, through the real CLI: reads keep working from
what is there, writes fail with one clear line, and no file is renamed or changed.

The folder is made read-only (a read-only bind mount) or full (a 2 MB tmpfs filled up) in
a private mount namespace of the command alone, which needs root and ``unshare``; the
tests are skipped elsewhere. Permission bits cannot stand in: root ignores them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; shift; exec "$@"'
FULL = (
    'tmp=$(mktemp -d) && cp -a "$1/." "$tmp/" && mount -t tmpfs -o size=2m tmpfs "$1" '
    '&& cp -a "$tmp/." "$1/" && rm -rf "$tmp" || exit 99; '
    'dd if=/dev/zero of="$1/.filler" bs=4k 2>/dev/null; shift; exec "$@"'
)
NOTE = "Sprockets are greased every Friday"


def _namespaces_work() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", READ_ONLY, "sh", "/tmp", "true"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _namespaces_work(), reason="needs root and unshare -m for a read-only mount"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one note."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(NOTE, category="gotcha")
    return root


def run_on(
    script: str, folder: Path, *args: str, cwd: Path, home: Path
) -> subprocess.CompletedProcess[str]:
    """The console script, with ``folder`` read-only or full for it alone."""
    assert CLI is not None
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", str(folder), CLI, *args],
        cwd=cwd,
        env=clean_env(home),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with the SHA-256 of its bytes."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("script", [READ_ONLY, FULL], ids=["read-only", "full"])
def test_reads_work_and_writes_fail_with_one_line(
    project: Path, tmp_path: Path, script: str
) -> None:
    folder = project / ".claude" / "memory"
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        [entry] = memory.list()
    entry_id, before = entry.id, snapshot(folder)
    for args in (["list"], ["search", "sprocket", "--mode", "keyword"], ["get", entry_id]):
        result = run_on(script, folder, *args, cwd=project, home=tmp_path)
        assert result.returncode == 0, result.stderr
        assert NOTE in result.stdout
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) <= 1, result.stderr
    for args in (["add", "Deploys run on Fridays"], ["delete", entry_id]):
        result = run_on(script, folder, *args, cwd=project, home=tmp_path)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        errors = [line for line in result.stderr.splitlines() if "error:" in line]
        assert len(errors) == 1, result.stderr
        assert ".claude/memory" in errors[0]
    assert snapshot(folder) == before  # nothing renamed, moved aside or changed


def test_doctor_reports_a_read_only_memory(project: Path, tmp_path: Path) -> None:
    folder = project / ".claude" / "memory"
    before = snapshot(folder)
    result = run_on(READ_ONLY, folder, "doctor", cwd=project, home=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    [line] = [line for line in result.stdout.splitlines() if "memory folder" in line]
    assert line.startswith("problem") and "cannot be written (Read-only file system)" in line
    assert "→ run: make it writable" in result.stdout
    assert snapshot(folder) == before


def test_a_healthy_keyword_index_that_cannot_be_written_is_kept(
    project: Path, tmp_path: Path
) -> None:
    fts = project / ".claude" / "memory" / "fts.sqlite"
    before = snapshot(fts.parent)
    result = run_on(READ_ONLY, fts, "list", cwd=project, home=tmp_path)  # the file alone
    assert result.returncode == 0, result.stderr
    assert NOTE in result.stdout
    after = snapshot(fts.parent)  # a reader may leave SQLite's empty -wal/-shm beside it
    assert {k: v for k, v in after.items() if not k.endswith(("-wal", "-shm"))} == before
    assert not list(fts.parent.glob("*.corrupt"))
