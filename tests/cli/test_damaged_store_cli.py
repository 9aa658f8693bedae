"""A damaged store walked through the real entry point (issue 45, item 1): a data file
truncated after ``init``; ``doctor`` reports every part and names the repair; a command
that meets the damage says it in one line, once; the repair brings every entry back."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli

from engine.services.health import REBUILD_STORE
from engine.storage.paths import MemoryPaths

RUST_NOISE = ("/rustc/", ".rs:", "LanceError", "Traceback")


def _entries(root: Path, home: Path) -> dict[str, str]:
    listed = run_cli("list", "--json", "-n", "1000", cwd=root, home=home)
    assert listed.returncode == 0, listed.stderr
    return {e["id"]: e["content"] for e in json.loads(listed.stdout)}


@pytest.mark.slow  # init and the rebuild embed with the real model
def test_damaged_store_doctor_reports_names_the_repair_and_the_repair_loses_nothing(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")
    (root / "docs").mkdir()
    (root / "README.md").write_text(
        "# Ledger\n\nThe ledger service books payments.\n\n## Deploy\n\n"
        "Deploy with blue green releases behind the load balancer.\n"
    )
    (root / "docs" / "retries.md").write_text(
        "# Retries\n\nUpstream calls retry with exponential backoff and jitter.\n"
    )
    assert run_cli("init", "--no-hooks", "--skip-analyze", cwd=root, home=home).returncode == 0
    assert run_cli("add", "Quote camelCase columns in LanceDB filters", cwd=root, home=home)
    run_cli("search", "x", cwd=root, home=home)  # as in the repro
    before = _entries(root, home)
    assert len(before) >= 3
    paths = MemoryPaths.for_root(root)
    for part in (paths.vectors_dir / "memories.lance" / "data").glob("*.lance"):
        os.truncate(part, 100)

    doctor = run_cli("doctor", cwd=root, home=home)
    assert doctor.returncode == 1
    parts = [line.split()[1] for line in doctor.stdout.splitlines() if not line[0].isspace()]
    assert parts[:3] == ["config", "embedding", "vector"] and parts[-1] == "model"
    damaged = next(line for line in doctor.stdout.splitlines() if line.startswith("problem"))
    assert "vector store" in damaged and "is damaged (one of its files is cut short)" in damaged
    assert f"→ run: {REBUILD_STORE}" in doctor.stdout
    assert not any(noise in doctor.stdout + doctor.stderr for noise in RUST_NOISE)

    # The keyword index out of step too (a crash, a copy): the damage is met on opening
    # the memory and again by the write, and still said once.
    with sqlite3.connect(paths.fts_path) as db:
        db.execute("UPDATE fts_state SET value = '1' WHERE key = 'store_version'")
    db.close()
    for argv in (("index", "--force"), ("index", "--force")):
        failed = run_cli(*argv, cwd=root, home=home)
        assert failed.returncode == 1
        said = [line for line in failed.stderr.splitlines() if "vector store" in line]
        assert len(said) == 1, failed.stderr
        assert f"is damaged (one of its files is cut short); `{REBUILD_STORE}`" in said[0]
        assert not any(noise in failed.stderr for noise in RUST_NOISE)

    repaired = run_cli("doctor", "--rebuild-store", cwd=root, home=home)
    assert repaired.returncode == 0, repaired.stdout
    assert f"rebuilt from the keyword index: {len(before)} entries" in repaired.stdout
    assert _entries(root, home) == before
    found = run_cli("search", "exponential backoff", "--mode", "vector", cwd=root, home=home)
    assert found.returncode == 0 and "exponential backoff" in found.stdout
    assert run_cli("doctor", cwd=root, home=home).returncode == 0
