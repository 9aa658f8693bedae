"""Seed 002, "reference counting": every face counts what it hands out (issue 20).

Before, only MCP searches counted. Now the CLI's ``search`` and the prompt hook's
injections count too (kept in the keyword index, no store version per count), and
``count_references = false`` turns counting off everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import run_cli
from fakes import FakeEmbedder

from app.prompt_hook import prompt_context
from engine.services.memory import Memory


def _project(tmp_path: Path, config: str = "") -> tuple[Path, str]:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    if config:
        (root / ".claude" / "memory.config.toml").write_text(config, encoding="utf-8")
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        entry = memory.add("the wombat importer retries failed uploads three times").entry
        memory.add("an unrelated note about release trains")
    return root, entry.id


def _count(root: Path, entry_id: str) -> int:
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        return memory.require(entry_id).reference_count


def test_seed002_reference_counts_cli_search_counts_each_result(tmp_path: Path) -> None:
    root, entry_id = _project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    for _ in range(2):
        out = run_cli("search", "wombat importer", "--mode", "keyword", cwd=root, home=home)
        assert out.returncode == 0 and "wombat" in out.stdout, out.stderr
    assert _count(root, entry_id) == 2
    listed = json.loads(run_cli("list", "--json", "--sort", "refs", cwd=root, home=home).stdout)
    assert listed[0]["id"] == entry_id and listed[0]["referenceCount"] == 2


def test_seed002_reference_counts_the_hook_counts_what_it_injects(tmp_path: Path) -> None:
    root, entry_id = _project(tmp_path)
    prompt = json.dumps({"prompt": "how does the wombat importer retry uploads?"})
    context = prompt_context(prompt, root)
    assert "wombat importer" in context
    assert _count(root, entry_id) == 1


def test_seed002_reference_counts_can_be_turned_off(tmp_path: Path) -> None:
    root, entry_id = _project(tmp_path, "count_references = false\n")
    home = tmp_path / "home"
    home.mkdir()
    run_cli("search", "wombat importer", "--mode", "keyword", cwd=root, home=home)
    prompt_context(json.dumps({"prompt": "how does the wombat importer retry?"}), root)
    assert _count(root, entry_id) == 0


def test_a_cli_vector_search_counts_without_writing_the_store(tmp_path: Path) -> None:
    # The counts wait in the keyword index for the next writer, as a keyword search's
    # do: a hybrid search that opened LanceDB to read it commits nothing there either
    # (before, closing folded the counts in: a store version, and the write lock, per search).
    from engine.storage.lance_rows import latest_version_on_disk

    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    with Memory.open(root) as memory:  # the real model: the search must find the entry
        entry_id = memory.add("the wombat importer retries failed uploads three times").entry.id
        memory.add("an unrelated note about release trains")
        vectors = memory.paths.vectors_dir
    version = latest_version_on_disk(vectors)
    out = run_cli("search", "wombat importer", "--mode", "hybrid", "--json", cwd=root, home=home)
    assert out.returncode == 0, out.stderr
    assert [r["id"] for r in json.loads(out.stdout)] == [entry_id]
    assert latest_version_on_disk(vectors) == version
    assert _count(root, entry_id) == 1
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        memory.compact()  # hands the waiting counts to the store (as the next write does)
    assert latest_version_on_disk(vectors) != version
    assert _count(root, entry_id) == 1
