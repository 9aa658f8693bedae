"""The ``memory-tui`` command line, run as a user runs it in a git repository: in this
process through ``main(argv)``, and as the installed console script where the process is
the point (``--version``, a pipe closed early).

Projects are filled in-process with the fake embedder, so the commands run here never load
the embedding model (keyword search, list, get, delete, stats, index of unchanged files);
the one test that embeds for real uses its own project. The fake makes vectors of the real
model's dimension, because opening the store (``delete``) checks it.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli, run_console_script
from fakes import FakeEmbedder

from app.cli import build_parser
from engine.embedding.base import DIMENSION
from engine.services.entries import NewEntry
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def subcommands() -> list[str]:
    """Every subcommand the parser registers."""
    parser = build_parser()
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(action.choices)


SUBCOMMANDS = subcommands()

TRICKY = 'Sprocket "tension", <b>bold</b> & more, commas;\nsecond line of the sprocket note'
PLAIN = "Sprocket alignment uses the blue jig in the workshop"
OTHER = "Deploys run on Fridays after the standup"
KNOWLEDGE_FILE = "---\ntitle: Gears\n---\n# Gears\n\nEvery sprocket is greased weekly.\n"


def assert_clean_failure(result: subprocess.CompletedProcess[str], code: int) -> None:
    """A failure: the exit code, a message on stderr, nothing on stdout, no traceback."""
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    assert result.stderr.strip()
    assert "Traceback" not in result.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds three notes and one indexed knowledge file."""
    root = git_repo(tmp_path / "project")
    knowledge = root / ".claude" / "knowledge" / "patterns"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text(KNOWLEDGE_FILE, encoding="utf-8")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(TRICKY, category="gotcha", keywords=["tension", "sprockets"])
        memory.add(PLAIN, category="pattern")
        memory.add(OTHER, category="architecture")
        Indexer(memory).run()
    return root


def ids_by_content(root: Path) -> dict[str, str]:
    """Entry content → id, read in-process."""
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        return {e.content: e.id for e in memory.list()}


