"""Project manifests: name, dependencies and declared entry points.

Reads ``pyproject.toml`` (PEP 621, PEP 735 groups, Poetry), ``requirements*.txt``,
``Pipfile``, ``package.json``, ``Cargo.toml`` and ``go.mod``. A manifest that cannot be
parsed is reported, never raised.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.analyzer.catalog import python_package_name
from engine.core.errors import EngineError
from engine.guards.files import read_project_bytes

_REQUIREMENTS = re.compile(r"requirements([-_.\w]*)\.(txt|in)")
_PY_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_GO_REQUIRE = re.compile(r"^\s*(?:require\s+)?([\w.\-]+(?:/[\w.\-~]+)+)\s+v\S+", re.MULTILINE)
_GO_MODULE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)
_MANIFESTS = frozenset({"pyproject.toml", "package.json", "Cargo.toml", "go.mod", "Pipfile"})


def is_manifest(file_name: str) -> bool:
    """Whether the analyzer reads ``file_name`` as a manifest."""
    return file_name in _MANIFESTS or _REQUIREMENTS.fullmatch(file_name) is not None


@dataclass(slots=True)
class Manifests:
    """What the manifests of one project declare, accumulated file by file."""

    names: dict[str, str] = field(default_factory=dict)
    """Manifest path → project name it declares."""
    dependencies: set[str] = field(default_factory=set)
    """Normalised dependency names (Python: PEP 503; npm: lowercase; Go: module paths)."""
    entry_points: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)

    def read(self, rel: str, data: bytes) -> None:
        """Take in the manifest at ``rel`` (posix path) with content ``data``."""
        directory, _, file_name = rel.rpartition("/")
        text = data.decode("utf-8", errors="replace")
        try:
            if file_name == "pyproject.toml":
                self._pyproject(rel, tomllib.loads(text))
            elif file_name == "package.json":
                self._package_json(rel, directory, json.loads(text))
            elif file_name == "Cargo.toml":
                self._cargo(rel, directory, tomllib.loads(text))
            elif file_name == "Pipfile":
                pipfile = tomllib.loads(text)
                for table in ("packages", "dev-packages"):
                    self._python_deps(_table(pipfile, table))
            elif file_name == "go.mod":
                self._go_mod(rel, text)
            else:
                self._requirements(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            self.errors.append((rel, f"cannot parse manifest: {exc}"))

    def _pyproject(self, rel: str, doc: dict[str, Any]) -> None:
        project = _table(doc, "project")
        poetry = _table(_table(doc, "tool"), "poetry")
        self._name(rel, project.get("name") or poetry.get("name"))
        self._python_deps(project.get("dependencies"))
        for extra in _table(project, "optional-dependencies").values():
            self._python_deps(extra)
        for group in _table(doc, "dependency-groups").values():
            self._python_deps(group)
        self._python_deps(_table(poetry, "dependencies"))
        self._python_deps(_table(poetry, "dev-dependencies"))
        for group in _table(poetry, "group").values():
            if isinstance(group, dict):
                self._python_deps(_table(group, "dependencies"))
        if "pytest" in _table(doc, "tool"):
            self.dependencies.add("pytest")
        for table in (_table(project, "scripts"), _table(project, "gui-scripts")):
            self._scripts(table)
        self._scripts(_table(poetry, "scripts"))

    def _package_json(self, rel: str, directory: str, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.errors.append((rel, "package.json is not an object"))
            return
        name = doc.get("name")
        self._name(rel, name)
        for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
            deps = doc.get(key)
            if isinstance(deps, dict):
                self.dependencies.update(str(d).lower() for d in deps)
        scripts = doc.get("scripts")
        if isinstance(scripts, dict) and isinstance(scripts.get("test"), str):
            # "test": "vitest run" names the runner even when it is installed elsewhere
            self.dependencies.update(w.lower() for w in scripts["test"].split())
        if "jest" in doc:
            self.dependencies.add("jest")
        bin_ = doc.get("bin")
        if isinstance(bin_, str) and isinstance(name, str):
            bin_ = {name.rpartition("/")[2]: bin_}
        if isinstance(bin_, dict):
            for command, target in sorted(bin_.items()):
                if isinstance(target, str):
                    self.entry_points.append(f"{command} -> {_join(directory, target)}")
        for key in ("main", "module"):
            if isinstance(doc.get(key), str):
                self.entry_points.append(f"{key} -> {_join(directory, doc[key])}")

    def _cargo(self, rel: str, directory: str, doc: dict[str, Any]) -> None:
        package = _table(doc, "package")
        self._name(rel, package.get("name"))
        for key in ("dependencies", "dev-dependencies", "build-dependencies"):
            self.dependencies.update(d.lower() for d in _table(doc, key))
        self.dependencies.update(
            d.lower() for d in _table(_table(doc, "workspace"), "dependencies")
        )
        bins = doc.get("bin")
        if isinstance(bins, list):
            for item in bins:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    path = item.get("path") or f"src/bin/{item['name']}.rs"
                    self.entry_points.append(f"{item['name']} -> {_join(directory, str(path))}")

    def _go_mod(self, rel: str, text: str) -> None:
        if m := _GO_MODULE.search(text):
            self._name(rel, m.group(1).rstrip("/").rpartition("/")[2])
        self.dependencies.update(m.group(1).lower() for m in _GO_REQUIRE.finditer(text))

    def _requirements(self, text: str) -> None:
        for line in text.splitlines():
            line = line.split(" #", 1)[0].strip()
            if not line or line.startswith(("#", "-")) or "://" in line.split("@")[0]:
                continue
            if m := _PY_NAME.match(line):
                self.dependencies.add(python_package_name(m.group(1)))

    def _python_deps(self, deps: Any) -> None:
        if isinstance(deps, dict):  # Poetry / Pipfile: {name: version}
            names = [str(k) for k in deps if str(k).lower() != "python"]
        elif isinstance(deps, list):
            names = [m.group(1) for d in deps if isinstance(d, str) if (m := _PY_NAME.match(d))]
        else:
            return
        self.dependencies.update(python_package_name(n) for n in names)

    def _scripts(self, table: dict[str, Any]) -> None:
        for command, target in sorted(table.items()):
            if isinstance(target, str):
                self.entry_points.append(f"{command} -> {target}")

    def _name(self, rel: str, name: Any) -> None:
        if isinstance(name, str) and name.strip():
            self.names[rel] = name.strip()

    def project_name(self) -> str | None:
        """The name declared by a manifest at the root, preferring pyproject and package.json."""
        for rel in ("pyproject.toml", "package.json", "Cargo.toml", "go.mod"):
            if rel in self.names:
                return self.names[rel]
        return None


def _table(doc: Any, key: str) -> dict[str, Any]:
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def _join(directory: str, target: str) -> str:
    target = target.removeprefix("./")
    return f"{directory}/{target}" if directory else target


_GO_MAJOR = re.compile(r"^\s*module\s+\S*?/v(\d+)\s*$", re.MULTILINE)
"""Go's semantic import versioning: a module of major version 2 or above ends in ``/vN``."""


def declared_major(root: Path) -> int | None:
    """The major version in ``root``'s ``go.mod`` (``/vN``, else 1), ``package.json``,
    ``Cargo.toml`` or ``pyproject.toml``, the first that declares one."""

    def text(name: str) -> str | None:
        try:
            return read_project_bytes(root, root / name).decode("utf-8", errors="replace")
        except (EngineError, OSError):
            return None

    if (go := text("go.mod")) is not None:
        found = _GO_MAJOR.search(go)
        return int(found.group(1)) if found else 1
    version: object = None
    if (package := text("package.json")) is not None:
        try:
            doc = json.loads(package)
        except ValueError:
            doc = None
        version = doc.get("version") if isinstance(doc, dict) else None
    for name, table in (("Cargo.toml", "package"), ("pyproject.toml", "project")):
        if version is None and (toml := text(name)) is not None:
            try:
                section = tomllib.loads(toml).get(table)
            except tomllib.TOMLDecodeError:
                section = None
            version = section.get("version") if isinstance(section, dict) else None
    major = re.match(r"^v?(\d+)\.", version) if isinstance(version, str) else None
    return int(major.group(1)) if major else None
