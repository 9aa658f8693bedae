"""Every prose format GitHub Linguist names is documentation by its name (an extension it
can only be): Org, Pod, RDoc, Textile, Texinfo, MediaWiki, Creole, Muse, Sweave, R
Markdown… each read line for line as markdown, its headings as headings."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.doc_kinds import prose_dialect
from engine.analyzer.linguist import prose_language
from engine.core.config import load_config
from engine.markdown.prose_markup import markup_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

ORG = """#+TITLE: Tool
* Installing :setup:
Run the installer; the quokka waits.
** TODO From source
#+BEGIN_SRC sh
make install
#+END_SRC
See [[https://example.org][the site]].
"""
POD = """=pod

=head1 NAME

Tool - the quokka counter

=head2 Options

=over

=item B<--count>

Counts C<quokkas> in the file. Templates show C<< <% count %> >>.

=back

=cut
"""
TEXINFO = """\\input texinfo
@setfilename tool.info
@node Top
@top Tool

@chapter Invocation
Run @command{tool} with @option{--count} to count the quokka.

@example
tool --count file
@end example
@c a comment
@section Exit status
@itemize @bullet
@item
Zero when every quokka was counted.
@end itemize
"""
RDOC = "= Tool\n\n== Usage\n\nCall Tool.count to count the quokka.\n"
TEXTILE = "h1. Tool\n\nh2(#usage). Usage\n\nThe quokka is *counted*.\n"
WIKI = "= Tool =\n\n== Usage ==\nThe '''quokka''' is counted: see [[Options|the options]].\n"
CREOLE = "= Tool\n== Usage ==\nThe quokka is counted.\n{{{\ntool --count\n}}}\n"
MUSE = "* Tool\n\n** Usage\n\nThe quokka is counted.\n<example>\n* not a heading\n</example>\n"


@pytest.mark.parametrize(
    ("language", "text", "headings", "shown"),
    [
        ("Org", ORG, ["# Installing", "## From source"], "See the site."),
        ("Pod/Pod 6", POD, ["# NAME", "## Options"],
         "Counts quokkas in the file. Templates show <% count %>."),
        ("Texinfo", TEXINFO, ["# Tool", "# Invocation", "## Exit status"],
         "Run tool with --count to count the quokka."),
        ("RDoc", RDOC, ["# Tool", "## Usage"], "Call Tool.count to count the quokka."),
        ("Textile", TEXTILE, ["# Tool", "## Usage"], "The quokka is *counted*."),
        ("Wikitext", WIKI, ["# Tool", "## Usage"], "The quokka is counted: see the options."),
        ("Creole", CREOLE, ["# Tool", "## Usage"], "tool --count"),
        ("Muse", MUSE, ["# Tool", "## Usage"], "* not a heading"),
    ],
)  # fmt: skip
def test_each_format_reads_as_markdown_line_for_line(
    language: str, text: str, headings: list[str], shown: str
) -> None:
    markdown = markup_as_markdown(text, language)
    lines = markdown.split("\n")
    assert len(lines) == len(text.split("\n"))
    outside_fences, fenced = [], False
    for line in lines:
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("#"):
            outside_fences.append(line)
    assert outside_fences == headings
    assert shown in lines


def test_a_code_block_becomes_a_fence_and_commands_are_blanked() -> None:
    org = markup_as_markdown(ORG, "Org").split("\n")
    assert org[4:7] == ["```sh", "make install", "```"]
    assert org[0] == ""  # #+TITLE: a keyword line, blanked
    texinfo = markup_as_markdown(TEXINFO, "Texinfo").split("\n")
    assert texinfo[:3] == ["", "", ""]  # \input, @setfilename, @node
    assert "```" in texinfo and "tool --count file" in texinfo
    assert not any(line.startswith("@") for line in texinfo)  # @item alone, @itemize…
    assert texinfo[TEXINFO.split("\n").index("@c a comment")] == ""
    assert markup_as_markdown("# not markdown\n", "Gemini-like unknown") == "\\# not markdown\n"


def test_linguist_names_the_format_only_where_the_extension_can_be_nothing_else() -> None:
    table = {
        ".org": {"prose": {"Org"}},
        ".asc": {"prose": {"AsciiDoc"}, "data": {"Public Key"}},
        ".rst.txt": {"prose": {"reStructuredText"}},
    }
    assert prose_language(".org", table) == "Org"
    assert prose_language(".asc", table) is None  # a signature as often as a page
    assert prose_language(".rst.txt", table) == "reStructuredText"  # the longest first
    assert prose_dialect("guide/intro.rmd") == "markdown"  # R Markdown
    assert prose_dialect("doc/manual.rest") == "restructuredtext"
    assert prose_dialect("po/fr.po") is None  # a message catalog
    assert prose_dialect("KEYS.asc") is None
    assert prose_dialect("src/main.c") is None


def test_prose_formats_are_sources_and_searchable(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {
        "README.org": ORG, "lib/Tool.pod": POD, "doc/tool.texi": TEXINFO,
        "README.rdoc": RDOC, "docs/usage.textile": TEXTILE, "wiki/Home.mediawiki": WIKI,
        "paper.Rmd": "# Results\n\nThe quokka counts.\n", "po/fr.po": 'msgid "quokka"\n',
        "KEYS.asc": "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINBF\n",
        "History.rdoc": RDOC, "CHANGES.org": ORG,  # release notes, in these formats too
    })  # fmt: skip
    assert sources(tmp_path) == [
        "README.org", "README.rdoc", "doc/tool.texi", "docs/usage.textile", "lib/Tool.pod",
        "paper.Rmd", "wiki/Home.mediawiki",
    ]  # fmt: skip
    rules = {
        f.decision.rel: f.decision.rule
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["README.org"] == "Org" and rules["lib/Tool.pod"] == "Pod/Pod 6"
    assert rules["paper.Rmd"] == "markdown"
    assert rules["History.rdoc"] == rules["CHANGES.org"] == "release-notes"
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka", mode="keyword", limit=20).results
    titles: dict[str, set[str]] = {}
    for hit in hits:
        titles.setdefault(hit.entry.file_path, set()).add(hit.entry.section_title)
    assert any(t.startswith("Installing") for t in titles["README.org"])  # its own headings
    assert any(t.startswith("Invocation") for t in titles["doc/tool.texi"])
    assert any(t.startswith("NAME") for t in titles["lib/Tool.pod"])
    assert "po/fr.po" not in titles and "KEYS.asc" not in titles
