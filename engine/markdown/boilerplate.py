"""Text that memory-tui's own templates put into knowledge files, which is not knowledge.

``init`` writes ``gotchas.md`` with an introduction for the reader. Today's template keeps
that text in an HTML comment (never indexed); earlier templates had it as a plain paragraph,
and repositories initialised then still carry it. Those paragraphs are recognised here, so
the introduction is not indexed as if it were a gotcha.
"""

from __future__ import annotations

_TEMPLATE_PARAGRAPHS = frozenset(
    {
        "Things that surprised someone on this project, so they surprise nobody again. "
        "One section per gotcha: what happens, why, and what to do instead.",
    }
)


_FIRST_WORDS = tuple(paragraph.split(" ", 1)[0] for paragraph in _TEMPLATE_PARAGRAPHS)


def may_hold_template_text(text: str) -> bool:
    """A quick test: False when ``text`` certainly holds no template paragraph."""
    return any(word in text for word in _FIRST_WORDS)


def blank_template_paragraphs(lines: list[str], code: list[bool]) -> list[str]:
    """``lines`` with every paragraph of template text blanked, line count unchanged.

    ``code[i]`` says whether line ``i`` is code (inside a fence), which is never blanked.
    A paragraph is a run of non-blank lines outside code; it matches when its words,
    joined by single spaces, equal a known template paragraph.
    """
    result = list(lines)
    start = 0
    for index in range(len(lines) + 1):
        if index < len(lines) and lines[index].strip() and not code[index]:
            continue
        if index > start and " ".join(" ".join(lines[start:index]).split()) in _TEMPLATE_PARAGRAPHS:
            result[start:index] = [""] * (index - start)
        start = index + 1
    return result
