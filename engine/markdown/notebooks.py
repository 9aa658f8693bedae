"""Jupyter notebooks read as markdown, line for line.

A notebook (``.ipynb``: GitHub Linguist's "Jupyter Notebook") is JSON, a list of cells,
each markdown, code or raw, a code cell's outputs beside its source. Jupyter, JupyterLab,
VS Code and nbformat write it indented, each line of a cell's source a string of its own
on a line of its own (nbformat's ``source`` as a list of lines), so the notebook is
rewritten keeping every line's number (chunks cite the file's own lines):

* a markdown cell's lines are the markdown they hold;
* a code cell's source is a fenced block in the notebook's language (its kernel's), the
  fence on the lines that open and close its list;
* a source written as one string (``"source": "..."``) is its text on that one line:
  markdown as a paragraph, code as inline code;
* outputs, metadata, raw cells and the JSON around the sources are blanked.

A file whose JSON is not a notebook's, or whose lines do not hold its cells' sources one by
one (a notebook written on one line), reads as blank.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.core.fences import fence_for, longest_backtick_run

NOTEBOOK_SUFFIX = ".ipynb"
_SOURCE = re.compile(r'^(\s*)"source":\s*(.*?),?\s*$')
"""A cell's ``source`` key: its indentation and what follows it on the line (``[``, ``[]``
or a string)."""
_CELL_TYPE = re.compile(r'^(\s*)"cell_type":')


def notebook_as_markdown(text: str) -> str:
    """``text`` (a Jupyter notebook) rewritten as markdown, line for line (module
    docstring); blank where it is not a notebook."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = [""] * len(lines)
    notebook = _notebook(text)
    cells = notebook.get("cells") if notebook is not None else None
    indent = next((m.group(1) for line in lines if (m := _CELL_TYPE.match(line))), None)
    if isinstance(cells, list) and indent is not None:
        _render([c for c in cells if isinstance(c, dict)], _language(notebook), lines, out, indent)
    return "\n".join(out)


def _notebook(text: str) -> dict[str, Any] | None:
    """The notebook's JSON, or None when ``text`` is not a JSON object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _language(notebook: dict[str, Any] | None) -> str:
    """The language of the notebook's code (its kernel's), or ``""``."""
    metadata = notebook.get("metadata") if notebook is not None else None
    if not isinstance(metadata, dict):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        found = metadata.get(key)
        if isinstance(found, dict) and isinstance(found.get(field), str):
            return "".join(str(found[field]).split()).lower()
    return ""


def _render(
    cells: list[dict[str, Any]], language: str, lines: list[str], out: list[str], indent: str
) -> None:
    """Each cell's source written into ``out`` at its lines, in order: the ``"source"``
    keys at the cells' indentation (``indent``, their ``"cell_type"``'s). Stops at the
    first whose strings are not its cell's source (the rest stays blank)."""
    at, cell = 0, 0
    while at < len(lines) and cell < len(cells):
        found = _SOURCE.match(lines[at])
        if found is None or found.group(1) != indent:
            at += 1
            continue
        first, last, parts = _source_lines(lines, at, found.group(2), indent)
        if parts is None or "".join(parts) != _joined(cells[cell].get("source")):
            return
        _write(str(cells[cell].get("cell_type", "")), language, first, last, parts, out)
        at, cell = last + 1, cell + 1


def _source_lines(
    lines: list[str], at: int, rest: str, indent: str
) -> tuple[int, int, list[str] | None]:
    """Where a source opened at line ``at`` ends, and its strings (None: not readable)."""
    if rest in ("[]", ""):
        return at, at, []
    if not rest.startswith("["):
        return at, at, _strings([rest])
    end = at + 1
    while end < len(lines) and lines[end].strip() not in ("]", "],"):
        end += 1
    if end == len(lines) or not lines[end].startswith(indent):
        return at, at, None
    return at, end, _strings([line.strip().removesuffix(",") for line in lines[at + 1 : end]])


def _strings(literals: list[str]) -> list[str] | None:
    """The JSON string literals decoded, or None when one is not a string."""
    try:
        decoded = [json.loads(literal) for literal in literals]
    except ValueError:
        return None
    return decoded if all(isinstance(d, str) for d in decoded) else None


def _joined(source: object) -> str:
    """A cell's source as one string (nbformat allows a string or a list of lines)."""
    if isinstance(source, list):
        return "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


def _write(
    kind: str, language: str, first: int, last: int, parts: list[str], out: list[str]
) -> None:
    """One cell's source at its lines: ``first`` is the ``"source"`` line, ``last`` the line
    closing its list (the same line for a source on one line)."""
    if kind not in ("markdown", "code") or not "".join(parts).strip():
        return
    if first == last:  # one string on one line
        words = " ".join("".join(parts).split())
        out[first] = words if kind == "markdown" else _inline_code(words)
        return
    for offset, part in enumerate(parts, start=first + 1):
        out[offset] = " ".join(part.split("\n")).rstrip()
    if kind == "code":
        fence = fence_for("".join(parts))
        out[first], out[last] = fence + language, fence


def _inline_code(code: str) -> str:
    ticks = "`" * (longest_backtick_run(code) + 1)
    return f"{ticks} {code} {ticks}"
