"""Import boundaries: the engine never pulls in a face, and light commands stay light.

Importing the engine must not load Textual, Rich or ``app``; reads that need no vectors
(keyword search, list, get) must not import LanceDB or the embedding model, in-process or
through the CLI; the prompt hook and CLI keyword search do not import numpy either. Each
check runs in a fresh interpreter so nothing this test session already imported can hide a
leak.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_support import fresh_python
from fakes import FakeEmbedder

from engine.services.memory import Memory

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine"
ENGINE_MODULES = (
    "engine",
    "engine.services.memory",
    "engine.services.indexing",
    "engine.output.export",
    "engine.search.searcher",
    "engine.storage.mirror",
    "engine.storage.record_store",
    "engine.core.config",
    "engine.markdown.chunking",
    "engine.markdown.parse",
    "engine.services.entries",
    "engine.storage.records",
    "engine.search.keyword",
    "engine.search.vector",
    "engine.search.gate",
    "engine.output.serialize",
    "engine.embedding.default",
    "engine.embedding.cache",
    "engine.freshness.stale",
)
FACES = ("textual", "rich", "app")
HEAVY = ("lancedb", "torch", "sentence_transformers", "numpy", "pyarrow")
MODEL_AND_STORE = (
    "lancedb",
    "torch",
    "sentence_transformers",
    "transformers",
    "onnxruntime",
    "tokenizers",
)
KEYWORD_PATH_HEAVY = (*MODEL_AND_STORE, "numpy", "textual", "mcp", "markdown_it", "tree_sitter")
"""Kept out of the hook and of CLI keyword search (numpy too: bench/RESULTS.md says so);
tree-sitter belongs to the analyzer (JS/TS exports) only."""
ANALYZER_PROPER = ("engine.analyzer.analysis", "engine.analyzer.js_symbols", "tree_sitter")
"""The analyzer itself (66 ms of imports) stays out of the hook and of the stale check, which
need only its light scanners (``js_lexer``, ``js_commonjs``, ``languages``)."""


def python(code: str, *, env_home: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of this venv, from the repository root."""
    return fresh_python(code, home=env_home, timeout=120)


def _report(watched: tuple[str, ...]) -> str:
    """Code printing, as a JSON list on one line, which of ``watched`` are imported."""
    return f"import json, sys\nprint(json.dumps([m for m in {watched!r} if m in sys.modules]))"


def loaded_after(code: str, watched: tuple[str, ...], *, home: Path) -> list[str]:
    """Which of ``watched`` are in ``sys.modules`` after running ``code`` in a subprocess."""
    result = python(textwrap.dedent(code) + "\n" + _report(watched), env_home=home)
    assert result.returncode == 0, result.stderr
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.fixture
def populated(tmp_path: Path) -> tuple[Path, str]:
    """A project whose memory holds two entries (embedded by the fake); returns (root, id)."""
    root = tmp_path / "project"
    root.mkdir()
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        entry = memory.add("Gearboxes need synthetic oil every spring", category="gotcha").entry
        memory.add("Unrelated note about the coffee machine")
    return root, entry.id


def test_importing_the_engine_loads_no_face_and_nothing_heavy(tmp_path: Path) -> None:
    code = "\n".join(f"import {name}" for name in ENGINE_MODULES)

    assert loaded_after(code, FACES + HEAVY, home=tmp_path) == []


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_engine_module_imports_a_face() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine/ has no modules?"

    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_roots(path) & set(FACES))
        for path in files
        if _imported_roots(path) & set(FACES)
    }

    assert offenders == {}


