"""Whether a value that its context calls a credential is one (:mod:`.context`).

A context rule finds a value where a key, flag, header, table column or sentence names a
credential; this module decides whether that value is a secret or one of the things
written in that place that are not: a placeholder (``<password>``, ``xxxx``, ``changeme``,
``your-token``), a reference to where the secret really is (``$DB_PASSWORD``,
``${VAR}``, ``{{ .Values.pw }}``, ``%PASS%``, ``@file``, a path), code (``self.password``,
``get_token()``, ``str``), or an everyday word (``required``, ``true``, ``hashed``).
Checks are on the value's characters, never on a list of known values: a value of
letters only (or words joined by ``-``, ``_``, ``.``, ``/`` or blanks) is a word or an
identifier wherever it stands (``same-origin``, ``SignatureKey``, ``and/or``), so a
password of letters only is let through: without a dictionary nothing tells it from a
word.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re

from engine.guards.ruleset import shannon_entropy

STAND_IN_WORDS = (
    "your",
    "example",
    "changeme",
    "change_me",
    "change-me",
    "placeholder",
    "redacted",
    "dummy",
    "xxx",
    "***",
    "...",
    "…",
    "password",
    "passwd",
    "secret",
    "token",
    "sample",
    "replace",
)
"""Words of a stand-in: a value holding one is written to be replaced (``my-secret``,
``your_api_key``, ``REPLACE_ME``) or names the field rather than fills it."""

_FIELD_NAMES = frozenset(("pass", "pwd", "pw", "user", "username", "login", "key", "auth", "pin"))
"""A value that only names its field (``user:pass@``): what a template writes."""
_TYPE_WORDS = frozenset(
    (
        *("string", "str", "bytes", "int", "integer", "number", "bool", "boolean", "none"),
        *("null", "nil", "undefined", "true", "false", "yes", "no", "on", "off", "optional"),
        *("required", "any", "object", "array", "list", "dict", "map", "text", "char"),
        *("varchar", "secretstr", "securestring"),
    )
)
"""Types and literals: what a schema, a signature or a flag's description puts after a
credential's name (``password: string``, ``token: Optional[str]``, ``auth: false``)."""

_CODE_PATH = re.compile(r"[A-Za-z_]+\d{0,2}(?:(?:\.|::|->)[A-Za-z_]+\d{0,2})+")
"""``self.password``, ``os.environ``, ``Config::TOKEN``: code, not a value."""
_REFERENCE_START = tuple("$<{[(@&~/\\*#:")
_PERCENT_REFERENCE = re.compile(r"%(?:[{(%]|\w+%|[-#0 +]*\d*(?:\.\d+)?[A-Za-z](?!\w))")
"""What a value starting with ``%`` refers to: Windows' ``%PASS%``, ``%(password)s``,
``%{VAR}``, printf's ``%s``; a password that starts with ``%`` goes on (``%Pm8q…``)."""
_CALL_OR_GENERIC = re.compile(r"^[A-Za-z_][\w.]*[(\[<]|%\(\w+\)")
"""``get_token()``, ``parts[2]``, ``Optional<String>``, ``%(password)s``: code."""
_TRAILING = ".,;:!?)]}'\"`"
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_WORDS_ONLY = re.compile(r"[^\W\d_]+(?:[ ._\-/][^\W\d_]+)*")
"""Letters, and words joined by blanks, dots, dashes, underscores or slashes
(``same-origin``, ``keyboard cat``, ``SignatureKey``, ``client/server``): words or
identifiers, never taken for a secret."""
_PHRASE = re.compile(r"[^\W\d_]+(?:[ ._\-][^\W\d_]+)+")
"""Words joined by blanks, dots, dashes or underscores: what a person types as a
stand-in and then encodes (``strong-password``, ``hello-world``)."""
_VERSION = re.compile(r"v?\d+(?:[.\-]\d+)+")
_PROSE = re.compile(r"[^\W\d_][^\W_]*(?: [^\W\d_][^\W_]*){2,}")
"""Three words or more, each beginning with a letter, one blank between them (``base64
encoded random bytes``): what documentation writes where a value goes (see :func:`_prose`)."""


def _prose(value: str) -> bool:
    """Words, not a key: :data:`_PROSE`, with every word but one of letters only (``S3cr3t
    pa55 w0rd`` is a passphrase written to be one, and stays)."""
    words = value.split(" ")
    return bool(_PROSE.fullmatch(value)) and sum(not w.isalpha() for w in words) <= 1


def trim(value: str, sentence: bool = False) -> str:
    """The value without the blanks and quotes around it; in a ``sentence``, also
    without the punctuation that ends a clause (``… is hunter2x.``)."""
    value = value.strip().strip("'\"`\\")
    return value.rstrip(_TRAILING).rstrip("\\") if sentence else value


