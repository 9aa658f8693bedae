"""Which project files are indexed as text besides the knowledge folder.

Everything a project holds that is documentation is a source unless a rule leaves it out:
markdown and its dialects (``.mdx``, a DocC catalog's ``*.docc/`` pages and tutorials),
reStructuredText, AsciiDoc, odoc pages (``.mld``), man pages (roff: ``.1``–``.9``, ``.man``,
``.mdoc``), Vim help and plain-text documents (a ``.txt`` file or one named without an
extension, ``README``, is one when its content reads as one:
:mod:`engine.markdown.plain`), YAML whose string values are mostly prose (a manual kept
as data: :mod:`engine.markdown.yaml_docs`), Jupyter notebooks (their markdown cells and
code: :mod:`engine.markdown.notebooks`), and HTML pages written by hand (not built by a
tool, not a template: :mod:`engine.markdown.html_docs`). Docs tools' configurations
(:mod:`engine.analyzer.doc_sites`) refine what a page is (its title, its version), never
whether it is seen. Code is the analyzer's (:mod:`engine.analyzer.definitions`);
:mod:`engine.services.source_report` explains both, file by file, with the rule that decided.

Left out, each under its rule's name (:class:`SourceDecision`): files git ignores, hidden
files and folders, folders that are never project text (``node_modules``, ``build``…),
the ``sources_exclude`` patterns, licences, and what
:class:`engine.analyzer.noise.NoiseClassifier` calls accompanying material (release notes,
examples, tests and fixtures, vendored and generated files, translations, pages of older
versions) weighed against the project's own declarations (``.gitattributes``, manifests;
``linguist-vendored`` on a doc only hides it from GitHub's language statistics, and
``linguist-documentation`` marks documentation). The ``sources`` setting
(``.gitignore``-style patterns, ``pathspec``'s gitwildmatch) keeps its default patterns to
mean "all of it"; set to other patterns it narrows the docs to those, and a file or folder
it names outright is a source whatever the rules above say (``import PATH``).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.analyzer.comments import after_licence_header
from engine.analyzer.doc_kinds import (
    CONTENT_DECIDES,
    DOCS_FOLDERS,
    is_bare_name,
    is_licence,
    prose_dialect,
)
from engine.analyzer.gitignore import IgnoreRules, Tracked, is_ignored, setting_patterns
from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.scan import DEFAULT_IGNORED, DirectoryFilter, inside, read_gitignore
from engine.core.config import Config
from engine.core.defaults import DEFAULT_SOURCES
from engine.core.errors import EngineError, InvalidInputError
from engine.core.models import Category
from engine.core.validation import parse_category
from engine.guards.files import DEFAULT_MAX_BYTES, read_project_bytes

log = logging.getLogger(__name__)

MAX_SOURCE_FILES = 5_000
"""A walk stops listing after this many source files (a guard against huge trees)."""

_COMMUNITY_FOLDER = ".github"
_COMMUNITY_FILE = re.compile(
    r"^\.github/(?:CONTRIBUTING|SECURITY|SUPPORT|GOVERNANCE|CODE_OF_CONDUCT)(?:\.\w+)?$",
    re.IGNORECASE,
)
"""A community health file GitHub reads from the hidden ``.github/`` folder as well as
from the root or ``docs/`` (GitHub's documentation, "Creating a default community health
file"): the project's own documentation, in the one hidden folder that holds some."""
_TRANSLATION_DIRS = frozenset({"i18n", "l10n", "locales", "translations"})
_LANGUAGE_DIR = re.compile(r"^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$")
_PRIMARY_LANGUAGE = "en"
_NEWS_DIRS = frozenset({"blog", "_posts", "news"})
"""A site's blog: news, like release notes, not documentation."""
_DIALECT_NAMES = {"man": "man page", "yaml": "YAML", "html": "HTML", "xml": "XML"}
NOT_DOCS_BY_CONTENT = "data, not documentation"
"""The rule of a YAML file whose content is configuration or data, not prose, or of an
HTML page that is a template or an app's page: no documentation, as a file of code's
language is none (:mod:`engine.markdown.yaml_docs`, :mod:`engine.markdown.html_docs`)."""
START_BYTES = 65_536
"""How much of a file that nothing in its name proposes as documentation (``README``,
``manual.dox``) is read to decide whether it is one: its kind is told from its start."""
BINARY_SNIFF_BYTES = 8_192
"""A NUL byte in a file's first bytes makes it binary (git's own test)."""
UNREADABLE = "unreadable or too large"
"""The rule of a documentation file that cannot be read whole (:func:`read_project_bytes`)."""
LINK_TO_A_SOURCE = "link to a source"
"""A symlink to a file that is a source under its own path (``CLAUDE.md`` → ``AGENTS.md``,
the one file two agents read): indexed once, at the path the link names, so that a search
does not answer with the same text twice."""
_BY_CONTENT_ONLY = frozenset({"yaml", "html", "xml"})
"""Dialects whose files are "other" (neither documentation nor code) when their content is
no document (and files named without an extension: :func:`_bare_text`)."""
LISTED_BY_MANIFEST = "listed by its manifest"
"""The rule of a page the project's manifest lists as documentation (ex_doc's ``extras``,
Cabal's ``extra-doc-files``, ``.yardopts``: :mod:`engine.analyzer.doc_pages`), whatever
its folder's name; the decision's detail names the manifest."""


@dataclass(frozen=True, slots=True)
class SourceDecision:
    """Whether one file is in the memory, and the rule that decided."""

    rel: str
    included: bool
    rule: str
    """Short and countable: ``markdown``, ``docc``, ``man page``, ``tests``, ``licence``…"""
    detail: str = ""
    """Where the rule applies or why (``tests/``, ``.gitattributes``), or ``""``."""


class SourceSet:
    """The project files that are documentation sources."""

    def __init__(self, root: Path, config: Config, knowledge_dir: Path) -> None:
        self.root = root
        self.tracked = Tracked(root)
        """What git tracks: no pattern ignores it (read on the first path a pattern ignores)."""
        self.noise = NoiseClassifier(root)
        self.include = setting_patterns("sources", config.sources)
        self.exclude = setting_patterns("sources_exclude", config.sources_exclude)
        named = [p for p in config.sources if p not in DEFAULT_SOURCES and _named_path(p)]
        self.explicit = tuple(_named_path(p) for p in named)
        self.everything = set(DEFAULT_SOURCES) <= set(config.sources)
        """Whether every documentation file is a source (``sources`` keeps its default
        patterns), or only those its patterns match."""
        try:
            self.knowledge_prefix = knowledge_dir.relative_to(root).as_posix().rstrip("/") + "/"
        except ValueError:
            self.knowledge_prefix = ""

    def wants(self, rel: str) -> bool:
        """Whether the project-relative posix path ``rel`` is a source (a missing file
        whose name may be one is: its entries go when it does)."""
        return self.decide(rel).included

    def decide(self, rel: str) -> SourceDecision:
        """Whether ``rel`` is a documentation source and the rule that decided (walk
        rules aside: ``.gitignore`` is applied by the walk, :meth:`files`)."""
        dialect = prose_dialect(rel)
        if self.knowledge_prefix and rel.startswith(self.knowledge_prefix):
            return SourceDecision(rel, False, "knowledge folder", self.knowledge_prefix)
        if dialect is None:
            return SourceDecision(rel, False, "not documentation")
        if (target := self._linked(rel)) is not None and self.decide(target).included:
            return SourceDecision(rel, False, LINK_TO_A_SOURCE, target)
        parts = rel.split("/")
        if any(rel == path or rel.startswith(path + "/") for path in self.explicit):
            if self.exclude.match_file(rel):
                return SourceDecision(rel, False, "sources_exclude")
            return self._content(rel, dialect, "named in sources")
        if (passed := self.passed_by(rel)) is not None:
            return passed
        if self.exclude.match_file(rel):
            return SourceDecision(rel, False, "sources_exclude")
        if not self.everything and not self.include.match_file(rel):
            return SourceDecision(rel, False, "not in sources")
        return self._rules(rel, parts, dialect)

    def _linked(self, rel: str) -> str | None:
        """The project-relative path of the file the symlink ``rel`` names, when it is one
        that lies inside the project under another path (``CLAUDE.md`` → ``AGENTS.md``),
        else ``None``."""
        path = self.root / rel
        try:
            if not path.is_symlink():
                return None
            target = path.resolve(strict=True)
            found = target.relative_to(self.root.resolve()).as_posix()
        except (OSError, RuntimeError, ValueError):  # dangling, a loop, outside
            return None
        return found if found != rel and target.is_file() else None

    def passed_by(self, rel: str) -> SourceDecision | None:
        """Why no walk reaches ``rel`` by its path alone (a hidden part, a build or
        dependency folder), or ``None``."""
        parts = rel.split("/")
        if _COMMUNITY_FILE.match(rel):
            return None  # .github/CONTRIBUTING.md: where GitHub looks for it
        if hidden := next((p for p in parts if p.startswith(".")), None):
            return SourceDecision(rel, False, "hidden", hidden)
        folders = ("/".join(parts[: i + 1]) for i in range(len(parts) - 1))
        if skipped := next((f for f in folders if self._never_walked(f)), None):
            return SourceDecision(rel, False, "build or dependency folder", f"{_last(skipped)}/")
        return None

    def _never_walked(self, folder: str) -> bool:
        """Whether no walk enters ``folder`` by its name (a build's output folder git tracks
        a file in is walked: :data:`engine.analyzer.scan.BUILD_OUTPUTS`)."""
        return not _DIRECTORIES.enters(_last(folder), folder, self.tracked)

    def _rules(self, rel: str, parts: list[str], dialect: str) -> SourceDecision:
        """The documented defaults and the project's declarations."""
        if is_licence(rel):
            return SourceDecision(rel, False, "licence")
        if self.noise.ownership.attribute(rel, "linguist-documentation"):
            return self._content(rel, dialect, "linguist-documentation")
        if news := next((p for p in parts[:-1] if p.lower() in _NEWS_DIRS), None):
            return SourceDecision(rel, False, "release-notes", f"{news}/")
        found = self.noise.decide(rel)
        if found is not None:
            return SourceDecision(rel, False, found[0], found[1])
        if self._translation(parts):
            return SourceDecision(rel, False, "translations", "/".join(parts[:2]) + "/")
        decision = self._content(rel, dialect, _DIALECT_NAMES.get(dialect, dialect))
        if decision.included and (manifest := self.noise.listed_page(rel)) is not None:
            return SourceDecision(rel, True, LISTED_BY_MANIFEST, manifest)
        return decision

    def _content(self, rel: str, dialect: str, rule: str) -> SourceDecision:
        """The decision for a file named like documentation: a ``.txt`` file or a man
        page's name is one only when its text reads so (a missing one is kept: its entries
        go)."""
        if dialect not in CONTENT_DECIDES:
            return SourceDecision(rel, True, rule)
        if not (self.root / rel).exists():
            return SourceDecision(rel, True, rule)
        by_content = _bare_text(rel, dialect)  # only its start is read: it may be an image
        if by_content and self.script(rel) is not None:
            return SourceDecision(rel, False, "not documentation")  # code: a script
        start_only = by_content or dialect == "xml"  # a document says so in its first 64 KB
        try:
            data = read_project_bytes(
                self.root, Path(rel), max_bytes=START_BYTES if start_only else DEFAULT_MAX_BYTES,
                start_only=start_only,
            )  # fmt: skip
        except EngineError as exc:
            return SourceDecision(rel, False, UNREADABLE, str(exc))
        if by_content and b"\x00" in data[:BINARY_SNIFF_BYTES]:
            return SourceDecision(rel, False, NOT_DOCS_BY_CONTENT, "binary")
        text = data.decode("utf-8", errors="replace")
        if by_content:  # judged by what follows a licence header
            text = after_licence_header(text)
        kind, refused = _kind_of(text, rel, dialect)
        if kind is None:
            return SourceDecision(rel, False, refused)
        if start_only and len(data) == START_BYTES:  # a document: is the whole too large?
            try:
                size = (self.root / rel).stat().st_size
            except OSError as exc:  # gone since it was read
                return SourceDecision(rel, False, UNREADABLE, str(exc))
            if size > DEFAULT_MAX_BYTES:
                too_large = f"{rel}: over {DEFAULT_MAX_BYTES:,} bytes (it is {size:,})"
                return SourceDecision(rel, False, UNREADABLE, too_large)
        by_kind = rule == _DIALECT_NAMES.get(dialect, dialect)  # "text" may be vimdoc
        return SourceDecision(rel, True, _DIALECT_NAMES.get(kind, kind) if by_kind else rule)

    def script(self, rel: str) -> str | None:
        """The language of ``rel`` when it is a script named without an extension
        (``bin/lwp-request``: its ``#!`` line names the interpreter), else ``None``."""
        # Imported here: the prompt hook's classify_path loads no table of languages.
        from engine.analyzer.languages import SHEBANG_BYTES, is_script_name, script_language

        if not is_script_name(rel.rpartition("/")[2]):
            return None
        try:
            head = read_project_bytes(
                self.root, Path(rel), max_bytes=SHEBANG_BYTES, start_only=True
            )
        except EngineError:
            return None
        return script_language(head)

    def is_data(self, left_out: SourceDecision) -> bool:
        """Whether the file a rule left out (``left_out``) is a YAML file, an HTML page
        or a file named without an extension whose content is configuration, data or a
        template, not documentation (the report's "other"). A file whose format no table
        names, left out by a rule other than its content's, is "other" unread: out either
        way, and a walk meets thousands (Apache's manual translations, ``*.xml.fr``)."""
        rel = left_out.rel
        dialect = prose_dialect(rel)
        if dialect is None or (dialect not in _BY_CONTENT_ONLY and not _bare_text(rel, dialect)):
            return False
        if left_out.rule == UNREADABLE:
            return False  # its content was read: a document too large to index
        if dialect == "xml" or (dialect == "text" and not is_bare_name(rel.rpartition("/")[2])):
            return True  # an unnamed format, or XML: a walk meets thousands
        return self._content(rel, dialect, dialect).rule == NOT_DOCS_BY_CONTENT

    def _translation(self, parts: list[str]) -> bool:
        """``docs/de/…`` beside ``docs/en/…``, or anything under an ``i18n/`` or
        ``locales/`` folder: a translated copy of the docs."""
        if any(p.lower() in _TRANSLATION_DIRS for p in parts[:-1]):
            return True
        return (
            len(parts) > 2
            and parts[0].lower() in DOCS_FOLDERS
            and parts[1] != _PRIMARY_LANGUAGE
            and bool(_LANGUAGE_DIR.match(parts[1]))
            and (self.root / parts[0] / _PRIMARY_LANGUAGE).is_dir()
        )

    def _enters(self, rules: tuple[IgnoreRules, ...], name: str, rel: str) -> bool:
        """Whether the walk goes into the folder ``rel`` (named ``name``)."""
        if f"{rel}/" == self.knowledge_prefix:
            return False
        if rel == _COMMUNITY_FOLDER or rel.startswith(_COMMUNITY_FOLDER + "/"):
            entered = rel == _COMMUNITY_FOLDER  # for its community health files alone
        else:
            entered = _DIRECTORIES.enters(name, rel, self.tracked) or any(
                p == rel or p.startswith(rel + "/") for p in self.explicit
            )
        # the patterns last: asking them may ask git what it tracks
        return entered and not is_ignored(rules, rel, True, self.tracked)

    def files(self) -> list[tuple[str, Path]]:
        """(project-relative path, absolute path) of every source file, sorted by path."""
        found = []
        for rel, ignored in self.walk():
            if ignored or not self.wants(rel):
                continue
            found.append((rel, self.root / rel))
            if len(found) >= MAX_SOURCE_FILES:
                log.warning("more than %d source files; the rest are not indexed", len(found))
                break
        return sorted(found)

    def walk(self) -> Iterator[tuple[str, bool]]:
        """(project-relative path, whether ``.gitignore`` ignores it) of every regular
        file the walk reaches, pruning folders that hold no sources (ignored, hidden,
        build and dependency folders, the knowledge folder).

        Symlinked folders are not entered; symlinked files only when they stay inside.
        """
        root = self.root.resolve()
        pending: list[tuple[Path, str, tuple[IgnoreRules, ...]]] = [(root, "", ())]
        while pending:
            directory, rel_dir, rules = pending.pop()
            rules = rules + read_gitignore(directory, rel_dir)
            try:
                with os.scandir(directory) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                log.warning("cannot list %s: %s", directory, exc.strerror)
                continue
            for entry in entries:
                rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if self._enters(rules, entry.name, rel):
                            pending.append((Path(entry.path), rel, rules))
                        continue
                    if not entry.is_file() or not inside(root, Path(entry.path)):
                        continue
                except OSError:
                    continue
                if rel_dir == _COMMUNITY_FOLDER and not _COMMUNITY_FILE.match(rel):
                    continue  # hidden, and never listed: its workflows, its templates
                yield rel, is_ignored(rules, rel, False, self.tracked)


_DIRECTORIES = DirectoryFilter(DEFAULT_IGNORED)

_FOLDER_CATEGORY = {
    "architecture": Category.ARCHITECTURE,
    "components": Category.COMPONENT,
    "component": Category.COMPONENT,
    "domain": Category.DOMAIN,
    "patterns": Category.PATTERN,
    "pattern": Category.PATTERN,
    "gotchas": Category.GOTCHA,
    "gotcha": Category.GOTCHA,
    "discoveries": Category.DISCOVERY,
}


def _kind_of(text: str, rel: str, dialect: str) -> tuple[str | None, str]:
    """What kind of document ``text`` is by its content (None: none), and the rule that
    leaves it out when it is none. The readers are imported here: a run that meets no such
    file imports no markdown module (tests/engine/test_index_reads.py)."""
    if dialect == "yaml":
        from engine.markdown.yaml_docs import documented_by

        return ("yaml" if documented_by(text) else None), NOT_DOCS_BY_CONTENT
    if dialect == "xml":
        from engine.markdown import xml_docs

        return ("xml" if xml_docs.reads_as_docs(text) else None), NOT_DOCS_BY_CONTENT
    if dialect == "html":
        from engine.markdown import html_docs

        if html_docs.is_generated(text):
            return None, "generated"
        return ("html" if html_docs.reads_as_docs(text) else None), NOT_DOCS_BY_CONTENT
    from engine.markdown.plain import text_kind

    refused = NOT_DOCS_BY_CONTENT if _bare_text(rel, dialect) else "not prose by its content"
    return text_kind(text, rel, dialect), refused


def _bare_text(rel: str, dialect: str | None) -> bool:
    """Whether ``rel`` is a text file by nothing in its name: named without an extension
    (``README``) or with one no table knows (``manual.dox``), the two ways other than
    ``.txt`` that :func:`prose_dialect` says ``text``. One that is no document is "other",
    as a ``.txt`` file named so is not."""
    return dialect == "text" and not rel.lower().endswith(".txt")


def category_for(rel_in_knowledge: Path, declared: str | None) -> Category:
    """Front matter ``category`` if given, else by folder (``patterns/`` → pattern) or
    file name (``gotchas.md`` → gotcha), else general."""
    if declared:
        return parse_category(declared)
    for part in (*rel_in_knowledge.parent.parts, rel_in_knowledge.stem):
        category = _FOLDER_CATEGORY.get(part.lower())
        if category is not None:
            return category
    return Category.GENERAL


def _named_path(pattern: str) -> str:
    """The file or folder a pattern names outright (``/docs/api/**`` → ``docs/api``), or ''."""
    path = pattern.strip().lstrip("/").removesuffix("/**").rstrip("/")
    return "" if not path or any(c in path for c in "*?[!\\") else path


def pattern_for(root: Path, raw: str) -> str:
    """The ``sources`` pattern that names the file or folder ``raw`` (``import PATH``).

    Raises:
        InvalidInputError: the path does not exist, lies outside the project, or is a
            file that is not documentation.
    """
    path = Path(raw).expanduser()
    path = (path if path.is_absolute() else Path.cwd() / path).resolve()
    base = root.resolve()
    if not path.exists():
        raise InvalidInputError(f"{raw}: no such file or folder")
    if not path.is_relative_to(base) or path == base:
        raise InvalidInputError(
            f"{raw}: not inside the project ({base}); only its files can be sources"
        )
    rel = path.relative_to(base).as_posix()
    if path.is_dir():
        return f"/{rel}/**"
    if prose_dialect(rel) is None:
        raise InvalidInputError(
            f"{raw}: only documentation files can be sources: markdown (.md, .markdown, .mdx), "
            "reStructuredText (.rst), AsciiDoc (.adoc), DocC, plain text (.txt), man pages, "
            "YAML that holds prose, Jupyter notebooks (.ipynb), HTML pages written by hand, "
            "XML documents (DocBook, xdoc), "
            "LaTeX (.tex), R's reference pages (.Rd), and the prose formats GitHub Linguist "
            "names (Org, Pod, RDoc, Textile, Texinfo, MediaWiki…)"
        )
    return f"/{rel}"


def _last(folder: str) -> str:
    return folder.rpartition("/")[2]
