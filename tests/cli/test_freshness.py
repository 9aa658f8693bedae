"""`discover`, `stale`, stale flags in `search`, and `watch`, through the real entry point."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli, sigint_as_from_a_terminal
from fakes import FakeEmbedder

from engine.services.discovery import run_discovery
from engine.services.memory import Memory

BILLING = 'def compute_total(items):\n    """Sum."""\n    return sum(items)\n'


def shop(tmp_path: Path) -> Path:
    root = git_repo(tmp_path / "shop")
    (root / "shop").mkdir()
    (root / "shop" / "billing.py").write_text(BILLING, encoding="utf-8")
    return root


def test_search_list_and_stale_show_a_note_whose_function_was_deleted(
    tmp_path: Path, home: Path
) -> None:
    root = shop(tmp_path)
    # 384 dimensions, the model's: `stale --refresh` runs discovery again, with the model.
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        run_discovery(memory)
        note = memory.add("`compute_total` rounds half up, see shop/billing.py", source="session")
    (root / "shop" / "billing.py").write_text("def other():\n    pass\n", encoding="utf-8")

    found = run_cli("search", "rounds half", "--mode", "keyword", "--json", cwd=root, home=home)
    text = run_cli("search", "rounds half", "--mode", "keyword", cwd=root, home=home)
    listed = run_cli("stale", "--json", cwd=root, home=home)

    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    assert [(r["id"], r["stale"]) for r in rows] == [(note.entry.id, True)]
    assert "[stale]" in text.stdout
    stale = {row["id"]: row["staleReason"] for row in json.loads(listed.stdout)}
    assert stale[note.entry.id] == "compute_total is no longer defined in shop/billing.py"
    assert any("changed since" in why for i, why in stale.items() if i != note.entry.id)

    refreshed = run_cli("stale", "--refresh", "--json", cwd=root, home=home)
    assert note.entry.id not in {row["id"] for row in json.loads(refreshed.stdout)}
    again = run_cli("search", "rounds half", "--mode", "keyword", "--json", cwd=root, home=home)
    assert json.loads(again.stdout)[0]["stale"] is False


def test_stale_on_a_memory_without_citations_prints_nothing(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "empty")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("A note about nothing in particular")

    result = run_cli("stale", cwd=root, home=home)

    assert result.returncode == 0
    assert result.stdout == ""
    assert "no stale entries" in result.stderr


def test_watch_needs_a_knowledge_folder(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "bare")

    result = run_cli("watch", cwd=root, home=home)

    assert result.returncode == 2  # not initialised: a usage error, as every command says
    assert "no knowledge folder" in result.stderr and "memory-tui init" in result.stderr
    assert not (root / ".claude").exists()


def test_discover_needs_an_existing_project_folder(tmp_path: Path, home: Path) -> None:
    missing = tmp_path / "nowhere"

    result = run_cli("discover", "--project", str(missing), cwd=tmp_path, home=home)

    assert result.returncode == 1
    assert "no such directory" in result.stderr
    assert not missing.exists()


@pytest.mark.slow
def test_discover_after_renaming_a_function_replaces_its_entry(tmp_path: Path, home: Path) -> None:
    root = shop(tmp_path)
    first = run_cli("discover", cwd=root, home=home)
    assert first.returncode == 0, first.stderr
    nothing = run_cli("discover", cwd=root, home=home)
    assert nothing.stdout.startswith("no file changed since ")
    source = root / "shop" / "billing.py"
    source.write_text(BILLING.replace("compute_total", "grand_total"), encoding="utf-8")

    changed = run_cli("discover", "--json", cwd=root, home=home)

    summary = json.loads(changed.stdout)
    assert summary["changedFiles"] == ["shop/billing.py"]
    assert summary["entries"]["deleted"] >= 1 and summary["entries"]["created"] >= 1
    new = run_cli("search", "grand_total", "--mode", "keyword", "--json", cwd=root, home=home)
    old = run_cli("search", "compute_total", "--mode", "keyword", "--json", cwd=root, home=home)
    found = json.loads(new.stdout)  # the module's entry and the function's definition
    assert found and {r["filePath"] for r in found} == {"shop/billing.py"}
    assert not any(r["stale"] for r in found)
    assert json.loads(old.stdout) == []


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_watch_indexes_changes_logs_one_line_each_and_stops_on_ctrl_c(
    tmp_path: Path, home: Path, stop_signal: signal.Signals
) -> None:
    root = git_repo(tmp_path / "watched")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "old.md").write_text("# Old\n\nThe medlar note.\n", encoding="utf-8")
    proc = subprocess.Popen(
        [str(CLI), "watch"],
        cwd=root,
        env=clean_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_from_a_terminal,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        while not any("watching" in line for line in lines):
            assert proc.poll() is None and time.monotonic() < deadline, lines
            time.sleep(0.1)
        assert any("caught up: 1 file re-indexed" in line for line in lines)
        (knowledge / "new.md").write_text("# New\n\nThe loquat note.\n", encoding="utf-8")
        deadline = time.monotonic() + 60
        while not any("new.md" in line for line in lines):
            assert time.monotonic() < deadline, lines
            time.sleep(0.1)
        hits = run_cli("search", "loquat", "--mode", "keyword", "--json", cwd=root, home=home)
        assert [r["filePath"] for r in json.loads(hits.stdout)] == [".claude/knowledge/new.md"]
    finally:
        proc.send_signal(stop_signal)
        code = proc.wait(60)
        reader.join(10)
    change = [line for line in lines if "new.md" in line]
    assert len(change) == 1 and " added " in change[0] and "1 new" in change[0]
    assert code == 0
    assert not any("Traceback" in line for line in lines)


def test_the_claude_code_hook_marks_stale_context(tmp_path: Path, home: Path) -> None:
    root = shop(tmp_path)
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add("`compute_total` rounds half up, see shop/billing.py", source="session")
    (root / "shop" / "billing.py").write_text("def other():\n    pass\n", encoding="utf-8")
    prompt = json.dumps({"prompt": "compute_total rounds half up", "cwd": str(root)})

    result = run_cli("hook", cwd=root, home=home, stdin=prompt)

    assert result.returncode == 0
    assert "[stale: compute_total is no longer defined in shop/billing.py]" in result.stdout


def test_stale_refresh_follows_the_engines_rule_for_every_source(
    tmp_path: Path, home: Path
) -> None:
    """``stale --refresh`` refreshes by ``Memory.refresh``: the note is reviewed, the
    discovery entries are renewed by discovery run again (before, they stayed stale and
    the command said to run ``discover``), and a promoted note, now a chunk of a knowledge
    file, is left for its file to be edited."""
    from engine.services.promote import promote

    root = shop(tmp_path)
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:  # the model's size
        run_discovery(memory)
        note = memory.add("`compute_total` rounds half up, see shop/billing.py", source="session")
        kept = memory.add("`compute_total` skips refunds, see shop/billing.py", source="manual")
        moved = promote(memory, kept.entry.id).entries[0]
    (root / "shop" / "billing.py").write_text("def other():\n    pass\n", encoding="utf-8")
    before = json.loads(run_cli("stale", "--json", cwd=root, home=home).stdout)
    assert {"session", "discovery", "markdown"} <= {row["source"] for row in before}

    refreshed = run_cli("stale", "--refresh", "--json", cwd=root, home=home)

    assert refreshed.returncode == 0, refreshed.stderr
    left = {row["id"]: row["source"] for row in json.loads(refreshed.stdout)}
    assert left == {moved.id: "markdown"}
    assert note.entry.id not in left
    assert "1 note(s) marked as reviewed" in refreshed.stderr
    assert "discovery: 1 files changed" in refreshed.stderr
    assert "1 not refreshed: its knowledge file is the source" in refreshed.stderr
