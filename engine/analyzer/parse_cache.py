"""What the analyzer parsed per file, kept between discoveries so unchanged files are not
parsed again (``memory-tui discover`` re-parses only the files whose hash changed).

Keyed by (path, SHA-256 of the bytes); stored as JSON next to the memory's other derived
files, under the version of the analyzer that wrote it (:func:`analyzer_version`: a hash
of the analyzer's own source and of the parsers and tables it reads with), so a changed analyzer
parses every file again. A missing or unreadable cache only costs a full parse.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

from engine.analyzer.grammars import PACKAGES
from engine.analyzer.linguist import DISTRIBUTIONS as LINGUIST_DISTRIBUTIONS
from engine.analyzer.model import DocOutline, Symbol

log = logging.getLogger(__name__)

CACHE_FORMAT = 2
"""The layout of the JSON file; the analyzer's own version is :func:`analyzer_version`."""
PARSERS = ("tree-sitter", *PACKAGES, "pygments", *LINGUIST_DISTRIBUTIONS, "identify")
"""Distributions whose upgrade can change what a file parses to: tree-sitter and its
grammars, Pygments (the comment markers of a language without a grammar,
:mod:`.comment_syntax`), GitHub Linguist's tables (which extensions are code,
:mod:`.linguist`) and pre-commit's ``identify`` (which interpreter a script's ``#!`` line
names, :func:`.languages.script_language`)."""


@cache
def analyzer_version() -> str:
    """What the cached results depend on, computed once per process: the source of
    :mod:`engine.analyzer` and of :mod:`engine.markdown` (which reads the outlines'
    headings and cuts doc comments), and the versions of what they parse with
    (:func:`source_version`)."""
    here = Path(__file__).parent
    return source_version(here, here.parent / "markdown")


def add_sources(digest: Any, paths: Iterable[Path]) -> None:
    """Feed ``digest`` (a :mod:`hashlib` hash) each of ``paths``' name and bytes: the
    source of this package's own modules, whose change invalidates what they made."""
    for path in paths:
        digest.update(f"{path.name}\n".encode())
        digest.update(path.read_bytes())


def source_version(*folders: Path) -> str:
    """SHA-256 (16 hex digits) of every module and query file in ``folders`` (name and
    bytes), the cache format and the installed versions of :data:`PARSERS`."""
    from importlib import metadata  # 5-10 ms: only when a cache is opened

    digest = hashlib.sha256(f"format {CACHE_FORMAT}\n".encode())
    for folder in folders:
        add_sources(digest, sorted([*folder.glob("*.py"), *folder.glob("queries/*.scm")]))
    for name in PARSERS:
        try:
            digest.update(f"{name} {metadata.version(name)}\n".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} missing\n".encode())
    return digest.hexdigest()[:16]


class ParseCache:
    """Per-file parse results: Python modules, JS/TS exports, documentation outlines."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._old: dict[str, dict[str, Any]] = {}
        self._new: dict[str, dict[str, Any]] = {}
        self.hits = 0
        self.misses = 0
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                fresh = data.get("version") == analyzer_version()
                if fresh and isinstance(data.get("files"), dict):
                    self._old = data["files"]
            except (OSError, ValueError, AttributeError) as exc:
                log.warning("ignoring the analysis cache %s: %s", path, exc)

    def _get(self, rel: str, digest: str, kind: str) -> dict[str, Any] | None:
        item = self._old.get(rel)
        if item is None or item.get("hash") != digest or item.get("kind") != kind:
            self.misses += 1
            return None
        self.hits += 1
        self._new[rel] = item
        return item

    def _put(self, rel: str, digest: str, kind: str, **data: Any) -> None:
        self._new[rel] = {"hash": digest, "kind": kind, **data}

    def python(self, rel: str, digest: str) -> tuple[list[Symbol], str, bool] | None:
        """Cached (symbols, summary, main guard) of a Python module."""
        item = self._get(rel, digest, "python")
        if item is None:
            return None
        return [Symbol(**s) for s in item["symbols"]], item["summary"], item["main_guard"]

    def put_python(
        self, rel: str, digest: str, symbols: tuple[Symbol, ...], summary: str, main_guard: bool
    ) -> None:
        """Remember a parsed Python module."""
        self._put(
            rel,
            digest,
            "python",
            symbols=[asdict(s) for s in symbols],
            summary=summary,
            main_guard=main_guard,
        )

    def js(self, rel: str, digest: str) -> list[Symbol] | None:
        """Cached exports of a JS/TS module."""
        item = self._get(rel, digest, "js")
        return None if item is None else [Symbol(**s) for s in item["symbols"]]

    def put_js(self, rel: str, digest: str, symbols: tuple[Symbol, ...]) -> None:
        """Remember a scanned JS/TS module."""
        self._put(rel, digest, "js", symbols=[asdict(s) for s in symbols])

    def code(self, rel: str, digest: str) -> tuple[list[Symbol], str] | None:
        """Cached (symbols, summary) of a file read through its tree-sitter grammar."""
        item = self._get(rel, digest, "code")
        if item is None:
            return None
        return [Symbol(**s) for s in item["symbols"]], item["summary"]

    def put_code(self, rel: str, digest: str, symbols: tuple[Symbol, ...], summary: str) -> None:
        """Remember the symbols and summary of a file read through its grammar."""
        self._put(rel, digest, "code", symbols=[asdict(s) for s in symbols], summary=summary)

    def doc(self, rel: str, digest: str) -> DocOutline | None:
        """Cached outline of a documentation file."""
        item = self._get(rel, digest, "doc")
        if item is None:
            return None
        o = item["outline"]
        return DocOutline(
            o["file"], o["title"], tuple(o["headings"]), tuple(o["levels"]), o.get("lead", "")
        )

    def put_doc(self, rel: str, digest: str, outline: DocOutline) -> None:
        """Remember a documentation outline."""
        self._put(rel, digest, "doc", outline=asdict(outline))

    def save(self) -> None:
        """Write what this run used (files no longer present are dropped), atomically."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".analysis-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"version": analyzer_version(), "files": self._new}, fh)
            os.replace(tmp, self.path)
        except OSError:
            Path(tmp).unlink(missing_ok=True)
            log.warning("cannot write the analysis cache %s", self.path, exc_info=True)
