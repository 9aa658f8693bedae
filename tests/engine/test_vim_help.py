"""Vim help files (a plugin's ``doc/*.txt``) read as the sectioned documents they are, and
the escape every plain-text reader uses, which keeps a line's text as written where
markdown would read no markup in it (a key's ``<CR>``)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from project_files import write

from engine.core.config import load_config
from engine.markdown.chunking import chunk_markdown
from engine.markdown.escaping import escape_line
from engine.markdown.plain import text_kind
from engine.markdown.rst import as_markdown
from engine.markdown.sections import MIN_PROSE_CHARS
from engine.markdown.vim_help import vimdoc_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources


def test_a_line_is_escaped_only_where_markdown_would_read_an_html_block() -> None:
    kept = ["<CR>          Open the file.", "<C-R><C-G>    Recall the path.", "<T> is a type"]
    escaped = ["<CR>", "<div class=note>", "<!-- note -->", "</p>", "<script>"]
    parser = MarkdownIt("commonmark")
    for line in kept + escaped:
        html = any(token.type == "html_block" for token in parser.parse(line))
        assert (escape_line(line) != line) is html, line
        assert not any(t.type == "html_block" for t in parser.parse(escape_line(line))), line
    assert escape_line("    <CR>  Open.") == "    <CR>  Open."
    assert escape_line("# not a heading") == "\\# not a heading"


# A help file written from Vim's definition of the format (:help help-writing): its tag
# line, separators and section headings with right-aligned tags, ``~`` subheadings (one a
# table's column heading), examples opened by ``>`` (one naming its language) and closed by
# ``<`` or by a line not indented, links, and the modeline.
HELP = """*quokka.txt*\tCount the quokkas in a buffer

==============================================================================
CONTENTS                                                     *quokka-contents*

    1. Usage ........................................ |quokka-usage|
    2. Options ...................................... |quokka-options|

==============================================================================
1. Usage                                                        *quokka-usage*

Run |:QuokkaCount| in any buffer.  The count shows in the command line, and the
last count is kept for the next run in the same buffer.

                                                               *:QuokkaCount*
:QuokkaCount [pattern]\tCount the quokkas.  For example: >
\t:QuokkaCount island
<\tThe count stops at the first blank line.

Mappings ~
                                                              *quokka-<Plug>*
<Plug>(quokka-count)\tCounts too.  Map it: >vim
\tnmap <Leader>q <Plug>(quokka-count)

Limits ~

Name\t\tDefault ~
max\t\t100

------------------------------------------------------------------------------
Islands                                                       *quokka-islands*

Each island is counted apart, and the counts are added up at the end of the run
so that no quokka is counted twice.

Rottnest ~

The island with the most quokkas.  Its count is the largest one, and it is
shown first in the list of islands.

==============================================================================
2. Options                                                    *quokka-options*

|g:quokka_max| is the most quokkas counted.  A count that reaches it stops,
and the message says so.

 vim:tw=78:ts=8:noet:ft=help:norl:
