"""A script named without an extension (``bin/lwp-request``, ``script/server``) is code in
the language its ``#!`` line's interpreter runs: analysed, cut into definitions, searchable
and explained as code, never read as a document, whatever its comments say."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.analysis import analyze
from engine.analyzer.definitions import definition_drafts
from engine.analyzer.languages import is_script_name, path_language, script_language
from engine.core.config import load_config
from engine.services.discovery import run_discovery
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

PERL_TOOL = (
    "#!/usr/bin/perl -w\n\n"
    "=head1 NAME\n\nfetch-page - download a page to a local file\n\n"
    "=head1 SYNOPSIS\n\nThis program fetches the page at a URL and writes it to a file.\n"
    "It follows redirects and keeps the server's modification time on the file.\n\n"
    "=cut\n\n"
    "use strict;\n\nsub fetch_page {\n    my ($url, $file) = @_;\n"
    "    return mirror($url, $file);\n}\n"
)
PYTHON_TOOL = (
    "#!/usr/bin/env python3\n"
    '"""Rotate the sprocket logs."""\n\n'
    "def rotate_sprocket_logs(folder):\n    return sorted(folder)\n"
)
PROSE = (
    "Sprockets are set up once per machine. Read the chapter on chains before you start,\n"
    "and keep the housing closed while the gears turn: the bearings are sealed for life.\n"
)


@pytest.mark.parametrize(
    ("head", "language"),
    [
        (b"#!/usr/bin/perl -w\nuse strict;\n", "Perl"),
        (b"#!perl\n", "Perl"),
        (b"#!/usr/bin/env python3.11\n", "Python"),
        (b"#!/usr/bin/env -S node --no-warnings\n", "JavaScript"),
        (b"#!/bin/sh\nexec foo\n", "Shell"),
        (b"#!/usr/bin/env bash\n", "Shell"),
        (b"#!/usr/bin/env ruby\n", "Ruby"),
        (b"#!/usr/bin/awk -f\n", None),  # no table names awk as a program
        (b"#!/usr/local/bin/no-such-interpreter\n", None),
        (b"# a comment, not a #! line\n", None),
        (b"", None),
        (b"#!\xff\xfe/bin/sh\n", None),  # not text
    ],
)
def test_a_scripts_language_is_its_interpreters(head: bytes, language: str | None) -> None:
    assert script_language(head) == language


def test_only_a_name_no_table_knows_is_read_for_its_interpreter() -> None:
    assert is_script_name("lwp-request")
    assert not is_script_name("Makefile")  # a build file by its name
    assert not is_script_name("tool.py")
    assert not is_script_name(".envrc")  # hidden: the walk never reaches it
    assert path_language("bin/tool", {"bin/tool": "Perl"}) == "Perl"
    assert path_language("bin/tool.py", {}) == "Python"
    assert path_language("bin/tool", {}) is None


def _project(root: Path) -> Path:
    write(
        root,
        {
            "bin/fetch-page": PERL_TOOL,
            "script/rotate": PYTHON_TOOL,
            "bin/notes": PROSE,  # no #! line: text whose content decides
            "tests/helpers/serve": "#!/bin/sh\nexec python -m http.server\n",
            "README.md": "# Sprockets\n\n" + PROSE,
        },
    )
    return root


def test_the_analysis_takes_a_script_as_code_in_its_language(tmp_path: Path) -> None:
    analysis = analyze(_project(tmp_path))
    assert analysis.scripts == {
        "bin/fetch-page": "Perl",
        "script/rotate": "Python",
        "tests/helpers/serve": "Shell",
    }
    assert "bin/notes" not in analysis.files  # read for its #! line, and not a script
    assert {s.name for s in analysis.symbols if s.file == "script/rotate"} == {
        "rotate_sprocket_logs"
    }
    drafts = definition_drafts(tmp_path, sorted(analysis.files), scripts=analysis.scripts)
    cut = {d.file_path for d in drafts}
    assert {"bin/fetch-page", "script/rotate"} <= cut
    assert "tests/helpers/serve" not in cut  # a test's helper, as a test's code is
    assert not definition_drafts(tmp_path, ["bin/fetch-page"])  # without the analysis' word


def test_sources_explain_a_script_as_code_and_never_as_a_document(tmp_path: Path) -> None:
    _project(tmp_path)
    rules = {
        f.decision.rel: (f.what, f.decision.included, f.decision.rule)
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["bin/fetch-page"][:2] == ("code", True)  # its Pod reads as prose: still code
    assert rules["script/rotate"][:2] == ("code", True)
    assert rules["tests/helpers/serve"] == ("code", False, "tests")
    assert rules["bin/notes"] == ("docs", True, "text")
    assert "bin/fetch-page" not in sources(tmp_path)
    assert "bin/notes" in sources(tmp_path)


def test_a_scripts_definitions_are_searchable(tmp_path: Path, memory: Memory) -> None:
    _project(tmp_path)
    run_discovery(memory)
    found = memory.search("rotate_sprocket_logs", mode="keyword", limit=5)
    assert [r.entry.file_path for r in found.results][:1] == ["script/rotate"]
    found = memory.search("fetch_page mirror", mode="keyword", limit=5)
    assert "bin/fetch-page" in {r.entry.file_path for r in found.results}
