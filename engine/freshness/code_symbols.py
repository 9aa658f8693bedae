"""Every name a source file defines, public or not, for checking a cited symbol still exists.

The analyzer (:mod:`engine.analyzer`) lists a module's *exported* names; a note may cite a
private helper too, so this looks at every definition: Python functions, classes and
methods (as ``name`` and ``Class.method``) and module-level assignments, via :mod:`ast`;
JavaScript and TypeScript declarations (function, class, const/let/var, interface, type,
enum), export aliases and CommonJS exports, on comment-free source (:mod:`js_lexer`,
:mod:`js_commonjs`: standard library, because this runs when search results are read; the
analyzer's tree-sitter parser is never loaded here). Other languages return None: only
the file hash is checked.
"""

from __future__ import annotations

import ast
import re

from engine.analyzer.js_commonjs import ID, commonjs_symbols
from engine.analyzer.js_lexer import strip_js
from engine.analyzer.languages import language_of

_JS_DECL = re.compile(
    r"(?<![\w$.])(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace)"
    rf"\s+({ID})"
)
_JS_METHOD = re.compile(r"^\s*(?:async\s+|static\s+|public\s+|private\s+|protected\s+)*"
                        rf"({ID})\s*\([^)]*\)\s*[:{{]", re.MULTILINE)  # fmt: skip
_JS_LISTED = re.compile(rf"(?:^|,)[ \t]*({ID})[ \t]*(?::[^=,;\n]+)?=(?![=>])", re.MULTILINE)
"""A later name of a declaration list (``const a = 1, b = 2``), or any assignment at the
start of a line: a superset, since a name missed here would flag a note stale wrongly."""
_JS_ALIAS = re.compile(rf"(?<![\w$.])as\s+({ID})")
"""A name given by ``export { a as b }`` (a superset: ``import * as c`` counts too)."""


def defined_names(rel: str, data: bytes) -> set[str] | None:
    """Names defined in the file ``rel`` with bytes ``data``; None when the language is not
    understood or the file does not parse (then a symbol cannot be checked)."""
    language = language_of(rel.rpartition("/")[2])
    if language == "Python":
        return _python_names(data)
    if language in ("JavaScript", "TypeScript"):
        text = data.decode("utf-8", errors="replace")
        try:
            code = strip_js(text)
            names = {m.group(1) for m in _JS_DECL.finditer(code)}
            names |= {m.group(1) for m in _JS_METHOD.finditer(code)}
            names |= {m.group(1) for m in _JS_ALIAS.finditer(code)}
            names |= {m.group(1) for m in _JS_LISTED.finditer(code)}
            names |= {s.name for s in commonjs_symbols(text, rel)}
        except Exception:  # a scanner bug must not break a search
            return None
        return names
    return None


def _python_names(data: bytes) -> set[str] | None:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: set[str] = set()
    for node in tree.body:
        _collect(node, "", names)
    return names


def _collect(node: ast.AST, owner: str, names: set[str]) -> None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        names.add(node.name)
        if owner:
            names.add(f"{owner}.{node.name}")
        inner = node.name if isinstance(node, ast.ClassDef) else ""
        for child in node.body:
            _collect(child, inner, names)
    elif isinstance(node, ast.Assign | ast.AnnAssign) and not owner:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    elif isinstance(node, ast.If | ast.Try | ast.With):
        for inner_node in ast.iter_child_nodes(node):
            if isinstance(inner_node, ast.stmt):
                _collect(inner_node, owner, names)
