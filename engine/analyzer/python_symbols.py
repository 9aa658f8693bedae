"""Public names of a Python module, read with :mod:`ast` (the code is never imported or run).

Public means: listed in ``__all__`` when the module declares it as a literal; otherwise the
top-level functions, classes and ALL_CAPS constants whose names do not start with ``_``.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from engine.analyzer.comments import first_paragraph
from engine.analyzer.model import Symbol, SymbolKind

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
_INTERFACE_BASES = frozenset({"Protocol", "ABC"})
_TYPE_BASES = frozenset({"TypedDict", "NamedTuple"})
MAX_DETAIL = 120
MAX_VALUE = 60
_ROLE = re.compile(r":[\w:]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
_FIELD = re.compile(r":\w[\w ]*:(?:\s|$)")
"""A reST field list's line (``:param x:``, ``:raises:``): a docstring's details begin."""


@dataclass(frozen=True, slots=True)
class PythonModule:
    """What :func:`python_module` found in one file."""

    symbols: tuple[Symbol, ...]
    summary: str
    """First line of the module docstring."""
    main_guard: bool
    """Has a top-level ``if __name__ == "__main__":``."""
    reexports: frozenset[str]
    """Names in ``__all__`` that the module imports rather than defines."""


def python_module(source: bytes, rel: str) -> PythonModule:
    """The public symbols of ``source`` (the bytes of file ``rel``).

    Raises :class:`SyntaxError` (or ``ValueError``/``RecursionError``) when it cannot be parsed.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences etc. must not reach stderr
        tree = ast.parse(source, filename=rel)
    src = _Source(source, rel)
    defined: dict[str, Symbol] = {}
    imported: dict[str, tuple[int, str]] = {}
    """Imported name → (line, note naming the module it comes from)."""
    exported = _literal_all(tree.body)
    methods: list[Symbol] = []
    for node, doc in _top_level(tree.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            defined.setdefault(node.name, _function(node, src, "function", node.name))
        elif isinstance(node, ast.ClassDef):
            defined.setdefault(node.name, _class(node, src))
            methods.extend(_methods(node, src))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for sym in _assignment(node, src, doc):
                defined.setdefault(sym.name, sym)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            origin = _import_origin(node)
            for alias in node.names:
                name = alias.asname or alias.name.partition(".")[0]
                note = f"re-export from {origin or alias.name}"
                imported.setdefault(name, (alias.lineno, note))
    if exported is None:
        public = [s for s in defined.values() if not s.name.startswith("_")]
        reexports: frozenset[str] = frozenset()
    else:
        public = [defined[n] for n in exported if n in defined]
        missing = [n for n in exported if n not in defined]
        for n in missing:
            line, note = imported.get(n, (1, "re-export"))
            public.append(Symbol(n, _guess_kind(n), rel, line, note))
        reexports = frozenset(missing)
    owners = {s.name for s in public if s.kind in ("class", "enum", "interface", "type")}
    public += [m for m in methods if m.name.partition(".")[0] in owners]
    public.sort(key=lambda s: (s.line, s.name))
    summary = _first_paragraph(ast.get_docstring(tree, clean=False))
    return PythonModule(tuple(public), summary, _has_main_guard(tree.body), reexports)


def _top_level(body: list[ast.stmt]) -> list[tuple[ast.stmt, str]]:
    """Top-level statements (one level into ``if``/``try``) with their attribute docstring."""
    flat: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If) and not _is_main_guard(node):
            flat += node.body + node.orelse
        elif isinstance(node, ast.Try):
            flat += node.body + [s for h in node.handlers for s in h.body] + node.orelse
        else:
            flat.append(node)
    out: list[tuple[ast.stmt, str]] = []
    for i, node in enumerate(flat):
        nxt = flat[i + 1] if i + 1 < len(flat) else None
        doc = ""
        if (
            isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            doc = _first_paragraph(nxt.value.value)
        out.append((node, doc))
    return out


def _literal_all(body: list[ast.stmt]) -> list[str] | None:
    """The names of a literal ``__all__`` (with ``+=`` and ``.extend``), else ``None``."""
    names: list[str] | None = None
    for node in body:
        value: ast.expr | None = None
        if isinstance(node, ast.Assign | ast.AnnAssign) and _assigns_all(node):
            names, value = [], node.value
        elif isinstance(node, ast.AugAssign) and _is_name(node.target, "__all__"):
            value = node.value
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "extend"
            and _is_name(node.value.func.value, "__all__")
            and node.value.args
        ):
            value = node.value.args[0]
        if value is None:
            continue
        if not isinstance(value, ast.List | ast.Tuple):
            return None  # computed: cannot be trusted, fall back to naming rules
        items = [e.value for e in value.elts if isinstance(e, ast.Constant)]
        names = (names or []) + [v for v in items if isinstance(v, str)]
    if names is None:
        return None
    return list(dict.fromkeys(names))


def _import_origin(node: ast.Import | ast.ImportFrom) -> str:
    if isinstance(node, ast.Import):
        return ""
    return "." * node.level + (node.module or "")


def _assigns_all(node: ast.Assign | ast.AnnAssign) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(_is_name(t, "__all__") for t in targets)