"""


def test_a_help_file_reads_as_sections_subheadings_examples_and_links() -> None:
    markdown = vimdoc_as_markdown(HELP)
    lines = markdown.split("\n")
    assert len(lines) == len(HELP.split("\n"))  # chunks cite the file's own lines
    assert [line for line in lines if line.startswith("#")] == [
        "## CONTENTS",
        "## 1. Usage",
        "### Mappings",
        "### Limits",
        "### Islands",
        "#### Rottnest",
        "## 2. Options",
    ]
    assert "Name\t\tDefault" in lines  # a column heading stays text, its marker dropped
    first = lines.index("\t:QuokkaCount island")
    assert lines[first - 1] == "```" and lines[first + 1] == "```"
    assert "*:QuokkaCount* :QuokkaCount [pattern]\tCount the quokkas.  For example:" in lines
    assert "The count stops at the first blank line." in lines
    second = lines.index("\tnmap <Leader>q <Plug>(quokka-count)")
    assert lines[second - 1] == "```vim" and lines[second + 1] == "```"
    assert "1. Usage ........................................ quokka-usage" in markdown
    assert "g:quokka_max is the most quokkas counted.  A count that reaches it stops," in lines
    assert "*quokka-usage*" in lines and "*quokka-islands*" in lines  # tags stay in the text
    assert "<Plug>(quokka-count)\tCounts too.  Map it:" in markdown  # as written, not \<Plug>
    assert "ft=help" not in markdown and "====" not in markdown and "----" not in markdown


def test_a_help_file_without_separators_reads_its_capital_headings() -> None:
    """Many plugins' help (fugitive's) opens each section with a heading in capitals and
    its tags, no separator line; a line of tags just above a subheading tags it."""
    text = (
        "*quokka.txt*  Count the quokkas\n\n"
        "INTRODUCTION                                    *quokka*\n\n"
        "Counts the quokkas in a buffer.  It reads each line once and keeps the count.\n\n"
        "MAPS                                            *quokka-maps*\n\n"
        "                                                *quokka-count-maps*\n"
        "Counting maps ~\n"
        "                                                *quokka_<CR>*\n"
        "<CR>                    Count the quokkas under the cursor, and show the count\n"
        "                        in the command line.\n"
        "                                                *g:quokka_maps*\n"
        "The maps can be turned off:\n"
        ">\n"
        "        let g:quokka_maps = 0\n"
        "<\n"
        "ABOUT                                           *quokka-about*\n\n"
        "Report a missing quokka on the tracker.  The author reads them.\n\n"
        " vim:tw=78:et:ft=help:norl:\n"
    )
    markdown = vimdoc_as_markdown(text)
    chunks = chunk_markdown(markdown, min_prose=MIN_PROSE_CHARS, page_title="Quokka")
    assert [chunk.title for chunk in chunks] == [
        "Quokka > INTRODUCTION",  # the tag line joins the first section
        "Quokka > MAPS > Counting maps",
        "Quokka > ABOUT",
    ]
    maps = chunks[1].content
    assert "*quokka-count-maps* *quokka_<CR>*" in maps
    assert "\n<CR>                    Count" in maps and "\\<CR>" not in maps
    assert "```\n        let g:quokka_maps = 0\n```" in maps


def test_a_help_file_is_known_by_its_content_in_a_doc_folder(tmp_path: Path) -> None:
    prose = (
        "Design notes for the counter.  Each line is read once and counted.\n"
        "The counter keeps no state between runs, so a run may stop at any time.\n"
        "Its output lists the islands |by name| and the quokkas counted on each one.\n"
    )
    assert text_kind(HELP, "doc/quokka.txt") == "vimdoc"
    assert text_kind(HELP.split("\n", 1)[1], "doc/quokka.txt") == "vimdoc"  # by its modeline
    assert text_kind(HELP, "notes/quokka.txt") == "text"  # help is read from doc/
    assert text_kind(prose, "doc/design.txt") == "text"
    assert "|by name|" in as_markdown(prose, "doc/design.txt", "text")
    write(tmp_path, {"doc/quokka.txt": HELP, "doc/design.txt": prose})
    rules = {
        f.decision.rel: f.decision.rule
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert (rules["doc/quokka.txt"], rules["doc/design.txt"]) == ("vimdoc", "text")


def test_help_sections_are_the_titles_of_its_entries(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {"doc/quokka.txt": HELP})
    assert Indexer(memory).run().errors == []
    hits = memory.search("island with the most quokkas", mode="keyword", limit=3).results
    assert hits and hits[0].entry.section_title.endswith("1. Usage > Islands > Rottnest")


def test_a_heading_underlined_by_a_separator_and_one_ruled_to_the_margin() -> None:
    """Help made from a README writes a heading above its separator, and rules a
    subheading out to the margin (``< Title >____~``): the words are the title."""
    text = (
        "*quokka.txt*  Count the quokkas\n\n"
        "quokka#count\n"
        "==============================================================================\n\n"
        "Counts the quokkas.\n\n"
        "< Options >___________________________________________________________________~\n\n"
        "The options of a count.\n"
    )
    headings = [line for line in vimdoc_as_markdown(text).split("\n") if line.startswith("#")]
    assert headings == ["## quokka#count", "### Options"]


_PIECES = ["", "  ", "\t", "TITLE", "Title", "*tag*", "|link|", " ~", "~", " >", ">vim", "<",
           "=" * 12, "-" * 12, "text.", "<CR>", "```", "# x", " vim:ft=help:"]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=4).map("".join), max_size=30))
def test_any_help_text_keeps_its_lines(lines: list[str]) -> None:
    text = "*quokka.txt*  x\n" + "\n".join(lines)
    markdown = vimdoc_as_markdown(text)
    assert markdown.count("\n") == text.count("\n")
