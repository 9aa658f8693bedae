"""``memory-tui init``: the files, then analysis and indexing, with progress on a terminal.

Every failure ends the command with a non-zero status and a line saying what failed and
what to do; what was made before it stays (a second run completes it, creating nothing twice).
A document that cannot be indexed is not a failure: it is named in a warning and skipped.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.options import EXIT_INTERRUPTED
from app.progress import embedding_progress, progress_bar
from app.words import plural
from engine import EngineError, printable

if TYPE_CHECKING:
    from app.init import InitReport
    from engine import Memory


def _say(text: str) -> None:
    print(printable(text), file=sys.stderr)


@dataclass(slots=True)
class Steps:
    """How far ``init`` got: the step under way and those finished, for the line that a
    Ctrl-C leaves."""

    doing: str = "writing the project files"
    done: list[str] = field(default_factory=list)

    def then(self, doing: str, finished: str = "") -> None:
        """``finished`` is done (when given); ``doing`` starts."""
        if finished:
            self.done.append(finished)
        self.doing = doing

    def interrupted(self) -> str:
        """What was done, and that a second ``init`` resumes."""
        done = ", ".join(self.done) or "nothing yet"
        return (
            f"memory-tui: init interrupted while {self.doing}; done: {done}. Run "
            "`memory-tui init` again to resume: it keeps what is made and does only what is left"
        )


def init(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui init``; Ctrl-C says how far it got (exit 130)."""
    steps = Steps()
    try:
        return _init(args, root, steps)
    except KeyboardInterrupt:
        _say(steps.interrupted())
        return EXIT_INTERRUPTED


def _init(args: argparse.Namespace, root: Path, steps: Steps) -> int:
    from app.init import InitReport

    report = InitReport()
    _files(root, report, hooks=not args.no_hooks)
    steps.then("opening the memory", f"project files ({len(report.created)} created)")
    from engine import Memory

    try:
        with Memory.open(root) as memory:
            if not args.skip_analyze:
                steps.then("analysing the codebase")
                _analyse(memory, report)
                steps.done.append("analysis")
            if not args.skip_index:
                steps.then("indexing the knowledge files and docs")
                _index(memory, report, force=getattr(args, "force", False))
                steps.done.append("keyword index")
                report.notes.append(f"sources: {sources_line(root)}")
            total = memory.count()
            suggestion = try_query(memory)
            if not args.skip_index and not getattr(args, "no_embed", False):
                steps.then("computing the vectors (`memory-tui embed` alone also resumes them)")
                _embed(memory)
            pending = memory.vectors_waiting()
    except OSError as exc:
        raise _failed("opening the memory in .claude/memory", exc) from None
    for warning in report.warnings:
        _say(f"memory-tui: warning: {warning}")
    for error in report.errors:
        _say(f"memory-tui: error: {error}")
    head = f"Initialised {root}" if not report.errors else f"Initialised {root}, with errors"
    sys.stdout.write(  # paths, a git remote, section titles: nothing a terminal obeys
        printable(
            f"{head}\n"
            f"  files created: {len(report.created)}, merged: {len(report.updated)}, "
            f"already there: {len(report.unchanged)}\n"
            + "".join(f"  {note}\n" for note in report.notes)
            + f"  memory: {total} entries, keyword index ready"
            + (f"; {pending} wait for their vector (`memory-tui embed`)\n" if pending else "\n")
            + try_line(suggestion)
        )
    )
    if report.errors:
        _say("memory-tui: init is incomplete: fix the errors above, then run it again")
    return 1 if report.errors else 0


def _failed(step: str, exc: OSError) -> EngineError:
    where = f"{exc.filename}: " if exc.filename else ""
    return EngineError(
        f"init failed while {step}: {where}{exc.strerror or exc}. Check that the project "
        "folder and .claude/ are writable folders (not files), then run `memory-tui init` "
        "again; it keeps what it already made",
        code="INIT_FAILED",
    )


