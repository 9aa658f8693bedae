"""Reference counts are counters: a search that counts its results changes one column of
the mirror's rows, never rewrites them (their rowids and the keyword index stay)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from fakes import FakeEmbedder
from read_back import from_the_store

from app.prompt_hook import prompt_context
from engine.services.memory import Memory

REWRITES = """
CREATE TABLE rewrites (what TEXT NOT NULL, id TEXT NOT NULL);
CREATE TRIGGER watch_insert AFTER INSERT ON entries BEGIN
    INSERT INTO rewrites VALUES ('insert', new.id);
END;
CREATE TRIGGER watch_delete AFTER DELETE ON entries BEGIN
    INSERT INTO rewrites VALUES ('delete', old.id);
END;
"""


def _snapshot(fts: Path) -> tuple[list[tuple[int, str, int]], list[tuple[str, str]], int]:
    """(rowid, id, referenceCount) of every row, the rewrites seen, the FTS segment rows."""
    with sqlite3.connect(fts) as db:
        rows = db.execute("SELECT rowid, id, referenceCount FROM entries ORDER BY rowid").fetchall()
        seen = db.execute("SELECT what, id FROM rewrites").fetchall()
        segments = db.execute(
            "SELECT count(*), total(length(block)) FROM memory_fts_data"
        ).fetchone()
    return rows, seen, int(segments[0]) * 1_000_000 + int(segments[1])


def _project(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        ids = [
            memory.add("the wombat importer retries failed uploads three times").entry.id,
            memory.add("the wombat exporter writes parquet files nightly").entry.id,
            memory.add("an unrelated note about release trains").entry.id,
        ]
        fts = memory.paths.fts_path
    with sqlite3.connect(fts) as db:
        db.executescript(REWRITES)
    return root, fts, ids


def test_counting_a_searchs_results_rewrites_no_row(tmp_path: Path) -> None:
    root, fts, ids = _project(tmp_path)
    rows, _, segments = _snapshot(fts)
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        found = memory.search("wombat", mode="keyword").results
        assert {r.entry.id for r in found} == set(ids[:2])
        memory.referenced([r.entry.id for r in found])
        memory.referenced([ids[0]])
        after, rewrites, segments_after = _snapshot(fts)
        assert rewrites == []  # no DELETE + INSERT of a row
        assert [(rowid, i) for rowid, i, _ in after] == [(rowid, i) for rowid, i, _ in rows]
        assert segments_after == segments  # the keyword index was not re-indexed
        assert {i: n for _, i, n in after} == {ids[0]: 2, ids[1]: 1, ids[2]: 0}
        assert [r.entry.id for r in memory.search("parquet", mode="keyword").results] == [ids[1]]
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:  # the counts reach the store
        memory.add("a later write folds the counts in when the process closes")
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        stored = from_the_store(memory, FakeEmbedder(384))
        assert [stored[i].reference_count for i in ids] == [2, 1, 0]


def test_the_prompt_hook_counts_without_rewriting(tmp_path: Path) -> None:
    root, fts, ids = _project(tmp_path)
    rows, _, _ = _snapshot(fts)
    context = prompt_context(json.dumps({"prompt": "how does the wombat importer retry?"}), root)
    assert "wombat importer" in context
    after, rewrites, _ = _snapshot(fts)
    assert rewrites == []
    assert [r[:2] for r in after] == [r[:2] for r in rows]
    assert dict((i, n) for _, i, n in after)[ids[0]] == 1
