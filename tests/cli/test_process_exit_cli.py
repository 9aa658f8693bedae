"""The console script's exit: the process ends with the command, so the garbage collector
does not walk what the command built on the way out (after LanceDB's import, 0.2-0.4 s of
CPU: bench/RESULTS.md, "Issue 49 (cold, session 18)"); otherwise the usual exit: exit
handlers run, the output is whole, the command's exit code is the process's."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import fresh_python
from fakes import FakeEmbedder

from engine.services.memory import Memory

REPORT = 'atexit.register(lambda: print("frozen:", gc.get_freeze_count() > 0, file=sys.stderr))'


@pytest.mark.parametrize(
    ("args", "code", "shown"),
    [
        (["search", "wombat", "--mode", "keyword"], 0, "wombat importer"),
        (["--project", "{empty}", "list"], 2, ""),  # not initialised: a usage error
    ],
)
def test_the_console_script_exits_with_its_code_and_the_collector_set_aside(
    tmp_path: Path, args: list[str], code: int, shown: str
) -> None:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        memory.add("the wombat importer retries failed uploads three times")
    argv = [a.format(empty=tmp_path / "empty") for a in args]
    script = f"""
        import atexit, gc, sys
        {REPORT}
        sys.argv = ["memory-tui", "--project", {str(root)!r}, *{argv!r}]
        from app.cli import run
        run()
    """
    result = fresh_python(script, home=tmp_path)
    assert result.returncode == code, result.stderr
    assert shown in result.stdout
    assert result.stderr.splitlines()[-1] == "frozen: True"  # (the exit handlers ran)