def search(project: Path, home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``memory-tui search sprocket --mode keyword`` plus ``extra``, from a subfolder."""
    cwd = project / "src" / "deep"
    cwd.mkdir(parents=True, exist_ok=True)
    return run_cli("search", "sprocket", "--mode", "keyword", *extra, cwd=cwd, home=home)


# --- help and version ----------------------------------------------------------------------------


def test_version(tmp_path: Path, home: Path) -> None:
    result = run_console_script("--version", cwd=tmp_path, home=home)  # the installed script

    assert result.returncode == 0
    assert re.fullmatch(r"memory-tui \d+\.\d+\.\d+\S*\n", result.stdout)


@pytest.mark.parametrize("command", [(), *((c,) for c in SUBCOMMANDS)])
def test_help(tmp_path: Path, home: Path, command: Sequence[str]) -> None:
    result = run_cli(*command, "--help", cwd=tmp_path, home=home)

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: memory-tui {' '.join(command)}".rstrip())
    assert result.stderr == ""
    if not command:
        assert all(name in result.stdout for name in SUBCOMMANDS)


# --- search output formats -----------------------------------------------------------------------


def test_search_json_round_trips_every_field(project: Path, home: Path) -> None:
    ids = ids_by_content(project)

    result = search(project, home, "--format", "json", "-n", "10")

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    rows = json.loads(result.stdout)
    by_id = {row["id"]: row for row in rows}
    assert set(by_id) >= {ids[TRICKY], ids[PLAIN]}
    assert ids[OTHER] not in by_id
    tricky = by_id[ids[TRICKY]]
    assert tricky["content"] == TRICKY
    assert tricky["category"] == "gotcha"
    assert tricky["source"] == "manual"
    assert tricky["keywords"] == ["tension", "sprockets"]
    [from_file] = [row for row in rows if row["source"] == "markdown"]
    assert from_file["filePath"] == ".claude/knowledge/patterns/gears.md"
    assert from_file["line"] == 4
    assert from_file["category"] == "pattern"
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))


def test_json_flag_is_the_same_as_format_json(project: Path, home: Path) -> None:
    by_flag = search(project, home, "--json")
    by_format = search(project, home, "--format", "json")

    assert by_flag.returncode == by_format.returncode == 0
    first, second = json.loads(by_flag.stdout), json.loads(by_format.stdout)
    for result in first:  # the first search counted a reference to each of its results
        result["referenceCount"] += 1
    assert first == second


def test_search_csv_round_trips(project: Path, home: Path) -> None:
    ids = ids_by_content(project)

    result = search(project, home, "--format", "csv")

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    by_id = {row["id"]: row for row in rows}
    assert by_id[ids[TRICKY]]["content"] == TRICKY
    assert by_id[ids[TRICKY]]["category"] == "gotcha"
    assert by_id[ids[PLAIN]]["content"] == PLAIN
    assert len(rows) == 3


def test_search_xml_round_trips(project: Path, home: Path) -> None:
    ids = ids_by_content(project)

    result = search(project, home, "--format", "xml")

    assert result.returncode == 0, result.stderr
    root = ET.fromstring(result.stdout)
    assert root.get("query") == "sprocket"
    by_id = {r.findtext("id"): r for r in root.iter("result")}
    assert root.get("count") == str(len(by_id)) == "3"
    tricky = by_id[ids[TRICKY]]
    assert tricky.findtext("content") == TRICKY
    assert tricky.findtext("category") == "gotcha"
    assert [k.text for k in tricky.iter("keyword")] == ["tension", "sprockets"]


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_search_reading_formats(project: Path, home: Path, fmt: str) -> None:
    result = search(project, home, "--format", fmt)

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n") and not result.stdout.endswith("\n\n")
    assert "sprocket" in result.stdout
    assert ".claude/knowledge/patterns/gears.md:4" in result.stdout
    assert "Deploys" not in result.stdout


def test_search_with_no_hits_prints_an_empty_result(project: Path, home: Path) -> None:
    result = run_cli("search", "xylophone", "--mode", "keyword", "--json", cwd=project, home=home)

    assert result.returncode == 0
    assert json.loads(result.stdout) == []


def test_search_accepts_fts_syntax_in_the_query(project: Path, home: Path) -> None:
    query = 'sprocket" OR (NEAR AND * -'

    result = run_cli("search", query, "--mode", "keyword", "--json", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    # A failing keyword index is not an error but a warning on stderr: there must be none.
    assert result.stderr == ""
    found = {row["content"] for row in json.loads(result.stdout)}
    assert {TRICKY, PLAIN} <= found  # the operators were searched as words, "sprocket" too


def test_category_filter(project: Path, home: Path) -> None:
    result = search(project, home, "--json", "--category", "gotcha")

    assert result.returncode == 0
    assert [row["content"] for row in json.loads(result.stdout)] == [TRICKY]


# --- errors --------------------------------------------------------------------------------------


def test_search_without_a_memory_fails_cleanly(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "fresh")

    result = run_cli("search", "anything", "--mode", "keyword", cwd=root, home=home)

    assert_clean_failure(result, 2)
    assert "no memory" in result.stderr and "run `memory-tui init` first" in result.stderr
    assert not (root / ".claude").exists()  # a failed search creates nothing


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--limit", "0"), "--limit"),
        (("--limit", "many"), "--limit"),
        (("--category", "wizardry"), "--category"),
        (("--mode", "psychic"), "--mode"),
        (("--format", "yaml"), "--format"),
    ],
)
def test_bad_search_arguments_are_usage_errors(
    tmp_path: Path, home: Path, args: tuple[str, ...], message: str
) -> None:
    result = run_cli("search", "sprocket", *args, cwd=tmp_path, home=home)

    assert_clean_failure(result, 2)
    assert message in result.stderr


@pytest.mark.parametrize("command", ["get", "delete"])
def test_unknown_id(project: Path, home: Path, command: str) -> None:
    result = run_cli(command, "0123456789abcdef", cwd=project, home=home)

    assert_clean_failure(result, 1)
    assert "no entry" in result.stderr
    assert "0123456789abcdef" in result.stderr


KEYWORD_SEARCH = ("search", "x", "--mode", "keyword")


@pytest.mark.parametrize(
    ("text", "expected", "command"),
    [
        ("bogus_key = 1\n", "bogus_key", KEYWORD_SEARCH),
        ("bogus_key = 1\n", "bogus_key", ("stats",)),
        ("chunk_size = 5\n", "chunk_size", KEYWORD_SEARCH),
        ("chunk_size = [\n", "TOML", KEYWORD_SEARCH),
    ],
)
def test_bad_config_names_the_file_and_key(
    project: Path, home: Path, text: str, expected: str, command: tuple[str, ...]
) -> None:
    (project / ".claude" / "memory.config.toml").write_text(text, encoding="utf-8")

    result = run_cli(*command, cwd=project, home=home)

    assert_clean_failure(result, 2)
    assert "memory.config.toml" in result.stderr
    assert expected in result.stderr


def test_bad_environment_variable_is_reported(project: Path, home: Path) -> None:
    result = run_cli(
        "search", "x", "--mode", "keyword", cwd=project, home=home,
        env={"CLAUDE_MEMORY_DEFAULT_LIMIT": "zero"},
    )  # fmt: skip

    assert_clean_failure(result, 2)
    assert "CLAUDE_MEMORY_DEFAULT_LIMIT" in result.stderr


def test_piping_into_head_prints_no_traceback(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "big")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add_many(
            [NewEntry(f"Widget note {i}: " + "widget gears " * 150) for i in range(300)]
        )
    command = f"'{CLI}' search widget --mode keyword --format csv --limit 1000 | head -1"

    result = subprocess.run(
        ["bash", "-c", command],  # no pipefail: the exit status is head's
        cwd=root,
        env=clean_env(home),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0
    assert result.stdout.startswith("rank,id,score,category")
    assert result.stdout.count("\n") == 1
    assert "Traceback" not in result.stderr
    assert "BrokenPipe" not in result.stderr
    assert "Exception ignored" not in result.stderr


# --- other commands ------------------------------------------------------------------------------


def test_list_and_stats_json(project: Path, home: Path) -> None:
    ids = ids_by_content(project)

    listed = run_cli("list", "--json", cwd=project, home=home)
    stats = run_cli("stats", "--json", cwd=project, home=home)
    gotchas = run_cli("list", "--json", "--category", "gotcha", cwd=project, home=home)

    assert listed.returncode == stats.returncode == gotchas.returncode == 0
    entries = json.loads(listed.stdout)
    assert {e["id"] for e in entries} == set(ids.values())
    assert {e["content"]: e["id"] for e in entries} == ids
    data = json.loads(stats.stdout)
    assert data["entries"] == 4
    assert data["by_category"] == {"gotcha": 1, "pattern": 2, "architecture": 1}
    assert data["by_source"] == {"manual": 3, "markdown": 1}
    assert Path(data["project"]) == project.resolve()
    assert [e["content"] for e in json.loads(gotchas.stdout)] == [TRICKY]


def test_list_text_and_stats_text(project: Path, home: Path) -> None:
    listed = run_cli("list", cwd=project, home=home)
    stats = run_cli("stats", cwd=project, home=home)

    assert listed.returncode == stats.returncode == 0
    assert len(listed.stdout.splitlines()) == 4
    assert ".claude/knowledge/patterns/gears.md:4" in listed.stdout
    assert "entries:  4" in stats.stdout
    personal = [line for line in stats.stdout.splitlines() if line.startswith("personal:")]
    assert personal and "promote" in personal[0]  # notes not shared until promoted


def test_get_and_delete(project: Path, home: Path) -> None:
    entry_id = ids_by_content(project)[TRICKY]

    shown = run_cli("get", entry_id, "--json", cwd=project, home=home)
    text = run_cli("get", entry_id, cwd=project, home=home)
    deleted = run_cli("delete", entry_id, cwd=project, home=home)
    again = run_cli("get", entry_id, cwd=project, home=home)

    assert shown.returncode == 0
    assert json.loads(shown.stdout)["content"] == TRICKY
    assert text.returncode == 0 and TRICKY in text.stdout
    assert deleted.returncode == 0 and entry_id in deleted.stderr and deleted.stdout == ""
    assert_clean_failure(again, 1)
    assert TRICKY not in ids_by_content(project)
    assert len(ids_by_content(project)) == 3


@pytest.mark.parametrize("before_command", [True, False])
def test_project_option_overrides_the_working_directory(
    project: Path, tmp_path: Path, home: Path, before_command: bool
) -> None:
    elsewhere = git_repo(tmp_path / "elsewhere")
    option = ("--project", str(project))
    args = (*option, "stats", "--json") if before_command else ("stats", "--json", *option)

    result = run_cli(*args, cwd=elsewhere, home=home)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["entries"] == 4


# --- index ---------------------------------------------------------------------------------------


def test_index_prints_a_summary_and_fails_on_a_bad_file(project: Path, home: Path) -> None:
    knowledge = project / ".claude" / "knowledge"
    (knowledge / "image.md").write_bytes(b"\x89PNG\x00\x00\x00binary")

    result = run_cli("index", cwd=project, home=home)

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert ".claude/knowledge/image.md" in result.stderr
    assert re.search(r"\b2 files\b", result.stdout)
    assert "1 errors" in result.stdout
    assert re.search(r"entries: .*\b0 chunks embedded\b.*\d+\.\d+ s", result.stdout)

    (knowledge / "image.md").unlink()
    as_json = run_cli("index", "--json", cwd=project, home=home)

    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["errors"] == []
    assert report["files_total"] == 1 and report["files_skipped"] == 1


def test_index_dry_run_lists_files_and_changes_nothing(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "docs")
    knowledge = root / ".claude" / "knowledge"
    (knowledge / "architecture").mkdir(parents=True)
    (knowledge / "architecture" / "overview.md").write_text("# Overview\n\nLayers.\n")
    (knowledge / "gotchas.md").write_text("# Gotchas\n\nQuote columns.\n")
    (knowledge / "broken.md").write_bytes("# Café\n".encode("latin-1"))

    result = run_cli("index", "--dry-run", cwd=root, home=home)

    assert result.returncode == 1  # a file errored
    assert "Traceback" not in result.stderr
    assert ".claude/knowledge/broken.md" in result.stderr
    assert result.stdout.startswith("Dry run: 3 files: 2 would change")
    assert "would index .claude/knowledge/architecture/overview.md" in result.stdout
    assert "would index .claude/knowledge/gotchas.md" in result.stdout
    assert "would index .claude/knowledge/broken.md" not in result.stdout
    assert not (root / ".claude" / "memory" / "meta.json").exists()
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        assert memory.count() == 0


# --- the real model ------------------------------------------------------------------------------


@pytest.mark.slow
def test_add_and_hybrid_search_with_the_real_model(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "real")
    notes = {
        "gotcha": "LanceDB needs double quotes around camelCase column names in filters",
        "architecture": "The deploy pipeline runs on GitHub Actions and pushes images to ECR",
        "pattern": "Use exponential backoff with jitter when retrying HTTP calls",
    }
    added = {}
    for category, text in notes.items():
        result = run_cli("add", "-", "--category", category, cwd=root, home=home, stdin=text)
        assert result.returncode == 0, result.stderr
        added[category] = result.stdout.strip()
        assert re.fullmatch(r"[0-9a-f]{32}", added[category])

    relevant = run_cli(
        "search", "how do I quote columns in lancedb filters", "--json", cwd=root, home=home
    )
    unrelated = run_cli(
        "search", "completely unrelated quantum physics", "--json", cwd=root, home=home
    )

    assert relevant.returncode == 0, relevant.stderr
    rows = json.loads(relevant.stdout)
    assert rows and rows[0]["id"] == added["gotcha"]
    assert rows[0]["category"] == "gotcha"
    assert unrelated.returncode == 0, unrelated.stderr
    assert json.loads(unrelated.stdout) == []


def test_list_says_showing_n_of_m(project: Path, home: Path) -> None:
    total = len(json.loads(run_cli("list", "--json", cwd=project, home=home).stdout))
    assert total > 1
    one = run_cli("list", "-n", "1", cwd=project, home=home)
    assert one.returncode == 0
    assert f"showing 1 of {total} entries" in one.stderr
    every = run_cli("list", "-n", "100", cwd=project, home=home)
    assert "showing" not in every.stderr  # nothing cut, nothing to say
