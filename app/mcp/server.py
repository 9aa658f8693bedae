"""The MCP server object: :func:`create_server` builds it for the CLI and for tests.

    server = create_server(project_root)                       # serve-mcp
    server = create_server(Memory.open(tmp, embedder=fake))    # tests, in-process

:class:`MemoryServer` is the SDK's ``MCPServer`` with three additions: argument-validation
failures become tool errors with stable codes, the knowledge files are listed as resources
(the list changes as files do), and the model warm-up starts once the client has listed the
tools.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer, ResourceSecurity
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    Resource,
    Tool,
)
from pydantic import Field, ValidationError

from app.mcp import errors, knowledge, strict
from app.mcp.auth import SharedTokenVerifier, auth_settings
from app.mcp.prompts import query_prompt
from app.mcp.state import MemorySource, ServerState
from app.mcp.tools import TOOL_NAMES, register_tools
from engine import EngineError

log = logging.getLogger("memory_tui.mcp")

SERVER_NAME = "memory-tui"
INSTRUCTIONS = (
    "Project memory: curated knowledge files, notes from earlier sessions and codebase "
    "discoveries. Call memory_search before exploring the code for how something works "
    "here, and memory_add to save durable knowledge you learn. Knowledge files are "
    "readable as memory://<path> resources. The `query` prompt explains search modes."
)


def _version() -> str:
    try:
        return version("memory-tui")
    except PackageNotFoundError:  # running from a source tree without install
        return "0+unknown"


class MemoryServer(MCPServer[None]):
    """The memory-tui MCP server; see the module docstring."""

    def __init__(
        self, state: ServerState, *, warm_up: bool = True, token: str | None = None
    ) -> None:
        self.state = state
        """The memory and background work behind the tools."""
        self.warm_up = warm_up
        self.requires_token = token is not None
        """Whether every HTTP request must carry the token (:mod:`app.mcp.auth`)."""
        verifier = SharedTokenVerifier(token) if token is not None else None
        super().__init__(
            SERVER_NAME,
            title="memory-tui project memory",
            instructions=INSTRUCTIONS,
            version=_version(),
            log_level="WARNING",
            lifespan=_lifespan,
            # The SDK's bearer authentication for HTTP; stdio never consults it.
            token_verifier=verifier,
            auth=auth_settings() if verifier is not None else None,
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[None, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool; failures the SDK detects become coded tool errors as well, and an
        argument the tool does not take is refused, by name."""
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = strict.tool_arguments(tool.parameters)
            problem = strict.unknown_arguments(name, known, arguments or {})
            if problem is not None:
                extra = sorted(set(arguments or {}) - set(known))
                return errors.failure(errors.INVALID_INPUT, problem, fields=extra)
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            log.error("tool %s failed", name, exc_info=exc.__cause__ or exc)
            return errors.internal_failure(name)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return errors.validation_failure(name, exc.__cause__)
            if name not in TOOL_NAMES:
                return errors.failure(
                    errors.UNKNOWN_TOOL,
                    f"there is no tool '{name}'; the tools are: " + ", ".join(TOOL_NAMES),
                )
            return errors.failure(errors.INVALID_INPUT, str(exc))

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        context: Context[None, Any] | None = None,
    ) -> GetPromptResult | InputRequiredResult:
        """Render a prompt; a wrong call is an invalid-params error that says what is
        wrong (the SDK answers "Internal server error")."""
        prompt = self._prompt_manager.get_prompt(name)
        names = [p.name for p in self._prompt_manager.list_prompts()]
        declared = prompt.arguments if prompt is not None else None
        problem = strict.prompt_problem(name, declared, arguments, names)
        if problem is not None:
            raise MCPError(code=INVALID_PARAMS, message=problem)
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as exc:
            raise MCPError(code=INVALID_PARAMS, message=f"prompt '{name}': {exc}") from None

    async def list_tools(self) -> list[Tool]:
        """The tools; listing them also tells the warm-up that start-up traffic is over."""
        self.state.client_ready.set()
        return await super().list_tools()

    async def list_resources(self) -> list[Resource]:
        """Static resources (none) followed by one resource per knowledge file."""
        static = await super().list_resources()
        try:
            found = await anyio.to_thread.run_sync(self._knowledge_files)
        except EngineError as exc:
            log.warning("cannot list knowledge files: %s", exc.message)
            found = []
        return static + [
            Resource(
                uri=f.uri,
                name=f.path,
                description=f"Knowledge file .claude/knowledge/{f.path}",
                mime_type=knowledge.mime_type(f.path),
                size=f.size,
            )
            for f in found
        ]

    async def run_stdio_async(self) -> None:
        """Serve over stdio, answering requests the SDK's parser refuses
        (:mod:`app.mcp.wire`)."""
        from mcp.server.stdio import stdio_server

        from app.mcp.wire import AnsweringReadStream

        low = self._lowlevel_server
        async with stdio_server() as (read_stream, write_stream):
            reader = AnsweringReadStream(read_stream, write_stream)
            await low.run(reader, write_stream, low.create_initialization_options())

    def _knowledge_files(self) -> list[knowledge.KnowledgeFile]:
        return knowledge.files(self.state.memory().paths.knowledge_dir)


