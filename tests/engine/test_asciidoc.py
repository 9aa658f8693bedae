"""AsciiDoc pages (Asciidoctor, Antora docs sites) are documentation like markdown and
reStructuredText: found among the default sources, read line for line as markdown
(engine/markdown/asciidoc.py), their sections titled. Before, a project documented in
AsciiDoc (asciidoctor/asciidoctor-pdf, walked in session 14) had none of its docs in the
memory, though its Antora declaration named the folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.analyzer.docs import outline
from engine.core.config import load_config
from engine.core.models import Source
from engine.markdown.asciidoc import asciidoc_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.sources import SourceSet

PAGE = """= Page Numbers
:navtitle: Numbering
:url-theme: https://example.org/theme
// a comment the reader never sees

Page numbers are added to the footer by the running content of the theme.
See xref:theme:add-running-content.adoc[adding running content] or <<start,the start>>.

[[start]]
== Start numbering on a later page

Set the `start-at` attribute.

[source,yaml]
----
footer:
  recto:
    right:
      content: '{page-number}'
== not a title, inside a listing
----

////
A comment block with == a fake title
////

++++
<div>raw html</div>
++++

.An example
====
The example block's prose stays.
====

include::partial$footer.adoc[]
"""


def test_asciidoc_is_read_as_markdown_line_for_line() -> None:
    lines = asciidoc_as_markdown(PAGE).split("\n")
    assert len(lines) == len(PAGE.split("\n"))
    assert lines[0] == "# Page Numbers"
    assert lines[1] == lines[2] == lines[3] == ""  # attribute entries and a comment
    assert "adding running content" in lines[6] and "the start" in lines[6]
    assert "xref:" not in lines[6] and "<<" not in lines[6]
    at = lines.index("## Start numbering on a later page")
    assert lines[at - 1] == ""  # the block anchor
    fence = lines.index("```")
    assert lines[fence - 1] == ""  # [source,yaml]
    assert "== not a title, inside a listing" in lines  # code, not a heading
    assert not any("fake title" in line or "raw html" in line for line in lines)
    assert "The example block's prose stays." in lines
    assert "====" not in lines and not any(line.startswith("include::") for line in lines)


def test_the_analyzer_outlines_asciidoc_sections_outside_its_blocks() -> None:
    found = outline("docs/modules/ROOT/pages/page-numbers.adoc", PAGE)
    assert found.title == "Page Numbers"
    assert [h for h in found.headings] == ["Start numbering on a later page"]


def test_asciidoc_pages_are_default_sources_and_searchable_by_section(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page-numbers.adoc").write_text(PAGE)
    (tmp_path / "README.adoc").write_text("= Widget\n\nA widget that frobnicates.\n")
    (tmp_path / "src" / "docs" / "asciidoc").mkdir(parents=True)  # the Gradle plugin's
    (tmp_path / "src" / "docs" / "asciidoc" / "guide.adoc").write_text("= Guide\n\nWords.\n")
    (tmp_path / "src" / "main").mkdir()
    (tmp_path / "src" / "main" / "notes.adoc").write_text("= Not a docs folder\n")
    config = load_config(tmp_path)
    files = [rel for rel, _ in SourceSet(tmp_path, config, tmp_path / ".claude").files()]
    assert files == [
        "README.adoc", "docs/page-numbers.adoc", "src/docs/asciidoc/guide.adoc",
        "src/main/notes.adoc",  # every AsciiDoc file is documentation, in a docs folder or not
    ]  # fmt: skip
    assert Indexer(memory).run().errors == []
    hits = memory.search("start-at attribute", mode="keyword").results
    assert hits[0].entry.file_path == "docs/page-numbers.adoc"
    assert hits[0].entry.source is Source.MARKDOWN
    assert hits[0].entry.section_title == "Page Numbers > Start numbering on a later page"
    assert memory.search("frobnicates", mode="keyword").results


GIT_MANUAL_PAGE = """git-reset(1)
============

NAME
----
git-reset - Set `HEAD` or the index to a known state

SYNOPSIS
--------
[synopsis]
git reset [--soft | --mixed] [<commit>]

EXAMPLES
--------
Undo a commit and redo::
+
------------
$ git reset --soft HEAD^
------------

Before:
----
$ make
----
"""


def test_two_line_titles_are_headings_and_their_underlines_open_no_block() -> None:
    """git's manual pages: ``SYNOPSIS`` over ``--------`` is a title, not a listing."""
    out = asciidoc_as_markdown(GIT_MANUAL_PAGE).split("\n")
    assert len(out) == GIT_MANUAL_PAGE.count("\n") + 1
    assert [line for line in out if line.startswith("#")] == [
        "# git-reset(1)", "## NAME", "## SYNOPSIS", "## EXAMPLES",
    ]  # fmt: skip
    assert out[1] == out[4] == ""  # the underlines blanked
    assert out.count("```") == 4  # the two listing blocks, and nothing else
    fenced = out[out.index("```") + 1]
    assert fenced == "$ git reset --soft HEAD^"
    assert "git-reset - Set `HEAD` or the index to a known state" in out  # prose, not code
    assert "Before:" in out  # 7 characters over 4: no title


@pytest.mark.parametrize(("under", "level"), [("=", 1), ("-", 2), ("~", 3), ("^", 4), ("+", 5)])
def test_each_underline_character_is_a_level(under: str, level: int) -> None:
    out = asciidoc_as_markdown(f"Getting Started\n{under * 15}\nWords.\n").split("\n")
    assert out[:2] == ["#" * level + " Getting Started", ""]
