"""``memory-tui init``: make a repository ready for people and Claude Code in one step.

Creates what is missing and merges into what exists, never clobbering: a second run
creates and duplicates nothing. Steps: knowledge folders and templates, skills,
commented config, ``.mcp.json`` server registration, ``.claude/settings.json`` hooks
(the prompt and the session events, :data:`HOOK_EVENTS`; and the memory-tui Claude Code
plugin turned off there: this wiring does its work),
``.gitignore`` entries, then codebase analysis and knowledge indexing.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from app.install_source import install_source
from engine import CONFIG_JSON, CONFIG_TOML, MemoryPaths, default_config_toml, load_config

SERVER_NAME = "memory-tui"
GITIGNORE_LINES = (".claude/memory/", ".claude/settings.local.json")
BIN_VARIABLE = "MEMORY_TUI_BIN"
"""Where a machine whose ``memory-tui`` is not on PATH says where it is (personal)."""
PORTABLE_COMMAND = f"${{{BIN_VARIABLE}:-memory-tui}}"
"""The command the committed files name: Claude Code expands ``${VAR:-default}`` in
``.mcp.json``, and the hook runs through a shell, which does the same."""
HOOK_COMMAND = (
    f'if command -v "{PORTABLE_COMMAND}" >/dev/null 2>&1; then exec "{PORTABLE_COMMAND}" hook; fi'
)
"""The committed prompt hook: silent (exit 0, nothing injected) on a machine where
memory-tui is not installed, so a teammate without it sees no error on every prompt."""
OLD_HOOK_COMMANDS = frozenset({f'"{PORTABLE_COMMAND}" hook'})
"""Hook commands earlier versions committed: migrated to :data:`HOOK_COMMAND`."""
LOCAL_SETTINGS = Path(".claude") / "settings.local.json"
PLUGIN_ID = "memory-tui@memory-tui"
"""The Claude Code plugin of this repository (plugin/, marketplace .claude-plugin/), which
init turns off in the repositories it wires itself."""
KNOWLEDGE_DIRS = ("architecture", "components", "domain", "patterns")
SKILLS = ("memory-query", "memory-save", "memory-discover")


@dataclass(slots=True)
class InitReport:
    """Files created, merged or left alone, and problems found."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """What was skipped and why (a document that cannot be indexed): said, not a failure."""
    notes: list[str] = field(default_factory=list)


def local_command() -> str | None:
    """This machine's own path to the console script when ``memory-tui`` is not on PATH
    (then only personal, uncommitted files may name it); ``None`` when it is on PATH."""
    if shutil.which("memory-tui"):
        return None
    beside = Path(sys.executable).parent / "memory-tui"
    return str(beside) if beside.exists() else None


def _template(*parts: str) -> str:
    return resources.files("app").joinpath("templates", *parts).read_text(encoding="utf-8")


def scaffold(root: Path, report: InitReport) -> None:
    """Every file step of init (no analysis, no indexing).

    Raises:
        ConfigError: the project's configuration is invalid (e.g. its ``knowledge_dir``
            leads outside the project), or ``.claude/knowledge`` or ``.claude/memory`` does
            (a symlink): nothing is written, there or anywhere.
    """
    load_config(root)  # an existing configuration is checked before the first write
    MemoryPaths.for_root(root)  # and both default folders
    knowledge = root / ".claude" / "knowledge"
    for name in KNOWLEDGE_DIRS:
        _ensure_dir(root, knowledge / name, report)
    _ensure_file(root, knowledge / "gotchas.md", _template("knowledge", "gotchas.md"), report)
    source = install_source()
    readme = _template("knowledge", "README.md").replace("@INSTALL@", source.teammate_advice())
    _ensure_file(root, knowledge / "README.md", readme, report)
    for skill in SKILLS:
        target = root / ".claude" / "skills" / skill / "SKILL.md"
        _ensure_file(root, target, _template("skills", skill, "SKILL.md"), report)
    if (root / CONFIG_JSON).exists() and not (root / CONFIG_TOML).exists():
        report.unchanged.append(str(CONFIG_JSON))
    else:
        _ensure_file(root, root / CONFIG_TOML, default_config_toml(), report)
    _merge_json(root, root / ".mcp.json", _add_server, report)
    _merge_json(root, root / ".claude" / "settings.json", _wire_settings, report)
    local = local_command()
    if local is not None:
        _merge_json(root, root / LOCAL_SETTINGS, lambda data: _set_local_bin(data, local), report)
        report.notes.append(
            f"memory-tui is not on PATH: this machine's path went to {LOCAL_SETTINGS} "
            f"(not committed). For the committed wiring to work in your shell too, "
            f"{source.path_advice()}, or set {BIN_VARIABLE} in your shell."
        )
    _ensure_gitignore(root, report)


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _ensure_dir(root: Path, path: Path, report: InitReport) -> None:
    if path.is_dir():
        if not any(path.iterdir()):  # an init killed between mkdir and .gitkeep
            (path / ".gitkeep").touch()
        report.unchanged.append(_rel(root, path) + "/")
        return
    path.mkdir(parents=True, exist_ok=True)
    (path / ".gitkeep").touch()
    report.created.append(_rel(root, path) + "/")


def _ensure_file(root: Path, path: Path, text: str, report: InitReport) -> None:
    if path.exists():
        report.unchanged.append(_rel(root, path))
        return
    _write_atomic(path, text)
    report.created.append(_rel(root, path))


def _write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file: an interrupted init leaves the old file or the new
    one, never half of one (a re-run skips files that exist, so half would stay)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def _merge_json(
    root: Path,
    path: Path,
    change: Callable[[dict[str, Any]], bool],
    report: InitReport,
) -> None:
    """Apply ``change`` to a JSON object file, keeping everything else in it."""
    rel = _rel(root, path)
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            report.errors.append(f"{rel} is not valid JSON ({exc}); left it untouched")
            return
        if not isinstance(loaded, dict):
            report.errors.append(f"{rel} is not a JSON object; left it untouched")
            return
        data = loaded
    existed = path.exists()
    try:
        changed = change(data)
    except (TypeError, AttributeError) as exc:
        report.errors.append(f"{rel} has an unexpected shape ({exc}); left it untouched")
        return
    if not changed:
        report.unchanged.append(rel)
        return
    _write_atomic(path, json.dumps(data, indent=2) + "\n")
    (report.updated if existed else report.created).append(rel)


def _add_server(data: dict[str, Any]) -> bool:
    """Register the server by the portable command; an entry an older version wrote with
    a machine's absolute path is migrated, anything else the user wrote is kept."""
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise TypeError("mcpServers is not an object")
    wanted = {"type": "stdio", "command": PORTABLE_COMMAND, "args": ["serve-mcp"]}
    current = servers.get(SERVER_NAME)
    if isinstance(current, dict) and not _machine_path(str(current.get("command", ""))):
        return False
    servers[SERVER_NAME] = wanted
    return True


