"""``memory-tui init``: make a repository ready for people and Claude Code in one step.

Creates what is missing and merges into what exists, never clobbering: a second run
creates and duplicates nothing. Steps: knowledge folders and templates, skills,
commented config, ``.mcp.json`` server registration, ``.claude/settings.json`` hook,
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

from engine import CONFIG_JSON, CONFIG_TOML, MemoryPaths, default_config_toml

SERVER_NAME = "memory-tui"
GITIGNORE_LINES = (".claude/memory/",)
KNOWLEDGE_DIRS = ("architecture", "components", "domain", "patterns")
SKILLS = ("memory-query", "memory-save", "memory-discover")


@dataclass(slots=True)
class InitReport:
    """Files created, merged or left alone, and problems found."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def command_path() -> str:
    """How Claude Code should start us: the bare name if it is on PATH, else the
    absolute path of the console script next to this Python."""
    if shutil.which("memory-tui"):
        return "memory-tui"
    beside = Path(sys.executable).parent / "memory-tui"
    return str(beside) if beside.exists() else "memory-tui"


def _template(*parts: str) -> str:
    return resources.files("app").joinpath("templates", *parts).read_text(encoding="utf-8")


def scaffold(root: Path, report: InitReport) -> None:
    """Every file step of init (no analysis, no indexing).

    Raises:
        ConfigError: ``.claude/knowledge`` or ``.claude/memory`` leads outside the project
            (a symlink): nothing is written, there or anywhere.
    """
    MemoryPaths.for_root(root)  # checks both folders before the first write
    knowledge = root / ".claude" / "knowledge"
    for name in KNOWLEDGE_DIRS:
        _ensure_dir(root, knowledge / name, report)
    _ensure_file(root, knowledge / "gotchas.md", _template("knowledge", "gotchas.md"), report)
    _ensure_file(root, knowledge / "README.md", _template("knowledge", "README.md"), report)
    for skill in SKILLS:
        target = root / ".claude" / "skills" / skill / "SKILL.md"
        _ensure_file(root, target, _template("skills", skill, "SKILL.md"), report)
    if (root / CONFIG_JSON).exists() and not (root / CONFIG_TOML).exists():
        report.unchanged.append(str(CONFIG_JSON))
    else:
        _ensure_file(root, root / CONFIG_TOML, default_config_toml(), report)
    _merge_json(root, root / ".mcp.json", _add_server, report)
    _merge_json(root, root / ".claude" / "settings.json", _add_prompt_hook, report)
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
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise TypeError("mcpServers is not an object")
    if SERVER_NAME in servers:
        return False
    servers[SERVER_NAME] = {"type": "stdio", "command": command_path(), "args": ["serve-mcp"]}
    return True


def _add_prompt_hook(data: dict[str, Any]) -> bool:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TypeError("hooks is not an object")
    groups = hooks.setdefault("UserPromptSubmit", [])
    if not isinstance(groups, list):
        raise TypeError("hooks.UserPromptSubmit is not a list")
    for group in groups:
        for hook in group.get("hooks", []) if isinstance(group, dict) else []:
            if "memory-tui" in str(hook.get("command", "")) and " hook" in str(hook["command"]):
                return False
    groups.append({"hooks": [{"type": "command", "command": f"{command_path()} hook"}]})
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
    block = "# memory-tui: derived index files\n" + "\n".join(missing) + "\n"
    _write_atomic(path, text + prefix + block)
    (report.updated if text else report.created).append(".gitignore")
