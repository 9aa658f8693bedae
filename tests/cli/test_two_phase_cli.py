"""Two-phase indexing through the real console script: ``index --no-embed`` returns with
keyword search ready and says how many entries wait for their vector, ``status`` and
``doctor`` count them, ``embed`` (or a plain ``index``, in the foreground) computes them,
and a ``memory-tui index`` killed with SIGKILL mid-embedding is completed by the next."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli, waiting
from fakes import FakeEmbedder
from read_back import store_alone

from engine.embedding.default import default_embedder
from engine.services.memory import Memory

NOTE = "# Gears\n\nEvery sprocket is greased weekly.\n\n## Chains\n\nChains are oiled daily.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = git_repo(tmp_path / "repo")
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "gears.md").write_text(NOTE, encoding="utf-8")
    return root


def test_index_no_embed_returns_with_keyword_search_ready_and_counts_what_waits(
    project: Path, home: Path
) -> None:
    indexed = run_cli("index", "--no-embed", cwd=project, home=home)

    assert indexed.returncode == 0, indexed.stderr
    assert "0 chunks embedded" in indexed.stdout
    assert "vectors: 2 entries wait for theirs" in indexed.stdout
    assert "memory-tui embed" in indexed.stdout
    found = run_cli("search", "sprocket", "--mode", "keyword", "--json", cwd=project, home=home)
    [hit] = json.loads(found.stdout)
    assert "Every sprocket is greased weekly." in hit["content"]

    status = run_cli("status", "--json", cwd=project, home=home)
    assert json.loads(status.stdout)["pending_vectors"] == 2
    text = run_cli("status", cwd=project, home=home).stdout
    assert "vectors:   2 of 2 entries wait for theirs" in text

    doctor = run_cli("doctor", "--json", cwd=project, home=home)
    [check] = [c for c in json.loads(doctor.stdout)["checks"] if c["part"] == "vectors"]
    assert check["status"] == "warning" and check["fix"] == "memory-tui embed"
    assert check["detail"].startswith("2 of 2 entries wait for their vector")
    assert doctor.returncode == 0  # searches work: a warning, not a problem


def test_help_names_the_flag_and_the_embed_command(project: Path, home: Path) -> None:
    for command in ("index", "init"):
        assert "--no-embed" in run_cli(command, "--help", cwd=project, home=home).stdout
    assert "hybrid search uses their keywords" in run_cli(
        "embed", "--help", cwd=project, home=home
    ).stdout.replace("\n", " ").replace("  ", " ")


@pytest.mark.slow
def test_embed_and_a_foreground_index_leave_nothing_waiting(project: Path, home: Path) -> None:
    run_cli("index", "--no-embed", cwd=project, home=home)
    hybrid = run_cli(
        "search", "sprocket greased", "--mode", "hybrid", "--json", cwd=project, home=home
    )
    [result] = json.loads(hybrid.stdout)
    assert result["explanation"]["gate"] == "vector_pending"
    assert result["explanation"]["vectorRank"] is None

    embedded = run_cli("embed", "--json", cwd=project, home=home)
    assert embedded.returncode == 0, embedded.stderr
    assert json.loads(embedded.stdout) | {"seconds": 0} == {
        "embedded": 2,
        "pending": 0,
        "seconds": 0,
    }
    hybrid = run_cli(
        "search", "sprocket greased", "--mode", "hybrid", "--json", cwd=project, home=home
    )
    assert json.loads(hybrid.stdout)[0]["explanation"]["gate"] != "vector_pending"

    (project / ".claude" / "knowledge" / "more.md").write_text("# More\n\nBelts slip.\n")
    indexed = run_cli("index", cwd=project, home=home)  # foreground: both phases
    assert indexed.returncode == 0, indexed.stderr
    assert "1 chunks embedded" in indexed.stdout and "wait for theirs" not in indexed.stdout
    assert waiting(project) == 0


@pytest.mark.slow
def test_memory_tui_index_killed_mid_embedding_is_completed_by_the_next_run(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "big")
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    rng = random.Random(9)
    words = [f"w{n}" for n in range(3000)]
    for f in range(40):
        sections = [
            f"## Part {s}\n\n" + " ".join(rng.choice(words) for _ in range(120)) + ".\n"
            for s in range(15)
        ]
        (folder / f"doc{f:02}.md").write_text(f"# Doc {f}\n\n" + "\n".join(sections))
    assert CLI is not None
    proc = subprocess.Popen(
        [CLI, "index"],
        cwd=root,
        env=clean_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        first = -1
        while True:  # until phase 1 is done and at least one batch of vectors committed
            now = waiting(root)
            first = max(first, now)
            if 0 < now < first:
                break
            assert proc.poll() is None, "index finished before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert 0 < waiting(root) < first

    again = run_cli("index", "--json", cwd=root, home=home, timeout=600)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["entries_created"] == 0 and report["pending"] == 0
    with Memory.open(root, embedder=default_embedder()) as memory:
        entries = memory.list()
        assert len(entries) == first  # every chunk, once
        assert memory.vectors_waiting() == 0
        with store_alone(memory, FakeEmbedder(384)) as stored:
            ids = [e.id for e in stored.list()]
            assert stored.vectors_waiting() == 0  # no placeholder in the store
        assert sorted(ids) == sorted(e.id for e in entries)
        assert max(Counter((e.file_path, e.content_hash) for e in entries).values()) == 1
        for entry in entries[:: max(1, len(entries) // 25)]:
            found = memory.search(entry.content, mode="vector", limit=5).results
            assert entry.id in {r.entry.id for r in found}


def test_init_no_embed_says_how_many_wait_and_status_agrees(project: Path, home: Path) -> None:
    result = run_cli("init", "--no-hooks", "--skip-analyze", "--no-embed", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert "memory: 2 entries, keyword index ready; 2 wait for their vector" in result.stdout
    assert "computing the vectors" not in result.stderr
    assert (
        json.loads(run_cli("status", "--json", cwd=project, home=home).stdout)["pending_vectors"]
        == 2
    )
