"""Seed parity (issue #20) through the real ``memory-tui`` console script.

Projects are filled in-process with the fake embedder (of the real model's dimension), so
the subprocesses only run commands that never load the embedding model.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.indexing import Indexer
from engine.services.memory import Memory


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds one note about sprockets."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add("Sprocket grease schedule: weekly", category="pattern")
    return root


def _usage_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr


def test_seed003_f6_cli_min_score(project: Path, home: Path) -> None:
    bad = run_cli("search", "sprocket", "--min-score", "1.5", cwd=project, home=home)
    _usage_error(bad, "--min-score", "from -1 to 1")
    word = run_cli("search", "sprocket", "--min-score", "high", cwd=project, home=home)
    _usage_error(word, "--min-score")
    ok = run_cli(
        "search", "sprocket", "--mode", "keyword", "--min-score", "0.9", cwd=project, home=home
    )
    assert ok.returncode == 0, ok.stderr
    assert "Sprocket grease" in ok.stdout
    assert "ignored in keyword mode" in ok.stderr


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_seed002_worktree_sharing_one_memory(project: Path, home: Path, tmp_path: Path) -> None:
    (project / "README.md").write_text("# Sprockets\n", encoding="utf-8")
    _git("add", "README.md", cwd=project)
    _git("commit", "-q", "-m", "first", cwd=project)
    linked = tmp_path / "linked"
    _git("worktree", "add", "-q", str(linked), cwd=project)
    deep = linked / "src" / "deep"
    deep.mkdir(parents=True)
    found = run_cli("search", "sprocket", "--mode", "keyword", "--json", cwd=deep, home=home)
    assert found.returncode == 0, found.stderr
    assert "Sprocket grease schedule" in found.stdout
    stats = run_cli("stats", "--json", cwd=linked, home=home)
    assert stats.returncode == 0, stats.stderr
    assert '"project": "' + str(project.resolve()) + '"' in stats.stdout
    assert not (linked / ".claude" / "memory").exists()


def _json_config(root: Path, data: object) -> None:
    (root / ".claude").mkdir(exist_ok=True)
    (root / ".claude" / "memory.config.json").write_text(json.dumps(data), encoding="utf-8")


def test_seed004_cli_reads_v01_json_config_and_names_a_bad_key(project: Path, home: Path) -> None:
    _json_config(
        project,
        {"vectorsDir": "elsewhere/vectors", "model": "Xenova/all-MiniLM-L6-v2",
         "ignoredDirs": ["node_modules"], "showProgress": True, "ftsDbName": "fts.sqlite"},
    )  # fmt: skip
    ok = run_cli("search", "sprocket", "--mode", "keyword", cwd=project, home=home)
    assert ok.returncode == 0, ok.stderr
    assert "Sprocket grease" in ok.stdout
    assert "'vectorsDir' is ignored" in ok.stderr and "model" not in ok.stderr
    _json_config(project, {"minScore": 0.3, "minScroe": 0.5})
    _usage_error(run_cli("list", cwd=project, home=home), "memory.config.json", "'minScroe'")
    _json_config(project, {"showProgress": "yes"})
    _usage_error(run_cli("stats", cwd=project, home=home), "'showProgress'", "true or false")


def test_seed000_hook_never_fails_on_a_bad_config_or_bad_stdin(project: Path, home: Path) -> None:
    _json_config(project, {"chunkSize": -5})
    prompt = json.dumps({"prompt": "what is the sprocket grease schedule?", "cwd": str(project)})
    hook = run_cli("hook", cwd=project, home=home, stdin=prompt)
    assert hook.returncode == 0
    assert "Sprocket grease schedule" in hook.stdout  # the defaults were used
    [line] = hook.stderr.splitlines()
    assert "'chunkSize'" in line and "using the default configuration" in line
    _json_config(project, {})
    garbage = run_cli("hook", cwd=project, home=home, stdin="sprocket grease schedule")
    assert garbage.returncode == 0
    assert garbage.stdout == ""  # not taken for a prompt
    assert "stdin is not the hook's JSON" in garbage.stderr
    assert "Traceback" not in garbage.stderr


def test_seed004_deleting_a_knowledge_file_entry_is_refused_the_file_is_the_source(
    project: Path, home: Path
) -> None:
    knowledge = project / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text("# Gears\n\nEvery gear is oiled monthly.\n", "utf-8")
    embedder = FakeEmbedder(dimension=DIMENSION)
    with Memory.open(project, embedder=embedder) as memory:
        Indexer(memory).run()
        by_source = {e.source.value: e.id for e in memory.list()}
    from_file, note = by_source["markdown"], by_source["manual"]

    result = run_cli("delete", from_file, note, cwd=project, home=home)

    assert result.returncode == 1
    assert f"deleted {note}" in result.stderr  # the others are still deleted
    assert ".claude/knowledge/gears.md" in result.stderr
    assert "the file is the source" in result.stderr and "Traceback" not in result.stderr
    with Memory.open(project, embedder=embedder) as memory:
        assert memory.get(note) is None
        Indexer(memory).run(force=True)
        assert [e.id for e in memory.list()] == [from_file]  # nothing came back or went


def test_seed002_cli_add_reports_a_near_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The console script would embed with the real model; the CLI's own main() runs here
    # in-process with vectors put at a known cosine similarity (0.95).
    from fakes import ControlledEmbedder

    import engine.services.memory as memory_module
    from app.cli.main import main

    auth, paraphrase = "Auth uses JWT with 24h expiry", "Authentication uses JWT, 24-hour expiry"
    third = "JWT auth tokens expire after 24 hours"
    embedder = ControlledEmbedder(
        {auth: [1.0, 0.0], paraphrase: [0.95, 0.312], third: [0.96, 0.28]}, dimension=DIMENSION
    )
    monkeypatch.setattr(memory_module, "default_embedder", lambda: embedder)
    root = git_repo(tmp_path / "project")
    assert main(["--project", str(root), "add", auth]) == 0
    first = capsys.readouterr().out.strip()
    assert main(["--project", str(root), "add", paraphrase, "--json"]) == 0
    added = json.loads(capsys.readouterr().out)
    assert added["created"] is True
    assert added["nearDuplicate"]["id"] == first
    (root / ".claude" / "memory.config.toml").write_text('near_duplicate = "skip"\n', "utf-8")
    assert main(["--project", str(root), "add", third]) == 0
    skipped = capsys.readouterr()
    nearest = added["id"]  # the paraphrase is nearer (0.9995) than the first note (0.96)
    assert skipped.out.strip() == nearest  # the id of the entry already holding it
    assert skipped.err.startswith(f"not added: near duplicate of {nearest} (similarity 1.00)")


def test_seed004_list_sort_refs_most_referenced_first(project: Path, home: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        old = memory.list()[0].id
        popular = memory.add("Gearbox oil is synthetic", category="gotcha").entry.id
        newest = memory.add("Chains are replaced yearly", category="pattern").entry.id
        memory.record_references([popular, popular, old])
    recent = run_cli("list", "--json", cwd=project, home=home)
    by_refs = run_cli("list", "--sort", "refs", "--json", cwd=project, home=home)
    assert recent.returncode == by_refs.returncode == 0, by_refs.stderr
    assert [e["id"] for e in json.loads(recent.stdout)] == [newest, popular, old]
    rows = json.loads(by_refs.stdout)
    assert [e["id"] for e in rows] == [popular, old, newest]
    top = run_cli("list", "--sort", "refs", "-n", "1", "--json", cwd=project, home=home)
    assert [e["id"] for e in json.loads(top.stdout)] == [popular]


def test_seed004_global_quiet_keeps_errors_only(project: Path, home: Path) -> None:
    listed = run_cli("list", "--json", cwd=project, home=home)
    [note] = [e["id"] for e in json.loads(listed.stdout)]
    search = ("search", "sprocket", "--min-score", "0.5", "--mode", "keyword")
    loud = run_cli(*search, cwd=project, home=home)
    quiet = run_cli("--quiet", *search, cwd=project, home=home)
    assert loud.stdout == quiet.stdout and "Sprocket" in quiet.stdout
    assert "ignored in keyword mode" in loud.stderr and quiet.stderr == ""
    deleted = run_cli("delete", note, "-q", cwd=project, home=home)
    assert (deleted.returncode, deleted.stderr) == (0, "")
    missing = run_cli("-q", "delete", note, cwd=project, home=home)  # errors still show
    assert missing.returncode == 1 and f"no entry with id '{note}'" in missing.stderr


def test_seed000_init_force_reindexes_every_knowledge_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process (the CLI's own main) with the fake embedder: re-indexing embeds.
    import engine.services.memory as memory_module
    from app.cli.main import main

    monkeypatch.setattr(memory_module, "default_embedder", lambda: FakeEmbedder(DIMENSION))
    root = git_repo(tmp_path / "fresh")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text("# Gears\n\nEvery gear is oiled monthly.\n", "utf-8")
    init = ["--project", str(root), "init", "--skip-analyze", "--no-hooks"]

    def knowledge(argv: list[str]) -> tuple[int, int]:
        """(files, files unchanged) of the init report."""
        assert main(argv) == 0
        found = re.search(r"indexed: (\d+) knowledge files? and (\d+) doc files?; [\d,]+ "
                          r"(?:entry|entries) created, (\d+) files? unchanged",
                          capsys.readouterr().out)  # fmt: skip
        assert found is not None
        return int(found[1]) + int(found[2]), int(found[3])

    files, _ = knowledge(init)
    assert files >= 1
    assert knowledge(init) == (files, files)  # a plain re-run skips unchanged files
    assert knowledge([*init, "--force"]) == (files, 0)  # --force re-reads every one
