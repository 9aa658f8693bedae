"""The Claude Code wiring checked by Claude Code's own CLI (pinned in package.json beside
this file, installed here by ``make claude-code`` or, failing that, by the first test):
the plugin and its marketplace validate, ``claude mcp list`` reports memory-tui connected
in a project set up by ``init`` and with the plugin installed from a local marketplace,
and the plugin says so, in Claude Code's terms, where memory-tui is missing.

No account is needed: these commands run offline. A project's ``.mcp.json`` server is
approved the way a user does it, in the user's settings (``enabledMcpjsonServers``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLUGIN = REPO / "plugin"
SCRIPT = PLUGIN / "scripts" / "memory-tui.sh"
CLAUDE = HERE / "node_modules" / ".bin" / "claude"
PINNED = json.loads((HERE / "package.json").read_text())["devDependencies"][
    "@anthropic-ai/claude-code"
]


@pytest.fixture(scope="session")
def claude() -> Path:
    """Claude Code's CLI at the pinned version; installed into this folder when missing."""
    if not CLAUDE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: Claude Code's CLI cannot be installed")
        subprocess.run(
            [npm, "install", "--prefix", str(HERE), "--no-audit", "--no-fund",
             "--no-package-lock", "--loglevel=error"],
            check=True, timeout=600,
        )  # fmt: skip
    version = subprocess.run([str(CLAUDE), "--version"], capture_output=True, text=True,
                             timeout=60, check=True).stdout  # fmt: skip
    assert version.startswith(PINNED), version
    return CLAUDE


def _env(home: Path, *, with_memory_tui: bool = True) -> dict[str, str]:
    assert CLI is not None
    path = f"{Path(CLI).parent}:/usr/bin:/bin" if with_memory_tui else "/usr/bin:/bin"
    env = clean_env(home) | {"PATH": path}
    env.pop("MEMORY_TUI_BIN", None)
    return env


