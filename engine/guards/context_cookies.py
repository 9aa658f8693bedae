"""Cookies that carry a session or a credential: a ``Cookie:`` or ``Set-Cookie:`` header,
``document.cookie =``, curl's ``-b``/``--cookie``, or a ``Set-Cookie`` value copied alone,
each cookie judged by its name and its value (:func:`cookie_secrets`).

Read with Python's ``re`` on patterns that cannot turn back, not RE2 as the other context
rules are: RE2's Python binding spends, on each match it returns, a pass over the text
before it (a megabyte of cookie headers took 17 s).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import re2

from engine.guards.context_values import random_token
from engine.guards.context_words import VALUE_FIELD, public

_COOKIES = re.compile(
    r"(?i)(?:(?:^|[^\w\-])(?:set-)?cookie[\"']?" + VALUE_FIELD + r"[ \t]*[:=]"
    r"|(?:^|[\s\"'(\[])(?:-b|--cookie)(?:=|[ \t]+))"
    r"[ \t]*[\"']?(?P<cookies>[^\n\"'`]+)"
)
"""A ``Cookie:`` or ``Set-Cookie:`` header (``document.cookie =``, curl's ``-b`` and
``--cookie``): the cookies it carries, ``name=value`` pairs split by ``;``. On Python's
``re``, linear (a try starts at the word or the flag, and runs to its line's end without
turning back), as RE2's binding spends on each match it returns a pass over the text before
it (a megabyte of headers took 17 s)."""
_COOKIE = re.compile(r"(?:^|;)[ \t]*(?P<name>[^=;\s]+)=(?P<value>[^;\s]+)")
"""A cookie of a list: on Python's ``re`` (linear: each try starts at ``;``), as RE2's
binding spends on each match it returns a pass over the text before it."""
_SESSION_COOKIE = re2.compile(r"(?i)sess|sid$|auth|token|jwt|remember|login|secret|key|cred")
"""A cookie whose name names a session or a credential (``sessionid``, ``PHPSESSID``,
``connect.sid``, ``auth_token``, ``remember_user_token``): its value is one."""


_COOKIE_LINE = re.compile(
    r"(?im)^[ \t]*(?P<cookies>[^=;\s\"'`]+=[^;\s\"'`]+;[ \t]*"
    r"(?:path|domain|expires|max-age|httponly|secure|samesite)\b[^\n\"'`]*)"
)
"""A line that is a ``Set-Cookie`` header's value without its name (a browser's or a log's
copy): a cookie and, after ``;``, its attributes (RFC 6265's ``cookie-av``). On Python's
``re``, linear: it tries at a line's start only, its first run stops at ``=``."""


def _cookie_lists(text: str) -> Iterator[tuple[int, str]]:
    """Where each list of cookies starts, and the list."""
    readers = (_COOKIES,) if "ookie" in text or "OOKIE" in text or "-b" in text else ()
    for reader in (*readers, *((_COOKIE_LINE,) if ";" in text else ())):
        group = reader.groupindex["cookies"]
        for m in reader.finditer(text):
            yield m.start(group), m.group(group)


def cookie_secrets(text: str) -> Iterator[tuple[int, int]]:
    """The span of every cookie value a header, a flag or a header's value alone carries
    under a session's or a credential's name, where the value looks generated (a session
    id, a token)."""
    for start, cookies in _cookie_lists(text):
        for m in _COOKIE.finditer(cookies):
            if _SESSION_COOKIE.search(m.group("name")) and not public(m.group("name")):
                begin, end = m.span(_COOKIE.groupindex["value"])
                if random_token(m.group("value"), 16):
                    yield start + begin, start + end
