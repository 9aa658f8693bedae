"""Which project files are indexed as text besides the knowledge folder.

The project's own documentation (the README, top-level markdown, ``docs/``) answers most
of a newcomer's questions, so it is indexed chunk by chunk like the knowledge folder and
kept fresh the same way (incremental index, git hooks, watch). The ``sources`` and
``sources_exclude`` settings are ``.gitignore``-style patterns (``pathspec``'s
gitwildmatch: a pattern without a slash matches at any depth, a leading ``/`` anchors it
to the root, ``**`` crosses folders).

Besides the patterns, while ``sources`` keeps its default ones, the markdown of every docs
folder that the project's docs tools declare (mdBook's ``book.toml``, ``mkdocs.yml``,
Sphinx's ``conf.py``, Docusaurus, Hugo, Zola, Jekyll, VitePress, VuePress, Antora: see
:mod:`engine.analyzer.doc_sites`); a page there is never an example or a test by its
folder's name (:meth:`engine.analyzer.noise.NoiseClassifier.doc_root`).

Left out unless a pattern names the file exactly: hidden files and folders, files git
ignores, folders that are never project text (``node_modules``, ``.venv``…), and what
:func:`engine.analyzer.noise.classify_path` calls noise (release notes, examples, tests,
vendored and generated files) — the analyzer describes those in one summary each. When
``docs/`` holds translations (``docs/en``, ``docs/de``…), only the English pages are read.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

from pathspec import GitIgnoreSpec

from engine.analyzer.gitignore import IgnoreRule, is_ignored
from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.scan import DEFAULT_IGNORED, DirectoryFilter, inside, read_gitignore
from engine.core.config import Config
from engine.core.defaults import DEFAULT_SOURCES
from engine.core.errors import InvalidInputError
from engine.core.models import Category
from engine.core.validation import parse_category

log = logging.getLogger(__name__)

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".adoc", ".asciidoc")
"""Only markdown, reStructuredText and AsciiDoc are read as sources, whatever the patterns
match."""
MAX_SOURCE_FILES = 5_000
"""A walk stops listing after this many source files (a guard against huge trees)."""

_TRANSLATION_DIRS = frozenset({"i18n", "l10n", "locales", "translations"})
_LANGUAGE_DIR = re.compile(r"^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$")
_PRIMARY_LANGUAGE = "en"


class SourceSet:
    """The project files that the ``sources`` settings select."""

    def __init__(self, root: Path, config: Config, knowledge_dir: Path) -> None:
        self.root = root
        self.noise = NoiseClassifier(root)
        self.include = GitIgnoreSpec.from_lines(config.sources)
        self.exclude = GitIgnoreSpec.from_lines(config.sources_exclude)
        self.explicit = tuple(_named_path(p) for p in config.sources if _named_path(p))
        self.declared = set(DEFAULT_SOURCES) <= set(config.sources)
        """Whether the docs folders the project's docs tools declare are sources too (as
        long as ``sources`` keeps the default patterns)."""
        try:
            self.knowledge_prefix = knowledge_dir.relative_to(root).as_posix().rstrip("/") + "/"
        except ValueError:
            self.knowledge_prefix = ""

    def wants(self, rel: str) -> bool:
        """Whether the project-relative posix path ``rel`` is a source (by name alone)."""
        if not rel.lower().endswith(MARKDOWN_SUFFIXES) or rel.startswith(self.knowledge_prefix):
            return False
        if any(rel == path or rel.startswith(path + "/") for path in self.explicit):
            return not self.exclude.match_file(rel)  # named by the user: noise or not
        parts = rel.split("/")
        if any(p.startswith(".") for p in parts) or any(_never_walked(p) for p in parts[:-1]):
            return False
        if self.exclude.match_file(rel) or not (
            self.include.match_file(rel) or (self.declared and self.noise.doc_root(rel))
        ):
            return False
        return self.noise.kind(rel) is None and not self._translation(parts)

    def _enters(
        self, dirs: DirectoryFilter, rules: tuple[IgnoreRule, ...], name: str, rel: str
    ) -> bool:
        """Whether the walk goes into the folder ``rel`` (named ``name``)."""
        if f"{rel}/" == self.knowledge_prefix or is_ignored(rules, rel, True):
            return False
        return not dirs.skips(name) or any(
            p == rel or p.startswith(rel + "/") for p in self.explicit
        )

    def _translation(self, parts: list[str]) -> bool:
        """``docs/de/…`` beside ``docs/en/…``, or anything under an ``i18n/`` or
        ``locales/`` folder: a translated copy of the docs."""
        if any(p.lower() in _TRANSLATION_DIRS for p in parts[:-1]):
            return True
        return (
            len(parts) > 2
            and parts[0] in ("docs", "doc")
            and parts[1] != _PRIMARY_LANGUAGE
            and bool(_LANGUAGE_DIR.match(parts[1]))
            and (self.root / parts[0] / _PRIMARY_LANGUAGE).is_dir()
        )

    def files(self) -> list[tuple[str, Path]]:
        """(project-relative path, absolute path) of every source file, sorted by path."""
        found = []
        for rel in self._walk():
            found.append((rel, self.root / rel))
            if len(found) >= MAX_SOURCE_FILES:
                log.warning("more than %d source files; the rest are not indexed", len(found))
                break
        return sorted(found)

    def _walk(self) -> Iterator[str]:
        """Project-relative paths of wanted regular files, pruning what can hold none.

        Symlinked folders are not entered; symlinked files only when they stay inside.
        """
        root = self.root.resolve()
        dirs = _DIRECTORIES
        pending: list[tuple[Path, str, tuple[IgnoreRule, ...]]] = [(root, "", ())]
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
                        if self._enters(dirs, rules, entry.name, rel):
                            pending.append((Path(entry.path), rel, rules))
                        continue
                    if not self.wants(rel) or is_ignored(rules, rel, False):
                        continue
                    if not entry.is_file() or not inside(root, Path(entry.path)):
                        continue
                except OSError:
                    continue
                yield rel


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
            file that is not markdown.
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
    if not rel.lower().endswith(MARKDOWN_SUFFIXES):
        suffixes = ", ".join(MARKDOWN_SUFFIXES)
        raise InvalidInputError(
            f"{raw}: only markdown, reStructuredText and AsciiDoc files ({suffixes}) can be sources"
        )
    return f"/{rel}"


def _never_walked(name: str) -> bool:
    return _DIRECTORIES.skips(name)
