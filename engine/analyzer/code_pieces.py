"""A source file cut along the definitions of its outline (:mod:`engine.analyzer.outline`).

Each top-level definition is a piece with its doc comment; one too long for a chunk is
cut into its head (the class line, fields) and its members, each named after what it
defines, recursively. Tests (``#[cfg(test)]`` modules, ``func TestX``...) are left out.
Between definitions, only code with words of its own is kept: imports, ``package`` and
closing braces are not worth an entry. The file's opening comment is the file's summary
(:mod:`engine.analyzer.modules`); when it says more than that summary holds, it is a
piece too.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.analyzer.comments import COMMENT_LINE, NOT_DOC
from engine.analyzer.outline import Definition, Outline
from engine.analyzer.pieces import MAX_TITLE_NAMES, MIN_WORDS, TEXT_SHARE, Piece, size, words
from engine.analyzer.prose import text_share

_SILENT = re.compile(
    r"^\s*(?:$|[{}()\[\];,]+$|--"
    r"|(?:use|import|package|using|require|require_relative|include|extern\s+crate|from)\b"
    r"|(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*;|namespace\s+[\w\\.]+\s*;|<\?php|\?>"
    r"|#\s*(?:include|import|pragma|if|ifdef|ifndef|else|elif|endif|define|undef)\b"
    r"|(?:[\w.]+\s+)?\"[^\"]*\"\s*$)"
)
"""Lines that say nothing of their own between definitions: imports, ``package``, the
preprocessor, braces (a Go import block's lines are quoted paths)."""
DOC_SHARE = 0.75
"""Lines between definitions are documentation (:attr:`Piece.doc`) when this share of
those with text are comments, and they hold :data:`DOC_MIN_CHARS` at least: a crate's
tutorial written as ``//!`` lines around ``#![doc = include_str!(…)]`` attributes."""
DOC_MIN_CHARS = 600
_DECLARES = re.compile(
    r"^\s*(?:(?:pub(?:\([^)]*\))?|export|public|private|static|final|readonly)\s+)*"
    r"(?:static\s+ref|static|const|let|var|val|struct|enum|union|class|type)"
    r"\s+(?:mut\s+)?([A-Za-z_$][\w$]*)\s*[:=<{(;]"
)
"""A line declaring a name: ``static ref URL: Regex``, ``const LIMIT = 3``, ``struct
Flags: u8 {``."""


def outline_pieces(found: Outline, lines: list[str], rel: str, high: int) -> list[Piece]:
    """The pieces of a file (before small ones are merged), in line order."""
    imported = {n for a, b in found.import_lines for n in range(a, b + 1)}
    lines = ["" if n in imported else line for n, line in enumerate(lines, start=1)]
    pieces: list[Piece] = []
    doc_start, doc_end = found.doc_lines
    if doc_start and len(" ".join(found.doc.split())) > len(found.summary):
        name = f"Module documentation of {rel}"
        pieces.append(Piece((name,), doc_start, doc_end, alone=True, doc=True))
    top = [d for d in found.definitions if d.depth == 0]
    covered = max(doc_end, 0)
    for definition in top:  # a header of imports and `package` says nothing: no piece
        gaps = _gaps(covered + 1, definition.start - 1, lines, found.test_lines)
        pieces += [_comment_above(p, definition, lines) for p in gaps]
        if not definition.test:
            pieces += _split(definition, _members(found, definition), found, lines, high)
        covered = max(covered, definition.end)
    pieces += _gaps(covered + 1, len(lines), lines, found.test_lines)
    tests = [(d.start, d.end) for d in found.definitions if d.test] + list(found.test_lines)
    return _breaks(_joined_docs(pieces, lines), tests)


def _joined_docs(pieces: list[Piece], lines: list[str]) -> list[Piece]:
    """Documentation pieces as one with the mostly-comment piece that follows each with
    nothing but blank lines between (a module's doc comment and the ``//!`` lines after an
    ``#![doc = include_str!(…)]`` that ended it): one document, its headings one outline."""
    out: list[Piece] = []
    for piece in pieces:
        last = out[-1] if out else None
        if (
            last is not None
            and last.doc
            and (piece.doc or _mostly_comments(lines, piece.start, piece.end))
            and not any(line.strip() for line in lines[last.end : piece.start - 1])
        ):
            out[-1] = replace(last, end=piece.end)
        else:
            out.append(piece)
    return out


def _comment_above(piece: Piece, following: Definition, lines: list[str]) -> Piece:
    """A piece of nothing but comments is named after the definition below it."""
    if all(
        COMMENT_LINE.match(line) or not line.strip() for line in lines[piece.start - 1 : piece.end]
    ):
        return replace(piece, names=(f"Comment above {following.name}",))
    return piece


def _breaks(pieces: list[Piece], tests: list[tuple[int, int]]) -> list[Piece]:
    """The pieces, each marked when test code lies between it and the one before (so
    that merging small neighbours does not take the test code in)."""
    out = []
    for i, piece in enumerate(pieces):
        before = pieces[i - 1].end if i else 0
        if any(before < a and b < piece.start for a, b in tests):
            piece = replace(piece, after_break=True)
        out.append(piece)
    return out


def _gaps(
    start: int, end: int, lines: list[str], tests: tuple[tuple[int, int], ...]
) -> list[Piece]:
    """The pieces of the lines between two definitions, test code left out."""
    pieces = []
    for a, b in sorted(tests):
        if a <= end and b >= start:
            pieces += _gap(start, a - 1, lines)
            start = b + 1
    return pieces + _gap(start, end, lines)


def _members(found: Outline, parent: Definition) -> list[Definition]:
    """The definitions directly inside ``parent``."""
    return [d for d in _inside(found, parent) if d.depth == parent.depth + 1]


def _inside(found: Outline, parent: Definition) -> list[Definition]:
    """The definitions inside ``parent``, at any depth (they follow it in source order)."""
    inside = []
    for d in found.definitions[parent.index + 1 :]:
        if d.depth <= parent.depth:
            break
        inside.append(d)
    return inside


def _split(
    definition: Definition, members: list[Definition], found: Outline, lines: list[str], high: int
) -> list[Piece]:
    """One piece, or the head and the members of a definition too long for one (or one
    holding a test); the lines after a member up to the next one go with it."""
    tests_inside = any(d.test for d in _inside(found, definition))
    fits = size(lines, definition.start, definition.end) <= high
    if not fits and not tests_inside and _is_text(definition, members, found, lines):
        return [Piece((definition.name,), definition.start, definition.end, text=True)]
    names = _defined_names(definition, members)
    if not members or (fits and not tests_inside):
        return [Piece(names, definition.start, definition.end)]
    head_end = members[0].start - 1
    said = words(lines, definition.start, head_end) - words(lines, definition.line, definition.line)
    bare = _extends(definition) and said < MIN_WORDS  # `impl Style {` alone: no name
    pieces = [Piece(() if bare else (definition.name,), definition.start, head_end)]
    for i, member in enumerate(members):
        following = members[i + 1] if i + 1 < len(members) else None
        if member.test:
            continue
        if following is None:
            end = definition.end
        else:
            end = member.end if following.test else following.start - 1
        inner = _split(member, _members(found, member), found, lines, high)
        if inner:
            inner[-1] = Piece(inner[-1].names, inner[-1].start, max(inner[-1].end, end))
        pieces += inner
    return [p for p in pieces if p.end >= p.start]


def _extends(definition: Definition) -> bool:
    """An extension of a type defined elsewhere that implements no trait (Rust's ``impl
    StateMachine { ... }``, Swift's ``extension Track``): it defines its members, not the
    type, which may be extended in many files."""
    return definition.kind == "impl" and not definition.name.endswith(")")


def _defined_names(definition: Definition, members: list[Definition]) -> tuple[str, ...]:
    """What a whole definition's piece is named after: the definition, or the members an
    extension adds (:func:`_extends`), so that only the file defining a type is titled by
    its name."""
    added = tuple(m.name for m in members if not m.test)
    return added if _extends(definition) and added else (definition.name,)


def _is_text(
    definition: Definition, members: list[Definition], found: Outline, lines: list[str]
) -> bool:
    """A definition of no code of its own: no methods or functions inside (a function, or
    a struct or enum of fields), most of its characters in comments and string literals
    (:data:`~engine.analyzer.pieces.TEXT_SHARE`)."""
    if any(m.kind != "field" for m in members):
        return False
    return text_share(found.text_chars, lines, definition.start, definition.end) >= TEXT_SHARE


def _gap(start: int, end: int, lines: list[str]) -> list[Piece]:
    """The lines between two definitions as a piece, if any of them says something: code,
    or a comment of its own (a licence header says nothing)."""
    if end < start:
        return []
    region = lines[start - 1 : end]
    comments = "\n".join(line for line in region if COMMENT_LINE.match(line))
    licence = NOT_DOC.search(comments) is not None

    def silent(line: str) -> bool:
        return _SILENT.match(line) is not None or (licence and COMMENT_LINE.match(line) is not None)

    said = [line for line in region if not silent(line)]
    if words(said, 1, len(said)) < MIN_WORDS:
        return []
    first = start  # from the first line that says something, with the comment above it
    while first <= end and silent(lines[first - 1]):
        first += 1
    while first > start and COMMENT_LINE.match(lines[first - 2]):
        first -= 1
    while end >= first and not lines[end - 1].strip():
        end -= 1
    return [
        Piece(_declared(lines[first - 1 : end]), first, end, **_documentation(lines, first, end))
    ]


def _documentation(lines: list[str], first: int, end: int) -> dict[str, bool]:
    """``doc`` (and ``alone``) for lines between definitions that are mostly comments, and
    many: documentation to read as such, not code."""
    if size(lines, first, end) < DOC_MIN_CHARS or not _mostly_comments(lines, first, end):
        return {}
    return {"doc": True, "alone": True}


def _mostly_comments(lines: list[str], first: int, end: int) -> bool:
    """Whether :data:`DOC_SHARE` of the lines with text in ``first``..``end`` are comments."""
    said = [line for line in lines[first - 1 : end] if line.strip()]
    return sum(1 for line in said if COMMENT_LINE.match(line)) >= DOC_SHARE * len(said) > 0


def _declared(region: list[str]) -> tuple[str, ...]:
    """The names that code between definitions declares, which the grammar's query does
    not see (Rust's ``lazy_static! { static ref URL: Regex = ... }``, ``bitflags! {
    struct Flags ... }``, a script's ``const LIMIT = 3``): at most
    :data:`~engine.analyzer.pieces.MAX_TITLE_NAMES`, in order, those least indented
    (not the constants inside a struct)."""
    found = [
        (len(line) - len(line.lstrip()), m[1]) for line in region if (m := _DECLARES.match(line))
    ]
    outer = min((indent for indent, _ in found), default=0)
    names = [name for indent, name in found if indent == outer]
    return tuple(dict.fromkeys(names))[:MAX_TITLE_NAMES]
