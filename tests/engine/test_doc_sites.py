"""Docs folders that the project's docs tools declare are indexed as its documentation
(issue 34), on real stores: fixture projects in tmp folders, one per docs tool."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from project_files import write

from engine.analyzer.noise import NoiseClassifier
from engine.core.config import Config, load_config
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.sources import SourceSet

PAGE = "# {title}\n\nHow to configure the {word} option of the tool.\n"

EXAMPLE_PROGRAM = {
    "examples/demo/main.py": "print('a marimba example program')\n",
    "examples/demo/README.md": "# Demo\n\nRun main.py to hear the xylophone.\n",
}
"""A real examples/ folder of code beside every docs site: its code stays examples, its
README (what the example shows, for its reader) is documentation."""


def pages(*rels: str) -> dict[str, str]:
    return {rel: PAGE.format(title=rel, word=f"w{i}") for i, rel in enumerate(rels)}


def sources(root: Path, config: Config | None = None) -> list[str]:
    cfg = config or load_config(root)
    return [rel for rel, _ in SourceSet(root, cfg, root / cfg.knowledge_dir).files()]


MKDOCS = """site_name: Tool
docs_dir: guide
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
nav:
  - Home: index.md
  - Examples:
      - Flags: examples/flags.md
      - Arguments: examples/arguments/basics.md
