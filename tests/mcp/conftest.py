"""Fixtures of the MCP server tests: a server over the fake-embedder memory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.mcp.server import MemoryServer, create_server
from engine.services.memory import Memory


@pytest.fixture
def server(memory: Memory) -> Iterator[MemoryServer]:
    """A server over the ``memory`` fixture (fake embedder), without background warm-up."""
    srv = create_server(memory, warm_up=False)
    yield srv
    srv.state.close()
