"""An interface file and its implementation are one answer-space (issue 50).

A module whose interface is a file of its own (OCaml's ``.mli``, a C or C++ header, a
TypeScript declaration file, a Python stub) is documented in the interface and done in
the implementation: a question about what the module does finds the interface's
documentation, one about how it does it the implementation's code, and the words of
either often sit in the other. Where search lists one of the pair, the other's best
listed section is listed right after it (:func:`pair_companions`), so that reaching one
reaches both.

Two files are companions (:func:`companions`) when one is an interface by its suffix
(:data:`IMPLEMENTED_BY`), the other has one of the suffixes that implement it, their names
are the same once those suffixes are taken off, and they are in the same folder, or the
interface is in an ``include`` folder (C and C++'s public headers, whose sources sit in
another folder).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from posixpath import basename, dirname

from engine.core.models import SearchResult

_C_SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm")
IMPLEMENTED_BY: dict[str, tuple[str, ...]] = {
    ".mli": (".ml",),
    ".rei": (".re",),
    ".fsi": (".fs",),
    ".h": _C_SOURCES,
    ".hh": _C_SOURCES,
    ".hpp": _C_SOURCES,
    ".hxx": _C_SOURCES,
    ".d.ts": (".js", ".ts"),
    ".d.mts": (".mjs", ".mts"),
    ".d.cts": (".cjs", ".cts"),
    ".pyi": (".py",),
}
"""Interface suffixes and the suffixes of the files that implement them, by the
languages' conventions (the compiler's for OCaml, Reason and F#; the common practice for C
and C++ headers; TypeScript's declaration files; Python's stub files, PEP 484)."""

_INCLUDE = "include"


def _split(path: str, suffixes: Sequence[str]) -> str | None:
    """``path`` without the longest of ``suffixes`` it ends with, or None."""
    for suffix in sorted(suffixes, key=len, reverse=True):
        if path.endswith(suffix) and len(basename(path)) > len(suffix):
            return path[: -len(suffix)]
    return None


def companions(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` are a module's interface and its implementation,
    in either order (see the module docstring)."""
    for interface, implementation in ((first, second), (second, first)):
        stem = _split(interface, tuple(IMPLEMENTED_BY))
        if stem is None:
            continue
        suffix = interface[len(stem) :]
        other = _split(implementation, IMPLEMENTED_BY[suffix])
        if other is None or _split(implementation, tuple(IMPLEMENTED_BY)) is not None:
            continue  # not an implementation, or another interface (x.d.ts and x.ts)
        if basename(stem) != basename(other):
            continue
        folder = dirname(stem)
        if folder == dirname(other) or _INCLUDE in folder.split("/"):
            return True
    return False


def pair_companions(
    results: Sequence[SearchResult], listed: Callable[[SearchResult], bool]
) -> list[SearchResult]:
    """``results`` (in listing order) with the first listed result of a file's companion
    (:func:`companions`) moved up to right after the first listed result of that file,
    where it was further down; everything else keeps its order. Only results that
    ``listed`` says will be listed are paired or moved; entries without a file never."""
    order = list(results)
    placed: set[str] = set()
    i = 0
    while i < len(order):
        path = order[i].entry.file_path
        if path and path not in placed and listed(order[i]):
            placed.add(path)
            j = next(
                (
                    k
                    for k in range(i + 1, len(order))
                    if order[k].entry.file_path not in placed
                    and order[k].entry.file_path
                    and listed(order[k])
                    and companions(path, order[k].entry.file_path)
                ),
                None,
            )
            if j is not None:
                order.insert(i + 1, order.pop(j))
                placed.add(order[i + 1].entry.file_path)
                i += 1
        i += 1
    return order
