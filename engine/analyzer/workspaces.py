"""The folders a project's manifests declare as its own packages.

A Cargo workspace's ``members`` (globs, less ``exclude``) and every ``path`` dependency,
npm/yarn ``workspaces`` and ``pnpm-workspace.yaml``'s ``packages``, the packages of
``pyproject.toml``/``setup.cfg``/``setup.py``, Maven ``<modules>``, Gradle's ``include``
and a .NET solution's projects. Each reader takes the text of one declaration file and the
folder that holds it, and returns the declared folders as project-relative posix paths;
nothing is raised for a file that cannot be parsed (it declares nothing).

TOML through :mod:`tomllib`, JSON through :mod:`json`, YAML through PyYAML's safe loader,
XML through defusedxml, ``setup.py`` through :mod:`ast` (literal arguments only, never
run). Gradle settings and solution files are programs or line formats without a Python
parser; their ``include``/``Project(...)`` statements are read by pattern.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import posixpath
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import yaml
from defusedxml import ElementTree

from engine.analyzer.gitignore import git_patterns
from engine.analyzer.scan import DEFAULT_IGNORED, DirectoryFilter

MAX_GLOB_FOLDERS = 20_000
_NEVER_ENTERED = DirectoryFilter(DEFAULT_IGNORED)

_GRADLE_INCLUDE = re.compile(r"^\s*include(?:Flat)?\b\s*\(?([^\n]*)", re.MULTILINE)
_QUOTED = re.compile(r"""["']([^"'\n]+)["']""")
_GRADLE_PROJECT_DIR = re.compile(
    r"""project\(\s*["']([^"']+)["']\s*\)\.projectDir\s*=\s*"""
    r"""(?:file|new\s+File)\(\s*(?:(?:rootDir|settingsDir)\s*,\s*)?["']([^"']+)["']"""
)
_SLN_PROJECT = re.compile(r'^Project\("\{[^}]*\}"\)\s*=\s*"[^"]*"\s*,\s*"([^"]+)"', re.MULTILINE)
_PROJECT_FILE = re.compile(r"\.(?:cs|fs|vb|vcx|sql|py|njs|wix|sf)proj$", re.IGNORECASE)
_CARGO_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")


@dataclass(slots=True)
class Declared:
    """Folders declared by one or more manifests, each with the declaration that names it."""

    members: dict[str, str] = field(default_factory=dict)
    """Folder → declaration: workspace members, modules, projects, packages."""
    libraries: dict[str, str] = field(default_factory=dict)
    """Folder → declaration: packages another of the project's packages depends on by path
    (Cargo ``path`` dependencies): library code, whatever their folder is called."""

    users: dict[str, set[str]] = field(default_factory=dict)
    """Library folder → the folders of the manifests that depend on it."""

    def add(self, folder: str | None, why: str, *, user: str | None = None) -> None:
        """Record ``folder`` (``None``: outside the project, ignored); ``user``: the folder
        of a manifest that depends on it, which makes it a library."""
        if folder is None:
            return
        self.members.setdefault(folder, why)
        if user is not None:
            self.libraries.setdefault(folder, why)
            self.users.setdefault(folder, set()).add(user)


def resolve(base: str, target: str) -> str | None:
    """The project-relative posix folder ``target`` names from the folder ``base``, or
    ``None`` when it leaves the project."""
    joined = posixpath.normpath(posixpath.join(base, target.replace("\\", "/")))
    if joined == ".":
        return ""
    if joined.startswith(("../", "/")) or joined == "..":
        return None
    return joined


def expand(root: Path, base: str, patterns: Iterable[str], manifest: str) -> list[str]:
    """The folders under ``base`` that the globs match and that hold a ``manifest`` file
    (a package's own), less those a ``!pattern`` names (npm and pnpm style)."""
    keep: list[str] = []
    drop: list[str] = []
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern.strip():
            continue
        pattern = pattern.strip()
        (drop if pattern.startswith("!") else keep).append(pattern.lstrip("!"))
    dropped = git_patterns(d.removeprefix("./").rstrip("/") for d in drop)
    found = []
    for pattern in keep:
        folder = resolve(base, pattern.rstrip("/"))
        if folder is None:
            continue
        for match in glob_folders(root, folder):
            relative = match[len(base) + 1 :] if base else match
            if (root / match / manifest).is_file() and not dropped.match_file(relative):
                found.append(match)
    return found


def glob_folders(root: Path, pattern: str) -> list[str]:
    """The folders the glob ``pattern`` names (``*``, ``?`` and ``[…]`` within one name,
    ``**`` across folders, as Cargo's and npm's globs). A wildcard never enters hidden or
    never-walked folders (``node_modules``, ``target``…); at most
    :data:`MAX_GLOB_FOLDERS` folders are listed."""
    found: set[str] = set()
    pending = [("", tuple(s for s in pattern.split("/") if s))]
    seen, listed = set(pending), 0
    while pending and listed < MAX_GLOB_FOLDERS:
        rel, segments = pending.pop()
        if not segments:
            found.add(rel)
            continue
        head, rest = segments[0], segments[1:]
        if not any(c in head for c in "*?["):
            steps = [(_join(rel, head), rest)] if (root / rel / head).is_dir() else []
        else:
            listed += 1
            names = _subfolders(root / rel)
            wild = [(_join(rel, n), segments) for n in names] if head == "**" else []
            steps = [(rel, rest)] if head == "**" else []
            steps += wild + [(_join(rel, n), rest) for n in names if fnmatchcase(n, head)]
        for step in steps:
            if step not in seen:
                seen.add(step)
                pending.append(step)
    return sorted(found)


def _subfolders(path: Path) -> list[str]:
    try:
        with os.scandir(path) as it:
            names = [e.name for e in it if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    return [n for n in names if not _NEVER_ENTERED.skips(n)]


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def cargo(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``Cargo.toml``: workspace members (less ``exclude``), the folders of its
    ``[lib]`` and ``[[bin]]`` sources, and ``path`` dependencies."""
    doc = _toml(text)
    workspace = _table(doc, "workspace")
    where = f"{base}/Cargo.toml" if base else "Cargo.toml"
    excluded = {resolve(base, e) for e in _strings(workspace.get("exclude"))}
    members = _strings(workspace.get("members")) + _strings(workspace.get("default-members"))
    for folder in expand(root, base, members, "Cargo.toml"):
        if folder not in excluded:
            declared.add(folder, f"a member of the Cargo workspace ({where})")
    targets = [_table(doc, "lib"), *(t for t in doc.get("bin") or [] if isinstance(t, dict))]
    for target in targets:
        if isinstance(target.get("path"), str):  # [[bin]] path = "crates/core/main.rs"
            source = resolve(base, posixpath.dirname(target["path"]))
            declared.add(source or None, f"the source of a target of {where}")
    tables = [doc.get(key) for key in _CARGO_DEPENDENCY_TABLES]
    tables.append(workspace.get("dependencies"))
    for target in _table(doc, "target").values():
        tables += [_table(target, key) for key in _CARGO_DEPENDENCY_TABLES]
    tables += list(_table(doc, "patch").values())
    for table in tables:
        for spec in (table or {}).values() if isinstance(table, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("path"), str):
                crate = resolve(base, spec["path"])
                if crate is not None and (root / crate / "Cargo.toml").is_file():
                    declared.add(crate, f"a path dependency in {where}", user=base)


def package_json(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``package.json``: its ``workspaces`` (a list, or ``{"packages": [...]}``)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return
    workspaces = doc.get("workspaces") if isinstance(doc, dict) else None
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    where = f"{base}/package.json" if base else "package.json"
    for folder in expand(root, base, _strings(workspaces), "package.json"):
        declared.add(folder, f"a workspace of {where}")


def pnpm_workspace(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``pnpm-workspace.yaml``: its ``packages`` globs."""
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return
    packages = doc.get("packages") if isinstance(doc, dict) else None
    for folder in expand(root, base, _strings(packages), "package.json"):
        declared.add(folder, "a package of pnpm-workspace.yaml")


def pyproject(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``pyproject.toml``: setuptools ``packages``/``package-dir``/``packages.find``,
    Hatch's wheel ``packages``, Poetry's ``packages``."""
    tool = _table(_toml(text), "tool")
    setuptools = _table(tool, "setuptools")
    why = f"a package of {base + '/' if base else ''}pyproject.toml"
    packages = setuptools.get("packages")
    mapping = {str(k): str(v) for k, v in _table(setuptools, "package-dir").items()}
    if isinstance(packages, list):
        _python_packages(root, base, _strings(packages), mapping, why, declared)
    for folder in _strings(_table(_table(setuptools, "packages"), "find").get("where")):
        declared.add(resolve(base, folder), why)
    wheel = _table(_table(_table(_table(tool, "hatch"), "build"), "targets"), "wheel")
    for folder in _strings(wheel.get("packages")):
        declared.add(resolve(base, folder), why)
    for item in _table(tool, "poetry").get("packages") or []:
        if isinstance(item, dict) and isinstance(item.get("include"), str):
            origin = str(item.get("from", ""))
            declared.add(resolve(base, posixpath.join(origin, item["include"])), why)


def setup_cfg(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``setup.cfg``: ``[options] packages`` and ``package_dir``, ``packages.find``."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    options = parser["options"] if parser.has_section("options") else {}
    why = f"a package of {base + '/' if base else ''}setup.cfg"
    mapping = dict(_cfg_pairs(options.get("package_dir", "")))
    packages = [p for p in re.split(r"[,\s]+", options.get("packages", "")) if p]
    if packages and not packages[0].startswith("find"):
        _python_packages(root, base, packages, mapping, why, declared)
    elif parser.has_section("options.packages.find"):
        for folder in parser["options.packages.find"].get("where", "").split():
            declared.add(resolve(base, folder), why)
    elif packages and "" in mapping:
        declared.add(resolve(base, mapping[""]), why)


def setup_py(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``setup.py``: the literal ``packages`` and ``package_dir`` of its ``setup()`` call
    (read with :mod:`ast`, never run)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return
    why = f"a package of {base + '/' if base else ''}setup.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setup":
            args = {k.arg: k.value for k in node.keywords if k.arg}
            mapping = _literal(args.get("package_dir"))
            mapping = mapping if isinstance(mapping, dict) else {}
            packages = _literal(args.get("packages"))
            if isinstance(packages, list | tuple):
                names = [p for p in packages if isinstance(p, str)]
                _python_packages(root, base, names, mapping, why, declared)


def maven(root: Path, base: str, text: str, declared: Declared) -> list[str]:
    """A ``pom.xml``: its ``<modules>`` (profiles' too). Returns the module folders, whose
    own ``pom.xml`` may declare more."""
    try:
        tree = ElementTree.fromstring(text)
    except Exception:  # ParseError, or defusedxml refusing entities: declares nothing
        return []
    found = []
    for element in tree.iter():
        if element.tag.rpartition("}")[2] == "module" and element.text:
            folder = resolve(base, element.text.strip().removesuffix("/pom.xml"))
            declared.add(folder, f"a Maven module of {base + '/' if base else ''}pom.xml")
            if folder is not None:
                found.append(folder)
    return found


def gradle_settings(root: Path, base: str, text: str, declared: Declared) -> None:
    """A ``settings.gradle``/``settings.gradle.kts``: ``include`` and ``projectDir``."""
    why = "a Gradle project included by settings.gradle"
    renamed = {name: folder for name, folder in _GRADLE_PROJECT_DIR.findall(text)}
    for match in _GRADLE_INCLUDE.finditer(text):
        for name in _QUOTED.findall(match.group(1)):
            path = renamed.get(name) or renamed.get(":" + name.lstrip(":"))
            path = path or name.lstrip(":").replace(":", "/")
            declared.add(resolve(base, path), why)


def solution(root: Path, base: str, text: str, declared: Declared) -> None:
    """A .NET ``.sln``: the folder of each project it lists (solution folders skipped)."""
    for path in _SLN_PROJECT.findall(text):
        if _PROJECT_FILE.search(path):
            folder = posixpath.dirname(path.replace("\\", "/"))
            declared.add(resolve(base, folder), "a project of the .NET solution")


def _python_packages(
    root: Path, base: str, names: list[str], mapping: dict[str, str], why: str, into: Declared
) -> None:
    """Dotted package names, placed through ``package_dir`` (``{"": "src"}``)."""
    for name in names:
        top, _, rest = name.partition(".")
        if top in mapping:
            path = posixpath.join(mapping[top], rest.replace(".", "/"))
        else:
            path = posixpath.join(mapping.get("", ""), name.replace(".", "/"))
        folder = resolve(base, path)
        if folder is not None and (root / folder).is_dir():
            into.add(folder, why)


def _cfg_pairs(text: str) -> Iterable[tuple[str, str]]:
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            yield key.strip(), value.strip()


def _literal(node: ast.expr | None) -> Any:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _table(doc: Any, key: str) -> dict[str, Any]:
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
