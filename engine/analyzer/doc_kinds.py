"""What a file is by its name, before it is read: documentation (markdown and its
dialects, reStructuredText, AsciiDoc, DocC, odoc, plain text, a man page, YAML, a Jupyter
notebook, an HTML page, LaTeX, R's ``.Rd``) or a licence.

The name only proposes: a ``.txt`` file or a name without an extension (``README``), a man
page's name, a YAML file or an HTML page is documentation when its content says so
(:mod:`engine.markdown.plain`, :mod:`engine.markdown.yaml_docs`,
:mod:`engine.markdown.html_docs`), and a licence is never documentation.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from engine.analyzer.linguist import cached_known, cached_prose_language, cached_roff

_DIALECTS = (
    (re.compile(r"\.(?:md|markdown|mdx)$", re.IGNORECASE), "markdown"),
    (re.compile(r"\.rst$", re.IGNORECASE), "restructuredtext"),
    (re.compile(r"\.(?:adoc|asciidoc)$", re.IGNORECASE), "asciidoc"),
    (re.compile(r"\.mld$", re.IGNORECASE), "odoc"),
    (re.compile(r"\.txt$", re.IGNORECASE), "text"),
    (re.compile(r"\.(?:man|mdoc|[1-9][a-z]{0,3})$", re.IGNORECASE), "man"),
    (re.compile(r"\.ya?ml$", re.IGNORECASE), "yaml"),
    (re.compile(r"\.ipynb$", re.IGNORECASE), "notebook"),
    (re.compile(r"\.(?:html?|xhtml)$", re.IGNORECASE), "html"),
    (re.compile(r"\.(?:xml|dbk|docbook|sgml?)$", re.IGNORECASE), "xml"),
    (re.compile(r"\.(?:tex|ltx)$", re.IGNORECASE), "TeX"),
    (re.compile(r"\.rd$", re.IGNORECASE), "Rd"),
)
_PROSE_NAME = re.compile(
    "|".join([*(pattern.pattern for pattern, _ in _DIALECTS), r"\.tutorial$"]), re.IGNORECASE
)
"""Any name :data:`_DIALECTS` gives a dialect, and a DocC tutorial's (``.tutorial``), in one
pattern: every file of a walk is asked."""
LICENCE_NAME = re.compile(
    r"^(?:(?:un)?licen[cs]e|copying|copyright|notice|patents|ofl)(?:[-_.][\w.-]*)?$",
    re.IGNORECASE,
)
"""A licence file's name, as GitHub's licence detection (licensee) names one: ``LICENSE``,
``LICENCE.txt``, ``UNLICENSE``, ``COPYING``, ``PATENTS``, ``OFL.txt``; and ``NOTICE.md``
(Apache's), ``COPYRIGHT`` (Lua's, Debian's)."""
DOCS_FOLDERS = frozenset({"docs", "doc", "documentation"})
"""Folders that hold a project's own documentation pages by their name (compared in lower
case): what is below one is among the pages, whatever a docs tool declares."""
LICENCE_FOLDERS = frozenset({"licenses", "licences"})
"""A folder of licence texts (REUSE's ``LICENSES/``, a library's ``licenses/`` that it
shows its users): every file in it is a licence."""
TEMPLATE_SUFFIX = ".in"
"""The suffix of a file that a build's configure step fills in (autoconf's
``AC_CONFIG_FILES``, CMake's and Meson's ``configure_file``): ``README.md.in`` is markdown."""
LITERATE_SUFFIX = ".fsx"
"""An F# script, which fsdocs (FSharp.Formatting) builds into a page when it is in the
documentation folder (its "Literate Scripts": markdown in ``(** … *)`` comments around the
code, :mod:`engine.markdown.literate`); a script elsewhere (``build.fsx``) is code."""
CONTENT_DECIDES = frozenset({"text", "man", "yaml", "html", "xml", "TeX"})
"""Dialects whose files are documentation only when their content says so."""


LINGUIST_DIALECTS = {
    "Markdown": "markdown",
    "RMarkdown": "markdown",
    "Gemini": "markdown",
    "reStructuredText": "restructuredtext",
    "AsciiDoc": "asciidoc",
}
"""Linguist's prose languages that a reader of this project reads as its own dialect (R
Markdown and Quarto pages, and Gemini's gemtext, are markdown to it); the others keep
Linguist's name as their dialect (``Org``, ``Pod/Pod 6``: :mod:`engine.markdown.prose_markup`)."""
NOT_DOCUMENTATION = frozenset({"Gettext Catalog"})
"""Prose languages that are no documentation: a ``.po`` catalog translates a program's
messages."""


def linguist_dialect(name: str) -> str | None:
    """The dialect of a file named ``name`` by GitHub Linguist's prose languages (module
    :mod:`engine.analyzer.linguist`): those its extension can only be, or ``man`` where
    it may be roff (markup Linguist names ``Roff``, whose content then decides), or
    ``None``."""
    first = name.find(".", 1)
    if first <= 0:
        return None
    language = cached_prose_language(name[first:].lower())
    if language is None and cached_roff(name[first:].lower()):
        return "man"  # Tcl's doc/*.n, an ms document: a roff document by its content
    if language is None or language in NOT_DOCUMENTATION:
        return None
    return LINGUIST_DIALECTS.get(language, language)


def is_prose_name(rel: str) -> bool:
    """Whether ``rel`` is named like a documentation file; its content decides the rest.

    ``linguist-vendored`` on such a file only keeps it out of GitHub's language statistics
    (fd marks its whole ``doc/`` so): it is someone else's only by its folder (``vendor/``,
    a submodule, a copy with a licence of its own)."""
    return (
        _PROSE_NAME.search(rel) is not None or linguist_dialect(rel.rpartition("/")[2]) is not None
    )


def prose_dialect(rel: str) -> str | None:
    """The documentation dialect the project-relative path ``rel`` is named for, or
    ``None``: ``markdown``, ``docc`` (a page or tutorial of a DocC catalog, a
    ``*.docc/`` folder), ``restructuredtext``, ``asciidoc``, ``odoc``, ``text``, ``man``,
    ``yaml`` or ``html`` (the last four to be confirmed by content; a name without an
    extension that no code has is ``text``), ``notebook`` (Jupyter), ``TeX`` (LaTeX),
    ``Rd`` (R's documentation, which Linguist counts as R code), else
    the prose language GitHub Linguist names for it (:func:`linguist_dialect`: ``Org``,
    ``Pod/Pod 6``, ``Texinfo``…), or ``fsdocs`` (an F# literate script in a documentation
    folder, :data:`LITERATE_SUFFIX`)."""
    if rel.lower().endswith(TEMPLATE_SUFFIX) and (stem := prose_dialect(rel[:-3])) is not None:
        return stem  # README.md.in: the template configure fills in is what it makes
    parts = rel.split("/")
    in_docc = any(p.lower().endswith(".docc") for p in parts[:-1])
    if in_docc and parts[-1].lower().endswith((".md", ".tutorial")):
        return "docc"
    # Imported here: the prompt hook's classify_path loads no table of languages.
    from engine.analyzer.languages import FILE_NAMES

    if parts[-1] in FILE_NAMES:
        return None  # CMakeLists.txt: a build file, by its whole name
    if parts[-1].lower().endswith(LITERATE_SUFFIX) and any(
        p.lower() in DOCS_FOLDERS for p in parts[:-1]
    ):
        return "fsdocs"  # docs/tutorial.fsx: a page of prose comments around its F# code
    for pattern, dialect in _DIALECTS:
        if pattern.search(parts[-1]):
            return dialect
    if is_bare_name(parts[-1]):
        # Imported here: the prompt hook's classify_path loads no table of languages.
        from engine.analyzer.languages import language_of

        if language_of(parts[-1]) is None:  # README, INSTALL: text, if its content reads so
            return "text"
        return None
    return linguist_dialect(parts[-1]) or ("text" if unnamed_format(parts[-1]) else None)


CONFIRMED_BY_CONTENT = frozenset({"text", "man", "yaml", "html", "xml"})
"""Dialects a name only proposes: the file is documentation when its content reads so."""


def documentation_by_name(rel: str) -> bool:
    """Whether ``rel`` is documentation by its name alone (a dialect no content has to
    confirm): R's reference pages (``man/str_c.Rd``) are the docs reader's, although
    Linguist's table counts ``.rd`` as R code."""
    dialect = prose_dialect(rel)
    return dialect is not None and dialect not in CONFIRMED_BY_CONTENT


def unnamed_format(name: str) -> bool:
    """Whether no table names the format of the file ``name`` (which has an extension):
    not this project's table of languages, not GitHub Linguist's extensions (any type:
    code, markup, data or prose), not Pygments' lexers' file-name patterns (which name
    files as well as extensions: ``meson.build`` is Meson, ``nginx.conf`` nginx's
    configuration). Doxygen's ``manual.dox``, Qt's ``.qdoc`` pages, ``README.old`` and
    ``redis.conf`` are such files: ``text`` whose content decides, as a ``README``'s does.
    The next layout nobody listed is in when it reads as sentences, and out (neither
    documentation nor code) when it is data, configuration or binary."""
    first = name.find(".", 1)
    if first <= 0 or cached_known(name[first:].lower()):
        return False
    # Imported here: the prompt hook's classify_path loads neither table.
    from engine.analyzer.comment_syntax import lexer_names
    from engine.analyzer.languages import language_of

    return language_of(name) is None and not lexer_names(name)


_RENDERED = frozenset({".html", ".htm", ".xhtml", ".pdf", ".ps", ".dvi", ".txt"})
"""What a documentation tool renders a page into (a page, a print, plain text)."""
_FORMATTED_MAN = frozenset({".0", ".cat"})
"""A man page formatted by ``nroff`` (BSD's ``catman`` pages): ``bash.0`` from ``bash.1``."""
_TEXINFO = frozenset({".texi", ".texinfo", ".txi"})
_MARKUP_SOURCES = _TEXINFO | {
    ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".pod", ".ms", ".me", ".tex", ".ronn",
    ".org", ".rdoc", ".xml", ".dbk", ".docbook", ".scd", ".man", ".mdoc",
}  # fmt: skip
"""The formats a page is written in and rendered from, roff's man pages besides."""
_KNITTED = frozenset({".rmd", ".rmarkdown", ".qmd"})
_KNITTED_INTO = frozenset({".md", ".markdown"})
"""R Markdown and Quarto documents, run and rendered to Markdown (rmarkdown's
``github_document``, Quarto's ``gfm``): an R package's ``README.md`` is made from its
``README.Rmd``, the code's output written in."""
_EXPORTED_TEXINFO = frozenset({".org"})
"""Markup that a tool exports to Texinfo for makeinfo (Org mode's ``ox-texinfo``: an Emacs
package's ``docs/transient.org`` beside the ``transient.texi`` made from it); makeinfo's
own input is written by hand otherwise."""
_MAN_PAGE = re.compile(r"\.[1-9][a-z]{0,3}$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Siblings:
    """The files of one folder, as :func:`rendered_from` looks them up: by stem."""

    by_stem: dict[str, tuple[str, ...]]
    """Lower-cased name without its last suffix → the names (sorted): ``bash`` → ``bash.0``,
    ``bash.1``, ``bash.html``."""
    texinfo: str | None
    """The folder's first Texinfo source, if it holds one."""
    newest: dict[tuple[str, str], tuple[tuple[int, ...], str]]
    """Names that differ only by a version (:func:`versioned_name`) → the highest version
    among them and its name: ``("inspect-", ".rockspec")`` → ``inspect-3.1.3-0.rockspec``."""

    @classmethod
    def of(cls, names: Collection[str]) -> Siblings:
        by_stem: dict[str, list[str]] = {}
        newest: dict[tuple[str, str], tuple[tuple[int, ...], str]] = {}
        for name in sorted(names):
            stem, dot, _ = name.rpartition(".")
            if dot and stem:
                by_stem.setdefault(stem.lower(), []).append(name)
            if (versioned := versioned_name(name)) is not None:
                key, version = versioned
                newest[key] = max(newest.get(key, (version, name)), (version, name))
        texinfo = next((n for n in sorted(names) if _suffix(n) in _TEXINFO), None)
        return cls({stem: tuple(found) for stem, found in by_stem.items()}, texinfo, newest)


_VERSIONED = re.compile(r"(?<![^-_.v])v?(\d+(?:\.\d+)+(?:-\d+)?)(?=\.[A-Za-z]|$)")
"""A release's version written in a file name, right before its suffix: ``3.1.3-0`` in
``inspect-3.1.3-0.rockspec`` (LuaRocks' ``<package>-<version>-<revision>.rockspec``),
``1.2`` in ``foo_v1.2.spec``; two numbers at least, so ``test2.lua`` names no version."""


def versioned_name(name: str) -> tuple[tuple[str, str], tuple[int, ...]] | None:
    """``name`` without its version (what comes before and after it) and the version as
    numbers, where ``name`` carries one (:data:`_VERSIONED`), else ``None``."""
    found = _VERSIONED.search(name)
    if found is None or found.start() == 0:
        return None
    version = tuple(int(n) for n in re.findall(r"\d+", found.group(1)))
    return (name[: found.start()].lower(), name[found.end() :].lower()), version


def newer_release(name: str, siblings: Siblings) -> str | None:
    """The name beside ``name`` that differs from it only by a higher version
    (``inspect-3.1.3-0.rockspec`` beside ``inspect-1.2-2.rockspec``), or ``None``: a
    package manager's specification, a schema or a script kept once per release, whose
    older copies repeat the current one."""
    versioned = versioned_name(name)
    if versioned is None:
        return None
    key, version = versioned
    top_version, top = siblings.newest.get(key, (version, name))
    return top if top_version > version else None


def rendered_from(name: str, siblings: Siblings) -> str | None:
    """The source a documentation file named ``name`` was built from, among the files
    beside it (``siblings``), or ``None``: a page, a print or plain text rendered from a
    page of the same stem written in a markup or roff (``bash.html`` and ``article.txt``
    from ``bash.1`` and ``article.ms``), a formatted man page from its roff (``bash.0``),
    an Info file from the Texinfo beside it (makeinfo's output: ``bash.info`` beside
    ``bashref.texi``), a man page from the page named after it (``tool.1`` from
    ``tool.1.ronn``, ``tool.1.scd`` or configure's ``tool.1.in``), a Texinfo manual
    exported from the Org document of its stem (``transient.texi`` from
    ``transient.org``), Markdown knitted from R Markdown or Quarto (``README.md`` from
    ``README.Rmd``). Both kept, the memory would hold the same text twice and answer
    with it twice; the source is the one people edit."""
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem:
        return None
    extension = "." + extension.lower()
    if extension == ".info":  # the Texinfo of its stem, else the folder's first
        own = siblings.by_stem.get(stem.lower(), ())
        return next((n for n in own if _suffix(n) in _TEXINFO), siblings.texinfo)
    if _MAN_PAGE.search(name) and (named := siblings.by_stem.get(name.lower())):
        return named[0]  # tool.1.ronn beside tool.1
    for sibling in siblings.by_stem.get(stem.lower(), ()):
        if sibling == name:
            continue
        if extension in _FORMATTED_MAN and _MAN_PAGE.search(sibling):
            return sibling
        if extension in _TEXINFO and _suffix(sibling) in _EXPORTED_TEXINFO:
            return sibling
        if extension in _RENDERED and (
            _suffix(sibling) in _MARKUP_SOURCES or _MAN_PAGE.search(sibling)
        ):
            return sibling
        if extension in _KNITTED_INTO and _suffix(sibling) in _KNITTED:
            return sibling
    return None


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def is_bare_name(name: str) -> bool:
    """Whether the file name ``name`` has no extension (``README``, ``INSTALL``; a hidden
    file's name, ``.gitignore``, is none); a name that code has (``Makefile``,
    ``Dockerfile``) is the analyzer's."""
    return "." not in name


def is_licence(rel: str) -> bool:
    """Whether the file ``rel`` is a licence (``LICENSE``, ``COPYING.txt``…)."""
    folder, _, name = rel.rpartition("/")
    if LICENCE_NAME.match(name) is not None:
        return True
    return folder.rpartition("/")[2].lower() in LICENCE_FOLDERS


def listing(folder: Path) -> list[os.DirEntry[str]]:
    """The entries of ``folder``; none when it cannot be read."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError:
        return []
