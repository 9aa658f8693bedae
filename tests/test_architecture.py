"""The architecture holds: no import cycle between modules of engine/ or app/, no
function in engine/ grows past the size the house style allows (modules past 400 lines
are reported, not refused), the faces use Memory's methods, never its parts, and no code
of engine/ or app/ patches another package or writes bytecode.

The layer contracts themselves are import-linter's (pyproject.toml, run by `make lint`).
Cycles are counted over every import grimp finds that runs, function-level ones included;
an import under ``if TYPE_CHECKING:`` names a type for the checker and runs never, so the
use cases Memory delegates to (promotion, discovery) may name Memory in their signatures.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50
MEMORY_PARTS = frozenset(
    {
        "records",
        "mirror",
        "lock",
        "searcher",
        "entries",
        "embedder",
        "base_embedder",
        "vectors",
        "freshness",
        "store",
    }
)
"""What :class:`engine.services.parts.Parts` holds; Memory hands none of it out."""


def strongly_connected(nodes: Iterable[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the groups of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected("abcd", edges) == [["a", "b", "c"]]
    assert strongly_connected("ab", {"a": {"b"}}) == []


# In a fresh interpreter at the project root: under pytest, tests/app and tests/engine
# are on sys.path and would be found as namespace packages of the same names.
_GRAPH = """
import json, grimp
graph = grimp.build_graph(
    "engine", "app", cache_dir=None, exclude_type_checking_imports=True
)
print(json.dumps({m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}))
"""


def import_graph() -> dict[str, set[str]]:
    """Module → the project modules it imports when run (grimp: function-level imports
    included, those only for the type checker left out)."""
    out = subprocess.run(
        [sys.executable, "-c", _GRAPH], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    ours = {"engine", "app"}
    return {
        m: {i for i in imported if i.split(".")[0] in ours}
        for m, imported in json.loads(out).items()
        if m.split(".")[0] in ours
    }


def test_no_import_cycles_in_engine_or_app() -> None:
    edges = import_graph()
    assert len(edges) > 100, "the graph covers the whole project"
    assert strongly_connected(sorted(edges), edges) == []


def _engine_files() -> list[Path]:
    return sorted((ROOT / "engine").rglob("*.py"))


def long_modules(*folders: Path) -> dict[str, int]:
    """Modules under ``folders`` past :data:`MAX_MODULE_LINES`, with their lengths."""
    return {
        str(f.relative_to(folder.parent)): n
        for folder in folders
        for f in sorted(folder.rglob("*.py"))
        if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }


def test_long_modules_are_reported_not_refused(tmp_path: Path) -> None:
    """A module is split by concept, never cut to fit a number (issue 49): the modules past
    the limit are printed (``pytest -s`` shows them) for a reader to judge."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (tmp_path / "engine" / "short.py").write_text("x = 1\n")
    assert long_modules(tmp_path / "engine") == {"engine/long.py": MAX_MODULE_LINES + 1}
    for module, lines in long_modules(ROOT / "engine", ROOT / "app").items():
        print(f"{module}: {lines} lines (over {MAX_MODULE_LINES})")


def test_engine_functions_stay_short_or_say_why() -> None:
    """A function over the limit needs a docstring line starting "Long because"."""
    too_long = []
    for path in _engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                doc = ast.get_docstring(node) or ""
                if length > MAX_FUNCTION_LINES and "Long because" not in doc:
                    too_long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {length}")
    assert too_long == []


def test_the_tests_import_the_real_packages() -> None:
    """tests/engine and tests/app must not shadow the packages under test (pyproject's
    pytest ``pythonpath`` puts the project root first)."""
    import app
    import engine

    assert engine.__file__ == str(ROOT / "engine" / "__init__.py")
    assert app.__file__ == str(ROOT / "app" / "__init__.py")
    assert engine.Memory.__module__ == "engine.services.memory"


def _names_a_memory(node: ast.expr) -> bool:
    """``memory``, ``self.memory``, ``self._memory``, ``state.memory()``…"""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id.endswith("memory")
    return isinstance(node, ast.Attribute) and node.attr.endswith("memory")


