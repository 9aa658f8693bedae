"""A page rendered from a source beside it (``bash.html`` and ``bash.0`` from ``bash.1``,
``bash.info`` from the Texinfo manual, ``article.txt`` from ``article.ms``) is generated:
the memory holds the source once, not the same text in every format it was built into."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.doc_kinds import Siblings, rendered_from
from engine.core.config import load_config
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

BASH_DOC = [
    "FAQ", "README", "article.ms", "article.txt", "bash.0", "bash.1", "bash.html",
    "bash.info", "bashref.html", "bashref.info", "bashref.texi", "rbash.0", "rbash.1",
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("bash.0", "bash.1"),  # nroff's output
        ("bash.html", "bash.1"),  # man2html's
        ("bash.info", "bashref.texi"),  # makeinfo's, whatever its stem
        ("bashref.info", "bashref.texi"),
        ("bashref.html", "bashref.texi"),
        ("article.txt", "article.ms"),
        ("rbash.0", "rbash.1"),
        ("bash.1", None),
        ("bashref.texi", None),
        ("article.ms", None),
        ("FAQ", None),
        ("README", None),
    ],
)
def test_a_rendering_names_its_source_beside_it(name: str, source: str | None) -> None:
    assert rendered_from(name, Siblings.of(BASH_DOC)) == source


def test_only_a_format_a_tool_renders_into_is_a_rendering() -> None:
    assert rendered_from("index.html", Siblings.of(["index.md", "index.html"])) == "index.md"
    assert rendered_from("guide.pdf", Siblings.of(["guide.adoc", "guide.pdf"])) == "guide.adoc"
    assert rendered_from("tool.1", Siblings.of(["tool.1", "tool.1.ronn"])) == "tool.1.ronn"
    assert rendered_from("tool.1", Siblings.of(["tool.1", "tool.1.in"])) == "tool.1.in"
    assert (
        rendered_from("tool.1", Siblings.of(["tool.1", "tool.md"])) is None
    )  # two pages, two names
    assert rendered_from("README.md", Siblings.of(["README.md", "README.html"])) is None
    assert rendered_from("README.txt", Siblings.of(["README", "README.txt"])) is None  # no markup
    assert rendered_from("notes.txt", Siblings.of(["notes.txt", "notes.py"])) is None
    assert rendered_from("a.info", Siblings.of(["a.info", "a.md"])) is None  # no Texinfo beside it
    emacs = Siblings.of(["transient.org", "transient.texi", "gpl.texi", "transient.info"])
    assert rendered_from("transient.texi", emacs) == "transient.org"  # Org's ox-texinfo
    assert rendered_from("transient.info", emacs) == "transient.texi"  # of its stem first
    assert rendered_from("gpl.texi", emacs) is None
    assert rendered_from("transient.org", emacs) is None


def test_the_memory_holds_a_manual_once_not_once_per_format(tmp_path: Path, memory: Memory) -> None:
    manual = ".TH FROB 1\n.SH DESCRIPTION\nFrob turns every sprocket the quokka left.\n"
    write(tmp_path, {
        "doc/frob.1": manual,
        "doc/frob.0": "FROB(1)\n\nDESCRIPTION\n     Frob turns every sprocket the quokka left.\n",
        "doc/frob.txt": "FROB(1)\n\nDESCRIPTION\n\nFrob turns every sprocket the quokka left,"
        " and this text says so in sentences, as the page it was formatted from does.\n" * 2,
        "doc/notes.txt": "The quokka keeps notes of its own, written by hand, in sentences.\n" * 3,
    })  # fmt: skip
    rules = {
        f.decision.rel: (f.decision.included, f.decision.rule)
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["doc/frob.1"] == (True, "man page")
    assert rules["doc/frob.txt"] == (False, "generated")
    assert rules["doc/frob.0"][0] is False  # an unnamed format left out: "other"
    assert rules["doc/notes.txt"] == (True, "text")
    assert sources(tmp_path) == ["doc/frob.1", "doc/notes.txt"]
    assert Indexer(memory).run().errors == []
    files = {h.entry.file_path for h in memory.search("quokka", mode="keyword").results}
    assert files == {"doc/frob.1", "doc/notes.txt"}


def test_markdown_knitted_from_r_markdown_or_quarto_names_its_source() -> None:
    """An R package's ``README.md`` is rmarkdown's ``github_document`` of ``README.Rmd``
    (Quarto's ``gfm`` of a ``.qmd``): the same text twice, the source the one edited."""
    package = Siblings.of(["README.Rmd", "README.md", "NEWS.md", "intro.qmd", "intro.md"])
    assert rendered_from("README.md", package) == "README.Rmd"
    assert rendered_from("intro.md", package) == "intro.qmd"
    assert rendered_from("README.Rmd", package) is None
    assert rendered_from("NEWS.md", package) is None
