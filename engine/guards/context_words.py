"""The words that name a credential, shared by every context rule (:mod:`.context`,
:mod:`.context_calls`), and the check of a value a name of them is given.

One vocabulary: ``STRONG`` words name a password (its value may be anything a person
types; a Wi-Fi ``psk``, pre-shared key, is one), ``WEAK`` ones a key, token, bearer or
auth (its value must look generated: a name ending in ``key`` is as often an index, a
cache's or a sort's; curl's ``--oauth2-bearer`` names its token). ``PAIR`` words name a
user and its password together (``credentials``, ``login``, a call named ``…Auth``).
"""

from __future__ import annotations

from typing import Any

from engine.guards.context_values import plausible, random_token

STRONG = r"password|passwd|passphrase|passcode|pwd|pass|pw|secret|requirepass|masterauth"
STRONG += r"|credentials?|psk"
WEAK = r"token|auth|bearer|apikey|(?:api|access|secret|private|auth|signing|master|encryption"
WEAK += r"|client|license|account|app|bot|service|admin|root|deploy)[_\-]?key"
WORDS = STRONG + "|" + WEAK
NAME = r"[A-Za-z0-9_.\-]*?(?:" + WORDS + ")"
"""A name ending in a credential word: ``password``, ``DB_PASS``, ``smtp.password``,
``client_secret``, ``apiKey``, ``GITHUB_TOKEN``."""
KEY = r"(?P<key>" + NAME + ")"
QUOTED = r"\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'"
VALUE = r"(?:" + QUOTED + r"|(?P<bare>[^\s\"',;`()\[\]{}<>]{1,200}))"
"""A quoted value, or an unquoted one up to a blank, quote, separator or bracket (an
unquoted value ends where a markdown link, a call or a tag goes on)."""
STRONG_WORDS = frozenset(STRONG.replace("?", "").split("|")) | {"credential"}
PAIR = r"credentials?|creds|login"
"""What names a user and its password together (``Credentials: admin / …``)."""


def public(key: str) -> bool:
    """``public_key``, ``publicToken``: named public, so not a secret."""
    return "public" in key.lower()


def strong_key(key: str) -> bool:
    lowered = key.lower()
    return any(lowered.endswith(word) for word in STRONG_WORDS)


_SECRET_KEY = ("secret_key", "secret-key", "secretkey")


def keyed(m: Any, value: str) -> bool:
    """A value under a key: a password-like value for a password-like key, a generated
    one for a key, token or auth (20 characters or more; 12 for a key named secret,
    ``SECRET_KEY``, ``secretKey``, which no index or sort key is named)."""
    if public(m.group("key")):
        return False
    if strong_key(m.group("key")):
        return plausible(value)
    return random_token(value, 12 if m.group("key").lower().endswith(_SECRET_KEY) else 20)


VALUE_FIELD = r"(?:[ \t]*,[ \t]*\r?\n?[ \t]*[\"']value[\"'])?"
"""A header written as a name field and a value field, the header's name the first
(HAR's and Postman's ``{"name": "Authorization", "value": "Bearer …"}``, ``{"key":
"Cookie", "value": …}``): the value field's key stands where the header's colon goes."""
