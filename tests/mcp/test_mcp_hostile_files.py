"""``memory://`` resources over hostile knowledge folders (issue 15): hidden files, FIFOs,
symlink loops and 2 GB files are refused with a reason, and the server keeps serving."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest
from fakes import FakeEmbedder
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from mcp_helpers import call, connect

from app.mcp.server import MemoryServer, create_server
from engine.services.memory import Memory


@pytest.fixture
def hostile(memory: Memory) -> Path:
    folder = memory.paths.knowledge_dir
    (folder / ".drafts").mkdir(parents=True)
    (folder / "good.md").write_text("# Good\n\nPelicans nest on the pier.\n", encoding="utf-8")
    (folder / ".env").write_text("API_TOKEN=hunter2\n", encoding="utf-8")
    (folder / ".drafts" / "wip.md").write_text("# Draft\n", encoding="utf-8")
    os.mkfifo(folder / "pipe.md")
    (folder / "loop.md").symlink_to(folder / "loop.md")
    (folder / "up").symlink_to(folder, target_is_directory=True)
    (folder / "huge.md").touch()
    os.truncate(folder / "huge.md", 2 * 1024**3)  # sparse
    return folder


@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        ("memory://.env", "hidden (.env); hidden files are never read"),
        ("memory://.drafts/wip.md", "hidden (.drafts)"),
        ("memory://.drafts", "hidden (.drafts)"),
        ("memory://pipe.md", "a FIFO, not a regular file"),
        ("memory://loop.md", "cannot be resolved (a symlink loop)"),
        ("memory://huge.md", "over 2,000,000 bytes; it is 2,147,483,648 bytes"),
    ],
)
async def test_hostile_files_are_refused_with_a_reason_and_serving_goes_on(
    server: MemoryServer, hostile: Path, uri: str, reason: str
) -> None:
    async with connect(server) as client:
        with anyio.fail_after(120):  # a deadlock guard (a FIFO read would block), not timing
            with pytest.raises(MCPError) as refused:
                await client.read_resource(uri)
            ok = await client.read_resource("memory://good.md")

    assert refused.value.error.code == INVALID_PARAMS
    message = refused.value.error.message
    assert message.startswith("INVALID_INPUT: '") and reason in message, message
    assert "hunter2" not in message
    assert "Pelicans" in ok.contents[0].text  # type: ignore[union-attr]


async def test_listing_survives_fifos_and_loops_and_leaves_them_out(
    server: MemoryServer, hostile: Path
) -> None:
    async with connect(server) as client:
        with anyio.fail_after(120):
            resources = (await client.list_resources()).resources
            root = await client.read_resource("memory://")

    assert {r.uri for r in resources} == {"memory://good.md", "memory://huge.md"}
    text = root.contents[0].text  # type: ignore[union-attr]
    assert "memory://good.md" in text
    assert not any(name in text for name in ("pipe", "loop", ".env", "drafts", "up/"))


async def test_a_refused_auto_promotion_keeps_the_entry_and_promotes_the_others(
    tmp_path: Path,
) -> None:
    (tmp_path / ".claude" / "knowledge").mkdir(parents=True)
    (tmp_path / ".claude" / "memory.config.toml").write_text(
        "auto_promote = true\npromote_threshold = 1\n", encoding="utf-8"
    )
    outside = tmp_path.parent / f"{tmp_path.name}-planted.md"
    (tmp_path / ".claude" / "knowledge" / "gotchas.md").symlink_to(outside)  # dangling
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    server = create_server(memory, warm_up=False)
    async with connect(server) as client:
        # The gotcha ranks first for "celery", so its refusal comes before the pattern.
        gotcha = await call(
            client, "memory_add", content="Celery gotcha: celery needs redis", category="gotcha"
        )
        pattern = await call(
            client, "memory_add", content="Celery pattern: retries", category="pattern"
        )
        await call(client, "memory_search", query="celery", mode="keyword")
        server.state.flush()
        after = await call(client, "memory_search", query="celery", mode="keyword")
    server.state.close()

    listed = {e.id: e for e in memory.list()}
    kept = listed.get(gotcha["id"])
    assert kept is not None and kept.content == "Celery gotcha: celery needs redis"
    assert pattern["id"] not in listed  # promoted despite the refusal before it
    assert not outside.exists()
    assert {r["source"] for r in after["results"]} == {kept.source.value, "markdown"}
    memory.close()
