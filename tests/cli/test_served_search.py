"""``memory-tui search --mode hybrid|vector`` is run by a running ``serve-mcp`` (issue 49),
and prints exactly what a search of its own prints, in every format; a keyword search,
a server that refuses or fails, and bad input are searched (or refused) by the CLI itself.

The server is the endpoint in this process over a real memory with the fake embedder; the
CLI's own searches use the same fake embedder.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder
from served_support import ask, dies_working, fake_server

import engine.services.memory as memory_module
from app.cli.options import FORMATS
from app.hook_client import SearchRequest
from app.hook_endpoint import serve_hook
from app.mcp.hook import search_answer
from engine import Indexer
from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

NOTE = "# Gears\n\nEvery sprocket is greased weekly.\n\n## Chains\n\nChains are oiled daily.\n"
NOTES = [
    ("Deploys go through the staging cluster before production", "architecture"),
    ("The sprocket supplier ships on Tuesdays; orders close Monday", "general"),
    ('A "quoted", comma, and <xml> & csv =cell note about chains', "gotcha"),
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(memory_module, "default_embedder", lambda: FakeEmbedder(DIMENSION))
    root = git_repo(tmp_path / "project")
    (root / ".claude" / "knowledge").mkdir(parents=True)
    (root / ".claude" / "knowledge" / "gears.md").write_text(NOTE, encoding="utf-8")
    (root / ".claude" / "memory.config.toml").write_text(
        "count_references = false\n", encoding="utf-8"
    )
    with Memory.open(root) as memory:
        Indexer(memory).run()
        for content, category in NOTES:
            memory.add(content, category=category)
    return root


@contextlib.contextmanager
def serving(root: Path) -> Iterator[list[SearchRequest]]:
    """A server of ``root`` in this process answering searches; yields those it ran."""
    asked: list[SearchRequest] = []
    with Memory.open(root) as memory:
        run = search_answer(lambda: memory)

        def search(request: SearchRequest) -> dict[str, Any]:
            asked.append(request)
            return run(request)

        with serve_hook(root, lambda prompt: [], search=search) as endpoint:
            assert endpoint is not None
            yield asked


def _both(root: Path, home: Path, *args: str) -> tuple[Any, Any, list[SearchRequest]]:
    """(the CLI's search with a server running, the same without one, what it was asked)."""
    with serving(root) as asked:
        served = run_cli("search", *args, cwd=root, home=home)
    alone = run_cli("search", *args, cwd=root, home=home)
    return served, alone, asked


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", ["hybrid", "vector"])
def test_a_served_search_prints_what_a_search_of_its_own_prints(
    project: Path, home: Path, mode: str, fmt: str
) -> None:
    served, alone, asked = _both(
        project, home, "sprocket chains", "--mode", mode, "--format", fmt, "--min-score", "0"
    )

    assert len(asked) == 1 and (asked[0].mode, asked[0].format) == (mode, fmt)
    assert (served.returncode, served.stdout, served.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    assert "sprocket" in served.stdout


def test_every_option_reaches_the_server_and_json_is_the_same(project: Path, home: Path) -> None:
    args = ("sprocket", "--json", "-n", "2", "--category", "general", "--source", "manual")
    served, alone, asked = _both(project, home, *args, "--min-score", "0", "--stale")
    default, default_alone, asked_default = _both(project, home, "sprocket", "--json")

    assert (served.stdout, served.stderr) == (alone.stdout, alone.stderr)
    assert (default.stdout, default.stderr) == (default_alone.stdout, default_alone.stderr)
    assert [(r.limit, r.category, r.source, r.stale_only, r.min_score) for r in asked] == [
        (2, "general", "manual", True, 0.0)
    ]
    assert [(r.mode, r.format) for r in asked_default] == [(None, "json")]  # hybrid: config


def test_a_keyword_search_is_not_asked_of_the_server(project: Path, home: Path) -> None:
    with serving(project) as asked:
        keyword = run_cli("search", "sprocket", "--mode", "keyword", cwd=project, home=home)
        hybrid = run_cli("search", "sprocket", "--mode", "hybrid", cwd=project, home=home)

    assert [r.mode for r in asked] == ["hybrid"]  # the keyword search was the CLI's own
    assert "sprocket" in keyword.stdout and hybrid.returncode == 0


def test_bad_input_gets_the_message_a_search_of_its_own_gives(project: Path, home: Path) -> None:
    served, alone, asked = _both(project, home, "sprocket \udcff", "--mode", "hybrid")

    assert len(asked) == 1  # the server's engine refused it; the CLI said why by itself
    assert served.returncode == alone.returncode != 0
    assert (served.stdout, served.stderr) == (alone.stdout, alone.stderr)


def test_a_server_with_another_configuration_is_not_used(project: Path, home: Path) -> None:
    with serving(project) as asked:
        (project / ".claude" / "memory.config.toml").write_text(
            "count_references = false\ndefault_limit = 1\n", encoding="utf-8"
        )
        served = run_cli("search", "sprocket chains", "--json", cwd=project, home=home)
    alone = run_cli("search", "sprocket chains", "--json", cwd=project, home=home)

    assert len(asked) == 1 and served.returncode == 0
    assert (served.stdout, served.stderr) == (alone.stdout, alone.stderr)


def test_a_server_that_dies_mid_search_leaves_the_cli_to_search(project: Path, home: Path) -> None:
    with fake_server(project, dies_working) as received:
        served = run_cli("search", "sprocket", "--json", cwd=project, home=home)
    alone = run_cli("search", "sprocket", "--json", cwd=project, home=home)

    assert [(r["kind"], r["query"]) for r in received] == [("search", "sprocket")]
    assert served.returncode == 0 and (served.stdout, served.stderr) == (alone.stdout, alone.stderr)


def test_auto_promotion_by_a_served_search_is_said_as_the_cli_says_it(
    project: Path, home: Path
) -> None:
    (project / ".claude" / "memory.config.toml").write_text(
        "auto_promote = true\npromote_threshold = 1\n", encoding="utf-8"
    )
    with serving(project) as asked:
        served = run_cli("search", "supplier Tuesdays", "-n", "1", cwd=project, home=home)

    assert len(asked) == 1 and served.returncode == 0
    [line] = [x for x in served.stderr.splitlines() if x.startswith("auto-promoted ")]
    promoted = project / line.rsplit(" to ", 1)[1]
    assert "Tuesdays" in promoted.read_text(encoding="utf-8")


def test_a_malformed_search_request_is_refused(project: Path) -> None:
    with serving(project) as asked:
        answer = ask(project, {"kind": "search", "config": "x", "query": 7})
        limit = ask(project, {"kind": "search", "config": "x", "query": "a", "limit": "9"})

    assert answer == {"error": "refused: query and format must be text"}
    assert limit == {"error": "refused: limit is of the wrong type"}
    assert asked == []
