"""How a language writes its comments, read from Pygments' lexers: what
:mod:`engine.analyzer.blocks` needs to keep a comment with the declaration after it in a
language without a tree-sitter grammar (Lua's and Haskell's ``--``, OCaml's ``(* *)``,
Lisp's ``;``, Erlang's ``%``, Vim script's ``"``).

No list per language: every lexer whose file-name patterns match a file lexes a fixed set
of probe lines once per process, and the probes whose first token it calls a comment
(Pygments' ``Comment`` tokens, less preprocessor lines such as C's ``#include``) are that
language's comment openers. Where several lexers claim an extension (``.v``: Verilog and
Coq; ``.pl``: Perl and Prolog) their openers are pooled, as the file may be any of them.
A file no lexer claims keeps :data:`FALLBACK`. Pygments' lexers are imported on the first
file cut this way, so never by the prompt hook."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import cache, lru_cache


@dataclass(frozen=True)
class CommentSyntax:
    """The comment openers of a file's language."""

    lines: tuple[str, ...]
    """A line starting with one of these (after its indentation) is a comment."""
    blocks: tuple[tuple[str, str], ...] = ()
    """``(opener, closer)``: a comment that runs until the closer, over several lines;
    kept longest opener first, so that ``--[[`` is found before ``--`` could be and
    ``{-`` before ``{``."""

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.blocks, key=lambda b: len(b[0]), reverse=True))
        object.__setattr__(self, "blocks", ordered)

    def opens_block(self, line: str) -> str:
        """The closer ``line`` (stripped) leaves open, or "" when it opens no block comment
        or closes the one it opens."""
        for opener, closer in self.blocks:
            if line.startswith(opener):
                return "" if closer in line[len(opener) :] else closer
        return ""

    def is_comment(self, line: str) -> bool:
        """Whether ``line`` (stripped) starts a comment."""
        return line.startswith(self.lines) or any(line.startswith(o) for o, _ in self.blocks)


FALLBACK = CommentSyntax(("/*", "*", "//", "#"))
"""What a file whose name no Pygments lexer claims is read with: C-style comments and
``#``, the markers most languages share."""

LINE_PROBES = ("#", "//", "--", ";", "%", '"', "'", "!", "REM", "::", "\\")
"""Markers that open a comment running to the end of its line in some language (shell,
C, Lua/Haskell/SQL/Ada, Lisp/assembly, Erlang/Prolog/TeX/MATLAB, Vim script, Visual
Basic, Fortran, batch files, Forth)."""
BLOCK_PROBES = (
    ("/*", "*/"),
    ("(*", "*)"),
    ("{-", "-}"),
    ("--[[", "]]"),
    ("#|", "|#"),
    ("#=", "=#"),
    ("/+", "+/"),
    ("%{", "%}"),
    ("<!--", "-->"),
    ("{", "}"),
)
"""Markers of comments that may span lines (C, OCaml/Pascal/Mathematica, Haskell, Lua,
Common Lisp/Scheme, Julia, D, MATLAB, XML, Pascal's braces)."""


def comment_syntax(name: str) -> CommentSyntax:
    """The comment openers of the file called ``name`` (a base name), pooled over the
    Pygments lexers its name matches; :data:`FALLBACK` when none does."""
    return _syntax(tuple(sorted(lexer_names(name))))


@lru_cache(maxsize=4096)
def lexer_names(name: str) -> frozenset[str]:
    """The Pygments lexers whose file-name patterns match the file name ``name`` (by a
    name, ``meson.build``, or by a suffix from any dot): none when Pygments knows none."""
    by_suffix, others = _patterns()
    found = {lexer for pattern, lexer in others if pattern.match(name)}
    dot = name.find(".")
    while dot != -1:  # every suffix from a dot: ``a.cmake.in`` is ``.cmake.in`` and ``.in``
        found.update(by_suffix.get(name[dot:], ()))
        dot = name.find(".", dot + 1)
    return frozenset(found)


@cache
def _patterns() -> tuple[dict[str, set[str]], tuple[tuple[re.Pattern[str], str], ...]]:
    """Every lexer's file-name patterns (the mapping Pygments ships, not its lexer
    modules), read once: the plain ``*.ext`` ones (nine in ten) by their suffix, a lookup
    per file name, the others compiled. Pygments' own lexers only: a plugin lexer some
    other package installs does not change what a file of the project is, and looking
    for plugins reads every installed distribution's entry points (70 ms of a walk)."""
    from pygments.lexers import get_all_lexers

    by_suffix: dict[str, set[str]] = {}
    others: list[tuple[re.Pattern[str], str]] = []
    for lexer, _aliases, globs, _mimetypes in get_all_lexers(plugins=False):
        for glob in globs:
            if glob.startswith("*.") and not any(c in glob[1:] for c in "*?["):
                by_suffix.setdefault(glob[1:], set()).add(lexer)
            else:
                others.append((re.compile(fnmatch.translate(glob)), lexer))
    return by_suffix, tuple(others)


@cache
def _syntax(lexers: tuple[str, ...]) -> CommentSyntax:
    if not lexers:
        return FALLBACK
    lines: list[str] = []
    blocks: list[tuple[str, str]] = []
    for lexer in lexers:
        found = _lexer_syntax(lexer)
        lines += [m for m in found.lines if m not in lines]
        blocks += [b for b in found.blocks if b not in blocks]
    if not lines and not blocks:  # a lexer without comments (a data format): as before
        return FALLBACK
    return CommentSyntax(tuple(lines), tuple(blocks))


@cache
def _lexer_syntax(name: str) -> CommentSyntax:
    """The probes that lexer ``name`` starts with a comment token, lexed once."""
    from pygments.lexers import find_lexer_class
    from pygments.token import Comment

    cls = find_lexer_class(name)
    if cls is None:
        return CommentSyntax(())
    lexer = cls()

    def comments(probe: str) -> bool:
        """Whether every token of ``probe`` but its spaces is a comment."""
        try:
            tokens = [t for t, v in lexer.get_tokens(probe) if v.strip()]
        except Exception:  # a lexer that fails on a probe says nothing about it
            return False
        return bool(tokens) and all(t in Comment and t not in Comment.Preproc for t in tokens)

    lines = tuple(m for m in LINE_PROBES if comments(f"{m} x\n"))
    blocks = tuple((o, c) for o, c in BLOCK_PROBES if comments(f"{o} x\ny {c}\n"))
    return CommentSyntax(lines, blocks)
