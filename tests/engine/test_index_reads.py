"""An index run reads only what may have changed (issue 38, index1s): a file whose stat is
the one recorded when it was last indexed is not opened, a changed file is read and
chunked once, and an unchanged run imports neither LanceDB, the model's runtime nor the
markdown stack. Real LanceDB and SQLite files, the fake embedder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_support import fresh_python

import engine.services.file_entries
from engine.services import index_reads
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.storage.meta import IndexMeta

KNOWLEDGE = ".claude/knowledge"
NOTES = {
    "alpha.md": "# Alpha\n\nThe alpha service retries with jittered backoff.\n",
    "beta.md": "# Beta\n\nBeta reads the ledger from the warehouse each night.\n",
    "gamma/delta.md": "# Delta\n\nDelta owns the billing export to the finance team.\n",
}


def write_notes(root: Path) -> None:
    for rel, text in NOTES.items():
        path = root / KNOWLEDGE / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def keyword(memory: Memory, query: str) -> list[str]:
    return [r.entry.content for r in memory.search(query, mode="keyword").results]


@pytest.fixture
def opens(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Paths under the knowledge folder opened through ``os.open`` (the file guard's read)."""
    seen: list[str] = []
    real_open = os.open

    def spy(path: str | os.PathLike[str], *args: int, **kwargs: int) -> int:
        if str(tmp_path / KNOWLEDGE) in os.fspath(path):
            seen.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    return seen


def test_files_whose_stat_is_recorded_are_not_opened_again(
    tmp_path: Path, memory: Memory, monkeypatch: pytest.MonkeyPatch, opens: list[str]
) -> None:
    monkeypatch.setattr(index_reads, "RACY_NS", 0)  # the files were written just now
    write_notes(tmp_path)
    Indexer(memory).run()
    assert len(opens) == len(NOTES)  # each read once (for its size and for its chunks)
    opens.clear()

    report = Indexer(memory).run()

    assert opens == []
    assert report.files_skipped == report.files_total == len(NOTES)
    assert Indexer(memory).freshness().outdated == 0
    assert opens == []


def test_an_edit_that_keeps_the_size_and_puts_the_modification_time_back_is_seen(
    tmp_path: Path, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_reads, "RACY_NS", 0)
    write_notes(tmp_path)
    Indexer(memory).run()
    path = tmp_path / KNOWLEDGE / "alpha.md"
    before = path.stat()
    text = NOTES["alpha.md"].replace("retries", "repeats")
    assert len(text) == len(NOTES["alpha.md"])
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as cp -p or rsync -t do
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)

    report = Indexer(memory).run()

    assert report.files_processed == 1
    assert keyword(memory, "repeats") and not keyword(memory, "retries")


def test_a_file_written_just_before_the_run_has_no_stat_recorded(
    tmp_path: Path, memory: Memory
) -> None:
    write_notes(tmp_path)  # now: within RACY_NS of the run
    Indexer(memory).run()

    meta, _ = IndexMeta.load(memory.paths.meta_path)
    assert set(meta.file_hashes) == {f"{KNOWLEDGE}/{rel}" for rel in NOTES}
    assert meta.file_stats == {}


def test_stats_are_learned_from_a_run_that_finds_a_file_unchanged_by_its_hash(
    tmp_path: Path, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_notes(tmp_path)
    Indexer(memory).run()  # too recent: hashes only
    monkeypatch.setattr(index_reads, "RACY_NS", 0)

    Indexer(memory).run()

    meta, _ = IndexMeta.load(memory.paths.meta_path)
    assert set(meta.file_stats) == set(meta.file_hashes)
    alpha = os.stat(tmp_path / KNOWLEDGE / "alpha.md")
    assert meta.file_stats[f"{KNOWLEDGE}/alpha.md"] == index_reads.stat_key(alpha)


def test_a_changed_file_is_chunked_once_per_run(
    tmp_path: Path, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_notes(tmp_path)
    calls: list[str] = []
    real = engine.services.file_entries.file_entries

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(str(args[2]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.services.file_entries, "file_entries", counted)

    Indexer(memory).run()

    assert sorted(calls) == sorted(f"{KNOWLEDGE}/{rel}" for rel in NOTES)


def test_malformed_stats_in_meta_json_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "meta.json"
    path.write_text(
        json.dumps({"fileHashes": {"a.md": "x"}, "fileStats": {"a.md": [1, 2], "b.md": "x",
                                                               "c.md": [1, "2"], "d.md": []}}),
        encoding="utf-8",
    )  # fmt: skip
    meta, problem = IndexMeta.load(path)
    assert problem is None
    assert meta.file_stats == {"a.md": (1, 2)}
    meta.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["fileStats"] == {"a.md": [1, 2]}


def test_index_runs_import_only_what_their_change_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unchanged run imports neither LanceDB, the model's runtime nor the markdown
    stack; a one-file edit writes to LanceDB (with the REST namespace client LanceDB
    imports itself: docs/upstream/lancedb-import.md), without the model, the search
    stack (a run that only writes searches nothing) or, with no front matter in the
    file, the YAML parser."""
    monkeypatch.setattr(index_reads, "RACY_NS", 0)
    write_notes(tmp_path)
    with Memory.open(tmp_path) as memory:  # the default embedder, never loaded
        assert Indexer(memory).run(embed=False).files_processed == len(NOTES)
    code = f"""
        import json, sys
        from app.cli.main import main
        code = main(["--project", {str(tmp_path)!r}, "index", "--no-embed"])
        heavy = [m for m in sys.modules if m.split(".")[0] in ("lancedb", "onnxruntime")
                 or m.startswith(("engine.markdown", "markdown_it"))]
        with open({str(tmp_path / KNOWLEDGE / "beta.md")!r}, "a", encoding="utf-8") as f:
            f.write("Beta also keeps a copy in the archive.\\n")
        edited = main(["--project", {str(tmp_path)!r}, "index", "--no-embed"])
        after = {{"lancedb": "lancedb" in sys.modules, "model": "onnxruntime" in sys.modules,
                  "search": sorted(m for m in sys.modules if m.startswith("engine.search.")),
                  "yaml": "yaml" in sys.modules}}
        print(json.dumps({{"code": code, "heavy": sorted(heavy), "edited": edited, **after}}))
    """
    done = fresh_python(code)
    assert done.returncode == 0, done.stderr
    assert f"{len(NOTES)} unchanged" in done.stdout
    assert f"1 changed, {len(NOTES) - 1} unchanged" in done.stdout
    # The changed file is written to the store (LanceDB), without the model.
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {
        "code": 0,
        "heavy": [],
        "edited": 0,
        "lancedb": True,
        "model": False,
        "search": [],
        "yaml": False,
    }
