"""Git hooks: install chains and uninstall restores; commits, merges and checkouts re-index
the knowledge files they change; a failure never blocks git."""

from __future__ import annotations

import json
import shlex
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import clean_env, run_cli

from app.githooks import run as hook_run
from engine.storage.paths import MemoryPaths

ORIGINAL = b"#!/bin/sh\n# the team's own check\necho 'team hook ran' >&2\nexit 0\n"


def git(root: Path, *args: str, home: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git in ``root`` with the test's environment."""
    return subprocess.run(
        ["git", *args], cwd=root, env=clean_env(home), capture_output=True, text=True, check=check
    )


def make_repo(tmp_path: Path, home: Path, *, hook: bytes | None = None) -> Path:
    """A git repository with a first commit, optionally with a pre-commit hook of its own."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main", home=home)
    git(root, "config", "user.name", "Test", home=home)
    git(root, "config", "user.email", "test@example.com", home=home)
    (root / "README.md").write_text("# Repo\n", encoding="utf-8")
    git(root, "add", "README.md", home=home)
    git(root, "commit", "-q", "-m", "start", home=home)
    if hook is not None:
        path = root / ".git" / "hooks" / "pre-commit"
        path.write_bytes(hook)
        path.chmod(0o750)
    return root


def wait_for(condition: Callable[[], bool], timeout: float = 120.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.3)
    return condition()


def found(root: Path, home: Path, word: str) -> bool:
    """Whether a keyword search for ``word`` returns anything."""
    result = run_cli("search", word, "--mode", "keyword", "--json", cwd=root, home=home)
    return result.returncode == 0 and json.loads(result.stdout or "[]") != []


def last_run(root: Path) -> dict[str, object]:
    return hook_run.read_state(MemoryPaths.for_root(root))


def test_install_chains_an_existing_hook_and_uninstall_restores_it(
    tmp_path: Path, home: Path
) -> None:
    root = make_repo(tmp_path, home, hook=ORIGINAL)
    hooks = root / ".git" / "hooks"

    installed = run_cli("hooks", "install", cwd=root, home=home)

    assert installed.returncode == 0, installed.stderr
    assert "pre-commit     chained" in installed.stdout
    assert (hooks / "pre-commit.memory-tui-chained").read_bytes() == ORIGINAL
    assert "memory-tui-hook" in (hooks / "pre-commit").read_text()
    again = run_cli("hooks", "install", cwd=root, home=home)  # idempotent
    assert (hooks / "pre-commit.memory-tui-chained").read_bytes() == ORIGINAL
    assert again.stdout == installed.stdout
    status = run_cli("hooks", "status", cwd=root, home=home)
    assert status.stdout.splitlines()[:3] == [
        "pre-commit     chained  (runs pre-commit.memory-tui-chained first)",
        "post-merge     installed",
        "post-checkout  installed",
    ]

    removed = run_cli("hooks", "uninstall", cwd=root, home=home)

    assert removed.returncode == 0, removed.stderr
    assert (hooks / "pre-commit").read_bytes() == ORIGINAL
    assert stat.S_IMODE((hooks / "pre-commit").stat().st_mode) == 0o750
    assert not (hooks / "pre-commit.memory-tui-chained").exists()
    assert not (hooks / "post-merge").exists() and not (hooks / "post-checkout").exists()
    status = run_cli("hooks", "status", cwd=root, home=home)
    assert status.stdout.splitlines() == [
        "pre-commit     absent  (another hook is there; install would chain it)",
        "post-merge     absent",
        "post-checkout  absent",
    ]


def test_uninstall_leaves_a_hook_that_is_not_ours(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home, hook=ORIGINAL)

    result = run_cli("hooks", "uninstall", cwd=root, home=home)

    assert result.returncode == 0
    assert "pre-commit     absent  (left alone: it is not memory-tui's)" in result.stdout
    assert "post-merge     absent  (was not installed)" in result.stdout
    assert (root / ".git" / "hooks" / "pre-commit").read_bytes() == ORIGINAL


def test_the_chained_hook_runs_first_and_its_failure_stops_the_commit(
    tmp_path: Path, home: Path
) -> None:
    failing = b"#!/bin/sh\necho 'lint failed' >&2\nexit 3\n"
    root = make_repo(tmp_path, home, hook=failing)
    assert run_cli("hooks", "install", cwd=root, home=home).returncode == 0
    (root / "a.txt").write_text("x\n", encoding="utf-8")
    git(root, "add", "a.txt", home=home)

    commit = git(root, "commit", "-m", "blocked", home=home, check=False)

    assert commit.returncode != 0
    assert "lint failed" in commit.stderr
    assert git(root, "rev-list", "--count", "HEAD", home=home).stdout.strip() == "1"


def test_core_hooks_path_is_respected(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home)
    git(root, "config", "core.hooksPath", "ci/hooks", home=home)

    result = run_cli("hooks", "install", cwd=root, home=home)

    assert result.returncode == 0, result.stderr
    assert (root / "ci" / "hooks" / "pre-commit").exists()
    assert not (root / ".git" / "hooks" / "pre-commit").exists()


def test_install_errors_outside_git_and_with_a_leftover_chained_hook(
    tmp_path: Path, home: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    outside = run_cli("hooks", "install", "--project", str(plain), cwd=plain, home=home)
    assert outside.returncode == 1
    assert "not in a git repository" in outside.stderr
    assert run_cli("hooks", "status", cwd=plain, home=home).returncode == 1

    root = make_repo(tmp_path, home, hook=ORIGINAL)
    leftover = root / ".git" / "hooks" / "pre-commit.memory-tui-chained"
    leftover.write_bytes(b"#!/bin/sh\nexit 0\n")
    clash = run_cli("hooks", "install", cwd=root, home=home)
    assert clash.returncode == 1
    assert "move one of them away" in clash.stderr
    assert (root / ".git" / "hooks" / "pre-commit").read_bytes() == ORIGINAL


def test_init_installs_the_hooks_unless_told_not_to(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home)
    skipped = run_cli("init", "--skip-analyze", "--skip-index", "--no-hooks", cwd=root, home=home)
    assert skipped.returncode == 0, skipped.stderr
    assert not (root / ".git" / "hooks" / "pre-commit").exists()

    done = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert done.returncode == 0, done.stderr
    assert "git hooks: pre-commit, post-merge, post-checkout" in done.stdout
    assert "memory-tui-hook" in (root / ".git" / "hooks" / "post-checkout").read_text()


def test_a_commit_with_a_broken_config_goes_ahead_with_a_warning(
    tmp_path: Path, home: Path
) -> None:
    root = make_repo(tmp_path, home, hook=ORIGINAL)
    assert run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home).returncode == 0
    (root / ".claude" / "memory.config.toml").write_text("chunk_size = -5\n", encoding="utf-8")
    (root / ".claude" / "knowledge" / "gotchas.md").write_text("# G\n\nNew text.\n")
    git(root, "add", "-A", home=home)

    commit = git(root, "commit", "-m", "edit knowledge", home=home, check=False)

    assert commit.returncode == 0, commit.stderr
    assert "team hook ran" in commit.stderr
    assert "chunk_size" in commit.stderr
    assert "could not re-index the knowledge files; the git operation went ahead" in commit.stderr


def test_a_missing_memory_tui_warns_and_never_blocks(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home)
    assert run_cli("hooks", "install", cwd=root, home=home).returncode == 0
    hook = root / ".git" / "hooks" / "pre-commit"
    gone = str(tmp_path / "gone dir" / "memory-tui")  # a space: quoted by shlex.quote
    lines = hook.read_text().splitlines(keepends=True)
    lines = [f"installed={shlex.quote(gone)}\n" if x.startswith("installed=") else x for x in lines]
    hook.write_text("".join(lines))
    (root / "b.txt").write_text("y\n", encoding="utf-8")
    git(root, "add", "b.txt", home=home)
    env = clean_env(home) | {"PATH": "/usr/bin:/bin"}

    commit = subprocess.run(
        ["git", "commit", "-m", "b"], cwd=root, env=env, capture_output=True, text=True
    )

    assert commit.returncode == 0, commit.stderr
    assert f"{gone} is gone and memory-tui is not on PATH" in commit.stderr
    status = run_cli("hooks", "status", cwd=root, home=home)
    assert f"warning: {gone} is missing" in status.stdout


def test_a_failed_background_run_is_reported_once_by_the_next_hook(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, home)
    MemoryPaths.for_root(root).memory_dir.mkdir(parents=True)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("engine.services.memory.Memory.open", broken)
    assert hook_run.reindex(root, "pre-commit", [".claude/knowledge/a.md"], quiet=True) == 1
    assert last_run(root)["ok"] is False
    capsys.readouterr()

    assert hook_run.run_git_hook(root, "pre-commit", [], background=True) == 0
    first = capsys.readouterr().err
    assert hook_run.run_git_hook(root, "pre-commit", [], background=True) == 0
    second = capsys.readouterr().err

    assert "the background re-index after the pre-commit" in first
    assert "OSError: disk full" in first
    assert second == ""
    status = run_cli("hooks", "status", cwd=root, home=home)
    assert "FAILED: OSError: disk full" in status.stdout


def test_the_hook_does_nothing_without_a_memory_or_without_knowledge_changes(
    tmp_path: Path,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = make_repo(tmp_path, home)
    assert hook_run.run_git_hook(root, "pre-commit", [], background=True) == 0
    MemoryPaths.for_root(root).memory_dir.mkdir(parents=True)
    (root / "c.txt").write_text("z\n", encoding="utf-8")
    git(root, "add", "c.txt", home=home)
    monkeypatch.chdir(root)

    assert hook_run.run_git_hook(root, "pre-commit", [], background=True) == 0
    assert capsys.readouterr().err == ""
    assert hook_run.changed_files(root, "post-checkout", ["0" * 40, "abc", "1"]) is None
    assert hook_run.changed_files(root, "post-checkout", ["abc", "abc", "0"]) is None


@pytest.mark.slow
@pytest.mark.parametrize("foreground", [False, True], ids=["background", "foreground"])
def test_a_commit_makes_edited_knowledge_searchable_without_index(
    tmp_path: Path, home: Path, foreground: bool
) -> None:
    root = make_repo(tmp_path, home, hook=ORIGINAL)
    assert run_cli("init", "--skip-analyze", cwd=root, home=home).returncode == 0
    if foreground:
        assert run_cli("hooks", "install", "--foreground", cwd=root, home=home).returncode == 0
    git(root, "add", "-A", home=home)
    git(root, "commit", "-qm", "init", home=home)
    assert wait_for(lambda: bool(last_run(root)))
    note = root / ".claude" / "knowledge" / "patterns" / "queues.md"
    note.write_text("# Queues\n\nThe kumquat queue drains nightly.\n", encoding="utf-8")
    git(root, "add", "-A", home=home)

    commit = git(root, "commit", "-m", "queues", home=home)

    assert "team hook ran" in commit.stderr
    if foreground:
        assert "re-indexed 1 knowledge file(s)" in commit.stderr
        assert found(root, home, "kumquat")
    else:
        assert "re-indexing 1 indexed file in the background" in commit.stderr
        assert wait_for(lambda: found(root, home, "kumquat"))
    assert wait_for(lambda: last_run(root).get("files") == [note.relative_to(root).as_posix()])
    assert last_run(root)["ok"] is True

    note.write_text("# Queues\n\nThe persimmon queue drains hourly.\n", encoding="utf-8")
    git(root, "commit", "-qam", "edit", home=home)
    assert wait_for(lambda: found(root, home, "persimmon") and not found(root, home, "kumquat"))


@pytest.mark.slow
def test_branch_switches_and_merges_are_followed(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home)
    assert run_cli("init", "--skip-analyze", cwd=root, home=home).returncode == 0
    git(root, "add", "-A", home=home)
    git(root, "commit", "-qm", "init", home=home)
    git(root, "checkout", "-qb", "feature", home=home)
    note = root / ".claude" / "knowledge" / "domain" / "fruit.md"
    note.write_text("# Fruit\n\nThe rambutan rule applies.\n", encoding="utf-8")
    git(root, "add", "-A", home=home)
    git(root, "commit", "-qm", "fruit", home=home)
    assert wait_for(lambda: found(root, home, "rambutan"))

    git(root, "checkout", "-q", "main", home=home)
    assert wait_for(lambda: not found(root, home, "rambutan"))
    # the run records its outcome when it ends, after its vectors: the text goes first
    assert wait_for(lambda: last_run(root)["hook"] == "post-checkout")

    git(root, "merge", "-q", "feature", home=home)
    assert wait_for(lambda: found(root, home, "rambutan"))
    assert wait_for(lambda: last_run(root)["hook"] == "post-merge")


def test_the_part_inside_git_imports_neither_store_nor_model(tmp_path: Path, home: Path) -> None:
    root = make_repo(tmp_path, home)
    MemoryPaths.for_root(root).memory_dir.mkdir(parents=True)
    note = root / ".claude" / "knowledge" / "a.md"
    note.parent.mkdir(parents=True)
    note.write_text("# A\n\nText.\n", encoding="utf-8")
    git(root, "add", "-A", home=home)
    code = """
        import json, sys
        from unittest import mock
        from app.cli import main
        with mock.patch("app.githooks.run.spawn_reindex") as spawn:
            assert main(["hooks", "run", "--background", "pre-commit"]) == 0
        assert spawn.call_args.args[1:] == ("pre-commit", [".claude/knowledge/a.md"])
        heavy = ("lancedb", "torch", "sentence_transformers", "onnxruntime", "numpy", "textual")
        print(json.dumps([m for m in heavy if m in sys.modules]))
    """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=root,
        env=clean_env(home),
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
    assert "re-indexing 1 indexed file in the background" in done.stderr


@pytest.mark.slow
def test_a_project_path_with_a_space_and_a_quote_through_init_and_a_real_commit(
    tmp_path: Path, home: Path
) -> None:
    # The folder names reach sh twice: in the git hook (git runs it from the work tree) and
    # in Claude Code's prompt hook command; neither may split or unquote them.
    parent = tmp_path / "client work" / "it's here"
    parent.mkdir(parents=True)
    root = make_repo(parent, home)
    init = run_cli("init", "--skip-analyze", "--skip-index", cwd=root, home=home)
    assert init.returncode == 0, init.stderr
    assert run_cli("hooks", "install", "--foreground", cwd=root, home=home).returncode == 0
    note = root / ".claude" / "knowledge" / "patterns" / "queues.md"
    note.write_text("# Queues\n\nThe kumquat queue drains nightly.\n", encoding="utf-8")
    git(root, "add", "-A", home=home)

    commit = git(root, "commit", "-m", "knowledge", home=home, check=False)

    assert commit.returncode == 0, commit.stderr
    assert "re-indexed" in commit.stderr and "warning" not in commit.stderr, commit.stderr
    assert found(root, home, "kumquat")
    settings = json.loads((root / ".claude" / "settings.json").read_text(encoding="utf-8"))
    local_file = root / ".claude" / "settings.local.json"  # when memory-tui is not on PATH
    local = json.loads(local_file.read_text(encoding="utf-8")) if local_file.exists() else {}
    [[entry]] = [group["hooks"] for group in settings["hooks"]["UserPromptSubmit"]]
    prompt = subprocess.run(
        ["sh", "-c", entry["command"]],
        cwd=root,
        env=clean_env(home) | local.get("env", {}),
        input=json.dumps({"prompt": "when does the kumquat queue drain?"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert prompt.returncode == 0, prompt.stderr
    assert "kumquat queue drains nightly" in prompt.stdout


def test_a_file_checkout_checks_in_the_background_without_a_word(
    tmp_path: Path,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`git checkout -- app.py` cannot say which files changed: the hash check runs in the
    background, and nothing claims the knowledge files are being re-indexed."""
    root = make_repo(tmp_path, home)
    MemoryPaths.for_root(root).memory_dir.mkdir(parents=True)
    spawned: list[object] = []
    monkeypatch.setattr(hook_run, "spawn_reindex", lambda *args: spawned.append(args))
    head = git(root, "rev-parse", "HEAD", home=home).stdout.strip()

    assert hook_run.run_git_hook(root, "post-checkout", [head, head, "0"], background=True) == 0

    assert spawned and capsys.readouterr().err == ""
