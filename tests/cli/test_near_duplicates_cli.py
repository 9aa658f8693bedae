"""``add`` on the command line reports a near duplicate, or skips it when the project says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import git_repo

from engine.embedding.base import DIMENSION


def test_seed002_cli_add_reports_a_near_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The console script would embed with the real model; the CLI's own main() runs here
    # in-process with vectors put at a known cosine similarity (0.95).
    from fakes import ControlledEmbedder

    import engine.services.memory as memory_module
    from app.cli.main import main

    auth, paraphrase = "Auth uses JWT with 24h expiry", "Authentication uses JWT, 24-hour expiry"
    third = "JWT auth tokens expire after 24 hours"
    embedder = ControlledEmbedder(
        {auth: [1.0, 0.0], paraphrase: [0.95, 0.312], third: [0.96, 0.28]}, dimension=DIMENSION
    )
    monkeypatch.setattr(memory_module, "default_embedder", lambda: embedder)
    root = git_repo(tmp_path / "project")
    assert main(["--project", str(root), "add", auth]) == 0
    first = capsys.readouterr().out.strip()
    assert main(["--project", str(root), "add", paraphrase, "--json"]) == 0
    added = json.loads(capsys.readouterr().out)
    assert added["created"] is True
    assert added["nearDuplicate"]["id"] == first
    (root / ".claude" / "memory.config.toml").write_text('near_duplicate = "skip"\n', "utf-8")
    assert main(["--project", str(root), "add", third]) == 0
    skipped = capsys.readouterr()
    nearest = added["id"]  # the paraphrase is nearer (0.9995) than the first note (0.96)
    assert skipped.out.strip() == nearest  # the id of the entry already holding it
    assert skipped.err.startswith(f"not added: near duplicate of {nearest} (similarity 1.00)")