def _claude(claude: Path, *args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([str(claude), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout


def _user_settings(home: Path, **values: object) -> None:
    path = home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps(data | values))


def _install_plugin(claude: Path, home: Path, cwd: Path) -> None:
    env = _env(home)
    _claude(claude, "plugin", "marketplace", "add", str(REPO), cwd=cwd, env=env)
    _claude(claude, "plugin", "install", "memory-tui@memory-tui", cwd=cwd, env=env)


def _line(listing: str, name: str) -> str:
    [line] = [ln for ln in listing.splitlines() if ln.startswith(f"{name}:")]
    return line


def test_the_plugin_and_its_marketplace_validate(claude: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    report = _claude(claude, "plugin", "validate", str(PLUGIN), cwd=REPO, env=env)
    for part in ("UserPromptSubmit", "mcpServers: memory-tui", "memory-tui:memory-query",
                 "memory-tui:memory-save", "memory-tui:memory-discover"):  # fmt: skip
        assert part in report, report
    assert "Validation passed" in report
    report = _claude(claude, "plugin", "validate", str(REPO), cwd=REPO, env=env)
    assert "Validation passed" in report


def test_the_plugins_skills_are_inits(tmp_path: Path) -> None:
    templates = REPO / "app" / "templates" / "skills"
    shipped = sorted(p.relative_to(PLUGIN / "skills") for p in (PLUGIN / "skills").rglob("*.md"))
    assert shipped == sorted(p.relative_to(templates) for p in templates.rglob("*.md"))
    for name in shipped:
        assert (PLUGIN / "skills" / name).read_text() == (templates / name).read_text(), name


@pytest.mark.slow
def test_a_project_set_up_by_init_connects(claude: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    (project / "README.md").write_text("# Shop\n\nThe zephyr checkout runs nightly.\n")
    done = run_cli("init", "--skip-analyze", "--no-hooks", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    env = _env(home)

    pending = _claude(claude, "mcp", "list", cwd=project, env=env)
    assert "Pending approval" in _line(pending, "memory-tui"), pending

    _user_settings(home, enabledMcpjsonServers=["memory-tui"])
    listing = _claude(claude, "mcp", "list", cwd=project, env=env)
    assert "Connected" in _line(listing, "memory-tui"), listing
    details = _claude(claude, "mcp", "get", "memory-tui", cwd=project, env=env)
    assert "Project config" in details and "Connected" in details, details


@pytest.mark.slow
def test_the_plugin_from_a_local_marketplace_connects(claude: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    _install_plugin(claude, home, project)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"memory-tui@memory-tui": True}

    listing = _claude(claude, "mcp", "list", cwd=project, env=_env(home))
    assert "Connected" in _line(listing, "plugin:memory-tui:memory-tui"), listing


@pytest.mark.slow
def test_without_memory_tui_the_plugins_server_fails_saying_why(
    claude: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    _install_plugin(claude, home, project)
    listing = _claude(claude, "mcp", "list", cwd=project, env=_env(home, with_memory_tui=False))
    assert "Failed to connect" in _line(listing, "plugin:memory-tui:memory-tui"), listing

    done = subprocess.run([str(SCRIPT), "serve-mcp"], env=_env(home, with_memory_tui=False),
                          cwd=project, capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 127
    assert "memory-tui command is not on PATH" in done.stderr
    assert "pipx install" in done.stderr and "uv tool install" in done.stderr


def test_without_memory_tui_the_plugins_hook_says_so_and_lets_the_prompt_go(
    tmp_path: Path,
) -> None:
    project = git_repo(tmp_path / "shop")
    env = _env(tmp_path, with_memory_tui=False) | {"CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run([str(SCRIPT), "hook"], env=env, cwd=project, input="{}",
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stderr
    message = json.loads(done.stdout)["systemMessage"]
    assert "memory-tui command is not on PATH" in message and "pipx ensurepath" in message


def _recording_memory_tui(folder: Path) -> Path:
    """A stand-in ``memory-tui`` on PATH that records how it was called."""
    folder.mkdir()
    fake = folder / "memory-tui"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {folder / "calls"}\n')
    fake.chmod(0o755)
    return folder / "calls"


def test_the_plugins_hook_runs_memory_tui_where_init_did_not_wire_the_project(
    tmp_path: Path,
) -> None:
    project = git_repo(tmp_path / "shop")
    calls = _recording_memory_tui(tmp_path / "bin")
    env = clean_env(tmp_path) | {"PATH": f"{calls.parent}:/usr/bin:/bin",
                                 "CLAUDE_PROJECT_DIR": str(project)}  # fmt: skip
    done = subprocess.run([str(SCRIPT), "hook"], env=env, cwd=project, input="{}",
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert calls.read_text() == "hook\n"


@pytest.mark.parametrize("settings_file", ["settings.json", "settings.local.json"])
def test_with_inits_wiring_the_plugins_hook_stands_aside(
    tmp_path: Path, settings_file: str
) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    done = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    if settings_file != "settings.json":  # the wiring kept in the personal file instead
        settings = project / ".claude" / "settings.json"
        settings.replace(project / ".claude" / settings_file)
    calls = _recording_memory_tui(tmp_path / "bin")
    env = clean_env(home) | {"PATH": f"{calls.parent}:/usr/bin:/bin",
                             "CLAUDE_PROJECT_DIR": str(project)}  # fmt: skip

    done = subprocess.run([str(SCRIPT), "hook"], env=env, cwd=project, input="{}",
                          capture_output=True, text=True, timeout=30)  # fmt: skip

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not calls.exists()  # the project's own hook is the one that runs


def _skipped_settings(claude: Path, project: Path, home: Path) -> str:
    """What Claude Code says it skipped of the project's settings (it validates them on
    start; ``config list`` then stops at the missing login, which is not the point)."""
    done = subprocess.run([str(claude), "config", "list"], cwd=project, env=_env(home),
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.stderr


def test_the_settings_init_writes_are_accepted(claude: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    done = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    assert _skipped_settings(claude, project, home) == ""

    # The same check sees a settings file Claude Code would skip part of.
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": "memory-tui hook"}}))
    assert "were skipped" in _skipped_settings(claude, project, home)


def test_init_turns_the_plugin_off_in_the_repository_it_wires(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    done = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"memory-tui@memory-tui": False}

    # A choice already made there is kept, and a second init changes nothing.
    settings["enabledPlugins"]["memory-tui@memory-tui"] = True
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    again = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert again.returncode == 0, again.stderr
    kept = json.loads((project / ".claude" / "settings.json").read_text())
    assert kept["enabledPlugins"] == {"memory-tui@memory-tui": True}


@pytest.mark.slow
def test_with_the_plugin_and_inits_wiring_one_server_runs(claude: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = git_repo(tmp_path / "shop")
    _install_plugin(claude, home, project)
    done = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    _user_settings(home, enabledMcpjsonServers=["memory-tui"])

    listing = _claude(claude, "mcp", "list", cwd=project, env=_env(home))
    assert "Connected" in _line(listing, "memory-tui"), listing
    assert "plugin:memory-tui" not in listing  # off in this repository (its settings.json)
