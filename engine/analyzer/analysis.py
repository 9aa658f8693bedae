"""One pass over a project that gathers everything :class:`Analysis` holds."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.analyzer.catalog import classify, tool_from_file_name
from engine.analyzer.comment_syntax import comment_syntax
from engine.analyzer.comments import opening_comment
from engine.analyzer.doc_kinds import documentation_by_name, prose_dialect
from engine.analyzer.docs import RELEASE_LEAD_CHARS, is_doc, outline
from engine.analyzer.grammars import grammar_language
from engine.analyzer.js_symbols import js_symbols
from engine.analyzer.languages import (
    LanguageCounter,
    count_lines,
    is_code,
    is_script_name,
    language_of,
    script_language,
)
from engine.analyzer.manifests import Manifests, is_manifest
from engine.analyzer.model import Analysis, DocOutline, Symbol, SymbolKind
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.analyzer.outline import file_summary, outline_symbols
from engine.analyzer.outline import outline as code_outline
from engine.analyzer.parse_cache import ParseCache
from engine.analyzer.python_symbols import python_module
from engine.analyzer.scan import DEFAULT_IGNORED, ScannedFile, ScanStats, scan
from engine.analyzer.structure import SourceDirectories, is_entry_file
from engine.analyzer.testing_names import is_test_path

log = logging.getLogger(__name__)

_JS_LANGUAGES = frozenset({"TypeScript", "JavaScript"})
_NOT_DOCS = ("license", "licence", "copying")


def analyze(
    root: Path,
    *,
    ignored_dirs: Iterable[str] = DEFAULT_IGNORED,
    max_file_bytes: int = 1_000_000,
    cache: ParseCache | None = None,
    noise: NoiseClassifier | None = None,
) -> Analysis:
    """Analyse the project at ``root``: languages, structure, exports, manifests, docs.

    Read-only and headless; unreadable or unparsable files end up in ``errors``. Binary files
    and files larger than ``max_file_bytes`` are skipped and only counted. Raises
    :class:`NotADirectoryError` when ``root`` is not a directory. With a ``cache``, files
    whose bytes are unchanged since it was filled are not parsed again. A test file (by its
    path, :func:`engine.analyzer.testing_names.is_test_path`) is only counted, unless
    ``noise`` (the classifier with the project's settings) takes it as the project's own.

    Long because it is the flat list of analysis steps that fill one :class:`Analysis`.
    """
    root = Path(root).resolve()
    if not root.is_dir():
        raise NotADirectoryError(f"not a directory: {root}")
    stats = ScanStats()
    pass_ = _Pass(cache=cache or ParseCache(), noise=noise)
    for scanned in scan(
        root,
        ignored_dirs=ignored_dirs,
        max_file_bytes=max_file_bytes,
        wanted=_wanted,
        stats=stats,
    ):
        pass_.take(scanned)
    frameworks, tools = classify(pass_.manifests.dependencies)
    entry_points = [*pass_.manifests.entry_points, *sorted(pass_.entry_files)]
    return Analysis(
        root=root,
        name=pass_.manifests.project_name() or root.name,
        languages=pass_.languages.stats(),
        source_dirs=pass_.source_dirs.result(),
        entry_points=tuple(dict.fromkeys(entry_points)),
        symbols=tuple(sorted(_resolve_reexports(pass_.symbols), key=_symbol_order)),
        frameworks=tuple(sorted(frameworks)),
        test_tools=tuple(sorted(tools | pass_.tools)),
        docs=tuple(sorted(pass_.docs, key=lambda d: d.file)),
        stats={
            "files": stats.files,
            "directories": stats.directories,
            "lines": pass_.lines,
            "source_files": pass_.source_files,
            "test_files": pass_.test_files,
            "skipped_binary": stats.skipped_binary,
            "skipped_large": stats.skipped_large,
        },
        errors=tuple(sorted(stats.errors + pass_.manifests.errors + pass_.errors)),
        files=dict(sorted(pass_.files.items())),
        summaries=dict(sorted(pass_.summaries.items())),
        scripts=dict(sorted(pass_.scripts.items())),
    )


def _wanted(file_name: str) -> bool:
    """Named as code or a manifest, or maybe a script (read to see its ``#!`` line), or
    release notes in a prose format of their own (:func:`_prose_release_notes`)."""
    return (
        language_of(file_name) is not None
        or is_manifest(file_name)
        or is_script_name(file_name)
        or _prose_release_notes(file_name)
    )


def _prose_release_notes(file_name: str) -> bool:
    """Whether ``file_name`` names release notes in a prose format, markdown's or one no
    table of languages names: CPAN's ``Changes`` (CPAN::Changes::Spec), the GNU Coding
    Standards' ``NEWS`` and ``ChangeLog``, ``CHANGES.txt``, ``History.rdoc``, ``NEWS.pod``.
    Those are outlined too, so that their summary holds their newest releases."""
    return classify_path(file_name) == "release-notes" and prose_dialect(file_name) is not None


@dataclass(slots=True)
class _Pass:
    """Accumulators filled file by file during the walk."""

    languages: LanguageCounter = field(default_factory=LanguageCounter)
    source_dirs: SourceDirectories = field(default_factory=SourceDirectories)
    manifests: Manifests = field(default_factory=Manifests)
    symbols: list[Symbol] = field(default_factory=list)
    docs: list[DocOutline] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    scripts: dict[str, str] = field(default_factory=dict)
    entry_files: list[str] = field(default_factory=list)
    tools: set[str] = field(default_factory=set)
    lines: int = 0
    source_files: int = 0
    test_files: int = 0
    cache: ParseCache = field(default_factory=ParseCache)
    noise: NoiseClassifier | None = None

    def take(self, scanned: ScannedFile) -> None:
        """Account for one file."""
        rel, data = scanned.rel, scanned.data
        name = rel.rpartition("/")[2]
        language = language_of(name)
        if language is None and is_script_name(name):
            language = script_language(data)
            if language is None and not is_manifest(name) and not _prose_release_notes(name):
                return  # read for its #! line: not a script
            if language is not None:
                self.scripts[rel] = language
        digest = self.files[rel] = hashlib.sha256(data).hexdigest()
        is_test = is_test_path(rel) and (self.noise is None or self.noise.kind(rel) is not None)
        if tool := tool_from_file_name(name):
            self.tools.add(tool)
        if is_manifest(name) and not is_test and classify_path(rel) is None:
            self.manifests.read(rel, data)
        if is_code(language) and documentation_by_name(rel):
            language = None  # man/str_c.Rd: the docs reader's page, not R code to cut
        if language is None:
            if _prose_release_notes(name) and self._kind(rel) == "release-notes":
                self._doc(rel, data, digest)
            return
        lines = count_lines(data)
        self.languages.add(language, name, lines)
        self.lines += lines
        if is_code(language):
            if is_test:
                self.test_files += 1
                return
            self.source_files += 1
            self.source_dirs.add(rel)
            if is_entry_file(rel):
                self.entry_files.append(rel)
        elif is_test:
            return
        if language == "Python":
            self._python(rel, data, digest)
        elif language in _JS_LANGUAGES:
            self._js(rel, data, digest)
        elif is_code(language):
            self._code(rel, data, digest, language)
        elif is_doc(name) and not name.lower().startswith(_NOT_DOCS):
            self._doc(rel, data, digest)

    def _kind(self, rel: str) -> str | None:
        return self.noise.kind(rel) if self.noise else classify_path(rel)

    def _doc(self, rel: str, data: bytes, digest: str) -> None:
        """Outline a document; release notes keep their opening (their newest releases)."""
        doc = self.cache.doc(rel, digest)
        if doc is None:
            lead_chars = RELEASE_LEAD_CHARS if self._kind(rel) == "release-notes" else 0
            text = data.decode("utf-8", errors="replace")
            doc = outline(rel, text, lead_chars=lead_chars)
            self.cache.put_doc(rel, digest, doc)
        self.docs.append(doc)

    def _python(self, rel: str, data: bytes, digest: str) -> None:
        cached = self.cache.python(rel, digest)
        if cached is not None:
            symbols, summary, main_guard = cached
            self._take_python(rel, symbols, summary, main_guard)
            return
        try:
            module = python_module(data, rel)
        except SyntaxError as exc:
            self.errors.append((rel, f"syntax error: {exc.msg} (line {exc.lineno})"))
            return
        except (ValueError, RecursionError, MemoryError) as exc:
            self.errors.append((rel, f"cannot parse: {type(exc).__name__}"))
            return
        self.cache.put_python(rel, digest, module.symbols, module.summary, module.main_guard)
        self._take_python(rel, list(module.symbols), module.summary, module.main_guard)

    def _take_python(self, rel: str, symbols: list[Symbol], summary: str, main: bool) -> None:
        self.symbols.extend(symbols)
        if summary:
            self.summaries[rel] = summary
        if main and rel not in self.entry_files:
            self.entry_files.append(rel)

    def _js(self, rel: str, data: bytes, digest: str) -> None:
        cached = self.cache.js(rel, digest)
        if cached is not None:
            self.symbols.extend(cached)
            return
        try:
            found = js_symbols(data.decode("utf-8", errors="replace"), rel)
            self.cache.put_js(rel, digest, found)
            self.symbols.extend(found)
        except Exception as exc:  # a scanner bug must cost one file, not the analysis
            log.warning("cannot scan %s", rel, exc_info=True)
            self.errors.append((rel, f"cannot scan exports: {type(exc).__name__}"))

    def _code(self, rel: str, data: bytes, digest: str, language: str) -> None:
        """Go, Rust, Java... through their tree-sitter grammars: the public definitions,
        tests left out, and the file's opening comment as its summary."""
        cached = self.cache.code(rel, digest)
        if cached is None:
            text = data.decode("utf-8", errors="replace")
            grammar = grammar_language(language, rel, text)
            if grammar is None:  # cut at its blocks; what it is for, from its opening comment
                if summary := opening_comment(text, comment_syntax(rel.rpartition("/")[2])):
                    self.summaries[rel] = summary
                return
            try:
                found = code_outline(text, grammar)
            except Exception as exc:  # a bug reading one file costs that file
                log.warning("cannot outline %s", rel, exc_info=True)
                self.errors.append((rel, f"cannot read definitions: {type(exc).__name__}"))
                return
            cached = (list(outline_symbols(found, rel)), file_summary(found, rel))
            self.cache.put_code(rel, digest, tuple(cached[0]), cached[1])
        symbols, summary = cached
        self.symbols.extend(symbols)
        if summary:
            self.summaries[rel] = summary


def _resolve_reexports(symbols: list[Symbol]) -> list[Symbol]:
    """Give re-exported names the kind of their definition when it is unambiguous."""
    kinds: dict[str, set[SymbolKind]] = {}
    for sym in symbols:
        if not sym.detail.startswith("re-export"):
            kinds.setdefault(sym.name, set()).add(sym.kind)
    out: list[Symbol] = []
    for sym in symbols:
        found = kinds.get(sym.name, set())
        if sym.detail.startswith("re-export") and len(found) == 1:
            sym = replace(sym, kind=next(iter(found)))
        out.append(sym)
    return out


def _symbol_order(sym: Symbol) -> tuple[str, int, str]:
    return (sym.file, sym.line, sym.name)
