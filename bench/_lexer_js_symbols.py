"""Exported names of JavaScript and TypeScript modules, by scanning comment-free source.

Covers ES module exports (declarations, ``export default``, ``export { a, b as c }``,
``export * as ns``), TypeScript ``export =`` and CommonJS (``module.exports = ...``,
``exports.x = ...``). Comments and literals are blanked first (:mod:`js_lexer`), so an
export in a comment or a string is never reported.
"""

from __future__ import annotations

import bisect
import re

from engine.analyzer.js_lexer import strip_js
from engine.analyzer.model import Symbol, SymbolKind

_ID = r"[A-Za-z_$][\w$]*"
_EXPORT = re.compile(r"(?<![\w$.])export\b")
_DECL = re.compile(
    rf"""\s+(?:declare\s+)?(?:
        (?P<func>(?:async\s+)?function\b\s*\*?\s*(?P<fname>{_ID}))
      | (?P<cls>(?:abstract\s+)?class\s+(?P<cname>{_ID}))
      | (?P<enum>(?:const\s+)?enum\s+(?P<ename>{_ID}))
      | (?P<var>(?:const|let|var)\s+(?P<vname>{_ID}|\{{[^}}]*\}}|\[[^\]]*\]))
      | (?P<iface>interface\s+(?P<iname>{_ID}))
      | (?P<type>type\s+(?P<tname>{_ID})\s*(?:<[^=]*>\s*)?=)
      | (?P<ns>(?:namespace|module)\s+(?P<nname>{_ID}))
    )""",
    re.VERBOSE,
)
_DEFAULT = re.compile(
    rf"""\s+default\s+(?:
        (?P<cls>(?:abstract\s+)?class\b\s*(?P<cname>{_ID})?)
      | (?P<func>(?:async\s+)?function\b\s*\*?\s*(?P<fname>{_ID})?)
      | (?P<ident>{_ID})\s*(?:;|$)
    )?""",
    re.VERBOSE | re.MULTILINE,
)
_LIST = re.compile(r"\s*(?:type\s*)?\{(?P<body>[^}]*)\}")
_STAR_AS = re.compile(rf"\s*\*\s*as\s+(?P<name>{_ID})")
_EQUALS = re.compile(rf"\s*=\s*(?P<name>{_ID})?")
_LOCAL = re.compile(
    rf"""(?<![\w$.])(?:
        (?:async\s+)?function\b\s*\*?\s*(?P<func>{_ID})
      | class\s+(?P<cls>{_ID})
      | (?:const\s+)?enum\s+(?P<enum>{_ID})
      | interface\s+(?P<iface>{_ID})
      | type\s+(?P<type>{_ID})\s*(?:<[^=]*>\s*)?=
      | (?:const|let|var)\s+(?P<var>{_ID})
    )""",
    re.VERBOSE,
)
_CJS_OBJECT = re.compile(r"(?<![\w$.])module\s*\.\s*exports\s*=\s*")
_CJS_PROPERTY = re.compile(
    rf"(?<![\w$.])(?:module\s*\.\s*)?exports\s*\.\s*(?P<name>{_ID})\s*=(?!=)\s*"
)
_FUNCTION_VALUE = re.compile(
    rf"""(?:async\s*)?(?:
        function\b
      | {_ID}\s*=>
      | (?:<[^>]*>\s*)?\((?:[^()]|\([^()]*\))*\)\s*(?::[^=;{{]+)?=>
    )""",
    re.VERBOSE,
)


_ASSIGNMENT = re.compile(r"\s*(?::[^=;\n]+)?=(?!=)\s*")
_CLASS_VALUE = re.compile(r"class\b")
_CJS_FUNCTION = re.compile(rf"(?:async\s+)?function\b\s*\*?\s*({_ID})")
_CJS_CLASS = re.compile(rf"class\s+({_ID})")
_CJS_IDENT = re.compile(rf"({_ID})\s*(?:;|$)", re.MULTILINE)
_OBJECT_KEY = re.compile(rf"(?:async\s+|get\s+|set\s+)?\*?\s*({_ID})")
_LIST_ITEM = re.compile(r"[^,]+")
_FROM = re.compile(r"\s*from\s*[\"']")
_GROUP_KINDS: dict[str, SymbolKind] = {
    "func": "function",
    "cls": "class",
    "enum": "enum",
    "iface": "interface",
    "type": "type",
}


