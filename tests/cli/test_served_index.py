"""``memory-tui index`` and the git hooks' re-index are run by a running ``serve-mcp``
(issue 49): the CLI (a real ``memory-tui`` in this process) asks the endpoint, and runs the
index itself when no server answers, the server refuses, fails, dies or goes silent.

The server is the endpoint in this process over a real memory (the fake embedder), or, in
the slow test, the real ``memory-tui serve-mcp`` with the real model, asked by the real
console script.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli, run_console_script
from fakes import FakeEmbedder
from served_support import ask, dies_working, fails, fake_server, malformed_report, record

from app import hook_client
from app.hook_client import FOLDER, IndexRequest
from app.hook_endpoint import serve_hook
from app.mcp.hook import index_answer
from engine.services.memory import Memory

NOTE = "# Gears\n\nEvery sprocket is greased weekly.\n\n## Chains\n\nChains are oiled daily.\n"
SERVED = "memory-tui: indexed by the running server (pid "


def make_project(root: Path) -> Path:
    git_repo(root)
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "gears.md").write_text(NOTE, encoding="utf-8")
    (root / ".claude" / "memory").mkdir()
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "project")


@contextlib.contextmanager
def serving(root: Path) -> Iterator[list[IndexRequest]]:
    """The endpoint of a server of ``root`` in this process, running index requests on a
    memory with the fake embedder; yields the requests it ran."""
    asked: list[IndexRequest] = []
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        run = index_answer(lambda: memory)

        def index(request: IndexRequest) -> dict[str, Any]:
            asked.append(request)
            return run(request)

        with serve_hook(root, lambda prompt: [], index) as endpoint:
            assert endpoint is not None
            yield asked


def found(root: Path, home: Path, word: str) -> bool:
    result = run_cli("search", word, "--mode", "keyword", "--json", cwd=root, home=home)
    return result.returncode == 0 and json.loads(result.stdout or "[]") != []


def _same(text: str) -> str:
    return re.sub(r"\d+\.\d\d s\b", "N s", text)


def _report(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return {k: v for k, v in data.items() if k not in ("seconds", "embed_seconds")}


def _edit(root: Path) -> None:
    path = root / ".claude" / "knowledge" / "gears.md"
    path.write_text(NOTE + "\n## Belts\n\nBelts are checked for cracks.\n", encoding="utf-8")


def test_index_is_run_by_the_running_server_and_prints_what_a_local_run_prints(
    tmp_path: Path, home: Path
) -> None:
    local = make_project(tmp_path / "local")
    served_root = make_project(tmp_path / "served")
    alone = run_cli("index", "--no-embed", cwd=local, home=home)
    _edit(local)
    alone_json = run_cli("index", "--no-embed", "--json", cwd=local, home=home)

    with serving(served_root) as asked:
        served = run_cli("index", "--no-embed", cwd=served_root, home=home)
        _edit(served_root)
        served_json = run_cli("index", "--no-embed", "--json", cwd=served_root, home=home)
        ran = len(asked)
        forced = run_cli("index", "--no-embed", "--force", cwd=served_root, home=home)

    assert (served.returncode, served_json.returncode, forced.returncode) == (0, 0, 0)
    assert served.stderr.startswith(SERVED) and served_json.stderr.startswith(SERVED)
    assert _same(served.stdout) == _same(alone.stdout)
    assert "1 files: 1 changed" in served.stdout and "vectors: 2 entries wait" in served.stdout
    assert _report(served_json.stdout) == _report(alone_json.stdout)
    assert ran == 2 and all(r.paths is None and not r.embed for r in asked)
    assert SERVED not in forced.stderr and len(asked) == 2  # --force runs here
    assert found(served_root, home, "cracks")


def test_a_plain_index_asks_the_server_for_the_vectors_too(project: Path, home: Path) -> None:
    with serving(project) as asked:
        result = run_cli("index", cwd=project, home=home)

    assert result.returncode == 0 and result.stderr.startswith(SERVED)
    assert "2 chunks embedded" in result.stdout and "wait" not in result.stdout
    assert [(r.embed, r.dry_run) for r in asked] == [(True, False)]


def test_a_dry_run_is_run_by_the_server_and_changes_nothing(project: Path, home: Path) -> None:
    with serving(project) as asked:
        dry = run_cli("index", "--dry-run", cwd=project, home=home)

    assert dry.returncode == 0 and dry.stderr.startswith(SERVED)
    assert dry.stdout.startswith("Dry run: 1 files: 1 would change")
    assert "  would index .claude/knowledge/gears.md\n" in dry.stdout
    assert [(r.dry_run, r.embed) for r in asked] == [(True, False)]
    assert not found(project, home, "sprocket")


def test_a_stale_discovery_file_is_removed_and_the_cli_indexes_by_itself(
    project: Path, home: Path
) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = record(project, port=9, pid=int(dead.stdout))

    result = run_cli("index", "--no-embed", cwd=project, home=home)

    assert result.returncode == 0 and "server" not in result.stderr
    assert "1 files: 1 changed" in result.stdout and found(project, home, "sprocket")
    assert not stale.exists()


def test_a_server_with_another_configuration_refuses_and_the_cli_indexes_by_itself(
    project: Path, home: Path
) -> None:
    with serving(project) as asked:
        (project / ".claude" / "memory.config.toml").write_text("chunk_size = 900\n")
        result = run_cli("index", "--no-embed", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert "the running server (pid" in result.stderr
    assert "did not index: the server said: refused: the server runs with another " in (
        result.stderr
    )
    assert result.stderr.rstrip().endswith("; indexing here")
    assert len(asked) == 1 and "1 files: 1 changed" in result.stdout
    assert found(project, home, "sprocket")


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (dies_working, "the connection closed before the answer"),
        (malformed_report, "the report's files_total is not int"),
        (fails, "the server said: the index run failed: OSError: disk full"),
    ],
)
def test_a_server_that_dies_fails_or_answers_badly_leaves_the_cli_to_index(
    project: Path, home: Path, answer: Callable[[socket.socket], None], said: str
) -> None:
    with fake_server(project, answer):
        result = run_cli("index", "--no-embed", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert f"did not index: {said}; indexing here" in result.stderr
    assert "1 files: 1 changed" in result.stdout and found(project, home, "sprocket")


def test_a_silent_server_is_given_up_and_the_cli_indexes(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hook_client, "SILENCE", 0.3)
    release = threading.Event()
    with fake_server(project, lambda conn: release.wait(30)):
        try:
            result = run_cli("index", "--no-embed", cwd=project, home=home)
        finally:
            release.set()

    assert result.returncode == 0, result.stderr
    assert "did not index: no answer for 0.3 s; indexing here" in result.stderr
    assert found(project, home, "sprocket")


def test_a_git_hook_run_is_indexed_by_the_running_server(project: Path, home: Path) -> None:
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, capture_output=True)

    with serving(project) as asked:
        result = run_cli("hooks", "run", "pre-commit", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert SERVED in result.stderr
    assert "re-indexed 1 knowledge file(s) (2 entries new, 0 removed, 2 embedded)" in (
        result.stderr
    )
    assert [r.paths for r in asked] == [(".claude/knowledge/gears.md",)]
    assert found(project, home, "sprocket")


def test_a_git_hook_run_indexes_by_itself_when_the_server_fails(project: Path, home: Path) -> None:
    subprocess.run(["git", "add", "-A"], cwd=project, check=True, capture_output=True)

    with fake_server(project, fails):
        result = run_cli(
            "hooks", "reindex", "--", ".claude/knowledge/gears.md", cwd=project, home=home
        )

    assert result.returncode == 0, result.stderr
    assert "did not index" in result.stderr and "re-indexed 1 knowledge file(s)" in result.stderr
    assert found(project, home, "sprocket")


# --- the endpoint refuses what it must not run -------------------------------------------


def test_an_oversized_request_is_refused_with_a_clear_message(project: Path) -> None:
    with serving(project) as asked:
        answer = ask(project, b'{"prompt": "' + b"x" * (hook_client.MAX_REQUEST + 10) + b'"}\n')

    assert answer == {"error": f"the request is over {hook_client.MAX_REQUEST} bytes"}
    assert asked == []


def _config(project: Path) -> str:
    from engine import load_config

    return hook_client.config_key(load_config(project))


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"paths": ["../outside.md"]}, "'../outside.md' is not a path inside the project"),
        ({"paths": ["/etc/passwd"]}, "'/etc/passwd' is not a path inside the project"),
        ({"paths": [""]}, "'' is not a path inside the project"),
        ({"paths": "gears.md"}, "paths must be a list of text"),
        ({"paths": [7]}, "paths must be a list of text"),
        ({"paths": ["a.md"] * (hook_client.MAX_PATHS + 1)}, "2001 paths: at most 2000"),
        ({"paths": ["a" * 2000]}, "a path over 1024 characters"),
        ({"config": None}, "no configuration key"),
        ({"embed": "yes"}, "dry_run and embed must be true or false"),
        ({"kind": "compact"}, None),
    ],
)
def test_a_malformed_index_request_is_refused_and_runs_nothing(
    project: Path, fields: dict[str, Any], said: str | None
) -> None:
    with serving(project) as asked:
        answer = ask(project, {"config": _config(project), **fields})

    if said is None:
        assert answer == {"error": "this server does not answer requests of kind 'compact'"}
    else:
        assert answer["error"].startswith(f"refused: {said}")
    assert asked == []


def test_a_path_through_a_link_leading_outside_the_project_is_refused(
    project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nnot the project's\n", encoding="utf-8")
    (project / ".claude" / "knowledge" / "linked").symlink_to(outside)

    with serving(project) as asked:
        answer = ask(
            project, {"config": _config(project), "paths": [".claude/knowledge/linked/secret.md"]}
        )

    assert answer["error"].startswith("refused: ") and "leads outside" in answer["error"]
    assert asked == []


def test_a_deleted_file_inside_the_project_is_accepted_and_its_entries_removed(
    project: Path, home: Path
) -> None:
    with serving(project):
        assert run_cli("index", "--no-embed", cwd=project, home=home).returncode == 0
        (project / ".claude" / "knowledge" / "gears.md").unlink()
        answer = ask(project, {"config": _config(project), "paths": [".claude/knowledge/gears.md"]})

    assert answer["report"]["files_removed"] == 1 and answer["report"]["entries_deleted"] == 2
    assert not found(project, home, "sprocket")


def test_a_failing_run_is_reported_to_the_client(project: Path) -> None:
    def broken(request: IndexRequest) -> dict[str, Any]:
        raise RuntimeError("the store is gone")

    with serve_hook(project, lambda prompt: [], broken):
        answer = ask(project, {"config": "x"})

    assert answer == {"error": "the index run failed: RuntimeError: the store is gone"}


# --- the real server and the real entry point ---------------------------------------------


def _imported(stderr: str) -> set[str]:
    """The top-level packages a process imported, from its ``-X importtime`` lines."""
    lines = [line for line in stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in lines}


@pytest.mark.slow
def test_a_running_serve_mcp_indexes_and_searches_for_the_cli_which_imports_no_lancedb(
    project: Path, home: Path, tmp_path: Path
) -> None:
    assert CLI is not None
    config = project / ".claude" / "memory.config.toml"
    config.write_text("count_references = false\n", encoding="utf-8")  # searches count
    with open(tmp_path / "server.log", "wb") as log:
        server = subprocess.Popen(  # kept open, as Claude Code keeps its stdio server
            [CLI, "serve-mcp", "--project", str(project)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=clean_env(home),
        )
    record = project / ".claude" / "memory" / FOLDER / f"{server.pid}.json"
    try:
        deadline = time.monotonic() + 60
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        timed = {"PYTHONPROFILEIMPORTTIME": "1"}
        indexed = run_console_script("index", cwd=project, home=home, env=timed)
        (project / ".claude" / "knowledge" / "belts.md").write_text(
            "# Belts\n\nBelts are checked for cracks.\n", encoding="utf-8"
        )
        subprocess.run(["git", "add", "-A"], cwd=project, check=True, env=clean_env(home))
        hooked = run_console_script("hooks", "run", "pre-commit", cwd=project, home=home, env=timed)
        query = ("search", "belts cracks", "--mode", "hybrid", "--json")
        searched = run_console_script(*query, cwd=project, home=home, env=timed)
    finally:
        server.kill()  # kill -9: its discovery file stays behind, stale
        server.wait(30)
    searched_alone = run_console_script(*query, cwd=project, home=home, env=timed)
    _edit(project)
    alone = run_console_script("index", "--no-embed", cwd=project, home=home, env=timed)

    served = f"memory-tui: indexed by the running server (pid {server.pid})"
    assert indexed.returncode == 0 and served in indexed.stderr, indexed.stderr[-2000:]
    assert "1 files: 1 changed" in indexed.stdout and "2 chunks embedded" in indexed.stdout
    assert "engine" in _imported(indexed.stderr) and "lancedb" not in _imported(indexed.stderr)
    assert hooked.returncode == 0 and served in hooked.stderr, hooked.stderr[-2000:]
    assert "re-indexed 1 knowledge file(s) (1 entries new, 0 removed, 1 embedded)" in (
        hooked.stderr
    )
    assert "lancedb" not in _imported(hooked.stderr)
    assert found(project, home, "cracks")
    assert searched.returncode == 0 and "lancedb" not in _imported(searched.stderr)
    assert searched.stdout == searched_alone.stdout and "cracks" in searched.stdout
    assert "lancedb" in _imported(searched_alone.stderr)
    assert alone.returncode == 0 and "did not index" not in alone.stderr
    assert "indexed by the running server" not in alone.stderr
    assert "lancedb" in _imported(alone.stderr)  # indexed by itself: the store of record
    assert not record.exists() and "2 files: 1 changed" in alone.stdout


def test_a_request_over_the_size_limit_is_not_sent_and_the_cli_indexes(
    project: Path, home: Path
) -> None:
    many = [f".claude/knowledge/{'x' * 900}{n}.md" for n in range(300)]  # ~280 KB

    with serving(project) as asked:
        result = run_cli("hooks", "reindex", "--", *many, cwd=project, home=home)

    limit = hook_client.MAX_REQUEST
    assert f"did not index: the request is over {limit} bytes; indexing here" in result.stderr
    assert asked == [] and result.returncode == 0


def test_an_answer_over_the_size_limit_is_dropped_and_the_cli_indexes(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hook_client, "MAX_RESPONSE", 1000)
    with fake_server(project, lambda conn: conn.sendall(b'{"report": "' + b"x" * 5000)):
        result = run_cli("index", "--no-embed", cwd=project, home=home)

    assert "did not index: the answer is too long; indexing here" in result.stderr
    assert result.returncode == 0 and found(project, home, "sprocket")
