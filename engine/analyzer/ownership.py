"""What the project itself declares about its folders: its own packages, vendored copies,
generated and documentation files.

Read from the project's own declarations, never from folder names alone: the manifests'
workspaces, modules and path dependencies (:mod:`engine.analyzer.workspaces`), ``go.mod``
files (every package below a module's root belongs to that module, whatever its folder is
called), ``.gitmodules`` (a submodule is someone else's repository) and ``.gitattributes``
(``linguist-vendored``, ``linguist-generated``, ``linguist-documentation``, set or unset by
later lines and deeper files, as git and GitHub's linguist read them), and the files a
Makefile's recipes write (``delta --generate-completion fish > etc/completion/completion.fish``:
generated output kept in the tree).
:class:`engine.analyzer.noise.NoiseClassifier` weighs these against the path rules.
"""

from __future__ import annotations

import configparser
import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pathspec import GitIgnoreSpec

from engine.analyzer import doc_pages, doc_sites, workspaces
from engine.analyzer.gitignore import git_patterns
from engine.analyzer.package_requirements import dcf_fields
from engine.analyzer.scan import DEFAULT_IGNORED, DirectoryFilter
from engine.core.errors import EngineError
from engine.guards.files import read_project_bytes

MAX_DIRECTORIES = 20_000
"""The walk for declaration files stops after this many folders (a guard on huge trees)."""
MAX_DECLARATION_BYTES = 1_000_000
GO_HEAD_BYTES = 16_384
"""How much of a Go file is read to find its package clause."""
LINGUIST = ("linguist-vendored", "linguist-generated", "linguist-documentation")

