"""Every documentation file is a source unless a rule leaves it out, and says which (issue
50, issue 45 item 14): DocC catalogs, man pages, Vim help and plain-text docs by content,
``linguist-vendored`` docs kept, ``sources --explain`` and the counts by rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from project_files import sources, write

from engine.core.config import load_config
from engine.markdown.plain import odoc_as_markdown, roff_as_markdown, text_kind
from engine.markdown.vim_help import vimdoc_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources
from engine.services.sources import SourceSet

PROSE = (
    "The cache keeps every page it reads. When the disk fills up, the oldest pages go first.\n"
    "Nothing is written back: a page that changed is read again on its next use, so the\n"
    "cache never holds a stale copy of anything the program relies on.\n"
)
VIMDOC = (
    "*oil.txt*  Edit your filesystem like a buffer\n\n"
    "==============================================================================\n"
    "OPTIONS                                                          *oil-options*\n\n"
    "The |oil.setup()| call takes the options below. The quokka mode is off.\n\n"
    " vim:tw=78:ts=8:ft=help:norl:\n"
)
MAN = (
    '.TH FD 1\n.SH NAME\nfd \\- find entries in the filesystem\n.SH OPTIONS\n.TP\n'
    ".B \\-H, \\-\\-hidden\nInclude hidden directories and files in the \\fBquokka\\fR search.\n"
)  # fmt: skip


def _rules(root: Path) -> dict[str, str]:
    """Each file's rule, as ``sources --explain`` reports it."""
    return {f.decision.rel: f.decision.rule for f in explain_sources(root, load_config(root)).files}


def test_a_docc_catalog_and_docs_outside_any_listed_folder_are_sources(tmp_path: Path) -> None:
    catalog = "Sources/ArgumentParser/Documentation.docc"
    write(tmp_path, {
        f"{catalog}/ArgumentParser.md": "# ``ArgumentParser``\n\nParse arguments.\n",
        f"{catalog}/Articles/GettingStarted.md": "# Getting Started\n\nWords.\n",
        f"{catalog}/Tutorials/Basics.tutorial": '@Tutorial(time: 10) {\n  @Intro(title: "A")\n}\n',
        "guide/usage.md": "# Usage\n\nWords.\n",
        "Tests/Fixtures/sample.md": "# Fixture\n",
    })  # fmt: skip
    assert sources(tmp_path) == [
        f"{catalog}/ArgumentParser.md",
        f"{catalog}/Articles/GettingStarted.md",
        f"{catalog}/Tutorials/Basics.tutorial",
        "guide/usage.md",
    ]
    report = explain_sources(tmp_path, load_config(tmp_path))
    assert report.summary().startswith("docs 4 (docc 3, markdown 1)")
    assert "left out: tests 1" in report.summary()


def test_linguist_vendored_only_hides_docs_from_the_language_tally(tmp_path: Path) -> None:
    """sharkdp/fd: ``doc/.gitattributes`` says ``* linguist-vendored``."""
    write(tmp_path, {
        "doc/.gitattributes": "* linguist-vendored\n",
        "doc/release-checklist.md": "# Release checklist\n\n- bump the version\n",
        "doc/fd.1": MAN,
        "doc/screencast.sh": "echo hi\n",
        "examples/guide.md": "# Declared\n",
        ".gitattributes": "examples/guide.md linguist-documentation\n",
    })  # fmt: skip
    assert sources(tmp_path) == ["doc/fd.1", "doc/release-checklist.md", "examples/guide.md"]
    rules = {
        f.decision.rel: f.decision for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["doc/screencast.sh"].rule == "vendored"  # code: the declaration holds
    assert rules["doc/fd.1"].rule == "man page"
    assert rules["examples/guide.md"].rule == "linguist-documentation"


def test_plain_text_is_documentation_by_its_content_not_its_name(tmp_path: Path) -> None:
    write(tmp_path, {
        "requirements.txt": "requests==2.31.0\nclick>=8\n-r dev.txt\n" * 8,
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.19)\nproject(fmt CXX)\n" * 8,
        "LICENSE.txt": PROSE,
        "notes/design.txt": PROSE,
        "doc/oil.txt": VIMDOC,
        "man/tool.1": "not a man page at all\n",
    })  # fmt: skip
    assert sources(tmp_path) == ["doc/oil.txt", "notes/design.txt"]
    rules = _rules(tmp_path)
    assert rules["LICENSE.txt"] == "licence"
    assert rules["requirements.txt"] == rules["man/tool.1"] == "not prose by its content"
    assert (rules["doc/oil.txt"], rules["notes/design.txt"]) == ("vimdoc", "text")