class _Source:
    """The file's bytes split in lines, to quote signatures and values as written.

    Quoting the source is several times cheaper than :func:`ast.unparse` and keeps the
    author's spelling. AST column offsets count UTF-8 bytes, hence bytes.
    """

    def __init__(self, source: bytes, rel: str) -> None:
        self.rel = rel
        self.lines = source.splitlines(keepends=True)

    def span(self, line: int, col: int, end_line: int, end_col: int) -> str:
        """Text from (line, col) to (end_line, end_col); lines 1-based, columns in bytes."""
        if line == end_line:
            raw = self.lines[line - 1][col:end_col] if line <= len(self.lines) else b""
        else:
            raw = b"".join(
                [self.lines[line - 1][col:], *self.lines[line : end_line - 1]]
                + ([self.lines[end_line - 1][:end_col]] if end_line <= len(self.lines) else [])
            )
        return raw.decode("utf-8", errors="replace")

    def segment(self, node: ast.expr) -> str:
        """The source text of an expression, whitespace collapsed."""
        end_line = node.end_lineno or node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return _tidy(self.span(node.lineno, node.col_offset, end_line, end_col))

    def header(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
        """What follows the name in a ``def``/``class`` line: ``(params) -> ret`` or ``(bases)``."""
        first = node.body[0]
        text = self.span(node.lineno, node.col_offset, first.lineno, first.col_offset)
        text = _strip_comments(text)
        start = text.find(node.name) + len(node.name)
        return _tidy(text[start : text.rfind(":")])


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, src: _Source, kind: SymbolKind, name: str
) -> Symbol:
    signature = src.header(node)
    positional = node.args.posonlyargs + node.args.args
    if kind == "method" and positional and positional[0].arg in ("self", "cls", "mcs"):
        # the receiver is noise in a summary
        signature = re.sub(rf"^\(\s*{positional[0].arg}\b(?:\s*:[^,)]*)?\s*,?\s*", "(", signature)
    if isinstance(node, ast.AsyncFunctionDef):
        signature = "async " + signature
    summary = _first_paragraph(ast.get_docstring(node, clean=False))
    return Symbol(name, kind, src.rel, node.lineno, _clip(signature, MAX_DETAIL), summary)


def _class(node: ast.ClassDef, src: _Source) -> Symbol:
    bases = {_base_name(b) for b in node.bases}
    kind: SymbolKind = "class"
    if bases & _ENUM_BASES:
        kind = "enum"
    elif bases & _INTERFACE_BASES:
        kind = "interface"
    elif bases & _TYPE_BASES:
        kind = "type"
    detail = src.header(node) if node.bases or node.keywords else ""
    summary = _first_paragraph(ast.get_docstring(node, clean=False))
    return Symbol(node.name, kind, src.rel, node.lineno, _clip(detail, MAX_DETAIL), summary)


def _methods(node: ast.ClassDef, src: _Source) -> list[Symbol]:
    seen: dict[str, Symbol] = {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and not item.name.startswith(
            "_"
        ):
            seen.setdefault(item.name, _function(item, src, "method", f"{node.name}.{item.name}"))
    return list(seen.values())


def _assignment(node: ast.Assign | ast.AnnAssign, src: _Source, doc: str) -> list[Symbol]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    value = node.value
    annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
    out: list[Symbol] = []
    for name in names:
        if annotation is not None and _base_name(annotation) == "TypeAlias":
            kind: SymbolKind = "type"
        elif _CONSTANT.fullmatch(name):
            kind = "const"
        elif name[:1].isupper() and isinstance(value, ast.Subscript | ast.BinOp):
            kind = "type"  # e.g. Kind = Literal["a", "b"] or Num = int | float
        else:
            continue
        detail = f": {src.segment(annotation)}" if annotation is not None else ""
        if value is not None:
            detail += f" = {_clip(src.segment(value), MAX_VALUE)}"
        out.append(Symbol(name, kind, src.rel, node.lineno, _clip(detail.strip(), MAX_DETAIL), doc))
    return out


def _guess_kind(name: str) -> SymbolKind:
    """Kind of a re-exported name, from naming conventions (refined later when possible)."""
    if _CONSTANT.fullmatch(name) and len(name) > 1:
        return "const"
    return "class" if name[:1].isupper() else "function"


def _has_main_guard(body: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.If) and _is_main_guard(n) for n in body)


def _is_main_guard(node: ast.If) -> bool:
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.comparators) == 1):
        return False
    sides = [test.left, test.comparators[0]]
    has_name = any(_is_name(s, "__name__") for s in sides)
    has_main = any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)
    return has_name and has_main


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _first_paragraph(text: str | None) -> str:
    """A docstring's first paragraph on one line, as :func:`first_paragraph` reads a doc
    comment in any other language (the first line alone cut sentences mid-way: "A registry
    of Schema classes. This allows for string"): up to a blank line, a field list
    (``:param x:``) or a doctest, Sphinx roles and literals read as plain names."""
    if not text:
        return ""
    lines: list[str] = []
    for line in text.strip().splitlines():
        stripped = line.strip()
        if not stripped:
            if lines:
                break
            continue
        if lines and (stripped.startswith(">>>") or _FIELD.match(stripped)):
            break
        lines.append(stripped)
    # Sphinx roles and literals read better as plain names: :class:`Memory` -> Memory
    return first_paragraph(_ROLE.sub(r"\1", " ".join(lines)).replace("``", ""))


def _tidy(text: str) -> str:
    """Whitespace collapsed, no padding inside brackets, no trailing comma before a closer."""
    text = " ".join(text.split())
    text = re.sub(r"([(\[{]) ", r"\1", text)
    return re.sub(r",? ([)\]}])", r"\1", text)


def _strip_comments(text: str) -> str:
    """Drop ``# ...`` comments from lines without quotes (a multi-line signature's notes)."""
    if "#" not in text:
        return text
    return "\n".join(
        line.split("#", 1)[0] if "'" not in line and '"' not in line else line
        for line in text.split("\n")
    )


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
