"""Issue 36 through the real ``memory-tui`` console script, on a memory embedded by the
real model: results come in the order of the score shown, that score is a relevance on
one scale (not "1.0 for whoever came first"), and nonsense finds nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli

from engine.services.entries import NewEntry
from engine.services.memory import Memory

NOTES = [
    ("LanceDB needs double quotes around camelCase column names in filters", "gotcha"),
    ("Use exponential backoff with jitter when retrying HTTP calls", "pattern"),
    ("Retries stop after five attempts; the last error is raised to the caller", "component"),
    ("HTTP calls time out after 30 seconds unless the request sets its own timeout", "gotcha"),
    ("The keyword index is SQLite FTS5 with the porter stemmer", "architecture"),
    ("Search results are fused from the vector and keyword lists", "architecture"),
    ("Knowledge files are markdown under .claude/knowledge, split at headings", "domain"),
    ("The embedding model is all-MiniLM-L6-v2, run by onnxruntime", "architecture"),
    ("Every write holds a lock on write.lock; readers never wait for it", "component"),
    ("The prompt hook injects at most three entries, one per file", "component"),
    ("A failed HTTP call is logged with its status code and the retry count", "pattern"),
    ("Configuration lives in .claude/memory.config.toml; environment variables win", "domain"),
]
NONSENSE = ("zzzz", "asdf qwerty", "x", "qwertyuiop", "blorp fizzwhack", "how do I")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = git_repo(tmp_path_factory.mktemp("relevance") / "project")
    with Memory.open(root) as memory:  # the real model
        memory.add_many([NewEntry(text, category) for text, category in NOTES])
    return root


@pytest.mark.slow
def test_results_follow_the_score_shown_in_json_and_text(project: Path, home: Path) -> None:
    query = "how should failed HTTP calls be retried"
    found = run_cli("search", query, "--json", "--limit", "12", cwd=project, home=home)
    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    scores = [row["score"] for row in rows]
    assert len(rows) >= 2 and scores == sorted(scores, reverse=True)
    assert 0.5 <= scores[0] < 1.0  # relevant, and not scaled to 1 for being first
    assert all(word in rows[0]["content"].lower() for word in ("http", "retr"))
    why = rows[0]["explanation"]
    assert why["vectorSimilarity"] > 0.4 and 0 < why["coverage"] <= 1
    text = run_cli("search", query, "--limit", "12", cwd=project, home=home)
    shown = [float(s) for s in re.findall(r"^\d+\. \[(\d\.\d{4})\]", text.stdout, re.MULTILINE)]
    assert shown == sorted(shown, reverse=True) and len(shown) == len(rows)
    assert "(cosine " in text.stdout  # what the score rests on, beside it


@pytest.mark.slow
def test_nonsense_and_unrelated_queries_find_nothing(project: Path, home: Path) -> None:
    for query in (*NONSENSE, "how do I bake sourdough bread"):
        found = run_cli("search", query, "--json", cwd=project, home=home)
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout) == [], query
    said = run_cli("search", "x", cwd=project, home=home)
    assert "No results" in said.stdout and "nothing to search for" in said.stderr
    # --min-score 0 opens the gate: the same query then lists its least-bad neighbours
    opened = run_cli("search", "zzzz", "--json", "--min-score", "0", cwd=project, home=home)
    assert len(json.loads(opened.stdout)) == 5