def test_a_file_named_without_an_extension_is_text_by_its_content(
    tmp_path: Path, memory: Memory
) -> None:
    """README, INSTALL, HACKING: the plain-text documents of many C projects (LuaJIT,
    Lua). A build file or a list that reads as no prose is "other", as before; a script is
    code in its ``#!`` line's language (tests/engine/test_scripts.py)."""
    write(tmp_path, {
        "README": PROSE, "doc/INSTALL": PROSE.replace("cache", "installer"),
        "Makefile": "all:\n\tcc -o tool tool.c\n" * 8,
        "bin/tool": "#!/bin/sh\n# The tool reads each page. It keeps them all.\n" + PROSE,
        "BRZO": "(srcs-dep lib)\n(srcs-dep test)\n" * 8,
        "COPYING": PROSE, "NEWS": PROSE, ".mailmap": PROSE,
    })  # fmt: skip
    assert sources(tmp_path) == ["README", "doc/INSTALL"]
    rules = _rules(tmp_path)
    assert rules["README"] == rules["doc/INSTALL"] == "text"
    assert rules["BRZO"] == "not documentation or code"
    assert rules["bin/tool"] == "Shell"
    assert (rules["COPYING"], rules["NEWS"]) == ("licence", "release-notes")
    assert rules[".mailmap"] != "text"
    assert Indexer(memory).run().errors == []
    hits = memory.search("installer pages", mode="keyword", limit=5).results
    assert hits and hits[0].entry.file_path == "doc/INSTALL"


def test_man_pages_and_vim_help_read_as_sections_line_for_line() -> None:
    man = roff_as_markdown(MAN)
    assert man.count("\n") == MAN.count("\n")
    assert "## OPTIONS" in man and "-H, --hidden" in man
    assert "the quokka search" in man and "\\f" not in man
    vim = vimdoc_as_markdown(VIMDOC)
    assert vim.count("\n") == VIMDOC.count("\n")
    assert "## OPTIONS" in vim and "The oil.setup() call" in vim and "====" not in vim
    assert text_kind(VIMDOC, "doc/oil.txt") == "vimdoc"
    assert text_kind("a b c", "notes.txt") is None


def test_man_pages_and_vim_help_are_searchable_by_section(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {"doc/fd.1": MAN, "doc/oil.txt": VIMDOC})
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka", mode="keyword").results
    assert {(h.entry.file_path, h.entry.section_title) for h in hits} == {
        ("doc/fd.1", "FD > OPTIONS"),
        ("doc/oil.txt", "Oil > OPTIONS"),  # the page titled by its file name
    }


def test_cli_sources_explains_each_file_and_refuses_a_path_outside(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "p")
    write(project, {"docs/a.md": "# A\n", "tests/t.md": "# T\n", "CHANGELOG.md": "# 1.0\n"})
    home = tmp_path / "home"
    done = run_cli("sources", "--explain", "docs", "tests", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "in   docs/a.md  (docs, markdown)",
        "out  tests/t.md  (docs, tests: tests/)",
        "docs 1 (markdown 1) · code 0 · left out: tests 1 · other (not docs or code) 0",
    ]
    bad = run_cli("sources", "--explain", str(tmp_path), cwd=project, home=home)
    assert bad.returncode != 0 and "not inside the project" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_an_odoc_page_reads_as_sections_with_code_and_references(tmp_path: Path) -> None:
    page = (
        '{0 Command line interface {%html: <span class="version">%%VERSION%%</span>%}}\n\n'
        "See {!Cmdliner.Arg} and {{!page-cookbook}the cookbook}.{%latex:\\newline%}\n\n"
        "{1:invoke Tool invocation}\n\n{[\ntool [OPTION]…\n]}\n"
    )
    write(tmp_path, {"doc/cli.mld": page})
    assert sources(tmp_path) == ["doc/cli.mld"]
    text = odoc_as_markdown(page)
    assert text.count("\n") == page.count("\n")
    assert text.splitlines()[:3] == ["# Command line interface", "", "See Arg and the cookbook."]
    assert "## Tool invocation\n\n```\ntool [OPTION]…\n```" in text