def _decoded(value: str) -> str:
    """The text a base64 value stands for, when it is base64 of printable text (a
    stand-in is often written encoded: ``c3Ryb25nLXBhc3N3b3Jk``); else empty."""
    if len(value) < 8 or not _BASE64.fullmatch(value):
        return ""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return ""
    text = raw.decode("ascii", errors="replace")
    return text if text.isprintable() else ""


def _ascending(value: str) -> bool:
    """A run typed along the alphabet or the digits (``abcdef123456``): at least half of
    its neighbouring characters are one step apart."""
    steps = sum(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(value))
    return steps * 2 >= len(value) - 1


def typed_stand_in(value: str) -> bool:
    """A value typed to fill a slot, whatever the rule that found it: one or two letters
    repeated (``shhhh!``, ``xxxx``), or base64 of a phrase (``c3Ryb25nLXBhc3N3b3Jk``,
    ``strong-password``; ``aGVsbG8td29ybGQ=``, ``hello-world``; not ``user:pass1``,
    which is a credential however weak). (A run along the alphabet, ``abcdef123456``,
    is one too, but only where the context chose the value: gitleaks' own true
    positives are written so.)"""
    decoded = _decoded(value).lower()
    return len({c for c in value.lower() if c.isalnum()}) <= 2 or bool(
        decoded and _PHRASE.fullmatch(decoded)
    )


def _stand_in(value: str) -> bool:
    lowered = value.lower()
    return (
        lowered in _TYPE_WORDS
        or lowered in _FIELD_NAMES
        or typed_stand_in(value)
        or _ascending(lowered)
        or _stand_in_word(value)
    )


_NAMING_WORDS = frozenset(("token", "secret", "password", "passwd"))
"""Stand-in words that a real value's prefix also holds, naming what it is."""
_NAMED_PREFIX = re.compile(r"(?P<prefix>[A-Za-z_\-]{1,24})[.:](?P<run>[A-Za-z0-9_\-]{16,})")


def _stand_in_word(value: str) -> bool:
    """A value holding a :data:`STAND_IN_WORDS` word, unless it is a prefix that only
    names it and a generated part (Nexus' npm token ``NpmToken.<uuid>``, ``secret:<random>``):
    ``your-token``, ``my_secret_123``, ``example.<random>`` and a URL whose query holds
    ``token=`` stay stand-ins."""
    lowered = value.lower()
    words = {word for word in STAND_IN_WORDS if word in lowered}
    if not words or not words <= _NAMING_WORDS:
        return bool(words)
    named = _NAMED_PREFIX.fullmatch(value)
    if named is None or any(word in named["run"].lower() for word in words):
        return True
    return not random_token(named["run"], 16)


def _reference(value: str) -> bool:
    return (
        value.startswith(_REFERENCE_START)
        or bool(_PERCENT_REFERENCE.match(value))
        or any(mark in value for mark in ("${", "{{", "$(", "}}"))
        or value.startswith(("http://", "https://", "file:", "./", "../", "vault:", "env:"))
        or bool(_CODE_PATH.fullmatch(value))
        or bool(_CALL_OR_GENERIC.search(value))
    )


def placeholder(value: str) -> bool:
    """Whether ``value`` is a stand-in, a reference or code, or a version number: what
    a rule that takes any value after a keyword must not keep."""
    return not value or _stand_in(value) or _reference(value) or bool(_VERSION.fullmatch(value))


_NAME_WITH_NUMBER = re.compile(r"[A-Za-z]{1,12}[-_.]?\d{1,6}|[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+")


def name_with_number(value: str) -> bool:
    """A name with a number after it or joined as code joins words (``server-01``,
    ``SHA-256``, ``utf8``, ``x509``, ``sha256_crypt``): what a sentence puts after a
    credential word when it names a thing, not a value (``the password sha256_crypt
    hashes``)."""
    return bool(_NAME_WITH_NUMBER.fullmatch(value))


def plausible(value: str, *, minimum: int = 6) -> bool:
    """Whether ``value`` (already trimmed) can be a password or secret its context named:
    ``minimum`` characters, not a stand-in, a reference, code, a version or words; a
    digit or a symbol beside its letters (only digits: eight or more)."""
    if len(value) < minimum or _stand_in(value) or _reference(value):
        return False
    if value.isdigit():
        return len(value) >= 8  # a port, a count or a year is not a PIN worth keeping
    return not (_WORDS_ONLY.fullmatch(value) or _VERSION.fullmatch(value) or _prose(value))


def random_token(value: str, minimum: int = 12) -> bool:
    """Whether ``value`` looks generated (a key, a token): ``minimum`` characters, letters
    and digits, more than 3 bits of entropy a character, and not a stand-in or code."""
    if len(value) < minimum or _stand_in(value) or _reference(value) or _prose(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    return has_digit and has_alpha and shannon_entropy(value) > 3.0
