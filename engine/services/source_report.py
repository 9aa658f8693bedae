"""Why each file of a project is in the memory or not: ``memory-tui sources --explain``
and the counts by rule that ``init`` and ``status`` print.

Documentation is decided by :class:`engine.services.sources.SourceSet`; code by the
analyzer's rules (every programming language it knows, cut into definitions; what
:class:`engine.analyzer.noise.NoiseClassifier` calls accompanying material, tests among it,
weighed against the ``analyzer_include``/``analyzer_exclude`` settings, left out: the one
answer the definitions get too). A file that is neither (data, images, configuration) is
counted as ``other``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.analyzer.definitions import CODE_LANGUAGES
from engine.analyzer.gitignore import IgnoreRules, is_ignored
from engine.analyzer.languages import language_of
from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.scan import BINARY_SNIFF_BYTES, read_gitignore
from engine.core.config import Config
from engine.core.errors import EngineError, InvalidInputError
from engine.guards.files import read_project_bytes
from engine.services.sources import NOT_DOCS_BY_CONTENT, SourceDecision, SourceSet

DOCS, CODE, OTHER = "docs", "code", "other"


@dataclass(frozen=True, slots=True)
class FileDecision:
    """One file: what it is (``docs``, ``code``, ``other``), and the decision."""

    what: str
    decision: SourceDecision


@dataclass(slots=True)
class SourceReport:
    """Every file looked at, in path order, and the counts by rule."""

    files: list[FileDecision] = field(default_factory=list)

    def counts(self) -> dict[str, Counter[str]]:
        """``docs`` and ``code``: included files by rule; ``left out``: by rule;
        ``other``: files that are neither documentation nor code."""
        found: dict[str, Counter[str]] = {
            DOCS: Counter(),
            CODE: Counter(),
            "left out": Counter(),
            OTHER: Counter(),
        }
        for item in self.files:
            if item.what == OTHER:
                found[OTHER]["files"] += 1
            elif item.decision.included:
                found[item.what][item.decision.rule] += 1
            else:
                found["left out"][item.decision.rule] += 1
        return found

    def summary(self) -> str:
        """One line: ``docs 38 (markdown 35, docc 3) · code 120 (Swift 120) · left out:
        tests 40, vendored 12, licence 1``."""
        counts = self.counts()
        parts = []
        for what in (DOCS, CODE):
            total = sum(counts[what].values())
            parts.append(f"{what} {total}" + (f" ({_by_count(counts[what])})" if total else ""))
        if counts["left out"]:
            parts.append(f"left out: {_by_count(counts['left out'])}")
        return " · ".join(parts)


def _by_count(counter: Counter[str]) -> str:
    return ", ".join(f"{rule} {n}" for rule, n in sorted(counter.items(), key=_order))


def _order(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


class SourceExplainer:
    """Decides every file of the project at ``root`` (see the module docstring)."""

    def __init__(self, root: Path, config: Config, knowledge_dir: Path) -> None:
        self.root = root
        self.sources = SourceSet(root, config, knowledge_dir)
        self.code_noise = NoiseClassifier(
            root, own=config.analyzer_include, excluded=config.analyzer_exclude
        )

    def report(self, paths: Sequence[str] = ()) -> SourceReport:
        """The decision of every file the walk reaches, or of the files and folders
        ``paths`` name (project-relative or absolute; a file the walk does not reach is
        decided alone, with the reason the walk passed it by).

        Raises:
            InvalidInputError: a path is outside the project or does not exist.
        """
        wanted = [self._relative(raw) for raw in paths]
        seen: set[str] = set()
        found = SourceReport()
        for rel, ignored in self.sources.walk():
            if wanted and not any(_covers(w, rel) for w in wanted):
                continue
            seen.add(rel)
            found.files.append(self.decide(rel, ignored=ignored))
        for rel in wanted:
            if rel not in seen and not any(_covers(rel, s) for s in seen):
                found.files += [self.decide(f, ignored=self._ignored(f)) for f in self._files(rel)]
        found.files.sort(key=lambda item: item.decision.rel)
        return found

    def decide(self, rel: str, *, ignored: bool = False) -> FileDecision:
        """One file's decision (``ignored``: ``.gitignore`` ignores it)."""
        docs = self.sources.decide(rel)
        if docs.rule == "knowledge folder":  # indexed whole, every note
            return FileDecision(DOCS, SourceDecision(rel, True, "knowledge", docs.detail))
        script = self.sources.script(rel)  # named without an extension, run by its #! line
        language = language_of(rel.rpartition("/")[2]) or script
        data = docs.rule == NOT_DOCS_BY_CONTENT or (
            not docs.included and self.sources.is_data(docs)
        )
        if data and script is None:
            # configuration or data (a YAML file left out by another rule is read to say so)
            return FileDecision(OTHER, SourceDecision(rel, False, "not documentation or code"))
        what = DOCS if docs.rule != "not documentation" and script is None else CODE
        if what == CODE and language not in CODE_LANGUAGES:
            return FileDecision(OTHER, SourceDecision(rel, False, "not documentation or code"))
        if what == CODE and self._binary(rel):  # the analyzer's walk skips it (scan)
            return FileDecision(OTHER, SourceDecision(rel, False, "not documentation or code"))
        if ignored:
            return FileDecision(what, SourceDecision(rel, False, "ignored", ".gitignore"))
        if what == DOCS:
            return FileDecision(DOCS, docs)
        return FileDecision(CODE, self._code(rel, str(language)))

    def _binary(self, rel: str) -> bool:
        """Whether ``rel`` is binary as the analyzer's walk reads it, a NUL byte in its
        start (git's rule): named like code (a gettext catalog, ``django.mo``, shares
        Modelica's extension), it holds none."""
        try:
            head = read_project_bytes(
                self.root, Path(rel), max_bytes=BINARY_SNIFF_BYTES, start_only=True
            )
        except EngineError:
            return False
        return b"\0" in head

    def _code(self, rel: str, language: str) -> SourceDecision:
        """A code file: in the memory as definitions unless the analyzer's rules say not."""
        if (passed := self.sources.passed_by(rel)) is not None:
            return passed
        found = self.code_noise.decide(rel)
        if found is not None:
            return SourceDecision(rel, False, found[0], found[1])
        return SourceDecision(rel, True, language)

    def _relative(self, raw: str) -> str:
        path = Path(raw).expanduser()
        path = (path if path.is_absolute() else Path.cwd() / path).resolve()
        base = self.root.resolve()
        if not path.is_relative_to(base):
            raise InvalidInputError(f"{raw}: not inside the project ({base})")
        if not path.exists():
            raise InvalidInputError(f"{raw}: no such file or folder")
        return "" if path == base else path.relative_to(base).as_posix()

    def _files(self, rel: str) -> Iterable[str]:
        """The files at or below ``rel`` (symlinks not followed), in path order."""
        path = self.root / rel
        if path.is_file():
            return [rel]
        inner = (p for p in path.rglob("*") if p.is_file() and not p.is_symlink())
        return sorted(p.relative_to(self.root).as_posix() for p in inner)

    def _ignored(self, rel: str) -> bool:
        """Whether a ``.gitignore`` on the way down to ``rel`` ignores it or a folder above."""
        parts = rel.split("/")
        rules: tuple[IgnoreRules, ...] = ()
        for depth in range(len(parts)):
            folder = "/".join(parts[:depth])
            rules = rules + read_gitignore(self.root / folder, folder)
            below = "/".join(parts[: depth + 1])
            if is_ignored(rules, below, depth + 1 < len(parts), self.sources.tracked):
                return True
        return False


def _covers(folder: str, rel: str) -> bool:
    return not folder or rel == folder or rel.startswith(folder + "/")


def explain_sources(root: Path, config: Config, paths: Sequence[str] = ()) -> SourceReport:
    """:meth:`SourceExplainer.report` for the project at ``root``."""
    return SourceExplainer(root, config, root / config.knowledge_dir).report(paths)