_Reader = Callable[[Path, str, str, workspaces.Declared], object]
_READERS: dict[str, _Reader] = {
    "Cargo.toml": workspaces.cargo,
    "package.json": workspaces.package_json,
    "pnpm-workspace.yaml": workspaces.pnpm_workspace,
    "pyproject.toml": workspaces.pyproject,
    "setup.cfg": workspaces.setup_cfg,
    "setup.py": workspaces.setup_py,
    "settings.gradle": workspaces.gradle_settings,
    "settings.gradle.kts": workspaces.gradle_settings,
}
_NOT_GO_PACKAGES = re.compile(r"(?:^|/)(?:vendor|testdata|[._][^/]*)(?:/|$)")
"""Folders the go tool never treats as packages of the module: ``vendor/``, ``testdata/``
and names starting with ``.`` or ``_``."""
_GO_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_GO_PACKAGE = re.compile(r"^\s*package\s+(\w+)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class _AttributeRule:
    base: str
    spec: GitIgnoreSpec
    values: dict[str, bool]


@dataclass(slots=True)
class Ownership:
    """The declarations of one project (see the module's description)."""

    root: Path
    declared: workspaces.Declared = field(default_factory=workspaces.Declared)
    go_modules: set[str] = field(default_factory=set)
    """Folders holding a ``go.mod`` (``""``: the root)."""
    submodules: dict[str, str] = field(default_factory=dict)
    """Submodule folder → its name in ``.gitmodules``."""
    attributes: list[_AttributeRule] = field(default_factory=list)
    built: list[tuple[str, GitIgnoreSpec]] = field(default_factory=list)
    """(Makefile folder, the paths its recipes write to) (:func:`_make_outputs`)."""
    doc_roots: dict[str, str] = field(default_factory=dict)
    """Docs folder → the folder of the docs tool's configuration that declares it
    (:mod:`engine.analyzer.doc_sites`)."""
    doc_pages: dict[str, list[str]] = field(default_factory=dict)
    """A manifest (project-relative path) → the doc pages (paths, glob patterns) it lists
    by name (:mod:`engine.analyzer.doc_pages`)."""
    _go_packages: dict[str, str | None] = field(default_factory=dict)

    def member(self, folder: str) -> str | None:
        """The declaration that names ``folder`` as one of the project's packages."""
        return self.declared.members.get(folder)

    def enclosing(self, rel: str, *, libraries: bool = False) -> str | None:
        """The deepest declared package folder that holds ``rel`` (``libraries``: only
        packages another package depends on)."""
        folders = self.declared.libraries if libraries else self.declared.members
        parts = rel.split("/")[:-1]
        for depth in range(len(parts), 0, -1):
            folder = "/".join(parts[:depth])
            if folder in folders:
                return folder
        return None

    def doc_root(self, rel: str) -> str | None:
        """The shallowest declared docs folder that holds ``rel``, if any."""
        parts = rel.split("/")[:-1]
        return next(
            (f for d in range(1, len(parts) + 1) if (f := "/".join(parts[:d])) in self.doc_roots),
            None,
        )

    def listed_page(self, rel: str) -> str | None:
        """The manifest (project-relative path) that lists ``rel`` as a doc page, if one
        does (:mod:`engine.analyzer.doc_pages`)."""
        return next(
            (m for m, pages in self.doc_pages.items() if doc_pages.listed(pages, rel)), None
        )

    def submodule(self, rel: str) -> str | None:
        """The submodule folder that holds ``rel``, if any."""
        return next((f for f in self.submodules if rel.startswith(f + "/")), None)

    def attribute(self, rel: str, name: str) -> bool | None:
        """``True``/``False`` where a ``.gitattributes`` sets or unsets ``name`` for the
        file ``rel`` (the last rule that speaks wins), ``None`` where none does."""
        value = None
        for rule in self.attributes:
            if name not in rule.values or (rule.base and not rel.startswith(rule.base + "/")):
                continue
            if rule.spec.match_file(rel[len(rule.base) + 1 :] if rule.base else rel):
                value = rule.values[name]
        return value

    def written_by_make(self, rel: str) -> bool:
        """Whether a Makefile's recipe writes the file ``rel`` (a shell redirect)."""
        return any(
            (not base or rel.startswith(base + "/"))
            and spec.match_file(rel[len(base) + 1 :] if base else rel)
            for base, spec in self.built
        )

    def go_library(self, rel: str) -> bool:
        """Whether ``rel`` is a non-test Go file of a package of one of the project's Go
        modules whose package is not ``main`` (library code, not an example program)."""
        if not rel.endswith(".go") or rel.endswith("_test.go"):
            return False
        module = self.go_module(rel)
        if module is None or _NOT_GO_PACKAGES.search(rel[len(module) :].lstrip("/")):
            return False
        name = self._go_package(rel)
        return name is not None and name != "main"

    def go_module(self, rel: str) -> str | None:
        """The root of the Go module that holds ``rel``, if any."""
        parts = rel.split("/")[:-1]
        for depth in range(len(parts), -1, -1):
            folder = "/".join(parts[:depth])
            if folder in self.go_modules:
                return folder
        return None

    def _go_package(self, rel: str) -> str | None:
        if rel not in self._go_packages:
            try:
                with open(self.root / rel, "rb") as handle:
                    head = handle.read(GO_HEAD_BYTES).decode("utf-8", errors="replace")
            except OSError:
                head = ""
            match = _GO_PACKAGE.search(_GO_COMMENT.sub("", head))
            self._go_packages[rel] = match.group(1) if match else None
        return self._go_packages[rel]


def read_ownership(root: Path, *, skip: frozenset[str] = frozenset()) -> Ownership:
    """The declarations of the project at ``root``. ``skip``: folder names whose contents
    are not the project's to declare (vendored copies carry manifests of their own)."""
    own = Ownership(root)
    poms: list[str] = []
    for folder, names in _walk(root, skip):
        for name in names:
            if doc_sites.declares(name):
                config = "" if name.endswith("/") else _text(root, root / folder / name) or ""
                for docs in doc_sites.declared_roots(root, folder, name, config):
                    own.doc_roots.setdefault(docs, folder)
            text = _text(root, root / folder / name) if _wanted(name) else None
            if text is None:
                continue
            if pages := doc_pages.declared_pages(folder, name, text):
                own.doc_pages.setdefault(f"{folder}/{name}" if folder else name, []).extend(pages)
            reader = _READERS.get(name)
            if reader is not None:
                reader(root, folder, text, own.declared)
            elif name == "go.mod":
                own.go_modules.add(folder)
            elif name == "pom.xml":
                poms.append(folder)
            elif name.endswith(".sln"):
                workspaces.solution(root, folder, text, own.declared)
            elif name == ".gitattributes":
                own.attributes += _attribute_rules(folder, text)
            elif name == ".gitmodules" and not folder:
                own.submodules = _submodules(text)
            elif written := _outputs(name, text):
                own.built.append((folder, git_patterns(written)))
    _maven(root, poms, own.declared)
    return own


def _wanted(name: str) -> bool:
    return (
        name in _READERS
        or name.endswith(".sln")
        or name in _OTHERS
        or bool(_MAKEFILE.match(name))
        or doc_pages.reader_for(name) is not None
    )


_MAKEFILE = re.compile(r"^(?:GNUmakefile|[Mm]akefile|.+\.mk|.+\.[Mm]akefile)$")
_REDIRECT = re.compile(r"(?<![>&\d])>\s*([^\s;|&<>()]+)")
"""A shell redirect to a file in a recipe line (not ``>>``, ``2>``, ``>&2``)."""
_MAKE_VARIABLE = re.compile(r"\$\$\{?\w+\}?|\$[({][^)}]*[)}]|\$\w")


def _make_outputs(text: str) -> list[str]:
    """Anchored patterns (``/etc/completion/completion.*``) of the files a Makefile's
    recipe lines (tab-indented) write by a shell redirect; a variable in a path matches
    any name. Paths outside the Makefile's folder, ``/dev/…`` and ones whose every folder
    or file name is a variable (``$@``, ``$(OUT)``) say nothing about a file here."""
    found = []
    for line in text.splitlines():
        if not line.startswith("\t"):
            continue
        for target in _REDIRECT.findall(line):
            target = target.strip("\"'")
            if target.startswith("./"):
                target = target[2:]
            pattern = _MAKE_VARIABLE.sub("*", target)
            parts = pattern.split("/")
            if (
                not target
                or target.startswith(("/", "$@", "~"))
                or ".." in parts
                or "$" in pattern
                or any(not part.strip("*") for part in parts)
            ):
                continue
            found.append("/" + pattern)
    return found


_JAZZY = frozenset({".jazzy.yaml", ".jazzy.yml"})
_OTHERS = frozenset({"go.mod", "pom.xml", ".gitattributes", ".gitmodules", "DESCRIPTION", *_JAZZY})


def _outputs(name: str, text: str) -> list[str]:
    """Patterns of the files a build tool's file ``name`` says it writes."""
    if _MAKEFILE.match(name):
        return _make_outputs(text)
    if name == "DESCRIPTION":
        return _revdep_outputs(text)
    return _jazzy_outputs(text) if name in _JAZZY else []


def _revdep_outputs(text: str) -> list[str]:
    """An R package's ``revdep/`` folder: where revdepcheck writes the reports of its
    reverse-dependency checks (``revdep_check()``, ``revdep_report()``: ``README.md``,
    ``problems.md``, ``failures.md``, ``cran.md``; usethis' ``use_revdep()`` sets the
    folder up), other packages' check logs, not the package's documentation. The
    ``DESCRIPTION`` is a package's when it has a ``Package`` field."""
    return ["/revdep/"] if "Package" in dcf_fields(text) else []


def _jazzy_outputs(text: str) -> list[str]:
    """Anchored patterns of the pages jazzy writes for a Swift or Objective-C project, as
    its ``.jazzy.yaml`` says (its ``output`` folder, ``docs`` by default): the HTML pages
    and the Dash docset under ``docsets/``, which holds them a second time (Alamofire
    commits both, 3,400 chunks of generated API reference). Written docs in that folder
    (a markdown guide) stay the project's."""
    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    output = config.get("output", "docs") if isinstance(config, dict) else "docs"
    written = output.strip() if isinstance(output, str) else ""
    folder = written.removeprefix("./").rstrip("/")
    if not folder or written.startswith(("/", "~")) or ".." in folder.split("/"):
        return []  # a folder out of the project is none of its files
    return [f"/{folder}/**/*.html", f"/{folder}/**/*.htm", f"/{folder}/docsets/"]


def _walk(root: Path, skip: frozenset[str]) -> Iterator[tuple[str, list[str]]]:
    """(folder, file names) from the root down, shallow folders first; ignored, hidden
    and ``skip`` folders are not entered. A docs site's hidden config folder
    (``.vitepress``) is listed among the names, with a trailing ``/``."""
    dirs = DirectoryFilter(DEFAULT_IGNORED | skip)
    pending, seen = deque([""]), 0
    while pending and seen < MAX_DIRECTORIES:
        folder = pending.popleft()
        seen += 1
        try:
            with os.scandir(root / folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        files = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not dirs.skips(entry.name):
                        pending.append(f"{folder}/{entry.name}" if folder else entry.name)
                    elif entry.name in doc_sites.MARKER_DIRS:
                        files.append(entry.name + "/")  # .vitepress/: a docs site's config
                elif entry.is_file(follow_symlinks=False):
                    files.append(entry.name)
            except OSError:
                continue
        yield folder, files


def _maven(root: Path, poms: list[str], declared: workspaces.Declared) -> None:
    """Each ``pom.xml`` found, then the modules' own poms (modules may live outside the
    folders walked, and may declare modules in turn)."""
    done: set[str] = set()
    pending = list(poms)
    while pending and len(done) < MAX_DIRECTORIES:
        folder = pending.pop(0)
        if folder in done:
            continue
        done.add(folder)
        text = _text(root, root / folder / "pom.xml")
        if text is not None:
            pending += workspaces.maven(root, folder, text, declared)


def _attribute_rules(base: str, text: str) -> list[_AttributeRule]:
    """The lines of one ``.gitattributes`` that speak about the linguist attributes."""
    rules = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith(("#", "!", "[")):
            continue  # comments, negative patterns (forbidden by git) and macros
        values: dict[str, bool] = {}
        for item in fields[1:]:
            name, _, value = item.lstrip("-!").partition("=")
            if name in LINGUIST:
                unset = item.startswith(("-", "!")) or value.lower() in ("false", "0")
                values[name] = not unset
        if values:
            spec = git_patterns([fields[0]])
            rules.append(_AttributeRule(base, spec, values))
    return rules


def _submodules(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return {}
    found = {}
    for section in parser.sections():
        path = parser[section].get("path", "").strip().strip("/")
        if path and section.startswith("submodule"):
            found[path] = section.partition(" ")[2].strip('"') or path
    return found


def _text(root: Path, path: Path) -> str | None:
    """A declaration file's text through the shared file guard (inside the project, a
    regular file, its size checked first), or None when it is missing or refused."""
    try:
        data = read_project_bytes(root, path, max_bytes=MAX_DECLARATION_BYTES, allow_hidden=True)
    except (EngineError, OSError):
        return None
    return data.decode("utf-8", errors="replace")
