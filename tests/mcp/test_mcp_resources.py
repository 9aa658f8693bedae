"""``memory://`` resources (reading, listing, traversal attempts) and the ``query`` prompt."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from mcp_helpers import connect

from app.mcp.server import MemoryServer
from engine.services.memory import Memory

SECRET = "TOP-SECRET-OUTSIDE-THE-KNOWLEDGE-DIR"


@pytest.fixture
def knowledge(memory: Memory, tmp_path: Path) -> Path:
    """A knowledge directory with nested files, a hidden file and a secret next to it."""
    base = memory.paths.knowledge_dir
    (base / "architecture" / "storage").mkdir(parents=True)
    (base / "architecture" / "storage" / "lancedb.md").write_text(
        "# LanceDB\n\nThe store of record.\n", encoding="utf-8"
    )
    (base / "gotchas.md").write_text("# Gotchas\n\nQuote camelCase columns.\n", encoding="utf-8")
    (base / ".draft.md").write_text("hidden", encoding="utf-8")
    (memory.paths.claude_dir / "secret.md").write_text(SECRET, encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "leak.md").write_text(SECRET, encoding="utf-8")
    (base / "leak.md").symlink_to(outside / "leak.md")
    (base / "leakdir").symlink_to(outside, target_is_directory=True)
    (base / "alias.md").symlink_to(base / "gotchas.md")  # inside: allowed
    return base


async def test_template_and_listing_of_knowledge_files(
    server: MemoryServer, knowledge: Path
) -> None:
    async with connect(server) as client:
        templates = (await client.list_resource_templates()).resource_templates
        resources = (await client.list_resources()).resources
    assert [t.uri_template for t in templates] == ["memory://{+path}"]
    assert {r.uri for r in resources} == {
        "memory://alias.md",
        "memory://architecture/storage/lancedb.md",
        "memory://gotchas.md",
    }
    lancedb = next(r for r in resources if r.name == "architecture/storage/lancedb.md")
    assert lancedb.mime_type == "text/markdown"
    assert lancedb.size == len("# LanceDB\n\nThe store of record.\n")


async def test_read_nested_file_folder_and_root(server: MemoryServer, knowledge: Path) -> None:
    async with connect(server) as client:
        nested = await client.read_resource("memory://architecture/storage/lancedb.md")
        folder = await client.read_resource("memory://architecture")
        alias = await client.read_resource("memory://alias.md")
        root = await client.read_resource("memory://")
    assert nested.contents[0].text == "# LanceDB\n\nThe store of record.\n"  # type: ignore[union-attr]
    assert nested.contents[0].mime_type == "text/markdown"
    assert "memory://architecture/storage/lancedb.md" in folder.contents[0].text  # type: ignore[union-attr]
    assert "gotchas" not in folder.contents[0].text  # type: ignore[union-attr]
    assert "Quote camelCase" in alias.contents[0].text  # type: ignore[union-attr]
    everything = root.contents[0].text  # type: ignore[union-attr]
    assert "memory://gotchas.md" in everything and "memory://architecture/storage" in everything
    assert "leak" not in everything and ".draft" not in everything


@pytest.mark.parametrize(
    "uri",
    [
        "memory://../secret.md",
        "memory://architecture/../../secret.md",
        "memory://architecture/../gotchas.md",  # harmless, but '..' is refused outright
        "memory://%2E%2E/secret.md",
        "memory://..%2Fsecret.md",
        "memory://%2e%2e%2fsecret.md",
        "memory://%252E%252E%252Fsecret.md",
        "memory:///etc/passwd",
        "memory://%2Fetc%2Fpasswd",
        "memory://C:/Windows/win.ini",
        "memory://~/.ssh/id_rsa",
        "memory://..\\secret.md",
        "memory://a%5C..%5C..%5Csecret.md",
        "memory://gotchas.md%00.txt",
        "memory://leak.md",
        "memory://leakdir/leak.md",
    ],
)
async def test_traversal_attempts_are_refused(
    server: MemoryServer, knowledge: Path, uri: str
) -> None:
    async with connect(server) as client:
        with pytest.raises(MCPError) as refused:
            await client.read_resource(uri)
        ok = await client.read_resource("memory://gotchas.md")  # still serving
    assert refused.value.error.code == INVALID_PARAMS
    assert SECRET not in refused.value.error.message
    assert "INVALID_INPUT" in refused.value.error.message
    assert "Quote camelCase" in ok.contents[0].text  # type: ignore[union-attr]


async def test_missing_file_is_not_found(server: MemoryServer, knowledge: Path) -> None:
    async with connect(server) as client:
        with pytest.raises(MCPError) as missing:
            await client.read_resource("memory://architecture/nope.md")
    assert missing.value.error.code == INVALID_PARAMS
    assert missing.value.error.message.startswith("NOT_FOUND")
    assert missing.value.error.data == {
        "code": "NOT_FOUND",
        "uri": "memory://architecture/nope.md",
    }


async def test_binary_file_is_refused(server: MemoryServer, knowledge: Path) -> None:
    (knowledge / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    async with connect(server) as client:
        with pytest.raises(MCPError) as refused:
            await client.read_resource("memory://diagram.png")
    assert "not UTF-8" in refused.value.error.message


async def test_no_knowledge_dir_lists_nothing(server: MemoryServer, memory: Memory) -> None:
    assert not memory.paths.knowledge_dir.exists()
    async with connect(server) as client:
        resources = (await client.list_resources()).resources
    assert resources == []


def test_symlink_fixture_is_really_outside(knowledge: Path) -> None:
    assert SECRET in (knowledge / "leak.md").read_text(encoding="utf-8")
    assert not os.path.realpath(knowledge / "leak.md").startswith(str(knowledge.resolve()))


async def test_query_prompt_explains_the_search_modes(server: MemoryServer) -> None:
    async with connect(server) as client:
        prompts = (await client.list_prompts()).prompts
        result = await client.get_prompt("query", {"topic": "token refresh"})
    (prompt,) = prompts
    assert prompt.name == "query" and prompt.description
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("topic", True)]
    text = result.messages[0].content.text  # type: ignore[union-attr]
    assert result.messages[0].role == "user"
    assert "token refresh" in text and "memory_search" in text
    for mode in ('"keyword"', '"vector"', '"hybrid"'):
        assert mode in text
