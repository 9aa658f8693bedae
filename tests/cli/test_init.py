"""``memory-tui init``, ``analyze``, ``promote`` and ``hook`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli, tree
from fakes import FakeEmbedder
from read_back import of_file

from app.init import HOOK_COMMAND
from engine.services.memory import Memory

PACKAGE = {
    "pyproject.toml": (
        '[project]\nname = "widgets"\ndependencies = ["fastapi>=0.100"]\n'
        '[project.optional-dependencies]\ntest = ["pytest"]\n'
        '[project.scripts]\nwidgets = "widgets.cli:main"\n'
    ),
    "README.md": (
        "# Widgets\n\nA widget service.\n\n## Configuration\n\n"
        "Widgets are configured with the `WIDGETS_HOME` environment variable, which points "
        "at a folder holding `widgets.toml`.\n"
    ),
    "widgets/__init__.py": '"""Widgets."""\n',
    "widgets/cli.py": "def main() -> int:\n    return 0\n",
    "widgets/core.py": (
        "class WidgetStore:\n    def save(self):\n        pass\n\n"
        "def make_widget(name):\n    return name\n\n_private = 1\n"
    ),
}


def make_package(root: Path) -> Path:
    git_repo(root)
    for rel, text in PACKAGE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_init_scaffolds_and_merges_without_clobbering(tmp_path: Path, home: Path) -> None:
    root = make_package(tmp_path / "repo")
    (root / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"other": {"command": "other-server"}}}), encoding="utf-8"
    )
    (root / ".claude").mkdir()
    existing_hook = {"type": "command", "command": "echo hi"}
    (root / ".claude" / "settings.json").write_text(
        json.dumps({"model": "x", "hooks": {"UserPromptSubmit": [{"hooks": [existing_hook]}]}}),
        encoding="utf-8",
    )
    (root / ".gitignore").write_text("node_modules/", encoding="utf-8")

    result = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert result.returncode == 0, result.stderr
    assert "Initialised" in result.stdout
    for rel in (
        ".claude/knowledge/architecture/.gitkeep",
        ".claude/knowledge/gotchas.md",
        ".claude/skills/memory-query/SKILL.md",
        ".claude/skills/memory-save/SKILL.md",
        ".claude/skills/memory-discover/SKILL.md",
        ".claude/memory.config.toml",
    ):
        assert (root / rel).is_file(), rel
    servers = json.loads((root / ".mcp.json").read_text())["mcpServers"]
    assert servers["other"] == {"command": "other-server"}
    assert servers["memory-tui"]["args"] == ["serve-mcp"]
    settings = json.loads((root / ".claude" / "settings.json").read_text())
    assert settings["model"] == "x"
    commands = [h["command"] for g in settings["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert commands[0] == "echo hi"
    assert commands[1] == HOOK_COMMAND
    assert (root / ".gitignore").read_text().splitlines() == [
        "node_modules/",
        "# memory-tui: derived index files, this machine's settings",
        ".claude/memory/",
        ".claude/settings.local.json",
    ]

    before = tree(root)
    again = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)
    assert again.returncode == 0, again.stderr
    assert tree(root) == before
    assert "files created: 0, merged: 0" in again.stdout


def test_init_reports_invalid_json_and_leaves_it(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "repo")
    (root / ".mcp.json").write_text("{not json", encoding="utf-8")

    result = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert result.returncode == 1
    assert ".mcp.json is not valid JSON" in result.stderr
    assert (root / ".mcp.json").read_text() == "{not json"
    assert (root / ".claude" / "settings.json").exists()  # the other steps still ran


def test_init_completes_a_folder_an_interrupted_init_left_empty(tmp_path: Path, home: Path) -> None:
    """A kill between creating a knowledge folder and its .gitkeep (seen in the SIGKILL
    trials) must not leave an empty folder that git would drop."""
    clean = git_repo(tmp_path / "clean")
    assert run_cli("init", "--skip-analyze", "--skip-index", cwd=clean, home=home).returncode == 0
    root = git_repo(tmp_path / "repo")
    (root / ".claude" / "knowledge" / "patterns").mkdir(parents=True)  # no .gitkeep yet

    result = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert result.returncode == 0, result.stderr
    assert (root / ".claude" / "knowledge" / "patterns" / ".gitkeep").is_file()
    assert tree(root) == tree(clean)


@pytest.mark.slow
def test_init_end_to_end_is_idempotent_and_searchable(tmp_path: Path, home: Path) -> None:
    root = make_package(tmp_path / "repo")

    first = run_cli("init", cwd=root, home=home)
    assert first.returncode == 0, first.stderr
    try_line = next(line for line in first.stdout.splitlines() if line.startswith("Try: "))
    suggested = try_line.rsplit(' search "', 1)[1].split('"')[0]
    assert suggested == "configuration"  # a first-steps topic of this repository's README
    tried = run_cli("search", suggested, "--json", cwd=root, home=home)
    assert any("WIDGETS_HOME" in r["content"] for r in json.loads(tried.stdout))
    found = run_cli("search", "how is widgets configured", "--json", cwd=root, home=home)
    assert found.returncode == 0, found.stderr
    results = json.loads(found.stdout)
    assert any("WIDGETS_HOME" in r["content"] for r in results[:3])
    symbols = run_cli("search", "WidgetStore", "--mode", "keyword", "--json", cwd=root, home=home)
    assert any(r["category"] == "discovery" for r in json.loads(symbols.stdout))
    before_tree = tree(root)
    before_count = json.loads(run_cli("stats", "--json", cwd=root, home=home).stdout)["entries"]

    second = run_cli("init", cwd=root, home=home)

    assert second.returncode == 0, second.stderr
    assert tree(root) == before_tree
    after = json.loads(run_cli("stats", "--json", cwd=root, home=home).stdout)["entries"]
    assert after == before_count

    (root / "widgets" / "core.py").write_text("def renamed_widget(name):\n    return name\n")
    analysed = run_cli("analyze", "--json", cwd=root, home=home)
    assert analysed.returncode == 0, analysed.stderr
    summary = json.loads(analysed.stdout)
    assert summary["name"] == "widgets" and summary["entryPoints"]
    assert summary["entries"]["created"] >= 1 and summary["entries"]["deleted"] >= 1
    renamed = run_cli(
        "search", "renamed_widget", "--mode", "keyword", "--json", cwd=root, home=home
    )
    assert any("renamed_widget" in r["content"] for r in json.loads(renamed.stdout))
    gone = run_cli("search", "WidgetStore", "--mode", "keyword", "--json", cwd=root, home=home)
    assert not any("WidgetStore" in r["content"] for r in json.loads(gone.stdout))


@pytest.mark.slow
def test_promote_moves_an_entry_into_markdown(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "repo")
    added = run_cli(
        "add", "Run ruff before pushing: CI fails on lint", "-c", "pattern", cwd=root, home=home
    )
    assert added.returncode == 0, added.stderr
    entry_id = added.stdout.strip()

    result = run_cli("promote", entry_id, cwd=root, home=home)

    assert result.returncode == 0, result.stderr
    path = root / result.stdout.strip()
    assert path.parent == root / ".claude" / "knowledge" / "patterns"
    assert "Run ruff before pushing" in path.read_text()
    with Memory.open(root) as memory:  # reading needs no model
        assert entry_id not in {e.id for e in memory.list()}  # the note itself is gone
        holder = memory.get(entry_id)  # its old id answers with the promoted text
        assert holder is not None and holder.id != entry_id
        assert holder.file_path == path.relative_to(root).as_posix()
        holders = of_file(memory, path.relative_to(root).as_posix())
        assert holders and all(e.promoted for e in holders)
        assert memory.count() == len(holders)  # not duplicated


def test_promote_errors(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "repo")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("something", category="general")

    missing = run_cli("promote", "nope", cwd=root, home=home)
    nothing = run_cli("promote", cwd=root, home=home)

    assert missing.returncode == 1 and "no entry with id 'nope'" in missing.stderr
    assert nothing.returncode == 1 and "--due" in nothing.stderr
    assert "Traceback" not in missing.stderr + nothing.stderr


def test_hook_prints_relevant_context_only(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "repo")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("Deploys go out with `make release` on Fridays", category="pattern")
        memory.add("The billing service retries webhooks three times", category="domain")
    payload = {"prompt": "how do deploys go out?", "cwd": str(root)}

    hit = run_cli("hook", cwd=tmp_path, home=home, stdin=json.dumps(payload))
    miss = run_cli(
        "hook",
        cwd=tmp_path,
        home=home,
        stdin=json.dumps({"prompt": "tell me a joke", "cwd": str(root)}),
    )
    garbage = run_cli("hook", cwd=root, home=home, stdin="{not json at all")

    assert hit.returncode == 0 and "make release" in hit.stdout
    assert "billing" not in hit.stdout
    assert miss.returncode == 0 and miss.stdout == ""
    assert garbage.returncode == 0 and "Traceback" not in garbage.stderr


def test_hook_never_fails_on_a_broken_memory(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "repo")
    (root / ".claude" / "memory").mkdir(parents=True)
    (root / ".claude" / "memory.config.toml").write_text("bogus_key = 1\n", encoding="utf-8")
    (root / ".claude" / "memory" / "fts.sqlite").write_bytes(b"garbage")

    result = run_cli("hook", cwd=root, home=home, stdin=json.dumps({"prompt": "deploys"}))

    assert result.returncode == 0
    assert result.stdout == ""
    # the bad config is one line on stderr and the defaults are used (seed parity #20)
    assert "bogus_key" in result.stderr and "Traceback" not in result.stderr
