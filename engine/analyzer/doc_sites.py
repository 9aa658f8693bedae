"""Where a project's documentation lives, read from its documentation tool's configuration.

A project that builds a docs site says where the pages are: mdBook's ``book.toml``
(``[book] src``, default ``src``), MkDocs' ``mkdocs.yml`` (``docs_dir``, default ``docs``),
Sphinx's ``conf.py`` (its own folder is the source folder), Docusaurus'
``docusaurus.config.*`` (``docs/`` beside it), Hugo's ``hugo.toml`` or a ``config.toml``
with ``baseURL`` (``contentDir``, default ``content``), Zola's ``config.toml`` with
``base_url`` (``content/``), Jekyll's ``_config.yml`` (its collections; the site folder
itself when it is not the project root), a VitePress or VuePress site (the folder holding
``.vitepress/`` or ``.vuepress/``) and Antora's ``antora.yml`` (``modules/``). Blogs and
Jekyll's ``_posts`` are news, not documentation, and are not roots.

Configuration is parsed, never run: TOML by :mod:`tomllib`, YAML by a safe loader that
reads tags it does not know (MkDocs' ``!!python/name:…``, ``!ENV``) as nothing, Python by
:mod:`ast`, JSON by :mod:`json`. A root must lie inside the project, reached through no
symlink (:func:`engine.guards.files.resolve_inside`), and must not be the project root.
"""

from __future__ import annotations

import ast
import json
import logging
import posixpath
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from engine.core.errors import InvalidInputError, NotFoundError
from engine.guards.files import resolve_inside

log = logging.getLogger(__name__)

MARKER_DIRS = frozenset({".vitepress", ".vuepress"})
"""Hidden folders whose parent is a docs site's source folder."""

_SPHINX_SETTINGS = frozenset(
    {"extensions", "html_theme", "master_doc", "root_doc", "source_suffix", "templates_path"}
)


class _TolerantLoader(yaml.SafeLoader):
    """PyYAML's safe loader, reading any tag it does not know as ``None``."""


def _unknown_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:
    return None


_TolerantLoader.add_multi_constructor("", _unknown_tag)


def _toml(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _yaml(text: str) -> dict[str, Any] | None:
    try:
        doc = yaml.load(text, Loader=_TolerantLoader)  # a SafeLoader subclass: no code runs
    except yaml.YAMLError:
        return None
    return doc if isinstance(doc, dict) else None


def _json(text: str) -> dict[str, Any] | None:
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _text_or(value: object, default: str) -> str:
    return value.strip() if isinstance(value, str) and value.strip() else default


def _mdbook(text: str) -> list[str]:
    """A ``book.toml`` that cannot be parsed declares nothing (nor does any other file)."""
    config = _toml(text)
    if config is None:
        return []
    book = config.get("book")
    return [_text_or(book.get("src") if isinstance(book, dict) else None, "src")]


def _mkdocs(text: str) -> list[str]:
    config = _yaml(text)
    return [] if config is None else [_text_or(config.get("docs_dir"), "docs")]


def _sphinx(text: str) -> list[str]:
    """The folder of a ``conf.py`` that sets Sphinx's own settings (not any ``conf.py``)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    return ["."] if names & _SPHINX_SETTINGS else []


def _hugo(config: dict[str, Any] | None) -> list[str]:
    if config is None:
        return []
    return [_text_or(config.get("contentDir") or config.get("contentdir"), "content")]


def _site_config(config: dict[str, Any] | None) -> list[str]:
    """A ``config.toml``/``config.yaml``: Hugo's when it has ``baseURL``, Zola's when it
    has ``base_url``; any other tool's config names no docs."""
    if config is None:
        return []
    if "baseURL" in config or "baseurl" in config:
        return _hugo(config)
    return ["content"] if "base_url" in config else []


def _jekyll(text: str) -> list[str]:
    """A Jekyll site's collections (``_posts`` is its blog), and the site folder itself."""
    config = _yaml(text)
    if config is None:
        return []
    base = _text_or(config.get("collections_dir"), ".")
    collections = config.get("collections")
    names = list(collections) if isinstance(collections, dict | list) else []
    found = [posixpath.join(base, f"_{n}") for n in names if isinstance(n, str) and n != "posts"]
    return [".", *found]


_READERS: dict[str, Callable[[str], list[str]]] = {
    "book.toml": _mdbook,
    "mkdocs.yml": _mkdocs,
    "mkdocs.yaml": _mkdocs,
    "conf.py": _sphinx,
    "hugo.toml": lambda text: _hugo(_toml(text)),
    "hugo.yaml": lambda text: _hugo(_yaml(text)),
    "hugo.yml": lambda text: _hugo(_yaml(text)),
    "hugo.json": lambda text: _hugo(_json(text)),
    "config.toml": lambda text: _site_config(_toml(text)),
    "config.yaml": lambda text: _site_config(_yaml(text)),
    "config.yml": lambda text: _site_config(_yaml(text)),
    "_config.yml": _jekyll,
    "antora.yml": lambda text: ["modules"],
    **{
        f"docusaurus.config.{ext}": (lambda text: ["docs"])
        for ext in ("js", "ts", "mjs", "cjs", "mts", "cts")
    },
    **{f"{marker}/": (lambda text: ["."]) for marker in MARKER_DIRS},
}
"""Declaration file name (or marker folder name and ``/``) → the roots it names, relative
to its own folder."""


def declares(name: str) -> bool:
    """Whether a file (or marker folder, with a trailing ``/``) named ``name`` can declare
    where the docs are."""
    return name in _READERS


def declared_roots(root: Path, folder: str, name: str, text: str) -> list[str]:
    """The project-relative docs folders that the declaration ``folder/name`` (with content
    ``text``; ``""`` for a marker folder) names, each checked to be a folder inside the
    project reached through no symlink; the project root itself is never one."""
    reader = _READERS.get(name)
    if reader is None:
        return []
    found = []
    for value in reader(text):
        rel = _inside(root, folder, value)
        if rel and rel not in found:
            found.append(rel)
    return found


def _inside(root: Path, folder: str, value: str) -> str:
    """``folder/value`` as a normalised project-relative folder, or ``""`` when it leaves
    the project, is the root, is not a folder or goes through a symlink."""
    if value.startswith("/") or "\\" in value or "\0" in value:
        return ""
    rel = posixpath.normpath(posixpath.join(folder or ".", value))
    if rel == "." or rel == ".." or rel.startswith("../"):
        return ""
    try:
        real = resolve_inside(root, root / rel)
    except (InvalidInputError, NotFoundError) as exc:
        log.debug("docs root %s (from %s) left out: %s", rel, folder or ".", exc)
        return ""
    if not real.is_dir() or real != root.resolve() / rel:
        return ""
    return rel
