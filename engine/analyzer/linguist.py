"""The languages GitHub Linguist knows, for the file names the table does not name.

:mod:`engine.analyzer.languages` names about a hundred extensions by hand (the names and
choices the benches were measured with); every other extension is looked up here, in
GitHub Linguist's ``languages.yml`` as the ``programming-languages``,
``markup-languages``, ``data-languages`` and ``prose-languages`` packages ship it (one
JSON file each, by Linguist's ``type``: about 760 languages, 1,450 extensions). Linguist
was chosen over Pygments' lexer table (installed with Rich) because it says what a
language *is*: Pygments only groups its lexers by module, and guesses one lexer where an
extension is shared, so that ``go.mod`` reads as Modula-2, a ProGuard ``.pro`` file as
Visual Prolog and a ``.rst.inc`` page as POV-Ray (all three in the benches' repositories),
and it has no ``.f95``, ``.for``, ``.nu``, ``.erb`` or ``.j2`` at all. Linguist lists
every language an extension may be, each with its type.

A file is a program here when every language Linguist gives its extension is of type
``programming`` (``.vim``: Vim Script; ``.v``: Rocq Prover, V or Verilog): it is named
after them all, ``Rocq Prover/V/Verilog``. An extension that markup, data or prose may
also have (``.pro``: QMake or ProGuard; ``.mod``: Modula-2 or a Go module; ``.cls``: Apex
or a TeX class) is not decided by the name alone (Linguist reads the content to decide,
with heuristics these packages do not ship), and neither is markup, data or prose: those
stay what the table's absence made them, documentation by the docs rules
(:mod:`engine.services.sources`) or ``other``. The longest extension Linguist knows wins
(``fmt-config.cmake.in``: ``.cmake.in``, CMake).

The four files are read once, on the first extension the table does not know (about
10 ms), and each answer is kept per extension: the prompt hook never reaches here.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

PROGRAMMING = "programming"
TYPES = {
    PROGRAMMING: ("programming_languages", "programming-languages.json"),
    "markup": ("markup_languages", "markup-languages.json"),
    "data": ("data_languages", "data-languages.json"),
    "prose": ("prose_languages", "prose-languages.json"),
}
"""Linguist's types, and the package and file each is shipped in."""
DISTRIBUTIONS = tuple(module.replace("_", "-") for module, _ in TYPES.values())
"""The distributions of :data:`TYPES`' packages (a new release can move an extension)."""


def read_types(files: Mapping[str, Path]) -> dict[str, dict[str, set[str]]]:
    """Extension (lowercase, with its dot) → Linguist type → the languages of that type
    Linguist gives it, from one JSON file per type (``{"Language": {"extensions": [...]}}``).
    A file that is missing or not of that form is logged and counts as empty: the
    extensions it held stay unknown, and the table answers as before."""
    found: dict[str, dict[str, set[str]]] = {}
    for kind, path in files.items():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("cannot read Linguist's %s languages from %s: %s", kind, path, exc)
            continue
        if not isinstance(data, dict):
            log.warning("Linguist's %s languages in %s are not a table", kind, path)
            continue
        for language, entry in data.items():
            extensions = entry.get("extensions") if isinstance(entry, dict) else None
            if not isinstance(language, str) or not isinstance(extensions, list):
                log.warning(
                    "Linguist's %s language %r in %s has no extensions", kind, language, path
                )
                continue
            for ext in extensions:
                if isinstance(ext, str) and ext.startswith("."):
                    found.setdefault(ext.lower(), {}).setdefault(kind, set()).add(language)
    return found


def installed_files() -> dict[str, Path]:
    """Where the installed packages keep their JSON files (found without importing
    them: each replaces its own module with the table it loads)."""
    files: dict[str, Path] = {}
    for kind, (package, name) in TYPES.items():
        spec = importlib.util.find_spec(package)
        folders = list(spec.submodule_search_locations or ()) if spec is not None else []
        if not folders:
            log.warning("the %s package is not installed: its languages stay unknown", package)
            continue
        files[kind] = Path(folders[0]) / name
    return files


@cache
def _by_extension() -> dict[str, dict[str, set[str]]]:
    return read_types(installed_files())


def known_kinds(
    suffixes: str, by_extension: Mapping[str, Mapping[str, set[str]]] | None = None
) -> Mapping[str, set[str]]:
    """Linguist's types and languages for a file whose name ends in ``suffixes`` (from its
    first dot: ``.cmake.in``), by the longest extension it knows; empty when it knows none."""
    table = _by_extension() if by_extension is None else by_extension
    suffixes = suffixes.lower()
    start = 0
    while start != -1:
        kinds = table.get(suffixes[start:])
        if kinds:
            return kinds
        start = suffixes.find(".", start + 1)
    return {}


def _only(kind: str, kinds: Mapping[str, set[str]]) -> str | None:
    """The languages of ``kinds`` joined (``Perl/Raku``) when all are of type ``kind``."""
    if not kinds or set(kinds) != {kind}:
        return None
    return "/".join(sorted(kinds[kind]))


def program_language(
    suffixes: str, by_extension: Mapping[str, Mapping[str, set[str]]] | None = None
) -> str | None:
    """The program language Linguist gives a file whose name ends in ``suffixes`` (from
    its first dot: ``.cmake.in``), longest extension first; ``None`` when Linguist does
    not know it, or says it may be markup, data or prose."""
    return _only(PROGRAMMING, known_kinds(suffixes, by_extension))


@lru_cache(maxsize=4096)
def cached_program_language(suffixes: str) -> str | None:
    """:func:`program_language` from the installed packages, kept per ``suffixes``."""
    return program_language(suffixes)


PROSE = "prose"


def prose_language(
    suffixes: str, by_extension: Mapping[str, Mapping[str, set[str]]] | None = None
) -> str | None:
    """The prose language Linguist gives a file whose name ends in ``suffixes`` (``.org``:
    Org; ``.pod``: Pod or Pod 6, named ``Pod/Pod 6``), longest extension first; ``None``
    when Linguist does not know it, or says it may also be code, markup or data
    (``.asc``: AsciiDoc or a public key; ``.scd``: Markdown or SuperCollider)."""
    return _only(PROSE, known_kinds(suffixes, by_extension))


@lru_cache(maxsize=4096)
def cached_prose_language(suffixes: str) -> str | None:
    """:func:`prose_language` from the installed packages, kept per ``suffixes``."""
    return prose_language(suffixes)


ROFF = frozenset({"Roff", "Roff Manpage"})
"""Linguist's names of roff documents (markup): man pages, ``ms``/``me`` documents, Tcl's
``.n`` manual pages."""


@lru_cache(maxsize=4096)
def cached_roff(suffixes: str) -> bool:
    """Whether Linguist says a file whose name ends in ``suffixes`` may be a roff document
    (``.n``: Roff or Nemerle; ``.ms``: Roff, Unix Assembly or MAXScript): its content
    decides (:func:`engine.markdown.plain.is_roff`)."""
    return bool(ROFF & known_kinds(suffixes).get("markup", set()))


@lru_cache(maxsize=4096)
def cached_known(suffixes: str) -> bool:
    """Whether Linguist gives a file whose name ends in ``suffixes`` any language, of any
    type (:func:`known_kinds` from the installed packages, kept per ``suffixes``)."""
    return bool(known_kinds(suffixes))
