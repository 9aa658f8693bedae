"""Exported names of JavaScript and TypeScript modules, read from a tree-sitter syntax tree.

Covers ES module exports (declarations, ``export default``, ``export { a, b as c }``,
``export * as ns``), TypeScript declarations (interfaces, type aliases, enums, namespaces,
``declare``, ``export =``) and CommonJS (:mod:`js_commonjs`, by hand: no grammar marks an
assignment to ``module.exports`` as an export). Only the module's top level counts: the
members of an exported namespace are not the module's exports.

tree-sitter is imported on the first call, so only the analyzer pays for it; the stale
check of search results and the prompt hook never import this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from engine.analyzer.js_commonjs import commonjs_symbols
from engine.analyzer.model import Symbol, SymbolKind

if TYPE_CHECKING:
    from tree_sitter import Language, Node

_DIALECTS = {".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx"}
"""Grammar by file extension; every other file (``.js``, ``.jsx``, ``.mjs``...) is JavaScript."""
_DECLARATION_KINDS: dict[str, SymbolKind] = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "function_signature": "function",
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
}
_VALUE_KINDS: dict[str, SymbolKind] = {
    "arrow_function": "function",
    "function_expression": "function",
    "function": "function",
    "generator_function": "function",
    "class": "class",
}
_VARIABLES = ("lexical_declaration", "variable_declaration")
_NAMESPACES = ("internal_module", "module")
MAX_RECOVERED = 500
"""Most export statements parsed again after syntax errors, per parse."""
MAX_DEPTH = 3
"""How many times a piece cut out after a syntax error may be cut again."""

Found = tuple[str, int, SymbolKind, str]
"""A name, its 1-based line, its kind and the symbol's detail."""


def js_symbols(source: str, rel: str) -> tuple[Symbol, ...]:
    """The exported names of one JS/TS file, in source order (first occurrence wins)."""
    data = source.encode("utf-8", errors="replace")
    root = _parse(data, rel)
    locals_ = _local_kinds(root)
    symbols: dict[str, Symbol] = {}
    for node in _statements(root, data, rel):
        for name, line, kind, detail in _exports(node, locals_):
            if name and name not in symbols:
                symbols[name] = Symbol(name, kind, rel, line, detail)
    for sym in commonjs_symbols(source, rel):
        symbols.setdefault(sym.name, sym)
    return tuple(sorted(symbols.values(), key=lambda s: (s.line, s.name)))


@cache
def _language(dialect: str) -> Language:
    from tree_sitter import Language

    if dialect == "javascript":
        import tree_sitter_javascript

        return Language(tree_sitter_javascript.language())
    import tree_sitter_typescript

    grammar = tree_sitter_typescript
    return Language(grammar.language_tsx() if dialect == "tsx" else grammar.language_typescript())


def _parse(data: bytes, rel: str) -> Node:
    """The root node of the file's syntax tree (a parser per call: they are not shared
    between threads)."""
    from tree_sitter import Parser

    suffix = rel[rel.rfind(".") :] if "." in rel.rpartition("/")[2] else ""
    parser = Parser(_language(_DIALECTS.get(suffix.lower(), "javascript")))
    return parser.parse(data).root_node


def _statements(root: Node, data: bytes, rel: str, depth: int = 0) -> list[Node]:
    """The top-level export statements, with those a syntax error swallowed parsed again.

    An error (a construct the grammar gives up on, such as hono's long TypeScript call
    signatures) can swallow the statements after it into ``ERROR`` nodes; every ``export``
    keyword left in one starts a new parse that runs to the next such keyword
    (itself recovered the same way, :data:`MAX_DEPTH` deep). The text is preceded by as
    many line breaks as it had lines before it, so line numbers stay those of the file.
    """
    found = [n for n in root.named_children if n.type == "export_statement"]
    if not root.has_error or depth >= MAX_DEPTH:
        return found
    starts: list[int] = []
    stack = [root]
    while stack and len(starts) < MAX_RECOVERED:
        node = stack.pop()
        parent = node.parent
        if node.type == "export" and parent is not None and parent.type == "ERROR":
            starts.append(node.start_byte)
        else:  # only where the error is
            stack.extend(c for c in node.children if c.has_error or c.type == "export")
    starts.sort()
    for a, b in zip(starts, [*starts[1:], len(data)], strict=False):
        padded = b"\n" * data.count(b"\n", 0, a) + data[a:b]
        found += _statements(_parse(padded, rel), padded, rel, depth + 1)
    return found


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _found(node: Node, kind: SymbolKind, detail: str, name: str | None = None) -> Found:
    """The symbol named by ``node`` (or called ``name``, at the line of ``node``)."""
    return (_text(node) if name is None else name, node.start_point.row + 1, kind, detail)


def _tokens(node: Node) -> set[str]:
    """The anonymous tokens directly under ``node`` (``default``, ``type``, ``=``...)."""
    return {child.type for child in node.children if not child.is_named}


