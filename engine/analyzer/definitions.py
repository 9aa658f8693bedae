"""Source code as searchable definitions: each class and function with its body.

A question about how the code works ("where are the options parsed?") is answered by a
function's body, not by a module's list of signatures. Each of the project's own source
files is cut into chunks along its definitions: Python through :mod:`ast` (a class that
does not fit is split into its head and its methods), Go, Rust, Java, Kotlin, C, C++, C#,
Ruby, PHP and Swift through their tree-sitter grammars (:mod:`engine.analyzer.outline`,
:mod:`engine.analyzer.code_pieces`: named after what they define, tests left out), other
languages at top-level declarations (a line at column 0 after a blank line, with the
comment above it). Small neighbours are merged, long bodies are split into parts, and no
chunk is without words; every chunk keeps its file and line range and starts with a
header naming what it holds, so that keyword search finds it by name and the embedder
knows where it is. No file takes more than :data:`MAX_FILE_SHARE` of the chunks: a file
past it is cut coarser (:func:`capped_drafts`).
"""

from __future__ import annotations

import ast
import logging
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from engine.analyzer.blocks import nested_pieces, top_level_pieces
from engine.analyzer.code_pieces import outline_pieces
from engine.analyzer.grammars import grammar_language
from engine.analyzer.languages import PROGRAM_LANGUAGES, language_of
from engine.analyzer.model import Analysis, DiscoveryDraft
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.analyzer.outline import outline
from engine.analyzer.pieces import Piece, merge, render, size, wordful
from engine.analyzer.structure import is_test_path

log = logging.getLogger(__name__)

MAX_CHUNK_CHARS = 1_200
"""About what the embedding model reads (256 tokens) and a screenful to a person."""
MIN_CHUNK_CHARS = 300
"""Definitions shorter than this are merged with their neighbours."""
MAX_DEFINITION_CHUNKS = 1_500
"""Budget for a whole project: 15-30 s of embedding at 50-100 chunks/s on two CPU cores,
so that ``init`` on a ~750-file repository stays under a minute. Spent in
:func:`budget_order`."""
MAX_FILE_BYTES = 400_000
"""Larger source files are described by the module summary only."""
MAX_FILE_SHARE = 0.14
"""Most of the definition chunks one file may hold (the bound is 15 % of all entries,
which also count the summaries and the documentation)."""
MAX_ENTRY_SHARE = 0.15
"""Most of all the entries one file may hold, its summary counted (issue 34)."""
MIN_FILE_CAP = 12
"""A file is not cut coarser than this many chunks to meet :data:`MAX_FILE_SHARE`, unless
the file would then hold more than :data:`MAX_ENTRY_SHARE` of every entry the analysis
makes (its own summary counted with its chunks): in a small project the share wins."""
COARSER = (1_600, 2_000, 2_400, 3_200, 4_000, 4_800, 6_400, 8_000)
"""Chunk sizes tried in turn for a file over its cap, the smallest that fits it first
(the embedder reads the first ~1,000 characters; 8,000: under the entry limit)."""
CODE_LANGUAGES = PROGRAM_LANGUAGES
"""Languages whose files are cut into definitions: every programming language the tally
knows (:func:`engine.analyzer.languages.is_program`), with a grammar or not."""

_CLASS_LANGUAGES = frozenset({"JavaScript", "TypeScript"})
"""Languages cut without a grammar whose long classes :func:`_class_members` cuts into
methods; the others' long blocks are cut at their body's indentation
(:func:`engine.analyzer.blocks.nested_pieces`)."""
_CLASS = re.compile(
    r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:public\s+)?(?:final\s+)?"
    r"class\s+([\w$]+)"
)
_METHOD = re.compile(
    r"^(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*"
    r"\*?#?([A-Za-z_$][\w$]*)"
    r"(?:\s*(?:<[^>]*>)?\s*\(|\s*<\s*$|\s*=\s*(?:async\s+)?\(|\s*:\s*\(\s*$)"
)
"""A method (``name(``, ``name<T>(``, ``name<`` ending a line) or a function-valued
property (``name = (``, ``name = async (``, ``name: (`` ending a line)."""
_NOT_METHODS = frozenset({"if", "for", "while", "switch", "catch", "return", "function", "super"})
_PREFIXES = ("/*", "*", "//", "@")


