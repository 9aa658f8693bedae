"""A file whose format no table names is text whose content decides: the next layout
nobody listed is in when it reads as sentences (Doxygen's ``.dox`` pages, Qt's ``.qdoc``,
``redis.conf``), and "other" when it is data, configuration, code or binary. Licence
texts are licences under every name GitHub's licence detection gives them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from project_files import sources, write

from engine.analyzer.doc_kinds import is_licence, prose_dialect, unnamed_format
from engine.core.config import load_config
from engine.guards.files import FileRefusedError, read_project_bytes
from engine.markdown.plain import _PROSE_WORDS, is_word, text_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

PROSE = (
    "A sprocket with more teeth turns more slowly but carries more torque. Pick the count\n"
    "from the chain pitch and the speed you need, and oil the chain every thousand hours.\n"
    "Nothing else needs care: the housing is sealed, and the bearings last the gear's life.\n"
)
DOXYGEN = (
    "/** \\page sprockets Choosing sprockets\n\n\\section teeth The number of teeth\n\n"
    + PROSE
    + "*/\n"
)
CONFIG_WITH_COMMENTS = (
    "# The port.\nport = 8080\nworkers = 4\n# Where logs go.\nlog = /var/log/x\n" * 6
)
QDOC = "/*!\n    \\page widgets.html\n    \\title Widgets\n\n" + PROSE + "*/\n"
MESON = (
    "# We copy the scripts. The tests assume the same names as the files in the tree.\n"
    "# The installed ones match the executable's name instead, as users expect them to.\n"
    "foreach script : ['a.bash', 'b.zsh']\n  fs.copyfile(script)\nendforeach\n"
    "install_data('a.bash', install_dir: get_option('datadir') / 'completions')\n"
)
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 64


def _rules(root: Path) -> dict[str, tuple[str, bool, str]]:
    return {
        f.decision.rel: (f.what, f.decision.included, f.decision.rule)
        for f in explain_sources(root, load_config(root)).files
    }


@pytest.mark.parametrize(
    ("name", "unnamed"),
    [
        ("manual.dox", True),
        ("widgets.qdoc", True),
        ("redis.conf", True),
        ("README.old", True),
        ("notes.xyz", True),
        ("meson.build", False),  # Pygments names it (Meson)
        ("nginx.conf", False),  # Pygments: nginx's configuration
        ("Cargo.toml", False),  # Linguist: data
        ("page.html", False),  # Linguist: markup
        ("tool.rs", False),  # the table: Rust
        ("guide.wiki", False),  # Linguist: prose (Wikitext)
        ("README", False),  # no extension: a bare name, decided apart
        (".gitignore", False),  # hidden, no extension
    ],
)
def test_a_format_is_unnamed_only_where_no_table_knows_it(name: str, unnamed: bool) -> None:
    assert unnamed_format(name) is unnamed


def test_a_file_no_table_names_is_documentation_when_it_reads_as_sentences(
    tmp_path: Path,
) -> None:
    write(tmp_path, {
        "doc/manual.dox": DOXYGEN,
        "src/doc/widgets.qdoc": QDOC,
        "server.conf": CONFIG_WITH_COMMENTS,
        "completion/meson.build": MESON,
        "Cargo.lock": '[[package]]\nname = "memchr"\nversion = "2.7.4"\n' * 10,
        "tools/release.in": "#!/bin/sh\n# Deploys the site. It copies every page.\n" + PROSE,
    })  # fmt: skip
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/diagram.img").write_bytes(PNG)
    assert sources(tmp_path) == ["doc/manual.dox", "src/doc/widgets.qdoc"]
    rules = _rules(tmp_path)
    assert rules["doc/manual.dox"] == ("docs", True, "text")
    for other in ("server.conf", "Cargo.lock", "tools/release.in", "docs/diagram.img"):
        assert rules[other] == ("other", False, "not documentation or code"), other
    assert rules["completion/meson.build"][0] != "docs"
    summary = explain_sources(tmp_path, load_config(tmp_path)).summary()
    assert summary.startswith("docs 2 (text 2)"), summary


def test_a_page_of_an_unnamed_format_is_searchable_with_its_file_and_line(
    tmp_path: Path, memory: Memory
) -> None:
    write(tmp_path, {"doc/manual.dox": DOXYGEN, "doc/logo.img": ""})
    (tmp_path / "doc/logo.img").write_bytes(PNG)
    assert Indexer(memory).run().errors == []
    hits = memory.search("sprocket teeth torque", mode="keyword", limit=3).results
    assert hits and hits[0].entry.file_path == "doc/manual.dox"
    assert "carries more torque" in hits[0].entry.content
    assert all(h.entry.file_path != "doc/logo.img" for h in hits)


def test_only_the_start_of_a_large_file_of_an_unnamed_format_is_read(tmp_path: Path) -> None:
    """A 3 MB image in the docs is told apart by its first bytes; it is never refused as
    too large (a docs rule), never read whole."""
    (tmp_path / "docs").mkdir()
    big = tmp_path / "docs/scan.raw"
    big.write_bytes(PNG + os.urandom(3_000_000))
    with pytest.raises(FileRefusedError, match="over 2,000,000 bytes"):
        read_project_bytes(tmp_path, Path("docs/scan.raw"))
    start = read_project_bytes(tmp_path, Path("docs/scan.raw"), max_bytes=1_000, start_only=True)
    assert start == big.read_bytes()[:1_000]
    assert _rules(tmp_path)["docs/scan.raw"] == ("other", False, "not documentation or code")


def test_a_file_of_an_unnamed_format_is_text_to_the_readers() -> None:
    assert prose_dialect("doc/manual.dox") == "text"
    assert prose_dialect("completion/meson.build") is None


@pytest.mark.parametrize(
    "rel",
    ["UNLICENSE", "crates/cli/UNLICENSE", "deps/lua/COPYRIGHT", "PATENTS", "fonts/OFL.txt",
     "LICENSES/MIT.txt", "src/lib/licenses/GPL_V2", "LICENSE.md", "COPYING"],
)  # fmt: skip
def test_licence_texts_are_licences_under_every_name(rel: str) -> None:
    assert is_licence(rel)


@pytest.mark.parametrize("rel", ["docs/licensing-faq-answers.md", "src/copy.c", "README"])
def test_a_page_about_licences_is_no_licence(rel: str) -> None:
    assert not is_licence(rel)


def test_licence_texts_stay_out_of_the_docs_under_every_name(tmp_path: Path) -> None:
    write(tmp_path, {
        "README": PROSE, "UNLICENSE": PROSE, "deps/lua/COPYRIGHT": PROSE,
        "LICENSES/Apache-2.0.txt": PROSE,
    })  # fmt: skip
    assert sources(tmp_path) == ["README"]
    rules = _rules(tmp_path)
    assert rules["UNLICENSE"][2] == rules["LICENSES/Apache-2.0.txt"][2] == "licence"


def test_a_document_of_an_unnamed_format_too_large_to_index_says_so(tmp_path: Path) -> None:
    write(tmp_path, {"doc/manual.dox": DOXYGEN * 8_000, "README": PROSE * 8_000})
    rules = _rules(tmp_path)
    for rel in ("doc/manual.dox", "README"):
        assert rules[rel] == ("docs", False, "unreadable or too large"), rel


ETEX = (
    "\\section{Classes}\nClasses are defined using a small language, similar to the module\n"
    "language. A quokka class holds its methods.\n\n\\subsection{Class types}\n"
    "Class types specify the general shape of classes.\n\\begin{verbatim}\nclass c = object end\n"
    "\\end{verbatim}\n"
)
ROFF_TEMPLATE = (
    '.TH TOOL 1 "@DATE@"\n.SH NAME\ntool \\- copy pages\n.SH OPTIONS\n.TP\n.B \\-q\n'
    "Copy the quokka pages quietly.\n"
)


def test_a_latex_document_or_a_man_page_of_an_unnamed_format_is_read_as_one(
    tmp_path: Path, memory: Memory
) -> None:
    """OCaml's manual is LaTeX in ``.etex`` files; a man page's template is ``tool.1.in``."""
    write(tmp_path, {"manual/src/classes.etex": ETEX, "doc/tool.1.in": ROFF_TEMPLATE})
    rules = _rules(tmp_path)
    assert rules["manual/src/classes.etex"] == ("docs", True, "TeX")
    assert rules["doc/tool.1.in"] == ("docs", True, "man page")
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka", mode="keyword", limit=5).results
    titles = {(h.entry.file_path, h.entry.section_title) for h in hits}
    assert ("manual/src/classes.etex", "Classes > Classes") in titles, titles
    assert ("doc/tool.1.in", "TOOL > OPTIONS") in titles, titles
    assert all("\\section" not in h.entry.content for h in hits)


TCL_MAN = (
    "'\\\"\n'\\\" Copyright (c) 1990-1994 The Regents of the University of California.\n"
    '.TH after n 7.5 Tcl "Tcl Built-In Commands"\n.SH NAME\nafter \\- Execute a command later\n'
    ".SH DESCRIPTION\n.PP\nThis command delays the quokka's program, or runs a command\n"
    "in the background some time in the future.\n"
)
LEX = '%{\n#include <stdio.h>\n%}\n%%\n[0-9]+ { printf("quokka"); }\n%%\n'
README_TEMPLATE = (
    "# Quokka @VERSION@\n\n## Building quokka\n\n"
    "Run the configure script, then make. Quokka needs a C compiler and zlib.\n"
)


@pytest.mark.parametrize(
    ("rel", "dialect"),
    [
        ("doc/after.n", "man"),  # Linguist: Roff or Nemerle; the content decides
        ("doc/paper.ms", "man"),  # Roff, Unix Assembly or MAXScript
        ("doc/tmac.roff", "man"),
        ("scan.l", "man"),  # Lex, Lisp or Roff: read, and left out by its content
        ("README.md.in", "markdown"),  # a template configure fills in
        ("doc/guide.rst.in", "restructuredtext"),
        ("doc/tool.1.in", "man"),
        ("config.h.in", None),  # C, as config.h is
    ],
)
def test_roff_by_linguist_and_a_configure_template_by_its_stem(rel: str, dialect: str) -> None:
    assert prose_dialect(rel) == dialect


def test_a_tcl_manual_page_and_a_markdown_template_are_read_as_what_they_are(
    tmp_path: Path, memory: Memory
) -> None:
    write(tmp_path, {"doc/after.n": TCL_MAN, "README.md.in": README_TEMPLATE, "scan.l": LEX})
    rules = _rules(tmp_path)
    assert rules["doc/after.n"] == ("docs", True, "man page")
    assert rules["README.md.in"] == ("docs", True, "markdown")
    assert rules["scan.l"][1] is False
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka", mode="keyword", limit=5).results
    titles = {(h.entry.file_path, h.entry.section_title) for h in hits}
    assert ("doc/after.n", "after > DESCRIPTION") in titles, titles
    assert ("README.md.in", "Quokka @VERSION@ > Building quokka") in titles, titles
    assert "scan.l" not in {h.entry.file_path for h in hits}


APACHE_HEADER = "".join(
    f"# {line}\n"
    for line in (
        "Licensed to the Apache Software Foundation (ASF) under one or more contributor",
        "license agreements. See the NOTICE file distributed with this work for additional",
        "information regarding copyright ownership. The ASF licenses this file to You under",
        "the Apache License, Version 2.0 (the License); you may not use this file except in",
        "compliance with the License. Unless required by applicable law or agreed to in",
        "writing, software distributed under the License is distributed on an AS IS BASIS.",
    )
)


def test_a_file_of_an_unnamed_format_is_judged_after_its_licence_header(tmp_path: Path) -> None:
    """Apache's ``support/envvars-std.in``: six lines of licence read as sentences, and
    the shell code after them is what the file is."""
    write(tmp_path, {
        "support/envvars.in": APACHE_HEADER + 'if test "x$@VAR@" != "x"; then\n  X=1\nfi\n' * 3,
        "doc/widgets.qdoc": "// Copyright (C) 2023 The Qt Company Ltd.\n"
        "// SPDX-License-Identifier: GFDL-1.3\n\n" + QDOC,
    })  # fmt: skip
    rules = _rules(tmp_path)
    assert rules["support/envvars.in"] == ("other", False, "not documentation or code")
    assert rules["doc/widgets.qdoc"] == ("docs", True, "text")


@given(st.text(alphabet=st.sampled_from(list("ab Z.,;:!?()'\"“”‘’-\n\t1_")), max_size=200))
def test_words_are_counted_in_one_pass_as_token_by_token(text: str) -> None:
    assert len(_PROSE_WORDS.findall(text)) == sum(1 for t in text.split() if is_word(t))


GNU_INSTALL = (
    "Basic Installation\n==================\n\n"
    "The configure script guesses the values of system variables. It writes a Makefile.\n\n"
    "Compilers and Options\n=====================\n\n"
    "Some systems need unusual options for the quokka compiler. Give them on the command line.\n"
    "A paragraph's last line.\n------------------------------------------------------------\n\n"
    "Name     Value\n----     -----\n\n"
    "################################## NETWORK #####################################\n\n"
    "# By default the server listens on every interface. Bind it to one address instead.\n"
)


def test_plain_text_titles_are_headings_line_for_line() -> None:
    out = text_as_markdown(GNU_INSTALL).split("\n")
    assert len(out) == GNU_INSTALL.count("\n") + 1
    headings = [line for line in out if line.startswith("#")]
    assert headings == ["## Basic Installation", "## Compilers and Options", "## NETWORK"]
    assert out[1] == out[6] == ""  # the underlines blanked
    assert "\\------------------------------------------------------------" in out  # a rule
    assert "Name     Value" in out and "\\# By default the server listens" in "\n".join(out)


def test_a_second_underline_character_is_a_level_below_the_first() -> None:
    text = "Guide\n=====\n\nInstall\n-------\n\nRun make.\n\nUse\n---\n\nRun it.\n"
    headings = [line for line in text_as_markdown(text).split("\n") if line.startswith("#")]
    assert headings == ["## Guide", "### Install", "### Use"]


@given(st.text(alphabet=st.sampled_from(list("ab #=-~*\n.")), max_size=300))
def test_plain_text_keeps_one_line_for_each_line(text: str) -> None:
    assert text_as_markdown(text).count("\n") == text.count("\n")


def test_a_plain_text_document_is_searchable_by_its_titles(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {"INSTALL": GNU_INSTALL})
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka compiler options", mode="keyword", limit=3).results
    assert hits and (hits[0].entry.file_path, hits[0].entry.section_title) == (
        "INSTALL",
        "INSTALL > Compilers and Options",
    )
