"""One JSON shape on every face: the CLI's JSON output checked against the shipped schemas.

``search --json``, ``search --format json``, ``list --json``, ``get --json`` and
``add --json`` are run as a user runs them (the real console script) and each entry or
result is validated against ``engine/output/schema/*.schema.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine import output_schema
from engine.embedding.base import DIMENSION
from engine.output.serialize import ENTRY_KEYS, EXPLANATION_KEYS, RESULT_KEYS
from engine.services.indexing import Indexer
from engine.services.memory import Memory

NOTE = "Sprocket alignment uses the blue jig in the workshop"


def check(name: str, instance: Any) -> None:
    """Validate ``instance`` against the schema ``name`` (fails with the schema's message)."""
    jsonschema.validate(instance, output_schema(name), cls=jsonschema.Draft202012Validator)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository with a note, a knowledge file (two sections) and a stale note."""
    root = git_repo(tmp_path / "project")
    knowledge = root / ".claude" / "knowledge" / "patterns"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text(
        "# Gears\n\nEvery sprocket is greased weekly.\n\n## Chains\n\nSprocket chains "
        "are oiled monthly.\n",
        encoding="utf-8",
    )
    (root / "billing.py").write_text("def compute_total(items):\n    return 1\n", "utf-8")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(NOTE, category="pattern", keywords=["sprocket"])
        memory.add("compute_total() in billing.py rounds each sprocket price", source="session")
        Indexer(memory).run()
    (root / "billing.py").write_text("def total(items):\n    return 1\n", "utf-8")
    return root


def cli_json(project: Path, home: Path, *args: str) -> Any:
    result = run_cli(*args, cwd=project, home=home)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_schemas_describe_the_serializer() -> None:
    entry, result = output_schema("entry"), output_schema("search_result")
    assert tuple(entry["properties"]) == ENTRY_KEYS
    assert tuple(result["properties"]) == RESULT_KEYS
    assert tuple(result["properties"]["explanation"]["properties"]) == EXPLANATION_KEYS
    for key in ENTRY_KEYS:  # a result's entry fields are an entry's, word for word
        assert result["properties"][key] == entry["properties"][key]
    assert entry["additionalProperties"] is False and result["additionalProperties"] is False


def test_search_json_results_match_the_schema(project: Path, home: Path) -> None:
    rows = cli_json(project, home, "search", "sprocket", "--mode", "keyword", "--json", "-n", "10")
    same = cli_json(project, home, "search", "sprocket", "--mode", "keyword", "--format", "json",
                    "-n", "10")  # fmt: skip
    for row in rows:  # the first search counted a reference to each of its results
        row["referenceCount"] += 1
    assert rows == same and len(rows) >= 3
    for row in rows:
        check("search_result", row)
    by_source = {row["source"]: row for row in rows}
    markdown = by_source["markdown"]
    assert markdown["uri"] == "memory://patterns/gears.md"
    assert markdown["explanation"]["keywordRank"] is not None
    assert markdown["explanation"]["bm25"] is not None
    assert by_source["session"]["stale"] is True
    assert "compute_total" in by_source["session"]["staleReason"]


def test_list_get_and_add_json_match_the_schema(project: Path, home: Path) -> None:
    listed = cli_json(project, home, "list", "--json")
    assert len(listed) == 4
    for entry in listed:
        check("entry", entry)
    assert [e["stale"] for e in listed].count(True) == 1
    one = cli_json(project, home, "get", listed[0]["id"], "--json")
    check("entry", one)
    assert one == listed[0]
    added = cli_json(project, home, "add", "Chains are replaced yearly", "--json")
    assert added["created"] is True and added["success"] is True
    check("entry", added["entry"])
    assert added["id"] == added["entry"]["id"]
    again = cli_json(project, home, "add", "Chains are replaced yearly", "--json")
    assert again["created"] is False and again["entry"] == added["entry"]


def test_search_and_list_filter_by_source_and_staleness(project: Path, home: Path) -> None:
    base = ("search", "sprocket", "--mode", "keyword", "--json", "-n", "10")
    sources = {row["source"] for row in cli_json(project, home, *base, "--source", "markdown")}
    assert sources == {"markdown"}
    stale = cli_json(project, home, *base, "--stale")
    assert [row["source"] for row in stale] == ["session"] and stale[0]["stale"]
    listed = cli_json(project, home, "list", "--stale", "--json")
    assert [e["source"] for e in listed] == ["session"]
    assert cli_json(project, home, "stale", "--json") == listed  # the same entries, same shape
    check("entry", listed[0])
    listed = cli_json(project, home, "list", "--source", "manual", "--json")
    assert [e["content"] for e in listed] == [NOTE]