def js_symbols(source: str, rel: str) -> tuple[Symbol, ...]:
    """The exported names of one JS/TS file, in source order (first occurrence wins)."""
    code = strip_js(source)
    found = _Found(code, rel, source)
    locals_ = _local_kinds(code)
    for m in _EXPORT.finditer(code):
        _export_statement(found, locals_, m.end())
    _commonjs(found, locals_)
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


def _local_kinds(code: str) -> dict[str, SymbolKind]:
    """Kinds of the names declared anywhere in the file (for ``export { a }`` lists)."""
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


def _export_statement(found: _Found, locals_: dict[str, SymbolKind], pos: int) -> None:
    code = found.code
    if m := _DEFAULT.match(code, pos):
        if m.group("cls") is not None:
            found.add(m.group("cname") or "default", "class", m.start(), "default export")
        elif m.group("func") is not None:
            found.add(m.group("fname") or "default", "function", m.start(), "default export")
        elif m.group("ident"):
            found.add(m.group("ident"), "default", m.start("ident"), "default export")
        else:
            found.add("default", "default", m.start(), "default export")
    elif m := _DECL.match(code, pos):
        _declaration(found, m)
    elif m := _LIST.match(code, pos):
        note = _reexport_note(found, m.end())
        type_only = code[pos : m.start("body")].strip().startswith("type")
        _export_list(found, locals_, m, "type" if type_only else None, note)
    elif m := _STAR_AS.match(code, pos):
        found.add(m.group("name"), "const", m.start("name"), "namespace re-export")
    elif m := _EQUALS.match(code, pos):
        name = m.group("name")
        found.add(name or "default", "default", m.start(), "export =")


def _reexport_note(found: _Found, pos: int) -> str:
    """``re-export from ./x`` when an export list at ``pos`` is followed by ``from "./x"``."""
    m = _FROM.match(found.code, pos)
    if m is None:
        return ""
    quote = m.end() - 1
    end = found.source.find(found.source[quote], quote + 1)
    return f"re-export from {found.source[quote + 1 : end]}" if end != -1 else "re-export"


def _declaration(found: _Found, m: re.Match[str]) -> None:
    offset = m.start(m.lastgroup or 0)
    if m.group("func"):
        found.add(m.group("fname"), "function", offset)
    elif m.group("cls"):
        found.add(m.group("cname"), "class", offset)
    elif m.group("enum"):
        found.add(m.group("ename"), "enum", offset)
    elif m.group("iface"):
        found.add(m.group("iname"), "interface", offset)
    elif m.group("type"):
        found.add(m.group("tname"), "type", offset)
    elif m.group("ns"):
        found.add(m.group("nname"), "const", offset, "namespace")
    elif m.group("var"):
        target = m.group("vname")
        if target[0] in "{[":  # destructuring: export const { a, b: c } = obj
            for part in target[1:-1].split(","):
                name = part.split(":")[-1].split("=")[0].strip().lstrip(".")
                if re.fullmatch(_ID, name):
                    found.add(name, "const", m.start("vname"))
        else:
            found.add(target, _value_kind(found.code, m.end("vname")), m.start("vname"))


def _export_list(
    found: _Found,
    locals_: dict[str, SymbolKind],
    m: re.Match[str],
    forced: SymbolKind | None,
    note: str,
) -> None:
    kind_hint: SymbolKind | None
    for item in _LIST_ITEM.finditer(m.group("body")):
        offset = m.start("body") + item.start() + len(item.group()) - len(item.group().lstrip())
        words = item.group().split()
        if words and words[0] == "type" and len(words) > 1:
            words, kind_hint = words[1:], "type"
        else:
            kind_hint = forced
        if not words:
            continue
        local = words[0]
        exported = words[2] if len(words) >= 3 and words[1] == "as" else local
        if not re.fullmatch(_ID, exported):
            continue
        kind: SymbolKind = kind_hint or locals_.get(local, "const")
        detail = note
        if exported == "default":
            exported, kind, detail = local, "default", "default export"
        found.add(exported, kind, offset, detail)


def _commonjs(found: _Found, locals_: dict[str, SymbolKind]) -> None:
    code = found.code
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
            if re.fullmatch(_ID, value):
                kind = locals_.get(value, kind)
        else:
            kind = locals_.get(name, "const")
        found.add(name, kind, offset, "module.exports")
