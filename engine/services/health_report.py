"""The vocabulary of a health check: each part's :class:`Status`, one :class:`Check` per
part, the :class:`HealthReport` that collects them (see :mod:`engine.services.health`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Status(StrEnum):
    """How one part of the memory is."""

    OK = "ok"
    REPAIRED = "repaired"
    WARNING = "warning"
    """Works, but something deserves attention (stale files, a file the indexer skips)."""
    PROBLEM = "problem"
    """Broken and not repaired; ``fix`` says what to run."""


@dataclass(frozen=True, slots=True)
class Check:
    """The state of one part, in one line, and what to run when it is a problem."""

    part: str
    status: Status
    detail: str
    fix: str = ""


@dataclass(slots=True)
class HealthReport:
    """Every check of one :func:`diagnose` run, in a fixed order."""

    checks: list[Check] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        """No problem is left (warnings and repairs are fine)."""
        return all(c.status is not Status.PROBLEM for c in self.checks)

    def add(self, part: str, status: Status, detail: str, fix: str = "") -> None:
        """Record one check."""
        self.checks.append(Check(part, status, detail, fix))


def count_of(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1 (``1 entry``, ``2,048 entries``)."""
    return f"{n:,} {noun if n == 1 else noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"
