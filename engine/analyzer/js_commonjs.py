"""CommonJS exports (``module.exports = ...``, ``exports.x = ...``), by scanning
comment-free source.

ES module and TypeScript exports come from a syntax tree (:mod:`js_symbols`); CommonJS
exports are assignments at run time, which no grammar marks as exports, so they are found
here by hand. Comments and literals are blanked first (:mod:`js_lexer`), so an assignment
in a comment or a string is never reported. Standard library only: the stale check of
search results (:mod:`engine.freshness.code_symbols`) uses this too.
"""

from __future__ import annotations

import bisect
import re

from engine.analyzer.js_lexer import strip_js
from engine.analyzer.model import Symbol, SymbolKind

ID = r"[^\W\d][\w$]*|\$[\w$]*"
"""An identifier: letters of any script, digits, ``_`` and ``$``, not starting with a digit."""
_LOCAL = re.compile(
    rf"""(?<![\w$.])(?:
        (?:async\s+)?function\b\s*\*?\s*(?P<func>{ID})
      | class\s+(?P<cls>{ID})
      | (?:const\s+)?enum\s+(?P<enum>{ID})
      | interface\s+(?P<iface>{ID})
      | type\s+(?P<type>{ID})\s*(?:<[^;]*?>\s*)?=(?!=)
      | (?:const|let|var)\s+(?P<var>{ID})
    )""",
    re.VERBOSE,
)
_CJS_OBJECT = re.compile(r"(?<![\w$.])module\s*\.\s*exports\s*=\s*")
_CJS_PROPERTY = re.compile(
    rf"(?<![\w$.])(?:module\s*\.\s*)?exports\s*\.\s*(?P<name>{ID})\s*=(?!=)\s*"
)
_FUNCTION_VALUE = re.compile(
    rf"""(?:async\s*)?(?:
        function\b
      | (?:{ID})\s*=>
      | (?:<[^>]*>\s*)?\((?:[^()]|\([^()]*\))*\)\s*(?::[^=;{{]+)?=>
    )""",
    re.VERBOSE,
)
_ASSIGNMENT = re.compile(r"\s*(?::[^=;\n]+)?=(?!=)\s*")
_CLASS_VALUE = re.compile(r"class\b")
_CJS_FUNCTION = re.compile(rf"(?:async\s+)?function\b\s*\*?\s*({ID})")
_CJS_CLASS = re.compile(rf"class\s+({ID})")
_CJS_IDENT = re.compile(rf"({ID})\s*(?:;|$)", re.MULTILINE)
_OBJECT_KEY = re.compile(rf"(?:async\s+|get\s+|set\s+)?\*?\s*({ID})")
_GROUP_KINDS: dict[str, SymbolKind] = {
    "func": "function",
    "cls": "class",
    "enum": "enum",
    "iface": "interface",
    "type": "type",
}


def commonjs_symbols(source: str, rel: str) -> tuple[Symbol, ...]:
    """The CommonJS exports of one file, in source order (first occurrence wins)."""
    if "exports" not in source:
        return ()
    code = strip_js(source)
    found = _Found(code, rel, source)
    locals_ = local_kinds(code)
    for m in _CJS_OBJECT.finditer(code):
        start = m.end()
        if code.startswith("{", start):
            _object_keys(found, locals_, start)
        elif v := _CJS_FUNCTION.match(code, start):
            found.add(v.group(1), "function", start, "module.exports")
        elif v := _CJS_CLASS.match(code, start):
            found.add(v.group(1), "class", start, "module.exports")
        elif v := _CJS_IDENT.match(code, start):
            found.add(v.group(1), "default", start, "module.exports")
    for m in _CJS_PROPERTY.finditer(code):
        name = m.group("name")
        found.add(name, _expression_kind(code, m.end()), m.start("name"))
    return tuple(sorted(found.symbols.values(), key=lambda s: (s.line, s.name)))


class _Found:
    """Symbols collected so far, with offset → line translation."""

    def __init__(self, code: str, rel: str, source: str) -> None:
        self.code, self.rel, self.source = code, rel, source
        self.newlines = [i for i, ch in enumerate(code) if ch == "\n"]
        self.symbols: dict[str, Symbol] = {}

    def add(self, name: str, kind: SymbolKind, offset: int, detail: str = "") -> None:
        if name and name not in self.symbols:
            line = bisect.bisect_left(self.newlines, offset) + 1
            self.symbols[name] = Symbol(name, kind, self.rel, line, detail)


def local_kinds(code: str) -> dict[str, SymbolKind]:
    """Kinds of the names declared anywhere in comment-free ``code``."""
    kinds: dict[str, SymbolKind] = {}
    for m in _LOCAL.finditer(code):
        group = m.lastgroup or "var"
        kind = _value_kind(code, m.end()) if group == "var" else _GROUP_KINDS[group]
        kinds.setdefault(m.group(group), kind)
    return kinds


def _value_kind(code: str, pos: int) -> SymbolKind:
    """``function`` or ``class`` when the declaration at ``pos`` is assigned one, else ``const``."""
    m = _ASSIGNMENT.match(code, pos)
    return "const" if m is None else _expression_kind(code, m.end())


def _expression_kind(code: str, pos: int) -> SymbolKind:
    if _FUNCTION_VALUE.match(code, pos):
        return "function"
    return "class" if _CLASS_VALUE.match(code, pos) else "const"


def _object_keys(found: _Found, locals_: dict[str, SymbolKind], start: int) -> None:
    """Keys of the object literal opening at ``start`` (``{``), top level only."""
    code, depth, item_start = found.code, 0, start + 1
    items: list[tuple[int, int]] = []
    for k in range(start, len(code)):
        ch = code[k]
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
            if depth == 0:
                items.append((item_start, k))
                break
        elif ch == "," and depth == 1:
            items.append((item_start, k))
            item_start = k + 1
    for a, b in items:
        text = code[a:b]
        lead = len(text) - len(text.lstrip())
        stripped = text.strip()
        if not stripped or stripped.startswith("..."):
            continue
        offset = a + lead
        if stripped[0] in "\"'":  # quoted key: its text is blanked in code, read the original
            end = found.source.find(stripped[0], offset + 1)
            name, rest = found.source[offset + 1 : end], code[end + 1 : b]
        else:
            km = _OBJECT_KEY.match(code, offset)
            if km is None:
                continue
            name, rest = km.group(1), code[km.end() : b]
        rest = rest.strip()
        if rest.startswith("("):
            kind: SymbolKind = "function"
        elif rest.startswith(":"):
            value = rest[1:].strip()
            kind = _expression_kind(value, 0)
            if re.fullmatch(ID, value):
                kind = locals_.get(value, kind)
        else:
            kind = locals_.get(name, "const")
        found.add(name, kind, offset, "module.exports")
