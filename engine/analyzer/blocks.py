"""Code without a grammar, cut at its blocks: what the analyzer does with a program in a
language that has no tree-sitter grammar here (:mod:`engine.analyzer.grammars`), such
as Elixir, Scala, Dart, Lua or Haskell.

A file is cut at the lines that open a block at its left margin after a blank line
(:func:`top_level_pieces`), as most languages lay out their declarations. A block too
long for one entry — a module or a class holding the whole file, as in Elixir's
``defmodule`` or Scala's ``object`` — is cut again the same way at the indentation of its
body (:func:`nested_pieces`): its head, then one piece per inner block, named after what
its first line declares. Without that, such a file was cut by size alone, its entries
titled by line numbers.

A comment block stays with the declaration after it, even across a blank line; what a
comment is in the file's language (Lua's ``--``, OCaml's ``(* *)``) is read from Pygments'
lexers (:mod:`engine.analyzer.comment_syntax`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.analyzer.comment_syntax import FALLBACK, CommentSyntax
from engine.analyzer.pieces import Piece, size

_DECLARATION = re.compile(
    r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:pub(?:\([\w:]+\))?\s+)?"
    r"(?:(?:(?:private|protected)(?:\[[\w.]+\])?|override|final|sealed|implicit|lazy|case"
    r"|inline|opaque|transparent)\s+)*"
    r"(?:async\s+)?(?:unsafe\s+)?(?:local\s+)?"
    r"(?:function[*!]?|class|interface|type|enum|const|let|var|val|given|fn|def|struct|trait|impl"
    r"|module|namespace|public|private|protected|static|func!?"
    r"|defmodule|defprotocol|defimpl|defmacrop?|defp|object|sub|proc|data|newtype)"
    r"\s+(?:\([^)]*\)\s*)?([\w$.]+(?:(?:::?|#)[\w$.]+)*[?!]?)"  # Go: a receiver comes first
)
"""A line that declares something, and its name: the keywords of the languages above and
of those without a grammar (Elixir's ``defmodule``/``defp``, Scala's ``object``, Perl's
``sub``, Nim's ``proc``, Haskell's ``data``, Lua's ``local function``, Vim's
``function!``; Scala's ``val`` and ``given``, after the modifiers its specification
lists, ``private[scopt]`` and ``protected[this]`` among them; OCaml's ``val`` in a
signature; Lisps' forms: :data:`_LISP_DEFINITION`; Erlang's clauses:
:data:`_ERLANG_CLAUSE`). A name may be qualified by
``:``, ``::`` or ``#`` between its words (Lua's ``Buffer:new``, Vim's ``s:wrap`` and
``plugin#util#run``)."""
_ASSIGNED = re.compile(r"^([\w$][\w$.]*)\s*(?:=|<<?-)")
"""A name given a value at the margin: ``name = ...``, and R's ``name <- function(...)``
(``<<-`` too)."""
_NAMED_FUNCTION = re.compile(r"\bfunction\*?\s+([\w$]+)\s*\(")
_SHELL_FUNCTION = re.compile(r"^([\w.:-]+)\s*\(\)\s*(?:[{(]|$)")
"""A POSIX shell function's definition, ``name() {`` (nvm's ``nvm_ls_remote() {``); the
``function name`` form is a declaration above."""
_ERLANG_CLAUSE = re.compile(r"^([a-z][\w@]*)\s*\(.*\)\s*(?:when\b.*?)?->")
"""An Erlang function's clause at the margin, ``Name(Patterns) [when Guards] ->`` (the
Erlang Reference Manual's "Function Declaration Syntax": ``await(Key, Timeout) ->``), and
the ``-spec`` or ``-callback`` attribute that types one (``-spec reg(key()) -> true.``)."""
_ERLANG_SPEC = re.compile(r"^-(?:spec|callback)\s+([a-z][\w@]*)\s*\(")
_LISP_DEFINITION = re.compile(
    r"^\((?:[\w.-]+/)?(?:cl-)?(?:def[\w-]*[*!]?|ns)\s+\(?([^\s()\[\]{}\"']+)"
)
"""A Lisp's definition form at the margin and what it names: Clojure's ``(defn name``,
``(defn- name``, ``(defmacro``, ``(ns hiccup.core``, ``(s/def ::name``; Emacs Lisp's
``(defun``, ``(defcustom``, ``(cl-defmethod``; Scheme's ``(define (name args)``. The
forms are the language's own: ``def`` opens every defining form's name."""
_TYPED_SIGNATURE = re.compile(
    r"^(?:@[\w.]+(?:\([^()]*\))?\s+)*(?:(?:[\w$.]+(?:<[^()]*>)?[?*&\[\]]*)\s+)+"
    r"(?:(?:get|set|operator)\s+)?([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\("
)
"""A declaration without a keyword of its own: its type (and modifiers) before its name
and its parameter list, as C's declarators and Dart's ``functionSignature`` (``metadata
returnType? identifier formalParameterPart``, its spec) write a function or method:
``bool isStore(ClassElement e) {``, ``Future<void> load() async {``, Fortran's
``integer function total(``. A statement (``return f(x)``) is not one: :data:`_STATEMENTS`."""
_STATEMENTS = frozenset(
    {"return", "await", "throw", "new", "else", "yield", "case", "echo", "print", "assert",
     "delete", "typeof", "not", "and", "or", "in", "is", "as", "do", "goto", "call"}
)  # fmt: skip
"""Words that start a statement or an expression, not a type: ``return f(x)``."""
_CLOSERS = ("}", ")", "]", "*/", "#!")
"""A line at the margin that closes the block before it (or a shebang) rather than
opening one."""


