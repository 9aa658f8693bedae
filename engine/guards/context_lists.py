"""Secrets written as a list after the words naming them (``context_secrets``' list rules).

Two forms, each a list no single value of which looks like a credential:

- ``recovery-codes``: one-time codes that stand in for a second factor (GitHub's,
  GitLab's, Google's backup codes, a TOTP app's scratch codes), listed after the words
  naming them (``recovery codes:``, ``backup codes``, ``scratch codes``): four codes or
  more, of one shape (``4f2a1-9c3b0``, ``1234-5678``, ``a1b2c3d4e5f6a7b8``), digits in
  them, all different;
- ``seed-phrase``: a wallet's mnemonic (BIP-39's 12 to 24 words, Electrum's 12 or 13)
  after the words naming it (``seed phrase:``, ``mnemonic is``, ``secret recovery
  phrase``): twelve words or more, numbered or not, on one line or one a line, none of them
  a word that joins a sentence (``the``, ``and``, ``your``…: BIP-39's list has none of
  them, and a sentence of twelve words seldom lacks one).

Every expression runs on RE2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import re2

from engine.guards.context_values import typed_stand_in
from engine.guards.ruleset import shannon_entropy

_LIST_MARK = r"(?:[-*•+][ \t]{1,8}|\d{1,2}[.)][ \t]{0,8})?"
"""A list item's bullet or number."""
_CODE = r"[A-Za-z0-9\-]{0,30}[0-9][A-Za-z0-9\-]{0,30}"
"""A code: letters, digits and dashes, a digit among them (its shape is checked after)."""
_RECOVERY_CODES = (
    r"(?i)\b(?P<key>(?:recovery|backup|scratch|emergency|rescue|one[ \-]time|2fa|mfa)"
    r"[ \t_\-]{1,3}codes?)\b[^\n:]{0,60}?:?[ \t]{0,8}(?P<value>(?:[ \t,;]{0,8}(?:\r?\n[ \t]{0,8})?"
    + _LIST_MARK
    + r"`?"
    + _CODE
    + r"`?){4,})"
)
_SHAPE = re.compile(r"[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12}){0,3}")
_CODE_TOKEN = re.compile(r"[A-Za-z0-9]*[0-9][A-Za-z0-9\-]*|[A-Za-z0-9\-]*[0-9][A-Za-z0-9]*")
_NUMBERING = re.compile(r"(?m)(?:^|(?<=\s))(?:\d{1,2}[.)]|[-*•+])(?=\s)")


def _shape(code: str) -> tuple[int, ...]:
    return tuple(len(part) for part in code.split("-"))


def _codes(m: Any, value: str) -> bool:
    """Four codes or more of one shape, all different, not typed to fill a slot
    (``1111-1111``), together random (more than 3 bits a character)."""
    codes = _CODE_TOKEN.findall(_NUMBERING.sub(" ", value).replace("`", " "))
    if len(codes) < 4 or not all(_SHAPE.fullmatch(c) for c in codes):
        return False
    if len({_shape(c) for c in codes}) > 1 or len(set(codes)) < len(codes):
        return False
    if any(typed_stand_in(c) for c in codes):
        return False
    return shannon_entropy("".join(codes).replace("-", "")) > 3.0


_SEED_KEY = (
    r"(?P<key>(?:(?:secret[ \t]+)?recovery|seed|backup|wallet|mnemonic)[ \t_\-]*"
    r"(?:phrase|words|sentence|seed)|mnemonic|seed)"
)
_SEED_WORD = r"[A-Za-z]{3,8}"
_SEED_PHRASE = (
    r"(?i)\b"
    + _SEED_KEY
    + r"\b[^\n:.]{0,40}?(?:[ \t]{0,8}:|[ \t]{1,8}(?:is|was|are|were))[ \t]{0,8}(?P<value>"
    # On one line, or one word a line (the line after the list is not one of them).
    + _LIST_MARK
    + _SEED_WORD
    + r"(?:[ \t,]{1,8}"
    + _LIST_MARK
    + _SEED_WORD
    + r"){11,29}|\r?\n(?:[ \t]{0,8}"
    + _LIST_MARK
    + _SEED_WORD
    + r"[ \t]{0,8}(?:\r?\n|$)){12,30})"
)
_JOINING = frozenset(
    (
        *("the", "and", "you", "your", "that", "with", "for", "are", "this", "from", "not"),
        *("was", "have", "has", "will", "its", "into", "them", "then", "than", "but"),
        *("they", "their", "there", "what", "when", "which", "who", "how", "our", "been"),
        *("were", "these", "those", "does", "did", "should", "would", "could", "must"),
        *("here", "where", "why", "yours", "his", "her", "she", "him", "onto", "upon"),
    )
)
"""Words that join a sentence; BIP-39's English list has none of them."""
_WORD = re.compile(r"[A-Za-z]{3,8}")


def _seed(m: Any, value: str) -> bool:
    """Twelve words or more before any word that joins a sentence, mostly different."""
    words = [w.lower() for w in _WORD.findall(value)]
    leading = 0
    for word in words:
        if word in _JOINING:
            break
        leading += 1
    return leading >= 12 and len(set(words[:leading])) * 4 >= leading * 3


LIST_RULES: tuple[tuple[str, Any, Callable[[Any, str], bool]], ...] = (
    ("recovery-codes", re2.compile(_RECOVERY_CODES), _codes),
    ("seed-phrase", re2.compile(_SEED_PHRASE), _seed),
)
"""(kind, expression on RE2, check of the match and its value) of the list rules."""
