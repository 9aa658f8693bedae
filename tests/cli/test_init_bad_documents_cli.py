"""One document that cannot be indexed does not fail ``init`` (issue 45, item 4): it is
named with the reason, skipped, and the rest is indexed; ``init`` exits 0, every time it
runs, and ``doctor`` calls the file a warning."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli

from engine.guards.files import DEFAULT_MAX_BYTES

INIT = ("init", "--no-hooks", "--skip-analyze", "--no-embed")


def _unreadable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``path`` cannot be opened for reading: no read permission, and where the tests run
    as root (who reads anything) its open refused as the kernel refuses it to others."""
    path.chmod(0)
    if os.geteuid() != 0:
        return
    real_open = os.open

    def refusing(file: str | os.PathLike[str], flags: int, *args: int, **kw: int) -> int:
        if Path(file) == path.resolve() and not flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, flags, *args, **kw)

    monkeypatch.setattr(os, "open", refusing)


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("not UTF-8", "not UTF-8"),
        ("too large", f"over {DEFAULT_MAX_BYTES:,} bytes"),
        ("unreadable", "unreadable (Permission denied)"),
    ],
)
def test_a_bad_document_is_skipped_with_a_warning_and_init_succeeds(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, kind: str, why: str
) -> None:
    root = git_repo(tmp_path / "project")
    (root / "docs").mkdir()
    (root / "README.md").write_text("# Tool\n\nThe tool deploys with blue green releases.\n")
    bad = root / "docs" / "bad.md"
    if kind == "not UTF-8":
        bad.write_bytes(b"# Notes\n\n\xff\xfe latin-1 text\n")
    elif kind == "too large":
        bad.write_bytes(b"# Big\n\n" + b"x" * DEFAULT_MAX_BYTES)
    else:
        bad.write_text("# Secret plans\n\nNobody may read this.\n")
        _unreadable(bad, monkeypatch)

    for _ in range(2):  # the second run is not "incomplete" either
        done = run_cli(*INIT, cwd=root, home=home)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Initialised {root}\n")
        assert "1 file skipped" in done.stdout
        warnings = [line for line in done.stderr.splitlines() if "docs/bad.md" in line]
        assert len(warnings) == 1, done.stderr
        assert warnings[0].startswith(f"memory-tui: warning: docs/bad.md: {why}")
        assert "skipped" in warnings[0]
        assert "error" not in done.stderr and "incomplete" not in done.stderr

    found = run_cli("search", "blue green releases", "--mode", "keyword", cwd=root, home=home)
    assert "README.md" in found.stdout  # everything else was indexed

    doctor = run_cli("doctor", "--json", cwd=root, home=home)
    checks = {c["part"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["knowledge"]["status"] == "warning"
    assert f"docs/bad.md: {why.split(' (')[0]}" in checks["knowledge"]["detail"]
    assert doctor.returncode == 0, doctor.stdout
