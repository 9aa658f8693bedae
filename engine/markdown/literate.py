"""F# literate scripts (fsdocs) read as markdown, line for line.

FSharp.Formatting's ``fsdocs`` builds a project's documentation from its ``docs/`` folder,
where an ``.fsx`` script is a page ("Literate Scripts" in its documentation): the prose is
markdown in ``(** … *)`` comments, the code between them is shown as F#, and ``(*** … ***)``
comments are commands (``(*** hide ***)`` hides the code that follows it, up to the next
comment). The script is rewritten keeping every line's number (chunks cite the file's own
lines):

* a markdown comment's lines are the markdown they hold, its ``(**`` and ``*)`` blanked;
* a command's lines are blank, and so is the code a ``hide`` command hides;
* a run of code is a fenced F# block, its fences on the blank or delimiter lines around it;
  where no such line is free (a one-line comment right before the code), its lines are
  indented as a code block instead.
"""

from __future__ import annotations

import re

LITERATE_SUFFIX = ".fsx"
_COMMAND = re.compile(r"^\s*\(\*\*\*(.*?)(?:\*\*\*\))?\s*$")
"""A command comment on a line of its own: ``(*** hide ***)``, ``(*** include-value: x ***)``."""
_OPEN = re.compile(r"^\s*\(\*\*(?!\*)")
"""The start of a markdown comment (``(**``, not a command's ``(***``)."""
_CLOSE = re.compile(r"\*\)\s*$")


def literate_as_markdown(text: str) -> str:
    """``text`` (an F# literate script) rewritten as markdown, line for line (module
    docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = [""] * len(lines)
    code: list[int] = []  # the lines of the current run of code
    free: set[int] = set()  # lines blanked here, where a fence may go
    hidden = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if (command := _COMMAND.match(line)) is not None:
            free.add(index)
            _fence(code, lines, out, free)
            hidden = command.group(1).strip().lower() == "hide"
        elif _OPEN.match(line):
            if not _CLOSE.sub("", _OPEN.sub("", line, count=1)).strip():
                free.add(index)  # a bare ``(**``: the code before it may close its fence here
            _fence(code, lines, out, free)
            hidden = False
            index = _markdown(lines, index, out, free)
        elif not hidden:
            code.append(index)
        else:
            free.add(index)
        index += 1
    _fence(code, lines, out, free)
    return "\n".join(out)


def _markdown(lines: list[str], start: int, out: list[str], free: set[int]) -> int:
    """Write the markdown comment opening on line ``start`` into ``out``; the index of its
    last line."""
    first = _OPEN.sub("", lines[start], count=1)
    index, line = start, first
    while True:
        closed = _CLOSE.search(line) is not None
        body = _CLOSE.sub("", line) if closed else line
        if body.strip():
            out[index] = body
        else:
            free.add(index)  # left as it is: blank, or the fence closing the code before
        if closed or index + 1 >= len(lines):
            return index
        index += 1
        line = lines[index]


def _fence(code: list[int], lines: list[str], out: list[str], free: set[int]) -> None:
    """Write the run of code ``code`` (line indices) into ``out`` as an F# block, and empty
    the run."""
    body = [i for i in code if lines[i].strip()]
    if body:
        first, last = body[0], body[-1]
        before = first - 1 if first - 1 in free or (first - 1 in code) else None
        after = last + 1 if last + 1 in free or (last + 1 in code) else None
        if before is not None and after is not None and before >= 0 and after < len(lines):
            out[before], out[after] = "```fsharp", "```"
            for i in range(first, last + 1):
                out[i] = lines[i]
        else:
            for i in range(first, last + 1):
                out[i] = "    " + lines[i] if lines[i].strip() else ""
    for i in code:
        if not lines[i].strip():
            free.add(i)
    code.clear()