"""

SITES: dict[str, tuple[dict[str, str], list[str]]] = {
    "mdBook": (
        {"manual/book.toml": '[book]\ntitle = "tool"\nsrc = "pages"\n'},
        ["manual/pages/SUMMARY.md", "manual/pages/tests/running.md", "manual/pages/usage.md"],
    ),
    "mdBook default src": (
        {"book/book.toml": '[book]\ntitle = "tool"\n'},
        ["book/src/intro.md"],
    ),
    "MkDocs": (
        {"mkdocs.yml": MKDOCS},
        ["guide/examples/arguments/basics.md", "guide/examples/flags.md", "guide/index.md"],
    ),
    "Sphinx": (
        {"handbook/conf.py": 'project = "tool"\nextensions = ["myst_parser"]\n'},
        ["handbook/examples/walkthrough.md", "handbook/index.md"],
    ),
    "Docusaurus": (
        {"site/docusaurus.config.js": "module.exports = {title: 'tool'};\n"},
        ["site/docs/examples/intro.mdx", "site/docs/install.md"],
    ),
    "Hugo": (
        {"www/hugo.toml": 'baseURL = "https://example.org/"\ncontentDir = "pages"\n'},
        ["www/pages/docs/examples/setup.md", "www/pages/docs/start.md"],
    ),
    "Hugo config.toml": (
        {"homepage/config.toml": 'baseURL = "https://example.org/"\ntitle = "tool"\n'},
        ["homepage/content/guide.md"],
    ),
    "Zola": (
        {"zola/config.toml": 'base_url = "https://example.org"\n'},
        ["zola/content/tests/matrix.md"],
    ),
    "Jekyll": (
        {"pages/_config.yml": "title: tool\ncollections:\n  recipes:\n    output: true\n"},
        ["pages/_recipes/examples/batch.md", "pages/about.md"],
    ),
    "VitePress": (
        {"guide/.vitepress/config.mts": "export default {title: 'tool'}\n"},
        ["guide/examples/plugins.md", "guide/index.md"],
    ),
    "Antora": (
        {"handbook/antora.yml": "name: tool\nversion: ~\n"},
        ["handbook/modules/ROOT/pages/examples/proxy.md"],
    ),
    "VuePress": (
        {"manual/.vuepress/config.js": "module.exports = {title: 'tool'}\n"},
        ["manual/README.md", "manual/examples/themes.md"],
    ),
}


@pytest.mark.parametrize("tool", list(SITES))
def test_a_docs_tools_declared_pages_are_sources_and_real_examples_stay_out(
    tmp_path: Path, tool: str
) -> None:
    declarations, site_pages = SITES[tool]
    write(tmp_path, {**declarations, **pages(*site_pages), **EXAMPLE_PROGRAM})
    assert sources(tmp_path) == sorted([*site_pages, "examples/demo/README.md"])
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("examples/demo/main.py") == "examples"
    assert noise.kind("examples/demo/README.md") is None
    assert [noise.kind(rel) for rel in site_pages] == [None] * len(site_pages)


def test_code_inside_a_docs_folder_keeps_its_classification(tmp_path: Path) -> None:
    write(tmp_path, {"mkdocs.yml": MKDOCS, **pages("guide/examples/flags.md")})
    write(tmp_path, {"guide/examples/flags.py": "import tool\n", "guide/tests/test_x.py": ""})
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("guide/examples/flags.md") is None
    assert noise.kind("guide/examples/flags.py") == "examples"
    assert noise.kind("guide/tests/test_x.py") == "tests"


def test_declared_pages_end_up_in_the_memory(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {"manual/book.toml": "[book]\n", "mkdocs.yml": MKDOCS, **EXAMPLE_PROGRAM})
    write(tmp_path, {"manual/src/pager.md": "# Pager\n\nSet the quokka pager.\n"})
    write(tmp_path, {"guide/examples/flags.md": "# Flags\n\nThe wombat flag is boolean.\n"})
    report = Indexer(memory).run()
    assert report.errors == []
    found = {r.entry.file_path for r in memory.search("quokka pager", mode="keyword").results}
    assert found == {"manual/src/pager.md"}
    found = {r.entry.file_path for r in memory.search("wombat flag", mode="keyword").results}
    assert found == {"guide/examples/flags.md"}
    assert not memory.search("marimba", mode="keyword").results  # the example's code
    found = {r.entry.file_path for r in memory.search("xylophone", mode="keyword").results}
    assert found == {"examples/demo/README.md"}  # what the example shows, for its reader


def test_the_watch_and_git_hooks_test_of_one_path_agrees(tmp_path: Path) -> None:
    write(tmp_path, {"manual/book.toml": "[book]\n", **pages("manual/src/a.md")})
    cfg = load_config(tmp_path)
    source_set = SourceSet(tmp_path, cfg, tmp_path / cfg.knowledge_dir)
    assert source_set.wants("manual/src/a.md")
    assert source_set.wants("manual/src/new/b.md")  # a page not written yet
    assert source_set.wants("manual/theme/c.md")  # no declaration is needed to be seen
    assert not source_set.wants("manual/tests/c.md")


def test_roots_outside_the_project_or_through_a_symlink_declare_nothing(
    tmp_path: Path,
) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    write(outside, pages("secret.md"))
    write(project, pages("inner/page.md"))
    os.symlink(outside, project / "linked")
    os.symlink(project / "inner", project / "alias")
    write(
        project,
        {
            "a/book.toml": '[book]\nsrc = "../../outside"\n',
            "b/book.toml": '[book]\nsrc = "/etc"\n',
            "c/book.toml": '[book]\nsrc = "../linked"\n',
            "d/book.toml": '[book]\nsrc = "../alias"\n',
            "mkdocs.yml": "docs_dir: .\n",  # the project root is never a docs folder
            "e/book.toml": '[book]\nsrc = "missing"\n',
        },
    )
    assert NoiseClassifier(project).ownership.doc_roots == {}
    assert sources(project) == ["inner/page.md"]  # seen without a declaration, once


def test_a_docs_site_inside_tests_or_examples_declares_nothing(tmp_path: Path) -> None:
    write(tmp_path, {"tests/fixtures/site/mkdocs.yml": "docs_dir: pages\n"})
    write(tmp_path, {"examples/blog/book.toml": "[book]\n"})
    write(tmp_path, pages("tests/fixtures/site/pages/a.md", "examples/blog/src/b.md"))
    assert sources(tmp_path) == []


def test_config_files_of_other_tools_declare_nothing(tmp_path: Path) -> None:
    write(tmp_path, {"app/conf.py": "DEBUG = True\n", "svc/config.toml": "port = 8080\n"})
    write(tmp_path, {"svc/config.yaml": "!!python/object:os.system\nx: 1\n"})
    write(tmp_path, {"bad/mkdocs.yml": "docs_dir: [unclosed\n", "bad/book.toml": "[book\n"})
    write(tmp_path, pages("app/x.md", "svc/content/y.md", "bad/docs/z.md", "bad/src/w.md"))
    assert NoiseClassifier(tmp_path).ownership.doc_roots == {}
    assert sources(tmp_path) == ["app/x.md", "bad/docs/z.md", "bad/src/w.md", "svc/content/y.md"]


def test_a_sources_setting_without_the_defaults_narrows_the_docs_to_its_patterns(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"manual/book.toml": "[book]\n", **pages("manual/src/a.md", "notes/b.md")})
    replaced = dataclasses.replace(load_config(tmp_path), sources=("/notes/**",))
    assert sources(tmp_path, replaced) == ["notes/b.md"]
    added = dataclasses.replace(replaced, sources=(*load_config(tmp_path).sources, "/notes/**"))
    assert sources(tmp_path, added) == ["manual/src/a.md", "notes/b.md"]
    excluded = dataclasses.replace(load_config(tmp_path), sources_exclude=("manual/",))
    assert sources(tmp_path, excluded) == ["notes/b.md"]
