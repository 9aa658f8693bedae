"""Issue 18: the Claude Code wiring that init writes works on every teammate's machine."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from cli_support import CLI, clean_env, run_cli
from mcp import Client, StdioServerParameters

from app.init import HOOK_COMMAND

BIN = Path(sys.executable).parent
GIT = [
    "git",
    "-c",
    "user.name=t",
    "-c",
    "user.email=t@example.com",
    "-c",
    "init.defaultBranch=main",
]


def expand(command: str, env: dict[str, str]) -> str:
    """``${VAR:-default}`` and ``${VAR}`` as Claude Code expands them in .mcp.json."""

    def one(match: re.Match[str]) -> str:
        name, _, default = match[1].partition(":-")
        return env.get(name) or default

    return re.sub(r"\$\{([^}]+)\}", one, command)


def run(
    cmd: list[str], cwd: Path, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=300
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
async def test_committed_wiring_names_no_machine_path_and_works_in_another_clone(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    first = tmp_path / "first"
    first.mkdir()
    run([*GIT, "init", "-q"], first, clean_env(home))
    (first / "README.md").write_text("# Shop\n\nThe zephyr checkout runs nightly.\n")
    off_path = clean_env(home) | {"PATH": "/usr/bin:/bin"}  # memory-tui not on PATH
    assert CLI is not None
    done = run([CLI, "init", "--skip-analyze", "--no-hooks"], first, off_path)
    assert done.returncode == 0, done.stderr
    assert "not on PATH" in done.stdout + done.stderr

    run([*GIT, "add", "-A"], first, off_path)
    committed = run([*GIT, "ls-files"], first, off_path).stdout.split()
    assert ".mcp.json" in committed and ".claude/settings.json" in committed
    assert ".claude/settings.local.json" not in committed
    for rel in committed:
        text = (first / rel).read_text(encoding="utf-8", errors="replace")
        assert str(BIN) not in text and str(tmp_path) not in text, rel
    local = json.loads((first / ".claude/settings.local.json").read_text())
    assert local["env"]["MEMORY_TUI_BIN"] == str(BIN / "memory-tui")
    run([*GIT, "commit", "-qm", "init"], first, off_path)

    second = tmp_path / "elsewhere" / "second"
    run([*GIT, "clone", "-q", str(first), str(second)], tmp_path, off_path)
    on_path = clean_env(home) | {"PATH": f"{BIN}:/usr/bin:/bin"}
    on_path.pop("MEMORY_TUI_BIN", None)
    hook = json.loads((second / ".claude/settings.json").read_text())
    [group] = hook["hooks"]["UserPromptSubmit"]
    prompt = json.dumps({"prompt": "when does the zephyr checkout run?", "cwd": str(second)})
    ran = run(["sh", "-c", group["hooks"][0]["command"]], second, on_path, prompt)
    assert ran.returncode == 0, ran.stderr
    server = json.loads((second / ".mcp.json").read_text())["mcpServers"]["memory-tui"]
    params = StdioServerParameters(
        command=expand(server["command"], on_path),
        args=server["args"],
        cwd=str(second),
        env=on_path,
    )
    assert shutil.which(params.command, path=on_path["PATH"])
    async with Client(params, mode="legacy", cache=None) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
    assert "memory_search" in tools


def test_init_migrates_wiring_an_older_version_wrote_with_an_absolute_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    root = tmp_path / "repo"
    (root / ".claude").mkdir(parents=True)
    (root / ".git").mkdir()
    old = str(BIN / "memory-tui")
    (root / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"memory-tui": {"type": "stdio", "command": old, "args": ["serve-mcp"]},
                        "other": {"command": "/opt/other"}}}))  # fmt: skip
    hook = {"type": "command", "command": f"{old} hook"}
    (root / ".claude/settings.json").write_text(
        json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}})
    )
    done = run_cli("init", "--skip-analyze", "--skip-index", "--no-hooks", cwd=root, home=home)
    assert done.returncode == 0, done.stderr
    servers = json.loads((root / ".mcp.json").read_text())["mcpServers"]
    assert servers["memory-tui"]["command"] == "${MEMORY_TUI_BIN:-memory-tui}"
    assert servers["other"] == {"command": "/opt/other"}  # not ours: kept
    hooks = json.loads((root / ".claude/settings.json").read_text())["hooks"]["UserPromptSubmit"]
    assert [h["command"] for g in hooks for h in g["hooks"]] == [HOOK_COMMAND]
    assert (
        old not in (root / ".mcp.json").read_text() + (root / ".claude/settings.json").read_text()
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
async def test_a_fresh_clone_builds_its_memory_from_the_knowledge_files(tmp_path: Path) -> None:
    """``.claude/memory/`` is not committed: a teammate's first command builds it."""
    home = tmp_path / "home"
    home.mkdir()
    env = clean_env(home)
    first = tmp_path / "first"
    first.mkdir()
    run([*GIT, "init", "-q"], first, env)
    (first / "README.md").write_text("# Shop\n\nThe zephyr checkout runs nightly.\n")
    assert run_cli("init", "--skip-analyze", "--no-hooks", cwd=first, home=home).returncode == 0
    knowledge = first / ".claude" / "knowledge" / "gotchas.md"
    knowledge.write_text("# Gotchas\n\nThe quokka cache must be warmed before deploys.\n")
    run([*GIT, "add", "-A"], first, env)
    run([*GIT, "commit", "-qm", "init"], first, env)
    second = tmp_path / "second"
    run([*GIT, "clone", "-q", str(first), str(second)], tmp_path, env)
    assert not (second / ".claude" / "memory").exists()
    found = run_cli("search", "quokka cache", "--mode", "keyword", cwd=second, home=home)
    assert found.returncode == 0, found.stderr
    assert "quokka cache must be warmed" in found.stdout
    assert "building it from the knowledge files" in found.stderr
    again = run_cli("search", "zephyr checkout", "--mode", "keyword", cwd=second, home=home)
    assert "zephyr checkout runs nightly" in again.stdout
    assert "building" not in again.stderr  # once
    third = tmp_path / "third"
    run([*GIT, "clone", "-q", str(first), str(third)], tmp_path, env)
    params = StdioServerParameters(command=CLI, args=["serve-mcp"], cwd=str(third), env=env)
    async with Client(params, mode="legacy", cache=None) as client:
        await client.list_tools()
        for _ in range(120):  # the server builds it in the background
            result = await client.call_tool("memory_search", {"query": "quokka cache"})
            if "quokka cache must be warmed" in str(result.content):
                break
            await anyio.sleep(0.5)
        else:
            raise AssertionError(f"the server never indexed the clone: {result.content}")