def definition_drafts(
    root: Path,
    files: Iterable[str],
    noise: NoiseClassifier | None = None,
    summaries: Sequence[DiscoveryDraft] = (),
) -> list[DiscoveryDraft]:
    """Definition chunks of the project's own source among ``files`` (relative paths),
    at most :data:`MAX_DEFINITION_CHUNKS`, files in the order given, none holding more
    than its cap (:func:`capped_drafts`; ``summaries``, the analysis's other entries,
    count in a file's share: its own module summary with its chunks)."""
    noise = noise or NoiseClassifier(root)
    found: list[tuple[str, str, str, list[DiscoveryDraft]]] = []
    total = 0
    for rel in files:
        language = language_of(rel.rpartition("/")[2])
        if language not in CODE_LANGUAGES or noise.kind(rel) is not None or is_test_path(rel):
            continue
        text = _read(root / rel)
        if text is None:
            continue
        drafts = file_drafts(rel, text, language)
        found.append((rel, text, language, drafts))
        total += len(drafts)
        if total >= 3 * MAX_DEFINITION_CHUNKS:
            break
    own = Counter(d.file_path for d in summaries)
    largest = max((own[rel] for rel, *_ in found), default=0)
    drafts = [d for item in capped_drafts(found, len(summaries), largest) for d in item]
    return drafts[:MAX_DEFINITION_CHUNKS]


def file_cap(counts: list[int], others: int = 0, own: int = 0) -> int | None:
    """The most chunks one file may keep: the largest ``c`` with ``c`` at most
    :data:`MAX_FILE_SHARE` of the chunks left when every file keeps at most ``c``; at
    least :data:`MIN_FILE_CAP`, unless ``c`` chunks and the file's ``own`` summary
    entries would be more than :data:`MAX_ENTRY_SHARE` of all entries (those chunks and
    the ``others``, the summaries): then the largest ``c`` that is not. ``None`` (no cap)
    for a project of a single file."""
    if len([n for n in counts if n]) < 2:
        return None
    share = _largest(counts, lambda c, kept: c <= MAX_FILE_SHARE * kept)
    of_all = _largest(counts, lambda c, kept: c + own <= MAX_ENTRY_SHARE * (kept + others))
    return max(share, min(MIN_FILE_CAP, max(of_all, 1)))


def _largest(counts: list[int], holds: Callable[[int, int], bool]) -> int:
    """The largest ``c`` for which ``holds(c, chunks kept when each file keeps at most c)``
    (it holds for small ``c`` and fails past the answer); 0 when none does."""
    low, high = 0, max(counts)
    while low < high:
        mid = (low + high + 1) // 2
        if holds(mid, sum(min(n, mid) for n in counts)):
            low = mid
        else:
            high = mid - 1
    return low


def capped_drafts(
    found: list[tuple[str, str, str, list[DiscoveryDraft]]], others: int = 0, own: int = 0
) -> list[list[DiscoveryDraft]]:
    """Each file's drafts, those of a file over :func:`file_cap` cut again with larger
    chunks (:data:`COARSER`: small definitions grouped, no class split into methods),
    and cut short at the cap if even the largest are too many."""
    cap = file_cap([len(drafts) for *_, drafts in found], others, own)
    out = []
    for rel, text, language, drafts in found:
        if cap is not None and len(drafts) > cap:  # the size that should fit, then larger
            guess = MAX_CHUNK_CHARS * len(drafts) / cap
            sizes = [h for h in COARSER if h >= guess] or [COARSER[-1]]
            smaller = [h for h in COARSER if h < sizes[0]][-1:]
            for high in smaller + sizes:
                fitted = file_drafts(rel, text, language, high)
                if len(fitted) <= cap or high == COARSER[-1]:
                    drafts = fitted
                    break
        if cap is not None and len(drafts) > cap:
            log.info("%s: %d definition chunks, %d kept", rel, len(drafts), cap)
            drafts = drafts[:cap]
        out.append(drafts)
    return out


def budget_order(analysis: Analysis) -> list[str]:
    """The analysed files in the order they get the chunk budget: the top folders with the
    most of the project's own code first (the root last), public modules before private
    ones (``_name``), shallow before deep."""
    folders = main_folders(analysis)

    def rank(rel: str) -> tuple[int, bool, int, str]:
        top = rel.split("/")[0] if "/" in rel else "."
        unit = folders.index(top) if top in folders else len(folders)
        private = any(p.startswith("_") and p != "__init__.py" for p in rel.split("/"))
        return (unit, private, rel.count("/"), rel)

    return sorted(analysis.files, key=rank)


