"""What a source file defines, read from its tree-sitter syntax tree.

The language's query (:mod:`engine.analyzer.grammars`) finds the definitions; each is
named after what it defines (``impl Flag for Hidden`` → ``Hidden (Flag)``, Go's
``func (s *Server) Serve`` → ``Server.Serve``, a method after its class), with its doc
comment and attributes, its line range, whether it is public and whether it is a test
(``#[cfg(test)]`` modules, ``#[test]`` and ``@Test`` functions, Go's ``func TestX``).
Definitions inside a function are left to it. The file's opening comment (licence
headers and tool directives aside) is its documentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from engine.analyzer.comments import NOT_DOC, comment_text, first_paragraph
from engine.analyzer.grammars import GRAMMARS, Grammar, definitions_query, parser_language
from engine.analyzer.model import Symbol, SymbolKind
from engine.analyzer.prose import text_chars

if TYPE_CHECKING:
    from tree_sitter import Node

CONTAINERS = frozenset({"class", "interface", "enum", "impl", "module"})
"""Kinds whose definitions inside are definitions of their own (methods, nested types)."""
_SYMBOL_KINDS: dict[str, SymbolKind] = {
    "class": "class", "interface": "interface", "enum": "enum", "type": "type",
    "function": "function", "method": "method", "const": "const", "macro": "function",
}  # fmt: skip
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W\d_]{2,}")
_GENERICS = re.compile(r"<.*>$")
MAX_PARAMETERS = 80
_PARAMETER_LISTS = frozenset(
    {"formal_parameters", "parameter_list", "function_value_parameters", "parameters",
     "method_parameters"}
)  # fmt: skip
_IMPORT = re.compile(
    r"import|use_declaration|package|using_directive|namespace_use|preproc_include|extern_crate"
    r"|php_tag"
)
"""Top-level nodes that bring names in (``import``, ``use``, ``package``, ``#include``)."""
_BODILESS = frozenset({"mod_item", "namespace_definition"})
"""Rust's ``mod flags;``, PHP's ``namespace App;``: declarations, not definitions."""


@dataclass(frozen=True, slots=True)
class Definition:
    """One class, function, method, type... of a file."""

    name: str
    """What it defines, qualified by its owner: ``Server.Serve``, ``Hidden (Flag)``."""
    kind: str
    """``class``, ``interface``, ``enum``, ``impl``, ``module``, ``type``, ``function``,
    ``method``, ``const``, ``macro`` or ``field`` (a struct's field, an enum's variant:
    what a long struct is cut along, not a symbol)."""
    start: int
    """1-based first line, its doc comment and attributes included."""
    line: int
    """1-based line where the definition itself starts."""
    end: int
    """1-based last line, inclusive."""
    doc: str
    depth: int
    """0 at the top level, 1 inside a class, ..."""
    public: bool
    test: bool
    """A test, or inside one."""
    parameters: str = ""
    """A function's parameter list, on one line (what tells overloads apart)."""
    index: int = 0
    """Its place in :attr:`Outline.definitions`."""


@dataclass(frozen=True, slots=True)
class Outline:
    definitions: tuple[Definition, ...]
    """In source order; a container before what it holds."""
    doc: str
    """The file's opening comment, markers removed ("" when none)."""
    doc_lines: tuple[int, int]
    """Its first and last line (``(0, 0)`` when none)."""
    test_lines: tuple[tuple[int, int], ...] = ()
    """Line ranges of top-level code marked as test code that defines nothing of the
    query's (Rust: ``#[cfg(test)] thread_local! { ... }``)."""
    import_lines: tuple[tuple[int, int], ...] = ()
    """Line ranges of the top-level imports, ``package`` and ``mod x;`` declarations."""
    text_chars: tuple[int, ...] = ()
    """Per line (0-based), the characters (bytes, blanks at its ends left out) that lie in
    comments and string literals: text written for people, not code."""

    @property
    def summary(self) -> str:
        """The opening comment's first paragraph, at most 240 characters."""
        return first_paragraph(self.doc)


@lru_cache(maxsize=256)
def outline(text: str, language: str) -> Outline:
    """The definitions and opening comment of a file in ``language`` (a key of
    :data:`~engine.analyzer.grammars.GRAMMARS`). Syntax errors cost only what they hide.
    The last 256 are kept: the definitions of a file the analysis has just read, or of one
    cut again coarser (:mod:`engine.analyzer.definitions`), are not parsed again."""
    from tree_sitter import Parser, QueryCursor

    data = text.encode("utf-8", errors="replace")
    root = Parser(parser_language(language)).parse(data).root_node
    grammar = GRAMMARS[language]
    found: dict[tuple[int, int], tuple[int, dict[str, list[Node]]]] = {}
    for index, captures in QueryCursor(definitions_query(language)).matches(root):
        node = next((v[0] for k, v in captures.items() if k.startswith("definition.")), None)
        if node is not None and "name" in captures:
            node = _extent(node, grammar.wrappers)
            key = (node.start_byte, node.end_byte)
            if key not in found or index < found[key][0]:
                found[key] = (index, captures)
    matches = sorted(found.items())
    definitions = _overloads(_test_classes(_definitions(matches, language)))
    doc, lines = _opening_comment(root, definitions)
    imports = tuple(
        (_first_line(n), _last_line(n))
        for n in root.named_children
        if _IMPORT.search(n.type) or (n.type in _BODILESS and n.child_by_field_name("body") is None)
    )
    return Outline(
        tuple(definitions), doc, lines, _test_code(root, grammar), imports, text_chars(root, data)
    )


def _test_code(root: Node, grammar: Grammar) -> tuple[tuple[int, int], ...]:
    """The top-level nodes that an attribute marks as tests, with the attribute."""
    found = []
    children = root.named_children
    for i, node in enumerate(children):
        if node.type in grammar.attributes and grammar.tests(_text(node)):
            following = next(
                (c for c in children[i + 1 :] if c.type not in grammar.attributes), None
            )
            if following is not None and "comment" not in following.type:
                found.append((_first_line(node), _last_line(following)))
    return tuple(found)


def _definitions(
    matches: list[tuple[tuple[int, int], tuple[int, dict[str, list[Node]]]]], language: str
) -> list[Definition]:
    """Long because it is one walk that keeps the stack of enclosing definitions (their
    byte ranges, kinds and names) that each definition's name, kind and test flag need."""
    grammar = GRAMMARS[language]
    out: list[Definition] = []
    stack: list[tuple[int, Definition, str]] = []  # (end byte, definition, owner prefix)
    for (start_byte, end_byte), (_, captures) in matches:
        while stack and stack[-1][0] <= start_byte:
            stack.pop()
        parent = stack[-1][1] if stack else None
        if parent is not None and parent.kind not in CONTAINERS:
            continue  # inside a function, a constant, a type alias: part of it
        node = next(v[0] for k, v in captures.items() if k.startswith("definition."))
        node = _extent(node, grammar.wrappers)
        kind = next(k for k in captures if k.startswith("definition.")).partition(".")[2]
        name_node = captures["name"][0]
        name = _clean(_text(name_node), strip_generics=name_node.type != "template_type")
        owner = stack[-1][2] if stack else ""
        if "owner" in captures:
            owner = _clean(_text(captures["owner"][0]), strip_generics=True)
        if kind == "function" and parent is not None and parent.kind != "module":
            kind = "method"
        if kind == "function" and "." in name.replace("::", "."):
            kind = "method"  # C++: Query::parse
        name = name.replace("::", ".")
        qualified = f"{owner}.{name}" if owner and kind != "module" else name
        shown = qualified
        if "trait" in captures:
            shown = f"{qualified} ({_clean(_text(captures['trait'][0]))})"
        first, doc = _leading(node, grammar.attributes)
        attributes = _attributes(node, first)
        test = (parent is not None and parent.test) or grammar.tests(
            f"{attributes}\n{_first_line_of(node, name_node)}"
        )
        before_name = f"{attributes}\n{_slice(node, node.start_byte, name_node.start_byte)}"
        public = kind in ("impl", "module") or _public(language, kind, name, before_name, parent)
        definition = Definition(
            name=shown,
            kind=kind,
            start=_first_line(first),
            line=_first_line(node),
            end=_last_line(node),
            doc=doc,
            depth=len(stack),
            public=public,
            test=test,
            parameters=_parameters(node) if kind in ("function", "method") else "",
            index=len(out),
        )
        out.append(definition)
        prefix = owner if kind == "module" else qualified
        stack.append((end_byte, definition, prefix if kind in CONTAINERS else owner))
    return out


def _overloads(definitions: list[Definition]) -> list[Definition]:
    """Functions of one name (Java's, C#'s, C++'s overloads) named with their parameters:
    ``Gson.fromJson(String json, Class<T> classOfT)``."""
    lists: dict[str, set[str]] = {}
    for d in definitions:
        if d.parameters and not d.test:
            lists.setdefault(d.name, set()).add(d.parameters)
    return [  # (a C++ declaration and its definition have one list: one name)
        replace(d, name=f"{d.name}{d.parameters}")
        if len(lists.get(d.name, ())) > 1 and not d.test
        else d
        for d in definitions
    ]


def _parameters(node: Node) -> str:
    """The parameter list of a function's node (searched a few levels down, where C and
    C++ keep it in the declarator), whitespace collapsed, at most :data:`MAX_PARAMETERS`."""
    level = [node]
    for _ in range(3):
        below = []
        for n in level:
            for child in n.named_children:
                if child.type in _PARAMETER_LISTS:
                    text = _clean(_text(child))
                    cut = MAX_PARAMETERS - 4
                    return text if len(text) <= MAX_PARAMETERS else text[:cut] + "...)"
                if "body" not in child.type and "block" not in child.type:
                    below.append(child)
        level = below
    return ""


def _test_classes(definitions: list[Definition]) -> list[Definition]:
    """A class whose members are all tests is a test class (``DocumentStoreTests``)."""
    out = list(definitions)
    for i, d in enumerate(definitions):
        if d.kind != "class" or d.test:
            continue
        members = []
        for m in definitions[i + 1 :]:
            if m.depth <= d.depth:  # in source order: past the class
                break
            if m.depth == d.depth + 1:
                members.append(m)
        if members and all(m.test for m in members):
            out[i] = replace(d, test=True)
    return out


def _public(language: str, kind: str, name: str, head: str, parent: Definition | None) -> bool:
    grammar = GRAMMARS[language]
    if grammar.exported_by_case:
        return name[:1].isupper() and (parent is None or parent.public)
    if parent is not None and (parent.kind == "interface" or parent.name.endswith(")")):
        return parent.public  # a trait's or interface's members, a trait implementation's
    return not grammar.is_private(head) and (parent is None or parent.public)


def _extent(node: Node, wrappers: frozenset[str]) -> Node:
    """The node, or the wrapper around it when it is the wrapper's only definition."""
    parent = node.parent
    while parent is not None and parent.type in wrappers:
        inner = [c for c in parent.named_children if "comment" not in c.type]
        if len([c for c in inner if c.type == node.type]) != 1:
            break
        node, parent = parent, parent.parent
    return node


def _leading(node: Node, attributes: frozenset[str]) -> tuple[Node, str]:
    """The first node of the comments and attributes right above ``node`` (no blank line
    between), and the text of those comments."""
    first, comments = node, list[str]()
    sibling = node.prev_sibling
    while sibling is not None and _last_line(sibling) >= _first_line(first) - 1:
        is_comment = "comment" in sibling.type
        if not is_comment and sibling.type not in attributes:
            break
        if is_comment and _last_line(sibling) == _first_line(first) and first is node:
            break  # a comment ending the line before, e.g. `x = 1; // note`
        if is_comment:
            comments.append(_text(sibling))
        first, sibling = sibling, sibling.prev_sibling
    if first is node:  # Ruby and Python-like grammars: the comment is the parent's child
        parent_doc = _comment_above_in_parent(node)
        if parent_doc is not None:
            return parent_doc, comment_text([_text(parent_doc)])
    return first, comment_text(list(reversed(comments)))


def _comment_above_in_parent(node: Node) -> Node | None:
    parent = node.parent
    if parent is None or parent.prev_sibling is None or node.prev_sibling is not None:
        return None
    above = parent.prev_sibling
    if "comment" in above.type and _last_line(above) == _first_line(node) - 1:
        return above
    return None


def _attributes(node: Node, first: Node) -> str:
    """The attributes between a definition's doc comment and itself (``#[test]``)."""
    attrs = []
    sibling = node.prev_sibling
    while sibling is not None and sibling.start_byte >= first.start_byte:
        if "comment" not in sibling.type:
            attrs.append(_text(sibling))
        sibling = sibling.prev_sibling
    return "\n".join(reversed(attrs))


def _first_line_of(node: Node, name: Node) -> str:
    """The definition's text up to the end of its name's line."""
    line_end = (node.text or b"").find(b"\n", name.end_byte - node.start_byte)
    end = node.end_byte if line_end < 0 else node.start_byte + line_end
    return _slice(node, node.start_byte, end)


def _opening_comment(root: Node, definitions: list[Definition]) -> tuple[str, tuple[int, int]]:
    """The first comment block above the first definition's own comments that is not a
    licence header or a tool directive."""
    limit = min((d.start for d in definitions), default=1 << 30)
    blocks: list[list[Node]] = []
    for node in root.named_children:
        if _first_line(node) >= limit:
            break
        if "comment" not in node.type:
            continue
        if blocks and _first_line(node) <= _last_line(blocks[-1][-1]) + 1:
            blocks[-1].append(node)
        else:
            blocks.append([node])
    for block in blocks:  # the paragraphs that are not a licence ("Copyright ...")
        paragraphs = comment_text([_text(n) for n in block]).split("\n\n")
        text = "\n\n".join(p for p in paragraphs if not NOT_DOC.search(p)).strip("\n")
        if len(_WORD.findall(text)) >= 3:  # not "-- uint Value"
            return text, (_first_line(block[0]), _last_line(block[-1]))
    return "", (0, 0)


def outline_symbols(found: Outline, rel: str) -> tuple[Symbol, ...]:
    """The public names an outline defines, tests left out, as :class:`Symbol` s."""
    symbols = []
    for d in found.definitions:
        kind = _SYMBOL_KINDS.get(d.kind)
        if kind is None or d.test or not d.public:
            continue
        symbols.append(Symbol(d.name, kind, rel, d.line, "", first_paragraph(d.doc)))
    return tuple(symbols)


def file_summary(found: Outline, rel: str) -> str:
    """What the file is for: its opening comment's first paragraph, else the doc comment
    of the definition it is named after (``Cache.java`` → ``class Cache``), else that of
    its only top-level definition that holds others."""
    if found.summary:
        return found.summary
    top = [d for d in found.definitions if d.depth == 0 and not d.test]
    stem = PurePosixPath(rel).stem.lower().replace("_", "")
    named = [d for d in top if d.name.lower().replace("_", "") == stem]
    if not named and len([d for d in top if d.kind in CONTAINERS]) == 1:
        named = [d for d in top if d.kind in CONTAINERS]
    return first_paragraph(named[0].doc) if named else ""


def _clean(text: str, strip_generics: bool = False) -> str:
    text = _SPACES.sub(" ", text).strip()
    return _GENERICS.sub("", text) if strip_generics else text


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _slice(node: Node, start: int, end: int) -> str:
    data = node.text or b""
    return data[start - node.start_byte : end - node.start_byte].decode("utf-8", "replace")


def _first_line(node: Node) -> int:
    return node.start_point.row + 1


def _last_line(node: Node) -> int:
    """1-based last line; a node that ends with its line break ends on that line."""
    row, column = node.end_point.row, node.end_point.column
    return row if column == 0 and row > node.start_point.row else row + 1
