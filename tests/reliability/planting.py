"""Planting a corpus of secrets through the faces that store content (the gitleaks corpus
and the second source's share these): one add per text through MCP's ``memory_add``, and
CLI ``add`` in batches under its 10,000-character limit."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli_support import run_cli
from fakes import FakeEmbedder
from mcp_helpers import call, call_error, connect

from app.mcp.server import create_server
from engine.services.memory import Memory

CLI_BATCH_CHARS = 9000
"""A CLI add's text stays under the 10,000-character limit of one entry."""


async def mcp_add_each(root: Path, texts: Sequence[str], *, refused: bool = False) -> list[Any]:
    """``memory_add`` of each text on a server over ``root``: the answers, or with
    ``refused`` the errors (the default policy refuses a secret)."""
    memory = Memory.open(root, embedder=FakeEmbedder())
    server = create_server(memory, warm_up=False)
    answers: list[Any] = []
    try:
        async with connect(server) as client:
            ask = call_error if refused else call
            for text in texts:
                answers.append(await ask(client, "memory_add", content=text))
    finally:
        server.state.close()
        memory.close()
    return answers


def cli_add_in_batches(project: Path, texts: Sequence[str]) -> None:
    """``memory-tui add -`` of the texts, joined in batches, each redacting a secret."""
    home = project / "home"
    home.mkdir()
    batches: list[list[str]] = [[]]
    for text in texts:
        if sum(map(len, batches[-1])) + len(text) > CLI_BATCH_CHARS:
            batches.append([])
        batches[-1].append(text)
    for batch in batches:
        out = run_cli("add", "-", "--json", cwd=project, home=home, stdin="\n\n".join(batch))
        assert out.returncode == 0, out.stderr
        assert "redacted a likely secret" in out.stderr