def top_level_pieces(lines: list[str], syntax: CommentSyntax = FALLBACK) -> Iterator[Piece]:
    """Split at lines that start at column 0 after a blank line (declarations, blocks);
    a comment block (as ``syntax`` writes one) stays with the declaration after it, even
    across a blank line."""
    yield from _blocks(lines, "", 1, len(lines), syntax)


def nested_pieces(
    piece: Piece, lines: list[str], high: int, syntax: CommentSyntax = FALLBACK
) -> list[Piece]:
    """``piece`` if it fits in ``high`` characters, else its head and the blocks of its
    body (cut as :func:`top_level_pieces` cuts a file, at the body's indentation), each
    named ``Owner.name`` when both are known; ``[piece]`` when the body has no such block.
    The head keeps what opens the body up to its first named block (a module's doc)."""
    if size(lines, piece.start, piece.end) <= high:
        return [piece]
    body = next((n for n in range(piece.start + 1, piece.end + 1) if lines[n - 1].strip()), 0)
    first = lines[body - 1] if body else ""
    indent = first[: len(first) - len(first.lstrip())]
    margin = lines[piece.start - 1]
    if not indent or len(indent) <= len(margin) - len(margin.lstrip()):
        return [piece]
    inner = list(_blocks(lines, indent, body, piece.end, syntax))
    if len(inner) < 2:
        return [piece]
    if not inner[0].names:  # what opens the body (its doc, its imports) goes with its head
        inner[0] = Piece(piece.names, piece.start, inner[0].end)
    else:
        inner.insert(0, Piece(piece.names, piece.start, inner[0].start - 1))
    owner = piece.names[0] if piece.names else ""
    parts = [inner.pop(0)]
    parts += [
        Piece((f"{owner}.{p.names[0]}",) if owner and p.names else p.names, p.start, p.end)
        for p in inner
    ]
    return [p for p in parts if p.end >= p.start]


def _blocks(
    lines: list[str], indent: str, start: int, end: int, syntax: CommentSyntax
) -> Iterator[Piece]:
    """The blocks of lines ``start``..``end`` opening at ``indent`` after a blank line
    (not inside a comment that spans lines: ``closer`` is the marker that ends it)."""
    names: list[str] = []
    commented, width, quoted, closer = True, len(indent), False, ""
    for number in range(start, end + 1):
        line = lines[number - 1]
        at = line[width:] if line.startswith(indent) else ""
        opens = (
            number > start
            and not quoted
            and not closer
            and at[:1].strip()
            and not at.startswith(_CLOSERS)
            and not lines[number - 2].strip()
        )
        if opens and not commented:
            yield Piece(tuple(names), start, number - 1)
            start, names, commented = number, [], True
        stripped = line.strip()
        if closer:  # a line of a comment that spans lines
            closer = "" if closer in stripped else closer
            continue
        comment = syntax.is_comment(stripped)
        if stripped:
            commented = commented and comment
            closer = syntax.opens_block(stripped)
        name = declared_name(at) if line.startswith(indent) and not (quoted or comment) else ""
        if name and not names:
            names.append(name)
        if (line.count('"""') + line.count("'''")) % 2:
            quoted = not quoted  # a paragraph of a docstring or heredoc opens nothing
    if end >= start:
        yield Piece(tuple(names), start, end)


def declared_name(line: str) -> str:
    """What ``line`` (taken from its block's margin) declares, or ""."""
    if line[:1].isspace():
        return ""
    match = (
        _DECLARATION.match(line)
        or _ASSIGNED.match(line)
        or _LISP_DEFINITION.match(line)
        or _SHELL_FUNCTION.match(line)
        or _ERLANG_CLAUSE.match(line)
        or _ERLANG_SPEC.match(line)
        or _NAMED_FUNCTION.search(line)
        or _typed_signature(line)
    )
    return match.group(1) if match else ""


def _typed_signature(line: str) -> re.Match[str] | None:
    """``line``'s typed signature (:data:`_TYPED_SIGNATURE`), unless a statement opens it."""
    match = _TYPED_SIGNATURE.match(line)
    if match is None or line.split(None, 1)[0].lower() in _STATEMENTS:
        return None
    return match