def test_keyword_reads_through_memory_load_neither_store_nor_model(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    root, entry_id = populated
    code = f"""
        from engine.services.memory import Memory
        memory = Memory.open({str(root)!r})
        hits = memory.search("gearboxes oil", mode="keyword").results
        assert [h.entry.id for h in hits] == [{entry_id!r}], hits
        assert len(memory.list()) == 2
        assert memory.get({entry_id!r}).category == "gotcha"
        assert memory.stats()["entries"] == 2
        memory.close()
    """

    assert loaded_after(code, MODEL_AND_STORE, home=tmp_path) == []


def test_cli_keyword_search_imports_neither_store_nor_model(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    root, _ = populated
    code = f"""
        from app.cli import main
        code = main(["--project", {str(root)!r}, "search", "gearboxes", "--mode", "keyword"])
        assert code == 0, code
    """

    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", textwrap.dedent(code)],
        cwd=REPO,
        env={k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
        | {"HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stderr[-2000:]
    assert "Gearboxes" in result.stdout
    imported = {
        line.split("|")[-1].strip().split(".")[0]
        for line in result.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert imported, "no -X importtime output?"
    assert "engine" in imported and "sqlite3" in imported
    assert sorted(imported & set(KEYWORD_PATH_HEAVY)) == []


XML_ONLY = ("xml.sax", "xml.sax.saxutils", "urllib.request")
"""What only the ``xml`` output format needs (its escaping; ``urllib.request`` comes with
it): a quarter of a cold keyword search's imports."""


def test_a_text_search_leaves_the_xml_format_unimported_and_an_xml_one_imports_it(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    root, _ = populated
    for fmt, expected in (("text", []), ("xml", list(XML_ONLY))):
        code = f"""
            import contextlib, io
            from app.cli import main
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                args = ["search", "gearboxes", "--mode", "keyword", "--format", {fmt!r}]
                assert main(["--project", {str(root)!r}, *args]) == 0
            assert "Gearboxes" in out.getvalue()
        """
        assert loaded_after(code, XML_ONLY, home=tmp_path) == expected, fmt


def test_cli_hook_imports_neither_store_nor_model(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    # The hook runs on every prompt an agent sends: it must stay a keyword search. It
    # exits 0 whatever happens, so the context it prints is what shows that it searched.
    root, entry_id = populated
    code = f"""
        import contextlib, io, sys
        sys.stdin = io.StringIO('{{"prompt": "when do gearboxes need synthetic oil?"}}')
        from app.cli import main
        context = io.StringIO()
        with contextlib.redirect_stdout(context):
            assert main(["--project", {str(root)!r}, "hook"]) == 0
        print(json.dumps(context.getvalue()))
    """

    result = python(
        "import json\n"
        + textwrap.dedent(code)
        + "\n"
        + _report(KEYWORD_PATH_HEAVY + ANALYZER_PROPER),
        env_home=tmp_path,
    )

    assert result.returncode == 0, result.stderr
    *_, context_line, loaded_line = result.stdout.strip().splitlines()
    context = json.loads(context_line)
    assert context.startswith("<project-memory>"), context
    assert f"(id {entry_id}): Gearboxes need synthetic oil every spring" in context
    assert "coffee" not in context
    assert json.loads(loaded_line) == []


HOOK_NEEDS_NOT = (
    "app.cli.commands",
    "engine.services.entries",
    "engine.services.content",
    "engine.guards.privacy",
    "re2",
    "engine.freshness.code_symbols",
    "snowballstemmer.porter_stemmer",
    "app.hook_endpoint",
    "socketserver",
    "pygments.lexers",
)
"""What the prompt hook, a process per prompt, does without: the CLI's command modules
(``memory-tui hook`` goes straight to the hook), the writes' content checks and secret
rules, the parsers the stale check needs only for a cited file that changed, the
pure-Python stemmers (PyStemmer's C ones give the same stems), and the server's side of
the exchange with a running server (its socket server and threads: the hook asks through
:mod:`app.hook_client` alone), and Pygments' lexers, which only the analyzer's cut of
code without a grammar reads comment markers from."""


def test_the_hook_as_claude_code_runs_it_imports_only_what_it_reads_with(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    root, entry_id = populated
    payload = json.dumps({"prompt": "when do gearboxes need synthetic oil?", "cwd": str(root)})
    code = f"""
        import contextlib, io, json, sys
        sys.stdin = io.StringIO({payload!r})
        sys.argv = ["memory-tui", "hook"]
        from app.cli import main
        context = io.StringIO()
        with contextlib.redirect_stdout(context):
            assert main() == 0
        print(json.dumps(context.getvalue()))
    """

    watched = HOOK_NEEDS_NOT + KEYWORD_PATH_HEAVY
    result = python(textwrap.dedent(code) + "\n" + _report(watched), env_home=tmp_path)

    assert result.returncode == 0, result.stderr
    *_, context_line, loaded_line = result.stdout.strip().splitlines()
    assert f"(id {entry_id}): Gearboxes need synthetic oil" in json.loads(context_line)
    assert json.loads(loaded_line) == []


def test_hybrid_search_of_a_small_memory_reads_the_store_without_torch(
    tmp_path: Path, populated: tuple[Path, str]
) -> None:
    # Every vector search reads the store of record (issue 49), whatever the memory's
    # size: LanceDB is imported; torch (the reference model) never is.
    root, entry_id = populated
    code = f"""
        import sys
        sys.path.insert(0, {str(REPO / "tests")!r})
        from fakes import FakeEmbedder
        from engine.services.memory import Memory
        memory = Memory.open({str(root)!r}, embedder=FakeEmbedder())
        for mode in ("vector", "hybrid"):
            response = memory.search("gearboxes synthetic oil", mode=mode)
            assert response.used.value == mode, response
            assert response.results[0].entry.id == {entry_id!r}, response
        memory.close()
    """

    assert loaded_after(code, ("lancedb", "torch"), home=tmp_path) == ["lancedb"]


def test_the_stale_check_of_a_note_citing_typescript_does_not_import_tree_sitter(
    tmp_path: Path,
) -> None:
    # The stale check reads the cited file's names when results are shown: for JS/TS that
    # is the comment-free scan (js_lexer, js_commonjs), never the analyzer's tree-sitter.
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    cited = root / "src" / "render.ts"
    cited.write_text("export const renderGearbox = (g: Gear) => g;\n", encoding="utf-8")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        entry = memory.add("Gearboxes are drawn by `renderGearbox` in src/render.ts").entry
    cited.write_text("export const drawGearbox = (g: Gear) => g;\n", encoding="utf-8")
    code = f"""
        from engine.services.memory import Memory
        memory = Memory.open({str(root)!r})
        hit, = memory.search("gearboxes drawn", mode="keyword").results
        assert hit.entry.id == {entry.id!r}, hit
        assert hit.stale_reason == "renderGearbox is no longer defined in src/render.ts", hit
        memory.close()
    """

    assert loaded_after(code, ANALYZER_PROPER + MODEL_AND_STORE, home=tmp_path) == []
