"""The prompt hook, a fresh process per prompt, asks a running server through the client
side of the exchange only (:mod:`app.hook_client`): the server's side (its socket server,
its threads, its token drawing: :mod:`app.hook_endpoint`) is not imported by a hook run,
whose time is mostly its imports (bench/RESULTS.md, "Issue 50: the hook's time is its
imports")."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from cli_support import fresh_python
from fakes import FakeEmbedder

from engine.services.memory import Memory

SERVER_SIDE = ("app.hook_endpoint", "socketserver")


def test_a_hook_run_without_a_server_imports_none_of_the_servers_side(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        entry = memory.add("Gearboxes need synthetic oil every spring", category="gotcha").entry
        memory.add("Unrelated note about the coffee machine")
    payload = json.dumps({"prompt": "when do gearboxes need synthetic oil?", "cwd": str(root)})
    code = f"""
        import contextlib, io, json, sys
        sys.stdin = io.StringIO({payload!r})
        sys.argv = ["memory-tui", "hook"]
        from app.cli import main
        context = io.StringIO()
        with contextlib.redirect_stdout(context):
            assert main() == 0
        print(json.dumps(context.getvalue()))
        print(json.dumps([m for m in {SERVER_SIDE!r} if m in sys.modules]))
    """

    result = fresh_python(textwrap.dedent(code), home=tmp_path, timeout=120)

    assert result.returncode == 0, result.stderr
    *_, context_line, loaded_line = result.stdout.strip().splitlines()
    assert f"(id {entry.id}): Gearboxes need synthetic oil" in json.loads(context_line)
    assert json.loads(loaded_line) == []
