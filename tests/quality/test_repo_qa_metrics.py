"""The repo_qa benchmark's metrics, classifier and question files (no model)."""

from __future__ import annotations

import pytest

from bench.repo_qa import (
    REPOSITORIES,
    hit_at,
    injected_files,
    is_noise,
    load,
    off_topic,
    reciprocal_rank,
)


def test_hit_and_reciprocal_rank_count_file_level_matches() -> None:
    ranked = ["a.md", "b.py", "c.py", "d.md", "e.md", "f.md"]
    assert hit_at(ranked, ["e.md"]) == 1.0
    assert hit_at(ranked, ["f.md"]) == 0.0
    assert reciprocal_rank(ranked, ["c.py", "f.md"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(ranked, ["zzz"]) == 0.0


@pytest.mark.parametrize(
    ("path", "noise"),
    [
        ("docs/release-notes.md", True),
        ("History.md", True),
        ("docs_src/a/tutorial001.py", True),
        ("examples/mvc/index.js", True),
        ("tests/test_cli.py", True),
        ("test/app.router.js", True),
        ("typer/_click/core.py", True),
        ("typer/main.py", False),
        ("lib/response.js", False),
        ("docs/tutorial/testing.md", False),
        ("", False),
    ],
)
def test_noise_classifier(path: str, noise: bool) -> None:
    assert is_noise(path) is noise


def test_injected_files_are_read_from_the_hook_block() -> None:
    block = (
        "<project-memory>\nPossibly relevant notes from this project's memory:\n"
        "- [general] docs/tutorial/testing.md:12 (id abc): Testing...\n"
        "- [discovery] typer/main.py (id def): Module...\n"
        "- [gotcha] session (id 123): a note\n</project-memory>\n"
    )
    assert injected_files(block) == ["docs/tutorial/testing.md", "typer/main.py", "session"]


@pytest.mark.parametrize("name", REPOSITORIES)
def test_question_sets_are_complete(name: str) -> None:
    qs = load(name)
    assert len(qs.commit) == 40 and len(qs.questions) >= 25
    assert all(1 <= len(q.files) <= 3 for q in qs.questions)
    assert len({q.q for q in qs.questions}) == len(qs.questions)
    assert len(off_topic()) >= 20
