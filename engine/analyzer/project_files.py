"""How to build, test and run a project, and what it depends on, from its own files.

A newcomer's first questions ("how do I run the tests?", "which extras are there?") are
answered by a handful of files at the root: ``pyproject.toml``, ``package.json``, the
``Makefile``, the CI workflows and the helper scripts. Each answer is its own short entry
(one topic per entry keeps search precise). Standard library only: TOML through
:mod:`tomllib`, JSON through :mod:`json`, workflows and Makefiles by their lines.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.analyzer.model import DiscoveryDraft

MAX_ITEMS = 25
"""Scripts, targets, steps or dependencies named per section."""
MAX_FILE_BYTES = 200_000
MAX_COMMAND_CHARS = 160

_MAKE_TARGET = re.compile(r"^([A-Za-z0-9][\w.-]*)\s*:(?!=)")
_WORKFLOW_NAME = re.compile(r"^name:\s*['\"]?(.+?)['\"]?\s*$")
_RUN_STEP = re.compile(r"^\s*(?:-\s+)?run:\s*(.*)$")
_TOML_TABLE = re.compile(r"^\[[^\[\]]+\]\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^['\"]?([\w.-]+)['\"]?\s*=")
_SCRIPT_SUFFIXES = (".sh", ".bash", ".ps1", ".py", ".js", ".mjs", ".ts")


@dataclass(slots=True)
class _Topic:
    """Lines of one topic entry, grouped under the file they come from."""

    lines: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def add(self, file: str, heading: str, items: list[str]) -> None:
        if not items:
            return
        shown = items[:MAX_ITEMS]
        more = f" (and {len(items) - MAX_ITEMS} more)" if len(items) > MAX_ITEMS else ""
        self.lines.append(f"{heading} ({file}){more}:")
        self.lines += [f"- {item}" for item in shown]
        if file not in self.files:
            self.files.append(file)


def project_file_drafts(root: Path, name: str) -> list[DiscoveryDraft]:
    """The "build, test and run", "continuous integration" and "dependencies" entries of
    the project at ``root``."""
    build, deps, ci = _Topic(), _Topic(), _Topic()
    pyproject = _toml(root / "pyproject.toml")
    if pyproject:
        _pyproject(pyproject, build, deps)
    package = _json(root / "package.json")
    if isinstance(package, dict):
        _package_json(package, build, deps)
    deps.add("Cargo.toml", "Cargo features (`cargo build --features NAME`)", _cargo_features(root))
    build.add("Makefile", "Make targets", _make_targets(root))
    ci.add(".github/workflows", "GitHub Actions workflows and the commands they run", _ci(root))
    build.add("scripts", "Helper scripts", _scripts(root))
    drafts = []
    if build.lines:
        title = "How to build, test and run the project"
        drafts.append(_draft(title, build, ("build", "test", "run", "scripts", "ci")))
    if ci.lines:
        title = "Continuous integration"
        drafts.append(_draft(title, ci, ("ci", "workflow", "github actions", "test", "release")))
    if deps.lines:
        title = "Dependencies"
        drafts.append(_draft(title, deps, ("dependencies", "requirements", "install")))
    return drafts


def _draft(title: str, topic: _Topic, keywords: tuple[str, ...]) -> DiscoveryDraft:
    text = "\n".join([title, *topic.lines])[:8_000]
    file_path = topic.files[0] if len(topic.files) == 1 else ""
    return DiscoveryDraft(text, title, file_path, keywords)


def _pyproject(doc: dict[str, Any], build: _Topic, deps: _Topic) -> None:
    project = _table(doc, "project")
    tool = _table(doc, "tool")
    scripts = {**_table(project, "scripts"), **_table(_table(tool, "poetry"), "scripts")}
    build.add(
        "pyproject.toml",
        "Console scripts (installed commands)",
        [f"{k} = {v}" for k, v in scripts.items()],
    )
    backend = _table(doc, "build-system").get("build-backend")
    if isinstance(backend, str):
        build.add("pyproject.toml", "Build backend", [f"{backend} (build with `python -m build`)"])
    hatch_envs = _table(_table(tool, "hatch"), "envs")
    build.add("pyproject.toml", "Hatch environment scripts", _hatch_scripts(hatch_envs))
    pytest = _table(_table(tool, "pytest"), "ini_options")
    if pytest:
        opts = [f"{k} = {_short(v)}" for k, v in pytest.items()]
        build.add("pyproject.toml", "pytest settings (run the tests with `pytest`)", opts)
    tools = [k for k in tool if k not in {"pytest", "hatch", "poetry", "setuptools"}]
    build.add("pyproject.toml", "Tools configured", tools)
    python = project.get("requires-python")
    if isinstance(python, str):
        deps.add("pyproject.toml", "Python version", [python])
    deps.add("pyproject.toml", "Runtime dependencies", _strings(project.get("dependencies")))
    for extra, items in _table(project, "optional-dependencies").items():
        deps.add("pyproject.toml", f"Optional dependencies [{extra}]", _strings(items))
    for group, items in _table(doc, "dependency-groups").items():
        deps.add("pyproject.toml", f"Dependency group {group}", _strings(items))


def _hatch_scripts(envs: dict[str, Any]) -> list[str]:
    found = []
    for env, table in envs.items():
        if isinstance(table, dict):
            for script, command in _table(table, "scripts").items():
                found.append(f"hatch run {env}:{script} -> {_short(command)}")
    return found


def _package_json(doc: dict[str, Any], build: _Topic, deps: _Topic) -> None:
    scripts = doc.get("scripts")
    if isinstance(scripts, dict):
        items = [f"npm run {k} -> {_short(v)}" for k, v in scripts.items()]
        build.add("package.json", "npm scripts", items)
    for key in ("bin", "main", "module", "exports"):
        if isinstance(doc.get(key), str):
            build.add("package.json", f"Package {key}", [doc[key]])
    for key, heading in (
        ("engines", "Engines"),
        ("dependencies", "Runtime dependencies"),
        ("peerDependencies", "Peer dependencies"),
        ("devDependencies", "Development dependencies"),
    ):
        table = doc.get(key)
        if isinstance(table, dict):
            deps.add("package.json", heading, [f"{k} {v}" for k, v in table.items()])


def _cargo_features(root: Path) -> list[str]:
    """The ``[features]`` of the root ``Cargo.toml`` (the Cargo Book's "Features"), each
    with what it enables and the comment lines written right above it, which is where a
    crate says what a feature is for (docs.rs shows no more)."""
    text = _text(root / "Cargo.toml")
    if text is None:
        return []
    features = _table(_toml(root / "Cargo.toml"), "features")
    found, comment, inside = [], [], False
    for line in text.splitlines():
        stripped = line.strip()
        if _TOML_TABLE.match(stripped):
            inside, comment = stripped.replace(" ", "") == "[features]", []
        elif stripped.startswith("#"):
            comment.append(stripped.lstrip("#").strip())
        elif inside and (key := _TOML_KEY.match(stripped)) and key.group(1) in features:
            name = key.group(1)
            said = " ".join(c for c in comment if c)
            found.append(f"{name} = {_short(features[name])}" + (f": {said}" if said else ""))
            comment = []
        elif not stripped:
            comment = []
    return found


def _make_targets(root: Path) -> list[str]:
    text = _text(root / "Makefile") or _text(root / "makefile") or ""
    targets = []
    for line in text.splitlines():
        match = _MAKE_TARGET.match(line)
        if match and not match.group(1).startswith(".") and "%" not in match.group(1):
            targets.append(f"make {match.group(1)}")
    return list(dict.fromkeys(targets))


def _ci(root: Path) -> list[str]:
    folder = root / ".github" / "workflows"
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml"))
    except OSError:
        return []
    found = []
    for path in files:
        text = _text(path) or ""
        title, runs = path.stem, []
        for line in text.splitlines():
            if (match := _WORKFLOW_NAME.match(line)) and title == path.stem:
                title = match.group(1)
            elif (match := _RUN_STEP.match(line)) and _useful(match.group(1).strip()):
                runs.append(match.group(1).strip())
        shown = "; ".join(_short(r) for r in dict.fromkeys(runs)) if runs else "no run steps"
        found.append(f"{path.name} ({title}): {_short(shown, 300)}")
    return found


def _useful(command: str) -> bool:
    return command not in ("", "|", ">") and not command.startswith(("echo ", "exit "))


def _scripts(root: Path) -> list[str]:
    folder = root / "scripts"
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in _SCRIPT_SUFFIXES)
    except OSError:
        return []
    found = []
    for path in files:
        lines = [ln.strip() for ln in (_text(path) or "").splitlines()]
        commands = [ln for ln in lines if ln and not ln.startswith(("#", "set ", '"""'))]
        if path.suffix in (".sh", ".bash", ".ps1"):
            found.append(f"scripts/{path.name}: {_short('; '.join(commands[:4]))}")
        else:
            found.append(f"scripts/{path.name}")
    return found


def _toml(path: Path) -> dict[str, Any]:
    text = _text(path)
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _json(path: Path) -> Any:
    text = _text(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _table(doc: Any, key: str) -> dict[str, Any]:
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _short(value: Any, limit: int = MAX_COMMAND_CHARS) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
