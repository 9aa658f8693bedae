"""A session's digest: what was asked, what was decided and why, what changed, what failed
and what fixed it, and the last answer — deterministic, within :data:`DIGEST_CHARS`.

Every piece of text is redacted whole (``redact``: ``<private>`` blocks and likely
secrets, :meth:`engine.Memory.redacted`) before it is cut to its length, so a cut never
leaves half of a secret or opens a ``<private>`` block it does not close. When the
exchanges do not all fit, the first one (the session's task) and the latest ones are kept,
and the digest says how many were left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.sessions.transcript import Exchange, Failure, SessionLog

DIGEST_CHARS = 6_000
"""Largest digest (an entry holds at most 10,000 characters)."""
PROMPT_CHARS = 400
ANSWER_CHARS = 300
LAST_ANSWER_CHARS = 800
DECISIONS = 8
DECISION_CHARS = 240
FILES = 30
FAILURES = 6
COMMAND_CHARS = 160
TITLE_CHARS = 80
KEYWORD = "session-digest"
"""The keyword every digest carries: tells a digest from an agent's own session note."""

Redact = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Digest:
    """A digest as it is stored."""

    title: str
    content: str
    keywords: tuple[str, ...]


def session_keyword(session_id: str) -> str:
    """The keyword naming the session a digest is of (its note is found by it)."""
    return f"session:{session_id}"


def digest(log: SessionLog, session_id: str, redact: Redact) -> Digest:
    """The digest of ``log`` (which must hold at least one exchange)."""
    day = log.started[:10] or "an unknown day"
    span = _span(log.started, log.ended)
    branch = f" on branch {redact(log.branch)}" if log.branch else ""
    head = f"Claude Code session {session_id[:8]} of {day}{span}{branch}."
    tail = _tail(log, redact)
    room = DIGEST_CHARS - len(head) - len(tail) - 2
    body = _exchanges(log.exchanges, redact, room)
    content = "\n".join(part for part in (head, body, tail) if part)
    task = _cut(" ".join(redact(log.exchanges[0].prompt).split()), TITLE_CHARS)
    title = f"Session {day}{branch}: {task}"
    keywords = (KEYWORD, session_keyword(session_id)) + (
        (f"branch:{log.branch}",) * bool(log.branch)
    )
    return Digest(title, content[:DIGEST_CHARS], tuple(redact(k) for k in keywords))


def _span(started: str, ended: str) -> str:
    start, end = started[11:16], ended[11:16]
    if not start:
        return ""
    return f", {start}–{end} UTC" if end and end != start else f", {start} UTC"


def _exchanges(exchanges: list[Exchange], redact: Redact, room: int) -> str:
    """The exchanges that fit in ``room``: the first, then the latest ones."""
    last = len(exchanges) - 1
    written = [
        _exchange(e, redact, LAST_ANSWER_CHARS if i == last else ANSWER_CHARS)
        for i, e in enumerate(exchanges)
    ]
    header = "Asked and answered:"
    if len(header) + sum(len(w) + 1 for w in written) <= room:
        return "\n".join([header, *written])
    first, left = written[0], room - len(header) - len(written[0]) - 60
    latest: list[str] = []
    for text in reversed(written[1:]):
        if len(text) + 1 > left:
            break
        latest.insert(0, text)
        left -= len(text) + 1
    skipped = len(written) - 1 - len(latest)
    gap = [f"- ({skipped} more exchange{'s' * (skipped != 1)} left out)"] if skipped else []
    return "\n".join([header, first, *gap, *latest])


def _exchange(exchange: Exchange, redact: Redact, answer_chars: int) -> str:
    lines = [f"- Asked: {_piece(exchange.prompt, redact, PROMPT_CHARS)}"]
    if exchange.answer:
        lines.append(f"  Answered: {_piece(exchange.answer, redact, answer_chars)}")
    return "\n".join(lines)


def _tail(log: SessionLog, redact: Redact) -> str:
    lines: list[str] = []
    decisions = list(log.decisions)[-DECISIONS:]
    if decisions:
        lines.append("Decisions as stated:")
        lines += [f"- {_piece(d, redact, DECISION_CHARS)}" for d in decisions]
    for how in ("created", "changed"):
        paths = sorted(p for p, h in log.files.items() if h == how)
        if paths:
            more = f" and {len(paths) - FILES} more" if len(paths) > FILES else ""
            lines.append(f"Files {how}: {redact(', '.join(paths[:FILES]))}{more}")
    if log.failures:
        lines.append("Commands that failed:")
        lines += [_failure(f, redact) for f in log.failures[-FAILURES:]]
    return "\n".join(lines)


def _failure(failure: Failure, redact: Redact) -> str:
    text = f"- `{_piece(failure.command, redact, COMMAND_CHARS)}`"
    if failure.output:
        text += f" ({_piece(failure.output, redact, COMMAND_CHARS)})"
    if failure.fix:
        after = f" after changing {redact(', '.join(failure.edited[:5]))}" * bool(failure.edited)
        text += f"; then `{_piece(failure.fix, redact, COMMAND_CHARS)}` succeeded{after}"
    else:
        text += "; no later success of it"
    return text


def _piece(text: str, redact: Redact, size: int) -> str:
    """``text`` redacted whole, on one line, then cut to ``size`` characters."""
    return _cut(" ".join(redact(text).split()), size)


def _cut(text: str, size: int) -> str:
    if len(text) <= size:
        return text
    return text[:size].rsplit(" ", 1)[0].rstrip(",;:") + "…"
