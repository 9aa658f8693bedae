"""Options of ``search`` and ``list`` and the global ``--quiet``: ``--min-score`` checked and
ignored in keyword mode, ``list --sort refs``, ``-q`` before or after the command.

Projects are filled in-process with the fake embedder (of the real model's dimension), so
the commands run here never load the embedding model.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_usage_error, run_cli, sprocket_project
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds one note about sprockets."""
    return sprocket_project(tmp_path)


def test_seed003_f6_cli_min_score(project: Path, home: Path) -> None:
    bad = run_cli("search", "sprocket", "--min-score", "1.5", cwd=project, home=home)
    assert_usage_error(bad, "--min-score", "from -1 to 1")
    word = run_cli("search", "sprocket", "--min-score", "high", cwd=project, home=home)
    assert_usage_error(word, "--min-score")
    ok = run_cli(
        "search", "sprocket", "--mode", "keyword", "--min-score", "0.9", cwd=project, home=home
    )
    assert ok.returncode == 0, ok.stderr
    assert "Sprocket grease" in ok.stdout
    assert "ignored in keyword mode" in ok.stderr


def test_seed004_list_sort_refs_most_referenced_first(project: Path, home: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        old = memory.list()[0].id
        popular = memory.add("Gearbox oil is synthetic", category="gotcha").entry.id
        newest = memory.add("Chains are replaced yearly", category="pattern").entry.id
        memory.referenced([popular, popular, old])
    recent = run_cli("list", "--json", cwd=project, home=home)
    by_refs = run_cli("list", "--sort", "refs", "--json", cwd=project, home=home)
    assert recent.returncode == by_refs.returncode == 0, by_refs.stderr
    assert [e["id"] for e in json.loads(recent.stdout)] == [newest, popular, old]
    rows = json.loads(by_refs.stdout)
    assert [e["id"] for e in rows] == [popular, old, newest]
    top = run_cli("list", "--sort", "refs", "-n", "1", "--json", cwd=project, home=home)
    assert [e["id"] for e in json.loads(top.stdout)] == [popular]


def test_seed004_global_quiet_keeps_errors_only(project: Path, home: Path) -> None:
    listed = run_cli("list", "--json", cwd=project, home=home)
    [note] = [e["id"] for e in json.loads(listed.stdout)]
    search = ("search", "sprocket", "--min-score", "0.5", "--mode", "keyword")
    loud = run_cli(*search, cwd=project, home=home)
    quiet = run_cli("--quiet", *search, cwd=project, home=home)
    assert loud.stdout == quiet.stdout and "Sprocket" in quiet.stdout
    assert "ignored in keyword mode" in loud.stderr and quiet.stderr == ""
    deleted = run_cli("delete", note, "-q", cwd=project, home=home)
    assert (deleted.returncode, deleted.stderr) == (0, "")
    missing = run_cli("-q", "delete", note, cwd=project, home=home)  # errors still show
    assert missing.returncode == 1 and f"no entry with id '{note}'" in missing.stderr
