"""Blanking the comments, strings, template text and regex literals of JS/TS source.

The result has the same length and the same line breaks as the input, so offsets and line
numbers found in it point into the original. Code inside ``${...}`` of template literals is
kept. String and regex literals end at a line break, so a stray quote (JSX text such as
``don't``) can only hide the rest of its own line.
"""

from __future__ import annotations

import re

_CODE_STOP = re.compile(r"[\"'`/{}]")
_REGEX_KEYWORDS = frozenset(
    {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
     "yield", "await", "instanceof"}
)  # fmt: skip
_REGEX_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")


def strip_js(source: str) -> str:
    """``source`` with every comment and literal body replaced by spaces (newlines kept)."""
    return _Stripper(source).run()


class _Stripper:
    """One pass over one file; the state is the position and the open template expressions."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.buf = list(source)
        self.depths: list[int] = []
        """Brace depth inside each open ``${`` (innermost last)."""

    def blank(self, start: int, end: int) -> None:
        for k in range(start, min(end, len(self.buf))):
            if self.buf[k] != "\n":
                self.buf[k] = " "

    def run(self) -> str:
        src, i = self.src, 0
        while True:
            m = _CODE_STOP.search(src, i)
            if m is None:
                break
            j = m.start()
            c = src[j]
            if c == "{":
                if self.depths:
                    self.depths[-1] += 1
                i = j + 1
            elif c == "}":
                if self.depths and self.depths[-1] == 0:
                    self.depths.pop()
                    i = self.template(j + 1)
                else:
                    if self.depths:
                        self.depths[-1] -= 1
                    i = j + 1
            elif c in "\"'":
                i = self.string(j)
            elif c == "`":
                i = self.template(j + 1)
            else:
                i = self.slash(j)
        return "".join(self.buf)

    def string(self, j: int) -> int:
        src, quote, k = self.src, self.src[j], j + 1
        while k < len(src):
            ch = src[k]
            if ch == "\\":
                k += 2
                continue
            if ch == quote:
                self.blank(j + 1, k)
                return k + 1
            if ch == "\n":
                break
            k += 1
        self.blank(j + 1, k)
        return k

    def template(self, start: int) -> int:
        """Blank template text from ``start``; stop after the closing backtick or at ``${``."""
        src, k = self.src, start
        while k < len(src):
            ch = src[k]
            if ch == "\\":
                k += 2
                continue
            if ch == "`":
                self.blank(start, k)
                return k + 1
            if ch == "$" and src.startswith("{", k + 1):
                self.blank(start, k)
                self.depths.append(0)
                return k + 2
            k += 1
        self.blank(start, len(src))
        return len(src)

    def slash(self, j: int) -> int:
        src = self.src
        nxt = src[j + 1 : j + 2]
        if nxt == "/":
            end = src.find("\n", j)
            end = len(src) if end == -1 else end
            self.blank(j, end)
            return end
        if nxt == "*":
            end = src.find("*/", j + 2)
            end = len(src) if end == -1 else end + 2
            self.blank(j, end)
            return end
        if not self.regex_allowed(j):
            return j + 1
        k, in_class = j + 1, False
        while k < len(src):
            ch = src[k]
            if ch == "\\":
                k += 2
                continue
            if ch == "\n":
                return j + 1  # not a regex after all: treat as division
            if in_class:
                in_class = ch != "]"
            elif ch == "[":
                in_class = True
            elif ch == "/":
                self.blank(j + 1, k)
                return k + 1
            k += 1
        return j + 1

    def regex_allowed(self, j: int) -> bool:
        """Whether a ``/`` at ``j`` starts a regex literal rather than a division."""
        buf, k = self.buf, j - 1
        while k >= 0 and buf[k] in " \t\r\n":
            k -= 1
        if k < 0:
            return True
        ch = buf[k]
        if ch in _REGEX_AFTER:
            return True
        if ch.isalnum() or ch in "_$":
            end = k + 1
            while k >= 0 and (buf[k].isalnum() or buf[k] in "_$"):
                k -= 1
            return "".join(buf[k + 1 : end]) in _REGEX_KEYWORDS
        return False
