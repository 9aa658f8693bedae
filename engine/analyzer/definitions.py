"""Source code as searchable definitions: each class and function with its body.

A question about how the code works ("where are the options parsed?") is answered by a
function's body, not by a module's list of signatures. Each of the project's own source
files is cut into chunks along its definitions: Python through :mod:`ast` (a class that
does not fit is split into its head and its methods), other languages at top-level
declarations (a line at column 0 after a blank line, with the comment above it). Small
neighbours are merged, long bodies are split into parts; every chunk keeps its file and
line range and starts with a header naming what it holds, so that keyword search finds
it by name and the embedder knows where it is.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.analyzer.languages import language_of
from engine.analyzer.model import Analysis, DiscoveryDraft
from engine.analyzer.noise import NoiseClassifier, classify_path

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
CODE_LANGUAGES = frozenset(
    {"Python", "JavaScript", "TypeScript", "Go", "Rust", "Ruby", "Java", "Kotlin", "PHP",
     "C", "C++", "C#", "Swift", "Scala", "Shell"}
)  # fmt: skip

_DECLARATION = re.compile(
    r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:pub(?:\([\w:]+\))?\s+)?"
    r"(?:async\s+)?(?:unsafe\s+)?"
    r"(?:function\*?|class|interface|type|enum|const|let|var|fn|def|struct|trait|impl"
    r"|module|namespace|public|private|protected|static|func)"
    r"\s+(?:\([^)]*\)\s*)?([\w$.]+)"  # Go: a method's receiver comes before its name
)
_ASSIGNED = re.compile(r"^([\w$][\w$.]*)\s*=")
_NAMED_FUNCTION = re.compile(r"\bfunction\*?\s+([\w$]+)\s*\(")
_COMMENT_STARTS = ("/*", "*", "//", "#")
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


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of lines of one file that belongs to one definition (or a merged few)."""

    names: tuple[str, ...]
    start: int
    """1-based first line."""
    end: int
    """1-based last line, inclusive."""


def definition_drafts(
    root: Path, files: Iterable[str], noise: NoiseClassifier | None = None
) -> list[DiscoveryDraft]:
    """Definition chunks of the project's own source among ``files`` (relative paths),
    at most :data:`MAX_DEFINITION_CHUNKS`, files in the order given."""
    drafts: list[DiscoveryDraft] = []
    noise = noise or NoiseClassifier(root)
    for rel in files:
        language = language_of(rel.rpartition("/")[2])
        if language not in CODE_LANGUAGES or noise.kind(rel) is not None:
            continue
        text = _read(root / rel)
        if text is None:
            continue
        drafts += file_drafts(rel, text, language)
        if len(drafts) >= MAX_DEFINITION_CHUNKS:
            return drafts[:MAX_DEFINITION_CHUNKS]
    return drafts


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


def file_drafts(rel: str, text: str, language: str) -> list[DiscoveryDraft]:
    """The definition chunks of one source file."""
    lines = text.splitlines()
    pieces = _python_pieces(text, rel) if language == "Python" else None
    if pieces is None:
        pieces = [part for p in _top_level_pieces(lines) for part in _class_members(p, lines)]
    drafts = []
    for piece in _merge(pieces, lines):
        drafts += _render(rel, language, piece, lines)
    return drafts


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


def _python_pieces(text: str, rel: str) -> list[_Piece] | None:
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
        if isinstance(node, ast.ClassDef) and _size(lines, start, end) > MAX_CHUNK_CHARS:
            pieces += _class_pieces(node, start)
        else:
            pieces.append(_Piece((node.name,), start, end))
    return pieces


def _class_pieces(node: ast.ClassDef, start: int) -> list[_Piece]:
    methods = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    starts = [min([m.lineno, *(d.lineno for d in m.decorator_list)]) for m in methods]
    head_end = min(starts) - 1 if starts else (node.end_lineno or node.lineno)
    pieces = [_Piece((node.name,), start, max(start, head_end))]
    for method, m_start in zip(methods, starts, strict=True):
        end = method.end_lineno or method.lineno
        pieces.append(_Piece((f"{node.name}.{method.name}",), m_start, end))
    return pieces