def _nodes(folder: Path) -> Iterator[tuple[Path, ast.AST]]:
    """Every syntax node of every module under ``folder``, with its module's path."""
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            yield path, node


def parts_reached(folder: Path) -> list[str]:
    """Where code under ``folder`` reads a part of a Memory (``memory.mirror``…)."""
    found = []
    for path, node in _nodes(folder):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in MEMORY_PARTS
            and _names_a_memory(node.value)
        ):
            found.append(f"{path.relative_to(folder.parent)}:{node.lineno} .{node.attr}")
    return sorted(found, key=_by_line)


def _by_line(where: str) -> tuple[str, int]:
    path, rest = where.split(":", 1)
    return path, int(rest.split()[0])


def test_the_faces_reach_no_part_of_memory() -> None:
    assert parts_reached(ROOT / "app") == []


def test_the_part_finder_finds_a_part(tmp_path: Path) -> None:
    face = tmp_path / "app" / "face.py"
    face.parent.mkdir()
    face.write_text(
        "def f(memory, self, state):\n"
        "    memory.mirror.count()\n"
        "    self.memory.records\n"
        "    state.memory().embedder\n"
        "    memory.list()\n"
        "    other.mirror\n"
    )
    assert parts_reached(tmp_path / "app") == [
        "app/face.py:2 .mirror",
        "app/face.py:3 .records",
        "app/face.py:4 .embedder",
    ]


def test_memory_hands_out_no_parts(tmp_path: Path) -> None:
    """Its public attributes are its data (where, how configured, what opening repaired)
    and its use cases (methods), none of them a part."""
    from fakes import FakeEmbedder

    from engine import Memory

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        public = {name for name in dir(memory) if not name.startswith("_")}
        data = {name for name in public if not callable(getattr(memory, name))}
    assert public & MEMORY_PARTS == set()
    assert data == {"paths", "config", "last_repair", "model_loaded"}


# --- declared once: the faces take choices and limits from the engine (issue 49) -----------


def _engine_enums() -> dict[str, frozenset[str]]:
    """Each enum of the engine's vocabulary → the values it declares."""
    import engine

    names = (
        "Category",
        "Source",
        "SearchMode",
        "ExportFormat",
        "Fusion",
        "SecretPolicy",
        "NearDuplicatePolicy",
        "Gate",
    )
    return {name: frozenset(m.value for m in getattr(engine, name)) for name in names}


def restated_choices(folder: Path, enums: dict[str, frozenset[str]]) -> list[str]:
    """Where code under ``folder`` spells out two or more values of one engine enum, and
    nothing else, as the string literals of one tuple, list, set or ``Literal[...]`` (a
    restated list of choices), e.g. ``("vector", "keyword", "hybrid")`` or
    ``in ("session", "manual")``; folder names such as ``("architecture", "patterns")``
    are not a category's choices."""
    found = []
    for path, node in _nodes(folder):
        if isinstance(node, ast.Subscript):
            node = node.slice
        if not isinstance(node, ast.Tuple | ast.List | ast.Set):
            continue
        words = {
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        }
        for name, values in enums.items():
            if len(words) >= 2 and words <= values:
                where = f"{path.relative_to(folder.parent)}:{node.lineno}"
                found.append(f"{where} {name}")
    return sorted(set(found), key=_by_line)


def test_the_faces_restate_no_choices_of_the_engine() -> None:
    assert restated_choices(ROOT / "app", _engine_enums()) == []


def test_the_choice_finder_finds_a_restated_list(tmp_path: Path) -> None:
    face = tmp_path / "app" / "face.py"
    face.parent.mkdir()
    face.write_text(
        "MODES = ('vector', 'keyword', 'hybrid')\n"
        "Name = Literal['markdown', 'session', 'discovery', 'manual']\n"
        "notes = e.source in ('session', 'manual')\n"
        "sorts = ('recent', 'refs')\n"
        "folders = ('architecture', 'components', 'domain')\n"
        "one = Literal['terms']\n"
    )
    assert restated_choices(tmp_path / "app", _engine_enums()) == [
        "app/face.py:1 SearchMode",
        "app/face.py:2 Source",
        "app/face.py:3 Source",
    ]