@asynccontextmanager
async def _lifespan(server: MCPServer[None]) -> AsyncIterator[None]:
    """Start the model warm-up with the server; finish the bookkeeping when it stops."""
    assert isinstance(server, MemoryServer)
    if server.warm_up:
        server.state.start_warm_up()
    try:
        yield None
    finally:
        await anyio.to_thread.run_sync(server.state.flush)


def create_server(
    source: MemorySource, *, warm_up: bool = True, token: str | None = None
) -> MemoryServer:
    """Build the server over a memory, a project root, or a memory factory.

    With ``warm_up`` the embedding model loads in the background after start-up;
    without it, on first need. With ``token``, every request over HTTP must carry
    ``Authorization: Bearer <token>`` (401 otherwise, before any MCP processing).
    """
    server = MemoryServer(ServerState(source), warm_up=warm_up, token=token)
    register_tools(server, server.state)
    strict.seal_schemas(server._tool_manager.list_tools())
    _register_resources(server)
    _register_prompts(server)
    return server


def _register_resources(server: MemoryServer) -> None:
    state = server.state

    # Our own checks replace the SDK's so that a refusal says what is wrong (they are a
    # superset: '..' anywhere, absolute paths, NUL, double encoding, symlinks outside).
    @server.resource(
        knowledge.SCHEME + "{+path}",
        name="knowledge_file",
        title="Knowledge file",
        description="A file under .claude/knowledge/ (path relative to it, '/' between "
        "folders); a folder reads as a listing of its files.",
        mime_type="text/markdown",
        security=ResourceSecurity(exempt_params={"path"}),
    )
    def knowledge_file(path: str) -> str:
        try:
            memory = state.memory()
            limit = memory.config.max_file_bytes
            return knowledge.read(memory.paths.knowledge_dir, path, max_bytes=limit)
        except knowledge.KnowledgePathError as exc:
            raise MCPError(
                code=INVALID_PARAMS,
                message=f"{exc.code}: {exc.message}",
                data={"code": exc.code, "uri": knowledge.SCHEME + path},
            ) from None
        except EngineError as exc:
            raise MCPError(
                code=INVALID_PARAMS, message=f"{exc.code}: {exc.message}", data={"code": exc.code}
            ) from None


def _register_prompts(server: MemoryServer) -> None:
    @server.prompt(
        name="query",
        title="Search project memory",
        description="How to search project memory well: when to use keyword, vector or "
        "hybrid search, and how to phrase queries.",
    )
    def query(
        topic: Annotated[str, Field(description="What you want to find information about.")],
    ) -> str:
        return query_prompt(topic)
