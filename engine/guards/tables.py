"""Secrets in tables: a cell under a header that names a credential.

``| Environment | User | Password |`` then ``| staging | admin | Tr0ub4dor&3 |``: no key
stands beside the value, the column's header names it. One pass over the lines: a header
row followed by a delimiter row (markdown's ``|---|:--:|``, the ``+----+----+`` borders
of mysql's and psql's output) opens a table, its credential columns are those whose
header ends in a credential word (``Password``, ``Admin password``, ``API key``, not
``Secret name`` or ``Token type``), and each body row's cells in those columns are
checked as :mod:`.context_values` checks any value its context names. Delimited text
(:func:`delimited_secrets`: CSV, TSV) is read the same way, its first line the header.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from engine.guards.context_values import plausible, random_token, trim

_DELIMITER_CHARS = frozenset("|:-+ \t")
_STRONG = re.compile(
    r"(?i)(?:password|passwd|passphrase|passcode|pwd|secret|credentials?|(?:^|[\s_\-/])(?:pass|pw))$"
)
"""A header naming a password: ``Password``, ``Admin password``, or ``Pass`` and ``PW``
as a word of their own (not ``Bypass``, ``Compass``)."""
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


def _delimiter_row(line: str) -> bool:
    """A table's delimiter row: ``|---|:--:|``, GFM's shortest ``|-|-|`` (a dash a cell,
    between pipes), a ``+----+`` border."""
    dashes = "---" in line or ("-" in line and "|" in line)
    return dashes and _DELIMITER_CHARS.issuperset(line)


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
        elif _delimiter_row(line) and "|" in previous[0]:
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


_FIELD_HEADER = re.compile(r"[\"']?[A-Za-z_][\w.\-]{0,40}[\"']?")
"""A delimited header's field: a column name, no blank in it (``host``, ``api_key``,
``"Password"``); a line of prose split at its commas has blanks in its parts."""


def delimited_secrets(text: str) -> Iterator[tuple[int, int]]:
    """The span of every field under a credential column of delimited text: a header
    line of column names split by tabs, commas or semicolons (``host,user,password``),
    then each line split the same way into as many fields, until one is not."""
    offset = 0
    columns: dict[int, bool] = {}
    separator = ""
    width = 0
    for line in text.split("\n"):
        fields = line.split(separator) if columns else []
        if columns and len(fields) == width:
            start = offset
            for index, field in enumerate(fields):
                if index in columns:
                    yield from _cell(text, start, start + len(field), columns[index])
                start += len(field) + 1
        else:
            columns, separator, width = _delimited_header(line)
        offset += len(line) + 1


def _delimited_header(line: str) -> tuple[dict[int, bool], str, int]:
    """The credential columns of a header line, its separator and its width; none
    where the line is not a header naming a credential."""
    for separator in ("\t", ",", ";"):
        if separator not in line:
            continue
        fields = [field.strip() for field in line.rstrip("\r").split(separator)]
        if all(_FIELD_HEADER.fullmatch(field) for field in fields):
            kinds: dict[int, bool] = {}
            for index, field in enumerate(fields):
                name = field.strip("\"'")
                if _STRONG.search(name):
                    kinds[index] = True
                elif _WEAK.search(name):
                    kinds[index] = False
            return kinds, separator, len(fields)
    return {}, "", 0