def test_cli_and_mcp_choices_are_the_engines_enums() -> None:
    """The CLI's ``--category``/``--source``/``--mode``/``--format`` choices and limits, and
    the MCP tools' input schemas, are the engine's enums and validation bounds."""
    import argparse

    from pydantic import TypeAdapter

    from app.cli.parser import build_parser
    from app.mcp import schemas
    from engine import MAX_LIMIT, MIN_SCORE_BOUNDS, Category, SearchMode, Source

    enums = {"category": Category, "source": Source, "mode": SearchMode}
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen = set()
    for name in ("search", "list", "add", "export"):
        for action in commands.choices[name]._actions:
            if action.dest in enums and action.choices is not None:
                assert list(action.choices) == [m.value for m in enums[action.dest]], name
                seen.add(action.dest)
    assert seen == set(enums)
    search = commands.choices["search"]
    limit = next(a for a in search._actions if a.dest == "limit")
    score = next(a for a in search._actions if a.dest == "min_score")
    assert limit.type(str(MAX_LIMIT)) == MAX_LIMIT
    for bad in (str(MAX_LIMIT + 1), "0"):
        with pytest.raises(argparse.ArgumentTypeError):
            limit.type(bad)
    assert score.type(str(MIN_SCORE_BOUNDS[1])) == MIN_SCORE_BOUNDS[1]
    with pytest.raises(argparse.ArgumentTypeError):
        score.type(str(MIN_SCORE_BOUNDS[1] + 0.5))

    def schema_enum(annotated: object) -> list[str]:
        shape = TypeAdapter(annotated).json_schema()
        return next(s["enum"] for s in shape.get("anyOf", [shape]) if "enum" in s)

    assert schema_enum(schemas.SearchCategory) == [c.value for c in Category]
    assert schema_enum(schemas.AddCategory) == [c.value for c in Category]
    assert schema_enum(schemas.SearchSource) == [s.value for s in Source]
    assert schema_enum(schemas.Mode) == [m.value for m in SearchMode]
    bounds = TypeAdapter(schemas.MinScore).json_schema()["anyOf"][0]
    assert (bounds["minimum"], bounds["maximum"]) == MIN_SCORE_BOUNDS


CONCURRENCY = frozenset(
    {"threading", "_thread", "concurrent", "multiprocessing", "asyncio", "queue"}
)
"""Modules that run threads or processes, or wait for them."""


def concurrency_imported(folder: Path) -> list[str]:
    """Where modules under ``folder`` import one of :data:`CONCURRENCY` (at any level)."""
    found = []
    for path, node in _nodes(folder):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [
            f"{path.relative_to(folder.parent)}:{node.lineno} {name}"
            for name in names
            if name.split(".")[0] in CONCURRENCY
        ]
    return found


def test_the_vocabulary_layer_runs_no_threads() -> None:
    """Scheduling writes under load belongs to the face that has many sessions (the MCP
    server's writer), not to ``engine/core``, which every layer imports."""
    assert concurrency_imported(ROOT / "engine" / "core") == []


def test_the_concurrency_finder_finds_an_import(tmp_path: Path) -> None:
    core = tmp_path / "core" / "m.py"
    core.parent.mkdir()
    core.write_text(
        "import threading\n"
        "from concurrent.futures import Future\n"
        "import os, queue\n"
        "from . import threading_free\n"
        "def f():\n"
        "    import asyncio\n"
    )
    assert concurrency_imported(tmp_path / "core") == [
        "core/m.py:1 threading",
        "core/m.py:2 concurrent.futures",
        "core/m.py:3 queue",
        "core/m.py:6 asyncio",
    ]


# --- no patches (issue 49) -------------------------------------------------------------

OURS = frozenset({"engine", "app"})
SYS_MODULES_READS = frozenset({"get", "keys", "values", "items", "copy", "__contains__"})
"""Methods of ``sys.modules`` that only read it."""