def test_an_odoc_code_block_of_a_language_is_code_not_headings() -> None:
    """odoc 2's ``{@sh[ … ]}`` and ``{@ocaml name=x.ml[ … ]}`` are code: a shell comment
    in one is no heading (cmdliner's cookbook titled its last 30 sections with one)."""
    page = (
        '{0 Cookbook}\n\n{@sh[\n["dune" "subst"] {dev}\n# the important command\n'
        "cmdliner install\n]}\n\n"
        "{1:conv Conventions}\n\n{@ocaml name=main.ml[\nlet () = exit (main ())\n]}\n"
    )
    text = odoc_as_markdown(page)
    assert text.count("\n") == page.count("\n")
    block = '```sh\n["dune" "subst"] {dev}\n# the important command\ncmdliner install\n```'
    assert block in text
    assert "## Conventions\n\n```ocaml\nlet () = exit (main ())\n```" in text


def test_a_long_vim_help_file_is_known_by_its_last_line_from_a_relative_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = "fzf.txt\tfzf\tLast change: 2024\n" + "Options of the finder, listed. x = 1\n" * 1500
    write(tmp_path, {"doc/fzf.txt": body + "vim:tw=78:sw=2:ts=2:ft=help:norl:nowrap:\n"})
    monkeypatch.chdir(tmp_path.parent)
    root = Path(tmp_path.name)
    cfg = load_config(root)
    assert SourceSet(root, cfg, root / cfg.knowledge_dir).decide("doc/fzf.txt").rule == "vimdoc"


def test_a_listing_of_code_signatures_is_not_a_plain_text_document(tmp_path: Path) -> None:
    """urfave/cli's godoc-current.txt: ``go doc``'s output, the code's own doc comments."""
    entry = (
        "func (cmd *Command) Run(ctx context.Context, args []string) (err error)\n"
        "func (cmd *Command) Names() []string\n"
        "    Run is the entry point to the command, and Names lists every name it has.\n\n"
    )
    assert text_kind(PROSE + entry * 30, "godoc-current.txt") is None
    assert text_kind(PROSE + entry, "notes.txt") == "text"  # a page that shows some code


def test_import_of_a_text_file_that_is_not_documentation_says_how_to_see_why(
    tmp_path: Path,
) -> None:
    project = git_repo(tmp_path / "p")
    write(project, {"requirements.txt": "requests==2.31.0\nclick>=8\n" * 12})
    home = tmp_path / "home"
    done = run_cli("import", "requirements.txt", cwd=project, home=home)
    assert done.returncode == 1
    assert "no documentation file there can be indexed" in done.stderr
    assert "memory-tui sources --explain PATH" in done.stderr and "Traceback" not in done.stderr
    why = run_cli("sources", "--explain", "requirements.txt", cwd=project, home=home)
    assert why.stdout.startswith("out  requirements.txt  (docs, not prose by its content)")


def test_a_man_page_whose_requests_follow_its_macro_definitions_is_one() -> None:
    """Tcl's pages (``thread.n``) open with their comments and a screenful of macro
    definitions: roff's comments (``.\\"``, ``'\\"``) count as roff, as its requests do."""
    page = "'\\\"\n'\\\" Generated by doctools\n'\\\"\n.TH thread n 3.0\n" + (
        '.de AP\n.ie !"\\\\$4"" .TP \\\\$4\n..\n' * 15
    )
    page += ".SH NAME\nthread \\- extension for script access to Tcl threading\n"
    assert text_kind(page, "doc/man/thread.n", "man") == "man"
    assert text_kind("A sentence a person wrote.\n'Quoted,' she said.\n" * 3, "a.1") is None


def test_roff_comments_macro_definitions_and_ignored_blocks_are_blanked() -> None:
    page = (
        '.\\" A comment line\n.de AP\n.ie !"\\\\$4"" .TP \\\\$4\n..\n.SH NAME\n'
        'thread \\- threads for scripts \\" a trailing comment\n.ig\nnot shown\n..\nshown\n'
    )
    markdown = roff_as_markdown(page)
    assert markdown.count("\n") == page.count("\n")
    assert [line for line in markdown.split("\n") if line] == [
        "## NAME",
        "thread - threads for scripts ",
        "shown",
    ]


