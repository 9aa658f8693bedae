"""``serve-mcp`` never fails on a bad configuration: one line on stderr, the defaults used
(the real server over stdio).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from fakes import FakeEmbedder
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_helpers import call

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

CLOSE = "sprocket grease schedule weekly"


async def test_seed000_serve_mcp_never_fails_on_a_bad_config(tmp_path: Path) -> None:
    project = tmp_path / "project"
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(CLOSE, category="pattern")
    (project / ".claude" / "memory.config.json").write_text('{"minScore": 7}', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "memory-tui"),
        args=["serve-mcp", "--project", str(project)],
        env=env,
    )
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy", cache=None) as c:
            listed = await call(c, "memory_list")
            found = await call(c, "memory_search", query="sprocket grease", mode="keyword")
    assert listed["count"] == 1
    assert [r["content"] for r in found["results"]] == [CLOSE]
    stderr = (tmp_path / "stderr.log").read_text(encoding="utf-8")
    assert "memory-tui serve-mcp:" in stderr and "'minScore'" in stderr
    assert "using the default configuration" in stderr and "Traceback" not in stderr
