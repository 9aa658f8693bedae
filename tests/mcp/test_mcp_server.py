"""The MCP tools through the SDK's in-process client: schemas, results, bookkeeping.

Real LanceDB and SQLite in ``tmp_path``; the fake embedder stands in for the model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder
from mcp_helpers import call, connect

from app.mcp.server import MemoryServer, create_server
from engine.services.indexing import Indexer
from engine.services.memory import Memory

TOOLS = {"memory_search", "memory_add", "memory_list", "memory_delete", "memory_analyze"}
CATEGORIES = ["architecture", "component", "domain", "pattern", "gotcha", "discovery", "general"]


def _prop(schema: dict[str, object], name: str) -> dict[str, object]:
    """One property of an input schema, with ``anyOf [X, null]`` unwrapped to X."""
    props = schema["properties"]
    assert isinstance(props, dict)
    prop = dict(props[name])
    for option in prop.pop("anyOf", []):
        if option.get("type") != "null":
            prop.update(option)
    return prop


async def test_tools_have_input_schemas_limits_and_annotations(server: MemoryServer) -> None:
    async with connect(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    search = tools["memory_search"].input_schema
    assert search["required"] == ["query"]
    assert _prop(search, "query").items() >= {"minLength": 1, "maxLength": 500}.items()
    assert (
        _prop(search, "limit").items() >= {"minimum": 1, "maximum": 20, "type": "integer"}.items()
    )
    assert _prop(search, "category")["enum"] == CATEGORIES
    assert _prop(search, "mode")["enum"] == ["vector", "keyword", "hybrid"]
    add = tools["memory_add"].input_schema
    assert add["required"] == ["content"]
    assert _prop(add, "content")["maxLength"] == 10_000
    assert _prop(add, "keywords")["maxItems"] == 10
    assert _prop(add, "category")["default"] == "general"
    listing = tools["memory_list"].input_schema
    assert _prop(listing, "limit").items() >= {"minimum": 1, "maximum": 100, "default": 50}.items()
    assert tools["memory_delete"].input_schema["required"] == ["id"]
    for name, tool in tools.items():
        assert tool.description, name
        assert tool.output_schema is not None, name
        hints = tool.annotations
        assert hints is not None and hints.open_world_hint is False
        assert hints.read_only_hint is (name in {"memory_search", "memory_list"}), name
    assert tools["memory_delete"].annotations.destructive_hint is True  # type: ignore[union-attr]
    assert tools["memory_add"].annotations.destructive_hint is False  # type: ignore[union-attr]


async def test_add_then_search_finds_it_with_every_result_field(server: MemoryServer) -> None:
    async with connect(server) as client:
        added = await call(
            client,
            "memory_add",
            content="LanceDB filters need double quotes around camelCase columns",
            category="gotcha",
            keywords=["lancedb", "sql"],
        )
        found = await call(client, "memory_search", query="lancedb camelCase column filter")
    assert added["success"] and added["created"] and added["category"] == "gotcha"
    assert found["query"] == "lancedb camelCase column filter"
    assert found["mode"] == found["used"] == "hybrid"
    assert found["count"] == 1 and found["warnings"] == []
    hit = found["results"][0]
    assert hit["id"] == added["id"]
    assert hit["content"].startswith("LanceDB filters")
    assert 0 < hit["score"] <= 1
    assert hit["category"] == "gotcha" and hit["source"] == "session"
    assert hit["keywords"] == ["lancedb", "sql"]
    assert {"filePath", "line", "sectionTitle", "referenceCount", "uri"} <= set(hit)


async def test_add_duplicate_reports_the_existing_id(server: MemoryServer) -> None:
    async with connect(server) as client:
        first = await call(client, "memory_add", content="Deploys go out on Tuesdays")
        again = await call(client, "memory_add", content="Deploys go out on Tuesdays")
        listed = await call(client, "memory_list")
    assert first["created"] and not again["created"]
    assert again["id"] == first["id"]
    assert first["id"] in again["message"]
    assert listed["count"] == 1


async def test_add_redacts_private_blocks(server: MemoryServer, memory: Memory) -> None:
    async with connect(server) as client:
        added = await call(
            client, "memory_add", content="The staging host is <private>10.0.0.7</private> here"
        )
    stored = memory.get(added["id"])
    assert stored is not None and "10.0.0.7" not in stored.content


@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
async def test_each_search_mode_runs_as_asked(server: MemoryServer, mode: str) -> None:
    async with connect(server) as client:
        await call(client, "memory_add", content="Retries use exponential backoff with jitter")
        await call(client, "memory_add", content="The billing module owns invoices and refunds")
        found = await call(client, "memory_search", query="exponential backoff", mode=mode)
    assert found["mode"] == found["used"] == mode
    assert found["results"][0]["content"].startswith("Retries use")


async def test_search_filters_by_category_and_honours_the_limit(server: MemoryServer) -> None:
    async with connect(server) as client:
        for n in range(6):
            await call(
                client, "memory_add", content=f"cache note {n} about redis", category="pattern"
            )
        await call(client, "memory_add", content="cache gotcha about redis", category="gotcha")
        limited = await call(client, "memory_search", query="redis cache", limit=3)
        gotchas = await call(client, "memory_search", query="redis cache", category="gotcha")
    assert limited["count"] == 3
    assert [r["category"] for r in gotchas["results"]] == ["gotcha"]


async def test_search_mode_and_limit_default_to_the_config(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "memory.config.toml").write_text(
        'search_mode = "keyword"\ndefault_limit = 2\n', encoding="utf-8"
    )
    server = create_server(lambda: Memory.open(tmp_path, embedder=FakeEmbedder()), warm_up=False)
    async with connect(server) as client:
        for n in range(4):
            await call(client, "memory_add", content=f"queue worker note {n}")
        found = await call(client, "memory_search", query="queue worker")
    server.state.close()
    assert found["mode"] == found["used"] == "keyword"
    assert found["count"] == 2


async def test_markdown_results_carry_file_line_section_and_uri(
    server: MemoryServer, memory: Memory
) -> None:
    doc = memory.paths.knowledge_dir / "architecture" / "auth.md"
    doc.parent.mkdir(parents=True)
    doc.write_text(
        "# Auth\n\nIntro.\n\n## Tokens\n\nJWT tokens are validated on every request.\n",
        encoding="utf-8",
    )
    Indexer(memory).run()
    async with connect(server) as client:
        found = await call(client, "memory_search", query="JWT tokens validated", mode="keyword")
        hit = found["results"][0]
        text = await client.read_resource(hit["uri"])
    assert hit["source"] == "markdown"
    assert hit["filePath"] == ".claude/knowledge/architecture/auth.md"
    assert hit["line"] == 5
    assert hit["sectionTitle"] == "Auth > Tokens"
    assert hit["uri"] == "memory://architecture/auth.md"
    assert "JWT tokens" in text.contents[0].text  # type: ignore[union-attr]


async def test_searches_count_references(server: MemoryServer, memory: Memory) -> None:
    async with connect(server) as client:
        added = await call(client, "memory_add", content="Feature flags live in flags.yaml")
        first = await call(client, "memory_search", query="feature flags")
        server.state.flush()
        second = await call(client, "memory_search", query="feature flags yaml")
        server.state.flush()
    assert first["results"][0]["referenceCount"] == 0
    assert second["results"][0]["referenceCount"] == 1
    entry = memory.get(added["id"])
    assert entry is not None and entry.reference_count == 2


async def test_entries_found_often_enough_are_auto_promoted(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "memory.config.toml").write_text(
        "auto_promote = true\npromote_threshold = 2\n", encoding="utf-8"
    )
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    manual = memory.add("Celery beat schedules the nightly cleanup", source="manual").entry
    server = create_server(memory, warm_up=False)
    async with connect(server) as client:
        added = await call(
            client, "memory_add", content="Celery workers need the redis broker", category="gotcha"
        )
        for _ in range(2):
            await call(client, "memory_search", query="celery", mode="keyword")
            server.state.flush()
        found = await call(client, "memory_search", query="celery redis broker", mode="keyword")
    server.state.close()
    assert added["id"] not in {e.id for e in memory.list()}  # moved into markdown
    moved = memory.get(added["id"])  # the old id answers with the entry holding its text
    assert moved is not None and moved.source.value == "markdown"
    promoted = list((memory.paths.knowledge_dir / "gotchas").glob("*.md"))
    assert len(promoted) == 1 and "redis broker" in promoted[0].read_text(encoding="utf-8")
    hit = next(r for r in found["results"] if "redis broker" in r["content"])
    assert hit["source"] == "markdown" and hit["referenceCount"] >= 2
    moved = memory.get(manual.id)  # the rule of `promote --due`: manual entries too
    assert moved is not None and moved.source.value == "markdown"
    memory.close()


async def test_list_is_newest_first_with_category_and_limit(server: MemoryServer) -> None:
    async with connect(server) as client:
        for n in range(3):
            await call(client, "memory_add", content=f"domain fact number {n}", category="domain")
        await call(client, "memory_add", content="a general note", category="general")
        everything = await call(client, "memory_list")
        domain = await call(client, "memory_list", category="domain", limit=2)
    assert everything["count"] == everything["total"] == 4
    assert everything["entries"][0]["content"] == "a general note"
    assert domain["category"] == "domain" and domain["total"] == 3
    assert [e["content"] for e in domain["entries"]] == [
        "domain fact number 2",
        "domain fact number 1",
    ]
    entry = domain["entries"][0]
    assert {"id", "createdAt", "referenceCount", "source", "keywords"} <= set(entry)


async def test_delete_removes_and_not_found_is_an_answer(server: MemoryServer) -> None:
    async with connect(server) as client:
        added = await call(client, "memory_add", content="Use ruff, not flake8")
        deleted = await call(client, "memory_delete", id=added["id"])
        after = await call(client, "memory_search", query="ruff flake8")
        again = await call(client, "memory_delete", id=added["id"])
    assert deleted == {"deleted": True, "id": added["id"], "reason": None}
    assert after["results"] == []
    assert again == {"deleted": False, "id": added["id"], "reason": "Entry not found"}


async def test_deleting_a_markdown_entry_says_where_the_text_lives(
    server: MemoryServer, memory: Memory
) -> None:
    (memory.paths.knowledge_dir).mkdir(parents=True)
    (memory.paths.knowledge_dir / "gotchas.md").write_text(
        "# Gotchas\n\nNever run migrations on Fridays.\n", encoding="utf-8"
    )
    Indexer(memory).run()
    entry_id = memory.list()[0].id
    async with connect(server) as client:
        deleted = await call(client, "memory_delete", id=entry_id)
    # The file is the source: not deleted, and the reason says where to edit (seed parity)
    assert not deleted["deleted"] and ".claude/knowledge/gotchas.md" in deleted["reason"]
    assert memory.get(entry_id) is not None


async def test_analyze_creates_discovery_entries(server: MemoryServer, memory: Memory) -> None:
    pkg = memory.paths.root / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""The shop."""\n', encoding="utf-8")
    (pkg / "orders.py").write_text(
        '"""Orders."""\n\n\ndef place_order(cart: list[str]) -> str:\n    """Place it."""\n'
        "    return 'ok'\n",
        encoding="utf-8",
    )
    async with connect(server) as client:
        report = await call(client, "memory_analyze")
        again = await call(client, "memory_analyze")
        listed = await call(client, "memory_list", category="discovery")
    assert report["entries"]["created"] > 0 and report["symbols"] >= 1
    assert any(lang["language"] == "Python" for lang in report["languages"])
    assert again["entries"]["created"] == 0 and again["entries"]["deleted"] == 0
    assert listed["total"] == report["entries"]["created"]
