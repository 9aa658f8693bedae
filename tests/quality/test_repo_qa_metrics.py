"""The repo_qa benchmark's metrics, classifier and question files (no model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.prompt_hook import format_context
from bench.repo_qa import (
    REPOSITORIES,
    Question,
    QuestionSet,
    hit_at,
    injected_files,
    is_noise,
    load,
    off_topic,
    off_topic_groups,
    reciprocal_rank,
)
from bench.repo_qa.__main__ import bm25_baseline
from engine import Entry, SearchResult


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
        ("src/router/trie-router/node.test.ts", True),
        ("runtime-tests/lambda/mock.ts", True),
        ("benchmarks/routers/src/koa-router.mts", True),
        ("src/middleware/cors/index.ts", False),
        ("docs/reference/migrations/migrating-to-v5.md", False),
        ("docs/learn/guides/testing.md", False),
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
    groups = off_topic_groups()
    assert set(groups) == {"nonsense", "everyday", "programming"}
    assert len(off_topic()) >= 60 and all(len(g) >= 20 for g in groups.values())


def test_injected_files_reads_what_the_real_hook_prints() -> None:
    def result(entry_id: str, path: str, line: int) -> SearchResult:
        entry = Entry(id=entry_id, content="Use is_eager (id 9).", file_path=path, line_start=line)
        return SearchResult(entry=entry, score=0.5)

    block = format_context(
        [result("a1", "docs/tutorial/options/version.md", 7), result("b2", "typer/main.py", 0)]
    )
    assert injected_files(block) == ["docs/tutorial/options/version.md", "typer/main.py"]


def test_bm25_baselines_rank_the_answer_and_leave_noise_out_of_whole_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "version.md").write_text("# Version\nAdd a --version option.\n")
    (tmp_path / "CHANGELOG.md").write_text("# 0.2\nThe release changed the flag.\n")
    (tmp_path / "app.py").write_text("\n".join(f"x{i} = {i}" for i in range(400)) + "\n")
    question = Question("How do I add a version option?", ("docs/version.md",))
    noisy = Question("Which release changed the flag?", ("CHANGELOG.md",))
    qs = QuestionSet("t", "o/t", "0" * 40, "test", ("*.py", "*.md"), (question, noisy))
    figures = bm25_baseline(qs, tmp_path)
    assert figures["bm25_hit@5"] == figures["bm25_mrr"] == 1.0  # each answer ranks first
    assert figures["bm25_files_hit@5"] == 0.5  # CHANGELOG.md is noise: not a whole file
