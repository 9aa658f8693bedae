"""One JSON shape on every face: MCP tool results (in-process and over streamable HTTP)
checked against the shipped entry and search-result schemas, and the CLI's shape."""

from __future__ import annotations

from typing import Any

import jsonschema
from mcp import Client
from mcp_helpers import call, connect, serving

from app.mcp.server import MemoryServer
from engine import output_schema
from engine.services.memory import Memory


def check(name: str, instance: Any) -> None:
    """Validate ``instance`` against the schema ``name``."""
    jsonschema.validate(instance, output_schema(name), cls=jsonschema.Draft202012Validator)


def seed(memory: Memory) -> None:
    """A knowledge file, a note, and a note whose cited code then changes."""
    knowledge = memory.paths.knowledge_dir / "architecture"
    knowledge.mkdir(parents=True)
    (knowledge / "auth.md").write_text(
        "# Auth\n\n## Tokens\n\nJWT tokens are validated by the gateway.\n", encoding="utf-8"
    )
    from engine.services.indexing import Indexer

    Indexer(memory).run()
    billing = memory.paths.root / "billing.py"
    billing.write_text("def compute_total(items):\n    return 1\n", encoding="utf-8")
    memory.add("compute_total() in billing.py ignores gateway refunds", source="session")
    memory.add("Gateway deploys go out on Tuesdays", source="manual")
    billing.write_text("def total(items):\n    return 1\n", encoding="utf-8")


async def exercise(client: Client) -> dict[str, Any]:
    """Every tool that returns entries or results; their payloads by name."""
    return {
        "hybrid": await call(client, "memory_search", query="gateway tokens", limit=10),
        "keyword": await call(client, "memory_search", query="gateway", mode="keyword"),
        "list": await call(client, "memory_list"),
        "add": await call(client, "memory_add", content="Gateway logs rotate daily"),
    }


def check_payloads(payloads: dict[str, Any]) -> None:
    for name in ("hybrid", "keyword"):
        assert payloads[name]["results"], name
        for hit in payloads[name]["results"]:
            check("search_result", hit)
    for entry in payloads["list"]["entries"]:
        check("entry", entry)
    check("entry", payloads["add"]["entry"])
    assert payloads["add"]["entry"]["id"] == payloads["add"]["id"]


async def test_tool_results_match_the_schemas(memory: Memory, server: MemoryServer) -> None:
    seed(memory)
    async with connect(server) as client:
        payloads = await exercise(client)
    check_payloads(payloads)
    hybrid = {hit["source"]: hit for hit in payloads["hybrid"]["results"]}
    assert hybrid["markdown"]["uri"] == "memory://architecture/auth.md"
    why = hybrid["markdown"]["explanation"]
    assert why["fusedScore"] is not None and why["gate"] in ("similarity", "terms")
    assert payloads["keyword"]["results"][0]["explanation"]["gate"] is None
    assert [e["stale"] for e in payloads["list"]["entries"]].count(True) == 1


async def test_tool_results_over_http_match_the_schemas(
    memory: Memory, server: MemoryServer
) -> None:
    seed(memory)
    async with serving(server) as url, Client(url, cache=None) as client:
        payloads = await exercise(client)
    check_payloads(payloads)


async def test_search_filters_by_source_and_staleness(memory: Memory, server: MemoryServer) -> None:
    seed(memory)
    async with connect(server) as client:
        markdown = await call(
            client, "memory_search", query="gateway", mode="keyword", source="markdown"
        )
        stale = await call(
            client, "memory_search", query="gateway", mode="keyword", stale_only=True
        )
        listed = await call(client, "memory_list", source="manual")
        stale_listed = await call(client, "memory_list", stale_only=True)
    assert {hit["source"] for hit in markdown["results"]} == {"markdown"}
    assert [hit["source"] for hit in stale["results"]] == ["session"]
    assert stale["results"][0]["stale"] is True
    assert [e["source"] for e in listed["entries"]] == ["manual"] and listed["total"] == 1
    assert [e["source"] for e in stale_listed["entries"]] == ["session"]
    assert stale_listed["total"] == 1
