"""Jupyter notebooks are documentation: their markdown cells read as markdown and their
code as fenced blocks, line for line, outputs and metadata left out."""

from __future__ import annotations

import json
from pathlib import Path

from project_files import sources, write

from engine.analyzer.doc_kinds import prose_dialect
from engine.core.config import load_config
from engine.markdown.notebooks import notebook_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources


def notebook(cells: list[dict[str, object]], *, language: str = "python") -> dict[str, object]:
    """A notebook as nbformat 4 holds it, each source a list of lines."""
    kernel = {"display_name": language, "language": language, "name": language}
    return {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4,
            "nbformat_minor": 5}  # fmt: skip


def cell(kind: str, text: str, **more: object) -> dict[str, object]:
    lines = text.splitlines(keepends=True)
    return {"cell_type": kind, "id": f"c{len(text)}", "metadata": {}, "source": lines, **more}


def as_written(data: dict[str, object]) -> str:
    """``data`` as Jupyter and nbformat write a notebook: one space of indentation, keys
    sorted, a newline at the end."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


TUTORIAL = notebook([
    cell("markdown", "# Counting quokkas\n\nLoad the census, then `count()` the quokkas.\n"),
    cell("code", "import census\nrows = census.load('island.csv')\nprint(len(rows))",
         execution_count=1, outputs=[{"name": "stdout", "output_type": "stream",
                                      "text": ["wombat output 1234\n"]}]),
    cell("raw", "raw cell of the wallaby exporter\n"),
    cell("markdown", "## Plotting\n\nDraw the ```histogram``` of counts.\n"),
    cell("code", "", execution_count=None, outputs=[]),
])  # fmt: skip


def test_a_notebook_reads_as_markdown_line_for_line() -> None:
    text = as_written(TUTORIAL)
    lines = text.split("\n")
    out = notebook_as_markdown(text).split("\n")
    assert len(out) == len(lines)
    heading = lines.index('    "# Counting quokkas\\n",')
    assert out[heading] == "# Counting quokkas"
    assert out[heading + 2] == "Load the census, then `count()` the quokkas."
    code = lines.index('    "import census\\n",')
    assert out[code - 1] == "```python"  # the source list's opening line
    assert out[code : code + 3] == [
        "import census", "rows = census.load('island.csv')", "print(len(rows))"
    ]  # fmt: skip
    assert out[code + 3] == "```"  # its closing line
    rendered = "\n".join(out)
    assert "## Plotting" in out and "Draw the ```histogram``` of counts." in out
    assert "wombat" not in rendered and "wallaby" not in rendered  # outputs, raw cells
    assert "nbformat" not in rendered and "kernelspec" not in rendered


def test_a_source_on_one_line_and_a_fence_inside_code() -> None:
    data = notebook([
        {"cell_type": "markdown", "metadata": {}, "source": "# Setup\nInstall the tool."},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["s = '''\n", "```\n", "'''"]},
    ], language="R")  # fmt: skip
    text = as_written(data)
    out = notebook_as_markdown(text).split("\n")
    assert "# Setup Install the tool." in out  # one line of the file: one paragraph
    assert "````r" in out and out.count("````") == 1  # longer than the fence it holds


def test_what_is_not_a_notebook_reads_as_blank() -> None:
    for text in (
        "{ not json\n\n",
        '{\n "cells": "none"\n}\n',
        json.dumps(TUTORIAL) + "\n",  # written on one line: its sources have no lines
    ):
        out = notebook_as_markdown(text)
        assert out.strip() == "" and out.count("\n") == text.count("\n")


def test_notebooks_are_sources_and_searchable(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {
        "docs/tutorial.ipynb": as_written(TUTORIAL),
        "examples/demo.ipynb": as_written(TUTORIAL),  # examples, as a markdown file there
        ".ipynb_checkpoints/tutorial-checkpoint.ipynb": as_written(TUTORIAL),
        "broken.ipynb": "{ not json\n",
    })  # fmt: skip
    assert prose_dialect("docs/tutorial.ipynb") == "notebook"
    assert sources(tmp_path) == ["broken.ipynb", "docs/tutorial.ipynb"]
    rules = {
        f.decision.rel: f.decision.rule
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["docs/tutorial.ipynb"] == "notebook"
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokkas census", mode="keyword", limit=10).results
    assert {h.entry.file_path for h in hits} == {"docs/tutorial.ipynb"}
    assert hits[0].entry.section_title.startswith("Counting quokkas")
    code = memory.search("census load island", mode="keyword", limit=10).results
    assert any("census.load('island.csv')" in h.entry.content for h in code)
    assert not memory.search("wombat", mode="keyword", limit=10).results  # an output
