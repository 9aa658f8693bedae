"""Every ``memory-tui`` command the README shows runs, as written, on a new project.

The commands are read from the README's fenced ``sh`` blocks, so a command added there is
tested without anyone remembering to; each runs through ``sh`` (pipes and ``echo … |``
as shown) in a new git repository, with the real console script and the real model. The
README's placeholder ``ID`` is the id of an entry the test added; ``init``, which the
README says to run once in a new clone, runs first. The quick start's
``make run`` is tested in a terminal by test_first_contact.py; ``make test`` is what CI runs;
the benchmarks are developers' tools with their own runs.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo
from mcp_helpers import free_port

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"

EXPECTED_EXIT = {
    # Documented refusal: "in a script it refuses unless given --yes".
    "memory-tui promote --all-notes": 2,
}
"""Commands whose README text says they exit non-zero when run as written in a script."""

LONG_RUNNING = ("memory-tui watch", "memory-tui serve-mcp")
"""Run until Ctrl-C: started, given time to start, then SIGINT (exit 0 or 130)."""


def _without_comment(line: str) -> str:
    """``line`` without a trailing shell comment (a ``#`` outside quotes after a space)."""
    for i, char in enumerate(line):
        before = line[:i]
        outside = before.count("'") % 2 == 0 and before.count('"') % 2 == 0
        if char == "#" and (i == 0 or line[i - 1].isspace()) and outside:
            return before.rstrip()
    return line.rstrip()


def readme_commands() -> list[str]:
    """The ``memory-tui …`` lines of the README's ``sh`` blocks, comments removed."""
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for raw in block.splitlines():
            line = _without_comment(raw).strip()
            if "memory-tui" in line and not line.startswith(("make ", ".venv/")):
                commands.append(line)
    return commands


def test_the_readme_shows_the_commands_this_test_runs() -> None:
    """The extraction itself: a README reshuffle must not leave the test with nothing."""
    commands = readme_commands()
    assert len(commands) >= 25
    assert "memory-tui init" in commands
    assert any(c.startswith("memory-tui search") and "--format csv" in c for c in commands)
    assert any("| memory-tui hook" in c for c in commands)


def _project(tmp_path: Path) -> Path:
    project = git_repo(tmp_path / "shop")
    (project / "README.md").write_text(
        "# Shop\n\nThe zephyr checkout service.\n\n## Deploys\n\nDeploys go out on Tuesdays "
        "after the nightly build; entries are stored in LanceDB.\n"
    )
    (project / "notes").mkdir()
    (project / "notes" / "oncall.md").write_text("# On call\n\nPage the checkout team first.\n")
    (project / "ops").mkdir()
    (project / "ops" / "runbook.md").write_text("# Runbook\n\nRestart the zephyr workers.\n")
    return project


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.skipif(CLI is None, reason="the memory-tui console script is not installed")
def test_every_readme_command_runs_as_written_on_a_new_project(tmp_path: Path) -> None:
    assert CLI is not None
    project = _project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = clean_env(home) | {"PATH": f"{Path(CLI).parent}:/usr/bin:/bin"}

    def sh(command: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", "-c", command], cwd=project, env=env, capture_output=True,
                              text=True, timeout=timeout)  # fmt: skip

    added = iter(range(1000))

    def new_id() -> str:
        n = next(added)
        done = sh(f"memory-tui add 'the checkout cache number {n} is warmed at six' --json")
        assert done.returncode == 0, done.stderr
        return str(json.loads(done.stdout)["entry"]["id"])

    failures = []
    commands = readme_commands()  # `init` first, as the README says to do once per clone
    for command in sorted(commands, key=lambda c: c != "memory-tui init"):
        line = command
        if re.search(r"\bID\b", line):
            line = re.sub(r"\bID\b", new_id(), line)
        if command.startswith("memory-tui serve-mcp") and "--token-file" in command:
            token = home / ".memory-tui-token"  # the README's line before it makes one
            token.write_text("t0ken-" + "x" * 40 + "\n")
            token.chmod(0o600)
        if command.startswith("memory-tui serve-mcp --http"):
            line += f" --port {free_port()}"  # the default 8765 may be taken on this machine
        if command.startswith(LONG_RUNNING):
            process = subprocess.Popen(["sh", "-c", f"exec {line}"], cwd=project, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True)  # fmt: skip
            time.sleep(8)
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=120)
            done = subprocess.CompletedProcess(line, process.returncode, out, err)
        else:
            done = sh(line)
        expected = {EXPECTED_EXIT.get(command, 0)} | (
            {130} if command.startswith(LONG_RUNNING) else set()
        )
        problem = "Traceback" in done.stderr or done.returncode not in expected
        if problem:
            failures.append(f"{command}\n  exit {done.returncode}\n  {done.stderr[-800:]}")
    assert not failures, "\n".join(failures)
