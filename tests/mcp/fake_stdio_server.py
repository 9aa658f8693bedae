"""A stdio MCP server over a project's memory with the fake embedder, for process tests.

    python tests/mcp/fake_stdio_server.py PROJECT_ROOT

The same server as ``memory-tui serve-mcp`` (same factory, same transport) without the
real model, so tests of several processes stay fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

# tests/ for fakes; the project root too, or tests/engine and tests/app would be found
# as namespace packages named engine and app.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fakes import FakeEmbedder

from app.mcp.server import create_server
from engine.services.memory import Memory


def main() -> None:
    """Serve until stdin closes."""
    root = Path(sys.argv[1])
    server = create_server(lambda: Memory.open(root, embedder=FakeEmbedder()), warm_up=False)
    try:
        anyio.run(server.run_stdio_async)
    finally:
        server.state.close()


if __name__ == "__main__":
    main()