def test_a_tex_file_is_a_document_by_its_content_not_a_file_of_macros(tmp_path: Path) -> None:
    """A chapter (one ``\\section`` at least) or a whole document is in; a file of macros
    (GNU's ``texinfo.tex`` beside a Texinfo manual, a ``macros.tex``) is not."""
    write(tmp_path, {
        "doc/chapter.tex": "\\section{Sprockets}\nA sprocket turns the chain the quokka"
        " oils every thousand hours, and its teeth decide the speed.\n",
        "doc/texinfo.tex": "\\def\\chapter{\\parsearg\\chapterzzz}\n\\def\\texinfoversion{2024}\n"
        "% The macros that typeset a Texinfo manual, and no sentence of a manual.\n" * 5,
        "doc/macros.tex": "\\newcommand{\\quokka}{\\textsc{Quokka}}\n",
    })  # fmt: skip
    rules = {
        f.decision.rel: (f.decision.included, f.decision.rule)
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["doc/chapter.tex"] == (True, "TeX")
    assert (
        rules["doc/texinfo.tex"] == rules["doc/macros.tex"] == (False, "not prose by its content")
    )


def test_a_file_the_table_names_by_its_whole_name_is_not_text(tmp_path: Path) -> None:
    """``CMakeLists.txt`` is CMake's build file by its name, not a ``.txt`` document."""
    write(tmp_path, {"Sources/CMakeLists.txt": "add_library(Frob frob.c)\n" * 4})
    [found] = explain_sources(tmp_path, load_config(tmp_path)).files
    assert (found.what, found.decision.rule) == ("other", "not documentation or code")


def test_a_community_health_file_in_dot_github_is_documentation(tmp_path: Path) -> None:
    """GitHub reads ``CONTRIBUTING``, ``SECURITY``, ``SUPPORT``, ``GOVERNANCE`` and
    ``CODE_OF_CONDUCT`` from ``.github/`` as from the root: the one hidden folder whose
    files are the project's documentation. Its workflows and templates stay out, unlisted."""
    write(tmp_path, {
        "README.md": "# Frob\n\n" + PROSE,
        ".github/CONTRIBUTING.md": "# Contributing\n\n" + PROSE,
        ".github/SECURITY.md": "# Security\n\n" + PROSE,
        ".github/PULL_REQUEST_TEMPLATE.md": "## What this changes\n\n" + PROSE,
        ".github/ISSUE_TEMPLATE/bug.md": "# Bug\n\n" + PROSE,
        ".github/workflows/ci.yml": "on: push\njobs: {}\n",
        ".github/docs/CONTRIBUTING.md": "# Deeper\n\n" + PROSE,
        ".hidden/CONTRIBUTING.md": "# Elsewhere\n\n" + PROSE,
    })  # fmt: skip
    assert sources(tmp_path) == [".github/CONTRIBUTING.md", ".github/SECURITY.md", "README.md"]
    listed = {f.decision.rel for f in explain_sources(tmp_path, load_config(tmp_path)).files}
    assert listed == {".github/CONTRIBUTING.md", ".github/SECURITY.md", "README.md"}
    cfg = load_config(tmp_path)
    decide = SourceSet(tmp_path, cfg, tmp_path / cfg.knowledge_dir).decide
    assert decide(".github/workflows/ci.yml").rule == "hidden"  # as a watcher asks
    assert decide(".hidden/CONTRIBUTING.md").rule == "hidden"


def test_a_docs_sites_licence_page_does_not_make_it_a_vendored_copy(tmp_path: Path) -> None:
    """pip's Sphinx site is ``docs/html/`` with a ``copyright.rst`` page: a folder below
    the top with a licence of its own reads as someone else's copy, except a docs site's
    own pages. A vendored project that carries its own docs site stays vendored."""
    sphinx = "project = 'frob'\nextensions = ['sphinx.ext.autodoc']\nhtml_theme = 'furo'\n"
    write(tmp_path, {
        "docs/html/conf.py": sphinx,
        "docs/html/copyright.rst": "Copyright\n=========\n\n" + PROSE,
        "docs/html/user_guide.rst": "User guide\n==========\n\n" + PROSE,
        "third_party/lib/LICENSE": "MIT License\n\nPermission is hereby granted...\n",
        "third_party/lib/docs/conf.py": sphinx,
        "third_party/lib/docs/index.rst": "Lib\n===\n\n" + PROSE,
        "README.md": "# Frob\n\n" + PROSE,
    })  # fmt: skip
    assert sources(tmp_path) == ["README.md", "docs/html/user_guide.rst"]
    rules = _rules(tmp_path)
    assert rules["docs/html/copyright.rst"] == "licence"
    assert rules["third_party/lib/docs/index.rst"] == "vendored"


MARKDOWN_TEXT = (
    "# Ecto cheat sheet\n\nHow the quokka repository reads records.\n\n"
    "## Fetching records\n\n```elixir\nRepo.get(Movie, 1)\n```\n"
)


def test_markdown_in_a_text_file_or_an_unnamed_format_is_read_as_markdown(
    tmp_path: Path, memory: Memory
) -> None:
    """pandoc's ``MANUAL.txt``, an ``llms.txt``, ExDoc's ``.cheatmd`` cheat sheets and a
    ``README`` written in markdown are markdown by their content (a heading and fenced
    code, or a heading and links): read as such, their headings are sections, not text
    escaped. A configuration's or a script's ``# comments`` are no headings."""
    links = "# Tool\n\nSee [the guide](docs/guide.md) and [the FAQ](https://example.org/faq).\n"
    config = "# Settings for the quokka daemon\n## Network\nport = 8080\n```\nhost = a\n```\n"
    write(tmp_path, {
        "MANUAL.txt": MARKDOWN_TEXT, "guides/crud.cheatmd": MARKDOWN_TEXT, "README": links,
        "conf/daemon.rc": config.replace("```\nhost = a\n```\n", ""),
        "notes.txt": "# one heading only\n" + PROSE,
    })  # fmt: skip
    rules = _rules(tmp_path)
    assert rules["MANUAL.txt"] == rules["guides/crud.cheatmd"] == rules["README"] == "markdown"
    assert rules["conf/daemon.rc"] == "not documentation or code"
    assert rules["notes.txt"] == "text"  # a heading alone: plain text, as before
    assert text_kind(config, "conf/daemon.rc", "text") == "markdown"  # fenced: it says so
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka repository", mode="keyword", limit=5).results
    assert {(h.entry.file_path, h.entry.section_title) for h in hits} == {
        ("MANUAL.txt", "Ecto cheat sheet > Fetching records"),
        ("guides/crud.cheatmd", "Ecto cheat sheet > Fetching records"),
    }
    assert all("\n## Fetching records\n\n```elixir\n" in h.entry.content for h in hits)


def test_a_docs_page_about_another_project_is_no_vendored_copy(tmp_path: Path) -> None:
    """jotai's ``docs/third-party/bunja.mdx`` documents a library others wrote: a page of
    the project's docs, not a copy of that library; ``third_party/zlib/`` still is one."""
    page = "# Bunja\n\nHow the quokka state works with bunja's scopes, step by step.\n"
    write(tmp_path, {
        "docs/third-party/bunja.mdx": page, "third_party/zlib/README.md": page,
        "third_party/zlib/zlib.c": "int main(void) { return 0; }\n",
    })  # fmt: skip
    rules = _rules(tmp_path)
    assert rules["docs/third-party/bunja.mdx"] == "markdown"
    assert rules["third_party/zlib/README.md"] == "vendored"
    assert sources(tmp_path) == ["docs/third-party/bunja.mdx"]


def test_a_symlink_to_a_source_is_indexed_once_at_the_path_it_names(tmp_path: Path) -> None:
    """``CLAUDE.md`` → ``AGENTS.md`` (nvm, and the projects that keep one file for every
    coding agent): both read, a search answered with the same section twice, in two of its
    first five places. A link to a file left out (a hidden one) is the only way to it: kept."""
    write(tmp_path, {
        "AGENTS.md": "# Agent notes\n\n" + PROSE,
        "README.md": "# Frob\n\n" + PROSE,
        ".notes/guide.md": "# Guide\n\n" + PROSE,
    })  # fmt: skip
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").symlink_to("../.notes/guide.md")
    (tmp_path / "docs" / "gone.md").symlink_to("missing.md")
    assert sources(tmp_path) == ["AGENTS.md", "README.md", "docs/guide.md"]
    cfg = load_config(tmp_path)
    decide = SourceSet(tmp_path, cfg, tmp_path / cfg.knowledge_dir).decide
    link = decide("CLAUDE.md")
    assert (link.included, link.rule, link.detail) == (False, "link to a source", "AGENTS.md")