def _exports(node: Node, locals_: dict[str, SymbolKind]) -> Iterator[Found]:
    """What one top-level ``export`` statement exports."""
    tokens = _tokens(node)
    declaration = node.child_by_field_name("declaration")
    value = node.child_by_field_name("value")
    if declaration is not None:
        detail = "default export" if "default" in tokens else ""
        yield from _declared(declaration, detail)
    elif "default" in tokens:
        yield _default_value(node, value)
    elif "=" in tokens:  # TypeScript: export = Api;
        target = next(iter(node.named_children), None)
        if target is not None and target.type == "identifier":
            yield _found(target, "default", "export =")
        else:
            yield _found(node, "default", "export =", "default")
    else:
        yield from _export_clause(node, tokens, locals_)


def _default_value(node: Node, value: Node | None) -> Found:
    """``export default <expression>``: a named class or function keeps its name."""
    if value is None:
        return _found(node, "default", "default export", "default")
    if value.type == "identifier":
        return _found(value, "default", "default export")
    name = value.child_by_field_name("name")
    kind = _VALUE_KINDS.get(value.type, "default")
    if name is None:
        return _found(value, kind, "default export", "default")
    return _found(name, kind, "default export")


def _declared(node: Node, detail: str) -> Iterator[Found]:
    """The names a declaration binds: one, or several for ``const a = 1, b = 2``."""
    if node.type == "ambient_declaration":  # declare ...
        for child in node.named_children:
            yield from _declared(child, detail)
        return
    name = node.child_by_field_name("name")
    if node.type in _DECLARATION_KINDS and name is not None:
        yield _found(name, _DECLARATION_KINDS[node.type], detail)
    elif node.type in _NAMESPACES and name is not None and name.type != "string":
        yield _found(name, "const", detail or "namespace")
    elif node.type == "import_alias":  # export import Parser = Internal.Parser;
        alias = next(iter(node.named_children), None)
        if alias is not None and alias.type == "identifier":
            yield _found(alias, "const", detail or "import alias")
    elif node.type in _VARIABLES:
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            target = declarator.child_by_field_name("name")
            if target is None:
                continue
            kind = _value_kind(declarator)
            for ident in _pattern_names(target):
                yield _found(ident, kind if ident == target else "const", detail)


def _value_kind(declarator: Node) -> SymbolKind:
    value = declarator.child_by_field_name("value")
    return "const" if value is None else _VALUE_KINDS.get(value.type, "const")


def _pattern_names(node: Node) -> Iterator[Node]:
    """The identifiers a binding pattern binds: ``{ a, b: c, ...d }``, ``[e, , f = 1]``."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        yield node
    elif node.type == "pair_pattern":
        value = node.child_by_field_name("value")
        if value is not None:
            yield from _pattern_names(value)
    elif node.type in ("assignment_pattern", "object_assignment_pattern"):
        left = node.child_by_field_name("left") or next(iter(node.named_children), None)
        if left is not None:
            yield from _pattern_names(left)
    elif node.type in ("object_pattern", "array_pattern", "rest_pattern"):
        for child in node.named_children:
            yield from _pattern_names(child)


def _export_clause(node: Node, tokens: set[str], locals_: dict[str, SymbolKind]) -> Iterator[Found]:
    """``export { a, b as c } [from "./x"]``, ``export type { T }``, ``export * as ns``."""
    source = node.child_by_field_name("source")
    note = ""
    if source is not None:
        fragment = next((c for c in source.named_children if c.type == "string_fragment"), None)
        note = f"re-export from {_text(fragment)}" if fragment is not None else "re-export"
    for child in node.named_children:
        if child.type == "namespace_export":
            name = next((c for c in child.named_children if c.type == "identifier"), None)
            if name is not None:
                yield _found(name, "const", "namespace re-export")
        elif child.type == "export_clause":
            for spec in child.named_children:
                if spec.type == "export_specifier":
                    yield from _specifier(spec, "type" in tokens, note, locals_)


def _specifier(
    spec: Node, type_only: bool, note: str, locals_: dict[str, SymbolKind]
) -> Iterator[Found]:
    local = spec.child_by_field_name("name")
    alias = spec.child_by_field_name("alias")
    exported = alias if alias is not None else local
    if local is None or exported is None:
        return
    if _text(exported) == "default":  # export { app as default }
        yield _found(local, "default", "default export")
        return
    if exported.type != "identifier":  # export { a as "a-b" }
        return
    forced = type_only or "type" in _tokens(spec)
    yield _found(exported, "type" if forced else locals_.get(_text(local), "const"), note)


def _local_kinds(root: Node) -> dict[str, SymbolKind]:
    """Kinds of the names declared at the top level, exported or not (for export lists)."""
    kinds: dict[str, SymbolKind] = {}
    for node in root.named_children:
        inner = node.child_by_field_name("declaration") if node.type == "export_statement" else node
        if inner is None:
            continue
        for name, _, kind, _ in _declared(inner, ""):
            kinds.setdefault(name, kind)
    return kinds
