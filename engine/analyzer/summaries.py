"""One summary entry per kind of accompanying material (see :mod:`engine.analyzer.noise`).

``docs_src/`` with 236 example programs becomes one entry that says so, not 236; a
changelog of 277 sections becomes one entry naming the latest releases and holding what
its newest ones say. A newcomer who asks "are there examples?" or "what changed in 5.0?"
still finds the place to look, or the answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from engine.analyzer.docs import lead
from engine.analyzer.languages import language_of
from engine.analyzer.model import Analysis, DiscoveryDraft, DocOutline
from engine.analyzer.noise import NoiseClassifier, NoiseKind
from engine.core.models import MAX_CONTENT_LENGTH

MAX_SHOWN = 12
"""Folders or headings named in a summary."""
BESIDE_THE_CODE = ""
"""The place of test files that live next to the code (``src/router.test.ts``): one
summary for all of them, not one per folder."""

_WHAT: dict[str, str] = {
    "release-notes": "release notes (what changed in each version)",
    "old-versions": "an earlier version of the project's documentation or code, kept beside "
    "the current one and no longer maintained",
    "translations": "the documentation translated into another language, kept beside the original",
    "examples": "example programs (samples, tutorials, the documentation's code)",
    "tests": "the test suite",
    "vendored": "a vendored copy of another project (third-party code kept in the tree)",
    "generated": "generated files (lock files, compiled or minified output)",
    "excluded": "files the configuration leaves out of the analysis (analyzer_exclude)",
}


def noise_drafts(analysis: Analysis, noise: NoiseClassifier) -> list[DiscoveryDraft]:
    """One draft per (kind, place) of the analysed files that are not the project's own."""
    groups: dict[tuple[NoiseKind, str], list[str]] = defaultdict(list)
    for rel in analysis.files:
        found = noise.decide(rel)
        if found is not None:
            groups[found].append(rel)
    outlines = {d.file: d for d in analysis.docs}
    drafts = []
    for (kind, place), files in sorted(groups.items()):
        if kind == "release-notes" and place in outlines:
            drafts.append(_release_notes(outlines[place]))
        else:
            tools = analysis.test_tools if kind == "tests" else ()
            why = noise.why_vendored(files[0]) if kind == "vendored" else ""
            drafts.append(_group(kind, place, files, tools, why))
    return drafts


def _group(
    kind: NoiseKind, place: str, files: list[str], tools: tuple[str, ...] = (), why: str = ""
) -> DiscoveryDraft:
    """``why``: the declaration or rule that makes the files what they are."""
    languages = Counter(language_of(f.rpartition("/")[2]) or "other" for f in files)
    langs = ", ".join(f"{lang} {n}" for lang, n in languages.most_common(5))
    if place == BESIDE_THE_CODE:
        sub = Counter(f.rpartition("/")[0] or "(root)" for f in files)
        where = "beside the code"
        verb, tested = ("lives", "it tests") if len(files) == 1 else ("live", "they test")
        holds = f"{_what_count(kind, len(files))} {verb} beside the code {tested}"
        holds += f" ({count_of(len(sub), 'folder')})"
    else:
        sub = Counter(f[len(place) :].split("/")[0] for f in files if "/" in f[len(place) :])
        where = place
        holds = f"{where} holds {_what_count(kind, len(files))}"
        if kind == "old-versions" and not place.endswith("/"):  # a file's older releases
            holds = f"{_what_count(kind, len(files))} beside {where}"
        elif place.startswith("from "):  # bash.html from bash.1, a page including a file
            holds = f"{_what_count(kind, len(files))} made {where}"
    lines = [
        f"{holds}: {_WHAT[kind]}"
        + (f", using {', '.join(tools)}" if tools else "")
        + (f" ({why})." if why else "."),
        f"Files by language: {langs}.",
    ]
    if sub:
        shown = ", ".join(name for name, _ in sub.most_common(MAX_SHOWN))
        more = f" and {len(sub) - MAX_SHOWN} more" if len(sub) > MAX_SHOWN else ""
        lines.append(f"Folders: {shown}{more}.")
    lines.append(
        "They are summarised here instead of indexed one by one; name them in the "
        "`sources` setting (or `memory-tui import`) to index their markdown."
    )
    title = f"{kind.replace('-', ' ').capitalize()}: {place or 'beside the code'}"
    return DiscoveryDraft("\n".join([title, *lines]), title, place.rstrip("/"), (kind, where))


def _release_notes(doc: DocOutline) -> DiscoveryDraft:
    """One entry for a file of release notes: the versions it names, then the text of its
    newest releases (:attr:`DocOutline.lead`), so that "what changed in 5.0?" finds what
    changed, and the hundreds of older sections are not entries of their own."""
    # a file of versions' sections alone has its first for a title (## v3.1.3)
    headings = [doc.title, *doc.headings] if _numbered(doc.title) else list(doc.headings)
    versions = [h for h in headings if _numbered(h)]
    latest = "; ".join(versions[:MAX_SHOWN]) or "no version headings found"
    title = f"Release notes: {doc.file}"
    text = (
        f"{title}\n{doc.file} holds the release notes: {len(headings)} sections, "
        f"{len(versions)} of them for versions. Latest: {latest}.\n"
        + (
            "The newest releases follow; the older ones are in the file, not indexed "
            "section by section."
            if doc.lead
            else "Read the file for what changed in a version; its sections are not "
            "indexed one by one."
        )
    )
    if doc.lead:  # within an entry's limit, however long the version list above it
        text += "\n\n" + lead(doc.lead, MAX_CONTENT_LENGTH - len(text) - 2)
    return DiscoveryDraft(text, title, doc.file, ("release notes", "changelog", *versions[:3]))


def _numbered(heading: str) -> bool:
    return any(c.isdigit() for c in heading)


def _what_count(kind: NoiseKind, n: int) -> str:
    return count_of(n, {"examples": "example file", "tests": "test file"}.get(kind, "file"))


def count_of(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1 (``1 folder``, ``2,048 files``)."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