HOOK_EVENTS = ("UserPromptSubmit", "SessionStart", "Stop", "SessionEnd", "PreCompact")
"""The Claude Code events ``init`` wires to :data:`HOOK_COMMAND` (one command for all:
``memory-tui hook`` reads the event from its input). The same list, for a plugin's
``hooks/hooks.json``, is :func:`claude_code_hooks`."""


SESSION_END_TIMEOUT = 30
"""Seconds Claude Code gives the ``SessionEnd`` hook: without a ``timeout`` it cancels
session-end hooks after 1.5 s (``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS``), less than a
capture takes when the process starts cold (bench/RESULTS.md, issue 47)."""


def _hook(event: str) -> dict[str, Any]:
    """One event's hook: ``Stop`` runs in the background (``async``: a capture after every
    turn must not hold the next prompt), ``SessionEnd`` with :data:`SESSION_END_TIMEOUT`."""
    hook: dict[str, Any] = {"type": "command", "command": HOOK_COMMAND}
    if event == "Stop":
        hook["async"] = True
    if event == "SessionEnd":
        hook["timeout"] = SESSION_END_TIMEOUT
    return hook


def claude_code_hooks() -> dict[str, list[dict[str, Any]]]:
    """The ``hooks`` object of Claude Code's settings that ``init`` merges in: every event
    of :data:`HOOK_EVENTS` running :data:`HOOK_COMMAND`. A plugin's ``hooks/hooks.json``
    (``plugin/hooks/hooks.json``) hooks the same events through its launcher; a test
    keeps the two equal."""
    return {event: [{"hooks": [_hook(event)]}] for event in HOOK_EVENTS}


def _wire_settings(data: dict[str, Any]) -> bool:
    """The hooks (:data:`HOOK_EVENTS`), and the memory-tui plugin turned off in this
    repository (its own wiring serves it: one server, one hook per event, one set of
    skills)."""
    hooked = _add_hooks(data)
    return _turn_plugin_off(data) or hooked


def _turn_plugin_off(data: dict[str, Any]) -> bool:
    """``enabledPlugins`` gets the plugin as ``false`` unless it names it already (a
    choice someone made is kept)."""
    plugins = data.setdefault("enabledPlugins", {})
    if not isinstance(plugins, dict):
        raise TypeError("enabledPlugins is not an object")
    if PLUGIN_ID in plugins:
        return False
    plugins[PLUGIN_ID] = False
    return True


def _add_hooks(data: dict[str, Any]) -> bool:
    """Wire every event of :data:`HOOK_EVENTS` (each kept as it is where it has one)."""
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TypeError("hooks is not an object")
    changed = [_add_hook(hooks, event) for event in HOOK_EVENTS]
    return any(changed)


def _add_hook(hooks: dict[str, Any], event: str) -> bool:
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list):
        raise TypeError(f"hooks.{event} is not a list")
    for group in groups:
        for hook in group.get("hooks", []) if isinstance(group, dict) else []:
            command = str(hook.get("command", ""))
            if command == HOOK_COMMAND:
                return False
            older = command in OLD_HOOK_COMMANDS or (
                command.endswith(" hook")
                and _machine_path(command.removesuffix(" hook").strip('"'))
            )
            if older:  # written by an older version: migrate
                hook["command"] = HOOK_COMMAND
                return True
            if "memory-tui" in command and "hook" in command:  # the user's own form: kept
                return False
    groups.append({"hooks": [_hook(event)]})
    return True


def _machine_path(command: str) -> bool:
    """Whether ``command`` names this machine's console script by an absolute path."""
    return Path(command).is_absolute() and Path(command).name == "memory-tui"


def _set_local_bin(data: dict[str, Any], local: str) -> bool:
    env = data.setdefault("env", {})
    if not isinstance(env, dict):
        raise TypeError("env is not an object")
    if env.get(BIN_VARIABLE) == local:
        return False
    env[BIN_VARIABLE] = local
    return True


def _ensure_gitignore(root: Path, report: InitReport) -> None:
    path = root / ".gitignore"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    present = {line.strip() for line in text.splitlines()}
    missing = [line for line in GITIGNORE_LINES if line not in present]
    if not missing:
        report.unchanged.append(".gitignore")
        return
    prefix = "" if not text or text.endswith("\n") else "\n"
    header = "# memory-tui: derived index files, this machine's settings\n"
    block = header + "\n".join(missing) + "\n"
    _write_atomic(path, text + prefix + block)
    (report.updated if text else report.created).append(".gitignore")