def _files(root: Path, report: InitReport, *, hooks: bool) -> None:
    """The file steps and the git hooks, each file listed on stderr."""
    from app.init import scaffold

    try:
        scaffold(root, report)
    except OSError as exc:
        raise _failed("writing the project files", exc) from None
    finally:
        for path in report.created:
            _say(f"  created   {path}")
        for path in report.updated:
            _say(f"  merged    {path}")
    if hooks:
        from app.cli.freshness import install_git_hooks_for_init

        report.notes.append(install_git_hooks_for_init(root))


def _analyse(memory: Memory, report: InitReport) -> None:
    from engine import run_discovery

    with progress_bar("Analysing the codebase") as update:
        found = run_discovery(memory, progress=update)
    report.notes.append(
        f"analysis: {len(found.analysis.symbols)} symbols in "
        f"{found.analysis.stats.get('files', 0)} files; discovery entries "
        f"{found.created} new, {found.kept} unchanged, {found.deleted} removed"
    )


def _index(memory: Memory, report: InitReport, *, force: bool = False) -> None:
    from engine import Indexer

    indexer = Indexer(memory)
    with progress_bar("Indexing knowledge files and docs") as update:  # keyword search after
        indexed = indexer.run(force=force, progress=update, embed=False)
    knowledge = len(indexer.knowledge_files())
    # A document that cannot be indexed (not UTF-8, too large, unreadable) is skipped and
    # named; the rest is indexed, so init has done its work (doctor says the same).
    skipped = f"; {plural(len(indexed.errors), 'file')} skipped (see the warnings)"
    report.notes.append(
        f"indexed: {plural(knowledge, 'knowledge file')} and "
        f"{plural(indexed.files_total - knowledge, 'doc file')}; "
        f"{plural(indexed.entries_created, 'entry', 'entries')} created, "
        f"{plural(indexed.files_skipped, 'file')} unchanged" + (skipped if indexed.errors else "")
    )
    report.warnings += [
        f"{f}: {m}; skipped (`memory-tui index` reads it again once fixed)"
        for f, m in indexed.errors
    ]
    for where, message in indexed.warnings:
        _say(f"memory-tui: warning: {where}: {message}")


def sources_line(root: Path) -> str:
    """The project's files in the memory and left out, counted by the rule that decided
    (``memory-tui sources --explain`` lists them)."""
    from engine import explain_sources, load_config

    return explain_sources(root, load_config(root)).summary() + " (`memory-tui sources --explain`)"


def _embed(memory: Memory) -> None:
    """The second phase of indexing: every entry's vector, with a bar and its ETA."""
    from engine import Indexer, IndexReport

    if not memory.vectors_waiting():
        return
    _say("  keyword search is ready; computing the vectors (Ctrl-C: `memory-tui embed` resumes)")
    with embedding_progress("Embedding") as update:
        Indexer(memory).embed(IndexReport(), progress=update)


_STARTERS = ("getting started", "quick start", "quickstart", "first steps", "installation",
             "install", "usage", "configuration", "features", "tutorial")  # fmt: skip
"""Topics a newcomer looks for first, in order of preference."""


def try_query(memory: Memory) -> str:
    """A search worth trying in this repository: a first-steps topic its own docs cover
    (a section title), checked to return results; the project overview otherwise."""
    titles = set()
    for entry in memory.list(source="markdown", limit=1000):
        title = entry.section_title.rpartition(" > ")[2].strip().lower()
        if 1 <= len(title.split()) <= 4 and all(c.isalnum() or c in " -" for c in title):
            titles.add(title)
    ranked = sorted(
        titles, key=lambda t: (next((i for i, s in enumerate(_STARTERS) if s in t), 99), len(t))
    )
    for title in [t for t in ranked if any(s in t for s in _STARTERS)][:10]:
        if memory.search(title, mode="keyword", limit=1).results:
            return title
    for title in ["project overview", *sorted(titles, key=len)[:10]]:
        if memory.search(title, mode="keyword", limit=1).results:
            return title
    return ""


def try_line(suggestion: str) -> str:
    """What to try next, with the command as this shell can run it (its full path when
    memory-tui is not on PATH); adding a first note when nothing can be found yet."""
    from app.init import local_command

    command = shlex.quote(local_command() or "memory-tui")
    if not suggestion:
        return f'Try: {command} add "a first note about this project"\n'
    return f'Try: {command} search "{suggestion}"\n'
