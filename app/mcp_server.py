"""The MCP server for Claude Code and other agents: ``memory-tui serve-mcp``.

Tools ``memory_search``, ``memory_add``, ``memory_list``, ``memory_delete`` and
``memory_analyze``; the ``memory://{+path}`` resources (files under ``.claude/knowledge/``)
and their listing; the ``query`` prompt. Served over stdio, or over streamable HTTP with
``--http`` (a token required beyond loopback: :mod:`app.mcp.auth`). The implementation
lives in :mod:`app.mcp`; this module is its front door:

    from app.mcp_server import create_server, serve
"""

from __future__ import annotations

from app.mcp.run import configure_logging, serve
from app.mcp.server import MemoryServer, create_server

__all__ = ["MemoryServer", "configure_logging", "create_server", "serve"]