def main_folders(analysis: Analysis) -> list[str]:
    """Top-level folders by how many of the project's own code files they hold, most
    first; the root (``.``) always last."""
    counts: Counter[str] = Counter()
    for rel in analysis.files:
        top, sep, _ = rel.partition("/")
        code = language_of(rel.rpartition("/")[2]) in CODE_LANGUAGES
        if sep and code and classify_path(rel) is None:
            counts[top] += 1
    return [folder for folder, _ in counts.most_common()] + ["."]


def file_drafts(
    rel: str, text: str, language: str, high: int = MAX_CHUNK_CHARS
) -> list[DiscoveryDraft]:
    """The definition chunks of one source file, each at most about ``high`` characters
    (small definitions merged up to a quarter of it)."""
    lines = text.splitlines()
    pieces = _python_pieces(text, rel, high) if language == "Python" else None
    grammar = grammar_language(language, rel, text)
    if pieces is None and grammar is not None:
        try:
            pieces = outline_pieces(outline(text, grammar), lines, rel, high)
        except Exception:  # a bug reading one file costs its cut, not the discovery
            log.warning("cannot outline %s", rel, exc_info=True)
    if pieces is None:
        pieces = [part for p in top_level_pieces(lines) for part in _class_members(p, lines, high)]
        if language not in _CLASS_LANGUAGES:  # a module or class holding the whole file
            pieces = [part for p in pieces for part in nested_pieces(p, lines, high)]
    low = max(MIN_CHUNK_CHARS, high // 4)
    merged = wordful(list(merge(pieces, lines, low, high)), lines)
    return [draft for piece in merged for draft in render(rel, language, piece, lines, high)]


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES or not path.is_file():
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def _python_pieces(text: str, rel: str, high: int) -> list[Piece] | None:
    """Top-level definitions; a class too long for one chunk becomes its head and methods."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=rel)
    except (SyntaxError, ValueError, RecursionError):
        return None
    lines = text.splitlines()
    pieces = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        end = node.end_lineno or node.lineno
        if isinstance(node, ast.ClassDef) and size(lines, start, end) > high:
            pieces += _class_pieces(node, start)
        else:
            pieces.append(Piece((node.name,), start, end))
    return pieces


def _class_pieces(node: ast.ClassDef, start: int) -> list[Piece]:
    methods = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    starts = [min([m.lineno, *(d.lineno for d in m.decorator_list)]) for m in methods]
    head_end = min(starts) - 1 if starts else (node.end_lineno or node.lineno)
    pieces = [Piece((node.name,), start, max(start, head_end))]
    for method, m_start in zip(methods, starts, strict=True):
        end = method.end_lineno or method.lineno
        pieces.append(Piece((f"{node.name}.{method.name}",), m_start, end))
    return pieces


def _class_members(piece: Piece, lines: list[str], high: int) -> list[Piece]:
    """A class (JS/TS and the like) too long for one chunk: its head, then one piece per
    method (named ``Class.method``, with the comment and decorators above it)."""
    head = range(piece.start, min(piece.end, piece.start + 20) + 1)
    found = next(((n, m) for n in head if (m := _CLASS.match(lines[n - 1]))), None)
    if found is None or size(lines, piece.start, piece.end) <= high:
        return [piece]
    class_line, owner = found[0], found[1].group(1)
    body = [ln for ln in lines[class_line : piece.end] if ln.strip()]
    indent = body[0][: len(body[0]) - len(body[0].lstrip())] if body else ""
    if not indent:
        return [piece]
    starts: list[tuple[int, str]] = []
    for number in range(class_line + 1, piece.end + 1):
        line = lines[number - 1]
        # only lines at the class body's own indentation (not statements inside methods)
        method = _METHOD.match(line[len(indent) :]) if line.startswith(indent) else None
        if method and method.group(1) not in _NOT_METHODS:
            begin = number
            while begin - 1 > class_line and lines[begin - 2].strip().startswith(_PREFIXES):
                begin -= 1
            starts.append((begin, method.group(1)))
    if not starts:
        return [piece]
    parts = [Piece(piece.names, piece.start, starts[0][0] - 1)]
    ends = [b - 1 for b, _ in starts[1:]] + [piece.end]
    parts += [Piece((f"{owner}.{name}",), b, e) for (b, name), e in zip(starts, ends, strict=True)]
    return [p for p in parts if p.end >= p.start]
