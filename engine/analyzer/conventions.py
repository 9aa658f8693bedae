"""What seed 003's analyzer promises beyond the structure: API routes, architecture
patterns (each with a confidence and the evidence for it) and naming conventions.

Routes are found by their declarations in the project's own source (FastAPI/Starlette and
Flask decorators, Django ``path()`` in ``urls.py``, Express ``app.get(...)``); patterns and
conventions are read from the analysis (folders, dependencies, symbols, file names).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from engine.analyzer.model import Analysis, DiscoveryDraft
from engine.analyzer.noise import classify_path

MAX_ROUTES = 60
MIN_CONFIDENCE = 0.5
"""Patterns with fewer of their signals found are not mentioned."""
MAX_FILE_BYTES = 400_000

_PY_ROUTE = re.compile(
    r"^[ \t]*@[ \t]*([\w.]+)\.(get|post|put|delete|patch|options|head|route|api_route|websocket)"
    r"\(\s*[rbuf]?[\"']([^\"']*)[\"']",
    re.MULTILINE,
)
_DJANGO_ROUTE = re.compile(r"\b(?:re_)?path\(\s*r?[\"']([^\"']*)[\"']\s*,\s*([\w.]+)")
_JS_ROUTE = re.compile(
    r"\b(app|router|api|server|\w+Router)\.(get|post|put|delete|patch|all|options|head)"
    r"\(\s*[\"'`](/[^\"'`]*)[\"'`]"
)
_SINGLE = re.compile(r"[a-z][a-z0-9]*")
_SNAKE = re.compile(r"_?[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_CAMEL = re.compile(r"_?[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
_PASCAL = re.compile(r"_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*")
_UPPER = re.compile(r"_?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_KEBAB_FILE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def routes_draft(root: Path, name: str, files: Iterable[str]) -> DiscoveryDraft | None:
    """The HTTP routes declared in ``files`` (the project's own source), if any."""
    routes: list[str] = []
    for rel in files:
        text = _read(root / rel) if rel.endswith((".py", ".js", ".ts", ".mjs", ".cjs")) else None
        if text is not None:
            routes += _routes_in(rel, text)
    if not routes:
        return None
    title = "API routes"
    more = f" (first {MAX_ROUTES} of {len(routes)})" if len(routes) > MAX_ROUTES else ""
    lines = [title, f"{len(routes)} HTTP routes declared in the code{more}:"]
    lines += [f"- {route}" for route in routes[:MAX_ROUTES]]
    return DiscoveryDraft("\n".join(lines), title, "", ("api", "routes", "endpoints", "http"))


def _routes_in(rel: str, text: str) -> list[str]:
    """Routes declared in one file; those in comments or docstring examples are skipped."""
    return [route for offset, route in _route_matches(rel, text) if not _in_comment(text, offset)]


def _in_comment(text: str, offset: int) -> bool:
    line = text[text.rfind("\n", 0, offset) + 1 : offset].lstrip()
    return line.startswith(("*", "//", "#", "/*", ">>>", "..."))


def _route_matches(rel: str, text: str) -> list[tuple[int, str]]:
    found = []
    if rel.endswith(".py"):
        for match in _PY_ROUTE.finditer(text):
            method = match.group(2).upper().replace("API_ROUTE", "ROUTE")
            where = f"({rel}, line {_line(text, match.start())})"
            found.append((match.start(), f"{method} {match.group(3)} {where}"))
        if rel.rpartition("/")[2] == "urls.py":
            for match in _DJANGO_ROUTE.finditer(text):
                where = f"({rel}, line {_line(text, match.start())})"
                found.append((match.start(), f"/{match.group(1)} -> {match.group(2)} {where}"))
    else:
        for match in _JS_ROUTE.finditer(text):
            where = f"({rel}, line {_line(text, match.start())})"
            found.append((match.start(), f"{match.group(2).upper()} {match.group(3)} {where}"))
    return found


def patterns_draft(analysis: Analysis, own: set[str], has_routes: bool) -> DiscoveryDraft:
    """Architecture patterns that the project's layout and dependencies suggest, each with a
    confidence (the share of its signals that were found) and the evidence."""
    signals = _pattern_signals(analysis, own, has_routes)
    title = "Architecture patterns"
    lines = [title]
    ranked = sorted(signals.items(), key=lambda kv: -_confidence(kv[1]))
    for pattern, checks in ranked:
        confidence = _confidence(checks)
        if confidence < MIN_CONFIDENCE or not any(seen for what, seen in checks if _found(what)):
            continue  # absences alone ("no web routes") are no evidence of a pattern
        evidence = "; ".join(what for what, seen in checks if seen)
        lines.append(f"- {pattern}: confidence {confidence:.2f} ({evidence})")
    if len(lines) == 1:
        lines.append("- no recognised pattern")
    return DiscoveryDraft("\n".join(lines), title, "", ("architecture", "patterns", "design"))


def _pattern_signals(
    analysis: Analysis, own: set[str], has_routes: bool
) -> dict[str, list[tuple[str, bool]]]:
    """Pattern → its signals, each ``(what, found)``."""
    folders = {part for rel in own for part in rel.split("/")[:-1]}
    deps = {d.lower() for d in (*analysis.frameworks, *analysis.test_tools)}
    commands = [
        e for e in analysis.entry_points if " -> " in e and not e.startswith(("main ", "module "))
    ]
    return {
        "Command-line application": [
            ("installed console commands", bool(commands)),
            ("a CLI library or cli module", bool(deps & _CLI_LIBS) or _any_file(own, "cli")),
            ("a __main__ module", any(r.endswith("__main__.py") for r in own)),
        ],
        "Web API / web service": [
            ("HTTP routes declared", has_routes),
            ("a web framework", bool(deps & _WEB_FRAMEWORKS)),
            ("api/ or routes/ folders", bool(folders & {"api", "routes", "routers", "endpoints"})),
        ],
        "Model-view-controller": [
            ("models", _has(folders, own, "models")),
            ("views or templates", _has(folders, own, "views", "templates")),
            ("controllers or handlers", bool(folders & {"controllers", "handlers"})),
        ],
        "Layered (services, repositories, domain)": [
            ("a service layer", bool(folders & {"services", "service"})),
            ("a data-access layer", _has(folders, own, "repositories", "repository", "db")),
            ("a domain or core layer", bool(folders & {"domain", "core", "entities"})),
        ],
        "Library (a package meant to be imported)": [
            (
                "an importable package (__init__.py, lib.rs, index.js, a package's main or lib/)",
                _importable(own, analysis.entry_points),
            ),
            ("no installed commands", not commands),
            ("no web routes", not has_routes),
        ],
        "Monorepo (several packages)": [
            ("packages/ or apps/ folders", bool(folders & {"packages", "apps", "crates"})),
            ("several manifests", sum(_own_manifest(r) for r in analysis.files) > 2),
        ],
        "Plugin architecture": [
            ("plugins/ or extensions/ folders", bool(folders & {"plugins", "extensions"})),
            ("a registry or hooks module", _any_file(own, "registry") or _any_file(own, "hooks")),
        ],
    }


_WEB_FRAMEWORKS = frozenset(
    {"fastapi", "flask", "django", "starlette", "express", "koa", "fastify", "hapi",
     "aiohttp", "tornado", "sanic", "nestjs", "next", "litestar", "falcon", "pyramid"}
)  # fmt: skip
_CLI_LIBS = frozenset({"click", "typer", "argparse", "commander", "yargs", "clap", "cobra"})
_MANIFESTS = ("package.json", "pyproject.toml", "Cargo.toml", "go.mod", "setup.py")


def _confidence(checks: list[tuple[str, bool]]) -> float:
    return round(sum(seen for _, seen in checks) / len(checks), 2) if checks else 0.0


def _own_manifest(rel: str) -> bool:
    return rel.rpartition("/")[2] in _MANIFESTS and classify_path(rel) is None


def _found(what: str) -> bool:
    """Whether a signal is something found, not an absence (``no installed commands``)."""
    return not what.startswith("no ")


_LIBRARY_ROOTS = ("__init__.py", "lib.rs", "index.js", "index.ts", "index.mjs")
"""The file that makes a folder an importable package (Python, a Rust library crate, a
JavaScript or TypeScript package); a binary crate has ``main.rs`` alone."""


def _importable(own: set[str], entry_points: tuple[str, ...]) -> bool:
    """Evidence of a library: a package root file among the project's own, code under
    ``lib/``, or a manifest's ``main``/``module`` (package.json)."""
    if any(e.startswith(("main ", "module ")) for e in entry_points):
        return True
    return any(r.rpartition("/")[2] in _LIBRARY_ROOTS or r.startswith("lib/") for r in own)


def _has(folders: set[str], own: set[str], *names: str) -> bool:
    """A folder or a module of the project is called one of ``names``."""
    return bool(folders.intersection(names)) or any(_any_file(own, n) for n in names)


def _any_file(own: set[str], stem: str) -> bool:
    return any(rel.rpartition("/")[2].split(".")[0] == stem for rel in own)


def naming_draft(analysis: Analysis, own: set[str]) -> DiscoveryDraft | None:
    """How the project names its functions, classes, constants and files."""
    symbols = [s for s in analysis.symbols if s.file in own]
    if not symbols and not own:
        return None
    functions = [s.name.rpartition(".")[2] for s in symbols if s.kind in ("function", "method")]
    classes = [s.name for s in symbols if s.kind in ("class", "interface", "type", "enum")]
    constants = [s.name for s in symbols if s.kind == "const"]
    files = [rel.rpartition("/")[2].split(".")[0] for rel in own]
    title = "Naming conventions"
    lines = [title]
    for what, names in (
        ("Functions and methods", functions),
        ("Classes and types", classes),
        ("Constants", constants),
        ("File names", files),
    ):
        if names:
            lines.append(f"- {what}: {_style_share(names)} (of {len(names)})")
    private = sum(1 for rel in own if rel.rpartition("/")[2].startswith("_"))
    if private:
        lines.append(f"- {private} modules start with _ (private to their package)")
    tests = _test_naming(analysis.files)
    if tests:
        lines.append(f"- Test files: {tests}")
    return DiscoveryDraft("\n".join(lines), title, "", ("naming", "conventions", "style"))


def _style_share(names: list[str]) -> str:
    """Shares of the naming styles; one-word lowercase names fit several and are left out."""
    styles: Counter[str] = Counter(_style(n.strip("_")) for n in names if n.strip("_"))
    single = styles.pop("single", 0)
    total = sum(styles.values())
    if not total:
        return "single lowercase words"
    shares = ", ".join(f"{style} {100 * n // total}%" for style, n in styles.most_common(3))
    return shares + (f"; {single} single lowercase words" if single else "")


def _style(name: str) -> str:
    if _SINGLE.fullmatch(name):
        return "single"
    for style, pattern in (
        ("snake_case", _SNAKE),
        ("UPPER_CASE", _UPPER),
        ("camelCase", _CAMEL),
        ("PascalCase", _PASCAL),
        ("kebab-case", _KEBAB_FILE),
    ):
        if pattern.fullmatch(name):
            return style
    return "mixed"


def _test_naming(files: Iterable[str]) -> str:
    counts: Counter[str] = Counter()
    for rel in files:
        name = rel.rpartition("/")[2]
        if name.startswith("test_") and name.endswith(".py"):
            counts["test_*.py"] += 1
        elif name.endswith("_test.py"):
            counts["*_test.py"] += 1
        elif re.search(r"\.(test|spec)\.[cm]?[jt]sx?$", name):
            counts["*." + name.rsplit(".", 2)[-2] + ".js/ts"] += 1
        elif name.endswith("_test.go"):
            counts["*_test.go"] += 1
    return ", ".join(f"{pattern} ({n})" for pattern, n in counts.most_common(3))


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