def _imported_names(tree: ast.Module) -> set[str]:
    """Names a module binds to another package's modules or objects (``import pydantic``,
    ``from pydantic import BaseModel``, ``import overrides as o``), anywhere in it."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in OURS:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and node.module.split(".")[0] not in OURS
        ):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _root(node: ast.expr) -> ast.expr:
    """``a`` of ``a.b.c``, ``a.b[1]``, ``a.b()``: what an expression reaches into."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def _chain(node: ast.expr) -> str:
    """``sys.modules`` for ``sys.modules[x]``: the dotted names an expression goes through."""
    names = []
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return ".".join(reversed(names))


def patches_in(folder: Path) -> list[str]:
    """Where code under ``folder`` changes what it does not own: an assignment into
    ``sys.modules`` (or a call that changes it), an assignment to an attribute of, or
    into, another package's module or object (``overrides.override = …``,
    ``BaseModel.model_config[…] = …``, through a local name bound to one too), any
    assignment to a ``model_config``, or ``setattr`` on another package's object."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        foreign = _imported_names(tree)
        for node in ast.walk(tree):  # names bound to a foreign object's attribute
            if isinstance(node, ast.Assign) and isinstance(
                node.value, ast.Attribute | ast.Subscript
            ):
                root = _root(node.value)
                if isinstance(root, ast.Name) and root.id in foreign:
                    foreign |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        where = str(path.relative_to(folder.parent))
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                chain = _chain(target)
                root = _root(target)
                if not isinstance(target, ast.Attribute | ast.Subscript):
                    continue
                if (
                    chain.startswith("sys.modules")
                    or "model_config" in chain.split(".")
                    or (isinstance(root, ast.Name) and root.id in foreign and chain != "os.environ")
                ):
                    found.append(f"{where}:{node.lineno} {chain} =")
            if isinstance(node, ast.Call):
                callee = _chain(node.func)
                method = callee.rpartition(".")[2]
                if callee.startswith("sys.modules.") and method not in SYS_MODULES_READS:
                    found.append(f"{where}:{node.lineno} {callee}()")
                elif callee in {"setattr", "object.__setattr__"} and node.args:
                    root = _root(node.args[0])
                    if isinstance(root, ast.Name) and root.id in foreign:
                        found.append(f"{where}:{node.lineno} {callee}({_chain(node.args[0])})")
    return sorted(found, key=_by_line)


def test_no_code_of_engine_or_app_patches_another_package() -> None:
    assert patches_in(ROOT / "engine") + patches_in(ROOT / "app") == []


def test_the_patch_finder_finds_each_kind(tmp_path: Path) -> None:
    face = tmp_path / "engine" / "lazy.py"
    face.parent.mkdir()
    face.write_text(
        "import sys\n"
        "import os\n"
        "import overrides\n"
        "from pydantic import BaseModel\n"
        "sys.modules['x'] = object()\n"
        "sys.modules.pop('x')\n"
        "overrides.override = len\n"
        "config = BaseModel.model_config\n"
        "config['defer_build'] = True\n"
        "BaseModel.model_config['x'] = 1\n"
        "setattr(sys.modules['pyarrow'], 'substrait', None)\n"
        "class Mine(BaseModel):\n"
        "    model_config = {}\n"
        "os.environ['LANCE_LOG'] = 'error'\n"  # the environment is not a package's
        "sys.modules.get('x')\n"
        "self_owned = {}\n"
        "self_owned['x'] = 1\n"
    )
    assert [f.split(" ", 1)[0] for f in patches_in(tmp_path / "engine")] == [
        f"engine/lazy.py:{n}" for n in (5, 6, 7, 9, 10, 11)
    ]


def _compiles(folder: Path) -> list[str]:
    """Modules under ``folder`` that import ``py_compile`` or ``compileall``."""
    found = []
    for path, node in _nodes(folder):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        if any(n.split(".")[0] in {"py_compile", "compileall"} for n in names):
            found.append(f"{path.relative_to(folder.parent)}:{node.lineno}")
    return found


def test_no_bytecode_is_written_by_engine_or_app() -> None:
    """Bytecode is the installer's (pip; uv with --compile-bytecode), never written at run
    time against the user's PYTHONDONTWRITEBYTECODE."""
    assert _compiles(ROOT / "engine") + _compiles(ROOT / "app") == []
