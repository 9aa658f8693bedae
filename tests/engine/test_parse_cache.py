"""The analyzer's parse cache: reused for unchanged files, dropped when the analyzer changes."""

from __future__ import annotations

import json
import shutil
from importlib import metadata
from pathlib import Path

import pytest

from engine.analyzer import analyze, parse_cache
from engine.analyzer.parse_cache import ParseCache, analyzer_version, source_version

ANALYZER = Path(parse_cache.__file__).parent
MARKDOWN = ANALYZER.parent / "markdown"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "shop.py").write_text("def checkout(cart):\n    return cart\n")
    (root / "src" / "cart.ts").write_text("export const a = 1, b = 2;\n")
    (root / "README.md").write_text("# Shop\n\n## Usage\n")
    return root


def _exports(cache_path: Path, root: Path) -> tuple[dict[str, str], ParseCache]:
    cache = ParseCache(cache_path)
    analysis = analyze(root, cache=cache)
    cache.save()
    return {s.name: s.file for s in analysis.symbols}, cache


def _poison(cache_path: Path) -> None:
    """Rename a cached export, so that a result read from the cache is told apart."""
    data = json.loads(cache_path.read_text())
    data["files"]["src/cart.ts"]["symbols"][0]["name"] = "fromTheCache"
    cache_path.write_text(json.dumps(data))


def test_a_changed_analyzer_parses_unchanged_files_again(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_path = tmp_path / "analysis-cache.json"
    first, cache = _exports(cache_path, project)
    assert (cache.hits, cache.misses) == (0, 3)
    assert json.loads(cache_path.read_text())["version"] == analyzer_version()

    _poison(cache_path)
    again, cache = _exports(cache_path, project)
    assert (cache.hits, cache.misses) == (3, 0)
    assert "fromTheCache" in again  # same analyzer: the cached result is used

    _poison(cache_path)
    monkeypatch.setattr(parse_cache, "analyzer_version", lambda: "a-newer-analyzer")
    recomputed, cache = _exports(cache_path, project)
    assert (cache.hits, cache.misses) == (0, 3)
    assert (
        recomputed == first == {"checkout": "src/shop.py", "a": "src/cart.ts", "b": "src/cart.ts"}
    )
    assert json.loads(cache_path.read_text())["version"] == "a-newer-analyzer"


def test_the_version_follows_the_analyzer_source(tmp_path: Path) -> None:
    copy, markdown = tmp_path / "analyzer", tmp_path / "markdown"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ANALYZER, copy, ignore=ignore)
    shutil.copytree(MARKDOWN, markdown, ignore=ignore)
    assert source_version(copy, markdown) == analyzer_version()

    js = copy / "js_symbols.py"
    js.write_text(js.read_text() + "\n# a fix to the export scanner\n")
    assert source_version(copy, markdown) != analyzer_version()

    (copy / "js_symbols.py").unlink()
    (copy / "renamed.py").write_bytes((ANALYZER / "js_symbols.py").read_bytes())
    assert source_version(copy, markdown) != analyzer_version()


def test_the_version_follows_the_markdown_reader_the_outlines_use(tmp_path: Path) -> None:
    """The outlines' headings and a doc comment's sections are read by engine.markdown:
    a fix there is not hidden behind results cached before it."""
    markdown = tmp_path / "markdown"
    shutil.copytree(MARKDOWN, markdown, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_version(ANALYZER, markdown) == analyzer_version()
    blocks = markdown / "blocks.py"
    blocks.write_text(blocks.read_text() + "\n# a fix to how headings read\n")
    assert source_version(ANALYZER, markdown) != analyzer_version()


@pytest.mark.parametrize("upgraded", ["pygments", "programming-languages", "tree-sitter-rust"])
def test_the_version_follows_what_the_analyzer_parses_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upgraded: str
) -> None:
    """A new Pygments (comment markers), Linguist table (which extensions are code) or
    grammar can change what a file parses to: the cached results are not reused."""
    before = source_version(ANALYZER)
    real = metadata.version

    def version(name: str) -> str:
        return "999.0" if name == upgraded else real(name)

    monkeypatch.setattr(metadata, "version", version)
    assert source_version(ANALYZER) != before
