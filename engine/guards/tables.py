"""Secrets in markdown tables: a cell under a header that names a credential.

``| Environment | User | Password |`` then ``| staging | admin | Tr0ub4dor&3 |``: no key
stands beside the value, the column's header names it. One pass over the lines: a header
row followed by a delimiter row (``|---|:--:|``) opens a table, its credential columns
are those whose header ends in a credential word (``Password``, ``Admin password``, ``API
key``, not ``Secret name`` or ``Token type``), and each body row's cells in those columns
are checked as :mod:`.context_values` checks any value its context names.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from engine.guards.context_values import plausible, random_token, trim

_DELIMITER_CHARS = frozenset("|:- \t")
_STRONG = re.compile(r"(?i)(?:password|passwd|passphrase|passcode|pwd|secret|credentials?)$")
_WEAK = re.compile(r"(?i)(?:token|api[ _-]?key|key)$")


def _cells(line: str, offset: int) -> list[tuple[int, int]]:
    """(start, end) in the text of each cell of a table row (pipes escaped as ``\\|``
    stay in their cell)."""
    bounds = [n for n, c in enumerate(line) if c == "|" and (n == 0 or line[n - 1] != "\\")]
    if not bounds:
        return []
    edges = ([] if line[: bounds[0]].strip() == "" else [-1]) + bounds
    if line[bounds[-1] + 1 :].strip():
        edges.append(len(line))
    return [(offset + a + 1, offset + b) for a, b in itertools.pairwise(edges)]


def _column_kinds(text: str, cells: list[tuple[int, int]]) -> dict[int, bool]:
    """Column index → True for a password-like header, False for a key or token one."""
    kinds: dict[int, bool] = {}
    for index, (start, end) in enumerate(cells):
        header = trim(text[start:end].strip().strip("*_"))
        if _STRONG.search(header):
            kinds[index] = True
        elif _WEAK.search(header):
            kinds[index] = False
    return kinds


def table_secrets(text: str) -> Iterator[tuple[int, int]]:
    """The span of every table cell whose column's header names a credential and whose
    value passes the checks (trimmed of blanks, quotes and backticks)."""
    if "|" not in text:
        return
    previous: tuple[str, int] = ("", 0)
    columns: dict[int, bool] = {}
    offset = 0
    for line in text.split("\n"):
        if columns and "|" in line:
            cells = _cells(line, offset)
            for index, strong in columns.items():
                if index < len(cells):
                    yield from _cell(text, *cells[index], strong)
        elif "---" in line and _DELIMITER_CHARS.issuperset(line) and "|" in previous[0]:
            columns = _column_kinds(text, _cells(*previous))
        else:
            columns = {}
        previous = (line, offset)
        offset += len(line) + 1


def _cell(text: str, start: int, end: int, strong: bool) -> Iterator[tuple[int, int]]:
    raw = text[start:end]
    value = trim(raw)
    if not value or " " in value:
        return
    if plausible(value) if strong else random_token(value):
        begin = start + raw.find(value)
        yield begin, begin + len(value)