def _top_level_pieces(lines: list[str]) -> Iterator[_Piece]:
    """Split at lines that start at column 0 after a blank line (declarations, blocks);
    a comment block stays with the declaration after it, even across a blank line."""
    start, names, commented = 1, list[str](), True
    for number, line in enumerate(lines, start=1):
        opens = (
            number > 1
            and line[:1].strip()
            and not line.startswith(("}", ")", "]", "*/", "#!"))
            and not lines[number - 2].strip()
        )
        if opens and number > start and not commented:
            yield _Piece(tuple(names), start, number - 1)
            start, names, commented = number, [], True
        if line.strip():
            commented = commented and line.lstrip().startswith(_COMMENT_STARTS)
        name = _declared_name(line)
        if name and not names:
            names.append(name)
    if lines:
        yield _Piece(tuple(names), start, len(lines))


def _class_members(piece: _Piece, lines: list[str]) -> list[_Piece]:
    """A class (JS/TS and the like) too long for one chunk: its head, then one piece per
    method (named ``Class.method``, with the comment and decorators above it)."""
    head = range(piece.start, min(piece.end, piece.start + 20) + 1)
    found = next(((n, m) for n in head if (m := _CLASS.match(lines[n - 1]))), None)
    if found is None or _size(lines, piece.start, piece.end) <= MAX_CHUNK_CHARS:
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
    parts = [_Piece(piece.names, piece.start, starts[0][0] - 1)]
    ends = [b - 1 for b, _ in starts[1:]] + [piece.end]
    parts += [_Piece((f"{owner}.{name}",), b, e) for (b, name), e in zip(starts, ends, strict=True)]
    return [p for p in parts if p.end >= p.start]


def _declared_name(line: str) -> str:
    if line[:1].isspace():
        return ""
    match = _DECLARATION.match(line) or _ASSIGNED.match(line) or _NAMED_FUNCTION.search(line)
    return match.group(1) if match else ""


def _merge(pieces: list[_Piece], lines: list[str]) -> Iterator[_Piece]:
    """Consecutive small pieces joined while they fit in one chunk."""
    pending: _Piece | None = None
    for piece in pieces:
        if pending is None:
            pending = piece
            continue
        small = _size(lines, pending.start, pending.end) < MIN_CHUNK_CHARS or (
            _size(lines, piece.start, piece.end) < MIN_CHUNK_CHARS
        )
        if small and _size(lines, pending.start, piece.end) <= MAX_CHUNK_CHARS:
            pending = _Piece(pending.names + piece.names, pending.start, piece.end)
        else:
            yield pending
            pending = piece
    if pending is not None:
        yield pending


def _render(rel: str, language: str, piece: _Piece, lines: list[str]) -> list[DiscoveryDraft]:
    """One draft per piece, or numbered parts of a long body (each under the chunk size)."""
    names = ", ".join(n for n in piece.names if n) or f"lines {piece.start}-{piece.end}"
    parts: list[tuple[int, int]] = []
    begin, size = piece.start, 0
    for number in range(piece.start, piece.end + 1):
        width = len(lines[number - 1]) + 1
        if size and size + width > MAX_CHUNK_CHARS:
            parts.append((begin, number - 1))
            begin, size = number, 0
        size += width
    parts.append((begin, piece.end))
    drafts = []
    for i, (a, b) in enumerate(parts, start=1):
        body = "\n".join(line[:400] for line in lines[a - 1 : b]).strip("\n")
        if not body.strip():
            continue
        part = f" (part {i} of {len(parts)})" if len(parts) > 1 else ""
        header = f"{language} code: {names}{part} in {rel}, lines {a}-{b}"
        fence = "`" * max(3, _longest_backtick_run(body) + 1)
        keywords = tuple(dict.fromkeys(n.rpartition(".")[2] for n in piece.names if n))[:10]
        drafts.append(
            DiscoveryDraft(
                content=f"{header}\n{fence}{_fence_language(language)}\n{body}\n{fence}",
                section_title=f"{names}{part}",
                file_path=rel,
                keywords=keywords,
                line_start=a,
                line_end=b,
            )
        )
    return drafts


def _size(lines: list[str], start: int, end: int) -> int:
    return sum(len(line) + 1 for line in lines[start - 1 : end])


def _fence_language(language: str) -> str:
    """The info string of the code fence around a chunk, so previews render it as code."""
    return {"C++": "cpp", "C#": "csharp", "Shell": "sh"}.get(language, language.lower())


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest
