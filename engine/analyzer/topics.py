"""Project-wide topics: the entry points that matter, and the folders and their roles.

Each is a short entry of its own. Entry points are ranked (installed commands first, then
``__main__`` modules, then main/cli files and ``bin/``) and capped, and never include the
example, test or vendored programs that merely have a ``__main__`` guard.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from engine.analyzer.definitions import CODE_LANGUAGES, main_folders
from engine.analyzer.doc_kinds import DOCS_FOLDERS
from engine.analyzer.languages import path_language
from engine.analyzer.model import Analysis, DiscoveryDraft
from engine.analyzer.noise import NoiseClassifier

MAX_ENTRY_POINTS = 15
MAX_FOLDERS = 20
_PACKAGE_MAIN = ("main -> ", "module -> ")
"""package.json's ``main`` and ``module``: what ``require``/``import`` load, not commands."""

_ROLES: dict[str, str] = {
    "docs": "documentation (the docs site's pages)",
    "doc": "documentation",
    "documentation": "documentation",
    "scripts": "helper scripts for development, release and CI",
    "bin": "executables",
    "tools": "development tools",
    "bench": "benchmarks",
    "benchmarks": "benchmarks",
    "src": "the source code",
    "lib": "library code",
    "app": "the application",
    "apps": "applications",
    "packages": "the packages of a monorepo",
    "cmd": "the programs' main packages",
    "internal": "private packages",
    "pkg": "library packages",
    "api": "the API layer",
    "config": "configuration",
    "public": "static files served as they are",
    "static": "static assets",
    "assets": "static assets",
    "migrations": "database migrations",
    "deploy": "deployment",
    "docker": "container build files",
    ".github": "GitHub settings: CI workflows, issue templates",
}
_KIND_ROLE = {
    "release-notes": "release notes",
    "old-versions": "earlier versions, no longer maintained",
    "translations": "translated documentation",
    "examples": "example programs",
    "tests": "the test suite",
    "vendored": "vendored third-party code",
    "generated": "generated files",
    "excluded": "left out of the analysis by the configuration",
}


def ranked_entry_points(analysis: Analysis, noise: NoiseClassifier) -> list[str]:
    """The project's entry points, most important first, at most :data:`MAX_ENTRY_POINTS`."""
    found = []
    for entry in analysis.entry_points:
        target = entry.partition(" -> ")[2] if " -> " in entry else entry
        if noise.kind(target) is None:
            found.append(entry)
    dirs = [d + "/" for d in main_folders(analysis) if d != "."]
    return sorted(found, key=lambda entry: _entry_rank(entry, dirs))[:MAX_ENTRY_POINTS]


def _entry_rank(entry: str, dirs: list[str]) -> tuple[int, int, int, str]:
    """Installed commands, a package's main, ``__main__`` modules, main/cli files, other
    scripts; within each, the main source folders first (most code first), shallow first."""
    if " -> " in entry:  # declared by a manifest: an installed command, or a package's main
        return (1 if entry.startswith(_PACKAGE_MAIN) else 0, 0, 0, entry)
    name = entry.rpartition("/")[2]
    unit = next((i for i, d in enumerate(dirs) if entry.startswith(d)), len(dirs))
    depth = entry.count("/")
    if name == "__main__.py":
        return (2, unit, depth, entry)
    if entry.startswith("bin/") or name.split(".")[0] in ("cli", "main", "index", "server"):
        return (3, unit, depth, entry)
    return (4, unit, depth, entry)


def entry_points_draft(analysis: Analysis, noise: NoiseClassifier) -> DiscoveryDraft | None:
    """Where the programs start: installed commands, ``__main__`` modules, main files."""
    entries = ranked_entry_points(analysis, noise)
    if not entries:
        return None
    title = "Entry points"
    lines = [title, "Where execution starts (installed commands first):"]
    for entry in entries:
        command, _, target = entry.partition(" -> ")
        if entry.startswith(_PACKAGE_MAIN):
            lines.append(f"- the package's {command} module (package.json): {target}")
        elif target:
            lines.append(f"- command `{command}` runs {target}")
        else:
            summary = analysis.summaries.get(entry, "")
            lines.append(f"- {entry}" + (f": {summary}" if summary else ""))
    keywords = ("entry point", "main", "cli", "command", *(e.split(" ")[0] for e in entries[:4]))
    return DiscoveryDraft("\n".join(lines), title, "", keywords)


def own_source_dirs(analysis: Analysis, noise: NoiseClassifier) -> list[str]:
    """The analysis's source directories that hold code of the project's own (a code file
    the classifier does not call examples, tests, vendored…), most code first."""
    units: set[str] = set()
    for rel in analysis.files:
        if path_language(rel, analysis.scripts) in CODE_LANGUAGES and noise.kind(rel) is None:
            parts = rel.split("/")
            units.update("/".join(parts[:depth]) for depth in range(1, len(parts)))
            if len(parts) == 1:
                units.add(".")
    return [d for d in analysis.source_dirs if d in units]


def architecture_draft(analysis: Analysis, noise: NoiseClassifier) -> DiscoveryDraft | None:
    """The top folders, how many files each holds and what they are for: a folder that
    holds code of the project's own is source code, whatever its name and whatever else
    it holds (a Go package's tests sit beside its code)."""
    counts: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    own_code: set[str] = set()
    for rel in analysis.files:
        top = rel.split("/")[0] if "/" in rel else "."
        counts[top] += 1
        kind = noise.kind(rel)
        kinds[top][kind or "own"] += 1
        if kind is None and path_language(rel, analysis.scripts) in CODE_LANGUAGES:
            own_code.add(top)
    if not counts:
        return None
    title = "Architecture: top-level folders and their roles"
    lines = [title]
    for folder, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FOLDERS]:
        role = _role(folder, kinds[folder], folder in own_code, analysis)
        files = f"{n} file" + ("" if n == 1 else "s")
        lines.append(f"- {folder}/ ({files}): {role}" if folder != "." else f"- root: {role}")
    shown = own_source_dirs(analysis, noise)[:8]
    lines.append(f"The project's own source folders, most code first: {_join(shown)}.")
    return DiscoveryDraft("\n".join(lines), title, "", ("architecture", "folders", "layout"))


def _role(folder: str, kinds: Counter[str], own_code: bool, analysis: Analysis) -> str:
    if folder == ".":
        return "project files: manifests, README, configuration"
    main_kind, _ = kinds.most_common(1)[0]
    if main_kind != "own" and not own_code:
        return _KIND_ROLE.get(main_kind, main_kind)
    summary = analysis.summaries.get(f"{folder}/__init__.py", "")
    if summary:
        return f"the package {folder}: {summary}"
    # A folder named for documentation that holds the project's own code (Go's ``doc``
    # package of man-page generators) is source code.
    if folder in _ROLES and not (own_code and folder in DOCS_FOLDERS):
        return _ROLES[folder]
    if own_code:
        return "source code" + (", with its tests" if kinds["tests"] else "")
    return "other files"


def _join(items: list[str]) -> str:
    return ", ".join("(root)" if item == "." else item for item in items) or "none"
