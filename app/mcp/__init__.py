"""The MCP server of memory-tui (``memory-tui serve-mcp``), split by responsibility.

- :mod:`app.mcp.server` — :func:`create_server`, the server class and its registrations;
- :mod:`app.mcp.tools` — the five thin tools over the engine;
- :mod:`app.mcp.schemas` — input limits and output models of the tools;
- :mod:`app.mcp.errors` — tool errors with stable codes;
- :mod:`app.mcp.state` — the lazily opened memory, model warm-up, reference bookkeeping;
- :mod:`app.mcp.knowledge` — ``memory://`` resources and their path checks;
- :mod:`app.mcp.prompts` — the ``query`` prompt;
- :mod:`app.mcp.run` — logging and the stdio / streamable-HTTP transports;
- :mod:`app.mcp.auth` — the HTTP server's token: its sources and the SDK's bearer check;
- :mod:`app.mcp.serving` — records of the running HTTP servers, for ``doctor`` and ``status``.

Importing this package is cheap; the SDK is imported by the modules that need it.
"""
