"""Reading what callers give the engine: category, source and mode names, keywords, the
time stamp entries carry. Each failure is an :class:`InvalidInputError` whose message
lists the valid choices."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from engine.core.errors import InvalidInputError
from engine.core.models import MAX_KEYWORDS, Category, SearchMode, Source


def now_iso() -> str:
    """The current UTC time, ISO 8601 with microseconds (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_category(value: Category | str) -> Category:
    """A :class:`Category` from its name, with a message listing the valid ones."""
    try:
        return Category(str(value).strip().lower())
    except ValueError:
        names = ", ".join(c.value for c in Category)
        raise InvalidInputError(f"unknown category '{value}': choose one of {names}") from None


def parse_source(value: Source | str) -> Source:
    """A :class:`Source` from its name."""
    try:
        return Source(str(value).strip().lower())
    except ValueError:
        names = ", ".join(s.value for s in Source)
        raise InvalidInputError(f"unknown source '{value}': choose one of {names}") from None


def parse_mode(value: SearchMode | str) -> SearchMode:
    """A :class:`SearchMode` from its name."""
    try:
        return SearchMode(str(value).strip().lower())
    except ValueError:
        names = ", ".join(m.value for m in SearchMode)
        raise InvalidInputError(f"unknown search mode '{value}': choose one of {names}") from None


def clean_keywords(keywords: Sequence[str]) -> tuple[str, ...]:
    """Trimmed, de-duplicated keywords; at most :data:`MAX_KEYWORDS`."""
    if isinstance(keywords, str):
        keywords = keywords.split(",")
    cleaned = tuple(dict.fromkeys(k.strip() for k in keywords if k and k.strip()))
    for keyword in cleaned:
        require_unicode(keyword, "a keyword")
    if len(cleaned) > MAX_KEYWORDS:
        raise InvalidInputError(f"too many keywords: {len(cleaned)} (at most {MAX_KEYWORDS})")
    return cleaned


_SURROGATE = re.compile("[\ud800-\udfff]")


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: no lone surrogate, so it can be stored as UTF-8.

    Python gives lone surrogates for bytes that are not UTF-8 (command-line arguments and
    file names decode them as U+DC80-U+DCFF) and for JSON's unpaired ``\\ud800`` escapes.
    """
    return _SURROGATE.search(text) is None


def require_unicode(text: str, what: str) -> str:
    """``text`` itself when it is valid Unicode, else an :class:`InvalidInputError` that
    says where the invalid character is (never echoing the character itself)."""
    found = _SURROGATE.search(text)
    if found is None:
        return text
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:
        problem = f"byte 0x{code - 0xDC00:02x}, which is not UTF-8,"
    else:
        problem = f"an unpaired surrogate (U+{code:04X})"
    raise InvalidInputError(
        f"{what} holds {problem} at character {found.start() + 1}: send UTF-8 text"
    )


MAX_LIMIT = 1000
"""Most results or entries one search or listing is asked for, on every face (MCP's tools
ask for fewer: their own, narrower limits for agents)."""
MIN_SCORE_BOUNDS = (-1.0, 1.0)
"""The range of a relevance floor (``min_score``, ``--min-score``); 0 or less: no gate."""


def check_limit(limit: int) -> int:
    """``limit`` when it is from 1 to :data:`MAX_LIMIT`, else an InvalidInputError."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInputError(f"limit must be from 1 to {MAX_LIMIT}, got {limit}")
    return limit


def check_min_score(min_score: float) -> float:
    """``min_score`` when it is within :data:`MIN_SCORE_BOUNDS`, else an InvalidInputError."""
    low, high = MIN_SCORE_BOUNDS
    if not low <= min_score <= high:
        raise InvalidInputError(f"min_score must be from {low:g} to {high:g}, got {min_score}")
    return min_score


def check_search(query: object, limit: int, min_score: float | None) -> str:
    """The query of a search, checked with its limit and minimum score; NUL bytes (which
    FTS5 cannot take) become spaces.

    Raises:
        InvalidInputError: an empty query, a limit outside 1..1000, a score outside -1..1.
    """
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("query is empty")
    require_unicode(query, "the query")
    check_limit(limit)
    if min_score is not None:
        check_min_score(min_score)
    return query.replace("\x00", " ")
