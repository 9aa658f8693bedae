"""The backtick fence that holds a text whole, by CommonMark's rule: a code span or block
is closed only by a run of backticks as long as the one that opened it, so one longer than
any run inside the text cannot be closed by it. Used wherever code is written into
markdown: discovery's code chunks, exports, a notebook's cells."""

from __future__ import annotations

import re

_BACKTICKS = re.compile("`+")


def longest_backtick_run(text: str) -> int:
    """The length of the longest run of backticks in ``text`` (0: none)."""
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def fence_for(text: str) -> str:
    """The fence of a code block holding ``text``: three backticks, or one more than its
    longest run."""
    return "`" * max(3, longest_backtick_run(text) + 1)
