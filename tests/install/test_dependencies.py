"""Every run-time dependency is one memory-tui runs on: each is imported by the engine
or a face (by an import statement, or by its module's or distribution's name where a
table picks the module, as the tree-sitter grammars are), or is named below with why it
is there without an import. A dependency only a bench, a script or a test uses belongs in the
``test`` extra, where it adds nothing to a user's install (bench/RESULTS.md, "The int8
graph's weights computed at load")."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

USED_WITHOUT_AN_IMPORT = {
    "pystemmer": "snowballstemmer uses its C stemmers when it is installed",
}


def _runtime_dependencies() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [_name(spec) for spec in project["dependencies"]]


def _name(spec: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", spec)
    assert match, spec
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def _names_used() -> set[str]:
    """Top-level modules the shipped code imports, and the names its string literals
    give that could be a module or a distribution (``importlib.import_module`` tables)."""
    used: set[str] = set()
    for folder in ("engine", "app"):
        for path in (REPO / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    used.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    used.add(node.module.split(".")[0])
                elif (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", node.value)
                ):
                    used.update({node.value, _name(node.value)})
    return used


def test_every_runtime_dependency_is_one_memory_tui_runs_on() -> None:
    modules_of: dict[str, set[str]] = {}
    for module, dists in packages_distributions().items():
        for dist in dists:
            modules_of.setdefault(_name(dist), set()).add(module)
    used = _names_used()
    unused = []
    for dist in _runtime_dependencies():
        modules = modules_of.get(dist)
        assert modules, f"{dist} is not installed in this environment"
        if not modules & used and dist not in used and dist not in USED_WITHOUT_AN_IMPORT:
            unused.append(f"{dist} (modules {sorted(modules)})")
    assert unused == [], "run-time dependencies memory-tui never imports: " + ", ".join(unused)


def test_the_check_finds_a_dependency_nothing_imports() -> None:
    # What the test above relies on: a module imported nowhere is not counted as used.
    used = _names_used()
    assert {"lancedb", "onnxruntime", "tokenizers", "tree-sitter-go"} <= used
    assert "threadpoolctl" not in used  # imported by bench/ann.py alone
