"""Auto-promotion is one rule on every face (issue 49): the same search, run through the
CLI, the prompt hook, MCP's ``memory_search`` and the answer a running server gives the
prompt hook, promotes the same entries once their reference count reaches the threshold
(``Memory.referenced``). Before, only MCP promoted, and only session and discovery
entries, while ``promote --due`` also took manual ones."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import run_cli
from fakes import FakeEmbedder
from mcp_helpers import call, connect

from app.mcp.hook import hook_answer
from app.mcp.server import create_server
from app.prompt_hook import prompt_context
from engine.services.memory import Memory

THRESHOLD = 2
QUERY = "wombat importer retries"
SESSION_NOTE = "the wombat importer retries failed uploads three times"
MANUAL_NOTE = "a person noted: the wombat importer retries with backoff"
OTHER = "an unrelated note about release trains"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "memory.config.toml").write_text(
        f"auto_promote = true\npromote_threshold = {THRESHOLD}\n", encoding="utf-8"
    )
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        memory.add(SESSION_NOTE, source="session", category="gotcha")
        memory.add(MANUAL_NOTE, source="manual", category="gotcha")
        memory.add(OTHER, source="session")
    return root


def _promoted(root: Path) -> dict[str, str]:
    """Each note's text → the source of the entry holding it now."""
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        return {e.content: e.source.value for e in memory.list()}


def _assert_both_promoted(root: Path) -> None:
    holders = _promoted(root)
    promoted = {text: src for text, src in holders.items() if "wombat" in text}
    assert len(promoted) == 2 and set(promoted.values()) == {"markdown"}, holders
    assert holders[OTHER] == "session"  # never returned: never counted
    gotchas = list((root / ".claude" / "knowledge").rglob("*.md"))
    text = "".join(p.read_text(encoding="utf-8") for p in gotchas)
    assert "three times" in text and "with backoff" in text


def test_cli_search_promotes_after_the_threshold(tmp_path: Path, home: Path) -> None:
    root = _project(tmp_path)
    first = run_cli("search", QUERY, "--mode", "keyword", cwd=root, home=home)
    assert first.returncode == 0 and "auto-promoted" not in first.stderr, first.stderr
    assert set(_promoted(root).values()) == {"session", "manual"}  # once: not yet
    second = run_cli("search", QUERY, "--mode", "keyword", cwd=root, home=home)
    assert second.returncode == 0, second.stderr
    assert second.stderr.count("auto-promoted") == 2
    _assert_both_promoted(root)


def test_the_prompt_hook_promotes_after_the_threshold(tmp_path: Path) -> None:
    root = _project(tmp_path)
    prompt = json.dumps({"prompt": f"how does the {QUERY} work?"})
    for _ in range(THRESHOLD):
        assert "wombat" in prompt_context(prompt, root)
    _assert_both_promoted(root)


async def test_mcp_search_promotes_after_the_threshold(tmp_path: Path) -> None:
    root = _project(tmp_path)
    memory = Memory.open(root, embedder=FakeEmbedder(384))
    server = create_server(memory, warm_up=False)
    async with connect(server) as client:
        for _ in range(THRESHOLD):
            await call(client, "memory_search", query=QUERY, mode="keyword")
            server.state.flush()
    server.state.close()
    memory.close()
    _assert_both_promoted(root)


def test_the_servers_answer_to_the_prompt_hook_promotes_after_the_threshold(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path)
    memory = Memory.open(root, embedder=FakeEmbedder(384))
    server = create_server(memory, warm_up=False)
    answer = hook_answer(server)
    for _ in range(THRESHOLD):
        assert any("wombat" in i.content for i in answer(f"how does the {QUERY} work?"))
        server.state.flush()
    server.state.close()
    memory.close()
    _assert_both_promoted(root)
