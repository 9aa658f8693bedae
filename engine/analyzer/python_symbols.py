"""Public names of a Python module, read with :mod:`ast` (the code is never imported or run).

Public means: listed in ``__all__`` when the module declares it as a literal; otherwise the
top-level functions, classes and ALL_CAPS constants whose names do not start with ``_``.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from engine.analyzer.model import Symbol, SymbolKind

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
_INTERFACE_BASES = frozenset({"Protocol", "ABC"})
_TYPE_BASES = frozenset({"TypedDict", "NamedTuple"})
MAX_DETAIL = 120
MAX_SUMMARY = 160


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
    defined: dict[str, Symbol] = {}
    imported: dict[str, int] = {}
    exported = _literal_all(tree.body)
    methods: list[Symbol] = []
    for node, doc in _top_level(tree.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            defined.setdefault(node.name, _function(node, rel, "function", node.name))
        elif isinstance(node, ast.ClassDef):
            defined.setdefault(node.name, _class(node, rel))
            methods.extend(_methods(node, rel))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for sym in _assignment(node, rel, doc):
                defined.setdefault(sym.name, sym)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                name = alias.asname or alias.name.partition(".")[0]
                imported.setdefault(name, node.lineno)
    if exported is None:
        public = [s for s in defined.values() if not s.name.startswith("_")]
        reexports: frozenset[str] = frozenset()
    else:
        public = [defined[n] for n in exported if n in defined]
        missing = [n for n in exported if n not in defined]
        public += [Symbol(n, _guess_kind(n), rel, imported.get(n, 1), "re-export") for n in missing]
        reexports = frozenset(missing)
    owners = {s.name for s in public if s.kind in ("class", "enum", "interface", "type")}
    public += [m for m in methods if m.name.partition(".")[0] in owners]
    public.sort(key=lambda s: (s.line, s.name))
    summary = _first_line(ast.get_docstring(tree, clean=True))
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
            doc = _first_line(nxt.value.value)
        out.append((node, doc))
    return out


def _literal_all(body: list[ast.stmt]) -> list[str] | None:
    """The names of a literal ``__all__`` (with ``+=`` and ``.extend``), else ``None``."""
    names: list[str] | None = None
    for node in body:
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and any(_is_name(t, "__all__") for t in node.targets):
            names, value = [], node.value
        elif isinstance(node, ast.AnnAssign) and _is_name(node.target, "__all__"):
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


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, rel: str, kind: SymbolKind, name: str
) -> Symbol:
    signature = ast.unparse(node.args)
    positional = node.args.posonlyargs + node.args.args
    if kind == "method" and positional and positional[0].arg in ("self", "cls", "mcs"):
        # the receiver is noise in a summary
        signature = re.sub(rf"^{positional[0].arg}(?:: [^,]*)?(?:, )?", "", signature)
    signature = f"({signature})"
    if node.returns is not None:
        signature += f" -> {ast.unparse(node.returns)}"
    if isinstance(node, ast.AsyncFunctionDef):
        signature = "async " + signature
    summary = _first_line(ast.get_docstring(node, clean=True))
    return Symbol(name, kind, rel, node.lineno, _clip(signature, MAX_DETAIL), summary)


def _class(node: ast.ClassDef, rel: str) -> Symbol:
    bases = {_base_name(b) for b in node.bases}
    kind: SymbolKind = "class"
    if bases & _ENUM_BASES:
        kind = "enum"
    elif bases & _INTERFACE_BASES:
        kind = "interface"
    elif bases & _TYPE_BASES:
        kind = "type"
    detail = f"({', '.join(ast.unparse(b) for b in node.bases)})" if node.bases else ""
    summary = _first_line(ast.get_docstring(node, clean=True))
    return Symbol(node.name, kind, rel, node.lineno, _clip(detail, MAX_DETAIL), summary)


def _methods(node: ast.ClassDef, rel: str) -> list[Symbol]:
    seen: dict[str, Symbol] = {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and not item.name.startswith(
            "_"
        ):
            seen.setdefault(item.name, _function(item, rel, "method", f"{node.name}.{item.name}"))
    return list(seen.values())


def _assignment(node: ast.Assign | ast.AnnAssign, rel: str, doc: str) -> list[Symbol]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    value = node.value
    annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
    out: list[Symbol] = []
    for name in names:
        if annotation is not None and ast.unparse(annotation).endswith("TypeAlias"):
            kind: SymbolKind = "type"
        elif _CONSTANT.fullmatch(name):
            kind = "const"
        elif name[:1].isupper() and isinstance(value, ast.Subscript | ast.BinOp):
            kind = "type"  # e.g. Kind = Literal["a", "b"] or Num = int | float
        else:
            continue
        detail = f": {ast.unparse(annotation)}" if annotation is not None else ""
        if value is not None:
            detail += f" = {ast.unparse(value)}"
        out.append(Symbol(name, kind, rel, node.lineno, _clip(detail.strip(), MAX_DETAIL), doc))
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


def _first_line(text: str | None) -> str:
    if not text:
        return ""
    for line in text.strip().splitlines():
        if line.strip():
            return _clip(line.strip(), MAX_SUMMARY)
    return ""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
