"""Turning an :class:`Analysis` into the texts of ``discovery`` entries.

One entry per topic (overview, entry points, architecture, build/test/run, dependencies,
routes, patterns, naming), one short summary per package and per module of the project's
own code, one summary per kind of noise. Past a cap, the remaining modules are summarised
per directory so that a big repository yields hundreds of entries, not thousands. Every
text stays under the entry size limit, split into parts where needed. Output depends only
on the project's files: the same project gives the same drafts, so re-running discovery
stores nothing new.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from engine.analyzer.conventions import naming_draft, patterns_draft, routes_draft
from engine.analyzer.definitions import CODE_LANGUAGES
from engine.analyzer.languages import path_language
from engine.analyzer.model import Analysis, DiscoveryDraft, Symbol
from engine.analyzer.modules import module_summary, package_summaries
from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.package_manifests import package_drafts
from engine.analyzer.project_files import project_file_drafts
from engine.analyzer.summaries import count_of, noise_drafts
from engine.analyzer.topics import (
    architecture_draft,
    entry_points_draft,
    own_source_dirs,
    ranked_entry_points,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_DRAFT_CHARS = 9_000
"""Below the 10,000-character entry limit, leaving room for redaction markers."""
MAX_LINE_CHARS = 600
MAX_MODULE_ENTRIES = 300
GROUP_SHARE = 6
"""When a cap is hit, 1/GROUP_SHARE of it goes to per-directory summaries of the rest."""
MAX_KEYWORDS = 10


def discovery_drafts(
    analysis: Analysis, noise: NoiseClassifier | None = None
) -> list[DiscoveryDraft]:
    """The discovery entries for ``analysis``, one topic each: the overview, entry points,
    architecture, how to build/test/run, CI, dependencies, API routes, patterns, naming;
    a summary per package and per module of the project's own code; and one summary per
    kind of accompanying material (release notes, examples, tests, vendored, generated).

    Documentation is not outlined here: its text is indexed as a source
    (:mod:`engine.services.sources`); code bodies are indexed by definition
    (:mod:`engine.analyzer.definitions`). ``noise`` tells the project's own files from the
    rest (by default by their paths alone; the configuration may override it).
    """
    noise = noise or NoiseClassifier(analysis.root)
    own = {
        rel
        for rel in analysis.files
        if path_language(rel, analysis.scripts) in CODE_LANGUAGES and noise.kind(rel) is None
    }
    drafts = [_overview(analysis, noise)]
    drafts += project_file_drafts(analysis.root, analysis.name)
    drafts += package_drafts(analysis.root, (r for r in analysis.files if noise.kind(r) is None))
    routes = routes_draft(analysis.root, analysis.name, sorted(own))
    optional = [
        entry_points_draft(analysis, noise),
        architecture_draft(analysis, noise),
        routes,
        patterns_draft(analysis, own, routes is not None),
        naming_draft(analysis, own),
    ]
    drafts += [d for d in optional if d is not None]
    drafts += package_summaries(analysis, own)
    by_file: dict[str, list[Symbol]] = defaultdict(list)
    for sym in analysis.symbols:
        if sym.file in own:
            by_file[sym.file].append(sym)
    for rel in analysis.summaries:  # a file that says what it is for, public names or not
        if rel in own:
            by_file.setdefault(rel, [])
    modules = sorted(by_file.items(), key=lambda kv: (_private(kv[0]), -len(kv[1]), kv[0]))
    drafts += _capped(
        modules,
        MAX_MODULE_ENTRIES,
        lambda item: [module_summary(item[0], item[1], analysis.summaries.get(item[0], ""))],
        lambda item: item[0],
        _module_group,
    )
    return drafts + noise_drafts(analysis, noise)


def _private(rel: str) -> bool:
    """Whether a module is private to its package (a part of its path starts with ``_``)."""
    return any(part.startswith("_") and part != "__init__.py" for part in rel.split("/"))


def _capped(
    items: Sequence[T],
    cap: int,
    single: Callable[[T], list[DiscoveryDraft]],
    path_of: Callable[[T], str],
    group: Callable[[str, list[T]], list[DiscoveryDraft]],
) -> list[DiscoveryDraft]:
    """One entry per item up to ``cap``; past it, the rest summarised per directory."""
    if len(items) <= cap:
        return [d for item in items for d in single(item)]
    group_budget = cap // GROUP_SHARE
    head, rest = items[: cap - group_budget], items[cap - group_budget :]
    drafts = [d for item in head for d in single(item)]
    groups: dict[str, list[T]] = defaultdict(list)
    for item in rest:
        groups[path_of(item).rpartition("/")[0]].append(item)
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    for directory, members in ranked[:group_budget]:
        drafts += group(directory, members)
    dropped = sum(len(m) for _, m in ranked[group_budget:])
    if dropped:
        log.info("discovery: %d files beyond the entry cap are not described", dropped)
    return drafts


def _overview(analysis: Analysis, noise: NoiseClassifier) -> DiscoveryDraft:
    stats = analysis.stats
    langs = ", ".join(
        f"{s.language} ({count_of(s.files, 'file')}, {s.percentage:g}%, "
        f"{count_of(s.lines, 'line')})"
        for s in analysis.languages[:8]
    )
    purpose = analysis.summaries.get(f"{analysis.name}/__init__.py", "")
    own_dirs = own_source_dirs(analysis, noise)
    entries = ranked_entry_points(analysis, noise)[:5]
    lines = [
        f"Project overview: {analysis.name}" + (f": {purpose}" if purpose else ""),
        f"Languages: {langs or 'none recognised'}",
        f"Source directories: {_listing(own_dirs, 12)}",
        f"Main entry points: {_listing(entries, 5)}",
        f"Frameworks and libraries: {_listing(analysis.frameworks, 30)}",
        f"Test tools: {_listing(analysis.test_tools, 15)}",
        _size(stats),
    ]
    if not stats.get("files", 0):  # an empty repository: nothing to count or list
        lines = [lines[0], "The project has no files to analyse yet (an empty repository)."]
    if analysis.errors:
        lines.append(
            f"Files that could not be parsed: {_listing([f for f, _ in analysis.errors], 10)}"
        )
    keywords = [analysis.name, *analysis.frameworks, *(s.language for s in analysis.languages)]
    return DiscoveryDraft(
        content="\n".join(_clip(line) for line in lines),
        section_title="Project overview",
        file_path="",
        keywords=_keywords(keywords),
    )


def _module_group(directory: str, members: list[tuple[str, list[Symbol]]]) -> list[DiscoveryDraft]:
    where = directory or "the project root"
    header = f"More modules in {where} and their exports"
    body = [
        f"- {file}: " + ", ".join(f"{s.kind} {s.name}" for s in syms if s.kind != "method")
        for file, syms in members
    ]
    names = [s.name for _, syms in members for s in syms if s.kind != "method"]
    return _split(header, body, f"Modules in {where}", directory, _keywords(names))


def _split(
    header: str, body: list[str], title: str, file_path: str, keywords: tuple[str, ...]
) -> list[DiscoveryDraft]:
    """One draft, or several numbered parts when the text exceeds :data:`MAX_DRAFT_CHARS`."""
    body = [_clip(line) for line in body]
    header = _clip(header)
    parts: list[list[str]] = [[]]
    size = len(header) + 40  # room for " (part n of m)"
    for line in body:
        if parts[-1] and size + len(line) + 1 > MAX_DRAFT_CHARS:
            parts.append([])
            size = len(header) + 40
        parts[-1].append(line)
        size += len(line) + 1
    if len(parts) == 1:
        return [DiscoveryDraft("\n".join([header, *body]), title, file_path, keywords)]
    n = len(parts)
    return [
        DiscoveryDraft(
            "\n".join([f"{header} (part {i} of {n})", *lines]),
            f"{title} (part {i} of {n})",
            file_path,
            keywords,
        )
        for i, lines in enumerate(parts, start=1)
    ]


def _size(stats: Mapping[str, int]) -> str:
    n = stats.get
    folders = f"{n('directories', 0):,} director" + ("y" if n("directories", 0) == 1 else "ies")
    source, tests = (
        count_of(n("source_files", 0), "source file"),
        count_of(n("test_files", 0), "test file"),
    )
    return (
        f"Size: {count_of(n('files', 0), 'file')} in {folders}, {count_of(n('lines', 0), 'line')} "
        f"({source}, {tests})"
    )


def _listing(items: Sequence[str], limit: int) -> str:
    if not items:
        return "none found"
    shown = ", ".join(items[:limit])
    return shown + (f", and {len(items) - limit} more" if len(items) > limit else "")


def _keywords(words: Sequence[str]) -> tuple[str, ...]:
    unique = dict.fromkeys(w.strip() for w in words if w and w.strip() and len(w) <= 60)
    return tuple(unique)[:MAX_KEYWORDS]


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 3] + "..."
